// Building blocks of the conformance checks (see conformance_support.hpp).
#include "host/conformance_support.hpp"

#include "base/text.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <system_error>

namespace fs = std::filesystem;

namespace formatbench::conformance {
namespace {

constexpr std::size_t error_buffer_size = 1024;

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::vector<fb_option> to_c(const formatbench::option_list& options) {
    std::vector<fb_option> out;
    for (const auto& [name, value] : options)
        out.push_back({name.c_str(), value.c_str()});
    return out;
}

fb_open_args make_args(fb_dtype dtype, const std::string& path, std::uint64_t count,
                       const std::vector<fb_option>& options) {
    // No metric sink: the checks do not collect a plugin's metrics. No
    // shape (ndim 0) and no open flags: a flat array, read as usual.
    fb_open_args args{};
    args.struct_size = sizeof(fb_open_args);
    args.dtype = dtype;
    args.path = path.c_str();
    args.count = count;
    args.options = options.data();
    args.option_count = options.size();
    return args;
}

c_result failure(fb_status st, const char* stage, const char* err) {
    return c_result{st, stage, err};
}

template <class T>
void put_specials(unsigned char* out, std::uint64_t count, const std::vector<T>& specials) {
    std::uint64_t n = std::min<std::uint64_t>(count, specials.size());
    std::memcpy(out, specials.data(), n * sizeof(T));
}

} // namespace

std::string value_text(fb_dtype d, const unsigned char* p) {
    char buf[96];
    switch (d) {
    case FB_DTYPE_F64: {
        std::uint64_t u;
        double v;
        std::memcpy(&u, p, 8);
        std::memcpy(&v, p, 8);
        std::snprintf(buf, sizeof buf, "0x%016" PRIx64 " (%.17g)", u, v);
        break;
    }
    case FB_DTYPE_F32: {
        std::uint32_t u;
        float v;
        std::memcpy(&u, p, 4);
        std::memcpy(&v, p, 4);
        std::snprintf(buf, sizeof buf, "0x%08" PRIx32 " (%.9g)", u, static_cast<double>(v));
        break;
    }
    case FB_DTYPE_I64: {
        std::int64_t v;
        std::memcpy(&v, p, 8);
        std::snprintf(buf, sizeof buf, "%" PRId64, v);
        break;
    }
    case FB_DTYPE_I32: {
        std::int32_t v;
        std::memcpy(&v, p, 4);
        std::snprintf(buf, sizeof buf, "%" PRId32, v);
        break;
    }
    case FB_DTYPE_U8: std::snprintf(buf, sizeof buf, "%u", static_cast<unsigned>(*p)); break;
    }
    return buf;
}

namespace {

bool is_nan(fb_dtype d, const unsigned char* p) {
    if (d == FB_DTYPE_F64) {
        double v;
        std::memcpy(&v, p, 8);
        return std::isnan(v);
    }
    if (d == FB_DTYPE_F32) {
        float v;
        std::memcpy(&v, p, 4);
        return std::isnan(v);
    }
    return false;
}

} // namespace

void aligned_buffer::free_deleter::operator()(unsigned char* p) const noexcept {
    std::free(p);
}

aligned_buffer::aligned_buffer(std::size_t bytes) : size_(bytes) {
    std::size_t rounded = (std::max<std::size_t>(bytes, 1) + 4095) / 4096 * 4096;
    data_.reset(static_cast<unsigned char*>(std::aligned_alloc(4096, rounded)));
    if (!data_) throw std::bad_alloc();
    std::memset(data_.get(), 0xA5, rounded); // not zero: a read that writes nothing must not pass
}

namespace {

unsigned char canary_byte(std::size_t i) {
    return static_cast<unsigned char>(i * 131 + 7);
}

} // namespace

guarded_buffer::guarded_buffer(std::size_t bytes) : size_(bytes) {
    const auto page_size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::size_t pages = (bytes + 64 + page_size - 1) / page_size;
    canary_ = pages * page_size - bytes;
    mapped_ = (pages + 1) * page_size;
    void* m = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<unsigned char*>(m);
    if (::mprotect(base_ + pages * page_size, page_size, PROT_NONE) != 0) {
        ::munmap(base_, mapped_);
        throw std::system_error(errno, std::generic_category(), "mprotect");
    }
    std::memset(base_, 0xA5, bytes); // not zero: a read that writes nothing must not pass
    for (std::size_t i = 0; i < canary_; ++i)
        base_[bytes + i] = canary_byte(i);
}

guarded_buffer::~guarded_buffer() {
    ::munmap(base_, mapped_);
}

std::size_t guarded_buffer::overrun() const noexcept {
    for (std::size_t i = canary_; i > 0; --i)
        if (base_[size_ + i - 1] != canary_byte(i - 1)) return i;
    return 0;
}

file_size_limit::file_size_limit(std::uint64_t bytes) {
    rlimit lim{};
    if (::getrlimit(RLIMIT_FSIZE, &lim) != 0)
        throw std::system_error(errno, std::generic_category(), "getrlimit");
    old_soft_ = lim.rlim_cur;
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    lim.rlim_cur = std::min<rlim_t>(bytes, lim.rlim_max);
    if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) {
        ::signal(SIGXFSZ, old_handler_);
        throw std::system_error(errno, std::generic_category(), "setrlimit RLIMIT_FSIZE");
    }
    set_ = true;
}

file_size_limit::~file_size_limit() {
    if (!set_) return;
    rlimit lim{};
    ::getrlimit(RLIMIT_FSIZE, &lim);
    lim.rlim_cur = old_soft_;
    ::setrlimit(RLIMIT_FSIZE, &lim);
    ::signal(SIGXFSZ, old_handler_);
}

aligned_buffer make_data(fb_dtype d, std::uint64_t count, std::uint64_t seed) {
    std::size_t size = formatbench::dtype_size(d);
    aligned_buffer out(static_cast<std::size_t>(count) * size);
    unsigned char* p = out.data();
    // Random bits everywhere first, then the special values over the start.
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t r = splitmix64(seed * 0x100000001b3ull + i);
        std::memcpy(p + i * size, &r,
                    size); // the low bytes of r, on a little- or big-endian host alike random
    }
    using dl = std::numeric_limits<double>;
    using fl = std::numeric_limits<float>;
    switch (d) {
    case FB_DTYPE_F64:
        put_specials<double>(p, count,
                             {1.5,
                              0.0,
                              -0.0,
                              dl::denorm_min(),
                              -dl::denorm_min(),
                              std::bit_cast<double>(0x000fffffffffffffull),
                              dl::min(),
                              dl::max(),
                              dl::lowest(),
                              dl::infinity(),
                              -dl::infinity(),
                              0.1,
                              -1.0 / 3.0,
                              1e300,
                              1e-300,
                              std::bit_cast<double>(0x7ff8000000000000ull),
                              std::bit_cast<double>(0xfff8000000000000ull),
                              std::bit_cast<double>(0x7ff8dead0000beefull),
                              std::bit_cast<double>(0x7ff0000000000001ull),
                              dl::epsilon(),
                              9007199254740993.0});
        break;
    case FB_DTYPE_F32:
        put_specials<float>(p, count,
                            {1.5f,
                             0.0f,
                             -0.0f,
                             fl::denorm_min(),
                             -fl::denorm_min(),
                             std::bit_cast<float>(0x007fffffu),
                             fl::min(),
                             fl::max(),
                             fl::lowest(),
                             fl::infinity(),
                             -fl::infinity(),
                             0.1f,
                             -1.0f / 3.0f,
                             1e38f,
                             1e-38f,
                             std::bit_cast<float>(0x7fc00000u),
                             std::bit_cast<float>(0xffc00000u),
                             std::bit_cast<float>(0x7fc0beefu),
                             std::bit_cast<float>(0x7f800001u),
                             fl::epsilon(),
                             16777217.0f});
        break;
    case FB_DTYPE_I64:
        put_specials<std::int64_t>(p, count,
                                   {42, 0, -1, 1, std::numeric_limits<std::int64_t>::min(),
                                    std::numeric_limits<std::int64_t>::max(), 9007199254740993ll});
        break;
    case FB_DTYPE_I32:
        put_specials<std::int32_t>(p, count,
                                   {42, 0, -1, 1, std::numeric_limits<std::int32_t>::min(),
                                    std::numeric_limits<std::int32_t>::max()});
        break;
    case FB_DTYPE_U8: put_specials<std::uint8_t>(p, count, {42, 0, 255, 1, 10, 13}); break;
    }
    return out;
}

comparison compare_exact(fb_dtype d, const unsigned char* expected, const unsigned char* actual,
                         std::uint64_t count) {
    comparison c;
    std::size_t size = formatbench::dtype_size(d);
    if (count == 0 || std::memcmp(expected, actual, static_cast<std::size_t>(count) * size) == 0) return c;
    for (std::uint64_t i = 0; i < count; ++i) {
        const unsigned char* e = expected + i * size;
        const unsigned char* a = actual + i * size;
        if (std::memcmp(e, a, size) == 0) continue;
        if (is_nan(d, e) && is_nan(d, a)) {
            ++c.nan_payload_changes;
            continue;
        }
        if (c.mismatches++ == 0) {
            c.first_mismatch = i;
            c.first_detail = "wrote " + value_text(d, e) + ", read " + value_text(d, a);
        }
    }
    return c;
}

const char* status_name(fb_status s) noexcept {
    switch (s) {
    case FB_OK: return "FB_OK";
    case FB_E_INVALID_OPTION: return "FB_E_INVALID_OPTION";
    case FB_E_UNSUPPORTED: return "FB_E_UNSUPPORTED";
    case FB_E_IO: return "FB_E_IO";
    case FB_E_CORRUPT: return "FB_E_CORRUPT";
    case FB_E_TRUNCATED: return "FB_E_TRUNCATED";
    case FB_E_NO_MEMORY: return "FB_E_NO_MEMORY";
    case FB_E_STATE: return "FB_E_STATE";
    case FB_E_INTERNAL: return "FB_E_INTERNAL";
    }
    return "unknown status";
}

std::string c_result::text() const {
    return stage + ": " + status_name(status) + ": " + (message.empty() ? "(empty message)" : message);
}

c_result c_write(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype, const void* data,
                 std::uint64_t count, std::uint64_t chunk, const formatbench::option_list& options) {
    auto opts = to_c(options);
    fb_open_args args = make_args(dtype, path, count, opts);
    char err[error_buffer_size] = "";
    fb_stream* s = nullptr;
    fb_status st = d.open_write(&args, &s, err, sizeof err);
    if (st != FB_OK) return failure(st, "open_write", err);
    if (!s) return failure(FB_E_INTERNAL, "open_write", "returned FB_OK without a stream");
    c_result first;
    std::size_t size = formatbench::dtype_size(dtype);
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::uint64_t off = 0; off < count; off += chunk) {
        std::uint64_t n = std::min(chunk, count - off);
        err[0] = '\0';
        st = d.write(s, p + off * size, n, err, sizeof err);
        if (st != FB_OK) {
            first = failure(st, "write", err);
            break;
        }
    }
    err[0] = '\0';
    st = d.close_write(s, err, sizeof err);
    if (first.ok() && st != FB_OK) first = failure(st, "close_write", err);
    return first;
}

c_result c_read(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype, void* out,
                std::uint64_t count, std::uint64_t chunk, const formatbench::option_list& options) {
    auto opts = to_c(options);
    fb_open_args args = make_args(dtype, path, count, opts);
    char err[error_buffer_size] = "";
    fb_stream* s = nullptr;
    fb_status st = d.open_read(&args, &s, err, sizeof err);
    if (st != FB_OK) return failure(st, "open_read", err);
    if (!s) return failure(FB_E_INTERNAL, "open_read", "returned FB_OK without a stream");
    c_result first;
    std::size_t size = formatbench::dtype_size(dtype);
    auto* p = static_cast<unsigned char*>(out);
    for (std::uint64_t off = 0; off < count; off += chunk) {
        std::uint64_t n = std::min(chunk, count - off);
        err[0] = '\0';
        st = d.read(s, p + off * size, n, err, sizeof err);
        if (st != FB_OK) {
            first = failure(st, "read", err);
            break;
        }
    }
    err[0] = '\0';
    st = d.close_read(s, err, sizeof err);
    if (first.ok() && st != FB_OK) first = failure(st, "close_read", err);
    return first;
}

c_result c_open_write(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype,
                      std::uint64_t count, const formatbench::option_list& options, bool& stream_returned) {
    auto opts = to_c(options);
    fb_open_args args = make_args(dtype, path, count, opts);
    char err[error_buffer_size] = "";
    fb_stream* s = nullptr;
    fb_status st = d.open_write(&args, &s, err, sizeof err);
    stream_returned = s != nullptr;
    if (s) d.close_write(s, err, sizeof err);
    return st == FB_OK ? c_result{} : failure(st, "open_write", err);
}

c_result c_open_read(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype,
                     std::uint64_t count, const formatbench::option_list& options, bool& stream_returned) {
    auto opts = to_c(options);
    fb_open_args args = make_args(dtype, path, count, opts);
    char err[error_buffer_size] = "";
    fb_stream* s = nullptr;
    fb_status st = d.open_read(&args, &s, err, sizeof err);
    stream_returned = s != nullptr;
    if (s) d.close_read(s, err, sizeof err);
    return st == FB_OK ? c_result{} : failure(st, "open_read", err);
}

namespace {

// The child's result on the pipe: one kind letter, the note, a NUL, the reason.
std::string serialize(const outcome& o) {
    char kind = o.what == outcome::passed    ? 'P'
                : o.what == outcome::skipped ? 'S'
                : o.what == outcome::warned  ? 'W'
                                             : 'F';
    return std::string(1, kind) + o.note + '\0' + o.reason;
}

outcome deserialize(const std::string& text) {
    std::size_t nul = text.find('\0');
    if (text.empty() || nul == std::string::npos)
        return outcome::fail("the check's child process sent no result", rule::no_crash);
    outcome o;
    o.what = text[0] == 'P'   ? outcome::passed
             : text[0] == 'S' ? outcome::skipped
             : text[0] == 'W' ? outcome::warned
                              : outcome::failed;
    o.note = text.substr(1, nul - 1);
    o.reason = text.substr(nul + 1);
    return o;
}

} // namespace

namespace {

// What a check left running in its process after its streams were closed:
// threads beside the main one (/proc/self/task) and child processes.
std::string leftovers() {
    std::string what;
    std::error_code ec;
    std::size_t threads = 0;
    for (fs::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec))
        ++threads;
    if (threads > 1) what = std::to_string(threads - 1) + " thread(s)";
    int status = 0;
    const pid_t child = ::waitpid(-1, &status, WNOHANG);
    if (child == 0) what += std::string(what.empty() ? "" : " and ") + "a child process";
    return what;
}

} // namespace

outcome run_in_child(const std::function<outcome()>& body, unsigned timeout_seconds,
                     const volatile std::sig_atomic_t* stop) {
    // Made and removed here, in the parent: a child that crashes or is
    // killed cannot leave its folders behind.
    std::optional<check_sandbox> box;
    try {
        box.emplace();
    } catch (const std::exception& e) {
        return outcome::fail(std::string("cannot make the check's folders: ") + e.what());
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return outcome::fail(std::string("pipe: ") + std::strerror(errno));
    std::fflush(nullptr); // or buffered output would be written twice
    // What the plugin prints during the check goes to a memory file, so it
    // can be reported (the ABI forbids printing) and never reaches the
    // checker's own output.
    const int printed = ::memfd_create("formatbench-check-output", MFD_CLOEXEC);
    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        if (printed >= 0) ::close(printed);
        return outcome::fail(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        // Its own process group: whatever the plugin starts is killed with
        // it. The checker's handlers for stop signals are not the child's.
        ::setpgid(0, 0);
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        ::close(fds[0]);
        if (printed >= 0) {
            std::fflush(nullptr);
            ::dup2(printed, STDOUT_FILENO);
            ::dup2(printed, STDERR_FILENO);
        }
        ::alarm(timeout_seconds); // a hang becomes SIGALRM
        outcome o;
        try {
            if (std::string e = box->enter(); !e.empty())
                o = outcome::fail(e);
            else
                o = body();
        } catch (const std::exception& e) {
            o = outcome::fail(std::string("exception escaped: ") + e.what());
        } catch (...) {
            o = outcome::fail("unknown exception escaped");
        }
        // The ABI: threads a plugin starts are joined before its calls
        // return, and it leaves no process behind.
        if (o.ok())
            if (const std::string left = leftovers(); !left.empty())
                o = outcome::fail("the plugin left " + left + " running after its streams were closed",
                                  rule::no_leftovers);
        std::fflush(nullptr);
        if (o.ok() && printed >= 0 && ::lseek(printed, 0, SEEK_END) > 0) {
            char text[201] = "";
            const ssize_t n = ::pread(printed, text, sizeof text - 1, 0);
            std::string shown(text, n > 0 ? static_cast<std::size_t>(n) : 0);
            while (!shown.empty() && (shown.back() == '\n' || shown.back() == ' '))
                shown.pop_back();
            o = outcome::fail("the plugin printed '" + escape_line(shown) + "'", rule::no_print);
        }
        std::string text = serialize(o);
        std::size_t off = 0;
        while (off < text.size()) {
            ssize_t w = ::write(fds[1], text.data() + off, text.size() - off);
            if (w <= 0) break;
            off += static_cast<std::size_t>(w);
        }
        ::_exit(0); // no atexit handlers, no test framework teardown in the child
    }
    ::setpgid(pid, pid);
    ::close(fds[1]);
    if (printed >= 0) ::close(printed);
    // The parent's own deadline: a plugin may block or ignore SIGALRM. The
    // reply ends when the child has exited (not at end of file: a process
    // the plugin started may hold the pipe open).
    const int grace_ms = 2000;
    const long long deadline_ms = static_cast<long long>(timeout_seconds) * 1000 + grace_ms;
    long long waited_ms = 0;
    bool killed = false, exited = false, interrupted = false;
    int status = 0;
    std::string text;
    char buf[4096];
    for (;;) {
        if (stop && *stop) {
            ::kill(-pid, SIGKILL);
            interrupted = true;
            break;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        int n = ::poll(&pfd, 1, exited ? 0 : 200);
        if (n < 0 && errno == EINTR) continue;
        if (n > 0) {
            ssize_t r = ::read(fds[0], buf, sizeof buf);
            if (r < 0 && errno == EINTR) continue;
            if (r > 0) {
                text.append(buf, static_cast<std::size_t>(r));
                continue;
            }
            if (r == 0 && !exited) { // end of file: the child is gone
                while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
                }
                exited = true;
            }
            break;
        }
        if (exited) break; // drained
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            continue; // read what it wrote before exiting
        }
        waited_ms += 200;
        if (waited_ms >= deadline_ms) {
            ::kill(-pid, SIGKILL);
            killed = true;
            break;
        }
    }
    ::close(fds[0]);
    ::kill(-pid, SIGKILL); // the group: anything the plugin started
    if (!exited)
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    if (interrupted) return outcome::fail("interrupted");
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGALRM || killed)
            return outcome::fail("hung: no result within " + std::to_string(timeout_seconds) + " s",
                                 rule::time_limit);
        return outcome::fail(std::string("crashed with signal ") + std::to_string(sig) + " (" +
                                 strsignal(sig) + ")",
                             rule::no_crash);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return outcome::fail("the plugin ended the process (exit status " +
                                 std::to_string(WEXITSTATUS(status)) + ")",
                             rule::no_crash);
    outcome o = deserialize(text);
    // The working folder, HOME and TMPDIR hold what they held before: the
    // check's own data folders under TMPDIR are removed by the time the
    // body returns.
    if (const auto changed = box->changes(); !changed.empty()) {
        std::string list;
        for (const auto& c : changed)
            list += (list.empty() ? "" : ", ") + c;
        if (o.what == outcome::failed)
            o.reason += "; and outside its path it " + list;
        else
            o = outcome::fail("outside its path the plugin " + list, rule::only_its_path);
    }
    return o;
}

std::vector<std::string> output_files(const std::string& path) {
    std::vector<std::string> out;
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        out.push_back(path);
    } else if (fs::is_directory(path, ec)) {
        for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec)) out.push_back(it->path().string());
    }
    return out;
}

bool permissions_are_enforced(const std::string& scratch) {
    std::string ro = scratch + "/probe_ro";
    std::error_code ec;
    fs::create_directory(ro, ec);
    fs::permissions(ro,
                    fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                        fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec,
                    ec);
    int fd = ::open((ro + "/probe").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    bool enforced = fd < 0;
    if (fd >= 0) {
        ::close(fd);
        ::unlink((ro + "/probe").c_str());
    }
    fs::permissions(ro, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove(ro, ec);
    return enforced;
}

fb_dtype widest_dtype(const formatbench::plugin& p) {
    fb_dtype best = FB_DTYPE_U8;
    std::size_t best_size = 0;
    for (fb_dtype d : formatbench::all_dtypes)
        if (p.supports(d) && formatbench::dtype_size(d) > best_size) {
            best = d;
            best_size = formatbench::dtype_size(d);
        }
    return best;
}

std::string sanitize(const std::string& text) {
    std::string out;
    for (char c : text) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        out += ok ? c : '_';
    }
    return out;
}

} // namespace formatbench::conformance
