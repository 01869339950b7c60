/* Folded text read in two halves at once (formats/folded/split.c) and the tally a half is summed
 * in (aggregate/tally.c): whatever happens to the second half, the sink ends up with what one
 * reading from start to end gives it, line numbers, statistics and errors included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggregate/tally.h"
#include "formats/folded/folded.h"
#include "formats/folded/split.h"
#include "input/input.h"
#include "testutil.h"
#include "util/error.h"
#include "util/pool.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    return x ^ (x >> 33);
}

/* A sink that sums its lines whatever their order: each line's number, stack and counts go
 * into an order-free fingerprint (a sum). A part keeps its lines until it is joined, when
 * their numbers are known. */
typedef struct summer {
    fs_sink sink;
    uint64_t sum, lines;
    const char *fail_on;    /* a stack that starts so fails the read */
    uint64_t give_up_after; /* a part: FS_STOP after this many lines (0: never) */
    uint64_t *part_line, *part_hash;
    size_t n, cap;
    int forks, joins, drops;
    struct summer *part; /* the one forked off */
} summer;

static uint64_t line_hash(const fs_folded_line *l)
{
    uint64_t h = mix(l->count) ^ mix(l->before + 3 * (uint64_t)l->is_diff);
    for (size_t i = 0; i < l->len; i++)
        h = (h ^ (unsigned char)l->stack[i]) * 0x100000001b3ULL;
    return h;
}

static foldsvg_status check_fail(const summer *s, const fs_folded_line *l, foldsvg_error *err)
{
    if (s->fail_on && l->len >= strlen(s->fail_on) &&
        memcmp(l->stack, s->fail_on, strlen(s->fail_on)) == 0)
        return fs_error_at_line(err, FOLDSVG_E_PARSE, "split", l->lineno, 0, "bad stack");
    return FOLDSVG_OK;
}

static foldsvg_status sum_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    summer *s = (summer *)(void *)self;
    FS_FORWARD_IF_ERROR(check_fail(s, l, err));
    s->sum += mix(l->lineno * 0x9e3779b97f4a7c15ULL + line_hash(l));
    s->lines++;
    return FOLDSVG_OK;
}

static foldsvg_status part_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    summer *p = (summer *)(void *)self;
    FS_FORWARD_IF_ERROR(check_fail(p, l, err));
    if (p->give_up_after && p->n == p->give_up_after)
        return FS_STOP;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 1024;
        p->part_line = realloc(p->part_line, p->cap * sizeof *p->part_line);
        p->part_hash = realloc(p->part_hash, p->cap * sizeof *p->part_hash);
        ck_assert(p->part_line && p->part_hash);
    }
    p->part_line[p->n] = l->lineno;
    p->part_hash[p->n++] = line_hash(l);
    return FOLDSVG_OK;
}

static fs_sink *fork_part(fs_sink *self)
{
    summer *s = (summer *)(void *)self;
    ck_assert_ptr_null(s->part);
    s->forks++;
    s->part = calloc(1, sizeof *s->part);
    ck_assert_ptr_nonnull(s->part);
    s->part->sink.line = part_line;
    s->part->fail_on = s->fail_on;
    s->part->give_up_after = s->give_up_after;
    return &s->part->sink;
}

static foldsvg_status join_part(fs_sink *self, fs_sink *part, uint64_t lines_before, int *joined,
                                foldsvg_error *err)
{
    (void)err;
    summer *s = (summer *)(void *)self;
    summer *p = (summer *)(void *)part;
    ck_assert_ptr_eq(p, s->part);
    s->joins++;
    for (size_t i = 0; i < p->n; i++)
        s->sum += mix((lines_before + p->part_line[i]) * 0x9e3779b97f4a7c15ULL + p->part_hash[i]);
    s->lines += p->n;
    *joined = 1;
    return FOLDSVG_OK;
}

static void drop_part(fs_sink *self, fs_sink *part)
{
    summer *s = (summer *)(void *)self;
    summer *p = (summer *)(void *)part;
    ck_assert_ptr_eq(p, s->part);
    s->drops++;
    free(p->part_line);
    free(p->part_hash);
    free(p);
    s->part = NULL;
}

/* About 11 MB of lines (over FS_SPLIT_MIN): valid (long and short), blank, comment,
 * differential and fractional ones; the only invalid lines (two) at INVALID_AT, a fraction of
 * the lines, and SPECIAL's line (when not NULL) at SPECIAL_AT. */
static char *make_text(size_t *n, double invalid_at, const char *special, double special_at)
{
    size_t cap = 16 << 20;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    *n = 0;
    uint64_t seed = 3;
    const size_t total = 60000;
    const size_t bad = (size_t)(invalid_at * total), odd = (size_t)(special_at * total);
    for (size_t line = 0; line < total; line++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned k = (unsigned)(seed >> 33);
        if (line == bad || line == bad + 7) {
            *n += (size_t)sprintf(t + *n, "not a folded line\n");
        } else if (special && line == odd) {
            *n += (size_t)sprintf(t + *n, "%s;x 1\n", special);
        } else if (k % 97 == 0) {
            *n += (size_t)sprintf(t + *n, k % 2 ? "\n" : "# a comment\n");
        } else if (k % 89 == 0) {
            *n += (size_t)sprintf(t + *n, "main;frac%u 2.5\n", k % 5);
        } else if (k % 83 == 0) {
            *n += (size_t)sprintf(t + *n, "main;diff%u %u %u\n", k % 7, k % 3, k % 11);
        } else if (k % 5 < 2) {
            *n += (size_t)sprintf(t + *n, "main;pad%u;", k % 50);
            for (unsigned i = 0; i < 400; i++)
                t[(*n)++] = (char)('a' + (k + i) % 26);
            *n += (size_t)sprintf(t + *n, " %u\n", 1 + k % 4);
        } else {
            *n += (size_t)sprintf(t + *n, "main;run;work%03u;leaf%02u %u\n", k % 300, k % 40,
                                  1 + k % 9);
        }
    }
    ck_assert_uint_gt(*n, FS_SPLIT_MIN);
    ck_assert_uint_lt(*n, cap);
    return t;
}

static char *write_temp(const char *text, size_t n)
{
    const char *dir = getenv("TMPDIR");
    char *path = malloc(4096);
    ck_assert_ptr_nonnull(path);
    snprintf(path, 4096, "%s/foldsvg-split-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

/* Two threads: the second half read on the other. */
static fs_pool *pool2;

static fs_input *open_peeked(const char *path)
{
    fs_input *in;
    ck_assert_int_eq(fs_input_open_file(&in, path, NULL), FOLDSVG_OK);
    int more;
    ck_assert_int_eq(fs_input_peek_more(in, &more, NULL), FOLDSVG_OK); /* as detection does */
    return in;
}

typedef struct outcome {
    summer s;
    fs_folded_stats stats;
    foldsvg_status st;
    foldsvg_error err;
    int ran;
} outcome;

/* Progress reports: never backwards, never past the size. */
typedef struct progress {
    uint64_t done, lines, size;
    int calls, backwards, over;
} progress;

static void on_progress(void *user, const char *name, uint64_t done, uint64_t total, uint64_t lines)
{
    (void)name;
    progress *p = user;
    p->calls++;
    p->backwards |= done < p->done || lines < p->lines;
    p->over |= done > p->size || total != p->size;
    p->done = done;
    p->lines = lines;
}

/* PATH read once in one part (the reference) into A and in two halves into B; the halves'
 * progress, both halves' bytes and lines, comes on the calling thread, ending at the size. */
static void read_both(const char *path, outcome *a, outcome *b)
{
    fs_input *in = open_peeked(path);
    a->st = fs_folded_read(in, &a->s.sink, &a->stats, &a->err);
    uint64_t size = fs_input_raw_size(in);
    fs_input_close(in);
    in = open_peeked(path);
    progress p = {.size = size};
    fs_input_set_progress(in, on_progress, &p);
    b->s.sink.fork = fork_part;
    b->s.sink.join = join_part;
    b->s.sink.drop = drop_part;
    fs_input_set_pool(in, pool2);
    b->st = fs_folded_read_split(in, &b->s.sink, &b->stats, &b->err);
    b->ran = b->s.forks > 0;
    fs_input_close(in);
    ck_assert_int_eq(b->ran, 1);
    ck_assert_int_eq(b->s.forks, 1);
    ck_assert_int_eq(b->s.drops, 1);
    ck_assert_int_eq(a->st, b->st);
    if (a->st)
        ck_assert_str_eq(a->err.message, b->err.message);
    ck_assert_uint_eq(a->s.lines, b->s.lines);
    ck_assert_uint_eq(a->s.sum, b->s.sum);
    ck_assert(memcmp(&a->stats, &b->stats, sizeof a->stats) == 0);
    ck_assert_int_ge(p.calls, 2); /* the start and a block at least */
    ck_assert_int_eq(p.backwards, 0);
    ck_assert_int_eq(p.over, 0);
    if (b->s.joins) {
        ck_assert_uint_eq(p.done, size);
        ck_assert_uint_eq(p.lines, a->stats.lines);
    }
}

#define OUTCOMES(fail, give_up)                                                                    \
    outcome a = {.s = {.sink = {.line = sum_line}, .fail_on = fail}};                              \
    outcome b = {.s = {.sink = {.line = sum_line}, .fail_on = fail, .give_up_after = give_up}}

START_TEST(halves_joined_are_one_reading)
{
    size_t n;
    char *text = make_text(&n, 0.8, NULL, 0); /* invalid lines in the second half only */
    char *path = write_temp(text, n);
    OUTCOMES(NULL, 0);
    read_both(path, &a, &b);
    ck_assert_int_eq(a.st, FOLDSVG_OK);
    ck_assert_int_eq(b.s.joins, 1);
    ck_assert_uint_eq(a.stats.invalid, 2);
    ck_assert_uint_gt(a.stats.first_invalid, a.stats.lines / 2); /* numbered across the halves */
    ck_assert_uint_gt(a.stats.fractional, 10);
    unlink(path);
    free(path);
    free(text);
}
END_TEST

/* A part that gives up: read again after the first half, or, in a file of several steps
 * (the first half read 16 MiB at a time), from the step where that is seen on. */
START_TEST(a_part_that_gives_up_is_read_again)
{
    for (int copies = 1; copies <= 7; copies += 6) {
        size_t n;
        char *text = make_text(&n, 0.2, NULL, 0);
        text = realloc(text, n * (size_t)copies);
        ck_assert_ptr_nonnull(text);
        for (int c = 1; c < copies; c++)
            memcpy(text + n * (size_t)c, text, n);
        char *path = write_temp(text, n * (size_t)copies);
        OUTCOMES(NULL, copies == 1 ? 500 : 1);
        read_both(path, &a, &b);
        ck_assert_int_eq(b.s.joins, 0);
        unlink(path);
        free(path);
        free(text);
    }
}
END_TEST

/* An error in the second half comes from its reading again, named where it is in the input;
 * one in the first half stops the second half's thread (the call returns). */
START_TEST(errors_are_those_of_one_reading)
{
    static const double at[] = {0.9, 0.1};
    for (size_t i = 0; i < 2; i++) {
        size_t n;
        char *text = make_text(&n, 0.5, "boom", at[i]);
        char *path = write_temp(text, n);
        OUTCOMES("boom", 0);
        read_both(path, &a, &b);
        ck_assert_int_eq(a.st, FOLDSVG_E_PARSE);
        ck_assert_uint_gt(a.err.line, 0);
        ck_assert_int_eq(b.s.joins, 0);
        unlink(path);
        free(path);
        free(text);
    }
}
END_TEST

START_TEST(only_big_plain_files_are_split)
{
    summer s = {
        .sink = {.line = sum_line, .fork = fork_part, .join = join_part, .drop = drop_part}};
    fs_folded_stats st = {0};
    const char small[] = "a;b 1\nc 2\n";
    char *path = write_temp(small, sizeof small - 1);
    fs_input *in = open_peeked(path);
    fs_input_set_pool(in, pool2);
    ck_assert_int_eq(fs_folded_read_split(in, &s.sink, &st, NULL), FOLDSVG_OK);
    ck_assert_int_eq(s.forks, 0);
    ck_assert_uint_eq(st.lines, 2); /* read in one part */
    fs_input_close(in);
    unlink(path);
    free(path);
    size_t n;
    char *text = make_text(&n, 0.5, NULL, 0);
    ck_assert_int_eq(fs_input_open_mem(&in, text, n, "mem", NULL), FOLDSVG_OK);
    fs_input_set_pool(in, pool2);
    ck_assert_int_eq(fs_folded_read_split(in, &s.sink, &st, NULL), FOLDSVG_OK);
    fs_input_close(in);
    ck_assert_int_eq(s.forks, 0); /* a caller's memory is read in one part */
    /* a line of 3 MB across the middle: its end is too far to look for */
    char *t = malloc(12 << 20);
    ck_assert_ptr_nonnull(t);
    size_t m = 0;
    while (m < (9u << 19))
        m += (size_t)sprintf(t + m, "main;run;a %u\n", (unsigned)(m % 7 + 1));
    memset(t + m, 'x', 3u << 20);
    m += 3u << 20;
    t[m++] = '\n';
    while (m < (11u << 20))
        m += (size_t)sprintf(t + m, "main;run;b 2\n");
    path = write_temp(t, m);
    in = open_peeked(path);
    fs_input_set_pool(in, pool2);
    ck_assert_int_eq(fs_folded_read_split(in, &s.sink, &st, NULL), FOLDSVG_OK);
    fs_input_close(in);
    unlink(path);
    free(path);
    free(t);
    ck_assert_int_eq(s.forks, s.drops); /* forked, then given back */
    ck_assert_ptr_null(s.part);
    free(text);
}
END_TEST

/* A stream over a regular file from an offset on (standard input after `dd skip=N`), told
 * the path that opens the file again: split as a file opened by path is, its halves' lines
 * the ones after the offset; without that path, read in one part. */
START_TEST(a_stream_from_an_offset_is_split_when_it_can_be_opened_again)
{
    size_t n;
    char *text = make_text(&n, 0.5, NULL, 0);
    static const char junk[] = "zzz;not;this;part 999\n";
    size_t skip = sizeof junk - 1;
    char *whole = malloc(n + skip);
    ck_assert_ptr_nonnull(whole);
    memcpy(whole, junk, skip);
    memcpy(whole + skip, text, n);
    char *path = write_temp(whole, n + skip), *ref = write_temp(text, n);
    outcome a = {.s = {.sink = {.line = sum_line}}};
    fs_input *in = open_peeked(ref);
    a.st = fs_folded_read(in, &a.s.sink, &a.stats, &a.err);
    fs_input_close(in);
    ck_assert_int_eq(a.st, FOLDSVG_OK);
    for (int again = 0; again < 2; again++) {
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fseeko(f, (off_t)skip, SEEK_SET), 0);
        struct stat id;
        ck_assert_int_eq(fstat(fileno(f), &id), 0);
        ck_assert_int_eq(fs_input_open_stream(&in, f, "<stdin>", NULL), FOLDSVG_OK);
        if (again)
            fs_input_set_again(in, path, skip, &id);
        ck_assert_int_eq(fs_input_can_split(in), 0); /* not known yet: not peeked */
        int more;
        ck_assert_int_eq(fs_input_peek_more(in, &more, NULL), FOLDSVG_OK);
        ck_assert_int_eq(fs_input_can_split(in), again);
        outcome b = {
            .s = {.sink = {
                      .line = sum_line, .fork = fork_part, .join = join_part, .drop = drop_part}}};
        fs_input_set_pool(in, pool2);
        b.st = fs_folded_read_split(in, &b.s.sink, &b.stats, &b.err);
        b.ran = b.s.joins > 0;
        fs_input_close(in);
        fclose(f);
        ck_assert_int_eq(b.ran, again);
        ck_assert_int_eq(b.s.joins, again);
        ck_assert_int_eq(b.st, FOLDSVG_OK);
        ck_assert_uint_eq(a.s.lines, b.s.lines);
        ck_assert_uint_eq(a.s.sum, b.s.sum);
        ck_assert(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
    }
    unlink(path);
    unlink(ref);
    free(path);
    free(ref);
    free(whole);
    free(text);
}
END_TEST

/* Stack I of a set: 100 bytes, its number in it. */
static const char *nth_stack(char *buf, unsigned i)
{
    memset(buf, 'a', 100);
    snprintf(buf, 101, "main;work%07u;", i);
    buf[strlen(buf)] = 'a';
    buf[100] = '\0';
    return buf;
}

/* A tally sees early that the stacks will not fit (nine in ten new, a quarter of its budget
 * used) and gives up then, not once full; stacks drawn again and again from a set that fits
 * never make it give up. */
START_TEST(a_tally_gives_up_early_on_new_stacks)
{
    char buf[128];
    fs_tally t;
    fs_tally_init(&t, 1 << 20);
    unsigned i = 0;
    foldsvg_status st = FOLDSVG_OK;
    size_t before_stop = 0;
    while (st == FOLDSVG_OK && i < 100000) {
        nth_stack(buf, i++);
        before_stop = t.bytes;
        st = fs_tally_add(&t, buf, 100, fs_strmap_hash(buf, 100), 1, 0, 0, i);
    }
    ck_assert_int_eq(st, FS_STOP);
    ck_assert_int_eq(t.gave_up, 1);
    ck_assert_uint_gt(before_stop, (1 << 20) / 4);
    ck_assert_uint_lt(before_stop, (1 << 20) * 2 / 3); /* well before the budget */
    fs_tally_free(&t);
    fs_tally_init(&t, 1 << 20);
    uint64_t seed = 1;
    for (unsigned k = 0; k < 200000; k++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        nth_stack(buf, (unsigned)(seed >> 33) % 4000); /* 4,000 stacks: 0.6 MiB of the table */
        ck_assert_int_eq(fs_tally_add(&t, buf, 100, fs_strmap_hash(buf, 100), 1, 0, 0, k + 1),
                         FOLDSVG_OK);
    }
    ck_assert_uint_eq(fs_strmap_size(&t.map), 4000);
    ck_assert_uint_eq(t.total, 200000);
    fs_tally_free(&t);
}
END_TEST

START_TEST(a_tally_sums_within_its_budget)
{
    fs_tally t;
    fs_tally_init(&t, 1 << 10);
    const char *a = "main;a", *b = "main;b";
    ck_assert_int_eq(fs_tally_add(&t, a, 6, fs_strmap_hash(a, 6), 2, 0, 0, 5), FOLDSVG_OK);
    ck_assert_int_eq(fs_tally_add(&t, b, 6, fs_strmap_hash(b, 6), 3, 4, 1, 9), FOLDSVG_OK);
    ck_assert_int_eq(fs_tally_add(&t, a, 6, fs_strmap_hash(a, 6), 7, 1, 1, 12), FOLDSVG_OK);
    ck_assert_uint_eq(fs_strmap_size(&t.map), 2);
    ck_assert_uint_eq(t.sums[0].count, 9);
    ck_assert_uint_eq(t.sums[0].before, 1);
    ck_assert_int_eq(t.sums[0].is_diff, 1);
    ck_assert_uint_eq(t.sums[0].line, 5); /* the first line */
    ck_assert_uint_eq(t.sums[1].count, 3);
    ck_assert_uint_eq(t.total, 12);
    ck_assert_uint_eq(t.total_before, 5);
    /* a stack past the budget: it gives up and holds nothing more */
    char big[2048];
    memset(big, 'x', sizeof big);
    ck_assert_int_eq(
        fs_tally_add(&t, big, sizeof big, fs_strmap_hash(big, sizeof big), 1, 0, 0, 13), FS_STOP);
    ck_assert_int_eq(t.gave_up, 1);
    ck_assert_uint_eq(fs_strmap_size(&t.map), 0);
    ck_assert_int_eq(fs_tally_add(&t, a, 6, fs_strmap_hash(a, 6), 1, 0, 0, 14), FS_STOP);
    fs_tally_free(&t);
    /* totals that would pass 2^64-1 */
    fs_tally_init(&t, 1 << 10);
    ck_assert_int_eq(fs_tally_add(&t, a, 6, fs_strmap_hash(a, 6), UINT64_MAX, 0, 0, 1), FOLDSVG_OK);
    ck_assert_int_eq(fs_tally_add(&t, b, 6, fs_strmap_hash(b, 6), 1, 0, 0, 2), FS_STOP);
    fs_tally_free(&t);
    fs_tally_init(&t, 1 << 10);
    ck_assert_int_eq(fs_tally_add(&t, a, 6, fs_strmap_hash(a, 6), 0, UINT64_MAX, 1, 1), FOLDSVG_OK);
    ck_assert_int_eq(fs_tally_add(&t, a, 6, fs_strmap_hash(a, 6), 0, 1, 1, 2), FS_STOP);
    fs_tally_free(&t);
}
END_TEST

int main(void)
{
    pool2 = fs_pool_new(2);
    Suite *s = suite_create("split");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, halves_joined_are_one_reading);
    tcase_add_test(tc, a_part_that_gives_up_is_read_again);
    tcase_add_test(tc, errors_are_those_of_one_reading);
    tcase_add_test(tc, only_big_plain_files_are_split);
    tcase_add_test(tc, a_stream_from_an_offset_is_split_when_it_can_be_opened_again);
    tcase_add_test(tc, a_tally_sums_within_its_budget);
    tcase_add_test(tc, a_tally_gives_up_early_on_new_stacks);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
