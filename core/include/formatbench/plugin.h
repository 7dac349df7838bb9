/*
 * formatbench plugin ABI, version 1.2: the one C header a format plugin needs.
 *
 * A plugin is a shared library exporting one function, fb_plugin_entry, that
 * returns a pointer to a static, read-only fb_plugin_descriptor. The
 * descriptor is pure data (identity, capabilities, option declarations) plus
 * a table of streaming calls. The host never calls I/O code to list or
 * describe a plugin.
 *
 * Rules that hold for every call in this header:
 *  - Nothing crosses the boundary but return values and out-parameters: no C++
 *    exception, no longjmp, no exit()/abort() on bad input, no printing to
 *    stdout or stderr.
 *  - Every call returns an fb_status. On anything but FB_OK it writes a
 *    NUL-terminated, human-readable message of at most err_size bytes
 *    (truncated if needed) into err. The message should name the path and
 *    say what to do. err is never NULL and err_size is at least 256.
 *  - Strings passed in by the host are valid only for the duration of the
 *    call; copy what you keep. Strings and arrays in the descriptor are owned
 *    by the plugin and must stay valid until the library is unloaded.
 *  - The plugin creates, writes and removes nothing but the path it is given
 *    (or, with FB_CAP_DIRECTORY_OUTPUT, files inside that directory), and it
 *    removes only what it created itself: a path that is not a regular file
 *    (a device such as /dev/full, a FIFO) is written to or refused, never
 *    unlinked.
 *  - One stream is used by one thread at a time. Different streams may be
 *    used concurrently from different threads.
 *  - Threads: a plugin may run threads of its own, as a worker pool per
 *    stream (started in open) or within one call. Every thread is joined
 *    before the call that started it returns, a pool's before close returns
 *    and before a failing open returns: no thread outlives its stream. The
 *    number of threads follows an option; an automatic number counts the
 *    CPUs the process may run on (sched_getaffinity), never all of the
 *    machine's. A worker's error is reported on the caller's thread, by the
 *    next call, with its status and a message naming the path.
 *
 * Versioning (docs/abi.md): a minor version only appends fields at the end of
 * the structs below and adds enum values and extension ids; a host of the
 * same major accepts any minor, reading only the fields that struct_size says
 * are present. Anything else (removing, reordering or retyping a field,
 * changing a call's meaning) is a new major, and a host refuses plugins of a
 * major it does not speak.
 */
#ifndef FORMATBENCH_PLUGIN_H
#define FORMATBENCH_PLUGIN_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "FBPL" in little-endian byte order: a quick sanity check that the entry
 * symbol really returned one of our descriptors. */
#define FB_PLUGIN_MAGIC 0x4C504246u
#define FB_ABI_MAJOR 1
#define FB_ABI_MINOR 2

/* The one exported symbol. Its name is fixed and formatbench-specific so it
 * cannot collide with another library's symbol. */
#define FB_PLUGIN_ENTRY_NAME "fb_plugin_entry"

/* The ABI is defined for 64-bit platforms (LP64 and LLP64): the frozen
 * struct sizes below assume 8-byte pointers. */
#if UINTPTR_MAX != UINT64_MAX
#error "formatbench's plugin ABI is defined for 64-bit platforms"
#endif

/* Sizes of each ABI struct as a minor version defined it, frozen as
 * literals: a host compares the size a plugin declares with these (never
 * with sizeof of its own, newer struct), so appending a field in a later
 * minor cannot refuse plugins built against an earlier one. A minor that
 * appends a field adds its own constant; tests/sdk/abi_sizes.c fails the
 * build when a struct's size and its constant disagree. */
#define FB_DESCRIPTOR_SIZE_1_0 152u
#define FB_OPTION_DECL_SIZE_1_0 64u
#define FB_OPEN_ARGS_SIZE_1_0 40u
/* 1.1 appended is_lossless_for to the descriptor and the metric sink to the
 * open arguments; fb_option_decl is unchanged. */
#define FB_DESCRIPTOR_SIZE_1_1 160u
#define FB_OPEN_ARGS_SIZE_1_1 56u
/* 1.2 appended the data set's shape and the open flags to the open
 * arguments; the descriptor is unchanged. */
#define FB_OPEN_ARGS_SIZE_1_2 72u
#define FB_EXT_ZERO_COPY_READ_V1_SIZE 16u
#define FB_EXT_PART_V1_SIZE 24u
#define FB_EXT_CHECK_OPTIONS_V1_SIZE 16u
#define FB_EXT_CHECK_CASE_V1_SIZE 16u
#define FB_CASE_INFO_SIZE_1_0 40u
#define FB_EXT_READ_AT_V1_SIZE 16u
#define FB_EXT_READ_BOX_V1_SIZE 16u
#define FB_EXT_MPI_V1_SIZE 32u
#define FB_EXT_PREPARE_V1_SIZE 16u

/* Smallest error buffer the host passes. */
#define FB_ERROR_BUFFER_MIN 256

#if defined(_WIN32)
#define FB_PLUGIN_EXPORT __declspec(dllexport)
#else
#define FB_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Status returned by every call. New values may be added in a minor version;
 * a host treats an unknown non-zero value as FB_E_INTERNAL. */
typedef enum fb_status {
    FB_OK = 0,
    FB_E_INVALID_OPTION = 1, /* an option name, value or combination is wrong */
    FB_E_UNSUPPORTED = 2,    /* dtype or feature not supported by this plugin */
    FB_E_IO = 3,             /* the operating system refused (open, write, ENOSPC, ...) */
    FB_E_CORRUPT = 4,        /* the input is not valid for this format */
    FB_E_TRUNCATED = 5,      /* the input ends before the requested data */
    FB_E_NO_MEMORY = 6,      /* an allocation failed */
    FB_E_STATE = 7,          /* a call made out of order (e.g. read after close) */
    FB_E_INTERNAL = 8        /* anything else; a bug in the plugin */
} fb_status;

/* Element types. Values are stable across minors; the bit (1u << value) is
 * used in fb_plugin_descriptor.dtypes. All data in memory is native-endian. */
typedef enum fb_dtype {
    FB_DTYPE_F64 = 1, /* IEEE 754 binary64 */
    FB_DTYPE_F32 = 2, /* IEEE 754 binary32 */
    FB_DTYPE_I64 = 3,
    FB_DTYPE_I32 = 4,
    FB_DTYPE_U8 = 5
} fb_dtype;

#define FB_DTYPE_BIT(d) (1u << (unsigned)(d))

/* Bytes per element of a dtype; 0 for a value this header does not know. */
static inline size_t fb_dtype_size(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64:
    case FB_DTYPE_I64: return 8;
    case FB_DTYPE_F32:
    case FB_DTYPE_I32: return 4;
    case FB_DTYPE_U8: return 1;
    }
    return 0;
}
/* Byte sizes: the one grammar of a study's sizes (chunk: 1MB) and of
 * FB_OPT_SIZE option values (buffer_size: 1MB), so both mean the same
 * bytes. A decimal number (digits, '_' allowed between digits, an optional
 * fraction), then an optional unit, case-insensitive, spaces allowed
 * around: B = 1; K, KB = 10^3; M, MB = 10^6; G, GB = 10^9; T, TB = 10^12
 * (decimal, as disks and MB/s are counted); KiB = 2^10, MiB = 2^20,
 * GiB = 2^30, TiB = 2^40 (binary). The value must be a whole number of bytes
 * that fits in 64 bits ("1.5KiB" is 1536, "0.5B" is refused). Returns 1 and
 * stores the size in *out, or 0 and leaves *out unchanged. */
static inline int fb_parse_size(const char* text, uint64_t* out) {
    const char* p = text;
    uint64_t digits = 0, pending_zeros = 0, multiplier = 1, fraction_digits = 0, value, divisor = 1;
    int any = 0, in_fraction = 0;
    if (!p) return 0;
    while (*p == ' ' || *p == '\t')
        ++p;
    for (;; ++p) {
        if (*p >= '0' && *p <= '9') {
            unsigned d = (unsigned)(*p - '0');
            any = 1;
            if (in_fraction) ++fraction_digits;
            if (in_fraction && d == 0) { /* trailing fraction zeros change nothing */
                ++pending_zeros;
                continue;
            }
            for (; pending_zeros > 0; --pending_zeros) {
                if (digits > UINT64_MAX / 10) return 0;
                digits *= 10;
            }
            if (digits > (UINT64_MAX - d) / 10) return 0;
            digits = digits * 10 + d;
        } else if (*p == '_' && p != text && p[-1] >= '0' && p[-1] <= '9' && p[1] >= '0' && p[1] <= '9') {
            continue;
        } else if (*p == '.' && !in_fraction) {
            in_fraction = 1;
        } else {
            break;
        }
    }
    if (!any) return 0;
    fraction_digits -= pending_zeros;
    while (*p == ' ' || *p == '\t')
        ++p;
    if (*p) {
        char u = (char)(*p | 0x20); /* ASCII lower case */
        int power = u == 'k' ? 1 : u == 'm' ? 2 : u == 'g' ? 3 : u == 't' ? 4 : 0;
        if (power == 0 && u != 'b') return 0;
        if (power == 0) {
            ++p; /* "B" alone */
        } else {
            int binary = (p[1] | 0x20) == 'i';
            int k;
            p += binary ? 2 : 1;
            if (binary && (*p | 0x20) != 'b') return 0; /* "Ki" without "B" */
            if ((*p | 0x20) == 'b') ++p;
            for (k = 0; k < power; ++k)
                multiplier *= binary ? 1024u : 1000u;
        }
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p) return 0;
    }
    if (fraction_digits > 19) return 0;
    while (fraction_digits-- > 0)
        divisor *= 10;
    if (multiplier != 1 && digits > UINT64_MAX / multiplier) return 0;
    value = digits * multiplier;
    if (value % divisor != 0) return 0;
    *out = value / divisor;
    return 1;
}

#define FB_DTYPES_ALL                                                                                        \
    (FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) | FB_DTYPE_BIT(FB_DTYPE_I64) |                  \
     FB_DTYPE_BIT(FB_DTYPE_I32) | FB_DTYPE_BIT(FB_DTYPE_U8))

/* Capability flags (fb_plugin_descriptor.flags). */
/* Every value read back is bit-identical to the value written, whatever the
 * options (unless is_lossless says otherwise for a given option set). One
 * exception: a NaN may come back as a NaN of another payload or sign (text
 * cannot carry payloads). The conformance checks accept that; the runner's
 * verification reports it as a bitwise mismatch with zero error (generated
 * data sets contain no NaN; a from_file data set may). */
#define FB_CAP_LOSSLESS (1ull << 0)
/* Values may come back changed (rounded text, quantisation, ...). */
#define FB_CAP_LOSSY (1ull << 1)
/* open_write needs the exact total element count in count_hint; the host
 * never passes FB_COUNT_UNKNOWN to such a plugin. */
#define FB_CAP_NEEDS_COUNT (1ull << 2)
/* The output path is a directory the plugin creates and fills. */
#define FB_CAP_DIRECTORY_OUTPUT (1ull << 3)
/* The data does not go to the file system at all (an in-memory baseline);
 * the host does not expect a file at the path. */
#define FB_CAP_NO_FILE (1ull << 4)
/* Reading needs the element count the host asks for only; the file is
 * self-describing (a header with dtype and count). */
#define FB_CAP_SELF_DESCRIBING (1ull << 5)
/* (ABI 1.2) open_read honours FB_OPEN_DIRECT: the stream reads the file
 * with O_DIRECT, past the page cache (docs/abi.md "Direct I/O"). */
#define FB_CAP_DIRECT_IO (1ull << 6)

/* fb_open_args.open_flags (ABI 1.2). */
/* Read with O_DIRECT (only passed to open_read of a plugin with
 * FB_CAP_DIRECT_IO). The host's buffers are then aligned to at least 4096
 * bytes, and every read-at range it asks for starts and ends on a multiple
 * of the file system's logical block size counted in payload bytes (the
 * plan refuses blocks that do not); a plugin whose payload does not start
 * at a block boundary in the file (a header) reads whole blocks into an
 * aligned buffer of its own and copies. A file system that refuses
 * O_DIRECT (tmpfs before Linux 6.6, some FUSE file systems) is FB_E_UNSUPPORTED with a message naming the
 * path. */
#define FB_OPEN_DIRECT (1u << 0)

/* The largest number of axes of a data set's shape (HDF5's limit). */
#define FB_MAX_NDIM 32u

/* Passed as count_hint when the host does not know the total count. */
#define FB_COUNT_UNKNOWN UINT64_MAX

/* Option types. Values travel as strings; the type says how to parse them. */
typedef enum fb_option_type {
    FB_OPT_BOOL = 1,   /* "true" | "false" (host also accepts yes/no/on/off/1/0) */
    FB_OPT_INT = 2,    /* decimal signed 64-bit integer, range [min, max] */
    FB_OPT_FLOAT = 3,  /* decimal floating point, range [min, max] */
    FB_OPT_STRING = 4, /* free text */
    FB_OPT_CHOICE = 5, /* one of choices[] */
    FB_OPT_SIZE = 6    /* byte count: fb_parse_size's grammar (4096, 64KiB, 1MB) */
} fb_option_type;

/* Declaration of one option. The host validates every option a study gives
 * against these declarations before any case runs. Arrays of this struct are
 * walked with stride fb_plugin_descriptor.option_decl_size, so a later minor
 * can append fields. */
typedef struct fb_option_decl {
    const char* name; /* [a-z0-9_]+, unique within the plugin */
    fb_option_type type;
    const char* default_value; /* as text, never NULL; "" for an empty string */
    double min;                /* inclusive bounds for INT, FLOAT and SIZE; */
    double max;                /* ignored when has_range is 0 */
    int has_range;
    const char* const* choices; /* NULL-terminated list for FB_OPT_CHOICE, else NULL */
    const char* help;           /* one line, never NULL */
} fb_option_decl;

/* One option as given by the study: both strings are owned by the host. */
typedef struct fb_option {
    const char* name;
    const char* value;
} fb_option;

/* ---- Checking options in a C plugin ----------------------------------------
 * fb_check_options checks the options of an open call (args->options,
 * args->option_count) against the plugin's own declarations, as the host
 * does before a study runs and plugin.hpp does in every C++ open call, so a
 * C plugin need not write this by hand. Call it first in open_write and
 * open_read, before the path is touched: a bad option is
 * FB_E_INVALID_OPTION and leaves nothing behind.
 *
 * Every name must be declared, and every value must be of its type:
 *   FB_OPT_BOOL    true false yes no on off 1 0
 *   FB_OPT_INT     an optional sign and decimal digits, a signed 64-bit integer
 *   FB_OPT_FLOAT   decimal: an optional sign, digits with an optional fraction,
 *                  an optional exponent (1e-3); finite (no nan, inf or hex)
 *   FB_OPT_SIZE    fb_parse_size's grammar (4096, 64KiB, 1MB)
 *   FB_OPT_CHOICE  one of choices[], exactly
 *   FB_OPT_STRING  any text
 * INT, FLOAT and SIZE values must also lie in [min, max] when has_range is
 * set. A NULL value counts as "". Returns FB_OK, or FB_E_INVALID_OPTION with
 * a message in err (at most err_size bytes, NUL-terminated; err may be NULL
 * when err_size is 0) that names the option, the value and what is allowed:
 * "option 'level': '12' is not an integer in [0, 9]". Options not given take
 * their defaults, which are not checked here (check-plugin checks them).
 * decls is the plugin's own array, walked with stride sizeof(fb_option_decl).
 * FLOAT values are converted with strtod, which follows LC_NUMERIC: the host
 * never changes the locale; a plugin must not either. */

/* Appends text to err at *used, truncating; err stays NUL-terminated. */
static inline void fb_internal_append(char* err, size_t err_size, size_t* used, const char* text) {
    if (!err || err_size == 0) return;
    while (*text && *used + 1 < err_size)
        err[(*used)++] = *text++;
    err[*used] = '\0';
}

/* The shortest decimal text that reads back as x ("0.1", "1048576"). */
static inline void fb_internal_number(double x, char* buf, size_t size) {
    int precision;
    for (precision = 1; precision < 17; ++precision) {
        snprintf(buf, size, "%.*g", precision, x);
        if (strtod(buf, NULL) == x) return;
    }
    snprintf(buf, size, "%.17g", x);
}

/* Whether text is a whole decimal number of the FB_OPT_FLOAT grammar
 * (integer_only: an optional sign and digits only). */
static inline int fb_internal_is_decimal(const char* p, int integer_only) {
    int digits = 0;
    if (*p == '+' || *p == '-') ++p;
    for (; *p >= '0' && *p <= '9'; ++p)
        ++digits;
    if (integer_only) return digits > 0 && *p == '\0';
    if (*p == '.')
        for (++p; *p >= '0' && *p <= '9'; ++p)
            ++digits;
    if (digits == 0) return 0;
    if (*p == 'e' || *p == 'E') {
        int exponent_digits = 0;
        ++p;
        if (*p == '+' || *p == '-') ++p;
        for (; *p >= '0' && *p <= '9'; ++p)
            ++exponent_digits;
        if (exponent_digits == 0) return 0;
    }
    return *p == '\0';
}

/* Whether a decimal number's digits before its exponent are not all 0. */
static inline int fb_internal_nonzero_digits(const char* p) {
    for (; *p && *p != 'e' && *p != 'E'; ++p)
        if (*p >= '1' && *p <= '9') return 1;
    return 0;
}

/* A signed 64-bit integer in decimal; 0 when malformed or out of range. */
static inline int fb_internal_parse_int(const char* p, int64_t* out) {
    uint64_t magnitude = 0, limit = (uint64_t)INT64_MAX;
    int negative = *p == '-';
    if (!fb_internal_is_decimal(p, 1)) return 0;
    if (*p == '+' || *p == '-') ++p;
    if (negative) limit += 1; /* |INT64_MIN| */
    for (; *p; ++p) {
        unsigned d = (unsigned)(*p - '0');
        if (magnitude > (limit - d) / 10) return 0;
        magnitude = magnitude * 10 + d;
    }
    if (!negative)
        *out = (int64_t)magnitude;
    else if (magnitude == (uint64_t)INT64_MAX + 1)
        *out = INT64_MIN;
    else
        *out = -(int64_t)magnitude;
    return 1;
}

static inline fb_status fb_check_options(const fb_option_decl* decls, size_t n_decls, const fb_option* opts,
                                         size_t n, char* err, size_t err_size) {
    size_t i, j, used = 0;
    char low[32], high[32];
    for (j = 0; j < n; ++j) {
        const char* name = opts[j].name ? opts[j].name : "";
        const char* value = opts[j].value ? opts[j].value : "";
        const fb_option_decl* d = NULL;
        const char* expected = NULL; /* what the value is not, when it is wrong */
        int in_range = 1;
        double x = 0;
        for (i = 0; i < n_decls && !d; ++i)
            if (decls[i].name && strcmp(decls[i].name, name) == 0) d = &decls[i];
        if (!d) {
            fb_internal_append(err, err_size, &used, "unknown option '");
            fb_internal_append(err, err_size, &used, name);
            fb_internal_append(err, err_size, &used,
                               n_decls ? "'; the options are: " : "'; there are no options");
            for (i = 0; i < n_decls; ++i) {
                if (i) fb_internal_append(err, err_size, &used, ", ");
                fb_internal_append(err, err_size, &used, decls[i].name ? decls[i].name : "?");
            }
            return FB_E_INVALID_OPTION;
        }
        switch (d->type) {
        case FB_OPT_BOOL: {
            static const char* const words[] = {"true", "false", "yes", "no", "on", "off", "1", "0"};
            expected = "a boolean (true or false)";
            for (i = 0; i < sizeof words / sizeof words[0]; ++i)
                if (strcmp(value, words[i]) == 0) expected = NULL;
            break;
        }
        case FB_OPT_INT: {
            int64_t v;
            if (!fb_internal_parse_int(value, &v)) {
                expected = "an integer";
            } else {
                x = (double)v;
                in_range = !d->has_range || (x >= d->min && x <= d->max);
                if (!in_range) expected = "an integer";
            }
            break;
        }
        case FB_OPT_FLOAT: {
            char* end = NULL;
            if (fb_internal_is_decimal(value, 0)) x = strtod(value, &end);
            /* Not finite, or so small it became zero ("1e-400"): refused. */
            if (!end || *end || !(x >= -DBL_MAX && x <= DBL_MAX) ||
                (x == 0 && fb_internal_nonzero_digits(value))) {
                expected = "a number";
            } else {
                in_range = !d->has_range || (x >= d->min && x <= d->max);
                if (!in_range) expected = "a number";
            }
            break;
        }
        case FB_OPT_SIZE: {
            uint64_t v;
            if (!fb_parse_size(value, &v)) {
                expected = "a byte size (e.g. 4096, 64KiB, 1MB)";
            } else {
                x = (double)v;
                in_range = !d->has_range || (x >= d->min && x <= d->max);
                if (!in_range) expected = "a byte size";
            }
            break;
        }
        case FB_OPT_CHOICE: {
            const char* const* c;
            expected = "one of ";
            for (c = d->choices; c && *c; ++c)
                if (strcmp(value, *c) == 0) expected = NULL;
            break;
        }
        case FB_OPT_STRING: break;
        default: expected = "of a type this header does not know"; break;
        }
        if (!expected) continue;
        fb_internal_append(err, err_size, &used, "option '");
        fb_internal_append(err, err_size, &used, name);
        fb_internal_append(err, err_size, &used, "': '");
        fb_internal_append(err, err_size, &used, value);
        fb_internal_append(err, err_size, &used, "' is not ");
        fb_internal_append(err, err_size, &used, expected);
        if (!in_range) {
            fb_internal_number(d->min, low, sizeof low);
            fb_internal_number(d->max, high, sizeof high);
            fb_internal_append(err, err_size, &used, " in [");
            fb_internal_append(err, err_size, &used, low);
            fb_internal_append(err, err_size, &used, ", ");
            fb_internal_append(err, err_size, &used, high);
            fb_internal_append(err, err_size, &used, "]");
        }
        if (d->type == FB_OPT_CHOICE) {
            const char* const* c;
            for (c = d->choices; c && *c; ++c) {
                if (c != d->choices) fb_internal_append(err, err_size, &used, " | ");
                fb_internal_append(err, err_size, &used, *c);
            }
        }
        return FB_E_INVALID_OPTION;
    }
    return FB_OK;
}

/* A plugin's per-stream figure, reported to the host (ABI 1.1): `name` is
 * [a-z0-9_]+ with its unit as a suffix, as in the results record
 * (compressed_bytes, codec_s, threads, chunks), `value` a finite number. The
 * host copies both during the call. */
typedef void (*fb_metric_fn)(void* sink, const char* name, double value);

/* Arguments to open_write and open_read. struct_size lets the host append
 * fields in later minors; a plugin reads only fields below struct_size. */
typedef struct fb_open_args {
    uint32_t struct_size;     /* sizeof(fb_open_args) as the host compiled it: at least
                                 FB_OPEN_ARGS_SIZE_1_0 */
    fb_dtype dtype;           /* one of the plugin's declared dtypes */
    const char* path;         /* file (or directory) to create or read */
    uint64_t count;           /* write: total count or FB_COUNT_UNKNOWN;
                                 read: the count the host will read in total */
    const fb_option* options; /* every declared option the study set; */
    size_t option_count;      /* options not given take their default */

    /* 1.1 (present when struct_size >= FB_OPEN_ARGS_SIZE_1_1): where the
     * stream may report named figures of its own, from open until its close
     * returns, as often as it likes (a later value of a name replaces the
     * earlier one). metric is NULL when the host does not collect them. The
     * host records them with the repetition ("metrics" in the record:
     * bytes after compression, time inside the codec, worker threads...). */
    fb_metric_fn metric;
    void* metric_sink; /* passed back to metric, opaque to the plugin */

    /* 1.2 (present when struct_size >= FB_OPEN_ARGS_SIZE_1_2): the data
     * set's shape, row-major (the last axis varies fastest). ndim 0 means a
     * flat array of `count` elements (shape NULL); otherwise shape holds
     * ndim extents (1 <= ndim <= FB_MAX_NDIM) whose product is the count
     * of the whole file (args->count, or the total of a part). A format that
     * can store a shape (npy's header, an HDF5 dataspace, netCDF dimensions)
     * writes it; one that cannot writes the flat array. */
    uint32_t ndim;
    uint32_t open_flags; /* FB_OPEN_* bits; 0 before 1.2 */
    const uint64_t* shape;
} fb_open_args;

/* An open stream. Opaque to the host; each plugin defines it. */
typedef struct fb_stream fb_stream;

typedef struct fb_plugin_descriptor {
    /* Header: present in every major. Read these first. */
    uint32_t magic;            /* FB_PLUGIN_MAGIC */
    uint16_t abi_major;        /* FB_ABI_MAJOR the plugin was built against */
    uint16_t abi_minor;        /* FB_ABI_MINOR the plugin was built against */
    uint32_t struct_size;      /* sizeof(fb_plugin_descriptor) as the plugin compiled it */
    uint32_t option_decl_size; /* sizeof(fb_option_decl) as the plugin compiled it */

    /* Identity: NUL-terminated UTF-8, never NULL. */
    const char* id;          /* [a-z0-9_-]+, unique among loaded plugins */
    const char* version;     /* the plugin's own version, e.g. "1.2.0" */
    const char* description; /* one line */
    const char* license;     /* SPDX expression, e.g. "MIT" */
    const char* extension;   /* file name suffix without dot, "" if none */

    uint32_t dtypes; /* bit set of FB_DTYPE_BIT(...) */
    uint32_t reserved0;
    uint64_t flags; /* FB_CAP_* */

    const fb_option_decl* options; /* option_count declarations, may be NULL if 0 */
    uint32_t option_count;
    uint32_t reserved1;

    /* Optional (may be NULL): whether the given option set reads back
     * bit-exact. NULL means FB_CAP_LOSSLESS decides. Must not do I/O. */
    int (*is_lossless)(const fb_option* options, size_t option_count);

    /* Writing. open_write creates the file at args->path (the host has
     * removed any old one) and on FB_OK stores a new stream in *out. On
     * failure *out is left NULL and nothing is left at the path.
     * write appends count elements of args->dtype from data (count may be 0;
     * data is valid for the call only). close_write flushes and finishes the
     * file; it is called exactly once for every stream open_write returned,
     * also after an error, and frees the stream whatever it returns. */
    fb_status (*open_write)(const fb_open_args* args, fb_stream** out, char* err, size_t err_size);
    fb_status (*write)(fb_stream* stream, const void* data, uint64_t count, char* err, size_t err_size);
    fb_status (*close_write)(fb_stream* stream, char* err, size_t err_size);

    /* Reading. open_read opens an existing file written by this plugin (or
     * by another tool in the same format). read fills data with exactly
     * count elements, or fails with FB_E_TRUNCATED when the file holds fewer,
     * or FB_E_CORRUPT when it is not valid; it never returns partial success.
     * close_read frees the stream; called once per stream, also after errors.
     * A reader must never crash, hang or allocate without bound on corrupt
     * input. */
    fb_status (*open_read)(const fb_open_args* args, fb_stream** out, char* err, size_t err_size);
    fb_status (*read)(fb_stream* stream, void* data, uint64_t count, char* err, size_t err_size);
    fb_status (*close_read)(fb_stream* stream, char* err, size_t err_size);

    /* Optional features by versioned id, e.g. "formatbench.zero-copy-read/1".
     * Returns a pointer to a static struct whose layout the id defines, or
     * NULL when the feature is absent. May itself be NULL (no extensions). */
    const void* (*get_extension)(const char* id);

    /* ---- 1.1 (present when struct_size >= FB_DESCRIPTOR_SIZE_1_1) ---- */

    /* Optional (may be NULL): whether this option set reads back bit-exact
     * for this dtype (text with 6 fixed decimals is lossy for f64, exact for
     * integers). When present, the host uses it instead of is_lossless.
     * Must not do I/O. */
    int (*is_lossless_for)(fb_dtype dtype, const fb_option* options, size_t option_count);
} fb_plugin_descriptor;

/* The entry point every plugin exports (see FB_PLUGIN_ENTRY_NAME). The host
 * passes its own ABI version; the plugin returns its static descriptor (never
 * NULL), whatever the host speaks: the host decides compatibility. */
typedef const fb_plugin_descriptor* (*fb_plugin_entry_fn)(uint16_t host_abi_major, uint16_t host_abi_minor);

/* ---- Extensions ------------------------------------------------------------
 * Each extension is a struct returned by get_extension for its id. The
 * struct's first field is its size, so it too can grow. */

/* "formatbench.zero-copy-read/1": after open_read, expose the whole payload
 * in place (for example a memory mapping) so the host can verify without a
 * copy. *data stays valid until close_read. count is the number of elements
 * the host will read. On FB_OK *data is never NULL, also for count 0. A
 * plugin may still fail (e.g. byte order differs). */
#define FB_EXT_ZERO_COPY_READ_V1 "formatbench.zero-copy-read/1"
typedef struct fb_ext_zero_copy_read_v1 {
    uint32_t struct_size;
    fb_status (*view)(fb_stream* stream, uint64_t count, const void** data, char* err, size_t err_size);
} fb_ext_zero_copy_read_v1;

/* "formatbench.part/1": one part of a file that several processes write or
 * read at the same time, as MPI ranks do with `layout: shared_file`: the
 * elements [offset, offset + args->count) of a file that holds `total`
 * elements. open_write_part may be called for every part at once, in
 * different processes, on the same path; the host has removed any old file
 * before the first part opens. Each part opens the file without truncating
 * it and writes only its own bytes (a header that every part writes must be
 * the same bytes), and when every part is closed the file is byte-identical
 * to the one open_write would write for the `total` elements in one stream.
 * open_read_part reads its part back. The streams use the descriptor's
 * write, read and close calls. */
#define FB_EXT_PART_V1 "formatbench.part/1"
typedef struct fb_ext_part_v1 {
    uint32_t struct_size;
    fb_status (*open_write_part)(const fb_open_args* args, uint64_t offset, uint64_t total, fb_stream** out,
                                 char* err, size_t err_size);
    fb_status (*open_read_part)(const fb_open_args* args, uint64_t offset, uint64_t total, fb_stream** out,
                                char* err, size_t err_size);
} fb_ext_part_v1;

/* "formatbench.check-options/1": whether an option set can work here, asked
 * before anything runs. The host has already checked each option against
 * its declaration (names, types, ranges, choices); check_options says what
 * the declarations cannot: a combination that cannot be written (a filter
 * with a contiguous layout), a dtype an option cannot take, or a library or
 * codec that is missing on this machine. `formatbench plan` and `run` call
 * it in the host process once per format entry of the study and dtype, and
 * a failure stops the study before any case runs, with the study file's
 * position, the format's label, the plugin's id and err.
 *
 * options/option_count are the options the study set (as in fb_open_args:
 * the rest take their defaults). Returns FB_OK, or FB_E_INVALID_OPTION (the
 * options contradict each other or the dtype) or FB_E_UNSUPPORTED (this
 * machine lacks what they need) with a message in err that names the
 * option and what to change or install, e.g. "filter 'zfp' (32013) is not
 * available: apt-get install hdf5-filter-plugin-zfp-serial". It must not
 * touch the study's files or create any file; it may ask the plugin's
 * libraries what they offer (which may load a codec's shared library). It
 * needs no stream, may be called any number of times from any thread, and
 * must be quick: a plan calls it for every format entry. A stream's open
 * still checks everything on its own: check_options is advice given early,
 * not a promise that open succeeds. */
#define FB_EXT_CHECK_OPTIONS_V1 "formatbench.check-options/1"
typedef struct fb_ext_check_options_v1 {
    uint32_t struct_size;
    fb_status (*check_options)(fb_dtype dtype, const fb_option* options, size_t option_count, char* err,
                               size_t err_size);
} fb_ext_check_options_v1;

/* "formatbench.check-case/1" (ABI 1.2): what check_options cannot know,
 * because it depends on the case a format entry meets: the data set's shape
 * (chunk extents of another rank) or how the read phase reads (an option
 * set that cannot read at offsets, such as zstd with one frame). `formatbench
 * plan` and `run` call it once per distinct format entry, dtype, shape and
 * read access of the study, after check_options, and a failure stops the
 * study before any case runs, naming the case. The same contract as
 * check_options: no stream, no file, any thread, quick; open still checks
 * on its own. info is valid during the call only; a plugin reads only the
 * fields below info->struct_size. Returns FB_OK, FB_E_INVALID_OPTION (the
 * options do not fit this case: say which option and what to give) or
 * FB_E_UNSUPPORTED. */
#define FB_EXT_CHECK_CASE_V1 "formatbench.check-case/1"
typedef enum fb_read_access {
    FB_READ_WHOLE = 0, /* the read phase reads the file from start to end (read, or a view) */
    FB_READ_AT = 1,    /* it reads ranges at offsets (formatbench.read-at/1) */
    FB_READ_BOX = 2    /* it reads boxes of the shape (formatbench.read-box/1) */
} fb_read_access;
typedef struct fb_case_info {
    uint32_t struct_size; /* sizeof(fb_case_info) as the host compiled it: at least FB_CASE_INFO_SIZE_1_0 */
    fb_dtype dtype;
    uint64_t count;        /* elements of the whole file */
    const uint64_t* shape; /* ndim extents, row-major; NULL for a flat array */
    uint32_t ndim;         /* 0: a flat array of count elements */
    uint32_t read_access;  /* an fb_read_access */
    uint64_t reserved;     /* 0 */
} fb_case_info;
typedef struct fb_ext_check_case_v1 {
    uint32_t struct_size;
    fb_status (*check_case)(const fb_case_info* info, const fb_option* options, size_t option_count,
                            char* err, size_t err_size);
} fb_ext_check_case_v1;

/* "formatbench.read-at/1" (ABI 1.2): random access on a stream from
 * open_read (args->count is then the number of elements the file holds).
 * read_at fills data with the `count` elements starting at element
 * `offset`; it may be called any number of times, at any offsets, in any
 * order, repeatedly for one offset, and must read what it returns from the
 * file (or the plugin's own cache of it), never from a copy of the whole
 * payload made at open. A range that does not lie inside [0, args->count)
 * is FB_E_TRUNCATED and reads nothing. A stream that read_at is called on
 * sees no call of read (the host uses one or the other). An option set
 * that cannot read at offsets (zstd with one frame) is FB_E_UNSUPPORTED at
 * the first call, with a message naming the option to change. Index structures
 * a format needs to find an offset (a frame table) are built in open_read
 * or read from the file; either way that time is the READ phase's. */
#define FB_EXT_READ_AT_V1 "formatbench.read-at/1"
typedef struct fb_ext_read_at_v1 {
    uint32_t struct_size;
    fb_status (*read_at)(fb_stream* stream, uint64_t offset, void* data, uint64_t count, char* err,
                         size_t err_size);
} fb_ext_read_at_v1;

/* "formatbench.read-box/1" (ABI 1.2): one box of an N-D data set, on a
 * stream from open_read that was given a shape (args->ndim >= 1): ndim
 * equals args->ndim, and the box is [start[k], start[k] + count[k]) on
 * every axis k. data receives the box's elements row-major (the last
 * axis fastest), prod(count) of them. A box that does not lie inside the
 * shape, or an ndim other than the stream's, is FB_E_TRUNCATED and reads
 * nothing. Called as often as read_at may be, and never mixed with read. */
#define FB_EXT_READ_BOX_V1 "formatbench.read-box/1"
typedef struct fb_ext_read_box_v1 {
    uint32_t struct_size;
    fb_status (*read_box)(fb_stream* stream, uint32_t ndim, const uint64_t* start, const uint64_t* count,
                          void* data, char* err, size_t err_size);
} fb_ext_read_box_v1;

/* "formatbench.prepare/1" (ABI 1.2; an extension, no struct grew): work a plugin does once per process
 * before its first stream, kept out of every timed phase: starting an
 * embedded interpreter and importing its library (the python bridge),
 * loading a codec, building a table. The host calls prepare in the process
 * that runs a case (the forked worker, an MPI rank, or the host itself
 * without isolation), once per case, after the case's buffers are set up
 * and before its first open, with no clock running; it measures the call
 * and records it with the case (results: `plugin.prepare_s`). A process may
 * run several cases, so a call after the work is done must return at once.
 * dtype and options/option_count are the case's (as in fb_open_args: the
 * options the study set). Returns FB_OK, or a status with a message in err:
 * the case fails with it and no stream is opened. Without this extension,
 * or under a host that does not know it, a plugin does such work in its first open,
 * inside the first timed phase (the default warm-up repetition keeps it out
 * of the recorded samples). */
#define FB_EXT_PREPARE_V1 "formatbench.prepare/1"
typedef struct fb_ext_prepare_v1 {
    uint32_t struct_size;
    fb_status (*prepare)(fb_dtype dtype, const fb_option* options, size_t option_count, char* err,
                         size_t err_size);
} fb_ext_prepare_v1;

/* "formatbench.mpi/1": a plugin that calls MPI itself (MPI-IO) and opens
 * its streams on a communicator the host hands it. Only a host running
 * under an MPI launcher uses it; such a host calls this extension's opens,
 * never the descriptor's open_write/open_read, which may then refuse with
 * FB_E_UNSUPPORTED when MPI is not initialised (say: run under mpirun).
 *
 * implementation: the MPI the plugin was compiled against, as
 * FB_MPI_IMPLEMENTATION of <formatbench/plugin_mpi.h> spells it ("Open MPI
 * 4.1.4", "MPICH 4.0.2"): the family, a space, the version. MPI's handles
 * are not portable between implementations (an MPI_Comm is a pointer in
 * Open MPI and an int in MPICH), so the host refuses at load a plugin whose
 * family or major version differs from its own.
 *
 * open_write/open_read are formatbench.part/1's opens with one argument
 * more: comm points at an MPI_Comm of the host (the plugin reads it as
 * `*(const MPI_Comm*)comm`), valid until the stream's close returns. Every
 * rank of that communicator opens the same path at the same time, each for
 * its own elements [offset, offset + args->count) of a file of `total`
 * (file_per_rank: MPI_COMM_SELF, offset 0, total args->count, a path of
 * its own). The opens and closes are collective over comm; the number of
 * write or read calls between them may differ between the ranks (a slice
 * one element longer, the host's chunking), so a plugin that makes
 * collective calls per write or read must still match them across the
 * ranks (for example by cutting each rank's part into pieces of a fixed
 * size and making up the missing calls with count 0 at close). A failed
 * call still leaves the stream able to close collectively: close is called
 * once per stream on every rank, also after an error. The host calls these
 * in the rank's own process (an MPI process; a forked worker is not one),
 * between MPI_Init and MPI_Finalize, one stream at a time. The streams use
 * the descriptor's write, read and close calls. */
#define FB_EXT_MPI_V1 "formatbench.mpi/1"
typedef struct fb_ext_mpi_v1 {
    uint32_t struct_size;
    const char* implementation;
    fb_status (*open_write)(const fb_open_args* args, const void* comm, uint64_t offset, uint64_t total,
                            fb_stream** out, char* err, size_t err_size);
    fb_status (*open_read)(const fb_open_args* args, const void* comm, uint64_t offset, uint64_t total,
                           fb_stream** out, char* err, size_t err_size);
} fb_ext_mpi_v1;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FORMATBENCH_PLUGIN_H */
