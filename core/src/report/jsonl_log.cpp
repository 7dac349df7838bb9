// The JSON Lines log (jsonl_log.hpp).
#include "report/jsonl_log.hpp"

#include "base/error.hpp"
#include "results/json.hpp"
#include "results/load.hpp"

#include "build_config.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace formatbench {
namespace {

class jsonl_log final : public observer {
public:
    jsonl_log(std::string path, const log_options& options) : path_(std::move(path)), options_(options) {
        struct stat st {};
        const bool exists = ::stat(path_.c_str(), &st) == 0;
        const bool regular = exists && S_ISREG(st.st_mode);
        if (regular && st.st_size > 0 && !options.resuming && !options.force)
            throw usage_error(fmt::format(
                "log '{}' exists: continue it with --resume {}, or overwrite it with --force", path_, path_));
        // Appending to the resumed log; otherwise a new log (an existing one
        // is truncated only after the lock is held).
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (options.resuming ? O_APPEND : 0), 0644);
        if (fd_ < 0) throw usage_error(fmt::format("cannot open log '{}': {}", path_, std::strerror(errno)));
        if (regular || !exists) {
            if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
                const int err = errno;
                ::close(fd_);
                fd_ = -1;
                throw usage_error(
                    err == EWOULDBLOCK
                        ? fmt::format("log '{}' is in use by another formatbench run; wait for it or "
                                      "name another log",
                                      path_)
                        : fmt::format("cannot lock log '{}': {}", path_, std::strerror(err)));
            }
        }
        if (options.resuming) {
            repair();
        } else if (regular && ::ftruncate(fd_, 0) != 0) {
            throw usage_error(fmt::format("cannot overwrite log '{}': {}", path_, std::strerror(errno)));
        }
        struct stat now {};
        header_needed_ = ::fstat(fd_, &now) == 0 && S_ISREG(now.st_mode) && now.st_size == 0;
    }

    ~jsonl_log() override {
        if (fd_ >= 0) ::close(fd_); // also releases the lock
    }

    std::string name() const override { return fmt::format("log '{}'", path_); }

    void begin(const study_result& run, std::size_t, std::size_t) override {
        if (!header_needed_) return;
        nlohmann::json header{{log_header_key, log_format_version},
                              {"generator", std::string("formatbench ") + FB_VERSION},
                              {"study", to_json(run.spec)}};
        append(header);
    }

    void case_finished(const case_result& r, bool resumed) override {
        // Cases resumed from this very log are in it already.
        if (resumed && options_.resuming) return;
        append(to_json(r));
    }

private:
    // Removes a last line cut short by a kill during a write, so what is
    // appended starts on a line of its own.
    void repair() {
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return;
        int rfd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (rfd < 0) return;
        off_t keep = st.st_size;
        char c = 0;
        if (::pread(rfd, &c, 1, keep - 1) == 1 && c != '\n') {
            // Back to the last newline.
            char buf[4096];
            keep = 0;
            for (off_t end = st.st_size; end > 0 && keep == 0;) {
                const off_t from =
                    end > static_cast<off_t>(sizeof buf) ? end - static_cast<off_t>(sizeof buf) : 0;
                const ssize_t n = ::pread(rfd, buf, static_cast<std::size_t>(end - from), from);
                if (n <= 0) break;
                for (ssize_t i = n - 1; i >= 0; --i)
                    if (buf[i] == '\n') {
                        keep = from + i + 1;
                        break;
                    }
                end = from;
            }
            // A last line that is whole and lacks only its newline is kept:
            // the newline is added.
            std::string last(static_cast<std::size_t>(st.st_size - keep), '\0');
            if (::pread(rfd, last.data(), last.size(), keep) == static_cast<ssize_t>(last.size()) &&
                nlohmann::json::accept(last)) {
                if (::write(fd_, "\n", 1) != 1)
                    std::fprintf(stderr, "formatbench: log '%s': cannot end its last line: %s\n", path_.c_str(),
                                 std::strerror(errno));
                ::close(rfd);
                return;
            }
            if (::ftruncate(fd_, keep) == 0)
                std::fprintf(stderr,
                             "formatbench: log '%s': removed a last line cut short by an interrupted write "
                             "(%lld bytes)\n",
                             path_.c_str(), static_cast<long long>(st.st_size - keep));
        }
        ::close(rfd);
    }

    void append(const nlohmann::json& j) {
        if (fd_ < 0) return;
        // Plugin messages may hold bytes that are not UTF-8: replaced, so the
        // line stays JSON.
        const std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        const char* p = line.data();
        std::size_t left = line.size();
        while (left > 0) {
            ssize_t n = ::write(fd_, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0)
                throw std::runtime_error(
                    fmt::format("cannot append to log '{}': {}; the run goes on without it", path_,
                                std::strerror(errno)));
            p += n;
            left -= static_cast<std::size_t>(n);
        }
        ::fdatasync(fd_);
    }

    std::string path_;
    log_options options_;
    int fd_ = -1;
    bool header_needed_ = false;
};

} // namespace

std::unique_ptr<observer> make_jsonl_log(const std::string& path, const log_options& options) {
    return std::make_unique<jsonl_log>(path, options);
}

} // namespace formatbench
