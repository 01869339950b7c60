#include "lib/profile.h"

#include <stdlib.h>
#include <string.h>

#include "fold/sanitize.h"
#include "util/buf.h"

const char *foldsvg_version(void)
{
    return FOLDSVG_VERSION_STRING;
}

void foldsvg_free(void *ptr)
{
    free(ptr);
}

foldsvg_profile *foldsvg_profile_new(void)
{
    foldsvg_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (fs_tree_init(&p->tree) != FOLDSVG_OK) {
        free(p);
        return NULL;
    }
    strcpy(p->count_name, "cycles");
    return p;
}

void foldsvg_profile_free(foldsvg_profile *p)
{
    if (!p)
        return;
    fs_tree_free(&p->tree);
    fs_order_log_free(&p->log);
    free(p->sanitize_buf);
    free(p);
}

foldsvg_status fs_profile_record_frames(foldsvg_profile *p, const fs_strref *frames, size_t n,
                                        uint64_t count, uint32_t *leaf)
{
    if (count == 0)
        return FOLDSVG_OK;
    static const fs_strref unknown = {FS_UNKNOWN_FRAME, sizeof FS_UNKNOWN_FRAME - 1};
    if (n == 0)
        return fs_tree_add_frames(&p->tree, &unknown, 1, count, 0, 0, leaf);
    /* Names that need no change (nearly all) are interned straight from the caller's
     * memory; the others go through one scratch buffer. */
    size_t need = 0;
    for (size_t i = 0; i < n; i++)
        if (fs_name_needs_sanitize(frames[i].ptr, frames[i].len))
            need += frames[i].len;
    if (need == 0)
        return fs_tree_add_frames(&p->tree, frames, n, count, 0, 0, leaf);
    if (need > p->sanitize_cap) {
        char *nb = realloc(p->sanitize_buf, need);
        if (!nb)
            return FOLDSVG_E_NOMEM;
        p->sanitize_buf = nb;
        p->sanitize_cap = need;
    }
    fs_strref *copy = malloc(n * sizeof *copy);
    if (!copy)
        return FOLDSVG_E_NOMEM;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        copy[i] = frames[i];
        if (fs_name_needs_sanitize(frames[i].ptr, frames[i].len)) {
            fs_sanitize_name(p->sanitize_buf + off, frames[i].ptr, frames[i].len);
            copy[i].ptr = p->sanitize_buf + off;
            off += frames[i].len;
        }
    }
    foldsvg_status st = fs_tree_add_frames(&p->tree, copy, n, count, 0, 0, leaf);
    free(copy);
    return st;
}

foldsvg_status foldsvg_profile_record_stack(foldsvg_profile *p, const char *const *frames,
                                            size_t nframes, uint64_t cycles)
{
    if (!p || (!frames && nframes > 0))
        return FOLDSVG_E_ARG;
    fs_strref small[64];
    fs_strref *refs = nframes <= 64 ? small : malloc(nframes * sizeof *refs);
    if (!refs)
        return FOLDSVG_E_NOMEM;
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < nframes; i++) {
        if (!frames[i]) {
            st = FOLDSVG_E_ARG;
            break;
        }
        refs[i].ptr = frames[i];
        refs[i].len = strlen(frames[i]);
    }
    if (st == FOLDSVG_OK)
        st = fs_profile_record_frames(p, refs, nframes, cycles, NULL);
    if (refs != small)
        free(refs);
    return st;
}

static foldsvg_status record_path(foldsvg_profile *p, const char *path, uint64_t before,
                                  uint64_t after, int is_diff)
{
    if (!p || !path)
        return FOLDSVG_E_ARG;
    if (after == 0 && !is_diff)
        return FOLDSVG_OK;
    size_t len = strlen(path);
    if (len == 0) {
        path = FS_UNKNOWN_FRAME;
        len = sizeof FS_UNKNOWN_FRAME - 1;
    }
    return fs_tree_add_path(&p->tree, path, len, after, before, is_diff, NULL);
}

foldsvg_status foldsvg_profile_record_path(foldsvg_profile *p, const char *path, uint64_t cycles)
{
    return record_path(p, path, 0, cycles, 0);
}

foldsvg_status foldsvg_profile_record_diff(foldsvg_profile *p, const char *path, uint64_t before,
                                           uint64_t after)
{
    if (before == 0 && after == 0)
        return p && path ? FOLDSVG_OK : FOLDSVG_E_ARG;
    return record_path(p, path, before, after, 1);
}

uint64_t foldsvg_profile_total(const foldsvg_profile *p)
{
    return p ? p->tree.total : 0;
}

size_t foldsvg_profile_unique_stacks(const foldsvg_profile *p)
{
    return p ? p->tree.unique : 0;
}

uint64_t foldsvg_profile_count(const foldsvg_profile *p, const char *path)
{
    if (!p || !path)
        return 0;
    uint32_t node = 0;
    const char *f = path;
    for (;;) {
        const char *semi = strchr(f, ';');
        size_t n = semi ? (size_t)(semi - f) : strlen(f);
        node = fs_tree_find_child(&p->tree, node, f, n);
        if (node == FS_NONE)
            return 0;
        if (!semi)
            break;
        f = semi + 1;
    }
    return p->tree.nodes[node].count;
}

const char *foldsvg_profile_count_name(const foldsvg_profile *p)
{
    return p ? p->count_name : "cycles";
}

typedef struct foreach_ctx {
    const fs_tree *t;
    foldsvg_stack_fn fn;
    void *user;
    fs_buf path;
    int nomem;
} foreach_ctx;

static int foreach_stack(void *user, const uint32_t *path, size_t n)
{
    foreach_ctx *c = user;
    fs_buf_clear(&c->path);
    for (size_t i = 1; i < n; i++) {
        fs_strref name = fs_tree_name(c->t, path[i]);
        if ((i > 1 && fs_buf_append(&c->path, ";", 1) != 0) ||
            fs_buf_append(&c->path, name.ptr, name.len) != 0) {
            c->nomem = 1;
            return 1;
        }
    }
    uint32_t leaf = path[n - 1];
    int diff = c->t->is_diff && c->t->is_diff[leaf];
    return c->fn(c->user, c->path.data ? c->path.data : "", c->path.len, c->t->nodes[leaf].count,
                 diff ? c->t->before[leaf] : 0, diff);
}

foldsvg_status foldsvg_profile_foreach(const foldsvg_profile *p, foldsvg_stack_fn fn, void *user)
{
    if (!p || !fn)
        return FOLDSVG_E_ARG;
    foreach_ctx c = {&p->tree, fn, user, {0}, 0};
    foldsvg_status st;
    fs_tree_walk_sorted(&p->tree, foreach_stack, &c, &st);
    fs_buf_free(&c.path);
    if (c.nomem)
        return FOLDSVG_E_NOMEM;
    return st;
}
