// fb_check_options (plugin.h, for C plugins) against sdk::options::check
// (plugin.hpp, which the host itself uses to check a study's options): for
// every option type and a spread of values, both accept the same values and
// refuse the others with the same message. A C plugin that disagreed with
// the host would fail a study the host had accepted, or accept a value
// check-plugin expects it to refuse.
#include <formatbench/plugin.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace sdk = formatbench::sdk;

int main() {
    static constexpr const char* modes[] = {"fast", "small", "", nullptr};
    const fb_option_decl decls[] = {
        sdk::option_bool("flag", "false", "h"),
        sdk::option_int("level", "6", -3, 9, "h"),
        sdk::option_int("offset", "0", -9.2e18, 9.2e18, "h"),
        {"any_int", FB_OPT_INT, "0", 0, 0, 0, nullptr, "h"},
        sdk::option_float("ratio", "1", 0.25, 2.5, "h"),
        sdk::option_float("wide", "1", -1e300, 1e300, "h"),
        sdk::option_size("buffer", "64KiB", 4096, 1048576, "h"),
        sdk::option_size("big", "1", 0, 1e19, "h"),
        sdk::option_choice("mode", "fast", modes, "h"),
        sdk::option_string("label", "", "h"),
    };
    const std::vector<std::string> values = {
        "",
        "0",
        "1",
        "-1",
        "+1",
        "-0",
        "+0",
        "00",
        "007",
        "9",
        "10",
        "-3",
        "-4",
        "1.5",
        "2.5",
        "2.6",
        "0.25",
        "0.2",
        ".5",
        "5.",
        ".",
        "-.5",
        "1e0",
        "1E1",
        "1e",
        "e1",
        "1e+1",
        "1e-1",
        "1e-400",
        "1e400",
        "5e-324",
        "1e308",
        "1e301",
        "-1e301",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "infinity",
        "0x10",
        "0x1p3",
        " 1",
        "1 ",
        "1,5",
        "abc",
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "TRUE",
        "maybe",
        "4096",
        "4095",
        "4KiB",
        "4kb",
        "4KB",
        "1MiB",
        "1MB",
        "1048577",
        "2MiB",
        "4_096",
        "_4096",
        "4096_",
        "1.5KiB",
        "0.5B",
        "12X",
        "1Ki",
        "10 MiB",
        "16EiB",
        "18446744073709551615",
        "18446744073709551616",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "fast",
        "small",
        "Fast",
        "fast ",
        "slow",
        "--1",
        "+",
        "-",
    };
    int failures = 0, compared = 0;
    for (const auto& d : decls)
        for (const auto& v : values) {
            std::string host_message;
            bool host_ok = true;
            try {
                sdk::options::check(d, v);
            } catch (const sdk::error& e) {
                host_ok = false;
                host_message = e.what();
            }
            fb_option opt{d.name, v.c_str()};
            char err[512] = "";
            fb_status st = fb_check_options(decls, sizeof decls / sizeof decls[0], &opt, 1, err, sizeof err);
            ++compared;
            if ((st == FB_OK) != host_ok || (!host_ok && host_message != err)) {
                std::printf("FAIL: %s='%s': plugin.hpp %s '%s', fb_check_options %s '%s'\n", d.name,
                            v.c_str(), host_ok ? "accepts" : "refuses", host_message.c_str(),
                            st == FB_OK ? "accepts" : "refuses", err);
                ++failures;
            }
        }
    if (failures) {
        std::printf("%d of %d disagree\n", failures, compared);
        return 1;
    }
    std::printf("fb_check_options agrees with plugin.hpp on %d values\n", compared);
    return 0;
}
