// The ascii reader (see reader.hpp).
//
// Buffer: [prefix | block], the block page-aligned. The unparsed tail of a
// block (at most one partial token of <= max_token bytes and one separator)
// is moved to the end of the prefix before the next block is read behind it,
// so a token split between two reads is parsed whole and memory stays
// bounded. At end of file a ' ' is put after the data: every range handed to
// parse_values ends at a separator.
//
// Mapped mode: a regular file of map_min_bytes or more is mapped whole
// (text_mapping) and parsed in place, so no byte is copied out of the page
// cache: measured here for a 19 MB file, pread into a buffer took 3.3-4 ms
// of CPU, mapping it and touching every page 0.8-0.9 ms. Rounds take
// round_bytes at a time, cut at a separator, and the pages already parsed
// are unmapped every release_bytes, so resident memory stays bounded. The
// end separator goes into the writable byte behind the file. A file that
// another process truncates while it is mapped raises SIGBUS, as with any
// mapping (the mmap plugin says the same). The buffered path, read(2) in
// order, is used for everything else: small files, pipes, devices, and a
// file the system refuses to map.
//
// Two threads: a region of whole tokens is cut at a separator near its
// middle; this thread parses the first half straight into the output, a
// helper the second half into scratch_, copied behind once the first half's
// count is known. Line numbers come from the newlines each half counted, so
// errors and counts are exact; when the first half already satisfies the
// read, or the second half parsed more than needed, the extra work is
// dropped and that part is parsed again (in order) by one thread.
#include "reader.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include <sys/stat.h>

namespace formatbench::detail {

namespace {

constexpr std::size_t prefix_bytes = 4096; // > max_token + 1, keeps the block aligned
constexpr std::size_t block_bytes = std::size_t{4} << 20;
// Mapped mode: from this file size, this much text per round, unmapped in
// steps of this much.
constexpr std::size_t map_min_bytes = std::size_t{1} << 20;
constexpr std::size_t round_bytes = std::size_t{4} << 20;
constexpr std::size_t release_bytes = std::size_t{64} << 20;
// Two threads only for regions and reads this large: below, a thread start
// (~50 us) costs more than half the parse.
constexpr std::size_t parallel_min_bytes = std::size_t{1} << 20;
constexpr std::size_t parallel_min_values = std::size_t{1} << 16;
// Capacity of scratch_ in values. A second half of ~19-byte values holds
// ~110k; a half of shorter values stops here and the rest is parsed in the
// next round, so this bounds memory, not correctness.
constexpr std::size_t scratch_values = std::size_t{1} << 18;

static_assert(prefix_bytes > max_token + 1);

const char* dtype_text(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f64";
    case FB_DTYPE_F32: return "f32";
    case FB_DTYPE_I64: return "i64 (-9223372036854775808..9223372036854775807)";
    case FB_DTYPE_I32: return "i32 (-2147483648..2147483647)";
    case FB_DTYPE_U8: return "u8 (0..255)";
    }
    return "?";
}

} // namespace

text_reader::text_reader(const sdk::open_request& request) : path_(request.path), dtype_(request.dtype) {
    file_ = sdk::file::open_read(request.path);
    struct stat st = file_.status();
    auto size = static_cast<std::uint64_t>(st.st_size);
    if (S_ISREG(st.st_mode) && size >= map_min_bytes && size < SIZE_MAX / 2 &&
        map_.map(file_.fd(), static_cast<std::size_t>(size))) {
        data_ = map_.data();
        pos_ = data_;
        end_ = data_ + size;
        eof_ = true;
        data_[size] = ' '; // the separator after the last token
        return;
    }
    memory_ = make_aligned_buffer(prefix_bytes + block_bytes + 1);
    data_ = memory_.get() + prefix_bytes;
    pos_ = end_ = data_;
}

void text_reader::read(void* data, std::uint64_t count) {
    switch (dtype_) {
    case FB_DTYPE_F64: read_typed(static_cast<double*>(data), count); break;
    case FB_DTYPE_F32: read_typed(static_cast<float*>(data), count); break;
    case FB_DTYPE_I64: read_typed(static_cast<std::int64_t*>(data), count); break;
    case FB_DTYPE_I32: read_typed(static_cast<std::int32_t*>(data), count); break;
    case FB_DTYPE_U8: read_typed(static_cast<std::uint8_t*>(data), count); break;
    }
}

void text_reader::close() {
    map_.reset();
    file_.close();
}

const char* text_reader::safe_end() const noexcept {
    if (eof_) return end_;
    const char* p = end_;
    while (p != pos_ && !is_separator(static_cast<unsigned char>(p[-1])))
        --p;
    return p == pos_ ? pos_ : p - 1;
}

void text_reader::advance(const parse_result& r) noexcept {
    line_ += r.newlines;
    if (r.last_newline) line_offset_ = data_offset_ + (r.last_newline - data_) + 1;
    pos_ = r.stop;
}

template <class T>
void text_reader::read_typed(T* out, std::size_t count) {
    std::size_t need = count;
    while (need > 0) {
        const char* region_end = safe_end();
        if (map_.mapped() && static_cast<std::size_t>(region_end - pos_) > round_bytes)
            region_end = parse_impl::token_end(pos_ + round_bytes, region_end);
        std::size_t got;
        if (need >= parallel_min_values &&
            static_cast<std::size_t>(region_end - pos_) >= parallel_min_bytes) {
            got = parse_two_halves(region_end, out, need);
        } else {
            parse_result r = parse_values(pos_, region_end, out, need);
            advance(r);
            if (r.problem != token_problem::none) fail_token(r.stop, r.problem);
            got = r.count;
        }
        out += got;
        need -= got;
        values_done_ += got;
        if (map_.mapped()) map_.release_below(pos_, release_bytes);
        if (need == 0) break;
        if (pos_ == region_end && got == 0) {
            if (region_end != end_ && map_.mapped()) continue; // only separators in this round
            // Nothing more in this block: read on, or the file is short.
            if (eof_) {
                fail_at(end_, FB_E_TRUNCATED,
                        "the file ends after " + std::to_string(values_done_) + " values, but " +
                            std::to_string(values_done_ + need) + " were requested");
            }
            refill();
        }
    }
}

template <class T>
std::size_t text_reader::parse_two_halves(const char* region_end, T* out, std::size_t need) {
    const char* begin = pos_;
    // Near the end of a read, parse only about as much text as the values
    // still needed take, so the second half is not parsed for nothing.
    double wanted = static_cast<double>(need) * bytes_per_value_ * 0.95;
    bool last_round = wanted < static_cast<double>(region_end - begin);
    if (last_round) {
        const char* cut = parse_impl::token_end(begin + static_cast<std::size_t>(wanted), region_end);
        if (static_cast<std::size_t>(cut - begin) >= parallel_min_bytes) region_end = cut;
    }
    const char* mid = parse_impl::token_end(begin + (region_end - begin) / 2, region_end);
    if (!scratch_) scratch_ = make_aligned_buffer(scratch_values * sizeof(T));
    T* scratch = reinterpret_cast<T*>(scratch_.get());
    parse_result first, second;
    auto parse_first = [&] { first = parse_values(begin, mid, out, need); };
    auto parse_second = [&] {
        second = parse_values(mid, region_end, scratch, std::min(need, scratch_values));
    };
    helper_.run_two(parse_first, parse_second);

    advance(first);
    if (first.problem != token_problem::none) fail_token(first.stop, first.problem);
    if (first.count > 0)
        bytes_per_value_ = static_cast<double>(first.stop - begin) / static_cast<double>(first.count);
    std::size_t rest = need - first.count;
    if (rest == 0) return first.count; // the read ends in the first half
    // The first half was consumed whole: pos_ == mid.
    if (second.problem == token_problem::none && second.count <= rest) {
        std::memcpy(out + first.count, scratch, second.count * sizeof(T));
        advance(second);
        return first.count + second.count;
    }
    if (second.problem != token_problem::none && second.count < rest) {
        advance(second); // the bad token is within what was asked for
        fail_token(second.stop, second.problem);
    }
    // The second half went past the end of this read: take what is needed
    // again, in order, so that pos_ stops right after the last value.
    parse_result again = parse_values(mid, region_end, out + first.count, rest);
    advance(again);
    if (again.problem != token_problem::none) fail_token(again.stop, again.problem);
    return first.count + again.count;
}

void text_reader::refill() {
    // pos_ is at a separator (or at a partial token when the block had no
    // separator): what is left is at most one separator and one token.
    const char* token = pos_;
    while (token != end_ && is_separator(static_cast<unsigned char>(*token)))
        ++token;
    if (static_cast<std::size_t>(end_ - token) > max_token) fail_token(token, token_problem::too_long);
    std::size_t tail = static_cast<std::size_t>(end_ - pos_);
    std::int64_t offset = data_offset_ + (end_ - data_); // of the next block
    std::memmove(data_ - tail, pos_, tail);
    std::size_t got = file_.read_full(data_, block_bytes);
    data_offset_ = offset;
    pos_ = data_ - tail;
    end_ = data_ + got;
    if (got < block_bytes) {
        eof_ = true;
        data_[got] = ' '; // the separator after the last token
    }
}

void text_reader::fail_at(const char* where, fb_status status, const std::string& what) const {
    // Count lines from pos_, whose line is known, to `where`.
    std::uint64_t line = line_;
    std::int64_t line_offset = line_offset_;
    for (const char* p = pos_; p < where; ++p) {
        if (*p == '\n') {
            ++line;
            line_offset = data_offset_ + (p - data_) + 1;
        }
    }
    std::int64_t column = data_offset_ + (where - data_) - line_offset + 1;
    throw sdk::error(status, "'" + path_ + "' line " + std::to_string(line) + ", column " +
                                 std::to_string(column) + ": " + what);
}

void text_reader::fail_token(const char* where, token_problem problem) const {
    const char* bound = std::min(end_, where + max_token + 1);
    const char* te = parse_impl::token_end(where, bound);
    std::size_t len = static_cast<std::size_t>(te - where);
    std::string token(where, std::min<std::size_t>(len, 40));
    if (len > 40) token += "...";
    switch (problem) {
    case token_problem::too_long:
        fail_at(where, FB_E_CORRUPT,
                "a token longer than " + std::to_string(max_token) + " bytes ('" + token +
                    "'); not a number");
    case token_problem::out_of_range:
        fail_at(where, FB_E_CORRUPT, "'" + token + "' is out of range for " + dtype_text(dtype_));
    default: fail_at(where, FB_E_CORRUPT, "'" + token + "' is not a valid " + dtype_text(dtype_) + " value");
    }
}

} // namespace formatbench::detail
