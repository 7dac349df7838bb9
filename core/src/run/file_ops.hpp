// File-system steps of the runner around the timed phases: removing old
// output, syncing, dropping the page cache and measuring what stays resident.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench {

// Removes a file or a directory tree; missing is fine. Throws std::system_error.
void remove_output(const std::string& path);
// Bytes on disk of a file, or the sum over a directory's files; 0 if missing.
std::uint64_t output_size(const std::string& path);
// fsync (data_only = false) or fdatasync the file, or every file of a directory.
void sync_output(const std::string& path, bool data_only);
// fdatasync, then posix_fadvise(DONTNEED) over the whole file(s).
void drop_cache(const std::string& path);
// Fraction of the output's pages resident in the page cache (mincore), 0..1;
// -1 when it cannot be measured (missing, empty).
double resident_fraction(const std::string& path);
// A fresh directory under $TMPDIR (or /tmp): "<tmp>/formatbench-XXXXXX",
// holding the marker running_marker until the run that made it ends: a run
// that keeps its files removes the marker, one that does not removes the
// folder.
std::string make_temp_directory();
inline constexpr const char* running_marker = ".formatbench-running";

// The folders make_temp_directory made for runs that were killed (SIGKILL,
// a node's out-of-memory killer) before they could remove them: under
// $TMPDIR (or /tmp), owned by this user, still holding running_marker, no
// longer locked (the lock dies with its run, see directory_lock), and left
// alone for at least min_age_seconds (a run locks its folder just after it
// makes it). Removes each and returns one note per folder: what was
// removed and how much, or where it is when it could not be removed.
std::vector<std::string> remove_abandoned_temp_directories(double min_age_seconds = 2);

// An exclusive lock (flock) on a folder, held while it lives: a study's
// `directory` is written by one run at a time (two runs in one folder
// removed each other's case files, and the errors blamed the plugins). The
// lock is on the folder itself, so nothing is left in it; forked workers
// share it, and it ends with the run's process. Throws usage_error naming
// the folder when another run holds it.
class directory_lock {
public:
    explicit directory_lock(const std::string& dir);
    ~directory_lock();
    directory_lock(const directory_lock&) = delete;
    directory_lock& operator=(const directory_lock&) = delete;

private:
    int fd_ = -1;
};

} // namespace formatbench
