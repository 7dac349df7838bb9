// The registry the unit tests share: the plugins the build produced
// (FB_TEST_PLUGIN_DIR) and the test plugins (FB_TEST_EXTRA_PLUGIN_DIR),
// loaded once per test program and kept to its end.
#pragma once

#include "host/registry.hpp"
#include "test_env.hpp"

namespace formatbench::unit_tests {

inline const registry& test_registry() {
    static registry* reg = [] {
        auto* r = new registry;
        r->load_directories({FB_TEST_PLUGIN_DIR, FB_TEST_EXTRA_PLUGIN_DIR});
        return r;
    }();
    return *reg;
}

} // namespace formatbench::unit_tests
