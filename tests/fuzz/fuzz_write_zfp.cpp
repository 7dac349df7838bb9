// libFuzzer target: the zfp plugin's writer and reader on arbitrary data
// (writer_driver.hpp) in each mode: reversible must read back bit-exact,
// accuracy within its tolerance; rate and precision bound no error. zfp's
// lossy modes are for finite values, so for them this target first turns
// every infinity and NaN of the input into 0 (reversible gets the input as
// it is).
#include "writer_driver.hpp"

#include <cmath>
#include <cstring>
#include <vector>

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

const char* const tolerances[] = {"1", "0.001", "1e-9", "1e-300"};

// Selector bits 0-1: the mode; bits 2-3: its parameter.
unsigned mode_of(std::uint8_t selector) {
    return selector & 3;
}

void options(fuzz::writer_case& c) {
    static const char* const rates[] = {"1", "8", "16", "32"};
    static const char* const precisions[] = {"1", "8", "16", "32"};
    const unsigned k = (c.selector >> 2) & 3;
    switch (mode_of(c.selector)) {
    case 0: c.options = {}; break;
    case 1: c.options = {{"mode", "rate"}, {"rate", rates[k]}}; break;
    case 2: c.options = {{"mode", "precision"}, {"precision", precisions[k]}}; break;
    default:
        // accuracy is refused for integers: those get reversible.
        if (c.dtype == FB_DTYPE_F64 || c.dtype == FB_DTYPE_F32)
            c.options = {{"mode", "accuracy"}, {"accuracy", tolerances[k]}};
        else
            c.options = {};
    }
}

template <class T>
bool within(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b, double tol) {
    for (std::size_t i = 0; i + sizeof(T) <= a.size(); i += sizeof(T)) {
        T x, y;
        std::memcpy(&x, a.data() + i, sizeof x);
        std::memcpy(&y, b.data() + i, sizeof y);
        if (!(std::abs(double(x) - double(y)) <= tol)) return false;
    }
    return true;
}

bool same(const fuzz::writer_case& c, const std::vector<unsigned char>& written,
          const std::vector<unsigned char>& read) {
    if (c.options.empty()) return written == read;
    if (c.options[0].second != "accuracy") return read.size() == written.size();
    const double tol = std::stod(c.options[1].second);
    return c.dtype == FB_DTYPE_F64 ? within<double>(written, read, tol) : within<float>(written, read, tol);
}

const fuzz::writer_hooks hooks{"zfp", options, same};

template <class T>
void make_finite(std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i + sizeof(T) <= n; i += sizeof(T)) {
        T x;
        std::memcpy(&x, p + i, sizeof x);
        if (!std::isfinite(x)) {
            x = 0;
            std::memcpy(p + i, &x, sizeof x);
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> input(data, data + size);
    if (size > 3 && mode_of(input[1]) != 0) {
        const unsigned dtype = input[0] % 5; // writer_driver's order: f64, f32, i64, i32, u8
        if (dtype == 0) make_finite<double>(input.data() + 3, size - 3);
        if (dtype == 1) make_finite<float>(input.data() + 3, size - 3);
    }
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), input.data(), input.size());
}
