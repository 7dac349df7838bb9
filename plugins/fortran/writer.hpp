// The fortran plugin's writer: each chunk the host hands over is one write
// statement of the gfortran runtime (or, with values_per_statement = N,
// statements of N values, a partial one carried to the next chunk).
#pragma once

#include "settings.hpp"

#include <formatbench/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::detail {

class fortran_writer {
public:
    explicit fortran_writer(const sdk::open_request& request);
    fortran_writer(fortran_writer&& other) noexcept;
    fortran_writer& operator=(fortran_writer&&) = delete;
    ~fortran_writer();

    void write(const void* data, std::uint64_t count);
    // Writes a carried partial statement, closes the unit, and checks that
    // the file holds every byte the runtime wrote.
    void close();

private:
    // One write statement of head[0..nhead) then data[0..n), n >= 1.
    void statement(const void* head, std::uint64_t nhead, const void* data, std::uint64_t n);

    std::string path_;
    fb_dtype dtype_;
    std::size_t size_;
    fortran_settings settings_;
    int unit_ = 0;
    bool open_ = false;
    std::uint64_t written_ = 0;        // values in statements so far
    std::vector<unsigned char> carry_; // values of an unfinished statement (fewer than per_statement)
    std::string failed_;               // set by a failed statement: the stream stays failed
};

} // namespace formatbench::detail
