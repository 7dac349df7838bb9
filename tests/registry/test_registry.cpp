// Registry and ABI round-trip tests: broken plugin files are skipped with the
// right reason while the good plugins beside them still load; a C plugin and
// a C++ plugin write and read a buffer through the host wrapper.
#include "base/error.hpp"
#include "host/elf_exports.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace formatbench;

namespace {

std::string problem_for(const registry& reg, const std::string& file_name) {
    for (const auto& p : reg.problems())
        if (p.file.filename() == file_name) return p.reason;
    return "<no problem recorded for " + file_name + ">";
}

class registry_test : public ::testing::Test {
protected:
    void SetUp() override {
        reg.load_directories({FB_TEST_PLUGIN_DIR, FB_TEST_EXTRA_PLUGIN_DIR, FB_TEST_BROKEN_PLUGIN_DIR,
                              "/nonexistent/formatbench/plugins"});
        dir = fs::temp_directory_path() / ("fb_registry_test_" + std::to_string(::getpid()));
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    registry reg;
    fs::path dir;
};

// The entry symbol is looked up in .dynsym before any code runs: found in a
// plugin, also once it is stripped (no .symtab) and when long section names
// make .shstrtab longer than the symbol's .strtab offset (where Boost 1.74's
// library_info misread it); not found in a library without it; a text file
// and cut-off copies are no library, and nothing reads past their end.
TEST_F(registry_test, entry_symbol_is_read_from_the_dynamic_symbol_table) {
    using detail::elf_export;
    using detail::elf_exports;
    const fs::path c_plugin = fs::path(FB_TEST_EXTRA_PLUGIN_DIR) / "libfb_c_plugin.so";
    const fs::path padded = fs::path(FB_TEST_PADDED_PLUGIN_DIR) / "libfb_c_plugin_padded.so";
    const fs::path broken = FB_TEST_BROKEN_PLUGIN_DIR;
    EXPECT_EQ(elf_exports(c_plugin, "fb_plugin_entry"), elf_export::exported);
    EXPECT_EQ(elf_exports(padded, "fb_plugin_entry"), elf_export::exported);
    EXPECT_EQ(elf_exports(c_plugin, "fb_plugin_entr"), elf_export::not_exported);
    EXPECT_EQ(elf_exports(c_plugin, "fb_plugin_entryx"), elf_export::not_exported);
    EXPECT_EQ(elf_exports(broken / "libbroken_no_entry.so", "fb_plugin_entry"), elf_export::not_exported);
    EXPECT_EQ(elf_exports(broken / "libnot_a_library.so", "fb_plugin_entry"), elf_export::not_a_library);
    EXPECT_EQ(elf_exports(dir / "missing.so", "fb_plugin_entry"), elf_export::not_a_library);
    const fs::path stripped = dir / "libstripped.so";
    fs::copy_file(c_plugin, stripped);
    ASSERT_EQ(std::system(("strip --strip-all '" + stripped.string() + "'").c_str()), 0);
    EXPECT_EQ(elf_exports(stripped, "fb_plugin_entry"), elf_export::exported);
    const auto size = fs::file_size(c_plugin);
    for (std::uintmax_t keep :
         {std::uintmax_t{3}, std::uintmax_t{40}, std::uintmax_t{64}, size / 2, size - 1}) {
        const fs::path cut = dir / ("cut" + std::to_string(keep) + ".so");
        fs::copy_file(c_plugin, cut);
        fs::resize_file(cut, keep);
        EXPECT_EQ(elf_exports(cut, "fb_plugin_entry"), elf_export::not_a_library) << keep << " bytes";
    }
    // A 32-bit ELF is left to dlopen (byte 4, EI_CLASS, set to ELFCLASS32).
    const fs::path elf32 = dir / "libelf32.so";
    fs::copy_file(c_plugin, elf32);
    {
        std::fstream f(elf32, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(4);
        f.put(1);
    }
    EXPECT_EQ(elf_exports(elf32, "fb_plugin_entry"), elf_export::undecided);
    // Without a section table (as sstrip leaves a library: e_shoff, e_shentsize,
    // e_shnum and e_shstrndx zeroed) the program headers still load it: left to
    // dlopen, and the registry loads it.
    const fs::path no_sections_dir = dir / "no_sections";
    fs::create_directory(no_sections_dir);
    const fs::path no_sections = no_sections_dir / "libfb_c_plugin.so";
    fs::copy_file(c_plugin, no_sections);
    {
        std::fstream f(no_sections, std::ios::in | std::ios::out | std::ios::binary);
        const char zeros[8] = {};
        f.seekp(0x28); // e_shoff
        f.write(zeros, 8);
        f.seekp(0x3a); // e_shentsize, e_shnum, e_shstrndx
        f.write(zeros, 6);
    }
    EXPECT_EQ(elf_exports(no_sections, "fb_plugin_entry"), elf_export::undecided);
    registry no_sections_only;
    no_sections_only.load_directories({no_sections_dir});
    EXPECT_NE(no_sections_only.find("c_plugin"), nullptr);
    EXPECT_TRUE(no_sections_only.problems().empty());
    // And the registry loads the padded plugin.
    registry padded_only;
    padded_only.load_directories({FB_TEST_PADDED_PLUGIN_DIR});
    EXPECT_NE(padded_only.find("c_plugin"), nullptr);
    EXPECT_TRUE(padded_only.problems().empty());
}

TEST_F(registry_test, good_plugins_load_beside_broken_ones) {
    EXPECT_NE(reg.find("memory"), nullptr);
    EXPECT_NE(reg.find("c_plugin"), nullptr);
    EXPECT_NE(reg.find("misbehave"), nullptr);
    EXPECT_EQ(reg.find("broken"), nullptr);
    // The missing folder is remembered as searched, not an error.
    EXPECT_EQ(reg.searched().back(), fs::path("/nonexistent/formatbench/plugins"));
}

// An open that reports success without a stream is the plugin's bug
// (FB_E_INTERNAL); a part of a shared file from a plugin without
// formatbench.part/1 is FB_E_UNSUPPORTED. Both name the plugin and the path.
TEST_F(registry_test, opens_without_a_stream_or_without_parts_are_plugin_errors) {
    const plugin* p = reg.find("null_stream");
    ASSERT_NE(p, nullptr);
    const std::string path = (dir / "x.bin").string();
    const auto error_of = [](const auto& open) -> std::pair<int, std::string> {
        try {
            open();
        } catch (const plugin_error& e) {
            return {e.status(), e.what()};
        }
        return {FB_OK, "no error"};
    };
    auto [st, what] = error_of([&] { p->open_write(path, FB_DTYPE_F64, 10, {}); });
    EXPECT_EQ(st, FB_E_INTERNAL);
    EXPECT_EQ(what, "plugin 'null_stream': open for write '" + path +
                        "' failed (internal error): returned success without a stream");
    std::tie(st, what) = error_of([&] { p->open_read(path, FB_DTYPE_F64, 10, {}); });
    EXPECT_EQ(st, FB_E_INTERNAL);
    EXPECT_EQ(what, "plugin 'null_stream': open for read '" + path +
                        "' failed (internal error): returned success without a stream");
    EXPECT_FALSE(p->has_parts());
    for (bool write : {true, false}) {
        std::tie(st, what) = error_of([&] {
            if (write)
                p->open_write_part(path, FB_DTYPE_F64, 0, 10, 20, {});
            else
                p->open_read_part(path, FB_DTYPE_F64, 0, 10, 20, {});
        });
        EXPECT_EQ(st, FB_E_UNSUPPORTED);
        EXPECT_EQ(what, "plugin 'null_stream': open a part of '" + path +
                            "' failed (unsupported): the plugin has no formatbench.part/1 extension");
    }
}

TEST_F(registry_test, each_broken_file_is_skipped_with_its_reason) {
    EXPECT_NE(problem_for(reg, "libnot_a_library.so").find("not a shared library"), std::string::npos);
    EXPECT_NE(problem_for(reg, "libbroken_no_entry.so").find("no entry symbol 'fb_plugin_entry'"),
              std::string::npos);
    EXPECT_NE(problem_for(reg, "libbroken_bad_magic.so").find("bad magic 0x12345678"), std::string::npos);
    EXPECT_NE(problem_for(reg, "libbroken_abi2.so").find("plugin ABI 2.0, this formatbench speaks 1.x"),
              std::string::npos);
    EXPECT_NE(problem_for(reg, "libbroken_missing_call.so").find("lacks the required call read"),
              std::string::npos);
    EXPECT_NE(problem_for(reg, "libbroken_null_descriptor.so").find("returned no descriptor"),
              std::string::npos);
    std::string dup = problem_for(reg, "libbroken_duplicate.so");
    EXPECT_NE(dup.find("duplicate plugin id 'c_plugin'"), std::string::npos) << dup;
    // The first one found wins, and both paths are named.
    EXPECT_NE(dup.find(reg.find("c_plugin")->file().string()), std::string::npos) << dup;
    // Files whose code misbehaves while loading, probed in a child first.
    const std::pair<const char*, const char*> at_load[] = {
        {"libbroken_crash_on_load.so", "loading it crashed (signal 11"},
        {"libbroken_abort_in_entry.so", "loading it crashed (signal 6"},
        {"libbroken_hang_on_load.so", "loading it did not finish within 1 s"},
        {"libbroken_print_on_load.so",
         "writes to standard output or error while loading (a plugin must not print): 'hello from a plugin "
         "constructor'"},
        {"libbroken_null_option_name.so", "option 0 has no name of [a-z0-9_]+"},
        {"libbroken_unknown_option_type.so", "option 'kind' has an unknown type 42"},
        {"libbroken_unterminated_choices.so", "option 'mode' has no NULL-terminated list of choices"},
        {"libbroken_absurd_option_count.so", "descriptor declares 4000000000 options (at most 1000)"},
        {"libbroken_duplicate_option.so", "option 'level' is declared twice"},
        {"libbroken_bad_default.so", "the default of option 'mode' does not fit its declaration"},
    };
    for (const auto& [file, reason] : at_load)
        EXPECT_NE(problem_for(reg, file).find(reason), std::string::npos)
            << file << ": " << problem_for(reg, file);
    EXPECT_EQ(reg.problems().size(), 17u);
    for (const auto& p : reg.problems())
        EXPECT_EQ(p.text().rfind(p.file.string(), 0), 0u) << p.text();
}

TEST_F(registry_test, unknown_id_lists_known_plugins_and_suggests) {
    try {
        reg.get("c_plugn");
        FAIL() << "no exception";
    } catch (const usage_error& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("unknown plugin 'c_plugn'"), std::string::npos) << m;
        EXPECT_NE(m.find("did you mean 'c_plugin'"), std::string::npos) << m;
        EXPECT_NE(m.find("memory"), std::string::npos) << m;
        EXPECT_NE(m.find("/nonexistent/formatbench/plugins"), std::string::npos) << m;
    }
}

void round_trip(const plugin& p, const fs::path& path) {
    std::vector<double> out(1000);
    std::iota(out.begin(), out.end(), 0.25);
    auto w = p.open_write(path.string(), FB_DTYPE_F64, out.size(), {});
    w->write(out.data(), 10);
    w->write(out.data() + 10, out.size() - 10);
    w->close();
    std::vector<double> in(out.size(), -1.0);
    auto r = p.open_read(path.string(), FB_DTYPE_F64, in.size(), {});
    r->read(in.data(), 999);
    r->read(in.data() + 999, 1);
    r->close();
    EXPECT_EQ(in, out) << p.id();
}

TEST_F(registry_test, abi_round_trip_through_a_plain_c_plugin) {
    round_trip(reg.get("c_plugin"), dir / "c.bin");
    EXPECT_EQ(fs::file_size(dir / "c.bin"), 8000u);
}

TEST_F(registry_test, abi_round_trip_through_a_cpp_plugin) {
    round_trip(reg.get("misbehave"), dir / "m.bin");
}

TEST_F(registry_test, plugin_errors_cross_the_abi_with_path_and_plugin) {
    const plugin& c = reg.get("c_plugin");
    try {
        c.open_write((dir / "x.bin").string(), FB_DTYPE_F64, 1, {{"fail_on_open", "true"}});
        FAIL() << "no exception";
    } catch (const plugin_error& e) {
        std::string m = e.what();
        EXPECT_EQ(e.plugin_id(), "c_plugin");
        EXPECT_EQ(e.status(), FB_E_IO);
        EXPECT_NE(m.find((dir / "x.bin").string()), std::string::npos) << m;
        EXPECT_NE(m.find("fail_on_open is set"), std::string::npos) << m;
    }
    // An exception thrown inside a C++ plugin arrives as a status, not a crash.
    const plugin& m = reg.get("misbehave");
    auto w = m.open_write((dir / "y.bin").string(), FB_DTYPE_F64, 1, {{"mode", "fail_write"}});
    double v = 1;
    EXPECT_THROW(w->write(&v, 1), plugin_error);
    w->close();
    // A missing file to read: an I/O error naming the path.
    try {
        m.open_read((dir / "missing.bin").string(), FB_DTYPE_F64, 1, {});
        FAIL() << "no exception";
    } catch (const plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find("missing.bin"), std::string::npos);
    }
}

TEST_F(registry_test, options_are_checked_against_declarations) {
    const plugin& m = reg.get("misbehave");
    EXPECT_NO_THROW(m.check_options({{"mode", "ok"}, {"slowdown", "20"}}));
    auto message = [&](const option_list& o) {
        try {
            m.check_options(o);
        } catch (const usage_error& e) {
            return std::string(e.what());
        }
        return std::string("<accepted>");
    };
    EXPECT_NE(message({{"mdoe", "ok"}}).find("has no option 'mdoe' (did you mean 'mode'?)"),
              std::string::npos);
    EXPECT_NE(message({{"mode", "explode"}}).find("one of ok | segfault"), std::string::npos);
    EXPECT_NE(message({{"slowdown", "2000"}}).find("in [0, 1000]"), std::string::npos);
    EXPECT_NE(message({{"slowdown", "fast"}}).find("is not a number"), std::string::npos);
    // The plugin itself rejects a bad option too, with FB_E_INVALID_OPTION.
    try {
        m.open_write((dir / "z.bin").string(), FB_DTYPE_F64, 1, {{"mode", "explode"}});
        FAIL() << "no exception";
    } catch (const plugin_error& e) {
        EXPECT_EQ(e.status(), FB_E_INVALID_OPTION);
    }
    EXPECT_FALSE(fs::exists(dir / "z.bin"));
}

TEST(plugin_search_path, order_is_command_line_env_study_then_builtin) {
    ::setenv("FORMATBENCH_PLUGIN_PATH", "/env/a::/env/b", 1);
    auto path = plugin_search_path({"/cli"}, {"/study"});
    ::unsetenv("FORMATBENCH_PLUGIN_PATH");
    ASSERT_GE(path.size(), 4u);
    EXPECT_EQ(path[0], fs::path("/cli"));
    EXPECT_EQ(path[1], fs::path("/env/a"));
    EXPECT_EQ(path[2], fs::path("/env/b"));
    EXPECT_EQ(path[3], fs::path("/study"));
}

} // namespace
