// Tests of the case executor's read: view path (case_executor.cpp): the
// payload is verified in place from the plugin's zero-copy view, in memory
// and streamed chunk by chunk, and a view with wrong bytes fails the case.
#include "run/case_executor.hpp"
#include "study/reader.hpp"
#include "run/data.hpp"
#include "run/data_source.hpp"
#include "host/registry.hpp"
#include "test_registry.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// The data a case writes does not depend on how it is cut: a case streamed in
// 1000-byte chunks (in-memory limit below the payload) and one written from
// memory produce the same file, and that file holds the generator's values
// element by element (checked against a whole fill, made here).
TEST(case_data, streamed_and_in_memory_cases_write_the_same_bytes) {
    for (const char* dist : {"uniform", "normal", "smooth", "integers"}) {
        SCOPED_TRACE(dist);
        const std::string text = std::string("datasets: [{dtype: f64, count: 10007, distribution: ") + dist +
                                 "}]\nformats: [{plugin: raw, chunk: 1000}]\n";
        auto s = fb::load_study_text(text, "<t>");
        ASSERT_EQ(s.cases.size(), 1u);
        const fb::case_spec& c = s.cases[0];
        const fb::plugin& p = test_registry().get("raw");
        auto source = fb::make_data_source(c.dataset, test_registry());
        std::vector<unsigned char> want(10007 * 8);
        fb::generator(c.dataset).fill(0, 10007, want.data());
        for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{4096}}) {
            SCOPED_TRACE(limit > 4096 ? "in memory" : "streamed");
            const std::string path =
                (std::filesystem::temp_directory_path() / ("fb_data_" + std::to_string(::getpid()) + ".raw"))
                    .string();
            fb::execution_limits limits;
            limits.in_memory_bytes = limit;
            limits.repeat = 1;
            auto r = fb::execute_case(c, p, *source, path, limits);
            ASSERT_EQ(r.status, fb::case_status::ok) << r.error;
            std::ifstream in(path, std::ios::binary);
            std::vector<unsigned char> got((std::istreambuf_iterator<char>(in)), {});
            std::filesystem::remove(path);
            ASSERT_EQ(got.size(), want.size());
            for (std::size_t i = 0; i < want.size(); i += 8)
                ASSERT_EQ(std::memcmp(got.data() + i, want.data() + i, 8), 0) << "element " << i / 8;
        }
    }
}
