// What the hdf5 plugin's writer and reader share about the HDF5 C library:
// an owner for HDF5 identifiers (every id closed on every path), silencing
// HDF5's own error printing, turning HDF5's error stack into the plugin's
// status and message, serialising calls when the library is not
// thread-safe, the dataspaces of one read or write call, and the HDF5
// types of each dtype.
#pragma once

#include "array_shape.hpp"

#include <formatbench/plugin.hpp>

#include <hdf5.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

// The plugin whose messages these helpers write: hdf5, or hdf5_mpio,
// which compiles them again against the parallel HDF5.
#ifndef FB_HDF5_PLUGIN_ID
#define FB_HDF5_PLUGIN_ID "hdf5"
#endif

namespace formatbench::hdf5 {

namespace sdk = formatbench::sdk;

// Owns one HDF5 identifier and closes it with the call that matches its
// kind (H5Fclose, H5Dclose, H5Sclose, H5Pclose, H5Tclose). Movable.
class h5_id {
public:
    using closer = herr_t (*)(hid_t);
    h5_id() noexcept = default;
    h5_id(hid_t id, closer close) noexcept : id_(id), close_(close) {}
    h5_id(h5_id&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
    h5_id& operator=(h5_id&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, H5I_INVALID_HID);
            close_ = o.close_;
        }
        return *this;
    }
    h5_id(const h5_id&) = delete;
    h5_id& operator=(const h5_id&) = delete;
    ~h5_id() { reset(); }

    hid_t get() const noexcept { return id_; }
    bool valid() const noexcept { return id_ >= 0; }
    // Closes, ignoring what HDF5 says (error paths and readers).
    void reset() noexcept;
    // Closes and returns whether HDF5 reported success (a writer's last
    // flush). Nothing to close counts as success.
    bool close() noexcept;

private:
    hid_t id_ = H5I_INVALID_HID;
    closer close_ = nullptr;
};

// A property list's id, or H5P_DEFAULT when none was made.
inline hid_t or_default(const h5_id& list) noexcept {
    return list.valid() ? list.get() : H5P_DEFAULT;
}

// Takes id, or throws: a negative id means HDF5 failed and left the reason
// on its error stack. status, what and path go to fail().
h5_id own(hid_t id, h5_id::closer close, fb_status status, const std::string& what, const std::string& path);

// The dataspaces of one H5Dwrite or H5Dread of `count` elements at flat
// (row-major) element `start` of a dataset whose dataspace is `file_space`,
// of the extents `dims` (its rank): H5S_ALL for both when the call covers
// the whole dataset (`whole`: the call a bare program makes), else a
// selection of file_space and a 1-D memory dataspace of count elements,
// kept while the count repeats. The selection is one hyperslab for a 1-D
// dataset, and for an N-D one the union (H5S_SELECT_OR) of the boxes of
// array_shape::flat_range_boxes, at most 2 * rank - 1: HDF5 transfers a
// union in the file's row-major order, which is the flat order of the
// range. `action` and the path name a failure ("cannot write to").
class block_spaces {
public:
    struct selected {
        hid_t memory, file;
    };
    selected select(const h5_id& file_space, const std::vector<hsize_t>& dims, hsize_t start, hsize_t count,
                    bool whole, const std::string& action, const std::string& path);
    // A box of an N-D dataset (start and count per axis of dims): a
    // hyperslab of file_space and a memory dataspace of the box's extents,
    // kept while the extents repeat. count has no 0.
    selected select_box(const h5_id& file_space, const std::uint64_t* start, const std::uint64_t* count,
                        std::size_t rank, const std::string& path);
    void reset() noexcept {
        memory_space_.reset();
        memory_count_ = 0;
        box_space_.reset();
        box_count_.clear();
    }

private:
    h5_id memory_space_;
    hsize_t memory_count_ = 0; // the extent of memory_space_
    h5_id box_space_;
    std::vector<hsize_t> box_count_;     // the extents of box_space_
    std::vector<hsize_t> start_, count_; // scratch of select_box
};

// Slots of a chunk cache's hash table for `chunks` chunks: a prime at least
// ten times the number of chunks it holds (HDF5's guide; 521, HDF5's
// default, at least).
std::size_t cache_slots(std::uint64_t chunks);

// Every call into the plugin holds one of these for its duration. It turns
// off HDF5's automatic printing of errors for the calling thread (the error
// stack and its printing are per thread in a thread-safe HDF5) and puts back
// what was there when the call ends, so the plugin never prints and never
// changes the setting for other users of HDF5 in the process. When this
// HDF5 was built without thread safety, it also holds a plugin-wide lock,
// because the library then has unprotected global state.
class library_call {
public:
    library_call();
    ~library_call();
    library_call(const library_call&) = delete;
    library_call& operator=(const library_call&) = delete;

private:
    std::unique_lock<std::mutex> lock_;
    H5E_auto2_t saved_function_ = nullptr;
    void* saved_data_ = nullptr;
};

// Throws sdk::error "hdf5: <what> '<path>': <reason>[; <hint>]" built from
// HDF5's error stack of this thread, which it clears. The status is
// `status`, except FB_E_TRUNCATED when HDF5 found the file truncated and
// FB_E_IO when an operating-system call failed (the stack then names the
// errno, reported with strerror).
[[noreturn]] void fail(fb_status status, const std::string& what, const std::string& path,
                       const std::string& hint = "");

// The HDF5 error stack of this thread as one line, cleared; "" when empty.
std::string take_error_stack();

// The type a dataset of dtype d is stored with: little-endian IEEE or
// standard integer types (H5T_IEEE_F64LE, H5T_STD_I32LE, H5T_STD_U8LE, ...).
hid_t file_type(fb_dtype d);
// The native type of d in memory (H5T_NATIVE_DOUBLE, ...).
hid_t memory_type(fb_dtype d);
// Whether a dataset's type holds d's values exactly: the same class, size
// and sign, IEEE or two's complement layout, in either byte order.
bool type_holds(hid_t type, fb_dtype d);
// "64-bit IEEE float (f64)", "32-bit signed integer, big-endian", "string",
// ... for messages.
std::string describe_type(hid_t type);
std::string describe_dtype(fb_dtype d);

} // namespace formatbench::hdf5
