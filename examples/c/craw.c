/* craw: a formatbench plugin in plain C (C11 with POSIX), the example of
 * docs/plugin-guide.md ("A plugin in C"). It stores the array's bytes and
 * nothing else, like formatbench's raw plugin, through stdio, with options
 * of three types read in C: byte_order (a choice), buffer_size (a byte size)
 * and sync (a boolean). fb_check_options (plugin.h) checks them in every
 * open, so nothing here parses an option that could be malformed.
 *
 * There is no header: the reader takes dtype and count from the host and
 * checks the file's size against them, so a file of another size is an
 * error (FB_E_TRUNCATED or FB_E_CORRUPT) naming the path. */
#define _POSIX_C_SOURCE 200809L /* fileno, fsync */
#include <formatbench/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The option table, in designated initializers: formatbench checks a
 * study's options against it before anything runs, `formatbench describe
 * craw` prints it, and fb_check_options checks an open's options with it. */
static const char* const byte_orders[] = {"native", "little", "big", NULL};
static const fb_option_decl options[] = {
    {.name = "byte_order",
     .type = FB_OPT_CHOICE,
     .default_value = "native",
     .choices = byte_orders,
     .help = "byte order in the file; values are swapped on the fly when it is not the machine's"},
    {.name = "buffer_size",
     .type = FB_OPT_SIZE,
     .default_value = "0",
     .min = 0,
     .max = 64 << 20,
     .has_range = 1,
     .help = "stdio buffer bytes (setvbuf); 0 = stdio's own choice"},
    {.name = "sync",
     .type = FB_OPT_BOOL,
     .default_value = "false",
     .help = "fsync the file before close returns"},
};
#define OPTION_COUNT (sizeof options / sizeof options[0])

/* The options of one open, as values. */
struct settings {
    int swap;        /* the file's byte order is not the machine's */
    uint64_t buffer; /* stdio buffer bytes, 0 = stdio's default */
    int sync;        /* fsync at close */
};

struct fb_stream {
    FILE* file;
    char* buffer; /* the stdio buffer, when buffer_size > 0 */
    size_t element_size;
    struct settings settings;
    unsigned char scratch[65536]; /* swapped bytes on their way to the file */
    char path[];
};

/* Reads the options (the given value, else the default) into s. Called
 * after fb_check_options: every value is well-formed. */
static void read_settings(const fb_open_args* args, struct settings* s) {
    const char* value[OPTION_COUNT];
    const uint16_t one = 1;
    const int little_endian = *(const unsigned char*)&one == 1;
    size_t i, j;
    for (i = 0; i < OPTION_COUNT; ++i) {
        value[i] = options[i].default_value;
        for (j = 0; j < args->option_count; ++j)
            if (strcmp(args->options[j].name, options[i].name) == 0)
                value[i] = args->options[j].value ? args->options[j].value : "";
    }
    /* FB_OPT_CHOICE: compare with the choices. */
    s->swap = (strcmp(value[0], "little") == 0 && !little_endian) ||
              (strcmp(value[0], "big") == 0 && little_endian);
    /* FB_OPT_SIZE: fb_parse_size, the grammar the host checked. */
    s->buffer = 0;
    fb_parse_size(value[1], &s->buffer);
    /* FB_OPT_BOOL: the host's words for true. */
    s->sync = strcmp(value[2], "true") == 0 || strcmp(value[2], "yes") == 0 || strcmp(value[2], "on") == 0 ||
              strcmp(value[2], "1") == 0;
}

static fb_status fail(char* err, size_t err_size, fb_status status, const char* what, const char* path,
                      const char* why) {
    snprintf(err, err_size, "craw: %s '%s': %s", what, path, why);
    return status;
}

static void swap_bytes(unsigned char* p, size_t count, size_t size) {
    size_t i, k;
    for (i = 0; i < count; ++i, p += size)
        for (k = 0; k < size / 2; ++k) {
            unsigned char t = p[k];
            p[k] = p[size - 1 - k];
            p[size - 1 - k] = t;
        }
}

static void free_stream(fb_stream* s) {
    if (s->file) fclose(s->file);
    free(s->buffer);
    free(s);
}

/* Checks the options, then opens path with stdio (mode "wb" or "rb"). */
static fb_status open_stream(const fb_open_args* args, const char* mode, fb_stream** out, char* err,
                             size_t err_size) {
    fb_status status;
    fb_stream* s;
    size_t path_size = strlen(args->path) + 1;
    *out = NULL;
    /* First, before the path is touched: a bad option leaves nothing behind. */
    status = fb_check_options(options, OPTION_COUNT, args->options, args->option_count, err, err_size);
    if (status != FB_OK) return status;
    s = calloc(1, sizeof *s + path_size);
    if (!s) return fail(err, err_size, FB_E_NO_MEMORY, "cannot open", args->path, "out of memory");
    memcpy(s->path, args->path, path_size);
    s->element_size = fb_dtype_size(args->dtype);
    read_settings(args, &s->settings);
    if (s->settings.buffer > 0 && !(s->buffer = malloc((size_t)s->settings.buffer))) {
        free_stream(s);
        return fail(err, err_size, FB_E_NO_MEMORY, "cannot open", args->path, "no memory for buffer_size");
    }
    /* Nothing can fail after fopen, so a failed open never leaves a file. */
    s->file = fopen(args->path, mode);
    if (!s->file) {
        status = fail(err, err_size, FB_E_IO, "cannot open", args->path, strerror(errno));
        free_stream(s);
        return status;
    }
    if (s->buffer) setvbuf(s->file, s->buffer, _IOFBF, (size_t)s->settings.buffer);
    *out = s;
    return FB_OK;
}

static fb_status craw_open_write(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, "wb", out, err, err_size);
}

static fb_status craw_write(fb_stream* s, const void* data, uint64_t count, char* err, size_t err_size) {
    const unsigned char* p = data;
    size_t per_step = s->settings.swap ? sizeof s->scratch / s->element_size : (size_t)count;
    while (count > 0) {
        size_t n = count < per_step ? (size_t)count : per_step;
        const void* from = p;
        if (s->settings.swap) {
            memcpy(s->scratch, p, n * s->element_size);
            swap_bytes(s->scratch, n, s->element_size);
            from = s->scratch;
        }
        if (fwrite(from, s->element_size, n, s->file) != n)
            return fail(err, err_size, FB_E_IO, "cannot write", s->path, strerror(errno));
        p += n * s->element_size;
        count -= n;
    }
    return FB_OK;
}

static fb_status craw_close_write(fb_stream* s, char* err, size_t err_size) {
    fb_status status = FB_OK;
    /* fflush reports what stdio still held; fsync what the system holds. */
    if (fflush(s->file) != 0)
        status = fail(err, err_size, FB_E_IO, "cannot write", s->path, strerror(errno));
    else if (s->settings.sync && fsync(fileno(s->file)) != 0)
        status = fail(err, err_size, FB_E_IO, "cannot fsync", s->path, strerror(errno));
    if (fclose(s->file) != 0 && status == FB_OK)
        status = fail(err, err_size, FB_E_IO, "cannot close", s->path, strerror(errno));
    s->file = NULL;
    free_stream(s);
    return status;
}

static fb_status craw_open_read(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    struct stat st;
    fb_stream* s;
    fb_status status = open_stream(args, "rb", &s, err, err_size);
    if (status != FB_OK) return status;
    /* No header: the file's size must be the count the host asks for. */
    if (fstat(fileno(s->file), &st) == 0 && S_ISREG(st.st_mode)) {
        uint64_t have = (uint64_t)st.st_size, want = args->count * s->element_size;
        if (have != want) {
            char why[128];
            snprintf(why, sizeof why, "the file has %llu bytes, %llu elements of %zu bytes were asked for",
                     (unsigned long long)have, (unsigned long long)args->count, s->element_size);
            status = fail(err, err_size, have < want ? FB_E_TRUNCATED : FB_E_CORRUPT, "cannot read",
                          args->path, why);
            free_stream(s);
            return status;
        }
    }
    *out = s;
    return FB_OK;
}

static fb_status craw_read(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    size_t got = fread(data, s->element_size, (size_t)count, s->file);
    if (got != count) {
        if (ferror(s->file)) return fail(err, err_size, FB_E_IO, "cannot read", s->path, strerror(errno));
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path,
                    "the file ends before the data asked for");
    }
    if (s->settings.swap) swap_bytes(data, got, s->element_size);
    return FB_OK;
}

static fb_status craw_close_read(fb_stream* s, char* err, size_t err_size) {
    (void)err;
    (void)err_size;
    free_stream(s);
    return FB_OK;
}

/* The descriptor, in designated initializers: fields not named are zero
 * (no is_lossless: FB_CAP_LOSSLESS decides; no extensions). */
static const fb_plugin_descriptor descriptor = {
    .magic = FB_PLUGIN_MAGIC,
    .abi_major = FB_ABI_MAJOR,
    .abi_minor = FB_ABI_MINOR,
    .struct_size = sizeof(fb_plugin_descriptor),
    .option_decl_size = sizeof(fb_option_decl),
    .id = "craw",
    .version = "1.0.0",
    .description = "raw bytes through stdio, a plugin in plain C (example)",
    .license = "MIT",
    .extension = "craw",
    .dtypes = FB_DTYPES_ALL,
    .flags = FB_CAP_LOSSLESS,
    .options = options,
    .option_count = OPTION_COUNT,
    .open_write = craw_open_write,
    .write = craw_write,
    .close_write = craw_close_write,
    .open_read = craw_open_read,
    .read = craw_read,
    .close_read = craw_close_read,
};

FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_abi_major,
                                                             uint16_t host_abi_minor) {
    (void)host_abi_major;
    (void)host_abi_minor;
    return &descriptor;
}
