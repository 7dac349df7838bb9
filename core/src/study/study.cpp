// Names of the study enumerations, as they appear in study files, the JSON
// record and reports.
#include "study/study.hpp"

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

const char* to_string(schedule_mode m) noexcept {
    switch (m) {
    case schedule_mode::sequential: return "sequential";
    case schedule_mode::interleave: return "interleave";
    case schedule_mode::shuffle: return "shuffle";
    }
    return "?";
}

const char* to_string(layout_mode m) noexcept {
    return m == layout_mode::file_per_rank ? "file_per_rank" : "shared_file";
}

const char* to_string(scaling_mode m) noexcept {
    return m == scaling_mode::weak ? "weak" : "strong";
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
    std::string out = "[";
    for (std::size_t k = 0; k < shape.size(); ++k)
        out += (k ? ", " : "") + std::to_string(shape[k]);
    return out + "]";
}

const char* to_string(access_mode m) noexcept {
    switch (m) {
    case access_mode::whole: return "whole";
    case access_mode::sequential: return "sequential";
    case access_mode::random: return "random";
    case access_mode::strided: return "strided";
    case access_mode::plane: return "plane";
    }
    return "?";
}

} // namespace formatbench
