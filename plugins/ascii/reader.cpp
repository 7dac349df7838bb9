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
// Two threads: a region of whole tokens is cut into pieces right after
// tokens (so that each piece but the first starts with no comma seen, and a
// Fortran null value ",," is never split between two pieces);
// this thread takes pieces from the front and parses them straight into the
// output, the helper takes pieces from the back into scratch_, and they meet
// wherever their speeds put them (a helper that starts late, or a vCPU that
// runs slower, shifts the meeting point instead of making this thread
// wait). The helper's values are copied behind once this thread's count is
// known. Line numbers come from the newlines each piece counted, so errors
// and counts are exact; when this thread's pieces already satisfy the read,
// or a helper piece holds more than is needed, a bad token or a repeat
// count its scratch cannot take whole, that piece is parsed again, in
// order, by this thread. A repeat count "r*c" cut short by the end of a
// read leaves its remaining copies for the next read.
#include "reader.hpp"

#include <algorithm>
#include <array>
#include <atomic>
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
// Capacity of scratch_ in values: the helper's share of a round of ~19-byte
// values is ~110k; when a share of shorter values fills it, this thread
// parses the rest, so this bounds memory, not correctness.
constexpr std::size_t scratch_values = std::size_t{1} << 18;
// A two-thread round is cut into at most max_pieces pieces of at least
// min_piece_bytes: a 4 MiB round into 32 pieces of ~0.1 ms of parsing, so a
// helper that starts late or runs slowly costs at most about one piece.
constexpr std::size_t max_pieces = 32;
constexpr std::size_t min_piece_bytes = std::size_t{64} << 10;

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
    std::uint64_t first_byte = 0;
    if (request.part) {
        // A part of a shared file written with a width: value i starts at
        // byte i x stride, its line is i / values_per_line.
        const text_settings s = text_settings::from(request.options);
        s.check_width(dtype_);
        const std::size_t stride = s.stride();
        if (stride == 0)
            throw sdk::error(FB_E_UNSUPPORTED, "ascii: '" + path_ +
                                                   "': a part of a shared file (layout: shared_file) needs "
                                                   "values of one length: set option width and a "
                                                   "one-character separator, as the file was written");
        const std::uint64_t total = request.part->total;
        if (S_ISREG(st.st_mode) && (total > UINT64_MAX / stride || size != total * stride))
            throw sdk::error(size < total * stride ? FB_E_TRUNCATED : FB_E_CORRUPT,
                             "ascii: '" + path_ + "' holds " + std::to_string(size) + " bytes; " +
                                 std::to_string(total) + " values of width " + std::to_string(s.width) +
                                 " take " + std::to_string(total * stride) +
                                 " (the count, width or separator does not match the file)");
        first_byte = request.part->offset * stride;
        const std::uint64_t line = request.part->offset / s.values_per_line;
        line_ = line + 1;
        line_offset_ = static_cast<std::int64_t>(line * s.values_per_line * stride);
    }
    if (S_ISREG(st.st_mode) && size >= map_min_bytes && size < SIZE_MAX / 2 &&
        map_.map(file_.fd(), static_cast<std::size_t>(size))) {
        data_ = map_.data();
        pos_ = data_;
        end_ = data_ + size;
        eof_ = true;
        data_[size] = ' '; // the separator after the last token
        pos_ = data_ + first_byte;
        if (size >= parallel_min_bytes) helper_.start_early();
        return;
    }
    memory_ = make_aligned_buffer(prefix_bytes + block_bytes + 1);
    data_ = memory_.get() + prefix_bytes;
    pos_ = end_ = data_;
    if (first_byte > 0) {
        file_.seek(first_byte);
        data_offset_ = static_cast<std::int64_t>(first_byte);
    }
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
    comma_ = r.comma;
    if (r.repeat_left) {
        repeat_left_ = r.repeat_left;
        repeat_bits_ = r.repeat_bits;
    }
}

template <class T>
void text_reader::read_typed(T* out, std::size_t count) {
    std::size_t need = count;
    if (repeat_left_ > 0 && need > 0) {
        // The rest of a repeat count "r*c" the last read cut short.
        T v;
        std::memcpy(&v, &repeat_bits_, sizeof v);
        const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(need, repeat_left_));
        std::fill_n(out, k, v);
        out += k;
        need -= k;
        repeat_left_ -= k;
        values_done_ += k;
    }
    while (need > 0) {
        const char* region_end = safe_end();
        if (map_.mapped() && static_cast<std::size_t>(region_end - pos_) > round_bytes)
            region_end = parse_impl::token_end(pos_ + round_bytes, region_end);
        std::size_t got;
        if (need >= parallel_min_values &&
            static_cast<std::size_t>(region_end - pos_) >= parallel_min_bytes) {
            got = parse_shared(region_end, out, need);
        } else {
            parse_result r = parse_values(pos_, region_end, out, need, comma_);
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
std::size_t text_reader::parse_shared(const char* region_end, T* out, std::size_t need) {
    const char* begin = pos_;
    // Near the end of a read, parse only about as much text as the values
    // still needed take, so the helper's pieces at the back are not parsed
    // for nothing.
    double wanted = static_cast<double>(need) * bytes_per_value_ * 0.95;
    if (wanted < static_cast<double>(region_end - begin)) {
        const char* cut = parse_impl::token_end(begin + static_cast<std::size_t>(wanted), region_end);
        if (static_cast<std::size_t>(cut - begin) >= parallel_min_bytes) region_end = cut;
    }
    // Cut right after tokens into pieces of about equal size: every piece
    // but the first starts where a token ends, with no comma seen.
    const std::size_t size = static_cast<std::size_t>(region_end - begin);
    const std::size_t step = std::max(min_piece_bytes, size / max_pieces + 1);
    std::array<const char*, max_pieces + 1> cuts;
    std::size_t pieces = 0;
    cuts[0] = begin;
    for (const char* p = begin; p != region_end;) {
        p = static_cast<std::size_t>(region_end - p) > step ? parse_impl::next_token_end(p + step, region_end)
                                                            : region_end;
        cuts[++pieces] = p;
    }
    const bool comma_at_begin = comma_;
    if (!scratch_) scratch_ = make_aligned_buffer(scratch_values * sizeof(T));
    T* scratch = reinterpret_cast<T*>(scratch_.get());

    // Claims: this thread takes pieces from the front, the helper from the
    // back, one at a time, until they meet. Packed as front | back << 32 so
    // that one compare-exchange decides each claim.
    std::atomic<std::uint64_t> claims{static_cast<std::uint64_t>(pieces) << 32};
    auto claim = [&claims](bool front) noexcept -> std::size_t {
        std::uint64_t v = claims.load(std::memory_order_relaxed);
        for (;;) {
            std::uint64_t f = v & 0xffffffffu, b = v >> 32;
            if (f >= b) return SIZE_MAX;
            std::uint64_t next = front ? v + 1 : v - (std::uint64_t{1} << 32);
            if (claims.compare_exchange_weak(v, next, std::memory_order_relaxed))
                return static_cast<std::size_t>(front ? f : b - 1);
        }
    };
    auto stop_claims = [&claims]() noexcept {
        std::uint64_t v = claims.load(std::memory_order_relaxed);
        while (!claims.compare_exchange_weak(v, (v >> 32) * 0x100000001u, std::memory_order_relaxed)) {
        }
    };

    // This thread parses its pieces in order straight into `out`, and
    // stops at the first bad token or when the read is satisfied.
    std::size_t got = 0;
    std::size_t front_end = 0; // pieces [0, front_end) are this thread's
    token_problem problem = token_problem::none;
    const char* problem_at = nullptr;
    auto parse_front = [&]() noexcept {
        for (std::size_t k; (k = claim(true)) != SIZE_MAX;) {
            parse_result r = parse_values(cuts[k], cuts[k + 1], out + got, need - got, comma_);
            advance(r);
            got += r.count;
            front_end = k + 1;
            if (r.problem != token_problem::none || got == need) {
                problem = r.problem;
                problem_at = r.stop;
                stop_claims();
                return;
            }
        }
    };
    // The helper parses pieces from the back into scratch, one after the
    // other in the order it took them; a piece it could not finish (scratch
    // full, a bad token) is parsed again by this thread.
    struct back_piece {
        parse_result r;
        std::size_t offset = 0;
        bool whole = false;
    };
    std::array<back_piece, max_pieces> back{};
    auto parse_back = [&]() noexcept {
        std::size_t used = 0;
        for (std::size_t k; used < scratch_values && (k = claim(false)) != SIZE_MAX;) {
            back_piece& b = back[k];
            b.offset = used;
            b.r = parse_values(cuts[k], cuts[k + 1], scratch + used, scratch_values - used,
                               k == 0 && comma_at_begin);
            b.whole = b.r.problem == token_problem::none && b.r.stop == cuts[k + 1] && b.r.repeat_left == 0;
            used += b.r.count;
            if (!b.whole) return;
        }
    };
    helper_.run_two(parse_front, parse_back);

    if (problem != token_problem::none) fail_token(problem_at, problem);
    if (got > 0) bytes_per_value_ = static_cast<double>(pos_ - begin) / static_cast<double>(got);
    // Then the helper's pieces, in file order: copied when taken whole and
    // all needed, parsed here otherwise (so pos_ stops right after the last
    // value asked for, and a bad token is reported where it is).
    for (std::size_t k = front_end; k < pieces && got < need; ++k) {
        const back_piece& b = back[k];
        if (b.whole && b.r.count <= need - got) {
            std::memcpy(out + got, scratch + b.offset, b.r.count * sizeof(T));
            advance(b.r);
            got += b.r.count;
            continue;
        }
        parse_result r = parse_values(pos_, cuts[k + 1], out + got, need - got, comma_);
        advance(r);
        if (r.problem != token_problem::none) fail_token(r.stop, r.problem);
        got += r.count;
    }
    return got;
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
    case token_problem::null_value:
        fail_at(where, FB_E_CORRUPT,
                (len == 0 ? std::string("a second comma with no value before it (or a comma before the first "
                                        "value)")
                          : "'" + token + "', a repeat count without a value,") +
                    " is a null value of Fortran's list-directed input, which leaves the variable as it was: "
                    "the file gives no value here, so it is refused");
    case token_problem::slash:
        fail_at(
            where, FB_E_CORRUPT,
            "'" + token +
                "': a slash ends Fortran's list-directed input before the values asked for (the rest keep "
                "their old values), so it is refused");
    default: fail_at(where, FB_E_CORRUPT, "'" + token + "' is not a valid " + dtype_text(dtype_) + " value");
    }
}

} // namespace formatbench::detail
