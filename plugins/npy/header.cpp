// The .npy header: writing numpy's exact bytes, and a strict, bounded parser
// of the header's dict literal (see header.hpp).
#include "header.hpp"

#include <bit>
#include <cstring>

namespace formatbench::npy {
namespace {

// numpy's type code of a dtype: kind letter and item size.
const char* type_code(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f8";
    case FB_DTYPE_F32: return "f4";
    case FB_DTYPE_I64: return "i8";
    case FB_DTYPE_I32: return "i4";
    case FB_DTYPE_U8: return "u1";
    }
    return "??";
}

// numpy's NPY_MAXDIMS (numpy 1.x).
constexpr std::size_t max_dims = 32;

// header + spaces + '\n' for a text of n bytes after a prefix of prefix
// bytes: numpy's _wrap_header pads to the next multiple of 64 and adds a
// whole 64 when the text would end exactly on one.
std::size_t padded_length(std::size_t prefix, std::size_t n) {
    std::size_t with_newline = n + 1;
    std::size_t pad = data_alignment - (prefix + with_newline) % data_alignment;
    return with_newline + pad;
}

std::string dict_text(std::string_view descr, const std::vector<std::uint64_t>& shape) {
    std::string dict = "{'descr': '";
    dict += descr;
    dict += "', 'fortran_order': False, 'shape': ";
    dict += shape_text(shape);
    dict += ", }";
    // numpy >= 1.23 leaves room for the growing (first, in C order) axis to
    // reach 21 digits; none for a 0-d array.
    if (!shape.empty()) {
        const std::size_t digits = std::to_string(shape[0]).size();
        if (digits < growth_digits) dict.append(growth_digits - digits, ' ');
    }
    return dict;
}

// A recursive-descent parser over the header text; never reads past its end.
class parser {
public:
    explicit parser(std::string_view text) : t_(text) {}

    header_fields parse() {
        header_fields h;
        bool seen[3] = {false, false, false};
        const char* names[3] = {"descr", "fortran_order", "shape"};
        expect('{', "the header does not start with a dict ('{')");
        for (;;) {
            space();
            if (take('}')) break;
            std::string key = string_literal("a dict key");
            space();
            expect(':', "expected ':' after the key '" + key + "'");
            space();
            int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
            if (k < 0) fail("unexpected key '" + key + "' (a header has descr, fortran_order and shape)");
            if (seen[k]) fail("the key '" + key + "' appears twice");
            seen[k] = true;
            if (k == 0)
                h.descr = descr_value();
            else if (k == 1)
                h.fortran_order = boolean();
            else
                h.shape = tuple();
            space();
            if (take(',')) continue;
            if (take('}')) break;
            fail("expected ',' or '}' after the value of '" + key + "'");
        }
        space();
        if (i_ != t_.size()) fail("text after the dict's closing '}'");
        for (int k = 0; k < 3; ++k)
            if (!seen[k]) fail(std::string("the key '") + names[k] + "' is missing");
        return h;
    }

private:
    [[noreturn]] void fail(const std::string& what, fb_status status = FB_E_CORRUPT) const {
        throw bad_header(what + " (at byte " + std::to_string(i_) + " of the header)", status);
    }
    char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
    bool take(char c) {
        if (peek() != c || i_ >= t_.size()) return false;
        ++i_;
        return true;
    }
    void expect(char c, const std::string& what) {
        if (!take(c)) fail(what);
    }
    // Python's whitespace between tokens inside brackets.
    void space() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
            ++i_;
    }
    static bool identifier_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    // A plain quoted string of printable ASCII: no escapes, no prefixes,
    // which numpy never writes for these keys and simple dtypes.
    std::string string_literal(const char* what) {
        char q = peek();
        if (q != '\'' && q != '"') fail(std::string("expected ") + what + " as a quoted string");
        std::size_t start = ++i_;
        while (i_ < t_.size() && t_[i_] != q) {
            unsigned char c = static_cast<unsigned char>(t_[i_]);
            if (c == '\\') fail("a backslash escape in a string");
            if (c < 0x20 || c > 0x7e) fail("a control or non-ASCII byte in a string");
            ++i_;
        }
        if (i_ >= t_.size()) fail("an unterminated string");
        std::string s(t_.substr(start, i_ - start));
        ++i_;
        return s;
    }

    std::string descr_value() {
        if (peek() == '[')
            fail("descr is a list: a structured dtype, which this plugin does not read", FB_E_UNSUPPORTED);
        return string_literal("descr");
    }

    bool boolean() {
        bool value;
        if (t_.substr(i_, 4) == "True") {
            i_ += 4;
            value = true;
        } else if (t_.substr(i_, 5) == "False") {
            i_ += 5;
            value = false;
        } else {
            fail("fortran_order is neither True nor False");
        }
        if (identifier_char(peek())) fail("fortran_order is neither True nor False");
        return value;
    }

    std::uint64_t integer() {
        if (peek() < '0' || peek() > '9') fail("the shape holds something other than a non-negative integer");
        if (peek() == '0' && i_ + 1 < t_.size() && t_[i_ + 1] >= '0' && t_[i_ + 1] <= '9')
            fail("an integer with a leading zero in the shape");
        std::uint64_t v = 0;
        while (peek() >= '0' && peek() <= '9') {
            auto digit = static_cast<unsigned>(peek() - '0');
            if (v > (UINT64_MAX - digit) / 10) fail("a shape value overflows 64 bits");
            v = v * 10 + digit;
            ++i_;
        }
        // Python 2's long literals, found in old files (numpy's reader drops the L too).
        if (peek() == 'L' || peek() == 'l') ++i_;
        if (identifier_char(peek())) fail("the shape holds something other than a non-negative integer");
        return v;
    }

    // "()", "(n,)", "(n, m)", "(n, m,)": Python's tuple displays; "(n)" is a
    // parenthesised integer, not a tuple.
    std::vector<std::uint64_t> tuple() {
        std::vector<std::uint64_t> out;
        expect('(', "the shape is not a tuple");
        space();
        if (take(')')) return out;
        for (;;) {
            out.push_back(integer());
            if (out.size() > max_dims) fail("the shape has more than 32 dimensions");
            space();
            bool comma = take(',');
            space();
            if (take(')')) {
                if (out.size() == 1 && !comma)
                    fail("the shape '(n)' is not a tuple (a tuple of one is '(n,)')");
                return out;
            }
            if (!comma) fail("expected ',' or ')' in the shape");
        }
    }

    std::string_view t_;
    std::size_t i_ = 0;
};

} // namespace

bad_header::bad_header(const std::string& what, fb_status status)
    : std::runtime_error(what), status_(status) {}

std::string descr_of(fb_dtype d, bool big_endian) {
    std::string code = type_code(d);
    if (fb_dtype_size(d) == 1) return "|" + code;
    return (big_endian ? ">" : "<") + code;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

std::string make_header(int major, std::string_view descr, std::uint64_t count) {
    return make_header(major, descr, std::vector<std::uint64_t>{count});
}

std::string make_header(int major, std::string_view descr, const std::vector<std::uint64_t>& shape) {
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    const std::size_t prefix = magic_size + 2 + length_bytes;
    std::string dict = dict_text(descr, shape);
    const std::size_t length = padded_length(prefix, dict.size());
    std::string out(magic, magic_size);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < length_bytes; ++i)
        out += static_cast<char>((length >> (8 * i)) & 0xff);
    out += dict;
    out.append(length - dict.size() - 1, ' ');
    out += '\n';
    return out;
}

int auto_version(std::string_view descr, const std::vector<std::uint64_t>& shape) {
    return padded_length(magic_size + 4, dict_text(descr, shape).size()) <= 0xffff ? 1 : 2;
}

preamble parse_preamble(const unsigned char* bytes, std::size_t n) {
    if (n == 0) throw bad_header("the file is empty", FB_E_TRUNCATED);
    if (std::memcmp(bytes, magic, n < magic_size ? n : magic_size) != 0)
        throw bad_header("no .npy magic (a .npy file starts with \\x93NUMPY)");
    if (n < magic_size + 2) throw bad_header("the file ends inside the magic and version", FB_E_TRUNCATED);
    preamble p;
    p.major = bytes[6];
    if (p.major < 1 || p.major > 3 || bytes[7] != 0)
        throw bad_header("format version " + std::to_string(bytes[6]) + "." + std::to_string(bytes[7]) +
                             " (this plugin reads 1.0, 2.0 and 3.0)",
                         FB_E_UNSUPPORTED);
    p.size = p.major == 1 ? 10 : 12;
    if (n < p.size) throw bad_header("the file ends inside the header length", FB_E_TRUNCATED);
    p.header_length = 0;
    for (std::size_t i = p.size; i-- > magic_size + 2;)
        p.header_length = p.header_length << 8 | bytes[i];
    if (p.header_length > max_header_size)
        throw bad_header("header length " + std::to_string(p.header_length) +
                         " is over the 1 MiB this reader allows");
    return p;
}

header_fields parse_header(std::string_view text) {
    // The format terminates the header with '\n' (every numpy since 1.0
    // writes it): a damaged length that ends the header elsewhere is caught
    // here instead of shifting the data.
    if (text.empty() || text.back() != '\n')
        throw bad_header("the header does not end with '\\n' (its length field may be damaged)");
    return parser(text.substr(0, text.size() - 1)).parse();
}

bool descr_matches(std::string_view descr, fb_dtype d, bool& big_endian) {
    std::string_view code = descr;
    char order = '=';
    if (!descr.empty() && (descr[0] == '<' || descr[0] == '>' || descr[0] == '=' || descr[0] == '|')) {
        order = descr[0];
        code.remove_prefix(1);
    }
    if (code != type_code(d)) return false;
    big_endian = order == '>' ? true : order == '<' ? false : std::endian::native == std::endian::big;
    return true;
}

std::uint64_t element_count(const std::vector<std::uint64_t>& shape) {
    // A zero-length axis makes the product zero, whatever the other axes.
    for (std::uint64_t s : shape)
        if (s == 0) return 0;
    std::uint64_t n = 1;
    for (std::uint64_t s : shape) {
        if (n > UINT64_MAX / s) throw bad_header("the shape's element count overflows 64 bits");
        n *= s;
    }
    return n;
}

} // namespace formatbench::npy
