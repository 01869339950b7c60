#include "frames/merge.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

typedef struct open_frame {
    uint32_t node;
    uint64_t start;
    int64_t delta, incl;
    int has_delta;
} open_frame;

typedef struct merger {
    const fs_tree *tree;
    open_frame *open;
    size_t depth, cap;
    uint64_t t;
    fs_frame_fn fn;
    void *user;
    int failed; /* allocation failure */
} merger;

int64_t fs_delta(uint64_t after, uint64_t before)
{
    if (after >= before) {
        uint64_t d = after - before;
        return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
    }
    uint64_t d = before - after;
    return d > (uint64_t)INT64_MAX ? -INT64_MAX : -(int64_t)d;
}

/* Closes the open frames at depth >= KEEP, shallowest first (inferno's order). */
static int close_from(merger *m, size_t keep)
{
    for (size_t i = keep; i < m->depth; i++) {
        const open_frame *o = &m->open[i];
        fs_frame f = {.node = o->node,
                      .name = m->tree->nodes[o->node].name,
                      .depth = (uint32_t)i,
                      .start = o->start,
                      .end = m->t,
                      .delta = o->delta,
                      .incl = o->incl,
                      .has_delta = o->has_delta};
        int rc = m->fn(m->user, &f);
        if (rc)
            return rc;
    }
    if (keep < m->depth)
        m->depth = keep;
    return 0;
}

/* PATH[0] is the root. */
static int merge_stack(merger *m, const uint32_t *path, size_t n, uint64_t count, int has_delta,
                       int64_t delta)
{
    size_t same = 0;
    while (same < n && same < m->depth && m->open[same].node == path[same])
        same++;
    int rc = close_from(m, same);
    if (rc)
        return rc;
    if (FS_GROW(m->open, m->cap, n, 64) != FOLDSVG_OK) {
        m->failed = 1;
        return -1;
    }
    for (size_t i = same; i < n; i++) {
        int leaf = i == n - 1;
        m->open[i] = (open_frame){path[i], m->t, has_delta && leaf ? delta : 0, 0, has_delta};
    }
    for (size_t i = 0; has_delta && i < n; i++)
        m->open[i].incl = fs_delta_add(m->open[i].incl, delta);
    m->depth = n;
    m->t += count;
    return 0;
}

static int stack_delta(const fs_tree *t, uint32_t node, int64_t *delta)
{
    if (!t->is_diff || !t->is_diff[node])
        return 0;
    *delta = fs_delta(t->nodes[node].count, t->before[node]);
    return 1;
}

static int on_sorted_stack(void *user, const uint32_t *path, size_t n)
{
    merger *m = user;
    uint32_t leaf = path[n - 1];
    int64_t delta = 0;
    int has_delta = stack_delta(m->tree, leaf, &delta);
    return merge_stack(m, path, n, m->tree->nodes[leaf].count, has_delta, delta);
}

static int replay_log(merger *m, const fs_order_log *log)
{
    uint32_t *path = NULL;
    size_t cap = 0;
    int rc = 0;
    for (size_t k = log->n; k-- > 0;) {
        size_t n = 0;
        for (uint32_t x = log->leaf[k]; x != FS_NONE; x = m->tree->nodes[x].parent)
            n++;
        if (FS_GROW(path, cap, n, 64) != FOLDSVG_OK) {
            m->failed = 1;
            rc = -1;
            break;
        }
        size_t i = n;
        for (uint32_t x = log->leaf[k]; x != FS_NONE; x = m->tree->nodes[x].parent)
            path[--i] = x;
        int is_diff = log->is_diff && log->is_diff[k];
        int64_t delta = is_diff ? fs_delta(log->count[k], log->before[k]) : 0;
        rc = merge_stack(m, path, n, log->count[k], is_diff, delta);
        if (rc)
            break;
    }
    free(path);
    return rc;
}

int fs_generate_frames(const fs_tree *tree, const fs_order_log *log, fs_frame_fn fn, void *user,
                       foldsvg_status *st)
{
    merger m = {tree, NULL, 0, 0, 0, fn, user, 0};
    *st = FOLDSVG_OK;
    int rc;
    if (log) {
        rc = replay_log(&m, log);
    } else {
        foldsvg_status wst;
        rc = fs_tree_walk_sorted(tree, on_sorted_stack, &m, &wst);
        if (wst)
            *st = wst;
    }
    if (!rc)
        rc = close_from(&m, 0);
    if (m.failed)
        *st = FOLDSVG_E_NOMEM;
    free(m.open);
    return rc;
}

void fs_order_log_free(fs_order_log *log)
{
    free(log->leaf);
    free(log->count);
    free(log->before);
    free(log->is_diff);
    memset(log, 0, sizeof *log);
}

foldsvg_status fs_order_log_add(fs_order_log *log, uint32_t leaf, uint64_t count, uint64_t before,
                                int is_diff)
{
    /* The same stack again: one longer entry draws the same frames (merge_stack keeps them
     * open), so the log grows with the stack changes, not the samples. The tree summed the
     * counts before, without overflow: so can the entry. */
    if (log->n && log->leaf[log->n - 1] == leaf && !is_diff &&
        !(log->is_diff && log->is_diff[log->n - 1])) {
        log->count[log->n - 1] += count;
        return FOLDSVG_OK;
    }
    if (log->n == log->cap) {
        /* parallel arrays: one capacity, each array resized to it */
        size_t cap = fs_grow_cap(log->cap, log->n + 1, 1024, sizeof *log->count);
        if (!cap)
            return FOLDSVG_E_NOMEM;
        FS_FORWARD_IF_ERROR(fs_resize(&log->leaf, cap, sizeof *log->leaf));
        FS_FORWARD_IF_ERROR(fs_resize(&log->count, cap, sizeof *log->count));
        if (log->before) {
            FS_FORWARD_IF_ERROR(fs_resize(&log->before, cap, sizeof *log->before));
            FS_FORWARD_IF_ERROR(fs_resize(&log->is_diff, cap, 1));
        }
        log->cap = cap;
    }
    if (is_diff && !log->before) {
        log->before = calloc(log->cap, sizeof *log->before);
        log->is_diff = calloc(log->cap, 1);
        if (!log->before || !log->is_diff)
            return FOLDSVG_E_NOMEM;
    }
    log->leaf[log->n] = leaf;
    log->count[log->n] = count;
    if (log->before) {
        log->before[log->n] = before;
        log->is_diff[log->n] = (uint8_t)(is_diff != 0);
    }
    log->n++;
    return FOLDSVG_OK;
}
