/* An MPI library that does not take a hint, made from the real one through
 * MPI's profiling interface: loaded with LD_PRELOAD, this MPI_File_get_info
 * calls PMPI_File_get_info and then deletes the key named by
 * FB_SHIM_DROP_HINT, or sets the key=value of FB_SHIM_CHANGE_HINT, as an
 * MPI-IO that ignores or adjusts a hint reports it (ROMIO on a file system
 * without striping, a cb_nodes clamped to the nodes). Open MPI 4.1 reports
 * every hint as given, so without the shim the mpiio plugin's check of
 * the hints could not be seen failing (tests/mpi/test_mpi_plugins.sh). */
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <stdlib.h>
#include <string.h>

int MPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
    int rc = PMPI_File_get_info(fh, info_used);
    const char* drop = getenv("FB_SHIM_DROP_HINT");
    const char* change = getenv("FB_SHIM_CHANGE_HINT");
    if (rc != MPI_SUCCESS) return rc;
    if (drop && *drop) {
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get(*info_used, drop, MPI_MAX_INFO_VAL, value, &flag);
        if (flag) MPI_Info_delete(*info_used, drop);
    }
    if (change && strchr(change, '=')) {
        char key[MPI_MAX_INFO_KEY + 1];
        size_t n = (size_t)(strchr(change, '=') - change);
        if (n > MPI_MAX_INFO_KEY) n = MPI_MAX_INFO_KEY;
        memcpy(key, change, n);
        key[n] = '\0';
        MPI_Info_set(*info_used, key, strchr(change, '=') + 1);
    }
    return rc;
}
