#include "formats/chrome/split.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chrome/parser.h"
#include "util/grow.h"

/* One array's values found by the job: block bytes [from, to) hold values FIRST.. of the
 * slot, N of them, each followed by a comma. */
typedef struct cr_range {
    size_t from, to;
    size_t first, n;
    int deltas; /* timeDeltas (else samples) */
} cr_range;

typedef struct cr_seg {
    cr_range *r;
    size_t nr, rcap;
    int64_t *v;
    size_t nv, vcap;
} cr_seg;

static atomic_int mode;
static _Atomic uint64_t taken;

void cr_split_mode(int m)
{
    atomic_store(&mode, m);
}

uint64_t cr_split_taken(void)
{
    return atomic_load(&taken);
}

/* ---------------------------------------------------------------- the reading thread */

static void *slot_new(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(cr_seg));
}

static void slot_free(void *ctx, void *slot)
{
    (void)ctx;
    cr_seg *s = slot;
    free(s->r);
    free(s->v);
    free(s);
}

/* A plain JSON integer at P (no leading zero, 18 digits at most; DELTAS: a minus sign
 * allowed) followed by a comma before END: its value, and P moves past the comma. */
static int integer(const char **p, const char *end, int deltas, int64_t *out)
{
    const char *q = *p;
    int neg = deltas && q < end && *q == '-';
    q += neg;
    const char *digits = q;
    uint64_t v = 0;
    while (q < end && (unsigned)(unsigned char)*q - '0' <= 9 && q - digits <= 18)
        v = v * 10 + (unsigned)(*q++ - '0');
    size_t nd = (size_t)(q - digits);
    if (nd == 0 || nd > 18 || (digits[0] == '0' && nd > 1) || q >= end || *q != ',')
        return 0;
    *out = neg ? -(int64_t)v : (int64_t)v;
    *p = q + 1;
    return 1;
}

/* The values of the array whose '[' is at OPEN, after its first one. */
static void array(cr_seg *s, const char *b, const char *open, const char *end, int deltas)
{
    const char *p = open + 1;
    while (p < end && *p != ',' && *p != ']' && *p != '[' && *p != '{' && *p != '"')
        p++; /* the first value: yajl reads it, and the parse then knows the array */
    if (p >= end || *p != ',')
        return;
    p++;
    cr_range r = {(size_t)(p - b), 0, s->nv, 0, deltas};
    int64_t v;
    while (integer(&p, end, deltas, &v)) {
        if (FS_GROW(s->v, s->vcap, s->nv + 1, 1024))
            return;
        s->v[s->nv++] = v;
        r.n++;
    }
    if (!r.n || FS_GROW(s->r, s->rcap, s->nr + 1, 16)) {
        s->nv = r.first;
        return;
    }
    r.to = (size_t)(p - b);
    s->r[s->nr++] = r;
}

static void job_run(void *ctx, void *slot, const unsigned char *data, size_t n)
{
    (void)ctx;
    cr_seg *s = slot;
    s->nr = s->nv = 0;
    const char *b = (const char *)data, *end = b + n, *p = b;
    static const char samples[] = "\"samples\":", deltas[] = "\"timeDeltas\":";
    while ((p = memchr(p, '[', (size_t)(end - p))) != NULL) {
        size_t at = (size_t)(p - b), had = s->nr;
        if (at >= sizeof samples - 1 &&
            memcmp(p - (sizeof samples - 1), samples, sizeof samples - 1) == 0)
            array(s, b, p, end, 0);
        else if (at >= sizeof deltas - 1 &&
                 memcmp(p - (sizeof deltas - 1), deltas, sizeof deltas - 1) == 0)
            array(s, b, p, end, 1);
        p = s->nr > had ? b + s->r[s->nr - 1].to : p + 1;
    }
}

/* ---------------------------------------------------------------- the parse's thread */

static int range(const void *slot, size_t i, size_t *from, size_t *to)
{
    const cr_seg *s = slot;
    if (i >= s->nr)
        return 0;
    *from = s->r[i].from;
    *to = s->r[i].to;
    return 1;
}

/* The values the open array of a CPU profile's samples or deltas holds so far, or -1 when
 * the container on top is not such an array (of the kind of R). */
static long long held(const parser *p, const cr_range *r)
{
    if (!p->depth || !p->cur || p->st[p->depth - 1].role != (r->deltas ? R_DELTAS : R_IDS))
        return -1;
    return (long long)(fs_spool_count(r->deltas ? &p->cur->deltas : &p->cur->ids) - p->arr_at);
}

static int before(void *ctx, const void *slot, size_t i)
{
    /* yajl has read the array's '[' and its first value's bytes, not the value yet */
    return held(ctx, &((const cr_seg *)slot)->r[i]) == 0;
}

static int take(void *ctx, const void *slot, size_t i)
{
    parser *p = ctx;
    const cr_seg *s = slot;
    const cr_range *r = &s->r[i];
    if (held(p, r) != 1)
        return 0;
    chunk *c = p->cur;
    const int64_t *v = s->v + r->first;
    foldsvg_status st = FOLDSVG_OK;
    if (r->deltas) {
        double d[256];
        for (size_t k = 0; st == FOLDSVG_OK && k < r->n; k += 256) {
            size_t m = r->n - k < 256 ? r->n - k : 256;
            for (size_t x = 0; x < m; x++)
                d[x] = (double)v[k + x];
            st = fs_spool_add(&c->deltas, d, m);
        }
    } else {
        st = fs_spool_add(&c->ids, v, r->n);
    }
    if (st)
        return cr_fail_spool(p, st) - 1;
    p->j.events += r->n;
    atomic_fetch_add_explicit(&taken, r->n, memory_order_relaxed);
    return 1;
}

/* The job keeps nothing between blocks and the parse nothing between ranges: one set of
 * hooks serves every parse. The job is cheap (a scan for integers, no yajl). */
#define HOOKS(every)                                                                               \
    {                                                                                              \
        .job = {.always = every,                                                                   \
                .cheap = 1,                                                                        \
                .slot_new = slot_new,                                                              \
                .slot_free = slot_free,                                                            \
                .run = job_run},                                                                   \
        .range = range, .before = before, .take = take                                             \
    }
static const fs_json_split usual = HOOKS(0), every_block = HOOKS(1);

const fs_json_split *cr_split_hooks(void)
{
    int m = atomic_load(&mode);
    return m == 1 ? NULL : m == 2 ? &every_block : &usual;
}
