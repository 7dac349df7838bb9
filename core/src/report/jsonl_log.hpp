// The JSON Lines log (docs/results.md, "The log"): a header line that ties
// the log to its study, then one line per finished case, each appended and
// forced to disk as the case ends, so an interrupted study loses at most the
// case that was running and `--resume` continues it.
//
// Opening it refuses an existing log unless it is being resumed or
// overwritten on purpose (--force), locks it (a second run on the same log
// at the same time is refused), and removes a last line cut short by a kill
// before anything is appended, so any number of kill/resume cycles leave a
// log that the next --resume reads.
#pragma once

#include "report/outputs.hpp"

#include <memory>
#include <string>

namespace formatbench {

// Throws usage_error, before anything runs, for a log that exists (and is
// not resumed or forced), is locked by another run, or cannot be opened.
std::unique_ptr<observer> make_jsonl_log(const std::string& path, const log_options& options);

} // namespace formatbench
