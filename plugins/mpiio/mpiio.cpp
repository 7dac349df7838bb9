// mpiio: MPI-IO, the way HPC codes write one file from many ranks. The
// file is raw's (the array's bytes, native byte order, no header), written
// with MPI_File_write_at (transfer: independent) or MPI_File_write_at_all
// (transfer: collective) on the communicator the host hands it through
// formatbench.mpi/1 (every rank's for `layout: shared_file`, MPI_COMM_SELF
// for `file_per_rank`), and read back with MPI_File_read_at(_all).
//
// Collective calls must match across the ranks of the communicator, but
// the host's calls need not (a slice one element longer under `scaling:
// strong`, the host's chunking): a collective stream cuts its part into
// pieces of `piece_size` bytes and makes one _all call per piece, whatever
// the host's chunks, and at close a rank with fewer pieces than the most
// any rank has makes up the difference with calls of count 0. Its open
// and close are collective; a failing open on any rank fails it on all
// (one MPI_Allreduce after MPI_File_open), so no rank is left waiting in a
// collective call, and the other ranks' errors carry the failing ranks'
// messages. That skeleton is plugins/common/mpi_stream.hpp, shared with
// pnetcdf and hdf5_mpio.
//
// Every write checks the bytes its status reports (MPI_Get_count) against
// the bytes asked: Open MPI's OMPIO returns MPI_SUCCESS for a write that a
// full disk cut short, which would otherwise surface only at the read as a
// truncated file. The write fails naming the file, the bytes written and
// asked, and the file system's free space.
//
// Hints (cb_nodes, cb_buffer_size, romio_cb_write, romio_cb_read,
// striping_factor, striping_unit) go to MPI_File_open in an MPI_Info; a
// hint that MPI_File_get_info then does not list, or lists with another
// value, fails the open with FB_E_UNSUPPORTED naming the hint: a study that
// asks for a hint the library does not take would measure something else
// than it says.
//
// Without the host's communicator (the descriptor's own opens and
// formatbench.part/1's, which a host of formatbench.mpi/1 does not call)
// the stream opens on MPI_COMM_SELF when MPI is initialised, and refuses
// with FB_E_UNSUPPORTED otherwise: this plugin never initialises MPI.
#define OMPI_SKIP_MPICXX 1 // the C API only
#include <mpi.h>

#include "common/mpi_hints.hpp"
#include "common/mpi_stream.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/plugin_mpi.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;
using formatbench::plugin_common::info_handle;
using formatbench::plugin_common::mpi_message;
using sdk::error;

// The most bytes one MPI call moves: its count is an int.
constexpr std::uint64_t max_call_bytes = 1ull << 30;

error mpi_error(fb_status status, const std::string& what, const std::string& path, int code) {
    return error(status, "mpiio: " + what + " '" + path + "': " + mpi_message(code));
}

// What the library did with the hints given: "" when MPI_File_get_info
// lists every one with the value given, else why the first one it did not
// take fails.
std::string hint_problem(MPI_File fh, const formatbench::plugin_common::mpi_hints& hints,
                         const std::string& path) {
    if (hints.empty()) return {};
    info_handle got;
    if (int rc = MPI_File_get_info(fh, got.out()); rc != MPI_SUCCESS)
        return "mpiio: MPI_File_get_info on '" + path + "': " + mpi_message(rc);
    return formatbench::plugin_common::mpi_hint_problem(got.get(), hints, "mpiio", path,
                                                        "MPI_File_get_info after MPI_File_open");
}

// What a writer and a reader share: the open file and the part, in bytes
// (plugins/common/mpi_stream.hpp moves it).
class stream : protected formatbench::plugin_common::mpi_part_stream {
protected:
    stream(const sdk::open_request& r, bool writing) : mpi_part_stream("mpiio", r), size_(r.element_size()) {
        const std::uint64_t offset = r.part ? r.part->offset : 0;
        const std::uint64_t total = r.part ? r.part->total : r.count;
        if (r.count == FB_COUNT_UNKNOWN)
            throw error(FB_E_STATE, "mpiio: open of '" + path_ + "' without an element count");
        base_ = byte_count(offset, size_);
        const std::uint64_t bytes = byte_count(r.count, size_);
        const std::uint64_t whole = byte_count(total, size_);
        set_part(bytes, r.options.get_size("piece_size"), 1, max_call_bytes, "bytes");
        int ranks = 1;
        MPI_Comm_size(comm_, &ranks);

        const auto hints = formatbench::plugin_common::mpi_hints_of(r.options);
        info_handle info(hints);
        formatbench::plugin_common::rank_failure failed;
        failed.run(
            [&] {
                const int mode = writing ? MPI_MODE_WRONLY | MPI_MODE_CREATE : MPI_MODE_RDONLY;
                if (int rc = MPI_File_open(comm_, path_.c_str(), mode, info.get(), &fh_); rc != MPI_SUCCESS) {
                    fh_ = MPI_FILE_NULL;
                    throw mpi_error(FB_E_IO, writing ? "cannot create" : "cannot open", path_, rc);
                }
                // Errors on this file return codes (the default for files, made sure).
                MPI_File_set_errhandler(fh_, MPI_ERRORS_RETURN);
                if (std::string why = hint_problem(fh_, hints, path_); !why.empty())
                    throw error(FB_E_UNSUPPORTED, why);
                if (!writing) {
                    MPI_Offset have = 0;
                    if (int rc = MPI_File_get_size(fh_, &have); rc != MPI_SUCCESS)
                        throw mpi_error(FB_E_IO, "cannot size", path_, rc);
                    if (static_cast<std::uint64_t>(have) < base_ + bytes)
                        throw error(FB_E_TRUNCATED, "mpiio: '" + path_ + "' holds " + std::to_string(have) +
                                                        " bytes, fewer than the " +
                                                        std::to_string(base_ + bytes) + " its elements [" +
                                                        std::to_string(offset) + ", " +
                                                        std::to_string(offset + r.count) + ") need");
                    if (!r.part && static_cast<std::uint64_t>(have) != whole)
                        throw error(FB_E_CORRUPT, "mpiio: '" + path_ + "' holds " + std::to_string(have) +
                                                      " bytes, not the " + std::to_string(whole) + " of " +
                                                      std::to_string(total) + " elements of " +
                                                      std::to_string(size_) + " bytes");
                }
                // A whole file of one rank replaces what was there (a part
                // never truncates: the other parts are being written).
                if (writing && ranks == 1 && offset == 0 && total == r.count)
                    if (int rc = MPI_File_set_size(fh_, 0); rc != MPI_SUCCESS)
                        throw mpi_error(FB_E_IO, "cannot truncate", path_, rc);
            },
            "mpiio", path_);
        agree_open(failed, [&] {
            if (fh_ != MPI_FILE_NULL) MPI_File_close(&fh_);
        });
    }

    // MPI_File_close: "" or why it failed.
    std::string close_file() {
        std::string why;
        if (int rc = MPI_File_close(&fh_); rc != MPI_SUCCESS)
            why = mpi_error(FB_E_IO, "cannot close", path_, rc).what();
        fh_ = MPI_FILE_NULL;
        return why;
    }

    std::size_t size_;
    MPI_File fh_ = MPI_FILE_NULL;
    std::uint64_t base_ = 0; // the part's first byte in the file
};

struct mpiio_format {
    static constexpr const char* transfers[] = {"independent", "collective", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("transfer", "independent", transfers,
                           "MPI_File_write_at/read_at (independent) or their _all forms (collective)"),
        sdk::option_size("piece_size", "16MiB", 1, double(max_call_bytes),
                         "collective: bytes per _all call; every rank makes as many (count 0 past its part)"),
        FB_MPI_HINT_OPTIONS(max_call_bytes),
    };

    static constexpr bool parts = true;
    static constexpr const char* mpi_implementation = FB_MPI_IMPLEMENTATION;

    static sdk::plugin_info info() {
        return {
            "mpiio",
            "1.0.0",
            "MPI-IO: raw's bytes through MPI_File_write_at(_all)/read_at(_all) on the ranks' communicator",
            "MIT",
            "raw",
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
            write_units(
                data, byte_count(count, size_),
                [&](std::uint64_t at, const void* p, std::uint64_t n, bool all) { put(at, p, n, all); });
        }

        void close() {
            static const unsigned char none = 0;
            finish(
                true, [&](std::uint64_t at, const void* p, std::uint64_t n, bool all) { put(at, p, n, all); },
                [&]() -> std::string {
                    MPI_Status st;
                    if (int rc = MPI_File_write_at_all(fh_, 0, &none, 0, MPI_BYTE, &st); rc != MPI_SUCCESS)
                        return mpi_error(FB_E_IO, "collective call of count 0 on", path_, rc).what();
                    return {};
                },
                [&] { return close_file(); });
        }

    private:
        // n bytes at byte `at` of the part as one MPI_File_write_at(_all);
        // a transfer that fails, or moves fewer bytes than asked (as a full
        // disk makes it), fails the write.
        void put(std::uint64_t at, const void* p, std::uint64_t n, bool all) {
            const char* call = all ? "MPI_File_write_at_all" : "MPI_File_write_at";
            const auto where = static_cast<MPI_Offset>(base_ + at);
            MPI_Status st;
            const int rc = all ? MPI_File_write_at_all(fh_, where, p, static_cast<int>(n), MPI_BYTE, &st)
                               : MPI_File_write_at(fh_, where, p, static_cast<int>(n), MPI_BYTE, &st);
            if (rc != MPI_SUCCESS) {
                int kind = MPI_ERR_OTHER;
                MPI_Error_class(rc, &kind);
                std::string note = kind == MPI_ERR_NO_SPACE || kind == MPI_ERR_QUOTA
                                       ? formatbench::plugin_common::disk_space_note(path_, n)
                                       : formatbench::plugin_common::disk_full_note(path_, n);
                throw error(FB_E_IO, std::string("mpiio: ") + call + " to '" + path_ + "' (" +
                                         std::to_string(n) + " bytes at byte " + std::to_string(base_ + at) +
                                         "): " + mpi_message(rc) + (note.empty() ? "" : "; " + note));
            }
            int done = 0;
            if (MPI_Get_count(&st, MPI_BYTE, &done) != MPI_SUCCESS || done == MPI_UNDEFINED) done = 0;
            if (static_cast<std::uint64_t>(done) != n)
                throw formatbench::plugin_common::short_write("mpiio", call, path_, base_ + at,
                                                              static_cast<std::uint64_t>(done), n);
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
            read_units(
                data, byte_count(count, size_),
                [&](std::uint64_t at, void* p, std::uint64_t n, bool all) { get(p, base_ + at, n, all); });
        }

        void close() {
            unsigned char none = 0;
            finish(
                false, [](std::uint64_t, const void*, std::uint64_t, bool) {},
                [&]() -> std::string {
                    MPI_Status st;
                    if (int rc = MPI_File_read_at_all(fh_, 0, &none, 0, MPI_BYTE, &st); rc != MPI_SUCCESS)
                        return mpi_error(FB_E_IO, "collective call of count 0 on", path_, rc).what();
                    return {};
                },
                [&] { return close_file(); });
        }

    private:
        // n bytes at byte `at`, independent or as a collective call.
        void get(void* p, std::uint64_t at, std::uint64_t n, bool collective) {
            MPI_Status st;
            int rc;
            if (collective) {
                rc = MPI_File_read_at_all(fh_, static_cast<MPI_Offset>(at), p, static_cast<int>(n), MPI_BYTE,
                                          &st);
            } else {
                rc =
                    MPI_File_read_at(fh_, static_cast<MPI_Offset>(at), p, static_cast<int>(n), MPI_BYTE, &st);
            }
            if (rc != MPI_SUCCESS)
                throw mpi_error(FB_E_IO, collective ? "MPI_File_read_at_all from" : "MPI_File_read_at from",
                                path_, rc);
            int got = 0;
            MPI_Get_count(&st, MPI_BYTE, &got);
            if (static_cast<std::uint64_t>(got) != n)
                throw error(FB_E_TRUNCATED, "mpiio: '" + path_ + "' ends after " + std::to_string(at + got) +
                                                " bytes; " + std::to_string(at + n) + " were expected");
        }
    };
};

} // namespace

FORMATBENCH_PLUGIN(mpiio_format)
