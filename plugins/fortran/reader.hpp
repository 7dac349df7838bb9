// The fortran plugin's reader. Formatted files and unformatted stream files
// are read with the gfortran runtime's read statements: one per call, or
// statements of values_per_statement values with the rest of the last one
// kept for the next call. Unformatted sequential files are read through
// their record markers (see reader.cpp), so that any record layout reads
// back with any chunk sizes.
#pragma once

#include "settings.hpp"

#include <formatbench/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::detail {

class fortran_reader {
public:
    explicit fortran_reader(const sdk::open_request& request);
    fortran_reader(fortran_reader&& other) noexcept;
    fortran_reader& operator=(fortran_reader&&) = delete;
    ~fortran_reader();

    // Reads exactly count values or throws: FB_E_TRUNCATED when the file ends
    // first, FB_E_CORRUPT when the runtime cannot read it as values.
    void read(void* data, std::uint64_t count);
    void close();

private:
    void read_statements(unsigned char* out, std::uint64_t count);
    void read_records(unsigned char* out, std::uint64_t count);
    // One read statement of n >= 1 values into out.
    void statement(unsigned char* out, std::uint64_t n);
    // Unformatted stream read of n >= 1 bytes of a sequential file.
    void raw(void* out, std::uint64_t n, const char* what);
    // The next subrecord with data (its leading marker read), after the
    // trailing marker of the current one.
    void next_subrecord();
    // Reads and checks the current subrecord's trailing marker.
    void end_subrecord();
    [[noreturn]] void fail(fb_status status, const std::string& what) const;

    std::string path_;
    fb_dtype dtype_;
    std::size_t size_;
    fortran_settings settings_;
    bool records_; // unformatted sequential: read through the record markers
    std::uint64_t total_;
    int unit_ = 0;
    bool open_ = false;
    std::uint64_t delivered_ = 0; // values handed to the host
    // Statements: values read from the file so far, and those of the last
    // statement not yet handed over (carry_[carry_at_..]).
    std::uint64_t statement_values_ = 0;
    std::vector<unsigned char> carry_;
    std::size_t carry_at_ = 0;
    // Records: the file's size (-1: not a regular file), bytes consumed, and
    // the current subrecord.
    std::int64_t file_size_ = -1;
    std::uint64_t offset_ = 0;
    bool in_subrecord_ = false;    // its trailing marker is still to come
    std::uint64_t sub_length_ = 0; // payload bytes of the current subrecord
    std::uint64_t sub_left_ = 0;
    bool sub_continues_ = false; // its leading marker was negative
    bool sub_first_ = true;      // the first subrecord of its record
};

} // namespace formatbench::detail
