// What work a case does (docs/results.md, "The verdict"): the run
// parameters that change what is measured, as against how many samples are
// taken. Two cases of one data set did the same work when these agree; they
// wrote the same way when the write-side ones agree (fields.hpp read_side:
// the cache state and access pattern change only the READ phase). The
// verdict ranks only rows of the same work, the summary pools the write
// samples of rows that wrote the same way, and a study's `workload:` names
// the work of each phase with these keys.
#pragma once

#include "study/fields.hpp"

#include <string>
#include <vector>

namespace formatbench {

// Which phase's work: the write (write-side keys only) or the read (every
// work key: a read also depends on the chunk size, the alignment, ...).
enum class work_side { write, read };

// Whether a run field defines work: part of a case's identity always or
// whenever set (chunk, cache, sync, access, ...); not the sampling keys
// (repeat, warmup, min_time, ...), which join an identity only when varied.
bool defines_work(const field<run_params>& f);

// The work fields of a side, in run_fields() order.
std::vector<const field<run_params>*> work_fields(work_side side);

// The work fields of a side in the order the verdict names them: the access
// pattern and its keys first ("random, block 4KiB, cold"), then the others
// in run_fields() order.
std::vector<const field<run_params>*> work_fields_named(work_side side);

// Whether `a` and `b` do the same work on `side`: every work field that
// applies to either has the same value.
bool same_work(const run_params& a, const run_params& b, work_side side);

// Exact text of the work of `p` on `side` ("chunk=0,sync=none,..."): equal
// for the same work, for use as a map key.
std::string work_key(const run_params& p, work_side side);

} // namespace formatbench
