/* A test plugin whose formatbench.mpi/1 extension claims the MPI it was
 * built against, without calling MPI: CLAIM is the claim as a string
 * ("MPICH 4.0"), or, with CLAIM_HOST, FB_MPI_IMPLEMENTATION of the MPI this
 * build found (the control that loads). PLUGIN_ID names it. The host must
 * refuse a claim of another family or major at load (host/mpi_match.hpp);
 * tests/mpi/test_mpi_plugins.sh checks the message. It stores raw bytes through
 * stdio, and its MPI opens ignore the communicator; with FB_CLAIM_CRASH set
 * in its environment its MPI open_write raises SIGSEGV, to show what a crash
 * in a plugin that runs in the rank itself does to the job. */
#ifdef CLAIM_HOST
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <formatbench/plugin_mpi.h>
#define CLAIM FB_MPI_IMPLEMENTATION
#endif
#include <formatbench/plugin.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fb_stream {
    FILE* file;
    size_t element_size;
};

static fb_status open_stream(const fb_open_args* args, const char* mode, uint64_t offset, fb_stream** out,
                             char* err, size_t err_size) {
    fb_stream* s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s) return FB_E_NO_MEMORY;
    s->element_size = fb_dtype_size(args->dtype);
    s->file = fopen(args->path, mode);
    if (!s->file || fseek(s->file, (long)(offset * s->element_size), SEEK_SET) != 0) {
        snprintf(err, err_size, PLUGIN_ID ": cannot open '%s': %s", args->path, strerror(errno));
        if (s->file) fclose(s->file);
        free(s);
        return FB_E_IO;
    }
    *out = s;
    return FB_OK;
}

static fb_status open_write(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, "wb", 0, out, err, err_size);
}

static fb_status open_read(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, "rb", 0, out, err, err_size);
}

static fb_status mpi_open_write(const fb_open_args* args, const void* comm, uint64_t offset, uint64_t total,
                                fb_stream** out, char* err, size_t err_size) {
    (void)comm;
    (void)total;
    if (getenv("FB_CLAIM_CRASH")) raise(SIGSEGV);
    return open_stream(args, offset ? "r+b" : "wb", offset, out, err, err_size);
}

static fb_status mpi_open_read(const fb_open_args* args, const void* comm, uint64_t offset, uint64_t total,
                               fb_stream** out, char* err, size_t err_size) {
    (void)comm;
    (void)total;
    return open_stream(args, "rb", offset, out, err, err_size);
}

static fb_status write_data(fb_stream* s, const void* data, uint64_t count, char* err, size_t err_size) {
    if (fwrite(data, s->element_size, count, s->file) == count) return FB_OK;
    snprintf(err, err_size, PLUGIN_ID ": write failed: %s", strerror(errno));
    return FB_E_IO;
}

static fb_status read_data(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    if (fread(data, s->element_size, count, s->file) == count) return FB_OK;
    snprintf(err, err_size, PLUGIN_ID ": file too short");
    return FB_E_TRUNCATED;
}

static fb_status close_stream(fb_stream* s, char* err, size_t err_size) {
    fb_status status = fclose(s->file) == 0 ? FB_OK : FB_E_IO;
    if (status != FB_OK) snprintf(err, err_size, PLUGIN_ID ": close failed: %s", strerror(errno));
    free(s);
    return status;
}

static const fb_ext_mpi_v1 mpi = {sizeof(fb_ext_mpi_v1), CLAIM, mpi_open_write, mpi_open_read};

static const void* get_extension(const char* id) {
    return strcmp(id, FB_EXT_MPI_V1) == 0 ? &mpi : NULL;
}

static const fb_plugin_descriptor descriptor = {
    .magic = FB_PLUGIN_MAGIC,
    .abi_major = FB_ABI_MAJOR,
    .abi_minor = FB_ABI_MINOR,
    .struct_size = sizeof(fb_plugin_descriptor),
    .option_decl_size = sizeof(fb_option_decl),
    .id = PLUGIN_ID,
    .version = "1.0.0",
    .description = "test plugin claiming the MPI implementation " CLAIM,
    .license = "MIT",
    .extension = "bin",
    .dtypes = FB_DTYPES_ALL,
    .flags = FB_CAP_LOSSLESS,
    .open_write = open_write,
    .write = write_data,
    .close_write = close_stream,
    .open_read = open_read,
    .read = read_data,
    .close_read = close_stream,
    .get_extension = get_extension,
};

FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_major, uint16_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &descriptor;
}
