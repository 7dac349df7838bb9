/* A host of ABI 1.0 meeting plugins of 1.1: it passes open arguments of the
 * 1.0 layout (struct_size 40, no metric sink), placed at the end of a page
 * followed by one that cannot be read, so a plugin that reads a 1.1 field of
 * them faults. For each plugin file given, writes 1000 values of every dtype
 * the plugin declares and reads them back: exit 0 when all match.
 *   old_host PLUGIN.so... */
#define _DEFAULT_SOURCE
#include <formatbench/plugin.h>

#include <dlfcn.h>
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

static open_args_1_0* guarded_args(void) {
    const long page = sysconf(_SC_PAGESIZE);
    unsigned char* two =
        mmap(NULL, (size_t)(2 * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (two == MAP_FAILED) exit(2);
    mprotect(two + page, (size_t)page, PROT_NONE);
    return (open_args_1_0*)(void*)(two + page - sizeof(open_args_1_0));
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
    a->struct_size = sizeof *a;
    a->dtype = dtype;
    a->path = path;
    a->count = n;
    a->options = NULL;
    a->option_count = 0;
    char err[1024] = "";
    fb_stream* s = NULL;
    unlink(path);
    int ok = d->open_write((const fb_open_args*)(void*)a, &s, err, sizeof err) == FB_OK &&
             d->write(s, out, n, err, sizeof err) == FB_OK && d->close_write(s, err, sizeof err) == FB_OK;
    s = NULL;
    ok = ok && d->open_read((const fb_open_args*)(void*)a, &s, err, sizeof err) == FB_OK &&
         d->read(s, back, n, err, sizeof err) == FB_OK && d->close_read(s, err, sizeof err) == FB_OK &&
         memcmp(out, back, n * size) == 0;
    if (!ok) fprintf(stderr, "%s, dtype %d: %s\n", d->id, (int)dtype, err[0] ? err : "data differ");
    unlink(path);
    free(out);
    free(back);
    return ok;
}

int main(int argc, char** argv) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/fb-old-host-%d", (int)getpid());
    int failed = 0;
    for (int i = 1; i < argc; ++i) {
        void* lib = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
        void* symbol = lib ? dlsym(lib, FB_PLUGIN_ENTRY_NAME) : NULL;
        fb_plugin_entry_fn entry = NULL;
        memcpy(&entry, &symbol, sizeof entry); /* POSIX: a data pointer holds a function's address */
        if (!entry) {
            fprintf(stderr, "%s: cannot load\n", argv[i]);
            return 2;
        }
        const fb_plugin_descriptor* d = entry(1, 0); /* a 1.0 host says so */
        for (int t = FB_DTYPE_F64; t <= FB_DTYPE_U8; ++t)
            if (d->dtypes & FB_DTYPE_BIT(t)) failed += !round_trip(d, (fb_dtype)t, path);
        printf("%s (ABI %d.%d): %s\n", d->id, d->abi_major, d->abi_minor,
               failed ? "FAILED" : "ok with 1.0 arguments");
    }
    return failed ? 1 : 0;
}
