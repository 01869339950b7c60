#include "frames/stream.h"

#include "frames/prune.h"

#include <stdlib.h>
#include <string.h>

#include "util/bytepos.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"

enum { FS_COMPACT_MIN = 1 << 16 };

foldsvg_status fs_stream_init(fs_stream *s, double minwidth)
{
    memset(s, 0, sizeof s[0]);
    s->minwidth = minwidth;
    s->compact_at = FS_COMPACT_MIN;
    s->next_shared = SIZE_MAX;
    s->opened_upto = SIZE_MAX;
    return fs_tree_init(&s->names);
}

void fs_stream_free(fs_stream *s)
{
    fs_tree_free(&s->names);
    fs_buf_free(&s->prev);
    fs_buf_free(&s->pending);
    free(s->open);
    free(s->kept);
    free(s->stack_before);
    free(s->stack_after);
    free(s->kept_stack);
    free(s->scan);
    memset(s, 0, sizeof s[0]);
}

/* The pruning rule (frames/prune.h) against the running total (or the final one, when known:
 * then nothing kept is dropped later). */
static int prunable(fs_stream *s, uint64_t width)
{
    uint64_t t = s->final_total > s->t ? s->final_total : s->t;
    if (t != s->limit_t) { /* the limit changes with the total only: one division a stack */
        s->limit = fs_prune_limit(s->minwidth, t);
        s->limit_t = t;
    }
    return t > 0 && fs_pruned(width, s->limit);
}

/* Kept frame F's name, from PENDING into the table. */
static foldsvg_status intern_pending(fs_stream *s, fs_frame *f)
{
    uint32_t len;
    memcpy(&len, s->pending.data + f->name, sizeof len);
    return fs_tree_intern(&s->names, s->pending.data + f->name + sizeof len, len, &f->name);
}

/* Every kept frame's name into the table. */
static foldsvg_status intern_all(fs_stream *s)
{
    for (size_t i = s->interned; i < s->nkept; i++)
        FS_FORWARD_IF_ERROR(intern_pending(s, &s->kept[i]));
    s->interned = s->nkept;
    fs_buf_clear(&s->pending);
    return FOLDSVG_OK;
}

static foldsvg_status compact(fs_stream *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->nkept; i++) {
        if (prunable(s, s->kept[i].end - s->kept[i].start))
            continue;
        if (i >= s->interned)
            FS_FORWARD_IF_ERROR(intern_pending(s, &s->kept[i]));
        if (s->defer)
            s->kept_stack[k] = s->kept_stack[i];
        s->kept[k++] = s->kept[i];
    }
    s->nkept = s->interned = k;
    fs_buf_clear(&s->pending);
    s->compact_at = k * 2 > FS_COMPACT_MIN ? k * 2 : FS_COMPACT_MIN;
    return FOLDSVG_OK;
}

static foldsvg_status push_kept(fs_stream *s, const fs_stream_open *o, size_t depth, uint32_t name)
{
    FS_FORWARD_IF_ERROR(FS_GROW(s->kept, s->kept_cap, s->nkept + 1, 1024));
    if (s->defer) {
        FS_FORWARD_IF_ERROR(FS_GROW(s->kept_stack, s->kept_stack_cap, s->nkept + 1, 1024));
        s->kept_stack[s->nkept] = o->stack;
    }
    s->kept[s->nkept++] =
        (fs_frame){FS_NONE, name, (uint32_t)depth, o->start, s->t, o->delta, o->has_delta};
    return FOLDSVG_OK;
}

/* O, closed and not prunable (close_from looks), among the frames kept. */
static foldsvg_status keep(fs_stream *s, const fs_stream_open *o, size_t depth)
{
    if (s->nkept == s->compact_at)
        FS_FORWARD_IF_ERROR(compact(s));
    uint32_t name;
    if (s->final_total) { /* against the final total, what is kept now stays: named now */
        FS_FORWARD_IF_ERROR(
            fs_tree_intern(&s->names, s->prev.data ? s->prev.data + o->off : "", o->len, &name));
        foldsvg_status st = push_kept(s, o, depth, name);
        s->interned = s->nkept;
        return st;
    }
    /* the name waits in PENDING (offsets there are 32-bit: past that, all are interned) */
    if (s->pending.len + sizeof(uint32_t) + o->len > UINT32_MAX)
        FS_FORWARD_IF_ERROR(intern_all(s));
    if (o->len > UINT32_MAX)
        return FOLDSVG_E_LIMIT;
    name = (uint32_t)s->pending.len;
    uint32_t len = (uint32_t)o->len;
    fs_buf_append(&s->pending, &len, sizeof len);
    fs_buf_append(&s->pending, s->prev.data ? s->prev.data + o->off : "", o->len);
    if (s->pending.failed)
        return FOLDSVG_E_NOMEM;
    return push_kept(s, o, depth, name);
}

/* A frame opens no earlier than its parent, so it is no wider: once one is pruned, so are
 * all below it. In sorted input most frames closed at a stack were opened by the stack
 * before (14 of the sorted bench row's 25 a stack) and are pruned: looked at once, not
 * each. */
static foldsvg_status close_from(fs_stream *s, size_t keep_depth)
{
    for (size_t i = keep_depth; i < s->depth; i++) {
        if (prunable(s, s->t - s->open[i].start))
            break;
        foldsvg_status st = keep(s, &s->open[i], i);
        if (st)
            return st;
    }
    if (keep_depth < s->depth)
        s->depth = keep_depth;
    return FOLDSVG_OK;
}

/* The leaf of the current stack gets the delta of its summed counts. */
static void finish_leaf(fs_stream *s)
{
    if (s->depth > 0 && s->leaf_diff) {
        int64_t d = fs_delta(s->leaf_count, s->leaf_before);
        s->open[s->depth - 1].delta = d;
        s->open[s->depth - 1].stack = s->unique - 1;
        uint64_t a = fs_delta_abs(d);
        if (a > s->delta_max)
            s->delta_max = a;
    }
}

foldsvg_status fs_stream_add(fs_stream *s, const char *stack, size_t len, uint64_t count,
                             uint64_t before, int is_diff, int *out_of_order)
{
    return fs_stream_add_split(s, stack, len, NULL, 0, SIZE_MAX, count, before, is_diff,
                               out_of_order);
}

foldsvg_status fs_stream_add_split(fs_stream *s, const char *stack, size_t len,
                                   const uint32_t *semis, size_t nsemis, size_t shared,
                                   uint64_t count, uint64_t before, int is_diff, int *out_of_order)
{
    return fs_stream_add_from(s, stack, 0, len, semis, nsemis, shared, count, before, is_diff,
                              out_of_order);
}

void fs_stream_next_shares(fs_stream *s, size_t next_shared, int cut)
{
    s->next_shared = next_shared;
    s->next_cut = cut;
}

uint64_t fs_stream_cut_below(const fs_stream *s)
{
    return s->defer || s->any_order ? 0 : fs_prune_least_kept(s->minwidth, s->final_total);
}

foldsvg_status fs_stream_add_from(fs_stream *s, const char *bytes, size_t from, size_t len,
                                  const uint32_t *semis, size_t nsemis, size_t shared,
                                  uint64_t count, uint64_t before, int is_diff, int *out_of_order)
{
    *out_of_order = 0;
    size_t next_shared = s->next_shared;
    int cut = s->next_cut;
    s->next_shared = SIZE_MAX;
    s->next_cut = 0;
    /* the stack's bytes from where it first differs from PREV (AT) on; the bytes before are
     * PREV's, and once PREV is the new stack its ';' are looked for there */
    const char *tail = bytes;
    if (count > UINT64_MAX - s->t)
        return FOLDSVG_E_OVERFLOW;
    size_t same = 0, pos = 0;
    if (s->depth > 0) {
        const char *prev = s->prev.data;
        size_t plen = s->prev.len;
        size_t m = len < plen ? len : plen;
        if (from > m)
            return FOLDSVG_E_ARG; /* bytes of the stack that differ from PREV not given */
        size_t at = shared <= m && shared >= from
                        ? shared
                        : from + fs_mismatch(bytes, from ? prev + from : prev, m - from);
        tail = bytes + (at - from);
        if (!s->any_order &&
            (at > s->opened_upto ||
             (at < m ? (unsigned char)tail[0] < (unsigned char)prev[at] : len < plen))) {
            *out_of_order = 1;
            return FOLDSVG_OK;
        }
        if (at == len && len == plen) {
            /* the same stack again: it opens nothing; its counts add up */
            s->t += count;
            s->leaf_count += count;
            if (s->defer) {
                s->stack_after[s->nstacks - 1] += count;
                s->stack_before[s->nstacks - 1] += is_diff ? before : 0;
            }
            if (is_diff) {
                s->leaf_before += before;
                if (!s->leaf_diff)
                    for (size_t i = s->opened_from; i < s->depth; i++)
                        s->open[i].has_delta = 1;
                s->leaf_diff = 1;
            }
            return FOLDSVG_OK;
        }
        finish_leaf(s);
        /* An open frame stays open when it and the ';' after it lie before the first
         * difference, or when it was the previous leaf and the new stack goes deeper, or (in
         * any order) when it is the new stack's leaf and the previous stack went deeper. */
        same = 1; /* the root */
        while (same < s->depth) {
            size_t end = s->open[same].off + s->open[same].len;
            if (!(end < at || (end == at && at == plen && tail[0] == ';') ||
                  (end == at && at == len && prev[at] == ';')))
                break;
            same++;
        }
        pos = same > 1 ? s->open[same - 1].off + s->open[same - 1].len + 1 : 0;
        foldsvg_status st = close_from(s, same);
        if (st)
            return st;
        /* The kept frames' bytes are equal in both stacks: only the rest is copied. */
        s->prev.len = at;
        if (fs_buf_append(&s->prev, tail, len - at) != 0)
            return FOLDSVG_E_NOMEM;
    } else if (from > 0) {
        return FOLDSVG_E_ARG; /* a first stack needs all of its bytes */
    } else if (fs_buf_append(&s->prev, bytes, len) != 0) {
        return FOLDSVG_E_NOMEM;
    }
    size_t opened_from = same;
    if (same == 0) {
        if (FS_GROW(s->open, s->open_cap, 1, 64) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        s->open[0] = (fs_stream_open){0, 0, s->t, 0, is_diff, SIZE_MAX};
        same = 1;
    }
    size_t d = same;
    /* the frames kept end at the first SAME - 1 separators: the new ones start after them;
     * none when the kept ones are all of the stack (in any order: a stack that ends where
     * the one before went on) */
    size_t k = same - 1;
    size_t own_from = SIZE_MAX;
    if (pos > len)
        goto opened;
    /* A new frame that ends past NEXT_SHARED closes at the next stack: it is as wide as
     * COUNT, and so are those below it. Too narrow for the limit at this total, it is too
     * narrow at any later one (prune.h): it and those below are left unopened. */
    if (next_shared < len && !is_diff && !s->defer && !s->any_order && prunable(s, count)) {
        own_from = next_shared;
        if (own_from < pos) /* every new frame ends past it */
            goto opened;
    } else if (cut) {
        return FOLDSVG_E_ARG; /* a stack cut short whose own frames would count */
    }
    if (semis && shared != SIZE_MAX) {
        /* the caller's list starts at the shared bytes, which lie after the kept frames'
         * separators: at most one of it (a kept leaf's, at the first difference) is before POS */
        k = 0;
        while (k < nsemis && semis[k] < pos)
            k++;
    } else if (!semis) { /* found here, after them (past OWN_FROM, one is enough) */
        size_t upto = own_from < len ? own_from + 1 : len;
        s->nscan = 0;
        if (fs_byte_positions_add((s->prev.data ? s->prev.data : "") + pos, upto - pos, ';',
                                  (uint32_t)pos, &s->scan, &s->scan_cap, &s->nscan) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        semis = s->scan;
        nsemis = s->nscan;
        k = 0;
    }
    for (;;) {
        int semi = k < nsemis;
        size_t flen = semi ? semis[k++] - pos : len - pos;
        if (pos + flen > own_from)
            break;
        if (d == s->open_cap && FS_GROW(s->open, s->open_cap, d + 1, 64) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        s->open[d++] = (fs_stream_open){pos, flen, s->t, 0, is_diff, SIZE_MAX};
        if (!semi)
            break;
        pos += flen + 1;
    }
opened:
    if (s->defer) {
        if (s->nstacks == s->stacks_cap) { /* parallel arrays: one capacity */
            size_t cap = fs_grow_cap(s->stacks_cap, s->nstacks + 1, 1024, sizeof(uint64_t));
            if (!cap || fs_resize(&s->stack_before, cap, sizeof(uint64_t)) != FOLDSVG_OK ||
                fs_resize(&s->stack_after, cap, sizeof(uint64_t)) != FOLDSVG_OK)
                return FOLDSVG_E_NOMEM;
            s->stacks_cap = cap;
        }
        s->stack_before[s->nstacks] = is_diff ? before : 0;
        s->stack_after[s->nstacks++] = count;
    }
    s->opened_from = opened_from;
    s->opened_upto = own_from;
    s->depth = d;
    s->leaf_count = count;
    s->leaf_before = is_diff ? before : 0;
    s->leaf_diff = is_diff;
    s->t += count;
    s->unique++;
    return FOLDSVG_OK;
}

foldsvg_status fs_stream_finish(fs_stream *s)
{
    finish_leaf(s);
    foldsvg_status st = close_from(s, 0);
    /* the frames too narrow for the final total are left out here rather than drawn: their
     * names need not be interned (most of those waiting, in a large input) */
    if (st == FOLDSVG_OK)
        st = compact(s);
    s->names.total = s->t;
    return st;
}

void fs_stream_defer_deltas(fs_stream *s)
{
    s->defer = 1;
}

void fs_stream_any_order(fs_stream *s)
{
    s->any_order = 1;
}

static int by_drawing_order(const void *x, const void *y)
{
    const fs_frame *a = x, *b = y;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return (a->depth > b->depth) - (a->depth < b->depth);
}

void fs_stream_mirror(fs_stream *s)
{
    for (size_t i = 0; i < s->nkept; i++) {
        fs_frame *f = &s->kept[i];
        uint64_t start = f->start;
        f->start = s->t - f->end;
        f->end = s->t - start;
    }
    /* no two frames share an end and a depth: the order is total */
    qsort(s->kept, s->nkept, sizeof *s->kept, by_drawing_order);
}

size_t fs_stream_rescale(fs_stream *s, uint64_t (*scale)(void *user, uint64_t before), void *user)
{
    size_t counted = 0;
    s->delta_max = 0;
    for (size_t i = 0; i < s->nstacks; i++) {
        uint64_t b = scale(user, s->stack_before[i]);
        uint64_t a = fs_delta_abs(fs_delta(s->stack_after[i], b));
        if (a > s->delta_max)
            s->delta_max = a;
        counted += b != 0 || s->stack_after[i] != 0;
    }
    for (size_t k = 0; k < s->nkept; k++) {
        size_t i = s->kept_stack[k];
        if (i != SIZE_MAX)
            s->kept[k].delta = fs_delta(s->stack_after[i], scale(user, s->stack_before[i]));
    }
    return counted;
}
