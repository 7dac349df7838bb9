/* A complete plugin in plain C (C11), using only plugin.h: the proof that the
 * ABI needs no C++. It stores the array's bytes as they are (like raw), with
 * one option, `fail_on_open`, to exercise error reporting across the ABI. */
#include <formatbench/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fb_stream {
    FILE* file;
    size_t element_size;
    char path[4096];
};

static void set_error(char* err, size_t size, const char* what, const char* path, const char* reason) {
    snprintf(err, size, "c_plugin: %s '%s': %s", what, path, reason);
}

static const fb_option_decl options[] = {
    {"fail_on_open", FB_OPT_BOOL, "false", 0, 0, 0, NULL, "fail every open (to test error reporting)"},
};

static int wants_failure(const fb_open_args* args) {
    for (size_t i = 0; i < args->option_count; ++i)
        if (strcmp(args->options[i].name, "fail_on_open") == 0)
            return strcmp(args->options[i].value, "true") == 0;
    return 0;
}

static fb_status open_stream(const fb_open_args* args, const char* mode, fb_stream** out, char* err,
                             size_t err_size) {
    *out = NULL;
    if (wants_failure(args)) {
        set_error(err, err_size, "open", args->path, "fail_on_open is set");
        return FB_E_IO;
    }
    fb_stream* s = calloc(1, sizeof *s);
    if (!s) return FB_E_NO_MEMORY;
    s->element_size = fb_dtype_size(args->dtype);
    snprintf(s->path, sizeof s->path, "%s", args->path);
    s->file = fopen(args->path, mode);
    if (!s->file) {
        set_error(err, err_size, "cannot open", args->path, strerror(errno));
        free(s);
        return FB_E_IO;
    }
    *out = s;
    return FB_OK;
}

static fb_status open_write(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, "wb", out, err, err_size);
}

static fb_status open_read(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    return open_stream(args, "rb", out, err, err_size);
}

static fb_status write_data(fb_stream* s, const void* data, uint64_t count, char* err, size_t err_size) {
    if (fwrite(data, s->element_size, count, s->file) != count) {
        set_error(err, err_size, "cannot write", s->path, strerror(errno));
        return FB_E_IO;
    }
    return FB_OK;
}

static fb_status read_data(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    if (fread(data, s->element_size, count, s->file) != count) {
        set_error(err, err_size, "cannot read", s->path,
                  ferror(s->file) ? strerror(errno) : "file too short");
        return ferror(s->file) ? FB_E_IO : FB_E_TRUNCATED;
    }
    return FB_OK;
}

static fb_status close_stream(fb_stream* s, char* err, size_t err_size) {
    fb_status status = FB_OK;
    if (fclose(s->file) != 0) {
        set_error(err, err_size, "cannot close", s->path, strerror(errno));
        status = FB_E_IO;
    }
    free(s);
    return status;
}

static const fb_plugin_descriptor descriptor = {
    .magic = FB_PLUGIN_MAGIC,
    .abi_major = FB_ABI_MAJOR,
    .abi_minor = FB_ABI_MINOR,
    .struct_size = sizeof(fb_plugin_descriptor),
    .option_decl_size = sizeof(fb_option_decl),
    .id = "c_plugin",
    .version = "1.0.0",
    .description = "test plugin written in plain C: raw bytes through stdio",
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

FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_major, uint16_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &descriptor;
}
