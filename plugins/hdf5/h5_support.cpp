// HDF5 library plumbing of the hdf5 plugin: ids, quiet errors, error stack
// to message, locking, types (see h5_support.hpp).
#include "h5_support.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace formatbench::hdf5 {
namespace {

#ifndef H5_HAVE_THREADSAFE
// Only a library without thread safety needs it (see library_call).
std::mutex library_mutex;
#endif

struct frame {
    std::string desc;
    hid_t minor = H5I_INVALID_HID;
};

herr_t collect(unsigned, const H5E_error2_t* e, void* out) {
    static_cast<std::vector<frame>*>(out)->push_back({e->desc ? e->desc : "", e->min_num});
    return 0;
}

// A frame's description without HDF5's clutter: it cuts at a newline or a
// "time = ..." stamp (H5F_open puts ctime() there) and trims ": , ".
std::string clean(std::string d) {
    std::size_t cut = std::min(d.find('\n'), d.find("time = "));
    if (cut != std::string::npos) d.resize(cut);
    while (!d.empty() && (d.back() == ' ' || d.back() == ':' || d.back() == ','))
        d.pop_back();
    return d;
}

struct stack_report {
    std::string text;
    bool truncated = false;
    int os_errno = 0;
};

stack_report take_report() {
    stack_report r;
    // A copy, and the thread's stack cleared: the calls made while reading
    // it (H5Eget_msg and others clear the current stack) cannot disturb it.
    hid_t copy = H5Eget_current_stack();
    if (copy < 0) return r;
    std::vector<frame> frames;
    H5Ewalk2(copy, H5E_WALK_DOWNWARD, collect, &frames);
    H5Eclose_stack(copy);
    if (frames.empty()) return r;
    for (const auto& f : frames) {
        if (f.minor == H5E_TRUNCATED) r.truncated = true;
        // The sec2 driver's I/O failures: "..., errno = 28, error message = '...'".
        std::size_t at = f.desc.find("errno = ");
        if (at != std::string::npos && r.os_errno == 0) r.os_errno = std::atoi(f.desc.c_str() + at + 8);
    }
    std::string outer = clean(frames.front().desc), inner = clean(frames.back().desc);
    if (inner == "file signature not found") inner += " (not an HDF5 file)";
    r.text = outer;
    if (r.os_errno != 0)
        r.text += ": " + std::string(std::strerror(r.os_errno));
    else if (inner != outer && !inner.empty())
        r.text += ": " + inner;
    return r;
}

} // namespace

void h5_id::reset() noexcept {
    if (id_ >= 0 && close_) close_(id_);
    id_ = H5I_INVALID_HID;
}

bool h5_id::close() noexcept {
    if (id_ < 0 || !close_) return true;
    herr_t st = close_(std::exchange(id_, H5I_INVALID_HID));
    return st >= 0;
}

h5_id own(hid_t id, h5_id::closer close, fb_status status, const std::string& what, const std::string& path) {
    if (id < 0) fail(status, what, path);
    return h5_id(id, close);
}

library_call::library_call() {
#ifndef H5_HAVE_THREADSAFE
    lock_ = std::unique_lock<std::mutex>(library_mutex);
#endif
    H5Eget_auto2(H5E_DEFAULT, &saved_function_, &saved_data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

library_call::~library_call() {
    H5Eset_auto2(H5E_DEFAULT, saved_function_, saved_data_);
}

std::string take_error_stack() {
    return take_report().text;
}

void fail(fb_status status, const std::string& what, const std::string& path, const std::string& hint) {
    stack_report r = take_report();
    if (r.truncated) status = FB_E_TRUNCATED;
    if (r.os_errno != 0) status = FB_E_IO;
    std::string message = FB_HDF5_PLUGIN_ID ": " + what + " '" + path + "'";
    if (!r.text.empty()) message += ": " + r.text;
    if (r.os_errno == ENOSPC || r.os_errno == EDQUOT)
        message += " (free space there or choose another directory)";
    if (!hint.empty()) message += "; " + hint;
    throw sdk::error(status, message);
}

hid_t file_type(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return H5T_IEEE_F64LE;
    case FB_DTYPE_F32: return H5T_IEEE_F32LE;
    case FB_DTYPE_I64: return H5T_STD_I64LE;
    case FB_DTYPE_I32: return H5T_STD_I32LE;
    case FB_DTYPE_U8: return H5T_STD_U8LE;
    }
    return H5I_INVALID_HID;
}

hid_t memory_type(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return H5T_NATIVE_DOUBLE;
    case FB_DTYPE_F32: return H5T_NATIVE_FLOAT;
    case FB_DTYPE_I64: return H5T_NATIVE_INT64;
    case FB_DTYPE_I32: return H5T_NATIVE_INT32;
    case FB_DTYPE_U8: return H5T_NATIVE_UINT8;
    }
    return H5I_INVALID_HID;
}

bool type_holds(hid_t type, fb_dtype d) {
    auto either = [type](hid_t le, hid_t be) { return H5Tequal(type, le) > 0 || H5Tequal(type, be) > 0; };
    switch (d) {
    case FB_DTYPE_F64: return either(H5T_IEEE_F64LE, H5T_IEEE_F64BE);
    case FB_DTYPE_F32: return either(H5T_IEEE_F32LE, H5T_IEEE_F32BE);
    case FB_DTYPE_I64: return either(H5T_STD_I64LE, H5T_STD_I64BE);
    case FB_DTYPE_I32: return either(H5T_STD_I32LE, H5T_STD_I32BE);
    case FB_DTYPE_U8: return either(H5T_STD_U8LE, H5T_STD_U8BE);
    }
    return false;
}

std::string describe_type(hid_t type) {
    std::string bits = std::to_string(H5Tget_size(type) * 8) + "-bit ";
    std::string order = H5Tget_order(type) == H5T_ORDER_BE ? ", big-endian" : "";
    switch (H5Tget_class(type)) {
    case H5T_INTEGER:
        return bits + (H5Tget_sign(type) == H5T_SGN_NONE ? "unsigned" : "signed") + " integer" + order;
    case H5T_FLOAT: return bits + "float" + order;
    case H5T_STRING: return "strings";
    case H5T_COMPOUND: return "a compound type (records)";
    case H5T_ENUM: return "an enum type (h5py stores bool so)";
    case H5T_ARRAY: return "an array type";
    case H5T_VLEN: return "a variable-length type";
    case H5T_OPAQUE: return "an opaque type";
    case H5T_BITFIELD: return "a bitfield type";
    case H5T_REFERENCE: return "references";
    case H5T_TIME: return "a time type";
    default: return "a type HDF5 cannot describe";
    }
}

std::string describe_dtype(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f64 (64-bit IEEE float)";
    case FB_DTYPE_F32: return "f32 (32-bit IEEE float)";
    case FB_DTYPE_I64: return "i64 (64-bit signed integer)";
    case FB_DTYPE_I32: return "i32 (32-bit signed integer)";
    case FB_DTYPE_U8: return "u8 (8-bit unsigned integer)";
    }
    return "?";
}

block_spaces::selected block_spaces::select(const h5_id& file_space, const std::vector<hsize_t>& dims,
                                            hsize_t start, hsize_t count, bool whole,
                                            const std::string& action, const std::string& path) {
    if (whole) return {H5S_ALL, H5S_ALL};
    hsize_t n = count;
    if (dims.size() <= 1) {
        if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &n, nullptr) < 0)
            fail(FB_E_INTERNAL, "cannot select elements in", path);
    } else {
        const array_shape::extents shape(dims.begin(), dims.end());
        const std::vector<array_shape::box> boxes = array_shape::flat_range_boxes(shape, start, count);
        bool first = true;
        for (const auto& b : boxes) {
            const std::vector<hsize_t> at(b.start.begin(), b.start.end()),
                size(b.count.begin(), b.count.end());
            if (H5Sselect_hyperslab(file_space.get(), first ? H5S_SELECT_SET : H5S_SELECT_OR, at.data(),
                                    nullptr, size.data(), nullptr) < 0)
                fail(FB_E_INTERNAL, "cannot select elements in", path);
            first = false;
        }
    }
    if (n != memory_count_) {
        memory_space_ = own(H5Screate_simple(1, &n, nullptr), H5Sclose, FB_E_INTERNAL, action, path);
        memory_count_ = n;
    }
    return {memory_space_.get(), file_space.get()};
}

block_spaces::selected block_spaces::select_box(const h5_id& file_space, const std::uint64_t* start,
                                                const std::uint64_t* count, std::size_t rank,
                                                const std::string& path) {
    start_.assign(start, start + rank);
    count_.assign(count, count + rank);
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start_.data(), nullptr, count_.data(),
                            nullptr) < 0)
        fail(FB_E_INTERNAL, "cannot select a box in", path);
    if (count_ != box_count_) {
        box_space_ = own(H5Screate_simple(static_cast<int>(rank), count_.data(), nullptr), H5Sclose,
                         FB_E_INTERNAL, "cannot read from", path);
        box_count_ = count_;
    }
    return {box_space_.get(), file_space.get()};
}

std::size_t cache_slots(std::uint64_t chunks) {
    std::uint64_t n = std::max<std::uint64_t>(521, std::min<std::uint64_t>(chunks, 1u << 24) * 10);
    auto prime = [](std::uint64_t x) {
        for (std::uint64_t d = 2; d * d <= x; ++d)
            if (x % d == 0) return false;
        return true;
    };
    while (!prime(n))
        ++n;
    return static_cast<std::size_t>(n);
}

} // namespace formatbench::hdf5
