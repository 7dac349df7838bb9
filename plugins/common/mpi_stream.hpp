// What the streams of the plugins that call MPI (mpiio, pnetcdf, hdf5_mpio)
// share, as IOR's MPI-IO helpers serve its HDF5 and PnetCDF backends: the
// communicator the host hands them (formatbench.mpi/1), the ranks agreeing
// at open (every rank learns whether any failed, every failing rank's
// message and the most collective calls of any rank), the part moved in
// independent calls or collective pieces (collective_pieces.hpp), the
// close that makes up the collective calls a rank has fewer of, and the
// check of the bytes a write reports against the bytes it was asked to
// move, so that a full disk fails the write, naming the file and its
// free space, instead of the read that follows.
//
// Header-only; needs <mpi.h>. A plugin's stream derives from
// mpi_part_stream and passes the calls that move a piece, move nothing and
// close its file.
#pragma once

#include <mpi.h>

#include "common/collective_pieces.hpp"

#include <formatbench/plugin.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace formatbench::plugin_common {

// MPI's own words for an error code.
inline std::string mpi_message(int code) {
    char text[MPI_MAX_ERROR_STRING + 1] = "";
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
    return std::string(text, static_cast<std::size_t>(length));
}

// What a write that failed or fell short says about the disk, when the
// file system holding `path` (statvfs of its folder) has fewer bytes free
// than `missing` (the bytes that did not land, at least 1): "the disk is
// full: ... has N bytes free; free disk space there or choose another
// directory"; else "".
inline std::string disk_full_note(const std::string& path, std::uint64_t missing) {
    const std::size_t slash = path.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct statvfs fs {};
    if (::statvfs(folder.c_str(), &fs) != 0) return {};
    const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    if (free_bytes >= std::max<std::uint64_t>(missing, 1)) return {};
    return "the disk is full: the file system holding '" + folder + "' has " + std::to_string(free_bytes) +
           " bytes free; free disk space there or choose another directory";
}

// The note for a write that the library says ran out of space, or that
// moved fewer bytes than asked without an error (what a full disk or a
// reached quota does): disk_full_note's, else that it may be so.
inline std::string disk_space_note(const std::string& path, std::uint64_t missing) {
    std::string note = disk_full_note(path, missing);
    if (note.empty())
        note = "the disk may be full or the quota reached; free disk space there or choose another directory";
    return note;
}

// "<plugin>: <call> to '<path>' wrote <done> of the <asked> bytes asked at
// byte <at>; <disk_space_note>", FB_E_IO: a write that reported success
// but moved fewer bytes than asked.
inline sdk::error short_write(const std::string& plugin, const std::string& call, const std::string& path,
                              std::uint64_t at, std::uint64_t done, std::uint64_t asked) {
    return sdk::error(FB_E_IO, plugin + ": " + call + " to '" + path + "' wrote " + std::to_string(done) +
                                   " of the " + std::to_string(asked) + " bytes asked at byte " +
                                   std::to_string(at) + "; " + disk_space_note(path, asked - done));
}

// After a writer's close, for a library that does not report the bytes its
// writes moved (PnetCDF 1.12 as Debian builds it counts the bytes it asked
// for): "" when the file at `path` holds this rank's part, bytes [begin,
// begin + bytes), else "<plugin>: '<path>' holds N of the M bytes of this
// rank's part ...; <disk_space_note>": the file ends inside the part, or,
// on a file system with no byte free, a hole starts inside it (where a
// write fell short; a hole is not looked for otherwise, since a file
// system may store runs of zero bytes as holes). "" when the file cannot
// be opened (the close would have said so).
inline std::string part_missing(const std::string& plugin, const std::string& path, std::uint64_t begin,
                                std::uint64_t bytes) {
    if (bytes == 0) return {};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    struct stat st {};
    std::uint64_t landed = bytes;
    const std::uint64_t end = begin + bytes;
    if (::fstat(fd, &st) == 0) {
        const auto size = static_cast<std::uint64_t>(st.st_size);
        if (size < end) {
            landed = size > begin ? size - begin : 0;
        } else if (!disk_full_note(path, 1).empty()) {
            const off_t hole = ::lseek(fd, static_cast<off_t>(begin), SEEK_HOLE);
            if (hole >= 0 && static_cast<std::uint64_t>(hole) < end)
                landed = static_cast<std::uint64_t>(hole) - begin;
        }
    }
    ::close(fd);
    if (landed == bytes) return {};
    return plugin + ": '" + path + "' holds " + std::to_string(landed) + " of the " + std::to_string(bytes) +
           " bytes of this rank's part (bytes " + std::to_string(begin) + " to " + std::to_string(end) +
           ") after its close, though every write reported success; " + disk_space_note(path, bytes - landed);
}

// A rank's failure, kept until the ranks agree on it.
struct rank_failure {
    fb_status status = FB_OK;
    std::string message;
    explicit operator bool() const noexcept { return status != FB_OK; }

    // Runs fn unless a failure is kept already, and keeps what it throws.
    template <class Fn>
    void run(Fn&& fn, const std::string& plugin, const std::string& path) {
        if (*this) return;
        try {
            std::forward<Fn>(fn)();
        } catch (const sdk::error& e) {
            status = e.status();
            message = e.what();
        } catch (const std::bad_alloc&) {
            status = FB_E_NO_MEMORY;
            message = plugin + ": out of memory opening '" + path + "'";
        }
    }
};

// Every failing rank of comm, in rank order, on every rank (collective;
// every rank calls it with its own failure, or none).
inline std::vector<std::pair<int, rank_failure>> all_failures(MPI_Comm comm, const rank_failure& mine) {
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    const std::size_t n = static_cast<std::size_t>(ranks);
    long long head[2] = {mine.status, static_cast<long long>(mine.message.size())};
    std::vector<long long> heads(2 * n);
    MPI_Allgather(head, 2, MPI_LONG_LONG, heads.data(), 2, MPI_LONG_LONG, comm);
    std::vector<int> lengths(n), at(n);
    int total = 0;
    for (std::size_t r = 0; r < n; ++r) {
        lengths[r] = static_cast<int>(std::min<long long>(heads[2 * r + 1], INT_MAX / ranks));
        at[r] = total;
        total += lengths[r];
    }
    std::string text(static_cast<std::size_t>(total), ' ');
    MPI_Allgatherv(mine.message.data(), std::min(static_cast<int>(mine.message.size()), INT_MAX / ranks),
                   MPI_CHAR, text.data(), lengths.data(), at.data(), MPI_CHAR, comm);
    std::vector<std::pair<int, rank_failure>> out;
    for (std::size_t r = 0; r < n; ++r)
        if (heads[2 * r] != FB_OK)
            out.push_back(
                {static_cast<int>(r),
                 {static_cast<fb_status>(heads[2 * r]),
                  text.substr(static_cast<std::size_t>(at[r]), static_cast<std::size_t>(lengths[r]))}});
    return out;
}

// What a writer and a reader of a rank's part share. The part is `units`
// units (bytes for mpiio, elements for the others) that the stream moves
// in independent calls of at most `most` units, or (option transfer:
// collective) in pieces of `piece` units, one collective call each, the
// ranks making as many calls as the rank with the most pieces.
class mpi_part_stream {
public:
    mpi_part_stream(const mpi_part_stream&) = delete;
    mpi_part_stream& operator=(const mpi_part_stream&) = delete;

protected:
    // Refuses (FB_E_UNSUPPORTED) when MPI is not initialised: the plugins
    // never initialise it. The communicator is the host's
    // (formatbench.mpi/1), else MPI_COMM_SELF.
    mpi_part_stream(std::string plugin, const sdk::open_request& r)
        : plugin_(std::move(plugin)), path_(r.path),
          collective_(r.options.get_string("transfer") == "collective"), metrics_(r.metrics()) {
        int initialised = 0, finalised = 0;
        MPI_Initialized(&initialised);
        MPI_Finalized(&finalised);
        if (!initialised || finalised)
            throw sdk::error(
                FB_E_UNSUPPORTED,
                plugin_ + ": '" + path_ +
                    "': MPI is not initialised in this process; this plugin runs only on the ranks of "
                    "an MPI job (formatbench run under mpirun), which hand it their communicator");
        comm_ = r.mpi_comm ? *static_cast<const MPI_Comm*>(r.mpi_comm) : MPI_COMM_SELF;
    }

    ~mpi_part_stream() = default;

    // The part: `units` units of `unit_size` bytes, called `unit_name` in
    // messages ("bytes", "elements").
    void set_part(std::uint64_t units, std::uint64_t piece, std::size_t unit_size, std::uint64_t most,
                  const char* unit_name) {
        units_ = units;
        unit_size_ = unit_size;
        most_ = std::max<std::uint64_t>(most, 1);
        unit_name_ = unit_name;
        pieces_ = collective_pieces(units, piece, unit_size);
    }

    // The ranks agree (collective): every rank learns whether any failed
    // and the most collective calls any makes. On a failure, undo() closes
    // what this rank opened, and every rank throws: the failing one its own
    // error, the others the first failing rank's status and "<plugin>: rank
    // R of the communicator failed to open '<path>', so this rank's open was
    // undone: " with each failing rank's message (ranks with the same
    // message share it: "ranks 0-2: ...").
    template <class Undo>
    void agree_open(const rank_failure& mine, Undo&& undo) {
        long long agreed[2] = {mine ? 1 : 0, collective_ ? static_cast<long long>(pieces_.count()) : 0};
        MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG_LONG, MPI_MAX, comm_);
        if (agreed[0] == 0) {
            calls_total_ = static_cast<std::uint64_t>(agreed[1]);
            if (collective_) metrics_("collective_calls", static_cast<double>(calls_total_));
            return;
        }
        const auto failed = all_failures(comm_, mine);
        undo();
        if (mine) throw sdk::error(mine.status, mine.message);
        // The failing ranks' messages, each once with the ranks that gave it.
        std::vector<std::pair<std::string, std::vector<int>>> messages;
        std::vector<int> who;
        for (const auto& [rank, f] : failed) {
            std::string text = f.message;
            if (text.rfind(plugin_ + ": ", 0) == 0) text.erase(0, plugin_.size() + 2);
            auto same = std::find_if(messages.begin(), messages.end(),
                                     [&](const auto& m) { return m.first == text; });
            (same == messages.end() ? messages.emplace_back(text, std::vector<int>{}) : *same)
                .second.push_back(rank);
            who.push_back(rank);
        }
        std::string why;
        for (const auto& [text, ranks] : messages)
            why += (why.empty() ? "" : "; ") + (messages.size() > 1 ? rank_list(ranks) + ": " : "") + text;
        throw sdk::error(failed.front().second.status, plugin_ + ": " + rank_list(who) +
                                                           " of the communicator failed to open '" + path_ +
                                                           "', so this rank's open was undone: " + why);
    }

    // "rank 3", "ranks 0-2, 5".
    static std::string rank_list(const std::vector<int>& ranks) {
        std::string out = ranks.size() > 1 ? "ranks" : "rank";
        for (std::size_t i = 0; i < ranks.size();) {
            std::size_t j = i;
            while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
                ++j;
            out += i == 0 ? " " : ", ";
            out += std::to_string(ranks[i]);
            if (j > i) {
                out += '-';
                out += std::to_string(ranks[j]);
            }
            i = j + 1;
        }
        return out;
    }

    // count elements of `size` bytes in bytes, or FB_E_INVALID_OPTION when
    // they overflow a file offset (MPI_Offset is signed: 63 bits).
    std::uint64_t byte_count(std::uint64_t count, std::size_t size) const {
        if (size != 0 && count > static_cast<std::uint64_t>(INT64_MAX) / size)
            throw sdk::error(FB_E_INVALID_OPTION, plugin_ + ": element count " + std::to_string(count) +
                                                      " for '" + path_ + "' overflows a 64-bit file offset");
        return count * size;
    }

    // Units of the part the caller has not yet written or read.
    std::uint64_t left() const noexcept { return collective_ ? pieces_.left() : units_ - done_; }

    // Throws FB_E_STATE "<plugin>: <doing> '<path>' after close" once the
    // stream was closed.
    void check_open(const char* doing) const {
        if (closed_) throw sdk::error(FB_E_STATE, plugin_ + ": " + doing + " '" + path_ + "' after close");
    }

    // Writes `units` units from data: move(first, pointer, n, collective)
    // for each call (first: its first unit in the part).
    template <class Move>
    void write_units(const void* data, std::uint64_t units, Move&& move) {
        check_open("write to");
        if (units > left())
            throw sdk::error(FB_E_STATE, plugin_ + ": write to '" + path_ + "' past the " +
                                             std::to_string(units_) + " " + unit_name_ + " of its part");
        if (collective_) {
            pieces_.write(data, units,
                          [&](std::uint64_t, std::uint64_t first, const void* p, std::uint64_t n) {
                              move(first, p, n, true);
                          });
            return;
        }
        const auto* p = static_cast<const unsigned char*>(data);
        while (units > 0) {
            const std::uint64_t n = std::min(units, most_);
            move(done_, static_cast<const void*>(p), n, false);
            p += n * unit_size_;
            units -= n;
            done_ += n;
        }
    }

    // Reads `units` units into data, as write_units writes them.
    template <class Move>
    void read_units(void* data, std::uint64_t units, Move&& move) {
        check_open("read from");
        if (units > left())
            throw sdk::error(FB_E_TRUNCATED, plugin_ + ": read from '" + path_ + "' past the " +
                                                 std::to_string(units_) + " " + unit_name_ + " of its part");
        if (collective_) {
            pieces_.read(data, units, [&](std::uint64_t, std::uint64_t first, void* p, std::uint64_t n) {
                move(first, p, n, true);
            });
            return;
        }
        auto* p = static_cast<unsigned char*>(data);
        while (units > 0) {
            const std::uint64_t n = std::min(units, most_);
            move(done_, static_cast<void*>(p), n, false);
            p += n * unit_size_;
            units -= n;
            done_ += n;
        }
    }

    // The close: a writer's staged last piece (move, as write_units), the
    // collective calls this rank has fewer of than the most of any rank
    // (pad(), "" or what failed), then close_file() ("" or what failed).
    // Every call is made, so that every rank ends every collective call,
    // and the first failure is thrown after them (FB_E_IO); a writer closed
    // before its part was written whole fails with FB_E_STATE. Nothing
    // after the first close.
    template <class Move, class Pad, class Close>
    void finish(bool writing, Move&& move, Pad&& pad, Close&& close_file) {
        if (closed_) return;
        closed_ = true;
        std::string problem;
        if (collective_ && writing) {
            try {
                pieces_.flush([&](std::uint64_t, std::uint64_t first, const void* p, std::uint64_t n) {
                    move(first, p, n, true);
                });
            } catch (const sdk::error& e) {
                problem = e.what();
            }
        }
        if (collective_) {
            const std::uint64_t padded = pieces_.pad_to(calls_total_, problem, pad);
            metrics_("padding_calls", static_cast<double>(padded));
        }
        if (std::string why = close_file(); !why.empty() && problem.empty()) problem = std::move(why);
        if (!problem.empty()) throw sdk::error(FB_E_IO, problem);
        if (writing && left() > 0)
            throw sdk::error(FB_E_STATE, plugin_ + ": '" + path_ + "' was closed after " +
                                             std::to_string(units_ - left()) + " of the " +
                                             std::to_string(units_) + " " + unit_name_ +
                                             " of this rank's part; the rest of the file is undefined");
    }

    std::string plugin_;
    std::string path_;
    bool collective_;
    sdk::metric_reporter metrics_;
    MPI_Comm comm_ = MPI_COMM_SELF;
    bool closed_ = false;

private:
    std::uint64_t units_ = 0, most_ = 1;
    std::size_t unit_size_ = 1;
    const char* unit_name_ = "elements";
    std::uint64_t done_ = 0;        // independent: units written or read
    std::uint64_t calls_total_ = 0; // collective calls every rank makes
    collective_pieces pieces_{0, 1, 1};
};

} // namespace formatbench::plugin_common
