// The first failure of a stream, kept: once a call of a compressing stream
// has failed, every later call fails the same way, because its frame, block
// or checksum can no longer be right (the host may still call write, read or
// close after an error). Shared by the zlib, zstd and lz4 readers and writers.
#pragma once

#include <formatbench/plugin.hpp>

#include <exception>
#include <new>
#include <string>
#include <utility>

namespace formatbench::detail {

class sticky_failure {
public:
    bool failed() const noexcept { return failed_; }
    fb_status status() const noexcept { return status_; }
    const std::string& message() const noexcept { return message_; }

    // Throws the kept failure, if there is one.
    void rethrow() const {
        if (failed_) throw sdk::error(status_, message_);
    }

    // Runs fn and keeps what it throws: an sdk::error as it is, bad_alloc as
    // FB_E_NO_MEMORY "<prefix>out of memory <doing> '<path>'", anything else
    // as FB_E_INTERNAL with its what(); then throws it on as an sdk::error.
    template <class Fn>
    void run(Fn&& fn, const char* prefix, const char* doing, const std::string& path) {
        try {
            std::forward<Fn>(fn)();
        } catch (const sdk::error& e) {
            keep(e.status(), e.what());
            throw;
        } catch (const std::bad_alloc&) {
            keep(FB_E_NO_MEMORY, std::string(prefix) + "out of memory " + doing + " '" + path + "'");
            rethrow();
        } catch (const std::exception& e) {
            keep(FB_E_INTERNAL, e.what());
            rethrow();
        }
    }

private:
    void keep(fb_status status, std::string message) {
        failed_ = true;
        status_ = status;
        message_ = std::move(message);
    }

    bool failed_ = false;
    fb_status status_ = FB_OK;
    std::string message_;
};

} // namespace formatbench::detail
