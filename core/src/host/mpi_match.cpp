// The MPI implementations of host and plugin compared (mpi_match.hpp).
#include "host/mpi_match.hpp"

#include <fmt/format.h>

#ifdef FB_WITH_MPI
#define OMPI_SKIP_MPICXX 1 // the C API only
#include <mpi.h>

#include <formatbench/plugin_mpi.h>
#endif

#include <cctype>

namespace formatbench {
namespace {

struct mpi_name {
    std::string family; // "Open MPI", "MPICH"
    std::string major;  // "4"; "" when no version was given
};

// "Open MPI 4.1.4" -> {"Open MPI", "4"}: the family is the text before the
// first digit, the major the digits that start the version.
mpi_name parse(std::string_view text) {
    std::size_t digit = 0;
    while (digit < text.size() && !std::isdigit(static_cast<unsigned char>(text[digit])))
        ++digit;
    std::size_t end = digit;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
    std::string_view family = text.substr(0, digit);
    while (!family.empty() && (family.back() == ' ' || family.back() == 'v'))
        family.remove_suffix(1);
    return {std::string(family), std::string(text.substr(digit, end - digit))};
}

} // namespace

std::string host_mpi_implementation() {
#ifdef FB_WITH_MPI
    return FB_MPI_IMPLEMENTATION;
#else
    return {};
#endif
}

std::string mpi_mismatch(std::string_view plugin_mpi, std::string_view host_mpi) {
    const mpi_name p = parse(plugin_mpi), h = parse(host_mpi);
    const std::string rebuild = fmt::format(
        "rebuild the plugin against {} {} (the MPI this formatbench was built with: its mpi.h, mpicc)",
        h.family, h.major);
    if (p.family.empty() || p.major.empty())
        return fmt::format("its formatbench.mpi/1 names no MPI implementation and version ('{}'), this "
                           "formatbench runs {}; {}",
                           plugin_mpi, host_mpi, rebuild);
    if (p.family != h.family)
        return fmt::format("built against {}, but this formatbench runs {}: the two MPI implementations' "
                           "handles differ (an MPI_Comm is a pointer in Open MPI, an int in MPICH); {}",
                           plugin_mpi, host_mpi, rebuild);
    if (p.major != h.major)
        return fmt::format("built against {}, but this formatbench runs {}: MPI libraries of different major "
                           "versions do not share their ABI; {}",
                           plugin_mpi, host_mpi, rebuild);
    return {};
}

} // namespace formatbench
