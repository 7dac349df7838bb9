// The fortran plugin's writer (see writer.hpp).
//
// Lost output: gfortran 12 does not report write errors of buffered output.
// A formatted write to /dev/full, or to a regular file past a file size
// limit, returns iostat 0 from write, flush and close alike, and so does the
// unformatted tail that waits in the runtime's buffer until close (checked
// with gfortran 12.2; large unformatted transfers go straight to write(2)
// and are reported). So the writer accepts regular files only, and at close
// compares the file's size with the size the runtime says it wrote (inquire
// size=): a difference is reported as the I/O error the runtime swallowed.
#include "writer.hpp"

#include "runtime.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace formatbench::detail {

namespace {

// What every open checks about the path: gfortran trims trailing blanks
// from file names, so such a path would name another file.
void check_path(const std::string& path) {
    if (!path.empty() && path.back() == ' ')
        throw sdk::error(FB_E_UNSUPPORTED, "fortran: '" + path +
                                               "' ends in a blank, which Fortran's OPEN drops from a file "
                                               "name; choose a path without trailing blanks");
}

} // namespace

fortran_writer::fortran_writer(const sdk::open_request& r)
    : path_(r.path), dtype_(r.dtype), size_(r.element_size()), settings_(fortran_settings::from(r.options)) {
    check_path(path_);
    if (settings_.write_mode() == FBF_MODE_EXPLICIT) {
        runtime_message m;
        if (fbf_check_format(dtype_, 0, settings_.format.data(),
                             static_cast<std::int64_t>(settings_.format.size()), m.data(), m.size) != 0)
            throw sdk::error(FB_E_INVALID_OPTION, "fortran: option 'format' is '" + settings_.format +
                                                      "', which does not write " + sdk::dtype_name(dtype_) +
                                                      " values: " + one_line(m) + " (opening '" + path_ +
                                                      "')");
    }
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw sdk::error(FB_E_UNSUPPORTED,
                         "fortran: '" + path_ +
                             "' is not a regular file; the plugin writes regular files only, because the "
                             "gfortran runtime does not report errors of its buffered writes (a full disk, "
                             "an I/O error) and a regular file's size at close shows them");
    runtime_message m;
    if (fbf_open(path_.data(), static_cast<std::int64_t>(path_.size()), 1, settings_.formatted,
                 settings_.stream, &unit_, m.data(), m.size) != 0)
        throw sdk::error(FB_E_IO, "fortran: cannot create '" + path_ + "': " + one_line(m));
    open_ = true;
}

fortran_writer::fortran_writer(fortran_writer&& o) noexcept
    : path_(std::move(o.path_)), dtype_(o.dtype_), size_(o.size_), settings_(std::move(o.settings_)),
      unit_(o.unit_), open_(std::exchange(o.open_, false)), written_(o.written_), carry_(std::move(o.carry_)),
      failed_(std::move(o.failed_)) {}

fortran_writer::~fortran_writer() {
    if (open_) {
        runtime_message m;
        fbf_close(unit_, m.data(), m.size); // close() was not called: nothing to report to
    }
}

void fortran_writer::statement(const void* head, std::uint64_t nhead, const void* data, std::uint64_t n) {
    runtime_message m;
    const std::string& f = settings_.format;
    int ios =
        fbf_write(unit_, dtype_, settings_.write_mode(), f.data(), static_cast<std::int64_t>(f.size()), head,
                  static_cast<std::int64_t>(nhead), data, static_cast<std::int64_t>(n), m.data(), m.size);
    if (ios == 0) {
        written_ += nhead + n;
        return;
    }
    failed_ = "fortran: cannot write values " + std::to_string(written_ + 1) + ".." +
              std::to_string(written_ + nhead + n) + " to '" + path_ + "': " + one_line(m);
    throw sdk::error(FB_E_IO, failed_);
}

void fortran_writer::write(const void* data, std::uint64_t count) {
    if (!open_) throw sdk::error(FB_E_STATE, "fortran: write to '" + path_ + "' after close");
    if (!failed_.empty()) throw sdk::error(FB_E_IO, "fortran: an earlier write failed: " + failed_);
    if (count > UINT64_MAX / size_)
        throw sdk::error(FB_E_INVALID_OPTION, "fortran: a write of " + std::to_string(count) +
                                                  " values to '" + path_ + "' overflows a 64-bit byte count");
    const auto* p = static_cast<const unsigned char*>(data);
    const std::uint64_t per = settings_.per_statement;
    if (count == 0) return;
    if (per == 0) {
        statement(nullptr, 0, p, count);
        return;
    }
    if (!carry_.empty()) {
        // Complete the statement begun by earlier chunks, in one statement.
        const std::uint64_t carried = carry_.size() / size_;
        const std::uint64_t take = std::min(count, per - carried);
        if (carried + take < per) {
            carry_.insert(carry_.end(), p, p + take * size_);
            return;
        }
        statement(carry_.data(), carried, p, take);
        carry_.clear();
        p += take * size_;
        count -= take;
    }
    for (; count >= per; count -= per, p += per * size_)
        statement(nullptr, 0, p, per);
    carry_.assign(p, p + count * size_); // fewer than per values wait for the next chunk
}

void fortran_writer::close() {
    if (!open_) return;
    if (!carry_.empty() && failed_.empty()) {
        std::uint64_t n = carry_.size() / size_;
        statement(nullptr, 0, carry_.data(), n);
        carry_.clear();
    }
    runtime_message m;
    std::int64_t wrote = -1;
    fbf_size(unit_, &wrote, m.data(), m.size);
    open_ = false;
    if (fbf_close(unit_, m.data(), m.size) != 0)
        throw sdk::error(FB_E_IO, "fortran: cannot close '" + path_ + "': " + one_line(m));
    if (!failed_.empty()) throw sdk::error(FB_E_IO, failed_);
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) throw sdk::io_error("fortran: cannot stat", path_, errno);
    if (wrote >= 0 && S_ISREG(st.st_mode) && st.st_size != wrote)
        throw sdk::error(FB_E_IO, "fortran: '" + path_ + "' holds " + std::to_string(st.st_size) +
                                      " bytes after close, but the gfortran runtime wrote " +
                                      std::to_string(wrote) +
                                      ": output was lost (a full disk, a quota or a file size limit?); the "
                                      "runtime does not report errors of its buffered writes");
}

} // namespace formatbench::detail
