/* The public API as a C program uses it (include/foldsvg.h only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "foldsvg.h"
#include "api/cli.h"
#include "testutil.h"

START_TEST(record_sanitize_drop_sum)
{
    foldsvg_profile *p = foldsvg_profile_new();
    const char *stack[] = {"root;proc", "child\nproc"};
    const char *ignored[] = {"ignored"};
    ck_assert_int_eq(foldsvg_profile_record_stack(p, stack, 2, 3), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_stack(p, stack, 2, 2), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_stack(p, ignored, 1, 0), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_profile_total(p), 5);
    ck_assert_uint_eq(foldsvg_profile_unique_stacks(p), 1);
    ck_assert_uint_eq(foldsvg_profile_count(p, "root:proc;child proc"), 5);
    ck_assert_uint_eq(foldsvg_profile_count(p, "ignored"), 0);
    ck_assert_uint_eq(foldsvg_profile_count(p, "root:proc"), 0);
    /* no frames: [unknown]; \r too */
    ck_assert_int_eq(foldsvg_profile_record_stack(p, NULL, 0, 4), FOLDSVG_OK);
    const char *cr[] = {"a\rb"};
    ck_assert_int_eq(foldsvg_profile_record_stack(p, cr, 1, 1), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_profile_count(p, "[unknown]"), 4);
    ck_assert_uint_eq(foldsvg_profile_count(p, "a b"), 1);
    ck_assert_int_eq(foldsvg_profile_record_stack(NULL, stack, 2, 1), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_profile_record_stack(p, NULL, 2, 1), FOLDSVG_E_ARG);
    foldsvg_profile_free(p);
    foldsvg_profile_free(NULL);
}
END_TEST

START_TEST(record_path_as_is)
{
    foldsvg_profile *p = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_record_path(p, "a;b;c", 7), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(p, "a;b;c", 1), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(p, "", 2), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_profile_count(p, "a;b;c"), 8);
    ck_assert_uint_eq(foldsvg_profile_count(p, "[unknown]"), 2);
    ck_assert_uint_eq(foldsvg_profile_unique_stacks(p), 2);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(overflow_is_an_error_not_a_wrap)
{
    foldsvg_profile *p = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_record_path(p, "a", UINT64_MAX - 1), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(p, "a", 1), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(p, "b", 1), FOLDSVG_E_OVERFLOW);
    ck_assert_uint_eq(foldsvg_profile_total(p), UINT64_MAX);
    ck_assert_uint_eq(foldsvg_profile_count(p, "b"), 0);
    foldsvg_profile_free(p);
}
END_TEST

typedef struct walk {
    char text[256];
} walk;

static int collect(void *user, const char *path, size_t len, uint64_t count, uint64_t before,
                   int has_before)
{
    walk *w = user;
    size_t n = strlen(w->text);
    snprintf(w->text + n, sizeof w->text - n, "%.*s=%llu%s|", (int)len, path,
             (unsigned long long)count, has_before ? "*" : "");
    (void)before;
    return 0;
}

START_TEST(foreach_in_byte_order)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "b", 1);
    foldsvg_profile_record_path(p, "a;b;c", 2);
    foldsvg_profile_record_path(p, "a;b::x", 3);
    foldsvg_profile_record_path(p, "a;b", 4);
    foldsvg_profile_record_diff(p, "a;a", 9, 5);
    walk w = {""};
    ck_assert_int_eq(foldsvg_profile_foreach(p, collect, &w), FOLDSVG_OK);
    ck_assert_str_eq(w.text, "a;a=5*|a;b=4|a;b::x=3|a;b;c=2|b=1|");
    foldsvg_profile_free(p);
}
END_TEST

static char *tmpdir_path(char *buf, size_t n, const char *name)
{
    static char dir[64];
    if (!dir[0]) {
        strcpy(dir, "/tmp/foldsvg-api-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
    }
    snprintf(buf, n, "%s/%s", dir, name);
    return buf;
}

START_TEST(write_by_extension)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "main;work", 3);
    foldsvg_profile_record_path(p, "main", 1);
    char svg[128], folded[128];
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_profile_write(p, tmpdir_path(svg, sizeof svg, "out.SVG"), NULL, &err),
                     FOLDSVG_OK);
    ck_assert_int_eq(
        foldsvg_profile_write(p, tmpdir_path(folded, sizeof folded, "out.folded"), NULL, &err),
        FOLDSVG_OK);
    char *s = fs_test_slurp(svg, NULL);
    ck_assert_ptr_nonnull(strstr(s, "<svg"));
    ck_assert_ptr_nonnull(strstr(s, "work (3 cycles, 75.00%)"));
    free(s);
    s = fs_test_slurp(folded, NULL);
    ck_assert_str_eq(s, "main 1\nmain;work 3\n");
    free(s);
    ck_assert_int_eq(foldsvg_format_for_path("x.Svg"), FOLDSVG_FORMAT_SVG);
    ck_assert_int_eq(foldsvg_format_for_path("x.HTM"), FOLDSVG_FORMAT_HTML);
    ck_assert_int_eq(foldsvg_format_for_path("dir.svg/x"), FOLDSVG_FORMAT_FOLDED);
    ck_assert_int_eq(foldsvg_format_for_path("-"), FOLDSVG_FORMAT_SVG);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(empty_profile_writes_nothing)
{
    foldsvg_profile *p = foldsvg_profile_new();
    char path[128];
    foldsvg_error err;
    ck_assert_int_eq(
        foldsvg_profile_write(p, tmpdir_path(path, sizeof path, "none.svg"), NULL, &err),
        FOLDSVG_E_NO_DATA);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "nothing to draw"));
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(render_to_memory_and_options)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a;b", 1000000);
    foldsvg_options *o = foldsvg_options_new();
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_options_set(o, "countname", "instructions", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "id-prefix", "mine", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "colors", "nope", &err), FOLDSVG_E_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "--colors"));
    ck_assert_int_eq(foldsvg_options_set(o, "width", "x", &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set(o, "bogus", NULL, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set(o, "hash", "1", &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_option_takes_value("title"), 1);
    ck_assert_int_eq(foldsvg_option_takes_value("hash"), 0);
    ck_assert_int_eq(foldsvg_option_takes_value("bogus"), -1);
    char *out;
    size_t len;
    ck_assert_int_eq(foldsvg_profile_render_mem(p, FOLDSVG_FORMAT_SVG, o, &out, &len, &err),
                     FOLDSVG_OK);
    ck_assert_uint_eq(strlen(out), len);
    ck_assert_ptr_nonnull(strstr(out, "b (1,000,000 instructions, 100.00%)"));
    ck_assert_ptr_nonnull(strstr(out, "id=\"mine-frames\""));
    foldsvg_free(out);
    foldsvg_options *copy = foldsvg_options_clone(o);
    foldsvg_options_free(o);
    ck_assert_int_eq(foldsvg_profile_render_mem(p, FOLDSVG_FORMAT_FOLDED, copy, &out, &len, &err),
                     FOLDSVG_OK);
    ck_assert_str_eq(out, "a;b 1000000\n");
    foldsvg_free(out);
    foldsvg_options_free(copy);
    foldsvg_profile_free(p);
}
END_TEST

/* A format that is none of foldsvg_format's is a caller's error, on every route (an SVG was
 * drawn for 99), and so is a frame count no array could hold (it was multiplied unchecked). */
START_TEST(unknown_format_and_frame_count)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a;b", 3);
    foldsvg_error err;
    char path[128];
    const foldsvg_format bad = (foldsvg_format)99;
    FILE *out = tmpfile();
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(foldsvg_profile_render(p, bad, NULL, out, &err), FOLDSVG_E_ARG);
    ck_assert_ptr_nonnull(strstr(err.message, "format 99"));
    ck_assert_int_eq(ftell(out), 0);
    char *mem = NULL;
    size_t len;
    ck_assert_int_eq(foldsvg_profile_render_mem(p, bad, NULL, &mem, &len, &err), FOLDSVG_E_ARG);
    ck_assert_ptr_null(mem);
    ck_assert_int_eq(
        foldsvg_profile_write_as(p, tmpdir_path(path, sizeof path, "bad.svg"), bad, NULL, &err),
        FOLDSVG_E_ARG);
    ck_assert_int_eq(access(path, F_OK), -1);
    foldsvg_diff *d = foldsvg_diff_new();
    ck_assert_int_eq(foldsvg_diff_compare(d, p, p, NULL, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_diff_render(d, bad, NULL, out, &err), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_diff_write(d, path, bad, NULL, &err), FOLDSVG_E_ARG);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(ftell(out), 0);
    foldsvg_diff_free(d);
    ck_assert_int_eq(foldsvg_profile_write_as(p, path, FOLDSVG_FORMAT_FOLDED, NULL, &err),
                     FOLDSVG_OK);
    const char *in[] = {path};
    char out_path[128];
    tmpdir_path(out_path, sizeof out_path, "bad.out");
    ck_assert_int_eq(foldsvg_convert(in, 1, out_path, bad, NULL, NULL, &err), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_diff_convert(path, path, out_path, bad, NULL, NULL, &err),
                     FOLDSVG_E_ARG);
    ck_assert_int_eq(access(out_path, F_OK), -1);
    fclose(out);
    const char *one[] = {"a"};
    ck_assert_int_eq(foldsvg_profile_record_stack(p, one, SIZE_MAX, 1), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_profile_record_stack(p, one, SIZE_MAX / 2 + 1, 1), FOLDSVG_E_ARG);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(read_gzip_buffer_equals_plain)
{
    const char *text = "x;y 5\nx 2\n";
    unsigned char gz[256];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    ck_assert_int_eq(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (unsigned char *)(uintptr_t)text;
    zs.avail_in = (uInt)strlen(text);
    zs.next_out = gz;
    zs.avail_out = sizeof gz;
    ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t gzlen = sizeof gz - zs.avail_out;
    deflateEnd(&zs);

    foldsvg_profile *a = foldsvg_profile_new(), *b = foldsvg_profile_new();
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_profile_read_buffer(a, text, strlen(text), "plain", NULL, &err),
                     FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_read_buffer(b, gz, gzlen, "gz", NULL, &err), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_profile_count(b, "x;y"), 5);
    ck_assert_uint_eq(foldsvg_profile_total(a), foldsvg_profile_total(b));
    /* a truncated gzip stream is an error naming the input */
    foldsvg_profile *c = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_read_buffer(c, gz, gzlen - 12, "cut.gz", NULL, &err),
                     FOLDSVG_E_PARSE);
    ck_assert_str_eq(err.file, "cut.gz");
    ck_assert_ptr_nonnull(strstr(err.message, "truncated gzip"));
    foldsvg_profile_free(a);
    foldsvg_profile_free(b);
    foldsvg_profile_free(c);
}
END_TEST

/* New outputs get 0666 less the umask, as a plain open gives; an existing one keeps its
 * bits. The library never calls umask() (process-wide state, racy from threads): a umask set
 * here must be what the kernel applies. */
START_TEST(write_modes_follow_umask_and_existing_file)
{
    char dir[] = "/tmp/fs_apimode.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.folded", dir);
    foldsvg_profile *p = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_record_path(p, "a;b", 1), FOLDSVG_OK);
    mode_t old = umask(027);
    ck_assert_int_eq(foldsvg_profile_write(p, path, NULL, NULL), FOLDSVG_OK);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0640);
    ck_assert_int_eq(umask(027), 027); /* unchanged by the write */
    ck_assert_int_eq(chmod(path, 0604), 0);
    ck_assert_int_eq(foldsvg_profile_write(p, path, NULL, NULL), FOLDSVG_OK);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0604);
    umask(old);
    foldsvg_profile_free(p);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0); /* no temporary file left beside it */
}
END_TEST

START_TEST(error_format_one_line)
{
    foldsvg_error e;
    memset(&e, 0, sizeof e);
    strcpy(e.file, "in.folded");
    e.line = 12;
    strcpy(e.message, "bad");
    char buf[128];
    foldsvg_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "in.folded:12: bad");
    e.line = 0;
    e.has_offset = 1;
    e.offset = 4096;
    foldsvg_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "in.folded: byte 4096: bad");
    ck_assert_str_eq(foldsvg_status_name(FOLDSVG_E_USAGE), "usage error");
    ck_assert_str_eq(foldsvg_version(), FOLDSVG_VERSION_STRING);
}
END_TEST

/* The summary line: singular after 1 for known plural units only, thousands separators. */
START_TEST(summary_line)
{
    char b[128];
    foldsvg_summary(b, sizeof b, 1, "cycles", 1);
    ck_assert_str_eq(b, "1 cycle across 1 unique stack");
    foldsvg_summary(b, sizeof b, 47, "samples", 3);
    ck_assert_str_eq(b, "47 samples across 3 unique stacks");
    foldsvg_summary(b, sizeof b, 1037807, NULL, 1234);
    ck_assert_str_eq(b, "1,037,807 cycles across 1,234 unique stacks");
    foldsvg_summary(b, sizeof b, 1, "page-faults", 2);
    ck_assert_str_eq(b, "1 page-fault across 2 unique stacks");
    foldsvg_summary(b, sizeof b, 1, "cycles:u", 1);
    ck_assert_str_eq(b, "1 cycles:u across 1 unique stack");
    foldsvg_summary(b, sizeof b, 0, "bytes", 0);
    ck_assert_str_eq(b, "0 bytes across 0 unique stacks");
    ck_assert_uint_eq(foldsvg_summary(b, 4, 1, "ms", 1), strlen("1 ms across 1 unique stack"));
    ck_assert_str_eq(b, "1 m");
    foldsvg_diff_summary(b, sizeof b, 72980237, 1000, NULL, 13);
    ck_assert_str_eq(b, "72,980,237 cycles before, 1,000 after, across 13 unique stacks");
    foldsvg_diff_summary(b, sizeof b, 1, 2, "samples", 1);
    ck_assert_str_eq(b, "1 sample before, 2 after, across 1 unique stack");
    /* a unit from an input (a perf event's name) reaches no terminal raw (issue 47) */
    foldsvg_summary(b, sizeof b, 7, "ev\x1b]0;t\x07\xc2\x9b\xff\xc3\xa9", 1);
    ck_assert_str_eq(b, "7 ev\\x1b]0;t\\x07\\xc2\\x9b\\xff\xc3\xa9 across 1 unique stack");
}
END_TEST

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Two outputs in one file (issue 47): -o and the palette map that --cp rewrites, or -o and
 * --facts-out, are a usage error whatever the route, and the file is left as it was: the
 * report saves its palette map with the page, not as each section is drawn. */
START_TEST(outputs_in_one_file)
{
    char dir[] = "/tmp/foldsvg-one-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char in[64], out[64], facts[64];
    snprintf(in, sizeof in, "%s/in.folded", dir);
    snprintf(out, sizeof out, "%s/out.svg", dir);
    snprintf(facts, sizeof facts, "%s/./out.svg", dir);
    put_file(in, "main;a 2\nmain;b 1\n");
    put_file(out, "precious\n");
    foldsvg_error err;
    foldsvg_options *o = foldsvg_options_new();
    ck_assert_int_eq(foldsvg_options_set(o, "cp", NULL, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "palette-map", facts, &err), FOLDSVG_OK);
    foldsvg_profile *p = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_read_file(p, in, o, &err), FOLDSVG_OK);
    foldsvg_report *r = foldsvg_report_new(o);
    ck_assert_int_eq(foldsvg_report_add(r, p, NULL, NULL, 0, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_report_write(r, out, &err), FOLDSVG_E_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "name one file"));
    ck_assert_int_eq(foldsvg_profile_write(p, out, o, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_profile_write_as(p, out, FOLDSVG_FORMAT_HTML, o, &err),
                     FOLDSVG_E_USAGE);
    const char *const inputs[] = {in};
    ck_assert_int_eq(foldsvg_convert(inputs, 1, out, FOLDSVG_FORMAT_SVG, o, NULL, &err),
                     FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_diff_convert(in, in, out, FOLDSVG_FORMAT_HTML, o, NULL, &err),
                     FOLDSVG_E_USAGE);
    char *kept = fs_test_slurp(out, NULL);
    ck_assert_str_eq(kept, "precious\n");
    free(kept);
    /* the folded output and its facts file */
    foldsvg_options *f = foldsvg_options_new();
    ck_assert_int_eq(foldsvg_options_set(f, "facts-out", facts, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_convert(inputs, 1, out, FOLDSVG_FORMAT_FOLDED, f, NULL, &err),
                     FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_profile_write_as(p, out, FOLDSVG_FORMAT_FOLDED, f, &err),
                     FOLDSVG_E_USAGE);
    kept = fs_test_slurp(out, NULL);
    ck_assert_str_eq(kept, "precious\n");
    free(kept);
    /* a report whose map has a file of its own saves it with the page */
    char map[64];
    snprintf(map, sizeof map, "%s/p.map", dir);
    ck_assert_int_eq(foldsvg_options_set(o, "palette-map", map, &err), FOLDSVG_OK);
    foldsvg_report_free(r);
    r = foldsvg_report_new(o);
    ck_assert_int_eq(foldsvg_report_add(r, p, NULL, NULL, 0, &err), FOLDSVG_OK);
    ck_assert_int_eq(access(map, F_OK), -1);
    ck_assert_int_eq(foldsvg_report_write(r, out, &err), FOLDSVG_OK);
    kept = fs_test_slurp(map, NULL);
    ck_assert_ptr_nonnull(strstr(kept, "main->rgb("));
    free(kept);
    remove(map);
    remove(out);
    foldsvg_report_free(r);
    foldsvg_options_free(f);
    foldsvg_options_free(o);
    foldsvg_profile_free(p);
    remove(in);
    rmdir(dir);
}
END_TEST

/* Names for a terminal (issue 47): control characters (C0, DEL, C1) and bytes that are not
 * UTF-8 as \xNN, the rest whole; snprintf's contract. */
START_TEST(terminal_text)
{
    char b[64];
    ck_assert_uint_eq(foldsvg_terminal_text(b, sizeof b, "a\tb\nc\x7f\xc2\x85\xe2\x82"),
                      strlen("a\\x09b\\x0ac\\x7f\\xc2\\x85\\xe2\\x82"));
    ck_assert_str_eq(b, "a\\x09b\\x0ac\\x7f\\xc2\\x85\\xe2\\x82");
    foldsvg_terminal_text(b, sizeof b, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
    ck_assert_str_eq(b, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
    ck_assert_uint_eq(foldsvg_terminal_text(b, 3, "\x1b[2J"), 7);
    ck_assert_str_eq(b, "\\x");
    ck_assert_uint_eq(foldsvg_terminal_text(b, sizeof b, NULL), 0);
    ck_assert_str_eq(b, "");
}
END_TEST

typedef struct warnings {
    char text[2048];
    int n;
} warnings;

static void collect_warning(void *user, const foldsvg_error *w)
{
    warnings *c = user;
    c->n++;
    strncat(c->text, w->message, sizeof c->text - strlen(c->text) - 2);
    strcat(c->text, "|");
}

/* Options about outputs a run does not write are warned about, those it writes are not. */
START_TEST(warn_unused_options)
{
    foldsvg_options *o = foldsvg_options_new();
    warnings w = {"", 0};
    foldsvg_options_set_warning_handler(o, collect_warning, &w);
    ck_assert_int_eq(foldsvg_options_set(o, "title", "T", NULL), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "per", "10", NULL), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "countname", "ms", NULL), FOLDSVG_OK);
    fs_cli_warn_unused(o, FS_WRITES_GRAPH | FS_WRITES_TABLES);
    ck_assert_int_eq(w.n, 0);
    fs_cli_warn_unused(o, FS_WRITES_GRAPH);
    ck_assert_int_eq(w.n, 1);
    ck_assert_ptr_nonnull(strstr(w.text, "--per does nothing here"));
    w.n = 0;
    w.text[0] = '\0';
    fs_cli_warn_unused(o, 0);
    ck_assert_int_eq(w.n, 2);
    ck_assert_ptr_nonnull(strstr(w.text, "--title does nothing here: it is about the flamegraph, "
                                         "and only folded text is written|"));
    foldsvg_options_free(o);
}
END_TEST

/* The typed setters by key, with the table's bounds: what the string setter would set, a
 * flag cleared again, values out of bounds and keys of another type refused; every key one
 * row; the command line's own options not in the library's table; the defaults the
 * table's, as a new option set has them. */
START_TEST(typed_setters_and_the_table)
{
    size_t n = foldsvg_option_count();
    int seen[FOLDSVG_OPT_PER_AFTER + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        foldsvg_option_desc d;
        ck_assert_int_eq(foldsvg_option_info(i, &d), FOLDSVG_OK);
        ck_assert_str_ne(d.stage_name, "cli");
        ck_assert_int_ge(d.key, 0);
        if ((int)d.key <= FOLDSVG_OPT_PER_AFTER)
            seen[d.key]++;
        /* a default is a value the option takes */
        if (d.default_value) {
            foldsvg_options *o = foldsvg_options_new();
            foldsvg_error err;
            ck_assert_msg(foldsvg_options_set(o, d.name, d.default_value, &err) == FOLDSVG_OK,
                          "--%s's default: %s", d.name, err.message);
            foldsvg_options_free(o);
        }
    }
    for (int k = 0; k <= FOLDSVG_OPT_PER_AFTER; k++)
        ck_assert_msg(seen[k] == 1, "key %d: %d rows", k, seen[k]);
    ck_assert_int_eq(foldsvg_option_info(n, &(foldsvg_option_desc){0}), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_option_takes_value("output"), -1); /* the command line's */

    foldsvg_options *a = foldsvg_options_new(), *b = foldsvg_options_new();
    foldsvg_error err;
    double lo, hi;
    ck_assert_int_eq(foldsvg_option_bounds(FOLDSVG_OPT_MINWIDTH, &lo, &hi), FOLDSVG_OK);
    ck_assert(lo == 0 && hi == 100);
    ck_assert_int_eq(foldsvg_option_bounds(FOLDSVG_OPT_FONTSIZE, &lo, &hi), FOLDSVG_OK);
    ck_assert(lo == 1 && hi == 1000000);
    ck_assert_int_eq(foldsvg_option_bounds(FOLDSVG_OPT_TITLE, &lo, &hi), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_options_set_real(a, FOLDSVG_OPT_MINWIDTH, 0.5, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(b, "minwidth", "0.5", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_real(a, FOLDSVG_OPT_MINWIDTH, 100.5, &err),
                     FOLDSVG_E_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "--minwidth"));
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_FONTSIZE, 15, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(b, "fontsize", "15", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_FONTSIZE, 0, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_TOP_FORMAT, 2, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(b, "top-format", "json", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_TOP_FORMAT, 3, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_HASH, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_INVERTED, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_INVERTED, 0, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(b, "hash", NULL, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_HASH, 2, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set_int(a, FOLDSVG_OPT_TITLE, 1, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set_real(a, FOLDSVG_OPT_FONTSIZE, 1.5, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_options_set_text(a, FOLDSVG_OPT_TITLE, "T", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(b, "title", "T", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set_int(a, (foldsvg_option)9999, 1, &err), FOLDSVG_E_ARG);
    /* the same option sets draw the same picture */
    foldsvg_profile *p = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_record_path(p, "main;a;b", 7), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(p, "main;c", 1000), FOLDSVG_OK);
    char *x, *y;
    size_t nx, ny;
    ck_assert_int_eq(foldsvg_profile_render_mem(p, FOLDSVG_FORMAT_SVG, a, &x, &nx, &err),
                     FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_render_mem(p, FOLDSVG_FORMAT_SVG, b, &y, &ny, &err),
                     FOLDSVG_OK);
    ck_assert_uint_eq(nx, ny);
    ck_assert(memcmp(x, y, nx) == 0);
    foldsvg_free(x);
    foldsvg_free(y);
    foldsvg_profile_free(p);
    foldsvg_options_free(a);
    foldsvg_options_free(b);
    foldsvg_format f;
    ck_assert_int_eq(foldsvg_format_from_name("html", &f), FOLDSVG_OK);
    ck_assert_int_eq(f, FOLDSVG_FORMAT_HTML);
    ck_assert_int_eq(foldsvg_format_from_name("png", &f), FOLDSVG_E_USAGE);
}
END_TEST

/* What a run said of its plan (the log handler: --verbose), and how often it read its
 * inputs (a reading starts at 0 bytes). */
typedef struct plan_seen {
    char lines[8192];
    int readings;
} plan_seen;

static void on_plan_line(void *user, const char *line)
{
    plan_seen *p = user;
    size_t at = strlen(p->lines);
    snprintf(p->lines + at, sizeof p->lines - at, "%s\n", line);
}

static void on_reading(void *user, const char *input, uint64_t done, uint64_t total, uint64_t lines)
{
    (void)input;
    (void)total;
    (void)lines;
    plan_seen *p = user;
    p->readings += done == 0;
}

/* O's runs say their plan into P (emptied). */
static void watch_plan(foldsvg_options *o, plan_seen *p)
{
    memset(p, 0, sizeof *p);
    foldsvg_options_set_log_handler(o, on_plan_line, p);
    foldsvg_options_set_progress_handler(o, on_reading, p);
}

/* A graph of many frames: the streamed route writes them on two threads (in chunks, the
 * random colors carried across), the profile's tree walk on one; the bytes are the same.
 * Sized so that the input is read ahead too (more than one read block). */
START_TEST(many_frames_same_bytes_both_routes)
{
    char in[128], a[128], b[128];
    FILE *f = fopen(tmpdir_path(in, sizeof in, "many.folded"), "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 30000; i++)
        fprintf(f, "main;work_%05d;leaf_%d_of_a_long_enough_name_to_pass_one_read_block %d\n", i,
                i % 7, 1 + i % 5);
    fclose(f);
    static const char *const colors[] = {NULL, "hash"};
    for (int k = 0; k < 2; k++) {
        foldsvg_options *o = foldsvg_options_new();
        foldsvg_error err;
        ck_assert_int_eq(foldsvg_options_set(o, "minwidth", "0", &err), FOLDSVG_OK);
        if (colors[k])
            ck_assert_int_eq(foldsvg_options_set(o, colors[k], NULL, &err), FOLDSVG_OK);
        const char *inputs[] = {in};
        foldsvg_convert_stats stats;
        plan_seen plan;
        watch_plan(o, &plan);
        ck_assert_int_eq(foldsvg_convert(inputs, 1, tmpdir_path(a, sizeof a, "many-a.svg"),
                                         FOLDSVG_FORMAT_AUTO, o, &stats, &err),
                         FOLDSVG_OK);
        ck_assert_ptr_nonnull(strstr(plan.lines, "plan: engine stream:"));
        ck_assert_int_eq(plan.readings, 1);
        foldsvg_options_set_log_handler(o, NULL, NULL);
        foldsvg_options_set_progress_handler(o, NULL, NULL);
        foldsvg_profile *p = foldsvg_profile_new();
        ck_assert_int_eq(foldsvg_profile_read_file(p, in, o, &err), FOLDSVG_OK);
        ck_assert_int_eq(foldsvg_profile_write(p, tmpdir_path(b, sizeof b, "many-b.svg"), o, &err),
                         FOLDSVG_OK);
        size_t na, nb;
        char *sa = fs_test_slurp(a, &na), *sb = fs_test_slurp(b, &nb);
        ck_assert_uint_gt(na, 30000 * 100);
        ck_assert_uint_eq(na, nb);
        ck_assert(memcmp(sa, sb, na) == 0);
        free(sa);
        free(sb);
        foldsvg_profile_free(p);
        foldsvg_options_free(o);
    }
}
END_TEST

/* GZ (of size N) names a gzip copy of IN, made beside it. */
static void gzip_copy(const char *in, char *gz, size_t n)
{
    char cmd[512];
    snprintf(gz, n, "%s.gz", in);
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s'", in, gz);
    ck_assert_int_eq(system(cmd), 0);
}

/* Files A and B hold the same bytes. */
static void assert_same_files(const char *a, const char *b)
{
    size_t na, nb;
    char *sa = fs_test_slurp(a, &na), *sb = fs_test_slurp(b, &nb);
    ck_assert_ptr_nonnull(sa);
    ck_assert_ptr_nonnull(sb);
    ck_assert_uint_eq(na, nb);
    ck_assert_msg(memcmp(sa, sb, na) == 0, "%s and %s differ", a, b);
    free(sa);
    free(sb);
}

/* Unsorted stacks whose distinct ones outgrow the sort buffer, to SVG: the inputs are read
 * to bound every frame's width, then sorted without the frames too narrow to draw; the
 * picture is the profile's, byte for byte, at every --minwidth (and the same as the
 * sorter's runs of whole stacks give, which a gzip input takes), and the summary counts the
 * whole stacks. */
START_TEST(unsorted_stacks_cut_same_bytes)
{
    char in[128], gz[160], a[128], b[128];
    FILE *f = fopen(tmpdir_path(in, sizeof in, "cut.folded"), "w");
    ck_assert_ptr_nonnull(f);
    unsigned long long r = 42;
    for (int i = 0; i < 6000; i++) {
        /* deep stacks over few names, in no order; every tenth line repeats an earlier one's
         * path */
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned long long x = (r >> 20) % (i % 10 == 9 ? (unsigned)i / 2 + 1 : 1000000007ULL);
        fprintf(f, "main;run");
        /* names that are prefixes of one another, a sibling sorting between them: a stack
         * cut through "g1" must sort as "g1;..." does, after "g1!x" and "g1+" */
        static const char *const tails[] = {"", "!x", "+"};
        for (int d = 0; d < 12; d++, x /= 3)
            fprintf(f, ";g%d_a_name_long_enough_to_cut%s", d, tails[x % 3]);
        fprintf(f, ";leaf%llu %llu\n", x % 5000, 1 + (r >> 40) % 9);
    }
    fclose(f);
    gzip_copy(in, gz, sizeof gz);
    static const char *const minwidths[] = {"0.01", "0.001", "0.5", "2"};
    for (size_t k = 0; k < sizeof minwidths / sizeof *minwidths; k++) {
        foldsvg_options *o = foldsvg_options_new();
        foldsvg_error err;
        ck_assert_int_eq(foldsvg_options_set(o, "minwidth", minwidths[k], &err), FOLDSVG_OK);
        ck_assert_int_eq(foldsvg_options_set(o, "sort-buffer", "64K", &err), FOLDSVG_OK);
        foldsvg_profile *p = foldsvg_profile_new();
        ck_assert_int_eq(foldsvg_profile_read_file(p, in, o, &err), FOLDSVG_OK);
        ck_assert_int_eq(foldsvg_profile_write(p, tmpdir_path(b, sizeof b, "cut-b.svg"), o, &err),
                         FOLDSVG_OK);
        const char *inputs[][1] = {{in}, {gz}};
        for (int g = 0; g < 2; g++) {
            foldsvg_convert_stats stats;
            plan_seen plan;
            watch_plan(o, &plan);
            ck_assert_int_eq(foldsvg_convert(inputs[g], 1, tmpdir_path(a, sizeof a, "cut-a.svg"),
                                             FOLDSVG_FORMAT_AUTO, o, &stats, &err),
                             FOLDSVG_OK);
            /* a first reading finds it unsorted, a second fills the sorter; the gzip input
             * spills its whole stacks, the plain one is read twice more */
            ck_assert_int_eq(plan.readings, g ? 2 : 4);
            ck_assert_ptr_nonnull(strstr(plan.lines, g ? "sorted runs spill" : "a sketch bounds"));
            ck_assert_uint_eq(stats.unique_stacks, foldsvg_profile_unique_stacks(p));
            assert_same_files(a, b);
        }
        foldsvg_profile_free(p);
        foldsvg_options_free(o);
    }
}
END_TEST

/* 20,000 distinct deep stacks (12 MB, three times the sort buffer) in no order: the sketch
 * bounds them well enough that the cut stacks fit in memory and nothing is spilled; the same
 * lines gzipped spill whole stacks. The same picture. */
START_TEST(cut_stacks_fit_where_whole_ones_spill)
{
    char in[128], gz[160], a[128], b[128];
    FILE *f = fopen(tmpdir_path(in, sizeof in, "deep.folded"), "w");
    ck_assert_ptr_nonnull(f);
    unsigned long long r = 3;
    for (int i = 0; i < 20000; i++) {
        fprintf(f, "main");
        unsigned long long path = 0;
        for (int d = 0; d < 20; d++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            path = path * 3 + (r >> 61) % 3;
            fprintf(f, ";module_%d::function_number_%llu", d, path % 97);
        }
        fprintf(f, " %llu\n", 1 + (r >> 20) % 9);
    }
    fclose(f);
    gzip_copy(in, gz, sizeof gz);
    foldsvg_options *o = foldsvg_options_new();
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_options_set(o, "minwidth", "0.1", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "sort-buffer", "4M", &err), FOLDSVG_OK);
    const char *plain[] = {in}, *zipped[] = {gz};
    foldsvg_convert_stats stats;
    plan_seen plan;
    watch_plan(o, &plan);
    ck_assert_int_eq(foldsvg_convert(plain, 1, tmpdir_path(a, sizeof a, "deep-a.svg"),
                                     FOLDSVG_FORMAT_AUTO, o, &stats, &err),
                     FOLDSVG_OK);
    ck_assert_int_eq(plan.readings, 4);
    ck_assert_ptr_nonnull(strstr(plan.lines, "a sketch bounds"));
    ck_assert_ptr_null(strstr(plan.lines, "spill to"));
    watch_plan(o, &plan);
    ck_assert_uint_eq(foldsvg_convert(zipped, 1, tmpdir_path(b, sizeof b, "deep-b.svg"),
                                      FOLDSVG_FORMAT_AUTO, o, &stats, &err),
                      FOLDSVG_OK);
    ck_assert_int_eq(plan.readings, 2);
    ck_assert_ptr_nonnull(strstr(plan.lines, "sorted runs spill to"));
    assert_same_files(a, b);
    foldsvg_options_free(o);
}
END_TEST

/* A long frame name, to make stacks worth cutting */
#define PAD                                                                                        \
    "runtime::scheduler::worker::Worker::run_task::{{closure}}::poll_future::"                     \
    "with_budget::coop::budget::LocalKey::with::try_with::Context::run::"                          \
    "core::future::from_generator::GenFuture::poll::a_long_generated_name_for_padding"

/* Unsorted stacks that outgrow the sort buffer but differ from one another only in their
 * last frame, short or long: cutting them would save nothing (the cut keeps the first frame
 * too narrow to draw), so they are spilled whole without the two readings of a sketch. The
 * same picture as the profile's. */
START_TEST(short_stacks_spill_without_a_sketch)
{
    for (int pad = 0; pad < 2; pad++) {
        char in[128], a[128], b[128];
        FILE *f = fopen(tmpdir_path(in, sizeof in, "leafy.folded"), "w");
        ck_assert_ptr_nonnull(f);
        unsigned long long r = 11;
        for (int i = 0; i < 20000; i++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            fprintf(f, "main;%sm%llu;f%d %llu\n", pad ? PAD ";" : "", (r >> 50) % 40, i,
                    1 + (r >> 20) % 9);
        }
        fclose(f);
        foldsvg_options *o = foldsvg_options_new();
        foldsvg_error err;
        ck_assert_int_eq(foldsvg_options_set(o, "sort-buffer", "64K", &err), FOLDSVG_OK);
        const char *inputs[] = {in};
        foldsvg_convert_stats stats;
        plan_seen plan;
        watch_plan(o, &plan);
        ck_assert_int_eq(foldsvg_convert(inputs, 1, tmpdir_path(a, sizeof a, "leafy-a.svg"),
                                         FOLDSVG_FORMAT_AUTO, o, &stats, &err),
                         FOLDSVG_OK);
        ck_assert_int_eq(plan.readings, 2);
        ck_assert_ptr_nonnull(strstr(plan.lines, "sorted runs spill to"));
        ck_assert_ptr_null(strstr(plan.lines, "a sketch bounds"));
        foldsvg_options_set_log_handler(o, NULL, NULL);
        foldsvg_options_set_progress_handler(o, NULL, NULL);
        foldsvg_profile *p = foldsvg_profile_new();
        ck_assert_int_eq(foldsvg_profile_read_file(p, in, o, &err), FOLDSVG_OK);
        ck_assert_int_eq(foldsvg_profile_write(p, tmpdir_path(b, sizeof b, "leafy-b.svg"), o, &err),
                         FOLDSVG_OK);
        assert_same_files(a, b);
        foldsvg_profile_free(p);
        foldsvg_options_free(o);
    }
}
END_TEST

/* An input changed between the reading that bounds the frames and the one that cuts the
 * stacks: the totals differ, so the cut is not trusted and the stacks are sorted again
 * whole; the picture is the changed file's. */
typedef struct changer {
    const char *path;
    long at; /* the first line's count digit */
    int readings, changed;
} changer;

static void change_on_third_reading(void *user, const char *input, uint64_t done, uint64_t total,
                                    uint64_t lines)
{
    (void)input;
    (void)total;
    (void)lines;
    changer *ch = user;
    if (done == 0)
        ch->readings++;
    if (ch->readings == 3 && done > 0 && !ch->changed) {
        FILE *f = fopen(ch->path, "r+");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fseek(f, ch->at, SEEK_SET), 0);
        ck_assert_int_eq(fputc('9', f), '9');
        ck_assert_int_eq(fclose(f), 0);
        ch->changed = 1;
    }
}

START_TEST(input_changed_between_readings)
{
    char in[128], a[128], b[128];
    FILE *f = fopen(tmpdir_path(in, sizeof in, "changing.folded"), "w");
    ck_assert_ptr_nonnull(f);
    unsigned long long r = 7;
    long at = 0;
    for (int i = 0; i < 20000; i++) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        /* frames past the one that differs: what the cut saves (fs_sorter_savable) */
        fprintf(f, "main;%s;a%llu;b%llu;c%llu;d%llu;e_a_longer_name_%llu;%s ", PAD, (r >> 60) % 3,
                (r >> 50) % 5, (r >> 40) % 7, (r >> 30) % 11, (r >> 10) % 100000, PAD);
        if (i == 0)
            at = ftell(f);
        fprintf(f, "1\n");
    }
    fclose(f);
    foldsvg_options *o = foldsvg_options_new();
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_options_set(o, "sort-buffer", "256K", &err), FOLDSVG_OK);
    changer ch = {in, at, 0, 0};
    foldsvg_options_set_progress_handler(o, change_on_third_reading, &ch);
    const char *inputs[] = {in};
    foldsvg_convert_stats stats;
    ck_assert_int_eq(foldsvg_convert(inputs, 1, tmpdir_path(a, sizeof a, "changing-a.svg"),
                                     FOLDSVG_FORMAT_AUTO, o, &stats, &err),
                     FOLDSVG_OK);
    ck_assert_int_eq(ch.changed, 1);
    /* found unsorted, the sorter filled, bounded, cut (totals differ), sorted whole */
    ck_assert_int_eq(ch.readings, 5);
    ck_assert_uint_eq(stats.total, 20000 + 8);
    foldsvg_options_set_progress_handler(o, NULL, NULL);
    foldsvg_profile *p = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_read_file(p, in, o, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_write(p, tmpdir_path(b, sizeof b, "changing-b.svg"), o, &err),
                     FOLDSVG_OK);
    assert_same_files(a, b);
    foldsvg_profile_free(p);
    foldsvg_options_free(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, terminal_text);
    tcase_add_test(tc, outputs_in_one_file);
    tcase_add_test(tc, record_sanitize_drop_sum);
    tcase_add_test(tc, record_path_as_is);
    tcase_add_test(tc, overflow_is_an_error_not_a_wrap);
    tcase_add_test(tc, foreach_in_byte_order);
    tcase_add_test(tc, write_by_extension);
    tcase_add_test(tc, many_frames_same_bytes_both_routes);
    tcase_add_test(tc, unsorted_stacks_cut_same_bytes);
    tcase_add_test(tc, input_changed_between_readings);
    tcase_add_test(tc, cut_stacks_fit_where_whole_ones_spill);
    tcase_add_test(tc, short_stacks_spill_without_a_sketch);
    tcase_add_test(tc, empty_profile_writes_nothing);
    tcase_add_test(tc, render_to_memory_and_options);
    tcase_add_test(tc, unknown_format_and_frame_count);
    tcase_add_test(tc, read_gzip_buffer_equals_plain);
    tcase_add_test(tc, error_format_one_line);
    tcase_add_test(tc, summary_line);
    tcase_add_test(tc, warn_unused_options);
    tcase_add_test(tc, typed_setters_and_the_table);
    tcase_add_test(tc, write_modes_follow_umask_and_existing_file);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
