// What direct I/O needs to know of the storage under a path: the logical
// block size of its device, to which O_DIRECT offsets and lengths must be
// aligned. Asked at plan, before any file exists, so it looks at the
// device of the folder (sysfs), not at a file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace formatbench {

// The logical block size (bytes) of the block device holding `path` (a
// file or a folder), from /sys/dev/block/MAJOR:MINOR; nullopt when the path
// lies on no block device (tmpfs, overlay without a disk, a network file
// system) or sysfs does not say.
std::optional<std::uint64_t> logical_block_size(const std::string& path);

} // namespace formatbench
