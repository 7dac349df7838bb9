// Finds and loads plugin libraries with Boost.DLL. A bad file never hides the
// good plugins: each is skipped with one line naming the file and the reason.
#pragma once

#include "host/plugin_handle.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench {

struct load_problem {
    std::filesystem::path file;
    std::string reason;
    std::string text() const; // "FILE: REASON"
};

// The folders to search, in order: command line, FORMATBENCH_PLUGIN_PATH
// (colon-separated), the study's plugin_path, then the folders beside the
// executable (build tree or install tree). Duplicates are dropped.
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& command_line,
                                                      const std::vector<std::string>& study);

// The built-in folders derived from the executable's location.
std::vector<std::filesystem::path> builtin_plugin_dirs();

class registry {
public:
    registry() = default;
    registry(const registry&) = delete;
    registry& operator=(const registry&) = delete;

    // Loads every "*.so" in each folder, in name order. Missing folders are
    // skipped (and remembered in searched()).
    void load_directories(const std::vector<std::filesystem::path>& dirs);
    // Loads one file; returns the plugin or nullptr with a problem recorded.
    const plugin* load_file(const std::filesystem::path& file);

    const std::vector<std::unique_ptr<plugin>>& plugins() const noexcept { return plugins_; }
    const std::vector<load_problem>& problems() const noexcept { return problems_; }
    const std::vector<std::filesystem::path>& searched() const noexcept { return searched_; }

    const plugin* find(std::string_view id) const noexcept;
    // Throws usage_error listing the known ids and the folders searched.
    const plugin& get(std::string_view id) const;
    std::vector<std::string> ids() const;

private:
    std::vector<std::unique_ptr<plugin>> plugins_;
    std::vector<load_problem> problems_;
    std::vector<std::filesystem::path> searched_;
};

} // namespace formatbench
