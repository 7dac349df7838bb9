/* A test plugin in plain C (C11, plugin.h only) with random access (ABI
 * 1.2): the array's bytes as they are (raw layout, no header), read with
 * read(), formatbench.read-at/1 and formatbench.read-box/1, and with
 * O_DIRECT (FB_CAP_DIRECT_IO) through an aligned buffer of its own. Every
 * dtype; no options. Built twice (tests/plugins/meson.build):
 *
 *   read_at      (libfb_read_at.so) correct: it passes check-plugin.
 *
 *   wrong_block  (libfb_wrong_block.so, -DWRONG_ELEMENT=1000) the same,
 *                except that read-at (and read-box, which reads through it)
 *                returns wrong bytes for exactly one element: element index
 *                1000 of the file, every bit inverted, whenever a range
 *                covers it. Writing and the sequential read() are correct,
 *                so only a check or a case that reads element 1000 at
 *                random finds it.
 *
 * For the tests of check-plugin itself, FB_READ_AT_FAULT (read at open_read)
 * plants one bug in either build:
 *   fill_refused    a refused read-at range or read-box box still writes
 *                   into the buffer (then fails with FB_E_TRUNCATED);
 *   accept_outside  a read-at range that crosses the end reads what there
 *                   is and succeeds;
 *   accept_ndim     a box of another ndim than the shape succeeds, reading
 *                   nothing;
 *   box_start0      read-box ignores the box's start on axis 0;
 *   unstable        reading the offset of the stream's first read-at again
 *                   gives its first element with one bit changed;
 *   refuse_u8       formatbench.check-options/1 refuses u8 with the default
 *                   options (which it otherwise accepts for every dtype).
 * and, for the tests of the runner (tests/cli/test_trust.sh):
 *   read_nothing    read(), read-at and read-box claim success and leave the
 *                   buffer as it was;
 *   overrun_read    every read writes 64 zero bytes past the values asked for;
 *   overrun_write   every write writes 64 zero bytes past the values given;
 *   flush_to_zero   every write turns on flush-to-zero and
 *                   denormals-are-zero (MXCSR; rounding toward zero where
 *                   there is no MXCSR) and leaves them on. */
#define _GNU_SOURCE /* O_DIRECT */
#include <formatbench/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#ifdef WRONG_ELEMENT
#define PLUGIN_ID "wrong_block"
#define PLUGIN_DESCRIPTION "test plugin: raw bytes with read-at, whose read-at gets element 1000 wrong"
#else
#define PLUGIN_ID "read_at"
#define PLUGIN_DESCRIPTION "test plugin in plain C: raw bytes with read-at, read-box and O_DIRECT"
#endif

/* O_DIRECT transfers start, end and sit in memory on multiples of this (it
 * covers logical block sizes of 512 and 4096 bytes). */
#define DIRECT_ALIGN 4096u

enum fault {
    FAULT_NONE,
    FAULT_FILL_REFUSED,
    FAULT_ACCEPT_OUTSIDE,
    FAULT_ACCEPT_NDIM,
    FAULT_BOX_START0,
    FAULT_UNSTABLE,
    FAULT_READ_NOTHING,
    FAULT_OVERRUN_READ,
    FAULT_OVERRUN_WRITE,
    FAULT_FLUSH_TO_ZERO
};

struct fb_stream {
    int fd;
    int direct;
    size_t element_size;
    uint64_t count;    /* elements in the file (read) or written so far */
    uint64_t position; /* the next element read() reads */
    uint32_t ndim;
    uint64_t shape[FB_MAX_NDIM];
    enum fault fault;
    uint64_t first_offset; /* of the stream's first read-at, for FAULT_UNSTABLE */
    int read_at_before;
    char path[4096];
};

static fb_status fail(char* err, size_t size, fb_status st, const char* what, const char* path,
                      const char* why) {
    snprintf(err, size, PLUGIN_ID ": %s '%s': %s", what, path, why);
    return st;
}

static enum fault fault_from_environment(void) {
    const char* f = getenv("FB_READ_AT_FAULT");
    if (!f) return FAULT_NONE;
    if (strcmp(f, "fill_refused") == 0) return FAULT_FILL_REFUSED;
    if (strcmp(f, "accept_outside") == 0) return FAULT_ACCEPT_OUTSIDE;
    if (strcmp(f, "accept_ndim") == 0) return FAULT_ACCEPT_NDIM;
    if (strcmp(f, "box_start0") == 0) return FAULT_BOX_START0;
    if (strcmp(f, "unstable") == 0) return FAULT_UNSTABLE;
    if (strcmp(f, "read_nothing") == 0) return FAULT_READ_NOTHING;
    if (strcmp(f, "overrun_read") == 0) return FAULT_OVERRUN_READ;
    if (strcmp(f, "overrun_write") == 0) return FAULT_OVERRUN_WRITE;
    if (strcmp(f, "flush_to_zero") == 0) return FAULT_FLUSH_TO_ZERO;
    return FAULT_NONE;
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
    s->fault = fault_from_environment();
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
    if (s->fault == FAULT_OVERRUN_WRITE) memset((unsigned char*)data + left, 0, 64);
    if (s->fault == FAULT_FLUSH_TO_ZERO) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_setcsr(_mm_getcsr() | 0x8040u);
#else
        fesetround(FE_TOWARDZERO);
#endif
    }
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
    if (count == 0 || s->fault == FAULT_READ_NOTHING) return FB_OK;
    size_t n = (size_t)count * s->element_size;
    uint64_t at = offset * s->element_size;
    fb_status st =
        s->direct ? pread_direct(s, data, n, at, err, err_size) : pread_all(s, data, n, at, err, err_size);
    if (st == FB_OK && s->fault == FAULT_OVERRUN_READ) memset((unsigned char*)data + n, 0, 64);
    return st;
}

/* What read-at and read-box return: read_elements, but in wrong_block with
 * element WRONG_ELEMENT inverted whenever the range covers it. */
static fb_status read_range(fb_stream* s, uint64_t offset, void* data, uint64_t count, char* err,
                            size_t err_size) {
    fb_status st = read_elements(s, offset, data, count, err, err_size);
#ifdef WRONG_ELEMENT
    if (st == FB_OK && offset <= WRONG_ELEMENT && WRONG_ELEMENT - offset < count) {
        unsigned char* e = (unsigned char*)data + (WRONG_ELEMENT - offset) * s->element_size;
        for (size_t i = 0; i < s->element_size; ++i)
            e[i] = (unsigned char)~e[i];
    }
#endif
    return st;
}

static fb_status read_data(fb_stream* s, void* data, uint64_t count, char* err, size_t err_size) {
    if (count > s->count - s->position)
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path,
                    "the file ends before the data asked for");
    fb_status st = read_elements(s, s->position, data, count, err, err_size);
    if (st == FB_OK) s->position += count;
    return st;
}

/* FB_E_TRUNCATED for a range or box outside the data (FAULT_FILL_REFUSED:
 * after writing one element's worth of zeros into the buffer). */
static fb_status refuse(fb_stream* s, void* data, char* err, size_t err_size, const char* why) {
    if (s->fault == FAULT_FILL_REFUSED && data) memset(data, 0, s->element_size);
    return fail(err, err_size, FB_E_TRUNCATED, "cannot read", s->path, why);
}

static fb_status read_at(fb_stream* s, uint64_t offset, void* data, uint64_t count, char* err,
                         size_t err_size) {
    if (offset > s->count || count > s->count - offset) {
        if (s->fault == FAULT_ACCEPT_OUTSIDE && offset < s->count)
            return read_range(s, offset, data, s->count - offset, err, err_size);
        return refuse(s, data, err, err_size, "the range lies outside the elements of the file");
    }
    fb_status st = read_range(s, offset, data, count, err, err_size);
    if (st == FB_OK && count > 0 && s->fault == FAULT_UNSTABLE && s->read_at_before &&
        offset == s->first_offset)
        *(unsigned char*)data ^= 1u;
    if (!s->read_at_before) s->first_offset = offset;
    s->read_at_before = 1;
    return st;
}

/* A box of the shape, row-major: one read of count[ndim - 1] elements for
 * each position on the other axes (the last axis is contiguous in the
 * file). */
static fb_status read_box(fb_stream* s, uint32_t ndim, const uint64_t* start, const uint64_t* count,
                          void* data, char* err, size_t err_size) {
    if (s->ndim == 0 || ndim != s->ndim) {
        if (s->fault == FAULT_ACCEPT_NDIM) return FB_OK;
        return fail(err, err_size, FB_E_TRUNCATED, "cannot read a box of", s->path,
                    "its number of axes is not the data set's");
    }
    uint64_t elements = 1;
    for (uint32_t k = 0; k < ndim; ++k) {
        if (start[k] > s->shape[k] || count[k] > s->shape[k] - start[k])
            return refuse(s, data, err, err_size, "the box lies outside the data set's shape");
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
            if (k == 0 && s->fault == FAULT_BOX_START0) at -= start[0];
            offset = offset * s->shape[k] + at;
        }
        fb_status st = read_range(s, offset, out, row, err, err_size);
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

/* formatbench.check-options/1: there is nothing to refuse (no options), so
 * it accepts every set, unless FB_READ_AT_FAULT=refuse_u8. */
static fb_status check_options(fb_dtype dtype, const fb_option* options, size_t option_count, char* err,
                               size_t err_size) {
    (void)options;
    (void)option_count;
    const char* f = getenv("FB_READ_AT_FAULT");
    if (dtype == FB_DTYPE_U8 && f && strcmp(f, "refuse_u8") == 0) {
        snprintf(err, err_size, PLUGIN_ID ": u8 is refused (FB_READ_AT_FAULT=refuse_u8)");
        return FB_E_UNSUPPORTED;
    }
    return FB_OK;
}

static const fb_ext_check_options_v1 check_options_ext = {sizeof(fb_ext_check_options_v1), check_options};

static const void* get_extension(const char* id) {
    if (strcmp(id, FB_EXT_CHECK_OPTIONS_V1) == 0) return &check_options_ext;
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
