// The plugin templates of `formatbench new-plugin` (share/templates/plugin),
// compiled into the binary by core/embed.py, so the command needs no data
// files: it works the same from the build tree, an install or a copy.
#pragma once

#include <span>
#include <string_view>

namespace formatbench::cli {

struct embedded_file {
    std::string_view path; // relative to share/templates/plugin, '/'-separated
    std::string_view text;
};

// Every template file, sorted by path.
std::span<const embedded_file> plugin_template_files() noexcept;

} // namespace formatbench::cli
