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
// moves its part in pieces (plugins/common/collective_pieces.hpp) and makes
// up the largest piece count at close with transfers that select nothing.
// A failing open on any rank fails it on all (MPI_Allreduce after the
// dataset's creation or opening). The dataset is written with fill time
// "never": every element is written, and parallel HDF5 would otherwise
// write the whole dataset's fill values at creation (early allocation).
#define OMPI_SKIP_MPICXX 1 // the C API only
#include <mpi.h>

#include "../hdf5/h5_support.hpp"
#include "common/collective_pieces.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/plugin_mpi.h>

#include <algorithm>
#include <string>

namespace {

namespace sdk = formatbench::sdk;
using formatbench::hdf5::fail;
using formatbench::hdf5::h5_id;
using formatbench::hdf5::library_call;
using formatbench::hdf5::or_default;
using formatbench::hdf5::own;
using formatbench::plugin_common::collective_pieces;
using sdk::error;

// The most bytes one transfer moves: MPI-IO's counts under HDF5 are ints.
constexpr std::uint64_t max_call_bytes = 1ull << 30;

// What a writer and a reader share: the file, the dataset, the transfer
// property list and the collective pieces.
class stream {
public:
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;

protected:
    stream(const sdk::open_request& r, bool writing)
        : path_(r.path), dtype_(r.dtype), size_(r.element_size()),
          collective_(r.options.get_string("transfer") == "collective"),
          dataset_name_(r.options.get_string("dataset")),
          pieces_(r.count == FB_COUNT_UNKNOWN ? 0 : r.count,
                  std::max<std::uint64_t>(r.options.get_size("piece_size") / r.element_size(), 1),
                  r.element_size()),
          metrics_(r.metrics()) {
        int initialised = 0, finalised = 0;
        MPI_Initialized(&initialised);
        MPI_Finalized(&finalised);
        if (!initialised || finalised)
            throw error(
                FB_E_UNSUPPORTED,
                "hdf5_mpio: '" + path_ +
                    "': MPI is not initialised in this process; this plugin runs only on the ranks of "
                    "an MPI job (formatbench run under mpirun), which hand it their communicator");
        if (r.count == FB_COUNT_UNKNOWN)
            throw error(FB_E_STATE, "hdf5_mpio: open of '" + path_ + "' without an element count");
        if (!r.shape.empty())
            throw error(FB_E_UNSUPPORTED, "hdf5_mpio: '" + path_ +
                                              "': a data set with a shape is not supported (1-D datasets "
                                              "only); use the hdf5 plugin, or no shape");
        comm_ = r.mpi_comm ? *static_cast<const MPI_Comm*>(r.mpi_comm) : MPI_COMM_SELF;
        first_ = r.part ? r.part->offset : 0;
        count_ = r.count;
        total_ = r.part ? r.part->total : r.count;

        library_call call;
        std::string problem;
        fb_status status = FB_OK;
        try {
            open(writing);
        } catch (const error& e) {
            problem = e.what();
            status = e.status();
        }
        // Every rank learns whether any failed and the most pieces any has.
        long long agreed[2] = {problem.empty() ? 0 : 1,
                               collective_ ? static_cast<long long>(pieces_.count()) : 0};
        MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG_LONG, MPI_MAX, comm_);
        if (agreed[0] != 0) {
            release();
            if (problem.empty())
                throw error(FB_E_IO, "hdf5_mpio: another rank failed to open '" + path_ +
                                         "' (its error names the reason); this rank's open was undone");
            throw error(status, problem);
        }
        calls_total_ = static_cast<std::uint64_t>(agreed[1]);
        if (collective_) metrics_("collective_calls", static_cast<double>(calls_total_));
    }

    ~stream() = default;

    // Moves n elements at element `at` of the part between the dataset
    // and p, as one transfer of this stream's kind (H5Dwrite or H5Dread).
    void transfer(bool writing, std::uint64_t at, const void* p, std::uint64_t n) {
        const hsize_t start = first_ + at;
        const bool whole = start == 0 && n == total_;
        const auto [memory, file] = spaces_.select(file_space_, dims_, start, n, whole,
                                                   writing ? "cannot write to" : "cannot read", path_);
        const herr_t rc = writing ? H5Dwrite(dataset_.get(), formatbench::hdf5::memory_type(dtype_), memory,
                                             file, dxpl_.get(), p)
                                  : H5Dread(dataset_.get(), formatbench::hdf5::memory_type(dtype_), memory,
                                            file, dxpl_.get(), const_cast<void*>(p));
        if (rc < 0) fail(FB_E_IO, writing ? "cannot write to" : "cannot read", path_);
    }

    // Makes up the collective transfers this rank has fewer of (selecting
    // nothing), closes the dataset and the file; every rank makes every
    // collective call, and the first failure is thrown after them.
    void finish(bool writing, std::string problem = {}) {
        if (!file_.valid()) return;
        spaces_.reset();
        if (collective_) {
            const std::uint64_t padded = pieces_.pad_to(calls_total_, problem, [&]() -> std::string {
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
                if (rc >= 0) return {};
                try {
                    fail(FB_E_IO, "collective transfer of nothing on", path_);
                } catch (const error& e) {
                    return e.what();
                }
            });
            metrics_("padding_calls", static_cast<double>(padded));
        }
        nothing_.reset();
        file_space_.reset();
        dxpl_.reset();
        // Closing the dataset and the file writes the metadata (collective).
        if (!dataset_.close() && problem.empty()) problem = stack_message("cannot finish the dataset in");
        if (!file_.close() && problem.empty()) problem = stack_message("cannot finish");
        if (!problem.empty()) throw error(FB_E_IO, problem);
    }

    // Elements of the part not yet written or read.
    std::uint64_t left() const noexcept { return collective_ ? pieces_.left() : count_ - done_; }

    std::string stack_message(const std::string& what) {
        try {
            fail(FB_E_IO, what, path_);
        } catch (const error& e) {
            return e.what();
        }
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

    std::string path_;
    fb_dtype dtype_;
    std::size_t size_;
    bool collective_;
    std::string dataset_name_;
    collective_pieces pieces_; // of this rank's part, in elements
    sdk::metric_reporter metrics_;
    MPI_Comm comm_ = MPI_COMM_SELF;
    std::uint64_t first_ = 0, count_ = 0, total_ = 0; // the part's first element and count; the dataset's
    std::uint64_t calls_total_ = 0;                   // collective transfers every rank makes
    std::uint64_t done_ = 0;                          // independent: elements written or read
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
                library_call call;
                finish(true);
            } catch (...) {
            }
        }

        void write(const void* data, std::uint64_t count) {
            library_call call;
            if (!file_.valid()) throw error(FB_E_STATE, "hdf5_mpio: write to '" + path_ + "' after close");
            if (count > left())
                throw error(FB_E_STATE, "hdf5_mpio: write to '" + path_ + "' past the " +
                                            std::to_string(count_) + " elements of its part");
            if (collective_) {
                pieces_.write(data, count,
                              [&](std::uint64_t, std::uint64_t at, const void* p, std::uint64_t n) {
                                  transfer(true, at, p, n);
                              });
                return;
            }
            const auto* p = static_cast<const unsigned char*>(data);
            const std::uint64_t most = std::max<std::uint64_t>(max_call_bytes / size_, 1);
            while (count > 0) {
                const std::uint64_t n = std::min(count, most);
                transfer(true, done_, p, n);
                p += n * size_;
                count -= n;
                done_ += n;
            }
        }

        void close() {
            library_call call;
            if (!file_.valid()) return;
            std::string problem;
            if (collective_) {
                try {
                    pieces_.flush([&](std::uint64_t, std::uint64_t at, const void* p, std::uint64_t n) {
                        transfer(true, at, p, n);
                    });
                } catch (const error& e) {
                    problem = e.what();
                }
            }
            const std::uint64_t written = count_ - left();
            finish(true, problem);
            if (written < count_)
                throw error(FB_E_STATE, "hdf5_mpio: '" + path_ + "' was closed after " +
                                            std::to_string(written) + " of the " + std::to_string(count_) +
                                            " elements of its part; the rest of its dataset is undefined");
        }
    };

    class reader : public stream {
    public:
        explicit reader(const sdk::open_request& r) : stream(r, false) {}
        ~reader() {
            try {
                library_call call;
                finish(false);
            } catch (...) {
            }
        }

        void read(void* data, std::uint64_t count) {
            library_call call;
            if (!file_.valid()) throw error(FB_E_STATE, "hdf5_mpio: read from '" + path_ + "' after close");
            if (count > left())
                throw error(FB_E_TRUNCATED, "hdf5_mpio: read from '" + path_ + "' past the " +
                                                std::to_string(count_) + " elements of its part");
            if (collective_) {
                pieces_.read(data, count, [&](std::uint64_t, std::uint64_t at, void* p, std::uint64_t n) {
                    transfer(false, at, p, n);
                });
                return;
            }
            auto* p = static_cast<unsigned char*>(data);
            const std::uint64_t most = std::max<std::uint64_t>(max_call_bytes / size_, 1);
            while (count > 0) {
                const std::uint64_t n = std::min(count, most);
                transfer(false, done_, p, n);
                p += n * size_;
                count -= n;
                done_ += n;
            }
        }

        void close() {
            library_call call;
            finish(false);
        }
    };
};

} // namespace

FORMATBENCH_PLUGIN(hdf5_mpio_format)
