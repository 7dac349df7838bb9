// Plugin conformance suite: one set of checks run against every plugin the
// build produced, found through the registry at run time. Everything is
// driven by the descriptor (dtypes, capability flags, option declarations),
// so a new plugin is covered without touching this file.
//
//  - descriptor: declared defaults and choices pass the plugin's own checks.
//  - round_trip: every dtype; counts 0, 1, 7, 10007, 10^6; chunks of 1, 3,
//    4097 elements and the whole array (1 and 3 only up to 10007 elements:
//    a million one-element calls is minutes for a text format); reading in
//    other chunks than were written; an unknown count hint where allowed; one
//    variant per valid value of each declared option. Lossless option sets
//    must read back bit-exact (any NaN equals any NaN: see compare_exact);
//    lossy ones only need to read back the count.
//  - errors: truncated, empty, garbage and missing files give an error, not
//    a crash (each case runs in a child process); bad options are refused
//    with FB_E_INVALID_OPTION before any file is touched; writing where no
//    file can be created, and to a full device, gives an error naming the
//    path.
#include "support.hpp"

#include "error.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace conformance;
using formatbench::option_list;

namespace {

constexpr std::uint64_t whole = 0; // chunk size meaning "the whole array in one call"
// Elements in the files the error cases damage.
constexpr std::uint64_t error_case_count = 1000;

const formatbench::plugin& plugin_of(const std::string& id) {
    return plugins().get(id);
}

std::vector<std::string> plugin_ids() {
    return plugins().ids();
}

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
// Sizes above 16 MiB are left out: a test must not allocate a gigabyte.
std::vector<std::string> valid_variants(const formatbench::option_info& o) {
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
std::vector<std::string> invalid_values(const formatbench::option_info& o) {
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

// ---- Round-trip cases --------------------------------------------------------

struct round_trip_case {
    std::string plugin;
    fb_dtype dtype;
    std::uint64_t count;
    std::uint64_t write_chunk; // `whole` = one call
    std::uint64_t read_chunk;
    bool count_unknown = false; // pass FB_COUNT_UNKNOWN as the write hint
    option_list options;

    std::string name() const {
        auto chunk = [](std::uint64_t c) { return c == whole ? std::string("all") : std::to_string(c); };
        std::string n = plugin + "_" + formatbench::dtype_name(dtype) + "_n" + std::to_string(count) + "_w" +
                        chunk(write_chunk) + "_r" + chunk(read_chunk);
        if (count_unknown) n += "_hint_unknown";
        for (const auto& [k, v] : options)
            n += "_" + k + "_" + v;
        return sanitize(n);
    }
};

std::vector<round_trip_case> round_trip_cases() {
    std::vector<round_trip_case> out;
    using chunks = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
    for (const auto& id : plugin_ids()) {
        const auto& p = plugin_of(id);
        for (fb_dtype d : formatbench::all_dtypes) {
            if (!p.supports(d)) continue;
            auto add = [&](std::uint64_t count, const chunks& cs) {
                for (auto [w, r] : cs)
                    out.push_back({id, d, count, w, r, false, {}});
            };
            add(0, {{whole, whole}});
            add(1, {{whole, whole}, {1, 1}});
            add(7, {{whole, whole}, {1, 1}, {3, 3}, {whole, 3}, {3, whole}});
            add(10007, {{whole, whole}, {1, 1}, {3, 3}, {4097, 4097}, {whole, 4097}, {4097, 1}});
            add(1000000, {{whole, whole}, {4097, 4097}});
            if (!p.has(FB_CAP_NEEDS_COUNT)) out.push_back({id, d, 10007, 4097, 4097, true, {}});
            // One variant per valid non-default value of each option.
            for (const auto& o : p.options())
                for (const auto& v : valid_variants(o)) {
                    out.push_back({id, d, 10007, 3, 4097, false, {{o.name, v}}});
                    out.push_back({id, d, 10007, whole, whole, false, {{o.name, v}}});
                }
        }
    }
    return out;
}

void write_array(const formatbench::plugin& p, const std::string& path, fb_dtype d, const unsigned char* data,
                 std::uint64_t count, std::uint64_t chunk, std::uint64_t hint, const option_list& options) {
    std::size_t size = formatbench::dtype_size(d);
    auto w = p.open_write(path, d, hint, options);
    if (count == 0) w->write(data, 0); // a zero-element write is legal and must be harmless
    std::uint64_t step = chunk == whole ? std::max<std::uint64_t>(count, 1) : chunk;
    for (std::uint64_t off = 0; off < count; off += step)
        w->write(data + off * size, std::min(step, count - off));
    w->close();
}

void read_array(const formatbench::plugin& p, const std::string& path, fb_dtype d, unsigned char* out,
                std::uint64_t count, std::uint64_t chunk, const option_list& options) {
    std::size_t size = formatbench::dtype_size(d);
    auto r = p.open_read(path, d, count, options);
    if (count == 0) r->read(out, 0);
    std::uint64_t step = chunk == whole ? std::max<std::uint64_t>(count, 1) : chunk;
    for (std::uint64_t off = 0; off < count; off += step)
        r->read(out + off * size, std::min(step, count - off));
    r->close();
}

std::set<std::string> entries_of(const std::string& dir) {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        out.insert(e.path().filename().string());
    return out;
}

// gtest prints parameters of failed tests; the name says it all.
void PrintTo(const round_trip_case& c, std::ostream* os) {
    *os << c.name();
}

class round_trip : public testing::TestWithParam<round_trip_case> {};

TEST_P(round_trip, reads_back_what_was_written) {
    const round_trip_case& c = GetParam();
    const auto& p = plugin_of(c.plugin);
    scratch_dir dir;
    std::string path = dir.file("data", p.extension());
    std::size_t size = formatbench::dtype_size(c.dtype);
    aligned_buffer data =
        make_data(c.dtype, c.count, static_cast<std::uint64_t>(c.dtype) * 1000003 + c.count);
    bool lossless = p.is_lossless(c.options);
    ASSERT_NO_THROW(p.check_options(c.options)) << "a declared valid value was refused";

    try {
        write_array(p, path, c.dtype, data.data(), c.count, c.write_chunk,
                    c.count_unknown ? FB_COUNT_UNKNOWN : c.count, c.options);
    } catch (const formatbench::plugin_error& e) {
        FAIL() << "write failed: " << e.what();
    }

    // The plugin writes only at the path it is given.
    if (p.has(FB_CAP_NO_FILE)) {
        EXPECT_TRUE(entries_of(dir.path()).empty()) << "a no-file plugin created files";
    } else {
        EXPECT_EQ(entries_of(dir.path()),
                  std::set<std::string>{"data" + (p.extension().empty() ? "" : "." + p.extension())})
            << "files other than the given path were left behind";
        if (p.has(FB_CAP_DIRECTORY_OUTPUT))
            EXPECT_TRUE(fs::is_directory(path)) << "directory output plugin did not create a directory";
        else
            EXPECT_TRUE(fs::is_regular_file(path)) << "no regular file at " << path;
    }

    aligned_buffer back(static_cast<std::size_t>(c.count) * size);
    try {
        read_array(p, path, c.dtype, back.data(), c.count, c.read_chunk, c.options);
    } catch (const formatbench::plugin_error& e) {
        FAIL() << "read failed: " << e.what();
    }

    if (!lossless) {
        // A lossy option set: the count came back (the read did not fail);
        // how close the values are is the study's verify step, not conformance.
        RecordProperty("compared", "count only (lossy)");
        return;
    }
    comparison cmp = compare_exact(c.dtype, data.data(), back.data(), c.count);
    EXPECT_EQ(cmp.mismatches, 0u) << cmp.mismatches << " of " << c.count << " values differ; first at index "
                                  << cmp.first_mismatch << ": " << cmp.first_detail;
    if (cmp.nan_payload_changes > 0) {
        RecordProperty("nan_payload_changes", std::to_string(cmp.nan_payload_changes));
        std::cout << "[ note     ] " << cmp.nan_payload_changes
                  << " NaN(s) came back as a NaN with another payload or sign (accepted)\n";
    }

    // The zero-copy view, when offered, shows the same values. It replaces
    // the reads of a stream, and a reader may drop the data at close (the
    // memory plugin does), so it gets a fresh write, made as the host makes
    // one: the old output removed first.
    if (c.count > 0 && p.has_extension(FB_EXT_ZERO_COPY_READ_V1)) {
        try {
            fs::remove_all(path);
            write_array(p, path, c.dtype, data.data(), c.count, whole, c.count, c.options);
            auto r = p.open_read(path, c.dtype, c.count, c.options);
            const void* view = r->view(c.count);
            ASSERT_NE(view, nullptr) << "zero-copy view returned no data";
            comparison vc =
                compare_exact(c.dtype, data.data(), static_cast<const unsigned char*>(view), c.count);
            EXPECT_EQ(vc.mismatches, 0u)
                << "zero-copy view differs; first at " << vc.first_mismatch << ": " << vc.first_detail;
            r->close();
        } catch (const formatbench::plugin_error& e) {
            ADD_FAILURE() << "zero-copy view failed: " << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(all_plugins, round_trip, testing::ValuesIn(round_trip_cases()),
                         [](const testing::TestParamInfo<round_trip_case>& info) {
                             return info.param.name();
                         });

// ---- Per-plugin checks ---------------------------------------------------------

class plugin_test : public testing::TestWithParam<std::string> {
protected:
    const formatbench::plugin& p() const { return plugin_of(GetParam()); }

    // Runs body in a child process and reports its outcome here.
    void isolated(const std::function<std::string()>& body) {
        child_outcome o = run_in_child(body);
        switch (o.what) {
        case child_outcome::passed: break;
        case child_outcome::skipped: GTEST_SKIP() << o.text; break;
        case child_outcome::failed: ADD_FAILURE() << o.text; break;
        case child_outcome::crashed: ADD_FAILURE() << "plugin '" << GetParam() << "' " << o.text; break;
        }
    }
};

std::string param_name(const testing::TestParamInfo<std::string>& info) {
    return sanitize(info.param);
}

// ---- Descriptor --------------------------------------------------------------

using descriptor = plugin_test;

TEST_P(descriptor, declared_values_are_accepted) {
    const auto& plugin = p();
    EXPECT_NE(plugin.dtypes(), 0u);
    for (const auto& o : plugin.options()) {
        EXPECT_NO_THROW(plugin.check_options({{o.name, o.default_value}})) << "default of " << o.name;
        for (const auto& c : o.choices)
            EXPECT_NO_THROW(plugin.check_options({{o.name, c}})) << o.name << "=" << c;
        EXPECT_FALSE(o.help.empty()) << "option " << o.name << " has no help";
    }
    EXPECT_NO_THROW((void)plugin.is_lossless({}));
    if (plugin.has(FB_CAP_LOSSLESS)) {
        EXPECT_TRUE(plugin.is_lossless({})) << "lossless plugin, defaults not lossless";
    }
}

INSTANTIATE_TEST_SUITE_P(all_plugins, descriptor, testing::ValuesIn(plugin_ids()), param_name);

// ---- Reading bad input -----------------------------------------------------------

using read_errors = plugin_test;

// What every failed read must look like: a status that is not "bug in the
// plugin", and a message that names the path.
std::string check_read_failure(const c_result& r, const std::string& path, const char* what) {
    if (r.ok()) return std::string("reading ") + what + " succeeded; an error was expected";
    if (r.status == FB_E_INTERNAL || r.status == FB_E_STATE)
        return std::string("reading ") + what + " gave " + r.text() + "; bad input is not a plugin bug";
    if (r.message.find(path) == std::string::npos)
        return std::string("reading ") + what + ": the message does not name the path '" + path +
               "': " + r.text();
    return "";
}

// The regular files a plugin wrote at path (the path itself, or the files
// inside it for directory output).
std::vector<std::string> output_files(const std::string& path) {
    std::vector<std::string> out;
    if (fs::is_regular_file(path)) {
        out.push_back(path);
    } else if (fs::is_directory(path)) {
        for (const auto& e : fs::recursive_directory_iterator(path))
            if (e.is_regular_file()) out.push_back(e.path().string());
    }
    return out;
}

// Writes a valid file of error_case_count values; "" on success.
std::string write_valid(const formatbench::plugin& p, const std::string& path, fb_dtype d) {
    aligned_buffer data = make_data(d, error_case_count, 7);
    c_result w = c_write(p.descriptor(), path, d, data.data(), error_case_count, error_case_count, {});
    return w.ok() ? "" : "could not write the valid file to damage: " + w.text();
}

std::string read_back(const formatbench::plugin& p, const std::string& path, fb_dtype d, const char* what) {
    aligned_buffer out(error_case_count * formatbench::dtype_size(d));
    c_result r = c_read(p.descriptor(), path, d, out.data(), error_case_count, error_case_count, {});
    return check_read_failure(r, path, what);
}

void write_bytes(const std::string& file, std::size_t n, std::uint64_t seed) {
    aligned_buffer junk = make_data(FB_DTYPE_U8, n, seed);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(junk.data()), static_cast<std::streamsize>(n));
}

constexpr const char* no_file_reason = "plugin writes no file (FB_CAP_NO_FILE): no file to damage";

TEST_P(read_errors, missing_file) {
    const auto& plugin = p();
    // Through the host wrapper: a plugin_error, not another exception.
    scratch_dir dir;
    std::string path = dir.file("missing", plugin.extension());
    fb_dtype d = widest_dtype(plugin);
    EXPECT_THROW(
        {
            aligned_buffer out(error_case_count * formatbench::dtype_size(d));
            read_array(plugin, path, d, out.data(), error_case_count, whole, {});
        },
        formatbench::plugin_error);
    isolated([&] { return read_back(plugin, path, d, "a missing file"); });
}

TEST_P(read_errors, truncated_file) {
    const auto& plugin = p();
    if (plugin.has(FB_CAP_NO_FILE)) GTEST_SKIP() << no_file_reason;
    isolated([&]() -> std::string {
        scratch_dir dir;
        std::string path = dir.file("data", plugin.extension());
        fb_dtype d = widest_dtype(plugin);
        if (auto e = write_valid(plugin, path, d); !e.empty()) return e;
        // Half of each file: cutting only the last byte may legitimately
        // leave a complete text file (a final newline).
        for (const auto& f : output_files(path))
            fs::resize_file(f, fs::file_size(f) / 2);
        return read_back(plugin, path, d, "a file cut to half its size");
    });
}

TEST_P(read_errors, empty_file) {
    const auto& plugin = p();
    if (plugin.has(FB_CAP_NO_FILE)) GTEST_SKIP() << no_file_reason;
    isolated([&]() -> std::string {
        scratch_dir dir;
        std::string path = dir.file("data", plugin.extension());
        if (plugin.has(FB_CAP_DIRECTORY_OUTPUT))
            fs::create_directory(path);
        else
            std::ofstream(path, std::ios::binary);
        return read_back(plugin, path, widest_dtype(plugin), "an empty file");
    });
}

TEST_P(read_errors, garbage_file) {
    const auto& plugin = p();
    if (plugin.has(FB_CAP_NO_FILE)) GTEST_SKIP() << no_file_reason;
    isolated([&]() -> std::string {
        scratch_dir dir;
        std::string path = dir.file("data", plugin.extension());
        fb_dtype d = widest_dtype(plugin);
        // Random bytes of a length that is no whole number of values: a
        // format without structure (raw) can only tell garbage by its size.
        if (plugin.has(FB_CAP_DIRECTORY_OUTPUT)) {
            if (auto e = write_valid(plugin, path, d); !e.empty()) return e;
            std::uint64_t seed = 1;
            for (const auto& f : output_files(path))
                write_bytes(f, 12345, ++seed);
        } else {
            write_bytes(path, 12345, 1);
        }
        return read_back(plugin, path, d, "a file of random bytes");
    });
}

INSTANTIATE_TEST_SUITE_P(all_plugins, read_errors, testing::ValuesIn(plugin_ids()), param_name);

// ---- Options -------------------------------------------------------------------

using option_errors = plugin_test;

TEST_P(option_errors, bad_options_are_refused_before_any_file_is_touched) {
    const auto& plugin = p();
    std::vector<std::pair<std::string, std::string>> bad = {{"no_such_option_xyz", "1"}};
    for (const auto& o : plugin.options())
        for (const auto& v : invalid_values(o))
            bad.emplace_back(o.name, v);
    fb_dtype d = widest_dtype(plugin);
    for (const auto& [name, value] : bad) {
        SCOPED_TRACE("option " + name + "='" + value + "'");
        option_list opts{{name, value}};
        EXPECT_THROW(plugin.check_options(opts), formatbench::usage_error);
        isolated([&]() -> std::string {
            scratch_dir dir;
            std::string path = dir.file("data", plugin.extension());
            bool stream = false;
            c_result w = c_open_write(plugin.descriptor(), path, d, error_case_count, opts, stream);
            if (w.status != FB_E_INVALID_OPTION)
                return "open_write with a bad option: expected FB_E_INVALID_OPTION, got " +
                       (w.ok() ? std::string("FB_OK") : w.text());
            if (stream) return "open_write failed but returned a stream";
            std::error_code ec;
            if (fs::exists(fs::symlink_status(path, ec))) return "open_write with a bad option left " + path;
            // On a missing file: an I/O error here would mean the file was
            // opened before the options were checked.
            c_result r = c_open_read(plugin.descriptor(), path, d, error_case_count, opts, stream);
            if (r.status != FB_E_INVALID_OPTION)
                return "open_read with a bad option: expected FB_E_INVALID_OPTION, got " +
                       (r.ok() ? std::string("FB_OK") : r.text());
            return "";
        });
    }
}

INSTANTIATE_TEST_SUITE_P(all_plugins, option_errors, testing::ValuesIn(plugin_ids()), param_name);

// ---- Writing where it cannot succeed -----------------------------------------------

using write_errors = plugin_test;

std::string check_write_failure(const c_result& w, const std::string& path, const std::string& what) {
    if (w.ok()) return "writing " + what + " succeeded; an error was expected";
    if (w.message.find(path) == std::string::npos)
        return "writing " + what + ": the message does not name the path '" + path + "': " + w.text();
    if (w.status == FB_E_INTERNAL) return "writing " + what + " gave " + w.text() + "; expected an I/O error";
    return "";
}

// Whether this process can create files in a 0555 folder (root, or
// CAP_DAC_OVERRIDE): then a read-only folder proves nothing.
bool permissions_are_enforced(const std::string& scratch) {
    std::string ro = scratch + "/probe_ro";
    fs::create_directory(ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                            fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    int fd = ::open((ro + "/probe").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        ::close(fd);
        ::unlink((ro + "/probe").c_str());
        return false;
    }
    return true;
}

TEST_P(write_errors, no_writable_directory) {
    const auto& plugin = p();
    if (plugin.has(FB_CAP_NO_FILE)) GTEST_SKIP() << "plugin writes no file (FB_CAP_NO_FILE)";
    fb_dtype d = widest_dtype(plugin);
    aligned_buffer data = make_data(d, error_case_count, 3);
    scratch_dir dir;
    std::string name = "data" + (plugin.extension().empty() ? "" : "." + plugin.extension());
    // Tests often run as root, where a 0555 folder does not stop a write.
    // Two ways fail for root as well: a parent that is a regular file
    // (ENOTDIR) and a parent that does not exist (ENOENT). The read-only
    // folder is tried too when this process is subject to permissions.
    std::ofstream(dir.path() + "/plain_file") << "not a directory\n";
    std::vector<std::pair<std::string, std::string>> cases = {
        {dir.path() + "/plain_file/" + name, "below a regular file"},
        {dir.path() + "/no/such/folder/" + name, "into a folder that does not exist"},
    };
    if (permissions_are_enforced(dir.path()))
        cases.emplace_back(dir.path() + "/probe_ro/" + name, "into a 0555 folder");
    else
        RecordProperty("read_only_folder", "not tried: this process ignores permissions (root)");
    for (const auto& [path, what] : cases) {
        SCOPED_TRACE(what);
        isolated([&] {
            c_result w =
                c_write(plugin.descriptor(), path, d, data.data(), error_case_count, error_case_count, {});
            return check_write_failure(w, path, what);
        });
    }
}

TEST_P(write_errors, full_device) {
    const auto& plugin = p();
    if (plugin.has(FB_CAP_NO_FILE)) GTEST_SKIP() << "plugin writes no file (FB_CAP_NO_FILE)";
    if (plugin.has(FB_CAP_DIRECTORY_OUTPUT))
        GTEST_SKIP() << "directory output: a device cannot be the directory";
    scratch_dir dir;
    // Our own node for the full device (char 1:7), so that a plugin which
    // removes its path on failure cannot remove the system's /dev/full.
    // Without the right to mknod, /dev/full itself is used only when this
    // process could not remove it anyway (not root).
    std::string path = dir.path() + "/full";
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
        if (::geteuid() == 0)
            GTEST_SKIP() << "cannot mknod a full device here and will not risk /dev/full as root";
        path = "/dev/full";
    }
    fb_dtype d = widest_dtype(plugin);
    // 4 MiB: more than any sensible buffer, so the error cannot hide in one.
    std::uint64_t count = (4u << 20) / formatbench::dtype_size(d);
    aligned_buffer data = make_data(d, count, 5);
    isolated([&] {
        c_result w = c_write(plugin.descriptor(), path, d, data.data(), count, 65536, {});
        return check_write_failure(w, path, "to a full device");
    });
    struct stat st {};
    EXPECT_TRUE(::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode))
        << "the plugin removed or replaced the device at " << path << "; it may only remove what it created";
}

INSTANTIATE_TEST_SUITE_P(all_plugins, write_errors, testing::ValuesIn(plugin_ids()), param_name);

// ---- The registry itself ---------------------------------------------------------

TEST(registry, finds_plugins_and_loads_every_file) {
    auto& reg = plugins();
    EXPECT_FALSE(reg.ids().empty()) << "no plugin found in " << FB_TEST_PLUGIN_DIR;
    for (const auto& problem : reg.problems())
        ADD_FAILURE() << "plugin not loaded: " << problem.text();
}

} // namespace
