// MPI-IO hints as plugin options, for the plugins that open files through
// MPI-IO (mpiio, pnetcdf): the six option declarations, the MPI_Info built
// from the options a study set, and the check that the library kept each
// hint as given (a hint an MPI-IO ignores or changes fails the open, named,
// instead of being measured as if it applied). Header-only; needs <mpi.h>.
#pragma once

#include <mpi.h>

#include <formatbench/plugin.hpp>
#include <formatbench/plugin_mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace formatbench::plugin_common {

inline constexpr const char* mpi_hint_switches[] = {"default", "automatic", "enable", "disable", nullptr};

// The six hint options, for a plugin's `options[]` (max_bytes: the
// largest cb_buffer_size and striping_unit). Left at their defaults ("0",
// "default") they are not passed.
#define FB_MPI_HINT_OPTIONS(max_bytes)                                                                       \
    formatbench::sdk::option_int("cb_nodes", "0", 0, 1e6,                                                    \
                                 "hint cb_nodes: collective-buffering aggregators; 0 = not set"),            \
        formatbench::sdk::option_size(                                                                       \
            "cb_buffer_size", "0", 0, double(max_bytes),                                                     \
            "hint cb_buffer_size: bytes of each aggregator's buffer; 0 = not set"),                          \
        formatbench::sdk::option_choice(                                                                     \
            "romio_cb_write", "default", formatbench::plugin_common::mpi_hint_switches,                      \
            "hint romio_cb_write: collective buffering of writes; default = not set"),                       \
        formatbench::sdk::option_choice(                                                                     \
            "romio_cb_read", "default", formatbench::plugin_common::mpi_hint_switches,                       \
            "hint romio_cb_read: collective buffering of reads; default = not set"),                         \
        formatbench::sdk::option_int("striping_factor", "0", 0, 1e6,                                         \
                                     "hint striping_factor: stripes (OSTs) of a new file; 0 = not set"),     \
        formatbench::sdk::option_size("striping_unit", "0", 0, double(max_bytes),                            \
                                      "hint striping_unit: bytes per stripe of a new file; 0 = not set")

using mpi_hints = std::vector<std::pair<std::string, std::string>>;

// The hints the study set, as MPI_Info keys and values.
inline mpi_hints mpi_hints_of(const formatbench::sdk::options& o) {
    mpi_hints out;
    if (std::int64_t n = o.get_int("cb_nodes"); n > 0) out.emplace_back("cb_nodes", std::to_string(n));
    if (std::uint64_t n = o.get_size("cb_buffer_size"); n > 0)
        out.emplace_back("cb_buffer_size", std::to_string(n));
    for (const char* name : {"romio_cb_write", "romio_cb_read"})
        if (const std::string& v = o.get_string(name); v != "default") out.emplace_back(name, v);
    if (std::int64_t n = o.get_int("striping_factor"); n > 0)
        out.emplace_back("striping_factor", std::to_string(n));
    if (std::uint64_t n = o.get_size("striping_unit"); n > 0)
        out.emplace_back("striping_unit", std::to_string(n));
    return out;
}

// Owns an MPI_Info: the hints given, or (default) none, to be filled
// through out().
class info_handle {
public:
    info_handle() = default;
    explicit info_handle(const mpi_hints& hints) {
        if (hints.empty()) return;
        MPI_Info_create(&info_);
        for (const auto& [key, value] : hints)
            MPI_Info_set(info_, key.c_str(), value.c_str());
    }
    info_handle(const info_handle&) = delete;
    info_handle& operator=(const info_handle&) = delete;
    ~info_handle() {
        if (info_ != MPI_INFO_NULL) MPI_Info_free(&info_);
    }
    MPI_Info get() const noexcept { return info_; }
    MPI_Info* out() noexcept { return &info_; }

private:
    MPI_Info info_ = MPI_INFO_NULL;
};

// "" when `got` (the file's info after the open) lists every hint with the
// value given, else why the first one it did not take fails. plugin: the
// message's prefix; source: where `got` came from ("MPI_File_get_info
// after MPI_File_open").
inline std::string mpi_hint_problem(MPI_Info got, const mpi_hints& hints, const std::string& plugin,
                                    const std::string& path, const std::string& source) {
    for (const auto& [key, value] : hints) {
        char text[MPI_MAX_INFO_VAL + 1] = "";
        int flag = 0;
        MPI_Info_get(got, key.c_str(), MPI_MAX_INFO_VAL, text, &flag);
        if (!flag)
            return plugin + ": hint '" + key + "' (" + value +
                   ") was ignored by " FB_MPI_IMPLEMENTATION " on '" + path + "': " + source +
                   " does not list it; remove the option (this MPI-IO or file system does not take it)";
        if (value != text)
            return plugin + ": hint '" + key + "' (" + value + ") was changed to '" + text +
                   "' by " FB_MPI_IMPLEMENTATION " on '" + path + "' (" + source +
                   "); set it to a value the library keeps, or remove it";
    }
    return {};
}

} // namespace formatbench::plugin_common
