// The ascii reader: streams the file through bounded, page-aligned buffers
// (two for large reads: the next block is read while this one is parsed),
// parses large blocks in two halves on two threads, and reports a bad or
// missing value with the path, line and column.
#pragma once

#include "file_io.hpp"
#include "parse.hpp"
#include "two_threads.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
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
    template <class T>
    std::size_t parse_two_halves(const char* region_end, T* out, std::size_t need);
    // The end of the text that holds only whole tokens: the last separator
    // in [pos_, end_), or end_ at end of file.
    const char* safe_end() const noexcept;
    // Carries the unparsed tail to the front of the next block and makes
    // that block current: the one read ahead if there is one, else read now
    // (split over both threads when `both_cores`).
    void refill(bool both_cores);
    // Reads `n` bytes at `offset` into `to` as two halves, one per thread,
    // running `first` and `second` (which must not throw) before them.
    // Returns the bytes read, short only at end of file; a read error is
    // stored in `error` rather than thrown, so that both halves finish.
    template <class First, class Second>
    std::size_t read_halves(char* to, std::size_t n, std::int64_t offset, std::exception_ptr& error,
                            First&& first, Second&& second);
    // Moves pos_ to r.stop, keeping the line count in step.
    void advance(const parse_result& r) noexcept;
    [[noreturn]] void fail_at(const char* where, fb_status status, const std::string& what) const;
    [[noreturn]] void fail_token(const char* where, token_problem problem) const;

    std::string path_;
    fb_dtype dtype_;
    sdk::file file_;
    aligned_buffer memory_;
    char* data_ = nullptr; // where each block is read to (page-aligned)
    // The second buffer, allocated at the first read-ahead; its block holds
    // the next block of the file when ahead_ is set.
    aligned_buffer ahead_memory_;
    char* ahead_data_ = nullptr;
    bool ahead_ = false;
    std::size_t ahead_bytes_ = 0;    // bytes read ahead (short: end of file)
    std::exception_ptr ahead_error_; // thrown when the block is needed
    bool seekable_ = false;          // pread works: read-ahead possible
    const char* pos_ = nullptr;      // first unparsed byte
    const char* end_ = nullptr;      // end of the bytes read
    bool eof_ = false;
    std::int64_t data_offset_ = 0; // file offset of data_[0]
    std::uint64_t line_ = 1;       // line of pos_ (1-based)
    std::int64_t line_offset_ = 0; // file offset where that line starts
    std::uint64_t values_done_ = 0;
    // Bytes per value seen so far: sizes a two-thread region so that its
    // second half is rarely parsed for nothing at the end of a read.
    double bytes_per_value_ = 20;
    aligned_buffer scratch_; // second-half values, copied into place after
    // Declared last: destroyed (joined) first, before the buffers it uses.
    helper_thread helper_;
};

} // namespace formatbench::detail
