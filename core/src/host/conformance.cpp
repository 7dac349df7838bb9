// The plugin conformance checks (see conformance.hpp for what each one
// asserts and why).
#include "host/conformance.hpp"

#include "base/error.hpp"
#include "base/splitmix.hpp"

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
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
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
                 std::uint64_t count, std::uint64_t chunk, std::uint64_t hint, const option_list& options,
                 const open_layout& layout = {}) {
    std::size_t size = dtype_size(d);
    auto w = p.open_write(path, d, hint, options, layout);
    if (count == 0) w->write(data, 0); // a zero-element write is legal and must be harmless
    std::uint64_t step = chunk == whole ? std::max<std::uint64_t>(count, 1) : chunk;
    for (std::uint64_t off = 0; off < count; off += step)
        w->write(data + off * size, std::min(step, count - off));
    w->close();
}

void read_array(const plugin& p, const std::string& path, fb_dtype d, unsigned char* out, std::uint64_t count,
                std::uint64_t chunk, const option_list& options, const open_layout& layout = {}) {
    std::size_t size = dtype_size(d);
    auto r = p.open_read(path, d, count, options, layout);
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

// ---- Random access and direct I/O (ABI 1.2) ----------------------------------------

// Elements in the files the read-at checks read: more than 10^4 (element
// 1000 and ranges of every length lie inside), and an odd number, so the
// payload is no whole number of blocks.
constexpr std::uint64_t random_access_count = 10007;
// What a buffer holds before a call that must not write into it.
constexpr unsigned char untouched_byte = 0xA5;

// The first element where `got` differs from `want` (count elements each,
// the first of them element `first` of the file), as "element I: <want's
// source> gave A, <got's source> gave B"; "" when none does. name_of, when
// given, names the i-th element instead. Any NaN equals any NaN, as in
// compare_exact.
std::string first_difference(fb_dtype d, const unsigned char* want, const unsigned char* got,
                             std::uint64_t count, std::uint64_t first, const char* want_source,
                             const char* got_source,
                             const std::function<std::string(std::uint64_t)>& name_of = {}) {
    comparison cmp = compare_exact(d, want, got, count);
    if (cmp.mismatches == 0) return {};
    const std::size_t size = dtype_size(d);
    const std::uint64_t i = cmp.first_mismatch;
    std::string name = name_of ? name_of(i) : fmt::format("element {}", first + i);
    return fmt::format("{}: {} gave {}, {} gave {} ({} of {} elements differ)", name, want_source,
                       value_text(d, want + i * size), got_source, value_text(d, got + i * size),
                       cmp.mismatches, count);
}

// Whether all n bytes at p are still untouched_byte.
bool untouched(const unsigned char* p, std::size_t n) {
    return std::all_of(p, p + n, [](unsigned char b) { return b == untouched_byte; });
}

// What a call on a range or box outside the data set must do: fail with
// FB_E_TRUNCATED, with a message naming the path, and leave the buffer (and
// what follows it) as it was. what: "read_at(10006, 2)".
outcome check_refused(const std::function<void()>& call, guarded_buffer& buf, const std::string& path,
                      const std::string& what) {
    try {
        call();
    } catch (const plugin_error& e) {
        if (e.status() != FB_E_TRUNCATED)
            return outcome::fail(fmt::format("{} gave {}, not FB_E_TRUNCATED: {}", what,
                                             status_name(static_cast<fb_status>(e.status())), e.what()),
                                 rule::outside_refused);
        if (std::string(e.what()).find(path) == std::string::npos)
            return outcome::fail(what + ": '" + path + "' is not in " + e.what(), rule::names_path);
        if (!untouched(buf.data(), buf.size()) || buf.overrun() > 0)
            return outcome::fail(what + " failed as it should, but wrote into the buffer",
                                 rule::outside_refused);
        return outcome::pass();
    }
    return outcome::fail(what + " succeeded", rule::outside_refused);
}

// A guarded buffer of n elements of d, every byte untouched_byte.
std::unique_ptr<guarded_buffer> fresh_buffer(fb_dtype d, std::uint64_t n) {
    auto b = std::make_unique<guarded_buffer>(static_cast<std::size_t>(n) * dtype_size(d));
    std::memset(b->data(), untouched_byte, b->size());
    return b;
}

// Writes data (count elements, in one call) with the layout and reads it
// back with read() on a stream of its own, into ref: the values read-at and
// read-box must give (a stream sees read or read-at, never both, and a lossy
// plugin's values are what its read() gives). "" on success.
std::string write_and_read_reference(const plugin& p, const std::string& path, fb_dtype d,
                                     const aligned_buffer& data, std::uint64_t count,
                                     const open_layout& layout, aligned_buffer& ref,
                                     const option_list& options = {}) {
    try {
        write_array(p, path, d, data.data(), count, whole, count, options, layout);
    } catch (const plugin_error& e) {
        return std::string("write failed: ") + e.what();
    }
    try {
        read_array(p, path, d, ref.data(), count, whole, options, layout);
    } catch (const plugin_error& e) {
        return std::string("read() failed: ") + e.what();
    }
    return {};
}

std::string range_text(std::uint64_t offset, std::uint64_t count) {
    return fmt::format("read_at({}, {})", offset, count);
}

// ---- Random access over the option sweep ------------------------------------------
//
// A format that reads at random finds the blocks (chunks, frames) a range
// lies in; a bug there shows only on a file of several blocks, and only with
// the option values that make them. So besides the defaults on a file of
// random_access_count elements, read-at and read-box run on a large file
// (several of any block up to a quarter of it: large_access_bytes), and on
// the widest dtype once per value of the option sweep (valid_variants), on
// a file four times the largest byte size that value sets (a block-size
// option set small makes many blocks). A plugin may offer random access
// only with some options (zstd with `frames: independent`): a sweep value
// with which it refuses is checked together with the first other option
// value with which it does not.

// Payload bytes of the large random-access files: blocks of up to a
// quarter of it (1 MiB; quick: 256 KiB) are crossed at least three times.
std::uint64_t large_access_bytes(depth level) {
    return level == depth::quick ? std::uint64_t{1} << 20 : std::uint64_t{4} << 20;
}

// An odd number of elements (no whole number of blocks) of at least `bytes`.
std::uint64_t odd_count(std::uint64_t bytes, std::size_t size) {
    return (bytes + size - 1) / size | 1;
}

// What one read-at or read-box check reads.
struct access_plan {
    option_list options;     // as planned; empty: the defaults
    std::uint64_t count = 0; // elements in the file
    bool complete = false;   // may add another option's value that turns random access on
    std::string what = "";   // how the count was chosen, for the note ("4 x block_size")
};

// The file size a sweep value asks for: four times the largest byte size it
// sets (a block, chunk or buffer size), at least random_access_count
// elements, at most large_access_bytes.
access_plan sweep_plan(const plugin& p, fb_dtype d, const option_list& options, depth level) {
    const std::size_t size = dtype_size(d);
    access_plan a{options, random_access_count, true, ""};
    for (const auto& [name, value] : options)
        for (const auto& o : p.options())
            if (o.name == name && o.type == FB_OPT_SIZE) {
                double bytes = std::strtod(value.c_str(), nullptr);
                std::uint64_t want = odd_count(
                    std::min<std::uint64_t>(static_cast<std::uint64_t>(4 * bytes), large_access_bytes(level)),
                    size);
                if (want > a.count) {
                    a.count = want;
                    a.what = "4 x " + name;
                }
            }
    return a;
}

enum class access_offer { offered, refused, unusable };

// Whether the plugin gives read-at (box: read-box) with these options: a
// file of 64 elements (shape 8x8), one call. refused: FB_E_UNSUPPORTED at
// that call; unusable: the options, the write or the open failed.
access_offer probe_random_access(const plugin& p, fb_dtype d, const option_list& options, bool box) {
    try {
        p.check_options(options);
        p.check_option_set(options, d);
    } catch (const std::exception&) {
        return access_offer::unusable;
    }
    scratch_dir dir;
    std::string path = dir.file("probe", p.extension());
    const std::uint64_t n = 64;
    aligned_buffer data = make_data(d, n, 1);
    aligned_buffer out(static_cast<std::size_t>(n) * dtype_size(d));
    const open_layout layout = box ? open_layout{{8, 8}, false} : open_layout{};
    std::unique_ptr<read_stream> r;
    try {
        write_array(p, path, d, data.data(), n, whole, n, options, layout);
        r = p.open_read(path, d, n, options, layout);
    } catch (const plugin_error&) {
        return access_offer::unusable;
    }
    try {
        if (box)
            r->read_box({0, 0}, {1, 1}, out.data());
        else
            r->read_at(0, out.data(), 1);
        r->close();
    } catch (const plugin_error& e) {
        return e.status() == FB_E_UNSUPPORTED ? access_offer::refused : access_offer::offered;
    }
    return access_offer::offered;
}

// The options a check runs with: a.options, or, when a.complete and the
// plugin refuses random access with them, a.options and the first value of
// another option (in declaration order, from the sweep) with which it does
// not, named in `added` ("frames=independent"). When no value does,
// `refusal` says so and the check is skipped.
option_list access_options(const plugin& p, fb_dtype d, const access_plan& a, bool box, std::string& added,
                           std::string& refusal) {
    if (!a.complete || probe_random_access(p, d, a.options, box) != access_offer::refused) return a.options;
    for (const auto& o : p.options()) {
        if (std::any_of(a.options.begin(), a.options.end(),
                        [&](const auto& kv) { return kv.first == o.name; }))
            continue;
        for (const auto& v : valid_variants(o)) {
            option_list with = a.options;
            with.emplace_back(o.name, v);
            if (probe_random_access(p, d, with, box) == access_offer::offered) {
                added = o.name + "=" + v;
                return with;
            }
        }
    }
    refusal = fmt::format("not applicable: {} is refused with {}, also with any one other option value",
                          box ? "read-box" : "read-at", a.options.empty() ? "the defaults" : "these options");
    return a.options;
}

// "32769 elements, 4 x frame_size; with frames=independent, without which
// read-at is refused"
std::string access_note(const access_plan& a, std::uint64_t n, const std::string& added, bool box,
                        const std::string& shape = "") {
    std::string note = fmt::format("{} elements{}", n, shape.empty() ? "" : " as " + shape);
    if (!a.what.empty()) note += ", " + a.what;
    if (!added.empty())
        note += fmt::format("; with {}, without which {} is refused", added, box ? "read-box" : "read-at");
    return note;
}

// read-at on a file of a.count elements (random_access_count for the
// defaults): the first and the last element, the whole array, every element
// in ranges of 4097 (at most 64 of them, larger on a large file) taken back
// to front, ranges of pseudo-random offsets and lengths, all equal to what
// read() gives; one range read three times, between others, gives the same
// bytes each time; ranges that cross the end, start at or past it, or whose
// end overflows 64 bits are FB_E_TRUNCATED and write nothing.
outcome read_at_ranges(const plugin& p, fb_dtype d, const option_list& options, std::uint64_t n) {
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    const std::size_t size = dtype_size(d);
    aligned_buffer data = make_data(d, n, static_cast<std::uint64_t>(d) * 7919 + 31);
    aligned_buffer ref(static_cast<std::size_t>(n) * size);
    folder_watch watch(dir.path(), path);
    if (auto e = write_and_read_reference(p, path, d, data, n, {}, ref, options); !e.empty())
        return watched(watch, outcome::fail(e, rule::round_trip));

    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {{0, 1}, {n - 1, 1}, {0, n}, {n - 7, 7}};
    const std::uint64_t tile = std::max<std::uint64_t>(4097, (n / 64) | 1);
    for (std::uint64_t end = n; end > 0;) {
        std::uint64_t start = end > tile ? end - tile : 0;
        ranges.emplace_back(start, end - start);
        end = start;
    }
    std::uint64_t drawn = 0; // SplitMix64 outputs: the same ranges on every run
    auto next = [&drawn, seed = splitmix_gamma + static_cast<std::uint64_t>(d)] {
        return splitmix64(seed, drawn++);
    };
    for (int i = 0; i < 24; ++i) {
        std::uint64_t offset = next() % n;
        std::uint64_t count = 1 + next() % std::min<std::uint64_t>(3000, n - offset);
        ranges.emplace_back(offset, count);
    }
    const std::pair<std::uint64_t, std::uint64_t> repeated = {n / 2 - 50, 100};

    std::vector<unsigned char> first_copy; // the repeated range's first reading
    try {
        auto r = p.open_read(path, d, n, options);
        auto read_repeated = [&]() -> outcome {
            auto buf = fresh_buffer(d, repeated.second);
            r->read_at(repeated.first, buf->data(), repeated.second);
            std::vector<unsigned char> got(buf->data(), buf->data() + buf->size());
            if (first_copy.empty()) {
                first_copy = std::move(got);
            } else if (got != first_copy) {
                std::size_t at = static_cast<std::size_t>(
                    std::mismatch(got.begin(), got.end(), first_copy.begin()).first - got.begin());
                return outcome::fail(fmt::format("{} read again gave other bytes: element {} was {}, now {}",
                                                 range_text(repeated.first, repeated.second),
                                                 repeated.first + at / size,
                                                 value_text(d, first_copy.data() + at / size * size),
                                                 value_text(d, got.data() + at / size * size)),
                                     rule::read_at_same);
            }
            return outcome::pass();
        };
        if (outcome o = read_repeated(); o.what == outcome::failed) return watched(watch, o);
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            auto [offset, count] = ranges[i];
            auto buf = fresh_buffer(d, count);
            r->read_at(offset, buf->data(), count);
            if (std::size_t over = buf->overrun(); over > 0)
                return watched(watch, outcome::fail(fmt::format("{} wrote up to {} byte(s) past the values "
                                                                "asked for",
                                                                range_text(offset, count), over),
                                                    rule::no_overrun));
            std::string diff = first_difference(d, ref.data() + offset * size, buf->data(), count, offset,
                                                "read()", "read_at");
            if (!diff.empty())
                return watched(watch,
                               outcome::fail(range_text(offset, count) + ": " + diff, rule::read_at_same));
            if (i % 8 == 7) // the repeated range, between the others
                if (outcome o = read_repeated(); o.what == outcome::failed) return watched(watch, o);
        }
        if (outcome o = read_repeated(); o.what == outcome::failed) return watched(watch, o);
        const std::pair<std::uint64_t, std::uint64_t> outside[] = {
            {n - 1, 2}, {n - 3, 10}, {n, 1}, {n + 1000, 1}, {UINT64_MAX - 1, 2}};
        for (auto [offset, count] : outside) {
            auto buf = fresh_buffer(d, count);
            outcome o = check_refused([&] { r->read_at(offset, buf->data(), count); }, *buf, path,
                                      range_text(offset, count) + " on " + std::to_string(n) + " elements");
            if (o.what == outcome::failed) return watched(watch, o);
        }
        r->close();
    } catch (const plugin_error& e) {
        // A plugin may refuse read-at for the options it was opened with
        // (plugin.h, FB_EXT_READ_AT_V1), and the refusal must come at the
        // first call.
        if (e.status() == FB_E_UNSUPPORTED && first_copy.empty())
            return watched(watch, outcome::skip(fmt::format(
                                      "not applicable with {}: {}",
                                      options.empty() ? "the default options" : "these options", e.what())));
        return watched(watch, outcome::fail(std::string("read_at failed: ") + e.what(), rule::read_at_same));
    }
    return watched(watch, outcome::pass());
}

// A random-access check with a plan's options (access_options), the sweep
// value's option set checked as a round trip checks it; the note (and a
// failure's reason) says what was read and any option value added.
outcome random_access_check(const plugin& p, fb_dtype d, const access_plan& a, bool box,
                            const std::string& shape,
                            const std::function<outcome(const option_list&)>& body) {
    std::string added, refusal;
    const option_list options = access_options(p, d, a, box, added, refusal);
    if (!refusal.empty()) return outcome::skip(refusal);
    if (!options.empty()) {
        try {
            p.check_options(options);
        } catch (const std::exception& e) {
            return outcome::fail(std::string("refused: ") + e.what(), rule::allowed_values);
        }
        try {
            p.check_option_set(options, d);
        } catch (const std::exception& e) {
            return outcome::skip(std::string("refused before any run: ") + e.what());
        }
    }
    outcome o = body(options);
    if (!a.complete) return o;
    if (o.what == outcome::failed && !added.empty())
        o.reason = fmt::format("with {} added ({} is refused without it): {}", added,
                               box ? "read-box" : "read-at", o.reason);
    if (o.what == outcome::passed) o.note = access_note(a, a.count, added, box, shape);
    return o;
}

outcome read_at_check(const plugin& p, fb_dtype d, const access_plan& a) {
    return random_access_check(p, d, a, false, "", [&](const option_list& options) {
        return read_at_ranges(p, d, options, a.count);
    });
}

std::string shape_text(const std::vector<std::uint64_t>& extents) {
    std::string t;
    for (std::uint64_t x : extents)
        t += (t.empty() ? "" : "x") + std::to_string(x);
    return t;
}

std::string box_text(const std::vector<std::uint64_t>& start, const std::vector<std::uint64_t>& count) {
    std::string t;
    for (std::size_t k = 0; k < start.size(); ++k)
        t += fmt::format("{}[{}, {})", k ? " " : "", start[k], start[k] + count[k]);
    return "read_box(" + t + ")";
}

// The box's elements of the row-major array `flat` of `shape`, in the box's
// own row-major order: element (i_0, ..., i_{n-1}) of the box is
// flat[sum_k (start_k + i_k) * stride_k], stride_k the product of the
// extents after axis k. Written out here, independent of the SDK's
// for_each_run, so that a bug there cannot hide one in a plugin.
std::vector<unsigned char> expected_box(const unsigned char* flat, std::size_t size,
                                        const std::vector<std::uint64_t>& shape,
                                        const std::vector<std::uint64_t>& start,
                                        const std::vector<std::uint64_t>& count) {
    const std::size_t nd = shape.size();
    std::uint64_t total = 1;
    for (std::uint64_t c : count)
        total *= c;
    std::vector<unsigned char> out(static_cast<std::size_t>(total) * size);
    std::vector<std::uint64_t> stride(nd, 1);
    for (std::size_t k = nd - 1; k > 0; --k)
        stride[k - 1] = stride[k] * shape[k];
    std::vector<std::uint64_t> i(nd, 0);
    for (std::uint64_t e = 0; e < total; ++e) {
        std::uint64_t index = 0;
        for (std::size_t k = 0; k < nd; ++k)
            index += (start[k] + i[k]) * stride[k];
        std::memcpy(out.data() + e * size, flat + index * size, size);
        for (std::size_t k = nd; k-- > 0;) { // the last axis fastest
            if (++i[k] < count[k]) break;
            i[k] = 0;
        }
    }
    return out;
}

// read-box on a file written with `shape`: for every axis, the planes
// orthogonal to it at its first, middle and last index; an interior
// sub-box (one element in from every side where the extent allows); the
// whole array and its last element: each equal to the elements of the flat
// array read() gives. A box that crosses the end of an axis, starts past
// it, or has one axis more or fewer than the shape is FB_E_TRUNCATED and
// writes nothing. Whether the file keeps the shape is the format's affair:
// the reader is given it again, as the host gives it.
outcome read_box_check(const plugin& p, fb_dtype d, const std::vector<std::uint64_t>& shape,
                       const option_list& options = {}) {
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    const std::size_t nd = shape.size();
    const std::size_t size = dtype_size(d);
    std::uint64_t n = 1;
    for (std::uint64_t x : shape)
        n *= x;
    aligned_buffer data = make_data(d, n, static_cast<std::uint64_t>(d) * 104729 + n);
    aligned_buffer ref(static_cast<std::size_t>(n) * size);
    const open_layout layout{shape, false};
    folder_watch watch(dir.path(), path);
    if (auto e = write_and_read_reference(p, path, d, data, n, layout, ref, options); !e.empty())
        return watched(watch, outcome::fail(e + " (shape " + shape_text(shape) + ")", rule::round_trip));

    using box = std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>; // start, count
    std::vector<box> boxes;
    const std::vector<std::uint64_t> origin(nd, 0);
    for (std::size_t k = 0; k < nd; ++k)
        for (std::uint64_t at : {std::uint64_t{0}, shape[k] / 2, shape[k] - 1}) {
            box b{origin, shape};
            b.first[k] = at;
            b.second[k] = 1;
            if (std::find(boxes.begin(), boxes.end(), b) == boxes.end()) boxes.push_back(b);
        }
    box interior{origin, shape};
    for (std::size_t k = 0; k < nd; ++k)
        if (shape[k] > 2) {
            interior.first[k] = 1;
            interior.second[k] = shape[k] - 2;
        }
    boxes.push_back(interior);
    boxes.push_back({origin, shape});
    box last{shape, std::vector<std::uint64_t>(nd, 1)};
    for (auto& x : last.first)
        --x;
    boxes.push_back(last);

    try {
        auto r = p.open_read(path, d, n, options, layout);
        for (const auto& [start, count] : boxes) {
            std::vector<unsigned char> want = expected_box(ref.data(), size, shape, start, count);
            auto buf = fresh_buffer(d, want.size() / size);
            r->read_box(start, count, buf->data());
            if (std::size_t over = buf->overrun(); over > 0)
                return watched(watch, outcome::fail(fmt::format("{} wrote up to {} byte(s) past the box",
                                                                box_text(start, count), over),
                                                    rule::no_overrun));
            // The i-th element of the box, by its index in the file and its position.
            auto name_of = [&, &start = start, &count = count](std::uint64_t i) {
                std::vector<std::uint64_t> at(nd);
                for (std::size_t k = nd; k-- > 0;) {
                    at[k] = start[k] + i % count[k];
                    i /= count[k];
                }
                std::uint64_t index = 0;
                for (std::size_t k = 0; k < nd; ++k)
                    index = index * shape[k] + at[k];
                return fmt::format("element {} (at {})", index, shape_text(at));
            };
            std::string diff = first_difference(d, want.data(), buf->data(), want.size() / size, 0, "read()",
                                                "read_box", name_of);
            if (!diff.empty())
                return watched(watch, outcome::fail(box_text(start, count) + " of shape " +
                                                        shape_text(shape) + ": " + diff,
                                                    rule::read_box_same));
        }
        std::vector<box> outside;
        for (std::size_t k = 0; k < nd; ++k) {
            box cross{origin, shape};
            cross.first[k] = shape[k] - 1;
            cross.second[k] = 2;
            outside.push_back(cross);
            box past{origin, std::vector<std::uint64_t>(nd, 1)};
            past.first[k] = shape[k];
            outside.push_back(past);
        }
        box more{origin, std::vector<std::uint64_t>(nd, 1)}; // one axis more than the shape
        more.first.push_back(0);
        more.second.push_back(1);
        outside.push_back(more);
        if (nd > 1) outside.push_back({{origin.begin(), origin.end() - 1}, {shape.begin(), shape.end() - 1}});
        for (const auto& [start, count] : outside) {
            auto buf = fresh_buffer(d, n);
            outcome o = check_refused([&] { r->read_box(start, count, buf->data()); }, *buf, path,
                                      box_text(start, count) + " of shape " + shape_text(shape));
            if (o.what == outcome::failed) return watched(watch, o);
        }
        r->close();
    } catch (const plugin_error& e) {
        return watched(watch, outcome::fail(std::string("read_box failed: ") + e.what() + " (shape " +
                                                shape_text(shape) + ")",
                                            rule::read_box_same));
    }
    return watched(watch, outcome::pass());
}

// The rows of the large and the sweep's read-box files: long (a row is one
// run of the file), and few, so that a column (a run per row) costs at most
// a few hundred calls.
constexpr std::uint64_t box_row = 4099;

// read_box_check on a 2-D shape of at least a.count elements, rows of box_row.
outcome read_box_sweep_check(const plugin& p, fb_dtype d, access_plan a) {
    const std::vector<std::uint64_t> shape = {(a.count + box_row - 1) / box_row, box_row};
    a.count = shape[0] * shape[1];
    return random_access_check(p, d, a, true, shape_text(shape), [&](const option_list& options) {
        return read_box_check(p, d, shape, options);
    });
}

// Bytes every direct range is a multiple of: a logical block size of 512 or
// 4096 divides it, and the host's buffers are aligned to it.
constexpr std::uint64_t direct_block = 4096;

// Why the file system of `dir` refuses O_DIRECT, or "" when it takes it
// (probed with a file of its own, one block long).
std::string o_direct_refusal(const std::string& dir) {
    std::string probe = dir + "/o_direct_probe";
    {
        std::ofstream f(probe, std::ios::binary);
        f << std::string(direct_block, 'x');
    }
    int fd = ::open(probe.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    int e = errno;
    if (fd >= 0) ::close(fd);
    std::error_code ec;
    fs::remove(probe, ec);
    if (fd >= 0) return {};
    return fmt::format("the file system of {} refuses O_DIRECT ({})", dir, std::strerror(e));
}

// FB_CAP_DIRECT_IO: a file of 32 blocks' worth of payload read with
// FB_OPEN_DIRECT by read() (in one call, and in calls of 3 blocks) and, when
// offered, by read-at in block-aligned ranges gives what read() without it
// gives. On a file system that refuses O_DIRECT (tmpfs) the check does not
// apply, and says so.
outcome direct_io_check(const plugin& p, fb_dtype d) {
    if (p.has(FB_CAP_NO_FILE)) return outcome::skip("plugin writes no file (FB_CAP_NO_FILE)");
    scratch_dir dir;
    {
        scratch_dir probe_dir; // beside dir, on the same file system
        if (auto why = o_direct_refusal(probe_dir.path()); !why.empty())
            return outcome::skip("not applicable: " + why + " (TMPDIR on another file system tests it)");
    }
    std::string path = dir.file("data", p.extension());
    const std::size_t size = dtype_size(d);
    const std::uint64_t per_block = direct_block / size;
    const std::uint64_t n = 32 * per_block;
    aligned_buffer data = make_data(d, n, static_cast<std::uint64_t>(d) * 15485863 + 5);
    aligned_buffer ref(static_cast<std::size_t>(n) * size);
    folder_watch watch(dir.path(), path);
    if (auto e = write_and_read_reference(p, path, d, data, n, {}, ref); !e.empty())
        return watched(watch, outcome::fail(e, rule::round_trip));
    const open_layout direct{{}, true};
    for (std::uint64_t chunk : {n, 3 * per_block}) {
        aligned_buffer back(static_cast<std::size_t>(n) * size);
        try {
            read_array(p, path, d, back.data(), n, chunk, {}, direct);
        } catch (const plugin_error& e) {
            return watched(watch, outcome::fail(std::string("read() with FB_OPEN_DIRECT failed: ") + e.what(),
                                                rule::direct_same));
        }
        std::string diff =
            first_difference(d, ref.data(), back.data(), n, 0, "read()", "read() with O_DIRECT");
        if (!diff.empty())
            return watched(watch, outcome::fail(fmt::format("reading in calls of {} elements with "
                                                            "FB_OPEN_DIRECT: {}",
                                                            chunk, diff),
                                                rule::direct_same));
    }
    if (p.has_read_at()) {
        const std::pair<std::uint64_t, std::uint64_t> ranges[] = {
            {0, per_block}, {n - per_block, per_block}, {3 * per_block, 5 * per_block}, {0, n}};
        try {
            auto r = p.open_read(path, d, n, {}, direct);
            for (auto [offset, count] : ranges) {
                aligned_buffer back(static_cast<std::size_t>(count) * size);
                r->read_at(offset, back.data(), count);
                std::string diff = first_difference(d, ref.data() + offset * size, back.data(), count, offset,
                                                    "read()", "read_at with O_DIRECT");
                if (!diff.empty())
                    return watched(watch,
                                   outcome::fail(range_text(offset, count) + " with FB_OPEN_DIRECT: " + diff,
                                                 rule::direct_same));
            }
            r->close();
        } catch (const plugin_error& e) {
            return watched(watch,
                           outcome::fail(std::string("read_at with FB_OPEN_DIRECT failed: ") + e.what(),
                                         rule::direct_same));
        }
    }
    return watched(watch, outcome::pass(p.has_read_at() ? "" : "read() only: no read-at extension"));
}

// formatbench.check-options/1 with the defaults: no option given, and every
// option given its declared default, for dtype d. Plan and run ask it with
// the study's options; a plugin that refuses its own defaults refuses every
// study that leaves its options alone.
outcome check_options_check(const plugin& p, fb_dtype d) {
    option_list defaults;
    for (const auto& o : p.options())
        defaults.emplace_back(o.name, o.default_value);
    const std::pair<const char*, option_list> sets[] = {{"no options (the defaults)", {}},
                                                        {"every option at its default", defaults}};
    for (const auto& [what, given] : sets) {
        try {
            p.check_option_set(given, d);
        } catch (const std::exception& e) {
            return outcome::fail(
                fmt::format("check_options for {} refuses {}: {}", dtype_name(d), what, e.what()),
                rule::defaults_pass);
        }
    }
    return outcome::pass();
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

// ---- Options that change nothing -----------------------------------------------------

// Payload of the files option_effect compares: more than a small block size
// (zstd's 64 KiB frames) holds.
constexpr std::uint64_t effect_bytes = 96 * 1024;

// Data a codec's levels and filters treat differently: smooth values with
// few significant bits, and every third run of 256 elements a copy of an
// earlier run (matches at many distances). make_data's random bits are
// incompressible, so every level of a compressor may store them alike.
aligned_buffer compressible_data(fb_dtype d, std::uint64_t count) {
    const std::size_t size = dtype_size(d);
    aligned_buffer out(static_cast<std::size_t>(count) * size);
    for (std::uint64_t i = 0; i < count; ++i) {
        const double x = std::round(std::sin(static_cast<double>(i) * 1e-3) * 1000 * 64) / 64 + i % 17;
        unsigned char* e = out.data() + i * size;
        switch (d) {
        case FB_DTYPE_F64: std::memcpy(e, &x, size); break;
        case FB_DTYPE_F32: {
            const auto f = static_cast<float>(x);
            std::memcpy(e, &f, size);
            break;
        }
        case FB_DTYPE_I64: {
            const auto v = static_cast<std::int64_t>(x * 64);
            std::memcpy(e, &v, size);
            break;
        }
        case FB_DTYPE_I32: {
            const auto v = static_cast<std::int32_t>(x * 64);
            std::memcpy(e, &v, size);
            break;
        }
        default: *e = static_cast<unsigned char>(static_cast<std::int64_t>(x) & 0x7f); break;
        }
    }
    constexpr std::uint64_t run = 256;
    for (std::uint64_t r = 2; (r + 1) * run <= count; r += 3) {
        const std::uint64_t from = splitmix64(splitmix_gamma, r) % (r - 1) * run;
        std::memcpy(out.data() + r * run * size, out.data() + from * size, run * size);
    }
    // Non-finite values and their neighbours, which some options are about
    // (how a text format spells them).
    if (count >= 8 && (d == FB_DTYPE_F64 || d == FB_DTYPE_F32)) {
        const double special[] = {std::nan(""), -std::nan(""), HUGE_VAL, -HUGE_VAL,
                                  -0.0,         5e-324,        1e300,    -1e-300};
        for (std::size_t i = 0; i < std::size(special); ++i) {
            if (d == FB_DTYPE_F64) {
                std::memcpy(out.data() + i * size, &special[i], size);
            } else {
                const auto f = static_cast<float>(special[i]);
                std::memcpy(out.data() + i * size, &f, size);
            }
        }
    }
    return out;
}

// Everything the plugin wrote at path: each file's name (relative to path)
// and bytes, in name order.
std::string output_bytes(const std::string& path) {
    std::vector<std::string> files = output_files(path);
    std::sort(files.begin(), files.end());
    std::string all;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        all += f.substr(path.size()) + '\0';
        all.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        all += '\0';
    }
    return all;
}

// An option whose values all write the same bytes is validated but
// ignored, or changes only speed or memory: the same data written with its
// default and each value of the sweep, with the other options at their
// defaults; where all files are alike, again with each value of another
// option set (an option may act only together with another: zstd's
// frame_size with frames: independent). Two files that differ pass; files
// alike under every such set warn, naming the option.
outcome option_effect_check(const plugin& p, const option_info& o) {
    const fb_dtype d = widest_dtype(p);
    const std::uint64_t n = odd_count(effect_bytes, dtype_size(d));
    aligned_buffer data = compressible_data(d, n);
    // The sweep's values, and small ones a range's ends and middle miss (a
    // count per statement of 1 against the default "all").
    std::vector<std::string> values = {o.default_value};
    for (const auto& v : valid_variants(o))
        values.push_back(v);
    if ((o.type == FB_OPT_INT || o.type == FB_OPT_SIZE) && o.has_range)
        for (double v : {o.min + 1, 1.0, 7.0, 65536.0})
            if (v >= o.min && v <= o.max &&
                std::find(values.begin(), values.end(), integer_text(v)) == values.end())
                values.push_back(integer_text(v));
    std::vector<std::pair<std::string, option_list>> bases = {{"", {}}};
    for (const auto& q : p.options())
        if (q.name != o.name)
            for (const auto& v : valid_variants(q))
                bases.push_back({q.name + "=" + v, {{q.name, v}}});
    scratch_dir dir;
    const std::string path = dir.file("data", p.extension());
    folder_watch watch(dir.path(), path);
    std::size_t compared = 0;
    std::string written; // the values that wrote, for the warning
    for (const auto& [label, base] : bases) {
        std::string first;
        std::size_t wrote = 0;
        std::vector<std::string> which;
        for (const auto& v : values) {
            option_list set = base;
            set.emplace_back(o.name, v);
            std::error_code ec;
            fs::remove_all(path, ec);
            try {
                p.check_options(set);
                p.check_option_set(set, d);
                write_array(p, path, d, data.data(), n, whole, n, set);
            } catch (const std::exception&) {
                continue; // a set the plugin refuses says nothing about this option
            }
            std::string bytes = output_bytes(path);
            if (wrote++ == 0) {
                first = std::move(bytes);
            } else if (bytes != first) {
                fs::remove_all(path, ec);
                return watched(
                    watch, outcome::pass(label.empty() ? "" : "its values write other bytes with " + label));
            }
            which.push_back(v);
        }
        if (wrote >= 2) {
            ++compared;
            if (label.empty())
                for (const auto& v : which)
                    written +=
                        (written.empty() ? "" : ", ") + v + (v == o.default_value ? " (the default)" : "");
        }
    }
    std::error_code ec;
    fs::remove_all(path, ec);
    if (compared == 0) return watched(watch, outcome::skip("fewer than two of its values could be written"));
    return watched(watch,
                   outcome::warn(fmt::format(
                       "option '{}': its values {} wrote byte-identical files ({} elements of {}), also "
                       "with each value of every other option: it is validated but ignored, unless it "
                       "changes only speed or memory (a thread count, a buffer size)",
                       o.name, written.empty() ? "tried" : written, n, dtype_name(d))));
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

    // The ABI 1.2 extensions and flag, and check-options/1, where offered:
    // for every declared dtype.
    const bool check_options = p.has_extension(FB_EXT_CHECK_OPTIONS_V1);
    const std::vector<std::vector<std::uint64_t>> box_shapes = {{3, 4, 5}, {37, 41}};
    for (fb_dtype d : all_dtypes) {
        if (!p.supports(d)) continue;
        const std::string t = dtype_name(d);
        if (check_options)
            out.push_back(
                {"check_options/" + t + "/defaults", [pp, d] { return check_options_check(*pp, d); }});
        if (p.has_read_at()) {
            const access_plan a{{}, random_access_count, false, ""};
            out.push_back({"read_at/" + t, [pp, d, a] { return read_at_check(*pp, d, a); }});
        }
        if (p.has_read_box())
            for (const auto& shape : box_shapes)
                out.push_back({"read_box/" + t + "/" + shape_text(shape),
                               [pp, d, shape] { return read_box_check(*pp, d, shape); }});
        if (p.has(FB_CAP_DIRECT_IO))
            out.push_back({"direct_io/" + t, [pp, d] { return direct_io_check(*pp, d); }});
    }
    // Random access on a large file and over the option sweep, on the
    // widest dtype (the most bytes per element: the most blocks).
    if (p.has_read_at() || p.has_read_box()) {
        const fb_dtype d = widest_dtype(p);
        const std::string t = dtype_name(d);
        std::vector<std::pair<std::string, access_plan>> plans;
        access_plan large{{}, odd_count(large_access_bytes(s.level), dtype_size(d)), true, "a large file"};
        plans.emplace_back("large", large);
        for (const auto& o : p.options())
            for (const auto& v : valid_variants(o))
                plans.emplace_back(o.name + "=" + v, sweep_plan(p, d, {{o.name, v}}, s.level));
        for (const auto& [label, a] : plans) {
            if (p.has_read_at())
                out.push_back(
                    {"read_at/" + t + "/" + label, [pp, d, a] { return read_at_check(*pp, d, a); }});
            if (p.has_read_box())
                out.push_back(
                    {"read_box/" + t + "/" + label, [pp, d, a] { return read_box_sweep_check(*pp, d, a); }});
        }
    }

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

    // Options whose values write the same file.
    if (!p.has(FB_CAP_NO_FILE))
        for (const auto& o : p.options())
            if (!valid_variants(o).empty())
                out.push_back({"option_effect/" + o.name, [pp, o] { return option_effect_check(*pp, o); }});

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
