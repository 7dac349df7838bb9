// The conformance checks' own machinery, against hand-made cases: folder
// snapshots and what they call created/changed/removed, the sandbox a check
// runs in (removed after a crash), the guarded read buffer, the file size
// limit that stands in for a full disk, and the rules' wording in
// docs/abi.md.
#include "host/conformance.hpp"
#include "host/conformance_rules.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fbc = formatbench::conformance;
namespace fs = std::filesystem;

void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

TEST(folder_changes, names_what_was_created_changed_and_removed) {
    fbc::scratch_dir dir;
    const std::string d = dir.path();
    ASSERT_TRUE(fs::exists(d + "/" + fbc::bait_file_name)) << "a scratch folder holds its bait file";
    write_file(d + "/same", "1");
    write_file(d + "/grows", "1");
    write_file(d + "/goes", "1");
    write_file(d + "/replaced", "1");
    fs::create_directory(d + "/sub");
    write_file(d + "/sub/deep", "1");
    write_file(d + "/allowed", "1");
    fbc::folder_watch watch(d, d + "/allowed");
    write_file(d + "/grows", "12");
    fs::remove(d + "/goes");
    // Same size and mtime, new inode: a file replaced by rename.
    write_file(d + "/replacement", "2");
    struct stat st {};
    ASSERT_EQ(::stat((d + "/replaced").c_str(), &st), 0);
    timespec times[2] = {st.st_atim, st.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, (d + "/replacement").c_str(), times, 0), 0);
    fs::rename(d + "/replacement", d + "/replaced");
    write_file(d + "/sub/new", "1");
    write_file(d + "/allowed", "changed, but it is the path");
    write_file(d + "/allowed.tmp", "beside the path");
    std::vector<std::string> want = {"created '" + d + "/allowed.tmp'", "changed '" + d + "/grows'",
                                     "changed '" + d + "/replaced'", "created '" + d + "/sub/new'",
                                     "removed '" + d + "/goes'"};
    EXPECT_EQ(watch.changes(), want);
}

TEST(folder_changes, everything_below_an_allowed_directory_is_allowed) {
    fbc::scratch_dir dir;
    const std::string d = dir.path();
    fbc::folder_watch watch(d, d + "/out");
    fs::create_directory(d + "/out");
    write_file(d + "/out/part0", "x");
    write_file(d + "/outside", "x"); // shares the prefix, not the folder
    EXPECT_EQ(watch.changes(), std::vector<std::string>{"created '" + d + "/outside'"});
}

TEST(folder_changes, a_changed_mtime_alone_is_a_change) {
    fbc::scratch_dir dir;
    const std::string f = dir.path() + "/f";
    write_file(f, "abc");
    fbc::folder_watch watch(dir.path(), "");
    timespec times[2] = {{0, UTIME_OMIT}, {12345, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, f.c_str(), times, 0), 0);
    EXPECT_EQ(watch.changes(), std::vector<std::string>{"changed '" + f + "'"});
}

// run_in_child: the check's working folder, HOME and TMPDIR are fresh
// folders, and they are gone afterwards, also after a crash.
TEST(sandbox, a_check_runs_in_fresh_folders_removed_even_after_a_crash) {
    fbc::scratch_dir outer; // stands for the TMPDIR a user gives check-plugin
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old ? old : "";
    ::setenv("TMPDIR", outer.path().c_str(), 1);
    fbc::outcome seen = fbc::run_in_child(
        [] {
            std::string cwd = fs::current_path().string();
            std::string home = std::getenv("HOME");
            std::string tmp = std::getenv("TMPDIR");
            if (fs::path(cwd).filename() != "cwd" || fs::path(home).filename() != "home" ||
                fs::path(tmp).filename() != "tmp")
                return fbc::outcome::fail("not in the sandbox: " + cwd + " " + home + " " + tmp);
            for (const auto& d : {cwd, home, tmp})
                if (!fs::exists(d + "/" + fbc::bait_file_name)) return fbc::outcome::fail("no bait in " + d);
            return fbc::outcome::pass();
        },
        10);
    EXPECT_EQ(seen.what, fbc::outcome::passed) << seen.reason;
    fbc::outcome crashed = fbc::run_in_child(
        [] {
            fbc::scratch_dir left_behind; // its destructor never runs
            write_file(left_behind.path() + "/data", "x");
            std::raise(SIGKILL);
            return fbc::outcome::pass();
        },
        10);
    if (old)
        ::setenv("TMPDIR", saved.c_str(), 1);
    else
        ::unsetenv("TMPDIR");
    EXPECT_EQ(crashed.what, fbc::outcome::failed);
    EXPECT_NE(crashed.reason.find("crashed with signal 9"), std::string::npos) << crashed.reason;
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(outer.path()))
        if (e.path().filename() != fbc::bait_file_name) left.push_back(e.path().string());
    EXPECT_TRUE(left.empty()) << left.front();
}

TEST(sandbox, a_file_left_in_home_fails_the_check_with_its_name) {
    fbc::outcome o = fbc::run_in_child(
        [] {
            write_file(std::string(std::getenv("HOME")) + "/.rc", "x");
            fs::remove(std::string(std::getenv("TMPDIR")) + "/" + fbc::bait_file_name);
            return fbc::outcome::pass();
        },
        10);
    EXPECT_EQ(o.what, fbc::outcome::failed);
    EXPECT_EQ(o.reason, std::string("outside its path the plugin created '$HOME/.rc', removed '$TMPDIR/") +
                            fbc::bait_file_name + "'; rule: " + fbc::rule::only_its_path);
}

TEST(guarded_buffer, shows_how_far_a_write_went_past_the_end) {
    for (std::size_t bytes : {0u, 1u, 8000u, 4096u - 64u, 4096u - 63u, 8192u}) {
        fbc::guarded_buffer b(bytes);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 4096, 0u);
        std::memset(b.data(), 1, bytes);
        EXPECT_EQ(b.overrun(), 0u) << bytes;
        b.data()[bytes] ^= 0xff;
        EXPECT_EQ(b.overrun(), 1u) << bytes;
        b.data()[bytes + 40] ^= 0xff;
        EXPECT_EQ(b.overrun(), 41u) << bytes;
    }
}

TEST(guarded_buffer, a_write_far_past_the_end_faults) {
    EXPECT_EXIT(
        {
            fbc::guarded_buffer b(100);
            std::memset(b.data(), 0, 4096 + 1); // one page past a one-page buffer
            std::_Exit(0);
        },
        testing::KilledBySignal(SIGSEGV), "");
}

// A child process: the limit is the process's own.
TEST(file_size_limit, writes_past_the_limit_fail_with_efbig_and_it_is_lifted_afterwards) {
    fbc::scratch_dir dir;
    const std::string path = dir.path() + "/f";
    fbc::outcome o = fbc::run_in_child(
        [&] {
            std::vector<char> block(4096, 'x');
            int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd < 0) return fbc::outcome::fail("open");
            std::size_t written = 0;
            int err = 0;
            {
                fbc::file_size_limit limit(64 * 1024);
                for (int i = 0; i < 32; ++i) {
                    ssize_t n = ::write(fd, block.data(), block.size());
                    if (n < 0) {
                        err = errno;
                        break;
                    }
                    written += static_cast<std::size_t>(n);
                }
            }
            // Lifted: the next write goes through.
            bool after = ::write(fd, block.data(), block.size()) == static_cast<ssize_t>(block.size());
            ::close(fd);
            if (written != 64 * 1024 || err != EFBIG || !after)
                return fbc::outcome::fail("wrote " + std::to_string(written) + ", errno " +
                                          std::to_string(err) + ", after: " + std::to_string(after));
            return fbc::outcome::pass();
        },
        10);
    EXPECT_EQ(o.what, fbc::outcome::passed) << o.reason;
}

// docs/abi.md lists every rule in the checks' own words.
TEST(rules, every_rule_is_in_docs_abi_md_word_for_word) {
    std::ifstream in(FB_ABI_DOC);
    ASSERT_TRUE(in) << FB_ABI_DOC;
    std::stringstream text;
    text << in.rdbuf();
    for (const char* r : fbc::rule::all)
        EXPECT_NE(text.str().find(std::string("- ") + r + "\n"), std::string::npos)
            << "docs/abi.md does not list the rule '" << r << "'";
}

} // namespace
