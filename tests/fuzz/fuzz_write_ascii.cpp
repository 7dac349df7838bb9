// libFuzzer target: the ascii plugin's writer and reader on arbitrary data
// (writer_driver.hpp), with the lossless notations and any line layout. Text
// keeps no NaN payload: a NaN read back as any NaN is the same value.
#include "writer_driver.hpp"

#include <cmath>
#include <cstring>

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const separators[] = {" ", ",", "\t", ", "};
    static const char* const per_line[] = {"1", "2", "7", "1000"};
    // shortest is exact; scientific with 16 digits after the point (17
    // significant) is exact for f64 and f32.
    const bool scientific = c.selector & 1;
    c.options = {{"notation", scientific ? "scientific" : "shortest"},
                 {"precision", "16"},
                 {"leading_zero", (c.selector & 2) ? "false" : "true"},
                 {"separator", separators[(c.selector >> 2) & 3]},
                 {"values_per_line", per_line[(c.selector >> 4) & 3]}};
}

template <class T>
bool same_floats(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
    for (std::size_t i = 0; i + sizeof(T) <= a.size(); i += sizeof(T)) {
        T x, y;
        std::memcpy(&x, a.data() + i, sizeof x);
        std::memcpy(&y, b.data() + i, sizeof y);
        if (std::isnan(x) && std::isnan(y)) continue;
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

bool same(const fuzz::writer_case& c, const std::vector<unsigned char>& a,
          const std::vector<unsigned char>& b) {
    if (a.size() != b.size()) return false;
    if (c.dtype == FB_DTYPE_F64) return same_floats<double>(a, b);
    if (c.dtype == FB_DTYPE_F32) return same_floats<float>(a, b);
    return a == b;
}

const fuzz::writer_hooks hooks{"ascii", options, same};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}
