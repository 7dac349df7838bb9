// A test plugin that misbehaves on request (option `mode`), so the tests can
// check that the runner turns each kind of bad plugin into a failed case and
// the study goes on: segfault, abort, exit, hang, wrong data, a failing write.
// With mode=ok it is a correct raw-bytes plugin; `slowdown` (percent) adds a
// planted, proportional delay to every write and read for the compare tests.
#include <formatbench/plugin.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

using formatbench::sdk::error;
using formatbench::sdk::io_error;

constexpr const char* modes[] = {"ok",   "segfault",   "abort",      "exit",
                                 "hang", "wrong_data", "fail_write", nullptr};

struct misbehave_format {
    static constexpr fb_option_decl options[] = {
        formatbench::sdk::option_choice("mode", "ok", modes,
                                        "how to misbehave (during read, except fail_write)"),
        formatbench::sdk::option_float("slowdown", "0", 0, 1000,
                                       "extra busy time per call, in percent of the call's own time"),
    };

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
            : path_(r.path), size_(r.element_size()), mode_(r.options.get_string("mode")),
              slowdown_(r.options.get_float("slowdown")) {
            fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (fd_ < 0) throw io_error("cannot create", path_, errno);
        }
        ~writer() {
            if (fd_ >= 0) ::close(fd_);
        }
        void write(const void* data, std::uint64_t count) {
            auto start = std::chrono::steady_clock::now();
            if (mode_ == "fail_write")
                throw error(FB_E_IO, "misbehave: write to '" + path_ + "' failed on purpose");
            const char* p = static_cast<const char*>(data);
            std::uint64_t left = count * size_;
            while (left > 0) {
                ssize_t n = ::write(fd_, p, left);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) throw io_error("cannot write", path_, errno);
                p += n;
                left -= static_cast<std::uint64_t>(n);
            }
            slow_down(start, slowdown_);
        }
        void close() {
            int fd = fd_;
            fd_ = -1;
            if (::close(fd) != 0) throw io_error("cannot close", path_, errno);
        }

    private:
        std::string path_;
        std::size_t size_;
        std::string mode_;
        double slowdown_;
        int fd_ = -1;
    };

    class reader {
    public:
        explicit reader(const formatbench::sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), mode_(r.options.get_string("mode")),
              slowdown_(r.options.get_float("slowdown")) {
            fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd_ < 0) throw io_error("cannot open", path_, errno);
        }
        ~reader() {
            if (fd_ >= 0) ::close(fd_);
        }
        void read(void* data, std::uint64_t count) {
            auto start = std::chrono::steady_clock::now();
            if (mode_ == "segfault") std::raise(SIGSEGV);
            if (mode_ == "abort") std::abort();
            if (mode_ == "exit") std::exit(3);
            if (mode_ == "hang")
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            char* p = static_cast<char*>(data);
            std::uint64_t left = count * size_;
            while (left > 0) {
                ssize_t n = ::read(fd_, p, left);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) throw io_error("cannot read", path_, errno);
                if (n == 0) throw error(FB_E_TRUNCATED, "misbehave: '" + path_ + "' is too short");
                p += n;
                left -= static_cast<std::uint64_t>(n);
            }
            // Claims success but flips one bit of the first value.
            if (mode_ == "wrong_data" && count > 0) static_cast<unsigned char*>(data)[0] ^= 1;
            slow_down(start, slowdown_);
        }
        void close() {}

    private:
        std::string path_;
        std::size_t size_;
        std::string mode_;
        double slowdown_;
        int fd_ = -1;
    };
};

} // namespace

FORMATBENCH_PLUGIN(misbehave_format)
