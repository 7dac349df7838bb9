/* A host of ABI 1.0 (or, with --1.1, of 1.1) meeting plugins of later
 * minors: it passes open arguments of the 1.0 layout (struct_size 40, no
 * metric sink) or of the 1.1 layout (struct_size 56, a metric sink, no
 * shape, no open flags), placed at the end of a page followed by one that
 * cannot be read, so a plugin that reads a field its host did not pass
 * faults. For each plugin file given, writes 1000 values of every dtype the
 * plugin declares and reads them back with read(). With --1.1 it also asks
 * for the 1.2 extensions (an extension is looked up by id, whatever the
 * arguments' size): a plugin that offers formatbench.read-at/1 reads
 * elements [10, 15) and the last one back with it on a stream of its own,
 * and one that offers formatbench.read-box/1 must refuse a box with
 * FB_E_TRUNCATED, since arguments that end before the shape give the
 * stream no shape (a flat array). Exit 0 when all is so.
 *   old_host [--1.1] PLUGIN.so... */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#include <formatbench/plugin.h>

#include <dlfcn.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* fb_open_args as the 1.0 header declared it. */
typedef struct {
    uint32_t struct_size;
    fb_dtype dtype;
    const char* path;
    uint64_t count;
    const fb_option* options;
    size_t option_count;
} open_args_1_0;
_Static_assert(sizeof(open_args_1_0) == FB_OPEN_ARGS_SIZE_1_0, "the frozen 1.0 layout");

/* fb_open_args as the 1.1 header declared it. */
typedef struct {
    open_args_1_0 v1_0;
    fb_metric_fn metric;
    void* metric_sink;
} open_args_1_1;
_Static_assert(sizeof(open_args_1_1) == FB_OPEN_ARGS_SIZE_1_1, "the frozen 1.1 layout");

static int minor = 0; /* the ABI minor this host speaks: 0, or 1 with --1.1 */

/* Open arguments of this host's minor at the end of a readable page. */
static open_args_1_0* guarded_args(void) {
    const long page = sysconf(_SC_PAGESIZE);
    const size_t size = minor == 1 ? sizeof(open_args_1_1) : sizeof(open_args_1_0);
    unsigned char* two =
        mmap(NULL, (size_t)(2 * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (two == MAP_FAILED) exit(2);
    mprotect(two + page, (size_t)page, PROT_NONE);
    return (open_args_1_0*)(void*)(two + page - size);
}

static void count_metric(void* sink, const char* name, double value) {
    (void)name;
    (void)value;
    ++*(int*)sink;
}

/* read-at and read-box, when offered, on streams of their own: read-at
 * gives the elements written, and a box is refused (the stream has no
 * shape). 1 when so. */
static int random_access(const fb_plugin_descriptor* d, const fb_open_args* a, const unsigned char* out,
                         size_t size, uint64_t n, char* err, size_t err_size) {
    const fb_ext_read_at_v1* at = d->get_extension ? d->get_extension(FB_EXT_READ_AT_V1) : NULL;
    const fb_ext_read_box_v1* box = d->get_extension ? d->get_extension(FB_EXT_READ_BOX_V1) : NULL;
    unsigned char back[8 * 8];
    fb_stream* s = NULL;
    if (at) {
        /* A plugin may refuse read-at for the options it was opened with
         * (zstd with frames: one): FB_E_UNSUPPORTED at the first call. */
        fb_status first = FB_E_STATE;
        int ok = d->open_read(a, &s, err, err_size) == FB_OK &&
                 (first = at->read_at(s, 10, back, 5, err, err_size)) == FB_OK &&
                 memcmp(back, out + 10 * size, 5 * size) == 0 &&
                 at->read_at(s, n - 1, back, 1, err, err_size) == FB_OK &&
                 memcmp(back, out + (n - 1) * size, size) == 0;
        if (s && d->close_read(s, err, err_size) != FB_OK) ok = 0;
        if (!ok && first == FB_E_UNSUPPORTED) {
            ok = 1;
            err[0] = '\0';
        }
        if (!ok) {
            if (!err[0]) snprintf(err, err_size, "read-at gave other values than were written");
            return 0;
        }
    }
    if (box) {
        uint64_t start = 0, count = 1;
        s = NULL;
        fb_status st = d->open_read(a, &s, err, err_size);
        if (st == FB_OK) st = box->read_box(s, 1, &start, &count, back, err, err_size);
        if (s) d->close_read(s, err, err_size);
        if (st != FB_E_TRUNCATED) {
            snprintf(err, err_size, "a box on a stream without a shape gave status %d, not FB_E_TRUNCATED",
                     (int)st);
            return 0;
        }
        err[0] = '\0';
    }
    return 1;
}

static int remove_entry(const char* p, const struct stat* st, int flag, struct FTW* ftw) {
    (void)st, (void)flag, (void)ftw;
    remove(p);
    return 0;
}

/* The output of a plugin that writes a folder (FB_CAP_DIRECTORY_OUTPUT: zarr
 * through the python bridge) as well as a file. */
static void remove_output(const char* path) {
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int round_trip(const fb_plugin_descriptor* d, fb_dtype dtype, const char* path) {
    enum { n = 1000 };
    size_t size = fb_dtype_size(dtype);
    unsigned char* out = malloc(n * size);
    unsigned char* back = malloc(n * size);
    for (size_t i = 0; i < n * size; ++i)
        out[i] = (unsigned char)(i * 7 + 3);
    if (dtype == FB_DTYPE_F64 || dtype == FB_DTYPE_F32) /* finite values: text keeps them exactly */
        for (size_t i = 0; i < n; ++i) {
            if (dtype == FB_DTYPE_F64) {
                double v = (double)i / 8;
                memcpy(out + i * 8, &v, 8);
            } else {
                float v = (float)i / 8;
                memcpy(out + i * 4, &v, 4);
            }
        }
    open_args_1_0* a = guarded_args();
    int metrics = 0;
    a->struct_size = minor == 1 ? (uint32_t)sizeof(open_args_1_1) : (uint32_t)sizeof *a;
    if (minor == 1) {
        ((open_args_1_1*)(void*)a)->metric = count_metric;
        ((open_args_1_1*)(void*)a)->metric_sink = &metrics;
    }
    a->dtype = dtype;
    a->path = path;
    a->count = n;
    a->options = NULL;
    a->option_count = 0;
    char err[1024] = "";
    fb_stream* s = NULL;
    remove_output(path);
    int ok = d->open_write((const fb_open_args*)(void*)a, &s, err, sizeof err) == FB_OK &&
             d->write(s, out, n, err, sizeof err) == FB_OK && d->close_write(s, err, sizeof err) == FB_OK;
    s = NULL;
    ok = ok && d->open_read((const fb_open_args*)(void*)a, &s, err, sizeof err) == FB_OK &&
         d->read(s, back, n, err, sizeof err) == FB_OK && d->close_read(s, err, sizeof err) == FB_OK &&
         memcmp(out, back, n * size) == 0;
    if (ok && minor == 1) ok = random_access(d, (const fb_open_args*)(void*)a, out, size, n, err, sizeof err);
    if (!ok) fprintf(stderr, "%s, dtype %d: %s\n", d->id, (int)dtype, err[0] ? err : "data differ");
    remove_output(path);
    free(out);
    free(back);
    return ok;
}

int main(int argc, char** argv) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/fb-old-host-%d", (int)getpid());
    int failed = 0, first = 1;
    if (argc > 1 && strcmp(argv[1], "--1.1") == 0) {
        minor = 1;
        first = 2;
    }
    for (int i = first; i < argc; ++i) {
        void* lib = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
        void* symbol = lib ? dlsym(lib, FB_PLUGIN_ENTRY_NAME) : NULL;
        fb_plugin_entry_fn entry = NULL;
        memcpy(&entry, &symbol, sizeof entry); /* POSIX: a data pointer holds a function's address */
        if (!entry) {
            fprintf(stderr, "%s: cannot load\n", argv[i]);
            return 2;
        }
        const fb_plugin_descriptor* d = entry(1, (uint16_t)minor); /* the host says what it speaks */
        for (int t = FB_DTYPE_F64; t <= FB_DTYPE_U8; ++t)
            if (d->dtypes & FB_DTYPE_BIT(t)) failed += !round_trip(d, (fb_dtype)t, path);
        printf("%s (ABI %d.%d): %s 1.%d arguments\n", d->id, d->abi_major, d->abi_minor,
               failed ? "FAILED with" : "ok with", minor);
    }
    return failed ? 1 : 0;
}
