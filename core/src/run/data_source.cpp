// Generated and file-backed data sources (data_source.hpp).
#include "run/data_source.hpp"

#include "base/error.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace formatbench {
namespace {

class generated_source : public data_source {
public:
    explicit generated_source(const dataset_spec& spec) : gen_(spec) {}
    void fill(std::uint64_t first, std::uint64_t count, void* out) const override {
        gen_.fill(first, count, out);
    }

private:
    generator gen_;
};

// The whole file in memory, read once.
class file_source : public data_source {
public:
    file_source(const dataset_spec& spec, const registry& reg)
        : size_(dtype_size(spec.type)), data_(spec.count * dtype_size(spec.type)) {
        const plugin& p = reg.get(spec.file_plugin);
        auto in = p.open_read(spec.file, spec.type, spec.count, spec.file_options);
        in->read(data_.data(), spec.count);
        in->close();
    }
    void fill(std::uint64_t first, std::uint64_t count, void* out) const override {
        std::memcpy(out, data_.data() + first * size_, count * size_);
    }

private:
    std::size_t size_;
    aligned_buffer data_;
};

// The file read through its plugin as the slices are asked for: in order,
// one read per slice; a slice before the position reopens the file (each
// repetition starts again at 0), one after it skips ahead.
class streamed_file_source : public data_source {
public:
    streamed_file_source(const dataset_spec& spec, const registry& reg)
        : spec_(spec), plugin_(reg.get(spec.file_plugin)), size_(dtype_size(spec.type)) {
        reopen();
    }
    void fill(std::uint64_t first, std::uint64_t count, void* out) const override {
        if (first < position_) reopen();
        while (position_ < first) {
            const std::uint64_t n = std::min<std::uint64_t>(first - position_, skip_elements);
            scratch_.resize(n * size_);
            stream_->read(scratch_.data(), n);
            position_ += n;
        }
        stream_->read(out, count);
        position_ += count;
    }

private:
    static constexpr std::uint64_t skip_elements = 1u << 16;

    void reopen() const {
        if (stream_) stream_->close();
        stream_ = plugin_.open_read(spec_.file, spec_.type, spec_.count, spec_.file_options);
        position_ = 0;
    }

    dataset_spec spec_;
    const plugin& plugin_;
    std::size_t size_;
    mutable std::unique_ptr<read_stream> stream_;
    mutable std::uint64_t position_ = 0;
    mutable std::vector<unsigned char> scratch_;
};

} // namespace

std::unique_ptr<data_source> make_data_source(const dataset_spec& spec, const registry& reg,
                                              std::uint64_t in_memory_bytes) {
    if (spec.file.empty()) return std::make_unique<generated_source>(spec);
    if (spec.count * dtype_size(spec.type) > in_memory_bytes)
        return std::make_unique<streamed_file_source>(spec, reg);
    return std::make_unique<file_source>(spec, reg);
}

} // namespace formatbench
