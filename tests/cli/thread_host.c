/* A minimal host for plugin.h's thread rules, built by test_examples.sh
 * against the installed SDK and run on the blocks example plugin: it counts
 * the process's threads (/proc/self/task) around the plugin's calls.
 *   thread_host LIB count THREADS DIR  opens a writer (in DIR) with
 *                                      threads=THREADS and prints how many
 *                                      threads it started
 *   thread_host LIB rules DIR          checks the rules (below); exit 0 when all hold
 * The host itself runs no thread of its own, so every thread beyond the
 * first is the plugin's. */
#define _DEFAULT_SOURCE /* DT_DIR, d_type */
#include <formatbench/plugin.h>

#include <dirent.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const fb_plugin_descriptor* plugin;
static int failures;

static int thread_count(void) {
    int n = 0;
    struct dirent* e;
    DIR* d = opendir("/proc/self/task");
    if (!d) {
        perror("/proc/self/task");
        exit(2);
    }
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}

/* The thread count once the threads a close joined have gone: a joined
 * thread's /proc entry may outlive pthread_join by a moment (the kernel
 * reaps it after the join's wake-up), so a count above `want` is read again
 * for up to 2 s. A thread still running then is still counted. */
static int threads_after_join(int want) {
    int n = thread_count();
    for (int i = 0; i < 200 && n > want; ++i) {
        struct timespec ms = {0, 10 * 1000 * 1000};
        nanosleep(&ms, NULL);
        n = thread_count();
    }
    return n;
}

static void expect(int ok, const char* what) {
    printf("%s  %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) ++failures;
}

static fb_status open_stream(int write, const char* path, uint64_t count, const char* threads,
                             const char* block_size, fb_stream** out, char* err) {
    fb_option opts[2] = {{"threads", threads}, {"block_size", block_size}};
    fb_open_args args;
    memset(&args, 0, sizeof args);
    args.struct_size = sizeof args;
    args.dtype = FB_DTYPE_F64;
    args.path = path;
    args.count = count;
    args.options = opts;
    args.option_count = 2;
    err[0] = '\0';
    *out = NULL;
    return write ? plugin->open_write(&args, out, err, 512) : plugin->open_read(&args, out, err, 512);
}

/* Writes n doubles i * 0.5 in chunks; returns the first failing status. */
static fb_status write_file(fb_stream* s, uint64_t n, uint64_t chunk, char* err) {
    double* buf = malloc(chunk * sizeof *buf);
    uint64_t i, k;
    fb_status st = FB_OK;
    for (i = 0; i < n && st == FB_OK; i += k) {
        k = n - i < chunk ? n - i : chunk;
        for (uint64_t j = 0; j < k; ++j)
            buf[j] = (double)(i + j) * 0.5;
        st = plugin->write(s, buf, k, err, 512);
    }
    free(buf);
    return st;
}

static int rules(const char* dir) {
    const uint64_t n = 100000;
    char path[4096], bad_path[4096], err[512], close_err[512];
    fb_stream* s;
    fb_status st;
    snprintf(path, sizeof path, "%s/data.blk", dir);
    snprintf(bad_path, sizeof bad_path, "%s/no/such/folder/data.blk", dir);
    expect(thread_count() == 1, "the host starts with one thread");

    /* The pool follows the option, and close joins it. */
    st = open_stream(1, path, n, "3", "4KiB", &s, err);
    expect(st == FB_OK, "open_write with threads=3");
    if (st != FB_OK) return 1;
    expect(thread_count() == 4, "threads=3: three workers while the writer is open");
    expect(write_file(s, n, 1000, err) == FB_OK, "write 10^5 doubles");
    expect(plugin->close_write(s, err, 512) == FB_OK, "close_write");
    expect(threads_after_join(1) == 1, "no thread left after close_write");

    st = open_stream(0, path, n, "2", "4KiB", &s, err);
    expect(st == FB_OK, "open_read with threads=2");
    if (st != FB_OK) return 1;
    expect(thread_count() == 3, "threads=2: two workers while the reader is open");
    {
        double* back = malloc(n * sizeof *back);
        uint64_t i;
        int same = 1;
        expect(plugin->read(s, back, n, err, 512) == FB_OK, "read the 10^5 doubles");
        for (i = 0; i < n; ++i)
            same &= back[i] == (double)i * 0.5;
        expect(same, "the data read back is the data written");
        free(back);
    }
    expect(plugin->close_read(s, err, 512) == FB_OK, "close_read");
    expect(threads_after_join(1) == 1, "no thread left after close_read");

    /* A failed open after the pool started leaves no thread. */
    st = open_stream(1, bad_path, n, "4", "4KiB", &s, err);
    expect(st == FB_E_IO && s == NULL, "open_write into a missing folder fails with FB_E_IO");
    expect(strstr(err, bad_path) != NULL, "its message names the path");
    expect(threads_after_join(1) == 1, "no thread left after the failed open_write");

    /* A worker's error reaches the caller: a damaged block fails the read
     * with FB_E_CORRUPT naming the file and the block. Block 1 starts at
     * 32 (header) + 8 + 4096 + 8 (its checksum). */
    {
        FILE* f = fopen(path, "r+b");
        int c;
        double* back = malloc(n * sizeof *back);
        fseek(f, 32 + 8 + 4096 + 8 + 100, SEEK_SET);
        c = fgetc(f);
        fseek(f, 32 + 8 + 4096 + 8 + 100, SEEK_SET);
        fputc(c ^ 0x10, f);
        fclose(f);
        st = open_stream(0, path, n, "2", "4KiB", &s, err);
        expect(st == FB_OK, "open_read of the damaged file (the header is intact)");
        if (st != FB_OK) return 1;
        st = plugin->read(s, back, n, err, 512);
        printf("      read: %s\n", err);
        expect(st == FB_E_CORRUPT, "a damaged block: read returns FB_E_CORRUPT");
        expect(strstr(err, path) != NULL && strstr(err, "block 1 ") != NULL, "naming the path and block 1");
        plugin->close_read(s, close_err, 512);
        expect(threads_after_join(1) == 1, "no thread left after closing the failed reader");
        free(back);
    }

    /* A worker's failed write reaches the caller: with a 64 KiB file size
     * limit the header fits, the blocks do not (EFBIG on a worker). */
    {
        struct rlimit old, small = {65536, 65536};
        fb_status w, c;
        signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &old);
        small.rlim_max = old.rlim_max;
        setrlimit(RLIMIT_FSIZE, &small);
        remove(path);
        st = open_stream(1, path, n, "2", "4KiB", &s, err);
        expect(st == FB_OK, "open_write under a 64 KiB file size limit");
        if (st != FB_OK) return 1;
        w = write_file(s, n, 1000, err);
        if (w != FB_OK) printf("      write: %s\n", err);
        c = plugin->close_write(s, close_err, 512);
        if (c != FB_OK) printf("      close: %s\n", close_err);
        setrlimit(RLIMIT_FSIZE, &old);
        expect((w == FB_E_IO && strstr(err, path)) || (w == FB_OK && c == FB_E_IO && strstr(close_err, path)),
               "a worker's EFBIG: write or close returns FB_E_IO naming the path");
        expect(threads_after_join(1) == 1, "no thread left after closing the failed writer");
    }
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}

int main(int argc, char** argv) {
    void* lib;
    fb_plugin_entry_fn entry;
    if (argc < 4) {
        fprintf(stderr, "usage: thread_host LIB count THREADS DIR | thread_host LIB rules DIR\n");
        return 2;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "thread_host: %s\n", dlerror());
        return 2;
    }
    *(void**)&entry = dlsym(lib, FB_PLUGIN_ENTRY_NAME);
    if (!entry) {
        fprintf(stderr, "thread_host: no %s in %s\n", FB_PLUGIN_ENTRY_NAME, argv[1]);
        return 2;
    }
    plugin = entry(FB_ABI_MAJOR, FB_ABI_MINOR);
    if (strcmp(argv[2], "count") == 0 && argc == 5) {
        char err[512], path[4096];
        fb_stream* s;
        int workers;
        snprintf(path, sizeof path, "%s/count.blk", argv[4]);
        if (open_stream(1, path, 0, argv[3], "4KiB", &s, err) != FB_OK) {
            fprintf(stderr, "thread_host: %s\n", err);
            return 2;
        }
        workers = thread_count() - 1;
        plugin->close_write(s, err, 512);
        printf("%d\n", workers);
        return 0;
    }
    if (strcmp(argv[2], "rules") == 0 && argc == 4) return rules(argv[3]);
    fprintf(stderr, "usage: thread_host LIB count THREADS DIR | thread_host LIB rules DIR\n");
    return 2;
}
