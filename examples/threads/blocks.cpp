// blocks: a formatbench plugin with a worker pool, the example of
// docs/plugin-guide.md ("Worker threads"). The data is cut into blocks of
// block_size bytes, each stored with a 64-bit checksum; workers checksum
// and write the blocks (pwrite at the block's own offset) while the caller
// fills the next ones, and when reading they read and verify blocks ahead of
// the caller. block_pool.hpp holds the pool and its rules.
//
// File layout (native byte order):
//   bytes  0-7   magic "FBBLOCK1"
//   bytes  8-11  dtype (fb_dtype, uint32)
//   bytes 12-15  0 (reserved)
//   bytes 16-23  block_bytes: data bytes per block, a multiple of the element size
//   bytes 24-31  element count, written at close
//   then block after block: an 8-byte checksum of the block's data, then the
//   data (block_bytes; the last block holds what is left).
#include "block_pool.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>

namespace {

namespace sdk = formatbench::sdk;
using sdk::error;

constexpr char magic[8] = {'F', 'B', 'B', 'L', 'O', 'C', 'K', '1'};
constexpr std::size_t header_size = 32;
constexpr std::size_t count_offset = 24;
constexpr std::size_t checksum_size = 8;
// The largest block a reader accepts from a file: a damaged header must not
// make it allocate without bound.
constexpr std::uint64_t max_block_bytes = 64u << 20;
constexpr sdk::file_wording wording{.prefix = "blocks: ", .space_hint = true};

// A 64-bit checksum of the block's bytes (a multiply-xor mix per 8 bytes):
// enough to tell damaged data, not a cryptographic hash.
std::uint64_t checksum(const unsigned char* p, std::size_t n) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    for (; i < n; ++i)
        h = (h ^ p[i]) * 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

// The pool's size: the option, 0 meaning one thread per usable CPU.
unsigned thread_count(const sdk::open_request& r) {
    auto n = static_cast<unsigned>(r.options.get_int("threads"));
    return n > 0 ? n : std::min(blocks::cpus_available(), 256u);
}

// Where block b starts in the file.
std::uint64_t block_offset(std::uint64_t b, std::uint64_t block_bytes) {
    return header_size + b * (checksum_size + block_bytes);
}

} // namespace

struct blocks_format {
    static constexpr fb_option_decl options[] = {
        sdk::option_int(
            "threads", "0", 0, 256,
            "worker threads per stream; 0 = one per CPU this process may run on (sched_getaffinity)"),
        sdk::option_size("block_size", "1MiB", 4096, 64 << 20,
                         "data bytes per block, rounded down to whole elements"),
    };

    static sdk::plugin_info info() {
        return {"blocks",
                "1.0.0",
                "checksummed blocks, written and read by a pool of worker threads (example)",
                "MIT",
                "blk",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : dtype_(r.dtype),
              block_bytes_(r.options.get_size("block_size") / r.element_size() * r.element_size()) {
            const unsigned threads = thread_count(r);
            // The pool starts first: if anything below throws, its destructor
            // joins the workers before open_write returns the error.
            pool_.emplace(
                threads, checksum_size + block_bytes_,
                [this](std::uint64_t b, unsigned char* data, std::size_t size) {
                    const std::uint64_t sum = checksum(data + checksum_size, size);
                    std::memcpy(data, &sum, checksum_size);
                    file_.write_all_at(data, checksum_size + size, block_offset(b, block_bytes_));
                },
                r.path);
            file_ = sdk::file::create(r.path, wording);
            sdk::remove_on_failure guard(file_);
            std::array<unsigned char, header_size> h{};
            const auto type = static_cast<std::uint32_t>(dtype_);
            std::memcpy(h.data(), magic, 8);
            std::memcpy(h.data() + 8, &type, 4);
            std::memcpy(h.data() + 16, &block_bytes_, 8);
            file_.write_all(h.data(), h.size());
            guard.commit();
            r.metric("threads", threads);
        }

        void write(const void* data, std::uint64_t count) {
            if (failed_) throw error(FB_E_STATE, "blocks: writing '" + file_.path() + "' after an error");
            failed_ = true; // until this call returns normally
            const auto* p = static_cast<const unsigned char*>(data);
            std::size_t bytes = count * sdk::dtype_size(dtype_);
            while (bytes > 0) {
                if (fill_ == 0 && block_ >= pool_->slot_count())
                    pool_->wait(block_ -
                                pool_->slot_count()); // the slot is free; a worker's error lands here
                const std::size_t n = std::min(bytes, block_bytes_ - fill_);
                std::memcpy(pool_->data(block_) + checksum_size + fill_, p, n);
                fill_ += n;
                p += n;
                bytes -= n;
                if (fill_ == block_bytes_) submit();
            }
            count_ += count;
            failed_ = false;
        }

        void close() {
            if (failed_) {
                pool_->join();
                throw error(FB_E_IO, "blocks: '" + file_.path() + "' is incomplete: a write failed");
            }
            if (fill_ > 0) submit();
            // Every block written (or the first error), then the workers go.
            for (std::uint64_t b = block_ > pool_->slot_count() ? block_ - pool_->slot_count() : 0;
                 b < block_; ++b)
                pool_->wait(b);
            pool_->join();
            file_.write_all_at(&count_, 8, count_offset);
            file_.close();
        }

        writer(writer&& o) = delete; // the pool's job refers to this object
        ~writer() = default;         // pool_ goes first (declared last): joined before file_ closes

    private:
        void submit() {
            pool_->submit(block_++, fill_);
            fill_ = 0;
        }

        fb_dtype dtype_;
        std::size_t block_bytes_;
        sdk::file file_;
        std::uint64_t count_ = 0;
        std::uint64_t block_ = 0; // the block being filled
        std::size_t fill_ = 0;    // its bytes so far
        bool failed_ = false;     // a write failed: the file cannot be finished
        std::optional<blocks::block_pool> pool_;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : file_(sdk::file::open_read(r.path, wording)), element_size_(r.element_size()), count_(r.count) {
            std::array<unsigned char, header_size> h{};
            const std::size_t got = file_.read_full(h.data(), h.size());
            if (got < header_size || std::memcmp(h.data(), magic, 8) != 0)
                throw error(got < header_size && got > 0 ? FB_E_TRUNCATED : FB_E_CORRUPT,
                            "blocks: '" + r.path + "' is not a blocks file (no FBBLOCK1 header)");
            std::uint32_t type = 0;
            std::uint64_t stored = 0;
            std::memcpy(&type, h.data() + 8, 4);
            std::memcpy(&block_bytes_, h.data() + 16, 8);
            std::memcpy(&stored, h.data() + count_offset, 8);
            if (type != static_cast<std::uint32_t>(r.dtype))
                throw error(FB_E_CORRUPT,
                            "blocks: '" + r.path + "' holds another dtype than " + sdk::dtype_name(r.dtype));
            if (block_bytes_ == 0 || block_bytes_ > max_block_bytes || block_bytes_ % element_size_ != 0)
                throw error(FB_E_CORRUPT, "blocks: '" + r.path + "' has an impossible block size " +
                                              std::to_string(block_bytes_));
            if (stored != count_)
                throw error(stored < count_ ? FB_E_TRUNCATED : FB_E_CORRUPT,
                            "blocks: '" + r.path + "' holds " + std::to_string(stored) + " elements, " +
                                std::to_string(count_) + " were asked for");
            const std::uint64_t data_bytes = count_ * element_size_;
            blocks_ = (data_bytes + block_bytes_ - 1) / block_bytes_;
            const std::uint64_t want = header_size + blocks_ * checksum_size + data_bytes;
            const struct stat st = file_.status();
            if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) != want)
                throw error(static_cast<std::uint64_t>(st.st_size) < want ? FB_E_TRUNCATED : FB_E_CORRUPT,
                            "blocks: '" + r.path + "' has " + std::to_string(st.st_size) + " bytes, not " +
                                std::to_string(want));
            const unsigned threads = thread_count(r);
            pool_.emplace(
                threads, checksum_size + block_bytes_,
                [this](std::uint64_t b, unsigned char* data, std::size_t size) { load(b, data, size); },
                r.path);
            // Workers read and verify ahead of the caller, a slot's worth.
            for (; next_ < blocks_ && next_ < pool_->slot_count(); ++next_)
                pool_->submit(next_, block_size(next_));
            r.metric("threads", threads);
        }

        // Copies verified blocks out in order; a worker's error is thrown
        // here, on the caller's thread.
        void read(void* data, std::uint64_t count) {
            if (failed_) throw error(FB_E_STATE, "blocks: reading '" + file_.path() + "' after an error");
            auto* p = static_cast<unsigned char*>(data);
            if (count > count_ - done_)
                throw error(FB_E_TRUNCATED, "blocks: reading past the " + std::to_string(count_) +
                                                " elements of '" + file_.path() + "'");
            std::size_t bytes = count * element_size_;
            failed_ = true; // until this call returns normally: a block in the caller's data may be bad
            while (bytes > 0) {
                if (taken_ == 0) pool_->wait(block_);
                const std::size_t n = std::min<std::size_t>(bytes, block_size(block_) - taken_);
                std::memcpy(p, pool_->data(block_) + checksum_size + taken_, n);
                taken_ += n;
                p += n;
                bytes -= n;
                if (taken_ == block_size(block_)) {
                    ++block_;
                    taken_ = 0;
                    if (next_ < blocks_) { // the freed slot takes the next block
                        pool_->submit(next_, block_size(next_));
                        ++next_;
                    }
                }
            }
            done_ += count;
            failed_ = false;
        }

        void close() {
            pool_->join(); // before the file goes: workers may be reading ahead
            file_.reset();
        }

        reader(reader&& o) = delete;
        ~reader() = default;

    private:
        std::size_t block_size(std::uint64_t b) const {
            const std::uint64_t data_bytes = count_ * element_size_;
            return static_cast<std::size_t>(
                std::min<std::uint64_t>(block_bytes_, data_bytes - b * block_bytes_));
        }

        // On a worker: one block read and checked.
        void load(std::uint64_t b, unsigned char* data, std::size_t size) {
            const std::size_t want = checksum_size + size;
            // A const file is enough: read_full_at is pread and safe from several threads.
            if (file_.read_full_at(data, want, block_offset(b, block_bytes_)) < want)
                throw error(FB_E_TRUNCATED,
                            "blocks: '" + file_.path() + "' ends inside block " + std::to_string(b));
            std::uint64_t stored;
            std::memcpy(&stored, data, checksum_size);
            if (stored != checksum(data + checksum_size, size))
                throw error(FB_E_CORRUPT, "blocks: block " + std::to_string(b) + " of '" + file_.path() +
                                              "' fails its checksum");
        }

        sdk::file file_;
        std::size_t element_size_;
        std::uint64_t count_;
        std::uint64_t block_bytes_ = 0;
        std::uint64_t blocks_ = 0;
        std::uint64_t done_ = 0;  // elements read
        std::uint64_t block_ = 0; // the block being copied out
        std::size_t taken_ = 0;   // its bytes copied so far
        std::uint64_t next_ = 0;  // the next block to submit
        bool failed_ = false;     // a read failed: the stream is done
        std::optional<blocks::block_pool> pool_;
    };
};

FORMATBENCH_PLUGIN(blocks_format)
