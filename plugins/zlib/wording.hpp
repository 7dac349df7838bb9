// How the zlib plugin's file messages begin, for the shared file access
// (common/file_io.hpp): "zlib: cannot write '/tmp/a.z': No space left on device".
#pragma once

#include <formatbench/posix_file.hpp>

namespace formatbench::detail {

inline constexpr sdk::file_wording zlib_wording{.prefix = "zlib: "};

} // namespace formatbench::detail
