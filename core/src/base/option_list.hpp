// A plugin's options as a study gives them: the study layer holds them and
// the host layer checks and passes them, so the type lives below both.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace formatbench {

// Options as the study gives them, in the study's order: name -> text value.
using option_list = std::vector<std::pair<std::string, std::string>>;

} // namespace formatbench
