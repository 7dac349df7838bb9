// Parallel deflate into one stream; see parallel_deflate.hpp for the format.
#include "parallel_deflate.hpp"

#include <algorithm>
#include <chrono>

#include <formatbench/plugin.hpp>

#include <zlib.h>

#include <cstring>

namespace formatbench::detail {

// The deflate window: the most history a preset dictionary can use.
constexpr std::size_t dictionary_bytes = 32768;

// One block in flight. Its input stays intact after it is written out,
// until the slot is reused, so the next block can take its dictionary from
// it (submit copies the dictionary, because the next block may still be
// compressing when this slot is refilled).
struct parallel_deflate::slot {
    std::vector<unsigned char> input;
    std::vector<unsigned char> dictionary;
    std::vector<unsigned char> output;
    std::size_t input_size = 0;
    std::size_t dictionary_size = 0;
    std::size_t output_size = 0;
    bool last = false;
    bool done = false;
    std::uint32_t check = 0;
    std::uint64_t codec_ns = 0; // the worker's time in compress()
    std::string error;          // non-empty when compressing failed
};

struct parallel_deflate::worker_stream {
    z_stream z{};
    bool ready = false;
    ~worker_stream() {
        if (ready) deflateEnd(&z);
    }
};

parallel_deflate::parallel_deflate(const zlib_settings& settings, output_file& out, std::uint64_t count)
    : settings_(settings), out_(out), check_(settings.container) {
    // Two slots per thread: one compressing while the caller fills or
    // writes out the other; never more than the file's blocks and the
    // closing empty one, never fewer than two (a block takes its
    // dictionary from the previous block's slot, which must not be its own).
    std::size_t slot_count = 2 * std::size_t{settings.threads};
    if (count != FB_COUNT_UNKNOWN && count <= UINT64_MAX / settings.element_size) {
        const std::uint64_t blocks =
            (count * settings.element_size + settings.block_bytes - 1) / settings.block_bytes;
        slot_count = std::max<std::size_t>(2, std::min<std::uint64_t>(slot_count, blocks + 1));
    }
    streams_.reserve(settings.threads);
    for (unsigned i = 0; i < settings.threads; ++i) {
        auto w = std::make_unique<worker_stream>();
        int rc = deflateInit2(&w->z, settings.level, Z_DEFLATED, -MAX_WBITS, settings.mem_level,
                              settings.strategy);
        if (rc == Z_MEM_ERROR) throw std::bad_alloc();
        if (rc != Z_OK)
            throw sdk::error(FB_E_INTERNAL, std::string("zlib: deflateInit2 failed: ") + zError(rc));
        w->ready = true;
        streams_.push_back(std::move(w));
    }
    // Room for a whole block: the bound for Z_FINISH plus the sync-flush
    // marker and the final empty block. compress() grows it if ever needed.
    std::size_t bound = deflateBound(&streams_[0]->z, uLong(settings.block_bytes)) + 64;
    slots_.reserve(slot_count);
    for (std::size_t i = 0; i < slot_count; ++i) {
        auto s = std::make_unique<slot>();
        s->input.resize(settings.block_bytes);
        s->dictionary.resize(dictionary_bytes);
        s->output.resize(bound);
        s->done = true;
        slots_.push_back(std::move(s));
    }
    // If a thread cannot start, the destructor of this half-built object
    // does not run: stop and join the ones already running here.
    try {
        for (unsigned i = 0; i < settings.threads; ++i)
            threads_.emplace_back([this, i] { run(i); });
    } catch (...) {
        {
            std::lock_guard<std::mutex> g(lock_);
            stop_ = true;
        }
        work_ready_.notify_all();
        for (auto& t : threads_)
            t.join();
        throw;
    }
}

parallel_deflate::~parallel_deflate() {
    {
        std::lock_guard<std::mutex> g(lock_);
        stop_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : threads_)
        t.join();
}

unsigned char* parallel_deflate::next_input() {
    // Block b uses slot b % slots; it is free once block b - slots is out.
    while (submitted_ >= written_ + slots_.size())
        write_oldest();
    return slots_[submitted_ % slots_.size()]->input.data();
}

void parallel_deflate::submit(std::size_t n, bool last) {
    slot& s = *slots_[submitted_ % slots_.size()];
    s.input_size = n;
    s.last = last;
    s.error.clear();
    s.dictionary_size = 0;
    if (submitted_ > 0) {
        // The previous block's slot is not reused before this one's turn.
        const slot& prev = *slots_[(submitted_ - 1) % slots_.size()];
        std::size_t d = prev.input_size < dictionary_bytes ? prev.input_size : dictionary_bytes;
        std::memcpy(s.dictionary.data(), prev.input.data() + prev.input_size - d, d);
        s.dictionary_size = d;
    }
    {
        std::lock_guard<std::mutex> g(lock_);
        s.done = false;
        ++submitted_;
    }
    work_ready_.notify_one();
}

void parallel_deflate::drain() {
    while (written_ < submitted_)
        write_oldest();
}

void parallel_deflate::write_oldest() {
    slot& s = *slots_[written_ % slots_.size()];
    {
        std::unique_lock<std::mutex> g(lock_);
        block_done_.wait(g, [&] { return s.done; });
    }
    if (!s.error.empty())
        throw sdk::error(FB_E_INTERNAL, "zlib: compressing '" + out_.path() + "': " + s.error);
    out_.append(s.output.data(), s.output_size);
    check_.append(s.check, s.input_size);
    codec_.add_ns(s.codec_ns);
    ++written_;
}

void parallel_deflate::run(std::size_t worker) {
    for (;;) {
        std::uint64_t block;
        {
            std::unique_lock<std::mutex> g(lock_);
            work_ready_.wait(g, [&] { return stop_ || taken_ < submitted_; });
            if (stop_) return;
            block = taken_++;
        }
        slot& s = *slots_[block % slots_.size()];
        const auto start = std::chrono::steady_clock::now();
        try {
            compress(s, *streams_[worker]);
        } catch (const std::exception& e) {
            s.error = e.what();
        } catch (...) {
            s.error = "unknown error";
        }
        s.codec_ns = static_cast<std::uint64_t>((std::chrono::steady_clock::now() - start).count());
        {
            std::lock_guard<std::mutex> g(lock_);
            s.done = true;
        }
        block_done_.notify_one();
    }
}

void parallel_deflate::compress(slot& s, worker_stream& w) {
    z_stream& z = w.z;
    if (deflateReset(&z) != Z_OK) throw std::runtime_error("deflateReset failed");
    if (s.dictionary_size > 0 &&
        deflateSetDictionary(&z, s.dictionary.data(), uInt(s.dictionary_size)) != Z_OK)
        throw std::runtime_error("deflateSetDictionary failed");
    std::size_t produced = 0;
    std::size_t offset = 0;
    // Feeds len more input bytes; returns once deflate has taken them all
    // and honoured `flush` completely.
    auto feed = [&](std::size_t len, int flush) {
        z.next_in = s.input.data() + offset;
        z.avail_in = uInt(len);
        offset += len;
        for (;;) {
            if (produced == s.output.size()) s.output.resize(s.output.size() * 2);
            z.next_out = s.output.data() + produced;
            z.avail_out = uInt(s.output.size() - produced);
            int rc = deflate(&z, flush);
            produced = s.output.size() - z.avail_out;
            if (rc == Z_STREAM_ERROR) throw std::runtime_error("deflate failed (stream error)");
            if (flush == Z_FINISH ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0)) break;
        }
    };
    // A shuffled block ends a deflate block (Z_BLOCK) after each byte
    // plane, as the serial writer does: see shuffle_plane_bytes.
    const std::size_t plane = shuffle_plane_bytes(settings_, s.input_size);
    if (plane > 0)
        for (std::size_t j = 0; j + 1 < settings_.element_size; ++j)
            feed(plane, Z_BLOCK);
    feed(s.input_size - offset, s.last ? Z_FINISH : Z_SYNC_FLUSH);
    s.output_size = produced;
    s.check = block_check(settings_.container, s.input.data(), s.input_size);
}

} // namespace formatbench::detail
