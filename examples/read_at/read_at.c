/* formatbench-read-at: an out-of-tree formatbench plugin in plain C (C11,
 * plugin.h only) with random access (ABI 1.2): the array's bytes as they
 * are (raw layout, no header), read with read(), formatbench.read-at/1 and
 * formatbench.read-box/1, and with O_DIRECT (FB_CAP_DIRECT_IO) through an
 * aligned buffer of its own. Every dtype; no options.
 *
 * What a C plugin checks itself (plugin.hpp does it for a C++ one): every
 * read-at range against the stream's count and every read-box box against
 * the shape given at open (FB_E_TRUNCATED, naming the path, nothing
 * written), and the shape and open flags only when the host's open
 * arguments are long enough to hold them (a 1.1 host's are not).
 * docs/plugin-guide.md ("Random access") explains the contract. */
#define _GNU_SOURCE /* O_DIRECT */
#include <formatbench/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PLUGIN_ID "read_at_c"
#define PLUGIN_DESCRIPTION "raw bytes with read-at, read-box and O_DIRECT, a plugin in plain C (example)"

/* O_DIRECT transfers start, end and sit in memory on multiples of this (it
 * covers logical block sizes of 512 and 4096 bytes). */
#define DIRECT_ALIGN 4096u

struct fb_stream {
    int fd;
    int direct;
    size_t element_size;
    uint64_t count;    /* elements in the file (read) or written so far */
    uint64_t position; /* the next element read() reads */
    uint32_t ndim;
    uint64_t shape[FB_MAX_NDIM];
    char path[4096];
};

static fb_status fail(char* err, size_t size, fb_status st, const char* what, const char* path,
                      const char* why) {
    snprintf(err, size, PLUGIN_ID ": %s '%s': %s", what, path, why);
    return st;
}

static fb_status open_stream(const fb_open_args* args, int writing, fb_stream** out, char* err,
                             size_t err_size) {
    *out = NULL;
    /* No options are declared: any option given is refused, before the
     * path is touched. */
    fb_status st = fb_check_options(NULL, 0, args->options, args->option_count, err, err_size);
    if (st != FB_OK) return st;
    fb_stream* s = calloc(1, sizeof *s);
    if (!s) return fail(err, err_size, FB_E_NO_MEMORY, "no memory to open", args->path, "calloc failed");
    s->element_size = fb_dtype_size(args->dtype);
    snprintf(s->path, sizeof s->path, "%s", args->path);
    /* The shape and the open flags exist since ABI 1.2: a 1.1 host's
     * arguments end before them. */
    if (args->struct_size >= FB_OPEN_ARGS_SIZE_1_2) {
        if (args->ndim > FB_MAX_NDIM || (args->ndim > 0 && !args->shape)) {
            free(s);
            return fail(err, err_size, FB_E_STATE, "open", args->path, "a shape without extents");
        }
        s->ndim = args->ndim;
        for (uint32_t k = 0; k < s->ndim; ++k)
            s->shape[k] = args->shape[k];
        s->direct = !writing && (args->open_flags & FB_OPEN_DIRECT) != 0;
    }
    int flags = writing ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY;
    s->fd = open(args->path, flags | O_CLOEXEC | (s->direct ? O_DIRECT : 0), 0644);
    if (s->fd < 0) {
        int e = errno;
        st = s->direct && e == EINVAL ? FB_E_UNSUPPORTED : FB_E_IO;
        fail(err, err_size, st, s->direct ? "cannot open with O_DIRECT" : "cannot open", args->path,
             strerror(e));
        free(s);
        return st;
    }
    if (!writing) {
        /* The file holds exactly count elements, or it is not this data. */
        struct stat info;
        if (fstat(s->fd, &info) != 0) {
            st = fail(err, err_size, FB_E_IO, "cannot stat", args->path, strerror(errno));
        } else if (S_ISREG(info.st_mode) && (uint64_t)info.st_size / s->element_size != args->count) {
            int shorter = (uint64_t)info.st_size / s->element_size < args->count;
            st = fail(err, err_size, shorter ? FB_E_TRUNCATED : FB_E_CORRUPT, "size of", args->path,
                      shorter ? "the file holds fewer elements than asked for"
                              : "the file holds more elements than asked for");
        } else if (S_ISREG(info.st_mode) && (uint64_t)info.st_size % s->element_size != 0) {
            st = fail(err, err_size, FB_E_CORRUPT, "size of", args->path, "not a whole number of elements");
        }
        if (st != FB_OK) {
            close(s->fd);
            free(s);
            return st;
        }
        s->count = args->count;
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
    const char* p = data;
    size_t left = (size_t)count * s->element_size;
    while (left > 0) {
        ssize_t w = write(s->fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0)
            return fail(err, err_size, FB_E_IO, "cannot write", s->path,
                        w < 0 ? strerror(errno) : "no progress");
        p += w;
        left -= (size_t)w;
    }
    s->count += count;
    return FB_OK;
}

/* Reads bytes [at, at + n) of the file into dst; FB_E_TRUNCATED when the
 * file ends first. */
static fb_status pread_all(fb_stream* s, unsigned char* dst, size_t n, uint64_t at, char* err,
                           size_t err_size) {
    while (n > 0) {
        ssize_t got = pread(s->fd, dst, n, (off_t)at);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return fail(err, err_size, FB_E_IO, "cannot read", s->path, strerror(errno));
        if (got == 0)
            return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, "the file ends early");
        dst += got;
        n -= (size_t)got;
        at += (uint64_t)got;
    }
    return FB_OK;
}

/* With O_DIRECT: the aligned blocks that cover [at, at + n) into a buffer
 * of this stream's own, then the bytes asked for out of it (the host's
 * buffer and range need not be aligned for read()). */
static fb_status pread_direct(fb_stream* s, unsigned char* dst, size_t n, uint64_t at, char* err,
                              size_t err_size) {
    uint64_t first = at / DIRECT_ALIGN * DIRECT_ALIGN;
    uint64_t end = (at + n + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN;
    void* block = NULL;
    if (posix_memalign(&block, DIRECT_ALIGN, (size_t)(end - first)) != 0)
        return fail(err, err_size, FB_E_NO_MEMORY, "no memory to read", s->path, "posix_memalign failed");
    size_t want = (size_t)(at + n - first), have = 0;
    fb_status st = FB_OK;
    while (have < want) { /* the last block comes back short at the end of the file */
        ssize_t got =
            pread(s->fd, (unsigned char*)block + have, (size_t)(end - first) - have, (off_t)(first + have));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            st = fail(err, err_size, FB_E_IO, "cannot read (O_DIRECT)", s->path, strerror(errno));
            break;
        }
        if (got == 0) {
            st = fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, "the file ends early");
            break;
        }
        have += (size_t)got;
    }
    if (st == FB_OK) memcpy(dst, (unsigned char*)block + (at - first), n);
    free(block);
    return st;
}

/* Elements [offset, offset + count) of the file into data: the one path of
 * read(), read-at and read-box. */
static fb_status read_elements(fb_stream* s, uint64_t offset, void* data, uint64_t count, char* err,
                               size_t err_size) {
    if (count == 0) return FB_OK;
    size_t n = (size_t)count * s->element_size;
    uint64_t at = offset * s->element_size;
    return s->direct ? pread_direct(s, data, n, at, err, err_size) : pread_all(s, data, n, at, err, err_size);
}

static fb_status read_data(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    if (count > s->count - s->position)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path,
                    "the file ends before the data asked for");
    fb_status st = read_elements(s, s->position, data, count, err, err_size);
    if (st == FB_OK) s->position += count;
    return st;
}

/* FB_E_TRUNCATED for a range or box outside the data: the buffer is left
 * as it was. */
static fb_status refuse(fb_stream* s, char* err, size_t err_size, const char* why) {
    return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, why);
}

/* formatbench.read-at/1: elements [offset, offset + count), any number of
 * calls, in any order; a range outside the file is refused (the sum is
 * never formed: it could overflow). */
static fb_status read_at(fb_stream* s, uint64_t offset, void* data, uint64_t count, char* err,
                         size_t err_size) {
    if (offset > s->count || count > s->count - offset)
        return refuse(s, err, err_size, "the range lies outside the elements of the file");
    return read_elements(s, offset, data, count, err, err_size);
}

/* A box of the shape, row-major: one read of count[ndim - 1] elements for
 * each position on the other axes (the last axis is contiguous in the
 * file). */
static fb_status read_box(fb_stream* s, uint32_t ndim, const uint64_t* start, const uint64_t* count,
                          void* data, char* err, size_t err_size) {
    if (s->ndim == 0 || ndim != s->ndim)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read a box of", s->path,
                    "its number of axes is not the data set's");
    uint64_t elements = 1;
    for (uint32_t k = 0; k < ndim; ++k) {
        if (start[k] > s->shape[k] || count[k] > s->shape[k] - start[k])
            return refuse(s, err, err_size, "the box lies outside the data set's shape");
        elements *= count[k];
    }
    if (elements == 0) return FB_OK;
    uint64_t index[FB_MAX_NDIM] = {0}; /* position on the axes 0 .. ndim-2, within the box */
    uint64_t row = count[ndim - 1];
    unsigned char* out = data;
    for (;;) {
        uint64_t offset = 0;
        for (uint32_t k = 0; k < ndim; ++k) {
            uint64_t at = k + 1 < ndim ? start[k] + index[k] : start[k];
            offset = offset * s->shape[k] + at;
        }
        fb_status st = read_elements(s, offset, out, row, err, err_size);
        if (st != FB_OK) return st;
        out += row * s->element_size;
        uint32_t k = ndim - 1;
        while (k > 0 && ++index[k - 1] == count[k - 1]) {
            index[k - 1] = 0;
            --k;
        }
        if (k == 0) return FB_OK;
    }
}

static fb_status close_stream(fb_stream* s, char* err, size_t err_size) {
    fb_status st = FB_OK;
    if (close(s->fd) != 0) st = fail(err, err_size, FB_E_IO, "cannot close", s->path, strerror(errno));
    free(s);
    return st;
}

static const fb_ext_read_at_v1 read_at_ext = {sizeof(fb_ext_read_at_v1), read_at};
static const fb_ext_read_box_v1 read_box_ext = {sizeof(fb_ext_read_box_v1), read_box};

static const void* get_extension(const char* id) {
    if (strcmp(id, FB_EXT_READ_AT_V1) == 0) return &read_at_ext;
    if (strcmp(id, FB_EXT_READ_BOX_V1) == 0) return &read_box_ext;
    return NULL;
}

static const fb_plugin_descriptor descriptor = {
    .magic = FB_PLUGIN_MAGIC,
    .abi_major = FB_ABI_MAJOR,
    .abi_minor = FB_ABI_MINOR,
    .struct_size = sizeof(fb_plugin_descriptor),
    .option_decl_size = sizeof(fb_option_decl),
    .id = PLUGIN_ID,
    .version = "1.0.0",
    .description = PLUGIN_DESCRIPTION,
    .license = "MIT",
    .extension = "bin",
    .dtypes = FB_DTYPES_ALL,
    .flags = FB_CAP_LOSSLESS | FB_CAP_DIRECT_IO,
    .options = NULL,
    .option_count = 0,
    .is_lossless = NULL,
    .open_write = open_write,
    .write = write_data,
    .close_write = close_stream,
    .open_read = open_read,
    .read = read_data,
    .close_read = close_stream,
    .get_extension = get_extension,
    .is_lossless_for = NULL,
};

FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t host_major, uint16_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &descriptor;
}
