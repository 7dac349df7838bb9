// A test plugin that misbehaves on request (option `mode`), so the tests can
// check that the runner turns each kind of bad plugin into a failed case and
// the study goes on: segfault, abort, exit, hang, wrong data, a failing write.
// With mode=ok it is a correct raw-bytes plugin; `slowdown` (percent) adds a
// planted, proportional delay to every write and read for the compare tests.
// For the tests of repetition accounting: `trace` names a file that gets one
// line per stream opened ("write" or "read"), and `slow_opens` makes the
// first N write streams of the process take `slow_ms` longer. mode=stale_read
// delivers data on the process's first read only and then claims success
// without touching the buffer; spawn_child leaves a child process sleeping
// behind every write stream; print writes to stdout and stderr; bad_message
// fails a write with a message that is not UTF-8 and holds an escape sequence.
// Its zero-copy view is the file read into memory at the view call, with the
// same wrong_data flip, so the tests of read: view can catch a bad view.
// `only_rank` limits the misbehaviour to one MPI rank (the launcher's rank
// variable), for the tests of a plugin failing on one rank of several.
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using formatbench::sdk::error;

constexpr const char* modes[] = {"ok",          "segfault",   "abort",       "exit",
                                 "hang",        "wrong_data", "fail_write",  "stale_read",
                                 "spawn_child", "print",      "bad_message", nullptr};

// Streams opened by this process so far.
int writes_opened = 0;
int reads_opened = 0;

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
        formatbench::sdk::option_int("only_rank", "-1", -1, 1000000,
                                     "misbehave on this MPI rank only (-1: on every rank and without MPI)"),
    };

    // The mode in effect in this process: `mode`, or ok on ranks other than only_rank.
    static std::string mode_of(const formatbench::sdk::open_request& r) {
        const std::int64_t only = r.options.get_int("only_rank");
        if (only < 0) return r.options.get_string("mode");
        const char* rank = nullptr;
        for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
            if ((rank = std::getenv(v))) break;
        return rank && std::atoll(rank) == only ? r.options.get_string("mode") : "ok";
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
              slowdown_(r.options.get_float("slowdown")) {
            file_ = formatbench::sdk::file::create(path_);
            trace(r.options.get_string("trace"), "write");
            if (writes_opened++ < r.options.get_int("slow_opens"))
                std::this_thread::sleep_for(std::chrono::milliseconds(r.options.get_int("slow_ms")));
        }
        void write(const void* data, std::uint64_t count) {
            auto start = std::chrono::steady_clock::now();
            if (mode_ == "fail_write")
                throw error(FB_E_IO, "misbehave: write to '" + path_ + "' failed on purpose");
            if (mode_ == "bad_message") // bytes that are not UTF-8, and a terminal escape sequence
                throw error(FB_E_IO, "misbehave: invalid \xff\xfe bytes and \x1b[2J a screen clear");
            if (mode_ == "print") {
                std::printf("misbehave says hello on stdout\n");
                std::fflush(stdout);
                std::fprintf(stderr, "misbehave says hello on stderr\n");
            }
            if (mode_ == "spawn_child" && ::fork() == 0) {
                ::sleep(3600); // a child the plugin forgets
                ::_exit(0);
            }
            file_.write_all(data, count * size_);
            slow_down(start, slowdown_);
        }
        void close() { file_.close(); }

    private:
        std::string path_;
        std::size_t size_;
        std::string mode_;
        double slowdown_;
        formatbench::sdk::file file_;
    };

    class reader {
    public:
        explicit reader(const formatbench::sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), mode_(mode_of(r)),
              slowdown_(r.options.get_float("slowdown")) {
            file_ = formatbench::sdk::file::open_read(path_);
            trace(r.options.get_string("trace"), "read");
            stale_ = mode_ == "stale_read" && reads_opened > 0;
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
            // Claims success but flips one bit of the first value.
            if (mode_ == "wrong_data" && count > 0) static_cast<unsigned char*>(data)[0] ^= 1;
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
        bool stale_ = false;
        formatbench::sdk::file file_;
        std::vector<unsigned char> held_;
    };
};

} // namespace

FORMATBENCH_PLUGIN(misbehave_format)
