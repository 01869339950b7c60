/* The sketch that bounds every frame's total (aggregate/sketch.h): a stack is only ever cut past
 * a frame whose exact total is below the limit, whatever the table's size (small tables
 * make prefixes share counters), the counts (saturation) or the names (short ones, empty
 * ones, long ones that differ only inside); with room for every prefix it cuts at the first
 * such frame. Every stack lies in an allocation of its own size, so that ASan sees any read
 * past it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/sketch.h"
#include "testutil.h"
#include "util/strmap.h"

static unsigned long long rng_state;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33) % n;
}

typedef struct stacks {
    char **s;
    size_t *len;
    uint64_t *count;
    size_t n;
    fs_strmap prefixes; /* every prefix that ends a frame, and the whole stacks */
    uint64_t *total;    /* by prefix entry */
} stacks;

/* Names: empty, a byte, short ones, and long ones alike but for a byte in their middle
 * (the words the sketch hashes of a frame do not cover every byte of a long one). */
static size_t random_name(char *out)
{
    static const char *const names[] = {"",  "a",        "b",           "main",
                                        "x", "run_task", "java/lang/T", "std::vector<int>::push"};
    if (rnd(3) == 0) {
        size_t len = 24 + rnd(40);
        memset(out, 'n', len);
        out[len / 2] = (char)('a' + rnd(6));
        return len;
    }
    const char *n = names[rnd(sizeof names / sizeof *names)];
    memcpy(out, n, strlen(n));
    return strlen(n);
}

static void add_total(stacks *t, const char *p, size_t len, uint64_t count)
{
    uint32_t e;
    int added;
    ck_assert_int_eq(fs_strmap_put(&t->prefixes, p, len, 0, &e, &added), FOLDSVG_OK);
    t->total = realloc(t->total, (fs_strmap_size(&t->prefixes) + 1) * sizeof *t->total);
    ck_assert_ptr_nonnull(t->total);
    if (added)
        t->total[e] = 0;
    t->total[e] = t->total[e] > UINT64_MAX - count ? UINT64_MAX : t->total[e] + count;
}

static uint64_t total_of(const stacks *t, const char *p, size_t len)
{
    uint32_t e = fs_strmap_find(&t->prefixes, p, len);
    ck_assert_uint_ne(e, FS_STRMAP_NONE);
    return t->total[e];
}

/* N stacks of up to 12 frames, half of them extending an earlier one's first frames, with
 * counts from 1 to MAXCOUNT (some repeated whole), and the exact total of every prefix. */
static void make_stacks(stacks *t, size_t n, uint64_t maxcount)
{
    memset(t, 0, sizeof *t);
    t->s = calloc(n, sizeof *t->s);
    t->len = calloc(n, sizeof *t->len);
    t->count = calloc(n, sizeof *t->count);
    ck_assert(t->s && t->len && t->count);
    t->n = n;
    fs_strmap_init(&t->prefixes, FS_STRMAP_OWNED);
    char buf[12 * 65];
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        if (i > 0 && rnd(2) == 0) { /* an earlier stack's first frames, then others */
            size_t j = rnd((unsigned)i), keep = 0, frames = 1 + rnd(6);
            while (keep < t->len[j] && frames > 0)
                if (t->s[j][keep++] == ';')
                    frames--;
            memcpy(buf, t->s[j], keep);
            len = keep;
            if (len > 0 && buf[len - 1] != ';' && len < t->len[j])
                buf[len++] = ';';
            if (len > 0 && buf[len - 1] != ';')
                buf[len++] = ';';
        }
        for (unsigned f = 0, nf = 1 + rnd(6); f < nf; f++) {
            len += random_name(buf + len);
            if (f + 1 < nf)
                buf[len++] = ';';
        }
        t->s[i] = malloc(len ? len : 1);
        ck_assert_ptr_nonnull(t->s[i]);
        memcpy(t->s[i], buf, len);
        t->len[i] = len;
        t->count[i] = maxcount == 1 ? 1 : 1 + (uint64_t)rnd(1000) * (maxcount / 1000);
        for (size_t k = 0; k < len; k++)
            if (buf[k] == ';')
                add_total(t, buf, k, t->count[i]);
        add_total(t, buf, len, t->count[i]);
    }
}

static void free_stacks(stacks *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->len);
    free(t->count);
    free(t->total);
    fs_strmap_free(&t->prefixes);
}

/* Every cut is at a frame's end, past a frame whose exact total is below BELOW; with EXACT,
 * no frame before it is below BELOW either. Returns the stacks cut. */
static size_t check_cuts(const stacks *t, const fs_sketch *k, uint64_t below, int exact)
{
    size_t cut = 0;
    for (size_t i = 0; i < t->n; i++) {
        size_t len = t->len[i], at = fs_sketch_cut(k, t->s[i], len, below);
        ck_assert_uint_le(at, len);
        if (at < len) {
            cut++;
            ck_assert_int_eq(t->s[i][at - 1], ';');
            ck_assert_msg(total_of(t, t->s[i], at - 1) < below,
                          "stack %zu cut past a frame of total %llu (limit %llu)", i,
                          (unsigned long long)total_of(t, t->s[i], at - 1),
                          (unsigned long long)below);
        }
        if (!exact)
            continue;
        /* the frames before the cut (which may be through a ';' that ends the stack) */
        for (size_t e = 0; e + 1 < at; e++)
            if (t->s[i][e] == ';')
                ck_assert_uint_ge(total_of(t, t->s[i], e), below);
    }
    return cut;
}

/* A sketch *K of 2^BITS counters of T's stacks; with PARTS > 1, every PARTS-th stack goes
 * into a second sketch, joined into *K at the end (as the two threads' sketches are). */
static void sketch_of(fs_sketch *k, unsigned bits, const stacks *t, unsigned parts)
{
    fs_sketch other;
    ck_assert_int_eq(fs_sketch_init(k, bits), FOLDSVG_OK);
    ck_assert_int_eq(fs_sketch_init(&other, bits), FOLDSVG_OK);
    for (size_t i = 0; i < t->n; i++)
        fs_sketch_add(parts > 1 && i % parts == 0 ? &other : k, t->s[i], t->len[i], t->count[i]);
    fs_sketch_join(k, &other);
    fs_sketch_free(&other);
}

/* check_cuts for each limit from LO on, times MUL, up to HI: the stacks cut in all. */
static size_t cuts_up_to(const stacks *t, const fs_sketch *k, uint64_t lo, uint64_t hi,
                         uint64_t mul, int exact)
{
    size_t cut = 0;
    for (uint64_t below = lo; below <= hi; below *= mul)
        cut += check_cuts(t, k, below, exact);
    return cut;
}

START_TEST(sketch_cuts_only_narrow_frames)
{
    /* tables from 2^2 counters (every prefix shares with hundreds) to 2^20 */
    static const unsigned bits[] = {2, 6, 10, 14, 20};
    rng_state = 1234 + (unsigned long long)_i;
    stacks t;
    make_stacks(&t, 4000, 1);
    fs_sketch k;
    sketch_of(&k, bits[_i], &t, 1);
    size_t cut_some = cuts_up_to(&t, &k, 1, 4096, 4, 0);
    if (bits[_i] >= 14)
        ck_assert_uint_gt(cut_some, 0); /* a table with room cuts something */
    fs_sketch_free(&k);
    free_stacks(&t);
}
END_TEST

START_TEST(sketch_with_room_cuts_at_the_first_narrow_frame)
{
    rng_state = 99;
    stacks t;
    make_stacks(&t, 300, 1);
    fs_sketch k;
    sketch_of(&k, 24, &t, 1);
    ck_assert_uint_gt(cuts_up_to(&t, &k, 2, 64, 2, 1), 0);
    fs_sketch_free(&k);
    free_stacks(&t);
}
END_TEST

/* Two halves sketched apart and joined bound the whole, as the two threads' sketches do. */
START_TEST(sketch_join_bounds_both_halves)
{
    rng_state = 7;
    stacks t;
    make_stacks(&t, 3000, 1);
    fs_sketch k;
    sketch_of(&k, 12, &t, 2);
    ck_assert_uint_gt(cuts_up_to(&t, &k, 2, 1024, 2, 0), 0);
    fs_sketch_free(&k);
    free_stacks(&t);
}
END_TEST

/* Counts past what a counter holds: a counter that saturates bounds nothing, and nothing
 * wraps, alone or joined. */
START_TEST(sketch_saturates)
{
    rng_state = 5;
    stacks t;
    make_stacks(&t, 2000, (uint64_t)1 << 40);
    fs_sketch k;
    sketch_of(&k, 16, &t, 3);
    check_cuts(&t, &k, (uint64_t)1 << 33, 0);
    check_cuts(&t, &k, (uint64_t)1 << 45, 0);
    check_cuts(&t, &k, UINT64_MAX, 0);

    /* the largest counts: every prefix's total is past any limit */
    fs_sketch big;
    ck_assert_int_eq(fs_sketch_init(&big, 8), FOLDSVG_OK);
    const char s[] = "a;b;c";
    fs_sketch_add(&big, s, 5, UINT64_MAX);
    fs_sketch_add(&big, s, 5, UINT64_MAX);
    ck_assert_uint_eq(fs_sketch_cut(&big, s, 5, UINT64_MAX), 5);
    fs_sketch_add(&big, "a;d", 3, UINT32_MAX - 1);
    ck_assert_uint_eq(fs_sketch_cut(&big, "a;d;e", 5, (uint64_t)UINT32_MAX + 5), 4);
    fs_sketch_add(&big, "a;d", 3, UINT32_MAX - 1); /* its counter saturates: no bound */
    ck_assert_uint_eq(fs_sketch_cut(&big, "a;d;e", 5, (uint64_t)UINT32_MAX + 5), 5);
    fs_sketch_free(&big);
    fs_sketch_free(&k);
    free_stacks(&t);
}
END_TEST

/* A stack that is a single frame, or empty, is never cut; nor is a stack's last frame
 * (the cut would be its whole length anyway). */
START_TEST(sketch_short_stacks)
{
    fs_sketch k;
    ck_assert_int_eq(fs_sketch_init(&k, 10), FOLDSVG_OK);
    fs_sketch_add(&k, "", 0, 3);
    fs_sketch_add(&k, "a", 1, 3);
    fs_sketch_add(&k, "a;", 2, 1);
    ck_assert_uint_eq(fs_sketch_cut(&k, "", 0, 100), 0);
    ck_assert_uint_eq(fs_sketch_cut(&k, "a", 1, 100), 1);
    /* "a" (4 in all) is below 5: cut through its ';' */
    ck_assert_uint_eq(fs_sketch_cut(&k, "a;", 2, 5), 2);
    ck_assert_uint_eq(fs_sketch_cut(&k, "a;x;y", 5, 5), 2);
    /* "a" is not below 4, "a;x" (never added) is */
    ck_assert_uint_eq(fs_sketch_cut(&k, "a;x;y", 5, 4), 4);
    fs_sketch_free(&k);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sketch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, sketch_cuts_only_narrow_frames, 0, 5);
    tcase_add_test(tc, sketch_with_room_cuts_at_the_first_narrow_frame);
    tcase_add_test(tc, sketch_join_bounds_both_halves);
    tcase_add_test(tc, sketch_saturates);
    tcase_add_test(tc, sketch_short_stacks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
