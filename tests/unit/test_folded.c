/* The folded-stack line rules (docs/inferno-compat.md, "Input"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/folded/ahead.h"
#include "formats/folded/folded.h"
#include "input/input.h"
#include "testutil.h"
#include "util/error.h"

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

/* Every line's stack, counts and number folded into one value, as the sink saw them; what
 * the reader thread worked out besides (its hints) checked against the line's bytes. */
typedef struct fingerprint {
    fs_sink sink;
    uint64_t h, lines, stop_at;
    char *prev; /* the line before's stack */
    size_t prev_len;
    uint64_t prev_line;
    uint64_t hashes, semis, shares; /* lines that came with each */
    /* the line before's look at this one (fs_folded_line.next_line); lines that came with it */
    uint64_t next_line;
    size_t next_shared;
    uint64_t nexts;
} fingerprint;

static void check_hints(fingerprint *f, const fs_folded_line *l)
{
    if (l->has_hash) {
        ck_assert(l->hash == fs_strmap_hash(l->stack, l->len));
        f->hashes++;
    }
    if (l->semis) {
        /* every ';', or with a share those at the first difference or after */
        size_t k = 0;
        for (size_t i = l->shared_with ? l->shared : 0; i < l->len; i++)
            if (l->stack[i] == ';') {
                ck_assert_uint_lt(k, l->nsemis);
                ck_assert_uint_eq(l->semis[k++], i);
            }
        ck_assert_uint_eq(k, l->nsemis);
        f->semis++;
    }
    size_t m = l->len < f->prev_len ? l->len : f->prev_len, at = 0;
    while (f->prev && at < m && l->stack[at] == f->prev[at])
        at++;
    if (l->shared_with) {
        ck_assert_uint_eq(l->shared_with, f->prev_line);
        ck_assert_uint_eq(l->shared, at);
        f->shares++;
    }
    if (f->next_line) { /* what the line before said of this one */
        ck_assert_uint_eq(f->next_line, l->lineno);
        ck_assert_uint_eq(f->next_shared, at);
        f->nexts++;
    }
    f->next_line = l->next_line;
    f->next_shared = l->next_shared;
    free(f->prev);
    f->prev = malloc(l->len);
    ck_assert_ptr_nonnull(f->prev);
    memcpy(f->prev, l->stack, l->len);
    f->prev_len = l->len;
    f->prev_line = l->lineno;
}

static foldsvg_status print_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    fingerprint *f = (fingerprint *)(void *)self;
    check_hints(f, l);
    uint64_t h = f->h ^ l->lineno;
    for (size_t i = 0; i < l->len; i++)
        h = (h ^ (unsigned char)l->stack[i]) * 0x100000001b3ULL;
    f->h = (h ^ l->count ^ (l->before << 1) ^ (uint64_t)l->is_diff) * 0x100000001b3ULL;
    if (++f->lines == f->stop_at)
        return fs_error(err, FOLDSVG_E_PARSE, "mem", "stopped");
    return FOLDSVG_OK;
}

static void read_both(const char *data, size_t n, size_t block, uint64_t stop_at, unsigned hints)
{
    fs_input *in;
    fingerprint one = {.sink = {.line = print_line}, .stop_at = stop_at};
    fingerprint two = one;
    two.sink.hints = hints;
    fs_folded_stats s1 = {0}, s2 = {0};
    foldsvg_error e1, e2;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    foldsvg_status st1 = fs_folded_read(in, &one.sink, &s1, &e1);
    fs_input_close(in);
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    int ran;
    foldsvg_status st2 = fs_folded_read_ahead(in, &two.sink, &s2, block, &ran, &e2);
    fs_input_close(in);
    ck_assert_int_eq(ran, 1);
    ck_assert_int_eq(st1, st2);
    ck_assert_uint_eq(one.lines, two.lines);
    ck_assert_uint_eq(one.h, two.h);
    ck_assert(memcmp(&s1, &s2, sizeof s1) == 0);
    if (st1)
        ck_assert_str_eq(e1.message, e2.message);
    /* the plain reader works out nothing; read ahead, what was asked for: every line but
     * the first its share with the line before (unless blocks of skipped lines only came
     * between: the tiny blocks), the blocks the reader chose their hashes and ';' */
    ck_assert_uint_eq(one.hashes + one.semis + one.shares, 0);
    ck_assert(two.semis <= two.lines && (hints & FS_HINT_SEMIS || two.semis == 0));
    uint64_t shares = hints & FS_HINT_SHARED && two.lines ? two.lines - 1 : 0;
    /* in one block, every line's share is at hand on either thread; across blocks the
     * caller's thread, when it finds them, has none for a block's first line */
    if (block > n)
        ck_assert_uint_eq(two.shares, shares);
    else
        ck_assert(two.shares <= shares && (shares == 0 || two.shares > 0));
    /* so is what the line before learnt of this one, but only within a block: on either
     * thread, a block's last line has none */
    ck_assert_uint_eq(one.nexts, 0);
    ck_assert(two.nexts <= shares);
    if (block > n)
        ck_assert_uint_eq(two.nexts, shares);
    else if (block >= 1000 && shares > 0)
        ck_assert_uint_gt(two.nexts, 0);
    ck_assert(two.hashes <= two.lines && (hints & FS_HINT_HASH || two.hashes == 0));
    free(one.prev);
    free(two.prev);
}

START_TEST(read_ahead_matches_the_plain_reader)
{
    /* Lines shorter than a record (a block's records fill before its bytes), lines longer
     * than a block, blank, comment, invalid, differential and fractional lines, CRLF, and
     * a last line with and without its newline, read ahead in blocks of a few bytes; lines
     * that differ from the one before at, just after or past one of its ';' (the reader
     * copies the positions before the difference). */
    static const char *const pieces[] = {"a 1\n",     "\n",        "# c 1\n",    "bad\n",
                                         "b;c 2 3\n", "d 1.5\r\n", "e;f;g 0\n",  "h 9\n",
                                         "e;f 2\n",   "e<x 1\n",   "e;f;g;h 1\n"};
    char *data = malloc(64 << 10);
    ck_assert_ptr_nonnull(data);
    size_t n = 0;
    uint64_t seed = 7;
    while (n < (60 << 10)) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned k = (unsigned)(seed >> 33);
        if (k % 13 == 0) { /* a long line */
            size_t len = 100 + k % 700;
            for (size_t i = 0; i < len; i++)
                data[n++] = i % 9 == 8 ? ';' : (char)('a' + (k + i) % 26);
            n += (size_t)sprintf(data + n, " %u\n", k % 100);
        } else {
            const char *p = pieces[k % (sizeof pieces / sizeof pieces[0])];
            memcpy(data + n, p, strlen(p));
            n += strlen(p);
        }
    }
    static const size_t blocks[] = {1, 7, 64, 1000, 1 << 20};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        for (unsigned hints = 0; hints < 8; hints++) {
            read_both(data, n, blocks[b], 0, hints);
            read_both(data, n - 1, blocks[b], 0, hints); /* no newline at the end */
            read_both(data, n, blocks[b], 1000, hints);  /* the sink stops the read */
        }
    }
    read_both("", 0, 16, 0, FS_HINT_SEMIS | FS_HINT_SHARED);
    read_both("x 1", 3, 1, 0, FS_HINT_HASH | FS_HINT_SEMIS | FS_HINT_SHARED);
    free(data);
}
END_TEST

static foldsvg_status slow_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
    return print_line(self, l, err);
}

/* 2,000 sorted lines of a few frames, *N bytes (caller frees). */
static char *step_lines(size_t *n)
{
    char *data = malloc(1 << 20);
    ck_assert_ptr_nonnull(data);
    *n = 0;
    for (unsigned i = 0; i < 2000; i++)
        *n += (size_t)sprintf(data + *n, "main;run;step%05u;leaf %u\n", i, 1 + i % 5);
    return data;
}

/* IN read ahead in blocks of 1 KiB into F's sink, and closed. */
static void read_ahead_1k(fs_input *in, fingerprint *f)
{
    fs_folded_stats st = {0};
    foldsvg_error e;
    int ran;
    ck_assert_int_eq(fs_folded_read_ahead(in, &f->sink, &st, 1024, &ran, &e), FOLDSVG_OK);
    fs_input_close(in);
    ck_assert_int_eq(ran, 1);
}

/* The reader thread works out the hashes and ';' of a block only while the sink is behind
 * (it has half the ring or more still to take), else the sink's thread does: a sink that
 * takes its time gets them from the reader, right (check_hints), for most lines. */
START_TEST(a_slow_sink_gets_the_readers_work)
{
    size_t n;
    char *data = step_lines(&n);
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    fingerprint f = {
        .sink = {.line = slow_line, .hints = FS_HINT_HASH | FS_HINT_SEMIS | FS_HINT_SHARED}};
    read_ahead_1k(in, &f);
    /* a block of 1 KiB takes the sink about 3 ms: the reader, which has every other block
     * read in far less, stays ahead (a margin for a loaded machine's scheduling); each
     * line's share with the next then comes with it (check_hints) */
    ck_assert_uint_eq(f.lines, 2000);
    ck_assert_uint_gt(f.semis, 2000 / 2);
    ck_assert_uint_gt(f.hashes, 2000 / 2);
    ck_assert_uint_gt(f.shares, 2000 / 2);
    ck_assert_uint_gt(f.nexts, 2000 / 2);
    free(f.prev);
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
    size_t n;
    char *data = step_lines(&n);
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    progress_seen p = {.thread = pthread_self()};
    fs_input_set_progress(in, on_progress_seen, &p);
    ck_assert_int_eq(p.calls, 1);
    ck_assert_uint_eq(p.done, 0);
    fingerprint f = {.sink = {.line = print_line}};
    read_ahead_1k(in, &f);
    ck_assert_int_eq(p.other_thread, 0);
    ck_assert_int_eq(p.backwards, 0);
    ck_assert_int_gt(p.calls, 10); /* a call a block of 1 KiB */
    ck_assert_uint_eq(p.done, n);
    ck_assert_uint_eq(p.lines, 2000);
    free(f.prev);
    free(data);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("folded");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, plain_lines);
    tcase_add_test(tc, skipped_and_invalid);
    tcase_add_test(tc, unicode_whitespace_at_line_ends);
    tcase_add_test(tc, fractions);
    tcase_add_test(tc, differential);
    tcase_add_test(tc, reads_across_blocks_and_long_lines);
    tcase_add_test(tc, a_slow_sink_gets_the_readers_work);
    tcase_add_test(tc, read_ahead_reports_progress_on_the_callers_thread);
    tcase_add_test(tc, invalid_lines_are_counted);
    tcase_add_test(tc, read_ahead_matches_the_plain_reader);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
