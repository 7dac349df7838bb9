/* fb_check_options (plugin.h), the option validator of C plugins, in plain
 * C99: hand-written values for each option type, accepted or refused, and
 * the exact message for one refusal of each kind. The expected results are
 * written out here from the grammar plugin.h documents, not derived from
 * the code under test. */
#include <formatbench/plugin.h>

#include <stdio.h>
#include <string.h>

static const char* const modes[] = {"fast", "small", NULL};

static const fb_option_decl decls[] = {
    {"flag", FB_OPT_BOOL, "false", 0, 0, 0, NULL, "a boolean"},
    {"level", FB_OPT_INT, "6", 0, 9, 1, NULL, "an integer in [0, 9]"},
    {"offset", FB_OPT_INT, "0", 0, 0, 0, NULL, "any 64-bit integer"},
    {"ratio", FB_OPT_FLOAT, "1", 0.5, 2, 1, NULL, "a number in [0.5, 2]"},
    {"scale", FB_OPT_FLOAT, "1", 0, 0, 0, NULL, "any finite number"},
    {"buffer", FB_OPT_SIZE, "64KiB", 4096, 1048576, 1, NULL, "a size in [4096, 1MiB]"},
    {"mode", FB_OPT_CHOICE, "fast", 0, 0, 0, modes, "fast or small"},
    {"label", FB_OPT_STRING, "", 0, 0, 0, NULL, "free text"},
};
#define N_DECLS (sizeof decls / sizeof decls[0])

static int failures = 0;

/* One option name=value: expect FB_OK (ok = 1) or FB_E_INVALID_OPTION. */
static void expect(const char* name, const char* value, int ok) {
    fb_option opt;
    char err[256] = "";
    fb_status st;
    opt.name = name;
    opt.value = value;
    st = fb_check_options(decls, N_DECLS, &opt, 1, err, sizeof err);
    if (ok && st != FB_OK) {
        printf("FAIL: %s='%s' refused (status %d): %s\n", name, value ? value : "(null)", (int)st, err);
        ++failures;
    } else if (!ok && st != FB_E_INVALID_OPTION) {
        printf("FAIL: %s='%s' gave status %d, expected FB_E_INVALID_OPTION\n", name, value ? value : "(null)",
               (int)st);
        ++failures;
    } else if (!ok && strstr(err, "option '") == NULL) {
        printf("FAIL: %s='%s' refused without a message naming the option: '%s'\n", name,
               value ? value : "(null)", err);
        ++failures;
    }
}

/* One refused option and its whole message. */
static void expect_message(const char* name, const char* value, const char* message) {
    fb_option opt;
    char err[256] = "";
    opt.name = name;
    opt.value = value;
    if (fb_check_options(decls, N_DECLS, &opt, 1, err, sizeof err) != FB_E_INVALID_OPTION ||
        strcmp(err, message) != 0) {
        printf("FAIL: %s='%s': message\n  got  '%s'\n  want '%s'\n", name, value, err, message);
        ++failures;
    }
}

int main(void) {
    /* FB_OPT_BOOL: the eight words, exactly (case matters). */
    const char* bools_ok[] = {"true", "false", "yes", "no", "on", "off", "1", "0"};
    const char* bools_bad[] = {"", "maybe", "TRUE", "True", " true", "true ", "2", "yes!", "t"};
    /* FB_OPT_INT in [0, 9]. */
    const char* level_ok[] = {"0", "9", "5", "+5", "-0", "007"};
    const char* level_bad[] = {"",    "10",  "-1", "1.5", "abc", " 5", "5 ",
                               "0x5", "--1", "+",  "-",   "1e1", "５", "9223372036854775808"};
    /* FB_OPT_INT without a range: the whole signed 64-bit range, no more. */
    const char* offset_ok[] = {"9223372036854775807", "-9223372036854775808", "-5", "0"};
    const char* offset_bad[] = {"9223372036854775808", "-9223372036854775809", "18446744073709551616",
                                "99999999999999999999999"};
    /* FB_OPT_FLOAT in [0.5, 2]. */
    const char* ratio_ok[] = {"0.5", "2", "1", "1.", ".75", "1e0", "2.0", "5e-1", "+1.5", "0.20e1"};
    const char* ratio_bad[] = {"0.4999", "2.0000001", "-1",       "0",     "",   "abc", "nan",
                               "inf",    "-inf",      "infinity", "0x1p0", "1e", "e5",  ".",
                               "1,5",    " 1",        "1 ",       "1.5f",  "--1"};
    /* FB_OPT_FLOAT without a range: any finite double. */
    const char* scale_ok[] = {"1e308",    "-1.7976931348623157e308", "5e-324", "0", "-0.0", "0e999",
                              "123456789"};
    const char* scale_bad[] = {"1e309", "-1e400", "1e-400", "NaN", "Infinity"};
    /* FB_OPT_SIZE in [4096, 1MiB]: fb_parse_size's grammar ("4.5KiB" is
     * 4608 bytes; "4KB" is 4000, below the range; "1Ki" lacks its "B"). */
    const char* buffer_ok[] = {"4096", "4KiB", "4kib", "1MiB", "1048576", "4_096", "1MB", "64 KiB", "4.5KiB"};
    const char* buffer_bad[] = {"4095", "2MiB", "1048577", "12X", "-1", "abc", "", "0.5B", "4KB", "1Ki"};
    /* FB_OPT_CHOICE: one of fast | small, exactly. */
    const char* mode_ok[] = {"fast", "small"};
    const char* mode_bad[] = {"", "Fast", "fas", "fast ", "slow", "fast|small"};
    /* FB_OPT_STRING: anything. */
    const char* label_ok[] = {"", "anything at all", "0x10", "nan", "'quoted' \"text\""};
    size_t i;

#define EACH(list, name, ok)                                                                                 \
    for (i = 0; i < sizeof list / sizeof list[0]; ++i)                                                       \
    expect(name, list[i], ok)
    EACH(bools_ok, "flag", 1);
    EACH(bools_bad, "flag", 0);
    EACH(level_ok, "level", 1);
    EACH(level_bad, "level", 0);
    EACH(offset_ok, "offset", 1);
    EACH(offset_bad, "offset", 0);
    EACH(ratio_ok, "ratio", 1);
    EACH(ratio_bad, "ratio", 0);
    EACH(scale_ok, "scale", 1);
    EACH(scale_bad, "scale", 0);
    EACH(buffer_ok, "buffer", 1);
    EACH(buffer_bad, "buffer", 0);
    EACH(mode_ok, "mode", 1);
    EACH(mode_bad, "mode", 0);
    EACH(label_ok, "label", 1);
#undef EACH
    /* A NULL value counts as "": fine for a string, not for an integer. */
    expect("label", NULL, 1);
    expect("level", NULL, 0);

    /* The messages, whole: option, value, and what is allowed. */
    expect_message("flag", "maybe", "option 'flag': 'maybe' is not a boolean (true or false)");
    expect_message("level", "10", "option 'level': '10' is not an integer in [0, 9]");
    expect_message("level", "1.5", "option 'level': '1.5' is not an integer");
    expect_message("ratio", "2.5", "option 'ratio': '2.5' is not a number in [0.5, 2]");
    expect_message("ratio", "nan", "option 'ratio': 'nan' is not a number");
    expect_message("buffer", "4095", "option 'buffer': '4095' is not a byte size in [4096, 1048576]");
    expect_message("buffer", "12X", "option 'buffer': '12X' is not a byte size (e.g. 4096, 64KiB, 1MB)");
    expect_message("mode", "slow", "option 'mode': 'slow' is not one of fast | small");
    expect_message("nope", "1",
                   "unknown option 'nope'; the options are: flag, level, offset, ratio, scale, "
                   "buffer, mode, label");

    {
        /* Several options: all valid is FB_OK; the first bad one is reported. */
        fb_option good[3];
        fb_option mixed[3];
        char err[256] = "";
        good[0].name = "level", good[0].value = "3";
        good[1].name = "mode", good[1].value = "small";
        good[2].name = "buffer", good[2].value = "8KiB";
        mixed[0] = good[0];
        mixed[1].name = "ratio", mixed[1].value = "7";
        mixed[2].name = "nope", mixed[2].value = "1";
        if (fb_check_options(decls, N_DECLS, good, 3, err, sizeof err) != FB_OK) {
            printf("FAIL: three valid options refused: %s\n", err);
            ++failures;
        }
        if (fb_check_options(decls, N_DECLS, mixed, 3, err, sizeof err) != FB_E_INVALID_OPTION ||
            strcmp(err, "option 'ratio': '7' is not a number in [0.5, 2]") != 0) {
            printf("FAIL: the first bad option of three is not the one reported: '%s'\n", err);
            ++failures;
        }
        /* No options given: nothing to refuse. */
        if (fb_check_options(decls, N_DECLS, NULL, 0, err, sizeof err) != FB_OK) {
            printf("FAIL: no options refused\n");
            ++failures;
        }
    }
    {
        /* A plugin without options refuses every name. */
        fb_option opt;
        char err[256] = "";
        opt.name = "x", opt.value = "1";
        if (fb_check_options(NULL, 0, &opt, 1, err, sizeof err) != FB_E_INVALID_OPTION ||
            strcmp(err, "unknown option 'x'; there are no options") != 0) {
            printf("FAIL: option of a plugin without options: '%s'\n", err);
            ++failures;
        }
    }
    {
        /* A short buffer: truncated and NUL-terminated, nothing written past
         * err_size; no buffer at all: only the status. */
        fb_option opt;
        char err[32];
        memset(err, '#', sizeof err);
        opt.name = "level", opt.value = "10";
        if (fb_check_options(decls, N_DECLS, &opt, 1, err, 16) != FB_E_INVALID_OPTION ||
            strcmp(err, "option 'level':") != 0 || err[16] != '#') {
            printf("FAIL: a 16-byte buffer: '%.31s'\n", err);
            ++failures;
        }
        if (fb_check_options(decls, N_DECLS, &opt, 1, NULL, 0) != FB_E_INVALID_OPTION) {
            printf("FAIL: without a buffer the status changes\n");
            ++failures;
        }
    }
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("fb_check_options: ok\n");
    return 0;
}
