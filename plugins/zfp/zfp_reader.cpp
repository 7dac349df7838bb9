// The zfp plugin's read stream; see zfp_reader.hpp.
#include "zfp_reader.hpp"

#include "common/file_io.hpp"

#include <algorithm>
#include <cstring>

namespace formatbench::detail {

namespace {

// Bytes read for the header: ZFP_HEADER_MAX_BITS (148) rounded up to whole
// stream words, with one word more that zfp may fetch ahead.
constexpr std::size_t header_buffer_bytes = 32;

const char* type_name(zfp_type t) {
    switch (t) {
    case zfp_type_int32: return "i32";
    case zfp_type_int64: return "i64";
    case zfp_type_float: return "f32";
    case zfp_type_double: return "f64";
    default: return "no";
    }
}

std::uint64_t blocks_of(const array_shape& s) {
    std::uint64_t b = 1;
    for (unsigned i = 0; i < s.rank; ++i)
        b *= (s.extent[i] + 3) / 4;
    return b;
}

// The most bits zfp's decoder reads for one block of 4^rank values, on any
// input: the block's exponent and precision fields (at most 19 bits), each
// bit plane's bits (values x maxprec), the group tests and run-length bits
// (at most 2 per value and one per plane), and never less than minbits
// (fixed-rate blocks are padded to it).
std::uint64_t worst_block_bits(const zfp_stream* s, unsigned rank) {
    uint minbits = 0, maxbits = 0, maxprec = 0;
    int minexp = 0;
    zfp_stream_params(s, &minbits, &maxbits, &maxprec, &minexp);
    const std::uint64_t values = std::uint64_t{1} << (2 * rank);
    const std::uint64_t prec = std::min<uint>(maxprec, 64);
    const std::uint64_t bits = 19 + values * (prec + 2) + prec;
    return std::max<std::uint64_t>(bits, minbits);
}

} // namespace

zfp_reader::zfp_reader(const sdk::open_request& request)
    : file_(open_input(request.path, zfp_wording)), dtype_(request.dtype), type_(zfp_type_of(request.dtype)),
      element_size_(request.element_size()), count_(request.count) {
    if (!request.shape.empty()) {
        wanted_ = array_shape::of_data_set(request.shape, 0, request.path);
        has_wanted_ = true;
    }
    // The options concern writing (the header holds the mode); they are
    // checked only as declared.
    file_bytes_ = static_cast<std::uint64_t>(file_.status().st_size);
    if (file_bytes_ == 0) {
        if (count_ == 0 || count_ == FB_COUNT_UNKNOWN) {
            count_ = 0;
            return; // an empty array (the writer's file for 0 values)
        }
        throw sdk::error(FB_E_TRUNCATED, "zfp: '" + file_.path() + "' is empty: the zfp stream of " +
                                             std::to_string(count_) + " values is missing");
    }
    read_header();
    load_stream();
}

void zfp_reader::read_header() {
    byte_buffer head(header_buffer_bytes);
    std::memset(head.data(), 0, head.size());
    const std::size_t got = file_.read_full(head.data(), std::min<std::uint64_t>(file_bytes_, head.size()));
    const unsigned char magic[4] = {'z', 'f', 'p', ZFP_CODEC};
    if (std::memcmp(head.data(), magic, std::min<std::size_t>(got, 4)) != 0)
        corrupt("it does not start with zfp's magic 'zfp' and codec version " + std::to_string(ZFP_CODEC) +
                " (a stream written with zfp_write_header)");
    // The short header is 96 bits; a long mode field makes it 148.
    if (got < 12) truncated("it ends inside the zfp header (" + std::to_string(got) + " bytes)");
    stream_ = make_stream();
    field_ = zfp_field_ptr(zfp_field_alloc());
    if (!field_) throw std::bad_alloc();
    bitstream_ptr bs = make_bitstream(head.data(), head.size());
    zfp_stream_set_bit_stream(stream_.get(), bs.get());
    zfp_stream_rewind(stream_.get());
    const std::size_t bits = zfp_read_header(stream_.get(), field_.get(), ZFP_HEADER_FULL);
    zfp_stream_set_bit_stream(stream_.get(), nullptr);
    if (bits == 0) corrupt("its zfp header holds no valid field metadata or compression mode");
    if ((bits + 7) / 8 > got) truncated("it ends inside the zfp header");

    const zfp_type stored = zfp_field_type(field_.get());
    if (stored != type_)
        corrupt(std::string("it holds ") + type_name(stored) + " values and " + sdk::dtype_name(dtype_) +
                " was asked for; read it with dtype " + type_name(stored));
    const array_shape shape = shape_of(field_.get());
    const std::uint64_t held = shape.count();
    const std::string holds = "holds " + std::to_string(held) + " values (" +
                              (shape.rank == 1 ? std::string("1-D") : shape.text()) + ")";
    if (count_ == FB_COUNT_UNKNOWN) {
        if (held / 32 > file_bytes_)
            corrupt(holds + " by its header, more than a file of " + std::to_string(file_bytes_) +
                    " bytes can (at most 32 per byte)");
        count_ = held;
    } else if (held < count_) {
        throw sdk::error(FB_E_TRUNCATED, "zfp: '" + file_.path() + "' " + holds + ", " +
                                             std::to_string(count_) + " were asked for");
    } else if (held > count_) {
        throw sdk::error(FB_E_CORRUPT, "zfp: '" + file_.path() + "' " + holds + ", " +
                                           std::to_string(count_) +
                                           " were asked for; the count does not match the file");
    }
    // The same count, other dimensions: a field is not read as another one.
    if (has_wanted_ && !(shape == wanted_))
        throw sdk::error(FB_E_CORRUPT, "zfp: '" + file_.path() + "' holds a zfp field of shape " +
                                           shape.row_major_text() + " (row-major, as numpy gives it), the " +
                                           "data set's shape is " + wanted_.row_major_text() +
                                           "; give the data set the file's shape, or none to read its "
                                           "values flat");
}

void zfp_reader::load_stream() {
    const array_shape shape = shape_of(field_.get());
    const std::uint64_t blocks = blocks_of(shape);
    uint minbits = 0;
    zfp_stream_params(stream_.get(), &minbits, nullptr, nullptr, nullptr);
    // A whole stream holds the short header (96 bits) and every block at
    // its minbits at least.
    const std::uint64_t least = (96 + blocks * minbits) / 8;
    if (file_bytes_ < least)
        truncated("its " + std::to_string(blocks) + " blocks of at least " + std::to_string(minbits) +
                  " bits need " + std::to_string(least) + " bytes or more, the file has " +
                  std::to_string(file_bytes_));
    const std::size_t word = stream_word_bits / 8;
    const std::uint64_t worst_bits =
        ZFP_HEADER_MAX_BITS + blocks * worst_block_bits(stream_.get(), shape.rank);
    std::uint64_t bytes = std::max<std::uint64_t>(worst_bits / 8 + 1, file_bytes_);
    bytes = (bytes + word - 1) / word * word + 2 * word;
    const std::uint64_t most_file = std::max<std::uint64_t>(buffer_bytes(stream_.get(), field_.get()), 64);
    if (file_bytes_ > most_file)
        corrupt("it is " + std::to_string(file_bytes_) + " bytes long, more than any zfp stream of " +
                std::to_string(count_) + " values in its mode (" + std::to_string(most_file) +
                " bytes): other data follows the stream");
    input_ = byte_buffer(static_cast<std::size_t>(bytes));
    const std::size_t got = file_.read_full_at(input_.data(), static_cast<std::size_t>(file_bytes_), 0);
    if (got < file_bytes_) truncated("it became shorter while it was read");
    std::memset(input_.data() + got, 0, input_.size() - got);
    file_.reset();
}

void zfp_reader::read(void* data, std::uint64_t count) {
    failure_.rethrow();
    failure_.run([&] { read_unguarded(static_cast<unsigned char*>(data), count); }, "zfp: ", "reading",
                 file_.path());
}

void zfp_reader::read_unguarded(unsigned char* out, std::uint64_t count) {
    if (count == 0) return;
    if (count > count_ - delivered_)
        throw sdk::error(FB_E_TRUNCATED, "zfp: '" + file_.path() + "' holds " + std::to_string(count_) +
                                             " values; reading " + std::to_string(count) + " after " +
                                             std::to_string(delivered_) + " goes past them");
    if (!decoded_ && delivered_ == 0 && count == count_) {
        decompress_into(out);
        decoded_ = true;
        delivered_ = count;
        input_ = byte_buffer();
        return;
    }
    if (!decoded_) {
        values_ = byte_buffer(static_cast<std::size_t>(count_ * element_size_));
        decompress_into(values_.data());
        decoded_ = true;
        input_ = byte_buffer();
    }
    std::memcpy(out, values_.data() + delivered_ * element_size_, count * element_size_);
    delivered_ += count;
}

void zfp_reader::decompress_into(void* out) {
    zfp_field_set_pointer(field_.get(), out);
    bitstream_ptr bs = make_bitstream(input_.data(), input_.size());
    zfp_stream_set_bit_stream(stream_.get(), bs.get());
    zfp_stream_rewind(stream_.get());
    // The header again, so the blocks start where they do in the file.
    zfp_field_ptr again(zfp_field_alloc());
    if (!again) throw std::bad_alloc();
    if (zfp_read_header(stream_.get(), again.get(), ZFP_HEADER_FULL) == 0)
        corrupt("its zfp header changed while it was read");
    const std::size_t used = zfp_decompress(stream_.get(), field_.get());
    zfp_stream_set_bit_stream(stream_.get(), nullptr);
    if (used == 0) corrupt("zfp_decompress refused the stream");
    if (used > file_bytes_)
        truncated("the zfp stream needs " + std::to_string(used) + " bytes to decode its " +
                  std::to_string(count_) + " values, the file has " + std::to_string(file_bytes_));
    if (used < file_bytes_)
        corrupt(std::to_string(file_bytes_ - used) + " bytes follow the end of the zfp stream at byte " +
                std::to_string(used) + "; this plugin reads a file of one stream");
}

void zfp_reader::close() {
    file_.reset();
    input_ = byte_buffer();
    values_ = byte_buffer();
}

void zfp_reader::corrupt(const std::string& what) const {
    throw sdk::error(FB_E_CORRUPT,
                     "zfp: '" + file_.path() + "' is not a zfp stream this plugin can read (" + what + ")");
}

void zfp_reader::truncated(const std::string& what) const {
    throw sdk::error(FB_E_TRUNCATED, "zfp: '" + file_.path() + "' is truncated: " + what);
}

} // namespace formatbench::detail
