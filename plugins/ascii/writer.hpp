// The ascii writer: formats chunks of any size into large page-aligned
// buffers and writes them with write(2). Blocks of >= parallel_min values
// are cut into pieces that both threads take in turn, while the previous
// block's text is written (see writer.cpp).
#pragma once

#include "file_io.hpp"
#include "settings.hpp"
#include "two_threads.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <array>
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

    // Pieces per block; a piece's text fits in piece_bytes.
    static constexpr std::size_t pieces_per_block = 16;
    static constexpr std::size_t piece_bytes = std::size_t{256} << 10;

private:
    // The text of one piece of a block: [begin, end) holds the first `done`
    // of its `count` values (done < count: the region was full).
    struct piece {
        char* begin = nullptr;
        char* end = nullptr;
        std::size_t count = 0;
        std::size_t done = 0;
    };
    // The text of one two-thread block, in pieces_per_block regions.
    struct block_text {
        aligned_buffer memory;
        std::array<piece, pieces_per_block> pieces;
        std::size_t used = 0; // pieces of the block
    };

    void write_any(const void* data, std::uint64_t count);
    template <class T>
    void write_typed(const T* values, std::size_t count);
    template <class T>
    void put(const T* values, std::size_t count);
    template <class T>
    void put_sequential(const T* values, std::size_t count);
    template <class T>
    void put_parallel(const T* values, std::size_t count);
    // Formats one block on both threads; a region that filled up (values
    // far longer than estimated) is completed in order by this thread.
    template <class T>
    void put_block(const T* values, std::size_t count, std::size_t per_piece);
    template <class T>
    void flush_staged();
    // Writes the pieces [from, to) of a block's text at the file offset.
    void write_pieces(const block_text& b, std::size_t from, std::size_t to);
    // Writes the previous block's text, if any is waiting.
    void drain();
    void flush_sequential();

    fb_dtype dtype_;
    text_settings settings_;
    std::size_t bound_; // bytes one value may take, with what follows it
    std::uint64_t column_ = 0;
    bool ends_file_ = true; // false for a part of a shared file before its last part
    // Bytes per value a piece is sized for: learnt from the text so far,
    // started from what the notation usually takes.
    double bytes_per_value_;

    // Small writes are copied here until a block worth two threads is in.
    aligned_buffer staged_;
    std::size_t staged_count_ = 0;
    // What one thread formats (seq_end_ is its next free byte).
    aligned_buffer seq_;
    char* seq_end_ = nullptr;
    // Two-thread blocks alternate between these; the other one's text is
    // written during the next block (or by drain()) when pending_ is set.
    block_text blocks_[2];
    int current_ = 0;
    bool pending_ = false;
    sdk::file file_;
    std::string failed_; // set by a failed write: the stream stays failed
    // Declared last: destroyed (joined) first, before the buffers it uses.
    helper_thread helper_;
};

} // namespace formatbench::detail
