/* The registry (formats/registry.h) tells formats apart from their first bytes: what foldsvg
 * reads goes to its reader, what it does not read is one error naming it, and folded text
 * that merely looks odd (a '[', a newline, hostile bytes) stays folded text. */
#include <stdio.h>
#include <string.h>

#include "formats/registry.h"
#include "input/input.h"
#include "testutil.h"

/* The format name HEAD[0..n) is detected as, or the error message into MSG. */
static const char *detect(const void *head, size_t n, char *msg, size_t cap)
{
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_mem(&in, head, n, "t", &err), FOLDSVG_OK);
    const fs_format *f = NULL;
    foldsvg_status st = fs_format_detect(in, &f, &err);
    fs_input_close(in);
    msg[0] = '\0';
    if (st != FOLDSVG_OK) {
        ck_assert_int_eq(st, FOLDSVG_E_PARSE);
        char line[1024];
        foldsvg_error_format(&err, line, sizeof line);
        snprintf(msg, cap, "%s", line);
        return NULL;
    }
    return f->name;
}

#define DETECTS(text, name)                                                                        \
    do {                                                                                           \
        char m[1024];                                                                              \
        const char *got = detect(text, sizeof text - 1, m, sizeof m);                              \
        ck_assert_msg(got &&strcmp(got, name) == 0, "%s: %s (%s)", text, got ? got : "refused",    \
                      m);                                                                          \
    } while (0)

#define REFUSES(text, fragment)                                                                    \
    do {                                                                                           \
        char m[1024];                                                                              \
        const char *got = detect(text, sizeof text - 1, m, sizeof m);                              \
        ck_assert_msg(!got && strstr(m, fragment), "%s: %s, '%s'", #text, got ? got : "refused",   \
                      m);                                                                          \
    } while (0)

START_TEST(read_formats)
{
    DETECTS("a;b 1\n", "folded");
    DETECTS("[unknown];main 1\n", "folded");
    DETECTS("[{\"a\" 1\n", "folded"); /* a '[', a '{' and a quote, but no JSON key */
    DETECTS("\na;b 1\n", "folded");   /* 0x0a starts a protobuf too */
    DETECTS("\n\x08;b 1\n", "folded");
    DETECTS("BZh9;x 1\n", "folded");
    DETECTS("", "folded");
    DETECTS("main;\x01\x02\x03\x04\x05\x06\x07\xff\xfe 3\n", "folded"); /* hostile, valid */
    DETECTS("{\"meta\":{\"version\":24},\"threads\":[]}", "firefox");
    DETECTS("{\"profile\":{\"meta\":{}}}", "firefox");
    DETECTS("{\"counters\":[1,[2,{\"x\":\"}\"}]],\"meta\":{}}", "firefox");
    DETECTS("java 1 [000] 1.0: cycles:\n\t7f a (b)\n\n", "perf");
    DETECTS("{\"traceEvents\":[]}", "chrome");
    DETECTS("{\"displayTimeUnit\":\"ns\",\"metadata\":{\"a\":[1,2]},\"traceEvents\":[", "chrome");
    DETECTS("[{\"name\":\"x\",\"ph\":\"B\",\"ts\":1}", "chrome");
    DETECTS("[ {\"pid\":1, \"ph\":\"X\"} ]", "chrome");
    DETECTS("{\"nodes\":[],\"startTime\":0}", "chrome");
    DETECTS("{\"typeId\":\"CPU\",\"head\":{}}", "chrome");
    DETECTS("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"}", "speedscope");
    DETECTS("{\"exporter\":\"speedscope@1.5\",\"profiles\":[]}", "speedscope");
    /* sample_type {type 1 unit 2}, sample {location_id 1, value 5}, string_table "" */
    DETECTS("\x0a\x04\x08\x01\x10\x02\x12\x04\x08\x01\x10\x05\x32\x00", "pprof");
    /* Go's order: time_nanos, then period_type {type 1 unit 2}, then a sample_type */
    DETECTS(
        "\x48\xd6\xdd\xe5\x92\x85\x8c\xbf\xaa\x15\x5a\x04\x08\x01\x10\x02\x0a\x04\x08\x01\x10\x02",
        "pprof");
}
END_TEST

START_TEST(refused_formats)
{
    REFUSES("[{\"x\":1}]", "a JSON array of objects");
    REFUSES("PERFILE2\x68\0\0\0", "a perf.data recording");
    REFUSES("\xfd"
            "7zXZ\0\0",
            "xz-compressed");
    REFUSES("\x28\xb5\x2f\xfd\0", "zstd-compressed");
    REFUSES("BZh91AY&SY\0", "bzip2-compressed");
    REFUSES("PK\x03\x04\0\0", "a zip archive");
    REFUSES("\x7f"
            "ELF\2\1\1",
            "an ELF file");
    REFUSES("m\0a\0i\0n\0 \0001\0\n\0", "UTF-16 text without a byte-order mark");
    REFUSES("ab\0\1\2\3\0\xff\xfe\n\0\0\0", "t: byte 2: binary data (byte 0x00 here)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("format");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, read_formats);
    tcase_add_test(tc, refused_formats);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
