// Reads a whole text file with a size limit, so that a device or an endless
// file given as a study, a record or a log is an error, not a hang.
#pragma once

#include <cstdint>
#include <string>

namespace formatbench {

// Throws usage_error naming `what` ("study", "log") and the path when the
// file cannot be read, is a folder, or holds more than max_bytes.
std::string read_text_file(const std::string& path, std::uint64_t max_bytes, const std::string& what);

} // namespace formatbench
