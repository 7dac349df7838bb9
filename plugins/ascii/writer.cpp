// The ascii writer (see writer.hpp).
//
// Data path: write() copies chunks smaller than a block into `staged_` (cheap
// next to formatting: 8 bytes per value against ~19 bytes of text) so that
// even a host writing 1000 values at a time gets both cores. Fewer than
// parallel_min values are formatted by this thread alone into seq_.
//
// Two threads: a block is cut into up to pieces_per_block pieces of equal
// value counts, each formatted into its own region of piece_bytes. Both
// threads take the next piece from a shared counter until none is left, so
// the work splits itself by speed: measured here, one of the two vCPUs was
// at times 50% slower than the other for seconds, and a block cut in two
// fixed halves waited for the slow one. The helper first writes the
// previous block's text (write(2) per piece, in order) and then takes
// pieces too: writing overlaps formatting, and a write that stalls in the
// file system (5 ms seen on ext4) leaves the other thread formatting.
//
// A piece's value count comes from the bytes per value seen so far, with a
// margin; a region that fills up anyway (values suddenly much longer) keeps
// what fit, and this thread formats the rest and writes the block in order
// before going on. The column of each piece's first value follows from its
// global index, so values_per_line layouts continue across pieces, blocks
// and chunks.
#include "writer.hpp"

#include "format.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>

namespace formatbench::detail {

namespace {

// One thread's text buffer; one write(2) per full buffer.
constexpr std::size_t sequential_bytes = std::size_t{4} << 20;
// Below this many values one thread formats alone: waking the helper and
// waiting for it (~50 us on this VM) costs more than it saves on less.
constexpr std::size_t parallel_min = std::size_t{1} << 16;
// Values staged before a block is formatted.
constexpr std::size_t staged_values = std::size_t{1} << 18;
// Piece sizes: at least this many values (fewer makes the shared counter
// and the write calls show), margin over the bytes per value seen.
constexpr std::size_t min_piece_values = 256;
constexpr double piece_margin = 1.25;

// Bytes per value to size the first block's pieces for. Integers and
// shortest floats have a small exact bound; for the other notations the
// bound covers 1e308 in fixed notation (330 bytes), so start from numbers
// below 10^6 and let the first block correct it.
double initial_bytes_per_value(const text_settings& s, fb_dtype dtype, std::size_t bound) {
    bool real = dtype == FB_DTYPE_F64 || dtype == FB_DTYPE_F32;
    if (!real || s.note == notation::shortest) return static_cast<double>(bound);
    return std::min(static_cast<double>(bound), static_cast<double>(s.precision) + 16.0);
}

} // namespace

text_writer::text_writer(const sdk::open_request& request)
    : dtype_(request.dtype), settings_(text_settings::from(request.options)),
      bound_(settings_.value_bound(request.dtype)),
      bytes_per_value_(initial_bytes_per_value(settings_, request.dtype, bound_)) {
    // Allocate before creating the file, so that a failure leaves nothing
    // at the path.
    settings_.check_width(dtype_);
    std::uint64_t first_byte = 0;
    if (request.part) {
        // A part of a shared file: every value takes the same bytes, so the
        // part's text starts at a known offset. Values are preceded by their
        // separator, so a part that starts within a line writes the
        // separator before its first value, and only the part that ends the
        // file ends an unfinished last line.
        const std::size_t stride = settings_.stride();
        if (stride == 0)
            throw sdk::error(
                FB_E_UNSUPPORTED,
                "ascii: '" + request.path +
                    "': a part of a shared file (layout: shared_file) needs values of one length: "
                    "set option width (at least " +
                    std::to_string(settings_.max_text(dtype_)) + " here) and a one-character separator");
        column_ = request.part->offset % settings_.values_per_line;
        first_byte = request.part->offset * stride - (column_ != 0 ? 1 : 0);
        ends_file_ = request.part->offset + request.count == request.part->total;
    }
    staged_ = make_aligned_buffer(staged_values * request.element_size());
    seq_ = make_aligned_buffer(sequential_bytes);
    seq_end_ = seq_.get();
    if (request.part) {
        file_ = sdk::file::open_shared(request.path);
        file_.seek(first_byte);
    } else {
        file_ = sdk::file::create(request.path);
    }
    if (request.count != FB_COUNT_UNKNOWN && request.count >= parallel_min) helper_.start_early();
}

void text_writer::write(const void* data, std::uint64_t count) {
    if (!failed_.empty()) throw sdk::error(FB_E_IO, failed_);
    try {
        write_any(data, count);
    } catch (const sdk::error& e) {
        // The file now misses text: every later call fails too.
        failed_ = std::string("an earlier write failed, the file is incomplete: ") + e.what();
        throw;
    }
}

void text_writer::write_any(const void* data, std::uint64_t count) {
    switch (dtype_) {
    case FB_DTYPE_F64: write_typed(static_cast<const double*>(data), count); break;
    case FB_DTYPE_F32: write_typed(static_cast<const float*>(data), count); break;
    case FB_DTYPE_I64: write_typed(static_cast<const std::int64_t*>(data), count); break;
    case FB_DTYPE_I32: write_typed(static_cast<const std::int32_t*>(data), count); break;
    case FB_DTYPE_U8: write_typed(static_cast<const std::uint8_t*>(data), count); break;
    }
}

template <class T>
void text_writer::write_typed(const T* values, std::size_t count) {
    T* staged = reinterpret_cast<T*>(staged_.get());
    while (count > 0) {
        // A large chunk goes straight to formatting, without a copy.
        if (staged_count_ == 0 && count >= staged_values) {
            put(values, count);
            return;
        }
        std::size_t take = std::min(count, staged_values - staged_count_);
        std::memcpy(staged + staged_count_, values, take * sizeof(T));
        staged_count_ += take;
        values += take;
        count -= take;
        if (staged_count_ == staged_values) flush_staged<T>();
    }
}

template <class T>
void text_writer::flush_staged() {
    std::size_t n = std::exchange(staged_count_, 0);
    put(reinterpret_cast<const T*>(staged_.get()), n);
}

template <class T>
void text_writer::put(const T* values, std::size_t count) {
    if (count >= parallel_min)
        put_parallel(values, count);
    else
        put_sequential(values, count);
}

// Formats into seq_, writing it out whenever it is nearly full. It may hold
// text from earlier calls; that is written when full or at close.
template <class T>
void text_writer::put_sequential(const T* values, std::size_t count) {
    drain(); // a waiting block's text comes first
    char* limit = seq_.get() + sequential_bytes;
    while (count > 0) {
        format_cursor c{seq_end_, column_};
        std::size_t done = format_values(values, count, c, limit, bound_, settings_);
        seq_end_ = c.out;
        column_ = c.column;
        values += done;
        count -= done;
        if (count > 0) flush_sequential();
    }
}

template <class T>
void text_writer::put_parallel(const T* values, std::size_t count) {
    // Text formatted by one thread comes first.
    if (seq_end_ != seq_.get()) {
        drain();
        flush_sequential();
    }
    while (count > 0) {
        auto fit = static_cast<std::size_t>(static_cast<double>(piece_bytes) / bytes_per_value_);
        std::size_t per_piece = std::max(fit, min_piece_values);
        std::size_t block = std::min(count, per_piece * pieces_per_block);
        put_block(values, block, per_piece);
        values += block;
        count -= block;
    }
    // The last block's text stays pending: the next block's helper, or
    // drain(), writes it.
}

template <class T>
void text_writer::put_block(const T* values, std::size_t count, std::size_t per_piece) {
    block_text& b = blocks_[current_];
    const block_text& previous = blocks_[1 - current_];
    if (!b.memory) b.memory = make_aligned_buffer(pieces_per_block * piece_bytes);
    b.used = (count + per_piece - 1) / per_piece;
    for (std::size_t k = 0; k < b.used; ++k) {
        char* region = b.memory.get() + k * piece_bytes;
        b.pieces[k] = piece{region, region, std::min(per_piece, count - k * per_piece), 0};
    }
    const std::uint64_t per_line = settings_.values_per_line;
    const std::uint64_t start_column = column_;
    std::atomic<std::size_t> next{0};
    auto format_pieces = [&]() noexcept {
        for (std::size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < b.used;) {
            piece& p = b.pieces[k];
            format_cursor c{p.begin, (start_column + k * per_piece) % per_line};
            p.done =
                format_values(values + k * per_piece, p.count, c, p.begin + piece_bytes, bound_, settings_);
            p.end = c.out;
        }
    };
    bool had_pending = std::exchange(pending_, false);
    std::exception_ptr write_error;
    helper_.run_two(format_pieces, [&]() noexcept {
        if (had_pending) {
            try {
                write_pieces(previous, 0, previous.used);
            } catch (...) {
                write_error = std::current_exception();
            }
        }
        format_pieces();
    });
    if (write_error) std::rethrow_exception(write_error);

    // Size the next block's pieces from this one's text.
    double seen = 0;
    bool full = false;
    for (std::size_t k = 0; k < b.used; ++k) {
        const piece& p = b.pieces[k];
        if (p.done > 0)
            seen = std::max(seen, static_cast<double>(p.end - p.begin) / static_cast<double>(p.done));
        full = full || p.done < p.count;
    }
    if (seen > 0) bytes_per_value_ = std::min(seen * piece_margin + 1.0, static_cast<double>(bound_));
    column_ = (start_column + count) % per_line;
    if (!full) {
        pending_ = true;
        current_ = 1 - current_;
        return;
    }
    // Rare: a region filled up. Write the block in order now, formatting
    // what did not fit as it comes.
    for (std::size_t k = 0; k < b.used; ++k) {
        const piece& p = b.pieces[k];
        write_pieces(b, k, k + 1);
        if (p.done < p.count) {
            column_ = (start_column + k * per_piece + p.done) % per_line;
            put_sequential(values + k * per_piece + p.done, p.count - p.done);
            flush_sequential();
        }
    }
    column_ = (start_column + count) % per_line;
}

void text_writer::write_pieces(const block_text& b, std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k)
        file_.write_all(b.pieces[k].begin, static_cast<std::size_t>(b.pieces[k].end - b.pieces[k].begin));
}

void text_writer::drain() {
    if (!std::exchange(pending_, false)) return;
    const block_text& previous = blocks_[1 - current_];
    write_pieces(previous, 0, previous.used);
}

void text_writer::flush_sequential() {
    file_.write_all(seq_.get(), static_cast<std::size_t>(seq_end_ - seq_.get()));
    seq_end_ = seq_.get();
}

void text_writer::close() {
    if (!failed_.empty()) throw sdk::error(FB_E_IO, failed_);
    switch (dtype_) {
    case FB_DTYPE_F64: flush_staged<double>(); break;
    case FB_DTYPE_F32: flush_staged<float>(); break;
    case FB_DTYPE_I64: flush_staged<std::int64_t>(); break;
    case FB_DTYPE_I32: flush_staged<std::int32_t>(); break;
    case FB_DTYPE_U8: flush_staged<std::uint8_t>(); break;
    }
    drain();
    // put_sequential left room for at least one value's bound, so one more
    // byte always fits.
    if (column_ != 0 && ends_file_) {
        *seq_end_++ = '\n';
        column_ = 0;
    }
    flush_sequential();
    file_.close();
}

} // namespace formatbench::detail
