// The zstd plugin's independent frames; see zstd_frames.hpp.
#include "zstd_frames.hpp"

#include "zstd_errors.hpp"
#include "zstd_memory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace formatbench::detail {

namespace {

// Frames smaller than this are not worth a thread of their own: a range
// below threads * min_frame_bytes gets fewer frames than threads.
constexpr std::size_t min_frame_bytes = std::size_t{1} << 17;

std::size_t ceil_div(std::size_t a, std::size_t b) {
    return a / b + (a % b != 0);
}

} // namespace

zstd_frames::zstd_frames(const zstd_settings& settings, const std::string& path)
    : settings_(settings), path_(path),
      slots_(static_cast<std::size_t>(settings.threads > 1 ? settings.threads : 1)) {
    for (slot& s : slots_) {
        s.cctx.reset(ZSTD_createCCtx_advanced(zstd_memory));
        if (!s.cctx)
            throw sdk::error(FB_E_NO_MEMORY, "zstd: out of memory creating a compressor for '" + path + "'");
        apply_frame_parameters(s.cctx.get(), settings, path);
        // Untouched until a frame is compressed into it: reserving costs
        // address space, not memory.
        s.out = byte_buffer(ZSTD_compressBound(settings.frame_bytes));
    }
}

void zstd_frames::compress(const unsigned char* p, std::size_t n, output_file& file, time_total& codec) {
    const std::size_t threads = slots_.size(), es = settings_.element_size;
    // At least ceil(n / frame_bytes) frames; rounded up to a multiple of the
    // threads where that leaves frames of min_frame_bytes or more.
    const std::size_t fewest = n ? ceil_div(n, settings_.frame_bytes) : 1;
    std::size_t frames = ceil_div(fewest, threads) * threads;
    if (frames > fewest) frames = std::max(fewest, std::min(frames, n / min_frame_bytes));
    // Equal frames of whole elements; the last one takes what is left (less,
    // and a partial element only where the range ends in one). At most
    // frame_bytes, a multiple of es: ceil(n / frames) <= frame_bytes.
    const std::size_t frame = ceil_div(ceil_div(n, frames), es) * es;
    frames = n ? ceil_div(n, frame) : 1;

    // Thread t compresses frames t, t + T, ... in turn, each into its slot,
    // and appends it to the file once frame i - 1 is in: the file is written
    // in order, one thread at a time, while the others compress.
    std::mutex m;
    std::condition_variable turn_taken;
    std::size_t next = 0;                // the frame whose turn it is to be appended
    std::exception_ptr failed;           // the first failure; later frames are skipped
    std::atomic<bool> any_failed{false}; // read without the lock before compressing
    bool abandoned = false;              // a helper could not be started: the others stop
    auto work = [&](std::size_t t) {
        slot& s = slots_[t];
        for (std::size_t i = t; i < frames; i += threads) {
            const std::size_t at = i * frame;
            const std::size_t size = at < n ? std::min(n - at, frame) : 0;
            // After a failure the frames are neither compressed nor
            // appended; each thread still takes its turns, so none waits
            // for ever.
            if (!any_failed.load(std::memory_order_relaxed))
                s.result = ZSTD_compress2(s.cctx.get(), s.out.data(), s.out.size(), p + at, size);
            std::unique_lock lock(m);
            turn_taken.wait(lock, [&] { return next == i || abandoned; });
            if (abandoned) return;
            if (!failed) {
                try {
                    check_compress(s.result, "compressing a frame", path_);
                    file.append(s.out.data(), s.result);
                    sizes_.emplace_back(s.result, size);
                } catch (...) {
                    failed = std::current_exception();
                    any_failed.store(true, std::memory_order_relaxed);
                }
            }
            ++next;
            turn_taken.notify_all();
        }
    };
    const double io_before = file.io_seconds();
    const auto start = std::chrono::steady_clock::now();
    {
        std::vector<std::jthread> helpers;
        helpers.reserve(threads - 1);
        try {
            for (std::size_t t = 1; t < threads && t < frames; ++t)
                helpers.emplace_back(work, t);
        } catch (...) {
            // Frames of the missing thread would never be appended, and the
            // started helpers would wait for them.
            std::lock_guard lock(m);
            abandoned = true;
            failed = std::current_exception();
        }
        turn_taken.notify_all();
        if (!abandoned) work(0);
    } // the helpers are joined here
    // codec_s: the wall time of the frames, less the time inside write(2).
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double codec_s = wall - (file.io_seconds() - io_before);
    codec.add_ns(codec_s > 0 ? static_cast<std::uint64_t>(codec_s * 1e9) : 0);
    frames_written_ += frames;
    if (failed) std::rethrow_exception(failed);
}

} // namespace formatbench::detail
