// The zfp plugin's write stream; see zfp_writer.hpp.
#include "zfp_writer.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace formatbench::detail {

zfp_writer::zfp_writer(const sdk::open_request& request)
    : settings_(parse_settings(request.options, request.dtype, request.path)),
      type_(zfp_type_of(request.dtype)), element_size_(request.element_size()), announced_(request.count),
      metrics_(request.metrics()) {
    if (announced_ != FB_COUNT_UNKNOWN && announced_ > max_linear_count)
        throw sdk::error(FB_E_UNSUPPORTED, "zfp: " + std::to_string(announced_) +
                                               " values do not fit a zfp header (at most 2^48 in 1-D); '" +
                                               request.path + "' was not written");
    if (!request.shape.empty()) {
        // Everything about the shape is checked before the file exists.
        shape_ = array_shape::of_data_set(request.shape, 0, request.path);
        has_shape_ = true;
        if (announced_ != FB_COUNT_UNKNOWN && shape_.count() != announced_)
            throw sdk::error(FB_E_STATE, "zfp: the shape " + shape_.row_major_text() + " holds " +
                                             std::to_string(shape_.count()) + " values, " +
                                             std::to_string(announced_) + " were announced for '" +
                                             request.path + "'");
        if (!header_holds(type_, shape_))
            throw sdk::error(FB_E_UNSUPPORTED,
                             "zfp: the shape " + shape_.row_major_text() +
                                 " does not fit a zfp header (48 bits of extents: each axis below 2^24 in "
                                 "2-D, 2^16 in 3-D, 2^12 in 4-D); '" +
                                 request.path + "' was not written: give the data set fewer axes");
    }
    file_ = sdk::file::create(request.path, zfp_wording);
}

template <class Fn>
void zfp_writer::guarded(Fn&& fn) {
    if (closed_) throw sdk::error(FB_E_STATE, "zfp: '" + file_.path() + "' is already closed");
    failure_.rethrow();
    failure_.run(std::forward<Fn>(fn), "zfp: ", "writing", file_.path());
}

void zfp_writer::write(const void* data, std::uint64_t count) {
    guarded([&] { write_unguarded(static_cast<const unsigned char*>(data), count); });
}

void zfp_writer::write_unguarded(const unsigned char* p, std::uint64_t count) {
    if (count == 0) return;
    if (compressed_done_ || (announced_ != FB_COUNT_UNKNOWN && count > announced_ - received_))
        throw sdk::error(FB_E_STATE, "zfp: writing '" + file_.path() + "': more values than the " +
                                         std::to_string(announced_) +
                                         " announced at open (the zfp header holds that count)");
    if (received_ == 0 && count == announced_) {
        // The whole array in one call: compressed from the caller's memory.
        received_ = count;
        compress_and_write(p, count);
        return;
    }
    gather(p, count);
}

void zfp_writer::gather(const unsigned char* p, std::uint64_t count) {
    const std::uint64_t total = received_ + count;
    if (total > max_linear_count)
        throw sdk::error(FB_E_UNSUPPORTED, "zfp: writing '" + file_.path() +
                                               "': more than 2^48 values do not fit a zfp header (1-D)");
    const std::size_t need = static_cast<std::size_t>(total * element_size_);
    if (staging_.size() < need) {
        std::size_t size = announced_ != FB_COUNT_UNKNOWN
                               ? static_cast<std::size_t>(announced_ * element_size_)
                               : std::max(need, staging_.size() * 2);
        byte_buffer bigger(size);
        if (received_) std::memcpy(bigger.data(), staging_.data(), received_ * element_size_);
        staging_ = std::move(bigger);
    }
    std::memcpy(staging_.data() + received_ * element_size_, p, count * element_size_);
    received_ = total;
}

void zfp_writer::compress_and_write(const void* data, std::uint64_t count) {
    if (has_shape_ && count != shape_.count())
        throw sdk::error(FB_E_STATE, "zfp: '" + file_.path() + "' got " + std::to_string(count) +
                                         " values, its shape " + shape_.row_major_text() + " holds " +
                                         std::to_string(shape_.count()));
    const array_shape shape = has_shape_ ? shape_ : array_shape::linear(count);
    const std::size_t bytes = compress_array(data, type_, shape, settings_, compressed_, file_.path());
    file_.write_all(compressed_.data(), bytes);
    compressed_done_ = true;
    metrics_("compressed_bytes", static_cast<double>(bytes));
    compressed_ = byte_buffer(); // not kept until close
}

void zfp_writer::close() {
    if (closed_) return;
    if (failure_.failed()) {
        closed_ = true;
        file_.reset();
        throw sdk::error(failure_.status(), failure_.message() + " (the file is incomplete)");
    }
    guarded([&] {
        if (announced_ != FB_COUNT_UNKNOWN && received_ != announced_)
            throw sdk::error(FB_E_STATE, "zfp: closing '" + file_.path() + "' after " +
                                             std::to_string(received_) + " of the " +
                                             std::to_string(announced_) +
                                             " values announced at open (the zfp header holds that count)");
        if (!compressed_done_ && received_ > 0) {
            compress_and_write(staging_.data(), received_);
            staging_ = byte_buffer();
        }
        file_.close();
    });
    closed_ = true;
}

} // namespace formatbench::detail
