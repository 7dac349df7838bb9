// Ready studies by name: the folder's NAME.yaml files, and the rule that
// decides whether a STUDY argument is a path or a name.
#include "study/ready_studies.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

namespace fs = std::filesystem;

namespace formatbench {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

std::vector<std::string> ready_study_names(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        std::error_code type_ec;
        if (p.extension() == ".yaml" && it->is_regular_file(type_ec)) names.push_back(p.stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string resolve_study_argument(const std::string& arg, const fs::path& dir) {
    if (arg.find('/') != std::string::npos || ends_with(arg, ".yaml") || ends_with(arg, ".yml")) return arg;
    std::error_code ec;
    if (fs::exists(arg, ec) && !fs::is_directory(arg, ec)) return arg;
    const fs::path named = dir / (arg + ".yaml");
    if (!dir.empty() && fs::is_regular_file(named, ec)) return named.string();

    const std::vector<std::string> names = ready_study_names(dir);
    if (names.empty())
        throw usage_error(fmt::format("study '{}': no such file, and no ready studies are installed in {}; "
                                      "give the path of a study file",
                                      arg, dir.string()));
    throw usage_error(fmt::format("study '{}': no such file, and no ready study of that name{}; the ready "
                                  "studies (in {}) are: {}",
                                  arg, did_you_mean(arg, names), dir.string(), join(names)));
}

} // namespace formatbench
