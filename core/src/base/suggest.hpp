// "Did you mean ...?" suggestions for misspelt keys, plugin ids and options.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace formatbench {

// The candidate closest to `word` by edit distance, if close enough to be a
// plausible typo (distance <= max(1, size/3)); empty otherwise.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c"
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

} // namespace formatbench
