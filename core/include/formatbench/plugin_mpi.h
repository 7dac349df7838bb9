/*
 * formatbench.mpi/1's one compile-time fact: the MPI implementation a
 * plugin (or the host) is compiled against, as the string the extension's
 * `implementation` field carries (plugin.h). Include it after <mpi.h>:
 *
 *   #include <mpi.h>
 *   #include <formatbench/plugin_mpi.h>
 *   ... ext.implementation = FB_MPI_IMPLEMENTATION;  // "Open MPI 4.1.4"
 *
 * Built from the implementation's own macros (OMPI_*_VERSION for Open MPI,
 * MPICH_VERSION for MPICH and the libraries derived from it, which share
 * its ABI), so it names what the handles in <mpi.h> are.
 */
#ifndef FORMATBENCH_PLUGIN_MPI_H
#define FORMATBENCH_PLUGIN_MPI_H

#define FB_MPI_STRINGIFY_(x) #x
#define FB_MPI_STRINGIFY(x) FB_MPI_STRINGIFY_(x)

#if defined(OMPI_MAJOR_VERSION)
#define FB_MPI_IMPLEMENTATION                                                                                \
    "Open MPI " FB_MPI_STRINGIFY(OMPI_MAJOR_VERSION) "." FB_MPI_STRINGIFY(                                   \
        OMPI_MINOR_VERSION) "." FB_MPI_STRINGIFY(OMPI_RELEASE_VERSION)
#elif defined(MPICH_VERSION)
#define FB_MPI_IMPLEMENTATION "MPICH " MPICH_VERSION
#elif defined(MPI_VERSION)
#error "formatbench/plugin_mpi.h knows Open MPI and MPICH; name this MPI's family and version here"
#else
#error "include <mpi.h> before formatbench/plugin_mpi.h"
#endif

#endif /* FORMATBENCH_PLUGIN_MPI_H */
