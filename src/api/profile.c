#include "api/profile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transform/sanitize.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"

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
    fs_buf_free(&p->names);
    fs_buf_free(&p->facts_log);
    fs_buf_free(&p->carried_names);
    free(p->frames);
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
    FS_FORWARD_IF_ERROR(FS_GROW(p->frames, p->frames_cap, n, 64));
    FS_FORWARD_IF_ERROR(fs_sanitize_frames(p->frames, frames, n, &p->names, &n));
    if (n == 0)
        return fs_tree_add_frames(&p->tree, &unknown, 1, count, 0, 0, leaf);
    return fs_tree_add_frames(&p->tree, p->frames, n, count, 0, 0, leaf);
}

foldsvg_status foldsvg_profile_record_stack(foldsvg_profile *p, const char *const *frames,
                                            size_t nframes, uint64_t cycles)
{
    if (!p || (!frames && nframes > 0))
        return FOLDSVG_E_ARG;
    if (nframes > SIZE_MAX / sizeof(fs_strref)) /* no caller has that many: a wrong count */
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

/* ---- input facts ------------------------------------------------------------------------ */

/* NAME appended to the ", "-separated LIST (CAP bytes), "..." when it does not fit. */
static void append_list(char *list, size_t cap, const char *name)
{
    size_t have = strlen(list);
    if (!name[0] || (have >= 3 && strcmp(list + have - 3, "...") == 0))
        return;
    const char *sep = have ? ", " : "";
    if (have + strlen(sep) + strlen(name) + 4 < cap)
        snprintf(list + have, cap - have, "%s%s", sep, name);
    else if (have + 6 < cap)
        snprintf(list + have, cap - have, "%s...", sep);
}

static void append_file(fs_profile_facts *f, const char *name)
{
    append_list(f->files, sizeof f->files, name);
}

void fs_profile_facts_set(fs_profile_facts *f, const char *format, const char *product,
                          uint32_t threads, uint64_t rate)
{
    snprintf(f->format, sizeof f->format, "%s", format);
    snprintf(f->product, sizeof f->product, "%s", product);
    f->threads = threads;
    f->rate = rate;
}

void fs_profile_threads_text(const fs_profile_facts *f, char *buf, size_t size)
{
    if (f->thread_names[0] && f->threads == 1)
        snprintf(buf, size, "%s", f->thread_names);
    else if (f->thread_names[0])
        snprintf(buf, size, "%lu: %s", (unsigned long)f->threads, f->thread_names);
    else
        snprintf(buf, size, "%lu", (unsigned long)f->threads);
}

/* The first input sets a text fact; a later one that says something else makes it
 * "mixed". */
static void merge_text(char *dst, size_t cap, const char *src, uint32_t before)
{
    if (!src[0])
        return;
    if (before == 0 || !dst[0])
        snprintf(dst, cap, "%s", src);
    else if (strcmp(dst, src) != 0)
        snprintf(dst, cap, "mixed");
}

void fs_profile_note_input(foldsvg_profile *p, const fs_profile_facts *in)
{
    if (!p || !in)
        return;
    fs_profile_facts *f = &p->facts;
    uint32_t before = f->ninputs;
    append_file(f, in->files[0] ? in->files : "<stdin>");
    merge_text(f->format, sizeof f->format, in->format, before);
    merge_text(f->product, sizeof f->product, in->product, before);
    f->gzip |= in->gzip;
    f->threads += in->threads;
    append_list(f->thread_names, sizeof f->thread_names, in->thread_names);
    if (before == 0 || f->interval_ms == in->interval_ms)
        f->interval_ms = in->interval_ms;
    else
        f->interval_ms = 0;
    if (before == 0 || f->rate == in->rate)
        f->rate = in->rate;
    else
        f->rate = 0;
    f->ninputs++;
}
