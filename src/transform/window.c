#include "transform/window.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"

/* Stacks are copied into chunks of this size (a longer one into one of its own); a chunk is
 * given back once every stack in it has left, so the window holds little more than its
 * limit, and no stack is copied twice. */
enum { CHUNK = 64 << 10 };

void fs_window_init(fs_window *w, size_t limit, fs_window_out out, void *user)
{
    memset(w, 0, sizeof *w);
    w->limit = limit;
    w->out = out;
    w->user = user;
}

void fs_window_clear(fs_window *w)
{
    for (size_t i = 0; i < w->nchunks; i++)
        free(w->chunks[i].data);
    w->nchunks = 0;
    w->first_chunk = 0;
    w->head = w->n = w->held = 0;
}

void fs_window_free(fs_window *w)
{
    fs_window_clear(w);
    free(w->chunks);
    free(w->v);
    memset(w, 0, sizeof *w);
}

static fs_window_chunk *chunk_of(fs_window *w, const fs_window_line *e)
{
    return &w->chunks[e->chunk - w->first_chunk];
}

static int before(fs_window *w, const fs_folded_line *l, const fs_window_line *e)
{
    return fs_strcmp_bytes(l->stack, l->len, chunk_of(w, e)->data + e->off, e->len) < 0;
}

/* The first stack held leaves; the chunks before the last that hold no stack any more go. */
static foldsvg_status leave(fs_window *w, foldsvg_error *err)
{
    const fs_window_line *e = &w->v[w->head++];
    fs_window_chunk *c = chunk_of(w, e);
    w->held -= e->len;
    c->live--;
    fs_folded_line l = {c->data + e->off, e->len, e->count, e->before, e->is_diff, e->lineno};
    foldsvg_status st = w->out(w->user, &l, err);
    size_t gone = 0;
    while (gone + 1 < w->nchunks && w->chunks[gone].live == 0)
        free(w->chunks[gone++].data);
    if (gone) {
        w->nchunks -= gone;
        memmove(w->chunks, w->chunks + gone, w->nchunks * sizeof *w->chunks);
        w->first_chunk += gone;
    }
    return st;
}

static foldsvg_status nomem(foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
}

/* Where LEN bytes go: the end of the last chunk, or a new one. */
static fs_window_chunk *room(fs_window *w, size_t len)
{
    if (w->nchunks > 0) {
        fs_window_chunk *c = &w->chunks[w->nchunks - 1];
        if (c->cap - c->used >= len)
            return c;
    }
    if (FS_GROW(w->chunks, w->chunks_cap, w->nchunks + 1, 16) != FOLDSVG_OK)
        return NULL;
    size_t cap = len > CHUNK ? len : CHUNK;
    char *data = malloc(cap);
    if (!data)
        return NULL;
    w->chunks[w->nchunks] = (fs_window_chunk){data, 0, cap, 0};
    return &w->chunks[w->nchunks++];
}

foldsvg_status fs_window_put(fs_window *w, const fs_folded_line *l, int after_tail,
                             foldsvg_error *err)
{
    if (w->n == w->cap && w->head > 0) {
        memmove(w->v, w->v + w->head, (w->n - w->head) * sizeof *w->v);
        w->n -= w->head;
        w->head = 0;
    }
    if (FS_GROW(w->v, w->cap, w->n + 1, 256) != FOLDSVG_OK)
        return nomem(err);
    /* after the last stack held that does not sort after L (sorted input: the end) */
    size_t at = w->n;
    if (!after_tail && at > w->head && before(w, l, &w->v[at - 1])) {
        size_t lo = w->head, hi = at - 1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (before(w, l, &w->v[mid]))
                hi = mid;
            else
                lo = mid + 1;
        }
        at = lo;
    }
    fs_window_chunk *c = room(w, l->len);
    if (!c)
        return nomem(err);
    memcpy(c->data + c->used, l->stack, l->len);
    w->last = c->data + c->used;
    memmove(w->v + at + 1, w->v + at, (w->n - at) * sizeof *w->v);
    w->v[at] = (fs_window_line){w->first_chunk + (size_t)(c - w->chunks),
                                c->used,
                                l->len,
                                l->count,
                                l->before,
                                l->lineno,
                                l->is_diff};
    c->used += l->len;
    c->live++;
    w->n++;
    w->tail_put = at + 1 == w->n;
    w->held += l->len;
    while (w->held > w->limit && w->head < w->n)
        FS_FORWARD_IF_ERROR(leave(w, err));
    return FOLDSVG_OK;
}

foldsvg_status fs_window_flush(fs_window *w, foldsvg_error *err)
{
    while (w->head < w->n)
        FS_FORWARD_IF_ERROR(leave(w, err));
    fs_window_clear(w);
    return FOLDSVG_OK;
}
