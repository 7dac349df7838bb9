// Plan's run-time estimate without an earlier run (docs/cli.md,
// "formatbench plan"): every selected case runs briefly through the real
// runner and executor (two recorded repetitions, no warm-up, at a reduced
// count when its payload is large), with its whole time taken apart: the
// case's start (worker, data generation, plugin set-up), one repetition end
// to end (write, cache step, read, verification and the step to the next)
// and its end. Each part is then scaled to the case's count and run
// through the runner's rule for how many repetitions and warm-ups it takes.
#pragma once

#include "host/registry.hpp"
#include "results/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// What one calibration run of a case took, at `count` values of which a
// READ phase reads `read_elements` (elements_read).
struct calibration_point {
    std::uint64_t count = 0;
    double read_elements = 0;
    double setup_s = 0;      // case start .. its first write phase
    double write_part_s = 0; // last repetition: the previous one's end .. its read phase (write, cache step)
    double read_part_s = 0;  // its read phase .. its end (read, verification)
    double write_s = 0;      // the last repetition's timed write (what min_time and max_time count)
    double read_s = 0;       // and read
    double tail_s = 0;       // the last repetition's end .. the case's end
    double spread = 0;       // the larger coefficient of variation of the two timed phases (0: unknown)
};

// repeat: auto's repetitions for a coefficient of variation `cv`: the
// normal approximation of the median's 95% interval (docs/cli.md,
// "repeat: auto"), (1.96 x 1.2533 x cv / precision)^2, rounded up; 0 for
// an unknown cv.
double auto_repetitions(double cv, double precision);

// The elements one READ phase of `c` reads: the count (whole, sequential
// by default); ops x block (random, strided, sequential with access_ops);
// ops planes of count / shape[axis] (plane).
double elements_read(const case_spec& c);

// The run time of `c` from its calibration points (at most two): the parts
// on the write side (setup, write part, timed write, tail) are a + b x
// count, those of the read (read part, timed read) a + b x elements read:
// the line through two points (b, then a, no less than 0), or, through one
// point or two with the same x, in proportion to x from their mean. Then
// setup + (warm-ups + repetitions) x (write part + read part) + tail, the
// counts as repetitions_to_run (estimate.hpp) gives them for the scaled
// timed phases (repeat: auto: auto_repetitions of the first point's
// spread, within its bounds). nullopt without points.
std::optional<double> calibrated_seconds(const case_spec& c, const std::vector<calibration_point>& points);

// A case's payload above which calibration runs it at a reduced count.
inline constexpr std::uint64_t calibration_payload_bytes = std::uint64_t{2} << 20;

// The data sets a case is calibrated with, largest first: its own when its
// payload is at most `payload_bytes` (at least 8 access blocks for an access
// pattern) or it is read from a file; else that payload's count and a
// quarter of it (no fewer than 2 access blocks). A shape keeps its rank:
// each extent shrinks alike, none below 32 or its own extent, so that
// chunks and planes still fit. (calibrate_study runs two repetitions, six
// for repeat: auto, whose spread tells how many it will take, and gives a
// random,
// strided or sequential pattern no more operations than `payload_bytes`
// of blocks, so that their reading and verification stay short.)
std::vector<dataset_spec> calibration_datasets(const case_spec& c,
                                               std::uint64_t payload_bytes = calibration_payload_bytes);

struct calibration {
    std::vector<std::optional<double>> seconds; // per case of the study; nullopt: not selected or failed
    std::vector<std::string> failures;          // "case 3 (raw ...): the error", escaped
    double took_s = 0;                          // the calibration's wall time
    std::uint64_t largest_payload = 0;          // of the calibration runs' data sets
    bool interrupted = false;                   // SIGINT or SIGTERM stopped it
};

// Runs the calibration of the `selected` cases (empty: all) of `s` in a
// fresh folder (the study's directory when it names one), with process
// isolation as the study says, and estimates each. `in_memory_bytes` as for
// run (0: the default).
calibration calibrate_study(const study& s, const registry& reg, const std::vector<bool>& selected,
                            std::uint64_t in_memory_bytes);

} // namespace formatbench
