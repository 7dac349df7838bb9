// The plugin conformance checks (see conformance.hpp for what each one
// asserts and why).
#include "host/conformance.hpp"

#include "base/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace formatbench::conformance {
namespace {

constexpr std::uint64_t whole = 0; // chunk size meaning "the whole array in one call"
// Elements in the files the error cases damage.
constexpr std::uint64_t error_case_count = 1000;

std::string number_text(double x) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
    return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

std::string integer_text(double x) {
    return std::to_string(static_cast<long long>(x));
}

// ---- Option values derived from the declarations ---------------------------

// Valid values worth a round trip besides the default: both booleans, every
// choice, the ends of numeric ranges, and odd sizes (1, 4097) for buffers.
// Sizes above 16 MiB are left out: a check must not allocate a gigabyte.
std::vector<std::string> valid_variants(const option_info& o) {
    std::vector<std::string> out;
    constexpr double size_cap = 16.0 * 1024 * 1024;
    switch (o.type) {
    case FB_OPT_BOOL: out = {"true", "false"}; break;
    case FB_OPT_CHOICE: out = o.choices; break;
    case FB_OPT_INT:
        if (o.has_range)
            out = {integer_text(o.min), integer_text(o.max), integer_text(std::floor((o.min + o.max) / 2))};
        break;
    case FB_OPT_FLOAT:
        if (o.has_range) out = {number_text(o.min), number_text(o.max)};
        break;
    case FB_OPT_SIZE:
        if (o.has_range) {
            for (double v : {o.min, 1.0, 4097.0, o.max})
                if (v >= o.min && v <= o.max && v <= size_cap) out.push_back(integer_text(v));
        }
        break;
    case FB_OPT_STRING: break;
    }
    std::vector<std::string> unique;
    for (auto& v : out)
        if (v != o.default_value && std::find(unique.begin(), unique.end(), v) == unique.end())
            unique.push_back(v);
    return unique;
}

// Values that do not fit the declaration.
std::vector<std::string> invalid_values(const option_info& o) {
    std::vector<std::string> out;
    switch (o.type) {
    case FB_OPT_BOOL: out = {"maybe", ""}; break;
    case FB_OPT_CHOICE: out = {"no_such_choice", ""}; break;
    case FB_OPT_INT:
        out = {"abc", "1.5", ""};
        if (o.has_range && o.min > -1e18) out.push_back(integer_text(o.min - 1));
        if (o.has_range && o.max < 1e18) out.push_back(integer_text(o.max + 1));
        break;
    case FB_OPT_FLOAT:
        out = {"abc", "nan", ""};
        if (o.has_range && std::isfinite(o.min) && o.min > -1e300)
            out.push_back(number_text(o.min - std::max(1.0, std::fabs(o.min))));
        if (o.has_range && std::isfinite(o.max) && o.max < 1e300)
            out.push_back(number_text(o.max + std::max(1.0, std::fabs(o.max))));
        break;
    case FB_OPT_SIZE:
        out = {"12X", "-1", "abc", ""};
        if (o.has_range && o.min >= 1) out.push_back(integer_text(o.min - 1));
        if (o.has_range && o.max < 1e18) out.push_back(integer_text(o.max + 1));
        break;
    case FB_OPT_STRING: break; // any text is valid
    }
    // "" is legitimately valid when it is a choice.
    std::erase_if(out, [&](const std::string& v) {
        return o.type == FB_OPT_CHOICE && std::find(o.choices.begin(), o.choices.end(), v) != o.choices.end();
    });
    return out;
}

// ---- Round trips -------------------------------------------------------------

struct round_trip_case {
    fb_dtype dtype;
    std::uint64_t count;
    std::uint64_t write_chunk; // `whole` = one call
    std::uint64_t read_chunk;
    bool count_unknown = false; // pass FB_COUNT_UNKNOWN as the write hint
    option_list options;

    std::string name() const {
        auto chunk = [](std::uint64_t c) { return c == whole ? std::string("all") : std::to_string(c); };
        std::string n = fmt::format("round_trip/{}/n{}/w{}/r{}", dtype_name(dtype), count, chunk(write_chunk),
                                    chunk(read_chunk));
        if (count_unknown) n += "/hint_unknown";
        for (const auto& [k, v] : options)
            n += "/" + k + "=" + v;
        return n;
    }
};

std::vector<round_trip_case> round_trip_cases(const plugin& p, depth level) {
    std::vector<round_trip_case> out;
    using chunks = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
    // A million one-element calls is minutes for a text format: chunks of 1
    // and 3 only up to ~10^4 elements.
    const std::uint64_t medium = level == depth::quick ? 1000 : 10007;
    const std::uint64_t large = level == depth::quick ? 10007 : level == depth::standard ? 100000 : 1000000;
    for (fb_dtype d : all_dtypes) {
        if (!p.supports(d)) continue;
        auto add = [&](std::uint64_t count, const chunks& cs) {
            for (auto [w, r] : cs)
                out.push_back({d, count, w, r, false, {}});
        };
        add(0, {{whole, whole}});
        add(1, {{whole, whole}, {1, 1}});
        if (level == depth::quick) {
            add(7, {{whole, whole}, {1, 1}, {3, whole}});
            add(medium, {{whole, whole}, {3, 3}, {whole, 4097}});
            add(large, {{whole, whole}});
        } else {
            add(7, {{whole, whole}, {1, 1}, {3, 3}, {whole, 3}, {3, whole}});
            add(medium, {{whole, whole}, {1, 1}, {3, 3}, {4097, 4097}, {whole, 4097}, {4097, 1}});
            add(large, {{whole, whole}, {4097, 4097}});
        }
        if (!p.has(FB_CAP_NEEDS_COUNT)) out.push_back({d, medium, 4097, 4097, true, {}});
        // One variant per valid non-default value of each option.
        for (const auto& o : p.options())
            for (const auto& v : valid_variants(o)) {
                out.push_back({d, medium, 3, 4097, false, {{o.name, v}}});
                if (level != depth::quick) out.push_back({d, medium, whole, whole, false, {{o.name, v}}});
            }
    }
    return out;
}

void write_array(const plugin& p, const std::string& path, fb_dtype d, const unsigned char* data,
                 std::uint64_t count, std::uint64_t chunk, std::uint64_t hint, const option_list& options) {
    std::size_t size = dtype_size(d);
    auto w = p.open_write(path, d, hint, options);
    if (count == 0) w->write(data, 0); // a zero-element write is legal and must be harmless
    std::uint64_t step = chunk == whole ? std::max<std::uint64_t>(count, 1) : chunk;
    for (std::uint64_t off = 0; off < count; off += step)
        w->write(data + off * size, std::min(step, count - off));
    w->close();
}

void read_array(const plugin& p, const std::string& path, fb_dtype d, unsigned char* out, std::uint64_t count,
                std::uint64_t chunk, const option_list& options) {
    std::size_t size = dtype_size(d);
    auto r = p.open_read(path, d, count, options);
    if (count == 0) r->read(out, 0);
    std::uint64_t step = chunk == whole ? std::max<std::uint64_t>(count, 1) : chunk;
    for (std::uint64_t off = 0; off < count; off += step)
        r->read(out + off * size, std::min(step, count - off));
    r->close();
}

// The data folder's changes since w was made, other than the path the
// plugin was given, fail the check; o otherwise.
outcome watched(const folder_watch& w, outcome o) {
    const auto changed = w.changes();
    if (changed.empty()) return o;
    std::string list;
    for (const auto& c : changed)
        list += (list.empty() ? "" : ", ") + c;
    if (o.what == outcome::failed) {
        o.reason += "; and outside its path it " + list;
        return o;
    }
    return outcome::fail("beside its path the plugin " + list, rule::only_its_path);
}

outcome round_trip(const plugin& p, const round_trip_case& c) {
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    std::size_t size = dtype_size(c.dtype);
    aligned_buffer data =
        make_data(c.dtype, c.count, static_cast<std::uint64_t>(c.dtype) * 1000003 + c.count);
    try {
        p.check_options(c.options);
    } catch (const std::exception& e) {
        return outcome::fail(std::string("refused: ") + e.what(), rule::allowed_values);
    }
    // An option set the plugin itself refuses for this dtype on this
    // machine (formatbench.check-options/1: zfp on u8, a filter not
    // installed) never reaches a study's cases, so it is not round-tripped.
    try {
        p.check_option_set(c.options, c.dtype);
    } catch (const std::exception& e) {
        return outcome::skip(std::string("refused before any run: ") + e.what());
    }
    bool lossless = p.is_lossless(c.options, c.dtype);
    folder_watch watch(dir.path(), path);

    try {
        write_array(p, path, c.dtype, data.data(), c.count, c.write_chunk,
                    c.count_unknown ? FB_COUNT_UNKNOWN : c.count, c.options);
    } catch (const plugin_error& e) {
        return watched(watch, outcome::fail(std::string("write failed: ") + e.what(), rule::round_trip));
    }

    std::error_code ec;
    if (p.has(FB_CAP_NO_FILE)) {
        if (fs::exists(fs::symlink_status(path, ec)))
            return watched(watch,
                           outcome::fail("FB_CAP_NO_FILE, yet it created " + path, rule::output_at_path));
    } else if (p.has(FB_CAP_DIRECTORY_OUTPUT) && !fs::is_directory(fs::symlink_status(path, ec))) {
        return watched(watch, outcome::fail("FB_CAP_DIRECTORY_OUTPUT, yet no directory at " + path,
                                            rule::output_at_path));
    } else if (!p.has(FB_CAP_DIRECTORY_OUTPUT) && !fs::is_regular_file(fs::symlink_status(path, ec))) {
        return watched(watch, outcome::fail("no regular file at " + path, rule::output_at_path));
    }
    if (outcome o = watched(watch, outcome::pass()); o.what == outcome::failed) return o;

    guarded_buffer back(static_cast<std::size_t>(c.count) * size);
    try {
        read_array(p, path, c.dtype, back.data(), c.count, c.read_chunk, c.options);
    } catch (const plugin_error& e) {
        return watched(watch, outcome::fail(std::string("read failed: ") + e.what(), rule::round_trip));
    }
    if (std::size_t over = back.overrun(); over > 0)
        return outcome::fail(
            fmt::format("the last read wrote up to {} byte(s) past the values asked for", over),
            rule::no_overrun);

    // A lossy option set: the count came back (the read did not fail); how
    // close the values are is the study's verify step, not conformance.
    if (!lossless)
        return watched(watch, outcome::pass("lossy option set: count checked, values not compared"));

    comparison cmp = compare_exact(c.dtype, data.data(), back.data(), c.count);
    if (cmp.mismatches > 0)
        return outcome::fail(fmt::format("{} of {} values differ; first at index {}: {}", cmp.mismatches,
                                         c.count, cmp.first_mismatch, cmp.first_detail),
                             rule::bit_exact);
    std::string note;
    if (cmp.nan_payload_changes > 0)
        note = fmt::format("{} NaN(s) came back as a NaN with another payload or sign (accepted)",
                           cmp.nan_payload_changes);

    // The zero-copy view, when offered, shows the same values. It replaces
    // the reads of a stream, and a reader may drop the data at close (the
    // memory plugin does), so it gets a fresh write, made as the host makes
    // one: the old output removed first. The ABI lets a plugin decline a
    // view (FB_E_UNSUPPORTED, e.g. another byte order in the file).
    if (c.count > 0 && p.has_extension(FB_EXT_ZERO_COPY_READ_V1)) {
        try {
            fs::remove_all(path);
            write_array(p, path, c.dtype, data.data(), c.count, whole, c.count, c.options);
            auto r = p.open_read(path, c.dtype, c.count, c.options);
            const void* view = nullptr;
            try {
                view = r->view(c.count);
            } catch (const plugin_error& e) {
                if (e.status() != FB_E_UNSUPPORTED) throw;
                r->close();
                return watched(watch, outcome::pass(note + (note.empty() ? "" : "; ") +
                                                    "zero-copy view declined: " + e.what()));
            }
            if (!view) return outcome::fail("zero-copy view returned no data", rule::view_same);
            comparison vc =
                compare_exact(c.dtype, data.data(), static_cast<const unsigned char*>(view), c.count);
            if (vc.mismatches > 0)
                return outcome::fail(fmt::format("zero-copy view differs; first at {}: {}", vc.first_mismatch,
                                                 vc.first_detail),
                                     rule::view_same);
            r->close();
        } catch (const plugin_error& e) {
            return watched(watch,
                           outcome::fail(std::string("zero-copy view failed: ") + e.what(), rule::view_same));
        }
    }
    return watched(watch, outcome::pass(note));
}

// ---- Descriptor ----------------------------------------------------------------

outcome descriptor_check(const plugin& p) {
    if (p.dtypes() == 0) return outcome::fail("no dtype declared", rule::some_dtype);
    for (const auto& o : p.options()) {
        try {
            p.check_options({{o.name, o.default_value}});
        } catch (const std::exception& e) {
            return outcome::fail("the default of option '" + o.name + "' is refused: " + e.what(),
                                 rule::allowed_values);
        }
        for (const auto& c : o.choices) {
            try {
                p.check_options({{o.name, c}});
            } catch (const std::exception& e) {
                return outcome::fail("choice '" + c + "' of option '" + o.name + "' is refused: " + e.what(),
                                     rule::allowed_values);
            }
        }
        if (o.help.empty()) return outcome::fail("option '" + o.name + "' has no help text", rule::help_text);
    }
    if (p.has(FB_CAP_LOSSLESS))
        for (dtype d : all_dtypes)
            if (p.supports(d) && !p.is_lossless({}, d))
                return outcome::fail(std::string("is_lossless() says the defaults are not lossless for ") +
                                         dtype_name(d),
                                     rule::lossless_defaults);
    return outcome::pass();
}

// ---- Reading bad input -----------------------------------------------------------

// A read's status and message, and how far it wrote past the values asked
// for (0: not at all).
struct read_result {
    c_result call;
    std::size_t overrun = 0;
};

// What every failed read must look like: a status that is not "bug in the
// plugin", a message that names the path, nothing written past the values.
outcome check_read_failure(const read_result& r, const std::string& path, const std::string& what) {
    if (r.overrun > 0)
        return outcome::fail(
            fmt::format("reading {} wrote up to {} byte(s) past the values asked for", what, r.overrun),
            rule::no_overrun);
    if (r.call.ok()) return outcome::fail("reading " + what + " succeeded", rule::bad_input_fails);
    if (r.call.status == FB_E_INTERNAL || r.call.status == FB_E_STATE)
        return outcome::fail("reading " + what + " gave " + r.call.text(), rule::read_status);
    if (r.call.message.find(path) == std::string::npos)
        return outcome::fail("reading " + what + ": '" + path + "' is not in " + r.call.text(),
                             rule::names_path);
    return outcome::pass();
}

// Writes a valid file of count values; "" on success.
std::string write_valid(const plugin& p, const std::string& path, fb_dtype d,
                        std::uint64_t count = error_case_count, std::uint64_t seed = 7) {
    aligned_buffer data = make_data(d, count, seed);
    c_result w = c_write(p.descriptor(), path, d, data.data(), count, count, {});
    return w.ok() ? "" : "could not write a valid file: " + w.text();
}

// Reads count values in one call into a guarded buffer; out, when given,
// gets a copy of what was read.
read_result read_back(const plugin& p, const std::string& path, fb_dtype d,
                      std::uint64_t count = error_case_count, std::vector<unsigned char>* out = nullptr) {
    guarded_buffer buf(static_cast<std::size_t>(count) * dtype_size(d));
    read_result r{c_read(p.descriptor(), path, d, buf.data(), count, std::max<std::uint64_t>(count, 1), {}),
                  0};
    r.overrun = buf.overrun();
    if (out) out->assign(buf.data(), buf.data() + buf.size());
    return r;
}

void write_bytes(const std::string& file, std::size_t n, std::uint64_t seed) {
    aligned_buffer junk = make_data(FB_DTYPE_U8, n, seed);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(junk.data()), static_cast<std::streamsize>(n));
}

// Overwrites n bytes at offset of file with random bytes (not extending it).
void scribble(const std::string& file, std::uint64_t offset, std::size_t n, std::uint64_t seed) {
    std::uint64_t size = fs::file_size(file);
    if (offset >= size) return;
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, size - offset));
    aligned_buffer junk = make_data(FB_DTYPE_U8, n, seed);
    std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(reinterpret_cast<const char*>(junk.data()), static_cast<std::streamsize>(n));
}

// Inverts every bit of n bytes of file, the last of them at `end` - 1
// (n is cut at the start of the file), so each of them surely changes.
void flip_before(const std::string& file, std::uint64_t end, std::size_t n) {
    std::uint64_t size = fs::file_size(file);
    end = std::min(end, size);
    std::uint64_t start = end > n ? end - n : 0;
    std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
    std::string bytes(static_cast<std::size_t>(end - start), '\0');
    f.seekg(static_cast<std::streamoff>(start));
    f.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    for (char& b : bytes)
        b = static_cast<char>(~b);
    f.seekp(static_cast<std::streamoff>(start));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

constexpr const char* no_file_reason = "plugin writes no file (FB_CAP_NO_FILE): no file to damage";

outcome missing_file(const plugin& p) {
    scratch_dir dir;
    std::string path = dir.file("missing", p.extension());
    fb_dtype d = widest_dtype(p);
    folder_watch watch(dir.path(), path);
    // Through the host wrapper: a plugin_error, not another exception.
    try {
        aligned_buffer out(error_case_count * dtype_size(d));
        read_array(p, path, d, out.data(), error_case_count, whole, {});
        return outcome::fail("reading a missing file succeeded", rule::bad_input_fails);
    } catch (const plugin_error&) {
    }
    return watched(watch, check_read_failure(read_back(p, path, d), path, "a missing file"));
}

// Damages a valid file with `damage` and reads it. must_fail: whether a
// successful read is a failure of the check (not for corruption: a format
// without structure cannot tell changed bytes from data).
outcome damaged_file(const plugin& p, const std::string& what, bool must_fail,
                     const std::function<void(const std::string&)>& damage) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip(no_file_reason);
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    fb_dtype d = widest_dtype(p);
    if (auto e = write_valid(p, path, d); !e.empty()) return outcome::fail(e, rule::round_trip);
    for (const auto& f : output_files(path))
        damage(f);
    folder_watch watch(dir.path(), path);
    read_result r = read_back(p, path, d);
    if (r.call.ok() && r.overrun == 0 && !must_fail)
        return watched(watch, outcome::pass("read back without error (allowed: bytes of data may change)"));
    return watched(watch, check_read_failure(r, path, what));
}

outcome empty_file(const plugin& p) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip(no_file_reason);
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    if (p.has(FB_CAP_DIRECTORY_OUTPUT))
        fs::create_directory(path);
    else
        std::ofstream(path, std::ios::binary);
    folder_watch watch(dir.path(), path);
    return watched(watch, check_read_failure(read_back(p, path, widest_dtype(p)), path, "an empty file"));
}

outcome garbage_file(const plugin& p) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip(no_file_reason);
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    fb_dtype d = widest_dtype(p);
    // Random bytes of a length that is no whole number of values: a format
    // without structure (raw) can only tell garbage by its size.
    if (p.has(FB_CAP_DIRECTORY_OUTPUT)) {
        if (auto e = write_valid(p, path, d); !e.empty()) return outcome::fail(e, rule::round_trip);
        std::uint64_t seed = 1;
        for (const auto& f : output_files(path))
            write_bytes(f, 12345, ++seed);
    } else {
        write_bytes(path, 12345, 1);
    }
    folder_watch watch(dir.path(), path);
    return watched(watch, check_read_failure(read_back(p, path, d), path, "a file of random bytes"));
}

// ---- Writing over an existing file ---------------------------------------------------

// A file of 3 x error_case_count values, then error_case_count other values
// written at the same path: reading the smaller count gives the new values,
// and reading the old count fails (the file holds fewer values now). A
// writer that did not truncate leaves a mix, whose start may even read back
// right, but whose old tail still reads as values.
outcome overwrite_existing(const plugin& p) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip("plugin writes no file (FB_CAP_NO_FILE)");
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    fb_dtype d = widest_dtype(p);
    const std::uint64_t old_count = 3 * error_case_count;
    if (auto e = write_valid(p, path, d, old_count, 21); !e.empty())
        return outcome::fail(e, rule::round_trip);
    folder_watch watch(dir.path(), path);
    aligned_buffer fresh = make_data(d, error_case_count, 22);
    c_result w = c_write(p.descriptor(), path, d, fresh.data(), error_case_count, error_case_count, {});
    if (!w.ok())
        return watched(watch, outcome::fail("writing over the file failed: " + w.text(), rule::overwrite));
    std::vector<unsigned char> back;
    read_result r = read_back(p, path, d, error_case_count, &back);
    if (r.overrun > 0 || !r.call.ok())
        return watched(watch, r.overrun ? check_read_failure(r, path, "the new file")
                                        : outcome::fail("reading the new file failed: " + r.call.text(),
                                                        rule::overwrite));
    if (p.is_lossless({}, d)) {
        comparison cmp = compare_exact(d, fresh.data(), back.data(), error_case_count);
        if (cmp.mismatches > 0)
            return watched(watch,
                           outcome::fail(fmt::format("{} of the {} new values read back differ; first at "
                                                     "index {}: {}",
                                                     cmp.mismatches, error_case_count, cmp.first_mismatch,
                                                     cmp.first_detail),
                                         rule::overwrite));
    }
    read_result old = read_back(p, path, d, old_count);
    if (old.call.ok() && old.overrun == 0)
        return watched(watch,
                       outcome::fail(fmt::format("{} values read back from a file of {} written over one of "
                                                 "{}: the old file's values are still there",
                                                 old_count, error_case_count, old_count),
                                     rule::overwrite));
    return watched(
        watch,
        check_read_failure(old, path, fmt::format("{} values of a file of {}", old_count, error_case_count)));
}

// ---- Options -------------------------------------------------------------------

outcome bad_option(const plugin& p, const std::string& name, const std::string& value) {
    option_list opts{{name, value}};
    try {
        p.check_options(opts);
        return outcome::fail("the host's check_options accepted " + name + "='" + value + "'",
                             rule::declarations_refuse);
    } catch (const usage_error&) {
    }
    fb_dtype d = widest_dtype(p);
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    folder_watch watch(dir.path(), path); // the path itself: see below
    bool stream = false;
    c_result w = c_open_write(p.descriptor(), path, d, error_case_count, opts, stream);
    if (w.status != FB_E_INVALID_OPTION)
        return watched(watch, outcome::fail("open_write with " + name + "='" + value +
                                                "': expected FB_E_INVALID_OPTION, got " +
                                                (w.ok() ? std::string("FB_OK") : w.text()),
                                            rule::bad_option_refused));
    if (stream) return outcome::fail("open_write failed but returned a stream", rule::bad_option_refused);
    std::error_code ec;
    if (fs::exists(fs::symlink_status(path, ec)))
        return outcome::fail("open_write with a bad option left " + path, rule::bad_option_refused);
    // On a missing file: an I/O error here would mean the file was opened
    // before the options were checked.
    c_result r = c_open_read(p.descriptor(), path, d, error_case_count, opts, stream);
    if (r.status != FB_E_INVALID_OPTION)
        return watched(watch, outcome::fail("open_read with " + name + "='" + value +
                                                "': expected FB_E_INVALID_OPTION, got " +
                                                (r.ok() ? std::string("FB_OK") : r.text()),
                                            rule::bad_option_refused));
    if (stream) return outcome::fail("open_read failed but returned a stream", rule::bad_option_refused);
    return watched(watch, outcome::pass());
}

// ---- Writing where it cannot succeed -----------------------------------------------

// What every failed write must look like: FB_E_IO (or, where the path is
// not a regular file, FB_E_UNSUPPORTED) with a message that names the path.
outcome check_write_failure(const c_result& w, const std::string& path, const std::string& what,
                            bool device = false) {
    if (w.ok()) return outcome::fail("writing " + what + " succeeded", rule::write_fails);
    if (w.status != FB_E_IO && !(device && w.status == FB_E_UNSUPPORTED))
        return outcome::fail("writing " + what + " gave " + w.text(), rule::write_status);
    if (w.message.find(path) == std::string::npos)
        return outcome::fail("writing " + what + ": '" + path + "' is not in " + w.text(), rule::names_path);
    return outcome::pass();
}

std::string file_name(const plugin& p) {
    return "data" + (p.extension().empty() ? "" : "." + p.extension());
}

enum class unwritable { below_file, missing_folder, read_only_folder };

outcome write_unwritable(const plugin& p, unwritable where) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip("plugin writes no file (FB_CAP_NO_FILE)");
    fb_dtype d = widest_dtype(p);
    aligned_buffer data = make_data(d, error_case_count, 3);
    scratch_dir dir;
    std::string path, what;
    switch (where) {
    case unwritable::below_file:
        // ENOTDIR, also for root.
        std::ofstream(dir.path() + "/plain_file") << "not a directory\n";
        path = dir.path() + "/plain_file/" + file_name(p);
        what = "below a regular file";
        break;
    case unwritable::missing_folder:
        path = dir.path() + "/no/such/folder/" + file_name(p);
        what = "into a folder that does not exist";
        break;
    case unwritable::read_only_folder:
        // Root (or CAP_DAC_OVERRIDE) writes into a 0555 folder anyway.
        if (!permissions_are_enforced(dir.path()))
            return outcome::skip(
                "this process ignores file permissions (root): a 0555 folder proves nothing");
        fs::create_directory(dir.path() + "/ro");
        fs::permissions(dir.path() + "/ro", fs::perms::owner_read | fs::perms::owner_exec);
        path = dir.path() + "/ro/" + file_name(p);
        what = "into a 0555 folder";
        break;
    }
    folder_watch watch(dir.path(), path);
    c_result w = c_write(p.descriptor(), path, d, data.data(), error_case_count, error_case_count, {});
    return watched(watch, check_write_failure(w, path, what));
}

outcome full_device(const plugin& p) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip("plugin writes no file (FB_CAP_NO_FILE)");
    if (p.has(FB_CAP_DIRECTORY_OUTPUT))
        return outcome::skip("directory output: a device cannot be the directory");
    scratch_dir dir;
    // Our own node for the full device (char 1:7), so that a plugin which
    // removes its path on failure cannot remove the system's /dev/full.
    // Without the right to mknod, /dev/full itself is used only when this
    // process could not remove it anyway (not root).
    std::string path = dir.path() + "/full";
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
        if (::geteuid() == 0)
            return outcome::skip("cannot mknod a full device here (" + std::string(std::strerror(errno)) +
                                 ") and will not risk /dev/full as root");
        path = "/dev/full";
    }
    fb_dtype d = widest_dtype(p);
    // 4 MiB: more than any sensible buffer, so the error cannot hide in one.
    std::uint64_t count = (4u << 20) / dtype_size(d);
    aligned_buffer data = make_data(d, count, 5);
    folder_watch watch(dir.path(), path);
    c_result w = c_write(p.descriptor(), path, d, data.data(), count, 65536, {});
    outcome o = check_write_failure(w, path, "to a full device", true);
    struct stat st {};
    if (!(::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode)))
        return outcome::fail("the device at " + path + " was removed or replaced", rule::removes_only_own);
    return watched(watch, o);
}

// Bytes a file may grow to in write_error/file_size_limit.
constexpr std::uint64_t size_limit_bytes = 64 * 1024;

// The full-disk case through a path the plugin creates itself: a device
// node lets a writer that opens with O_CREAT | O_EXCL fail with EEXIST at
// open and never meet a failing write. Here the file is new, and every
// write(2) past 64 KiB fails with EFBIG (RLIMIT_FSIZE, which needs no
// privilege and binds root too), as a full disk fails it with ENOSPC.
outcome size_limited_file(const plugin& p) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip("plugin writes no file (FB_CAP_NO_FILE)");
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    fb_dtype d = widest_dtype(p);
    // 4 MiB of random bits: no codec shrinks them below the limit.
    std::uint64_t count = (4u << 20) / dtype_size(d);
    aligned_buffer data = make_data(d, count, 9);
    folder_watch watch(dir.path(), path);
    c_result w;
    {
        file_size_limit limit(size_limit_bytes);
        w = c_write(p.descriptor(), path, d, data.data(), count, 65536, {});
    }
    return watched(watch, check_write_failure(w, path, "a file that cannot grow past 64 KiB"));
}

} // namespace

std::vector<check> plan_checks(const plugin& p, const settings& s) {
    const plugin* pp = &p;
    std::vector<check> out;
    out.push_back({"descriptor", [pp] { return descriptor_check(*pp); }});
    for (const auto& c : round_trip_cases(p, s.level))
        out.push_back({c.name(), [pp, c] { return round_trip(*pp, c); }});
    out.push_back({"overwrite/existing_file", [pp] { return overwrite_existing(*pp); }});

    out.push_back({"read_error/missing_file", [pp] { return missing_file(*pp); }});
    // Half of each file: cutting only the last byte may legitimately leave a
    // complete text file (a final newline).
    out.push_back({"read_error/truncated_file", [pp] {
                       return damaged_file(
                           *pp, "a file cut to half its size", true,
                           [](const std::string& f) { fs::resize_file(f, fs::file_size(f) / 2); });
                   }});
    out.push_back({"read_error/empty_file", [pp] { return empty_file(*pp); }});
    out.push_back({"read_error/garbage_file", [pp] { return garbage_file(*pp); }});
    // Where headers live: the first 64 bytes overwritten.
    out.push_back({"read_error/corrupt_header", [pp] {
                       return damaged_file(*pp, "a file with its first 64 bytes overwritten", false,
                                           [](const std::string& f) { scribble(f, 0, 64, 11); });
                   }});
    // Past any header: a reader that checks its header never shows its
    // stream-corruption path to corrupt_header. 16 bytes inverted before
    // half, three quarters and the end of each file (where checksums and
    // trailers live).
    struct position {
        const char* name;
        const char* where;
        int num, den; // the flipped bytes end at num/den of the file
    };
    for (const position& at :
         {position{"middle", "middle", 1, 2}, position{"three_quarters", "three-quarter mark", 3, 4},
          position{"end", "end", 1, 1}}) {
        const int num = at.num, den = at.den;
        out.push_back(
            {std::string("read_error/corrupt_") + at.name,
             [pp, what = std::string("a file with 16 bytes inverted before its ") + at.where, num, den] {
                 return damaged_file(*pp, what, false, [num, den](const std::string& f) {
                     flip_before(f, fs::file_size(f) * num / den, 16);
                 });
             }});
    }

    std::vector<std::pair<std::string, std::string>> bad = {{"no_such_option_xyz", "1"}};
    for (const auto& o : p.options())
        for (const auto& v : invalid_values(o))
            bad.emplace_back(o.name, v);
    // Plain copies, not structured bindings: clang 14 cannot capture those.
    for (const auto& option : bad) {
        std::string name = option.first, value = option.second;
        out.push_back({"bad_option/" + name + "='" + value + "'",
                       [pp, name, value] { return bad_option(*pp, name, value); }});
    }

    out.push_back(
        {"write_error/below_regular_file", [pp] { return write_unwritable(*pp, unwritable::below_file); }});
    out.push_back(
        {"write_error/missing_folder", [pp] { return write_unwritable(*pp, unwritable::missing_folder); }});
    out.push_back({"write_error/read_only_folder",
                   [pp] { return write_unwritable(*pp, unwritable::read_only_folder); }});
    out.push_back({"write_error/full_device", [pp] { return full_device(*pp); }});
    out.push_back({"write_error/file_size_limit", [pp] { return size_limited_file(*pp); }});
    return out;
}

bool selected(const settings& s, const std::string& name) {
    if (s.only.empty()) return true;
    return std::any_of(s.only.begin(), s.only.end(), [&](const std::string& pattern) {
        return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
    });
}

check_result run_check(const check& c, const settings& s) {
    auto start = std::chrono::steady_clock::now();
    outcome o = run_in_child(c.body, s.timeout_seconds, s.stop);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {c.name, std::move(o), seconds};
}

std::size_t report::count(outcome::kind k) const {
    return static_cast<std::size_t>(std::count_if(results.begin(), results.end(),
                                                  [k](const check_result& r) { return r.result.what == k; }));
}

report check_loaded_plugin(const plugin& p, const settings& s,
                           const std::function<void(const check_result&)>& progress) {
    report rep;
    rep.file = p.file().string();
    rep.plugin_id = p.id();
    rep.plugin_version = p.version();
    rep.abi = fmt::format("{}.{}", p.abi_major(), p.abi_minor());
    for (const auto& c : plan_checks(p, s)) {
        if (!selected(s, c.name)) continue;
        if (s.stop && *s.stop) {
            rep.interrupted = true;
            break;
        }
        check_result r = run_check(c, s);
        // A check stopped half-way is no result of the plugin's.
        if (s.stop && *s.stop) {
            rep.interrupted = true;
            break;
        }
        rep.results.push_back(std::move(r));
        if (progress) progress(rep.results.back());
    }
    return rep;
}

} // namespace formatbench::conformance
