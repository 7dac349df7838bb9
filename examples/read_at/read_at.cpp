// formatbench-read-at: an out-of-tree formatbench plugin in C++ (plugin.hpp)
// with random access (ABI 1.2) to a file of independent blocks, as a
// block-compressed format's is (xz with blocks, zstd's independent frames):
// a 32-byte header (magic, count, elements per block, key), then the
// elements in blocks of `block_size` bytes (rounded down to whole elements),
// each block's bytes XORed with a key made of its index and `key` (a
// stand-in for a codec: a block read as another gives other bytes).
// read-at and read-box decode only the blocks a range touches and keep the
// last one. Every dtype.
//
// Where random access goes wrong: the block a range starts in is offset /
// elements per block, and a range may end in another. `check-plugin` reads
// ranges across block boundaries with block_size set small and on a file of
// several default blocks (docs/plugin-guide.md, "Random access").
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;

constexpr char magic[8] = {'F', 'B', 'R', 'E', 'A', 'D', 'A', 'T'};
constexpr std::size_t header_bytes = 32;

// Codes block `block` in place: its bytes XORed with a pattern made of its
// index and the key (an involution: the same call decodes).
void code_block(unsigned char* p, std::size_t n, std::uint64_t block, std::uint64_t key) {
    const auto pattern = static_cast<unsigned char>(block * 131 + key * 17 + 1);
    for (std::size_t i = 0; i < n; ++i)
        p[i] ^= static_cast<unsigned char>(pattern + i % 7);
}

void put_u64(unsigned char* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        p[i] = static_cast<unsigned char>(v >> (8 * i));
}

std::uint64_t get_u64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

struct read_at_format {
    static constexpr fb_option_decl options[] = {
        sdk::option_size("block_size", "1MiB", 64, 64.0 * 1024 * 1024,
                         "bytes per independent block, rounded down to whole elements"),
        sdk::option_int("key", "6", 0, 9, "the key every block is coded with, stored in the header"),
    };

    static sdk::plugin_info info() {
        return {"read_at_cpp",  "1.0.0", "independent coded blocks with read-at and read-box (example)",
                "MIT",          "blk",   FB_DTYPES_ALL,
                FB_CAP_LOSSLESS};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : size_(r.element_size()),
              per_block_(std::max<std::uint64_t>(1, r.options.get_size("block_size") / size_)),
              key_(static_cast<std::uint64_t>(r.options.get_int("key"))), file_(sdk::file::create(r.path)) {
            unsigned char header[header_bytes] = {};
            file_.write_all(header, header_bytes); // written again at close, with the count
            block_.reserve(static_cast<std::size_t>(per_block_) * size_);
        }
        void write(const void* data, std::uint64_t count) {
            const auto* p = static_cast<const unsigned char*>(data);
            std::size_t left = static_cast<std::size_t>(count) * size_;
            const std::size_t block_bytes = static_cast<std::size_t>(per_block_) * size_;
            while (left > 0) {
                std::size_t take = std::min(left, block_bytes - block_.size());
                block_.insert(block_.end(), p, p + take);
                p += take;
                left -= take;
                if (block_.size() == block_bytes) flush();
            }
            count_ += count;
        }
        void close() {
            if (!block_.empty()) flush();
            unsigned char header[header_bytes] = {};
            std::memcpy(header, magic, sizeof magic);
            put_u64(header + 8, count_);
            put_u64(header + 16, per_block_);
            put_u64(header + 24, key_);
            file_.write_all_at(header, header_bytes, 0);
            file_.close();
        }

    private:
        void flush() {
            code_block(block_.data(), block_.size(), blocks_, key_);
            file_.write_all(block_.data(), block_.size());
            block_.clear();
            ++blocks_;
        }
        std::size_t size_;
        std::uint64_t per_block_;
        std::uint64_t key_;
        sdk::file file_;
        std::vector<unsigned char> block_;
        std::uint64_t blocks_ = 0;
        std::uint64_t count_ = 0;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), shape_(r.shape), file_(sdk::file::open_read(r.path)) {
            unsigned char header[header_bytes];
            if (file_.read_full_at(header, header_bytes, 0) != header_bytes ||
                std::memcmp(header, magic, sizeof magic) != 0)
                throw sdk::error(FB_E_CORRUPT,
                                 "read_at_cpp: '" + path_ + "' is not a blocks file (no header)");
            count_ = get_u64(header + 8);
            per_block_ = get_u64(header + 16);
            key_ = get_u64(header + 24);
            if (per_block_ == 0 || per_block_ > (64u << 20) || key_ > 9)
                throw sdk::error(FB_E_CORRUPT, "read_at_cpp: '" + path_ + "' has a damaged header");
            if (count_ != r.count)
                throw sdk::error(count_ < r.count ? FB_E_TRUNCATED : FB_E_CORRUPT,
                                 "read_at_cpp: '" + path_ + "' holds " + std::to_string(count_) +
                                     " elements, not " + std::to_string(r.count));
        }
        void read(void* data, std::uint64_t count) {
            if (count > count_ - done_)
                throw sdk::error(FB_E_TRUNCATED,
                                 "read_at_cpp: '" + path_ + "' ends before the data asked for");
            get(done_, data, count);
            done_ += count;
        }
        // The adapter has checked that [offset, offset + count) lies in the file.
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) { get(offset, data, count); }
        // The adapter has checked the box against shape_ (the data set's
        // shape, row-major; empty for a flat array); each run is one
        // contiguous stretch of the flat array.
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            sdk::for_each_run(shape_, start, count,
                              [&](std::uint64_t offset, std::uint64_t length, std::uint64_t position) {
                                  get(offset, static_cast<char*>(data) + position * size_, length);
                              });
        }
        void close() { file_.close(); }

    private:
        // Elements [offset, offset + count) into data, block by block: the
        // range starts in block offset / per_block_ and may end in another.
        void get(std::uint64_t offset, void* data, std::uint64_t count) {
            auto* out = static_cast<unsigned char*>(data);
            while (count > 0) {
                std::uint64_t b = offset / per_block_;
                std::uint64_t within = offset % per_block_;
                std::uint64_t take = std::min(count, per_block_ - within);
                load(b);
                std::memcpy(out, block_.data() + within * size_, static_cast<std::size_t>(take) * size_);
                out += take * size_;
                offset += take;
                count -= take;
            }
        }
        void load(std::uint64_t b) {
            if (loaded_ == b) return;
            std::uint64_t elements = std::min(per_block_, count_ - b * per_block_);
            block_.resize(static_cast<std::size_t>(elements) * size_);
            std::uint64_t at = header_bytes + b * per_block_ * size_;
            if (file_.read_full_at(block_.data(), block_.size(), at) != block_.size())
                throw sdk::error(FB_E_TRUNCATED,
                                 "read_at_cpp: '" + path_ + "' ends inside block " + std::to_string(b));
            code_block(block_.data(), block_.size(), b, key_);
            loaded_ = b;
        }
        std::string path_;
        std::size_t size_;
        std::vector<std::uint64_t> shape_;
        sdk::file file_;
        std::uint64_t count_ = 0, per_block_ = 1, key_ = 0, done_ = 0;
        std::vector<unsigned char> block_;
        std::uint64_t loaded_ = UINT64_MAX;
    };
};

} // namespace

FORMATBENCH_PLUGIN(read_at_format)
