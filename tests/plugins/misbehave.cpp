// A test plugin that misbehaves on request (option `mode`), so the tests can
// check that the runner turns each kind of bad plugin into a failed case and
// the study goes on: segfault, abort, exit, hang, wrong data, a failing write.
// With mode=ok it is a correct raw-bytes plugin; `slowdown` (percent) adds a
// planted, proportional delay to every write and read for the compare tests.
// For the tests of repetition accounting: `trace` names a file that gets one
// line per stream opened ("write" or "read"), and `slow_opens` makes the
// first N write streams of the process take `slow_ms` longer. mode=stale_read
// delivers data on the process's first read of a path only and then claims
// success without touching the buffer; spawn_child leaves a child process sleeping
// behind every write stream; print writes to stdout and stderr; bad_message
// fails a write with a message that is not UTF-8 and holds an escape sequence.
// Its zero-copy view is the file read into memory at the view call, with the
// same wrong_data flip, so the tests of read: view can catch a bad view.
// `wrong_at` makes wrong_data flip one element of the data set only, in
// whichever read piece holds it (streamed reads).
// `only_rank` limits the misbehaviour (the mode and the slow write streams)
// to one MPI rank (the launcher's rank variable), for the tests of a plugin
// failing, or one rank being slow, among several.
//
// The environment variable FB_MISBEHAVE chooses more ways to fail, for every
// stream of the process (check-plugin's error checks use default options):
//   checksum_internal  the file gets an 8-byte header "MISBHV01" and an
//                      FNV-1a checksum trailer; a bad header or a short file
//                      is FB_E_CORRUPT / FB_E_TRUNCATED as it should be, but a
//                      checksum mismatch (corruption past the header) is
//                      FB_E_INTERNAL;
//   overread           read writes 8 zero bytes past the values asked for;
//   no_truncate        the writer opens an existing file without O_TRUNC;
//   exclusive_unchecked the writer creates with O_EXCL (EEXIST on a device
//                      fails at open) and ignores what write(2) returns;
//   side_file, cwd_file, home_file, tmp_file
//                      the writer's close leaves a file beside its path, in
//                      the working folder, in $HOME or in $TMPDIR;
//   change_home        the writer's close appends to the files in $HOME;
//   remove_neighbours  the writer's open removes the other files in its
//                      path's folder.
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <map>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using formatbench::sdk::error;

constexpr const char* modes[] = {"ok",          "segfault",   "abort",       "exit",
                                 "hang",        "wrong_data", "fail_write",  "stale_read",
                                 "spawn_child", "print",      "bad_message", nullptr};

// Streams opened by this process so far.
int writes_opened = 0;
int reads_opened = 0;
// Read streams opened so far per path (stale_read).
std::map<std::string, int> reads_of_path;

std::string env_mode() {
    const char* m = std::getenv("FB_MISBEHAVE");
    return m ? m : "";
}

constexpr char checksum_magic[8] = {'M', 'I', 'S', 'B', 'H', 'V', '0', '1'};

std::uint64_t fnv1a(std::uint64_t h, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;

void touch(const std::string& file, const char* text) {
    if (std::FILE* f = std::fopen(file.c_str(), "a")) {
        std::fputs(text, f);
        std::fclose(f);
    }
}

// The regular files in folder dir (not below it).
std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d)) {
            std::string p = dir + "/" + e->d_name;
            struct stat st {};
            if (::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) out.push_back(p);
        }
        ::closedir(d);
    }
    return out;
}

// What the FB_MISBEHAVE modes leave outside the path at a writer's close.
void leave_traces(const std::string& mode, const std::string& path) {
    const char* home = std::getenv("HOME");
    const char* tmp = std::getenv("TMPDIR");
    if (mode == "side_file") touch(path + ".side", "misbehave\n");
    if (mode == "cwd_file") touch("misbehave-was-here", "misbehave\n");
    if (mode == "home_file" && home) touch(std::string(home) + "/.misbehave", "misbehave\n");
    if (mode == "tmp_file") {
        std::string name = std::string(tmp && *tmp ? tmp : "/tmp") + "/misbehave-XXXXXX";
        int fd = ::mkstemp(name.data());
        if (fd >= 0) ::close(fd);
    }
    if (mode == "change_home" && home)
        for (const auto& f : files_in(home))
            touch(f, "changed by misbehave\n");
}

void trace(const std::string& file, const char* what) {
    if (file.empty()) return;
    if (std::FILE* f = std::fopen(file.c_str(), "a")) {
        std::fprintf(f, "%s\n", what);
        std::fclose(f);
    }
}

struct misbehave_format {
    static constexpr fb_option_decl options[] = {
        formatbench::sdk::option_choice("mode", "ok", modes,
                                        "how to misbehave (during read, except fail_write)"),
        formatbench::sdk::option_float("slowdown", "0", 0, 1000,
                                       "extra busy time per call, in percent of the call's own time"),
        formatbench::sdk::option_string("trace", "",
                                        "file that gets one line per stream opened (write, read)"),
        formatbench::sdk::option_int("slow_opens", "0", 0, 1000000,
                                     "the first N write streams take slow_ms longer"),
        formatbench::sdk::option_int("slow_ms", "200", 0, 60000, "extra milliseconds of a slow write stream"),
        formatbench::sdk::option_int(
            "only_rank", "-1", -1, 1000000,
            "misbehave (mode, slow_opens) on this MPI rank only (-1: on every rank and without MPI)"),
        formatbench::sdk::option_int("wrong_at", "-1", -1, INT64_MAX,
                                     "wrong_data flips this element of the data set only, wherever the read "
                                     "pieces fall (-1: the first value of every read call)"),
    };

    // Whether this process misbehaves: on every rank, or on only_rank only.
    static bool this_rank(const formatbench::sdk::open_request& r) {
        const std::int64_t only = r.options.get_int("only_rank");
        if (only < 0) return true;
        const char* rank = nullptr;
        for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
            if ((rank = std::getenv(v))) break;
        return rank && std::atoll(rank) == only;
    }

    // The mode in effect in this process: `mode`, or ok on ranks other than only_rank.
    static std::string mode_of(const formatbench::sdk::open_request& r) {
        return this_rank(r) ? r.options.get_string("mode") : "ok";
    }

    static formatbench::sdk::plugin_info info() {
        // Every dtype but u8, so the tests can check the unsupported-dtype error.
        return {"misbehave",    "1.0.0", "test plugin: raw bytes, or a chosen way to fail",
                "MIT",          "bin",   FB_DTYPES_ALL & ~FB_DTYPE_BIT(FB_DTYPE_U8),
                FB_CAP_LOSSLESS};
    }

    // Spins for `percent` of the time since `start`.
    static void slow_down(std::chrono::steady_clock::time_point start, double percent) {
        if (percent <= 0) return;
        auto spent = std::chrono::steady_clock::now() - start;
        auto until =
            std::chrono::steady_clock::now() +
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(spent * (percent / 100.0));
        while (std::chrono::steady_clock::now() < until) {
        }
    }

    class writer {
    public:
        explicit writer(const formatbench::sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), mode_(mode_of(r)),
              slowdown_(r.options.get_float("slowdown")), env_(env_mode()) {
            if (env_ == "remove_neighbours") {
                std::string dir = path_.substr(0, path_.rfind('/'));
                for (const auto& f : files_in(dir.empty() ? "." : dir))
                    if (f != path_) ::unlink(f.c_str());
            }
            if (env_ == "no_truncate" || env_ == "exclusive_unchecked") {
                int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (env_ == "exclusive_unchecked" ? O_EXCL : 0);
                raw_fd_ = ::open(path_.c_str(), flags, 0644);
                if (raw_fd_ < 0)
                    throw error(FB_E_IO, "misbehave: cannot create '" + path_ + "': " + std::strerror(errno));
            } else {
                file_ = formatbench::sdk::file::create(path_);
            }
            if (env_ == "checksum_internal") file_.write_all(checksum_magic, sizeof checksum_magic);
            trace(r.options.get_string("trace"), "write");
            if (this_rank(r) && writes_opened++ < r.options.get_int("slow_opens"))
                std::this_thread::sleep_for(std::chrono::milliseconds(r.options.get_int("slow_ms")));
        }
        writer(writer&& o) noexcept
            : path_(std::move(o.path_)), size_(o.size_), mode_(std::move(o.mode_)), slowdown_(o.slowdown_),
              env_(std::move(o.env_)), file_(std::move(o.file_)), raw_fd_(std::exchange(o.raw_fd_, -1)),
              sum_(o.sum_) {}
        ~writer() {
            if (raw_fd_ >= 0) ::close(raw_fd_);
        }
        void write(const void* data, std::uint64_t count) {
            auto start = std::chrono::steady_clock::now();
            if (mode_ == "fail_write")
                throw error(FB_E_IO, "misbehave: write to '" + path_ + "' failed on purpose");
            if (mode_ == "bad_message") // bytes that are not UTF-8, a terminal escape sequence, a forged row
                throw error(FB_E_IO, "misbehave: invalid \xff\xfe bytes and \x1b[2J a screen clear\n"
                                     " forged  1.00 ms  2.00 ms  exact  ok");
            if (mode_ == "print") {
                std::printf("misbehave says hello on stdout\n");
                std::fflush(stdout);
                std::fprintf(stderr, "misbehave says hello on stderr\n");
            }
            if (mode_ == "spawn_child" && ::fork() == 0) {
                ::sleep(3600); // a child the plugin forgets
                ::_exit(0);
            }
            if (env_ == "exclusive_unchecked") {
                [[maybe_unused]] ssize_t ignored =
                    ::write(raw_fd_, data, count * size_); // the bug: unchecked
            } else if (raw_fd_ >= 0) {
                const auto* p = static_cast<const unsigned char*>(data);
                for (std::size_t done = 0, n = count * size_; done < n;) {
                    ssize_t k = ::write(raw_fd_, p + done, n - done);
                    if (k < 0 && errno == EINTR) continue;
                    if (k <= 0)
                        throw error(FB_E_IO,
                                    "misbehave: cannot write '" + path_ + "': " + std::strerror(errno));
                    done += static_cast<std::size_t>(k);
                }
            } else {
                file_.write_all(data, count * size_);
            }
            if (env_ == "checksum_internal") sum_ = fnv1a(sum_, data, count * size_);
            slow_down(start, slowdown_);
        }
        void close() {
            if (env_ == "checksum_internal") file_.write_all(&sum_, sizeof sum_);
            if (raw_fd_ >= 0) {
                ::close(std::exchange(raw_fd_, -1)); // unchecked in both raw modes
            } else {
                file_.close();
            }
            leave_traces(env_, path_);
        }

    private:
        std::string path_;
        std::size_t size_;
        std::string mode_;
        double slowdown_;
        std::string env_;
        formatbench::sdk::file file_;
        int raw_fd_ = -1;
        std::uint64_t sum_ = fnv_offset;
    };

    class reader {
    public:
        explicit reader(const formatbench::sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), mode_(mode_of(r)),
              slowdown_(r.options.get_float("slowdown")), env_(env_mode()), count_(r.count),
              wrong_at_(r.options.get_int("wrong_at")) {
            file_ = formatbench::sdk::file::open_read(path_);
            if (env_ == "checksum_internal") {
                char head[sizeof checksum_magic] = {};
                if (file_.read_full(head, sizeof head) < sizeof head ||
                    std::memcmp(head, checksum_magic, sizeof head) != 0)
                    throw error(FB_E_CORRUPT, "misbehave: '" + path_ + "' has no MISBHV01 header");
                if (static_cast<std::uint64_t>(file_.status().st_size) < sizeof head + count_ * size_ + 8)
                    throw error(FB_E_TRUNCATED, "misbehave: '" + path_ + "' is too short");
            }
            trace(r.options.get_string("trace"), "read");
            stale_ = mode_ == "stale_read" && reads_of_path[path_]++ > 0;
            ++reads_opened;
        }
        void read(void* data, std::uint64_t count) {
            auto start = std::chrono::steady_clock::now();
            if (mode_ == "segfault") std::raise(SIGSEGV);
            if (mode_ == "abort") std::abort();
            if (mode_ == "exit") std::exit(3);
            if (mode_ == "hang")
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            if (stale_) return; // claims success, leaves the buffer as it was
            if (file_.read_full(data, count * size_) < count * size_)
                throw error(FB_E_TRUNCATED, "misbehave: '" + path_ + "' is too short");
            // Claims success but flips one bit of the first value (or of
            // element wrong_at, when this piece holds it).
            if (mode_ == "wrong_data" && count > 0) {
                if (wrong_at_ < 0)
                    static_cast<unsigned char*>(data)[0] ^= 1;
                else if (const auto at = static_cast<std::uint64_t>(wrong_at_); at >= at_ && at < at_ + count)
                    static_cast<unsigned char*>(data)[(at - at_) * size_] ^= 1;
            }
            at_ += count;
            if (env_ == "checksum_internal") {
                sum_ = fnv1a(sum_, data, count * size_);
                done_ += count;
                std::uint64_t stored = 0;
                if (done_ == count_ &&
                    (file_.read_full(&stored, sizeof stored) < sizeof stored || stored != sum_))
                    throw error(FB_E_INTERNAL, "misbehave: checksum mismatch in '" + path_ + "'");
            }
            if (env_ == "overread" && count > 0)
                std::memset(static_cast<unsigned char*>(data) + count * size_, 0, 8);
            slow_down(start, slowdown_);
        }
        const void* view(std::uint64_t count) {
            held_.resize(count * size_ + 1);
            if (file_.read_full(held_.data(), count * size_) < count * size_)
                throw error(FB_E_TRUNCATED, "misbehave: '" + path_ + "' is too short");
            if (mode_ == "wrong_data" && count > 0) held_[0] ^= 1;
            return held_.data();
        }
        void close() {}

    private:
        std::string path_;
        std::size_t size_;
        std::string mode_;
        double slowdown_;
        std::string env_;
        std::uint64_t count_;
        std::int64_t wrong_at_;
        std::uint64_t at_ = 0; // the data set's element the next read starts at
        std::uint64_t done_ = 0;
        std::uint64_t sum_ = fnv_offset;
        bool stale_ = false;
        formatbench::sdk::file file_;
        std::vector<unsigned char> held_;
    };
};

} // namespace

FORMATBENCH_PLUGIN(misbehave_format)
