// Typed settings of the fortran plugin and its losslessness rules (see
// settings.hpp).
#include "settings.hpp"

#include "fortran_io.h"

#include <cctype>
#include <charconv>

namespace formatbench::detail {

namespace {

std::string trimmed(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    std::size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

// Reads an unsigned decimal number at p; false if there is none.
bool number(std::string_view& p, std::uint64_t& out) {
    auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), out);
    if (ec != std::errc() || end == p.data()) return false;
    p.remove_prefix(static_cast<std::size_t>(end - p.data()));
    return true;
}

bool take(std::string_view& p, std::string_view what) {
    if (p.substr(0, what.size()) != what) return false;
    p.remove_prefix(what.size());
    return true;
}

} // namespace

fortran_settings fortran_settings::from(const sdk::options& options) {
    fortran_settings s;
    s.formatted = options.get_string("form") == "formatted";
    s.stream = options.get_string("access") == "stream";
    s.format = trimmed(options.get_string("format"));
    s.read_format = trimmed(options.get_string("read_format"));
    s.per_statement = static_cast<std::uint64_t>(options.get_int("values_per_statement"));
    if (s.formatted && s.format.empty())
        throw sdk::error(FB_E_INVALID_OPTION,
                         "fortran: option 'format' is empty; give a format in parentheses "
                         "such as (es24.16e3), or * for list-directed");
    if (s.formatted && s.read_format.empty())
        throw sdk::error(FB_E_INVALID_OPTION,
                         "fortran: option 'read_format' is empty; give * for list-directed, "
                         "or a format in parentheses such as (es24.16e3)");
    return s;
}

int fortran_settings::write_mode() const noexcept {
    if (!formatted) return FBF_MODE_UNFORMATTED;
    return format == "*" ? FBF_MODE_LIST_DIRECTED : FBF_MODE_EXPLICIT;
}

int fortran_settings::read_mode() const noexcept {
    if (!formatted) return FBF_MODE_UNFORMATTED;
    return read_format == "*" ? FBF_MODE_LIST_DIRECTED : FBF_MODE_EXPLICIT;
}

bool lossless_format(std::string_view format, bool list_directed_read) {
    std::string f;
    for (char c : format)
        if (c != ' ' && c != '\t') f += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (f == "*") return true;
    if (f.size() < 3 || f.front() != '(' || f.back() != ')') return false;
    std::string_view p(f);
    p = p.substr(1, p.size() - 2);
    std::uint64_t repeat = 1;
    if (!p.empty() && std::isdigit(static_cast<unsigned char>(p.front())) &&
        (!number(p, repeat) || repeat == 0))
        return false;
    // Several values in one record: a list-directed read needs a blank
    // between them, which G0 and I0 never write and the others only when
    // the field is wider than the widest value.
    const std::uint64_t gap = repeat > 1 && list_directed_read ? 1 : 0;
    if (p == "g0" || p == "i0") return repeat == 1;
    std::uint64_t w = 0, d = 0, e = 0;
    if (take(p, "i")) return number(p, w) && p.empty() && w >= 20 + gap; // "-9223372036854775808"
    // Significant digits a descriptor writes: ES d+1, E/D/G d; 17 read any
    // binary64 back (and any binary32, which needs 9).
    std::uint64_t extra_digit = 0;
    bool exponent_width_allowed = true;
    if (take(p, "es")) {
        extra_digit = 1;
    } else if (take(p, "d")) {
        exponent_width_allowed = false;
    } else if (!take(p, "e") && !take(p, "g")) {
        return false;
    }
    if (!number(p, w) || !take(p, ".") || !number(p, d)) return false;
    // The exponent: without Ee up to three digits, written "E+dd" or "+ddd"
    // (4 characters); with Ee it needs e >= 3 for binary64's -324..308.
    std::uint64_t exponent = 4;
    if (!p.empty()) {
        if (!exponent_width_allowed || !take(p, "e") || !number(p, e) || !p.empty() || e < 3) return false;
        exponent = e + 2;
    }
    if (d + extra_digit < 17) return false;
    // Sign, a digit or "0", the point, d digits, the exponent; fewer and the
    // runtime writes asterisks.
    return w >= 3 + d + exponent + gap;
}

bool is_lossless(const sdk::options& options) {
    if (options.get_string("form") != "formatted") return true;
    std::string write = trimmed(options.get_string("format"));
    std::string read = trimmed(options.get_string("read_format"));
    if (read == "*") return lossless_format(write, true);
    return read == write && lossless_format(write, false);
}

} // namespace formatbench::detail
