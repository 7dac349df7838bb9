// `formatbench run [STUDY]`: runs a study (default: the built-in stream-io study).
#include "commands.hpp"

namespace formatbench::cli {

void add_run_command(CLI::App&, const global_options&, command_action&) {}

} // namespace formatbench::cli
