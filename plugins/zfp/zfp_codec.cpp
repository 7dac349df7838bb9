// libzfp's objects and the whole-array compression; see zfp_codec.hpp.
#include "zfp_codec.hpp"

#include <formatbench/plugin.hpp>

#include <new>

namespace formatbench::detail {

std::uint64_t array_shape::count() const noexcept {
    std::uint64_t n = 1;
    for (unsigned i = 0; i < rank; ++i)
        n *= extent[i];
    return n;
}

std::string array_shape::text() const {
    std::string s;
    for (unsigned i = 0; i < rank; ++i)
        s += (i ? " x " : "") + std::to_string(extent[i]);
    return s;
}

array_shape array_shape::of_data_set(const std::vector<std::uint64_t>& row_major, std::uint64_t count,
                                     const std::string& path) {
    if (row_major.empty()) return linear(count);
    if (row_major.size() > 4) {
        std::string axes;
        for (std::size_t i = 0; i < row_major.size(); ++i)
            axes += (i ? ", " : "") + std::to_string(row_major[i]);
        throw sdk::error(FB_E_UNSUPPORTED, "zfp: the data set's shape [" + axes + "] has " +
                                               std::to_string(row_major.size()) +
                                               " axes; zfp compresses fields of 1 to 4 dimensions: give the "
                                               "data set at most 4 axes (or none, for a flat 1-D array) ('" +
                                               path + "')");
    }
    array_shape s;
    s.rank = static_cast<unsigned>(row_major.size());
    for (unsigned i = 0; i < s.rank; ++i)
        s.extent[i] = row_major[s.rank - 1 - i];
    return s;
}

std::string array_shape::row_major_text() const {
    std::string s = "[";
    for (unsigned i = rank; i > 0; --i)
        s += std::to_string(extent[i - 1]) + (i > 1 ? ", " : "");
    return s + "]";
}

bool array_shape::operator==(const array_shape& o) const noexcept {
    if (rank != o.rank) return false;
    for (unsigned i = 0; i < rank; ++i)
        if (extent[i] != o.extent[i]) return false;
    return true;
}

bool header_holds(zfp_type type, const array_shape& shape) {
    if (shape.count() == 0) return true;
    zfp_field_ptr f = make_field(nullptr, type, shape);
    return zfp_field_metadata(f.get()) != ZFP_META_NULL;
}

zfp_field_ptr make_field(void* data, zfp_type type, const array_shape& shape) {
    const auto& e = shape.extent;
    zfp_field* f = nullptr;
    switch (shape.rank) {
    case 1: f = zfp_field_1d(data, type, e[0]); break;
    case 2: f = zfp_field_2d(data, type, e[0], e[1]); break;
    case 3: f = zfp_field_3d(data, type, e[0], e[1], e[2]); break;
    case 4: f = zfp_field_4d(data, type, e[0], e[1], e[2], e[3]); break;
    default: throw sdk::error(FB_E_INTERNAL, "zfp: an array of rank " + std::to_string(shape.rank));
    }
    if (!f) throw std::bad_alloc();
    return zfp_field_ptr(f);
}

array_shape shape_of(const zfp_field* f) noexcept {
    array_shape s;
    s.rank = zfp_field_dimensionality(f);
    const std::size_t n[4] = {f->nx, f->ny, f->nz, f->nw};
    for (unsigned i = 0; i < s.rank && i < 4; ++i)
        s.extent[i] = n[i];
    return s;
}

zfp_stream_ptr make_stream() {
    zfp_stream* s = zfp_stream_open(nullptr);
    if (!s) throw std::bad_alloc();
    return zfp_stream_ptr(s);
}

bitstream_ptr make_bitstream(void* data, std::size_t bytes) {
    bitstream* b = stream_open(data, bytes);
    if (!b) throw std::bad_alloc();
    return bitstream_ptr(b);
}

std::size_t buffer_bytes(const zfp_stream* s, const zfp_field* field) {
    const std::size_t word = stream_word_bits / 8;
    const std::size_t n = zfp_stream_maximum_size(s, field);
    return (n + word - 1) / word * word + word;
}

std::size_t compress_array(const void* data, zfp_type type, const array_shape& shape,
                           const zfp_settings& settings, byte_buffer& out, const std::string& path) {
    // zfp reads the array through the field and never writes it.
    zfp_field_ptr field = make_field(const_cast<void*>(data), type, shape);
    zfp_stream_ptr zs = make_stream();
    apply_mode(zs.get(), settings, type, shape.rank);
    const std::size_t need = buffer_bytes(zs.get(), field.get());
    if (out.size() < need) out = byte_buffer(need);
    bitstream_ptr bs = make_bitstream(out.data(), out.size());
    zfp_stream_set_bit_stream(zs.get(), bs.get());
    zfp_stream_rewind(zs.get());
    if (zfp_write_header(zs.get(), field.get(), ZFP_HEADER_FULL) == 0)
        throw sdk::error(FB_E_INTERNAL,
                         "zfp: zfp_write_header refused the " + shape.text() + " array of '" + path + "'");
    const std::size_t bytes = zfp_compress(zs.get(), field.get());
    if (bytes == 0) throw sdk::error(FB_E_INTERNAL, "zfp: zfp_compress failed for '" + path + "'");
    return bytes;
}

} // namespace formatbench::detail
