/* {{name}}: a formatbench format plugin in plain C, made by
 * `formatbench new-plugin`. It needs only <formatbench/plugin.h>, whose
 * comments state the contract of every call.
 *
 * The file format, {{name}}'s own: a 24-byte header, then the elements as
 * they are in memory (the machine's byte order):
 *   bytes  0-7   the magic "{{magic}}"
 *   bytes  8-11  the format version, 1 (uint32)
 *   bytes 12-15  the dtype, an fb_dtype value: 1 f64, 2 f32, 3 i64, 4 i32, 5 u8 (uint32)
 *   bytes 16-23  the element count (uint64), written when the stream closes
 * Replace it with your format and keep the error handling: every failure
 * returns the status that says what happened and a message that names the
 * path, and a reader checks everything it reads before it trusts it. */
#define _POSIX_C_SOURCE 200809L /* pwrite */
#include <formatbench/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER_SIZE 24
#define COUNT_OFFSET 16
#define FORMAT_VERSION 1u
static const char magic[] = "{{magic}}"; /* 8 bytes and the NUL */

/* The one option. fb_check_options checks what a study gives against this
 * table in every open; formatbench checks it before a study runs and
 * `formatbench describe {{name}}` shows it. */
static const fb_option_decl options[] = {
    {.name = "buffer_size",
     .type = FB_OPT_SIZE,
     .default_value = "1MiB",
     .min = 4096,
     .max = 1073741824,
     .has_range = 1,
     .help = "bytes the writer collects before each write(2); larger writes go straight to the file"},
};
#define OPTION_COUNT (sizeof options / sizeof options[0])

struct fb_stream {
    int fd;
    int created;           /* open_write made the file: ours to remove when open fails */
    size_t element_size;   /* bytes per element */
    uint64_t count;        /* writer: elements written; reader: elements in the file */
    uint64_t done;         /* reader: elements read so far */
    unsigned char* buffer; /* writer: buffer_size bytes, `buffered` of them in use */
    size_t buffer_size, buffered;
    char path[]; /* for messages */
};

/* "{{name}}: <what> '<path>': <why>" into err; returns status. */
static fb_status fail(char* err, size_t err_size, fb_status status, const char* what, const char* path,
                      const char* why) {
    snprintf(err, err_size, "{{name}}: %s '%s': %s", what, path, why);
    return status;
}

/* An error of the operating system (errno value e) is FB_E_IO. */
static fb_status fail_errno(char* err, size_t err_size, const char* what, const char* path, int e) {
    return fail(err, err_size, FB_E_IO, what, path, strerror(e));
}

static const char* dtype_name(uint32_t dtype) {
    switch (dtype) {
    case FB_DTYPE_F64: return "f64";
    case FB_DTYPE_F32: return "f32";
    case FB_DTYPE_I64: return "i64";
    case FB_DTYPE_I32: return "i32";
    case FB_DTYPE_U8: return "u8";
    }
    return "an unknown dtype";
}

/* Writes all n bytes (at offset, or at the file position when offset < 0),
 * retrying interrupted and short writes. Returns 0 or an errno value. */
static int write_all(int fd, const void* data, size_t n, off_t offset) {
    const unsigned char* p = data;
    while (n > 0) {
        ssize_t k = offset < 0 ? write(fd, p, n) : pwrite(fd, p, n, offset);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return errno;
        if (k == 0) return EIO; /* no progress: do not loop forever */
        p += k;
        n -= (size_t)k;
        if (offset >= 0) offset += k;
    }
    return 0;
}

/* Reads until n bytes are in or the file ends; *got is the count read.
 * Returns 0 or an errno value. */
static int read_full(int fd, void* data, size_t n, size_t* got) {
    unsigned char* p = data;
    *got = 0;
    while (*got < n) {
        ssize_t k = read(fd, p + *got, n - *got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return errno;
        if (k == 0) break; /* end of file */
        *got += (size_t)k;
    }
    return 0;
}

/* The value of option `name`: the one given last, else its default. */
static const char* option_value(const fb_open_args* args, const char* name) {
    size_t i;
    for (i = args->option_count; i-- > 0;)
        if (strcmp(args->options[i].name, name) == 0)
            return args->options[i].value ? args->options[i].value : "";
    for (i = 0; i < OPTION_COUNT; ++i)
        if (strcmp(options[i].name, name) == 0) return options[i].default_value;
    return "";
}

/* The checks every open starts with, before the path is touched, and a new
 * stream (NULL with a message in err when that fails). */
static fb_stream* new_stream(const fb_open_args* args, fb_status* status, char* err, size_t err_size) {
    fb_stream* s;
    size_t path_size;
    *status = fb_check_options(options, OPTION_COUNT, args->options, args->option_count, err, err_size);
    if (*status != FB_OK) return NULL;
    if (fb_dtype_size(args->dtype) == 0) {
        *status = fail(err, err_size, FB_E_UNSUPPORTED, "cannot open", args->path, "unknown dtype");
        return NULL;
    }
    path_size = strlen(args->path) + 1;
    s = calloc(1, sizeof *s + path_size);
    if (!s) {
        *status = fail(err, err_size, FB_E_NO_MEMORY, "cannot open", args->path, "out of memory");
        return NULL;
    }
    memcpy(s->path, args->path, path_size);
    s->fd = -1;
    s->element_size = fb_dtype_size(args->dtype);
    return s;
}

static void free_stream(fb_stream* s) {
    if (s->fd >= 0) close(s->fd);
    free(s->buffer);
    free(s);
}

/* ---- Writing ------------------------------------------------------------ */

static fb_status {{ident}}_open_write(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    unsigned char header[HEADER_SIZE] = {0};
    uint32_t version = FORMAT_VERSION, dtype = (uint32_t)args->dtype;
    uint64_t buffer_size = 0;
    fb_status status;
    fb_stream* s;
    int e;
    *out = NULL;
    s = new_stream(args, &status, err, err_size);
    if (!s) return status;
    fb_parse_size(option_value(args, "buffer_size"), &buffer_size); /* valid: checked above */
    s->buffer_size = (size_t)buffer_size;
    s->buffer = malloc(s->buffer_size);
    if (!s->buffer) {
        free_stream(s);
        return fail(err, err_size, FB_E_NO_MEMORY, "no memory for the buffer_size of", args->path,
                    "choose a smaller buffer_size");
    }
    /* Exclusively first, so that `created` says whether the path is ours to
     * remove; what is there already (a device such as /dev/full, a FIFO)
     * is written to as it is and never removed. */
    s->fd = open(args->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (s->fd >= 0)
        s->created = 1;
    else if (errno == EEXIST)
        s->fd = open(args->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (s->fd < 0) {
        status = fail_errno(err, err_size, "cannot create", args->path, errno);
        free_stream(s);
        return status;
    }
    /* The header, with count 0 until close writes the true count. */
    memcpy(header, magic, 8);
    memcpy(header + 8, &version, 4);
    memcpy(header + 12, &dtype, 4);
    e = write_all(s->fd, header, HEADER_SIZE, -1);
    if (e) {
        status = fail_errno(err, err_size, "cannot write", args->path, e);
        if (s->created) unlink(args->path); /* a failed open leaves nothing behind */
        free_stream(s);
        return status;
    }
    *out = s;
    return FB_OK;
}

static fb_status flush_buffer(fb_stream* s, char* err, size_t err_size) {
    int e = write_all(s->fd, s->buffer, s->buffered, -1);
    s->buffered = 0;
    return e ? fail_errno(err, err_size, "cannot write", s->path, e) : FB_OK;
}

static fb_status {{ident}}_write(fb_stream* s, const void* data, uint64_t count, char* err, size_t err_size) {
    size_t bytes = (size_t)count * s->element_size; /* the data is in memory: it fits */
    fb_status status = FB_OK;
    int e;
    if (s->buffered + bytes > s->buffer_size && (status = flush_buffer(s, err, err_size)) != FB_OK)
        return status;
    if (bytes >= s->buffer_size) {
        e = write_all(s->fd, data, bytes, -1);
        if (e) return fail_errno(err, err_size, "cannot write", s->path, e);
    } else if (bytes > 0) {
        memcpy(s->buffer + s->buffered, data, bytes);
        s->buffered += bytes;
    }
    s->count += count;
    return FB_OK;
}

/* Called once for every stream open_write returned, also after an error;
 * frees the stream whatever it returns. */
static fb_status {{ident}}_close_write(fb_stream* s, char* err, size_t err_size) {
    fb_status status = flush_buffer(s, err, err_size);
    if (status == FB_OK) {
        int e = write_all(s->fd, &s->count, sizeof s->count, COUNT_OFFSET);
        if (e) status = fail_errno(err, err_size, "cannot write the header of", s->path, e);
    }
    /* close(2) can report a delayed write error (NFS, quotas). */
    if (close(s->fd) != 0 && errno != EINTR && status == FB_OK)
        status = fail_errno(err, err_size, "cannot close", s->path, errno);
    s->fd = -1;
    free_stream(s);
    return status;
}

/* ---- Reading ------------------------------------------------------------ */

/* Checks the header and the file size against what the host asks for. */
static fb_status check_file(fb_stream* s, const fb_open_args* args, char* err, size_t err_size) {
    unsigned char header[HEADER_SIZE];
    uint32_t version, dtype;
    uint64_t stored, want_bytes, size;
    struct stat st;
    size_t got;
    char why[160];
    int e = read_full(s->fd, header, HEADER_SIZE, &got);
    if (e) return fail_errno(err, err_size, "cannot read", s->path, e);
    if (got == 0) return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, "the file is empty");
    if (got < HEADER_SIZE)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, "the file ends inside its header");
    if (memcmp(header, magic, 8) != 0)
        return fail(err, err_size, FB_E_CORRUPT, "cannot read", s->path,
                    "not a {{name}} file (no {{magic}} magic)");
    memcpy(&version, header + 8, 4);
    memcpy(&dtype, header + 12, 4);
    memcpy(&stored, header + COUNT_OFFSET, 8);
    if (version != FORMAT_VERSION) {
        snprintf(why, sizeof why, "format version %u; this plugin reads version %u", (unsigned)version,
                 FORMAT_VERSION);
        return fail(err, err_size, FB_E_UNSUPPORTED, "cannot read", s->path, why);
    }
    if (dtype != (uint32_t)args->dtype) {
        snprintf(why, sizeof why, "the file holds %s, not %s", dtype_name(dtype), dtype_name(args->dtype));
        return fail(err, err_size, FB_E_CORRUPT, "cannot read", s->path, why);
    }
    if (stored != args->count) {
        snprintf(why, sizeof why, "the file holds %llu elements, %llu were asked for",
                 (unsigned long long)stored, (unsigned long long)args->count);
        return fail(err, err_size, stored < args->count ? FB_E_TRUNCATED : FB_E_CORRUPT, "cannot read",
                    s->path, why);
    }
    if (fstat(s->fd, &st) != 0) return fail_errno(err, err_size, "cannot stat", s->path, errno);
    if (!S_ISREG(st.st_mode)) return FB_OK; /* a pipe or device has no size to check */
    if (stored > (UINT64_MAX - HEADER_SIZE) / s->element_size)
        return fail(err, err_size, FB_E_CORRUPT, "cannot read", s->path,
                    "the header's count is impossibly large");
    want_bytes = HEADER_SIZE + stored * s->element_size;
    size = (uint64_t)st.st_size;
    if (size != want_bytes) {
        snprintf(why, sizeof why, "the file has %llu bytes, its header says %llu", (unsigned long long)size,
                 (unsigned long long)want_bytes);
        return fail(err, err_size, size < want_bytes ? FB_E_TRUNCATED : FB_E_CORRUPT, "cannot read", s->path,
                    why);
    }
    s->count = stored;
    return FB_OK;
}

static fb_status {{ident}}_open_read(const fb_open_args* args, fb_stream** out, char* err, size_t err_size) {
    fb_status status;
    fb_stream* s;
    *out = NULL;
    s = new_stream(args, &status, err, err_size);
    if (!s) return status;
    s->count = args->count;
    s->fd = open(args->path, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) {
        status = fail_errno(err, err_size, "cannot open", args->path, errno);
        free_stream(s);
        return status;
    }
    status = check_file(s, args, err, err_size);
    if (status != FB_OK) {
        free_stream(s);
        return status;
    }
    *out = s;
    return FB_OK;
}

/* Fills data with exactly count elements, or fails: never a partial read. */
static fb_status {{ident}}_read(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    size_t bytes, got;
    int e;
    if (count > s->count - s->done)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path,
                    "more elements were asked for than the file holds");
    bytes = (size_t)count * s->element_size;
    e = read_full(s->fd, data, bytes, &got);
    if (e) return fail_errno(err, err_size, "cannot read", s->path, e);
    if (got < bytes)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, "the file ends before its data");
    s->done += count;
    return FB_OK;
}

static fb_status {{ident}}_close_read(fb_stream* s, char* err, size_t err_size) {
    (void)err;
    (void)err_size;
    free_stream(s);
    return FB_OK;
}

/* ---- The descriptor: what `formatbench describe {{name}}` shows ---------- */

static const fb_plugin_descriptor descriptor = {
    .magic = FB_PLUGIN_MAGIC,
    .abi_major = FB_ABI_MAJOR,
    .abi_minor = FB_ABI_MINOR,
    .struct_size = sizeof(fb_plugin_descriptor),
    .option_decl_size = sizeof(fb_option_decl),
    .id = "{{name}}",
    .version = "0.1.0",
    .description = "{{name}}: a 24-byte header, then the array as it is in memory",
    .license = "MIT", /* your plugin's license, as an SPDX expression */
    .extension = "{{name}}",
    .dtypes = FB_DTYPES_ALL,
    .flags = FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING,
    .options = options,
    .option_count = OPTION_COUNT,
    .open_write = {{ident}}_open_write,
    .write = {{ident}}_write,
    .close_write = {{ident}}_close_write,
    .open_read = {{ident}}_open_read,
    .read = {{ident}}_read,
    .close_read = {{ident}}_close_read,
};

/* The one exported symbol. The host passes its ABI version and decides
 * compatibility from the descriptor. */
FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_abi_major,
                                                             uint16_t host_abi_minor) {
    (void)host_abi_major;
    (void)host_abi_minor;
    return &descriptor;
}
