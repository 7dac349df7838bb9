// The ascii reader: parses a large regular file in place in a mapping, and
// anything else (small files, pipes) through a bounded, page-aligned buffer;
// parses large regions on two threads, and reports a bad or
// missing value with the path, line and column.
#pragma once

#include "file_io.hpp"
#include "parse.hpp"
#include "two_threads.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace formatbench::detail {

class text_reader {
public:
    explicit text_reader(const sdk::open_request& request);
    // Reads exactly `count` values or throws: FB_E_TRUNCATED when the file
    // ends first, FB_E_CORRUPT for a token that is not a value of the dtype.
    // Data after the values the host asks for is ignored.
    void read(void* data, std::uint64_t count);
    void close();

private:
    template <class T>
    void read_typed(T* out, std::size_t count);
    // Parses a large region on both threads: this one takes pieces from the
    // front into `out`, the helper from the back into scratch_.
    template <class T>
    std::size_t parse_shared(const char* region_end, T* out, std::size_t need);
    // The end of the text that holds only whole tokens: the last separator
    // in [pos_, end_), or end_ at end of file.
    const char* safe_end() const noexcept;
    // Carries the unparsed tail to the front of the buffer and reads the
    // next block behind it (buffered path).
    void refill();
    // Moves pos_ to r.stop, keeping the line count and the list-directed
    // state in step.
    void advance(const parse_result& r) noexcept;
    [[noreturn]] void fail_at(const char* where, fb_status status, const std::string& what) const;
    [[noreturn]] void fail_token(const char* where, token_problem problem) const;

    std::string path_;
    fb_dtype dtype_;
    sdk::file file_;
    // Mapped mode: the whole file is [data_, end_), eof_ is set from the
    // start, and each round takes at most round_bytes of it.
    text_mapping map_;
    aligned_buffer memory_;
    char* data_ = nullptr;      // where each block is read to (page-aligned)
    const char* pos_ = nullptr; // first unparsed byte
    const char* end_ = nullptr; // end of the bytes read
    bool eof_ = false;
    std::int64_t data_offset_ = 0; // file offset of data_[0]
    std::uint64_t line_ = 1;       // line of pos_ (1-based)
    std::int64_t line_offset_ = 0; // file offset where that line starts
    std::uint64_t values_done_ = 0;
    // Fortran list-directed state between parses: whether a comma came
    // since the last value (true at the start: a comma first is a null
    // value), and the copies of a repeat count "r*c" still to hand out.
    bool comma_ = true;
    std::uint64_t repeat_left_ = 0;
    std::uint64_t repeat_bits_ = 0;
    // Bytes per value seen so far: sizes a two-thread region so that its
    // second half is rarely parsed for nothing at the end of a read.
    double bytes_per_value_ = 20;
    aligned_buffer scratch_; // the helper's values, copied into place after
    // Declared last: destroyed (joined) first, before the buffers it uses.
    helper_thread helper_;
};

} // namespace formatbench::detail
