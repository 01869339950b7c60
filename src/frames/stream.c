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
    return fs_tree_init(&s->names);
}

void fs_stream_free(fs_stream *s)
{
    fs_tree_free(&s->names);
    fs_buf_free(&s->prev);
    fs_buf_free(&s->held);
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
        s->kept_stack[s->nkept] = (fs_stream_span){o->stack, o->first, s->unique - 1};
    }
    s->kept[s->nkept++] = (fs_frame){.node = FS_NONE,
                                     .name = name,
                                     .depth = (uint32_t)depth,
                                     .start = o->start,
                                     .end = s->t,
                                     .delta = o->delta,
                                     .incl = o->incl,
                                     .has_delta = o->has_delta};
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

/* The leaf of the current stack gets the delta of its summed counts, and every frame open
 * (the stack's) adds it to its inclusive delta. */
static void finish_leaf(fs_stream *s)
{
    if (s->depth > 0 && s->leaf_diff) {
        int64_t d = fs_delta(s->leaf_count, s->leaf_before);
        s->open[s->depth - 1].delta = d;
        for (size_t i = 0; i < s->depth; i++)
            s->open[i].incl = fs_delta_add(s->open[i].incl, d);
        s->open[s->depth - 1].stack = s->unique - 1;
        uint64_t a = fs_delta_abs(d);
        if (a > s->delta_max)
            s->delta_max = a;
    }
}

uint64_t fs_stream_cut_below(const fs_stream *s)
{
    return s->defer || s->any_order ? 0 : fs_prune_least_kept(s->minwidth, s->final_total);
}

static void swap_bufs(fs_buf *a, fs_buf *b)
{
    fs_buf t = *a;
    *a = *b;
    *b = t;
}

/* The held stack (HELD, what it shares with PREV: HELD_SHARED) becomes the current one:
 * the frames it does not share with PREV are closed, its own opened. NEXT_SHARED: where the
 * stack after it first differs from it (SIZE_MAX: none comes). A new frame that ends past
 * that closes at the next stack: it is as wide as the count, and so are those below it; too
 * narrow for the limit at this total, it is too narrow at any later one (prune.h): it and
 * those below are left unopened (most frames of a large sorted input). */
static foldsvg_status take_held(fs_stream *s, size_t next_shared)
{
    uint64_t count = s->held_count, before = s->held_before;
    int is_diff = s->held_diff;
    size_t len = s->held.len;
    if (count > UINT64_MAX - s->t)
        return FOLDSVG_E_OVERFLOW;
    size_t same = 0, pos = 0;
    if (s->depth > 0) {
        const char *stack = s->held.data, *prev = s->prev.data;
        size_t at = s->held_shared, plen = s->prev.len;
        finish_leaf(s);
        /* An open frame stays open when it and the ';' after it lie before the first
         * difference, or when it was the previous leaf and the new stack goes deeper, or (in
         * any order) when it is the new stack's leaf and the previous stack went deeper. */
        same = 1; /* the root */
        while (same < s->depth) {
            size_t end = s->open[same].off + s->open[same].len;
            if (!(end < at || (end == at && at == plen && stack[at] == ';') ||
                  (end == at && at == len && prev[at] == ';')))
                break;
            same++;
        }
        pos = same > 1 ? s->open[same - 1].off + s->open[same - 1].len + 1 : 0;
        FS_FORWARD_IF_ERROR(close_from(s, same));
    }
    swap_bufs(&s->prev, &s->held); /* the kept frames' bytes are equal in both stacks */
    fs_buf_clear(&s->held);
    size_t opened_from = same;
    if (same == 0) {
        if (FS_GROW(s->open, s->open_cap, 1, 64) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        s->open[0] = (fs_stream_open){0, 0, s->t, 0, 0, is_diff, SIZE_MAX, s->unique};
        same = 1;
    }
    size_t d = same;
    /* the frames kept end at the first SAME - 1 separators: the new ones start after them;
     * none when the kept ones are all of the stack (in any order: a stack that ends where
     * the one before went on) */
    size_t own_from =
        next_shared < len && !is_diff && !s->defer && !s->any_order && prunable(s, count)
            ? next_shared
            : SIZE_MAX;
    if (pos <= len && (own_from == SIZE_MAX || own_from >= pos)) {
        /* the new frames' ';' (past OWN_FROM, one is enough) */
        size_t upto = own_from < len ? own_from + 1 : len;
        s->nscan = 0;
        if (fs_byte_positions_add((s->prev.data ? s->prev.data : "") + pos, upto - pos, ';',
                                  (uint32_t)pos, &s->scan, &s->scan_cap, &s->nscan) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        for (size_t k = 0;;) {
            int semi = k < s->nscan;
            size_t flen = semi ? s->scan[k++] - pos : len - pos;
            if (pos + flen > own_from)
                break;
            if (d == s->open_cap && FS_GROW(s->open, s->open_cap, d + 1, 64) != FOLDSVG_OK)
                return FOLDSVG_E_NOMEM;
            s->open[d++] = (fs_stream_open){pos, flen, s->t, 0, 0, is_diff, SIZE_MAX, s->unique};
            if (!semi)
                break;
            pos += flen + 1;
        }
    }
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
    s->depth = d;
    s->leaf_count = count;
    s->leaf_before = is_diff ? before : 0;
    s->leaf_diff = is_diff;
    s->t += count;
    s->unique++;
    s->have_held = 0;
    return FOLDSVG_OK;
}

foldsvg_status fs_stream_add(fs_stream *s, const char *stack, size_t len, uint64_t count,
                             uint64_t before, int is_diff, int *out_of_order)
{
    *out_of_order = 0;
    size_t at = SIZE_MAX;
    if (s->have_held) {
        size_t plen = s->held.len, m = len < plen ? len : plen;
        const char *p = s->held.data;
        at = fs_mismatch(stack, p, m);
        if (!s->any_order &&
            (at < m ? (unsigned char)stack[at] < (unsigned char)p[at] : len < plen)) {
            *out_of_order = 1;
            return FOLDSVG_OK;
        }
        if (at == len && len == plen) {
            /* the same stack again: its counts add up */
            if (count > UINT64_MAX - s->held_count ||
                (is_diff && before > UINT64_MAX - s->held_before))
                return FOLDSVG_E_OVERFLOW;
            s->held_count += count;
            s->held_before += is_diff ? before : 0;
            s->held_diff |= is_diff;
            return FOLDSVG_OK;
        }
        FS_FORWARD_IF_ERROR(take_held(s, at));
    }
    if (fs_buf_append(&s->held, stack, len) != 0)
        return FOLDSVG_E_NOMEM;
    s->held_shared = at;
    s->held_count = count;
    s->held_before = is_diff ? before : 0;
    s->held_diff = is_diff;
    s->have_held = 1;
    return FOLDSVG_OK;
}

foldsvg_status fs_stream_finish(fs_stream *s)
{
    if (s->have_held)
        FS_FORWARD_IF_ERROR(take_held(s, SIZE_MAX));
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
        size_t i = s->kept_stack[k].leaf;
        if (i != SIZE_MAX)
            s->kept[k].delta = fs_delta(s->stack_after[i], scale(user, s->stack_before[i]));
    }
    /* inclusive: the stacks under a frame are a run; prefix sums of both sides (their totals
     * fit: AFTER's was read, BEFORE's scaled sum was checked) give each frame's in one step */
    uint64_t a = 0, b = 0;
    for (size_t i = 0; i < s->nstacks; i++) {
        a += s->stack_after[i];
        b += scale(user, s->stack_before[i]);
        s->stack_after[i] = a;
        s->stack_before[i] = b;
    }
    for (size_t k = 0; k < s->nkept; k++) {
        const fs_stream_span *sp = &s->kept_stack[k];
        uint64_t a0 = sp->first ? s->stack_after[sp->first - 1] : 0;
        uint64_t b0 = sp->first ? s->stack_before[sp->first - 1] : 0;
        s->kept[k].incl = fs_delta(s->stack_after[sp->last] - a0, s->stack_before[sp->last] - b0);
    }
    return counted;
}
