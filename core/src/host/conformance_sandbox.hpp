// The folders a conformance check runs in, and what a plugin may change
// there. Each check gets a sandbox made and removed by the checker's own
// process (so a plugin that crashes or hangs leaves nothing behind): a fresh
// folder holding the check's working folder, its $HOME and its $TMPDIR, each
// with a bait file. The check's data folders (scratch_dir) are made under
// that $TMPDIR. Snapshots of folders (name, type, size, mtime, inode) before
// and after tell what a plugin created, changed or removed outside the path
// it was given.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace formatbench::conformance {

// A file every watched folder holds, so that removing or changing what is
// already there is seen, not only creating something new.
inline constexpr const char* bait_file_name = "do-not-touch.txt";

// A fresh directory under $TMPDIR (or /tmp), with a bait file, removed with
// everything in it.
class scratch_dir {
public:
    scratch_dir();
    scratch_dir(const scratch_dir&) = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;
    ~scratch_dir();
    const std::string& path() const noexcept { return path_; }
    // "<dir>/<name>.<extension>" (no dot when the extension is empty).
    std::string file(const std::string& name, const std::string& extension) const;

private:
    std::string path_;
};

struct file_state {
    std::uint32_t type = 0; // S_IFMT bits of st_mode
    std::uint64_t size = 0;
    std::uint64_t inode = 0;
    std::int64_t mtime_ns = 0;
};

// Every entry below a folder, recursively (symbolic links not followed), by
// its full path; the folder itself is not an entry.
using folder_snapshot = std::map<std::string, file_state>;
folder_snapshot snapshot_folder(const std::string& dir);

// What differs between two snapshots, one line per entry: "created 'P'",
// "changed 'P'" (size, mtime, inode or type), "removed 'P'". allowed and
// everything below it are left out (empty: nothing is). A folder counts as
// changed only when it was replaced: its mtime follows its entries, which are
// listed themselves.
std::vector<std::string> folder_changes(const folder_snapshot& before, const folder_snapshot& after,
                                        const std::string& allowed);

// Watches one folder from construction on; changes() lists what differs
// since, except allowed (see folder_changes).
class folder_watch {
public:
    folder_watch(std::string dir, std::string allowed);
    std::vector<std::string> changes() const;

private:
    std::string dir_;
    std::string allowed_;
    folder_snapshot before_;
};

// Removes path and everything below it, first giving write access back to
// folders a check made read-only. Never throws.
void remove_tree(const std::string& path) noexcept;

// <$TMPDIR or /tmp>/fb-check-XXXXXX/{cwd,home,tmp}, each with a bait file,
// removed (with anything a plugin put there) when destroyed.
class check_sandbox {
public:
    check_sandbox(); // throws std::system_error
    check_sandbox(const check_sandbox&) = delete;
    check_sandbox& operator=(const check_sandbox&) = delete;
    ~check_sandbox();

    // For the check's child process: the working folder becomes cwd, HOME
    // and TMPDIR name home and tmp. "" on success, else what failed.
    std::string enter() const;
    // What differs in the three folders since construction, with the paths
    // written "./NAME" (the working folder), "$HOME/NAME" and "$TMPDIR/NAME".
    // A check's own data folders are gone by the time it returns.
    std::vector<std::string> changes() const;
    const std::string& root() const noexcept { return root_; }

private:
    std::string root_;
    folder_snapshot before_;
};

} // namespace formatbench::conformance
