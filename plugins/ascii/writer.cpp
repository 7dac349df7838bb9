// The ascii writer (see writer.hpp).
//
// Data path: write() copies chunks smaller than a block into `staged_` (cheap
// next to formatting: 8 bytes per value against ~19 bytes of text) so that
// even a host writing 1000 values at a time gets both cores. A block of
// >= parallel_min values is cut in two parts: this thread formats the first,
// a helper thread first writes the previous block's text and then formats
// the second part. The text of a block is thus written while the next one is
// formatted, and this thread takes the larger part so that both finish
// together (main_share_). Fewer values are formatted here alone. The column
// within the line of the first value of each part follows from the global
// index, so values_per_line layouts continue across chunks and parts.
#include "writer.hpp"

#include "format.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>

namespace formatbench::detail {

namespace {

// Each text buffer holds this much; one write(2) per full buffer.
constexpr std::size_t text_buffer_bytes = std::size_t{4} << 20;
// Below this many values one thread formats alone: a thread start and join
// (~50 us) costs more than it saves on less.
constexpr std::size_t parallel_min = std::size_t{1} << 16;
// Values per half of a two-thread block; with shortest f64 (~19 bytes) a
// half fills most of a text buffer.
constexpr std::size_t max_half = std::size_t{1} << 17;
// Values staged before a block is formatted: one full two-thread block.
constexpr std::size_t staged_values = 2 * max_half;

} // namespace

text_writer::text_writer(const sdk::open_request& request)
    : dtype_(request.dtype), element_size_(request.element_size()),
      settings_(text_settings::from(request.options)), bound_(settings_.value_bound(request.dtype)) {
    // Allocate before creating the file, so that a failure leaves nothing
    // at the path.
    staged_ = make_aligned_buffer(staged_values * element_size_);
    text_[0] = make_aligned_buffer(text_buffer_bytes);
    main_end_ = text_[0].get();
    file_ = sdk::file::create(request.path);
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

// Formats into text_[0], writing it out whenever it is nearly full. It may
// hold text from earlier calls; that is written when full or at close.
template <class T>
void text_writer::put_sequential(const T* values, std::size_t count) {
    drain(); // text_[0] may be the first part of the waiting block
    char* limit = text_[0].get() + text_buffer_bytes;
    while (count > 0) {
        format_cursor c{main_end_, column_};
        std::size_t done = format_values(values, count, c, limit, bound_, settings_);
        main_end_ = c.out;
        column_ = c.column;
        values += done;
        count -= done;
        if (count > 0) flush_main();
    }
}

template <class T>
void text_writer::put_parallel(const T* values, std::size_t count) {
    for (auto& t : text_)
        if (!t) t = make_aligned_buffer(text_buffer_bytes);
    // Text formatted by one thread comes first.
    if (main_end_ != text_[0].get()) {
        drain();
        flush_main();
    }
    const std::uint64_t per_line = settings_.values_per_line;
    using clock = std::chrono::steady_clock;
    while (count >= parallel_min) {
        std::size_t block = std::min(count, 2 * max_half);
        // This thread's part: half, or more while the helper also writes.
        double share = pending_ ? main_share_ : 0.5;
        std::size_t first_n = std::clamp<std::size_t>(static_cast<std::size_t>(share * double(block)),
                                                      block / 2, block - block / 4);
        std::size_t second_n = block - first_n;
        char* first_text = text_[2 * pair_].get();
        char* second_text = text_[2 * pair_ + 1].get();
        const char* old_first = text_[2 * (1 - pair_)].get();
        const char* old_second = text_[2 * (1 - pair_) + 1].get();
        format_cursor first{first_text, column_};
        format_cursor second{second_text, (column_ + first_n) % per_line};
        std::size_t first_done = 0, second_done = 0;
        double first_seconds = 0, write_seconds = 0;
        std::exception_ptr write_error;
        bool had_pending = std::exchange(pending_, false);
        helper_.run_two(
            [&] {
                auto t0 = clock::now();
                first_done =
                    format_values(values, first_n, first, first_text + text_buffer_bytes, bound_, settings_);
                first_seconds = std::chrono::duration<double>(clock::now() - t0).count();
            },
            [&] {
                if (had_pending) {
                    auto t0 = clock::now();
                    try {
                        file_.write_all(old_first, pending_size_[0]);
                        file_.write_all(old_second, pending_size_[1]);
                    } catch (...) {
                        write_error = std::current_exception();
                    }
                    write_seconds = std::chrono::duration<double>(clock::now() - t0).count();
                }
                second_done = format_values(values + first_n, second_n, second,
                                            second_text + text_buffer_bytes, bound_, settings_);
            });
        if (write_error) std::rethrow_exception(write_error);
        // Balance the next block: this thread formats at `rate`; the helper
        // spends write_seconds before it starts, so give this thread
        // rate * write_seconds / 2 values more than half.
        if (had_pending && first_done > 0 && first_seconds > 0) {
            double rate = double(first_done) / first_seconds;
            main_share_ = std::clamp(0.5 + rate * write_seconds / (2.0 * double(block)), 0.5, 0.7);
        }
        if (first_done < first_n) {
            // Rare: very long values (fixed notation of 1e300) filled the
            // first buffer early. Write in order, by this thread, now.
            file_.write_all(first_text, static_cast<std::size_t>(first.out - first_text));
            column_ = first.column;
            pair_ = 0;
            main_end_ = text_[0].get();
            put_sequential(values + first_done, first_n - first_done);
            flush_main();
            file_.write_all(second_text, static_cast<std::size_t>(second.out - second_text));
        } else {
            pending_ = true;
            pending_size_[0] = static_cast<std::size_t>(first.out - first_text);
            pending_size_[1] = static_cast<std::size_t>(second.out - second_text);
            pair_ = 1 - pair_;
        }
        column_ = second.column;
        values += first_n + second_done;
        count -= first_n + second_done;
    }
    // The last block's text stays pending: the next block's helper, or
    // close, writes it.
    if (count > 0) put_sequential(values, count);
}

void text_writer::drain() {
    if (!pending_) return;
    pending_ = false;
    // The waiting block used the pair that is not current.
    int old = 1 - pair_;
    file_.write_all(text_[2 * old].get(), pending_size_[0]);
    file_.write_all(text_[2 * old + 1].get(), pending_size_[1]);
    pair_ = 0;
}

void text_writer::flush_main() {
    file_.write_all(text_[0].get(), static_cast<std::size_t>(main_end_ - text_[0].get()));
    main_end_ = text_[0].get();
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
    if (column_ != 0) {
        *main_end_++ = '\n';
        column_ = 0;
    }
    flush_main();
    file_.close();
}

} // namespace formatbench::detail
