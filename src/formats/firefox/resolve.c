#include "formats/firefox/resolve.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/grow.h"

#define FF_BUSY UINT32_MAX

void ff_weight(const ff_model *m, const ff_weighting *w, const ff_thread *t, const ff_acc *a,
               fs_weight *out)
{
    if (w->weight_samples)
        *out = (fs_weight){(int64_t)a->n, 0, 0};
    else
        m->weight(w, t, a, out);
}

const char *ff_value_text(fs_json_value c, char *buf, size_t n)
{
    switch (c.tag) {
    case FS_JSON_NULL:
        return "null";
    case FS_JSON_INT:
        snprintf(buf, n, "%lld", (long long)c.v.i);
        return buf;
    case FS_JSON_NUM:
        snprintf(buf, n, "%g", c.v.d);
        return buf;
    case FS_JSON_STR:
        return "a string";
    case FS_JSON_BOOL:
        return c.v.i ? "true" : "false";
    default:
        return "an array or object";
    }
}

int ff_index_ok(fs_json_value c, size_t n)
{
    return c.tag == FS_JSON_INT && c.v.i >= 0 && (uint64_t)c.v.i < n;
}

foldsvg_status ff_bad_index(ff_res *r, const char *table, int64_t row, const char *col,
                            fs_json_value c, const char *target, size_t n, const char *unit)
{
    char b[48];
    return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                    "thread %zu %s row %lld: %s %s out of range (%s has %zu %s)", r->ti, table,
                    (long long)row, col, ff_value_text(c, b, sizeof b), target, n, unit);
}

foldsvg_status ff_prefix_parent(ff_res *r, int64_t s, fs_json_value c, int64_t *par)
{
    if (c.tag == FS_JSON_NULL) {
        *par = -1;
        return FOLDSVG_OK;
    }
    if (!ff_index_ok(c, r->nstacks))
        return ff_bad_index(r, "stackTable", s, "prefix", c, "table", r->nstacks, "rows");
    *par = c.v.i;
    return FOLDSVG_OK;
}

foldsvg_status ff_string_at(ff_res *r, const char *what, int64_t si, int64_t from_row,
                            fs_strref *out)
{
    if (ff_strings_get(r->strings, si, &out->ptr, &out->len) != 1)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu %s entry %lld (used by row %lld) is not a string", r->ti, what,
                        (long long)si, (long long)from_row);
    return FOLDSVG_OK;
}

static foldsvg_status nomem(const ff_res *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, r->file, "out of memory");
}

/* Depth of stack S (frames from root to S), memoized; detects cycles without recursion. */
static foldsvg_status depth_of(ff_res *r, int64_t s, uint32_t *out)
{
    size_t np = 0;
    int64_t cur = s;
    uint32_t base = 0;
    for (;;) {
        uint32_t d = r->depth[cur];
        if (d == FF_BUSY)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                            "thread %zu stackTable row %lld: the prefix chain has a cycle "
                            "(through row %lld)",
                            r->ti, (long long)s, (long long)cur);
        if (d) {
            base = d;
            break;
        }
        if (FS_GROW(r->path, r->cpath, np + 1, 256) != FOLDSVG_OK)
            return nomem(r);
        r->path[np++] = cur;
        r->depth[cur] = FF_BUSY;
        int64_t par;
        foldsvg_status st = r->m->parent(r, cur, &par);
        if (st) {
            for (size_t i = 0; i < np; i++) /* leave no BUSY marks behind */
                r->depth[r->path[i]] = 0;
            return st;
        }
        if (par < 0)
            break;
        cur = par;
    }
    while (np)
        r->depth[r->path[--np]] = ++base;
    *out = r->depth[s];
    return FOLDSVG_OK;
}

foldsvg_status ff_frames_of(ff_res *r, int64_t s, size_t *n)
{
    uint32_t d = 0;
    FS_FORWARD_IF_ERROR(depth_of(r, s, &d));
    if (FS_GROW(r->frames, r->cframes, d, 16) != FOLDSVG_OK)
        return nomem(r);
    int64_t cur = s;
    for (size_t i = d; i-- > 0;) {
        FS_FORWARD_IF_ERROR(r->m->frame_name(r, cur, &r->frames[i]));
        FS_FORWARD_IF_ERROR(r->m->parent(r, cur, &cur));
    }
    *n = d;
    return FOLDSVG_OK;
}
