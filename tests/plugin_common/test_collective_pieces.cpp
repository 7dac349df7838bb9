// plugins/common/collective_pieces.hpp: which pieces a collective stream
// makes for given host calls, from which buffer, and how many calls of
// nothing make up the agreed count. Every expected piece list is worked out
// by hand from the part's size and the piece size.
#include "common/collective_pieces.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using formatbench::plugin_common::collective_pieces;

struct call {
    std::uint64_t k, first, length;
    bool from_caller; // the caller's buffer, not the stage
    bool operator==(const call&) const = default;
};

std::vector<std::uint64_t> iota(std::size_t n) {
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), 1000);
    return v;
}

// 10 elements of 8 bytes in pieces of 4: 3 pieces (4, 4, 2).
TEST(collective_pieces, counts_pieces_of_the_part) {
    EXPECT_EQ(collective_pieces(10, 4, 8).count(), 3u);
    EXPECT_EQ(collective_pieces(8, 4, 8).count(), 2u);
    EXPECT_EQ(collective_pieces(0, 4, 8).count(), 0u);
    EXPECT_EQ(collective_pieces(5, 0, 1).count(), 5u); // a piece of 0 is 1
}

TEST(collective_pieces, write_in_one_call_goes_from_the_callers_buffer) {
    const auto data = iota(10);
    collective_pieces p(10, 4, sizeof(std::uint64_t));
    std::vector<call> calls;
    std::vector<std::uint64_t> file(10, 0);
    auto put = [&](std::uint64_t k, std::uint64_t first, const unsigned char* q, std::uint64_t n) {
        const auto* v = reinterpret_cast<const std::uint64_t*>(q);
        calls.push_back({k, first, n, v == data.data() + first});
        std::copy(v, v + n, file.begin() + static_cast<std::ptrdiff_t>(first));
    };
    p.write(data.data(), 10, put);
    p.flush(put);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, true}, {1, 4, 4, true}, {2, 8, 2, true}}));
    EXPECT_EQ(file, data);
    EXPECT_EQ(p.made(), 3u);
    EXPECT_EQ(p.left(), 0u);
}

// Host calls of 3 and 7: piece 0 is staged (3 + 1); piece 1 (4) and piece
// 2 (the last, 2) come whole from the second call. Then calls of 9 and 1:
// pieces 0 and 1 from the first call, piece 2 staged (1 + 1).
TEST(collective_pieces, write_stages_what_a_call_does_not_cover) {
    const auto data = iota(10);
    collective_pieces p(10, 4, sizeof(std::uint64_t));
    std::vector<call> calls;
    std::vector<std::uint64_t> file(10, 0);
    const std::uint64_t* second = data.data() + 3;
    auto put = [&](std::uint64_t k, std::uint64_t first, const unsigned char* q, std::uint64_t n) {
        const auto* v = reinterpret_cast<const std::uint64_t*>(q);
        calls.push_back({k, first, n, v >= second && v < second + 7});
        std::copy(v, v + n, file.begin() + static_cast<std::ptrdiff_t>(first));
    };
    p.write(data.data(), 3, put);
    EXPECT_TRUE(calls.empty());
    EXPECT_EQ(p.left(), 7u);
    p.write(second, 7, put);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, false}, {1, 4, 4, true}, {2, 8, 2, true}}));
    p.flush(put);
    EXPECT_EQ(calls.size(), 3u);
    EXPECT_EQ(file, data);

    collective_pieces q(10, 4, sizeof(std::uint64_t));
    calls.clear();
    file.assign(10, 0);
    second = data.data(); // "from the caller" now means from the call of 9
    q.write(data.data(), 9, put);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, true}, {1, 4, 4, true}}));
    q.write(data.data() + 9, 1, put);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, true}, {1, 4, 4, true}, {2, 8, 2, false}}));
    EXPECT_EQ(file, data);
}

// The host stops inside a piece (its close comes early): flush writes the
// staged units as one short call; with nothing staged it makes none.
TEST(collective_pieces, flush_writes_what_is_staged) {
    collective_pieces p(10, 4, 1);
    const unsigned char bytes[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    std::vector<call> calls;
    auto put = [&](std::uint64_t k, std::uint64_t first, const unsigned char*, std::uint64_t n) {
        calls.push_back({k, first, n, false});
    };
    p.write(bytes, 6, put);
    p.flush(put);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, false}, {1, 4, 2, false}}));
    EXPECT_EQ(p.made(), 2u);
}

TEST(collective_pieces, flush_of_nothing_makes_no_call) {
    collective_pieces p(8, 4, 1);
    const unsigned char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int calls = 0;
    auto put = [&](std::uint64_t, std::uint64_t, const unsigned char*, std::uint64_t) { ++calls; };
    p.write(bytes, 8, put);
    p.flush(put);
    EXPECT_EQ(calls, 2);
}

// Reads of 3 and 7: piece 0 into the stage (3 handed out, 1 kept), piece
// 1 and the last one of 2 straight into the second buffer.
TEST(collective_pieces, read_stages_a_piece_larger_than_the_call) {
    const auto file = iota(10);
    collective_pieces p(10, 4, sizeof(std::uint64_t));
    std::vector<std::uint64_t> out(10, 0);
    std::vector<call> calls;
    std::uint64_t* second = out.data() + 3;
    auto get = [&](std::uint64_t k, std::uint64_t first, unsigned char* q, std::uint64_t n) {
        auto* v = reinterpret_cast<std::uint64_t*>(q);
        calls.push_back({k, first, n, v == second + 1 || v == second + 5});
        std::copy(file.begin() + static_cast<std::ptrdiff_t>(first),
                  file.begin() + static_cast<std::ptrdiff_t>(first + n), v);
    };
    p.read(out.data(), 3, get);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, false}}));
    p.read(second, 7, get);
    EXPECT_EQ(calls, (std::vector<call>{{0, 0, 4, false}, {1, 4, 4, true}, {2, 8, 2, true}}));
    EXPECT_EQ(out, file);
    EXPECT_EQ(p.left(), 0u);
}

// Rank with 2 pieces, agreed count 5: 3 calls of nothing; the first
// failure is kept and every call is still made.
TEST(collective_pieces, pad_makes_up_the_agreed_count) {
    collective_pieces p(8, 4, 1);
    const unsigned char bytes[8] = {};
    p.write(bytes, 8, [](std::uint64_t, std::uint64_t, const unsigned char*, std::uint64_t) {});
    std::string problem;
    int pads = 0;
    const std::uint64_t padded = p.pad_to(5, problem, [&]() -> std::string {
        ++pads;
        return pads >= 2 ? "pad " + std::to_string(pads) : "";
    });
    EXPECT_EQ(padded, 3u);
    EXPECT_EQ(pads, 3);
    EXPECT_EQ(problem, "pad 2");
    EXPECT_EQ(p.made(), 5u);
    EXPECT_EQ(p.pad_to(5, problem, [] { return std::string("never"); }), 0u);
}

// A call that throws is counted: the padding then makes up only the rest.
TEST(collective_pieces, a_failing_call_counts) {
    collective_pieces p(12, 4, 1);
    const unsigned char bytes[12] = {};
    EXPECT_THROW(p.write(bytes, 12,
                         [](std::uint64_t k, std::uint64_t, const unsigned char*, std::uint64_t) {
                             if (k == 1) throw std::runtime_error("disk full");
                         }),
                 std::runtime_error);
    EXPECT_EQ(p.made(), 2u);
    std::string problem;
    EXPECT_EQ(p.pad_to(3, problem, [] { return std::string(); }), 1u);
    EXPECT_TRUE(problem.empty());
}

} // namespace
