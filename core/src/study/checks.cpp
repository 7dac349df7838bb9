// Checks of a read study against the plugins and the file system (checks.hpp).
#include "study/checks.hpp"

#include "base/block_device.hpp"
#include "base/error.hpp"
#include "base/suggest.hpp"
#include "study/access.hpp"

#include <fmt/format.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <tuple>

namespace formatbench {

namespace {

// The largest |value| a generated float data set holds (about: normal's
// 5 standard deviations), or nothing when it is not known (from_file, 0).
std::optional<double> magnitude(const dataset_spec& d) {
    if (!d.file.empty()) return std::nullopt;
    double m = 0;
    switch (d.dist) {
    case distribution::uniform: m = std::nextafter(1.0, 0.0); break; // [0, 1)
    case distribution::smooth: m = 1 + 5e-4; break;                  // 0.5 + 0.5 sin + noise
    case distribution::normal: m = std::fabs(d.mean) + 5 * d.stddev; break;
    case distribution::constant: m = std::fabs(d.value); break;
    case distribution::integers:
        m = std::max(std::fabs(static_cast<double>(d.low)), std::fabs(static_cast<double>(d.high)));
        break;
    }
    if (!(m > 0) || !std::isfinite(m)) return std::nullopt;
    return m;
}

// A lossy format's tolerance below half the dtype's spacing at the data's
// largest values: no value stored in the dtype is nearer than that to a
// real number it approximates, so there only exact values pass (libzfp's
// f32 at accuracy 1e-10 misses a few hundred values of 60,000 by one unit
// in the last place). 0 asks for exact values on purpose. A warning: a
// format may well be exact there (text with enough digits).
std::optional<std::string> tolerance_warning(const format_spec& f, const dataset_spec& d) {
    if (d.type != FB_DTYPE_F32 && d.type != FB_DTYPE_F64) return std::nullopt;
    const auto m = magnitude(d);
    if (!m) return std::nullopt;
    const int digits = d.type == FB_DTYPE_F32 ? 24 : 53;
    double top = *m;
    if (d.type == FB_DTYPE_F32) { // the largest f32 not above it (1 - 2^-53 rounds up to 1)
        float x = static_cast<float>(*m);
        if (static_cast<double>(x) > *m) x = std::nextafter(x, 0.0f);
        top = x;
    }
    const double half = std::ldexp(1.0, std::ilogb(top) - digits);
    const double allowed = f.tolerance.allowed(top);
    if (allowed == 0 || allowed >= half) return std::nullopt;
    const tolerance_spec& t = f.tolerance;
    const std::string given = std::isnan(t.rel)   ? fmt::format("{{abs: {:g}}}", t.abs)
                              : std::isnan(t.abs) ? fmt::format("{{rel: {:g}}}", t.rel)
                                                  : fmt::format("{{abs: {:g}, rel: {:g}}}", t.abs, t.rel);
    return fmt::format(
        "format '{}', dataset '{}': tolerance {} is finer than {} can hold near {:g}, the data's "
        "largest values, where a value is at best {:.3g} from the number it approximates: "
        "there only exact values pass; the smallest bound {} allows there is {{abs: {:.3g}}} "
        "(or {{rel: {:.3g}}}){}",
        f.label, d.name, given, dtype_name(d.type), top, half, dtype_name(d.type), half,
        std::ldexp(1.0, -digits), d.type == FB_DTYPE_F32 ? ", or use dtype f64" : "");
}

} // namespace

std::vector<std::string> check_study_plugins(const study& s, const registry& reg) {
    std::vector<std::string> warnings;
    auto at = [](const std::string& origin) { return origin.empty() ? std::string() : origin + ": "; };
    std::set<std::string> checked_formats, checked_datasets;
    std::set<std::pair<std::string, dtype>> checked_dtypes;
    std::set<std::tuple<std::string, dtype, std::uint64_t, std::vector<std::uint64_t>, fb_read_access>>
        checked_cases;
    std::set<std::pair<std::string, std::string>> checked_tolerances;
    std::set<std::string> labels, base_labels;
    for (const auto& c : s.cases) {
        const format_spec& f = c.format;
        const dataset_spec& d = c.dataset;
        labels.insert(f.label);
        base_labels.insert(f.base_label);
        const std::string where = at(f.origin) + fmt::format("format '{}': ", f.label);
        const plugin* p = reg.find(f.plugin);
        if (!p) {
            try {
                reg.get(f.plugin);
            } catch (const usage_error& e) {
                throw usage_error(where + e.what());
            }
        }
        if (checked_formats.insert(f.label).second) {
            try {
                p->check_options(f.options);
            } catch (const usage_error& e) {
                throw usage_error(where + e.what());
            }
        }
        if (c.params.read == read_mode::view && c.params.access != access_mode::whole)
            throw usage_error(where +
                              fmt::format("read: view takes one zero-copy view of the whole array and "
                                          "does not combine with access: {} (operations timed one by "
                                          "one through read-at or read-box): use read: copy with "
                                          "access: {}, or access: whole with read: view",
                                          to_string(c.params.access), to_string(c.params.access)));
        if (c.params.read == read_mode::view && !p->has_extension(FB_EXT_ZERO_COPY_READ_V1)) {
            std::vector<std::string> offering;
            for (const auto& q : reg.plugins())
                if (q->has_extension(FB_EXT_ZERO_COPY_READ_V1)) offering.push_back(q->id());
            throw usage_error(where +
                              fmt::format("read: view needs the zero-copy read extension ({}), which plugin "
                                          "'{}' does not offer (plugins that do: {}); use read: copy "
                                          "for this format",
                                          FB_EXT_ZERO_COPY_READ_V1, p->id(),
                                          offering.empty() ? "none" : join(offering)));
        }
        if (c.params.layout == layout_mode::shared_file && !p->has_parts()) {
            std::vector<std::string> offering;
            for (const auto& q : reg.plugins())
                if (q->has_parts()) offering.push_back(q->id());
            throw usage_error(where + fmt::format("layout: shared_file needs the shared-file extension ({}), "
                                                  "which plugin '{}' does not offer (plugins that do: {}); "
                                                  "use layout: file_per_rank for this format",
                                                  FB_EXT_PART_V1, p->id(),
                                                  offering.empty() ? "none" : join(offering)));
        }
        if (c.params.access != access_mode::whole) {
            const access_check a = check_access(c.params, d);
            if (!a.error.empty()) throw usage_error(where + a.error);
            const bool plane = c.params.access == access_mode::plane;
            const char* ext = plane ? FB_EXT_READ_BOX_V1 : FB_EXT_READ_AT_V1;
            auto can = [plane](const plugin& q) { return plane ? q.has_read_box() : q.has_read_at(); };
            if (!can(*p)) {
                std::vector<std::string> offering;
                for (const auto& q : reg.plugins())
                    if (can(*q)) offering.push_back(q->id());
                throw usage_error(where + fmt::format("access: {} needs {} ({}), which plugin '{}' does not "
                                                      "offer (plugins that do: {}); use access: whole for "
                                                      "this format",
                                                      to_string(c.params.access), ext,
                                                      plane ? "reading boxes of an N-D array"
                                                            : "reading elements at an offset",
                                                      p->id(), offering.empty() ? "none" : join(offering)));
            }
            if (c.params.layout == layout_mode::shared_file)
                throw usage_error(where + fmt::format("access: {} reads the whole file of one process; it "
                                                      "does not combine with layout: shared_file",
                                                      to_string(c.params.access)));
        }
        if (c.params.direct && !p->has(FB_CAP_DIRECT_IO)) {
            std::vector<std::string> offering;
            for (const auto& q : reg.plugins())
                if (q->has(FB_CAP_DIRECT_IO)) offering.push_back(q->id());
            throw usage_error(where +
                              fmt::format("direct: true reads with O_DIRECT, which plugin '{}' cannot "
                                          "(plugins that can: {}); use direct: false for this format",
                                          p->id(), offering.empty() ? "none" : join(offering)));
        }
        if (checked_dtypes.emplace(f.label, d.type).second) {
            if (!p->supports(d.type))
                throw usage_error(
                    where +
                    fmt::format("plugin '{}' does not support dtype {} (dataset '{}'); it supports {}",
                                p->id(), dtype_name(d.type), d.name, join(dtype_names(p->dtypes()))));
            // What the declarations cannot say (formatbench.check-options/1):
            // a combination or a missing codec, refused here, not at write.
            try {
                p->check_option_set(f.options, d.type);
            } catch (const usage_error& e) {
                throw usage_error(where + e.what());
            }
            // A lossy option set is judged by its error, which the study
            // must bound: without a tolerance no value could fail the case.
            if (!f.tolerance.given() && !p->is_lossless(f.options, d.type))
                throw usage_error(
                    where +
                    fmt::format("plugin '{}' is lossy with these options for dtype {} (dataset '{}'), "
                                "so its values are judged by a tolerance: give the format one, like "
                                "'tolerance: {{abs: 1e-6}}' or '{{rel: 1e-9}}' (docs/config.md, "
                                "Tolerance), or choose lossless options",
                                p->id(), dtype_name(d.type), d.name));
        }
        if (f.tolerance.given() && checked_tolerances.emplace(f.label, d.name).second &&
            !p->is_lossless(f.options, d.type)) {
            if (auto w = tolerance_warning(f, d)) warnings.push_back(at(f.origin) + *w);
        }
        // What depends on the case (formatbench.check-case/1): the shape's
        // rank against chunk extents, a read at offsets against one frame.
        const fb_read_access reading = c.params.access == access_mode::whole   ? FB_READ_WHOLE
                                       : c.params.access == access_mode::plane ? FB_READ_BOX
                                                                               : FB_READ_AT;
        if (checked_cases.emplace(f.label, d.type, d.count, d.shape, reading).second) {
            try {
                p->check_case(f.options, d.type, d.count, d.shape, reading);
            } catch (const usage_error& e) {
                throw usage_error(where +
                                  fmt::format("dataset '{}'{}: ", d.name,
                                              reading == FB_READ_WHOLE
                                                  ? std::string()
                                                  : ", access: " + std::string(to_string(c.params.access))) +
                                  e.what());
            }
        }
        if (!d.file.empty() && checked_datasets.insert(d.name).second) {
            const std::string dwhere = at(d.origin) + fmt::format("dataset '{}': from_file: ", d.name);
            try {
                const plugin& fp = reg.get(d.file_plugin);
                if (!fp.supports(d.type))
                    throw usage_error(fmt::format("plugin '{}' does not support dtype {}; it supports {}",
                                                  fp.id(), dtype_name(d.type),
                                                  join(dtype_names(fp.dtypes()))));
                fp.check_options(d.file_options);
            } catch (const usage_error& e) {
                throw usage_error(dwhere + e.what());
            }
        }
    }
    if (!s.baseline.empty() && !labels.count(s.baseline) && !base_labels.count(s.baseline))
        throw usage_error(fmt::format("{}: baseline: no format is labelled '{}'; the labels are: {}",
                                      s.source, s.baseline,
                                      join(std::vector<std::string>(labels.begin(), labels.end()))));
    return warnings;
}

void check_study_mpi(const study& s, const registry& reg, bool under_mpi, bool built_with_mpi) {
    if (under_mpi) return;
    for (const auto& c : s.cases) {
        const plugin* p = reg.find(c.format.plugin);
        if (!p || !p->has_mpi()) continue;
        const std::string where = (c.format.origin.empty() ? std::string() : c.format.origin + ": ") +
                                  fmt::format("format '{}': ", c.format.label);
        throw usage_error(
            where + fmt::format("plugin '{}' calls MPI itself ({}, built against {}) and runs only on the "
                                "ranks of an MPI job: run the study under mpirun (mpirun -np N formatbench "
                                "run ...){}",
                                p->id(), FB_EXT_MPI_V1, p->mpi_implementation(),
                                built_with_mpi ? ""
                                               : ", with a formatbench built with MPI (this one was not: "
                                                 "meson setup -Dmpi=enabled, with libopenmpi-dev)"));
    }
}

std::vector<std::string> drop_missing_optional_formats(study& s, const registry& reg) {
    std::vector<std::string> notes;
    std::set<std::pair<std::string, std::string>> noted; // (origin, plugin): one note per study entry
    std::vector<case_spec> kept;
    kept.reserve(s.cases.size());
    for (auto& c : s.cases) {
        if (!c.format.optional || reg.find(c.format.plugin)) {
            kept.push_back(std::move(c));
            continue;
        }
        if (noted.emplace(c.format.origin, c.format.plugin).second)
            notes.push_back(fmt::format(
                "{}format '{}' skipped: plugin '{}' is not installed and the format is "
                "marked optional (see `formatbench plugins`)",
                c.format.origin.empty() ? "" : c.format.origin + ": ", c.format.base_label, c.format.plugin));
    }
    if (kept.empty() && !s.cases.empty())
        throw usage_error(fmt::format("{}: every format is optional and none of their plugins is installed; "
                                      "nothing to run (see `formatbench plugins`)",
                                      s.source));
    for (std::size_t i = 0; i < kept.size(); ++i)
        kept[i].index = i;
    s.cases = std::move(kept);
    // The baseline, the published speed-ups and the pairs follow their
    // formats: the baseline is the first choice that still has a case, a
    // published speed-up or a pair whose format or reference was dropped
    // goes with it.
    auto runs = [&](const std::string& label) {
        for (const case_spec& c : s.cases)
            if (c.format.label == label || c.format.base_label == label) return true;
        return false;
    };
    if (!s.baseline_choices.empty()) {
        const std::string before = s.baseline;
        s.baseline = s.baseline_choices.back();
        for (const std::string& label : s.baseline_choices)
            if (runs(label)) {
                s.baseline = label;
                break;
            }
        if (s.baseline != before)
            notes.push_back(
                fmt::format("baseline: '{}' does not run here; the baseline is '{}'", before, s.baseline));
    }
    std::erase_if(s.published,
                  [&](const published_speedup& p) { return !runs(p.format) || !runs(p.against); });
    std::erase_if(s.pairs, [&](const format_pair& p) { return !runs(p.format) || !runs(p.against); });
    return notes;
}

namespace {

// direct: true: the data folder lies on a block device, and every read-at
// range is a whole number of its logical blocks (O_DIRECT's rule).
void check_direct_io(const study& s) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string folder = !s.directory.empty() ? s.directory : tmp && *tmp ? tmp : "/tmp";
    std::optional<std::uint64_t> block;
    bool asked = false;
    for (const auto& c : s.cases) {
        if (!c.params.direct) continue;
        if (!asked) {
            block = logical_block_size(folder);
            asked = true;
        }
        const std::string where = (c.format.origin.empty() ? "" : c.format.origin + ": ") +
                                  fmt::format("format '{}': direct: true: ", c.format.label);
        if (!block)
            throw usage_error(where + fmt::format("the data folder '{}' is on no block device (tmpfs?), so "
                                                  "O_DIRECT cannot reach a disk; give `directory:` a folder "
                                                  "on a disk",
                                                  folder));
        if (c.params.access == access_mode::whole || c.params.access == access_mode::plane) continue;
        const access_geometry g = check_access(c.params, c.dataset).geometry;
        const std::uint64_t esize = dtype_size(c.dataset.type);
        auto aligned = [&](const char* key, std::uint64_t elements) {
            if ((elements * esize) % *block != 0)
                throw usage_error(where + fmt::format("{} {} B is not a multiple of {} B, the logical block "
                                                      "size of the device under '{}', which O_DIRECT needs; "
                                                      "use a multiple of {} B",
                                                      key, elements * esize, *block, folder, *block));
        };
        aligned("access_block", g.block);
        if (c.params.access == access_mode::strided) aligned("access_stride", g.stride);
        if (c.params.access == access_mode::sequential && (c.dataset.count * esize) % *block != 0 &&
            g.ops * g.block > c.dataset.count)
            throw usage_error(where +
                              fmt::format("the last block of data set '{}' ({} B) is not a whole number "
                                          "of {} B blocks, which O_DIRECT needs; read fewer blocks "
                                          "(access_ops) or choose a count that is",
                                          c.dataset.name, c.dataset.count * esize, *block));
    }
}

} // namespace

void check_study_paths(const study& s) {
    std::set<std::string> checked;
    for (const auto& c : s.cases) {
        const dataset_spec& d = c.dataset;
        if (d.file.empty() || !checked.insert(d.file).second) continue;
        const std::string where = (d.origin.empty() ? "" : d.origin + ": ") +
                                  fmt::format("dataset '{}': from_file: '{}'", d.name, d.file);
        struct stat st {};
        if (::stat(d.file.c_str(), &st) != 0)
            throw usage_error(fmt::format("{} cannot be read: {}", where, std::strerror(errno)));
        if (!S_ISREG(st.st_mode)) throw usage_error(fmt::format("{} is not a regular file", where));
        if (::access(d.file.c_str(), R_OK) != 0)
            throw usage_error(fmt::format("{} cannot be read: {}", where, std::strerror(errno)));
    }
    if (s.directory.empty()) {
        check_direct_io(s);
        return;
    }
    struct stat st {};
    if (::stat(s.directory.c_str(), &st) != 0)
        throw usage_error(
            fmt::format("{}: directory '{}' does not exist ({}); create it, or leave directory out "
                        "for a fresh folder under $TMPDIR",
                        s.source, s.directory, std::strerror(errno)));
    if (!S_ISDIR(st.st_mode))
        throw usage_error(fmt::format("{}: directory '{}' is not a folder", s.source, s.directory));
    if (::access(s.directory.c_str(), W_OK | X_OK) != 0)
        throw usage_error(fmt::format("{}: directory '{}' cannot be written: {}", s.source, s.directory,
                                      std::strerror(errno)));
    check_direct_io(s);
}

} // namespace formatbench
