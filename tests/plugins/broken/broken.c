/* One source, compiled once per way a plugin file can be broken (BROKEN_KIND),
 * so the registry tests can check that each is skipped with the right reason
 * and that the good plugins still load beside it. One (null_stream) loads and
 * fails only when a stream is opened. */
#include <formatbench/plugin.h>

#include <stddef.h>

#define KIND_NO_ENTRY 1
#define KIND_BAD_MAGIC 2
#define KIND_ABI2 3
#define KIND_MISSING_CALL 4
#define KIND_DUPLICATE 5
#define KIND_NULL_DESCRIPTOR 6
#define KIND_CRASH_ON_LOAD 7   /* a constructor that segfaults */
#define KIND_HANG_ON_LOAD 8    /* a constructor that never returns */
#define KIND_PRINT_ON_LOAD 9   /* a constructor that prints */
#define KIND_ABORT_IN_ENTRY 10 /* the entry point aborts */
#define KIND_NULL_OPTION_NAME 11
#define KIND_UNKNOWN_OPTION_TYPE 12
#define KIND_UNTERMINATED_CHOICES 13
#define KIND_ABSURD_OPTION_COUNT 14
#define KIND_DUPLICATE_OPTION 15
#define KIND_BAD_DEFAULT 16
#define KIND_NULL_STREAM 17 /* loads; its opens report success without a stream */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#if BROKEN_KIND == KIND_CRASH_ON_LOAD
__attribute__((constructor)) static void crash(void) {
    raise(SIGSEGV);
}
#elif BROKEN_KIND == KIND_HANG_ON_LOAD
__attribute__((constructor)) static void hang(void) {
    for (;;)
        pause();
}
#elif BROKEN_KIND == KIND_PRINT_ON_LOAD
__attribute__((constructor)) static void chatter(void) {
    printf("hello from a plugin constructor\n");
}
#endif

/* Option tables broken in one way each. */
__attribute__((unused)) static const char* const two_choices[] = {"a", "b", NULL};
/* A choice list with no NULL within the registry's limit of 1000 entries. */
__extension__ __attribute__((unused)) static const char* const unterminated[1100] = {[0 ... 1099] = "a"};
__attribute__((unused)) static const fb_option_decl bad_options[] = {
#if BROKEN_KIND == KIND_NULL_OPTION_NAME
    {NULL, FB_OPT_INT, "1", 0, 0, 0, NULL, "no name"},
#elif BROKEN_KIND == KIND_UNKNOWN_OPTION_TYPE
    {"kind", (fb_option_type)42, "1", 0, 0, 0, NULL, "a type of no minor"},
#elif BROKEN_KIND == KIND_UNTERMINATED_CHOICES
    {"mode", FB_OPT_CHOICE, "a", 0, 0, 0, unterminated, "choices without their NULL"},
#elif BROKEN_KIND == KIND_DUPLICATE_OPTION
    {"level", FB_OPT_INT, "1", 0, 9, 1, NULL, "first"},
    {"level", FB_OPT_INT, "1", 0, 9, 1, NULL, "second"},
#elif BROKEN_KIND == KIND_BAD_DEFAULT
    {"mode", FB_OPT_CHOICE, "c", 0, 0, 0, two_choices, "a default that is not a choice"},
#else
    {"level", FB_OPT_INT, "1", 0, 9, 1, NULL, "fine"},
#endif
};

static fb_status open_any(const fb_open_args* a, fb_stream** out, char* err, size_t n) {
    (void)a;
    (void)err;
    (void)n;
    *out = NULL;
#if BROKEN_KIND == KIND_NULL_STREAM
    return FB_OK;
#else
    return FB_E_UNSUPPORTED;
#endif
}
static fb_status write_any(fb_stream* s, const void* d, uint64_t c, char* err, size_t n) {
    (void)s;
    (void)d;
    (void)c;
    (void)err;
    (void)n;
    return FB_E_UNSUPPORTED;
}
__attribute__((unused)) static fb_status read_any(fb_stream* s, void* d, uint64_t c, char* err, size_t n) {
    (void)s;
    (void)d;
    (void)c;
    (void)err;
    (void)n;
    return FB_E_UNSUPPORTED;
}
static fb_status close_any(fb_stream* s, char* err, size_t n) {
    (void)s;
    (void)err;
    (void)n;
    return FB_OK;
}

__attribute__((unused)) static const fb_plugin_descriptor descriptor = {
#if BROKEN_KIND == KIND_BAD_MAGIC
    .magic = 0x12345678u,
#else
    .magic = FB_PLUGIN_MAGIC,
#endif
#if BROKEN_KIND == KIND_ABI2
    .abi_major = 2,
#else
    .abi_major = FB_ABI_MAJOR,
#endif
    .abi_minor = 0,
    .struct_size = sizeof(fb_plugin_descriptor),
    .option_decl_size = sizeof(fb_option_decl),
#if BROKEN_KIND == KIND_DUPLICATE
    .id = "c_plugin", /* the id of tests/plugins/c_plugin.c */
#elif BROKEN_KIND == KIND_NULL_STREAM
    .id = "null_stream", /* loads: the registry cannot see this defect */
#else
    .id = "broken",
#endif
    .version = "0.0.1",
    .description = "a deliberately broken plugin",
    .license = "MIT",
    .extension = "",
    .dtypes = FB_DTYPES_ALL,
    .flags = FB_CAP_LOSSLESS,
#if BROKEN_KIND >= KIND_NULL_OPTION_NAME
    .options = bad_options,
#if BROKEN_KIND == KIND_ABSURD_OPTION_COUNT
    .option_count = 4000000000u,
#else
    .option_count = sizeof bad_options / sizeof bad_options[0],
#endif
#endif
    .open_write = open_any,
    .write = write_any,
    .close_write = close_any,
    .open_read = open_any,
#if BROKEN_KIND == KIND_MISSING_CALL
    .read = NULL,
#else
    .read = read_any,
#endif
    .close_read = close_any,
};

#if BROKEN_KIND == KIND_NO_ENTRY
/* Exports something, but not the entry point. */
FB_PLUGIN_EXPORT const fb_plugin_descriptor* get_plugin(void) {
    return &descriptor;
}
#else
FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(uint16_t major, uint16_t minor) {
    (void)major;
    (void)minor;
#if BROKEN_KIND == KIND_NULL_DESCRIPTOR
    return NULL;
#elif BROKEN_KIND == KIND_ABORT_IN_ENTRY
    abort();
#else
    return &descriptor;
#endif
}
#endif
