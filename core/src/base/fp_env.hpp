// The floating-point environment of this process (rounding, exception
// flags and masks; on x86 also MXCSR's flush-to-zero and
// denormals-are-zero), which loaded libraries may change behind the
// runner's back: Debian's bitshuffle and LZF HDF5 filters turn on
// flush-to-zero and denormals-are-zero when they are loaded, and so does a
// library built with -ffast-math. Every case must start in the process's
// default environment (docs/faults.md): the parent restores it after the
// checks that load foreign code, and the case's worker before each phase,
// reporting a plugin that changed it during its own phase.
#pragma once

#include <cfenv>
#include <string>

namespace formatbench::detail {

struct fp_environment {
    std::fenv_t env{};
    unsigned mxcsr = 0; // x86 SSE control and status; 0 elsewhere
    int rounding = 0;   // fegetround()
    int traps = 0;      // fegetexcept(): exceptions that trap
};

// The environment now.
fp_environment current_fp_environment() noexcept;

// The environment the process started in: taken at the first call, which
// main() makes before any plugin is loaded (a forked worker inherits it).
const fp_environment& default_fp_environment() noexcept;

// Whether the controls (rounding mode, exception masks, flush-to-zero,
// denormals-are-zero) differ from the default's; the sticky exception
// flags are not compared.
bool fp_controls_differ(const fp_environment& now) noexcept;

// What differs, for a message: e.g. "flush-to-zero and
// denormals-are-zero turned on (MXCSR 0x1f80 -> 0x9fc0)"; empty when
// nothing does.
std::string describe_fp_change(const fp_environment& now);

// Puts the default environment back (exception flags cleared).
void restore_default_fp_environment() noexcept;

} // namespace formatbench::detail
