// Parallel deflate, the pigz technique: the uncompressed stream is cut into
// blocks of block_size bytes; each block is compressed on a worker thread as
// raw deflate (no header) and ended with Z_SYNC_FLUSH, which closes the
// deflate block and pads to a byte boundary, so the outputs can simply be
// concatenated. The last block ends with Z_FINISH (the final-block bit). Each
// block is primed with the last 32 KiB of the block before it as a preset
// dictionary, so matches across block boundaries are not lost (pigz does the
// same); the decoder needs nothing special since the dictionary is simply
// the preceding data of the one stream. Each worker also computes its
// block's adler32/crc32; running_check combines them in order. The caller
// writes the container header before the first block and the trailer after
// drain(). The result is ONE ordinary stream that plain inflate, gzip -dc or
// Python's zlib decode.
//
// Threads start in the constructor and are joined by the destructor, so no
// thread outlives the stream (plugin.h: joined before close returns).
#pragma once

#include "container.hpp"
#include "settings.hpp"

#include "common/file_io.hpp"
#include "common/time_total.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace formatbench::detail {

class parallel_deflate {
public:
    // Compressed blocks go to `out` in order; `out` must outlive this object.
    // count: the elements the file will hold, or FB_COUNT_UNKNOWN. A known
    // count bounds the slots (each holds two blocks' worth of memory) by the
    // blocks the file needs, so that a small file with threads = 64 does not
    // allocate and zero 128 slots of block_size.
    parallel_deflate(const zlib_settings& settings, output_file& out, std::uint64_t count);
    parallel_deflate(const parallel_deflate&) = delete;
    parallel_deflate& operator=(const parallel_deflate&) = delete;
    ~parallel_deflate();

    // The buffer (block_bytes long) for the next block. When every slot is
    // in use this first waits for the oldest block and writes it out.
    unsigned char* next_input();
    // Queues the block filled through next_input(): n bytes, n <= block_bytes;
    // `last` ends the stream (n may then be 0).
    void submit(std::size_t n, bool last);
    // Waits for every queued block and writes them out, in order.
    void drain();
    // The check value and length of everything written so far.
    const running_check& check() const noexcept { return check_; }
    // Seconds the workers spent compressing the blocks written out so far
    // (deflate and the block's check value), summed over the workers.
    double codec_seconds() const noexcept { return codec_.seconds(); }

private:
    struct slot;
    struct worker_stream;

    void run(std::size_t worker);
    void compress(slot& s, worker_stream& z);
    void write_oldest();

    zlib_settings settings_;
    output_file& out_;
    std::vector<std::unique_ptr<slot>> slots_;
    std::vector<std::unique_ptr<worker_stream>> streams_;
    std::vector<std::thread> threads_;

    std::mutex lock_;
    std::condition_variable work_ready_; // workers wait here
    std::condition_variable block_done_; // the caller waits here
    std::uint64_t submitted_ = 0;        // blocks queued
    std::uint64_t taken_ = 0;            // blocks a worker has started
    std::uint64_t written_ = 0;          // blocks handed to out_
    time_total codec_;                   // summed from the slots in write_oldest
    bool stop_ = false;

    running_check check_;
};

} // namespace formatbench::detail
