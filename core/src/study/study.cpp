// Names of the study and result enumerations, as they appear in study files,
// the JSON record and reports.
#include "study/study.hpp"
#include "results/result.hpp"

namespace formatbench {

const char* to_string(cache_mode m) noexcept {
    return m == cache_mode::warm ? "warm" : "cold";
}

const char* to_string(sync_mode m) noexcept {
    switch (m) {
    case sync_mode::none: return "none";
    case sync_mode::close: return "close";
    case sync_mode::data: return "data";
    }
    return "?";
}

const char* to_string(read_mode m) noexcept {
    return m == read_mode::copy ? "copy" : "view";
}

const char* to_string(distribution d) noexcept {
    switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::normal: return "normal";
    case distribution::smooth: return "smooth";
    case distribution::constant: return "constant";
    case distribution::integers: return "integers";
    }
    return "?";
}

const char* to_string(isolation_mode m) noexcept {
    return m == isolation_mode::process ? "process" : "none";
}

const char* to_string(case_status s) noexcept {
    switch (s) {
    case case_status::ok: return "ok";
    case case_status::failed: return "failed";
    case case_status::crashed: return "crashed";
    case case_status::timeout: return "timeout";
    case case_status::skipped: return "skipped";
    }
    return "?";
}

} // namespace formatbench
