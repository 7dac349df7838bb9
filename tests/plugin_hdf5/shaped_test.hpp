// Shaped data sets and random access (ABI 1.2), shared by the hdf5 and
// netcdf plugins' tests (tests/plugin_netcdf includes it from here): an
// f64 array of shape 3 x 4 x 5 whose value at each element is its row-major
// index (z * 20 + y * 5 + x), written through the plugin in pieces of 7
// elements (pieces that cross rows and planes), and the checks of
// formatbench.read-at/1 and read-box/1 against values computed here from
// that formula: the first and last element, a range past the end refused,
// one offset read again and again, ranges across rows and planes, planes
// orthogonal to each axis and an interior box.
#pragma once

#include "plugin_test.hpp"

#include <array>

namespace shaped_test {

using namespace plugin_test;

inline const std::vector<std::uint64_t> shape = {3, 4, 5};
constexpr std::uint64_t total = 60;

// The value of the element at (z, y, x): its row-major index.
inline double value_at(std::uint64_t z, std::uint64_t y, std::uint64_t x) {
    return double(z * 20 + y * 5 + x);
}

// Writes the array through plugin `id` with the shape, in pieces of 7.
inline void write_shaped(const std::string& id, const std::string& path, const option_list& options) {
    std::vector<double> v(total);
    for (std::uint64_t z = 0; z < 3; ++z)
        for (std::uint64_t y = 0; y < 4; ++y)
            for (std::uint64_t x = 0; x < 5; ++x)
                v[z * 20 + y * 5 + x] = value_at(z, y, x);
    auto w = plugin(id).open_write(path, FB_DTYPE_F64, total, options, {shape, false});
    for (std::uint64_t i = 0; i < total; i += 7)
        w->write(v.data() + i, std::min<std::uint64_t>(7, total - i));
    w->close();
}

// The values of a box, row-major, from the formula.
inline std::vector<double> box_values(const std::array<std::uint64_t, 3>& start,
                                      const std::array<std::uint64_t, 3>& count) {
    std::vector<double> out;
    for (std::uint64_t z = start[0]; z < start[0] + count[0]; ++z)
        for (std::uint64_t y = start[1]; y < start[1] + count[1]; ++y)
            for (std::uint64_t x = start[2]; x < start[2] + count[2]; ++x)
                out.push_back(value_at(z, y, x));
    return out;
}

// Flat elements [offset, offset + count): the index formula inverted.
inline std::vector<double> range_values(std::uint64_t offset, std::uint64_t count) {
    std::vector<double> out;
    for (std::uint64_t i = offset; i < offset + count; ++i)
        out.push_back(value_at(i / 20, i / 5 % 4, i % 5));
    return out;
}

// Every check of read_at and read_box on the file at path, opened with the
// shape.
inline void expect_random_access(const std::string& id, const std::string& path, const option_list& options) {
    auto r = plugin(id).open_read(path, FB_DTYPE_F64, total, options, {shape, false});
    auto at = [&](std::uint64_t offset, std::uint64_t count) {
        std::vector<double> got(count, -1.0);
        r->read_at(offset, got.data(), count);
        return got;
    };
    EXPECT_EQ(at(0, 1), std::vector<double>{0.0});
    EXPECT_EQ(at(59, 1), std::vector<double>{value_at(2, 3, 4)});
    EXPECT_EQ(at(0, total), range_values(0, total));
    std::string message;
    double sink[3];
    EXPECT_EQ(status_of([&] { r->read_at(58, sink, 3); }, &message), FB_E_TRUNCATED) << message;
    EXPECT_EQ(status_of([&] { r->read_at(60, sink, 1); }, &message), FB_E_TRUNCATED) << message;
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(at(17, 5), range_values(17, 5)) << "read " << i << " of one offset";
    // Within a row; across a row's end; from mid-row of plane 0 to mid-row
    // of plane 2 (a head, whole rows, a whole plane, whole rows, a tail);
    // whole planes; from a plane's start to mid-plane.
    for (auto [offset, count] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
             {6, 3}, {3, 4}, {18, 25}, {7, 51}, {20, 40}, {20, 13}, {1, 58}, {4, 2}})
        EXPECT_EQ(at(offset, count), range_values(offset, count)) << "elements " << offset << " + " << count;
    auto box = [&](std::array<std::uint64_t, 3> start, std::array<std::uint64_t, 3> count) {
        std::vector<double> got(count[0] * count[1] * count[2], -1.0);
        r->read_box({start.begin(), start.end()}, {count.begin(), count.end()}, got.data());
        EXPECT_EQ(got, box_values(start, count))
            << "box from " << start[0] << "," << start[1] << "," << start[2] << " of " << count[0] << ","
            << count[1] << "," << count[2];
    };
    for (std::uint64_t z : {0, 1, 2})
        box({z, 0, 0}, {1, 4, 5}); // planes orthogonal to axis 0
    for (std::uint64_t y : {0, 2, 3})
        box({0, y, 0}, {3, 1, 5}); // axis 1
    for (std::uint64_t x : {0, 3, 4})
        box({0, 0, x}, {3, 4, 1}); // axis 2
    box({1, 1, 2}, {2, 2, 3});     // an interior box
    box({0, 0, 0}, {3, 4, 5});     // all of it
    box({2, 3, 4}, {1, 1, 1});     // the last element
    EXPECT_EQ(at(33, 9), range_values(33, 9)) << "read_at after read_box";
    EXPECT_EQ(status_of(
                  [&] {
                      r->read_box({0, 0, 3}, {1, 1, 3}, sink);
                  },
                  &message),
              FB_E_TRUNCATED)
        << message;
    r->close();
}

// Opened without a shape, the file reads whole as the 60 flat values, and
// at random too; opened with another shape it is refused, naming both.
inline void expect_flat_and_other_shape(const std::string& id, const std::string& path) {
    EXPECT_EQ(read_array(id, path, FB_DTYPE_F64, total, {}, 7), [] {
        std::vector<double> v = range_values(0, total);
        const auto* p = reinterpret_cast<const unsigned char*>(v.data());
        return bytes(p, p + v.size() * 8);
    }());
    {
        auto r = plugin(id).open_read(path, FB_DTYPE_F64, total, {});
        std::vector<double> got(25);
        r->read_at(18, got.data(), 25);
        EXPECT_EQ(got, range_values(18, 25));
        r->close();
    }
    std::string message;
    EXPECT_EQ(status_of(
                  [&] {
                      plugin(id).open_read(path, FB_DTYPE_F64, total, {}, {{4, 3, 5}, false});
                  },
                  &message),
              FB_E_CORRUPT);
    EXPECT_NE(message.find("3 x 4 x 5"), std::string::npos) << message;
    EXPECT_NE(message.find("4 x 3 x 5"), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
}

// The message of check_option_set (formatbench.check-options/1), "" when
// the options pass.
inline std::string plan_refusal(const std::string& id, const option_list& options) {
    try {
        plugin(id).check_option_set(options, FB_DTYPE_F64);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace shaped_test
