// Taking, comparing and restoring the floating-point environment (fp_env.hpp).
#include "base/fp_env.hpp"

#include <fmt/format.h>

#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define FORMATBENCH_HAS_MXCSR 1
#else
#define FORMATBENCH_HAS_MXCSR 0
#endif

namespace formatbench::detail {
namespace {

#if FORMATBENCH_HAS_MXCSR
constexpr unsigned mxcsr_flags = 0x3f; // sticky exception flags
constexpr unsigned mxcsr_ftz = 0x8000; // flush-to-zero
constexpr unsigned mxcsr_daz = 0x0040; // denormals-are-zero
constexpr unsigned mxcsr_round = 0x6000;
constexpr unsigned mxcsr_masks = 0x1f80;
#endif

const char* rounding_name(int r) {
    switch (r) {
    case FE_TONEAREST: return "to nearest";
#ifdef FE_UPWARD
    case FE_UPWARD: return "upward";
#endif
#ifdef FE_DOWNWARD
    case FE_DOWNWARD: return "downward";
#endif
#ifdef FE_TOWARDZERO
    case FE_TOWARDZERO: return "toward zero";
#endif
    default: return "unknown";
    }
}

} // namespace

fp_environment current_fp_environment() noexcept {
    fp_environment e;
    std::fegetenv(&e.env);
#if FORMATBENCH_HAS_MXCSR
    e.mxcsr = _mm_getcsr();
#endif
    e.rounding = std::fegetround();
    e.traps = fegetexcept();
    return e;
}

const fp_environment& default_fp_environment() noexcept {
    static const fp_environment taken = [] {
        fp_environment e = current_fp_environment();
        // Flags raised before the first call are not part of the default.
        std::feclearexcept(FE_ALL_EXCEPT);
        std::fegetenv(&e.env);
#if FORMATBENCH_HAS_MXCSR
        e.mxcsr &= ~mxcsr_flags;
#endif
        return e;
    }();
    return taken;
}

bool fp_controls_differ(const fp_environment& now) noexcept {
    const fp_environment& d = default_fp_environment();
#if FORMATBENCH_HAS_MXCSR
    if ((now.mxcsr & ~mxcsr_flags) != (d.mxcsr & ~mxcsr_flags)) return true;
#endif
    return now.rounding != d.rounding || now.traps != d.traps;
}

std::string describe_fp_change(const fp_environment& now) {
    if (!fp_controls_differ(now)) return {};
    const fp_environment& d = default_fp_environment();
    std::vector<std::string> parts;
#if FORMATBENCH_HAS_MXCSR
    const auto turned = [&](unsigned bit, const char* name) {
        if ((now.mxcsr & bit) != (d.mxcsr & bit))
            parts.push_back(fmt::format("{} turned {}", name, (now.mxcsr & bit) ? "on" : "off"));
    };
    const bool ftz = (now.mxcsr & mxcsr_ftz) != (d.mxcsr & mxcsr_ftz);
    const bool daz = (now.mxcsr & mxcsr_daz) != (d.mxcsr & mxcsr_daz);
    if (ftz && daz && (now.mxcsr & mxcsr_ftz) && (now.mxcsr & mxcsr_daz))
        parts.push_back("flush-to-zero and denormals-are-zero turned on");
    else {
        turned(mxcsr_ftz, "flush-to-zero");
        turned(mxcsr_daz, "denormals-are-zero");
    }
    if ((now.mxcsr & mxcsr_masks) != (d.mxcsr & mxcsr_masks)) parts.push_back("SSE exception traps changed");
    if ((now.mxcsr & mxcsr_round) != (d.mxcsr & mxcsr_round)) parts.push_back("SSE rounding changed");
#endif
    if (now.rounding != d.rounding)
        parts.push_back(
            fmt::format("rounding {} instead of {}", rounding_name(now.rounding), rounding_name(d.rounding)));
    else if (now.traps != d.traps)
        parts.push_back("floating-point exception traps changed");
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i ? ", " : "") + parts[i];
#if FORMATBENCH_HAS_MXCSR
    text += fmt::format(" (MXCSR {:#x} -> {:#x})", d.mxcsr & ~mxcsr_flags, now.mxcsr & ~mxcsr_flags);
#endif
    return text;
}

void restore_default_fp_environment() noexcept {
    const fp_environment& d = default_fp_environment();
    std::fesetenv(&d.env);
#if FORMATBENCH_HAS_MXCSR
    // fesetenv sets MXCSR too on glibc; set it again so that no C library
    // is trusted to restore flush-to-zero and denormals-are-zero.
    _mm_setcsr(d.mxcsr);
#endif
}

} // namespace formatbench::detail
