// `formatbench plan STUDY`: prints the expanded cases, runs nothing.
#include "commands.hpp"

namespace formatbench::cli {

void add_plan_command(CLI::App&, const global_options&, command_action&) {}

} // namespace formatbench::cli
