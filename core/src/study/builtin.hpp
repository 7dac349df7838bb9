// Studies compiled into the binary (configs/*.yaml, embedded at build time).
#pragma once

#include <string_view>

namespace formatbench {

// The default study: configs/stream-io.yaml, the reference Fortran experiment.
std::string_view builtin_stream_io_study() noexcept;

} // namespace formatbench
