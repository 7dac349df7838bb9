// The logical block size under a path (block_device.hpp).
#include "base/block_device.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fstream>

namespace formatbench {

std::optional<std::uint64_t> logical_block_size(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || major(st.st_dev) == 0) return std::nullopt; // 0: no device (tmpfs)
    const std::string dev =
        "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
    // A whole disk has queue/ itself; a partition is a folder inside its disk's.
    for (const char* rel : {"/queue/logical_block_size", "/../queue/logical_block_size"}) {
        std::ifstream in(dev + rel);
        std::uint64_t size = 0;
        if (in >> size && size > 0) return size;
    }
    return std::nullopt;
}

} // namespace formatbench
