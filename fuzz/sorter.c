/* Fuzz target: the sorter of unsorted stacks (aggregate/sorter.h) and its string sort
 * (aggregate/strsort.h), against a model built with qsort.
 *
 * Bytes 0-1: the chunk budget, 256..8192 bytes (a handful of stacks: chunks spill as runs
 * and the runs are merged in rounds). Byte 2: bits 0-1 the fan-in (2..5), bits 2-3 the end:
 * 0 and 3 finish, 1 finish with a callback that stops after byte 3 stacks, 2 free the
 * sorter without finishing. The rest: records, each a tag byte then its fields:
 *   tag bits 0-1: the stack: 0 new (length byte, bytes), 1 an earlier record's (index
 *     byte), 2 a prefix of an earlier one plus new bytes (index, prefix length, length,
 *     bytes), 3 an earlier one plus a byte repeated (index, byte, repeat count); index
 *     byte B: record B & 127 with bit 7 set, else the (B+1)-th latest;
 *   bit 2: differential (a "before" count follows the count);
 *   bits 3-4: the count: 1, 1 byte, 2 bytes, 8 bytes; bits 5-6: the same for "before".
 * Stacks are any bytes (NUL and ';' included), at most MAX_LEN; at most MAX_RECORDS.
 *
 * Checks: the output is in byte order, equal stacks (from different runs) summed give the
 * model's distinct stacks (sorted by qsort), counts and befores summed, differential flags
 * OR-ed; an add refused with FOLDSVG_E_OVERFLOW is one whose stack's total would pass
 * 2^64-1 (the sorter sums per chunk, so it may accept what the whole would not: sums here
 * are 128-bit); fs_strsort on the distinct stacks gives qsort's order, on all of them a
 * sorted permutation.
 *
 * The sorter's worker thread makes some paths depend on timing (a chunk still being sorted
 * when the input ends is merged from memory, not from a run), so an input does not always
 * take the same one. */
#include <string.h>

#include "aggregate/sorter.h"
#include "aggregate/strsort.h"
#include "fuzz.h"
#include "util/pool.h"

enum { MAX_RECORDS = 2000, MAX_LEN = 200 };

typedef struct u128 {
    uint64_t lo, hi;
} u128;

static void add128(u128 *a, uint64_t v)
{
    a->lo += v;
    a->hi += a->lo < v;
}

static int eq128(u128 a, u128 b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

/* A + V > 2^64-1 */
static int passes64(u128 a, uint64_t v)
{
    return a.hi > 0 || v > UINT64_MAX - a.lo;
}

typedef struct rec {
    char *stack; /* a block of exactly len bytes (ASan sees any read past it) */
    size_t len;
    uint64_t count, before;
    int is_diff;
    foldsvg_status st; /* what fs_sorter_add said */
    size_t idx;        /* input order */
} rec;

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static unsigned byte(reader *r)
{
    return r->p < r->end ? *r->p++ : 0;
}

static uint64_t number(reader *r, unsigned width)
{
    static const unsigned bytes[4] = {0, 1, 2, 8};
    if (width == 0)
        return 1;
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes[width]; i++)
        v = v << 8 | byte(r);
    return v;
}

static int by_stack(const void *x, const void *y)
{
    const rec *a = *(const rec *const *)x, *b = *(const rec *const *)y;
    int c = fs_strcmp_bytes(a->stack, a->len, b->stack, b->len);
    if (c)
        return c;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* What the callback saw, parts of equal stacks summed as they come. */
typedef struct out {
    char *stack;
    size_t len;
    u128 count, before;
    int is_diff;
} out;

typedef struct sink {
    out *v;
    size_t n, cap;
    size_t calls, stop_after; /* stop_after 0: never stop */
} sink;

static foldsvg_status on_stack(void *user, const char *stack, size_t len, size_t shared,
                               uint64_t count, uint64_t before, int is_diff)
{
    sink *k = user;
    if (k->stop_after && k->calls == k->stop_after)
        return FOLDSVG_E_LIMIT;
    k->calls++;
    FUZZ_CHECK(len <= MAX_LEN);
    FUZZ_CHECK(is_diff == 0 || is_diff == 1);
    FUZZ_CHECK(is_diff || before == 0);
    FUZZ_CHECK((k->n == 0) == (shared == SIZE_MAX)); /* a share for all but the first */
    if (k->n > 0) {
        out *last = &k->v[k->n - 1];
        /* the share with the stack before (the last kept: equal ones are summed into it) */
        size_t m = len < last->len ? len : last->len, at = 0;
        while (at < m && last->stack[at] == stack[at])
            at++;
        FUZZ_CHECK(shared == at);
        int c = fs_strcmp_bytes(last->stack, last->len, stack, len);
        FUZZ_CHECK(c <= 0);
        if (c == 0) {
            add128(&last->count, count);
            add128(&last->before, before);
            last->is_diff |= is_diff;
            return FOLDSVG_OK;
        }
    }
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 64;
        out *nv = realloc(k->v, cap * sizeof *nv);
        FUZZ_CHECK(nv != NULL);
        k->v = nv;
        k->cap = cap;
    }
    out *o = &k->v[k->n++];
    o->stack = malloc(len ? len : 1);
    FUZZ_CHECK(o->stack != NULL);
    if (len)
        memcpy(o->stack, stack, len);
    o->len = len;
    o->count = (u128){0, 0};
    o->before = (u128){0, 0};
    add128(&o->count, count);
    add128(&o->before, before);
    o->is_diff = is_diff;
    return FOLDSVG_OK;
}

static int key_cmp(const void *x, const void *y)
{
    const rec *a = *(const rec *const *)x, *b = *(const rec *const *)y;
    return fs_strcmp_bytes(a->stack, a->len, b->stack, b->len);
}

/* fs_strsort on the stacks of V[0..n) (in input order): sorted, a permutation, and for
 * distinct stacks the very order of qsort (SORTED); each one's share with the one before. */
static void check_strsort(rec *const *v, size_t n, rec *const *sorted, int distinct)
{
    /* calloc: at -O2 gcc takes fs_strsort for a reader of them even when n is 0 */
    const char **keys = calloc(n ? n : 1, sizeof *keys);
    uint32_t *lens = calloc(n ? n : 1, sizeof *lens);
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    uint32_t *lcp = malloc((n ? n : 1) * sizeof *lcp);
    unsigned char *seen = calloc(n ? n : 1, 1);
    FUZZ_CHECK(keys && lens && order && lcp && seen);
    for (size_t i = 0; i < n; i++) {
        keys[i] = v[i]->stack;
        lens[i] = (uint32_t)v[i]->len;
        order[i] = UINT32_MAX;
    }
    FUZZ_CHECK(fs_strsort(keys, lens, order, lcp, n) == FOLDSVG_OK);
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(order[i] < n && !seen[order[i]]);
        seen[order[i]] = 1;
        const rec *r = v[order[i]];
        size_t share = 0;
        if (i > 0) {
            const rec *q = v[order[i - 1]];
            FUZZ_CHECK(fs_strcmp_bytes(q->stack, q->len, r->stack, r->len) <= 0);
            while (share < q->len && share < r->len && q->stack[share] == r->stack[share])
                share++;
        }
        FUZZ_CHECK(lcp[i] == share);
        if (distinct)
            FUZZ_CHECK(r == sorted[i]);
    }
    free(seen);
    free(lcp);
    free(order);
    free(lens);
    free(keys);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    size_t budget = 256 + ((size_t)data[0] << 8 | data[1]) % (8192 - 256 + 1);
    unsigned fanin = 2 + (data[2] & 3);
    unsigned end_mode = (data[2] >> 2) & 3;
    size_t stop_after = end_mode == 1 ? data[3] : 0;
    reader in = {data + 4, data + size};

    rec *recs = calloc(MAX_RECORDS, sizeof *recs);
    FUZZ_CHECK(recs != NULL);
    size_t n = 0;
    char tmp[MAX_LEN];
    while (in.p < in.end && n < MAX_RECORDS) {
        unsigned tag = byte(&in);
        size_t len = 0;
        const rec *from = NULL;
        if ((tag & 3) && n > 0) {
            unsigned b = byte(&in);
            from = b & 0x80 ? &recs[(b & 0x7f) % n] : &recs[n - 1 - b % n];
        }
        size_t pre = from ? from->len : 0, more;
        switch (tag & 3) {
        case 0:
            len = byte(&in) % (MAX_LEN + 1);
            for (size_t i = 0; i < len; i++)
                tmp[i] = (char)byte(&in);
            break;
        case 1:
            len = pre;
            memcpy(tmp, from ? from->stack : "", pre);
            break;
        case 2:
            pre = byte(&in) % (pre + 1);
            memcpy(tmp, from ? from->stack : "", pre);
            more = byte(&in) % (MAX_LEN + 1 - pre);
            for (size_t i = 0; i < more; i++)
                tmp[pre + i] = (char)byte(&in);
            len = pre + more;
            break;
        default: {
            memcpy(tmp, from ? from->stack : "", pre);
            char c = (char)byte(&in);
            more = byte(&in) % (MAX_LEN + 1 - pre);
            memset(tmp + pre, c, more);
            len = pre + more;
            break;
        }
        }
        rec *r = &recs[n];
        r->idx = n;
        r->len = len;
        r->stack = malloc(len ? len : 1);
        FUZZ_CHECK(r->stack != NULL);
        if (len)
            memcpy(r->stack, tmp, len);
        r->is_diff = (tag >> 2) & 1;
        r->count = number(&in, (tag >> 3) & 3);
        r->before = r->is_diff ? number(&in, (tag >> 5) & 3) : 0;
        n++;
    }

    /* on two threads, or (every other input) on one: the same output */
    static fs_pool *pool;
    if (!pool)
        pool = fs_pool_new(2);
    fs_sorter *so;
    FUZZ_CHECK(fs_sorter_new(&so, budget, fanin, n % 2 ? pool : NULL) == FOLDSVG_OK);
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) {
        rec *r = &recs[i];
        r->st = fs_sorter_add(so, r->stack, r->len, r->count, r->before, r->is_diff);
        FUZZ_CHECK(r->st == FOLDSVG_OK || r->st == FOLDSVG_E_OVERFLOW);
        size_t now = fs_sorter_runs(so); /* a run holds at least one stack */
        FUZZ_CHECK(now >= runs && now <= i + 1);
        runs = now;
    }
    sink k = {NULL, 0, 0, 0, stop_after};
    foldsvg_status fst = FOLDSVG_OK;
    if (end_mode != 2)
        fst = fs_sorter_finish(so, 0, on_stack, &k);
    fs_sorter_free(so);

    /* The model: records grouped by stack, in input order within a group. */
    rec **byst = malloc((n ? n : 1) * sizeof *byst);
    rec **distinct = malloc((n ? n : 1) * sizeof *distinct);
    rec **first = malloc((n ? n : 1) * sizeof *first);
    out *model = malloc((n ? n : 1) * sizeof *model);
    FUZZ_CHECK(byst && distinct && first && model);
    for (size_t i = 0; i < n; i++)
        byst[i] = &recs[i];
    qsort(byst, n, sizeof *byst, by_stack);
    size_t nd = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        out m = {byst[i]->stack, byst[i]->len, {0, 0}, {0, 0}, 0};
        for (; j < n && key_cmp(&byst[i], &byst[j]) == 0; j++) {
            const rec *r = byst[j];
            if (r->st == FOLDSVG_E_OVERFLOW) {
                /* refused: the chunk's part of the total is at most the total */
                FUZZ_CHECK(j > i);
                FUZZ_CHECK(passes64(m.count, r->count) ||
                           (r->is_diff && passes64(m.before, r->before)));
                continue;
            }
            add128(&m.count, r->count);
            if (r->is_diff) {
                add128(&m.before, r->before);
                m.is_diff = 1;
            }
        }
        distinct[nd] = byst[i];
        model[nd++] = m;
        i = j;
    }
    if (end_mode != 2) {
        /* A callback that stopped the merge saw a prefix of the output, all but the last
         * stack complete (their parts come before any greater stack). */
        int stopped = fst != FOLDSVG_OK;
        if (stopped)
            FUZZ_CHECK(fst == FOLDSVG_E_LIMIT && k.calls == stop_after);
        FUZZ_CHECK(stopped ? k.n <= nd : k.n == nd);
        for (size_t i = 0; i < k.n; i++) {
            const out *o = &k.v[i], *m = &model[i];
            FUZZ_CHECK(fs_strcmp_bytes(o->stack, o->len, m->stack, m->len) == 0);
            if (stopped && i + 1 == k.n)
                break;
            FUZZ_CHECK(eq128(o->count, m->count));
            FUZZ_CHECK(eq128(o->before, m->before));
            FUZZ_CHECK(o->is_diff == m->is_diff);
        }
    }

    /* fs_strsort on the distinct stacks, in order of first appearance, against qsort */
    size_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        rec *kp = &recs[i];
        rec **hit = bsearch(&kp, distinct, nd, sizeof *distinct, key_cmp);
        FUZZ_CHECK(hit != NULL);
        /* distinct[] holds each group's first record (the model's sort is stable) */
        if ((*hit)->idx == i)
            first[nf++] = &recs[i];
    }
    FUZZ_CHECK(nf == nd);
    check_strsort(first, nf, distinct, 1);
    rec **all = byst; /* reuse: all records in input order */
    for (size_t i = 0; i < n; i++)
        all[i] = &recs[i];
    check_strsort(all, n, NULL, 0);

    for (size_t i = 0; i < k.n; i++)
        free(k.v[i].stack);
    free(k.v);
    free(model);
    free(first);
    free(distinct);
    free(byst);
    for (size_t i = 0; i < n; i++)
        free(recs[i].stack);
    free(recs);
    return 0;
}
