// Tests of the case executor's read: view path (case_executor.cpp): the
// payload is verified in place from the plugin's zero-copy view, in memory
// and streamed chunk by chunk, and a view with wrong bytes fails the case.
#include "case_executor.hpp"
#include "config.hpp"
#include "data_source.hpp"
#include "registry.hpp"
#include "test_registry.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

namespace fb = formatbench;

namespace {

using formatbench::unit_tests::test_registry;

// Runs the one case of a study text with the given in-memory limit.
fb::case_result run_one(const std::string& text, std::uint64_t in_memory_bytes) {
    auto s = fb::load_study_text(text, "<t>");
    EXPECT_EQ(s.cases.size(), 1u);
    const fb::case_spec& c = s.cases.at(0);
    const fb::plugin& p = test_registry().get(c.format.plugin);
    auto source = fb::make_data_source(c.dataset, test_registry());
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("fb_view_" + std::to_string(::getpid()) + "_" + c.format.plugin))
                                 .string();
    fb::execution_limits limits;
    limits.in_memory_bytes = in_memory_bytes;
    limits.repeat = 3;
    auto r = fb::execute_case(c, p, *source, path, limits);
    std::filesystem::remove(path);
    return r;
}

} // namespace

TEST(read_view, verifies_in_place_in_memory_and_streamed) {
    for (const char* plugin : {"mmap", "memory", "misbehave"}) {
        std::string text = "datasets: [{count: 100003}]\nformats: [{plugin: ";
        text.append(plugin).append(", read: view, chunk: 16KiB}]\n");
        for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{64} << 10}) {
            SCOPED_TRACE(std::string(plugin) + (limit > (1u << 20) ? " in memory" : " streamed"));
            auto r = run_one(text, limit);
            ASSERT_EQ(r.status, fb::case_status::ok) << r.error;
            EXPECT_TRUE(r.verify.checked);
            EXPECT_EQ(r.verify.compared, 100003u);
            EXPECT_EQ(r.verify.mismatches, 0u);
            ASSERT_EQ(r.samples.size(), 3u);
            for (const auto& rep : r.samples)
                EXPECT_GT(rep.read.wall_s, 0);
        }
    }
}

TEST(read_view, a_view_with_wrong_bytes_fails_the_case) {
    for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{64} << 10}) {
        auto r =
            run_one("datasets: [{count: 5000}]\n"
                    "formats: [{plugin: misbehave, read: view, chunk: 16KiB, options: {mode: wrong_data}}]\n",
                    limit);
        EXPECT_EQ(r.status, fb::case_status::failed);
        EXPECT_EQ(r.verify.mismatches, 1u);
        EXPECT_NE(r.error.find("1 of 5000 values read back differ"), std::string::npos) << r.error;
    }
}
