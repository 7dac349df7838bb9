/* ABI evolution test plugin, in plain C (C11) with only plugin.h. One source,
 * built five times with ABI_CLAIM:
 *   10  a plugin built against the 1.0 header: its descriptor has the 1.0
 *       layout (frozen here as descriptor_1_0) and struct_size 152, and it
 *       sits at the very end of a page followed by one that cannot be read,
 *       so a host that reads a 1.1 field of it faults;
 *   11  a plugin built against the 1.1 header: abi_minor 1, the 1.1
 *       descriptor (struct_size FB_DESCRIPTOR_SIZE_1_1), is_lossless_for
 *       (it says f32 with buffer_size 3 is lossy, to show the host asks per
 *       dtype) and metrics (bytes_written, bytes_read) when the host's open
 *       arguments carry the sink; of the open arguments it reads at most
 *       FB_OPEN_ARGS_SIZE_1_1 bytes, as the 1.1 header knew them;
 *   12  a plugin of this (1.2) header: as 11, plus the 1.2 open arguments
 *       (it checks the shape a 1.2 host passes) and formatbench.read-at/1;
 *   13  a plugin from a hypothetical 1.3 SDK whose descriptor APPENDS a
 *       field (a minor may only append): it claims abi_minor 3 and the
 *       larger struct_size, and this host must load it, ignoring the field;
 *   20  a plugin of a newer major (2.0), which a 1.x host must refuse.
 * Apart from the claim it is a conforming plugin (it passes check-plugin):
 * raw bytes through stdio, its one option validated by the plugin itself,
 * the file size checked against the count on read. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS */
#include <formatbench/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ABI_CLAIM
#error "build with -DABI_CLAIM=10, 11, 12, 13 or 20"
#endif

struct fb_stream {
    FILE* file;
    size_t element_size;
    uint64_t count; /* elements in the file, for read-at */
    uint64_t bytes;
    fb_metric_fn metric; /* the host's sink, when its open arguments carry one */
    void* sink;
    char path[4096];
};

static fb_status fail(char* err, size_t size, fb_status st, const char* what, const char* path,
                      const char* why) {
    snprintf(err, size, "abi_plugin: %s '%s': %s", what, path, why);
    return st;
}

/* buffer_size: stdio buffer bytes, 0 = stdio's default. */
static const fb_option_decl options[] = {
    {"buffer_size", FB_OPT_INT, "0", 0, 1048576, 1, NULL, "stdio buffer size in bytes; 0 = the default"},
};

/* Options are checked by the plugin itself too: the host's check is not the
 * only caller (a plugin author's own tests, other hosts). */
static fb_status parse_options(const fb_open_args* args, long* buffer_size, char* err, size_t err_size) {
    *buffer_size = 0;
    for (size_t i = 0; i < args->option_count; ++i) {
        const char *name = args->options[i].name, *value = args->options[i].value;
        if (strcmp(name, "buffer_size") != 0)
            return fail(err, err_size, FB_E_INVALID_OPTION, "unknown option for", args->path, name);
        char* end = NULL;
        errno = 0;
        long v = value && *value ? strtol(value, &end, 10) : -1;
        if (!value || !*value || errno || *end || v < 0 || v > 1048576)
            return fail(err, err_size, FB_E_INVALID_OPTION, "option buffer_size for", args->path,
                        "expected an integer in [0, 1048576]");
        *buffer_size = v;
    }
    return FB_OK;
}

static fb_status open_stream(const fb_open_args* args, int writing, fb_stream** out, char* err,
                             size_t err_size) {
    *out = NULL;
    long buffer_size;
    fb_status st = parse_options(args, &buffer_size, err, err_size);
    if (st != FB_OK) return st;
    fb_stream* s = calloc(1, sizeof *s);
    if (!s) return FB_E_NO_MEMORY;
    s->element_size = fb_dtype_size(args->dtype);
    snprintf(s->path, sizeof s->path, "%s", args->path);
#if ABI_CLAIM != 10
    /* The sink exists since 1.1: only open arguments that large carry it. */
    if (args->struct_size >= FB_OPEN_ARGS_SIZE_1_1) {
        s->metric = args->metric;
        s->sink = args->metric_sink;
    }
#endif
#if ABI_CLAIM >= 12 && ABI_CLAIM < 20
    /* The shape exists since 1.2. Raw bytes keep no shape (the format need
     * not), but the extents a host passes must be the file's count. */
    if (args->struct_size >= FB_OPEN_ARGS_SIZE_1_2 && args->ndim > 0) {
        uint64_t product = 1;
        for (uint32_t k = 0; args->shape && k < args->ndim; ++k)
            product *= args->shape[k];
        if (!args->shape || args->ndim > FB_MAX_NDIM ||
            (args->count != FB_COUNT_UNKNOWN && product != args->count)) {
            st =
                fail(err, err_size, FB_E_STATE, "open", args->path, "a shape whose product is not the count");
            free(s);
            return st;
        }
    }
#endif
    s->count = args->count;
    s->file = fopen(args->path, writing ? "wb" : "rb");
    if (!s->file) {
        st = fail(err, err_size, FB_E_IO, "cannot open", args->path, strerror(errno));
        free(s);
        return st;
    }
    if (buffer_size > 0) setvbuf(s->file, NULL, _IOFBF, (size_t)buffer_size);
    if (!writing) {
        /* The file holds exactly count elements, or it is not ours. */
        struct stat info;
        if (fstat(fileno(s->file), &info) == 0 && S_ISREG(info.st_mode)) {
            unsigned long long want = (unsigned long long)args->count * s->element_size;
            unsigned long long have = (unsigned long long)info.st_size;
            if (have != want) {
                st = fail(err, err_size, have < want ? FB_E_TRUNCATED : FB_E_CORRUPT, "size of", args->path,
                          have < want ? "the file is shorter than the data asked for"
                                      : "the file is longer than the data asked for");
                fclose(s->file);
                free(s);
                return st;
            }
        }
    }
    *out = s;
    return FB_OK;
}

static fb_status open_write(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, 1, out, err, err_size);
}

static fb_status open_read(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, 0, out, err, err_size);
}

static fb_status write_data(fb_stream* s, const void* data, uint64_t count, char* err, size_t err_size) {
    if (count && fwrite(data, s->element_size, count, s->file) != count)
        return fail(err, err_size, FB_E_IO, "cannot write", s->path, strerror(errno));
    s->bytes += count * s->element_size;
    if (s->metric) s->metric(s->sink, "bytes_written", (double)s->bytes);
    return FB_OK;
}

static fb_status read_data(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    if (count && fread(data, s->element_size, count, s->file) != count) {
        int io = ferror(s->file);
        return fail(err, err_size, io ? FB_E_IO : FB_E_TRUNCATED, "cannot read", s->path,
                    io ? strerror(errno) : "file too short");
    }
    s->bytes += count * s->element_size;
    if (s->metric) s->metric(s->sink, "bytes_read", (double)s->bytes);
    return FB_OK;
}

static fb_status close_stream(fb_stream* s, char* err, size_t err_size) {
    fb_status st = FB_OK;
    if (fclose(s->file) != 0) st = fail(err, err_size, FB_E_IO, "cannot close", s->path, strerror(errno));
    free(s);
    return st;
}

#if ABI_CLAIM >= 12 && ABI_CLAIM < 20
/* formatbench.read-at/1 (ABI 1.2): any range of the file, through the
 * stream's own FILE (a stream sees read-at or read, never both). */
static fb_status read_at(fb_stream* s, uint64_t offset, void* data, uint64_t count, char* err,
                         size_t err_size) {
    if (offset > s->count || count > s->count - offset)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path,
                    "the range lies outside the elements of the file");
    if (count == 0) return FB_OK;
    if (fseeko(s->file, (off_t)(offset * s->element_size), SEEK_SET) != 0)
        return fail(err, err_size, FB_E_IO, "cannot seek in", s->path, strerror(errno));
    if (fread(data, s->element_size, count, s->file) != count) {
        int io = ferror(s->file);
        return fail(err, err_size, io ? FB_E_IO : FB_E_TRUNCATED, "cannot read", s->path,
                    io ? strerror(errno) : "file too short");
    }
    return FB_OK;
}

static const fb_ext_read_at_v1 read_at_ext = {sizeof(fb_ext_read_at_v1), read_at};

static const void* extension_of(const char* id) {
    return strcmp(id, FB_EXT_READ_AT_V1) == 0 ? &read_at_ext : NULL;
}
#define EXTENSIONS extension_of
#else
#define EXTENSIONS NULL
#endif

#if ABI_CLAIM != 10
/* f32 with buffer_size 3 reads back "lossy" by this plugin's word (it is
 * not): the host must ask per dtype (ABI 1.1) and record what it is told. */
static int is_lossless_for(fb_dtype dtype, const fb_option* options, size_t option_count) {
    for (size_t i = 0; i < option_count; ++i)
        if (dtype == FB_DTYPE_F32 && strcmp(options[i].name, "buffer_size") == 0 &&
            strcmp(options[i].value, "3") == 0)
            return 0;
    return 1;
}
#endif

#if ABI_CLAIM == 10
/* The descriptor as the 1.0 header declared it (152 bytes on LP64). */
typedef struct {
    uint32_t magic;
    uint16_t abi_major, abi_minor;
    uint32_t struct_size, option_decl_size;
    const char *id, *version, *description, *license, *extension;
    uint32_t dtypes, reserved0;
    uint64_t flags;
    const fb_option_decl* options;
    uint32_t option_count, reserved1;
    int (*is_lossless)(const fb_option* options, size_t option_count);
    fb_status (*open_write)(const fb_open_args* args, fb_stream** out, char* err, size_t err_size);
    fb_status (*write)(fb_stream* stream, const void* data, uint64_t count, char* err, size_t err_size);
    fb_status (*close_write)(fb_stream* stream, char* err, size_t err_size);
    fb_status (*open_read)(const fb_open_args* args, fb_stream** out, char* err, size_t err_size);
    fb_status (*read)(fb_stream* stream, void* data, uint64_t count, char* err, size_t err_size);
    fb_status (*close_read)(fb_stream* stream, char* err, size_t err_size);
    const void* (*get_extension)(const char* id);
} descriptor_1_0;
_Static_assert(sizeof(descriptor_1_0) == FB_DESCRIPTOR_SIZE_1_0, "the frozen 1.0 layout");

static const descriptor_1_0 template_1_0 = {
    .magic = FB_PLUGIN_MAGIC,
    .abi_major = 1,
    .abi_minor = 0,
    .struct_size = sizeof(descriptor_1_0),
    .option_decl_size = FB_OPTION_DECL_SIZE_1_0,
    .id = "abi_c_1_0",
    .version = "1.0.0",
    .description = "ABI evolution test plugin in plain C: raw bytes through stdio",
    .license = "MIT",
    .extension = "bin",
    .dtypes = FB_DTYPES_ALL,
    .flags = FB_CAP_LOSSLESS,
    .options = options,
    .option_count = 1,
    .is_lossless = NULL,
    .open_write = open_write,
    .write = write_data,
    .close_write = close_stream,
    .open_read = open_read,
    .read = read_data,
    .close_read = close_stream,
    .get_extension = NULL,
};

/* The descriptor at the end of a readable page, the next page unreadable. */
static const fb_plugin_descriptor* guarded_descriptor(void) {
    static const fb_plugin_descriptor* placed = NULL;
    if (!placed) {
        const long page = sysconf(_SC_PAGESIZE);
        unsigned char* two =
            mmap(NULL, (size_t)(2 * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (two == MAP_FAILED) return NULL;
        unsigned char* at = two + page - sizeof template_1_0;
        memcpy(at, &template_1_0, sizeof template_1_0);
        mprotect(two, (size_t)page, PROT_READ);
        mprotect(two + page, (size_t)page, PROT_NONE);
        placed = (const fb_plugin_descriptor*)(void*)at;
    }
    return placed;
}

FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_major, uint16_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return guarded_descriptor();
}
#else
#if ABI_CLAIM == 13
/* The hypothetical 1.3 descriptor: this header's struct with one field appended. */
typedef struct {
    fb_plugin_descriptor v1_2;
    const char* homepage; /* new in "1.3" */
} descriptor_t;
#define DESCRIPTOR_MINOR 3
#define DESCRIPTOR_SIZE sizeof(descriptor_t)
#define PLUGIN_ID "abi_c_1_3"
#elif ABI_CLAIM == 20
typedef struct {
    fb_plugin_descriptor v1_2;
} descriptor_t;
#define DESCRIPTOR_MINOR 0
#define DESCRIPTOR_SIZE sizeof(descriptor_t)
#define PLUGIN_ID "abi_c_2_0"
#elif ABI_CLAIM == 12
typedef struct {
    fb_plugin_descriptor v1_2;
} descriptor_t;
#define DESCRIPTOR_MINOR 2
#define DESCRIPTOR_SIZE sizeof(fb_plugin_descriptor)
#define PLUGIN_ID "abi_c_1_2"
#else
/* 1.2 appended nothing to the descriptor: the 1.1 layout is this header's,
 * its size the frozen 1.1 constant. */
typedef struct {
    fb_plugin_descriptor v1_2;
} descriptor_t;
_Static_assert(sizeof(fb_plugin_descriptor) == FB_DESCRIPTOR_SIZE_1_1, "the 1.1 descriptor layout");
#define DESCRIPTOR_MINOR 1
#define DESCRIPTOR_SIZE FB_DESCRIPTOR_SIZE_1_1
#define PLUGIN_ID "abi_c_1_1"
#endif

static const descriptor_t descriptor = {
    .v1_2 =
        {
            .magic = FB_PLUGIN_MAGIC,
            .abi_major = ABI_CLAIM / 10,
            .abi_minor = DESCRIPTOR_MINOR,
            .struct_size = DESCRIPTOR_SIZE,
            .option_decl_size = sizeof(fb_option_decl),
            .id = PLUGIN_ID,
            .version = "1.0.0",
            .description = "ABI evolution test plugin in plain C: raw bytes through stdio",
            .license = "MIT",
            .extension = "bin",
            .dtypes = FB_DTYPES_ALL,
            .flags = FB_CAP_LOSSLESS,
            .options = options,
            .option_count = 1,
            .is_lossless = NULL,
            .open_write = open_write,
            .write = write_data,
            .close_write = close_stream,
            .open_read = open_read,
            .read = read_data,
            .close_read = close_stream,
            .get_extension = EXTENSIONS,
            .is_lossless_for = is_lossless_for,
        },
#if ABI_CLAIM == 13
    .homepage = "https://example.org/abi_c",
#endif
};

FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_major, uint16_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &descriptor.v1_2;
}
#endif
