/* The sorter of unsorted input: its string sort against qsort, its run files, its spills and
 * merge rounds against a model, on two threads and on one, and the relay between threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aggregate/relay.h"
#include "aggregate/runs.h"
#include "aggregate/sorter.h"
#include "aggregate/strsort.h"
#include "testutil.h"
#include "util/error.h"
#include "util/mismatch.h"
#include "util/reserve.h"

static unsigned long long rng_state;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33) % n;
}

/* Strings over bytes that test the order's corners (NUL, ';', high bytes), built on shared
 * prefixes so that ties run deep; some are prefixes of others, some repeat. */
static char **random_strings(size_t n, uint32_t **lens_out, size_t maxlen)
{
    static const char alphabet[] = {'\0', '\x01', ';', 'a', 'b', ' ', '\x7f', (char)0xff};
    char **s = calloc(n ? n : 1, sizeof *s);
    uint32_t *lens = calloc(n ? n : 1, sizeof *lens);
    ck_assert(s && lens);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *p;
        if (i > 0 && rnd(3) == 0) { /* extend or cut an earlier one */
            size_t j = rnd((unsigned)i), keep = rnd(lens[j] + 1);
            len = keep + rnd(12);
            if (len > maxlen)
                len = maxlen;
            p = malloc(len + 1);
            memcpy(p, s[j], keep < len ? keep : len);
            for (size_t k = keep; k < len; k++)
                p[k] = alphabet[rnd(sizeof alphabet)];
        } else {
            len = rnd((unsigned)maxlen + 1);
            p = malloc(len + 1);
            for (size_t k = 0; k < len; k++)
                p[k] = alphabet[rnd(sizeof alphabet)];
        }
        s[i] = p;
        lens[i] = (uint32_t)len;
    }
    *lens_out = lens;
    return s;
}

static void free_strings(char **s, uint32_t *lens, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
    free(lens);
}

static void check_sorted(const char *const *keys, const uint32_t *lens, const uint32_t *order,
                         size_t n)
{
    char *seen = calloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_lt(order[i], n);
        ck_assert_msg(!seen[order[i]], "index %u twice", order[i]);
        seen[order[i]] = 1;
        if (i > 0)
            ck_assert_msg(fs_strcmp_bytes(keys[order[i - 1]], lens[order[i - 1]], keys[order[i]],
                                          lens[order[i]]) <= 0,
                          "out of order at %zu", i);
    }
    free(seen);
}

/* fs_strsort of KEYS/LENS into ORDER, its shares checked against the bytes: each string's
 * with the one before, exactly. */
static foldsvg_status sort_strings(const char *const *keys, const uint32_t *lens, uint32_t *order,
                                   size_t n)
{
    uint32_t *lcp = malloc((n ? n : 1) * sizeof *lcp);
    foldsvg_status st = fs_strsort(keys, lens, order, lcp, n);
    for (size_t i = 0; st == FOLDSVG_OK && i < n; i++) {
        size_t want = 0;
        if (i > 0) {
            const char *x = keys[order[i - 1]], *y = keys[order[i]];
            size_t m = lens[order[i - 1]] < lens[order[i]] ? lens[order[i - 1]] : lens[order[i]];
            while (want < m && x[want] == y[want])
                want++;
        }
        ck_assert_msg(lcp[i] == want, "share %zu: %u, not %zu", i, lcp[i], want);
    }
    free(lcp);
    return st;
}

START_TEST(strsort_orders_bytes)
{
    static const size_t sizes[] = {0, 1, 2, 17, 200, 5000, 40000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        rng_state = 1000 + k;
        uint32_t *lens;
        char **s = random_strings(sizes[k], &lens, k % 2 ? 40 : 6);
        uint32_t *order = malloc((sizes[k] ? sizes[k] : 1) * sizeof *order);
        ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, sizes[k]), FOLDSVG_OK);
        check_sorted((const char *const *)s, lens, order, sizes[k]);
        free(order);
        free_strings(s, lens, sizes[k]);
    }
}
END_TEST

/* Long shared prefixes (the outer frames of deep stacks), strings that end inside the
 * shared part, and many equal strings. */
START_TEST(strsort_long_prefixes_and_equal_strings)
{
    enum { N = 3000, LEN = 1500 };
    char **s = calloc(N, sizeof *s);
    uint32_t *lens = calloc(N, sizeof *lens), *order = calloc(N, sizeof *order);
    rng_state = 7;
    for (size_t i = 0; i < N; i++) {
        size_t len = i % 10 == 0 ? 104 + rnd(LEN - 104) : LEN + rnd(40);
        s[i] = malloc(len + 1);
        for (size_t k = 0; k < len; k++)
            s[i][k] = k < LEN - 20 ? (char)('a' + k % 26) : (char)('a' + rnd(3));
        if (i % 7 == 0 && i > 0) { /* a copy of the one before */
            free(s[i]);
            s[i] = malloc(lens[i - 1] + 1);
            memcpy(s[i], s[i - 1], lens[i - 1]);
            len = lens[i - 1];
        }
        lens[i] = (uint32_t)len;
    }
    ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, N), FOLDSVG_OK);
    check_sorted((const char *const *)s, lens, order, N);
    /* one shared prefix, then a few random bytes right after it */
    for (size_t i = 0; i < N; i++) {
        lens[i] = 100 + rnd(4);
        for (size_t k = 100; k < lens[i]; k++)
            s[i][k] = (char)('a' + rnd(4));
    }
    ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, N), FOLDSVG_OK);
    check_sorted((const char *const *)s, lens, order, N);
    /* all equal */
    for (size_t i = 0; i < N; i++)
        lens[i] = 30;
    ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, N), FOLDSVG_OK);
    check_sorted((const char *const *)s, lens, order, N);
    free_strings(s, lens, N);
    free(order);
}
END_TEST

/* NO_MAP: the reader reads the file instead of mapping it. */
static void round_trip(int no_map)
{
    fs_runfile f;
    ck_assert_int_eq(fs_runfile_open(&f), FOLDSVG_OK);
    f.no_map = no_map;
    enum { BIG = 100000 };
    char *big = malloc(BIG);
    for (size_t i = 0; i < BIG; i++)
        big[i] = (char)('a' + i % 26);
    big[0] = 'z';
    struct {
        const char *s;
        size_t len;
        uint64_t count, before;
        int diff;
    } recs[] = {
        {"", 0, 1, 0, 0},
        {"a", 1, UINT64_MAX, 0, 0},
        {"a;b", 3, (1ULL << 53) + 1, 5, 1},
        {"a;b\0c", 5, 2, UINT64_MAX, 1},
        {"a;c", 3, 0, 3, 1},
        {"b", 1, 7, 0, 0},
        {big, BIG, 9, 0, 0},
        {big, BIG - 1, 9, 0, 0}, /* not in order: runs store what they are given */
    };
    size_t n = sizeof recs / sizeof recs[0];
    fs_run r1, r2;
    fs_run_begin(&f, &r1);
    for (size_t i = 0; i < n; i++) {
        size_t m = i ? (recs[i].len < recs[i - 1].len ? recs[i].len : recs[i - 1].len) : 0;
        size_t shared = i ? fs_mismatch(recs[i].s, recs[i - 1].s, m) : 0;
        ck_assert_int_eq(fs_run_put(&f, recs[i].s, recs[i].len, shared, recs[i].count,
                                    recs[i].before, recs[i].diff),
                         FOLDSVG_OK);
    }
    ck_assert_int_eq(fs_run_end(&f, &r1), FOLDSVG_OK);
    fs_run_begin(&f, &r2);
    ck_assert_int_eq(fs_run_put(&f, "x", 1, 0, 3, 0, 0), FOLDSVG_OK);
    ck_assert_int_eq(fs_run_end(&f, &r2), FOLDSVG_OK);
    /* the shared prefixes make the run smaller than the stacks */
    ck_assert_uint_lt(r1.len, 2 * BIG);
    fs_run_reader rd;
    ck_assert_int_eq(fs_run_reader_init(&rd, &f, r1, 64), FOLDSVG_OK);
    size_t in_place = 0;
    for (size_t i = 0; i < n; i++) {
        int done;
        ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
        ck_assert_int_eq(done, 0);
        /* the stack is STACK's bytes, then REST's (read where they lie) */
        ck_assert_uint_eq(rd.stack.len + rd.rest_len, recs[i].len);
        ck_assert(rd.stack.len == 0 || memcmp(rd.stack.data, recs[i].s, rd.stack.len) == 0);
        ck_assert(rd.rest_len == 0 || memcmp(rd.rest, recs[i].s + rd.stack.len, rd.rest_len) == 0);
        in_place += rd.rest_len > 0;
        if (i % 3 == 1) { /* made whole, which the next record must not mind */
            ck_assert_int_eq(fs_run_reader_whole(&rd), FOLDSVG_OK);
            ck_assert(rd.rest == NULL && rd.stack.len == recs[i].len);
            ck_assert(recs[i].len == 0 || memcmp(rd.stack.data, recs[i].s, recs[i].len) == 0);
        }
        ck_assert_uint_eq(rd.count, recs[i].count);
        ck_assert_uint_eq(rd.before, recs[i].diff ? recs[i].before : 0);
        ck_assert_int_eq(rd.is_diff, recs[i].diff);
    }
    /* mapped in windows of two pages (the least): the large records cross them */
    ck_assert(no_map ? rd.map == NULL && rd.buf != NULL : rd.map != NULL && rd.buf == NULL);
    ck_assert_uint_ge(in_place, 4);
    int done;
    ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
    ck_assert_int_eq(done, 1);
    fs_run_reader_free(&rd);
    ck_assert_int_eq(fs_run_reader_init(&rd, &f, r2, 1 << 20), FOLDSVG_OK);
    ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
    ck_assert(!done && rd.stack.len == 0 && rd.rest_len == 1 && rd.rest[0] == 'x' && rd.count == 3);
    ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
    ck_assert_int_eq(done, 1);
    fs_run_reader_free(&rd);
    free(big);
    fs_runfile_close(&f);
}

START_TEST(runs_round_trip)
{
    round_trip(0);
    round_trip(1);
}
END_TEST

/* Many records across windows of two pages: each is read in place where it lies in one with
 * the varints after it, else copied; the bytes in place are made whole before the window
 * moves (under ASan, a read of an unmapped window fails). */
START_TEST(runs_read_across_windows)
{
    enum { N = 6000 };
    rng_state = 99;
    uint32_t *lens;
    char **s = random_strings(N, &lens, 900);
    uint32_t *order = malloc(N * sizeof *order);
    ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, N), FOLDSVG_OK);
    for (int no_map = 0; no_map < 2; no_map++) {
        fs_runfile f;
        ck_assert_int_eq(fs_runfile_open(&f), FOLDSVG_OK);
        f.no_map = no_map;
        fs_run r;
        fs_run_begin(&f, &r);
        for (size_t i = 0; i < N; i++) {
            const char *x = s[order[i]];
            size_t len = lens[order[i]], shared = 0;
            if (i > 0) {
                size_t plen = lens[order[i - 1]];
                shared = fs_mismatch(x, s[order[i - 1]], len < plen ? len : plen);
            }
            ck_assert_int_eq(fs_run_put(&f, x, len, shared, i, 0, 0), FOLDSVG_OK);
        }
        ck_assert_int_eq(fs_run_end(&f, &r), FOLDSVG_OK);
        fs_run_reader rd;
        ck_assert_int_eq(fs_run_reader_init(&rd, &f, r, 0), FOLDSVG_OK);
        size_t in_place = 0, copied = 0;
        for (size_t i = 0; i < N; i++) {
            int done;
            ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
            ck_assert(!done && rd.count == i);
            const char *x = s[order[i]];
            ck_assert_uint_eq(rd.stack.len + rd.rest_len, lens[order[i]]);
            ck_assert(rd.stack.len == 0 || memcmp(rd.stack.data, x, rd.stack.len) == 0);
            ck_assert(rd.rest_len == 0 || memcmp(rd.rest, x + rd.stack.len, rd.rest_len) == 0);
            in_place += rd.rest != NULL;
            copied += rd.rest == NULL && rd.stack.len > rd.shared;
            if (rnd(50) == 0)
                ck_assert_int_eq(fs_run_reader_whole(&rd), FOLDSVG_OK);
        }
        int done;
        ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
        ck_assert_int_eq(done, 1);
        ck_assert_uint_gt(in_place, N / 2);
        ck_assert_uint_gt(copied, 10);
        fs_run_reader_free(&rd);
        fs_runfile_close(&f);
    }
    free(order);
    free_strings(s, lens, N);
}
END_TEST

/* The run file gets disk space ahead of its writes (util/reserve.h), in steps that double,
 * while its size stays that of the bytes written; a file the system cannot reserve for is
 * written as it comes. */
START_TEST(runs_reserve_space_ahead)
{
    fs_runfile f;
    ck_assert_int_eq(fs_runfile_open(&f), FOLDSVG_OK);
    ck_assert_uint_eq(f.reserved, 0);
    char stack[1000];
    memset(stack, 'a', sizeof stack);
    fs_run r;
    fs_run_begin(&f, &r);
    uint64_t n = 0;
    for (; f.size < (40u << 20); n++)
        ck_assert_int_eq(fs_run_put(&f, stack, sizeof stack, 0, n + 1, 0, 0), FOLDSVG_OK);
    ck_assert_int_eq(fs_run_end(&f, &r), FOLDSVG_OK);
    struct stat sb;
    ck_assert_int_eq(fstat(f.fd, &sb), 0);
    ck_assert_uint_eq((uint64_t)sb.st_size, f.size);
    if (!f.no_reserve) {
        /* 32 MiB, then that again: past the 40 MiB written, on the disk */
        ck_assert_uint_eq(f.reserved, (uint64_t)64 << 20);
        ck_assert_uint_ge((uint64_t)sb.st_blocks * 512, f.reserved);
    }
    fs_run_reader rd; /* the bytes written, not the space reserved, are read back */
    ck_assert_int_eq(fs_run_reader_init(&rd, &f, r, 0), FOLDSVG_OK);
    for (uint64_t i = 0;; i++) {
        int done;
        ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
        if (done) {
            ck_assert_uint_eq(i, n);
            break;
        }
        ck_assert_int_eq(fs_run_reader_whole(&rd), FOLDSVG_OK);
        ck_assert_uint_eq(rd.stack.len, sizeof stack);
        ck_assert(memcmp(rd.stack.data, stack, sizeof stack) == 0);
        ck_assert_uint_eq(rd.count, i + 1);
    }
    fs_run_reader_free(&rd);
    fs_runfile_close(&f);
    ck_assert_int_eq(fs_file_reserve(-1, 0, 4096), -1);
}
END_TEST

/* The stacks of RUN, read back (whole), are "NAME0", "NAME1"... with counts 1, 2... */
static void expect_run(const fs_runfile *f, fs_run run, const char *name, size_t n)
{
    fs_run_reader rd;
    ck_assert_int_eq(fs_run_reader_init(&rd, f, run, 0), FOLDSVG_OK);
    for (size_t i = 0; i < n; i++) {
        int done;
        ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
        ck_assert_int_eq(done, 0);
        ck_assert_int_eq(fs_run_reader_whole(&rd), FOLDSVG_OK);
        char want[32];
        snprintf(want, sizeof want, "%s%zu", name, i);
        ck_assert_uint_eq(rd.stack.len, strlen(want));
        ck_assert(memcmp(rd.stack.data, want, rd.stack.len) == 0);
        ck_assert_uint_eq(rd.count, i + 1);
    }
    int done;
    ck_assert_int_eq(fs_run_next(&rd, &done), FOLDSVG_OK);
    ck_assert_int_eq(done, 1);
    fs_run_reader_free(&rd);
}

/* A run dropped after part of it reached the file (the write buffer, 1 MiB, flushed): the
 * next run starts where it did, over its bytes (written at their offset), and the run before
 * is untouched; read mapped and read. */
START_TEST(a_discarded_run_leaves_no_trace)
{
    for (int no_map = 0; no_map < 2; no_map++) {
        fs_runfile f;
        ck_assert_int_eq(fs_runfile_open(&f), FOLDSVG_OK);
        f.no_map = no_map;
        fs_run a, b, c;
        fs_run_begin(&f, &a);
        for (size_t i = 0; i < 3; i++) {
            char s[32];
            int n = snprintf(s, sizeof s, "a%zu", i);
            ck_assert_int_eq(fs_run_put(&f, s, (size_t)n, i ? 1 : 0, i + 1, 0, 0), FOLDSVG_OK);
        }
        ck_assert_int_eq(fs_run_end(&f, &a), FOLDSVG_OK);
        fs_run_begin(&f, &b);
        char big[1000];
        memset(big, 'z', sizeof big);
        for (unsigned i = 0; i < 3000; i++) { /* 3 MB of distinct stacks, in order */
            snprintf(big, sizeof big, "b%07u", i);
            big[8] = 'z';
            ck_assert_int_eq(fs_run_put(&f, big, sizeof big, i ? 1 : 0, 1, 0, 0), FOLDSVG_OK);
        }
        ck_assert_uint_gt(f.size - b.off, f.buf_len); /* some of it is in the file */
        fs_run_discard(&f, &b);
        fs_run_begin(&f, &c);
        ck_assert_uint_eq(c.off, a.off + a.len);
        for (size_t i = 0; i < 5; i++) {
            char s[32];
            int n = snprintf(s, sizeof s, "c%zu", i);
            ck_assert_int_eq(fs_run_put(&f, s, (size_t)n, i ? 1 : 0, i + 1, 0, 0), FOLDSVG_OK);
        }
        ck_assert_int_eq(fs_run_end(&f, &c), FOLDSVG_OK);
        expect_run(&f, a, "a", 3);
        expect_run(&f, c, "c", 5);
        fs_runfile_close(&f);
    }
}
END_TEST

/* What the sorter emits, with equal neighbours summed. */
typedef struct agg {
    char **s;
    size_t *lens;
    uint64_t *count, *before;
    int *diff;
    size_t n, cap, emitted;
    size_t shared_known; /* emissions that came with their share */
    int fail_at;         /* > 0: return an error on that emission */
} agg;

static foldsvg_status collect(void *user, const char *stack, size_t len, size_t shared,
                              uint64_t count, uint64_t before, int is_diff)
{
    agg *a = user;
    a->emitted++;
    if (a->fail_at && a->emitted == (size_t)a->fail_at)
        return FOLDSVG_E_LIMIT;
    /* the merge's share with the stack emitted before (the last collected: equal ones were
     * summed into it) is exact, as the streaming merge takes it without a look */
    ck_assert_msg(a->n > 0 || shared == SIZE_MAX, "a share for the first stack");
    if (a->n > 0 && shared != SIZE_MAX) {
        const char *p = a->s[a->n - 1];
        size_t plen = a->lens[a->n - 1], m = len < plen ? len : plen, at = 0;
        while (at < m && p[at] == stack[at])
            at++;
        ck_assert_uint_eq(shared, at);
        a->shared_known++;
    }
    if (a->n > 0) {
        int c = fs_strcmp_bytes(a->s[a->n - 1], a->lens[a->n - 1], stack, len);
        ck_assert_msg(c <= 0, "emitted out of order");
        if (c == 0) {
            a->count[a->n - 1] += count;
            a->before[a->n - 1] += before;
            a->diff[a->n - 1] |= is_diff;
            return FOLDSVG_OK;
        }
    }
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        a->s = realloc(a->s, a->cap * sizeof *a->s);
        a->lens = realloc(a->lens, a->cap * sizeof *a->lens);
        a->count = realloc(a->count, a->cap * sizeof *a->count);
        a->before = realloc(a->before, a->cap * sizeof *a->before);
        a->diff = realloc(a->diff, a->cap * sizeof *a->diff);
    }
    a->s[a->n] = malloc(len + 1);
    memcpy(a->s[a->n], stack, len);
    a->lens[a->n] = len;
    a->count[a->n] = count;
    a->before[a->n] = before;
    a->diff[a->n] = is_diff;
    a->n++;
    return FOLDSVG_OK;
}

static void agg_free(agg *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->s[i]);
    free(a->s);
    free(a->lens);
    free(a->count);
    free(a->before);
    free(a->diff);
    memset(a, 0, sizeof *a);
}

/* Chunks the last check_sorter's input thread sorted itself; runs whose writing stopped. */
static size_t last_sorted_here, last_writes_stopped;
static int last_halves;

/* Two threads for the sorters' tasks; NULL: one (every task runs where it is waited for). */
static fs_pool *pool2;

/* Lines of random stacks, with repeats, in random order, through a sorter of BUDGET and
 * FANIN on POOL; the output must be the model's: the distinct stacks in order with summed
 * counts. */
static size_t check_sorter_on(unsigned seed, size_t nlines, size_t budget, unsigned fanin,
                              fs_pool *pool)
{
    rng_state = seed;
    uint32_t *lens;
    size_t ndistinct = nlines / 3 + 1;
    char **s = random_strings(ndistinct, &lens, 30);
    uint64_t *count = calloc(ndistinct, sizeof *count), *before = calloc(ndistinct, sizeof *before);
    int *diff = calloc(ndistinct, sizeof *diff), *used = calloc(ndistinct, sizeof *used);
    fs_sorter *so;
    ck_assert_int_eq(fs_sorter_new(&so, budget, fanin, pool), FOLDSVG_OK);
    for (size_t i = 0; i < nlines; i++) {
        size_t k = rnd((unsigned)ndistinct);
        uint64_t c = rnd(1000), b = rnd(50);
        int d = rnd(4) == 0;
        ck_assert_int_eq(fs_sorter_add(so, s[k], lens[k], c, b, d), FOLDSVG_OK);
        count[k] += c;
        before[k] += d ? b : 0;
        diff[k] |= d;
        used[k] = 1;
    }
    agg a = {0};
    ck_assert_int_eq(fs_sorter_finish(so, 0, collect, &a), FOLDSVG_OK);
    size_t runs = fs_sorter_runs(so);
    last_sorted_here = fs_sorter_sorted_here(so);
    last_writes_stopped = fs_sorter_writes_stopped(so);
    last_halves = fs_sorter_sorted_in_halves(so);
    ck_assert_int_eq(fs_sorter_file_open(so), runs > 0);
    fs_sorter_free(so);
    /* the model: the used strings, sorted, equal ones merged */
    uint32_t *order = malloc(ndistinct * sizeof *order);
    ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, ndistinct), FOLDSVG_OK);
    size_t j = 0;
    for (size_t i = 0; i < ndistinct; i++) {
        uint32_t k = order[i];
        if (!used[k])
            continue;
        ck_assert_uint_lt(j, a.n);
        ck_assert_uint_eq(a.lens[j], lens[k]);
        ck_assert(lens[k] == 0 || memcmp(a.s[j], s[k], lens[k]) == 0);
        /* equal strings at different indexes: sum the model too */
        uint64_t c = count[k], b = before[k];
        int d = diff[k];
        while (i + 1 < ndistinct && lens[order[i + 1]] == lens[k] &&
               memcmp(s[order[i + 1]], s[k], lens[k]) == 0) {
            i++;
            c += count[order[i]];
            b += before[order[i]];
            d |= diff[order[i]] && used[order[i]];
        }
        ck_assert_uint_eq(a.count[j], c);
        ck_assert_uint_eq(a.before[j], b);
        ck_assert_int_eq(a.diff[j], d);
        j++;
    }
    ck_assert_uint_eq(j, a.n);
    /* every stack after the first came with its share of the one before */
    ck_assert_uint_eq(a.shared_known, a.emitted > 0 ? a.emitted - 1 : 0);
    agg_free(&a);
    free(order);
    free(count);
    free(before);
    free(diff);
    free(used);
    free_strings(s, lens, ndistinct);
    return runs;
}

/* The same on one thread (where the last chunk's writing stops before it starts: it is
 * merged from memory) and on two. */
static size_t check_sorter(unsigned seed, size_t nlines, size_t budget, unsigned fanin)
{
    check_sorter_on(seed, nlines, budget, fanin, NULL);
    return check_sorter_on(seed, nlines, budget, fanin, pool2);
}

START_TEST(sorter_in_memory)
{
    ck_assert_uint_eq(check_sorter(1, 5000, 0, 0), 0);
    ck_assert_uint_eq(check_sorter(2, 0, 0, 0), 0);
    ck_assert_uint_eq(check_sorter(3, 1, 0, 0), 0);
}
END_TEST

/* A last chunk of many stacks, nothing spilled: sorted in two halves at once, merged as
 * two sources, the same order and sums (split or not). */
START_TEST(sorter_sorts_a_large_chunk_in_halves)
{
    ck_assert_uint_eq(check_sorter(8, 60000, 0, 0), 0);
    ck_assert_int_eq(last_halves, 1);
    ck_assert_uint_eq(check_sorter_on(9, 60000, 0, 0, NULL), 0); /* one thread: whole */
    ck_assert_int_eq(last_halves, 0);
    ck_assert_uint_eq(check_sorter(10, 5000, 0, 0), 0); /* too few to pay for a thread */
    ck_assert_int_eq(last_halves, 0);
    ck_assert_uint_gt(check_sorter(11, 60000, 65536, 0), 2); /* runs: the chunk whole */
    ck_assert_int_eq(last_halves, 0);
}
END_TEST

START_TEST(sorter_spills_and_merges)
{
    ck_assert_uint_gt(check_sorter(4, 5000, 4096, 0), 2);
    ck_assert_uint_gt(check_sorter(5, 20000, 20000, 0), 2);
}
END_TEST

START_TEST(sorter_merges_in_rounds)
{
    /* more runs than the fan-in: merged a few at a time, more than one round */
    ck_assert_uint_gt(check_sorter(6, 5000, 1024, 2), 8);
    ck_assert_uint_gt(check_sorter(7, 5000, 1024, 3), 8);
}
END_TEST

/* The sorter's output with a cut: each stack as it came, with its share. */
typedef struct cut_items {
    char **s;
    size_t *len, *shared;
    uint64_t *count;
    int *diff;
    size_t n, cap;
} cut_items;

static foldsvg_status collect_cut(void *user, const char *stack, size_t len, size_t shared,
                                  uint64_t count, uint64_t before, int is_diff)
{
    (void)before;
    cut_items *c = user;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        c->s = realloc(c->s, c->cap * sizeof *c->s);
        c->len = realloc(c->len, c->cap * sizeof *c->len);
        c->shared = realloc(c->shared, c->cap * sizeof *c->shared);
        c->count = realloc(c->count, c->cap * sizeof *c->count);
        c->diff = realloc(c->diff, c->cap * sizeof *c->diff);
    }
    size_t i = c->n++;
    c->s[i] = malloc(len + 1);
    memcpy(c->s[i], stack, len);
    c->len[i] = len;
    c->shared[i] = shared;
    c->count[i] = count;
    c->diff[i] = is_diff;
    return FOLDSVG_OK;
}

/* The sorter's output with CUT_BELOW: a stack of a smaller count, not differential, comes
 * only up to one byte past where it differs from both neighbours; every other comes whole;
 * and all of them, summed, are still the model's stacks and counts. Returns the cut ones. */
static size_t check_cuts(unsigned seed, size_t nlines, size_t budget, unsigned fanin)
{
    enum { CUT_BELOW = 500 };
    rng_state = seed;
    uint32_t *lens;
    size_t ndistinct = nlines / 3 + 1;
    char **s = random_strings(ndistinct, &lens, 60);
    uint64_t *count = calloc(ndistinct, sizeof *count);
    int *diff = calloc(ndistinct, sizeof *diff), *used = calloc(ndistinct, sizeof *used);
    fs_sorter *so;
    ck_assert_int_eq(fs_sorter_new(&so, budget, fanin, pool2), FOLDSVG_OK);
    for (size_t i = 0; i < nlines; i++) {
        size_t k = rnd((unsigned)ndistinct);
        uint64_t cnt = rnd(1000);
        int d = rnd(8) == 0;
        ck_assert_int_eq(fs_sorter_add(so, s[k], lens[k], cnt, 1, d), FOLDSVG_OK);
        count[k] += cnt;
        diff[k] |= d;
        used[k] = 1;
    }
    cut_items c = {0};
    ck_assert_int_eq(fs_sorter_finish(so, CUT_BELOW, collect_cut, &c), FOLDSVG_OK);
    fs_sorter_free(so);
    uint32_t *order = malloc(ndistinct * sizeof *order);
    ck_assert_int_eq(sort_strings((const char *const *)s, lens, order, ndistinct), FOLDSVG_OK);
    /* the model's stacks in order, equal ones once */
    size_t nm = 0;
    for (size_t i = 0; i < ndistinct; i++) {
        uint32_t k = order[i];
        if (!used[k])
            continue;
        if (nm > 0 && lens[order[nm - 1]] == lens[k] &&
            memcmp(s[order[nm - 1]], s[k], lens[k]) == 0) {
            count[order[nm - 1]] += count[k];
            diff[order[nm - 1]] |= diff[k];
            continue;
        }
        order[nm++] = k;
    }
    size_t j = 0, cuts = 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < c.n; i++) {
        /* the item is the model's stack J, or a proper prefix of it; else J is done */
        for (;;) {
            ck_assert_uint_lt(j, nm);
            size_t ml = lens[order[j]];
            if (c.len[i] <= ml && memcmp(c.s[i], s[order[j]], c.len[i]) == 0)
                break;
            ck_assert_uint_eq(sum, count[order[j]]);
            sum = 0;
            j++;
        }
        sum += c.count[i];
        size_t ml = lens[order[j]];
        if (c.len[i] < ml) {
            /* cut: narrow, not differential, one byte past its shares with both neighbours */
            ck_assert_uint_lt(c.count[i], CUT_BELOW);
            ck_assert_int_eq(c.diff[i], 0);
            size_t before = c.shared[i] == SIZE_MAX ? 0 : c.shared[i], after = 0;
            if (j + 1 < nm) {
                const char *x = s[order[j]], *y = s[order[j + 1]];
                size_t m = ml < lens[order[j + 1]] ? ml : lens[order[j + 1]];
                while (after < m && x[after] == y[after])
                    after++;
            }
            ck_assert_uint_eq(c.len[i], (before > after ? before : after) + 1);
            cuts++;
        }
        free(c.s[i]);
    }
    ck_assert_uint_eq(j, nm ? nm - 1 : 0);
    if (nm)
        ck_assert_uint_eq(sum, count[order[j]]);
    free(c.s);
    free(c.len);
    free(c.shared);
    free(c.count);
    free(c.diff);
    free(order);
    free(count);
    free(diff);
    free(used);
    free_strings(s, lens, ndistinct);
    return cuts;
}

START_TEST(sorter_cuts_stacks_of_small_counts)
{
    ck_assert_uint_gt(check_cuts(21, 3000, 0, 0), 20);    /* in memory, on this thread */
    ck_assert_uint_gt(check_cuts(22, 5000, 4096, 0), 20); /* runs, merged on a thread */
    ck_assert_uint_gt(check_cuts(23, 5000, 1024, 2), 20); /* in rounds first */
    ck_assert_uint_eq(check_cuts(24, 1, 0, 0), 0);
}
END_TEST

/* D stacks of 200 bytes, each added TIMES times in random order (DISTINCT: each once), to a
 * sorter of 64 KiB chunks; the output must be every stack once, in order, with its summed
 * count. Returns the chunks spilled: runs written, or begun and merged from memory when the
 * input ended. */
static size_t repeated_into_sorter(size_t d, unsigned times, unsigned seed)
{
    rng_state = seed;
    size_t n = d * times;
    size_t *line = malloc(n * sizeof *line);
    for (size_t i = 0; i < n; i++)
        line[i] = i % d;
    for (size_t i = n; i > 1; i--) {
        size_t j = rnd((unsigned)i), t = line[i - 1];
        line[i - 1] = line[j];
        line[j] = t;
    }
    fs_sorter *so;
    ck_assert_int_eq(fs_sorter_new(&so, 64 << 10, 0, pool2), FOLDSVG_OK);
    char stack[200];
    memset(stack, 'x', sizeof stack);
    for (size_t i = 0; i < n; i++) {
        snprintf(stack, sizeof stack, "main;stack-%06zu", line[i]);
        stack[strlen(stack)] = ';'; /* the rest stays x */
        ck_assert_int_eq(fs_sorter_add(so, stack, sizeof stack, line[i] + 1, 0, 0), FOLDSVG_OK);
    }
    agg a = {0};
    ck_assert_int_eq(fs_sorter_finish(so, 0, collect, &a), FOLDSVG_OK);
    size_t spilled = fs_sorter_runs(so) + fs_sorter_writes_stopped(so);
    fs_sorter_free(so);
    ck_assert_uint_eq(a.n, d);
    for (size_t k = 0; k < d; k++) {
        snprintf(stack, sizeof stack, "main;stack-%06zu;", k);
        ck_assert(memcmp(a.s[k], stack, strlen(stack)) == 0);
        ck_assert_uint_eq(a.count[k], (uint64_t)times * (k + 1));
    }
    agg_free(&a);
    free(line);
    return spilled;
}

/* A first chunk whose lines repeat its stacks holds both chunks' budget: an input whose
 * distinct stacks fit there is never spilled, where whole chunks of them would be spilled
 * again and again; one whose stacks are all distinct spills as before, and one that repeats
 * but does not fit spills the big chunk and goes on with two. */
START_TEST(sorter_holds_repeating_stacks_whole)
{
    /* a chunk of 64 KiB takes about 155 of these stacks */
    ck_assert_uint_eq(repeated_into_sorter(240, 3, 71), 0);  /* 1.5 chunks */
    ck_assert_uint_gt(repeated_into_sorter(720, 1, 72), 2);  /* as many lines, all distinct */
    ck_assert_uint_gt(repeated_into_sorter(1500, 3, 73), 1); /* 10 chunks */
}
END_TEST

/* Chunks of a few stacks fill in far less time than the worker takes to sort and write one
 * (a write call each): the input's thread sorts its own meanwhile and hands it over sorted.
 * The worker's timing decides how often, so many chunks are tried. */
START_TEST(sorter_sorts_while_the_worker_writes)
{
    size_t here = 0;
    for (unsigned i = 0; i < 5 && here == 0; i++) {
        ck_assert_uint_gt(check_sorter(300 + i, 20000, 1024, 0), 100);
        here += last_sorted_here;
    }
    ck_assert_uint_gt(here, 0);
}
END_TEST

/* When the input ends while the worker sorts or writes a chunk, it stops (a run being
 * written is dropped) and the chunk is merged from memory: the output is still every stack
 * once, the runs of merge rounds after it where the dropped one began. Thread timing
 * decides when it happens: tried until it does, with and without rounds. */
START_TEST(sorter_stops_writing_when_the_input_ends)
{
    size_t stopped = 0;
    for (unsigned i = 0; i < 200 && stopped < 2; i++) {
        check_sorter(400 + i, 3000 + 37 * i, 8192, i % 2 ? 2 : 0);
        stopped += last_writes_stopped;
    }
    ck_assert_uint_gt(stopped, 0);
}
END_TEST

/* When the input ends while the worker still sorts the chunk before the last, both chunks
 * stay in memory and join the final merge: the rounds must leave room for them and never
 * take more runs than are left (a fuzzer find: spilled stacks were silently dropped). The
 * case depends on thread timing, so it is tried many times, with the fan-in at its least. */
START_TEST(sorter_rounds_beside_two_chunks)
{
    for (unsigned i = 0; i < 40; i++) {
        ck_assert_uint_gt(check_sorter(100 + i, 1200, 2048, 2), 2);
        ck_assert_uint_gt(check_sorter(200 + i, 1200, 2048, 3), 2);
    }
}
END_TEST

START_TEST(sorter_overflow)
{
    fs_sorter *so;
    ck_assert_int_eq(fs_sorter_new(&so, 0, 0, pool2), FOLDSVG_OK);
    ck_assert_int_eq(fs_sorter_add(so, "a", 1, UINT64_MAX, 0, 0), FOLDSVG_OK);
    ck_assert_int_eq(fs_sorter_add(so, "a", 1, 1, 0, 0), FOLDSVG_E_OVERFLOW);
    ck_assert_int_eq(fs_sorter_add(so, "b", 1, 1, UINT64_MAX, 1), FOLDSVG_OK);
    ck_assert_int_eq(fs_sorter_add(so, "b", 1, 1, 1, 1), FOLDSVG_E_OVERFLOW);
    agg a = {0};
    ck_assert_int_eq(fs_sorter_finish(so, 0, collect, &a), FOLDSVG_OK);
    ck_assert_uint_eq(a.n, 2);
    ck_assert_uint_eq(a.count[0], UINT64_MAX); /* the refused addition left no trace */
    ck_assert_uint_eq(a.count[1], 1);
    agg_free(&a);
    fs_sorter_free(so);
}
END_TEST

/* A sorter told to stop before it spills says so when its chunk fills; emptied, it holds
 * nothing of before and takes stacks anew (and spills then); one that spilled cannot be. */
START_TEST(sorter_stops_before_spilling_and_resets)
{
    fs_sorter *so;
    char name[64];
    ck_assert_int_eq(fs_sorter_new(&so, 1 << 20, 0, pool2), FOLDSVG_OK);
    fs_sorter_stop_before_spill(so, 1);
    foldsvg_status st = FOLDSVG_OK;
    int i;
    for (i = 0; i < 100000 && st == FOLDSVG_OK; i++) {
        int n = snprintf(name, sizeof name, "old;stack;%d", i);
        st = fs_sorter_add(so, name, (size_t)n, 1, 0, 0);
    }
    ck_assert_int_eq(st, FS_STOP);
    /* all distinct: stopped at a quarter of the budget, long before its end */
    ck_assert_int_ge(i, 1024);
    ck_assert_int_lt(i, 8000);
    ck_assert_uint_eq(fs_sorter_runs(so), 0);
    ck_assert_int_eq(fs_sorter_reset(so), FOLDSVG_OK);
    for (i = 0; i < 40000; i++) { /* past the budget: it spills now */
        int n = snprintf(name, sizeof name, "new;%05d", 39999 - i);
        ck_assert_int_eq(fs_sorter_add(so, name, (size_t)n, 2, 0, 0), FOLDSVG_OK);
    }
    ck_assert_uint_gt(fs_sorter_runs(so), 0);
    agg a = {0};
    ck_assert_int_eq(fs_sorter_finish(so, 0, collect, &a), FOLDSVG_OK);
    ck_assert_uint_eq(a.n, 40000);
    for (size_t k = 0; k < a.n; k++) {
        int n = snprintf(name, sizeof name, "new;%05zu", k);
        ck_assert_uint_eq(a.lens[k], (size_t)n);
        ck_assert(memcmp(a.s[k], name, (size_t)n) == 0);
        ck_assert_uint_eq(a.count[k], 2);
    }
    agg_free(&a);
    fs_sorter_free(so);

    ck_assert_int_eq(fs_sorter_new(&so, 4096, 0, pool2), FOLDSVG_OK);
    for (i = 0; i < 3000; i++) {
        int n = snprintf(name, sizeof name, "spilled;%d", i);
        ck_assert_int_eq(fs_sorter_add(so, name, (size_t)n, 1, 0, 0), FOLDSVG_OK);
    }
    ck_assert_int_eq(fs_sorter_reset(so), FOLDSVG_E_ARG);
    fs_sorter_free(so);

    /* stacks that repeat (each twice, mixed): the quarter says nothing, the full chunk stops */
    ck_assert_int_eq(fs_sorter_new(&so, 1 << 20, 0, pool2), FOLDSVG_OK);
    fs_sorter_stop_before_spill(so, 1);
    st = FOLDSVG_OK;
    for (i = 0; i < 100000 && st == FOLDSVG_OK; i++) {
        int n = snprintf(name, sizeof name, "again;%d", i % 2 ? i / 2 : i / 2 + 3);
        st = fs_sorter_add(so, name, (size_t)n, 1, 0, 0);
    }
    ck_assert_int_eq(st, FS_STOP);
    ck_assert_int_gt(i, 16000);
    fs_sorter_free(so);
}
END_TEST

/* What a cut could save: the bytes past the frame where each stack first differs from both
 * of its neighbours; nothing for stacks that differ only in their last frame. */
START_TEST(sorter_says_what_a_cut_saves)
{
    fs_sorter *so;
    char name[64];
    ck_assert_int_eq(fs_sorter_new(&so, 0, 0, pool2), FOLDSVG_OK);
    ck_assert_uint_eq(fs_sorter_savable(so), 0);
    for (int i = 0; i < 100; i++) {
        int n = snprintf(name, sizeof name, "main;run;leaf%03d", i);
        ck_assert_int_eq(fs_sorter_add(so, name, (size_t)n, 1, 0, 0), FOLDSVG_OK);
    }
    ck_assert_uint_eq(fs_sorter_savable(so), 0);
    fs_sorter_free(so);
    ck_assert_int_eq(fs_sorter_new(&so, 0, 0, pool2), FOLDSVG_OK);
    for (int i = 0; i < 100; i++) {
        int n = snprintf(name, sizeof name, "main;f%03d;tail;more", 99 - i);
        ck_assert_int_eq(fs_sorter_add(so, name, (size_t)n, 1, 0, 0), FOLDSVG_OK);
    }
    ck_assert_uint_eq(fs_sorter_savable(so), sizeof "tail;more" - 1);
    agg a = {0}; /* the chunk is sorted again, whole, at the end */
    ck_assert_int_eq(fs_sorter_finish(so, 0, collect, &a), FOLDSVG_OK);
    ck_assert_uint_eq(a.n, 100);
    agg_free(&a);
    fs_sorter_free(so);
}
END_TEST

/* No temporary file: a spill fails with FOLDSVG_E_IO, from an addition or from the end
 * (the worker thread's failure surfaces at the next hand-over). */
START_TEST(sorter_without_temporary_files)
{
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TMPDIR", "/nonexistent/foldsvg-test", 1);
    fs_sorter *so;
    ck_assert_int_eq(fs_sorter_new(&so, 1024, 0, pool2), FOLDSVG_OK);
    foldsvg_status st = FOLDSVG_OK;
    char buf[64];
    for (int i = 0; i < 2000 && st == FOLDSVG_OK; i++) {
        int n = snprintf(buf, sizeof buf, "main;f%d;g%d", i * 7919 % 2000, i);
        st = fs_sorter_add(so, buf, (size_t)n, 1, 0, 0);
    }
    agg a = {0};
    if (st == FOLDSVG_OK)
        st = fs_sorter_finish(so, 0, collect, &a);
    ck_assert_int_eq(st, FOLDSVG_E_IO);
    agg_free(&a);
    fs_sorter_free(so);
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
}
END_TEST

/* The consumer's failure stops the merge behind the relay and is what finish returns. */
START_TEST(sorter_stops_on_consumer_failure)
{
    fs_sorter *so;
    ck_assert_int_eq(fs_sorter_new(&so, 2048, 0, pool2), FOLDSVG_OK);
    char buf[64];
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(buf, sizeof buf, "main;f%d;g%d", i * 7919 % 20000, i);
        ck_assert_int_eq(fs_sorter_add(so, buf, (size_t)n, 1, 0, 0), FOLDSVG_OK);
    }
    ck_assert_uint_gt(fs_sorter_runs(so), 1);
    agg a = {0};
    a.fail_at = 12345;
    ck_assert_int_eq(fs_sorter_finish(so, 0, collect, &a), FOLDSVG_E_LIMIT);
    ck_assert_uint_eq(a.emitted, 12345);
    agg_free(&a);
    fs_sorter_free(so);
}
END_TEST

typedef struct prod {
    size_t n, fail_after;
    size_t big_at; /* this one is 4 MiB, larger than a batch */
} prod;

static foldsvg_status produce(void *user, fs_sorted_fn emit, void *emit_user)
{
    const prod *p = user;
    char *big = calloc(1, 1 << 22);
    foldsvg_status st = big ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    char buf[32];
    for (size_t i = 0; st == FOLDSVG_OK && i < p->n; i++) {
        if (p->fail_after && i == p->fail_after) {
            st = FOLDSVG_E_IO;
            break;
        }
        if (i == p->big_at) {
            memcpy(big, "big", 3);
            st = emit(emit_user, big, 1 << 22, SIZE_MAX, i, 0, 0);
        } else {
            int len = snprintf(buf, sizeof buf, "%zu", i);
            st = emit(emit_user, buf, (size_t)(i % 5 == 0 ? 0 : len), SIZE_MAX, i, i * 2,
                      (int)(i & 1));
        }
    }
    free(big);
    return st;
}

typedef struct cons {
    size_t seen, fail_at, big_at;
} cons;

static foldsvg_status consume(void *user, const char *stack, size_t len, size_t shared,
                              uint64_t count, uint64_t before, int is_diff)
{
    (void)shared;
    cons *c = user;
    size_t i = c->seen++;
    if (c->fail_at && i == c->fail_at)
        return FOLDSVG_E_LIMIT;
    ck_assert_uint_eq(count, i);
    if (i == c->big_at) {
        ck_assert_uint_eq(len, 1 << 22);
        ck_assert(memcmp(stack, "big", 3) == 0);
        return FOLDSVG_OK;
    }
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%zu", i);
    ck_assert_uint_eq(len, (size_t)(i % 5 == 0 ? 0 : n));
    ck_assert(len == 0 || memcmp(stack, buf, len) == 0);
    ck_assert_uint_eq(before, i * 2);
    ck_assert_int_eq(is_diff, (int)(i & 1));
    return FOLDSVG_OK;
}

/* On a worker (the ring bounded) and on the consumer's thread (a pool of one: the producer
 * runs first, everything it emits kept): the same sequence. */
START_TEST(relay_passes_everything_in_order)
{
    fs_pool *pools[] = {pool2, NULL};
    for (int k = 0; k < 2; k++) {
        prod p = {300000, 0, 150000};
        cons c = {0, 0, 150000};
        ck_assert_int_eq(fs_relay_run(pools[k], produce, &p, consume, &c), FOLDSVG_OK);
        ck_assert_uint_eq(c.seen, p.n);
        prod none = {0, 0, 1};
        cons c0 = {0, 0, 1};
        ck_assert_int_eq(fs_relay_run(pools[k], produce, &none, consume, &c0), FOLDSVG_OK);
        ck_assert_uint_eq(c0.seen, 0);
    }
}
END_TEST

START_TEST(relay_failures)
{
    fs_pool *pools[] = {pool2, NULL};
    for (int k = 0; k < 2; k++) {
        prod p = {300000, 0, 1};
        cons c = {0, 1000, 1};
        ck_assert_int_eq(fs_relay_run(pools[k], produce, &p, consume, &c), FOLDSVG_E_LIMIT);
        ck_assert_uint_eq(c.seen, 1001);
        prod pf = {300000, 200000, 1};
        cons cf = {0, 0, 1};
        ck_assert_int_eq(fs_relay_run(pools[k], produce, &pf, consume, &cf), FOLDSVG_E_IO);
        ck_assert_uint_le(cf.seen, 200000);
    }
}
END_TEST

int main(void)
{
    pool2 = fs_pool_new(2);
    Suite *s = suite_create("sorter");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, strsort_orders_bytes);
    tcase_add_test(tc, strsort_long_prefixes_and_equal_strings);
    tcase_add_test(tc, runs_round_trip);
    tcase_add_test(tc, runs_read_across_windows);
    tcase_add_test(tc, runs_reserve_space_ahead);
    tcase_add_test(tc, a_discarded_run_leaves_no_trace);
    tcase_add_test(tc, sorter_in_memory);
    tcase_add_test(tc, sorter_sorts_a_large_chunk_in_halves);
    tcase_add_test(tc, sorter_spills_and_merges);
    tcase_add_test(tc, sorter_merges_in_rounds);
    tcase_add_test(tc, sorter_rounds_beside_two_chunks);
    tcase_add_test(tc, sorter_cuts_stacks_of_small_counts);
    tcase_add_test(tc, sorter_sorts_while_the_worker_writes);
    tcase_add_test(tc, sorter_holds_repeating_stacks_whole);
    tcase_add_test(tc, sorter_stops_writing_when_the_input_ends);
    tcase_add_test(tc, sorter_overflow);
    tcase_add_test(tc, sorter_without_temporary_files);
    tcase_add_test(tc, sorter_stops_before_spilling_and_resets);
    tcase_add_test(tc, sorter_says_what_a_cut_saves);
    tcase_add_test(tc, sorter_stops_on_consumer_failure);
    tcase_add_test(tc, relay_passes_everything_in_order);
    tcase_add_test(tc, relay_failures);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
