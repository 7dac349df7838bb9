// The fortran plugin's reader (see reader.hpp).
//
// Unformatted sequential files: a read statement that asks for fewer values
// than a record holds skips the rest of the record without a word, and
// Fortran cannot ask how long the next record is. So the reader opens these
// files with stream access and reads the record markers with the runtime
// itself: gfortran's layout (its manual, "File format of unformatted
// sequential files") is a 4-byte leading marker, the data, and a 4-byte
// trailing marker, per subrecord of at most 2147483639 bytes; a negative
// leading marker says another subrecord of the same record follows, a
// negative trailing one that one came before. The payloads, in order, are
// the values; the markers are checked against each other and against the
// file size, so a damaged file is reported instead of read as data.
#include "reader.hpp"

#include "fortran_io.h"
#include "runtime.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace formatbench::detail {

namespace {

const char* mode_name(int mode) {
    switch (mode) {
    case FBF_MODE_UNFORMATTED: return "unformatted";
    case FBF_MODE_LIST_DIRECTED: return "list-directed";
    default: return "formatted";
    }
}

} // namespace

fortran_reader::fortran_reader(const sdk::open_request& r)
    : path_(r.path), dtype_(r.dtype), size_(r.element_size()), settings_(fortran_settings::from(r.options)),
      records_(!settings_.formatted && !settings_.stream), total_(r.count) {
    if (!path_.empty() && path_.back() == ' ')
        throw sdk::error(FB_E_UNSUPPORTED, "fortran: '" + path_ +
                                               "' ends in a blank, which Fortran's OPEN drops from a file "
                                               "name; choose a path without trailing blanks");
    if (settings_.read_mode() == FBF_MODE_EXPLICIT) {
        runtime_message m;
        const std::string& f = settings_.read_format;
        if (fbf_check_format(dtype_, 1, f.data(), static_cast<std::int64_t>(f.size()), m.data(), m.size) != 0)
            throw sdk::error(FB_E_INVALID_OPTION, "fortran: option 'read_format' is '" + f +
                                                      "', which does not read " + sdk::dtype_name(dtype_) +
                                                      " values: " + one_line(m) + " (opening '" + path_ +
                                                      "')");
    }
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw sdk::error(FB_E_IO, "fortran: '" + path_ + "' is a directory, not a file to read");
        if (S_ISREG(st.st_mode)) file_size_ = static_cast<std::int64_t>(st.st_size);
    }
    // An unformatted stream file holds the values and nothing else: its size
    // says whether it holds the count asked for (as raw's does).
    if (!settings_.formatted && settings_.stream && file_size_ >= 0 && total_ != FB_COUNT_UNKNOWN) {
        auto actual = static_cast<std::uint64_t>(file_size_);
        if (total_ > UINT64_MAX / size_)
            throw sdk::error(FB_E_INVALID_OPTION, "fortran: a count of " + std::to_string(total_) +
                                                      " values overflows a 64-bit byte size ('" + path_ +
                                                      "')");
        std::string sizes = "expected " + std::to_string(total_ * size_) + " bytes (" +
                            std::to_string(total_) + " " + sdk::dtype_name(dtype_) + " values), found " +
                            std::to_string(actual);
        if (actual < total_ * size_)
            throw sdk::error(FB_E_TRUNCATED, "fortran: '" + path_ + "' is too small: " + sizes +
                                                 "; the file is truncated or holds fewer values");
        if (actual > total_ * size_)
            throw sdk::error(FB_E_CORRUPT,
                             "fortran: '" + path_ + "' is too large: " + sizes +
                                 "; an unformatted stream file holds nothing but the values, so "
                                 "the count or dtype does not match the file");
    }
    runtime_message m;
    // Sequential unformatted files are read with stream access (see above).
    if (fbf_open(path_.data(), static_cast<std::int64_t>(path_.size()), 0, settings_.formatted,
                 settings_.stream || records_, &unit_, m.data(), m.size) != 0)
        throw sdk::error(FB_E_IO, "fortran: cannot open '" + path_ + "': " + one_line(m));
    open_ = true;
}

fortran_reader::fortran_reader(fortran_reader&& o) noexcept
    : path_(std::move(o.path_)), dtype_(o.dtype_), size_(o.size_), settings_(std::move(o.settings_)),
      records_(o.records_), total_(o.total_), unit_(o.unit_), open_(std::exchange(o.open_, false)),
      delivered_(o.delivered_), statement_values_(o.statement_values_), carry_(std::move(o.carry_)),
      carry_at_(o.carry_at_), file_size_(o.file_size_), offset_(o.offset_), in_subrecord_(o.in_subrecord_),
      sub_length_(o.sub_length_), sub_left_(o.sub_left_), sub_continues_(o.sub_continues_),
      sub_first_(o.sub_first_) {}

fortran_reader::~fortran_reader() {
    if (open_) {
        runtime_message m;
        fbf_close(unit_, m.data(), m.size); // nothing to report to
    }
}

void fortran_reader::fail(fb_status status, const std::string& what) const {
    throw sdk::error(status, "fortran: '" + path_ + "': " + what);
}

void fortran_reader::read(void* data, std::uint64_t count) {
    if (!open_) throw sdk::error(FB_E_STATE, "fortran: read from '" + path_ + "' after close");
    if (count == 0) return;
    if (count > UINT64_MAX / size_)
        fail(FB_E_INVALID_OPTION,
             "a read of " + std::to_string(count) + " values overflows a 64-bit byte count");
    auto* out = static_cast<unsigned char*>(data);
    if (records_)
        read_records(out, count);
    else
        read_statements(out, count);
    delivered_ += count;
}

void fortran_reader::close() {
    if (!std::exchange(open_, false)) return;
    runtime_message m;
    if (fbf_close(unit_, m.data(), m.size) != 0)
        throw sdk::error(FB_E_IO, "fortran: cannot close '" + path_ + "': " + one_line(m));
}

// ---- Statements -----------------------------------------------------------------

void fortran_reader::statement(unsigned char* out, std::uint64_t n) {
    runtime_message m;
    const std::string& f = settings_.read_format;
    const int mode = settings_.read_mode();
    int ios = fbf_read(unit_, dtype_, mode, f.data(), static_cast<std::int64_t>(f.size()), out,
                       static_cast<std::int64_t>(n), m.data(), m.size);
    const std::uint64_t first = statement_values_ + 1;
    statement_values_ += n;
    if (ios == 0) return;
    std::string which = "values " + std::to_string(first) + ".." + std::to_string(statement_values_) + " (" +
                        mode_name(mode) + " read of " + sdk::dtype_name(dtype_) + ")";
    if (ios == iostat_end())
        fail(FB_E_TRUNCATED, "the file ends before " + which + " were all read: " + one_line(m) +
                                 (mode == FBF_MODE_UNFORMATTED
                                      ? std::string()
                                      : "; note that a formatted read statement skips the rest of the "
                                        "record it ends in, so records of several values read back only "
                                        "with statements that end where the records end (README)"));
    fail(ios == iostat_os_error ? FB_E_IO : FB_E_CORRUPT, "cannot read " + which + ": " + one_line(m));
}

void fortran_reader::read_statements(unsigned char* out, std::uint64_t count) {
    // Values of a statement read ahead by the previous call come first.
    if (carry_at_ < carry_.size()) {
        std::size_t take =
            static_cast<std::size_t>(std::min<std::uint64_t>(count * size_, carry_.size() - carry_at_));
        std::memcpy(out, carry_.data() + carry_at_, take);
        carry_at_ += take;
        out += take;
        count -= take / size_;
    }
    if (count == 0) return;
    const std::uint64_t per = settings_.per_statement;
    if (per == 0) {
        statement(out, count);
        return;
    }
    for (; count >= per; count -= per, out += per * size_)
        statement(out, per);
    if (count == 0) return;
    // Part of the next statement: read it whole and keep the rest. It is as
    // long as the writer's (per values), or what is left of the values the
    // host reads in all, when that is less.
    std::uint64_t left = total_ >= statement_values_ ? total_ - statement_values_ : 0;
    std::uint64_t n = std::min(per, std::max(left, count));
    carry_.resize(n * size_);
    statement(carry_.data(), n);
    std::memcpy(out, carry_.data(), count * size_);
    carry_at_ = count * size_;
}

// ---- Records of unformatted sequential files ---------------------------------------

void fortran_reader::raw(void* out, std::uint64_t n, const char* what) {
    runtime_message m;
    int ios = fbf_read_bytes(unit_, out, static_cast<std::int64_t>(n), m.data(), m.size);
    if (ios == 0) {
        offset_ += n;
        return;
    }
    std::string where = "at byte " + std::to_string(offset_) + " (after " + std::to_string(delivered_) +
                        " values had been handed over)";
    if (ios == iostat_end())
        fail(FB_E_TRUNCATED, std::string("the file ends in ") + what + " " + where +
                                 "; it is truncated or holds fewer values than asked for");
    fail(ios == iostat_os_error ? FB_E_IO : FB_E_CORRUPT,
         std::string("cannot read ") + what + " " + where + ": " + one_line(m));
}

void fortran_reader::end_subrecord() {
    std::int32_t trailing = 0;
    raw(&trailing, sizeof trailing, "a record's trailing length marker");
    // A negative trailing marker says a subrecord of the same record came
    // before this one; a zero-length subrecord has no sign to check.
    std::uint64_t magnitude = trailing < 0 ? 0 - static_cast<std::uint64_t>(std::int64_t{trailing})
                                           : static_cast<std::uint64_t>(trailing);
    if (magnitude != sub_length_ || (sub_length_ > 0 && (trailing < 0) == sub_first_))
        fail(FB_E_CORRUPT, "the record markers around the " + std::to_string(sub_length_) +
                               " bytes before byte " + std::to_string(offset_ - 4) +
                               " do not match (trailing " + std::to_string(trailing) +
                               "); not an unformatted sequential file of gfortran's layout (4-byte markers)");
    sub_first_ = !sub_continues_;
    in_subrecord_ = false;
}

void fortran_reader::next_subrecord() {
    for (;;) {
        if (in_subrecord_) end_subrecord();
        const std::uint64_t at = offset_;
        std::int32_t leading = 0;
        raw(&leading, sizeof leading, "a record's leading length marker");
        if (leading == std::numeric_limits<std::int32_t>::min())
            fail(FB_E_CORRUPT, "the record marker at byte " + std::to_string(at) +
                                   " is -2^31, which no length is; not an unformatted sequential file");
        sub_continues_ = leading < 0;
        sub_length_ =
            static_cast<std::uint64_t>(leading < 0 ? -std::int64_t{leading} : std::int64_t{leading});
        sub_left_ = sub_length_;
        in_subrecord_ = true;
        // The data and the trailing marker must fit in the file.
        if (file_size_ >= 0 && sub_length_ + 4 > static_cast<std::uint64_t>(file_size_) - offset_)
            fail(FB_E_TRUNCATED, "the record at byte " + std::to_string(at) + " says " +
                                     std::to_string(sub_length_) + " bytes of data, but only " +
                                     std::to_string(static_cast<std::uint64_t>(file_size_) - offset_) +
                                     " bytes follow its marker; the file is truncated or not an unformatted "
                                     "sequential file");
        if (sub_length_ > 0) return;
    }
}

void fortran_reader::read_records(unsigned char* out, std::uint64_t count) {
    std::uint64_t bytes = count * size_;
    while (bytes > 0) {
        if (sub_left_ == 0) next_subrecord();
        std::uint64_t take = std::min(bytes, sub_left_);
        raw(out, take, "a record's data");
        sub_left_ -= take;
        out += take;
        bytes -= take;
    }
    // The last value asked for ends a subrecord: its trailing marker is
    // checked too, so a file cut right after the data is not taken whole.
    if (delivered_ + count == total_ && sub_left_ == 0 && in_subrecord_) end_subrecord();
}

} // namespace formatbench::detail
