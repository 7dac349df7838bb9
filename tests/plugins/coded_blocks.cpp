// A test plugin in C++ (plugin.hpp) whose file is a sequence of independent
// blocks, as a block-compressed format's is (xz with blocks, zstd's
// independent frames): a 32-byte header (magic, count, elements per block,
// preset), then the elements in blocks of `block_size` bytes (rounded down
// to whole elements), each block's bytes XORed with a key made of its index
// and `preset`, so a block read as another one gives other bytes. Read-at
// and read-box decode only the blocks a range touches. Every dtype.
//
// For the tests of check-plugin itself, FB_BLOCKS_FAULT (read at open)
// plants one bug:
//   block_before   read-at (and read-box, which reads through it) decodes
//                  the block before the one asked for whenever a range
//                  lies in a block past the first: with the default 1 MiB
//                  blocks, a file of 10^4 f64 never shows it;
//   ignore_preset  `preset` is declared and validated but never used: every
//                  value writes the same bytes.
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;

constexpr char magic[8] = {'F', 'B', 'B', 'L', 'O', 'C', 'K', '1'};
constexpr std::size_t header_bytes = 32;

enum class fault { none, block_before, ignore_preset };

fault fault_from_environment() {
    const char* f = std::getenv("FB_BLOCKS_FAULT");
    if (!f) return fault::none;
    if (std::strcmp(f, "block_before") == 0) return fault::block_before;
    if (std::strcmp(f, "ignore_preset") == 0) return fault::ignore_preset;
    return fault::none;
}

// Block b's bytes are XORed with this (an involution: it also decodes).
void code_block(unsigned char* p, std::size_t n, std::uint64_t block, std::uint64_t preset) {
    const auto key = static_cast<unsigned char>(block * 131 + preset * 17 + 1);
    for (std::size_t i = 0; i < n; ++i)
        p[i] ^= static_cast<unsigned char>(key + i % 7);
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

struct blocks_format {
    static constexpr fb_option_decl options[] = {
        sdk::option_size("block_size", "1MiB", 64, 64.0 * 1024 * 1024,
                         "bytes per independent block, rounded down to whole elements"),
        sdk::option_int("preset", "6", 0, 9, "the key every block is coded with, stored in the header"),
    };

    static sdk::plugin_info info() {
        return {"coded_blocks", "1.0.0", "test plugin: independent coded blocks with read-at and read-box",
                "MIT",          "blk",   FB_DTYPES_ALL,
                FB_CAP_LOSSLESS};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : size_(r.element_size()),
              per_block_(std::max<std::uint64_t>(1, r.options.get_size("block_size") / size_)),
              preset_(fault_from_environment() == fault::ignore_preset
                          ? 0
                          : static_cast<std::uint64_t>(r.options.get_int("preset"))),
              file_(sdk::file::create(r.path)) {
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
            put_u64(header + 24, preset_);
            file_.write_all_at(header, header_bytes, 0);
            file_.close();
        }

    private:
        void flush() {
            code_block(block_.data(), block_.size(), blocks_, preset_);
            file_.write_all(block_.data(), block_.size());
            block_.clear();
            ++blocks_;
        }
        std::size_t size_;
        std::uint64_t per_block_;
        std::uint64_t preset_;
        sdk::file file_;
        std::vector<unsigned char> block_;
        std::uint64_t blocks_ = 0;
        std::uint64_t count_ = 0;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), shape_(r.shape), fault_(fault_from_environment()),
              file_(sdk::file::open_read(r.path)) {
            unsigned char header[header_bytes];
            if (file_.read_full_at(header, header_bytes, 0) != header_bytes ||
                std::memcmp(header, magic, sizeof magic) != 0)
                throw sdk::error(FB_E_CORRUPT,
                                 "coded_blocks: '" + path_ + "' is not a blocks file (no header)");
            count_ = get_u64(header + 8);
            per_block_ = get_u64(header + 16);
            preset_ = get_u64(header + 24);
            if (per_block_ == 0 || per_block_ > (64u << 20) || preset_ > 9)
                throw sdk::error(FB_E_CORRUPT, "coded_blocks: '" + path_ + "' has a damaged header");
            if (count_ != r.count)
                throw sdk::error(count_ < r.count ? FB_E_TRUNCATED : FB_E_CORRUPT,
                                 "coded_blocks: '" + path_ + "' holds " + std::to_string(count_) +
                                     " elements, not " + std::to_string(r.count));
        }
        void read(void* data, std::uint64_t count) {
            if (count > count_ - done_)
                throw sdk::error(FB_E_TRUNCATED,
                                 "coded_blocks: '" + path_ + "' ends before the data asked for");
            get(done_, data, count, false);
            done_ += count;
        }
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
            get(offset, data, count, true);
        }
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            sdk::for_each_run(shape_, start, count,
                              [&](std::uint64_t offset, std::uint64_t length, std::uint64_t position) {
                                  get(offset, static_cast<char*>(data) + position * size_, length, true);
                              });
        }
        void close() { file_.close(); }

    private:
        // Elements [offset, offset + count) into data, block by block.
        void get(std::uint64_t offset, void* data, std::uint64_t count, bool at_random) {
            auto* out = static_cast<unsigned char*>(data);
            while (count > 0) {
                std::uint64_t b = offset / per_block_;
                std::uint64_t within = offset % per_block_;
                std::uint64_t take = std::min(count, per_block_ - within);
                std::uint64_t decoded = at_random && fault_ == fault::block_before && b > 0 ? b - 1 : b;
                load(decoded);
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
                                 "coded_blocks: '" + path_ + "' ends inside block " + std::to_string(b));
            code_block(block_.data(), block_.size(), b, preset_);
            loaded_ = b;
        }
        std::string path_;
        std::size_t size_;
        std::vector<std::uint64_t> shape_;
        fault fault_;
        sdk::file file_;
        std::uint64_t count_ = 0, per_block_ = 1, preset_ = 0, done_ = 0;
        std::vector<unsigned char> block_;
        std::uint64_t loaded_ = UINT64_MAX;
    };
};

} // namespace

FORMATBENCH_PLUGIN(blocks_format)
