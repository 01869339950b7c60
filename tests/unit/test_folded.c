/* The folded-stack line rules (docs/inferno-compat.md, "Input"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/folded/folded.h"
#include "input/input.h"
#include "testutil.h"
#include "util/error.h"
#include "util/pool.h"

static int parse(const char *s, fs_folded_line *l, int *frac)
{
    *frac = 0;
    memset(l, 0, sizeof *l);
    return fs_folded_parse_line(s, strlen(s), l, frac);
}

static void expect_stack(const char *line, const char *stack, uint64_t count)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse(line, &l, &frac), 1);
    ck_assert_uint_eq(l.len, strlen(stack));
    ck_assert(memcmp(l.stack, stack, l.len) == 0);
    ck_assert_uint_eq(l.count, count);
}

static void expect_invalid(const char *line)
{
    fs_folded_line l;
    int frac;
    ck_assert_msg(parse(line, &l, &frac) == -1, "'%s' should be invalid", line);
}

START_TEST(plain_lines)
{
    expect_stack("a;b;c 42", "a;b;c", 42);
    expect_stack("  a;b 7 \r", "a;b", 7);
    expect_stack("a b c 3", "a b c", 3); /* the count is after the LAST space */
    expect_stack("a\t 5", "a", 5);       /* trailing whitespace of the stack goes */
    expect_stack("#x 1", "#x", 1);       /* only "# " starts a comment */
    expect_stack("a;;b 2", "a;;b", 2);   /* empty frame names are names */
    expect_stack("a 18446744073709551615", "a", UINT64_MAX);
}
END_TEST

/* inferno trims a line with Rust's str::trim: Unicode White_Space, not only ASCII */
START_TEST(unicode_whitespace_at_line_ends)
{
    expect_stack("\xc2\xa0"
                 "a;b 5\xc2\xa0",
                 "a;b", 5); /* U+00A0 both ends */
    expect_stack("\xe3\x80\x80"
                 "a 3\xe2\x80\xa8\r",
                 "a", 3);                             /* U+3000, U+2028 */
    expect_stack("a 4\xe2\x80\x8a\xc2\x85 ", "a", 4); /* U+200A, U+0085 */
    expect_stack("\xc2\xa0 \xe1\x9a\x80"
                 "a 6",
                 "a", 6);                            /* runs of them */
    expect_stack("a\xc2\xa0;b 2", "a\xc2\xa0;b", 2); /* inside: a name */
    expect_stack("\xe2\x80\x8b"
                 "a 1",
                 "\xe2\x80\x8b"
                 "a",
                 1);                           /* U+200B is not White_Space */
    expect_stack("\xc3\xa9 7", "\xc3\xa9", 7); /* a letter stays */
    expect_invalid("a 5\xe2\x80\x8b");         /* nor at the end */
    expect_invalid("a 5\xa0");                 /* a stray byte: not trimmed */
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("\xe3\x80\x80\xc2\xa0", &l, &frac), 0); /* blank */
}
END_TEST

START_TEST(skipped_and_invalid)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("", &l, &frac), 0);
    ck_assert_int_eq(parse(" \t\r", &l, &frac), 0);
    ck_assert_int_eq(parse("# comment 5", &l, &frac), 0);
    expect_invalid("a\t5"); /* a tab is not the separator */
    expect_invalid("a");    /* no count */
    expect_invalid(" 5");   /* trimmed to "5": no stack */
    expect_invalid("a .5"); /* digits first */
    expect_invalid("a -1");
    expect_invalid("a 5x");
    expect_invalid("a 1.2.3");
    expect_invalid("a 18446744073709551616"); /* 2^64 */
}
END_TEST

START_TEST(fractions)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("a 5.", &l, &frac), 1);
    ck_assert_uint_eq(l.count, 5);
    ck_assert_int_eq(frac, 0);
    ck_assert_int_eq(parse("a 5.000", &l, &frac), 1);
    ck_assert_int_eq(frac, 0);
    ck_assert_int_eq(parse("a 31.23", &l, &frac), 1);
    ck_assert_uint_eq(l.count, 31); /* the fraction is dropped, with a warning */
    ck_assert_int_eq(frac, 1);
}
END_TEST

START_TEST(differential)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("cksum;main 31 56", &l, &frac), 1);
    ck_assert_int_eq(l.is_diff, 1);
    ck_assert_uint_eq(l.before, 31);
    ck_assert_uint_eq(l.count, 56);
    ck_assert_uint_eq(l.len, strlen("cksum;main"));
    ck_assert_int_eq(parse("a;b 7", &l, &frac), 1);
    ck_assert_int_eq(l.is_diff, 0);
    /* "x 1" before the count: the line is differential with stack "a;x" */
    ck_assert_int_eq(parse("a;x 1 2", &l, &frac), 1);
    ck_assert_int_eq(l.is_diff, 1);
    ck_assert_uint_eq(l.len, 3);
}
END_TEST

typedef struct collected {
    fs_sink sink; /* first: the reader passes a pointer to it */
    uint64_t lines, sum, last_lineno;
    size_t longest;
} collected;

static foldsvg_status collect(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    collected *c = (collected *)(void *)self;
    c->lines++;
    c->sum += l->count;
    c->last_lineno = l->lineno;
    if (l->len > c->longest)
        c->longest = l->len;
    return FOLDSVG_OK;
}

START_TEST(reads_across_blocks_and_long_lines)
{
    /* 3 MiB of short lines, then a 3 MiB line, then a last line without a newline: lines
     * cross the 1 MiB read blocks and one outgrows the buffer. */
    size_t n = 0, cap = 8u << 20;
    char *data = malloc(cap);
    ck_assert_ptr_nonnull(data);
    uint64_t expect_lines = 0;
    while (n < (3u << 20)) {
        n += (size_t)sprintf(data + n, "main;f%llu 1\n", (unsigned long long)expect_lines);
        expect_lines++;
    }
    data[n++] = '\n'; /* a blank line is skipped but counted */
    size_t long_start = n;
    memset(data + n, 'x', 3u << 20);
    n += 3u << 20;
    size_t long_len = n - long_start;
    n += (size_t)sprintf(data + n, " 5\nlast 2");
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    collected c = {.sink = {.line = collect}};
    fs_folded_stats stats = {0};
    foldsvg_error err;
    ck_assert_int_eq(fs_folded_read(in, &c.sink, &stats, &err), FOLDSVG_OK);
    ck_assert_uint_eq(c.lines, expect_lines + 2);
    ck_assert_uint_eq(c.sum, expect_lines + 5 + 2);
    ck_assert_uint_eq(c.longest, long_len);
    ck_assert_uint_eq(c.last_lineno, expect_lines + 3);
    ck_assert_uint_eq(stats.invalid, 0);
    fs_input_close(in);
    free(data);
}
END_TEST

START_TEST(invalid_lines_are_counted)
{
    const char *text = "a 1\nbad\n\nb x\nc 2\n";
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, text, strlen(text), "mem", NULL), FOLDSVG_OK);
    collected c = {.sink = {.line = collect}};
    fs_folded_stats stats = {0};
    ck_assert_int_eq(fs_folded_read(in, &c.sink, &stats, NULL), FOLDSVG_OK);
    ck_assert_uint_eq(c.lines, 2);
    ck_assert_uint_eq(stats.invalid, 2);
    ck_assert_uint_eq(stats.first_invalid, 2);
    fs_input_close(in);
}
END_TEST

/* Every line's stack, counts and number folded into one value, as the sink saw them. */
typedef struct fingerprint {
    fs_sink sink;
    uint64_t h, lines, stop_at;
} fingerprint;

static foldsvg_status print_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    fingerprint *f = (fingerprint *)(void *)self;
    uint64_t h = f->h ^ l->lineno;
    for (size_t i = 0; i < l->len; i++)
        h = (h ^ (unsigned char)l->stack[i]) * 0x100000001b3ULL;
    f->h = (h ^ l->count ^ (l->before << 1) ^ (uint64_t)l->is_diff) * 0x100000001b3ULL;
    if (++f->lines == f->stop_at)
        return fs_error(err, FOLDSVG_E_PARSE, "mem", "stopped");
    return FOLDSVG_OK;
}

/* Two threads: the next block read and parsed on the other while this one takes lines. */
static fs_pool *pool2;

/* DATA[0..n) read on one thread and read ahead on two: the same lines, statistics and
 * failure. */
static void read_both(const char *data, size_t n, uint64_t stop_at)
{
    fs_input *in;
    fingerprint one = {.sink = {.line = print_line}, .stop_at = stop_at};
    fingerprint two = one;
    fs_folded_stats s1 = {0}, s2 = {0};
    foldsvg_error e1, e2;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    foldsvg_status st1 = fs_folded_read(in, &one.sink, &s1, &e1);
    fs_input_close(in);
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    fs_input_set_pool(in, pool2);
    foldsvg_status st2 = fs_folded_read(in, &two.sink, &s2, &e2);
    fs_input_close(in);
    ck_assert_int_eq(st1, st2);
    ck_assert_uint_eq(one.lines, two.lines);
    ck_assert_uint_eq(one.h, two.h);
    ck_assert(memcmp(&s1, &s2, sizeof s1) == 0);
    if (st1)
        ck_assert_str_eq(e1.message, e2.message);
}

/* Lines across the reader's blocks (of 1 MiB): blank, comment, invalid, differential and
 * fractional lines, CRLF, lines longer than a block, a last line with and without its
 * newline, a sink that stops the read. */
START_TEST(read_ahead_matches_the_plain_reader)
{
    static const char *const pieces[] = {"a 1\n",     "\n",        "# c 1\n",    "bad\n",
                                         "b;c 2 3\n", "d 1.5\r\n", "e;f;g 0\n",  "h 9\n",
                                         "e;f 2\n",   "e<x 1\n",   "e;f;g;h 1\n"};
    size_t cap = 8 << 20;
    char *data = malloc(cap);
    ck_assert_ptr_nonnull(data);
    size_t n = 0;
    uint64_t seed = 7;
    while (n < (5 << 20)) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned k = (unsigned)(seed >> 33);
        size_t len = k % 13 == 0 ? 100 + k % 700 : k % 997 == 0 ? (3 << 19) : 0;
        if (len) { /* a long line; now and then longer than a block */
            for (size_t i = 0; i < len; i++)
                data[n++] = i % 9 == 8 ? ';' : (char)('a' + (k + i) % 26);
            n += (size_t)sprintf(data + n, " %u\n", k % 100);
        } else {
            const char *p = pieces[k % (sizeof pieces / sizeof pieces[0])];
            memcpy(data + n, p, strlen(p));
            n += strlen(p);
        }
    }
    read_both(data, n, 0);
    read_both(data, n - 1, 0); /* no newline at the end */
    read_both(data, n, 1000);  /* the sink stops the read */
    read_both(data, n, 40000); /* ... blocks later */
    read_both("", 0, 0);
    read_both("x 1", 3, 0);
    free(data);
}
END_TEST

/* Progress is the caller's: read ahead, it comes on the caller's thread as the blocks are
 * taken (0 bytes as the reading starts), never going back, all of the bytes and lines at the
 * end. */
typedef struct progress_seen {
    pthread_t thread;
    int calls, other_thread, backwards;
    uint64_t done, lines;
} progress_seen;

static void on_progress_seen(void *user, const char *name, uint64_t done, uint64_t total,
                             uint64_t lines)
{
    (void)name;
    (void)total;
    progress_seen *p = user;
    p->calls++;
    p->other_thread |= !pthread_equal(p->thread, pthread_self());
    p->backwards |= done < p->done || lines < p->lines;
    p->done = done;
    p->lines = lines;
}

START_TEST(read_ahead_reports_progress_on_the_callers_thread)
{
    enum { LINES = 200000 };
    char *data = malloc(8 << 20);
    ck_assert_ptr_nonnull(data);
    size_t n = 0;
    for (unsigned i = 0; i < LINES; i++)
        n += (size_t)sprintf(data + n, "main;run;step%06u;leaf %u\n", i, 1 + i % 5);
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    fs_input_set_pool(in, pool2);
    progress_seen p = {.thread = pthread_self()};
    fs_input_set_progress(in, on_progress_seen, &p);
    ck_assert_int_eq(p.calls, 1);
    ck_assert_uint_eq(p.done, 0);
    fingerprint f = {.sink = {.line = print_line}};
    fs_folded_stats st = {0};
    ck_assert_int_eq(fs_folded_read(in, &f.sink, &st, NULL), FOLDSVG_OK);
    fs_input_close(in);
    ck_assert_int_eq(p.other_thread, 0);
    ck_assert_int_eq(p.backwards, 0);
    ck_assert_int_gt(p.calls, 3); /* a call a block of 1 MiB */
    ck_assert_uint_eq(p.done, n);
    ck_assert_uint_eq(p.lines, LINES);
    free(data);
}
END_TEST

int main(void)
{
    pool2 = fs_pool_new(2);
    Suite *s = suite_create("folded");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, plain_lines);
    tcase_add_test(tc, skipped_and_invalid);
    tcase_add_test(tc, unicode_whitespace_at_line_ends);
    tcase_add_test(tc, fractions);
    tcase_add_test(tc, differential);
    tcase_add_test(tc, reads_across_blocks_and_long_lines);
    tcase_add_test(tc, read_ahead_reports_progress_on_the_callers_thread);
    tcase_add_test(tc, invalid_lines_are_counted);
    tcase_add_test(tc, read_ahead_matches_the_plain_reader);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
