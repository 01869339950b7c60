/* Differential profiles: inferno-diff-folded's normalization and hex stripping, the pull side
 * of the relay, the merge-join, the delta computation, and the public foldsvg_diff API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggregate/diffjoin.h"
#include "aggregate/relay.h"
#include "aggregate/tree.h"
#include "analysis/delta.h"
#include "foldsvg.h"
#include "testutil.h"
#include "transform/hexstrip.h"
#include "util/buf.h"
#include "util/error.h"

/* ---- --normalize ------------------------------------------------------------------------- */

START_TEST(normalize_equal_totals_change_nothing)
{
    ck_assert_uint_eq(fs_diff_normalize(7, 100, 100), 7);
    ck_assert_uint_eq(fs_diff_normalize(0, 100, 100), 0);
    ck_assert_uint_eq(fs_diff_normalize(UINT64_MAX, 5, 5), UINT64_MAX);
}
END_TEST

/* Each stack is scaled and truncated on its own: three stacks of 1 out of 3, scaled to a
 * total of 4, are 1 each (1.33...), 3 in all, not 4. */
START_TEST(normalize_truncates_per_stack)
{
    ck_assert_uint_eq(fs_diff_normalize(1, 3, 4), 1);
    ck_assert_uint_eq(fs_diff_normalize(3, 7, 10), 4); /* 4.28 */
    ck_assert_uint_eq(fs_diff_normalize(2, 3, 2), 1);  /* 1.33 */
    ck_assert_uint_eq(fs_diff_normalize(1, 46, 2), 0); /* smaller than one: 0 */
    ck_assert_uint_eq(fs_diff_normalize(46, 46, 2), 2);
    ck_assert_uint_eq(fs_diff_normalize(5, 10, 30), 15);
    /* in doubles, as inferno: 2^53 + 1 is 2^53 there, so twice it is 2^54, not 2^54 + 2 */
    ck_assert_uint_eq(fs_diff_normalize((UINT64_C(1) << 53) + 1, 1, 2), UINT64_C(1) << 54);
}
END_TEST

/* A BEFORE total of 0 (nothing before) leaves 0: 0 * x / 0 is NaN, which Rust's `as usize`
 * makes 0; a ratio past 2^64 saturates. */
START_TEST(normalize_zero_totals_and_saturation)
{
    ck_assert_uint_eq(fs_diff_normalize(0, 0, 10), 0);
    ck_assert_uint_eq(fs_diff_normalize(0, 10, 0), 0);
    ck_assert_uint_eq(fs_diff_normalize(10, 10, 0), 0);
    ck_assert_uint_eq(fs_diff_normalize(UINT64_MAX / 2, 1, 4), UINT64_MAX);
}
END_TEST

/* ---- --strip-hex ------------------------------------------------------------------------- */

static void ck_strip(const char *in, const char *want)
{
    fs_buf b = {0};
    ck_assert_int_eq(fs_hex_strip(&b, in, strlen(in)), FOLDSVG_OK);
    ck_assert_msg(strcmp(fs_buf_str(&b), want) == 0, "%s -> %s, want %s", in, fs_buf_str(&b), want);
    ck_assert_int_eq(fs_hex_strippable(in, strlen(in)), strcmp(in, want) != 0);
    fs_buf_free(&b);
}

START_TEST(strip_hex_rules)
{
    ck_strip("0x7f3a21", "0x...");
    ck_strip("f [0xffffffff81000000]", "f [0x...]");
    ck_strip("jit 0xABCdef9 code", "jit 0x... code");  /* either case of digits */
    ck_strip("a 0x12 b 0xzz 0x", "a 0x... b 0xzz 0x"); /* no digits: as it is */
    ck_strip("10x5f", "10x...");                       /* "0x" wherever it is */
    ck_strip("0x0x1", "0x...x1");                      /* the digits end at the 'x' */
    ck_strip("0X12 x12 0", "0X12 x12 0");              /* only a lowercase x */
    ck_strip("00x1;0x2", "00x...;0x...");
    ck_strip("", "");
    ck_strip("plain", "plain");
    ck_strip("0x", "0x");
}
END_TEST

/* ---- the relay, pulled --------------------------------------------------------------------- */

typedef struct seq {
    const char *const *stacks; /* NULL-terminated */
    const uint64_t *counts;
    foldsvg_status fail; /* returned after the stacks, when set */
    foldsvg_status emit_status;
    int set_before_first; /* written before the first stack: the join's primed() sees it */
    int flag;
} seq;

static foldsvg_status produce_seq(void *user, fs_sorted_fn emit, void *emit_user)
{
    seq *q = user;
    q->flag = q->set_before_first;
    for (size_t i = 0; q->stacks[i]; i++) {
        foldsvg_status st =
            emit(emit_user, q->stacks[i], strlen(q->stacks[i]), SIZE_MAX, q->counts[i], 0, 0);
        if (st) {
            q->emit_status = st;
            return st;
        }
    }
    return q->fail;
}

/* Three threads: each side's producer on a worker of its own, the join here. */
static fs_pool *tpool;

/* Many stacks, each with its number, for crossing batches. */
static foldsvg_status produce_many(void *user, fs_sorted_fn emit, void *emit_user)
{
    size_t n = *(size_t *)user;
    char buf[32];
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(buf, sizeof buf, "%012zu", i);
        FS_FORWARD_IF_ERROR(emit(emit_user, buf, (size_t)len, SIZE_MAX, i, 0, 0));
    }
    return FOLDSVG_OK;
}

START_TEST(relay_pull_in_order_and_stop)
{
    size_t n = 200000;
    fs_relay *r;
    ck_assert_int_eq(fs_relay_start(&r, tpool, produce_many, &n), FOLDSVG_OK);
    char want[32];
    for (size_t i = 0;; i++) {
        fs_relay_item it;
        int done;
        ck_assert_int_eq(fs_relay_next(r, &it, &done), FOLDSVG_OK);
        if (done) {
            ck_assert_uint_eq(i, n);
            break;
        }
        int len = snprintf(want, sizeof want, "%012zu", i);
        ck_assert_uint_eq(it.len, (size_t)len);
        ck_assert(memcmp(it.stack, want, it.len) == 0);
        ck_assert_uint_eq(it.count, i);
    }
    ck_assert_int_eq(fs_relay_end(r), FOLDSVG_OK);
    /* stopped early: the producer's emit returns FS_STOP, and that is no failure */
    static const char *const stacks[] = {"a", "b", NULL};
    static const uint64_t counts[] = {1, 2};
    seq q = {stacks, counts, FOLDSVG_OK, FOLDSVG_OK, 0, 0};
    ck_assert_int_eq(fs_relay_start(&r, tpool, produce_many, &n), FOLDSVG_OK);
    fs_relay_item it;
    int done;
    ck_assert_int_eq(fs_relay_next(r, &it, &done), FOLDSVG_OK);
    ck_assert_int_eq(fs_relay_end(r), FOLDSVG_OK);
    /* a failure: the batch being filled is dropped, the failure ends the sequence */
    q.fail = FOLDSVG_E_PARSE;
    ck_assert_int_eq(fs_relay_start(&r, tpool, produce_seq, &q), FOLDSVG_OK);
    ck_assert_int_eq(fs_relay_next(r, &it, &done), FOLDSVG_E_PARSE);
    ck_assert(done);
    ck_assert_int_eq(fs_relay_end(r), FOLDSVG_E_PARSE);
    ck_assert_int_eq(fs_relay_end(NULL), FOLDSVG_OK);
}
END_TEST

/* ---- the merge-join ---------------------------------------------------------------------- */

typedef struct joined {
    char out[1024];
    int primed_flags; /* what primed() saw of the producers */
    seq *a, *b;
    int calls_before_primed;
    int primed;
} joined;

static void on_primed(void *user)
{
    joined *j = user;
    j->primed = 1;
    j->primed_flags = j->a->flag * 10 + j->b->flag;
}

static foldsvg_status on_joined(void *user, const char *stack, size_t len, uint64_t before,
                                uint64_t after)
{
    joined *j = user;
    if (!j->primed)
        j->calls_before_primed++;
    size_t at = strlen(j->out);
    snprintf(j->out + at, sizeof j->out - at, "%.*s %llu %llu\n", (int)len, stack,
             (unsigned long long)before, (unsigned long long)after);
    return FOLDSVG_OK;
}

static foldsvg_status join(seq *a, seq *b, joined *j, fs_diff_join_stats *stats)
{
    memset(j, 0, sizeof *j);
    j->a = a;
    j->b = b;
    fs_relay *ra, *rb;
    ck_assert_int_eq(fs_relay_start(&ra, tpool, produce_seq, a), FOLDSVG_OK);
    ck_assert_int_eq(fs_relay_start(&rb, tpool, produce_seq, b), FOLDSVG_OK);
    foldsvg_status st = fs_diff_join(ra, rb, on_primed, on_joined, j, stats);
    fs_relay_end(ra);
    fs_relay_end(rb);
    return st;
}

START_TEST(join_every_stack_of_either_side_once)
{
    static const char *const sa[] = {"a", "a;b", "b", "d", NULL};
    static const uint64_t ca[] = {1, 2, 3, 4};
    static const char *const sb[] = {"a;b", "a;c", "c", "d", "e", NULL};
    static const uint64_t cb[] = {5, 6, 7, 8, 9};
    seq a = {sa, ca, FOLDSVG_OK, FOLDSVG_OK, 1, 0}, b = {sb, cb, FOLDSVG_OK, FOLDSVG_OK, 2, 0};
    joined j;
    fs_diff_join_stats st;
    ck_assert_int_eq(join(&a, &b, &j, &st), FOLDSVG_OK);
    ck_assert_str_eq(j.out, "a 1 0\na;b 2 5\na;c 0 6\nb 3 0\nc 0 7\nd 4 8\ne 0 9\n");
    ck_assert_uint_eq(st.unique, 7);
    ck_assert_uint_eq(st.only_before, 2);
    ck_assert_uint_eq(st.only_after, 3);
    /* both producers had started (set their flags) before the first stack was joined */
    ck_assert_int_eq(j.calls_before_primed, 0);
    ck_assert_int_eq(j.primed_flags, 12);
    /* an empty side: the other one whole */
    static const char *const none[] = {NULL};
    seq e = {none, NULL, FOLDSVG_OK, FOLDSVG_OK, 0, 0};
    ck_assert_int_eq(join(&e, &b, &j, &st), FOLDSVG_OK);
    ck_assert_str_eq(j.out, "a;b 0 5\na;c 0 6\nc 0 7\nd 0 8\ne 0 9\n");
    ck_assert_uint_eq(st.only_after, 5);
    /* a side's failure is the join's */
    b.fail = FOLDSVG_E_NO_DATA;
    ck_assert_int_eq(join(&a, &b, &j, &st), FOLDSVG_E_NO_DATA);
}
END_TEST

/* Random sides over bytes on either side of ';' (and the highest), their stacks prefixes of
 * one another and sharing prefixes: the join is the plain merge of the two in byte order,
 * each stack once with both counts. */
enum { POOL = 24, MAXLEN = 10 };

typedef struct random_join {
    char (*pool)[MAXLEN + 1]; /* sorted, distinct */
    size_t n;
    size_t calls;
    int in_a[POOL], in_b[POOL]; /* membership */
    size_t next;                /* the pool entry expected next */
    int order_bad;
} random_join;

static unsigned rnd(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*state >> 33);
}

static int by_bytes(const void *x, const void *y)
{
    return strcmp(x, y); /* no NUL inside: strcmp is byte order */
}

static foldsvg_status on_random(void *user, const char *stack, size_t len, uint64_t before,
                                uint64_t after)
{
    random_join *r = user;
    while (r->next < r->n && !r->in_a[r->next] && !r->in_b[r->next])
        r->next++;
    const char *want = r->next < r->n ? r->pool[r->next] : "";
    if (r->next >= r->n || len != strlen(want) || memcmp(stack, want, len) != 0 ||
        before != (uint64_t)(r->in_a[r->next] ? r->next + 1 : 0) ||
        after != (uint64_t)(r->in_b[r->next] ? 100 + r->next : 0))
        r->order_bad++;
    r->calls++;
    r->next++;
    return FOLDSVG_OK;
}

START_TEST(join_random_sides)
{
    static const char bytes[] = {'!', ':', ';', '<', 'a', 'b', '\x7f', (char)0xff};
    unsigned long long seed = 12345;
    char pool[POOL][MAXLEN + 1];
    for (int trial = 0; trial < 400; trial++) {
        /* distinct strings that share prefixes: each a random one before it, cut and grown */
        size_t n = 0;
        while (n < POOL) {
            char t[MAXLEN + 1];
            size_t keep = 0;
            if (n > 0) {
                const char *base = pool[rnd(&seed) % n];
                keep = rnd(&seed) % (strlen(base) + 1);
                memcpy(t, base, keep);
            }
            size_t len = keep + 1 + rnd(&seed) % 4;
            if (len > MAXLEN)
                len = MAXLEN;
            for (size_t i = keep; i < len; i++)
                t[i] = bytes[rnd(&seed) % sizeof bytes];
            t[len] = '\0';
            int dup = 0;
            for (size_t i = 0; i < n && !dup; i++)
                dup = strcmp(pool[i], t) == 0;
            if (!dup)
                memcpy(pool[n++], t, len + 1);
        }
        qsort(pool, n, sizeof pool[0], by_bytes);
        random_join r;
        memset(&r, 0, sizeof r);
        r.pool = pool;
        r.n = n;
        const char *sa[POOL + 1], *sb[POOL + 1];
        uint64_t ca[POOL], cb[POOL];
        size_t na = 0, nb = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned pick = rnd(&seed) % 4; /* neither, A, B, both */
            r.in_a[i] = pick & 1;
            r.in_b[i] = pick >> 1 & 1;
            if (r.in_a[i]) {
                ca[na] = i + 1;
                sa[na++] = pool[i];
            }
            if (r.in_b[i]) {
                cb[nb] = 100 + i;
                sb[nb++] = pool[i];
            }
        }
        sa[na] = sb[nb] = NULL;
        seq a = {sa, ca, FOLDSVG_OK, FOLDSVG_OK, 0, 0}, b = {sb, cb, FOLDSVG_OK, FOLDSVG_OK, 0, 0};
        fs_relay *ra, *rb;
        ck_assert_int_eq(fs_relay_start(&ra, tpool, produce_seq, &a), FOLDSVG_OK);
        ck_assert_int_eq(fs_relay_start(&rb, tpool, produce_seq, &b), FOLDSVG_OK);
        fs_diff_join_stats st;
        ck_assert_int_eq(fs_diff_join(ra, rb, NULL, on_random, &r, &st), FOLDSVG_OK);
        fs_relay_end(ra);
        fs_relay_end(rb);
        size_t either = 0, only_a = 0, only_b = 0;
        for (size_t i = 0; i < n; i++) {
            either += r.in_a[i] || r.in_b[i];
            only_a += r.in_a[i] && !r.in_b[i];
            only_b += r.in_b[i] && !r.in_a[i];
        }
        ck_assert_uint_eq(r.calls, either);
        ck_assert_uint_eq(st.unique, either);
        ck_assert_uint_eq(st.only_before, only_a);
        ck_assert_uint_eq(st.only_after, only_b);
        ck_assert_msg(r.order_bad == 0, "trial %d: %d stacks out of place", trial, r.order_bad);
    }
}
END_TEST

/* ---- the deltas -------------------------------------------------------------------------- */

static void add_diff(fs_tree *t, const char *path, uint64_t before, uint64_t after)
{
    ck_assert_int_eq(fs_tree_add_path(t, path, strlen(path), after, before, 1, NULL), FOLDSVG_OK);
}

static const fs_delta_row *row(const fs_delta_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].len == strlen(name) && memcmp(t->rows[i].name, name, t->rows[i].len) == 0)
            return &t->rows[i];
    ck_abort_msg("no row %s", name);
    return NULL;
}

START_TEST(deltas_self_inclusive_ranked)
{
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    add_diff(&t, "main;a;b", 10, 4);
    add_diff(&t, "main;a", 5, 5);
    add_diff(&t, "main;b;a;b", 0, 9); /* a, b recur: once each in inclusive time */
    add_diff(&t, "gone", 3, 0);
    fs_deltas d;
    ck_assert_int_eq(fs_deltas_compute(&t, 0, 0, 0, &d), FOLDSVG_OK);
    ck_assert_uint_eq(d.total_before, 18);
    ck_assert_uint_eq(d.total_after, 18);
    ck_assert_uint_eq(d.per_before, 1);
    /* self: b 10 -> 13 (+3), a 5 -> 5, gone 3 -> 0 (-3); ties by name: b before gone */
    ck_assert_uint_eq(d.self.n, 3);
    ck_assert(d.self.rows[0].len == 1 && d.self.rows[0].name[0] == 'b');
    ck_assert(d.self.rows[1].len == 4 && memcmp(d.self.rows[1].name, "gone", 4) == 0);
    ck_assert(d.self.rows[2].len == 1 && d.self.rows[2].name[0] == 'a');
    ck_assert(row(&d.self, "b")->delta == 3);
    ck_assert_uint_eq(row(&d.self, "gone")->after, 0);
    /* inclusive: main 15 -> 18, a 15 -> 18, b 10 -> 13, gone 3 -> 0 */
    ck_assert_uint_eq(row(&d.incl, "main")->before, 15);
    ck_assert_uint_eq(row(&d.incl, "main")->after, 18);
    ck_assert_uint_eq(row(&d.incl, "a")->after, 18);
    ck_assert_uint_eq(row(&d.incl, "b")->before, 10);
    ck_assert_uint_eq(row(&d.incl, "b")->after, 13);
    ck_assert_uint_eq(d.incl.only_before, 1);
    ck_assert_uint_eq(d.incl.only_after, 0);
    int is_new;
    ck_assert(fs_delta_percent(row(&d.incl, "main"), 1, &is_new) == 20.0 && !is_new);
    fs_deltas_free(&d);
    /* per iteration: BEFORE ran 5 times, AFTER 2: main 15/5 = 3 -> 18/2 = 9, +6 */
    ck_assert_int_eq(fs_deltas_compute(&t, 0, 5, 2, &d), FOLDSVG_OK);
    ck_assert(row(&d.incl, "main")->delta == 6);
    ck_assert(fs_delta_percent(row(&d.incl, "main"), 5, &is_new) == 200.0);
    ck_assert(d.incl.rows[0].delta == 6); /* main and a, by name */
    ck_assert(d.incl.rows[0].len == 1 && d.incl.rows[0].name[0] == 'a');
    fs_deltas_free(&d);
    fs_tree_free(&t);
}
END_TEST

/* ---- the API ----------------------------------------------------------------------------- */

static char *render(const foldsvg_diff *d, foldsvg_format format, const foldsvg_options *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    foldsvg_error err;
    ck_assert_msg(foldsvg_diff_render(d, format, o, f, &err) == FOLDSVG_OK, "%s", err.message);
    fclose(f);
    return buf;
}

START_TEST(api_compare_recorded_profiles)
{
    foldsvg_profile *b = foldsvg_profile_new(), *a = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_record_path(b, "main;hash", 30), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(b, "main;io", 10), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(a, "main;hash", 10), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(a, "main;syscall_keccak", 70), FOLDSVG_OK);
    foldsvg_diff *d = foldsvg_diff_new();
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_diff_compare(d, b, a, NULL, &err), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_diff_total(d, FOLDSVG_BEFORE), 40);
    ck_assert_uint_eq(foldsvg_diff_total(d, FOLDSVG_AFTER), 80);
    ck_assert_uint_eq(foldsvg_diff_unique_stacks(d, FOLDSVG_BEFORE), 2);
    char *folded = render(d, FOLDSVG_FORMAT_FOLDED, NULL);
    ck_assert_str_eq(folded, "main;hash 30 10\nmain;io 10 0\nmain;syscall_keccak 0 70\n");
    free(folded);
    /* normalized: BEFORE times 80 / 40 */
    foldsvg_options *o = foldsvg_options_new();
    ck_assert_int_eq(foldsvg_options_set(o, "normalize", NULL, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_diff_compare(d, b, a, o, &err), FOLDSVG_OK);
    folded = render(d, FOLDSVG_FORMAT_FOLDED, o);
    ck_assert_str_eq(folded, "main;hash 60 10\nmain;io 20 0\nmain;syscall_keccak 0 70\n");
    free(folded);
    char *svg = render(d, FOLDSVG_FORMAT_SVG, o);
    ck_assert_ptr_nonnull(strstr(svg, "syscall_keccak (70 cycles, 87.50%; +87.50%)"));
    free(svg);
    char *html = render(d, FOLDSVG_FORMAT_HTML, o);
    ck_assert_ptr_nonnull(strstr(html, "class=\"fs-difffacts\""));
    ck_assert_ptr_nonnull(strstr(html, "data-kind=\"only-after\""));
    free(html);
    /* the delta tables */
    ck_assert_int_eq(foldsvg_options_set(o, "top-format", "json", &err), FOLDSVG_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(foldsvg_diff_write_top(d, f, o, &err), FOLDSVG_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"total_before\": 80"));
    ck_assert_ptr_nonnull(strstr(buf, "\"normalized\": true"));
    ck_assert_ptr_nonnull(strstr(buf, "\"name\": \"syscall_keccak\",\n      \"before\": 0,\n"
                                      "      \"after\": 70,\n      \"delta\": 70,\n"
                                      "      \"percent\": null"));
    free(buf);
    /* a diff section beside a profile's: its own ids, the diff rules once */
    foldsvg_report *rep = foldsvg_report_new(NULL);
    ck_assert_int_eq(foldsvg_report_add(rep, a, "after alone", NULL, 0, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_report_add_diff(rep, d, "the change", &err), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_report_sections(rep), 2);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(foldsvg_report_render(rep, f, &err), FOLDSVG_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "id=\"fg-s2-root\""));
    const char *second = strstr(buf, "id=\"fs-section-2\"");
    ck_assert_ptr_nonnull(second);
    ck_assert_ptr_nonnull(strstr(second, "class=\"fs-difffacts\""));
    ck_assert(strstr(buf, "class=\"fs-difffacts\"") > second); /* not in the first section */
    const char *css = strstr(buf, ".fs-difffacts {");
    ck_assert_ptr_nonnull(css);
    ck_assert_ptr_null(strstr(css + 1, ".fs-difffacts {"));
    free(buf);
    foldsvg_report_free(rep);
    /* misuse */
    foldsvg_diff *empty = foldsvg_diff_new();
    ck_assert_int_eq(foldsvg_diff_write_top(empty, stdout, NULL, &err), FOLDSVG_E_NO_DATA);
    ck_assert_int_eq(foldsvg_diff_compare(NULL, b, a, NULL, &err), FOLDSVG_E_ARG);
    ck_assert_int_eq(foldsvg_diff_compare(d, NULL, a, NULL, &err), FOLDSVG_E_ARG);
    foldsvg_profile *none = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_diff_compare(d, none, a, NULL, &err), FOLDSVG_E_NO_DATA);
    ck_assert_str_eq(err.file, "before");
    foldsvg_profile_free(none);
    foldsvg_diff_free(empty);
    foldsvg_diff_free(NULL);
    foldsvg_diff_free(d);
    foldsvg_options_free(o);
    foldsvg_profile_free(a);
    foldsvg_profile_free(b);
}
END_TEST

/* What a threshold callback was told. */
typedef struct told {
    size_t calls, broken;
    char last[512];
} told;

static void on_threshold(void *user, const char *pair, const char *threshold, int broken,
                         const char *measured)
{
    told *t = user;
    t->calls++;
    t->broken += broken != 0;
    snprintf(t->last, sizeof t->last, "%s|%s|%d|%s", pair ? pair : "-", threshold, broken,
             measured);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(api_thresholds)
{
    foldsvg_profile *b = foldsvg_profile_new(), *a = foldsvg_profile_new();
    ck_assert_int_eq(foldsvg_profile_record_path(b, "main;hash", 30), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(b, "main;io", 10), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(a, "main;hash", 10), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_profile_record_path(a, "main;keccak", 70), FOLDSVG_OK);
    foldsvg_diff *d = foldsvg_diff_new();
    foldsvg_error err;
    ck_assert_int_eq(foldsvg_diff_compare(d, b, a, NULL, &err), FOLDSVG_OK);
    /* no thresholds: no call, nothing broken */
    told t = {0, 0, ""};
    size_t broken = 9;
    ck_assert_int_eq(foldsvg_diff_check(d, NULL, on_threshold, &t, &broken, &err), FOLDSVG_OK);
    ck_assert_uint_eq(t.calls, 0);
    ck_assert_uint_eq(broken, 0);
    foldsvg_options *o = foldsvg_options_new();
    ck_assert_int_eq(foldsvg_options_set(o, "fail-if", "total > +100%", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "fail-if", "new > 174%", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "fail-if", "nonsense", &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(foldsvg_diff_check(d, o, on_threshold, &t, &broken, &err), FOLDSVG_OK);
    ck_assert_uint_eq(t.calls, 2);
    ck_assert_uint_eq(broken, 1);
    ck_assert_uint_eq(t.broken, 1);
    ck_assert_str_eq(t.last, "-|new > 174%|1|keccak: +175.00% of before's total (+70 cycles; "
                             "0 -> 70), 1.00 point over");
    ck_assert_int_eq(foldsvg_diff_check(d, o, NULL, NULL, NULL, &err), FOLDSVG_OK);
    /* the summary carries the verdict first */
    ck_assert_int_eq(foldsvg_options_set(o, "top-format", "markdown", &err), FOLDSVG_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(foldsvg_diff_write_summary(d, f, o, &err), FOLDSVG_OK);
    fclose(f);
    const char *first = "### \u274c foldsvg: failed, 1 of 2 thresholds broken";
    ck_assert_msg(strncmp(buf, first, strlen(first)) == 0, "%s", buf);
    free(buf);
    foldsvg_diff *empty = foldsvg_diff_new();
    ck_assert_int_eq(foldsvg_diff_check(empty, o, NULL, NULL, &broken, &err), FOLDSVG_E_NO_DATA);
    ck_assert_int_eq(foldsvg_diff_check(NULL, o, NULL, NULL, &broken, &err), FOLDSVG_E_ARG);
    foldsvg_diff_free(empty);
    /* two directories: a pair by name, a file of one side a warning */
    char dir[] = "/tmp/fs-dirs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[4][256];
    const char *names[4] = {"B", "A", "B/x.folded", "A/x.folded"};
    for (int i = 0; i < 4; i++)
        snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
    ck_assert_int_eq(mkdir(path[0], 0700), 0);
    ck_assert_int_eq(mkdir(path[1], 0700), 0);
    write_text(path[2], "main;hash 30\nmain;io 10\n");
    write_text(path[3], "main;hash 10\nmain;keccak 70\n");
    char lone[256];
    snprintf(lone, sizeof lone, "%s/B/y.folded", dir);
    write_text(lone, "main 1\n");
    foldsvg_dirs_stats ds;
    t = (told){0, 0, ""};
    ck_assert_int_eq(
        foldsvg_diff_dirs(path[0], path[1], NULL, NULL, o, on_threshold, &t, &ds, &err),
        FOLDSVG_OK);
    ck_assert_uint_eq(ds.pairs, 1);
    ck_assert_uint_eq(ds.failed, 1);
    ck_assert_uint_eq(ds.only_before, 1);
    ck_assert_uint_eq(ds.only_after, 0);
    ck_assert_uint_eq(t.calls, 2);
    ck_assert_msg(strncmp(t.last, "x.folded|new > 174%|1|", 22) == 0, "%s", t.last);
    ck_assert_int_eq(foldsvg_diff_dirs(path[1], lone, NULL, NULL, o, NULL, NULL, &ds, &err),
                     FOLDSVG_E_IO);
    remove(lone);
    remove(path[2]);
    remove(path[3]);
    rmdir(path[0]);
    rmdir(path[1]);
    rmdir(dir);
    foldsvg_diff_free(d);
    foldsvg_options_free(o);
    foldsvg_profile_free(a);
    foldsvg_profile_free(b);
}
END_TEST

int main(void)
{
    tpool = fs_pool_new(3);
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("diff");
    tcase_add_test(tc, normalize_equal_totals_change_nothing);
    tcase_add_test(tc, normalize_truncates_per_stack);
    tcase_add_test(tc, normalize_zero_totals_and_saturation);
    tcase_add_test(tc, strip_hex_rules);
    tcase_add_test(tc, relay_pull_in_order_and_stop);
    tcase_add_test(tc, join_every_stack_of_either_side_once);
    tcase_add_test(tc, join_random_sides);
    tcase_add_test(tc, deltas_self_inclusive_ranked);
    tcase_add_test(tc, api_compare_recorded_profiles);
    tcase_add_test(tc, api_thresholds);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
