// Building blocks of the plugin conformance checks (conformance.hpp), shared
// by `formatbench check-plugin` and the GoogleTest suite: deterministic
// test data and its comparison, buffers that show a read past its end, plain
// C-ABI drivers (to see a plugin's own status and message, unwrapped by the
// host), a file size limit that makes writes fail, and running a check in a
// child process and its own folders (conformance_sandbox.hpp) so that a
// crash or a hang is a failure of that check instead of the end of the
// checker.
#pragma once

#include "host/conformance_rules.hpp"
#include "host/conformance_sandbox.hpp"
#include "host/plugin_handle.hpp"

#include <formatbench/plugin.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace formatbench::conformance {

// A page-aligned byte buffer, as the runner hands to plugins.
class aligned_buffer {
public:
    explicit aligned_buffer(std::size_t bytes);
    unsigned char* data() noexcept { return data_.get(); }
    const unsigned char* data() const noexcept { return data_.get(); }
    std::size_t size() const noexcept { return size_; }

private:
    struct free_deleter {
        void operator()(unsigned char* p) const noexcept;
    };
    std::unique_ptr<unsigned char[], free_deleter> data_;
    std::size_t size_;
};

// A buffer for a read of `bytes` whose end is watched: a canary stretch
// follows it up to a page boundary (at least 64 bytes), then a page that
// cannot be touched. A read that writes past the values asked for changes the
// canary (overrun() says where) or faults. Page-aligned, like aligned_buffer.
class guarded_buffer {
public:
    explicit guarded_buffer(std::size_t bytes);
    guarded_buffer(const guarded_buffer&) = delete;
    guarded_buffer& operator=(const guarded_buffer&) = delete;
    ~guarded_buffer();
    unsigned char* data() noexcept { return base_; }
    std::size_t size() const noexcept { return size_; }
    // Bytes past the end up to and including the last canary byte that
    // changed; 0 when the canary is intact.
    std::size_t overrun() const noexcept;

private:
    unsigned char* base_ = nullptr;
    std::size_t size_ = 0;
    std::size_t canary_ = 0; // bytes between the end and the guard page
    std::size_t mapped_ = 0; // everything mapped, guard page included
};

// While it lives, files this process writes can grow to `bytes` only: a
// write(2) past the limit fails with EFBIG, as writes to a full disk fail
// with ENOSPC, whoever the process is (RLIMIT_FSIZE binds root too) and
// however the file was opened. SIGXFSZ is ignored meanwhile, so the write
// fails instead of killing the process.
class file_size_limit {
public:
    explicit file_size_limit(std::uint64_t bytes);
    file_size_limit(const file_size_limit&) = delete;
    file_size_limit& operator=(const file_size_limit&) = delete;
    ~file_size_limit();

private:
    bool set_ = false;
    std::uint64_t old_soft_ = 0;
    void (*old_handler_)(int) = SIG_DFL;
};

// count values of dtype d, a pure function of (d, count, seed). For floats
// the first values are the special cases (0, -0, subnormals, limits, inf,
// NaNs with payloads and signs); the rest are uniformly random bit patterns,
// so every exponent and many NaNs occur. Integers start with 0, -1, 1 and the
// limits; u8 is random bytes.
aligned_buffer make_data(fb_dtype d, std::uint64_t count, std::uint64_t seed);

// Outcome of comparing what was read with what was written.
struct comparison {
    std::uint64_t mismatches = 0;     // values that differ (NaN rule below)
    std::uint64_t first_mismatch = 0; // index of the first, when mismatches > 0
    std::string first_detail;         // "wrote 0x.. (1.5), read 0x.. (1.25)"
    std::uint64_t nan_payload_changes = 0;
};

// One value as a message shows it: its bits in hex and its value for
// floats ("0x3ff8000000000000 (1.5)"), the number for integers.
std::string value_text(fb_dtype d, const unsigned char* p);

// Bitwise comparison, except that any NaN equals any NaN: a text format's
// shortest round trip cannot carry a NaN's payload or sign, and the C ABI
// gives no way to tell a text plugin from a binary one. Payload changes are
// counted separately (nan_payload_changes) and reported, not failed.
comparison compare_exact(fb_dtype d, const unsigned char* expected, const unsigned char* actual,
                         std::uint64_t count);

// A status and message straight from the C ABI, with the call that failed.
struct c_result {
    fb_status status = FB_OK;
    std::string stage; // "open_write", "write", "close_write", "open_read", "read", "close_read"
    std::string message;
    bool ok() const noexcept { return status == FB_OK; }
    std::string text() const; // "read: FB_E_TRUNCATED: <message>"
};

const char* status_name(fb_status s) noexcept;

// Writes count values in chunks of `chunk` through the descriptor. Always
// calls close_write for an opened stream (the contract), also after a failed
// write; returns the first failure.
c_result c_write(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype, const void* data,
                 std::uint64_t count, std::uint64_t chunk, const formatbench::option_list& options);
// Reads count values in chunks into out (may be null when count is 0).
c_result c_read(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype, void* out,
                std::uint64_t count, std::uint64_t chunk, const formatbench::option_list& options);
// Only open_write, with a stream closed at once on success.
c_result c_open_write(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype,
                      std::uint64_t count, const formatbench::option_list& options, bool& stream_returned);
c_result c_open_read(const fb_plugin_descriptor& d, const std::string& path, fb_dtype dtype,
                     std::uint64_t count, const formatbench::option_list& options, bool& stream_returned);

// What one check found.
// warned: it passed, but found something the author should look at (an
// option whose values all write the same bytes); reason says what.
struct outcome {
    enum kind { passed, failed, skipped, warned } what = passed;
    std::string reason; // why it failed, was skipped or warns; empty when it passed
    std::string note;   // something worth saying even when it passed

    static outcome pass(std::string note = {}) { return {passed, {}, std::move(note)}; }
    static outcome fail(std::string why) { return {failed, std::move(why), {}}; }
    // A failure that broke one of the rules (conformance_rules.hpp): the
    // reason is "<why>; rule: <rule>".
    static outcome fail(const std::string& why, const char* broken_rule) {
        return {failed, why + "; rule: " + broken_rule, {}};
    }
    static outcome skip(std::string why) { return {skipped, std::move(why), {}}; }
    static outcome warn(std::string what) { return {warned, std::move(what), {}}; }
    // Passed, with or without a warning.
    bool ok() const noexcept { return what == passed || what == warned; }
};

// Runs body in a forked child, in a process group of its own, with a time
// limit of timeout_seconds (SIGALRM in the child, SIGKILL to its group from
// the parent a moment later in case the plugin blocks the alarm), in a
// check_sandbox: its working folder, HOME and TMPDIR are fresh folders that
// the parent removes afterwards, whatever became of the child. A child that
// dies from a signal, exits without a result or runs out of time is a
// failure saying so; an exception that escapes body is a failure with its
// message; a child that printed, left threads or processes running, or
// created, changed or removed anything in the sandbox's folders fails (the
// body watches its own data folders). When *stop becomes non-zero (a signal
// handler's flag), the child is killed at once and the check fails as
// "interrupted".
outcome run_in_child(const std::function<outcome()>& body, unsigned timeout_seconds,
                     const volatile std::sig_atomic_t* stop = nullptr);

// The largest-element dtype the plugin supports (most bytes per value).
fb_dtype widest_dtype(const formatbench::plugin& p);

// Test names may hold only [A-Za-z0-9_].
std::string sanitize(const std::string& text);

// The regular files a plugin wrote at path (the path itself, or the files
// inside it for directory output).
std::vector<std::string> output_files(const std::string& path);

// Whether this process is kept out of a 0555 folder (false for root or with
// CAP_DAC_OVERRIDE, where a read-only folder proves nothing). Probes inside
// scratch.
bool permissions_are_enforced(const std::string& scratch);

} // namespace formatbench::conformance
