// Generated and file-backed data sources.
#include "run/data_source.hpp"

#include "base/error.hpp"

#include <cstring>

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

} // namespace

std::unique_ptr<data_source> make_data_source(const dataset_spec& spec, const registry& reg) {
    if (spec.file.empty()) return std::make_unique<generated_source>(spec);
    return std::make_unique<file_source>(spec, reg);
}

} // namespace formatbench
