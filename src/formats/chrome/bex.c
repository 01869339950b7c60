/* B, E and X trace events into stacks, as speedscope's importTraceEvents reads them, but as a
 * stream. speedscope puts, per thread, the B events and each X event's begin (at ts) into one
 * queue and the E events and each X event's end (at ts + dur) into another, each ordered by
 * time (ties: B events in file order, then X begins, longer first; E events in file order,
 * then X ends in the order of their begins), and takes them in time order: a B before an E
 * of the same time only when it has the E's name; of the E events of one time, one that
 * closes the frame on top first; an E closes the top frame only when it has its name.
 *
 * Only items of one time ever change places, so while events come in time order (as B/E
 * tracers write them) each time's items are taken as soon as a later time comes: what is
 * held is the items of the latest time, the ends of the X events still open and the open
 * frames, never the events. An event earlier than a time already taken (X events written
 * when they end, children before parents) cannot be placed so: the reading stops there and
 * the reader reads the input again keeping the events (cr_doc.keep), each as its items (a
 * begin, and an X event's end too), sorted by thread and time within the sort buffer
 * (util/recsort.h: beyond it, sorted runs in a temporary file), then fed here in that order:
 * memory is the buffer's, not the events'. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chrome/model.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/recsort.h"

/* An item of speedscope's queues: a B or E event, or an X event (its begin, or its end at ts +
 * dur); SEQ: the event's place in the thread's events. */
typedef struct cr_qev {
    double ts, dur;
    uint32_t name;
    uint64_t seq;
} cr_qev;

struct cr_bex {
    /* the frames open, their names and trie nodes */
    uint32_t *stack, *nodes;
    size_t depth, cap, nodes_cap;
    double last; /* the time the stack on top holds from */
    int started;
    /* the items of time NOW, not taken yet; items before BOUND are taken */
    double now, bound;
    int has_now;
    cr_qev *b, *xb, *e; /* B events, X begins, E events of NOW */
    size_t nb, nxb, ne, bcap, xbcap, ecap;
    cr_qev *heap; /* the ends of X events: a min-heap by (end, begin, seq) */
    size_t nh, hcap;
    cr_qev *gb, *ge; /* one time's items, in speedscope's order */
    size_t gbcap, gecap;
};

static foldsvg_status nomem(cr_doc *d)
{
    return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
}

void cr_bex_free(cr_bex *x)
{
    if (!x)
        return;
    free(x->stack);
    free(x->nodes);
    free(x->b);
    free(x->xb);
    free(x->e);
    free(x->heap);
    free(x->gb);
    free(x->ge);
    free(x);
}

/* ---- the run: time to the stack on top ---------------------------------------------------- */

static foldsvg_status advance(cr_doc *d, cr_thread *t, double at)
{
    cr_bex *r = t->bex;
    if (r->started && at > r->last) {
        uint32_t node = r->depth ? r->nodes[r->depth - 1] : 0;
        if (fs_trie_add(&t->trie, node, at - r->last))
            return nomem(d);
    }
    if (!r->started || at > r->last)
        r->last = at;
    r->started = 1;
    return FOLDSVG_OK;
}

static foldsvg_status enter(cr_doc *d, cr_thread *t, double at, uint32_t name)
{
    cr_bex *r = t->bex;
    FS_FORWARD_IF_ERROR(advance(d, t, at));
    if (FS_GROW(r->stack, r->cap, r->depth + 1, 64) ||
        FS_GROW(r->nodes, r->nodes_cap, r->depth + 1, 64))
        return nomem(d);
    uint32_t parent = r->depth ? r->nodes[r->depth - 1] : 0, node;
    foldsvg_status st = fs_trie_child(&t->trie, parent, name, &node);
    if (st)
        return st == FOLDSVG_E_NOMEM ? nomem(d) : fs_error(d->err, st, d->file, "too many stacks");
    r->stack[r->depth] = name;
    r->nodes[r->depth++] = node;
    return FOLDSVG_OK;
}

static foldsvg_status leave(cr_doc *d, cr_thread *t, double at, uint32_t name)
{
    cr_bex *r = t->bex;
    if (!r->depth || r->stack[r->depth - 1] != name)
        return FOLDSVG_OK; /* speedscope leaves the stack as it is */
    FS_FORWARD_IF_ERROR(advance(d, t, at));
    r->depth--;
    return FOLDSVG_OK;
}

/* ---- the X ends to come -------------------------------------------------------------------- */

static int end_before(const cr_qev *a, const cr_qev *b)
{
    double ea = a->ts + a->dur, eb = b->ts + b->dur;
    if (ea != eb)
        return ea < eb;
    if (a->ts != b->ts)
        return a->ts < b->ts;
    if (a->dur != b->dur)
        return a->dur > b->dur;
    return a->seq < b->seq;
}

static foldsvg_status heap_push(cr_doc *d, cr_bex *r, cr_qev q)
{
    if (FS_GROW(r->heap, r->hcap, r->nh + 1, 16))
        return nomem(d);
    size_t i = r->nh++;
    while (i && end_before(&q, &r->heap[(i - 1) / 2])) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = q;
    return FOLDSVG_OK;
}

static cr_qev heap_pop(cr_bex *r)
{
    cr_qev top = r->heap[0], last = r->heap[--r->nh];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= r->nh)
            break;
        if (c + 1 < r->nh && end_before(&r->heap[c + 1], &r->heap[c]))
            c++;
        if (!end_before(&r->heap[c], &last))
            break;
        r->heap[i] = r->heap[c];
        i = c;
    }
    if (r->nh)
        r->heap[i] = last;
    return top;
}

/* ---- one time's items ---------------------------------------------------------------------- */

static int by_longer(const void *a, const void *b)
{
    const cr_qev *x = a, *y = b;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Takes the items of time AT: speedscope's two queues where they hold that time. */
static foldsvg_status take(cr_doc *d, cr_thread *t, double at)
{
    cr_bex *r = t->bex;
    size_t nb = 0, ne = 0;
    int here = r->has_now && r->now == at;
    size_t need_b = here ? r->nb + r->nxb : 0, need_e = (here ? r->ne : 0) + r->nh;
    if (FS_GROW(r->gb, r->gbcap, need_b + 1, 16) || FS_GROW(r->ge, r->gecap, need_e + 1, 16))
        return nomem(d);
    if (here) {
        if (r->nb)
            memcpy(r->gb, r->b, r->nb * sizeof *r->b);
        if (r->nxb > 1)
            qsort(r->xb, r->nxb, sizeof *r->xb, by_longer);
        if (r->nxb)
            memcpy(r->gb + r->nb, r->xb, r->nxb * sizeof *r->xb);
        if (r->ne)
            memcpy(r->ge, r->e, r->ne * sizeof *r->e);
        nb = r->nb + r->nxb;
        ne = r->ne;
        r->nb = r->nxb = r->ne = 0;
    }
    while (r->nh && r->heap[0].ts + r->heap[0].dur == at)
        r->ge[ne++] = heap_pop(r);
    size_t bi = 0, ei = 0;
    while (bi < nb || ei < ne) {
        if (ei == ne || (bi < nb && r->gb[bi].name == r->ge[ei].name)) {
            FS_FORWARD_IF_ERROR(enter(d, t, at, r->gb[bi++].name));
            continue;
        }
        /* of the E events of this time, one that closes the frame on top first */
        if (r->depth) {
            uint32_t top = r->stack[r->depth - 1];
            for (size_t k = ei + 1; k < ne; k++)
                if (r->ge[k].name == top) {
                    cr_qev tmp = r->ge[ei];
                    r->ge[ei] = r->ge[k];
                    r->ge[k] = tmp;
                    break;
                }
        }
        FS_FORWARD_IF_ERROR(leave(d, t, at, r->ge[ei++].name));
    }
    return FOLDSVG_OK;
}

/* Takes every time before LIMIT. */
static foldsvg_status take_before(cr_doc *d, cr_thread *t, double limit)
{
    cr_bex *r = t->bex;
    for (;;) {
        double at = HUGE_VAL;
        if (r->has_now && r->nb + r->nxb + r->ne)
            at = r->now;
        if (r->nh && r->heap[0].ts + r->heap[0].dur < at)
            at = r->heap[0].ts + r->heap[0].dur;
        if (!(at < limit))
            break;
        FS_FORWARD_IF_ERROR(take(d, t, at));
    }
    if (limit > r->bound)
        r->bound = limit;
    return FOLDSVG_OK;
}

static foldsvg_status add(cr_doc *d, cr_qev **a, size_t *n, size_t *cap, cr_qev q)
{
    if (FS_GROW(*a, *cap, *n + 1, 16))
        return nomem(d);
    (*a)[(*n)++] = q;
    return FOLDSVG_OK;
}

/* One event in its order. ENDS_KNOWN: the X ends are in the heap already. FS_STOP: the event
 * comes too late (an item of a time already taken). */
static foldsvg_status feed(cr_doc *d, cr_thread *t, char ph, double ts, double dur, uint32_t name,
                           uint64_t seq, int ends_known)
{
    cr_bex *r = t->bex;
    if (ts < r->bound || (ph == 'X' && !ends_known && ts + dur < r->bound))
        return FS_STOP; /* too late to be placed: the caller reads again, keeping the events */
    if (!r->has_now || ts > r->now) {
        FS_FORWARD_IF_ERROR(take_before(d, t, ts));
        r->now = ts;
        r->has_now = 1;
    }
    cr_qev q = {ts, dur, name, seq};
    if (ph == 'B')
        return add(d, &r->b, &r->nb, &r->bcap, q);
    if (ph == 'E')
        return add(d, &r->e, &r->ne, &r->ecap, q);
    FS_FORWARD_IF_ERROR(add(d, &r->xb, &r->nxb, &r->xbcap, q));
    return ends_known ? FOLDSVG_OK : heap_push(d, r, q);
}

static foldsvg_status bex_of(cr_doc *d, cr_thread *t)
{
    if (t->bex)
        return FOLDSVG_OK;
    t->bex = calloc(1, sizeof *t->bex);
    if (!t->bex)
        return nomem(d);
    t->bex->bound = -HUGE_VAL;
    return FOLDSVG_OK;
}

/* An item kept: an event's begin (PH 'B', 'E' or 'X'), or an X event's end ('x', at TS + DUR).
 * SEQ: the event's place in its thread's events. */
typedef struct kept {
    double ts, dur;
    uint64_t seq;
    uint32_t thread, name;
    char ph;
} kept;

static double kept_at(const kept *k)
{
    return k->ph == 'x' ? k->ts + k->dur : k->ts;
}

/* By thread, then time; ties in the thread's order (only begins need it: the ends of one time
 * go to the heap, which orders them). */
static int by_thread_time(const void *a, const void *b)
{
    const kept *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    double ax = kept_at(x), ay = kept_at(y);
    if (ax != ay)
        return ax < ay ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return (x->ph == 'x') - (y->ph == 'x');
}

static foldsvg_status kept_failed(cr_doc *d, foldsvg_status st)
{
    if (st == FOLDSVG_E_NOMEM)
        return nomem(d);
    return fs_error(d->err, st, d->file,
                    "cannot read back the trace events sorted in a temporary file: %s",
                    strerror(errno));
}

static foldsvg_status keep(cr_doc *d, const kept *k)
{
    if (!d->kept && !(d->kept = fs_recsort_new(sizeof *k, d->budget, by_thread_time)))
        return nomem(d);
    foldsvg_status st = fs_recsort_add(d->kept, k);
    return st ? kept_failed(d, st) : FOLDSVG_OK;
}

foldsvg_status cr_thread_event(cr_doc *d, cr_thread *t, char ph, double ts, double dur,
                               uint32_t name)
{
    uint64_t seq = t->nev++;
    if (d->keep) {
        kept k = {ts, dur, seq, t->index, name, ph};
        FS_FORWARD_IF_ERROR(keep(d, &k));
        if (ph == 'X') {
            k.ph = 'x';
            FS_FORWARD_IF_ERROR(keep(d, &k));
        }
        return FOLDSVG_OK;
    }
    FS_FORWARD_IF_ERROR(bex_of(d, t));
    return feed(d, t, ph, ts, dur, name, seq, 0);
}

foldsvg_status cr_doc_drop_events(cr_doc *d)
{
    fs_recsort_free(d->kept);
    d->kept = NULL;
    for (size_t i = 0; i < d->nthreads; i++) {
        cr_thread *t = d->threads[i];
        cr_bex_free(t->bex);
        t->bex = NULL;
        t->nev = 0;
        fs_trie_free(&t->trie);
        if (fs_trie_init(&t->trie, d->ordered))
            return nomem(d);
    }
    return FOLDSVG_OK;
}

/* The items kept of thread T, in order: an end goes to the heap of X ends when its time
 * comes, before any later time is taken (as if every end had been known from the start). */
static foldsvg_status feed_kept(cr_doc *d, cr_thread *t)
{
    foldsvg_status st = FOLDSVG_OK;
    if (!d->kept_sorted) {
        d->kept_sorted = 1;
        if ((st = fs_recsort_finish(d->kept)) || (st = fs_recsort_next(d->kept, &d->next_kept)))
            return kept_failed(d, st);
    }
    for (const kept *k; (k = d->next_kept) && k->thread == t->index;) {
        cr_qev q = {k->ts, k->dur, k->name, k->seq};
        st = k->ph == 'x' ? heap_push(d, t->bex, q)
                          : feed(d, t, k->ph, k->ts, k->dur, k->name, k->seq, 1);
        FS_FORWARD_IF_ERROR(st);
        if ((st = fs_recsort_next(d->kept, &d->next_kept)))
            return kept_failed(d, st);
    }
    return FOLDSVG_OK;
}

foldsvg_status cr_thread_build(cr_doc *d, cr_thread *t)
{
    FS_FORWARD_IF_ERROR(bex_of(d, t));
    if (d->kept)
        FS_FORWARD_IF_ERROR(feed_kept(d, t));
    return take_before(d, t, HUGE_VAL);
}
