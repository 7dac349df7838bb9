// hdf5_mpio: parallel HDF5, the way HPC codes write one HDF5 file from many
// ranks: the file opened through HDF5's MPI-IO driver (H5Pset_fapl_mpio) on
// the communicator the host hands the plugin through formatbench.mpi/1
// (every rank's for `layout: shared_file`, MPI_COMM_SELF for
// `file_per_rank`), one 1-D contiguous dataset of all the elements (the
// hdf5 plugin's file of the same values: /data, little-endian IEEE or
// standard integer type), each rank writing and reading its part as a
// hyperslab, with H5FD_MPIO_INDEPENDENT or H5FD_MPIO_COLLECTIVE transfers
// (H5Pset_dxpl_mpio; option `transfer`).
//
// Built against Debian's parallel HDF5 (libhdf5-openmpi-dev) beside the
// serial one the hdf5 plugin uses: each plugin links its own library
// (libhdf5_openmpi.so, libhdf5_serial.so), so both load in one process.
// The helpers of plugins/hdf5/h5_support.hpp are compiled again against
// the parallel headers.
//
// HDF5's file and dataset creation, opening and closing are collective;
// collective transfers must match across the ranks, so a collective stream
// moves its part in pieces and makes up the largest piece count at close
// with transfers that select nothing. A failing open on any rank fails it
// on all (MPI_Allreduce after the dataset's creation or opening). That
// skeleton is plugins/common/mpi_stream.hpp, shared with mpiio and
// pnetcdf. HDF5's MPI-IO driver fails a write that moved fewer bytes than
// asked ("file write failed"); the message then adds the free space when
// the disk is full. The dataset is written with fill time
// "never": every element is written, and parallel HDF5 would otherwise
// write the whole dataset's fill values at creation (early allocation).
#define OMPI_SKIP_MPICXX 1 // the C API only
#include <mpi.h>

#include "../hdf5/h5_support.hpp"
#include "common/mpi_stream.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/plugin_mpi.h>

#include <unistd.h>

#include <algorithm>
#include <string>

namespace {

namespace sdk = formatbench::sdk;
using formatbench::hdf5::fail;
using formatbench::hdf5::h5_id;
using formatbench::hdf5::library_call;
using formatbench::hdf5::or_default;
using formatbench::hdf5::own;
using sdk::error;

// The most bytes one transfer moves: MPI-IO's counts under HDF5 are ints.
constexpr std::uint64_t max_call_bytes = 1ull << 30;

// What a writer and a reader share: the file, the dataset, the transfer
// property list and the part, in elements (plugins/common/mpi_stream.hpp
// moves it).
class stream : protected formatbench::plugin_common::mpi_part_stream {
protected:
    stream(const sdk::open_request& r, bool writing)
        : mpi_part_stream("hdf5_mpio", r), dtype_(r.dtype), size_(r.element_size()),
          dataset_name_(r.options.get_string("dataset")) {
        if (r.count == FB_COUNT_UNKNOWN)
            throw error(FB_E_STATE, "hdf5_mpio: open of '" + path_ + "' without an element count");
        if (!r.shape.empty())
            throw error(FB_E_UNSUPPORTED, "hdf5_mpio: '" + path_ +
                                              "': a data set with a shape is not supported (1-D datasets "
                                              "only); use the hdf5 plugin, or no shape");
        first_ = r.part ? r.part->offset : 0;
        count_ = r.count;
        total_ = r.part ? r.part->total : r.count;
        set_part(count_, std::max<std::uint64_t>(r.options.get_size("piece_size") / size_, 1), size_,
                 std::max<std::uint64_t>(max_call_bytes / size_, 1), "elements");

        library_call call;
        formatbench::plugin_common::rank_failure failed;
        failed.run([&] { open(writing); }, "hdf5_mpio", path_);
        agree_open(failed, [&] { release(); });
    }

    ~stream() = default;

    // Moves n elements at element `at` of the part between the dataset
    // and p, as one transfer of this stream's kind (H5Dwrite or H5Dread).
    // A failed write says when the disk is full.
    void transfer(bool writing, std::uint64_t at, const void* p, std::uint64_t n) {
        const hsize_t start = first_ + at;
        const bool whole = start == 0 && n == total_;
        const auto [memory, file] = spaces_.select(file_space_, dims_, start, n, whole,
                                                   writing ? "cannot write to" : "cannot read", path_);
        const herr_t rc = writing ? H5Dwrite(dataset_.get(), formatbench::hdf5::memory_type(dtype_), memory,
                                             file, dxpl_.get(), p)
                                  : H5Dread(dataset_.get(), formatbench::hdf5::memory_type(dtype_), memory,
                                            file, dxpl_.get(), const_cast<void*>(p));
        if (rc >= 0) return;
        if (!writing) fail(FB_E_IO, "cannot read", path_);
        write_failed_ = true;
        throw error(FB_E_IO, stack_message("cannot write to", n * size_));
    }

    // The writer's (and reader's) close: the collective transfers this rank
    // has fewer of (selecting nothing), then the dataset and the file.
    void close_stream(bool writing) {
        finish(
            writing,
            [&](std::uint64_t at, const void* p, std::uint64_t n, bool) { transfer(true, at, p, n); },
            [&]() -> std::string {
                if (!nothing_.valid()) {
                    const hsize_t one = 1;
                    nothing_ = own(H5Screate_simple(1, &one, nullptr), H5Sclose, FB_E_INTERNAL,
                                   "cannot set up", path_);
                    if (H5Sselect_none(nothing_.get()) < 0) fail(FB_E_INTERNAL, "cannot set up", path_);
                }
                if (H5Sselect_none(file_space_.get()) < 0)
                    return "hdf5_mpio: cannot select on '" + path_ + "'";
                unsigned char none[16] = {};
                const herr_t rc = writing ? H5Dwrite(dataset_.get(), formatbench::hdf5::memory_type(dtype_),
                                                     nothing_.get(), file_space_.get(), dxpl_.get(), none)
                                          : H5Dread(dataset_.get(), formatbench::hdf5::memory_type(dtype_),
                                                    nothing_.get(), file_space_.get(), dxpl_.get(), none);
                return rc >= 0 ? std::string() : stack_message("collective transfer of nothing on", 0);
            },
            [&] {
                // Closing the dataset and the file writes the metadata (collective).
                if (writing) free_space_of_failed_file();
                spaces_.reset();
                nothing_.reset();
                file_space_.reset();
                dxpl_.reset();
                std::string problem;
                if (!dataset_.close())
                    problem = stack_message("cannot finish the dataset in", writing ? 1 : 0);
                if (!file_.close() && problem.empty())
                    problem = stack_message("cannot finish", writing ? 1 : 0);
                return problem;
            });
    }

    // A write that failed on any rank leaves the file incomplete and fails
    // the case. On a full disk HDF5 1.10 then cannot write the metadata at
    // close either, and a failed H5Fclose leaves a half-closed file that
    // crashes MPI_Finalize (H5F__close_cb, from HDF5's clean-up at
    // finalize). So the ranks agree (MPI_Allreduce) whether a write failed,
    // and if one did rank 0 empties the file first, freeing the space the
    // close needs; the file is not kept.
    void free_space_of_failed_file() {
        int failed = write_failed_ ? 1 : 0;
        MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm_);
        if (!failed) return;
        int rank = 0;
        MPI_Comm_rank(comm_, &rank);
        if (rank == 0) (void)::truncate(path_.c_str(), 0);
        MPI_Barrier(comm_);
    }

    // HDF5's error stack as a message; with `written` bytes that did not
    // land, the note of a full disk when the file system has fewer free.
    std::string stack_message(const std::string& what, std::uint64_t written) {
        std::string message;
        try {
            fail(FB_E_IO, what, path_);
        } catch (const error& e) {
            message = e.what();
        }
        if (written > 0)
            if (std::string note = formatbench::plugin_common::disk_full_note(path_, written); !note.empty())
                message += "; " + note;
        return message;
    }

    // Closes what is open, ignoring HDF5's word (an undone open).
    void release() noexcept {
        spaces_.reset();
        nothing_.reset();
        file_space_.reset();
        dxpl_.reset();
        dataset_.reset();
        file_.reset();
    }

    fb_dtype dtype_;
    std::size_t size_;
    std::string dataset_name_;
    std::uint64_t first_ = 0, count_ = 0, total_ = 0; // the part's first element and count; the dataset's
    bool write_failed_ = false;                       // an H5Dwrite of this rank failed
    std::vector<hsize_t> dims_;
    h5_id file_, dataset_, file_space_, dxpl_, nothing_;
    formatbench::hdf5::block_spaces spaces_;

private:
    void open(bool writing) {
        h5_id fapl = own(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
        if (H5Pset_fapl_mpio(fapl.get(), comm_, MPI_INFO_NULL) < 0)
            fail(FB_E_INTERNAL, "cannot set up the MPI-IO driver for", path_);
        dxpl_ = own(H5Pcreate(H5P_DATASET_XFER), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
        if (H5Pset_dxpl_mpio(dxpl_.get(), collective_ ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT) < 0)
            fail(FB_E_INTERNAL, "cannot set up the transfers of", path_);
        if (writing) {
            file_ = own(H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose, FB_E_IO,
                        "cannot create", path_);
            dims_ = {total_};
            file_space_ = own(H5Screate_simple(1, dims_.data(), nullptr), H5Sclose, FB_E_INTERNAL,
                              "cannot set up", path_);
            h5_id dcpl = own(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
            // No modification times in the object header: the same values
            // make the same file, whenever and however (independent or
            // collective) they were written.
            if (H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER) < 0 ||
                H5Pset_obj_track_times(dcpl.get(), 0) < 0)
                fail(FB_E_INTERNAL, "cannot set up", path_);
            h5_id lcpl;
            if (dataset_name_.find('/', dataset_name_.find_first_not_of('/')) != std::string::npos) {
                lcpl = own(H5Pcreate(H5P_LINK_CREATE), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
                if (H5Pset_create_intermediate_group(lcpl.get(), 1) < 0)
                    fail(FB_E_INTERNAL, "cannot set up", path_);
            }
            dataset_ =
                own(H5Dcreate2(file_.get(), dataset_name_.c_str(), formatbench::hdf5::file_type(dtype_),
                               file_space_.get(), or_default(lcpl), dcpl.get(), H5P_DEFAULT),
                    H5Dclose, FB_E_IO, "cannot create the dataset '" + dataset_name_ + "' in", path_);
            return;
        }
        file_ =
            own(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose, FB_E_IO, "cannot open", path_);
        const hid_t opened = H5Dopen2(file_.get(), dataset_name_.c_str(), H5P_DEFAULT);
        if (opened < 0)
            fail(FB_E_CORRUPT, "no dataset '" + dataset_name_ + "' in", path_,
                 "give the dataset's path as the option `dataset`");
        dataset_ = h5_id(opened, H5Dclose);
        h5_id type = own(H5Dget_type(dataset_.get()), H5Tclose, FB_E_INTERNAL, "cannot read", path_);
        if (!formatbench::hdf5::type_holds(type.get(), dtype_))
            throw error(FB_E_CORRUPT, "hdf5_mpio: the dataset '" + dataset_name_ + "' of '" + path_ +
                                          "' holds " + formatbench::hdf5::describe_type(type.get()) +
                                          ", not " + formatbench::hdf5::describe_dtype(dtype_));
        file_space_ = own(H5Dget_space(dataset_.get()), H5Sclose, FB_E_INTERNAL, "cannot read", path_);
        const int rank = H5Sget_simple_extent_ndims(file_space_.get());
        hsize_t have = 0;
        if (rank != 1 || H5Sget_simple_extent_dims(file_space_.get(), &have, nullptr) != 1)
            throw error(FB_E_CORRUPT, "hdf5_mpio: the dataset '" + dataset_name_ + "' of '" + path_ +
                                          "' has " + std::to_string(rank) +
                                          " dimensions; this plugin reads 1-D datasets (the hdf5 "
                                          "plugin reads N-D ones)");
        if (have < first_ + count_)
            throw error(FB_E_TRUNCATED, "hdf5_mpio: the dataset '" + dataset_name_ + "' of '" + path_ +
                                            "' holds " + std::to_string(have) + " elements, fewer than the " +
                                            std::to_string(first_ + count_) + " its elements [" +
                                            std::to_string(first_) + ", " + std::to_string(first_ + count_) +
                                            ") need");
        if (have != total_)
            throw error(FB_E_CORRUPT, "hdf5_mpio: the dataset '" + dataset_name_ + "' of '" + path_ +
                                          "' holds " + std::to_string(have) + " elements, not the " +
                                          std::to_string(total_) + " asked for");
        dims_ = {have};
    }
};

struct hdf5_mpio_format {
    static constexpr const char* transfers[] = {"independent", "collective", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("transfer", "independent", transfers,
                           "H5Pset_dxpl_mpio: H5FD_MPIO_INDEPENDENT (independent) or H5FD_MPIO_COLLECTIVE "
                           "(collective) transfers"),
        sdk::option_size("piece_size", "16MiB", 1, double(max_call_bytes),
                         "collective: bytes per collective H5Dwrite/H5Dread (whole elements); every rank "
                         "makes as many (selecting nothing past its part)"),
        sdk::option_string("dataset", "data",
                           "the dataset's path in the file (groups on the way are created)"),
    };

    static constexpr bool parts = true;
    static constexpr const char* mpi_implementation = FB_MPI_IMPLEMENTATION;

    static sdk::plugin_info info() {
        return {"hdf5_mpio",
                "1.0.0",
                "parallel HDF5: one 1-D contiguous dataset through the MPI-IO driver (H5Pset_fapl_mpio), "
                "independent or collective transfers on the ranks' communicator",
                "MIT",
                "h5",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_NEEDS_COUNT};
    }

    class writer : public stream {
    public:
        explicit writer(const sdk::open_request& r) : stream(r, true) {}
        ~writer() {
            try {
                close();
            } catch (...) {
            }
        }

        void write(const void* data, std::uint64_t count) {
            library_call call;
            write_units(data, count, [&](std::uint64_t at, const void* p, std::uint64_t n, bool) {
                transfer(true, at, p, n);
            });
        }

        void close() {
            library_call call;
            close_stream(true);
        }
    };

    class reader : public stream {
    public:
        explicit reader(const sdk::open_request& r) : stream(r, false) {}
        ~reader() {
            try {
                close();
            } catch (...) {
            }
        }

        void read(void* data, std::uint64_t count) {
            library_call call;
            read_units(data, count,
                       [&](std::uint64_t at, void* p, std::uint64_t n, bool) { transfer(false, at, p, n); });
        }

        void close() {
            library_call call;
            close_stream(false);
        }
    };
};

} // namespace

FORMATBENCH_PLUGIN(hdf5_mpio_format)
