// The ascii writer: formats chunks of any size into large page-aligned
// buffers and writes them with write(2); blocks of >= parallel_min values are
// formatted in two parts on two threads, while the helper thread also writes
// the previous block's text.
#pragma once

#include "file_io.hpp"
#include "settings.hpp"
#include "two_threads.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace formatbench::detail {

class text_writer {
public:
    explicit text_writer(const sdk::open_request& request);
    void write(const void* data, std::uint64_t count);
    // Formats what is staged, ends an unfinished line with '\n', writes and
    // closes; a write error (e.g. ENOSPC) surfaces here at the latest.
    void close();

private:
    void write_any(const void* data, std::uint64_t count);
    template <class T>
    void write_typed(const T* values, std::size_t count);
    template <class T>
    void put(const T* values, std::size_t count);
    template <class T>
    void put_sequential(const T* values, std::size_t count);
    template <class T>
    void put_parallel(const T* values, std::size_t count);
    template <class T>
    void flush_staged();
    // Writes the previous two-thread block's text, if any is waiting.
    void drain();
    void flush_main();

    fb_dtype dtype_;
    std::size_t element_size_;
    text_settings settings_;
    std::size_t bound_; // bytes one value may take, with what follows it
    std::uint64_t column_ = 0;

    // Small writes are copied here until a block worth two threads is in.
    aligned_buffer staged_;
    std::size_t staged_count_ = 0;
    // text_[0] takes what one thread formats (main_end_ is its next free
    // byte). Two-thread blocks alternate between two pairs of buffers:
    // (text_[0], text_[1]) and (text_[2], text_[3]), first part then second.
    aligned_buffer text_[4];
    char* main_end_ = nullptr;
    int pair_ = 0;
    // The previous block's text, written by the helper during the next block
    // (or by drain()); lengths of its two parts.
    bool pending_ = false;
    std::size_t pending_size_[2] = {0, 0};
    // Share of a block this thread formats while the helper writes; learnt
    // from the measured format rate and write time (see writer.cpp).
    double main_share_ = 0.5;
    sdk::file file_;
    std::string failed_; // set by a failed write: the stream stays failed
    // Declared last: destroyed (joined) first, before the buffers it uses.
    helper_thread helper_;
};

} // namespace formatbench::detail
