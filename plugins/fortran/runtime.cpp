// Helpers for calls into fortran_io.f90 (see runtime.hpp).
#include "runtime.hpp"

#include <cstring>
#include <string_view>

namespace formatbench::detail {

namespace {

struct iostat_codes {
    int end = 0, eor = 0;
    iostat_codes() noexcept { fbf_iostat_codes(&end, &eor); }
};

const iostat_codes& codes() noexcept {
    static const iostat_codes c;
    return c;
}

} // namespace

int iostat_end() noexcept {
    return codes().end;
}

int iostat_eor() noexcept {
    return codes().eor;
}

std::string one_line(const runtime_message& m) {
    std::string_view text(m.text, strnlen(m.text, sizeof m.text));
    std::size_t first = text.find('\n');
    if (first == std::string_view::npos) return std::string(text);
    std::string out(text.substr(0, first));
    std::size_t caret = text.rfind('^');
    std::size_t line = text.rfind('\n', caret == std::string_view::npos ? 0 : caret);
    if (caret != std::string_view::npos && line != std::string_view::npos && line > first)
        out += " (at character " + std::to_string(caret - line) + " of the format)";
    return out;
}

} // namespace formatbench::detail
