// File access of the compressing plugins; see file_io.hpp.
#include "file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>

namespace formatbench::detail {

output_file::output_file(std::string path, std::size_t buffer_size, const sdk::file_wording& wording)
    : path_(std::move(path)), wording_(wording), buffer_(buffer_size) {}

void output_file::open() {
    // created() tells discard() whether the path is ours to remove: never a
    // device such as /dev/full, or a file the host chose to keep.
    file_ = sdk::file::create(path_, wording_);
}

void output_file::abandon() noexcept {
    file_.reset();
    used_ = 0;
}

std::span<unsigned char> output_file::space(std::size_t at_least) {
    at_least = std::clamp<std::size_t>(at_least, 1, buffer_.size());
    if (buffer_.size() - used_ < at_least) flush();
    return {buffer_.data() + used_, buffer_.size() - used_};
}

void output_file::append(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    if (used_ == 0 && n >= buffer_.size()) return write_all(p, n);
    while (n > 0) {
        auto room = space();
        std::size_t k = n < room.size() ? n : room.size();
        std::memcpy(room.data(), p, k);
        used_ += k;
        p += k;
        n -= k;
    }
}

void output_file::flush() {
    if (used_ == 0) return;
    std::size_t n = used_;
    used_ = 0; // after a failure the bytes are dropped, not written twice
    write_all(buffer_.data(), n);
}

void output_file::write_all(const unsigned char* data, std::size_t n) {
    if (!file_.is_open())
        throw sdk::error(FB_E_STATE,
                         std::string(wording_.prefix) + "write to '" + path_ + "' after it was closed");
    io_.time([&] { file_.write_all(data, n); });
    written_ += n;
}

void output_file::write_at(const void* data, std::size_t n, std::uint64_t offset) {
    flush();
    io_.time([&] { file_.write_all_at(data, n, offset); });
}

void output_file::close() {
    flush();
    file_.close();
}

sdk::file open_input(const std::string& path, const sdk::file_wording& wording) {
    sdk::file f = sdk::file::open_read(path, wording);
    if (S_ISDIR(f.status().st_mode)) f.fail(wording.read, EISDIR);
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(f.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    return f;
}

} // namespace formatbench::detail
