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
// any rank has makes up the difference with calls of count 0
// (plugins/common/collective_pieces.hpp). Its open and close are collective; a
// failing open on any rank fails it on all (one MPI_Allreduce after
// MPI_File_open), so no rank is left waiting in a collective call.
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

#include "common/collective_pieces.hpp"
#include "common/mpi_hints.hpp"

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
using sdk::error;

// The most bytes one MPI call moves: its count is an int.
constexpr std::uint64_t max_call_bytes = 1ull << 30;

// MPI's own words for an error code.
std::string mpi_message(int code) {
    char text[MPI_MAX_ERROR_STRING + 1] = "";
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
    return std::string(text, static_cast<std::size_t>(length));
}

error mpi_error(fb_status status, const std::string& what, const std::string& path, int code) {
    return error(status, "mpiio: " + what + " '" + path + "': " + mpi_message(code));
}

std::uint64_t byte_count(std::uint64_t count, std::size_t size, const std::string& path) {
    if (size != 0 && count > UINT64_MAX / size)
        throw error(FB_E_INVALID_OPTION, "mpiio: element count " + std::to_string(count) + " for '" + path +
                                             "' overflows a 64-bit byte size");
    return count * size;
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

// What a writer and a reader share: the open file, the part and the
// collective pieces.
class stream {
public:
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;

protected:
    stream(const sdk::open_request& r, bool writing)
        : path_(r.path), size_(r.element_size()),
          collective_(r.options.get_string("transfer") == "collective"),
          pieces_(r.count == FB_COUNT_UNKNOWN ? 0 : byte_count(r.count, size_, path_),
                  r.options.get_size("piece_size"), 1),
          metrics_(r.metrics()) {
        int initialised = 0, finalised = 0;
        MPI_Initialized(&initialised);
        MPI_Finalized(&finalised);
        if (!initialised || finalised)
            throw error(
                FB_E_UNSUPPORTED,
                "mpiio: '" + path_ +
                    "': MPI is not initialised in this process; this plugin runs only on the ranks of "
                    "an MPI job (formatbench run under mpirun), which hand it their communicator");
        comm_ = r.mpi_comm ? *static_cast<const MPI_Comm*>(r.mpi_comm) : MPI_COMM_SELF;
        const std::uint64_t offset = r.part ? r.part->offset : 0;
        const std::uint64_t total = r.part ? r.part->total : r.count;
        if (r.count == FB_COUNT_UNKNOWN)
            throw error(FB_E_STATE, "mpiio: open of '" + path_ + "' without an element count");
        base_ = byte_count(offset, size_, path_);
        bytes_ = byte_count(r.count, size_, path_);
        const std::uint64_t whole = byte_count(total, size_, path_);
        int ranks = 1;
        MPI_Comm_size(comm_, &ranks);

        const auto hints = formatbench::plugin_common::mpi_hints_of(r.options);
        info_handle info(hints);
        std::string problem;
        fb_status status = FB_OK;
        const int mode = writing ? MPI_MODE_WRONLY | MPI_MODE_CREATE : MPI_MODE_RDONLY;
        if (int rc = MPI_File_open(comm_, path_.c_str(), mode, info.get(), &fh_); rc != MPI_SUCCESS) {
            fh_ = MPI_FILE_NULL;
            problem = mpi_error(FB_E_IO, writing ? "cannot create" : "cannot open", path_, rc).what();
            status = FB_E_IO;
        }
        if (fh_ != MPI_FILE_NULL) {
            // Errors on this file return codes (the default for files, made sure).
            MPI_File_set_errhandler(fh_, MPI_ERRORS_RETURN);
            problem = hint_problem(fh_, hints, path_);
            if (!problem.empty()) status = FB_E_UNSUPPORTED;
        }
        if (fh_ != MPI_FILE_NULL && problem.empty() && !writing) {
            MPI_Offset have = 0;
            if (int rc = MPI_File_get_size(fh_, &have); rc != MPI_SUCCESS) {
                problem = mpi_error(FB_E_IO, "cannot size", path_, rc).what();
                status = FB_E_IO;
            } else if (static_cast<std::uint64_t>(have) < base_ + bytes_) {
                problem = "mpiio: '" + path_ + "' holds " + std::to_string(have) + " bytes, fewer than the " +
                          std::to_string(base_ + bytes_) + " its elements [" + std::to_string(offset) + ", " +
                          std::to_string(offset + r.count) + ") need";
                status = FB_E_TRUNCATED;
            } else if (!r.part && static_cast<std::uint64_t>(have) != whole) {
                problem = "mpiio: '" + path_ + "' holds " + std::to_string(have) + " bytes, not the " +
                          std::to_string(whole) + " of " + std::to_string(total) + " elements of " +
                          std::to_string(size_) + " bytes";
                status = FB_E_CORRUPT;
            }
        }
        // A whole file of one rank replaces what was there (a part never
        // truncates: the other parts are being written).
        if (fh_ != MPI_FILE_NULL && problem.empty() && writing && ranks == 1 && offset == 0 &&
            total == r.count) {
            if (int rc = MPI_File_set_size(fh_, 0); rc != MPI_SUCCESS) {
                problem = mpi_error(FB_E_IO, "cannot truncate", path_, rc).what();
                status = FB_E_IO;
            }
        }
        // Every rank learns whether any failed and the most pieces any has.
        long long agreed[2] = {problem.empty() ? 0 : 1,
                               collective_ ? static_cast<long long>(pieces_.count()) : 0};
        MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG_LONG, MPI_MAX, comm_);
        if (agreed[0] != 0) {
            if (fh_ != MPI_FILE_NULL) MPI_File_close(&fh_);
            if (problem.empty())
                throw error(FB_E_IO, "mpiio: another rank failed to open '" + path_ +
                                         "' (its error names the reason); this rank's open was undone");
            throw error(status, problem);
        }
        calls_total_ = static_cast<std::uint64_t>(agreed[1]);
        if (collective_) metrics_("collective_calls", static_cast<double>(calls_total_));
    }

    // The writer's and reader's destructors close a stream whose close()
    // was not called (the adapter always calls it) without reporting.
    ~stream() = default;

    // Bytes of the part not yet written or read.
    std::uint64_t left() const noexcept { return collective_ ? pieces_.left() : bytes_ - done_; }

    // The missing collective calls (count 0), then MPI_File_close; the first
    // error after all of them, so that every rank ends every call.
    template <class Pad>
    void finish_with(Pad pad, std::string problem = {}) {
        if (fh_ == MPI_FILE_NULL) return;
        if (collective_) {
            const std::uint64_t padded = pieces_.pad_to(calls_total_, problem, [&]() -> std::string {
                if (int rc = pad(); rc != MPI_SUCCESS)
                    return mpi_error(FB_E_IO, "collective call of count 0 on", path_, rc).what();
                return {};
            });
            metrics_("padding_calls", static_cast<double>(padded));
        }
        if (int rc = MPI_File_close(&fh_); rc != MPI_SUCCESS && problem.empty())
            problem = mpi_error(FB_E_IO, "cannot close", path_, rc).what();
        fh_ = MPI_FILE_NULL;
        if (!problem.empty()) throw error(FB_E_IO, problem);
    }

    std::string path_;
    std::size_t size_;
    bool collective_;
    formatbench::plugin_common::collective_pieces pieces_; // of the part, in bytes
    sdk::metric_reporter metrics_;
    MPI_Comm comm_ = MPI_COMM_SELF;
    MPI_File fh_ = MPI_FILE_NULL;
    std::uint64_t base_ = 0;        // the part's first byte in the file
    std::uint64_t bytes_ = 0;       // the part's bytes
    std::uint64_t done_ = 0;        // independent: bytes written or read so far
    std::uint64_t calls_total_ = 0; // collective calls every rank makes
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
                finish();
            } catch (...) {
            }
        }

        void write(const void* data, std::uint64_t count) {
            if (fh_ == MPI_FILE_NULL) throw error(FB_E_STATE, "mpiio: write to '" + path_ + "' after close");
            const auto* p = static_cast<const unsigned char*>(data);
            std::uint64_t bytes = byte_count(count, size_, path_);
            if (bytes > left())
                throw error(FB_E_STATE, "mpiio: write to '" + path_ + "' past the " + std::to_string(bytes_) +
                                            " bytes of its part");
            if (collective_) {
                pieces_.write(p, bytes,
                              [&](std::uint64_t, std::uint64_t at, const unsigned char* q, std::uint64_t n) {
                                  put(at, q, n);
                              });
                return;
            }
            while (bytes > 0) {
                const std::uint64_t n = std::min(bytes, max_call_bytes);
                MPI_Status st;
                if (int rc = MPI_File_write_at(fh_, static_cast<MPI_Offset>(base_ + done_), p,
                                               static_cast<int>(n), MPI_BYTE, &st);
                    rc != MPI_SUCCESS)
                    throw mpi_error(FB_E_IO, "MPI_File_write_at to", path_, rc);
                p += n;
                bytes -= n;
                done_ += n;
            }
        }

        void close() { finish(); }

    private:
        // n bytes at byte `at` of the part as one MPI_File_write_at_all.
        void put(std::uint64_t at, const unsigned char* p, std::uint64_t n) {
            MPI_Status st;
            if (int rc = MPI_File_write_at_all(fh_, static_cast<MPI_Offset>(base_ + at), p,
                                               static_cast<int>(n), MPI_BYTE, &st);
                rc != MPI_SUCCESS)
                throw mpi_error(FB_E_IO, "MPI_File_write_at_all to", path_, rc);
        }

        void finish() {
            if (fh_ == MPI_FILE_NULL) return;
            std::string problem;
            if (collective_) { // the part's last piece, shorter than the rest
                try {
                    pieces_.flush([&](std::uint64_t, std::uint64_t at, const unsigned char* q,
                                      std::uint64_t n) { put(at, q, n); });
                } catch (const error& e) {
                    problem = e.what();
                }
            }
            static const unsigned char none = 0;
            finish_with(
                [&] {
                    MPI_Status st;
                    return MPI_File_write_at_all(fh_, 0, &none, 0, MPI_BYTE, &st);
                },
                problem);
        }
    };

    class reader : public stream {
    public:
        explicit reader(const sdk::open_request& r) : stream(r, false) {}
        ~reader() {
            try {
                finish();
            } catch (...) {
            }
        }

        void read(void* data, std::uint64_t count) {
            if (fh_ == MPI_FILE_NULL) throw error(FB_E_STATE, "mpiio: read from '" + path_ + "' after close");
            auto* p = static_cast<unsigned char*>(data);
            std::uint64_t bytes = byte_count(count, size_, path_);
            if (bytes > left())
                throw error(FB_E_TRUNCATED, "mpiio: read from '" + path_ + "' past the " +
                                                std::to_string(bytes_) + " bytes of its part");
            if (collective_) {
                pieces_.read(p, bytes,
                             [&](std::uint64_t, std::uint64_t at, unsigned char* q, std::uint64_t n) {
                                 get(q, base_ + at, n, true);
                             });
                return;
            }
            while (bytes > 0) {
                const std::uint64_t n = std::min(bytes, max_call_bytes);
                get(p, base_ + done_, n, false);
                p += n;
                done_ += n;
                bytes -= n;
            }
        }

        void close() { finish(); }

    private:
        // n bytes at byte `at`, independent or as a collective call.
        void get(unsigned char* p, std::uint64_t at, std::uint64_t n, bool collective) {
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

        void finish() {
            unsigned char none = 0;
            finish_with([&] {
                MPI_Status st;
                return MPI_File_read_at_all(fh_, 0, &none, 0, MPI_BYTE, &st);
            });
        }
    };
};

} // namespace

FORMATBENCH_PLUGIN(mpiio_format)
