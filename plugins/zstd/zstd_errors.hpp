// How the zstd plugin words its failures: the prefix of its file messages
// (for the shared file access, common/file_io.hpp) and the mapping of
// libzstd's error codes to ABI statuses with messages that name the path.
#pragma once

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstddef>
#include <string>

namespace formatbench::detail {

// "zstd: cannot write '/tmp/a.zst': No space left on device".
inline constexpr sdk::file_wording zstd_wording{.prefix = "zstd: "};

// Throws when `code` (a return value of a libzstd call) is an error:
// FB_E_NO_MEMORY for an allocation failure, FB_E_UNSUPPORTED for a parameter
// this libzstd does not have (threads without multithreading), else
// FB_E_INTERNAL: on the write side every other error is a bug. `what` says
// what was being done ("setting the level", "compressing").
void check_compress(std::size_t code, const char* what, const std::string& path);

} // namespace formatbench::detail
