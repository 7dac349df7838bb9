// Plugin conformance suite: the core's conformance checks (core/src/
// conformance.hpp, the same ones `formatbench check-plugin` runs) against
// every plugin the build produced, found through the registry at run time,
// at the exhaustive depth (counts up to 10^6, hence 120 s per check rather
// than check-plugin's default). One GoogleTest case per plugin and check, so
// a failure names both; a check the core skips (with its reason) is a
// GoogleTest skip with the same reason. Under the sanitizers, py-numpy
// stands for every Python plugin (python_module_left_out).
#include "host/conformance.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fbc = formatbench::conformance;

// Every plugin in FB_TEST_PLUGIN_DIR, loaded once per process.
formatbench::registry& plugins() {
    static formatbench::registry reg;
    static const bool loaded = [] {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        return true;
    }();
    (void)loaded;
    return reg;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

// Under the sanitizers, one Python plugin (py-numpy) is checked for all:
// every module's library is the same bridge (plugins/python/bridge.cpp),
// the only code of theirs the sanitizers instrument, and the rest is
// Python and its uninstrumented extensions, whose checks mostly cost
// importing pandas and xarray in each check's child. The release stage
// checks every one of them.
bool python_module_left_out(const formatbench::plugin& p) {
    const std::string file = p.file().filename().string();
    return sanitized && file.rfind("libfb_py_", 0) == 0 && file != "libfb_py_numpy.so";
}

fbc::settings suite_settings() {
    fbc::settings s;
    s.level = fbc::depth::exhaustive;
    s.timeout_seconds = 120;
    return s;
}

struct plugin_check {
    std::string plugin;
    fbc::check check;
    std::string test_name; // unique, [A-Za-z0-9_]
};

void PrintTo(const plugin_check& c, std::ostream* os) {
    *os << c.plugin << " " << c.check.name;
}

std::vector<plugin_check> all_checks() {
    std::vector<plugin_check> out;
    std::set<std::string> names;
    for (const auto& p : plugins().plugins()) {
        // A plugin that calls MPI opens its streams on the ranks of an MPI
        // job only, and every check runs in a forked child, which is not an
        // MPI process: tests/mpi checks such plugins under mpirun
        // (mpi_plugins_are_checked_under_mpirun below says so).
        if (p->has_mpi() || python_module_left_out(*p)) continue;
        for (auto& c : fbc::plan_checks(*p, suite_settings())) {
            std::string name = fbc::sanitize(p->id() + "__" + c.name);
            // Sanitising may map two check names to one test name.
            std::string unique = name;
            for (int i = 2; names.count(unique); ++i)
                unique = name + "_" + std::to_string(i);
            names.insert(unique);
            out.push_back({p->id(), std::move(c), unique});
        }
    }
    return out;
}

class conformance : public testing::TestWithParam<plugin_check> {};

TEST_P(conformance, check) {
    const plugin_check& c = GetParam();
    // A plugin with formatbench.prepare/1 (the Python plugins: the
    // interpreter and the module's imports) is prepared once, here, before
    // its first check: each check's forked child then starts as a case's
    // worker does after its prepare, instead of importing pandas or xarray
    // again in each one. The first open without a prepare is
    // checked by `formatbench check-plugin` itself (tests/cli python_plugin,
    // plugin_python_guide_example) and the ABI test's old host. Not under
    // the sanitizers, where py-numpy alone is checked and the parent's
    // interpreter would outlive the leak check.
    static std::set<std::string> prepared;
    if (!sanitized && prepared.insert(c.plugin).second)
        if (const auto* p = plugins().find(c.plugin)) p->prepare({}, FB_DTYPE_F64);
    fbc::check_result r = fbc::run_check(c.check, suite_settings());
    if (!r.result.note.empty()) {
        RecordProperty("note", r.result.note);
        std::cout << "[ note     ] " << r.result.note << "\n";
    }
    switch (r.result.what) {
    case fbc::outcome::passed: break;
    case fbc::outcome::warned: std::cout << "[ warning  ] " << r.result.reason << "\n"; break;
    case fbc::outcome::skipped: GTEST_SKIP() << r.result.reason; break;
    case fbc::outcome::failed:
        ADD_FAILURE() << "plugin '" << c.plugin << "', check " << c.check.name << ": " << r.result.reason;
        break;
    }
}

INSTANTIATE_TEST_SUITE_P(all_plugins, conformance, testing::ValuesIn(all_checks()),
                         [](const testing::TestParamInfo<plugin_check>& info) {
                             return info.param.test_name;
                         });

TEST(conformance_mpi, mpi_plugins_are_checked_under_mpirun) {
    std::string skipped;
    for (const auto& p : plugins().plugins())
        if (p->has_mpi()) skipped += (skipped.empty() ? "" : ", ") + p->id();
    if (!skipped.empty())
        GTEST_SKIP() << "not checked here (formatbench.mpi/1: they run on MPI ranks only; tests/mpi checks "
                        "them under mpirun): "
                     << skipped;
}

// ---- The registry itself ---------------------------------------------------------

TEST(registry, finds_plugins_and_loads_every_file) {
    auto& reg = plugins();
    EXPECT_FALSE(reg.ids().empty()) << "no plugin found in " << FB_TEST_PLUGIN_DIR;
    for (const auto& problem : reg.problems())
        ADD_FAILURE() << "plugin not loaded: " << problem.text();
}

// The checks themselves: every plugin gets each kind of check, so a bug in
// planning cannot silently shrink the suite.
TEST(plan, every_kind_of_check_is_planned) {
    for (const auto& p : plugins().plugins()) {
        std::set<std::string> kinds;
        for (const auto& c : fbc::plan_checks(*p, suite_settings()))
            kinds.insert(c.name.substr(0, c.name.find('/')));
        std::set<std::string> want = {"descriptor", "round_trip", "overwrite",
                                      "read_error", "bad_option", "write_error"};
        // An option with another valid value than its default, in a plugin
        // that writes files: does it change them?
        if (!p->has(FB_CAP_NO_FILE))
            for (const auto& o : p->options())
                if (o.type == FB_OPT_BOOL || (o.type == FB_OPT_CHOICE && o.choices.size() > 1) ||
                    (o.type != FB_OPT_STRING && o.type != FB_OPT_CHOICE && o.has_range && o.min < o.max))
                    want.insert("option_effect");
        // What a plugin offers adds its checks (ABI 1.2's extensions and flag).
        if (p->has_extension(FB_EXT_CHECK_OPTIONS_V1)) want.insert("check_options");
        if (p->has_read_at()) want.insert("read_at");
        if (p->has_read_box()) want.insert("read_box");
        if (p->has(FB_CAP_DIRECT_IO)) want.insert("direct_io");
        EXPECT_EQ(kinds, want) << p->id();
    }
}

} // namespace
