// The paths a test takes from the build: plugin folders, programs the build
// made, files of the source tree. `meson test` passes them in the
// environment (add_test_setup in tests/meson.build), never as compile-time
// defines, so that no test object holds a path of its checkout and a fresh
// clone in another folder compiles nothing again (ccache, scripts/test-all.sh).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace fb_test {

// The value of the environment variable `name`. Run outside `meson test`
// without it, the test program stops at once and says what to do.
inline const char* env_path(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        std::fprintf(stderr,
                     "%s is not set: run this test with `meson test -C BUILD NAME`, which sets it "
                     "(tests/meson.build, add_test_setup)\n",
                     name);
        std::exit(2);
    }
    return value;
}

} // namespace fb_test

// The build's plugin folder, and the test plugins (tests/plugins, its broken/ and padded/).
#define FB_TEST_PLUGIN_DIR (::fb_test::env_path("FB_TEST_PLUGIN_DIR"))
#define FB_TEST_EXTRA_PLUGIN_DIR (::fb_test::env_path("FB_TEST_EXTRA_PLUGIN_DIR"))
#define FB_TEST_BROKEN_PLUGIN_DIR (::fb_test::env_path("FB_TEST_BROKEN_PLUGIN_DIR"))
#define FB_TEST_PADDED_PLUGIN_DIR (::fb_test::env_path("FB_TEST_PADDED_PLUGIN_DIR"))
// Programs the build made: formatbench, and the gfortran reference programs of tests/plugin_fortran.
#define FB_FORMATBENCH (::fb_test::env_path("FB_FORMATBENCH"))
#define FB_REFERENCE_IO (::fb_test::env_path("FB_REFERENCE_IO"))
#define FB_REFERENCE_IO_SUBRECORDS (::fb_test::env_path("FB_REFERENCE_IO_SUBRECORDS"))
// Files and folders of the source tree.
#define FB_STUDIES_DIR (::fb_test::env_path("FB_STUDIES_DIR"))
#define FB_CONFIGS_DIR (::fb_test::env_path("FB_CONFIGS_DIR"))
#define FB_RESULTS_SCHEMA (::fb_test::env_path("FB_RESULTS_SCHEMA"))
#define FB_GOLDEN_DIR (::fb_test::env_path("FB_GOLDEN_DIR"))
#define FB_CHECK_REPORT (::fb_test::env_path("FB_CHECK_REPORT"))
#define FB_ABI_DOC (::fb_test::env_path("FB_ABI_DOC"))
#define FB_GFORTRAN_IO_SOURCE (::fb_test::env_path("FB_GFORTRAN_IO_SOURCE"))
