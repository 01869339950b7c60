/* The speedscope output: a profile as one sampled profile of speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json), written with yajl's generator. Each
 * distinct stack is a sample with its count as weight (with --flamechart, each run of the
 * input order, in that order); the frames are the profile's names, listed once in
 * shared.frames, which comes last so that the stacks are written as they are walked. The
 * unit is speedscope's name for the count unit ("none" when it has none). */
#include "api/speedscope.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

#include "api/options.h"
#include "api/profile.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/utf8.h"

typedef struct sw {
    fs_out *out;
    yajl_gen g;
    const fs_tree *t;
    uint32_t *frame_of; /* name id -> frame index + 1; 0: not used yet */
    uint32_t *order;    /* frame index -> name id */
    uint32_t nframes;
    uint32_t *path;
    size_t path_cap;
    fs_buf clean;
    int failed;
} sw;

static void print(void *ctx, const char *s, size_t len)
{
    sw *w = ctx;
    if (fs_out_write(w->out, s, len) != FOLDSVG_OK)
        w->failed = 1;
}

static void str(sw *w, const char *s, size_t n)
{
    /* JSON is UTF-8: bytes that are not become U+FFFD */
    fs_buf_clear(&w->clean);
    if (fs_utf8_clean(&w->clean, s, n, NULL) != FOLDSVG_OK) {
        w->failed = 1;
        return;
    }
    yajl_gen_string(w->g, (const unsigned char *)w->clean.data, w->clean.len);
}

static void key(sw *w, const char *k)
{
    yajl_gen_string(w->g, (const unsigned char *)k, strlen(k));
}

static void u64(sw *w, uint64_t v)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%" PRIu64, v);
    yajl_gen_number(w->g, num, (size_t)n);
}

/* The stack ending at NODE as frame indexes, root first. */
static void sample(sw *w, uint32_t node)
{
    const fs_tree *t = w->t;
    size_t n = 0;
    for (uint32_t x = node; x != FS_NONE && t->nodes[x].parent != FS_NONE; x = t->nodes[x].parent) {
        if (n == w->path_cap) {
            size_t cap = w->path_cap ? w->path_cap * 2 : 64;
            uint32_t *p = realloc(w->path, cap * sizeof *p);
            if (!p) {
                w->failed = 1;
                return;
            }
            w->path = p;
            w->path_cap = cap;
        }
        w->path[n++] = t->nodes[x].name;
    }
    yajl_gen_array_open(w->g);
    for (size_t k = n; k-- > 0;) {
        uint32_t name = w->path[k];
        if (!w->frame_of[name]) {
            w->order[w->nframes] = name;
            w->frame_of[name] = ++w->nframes;
        }
        u64(w, w->frame_of[name] - 1);
    }
    yajl_gen_array_close(w->g);
}

/* speedscope's units: the count units that are one of them, else none. */
static const char *unit_of(const char *count_name)
{
    static const char *const same[] = {"nanoseconds", "microseconds", "milliseconds", "seconds",
                                       "bytes"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (strcmp(count_name, same[i]) == 0)
            return same[i];
    if (strcmp(count_name, "ms") == 0)
        return "milliseconds";
    if (strcmp(count_name, "ns") == 0)
        return "nanoseconds";
    if (strcmp(count_name, "us") == 0 || strcmp(count_name, "µs") == 0)
        return "microseconds";
    return "none";
}

foldsvg_status fs_output_speedscope(const foldsvg_profile *p, const foldsvg_options *o, fs_out *out,
                                    foldsvg_error *err)
{
    const fs_tree *t = &p->tree;
    sw w = {out,
            yajl_gen_alloc(NULL),
            t,
            calloc(t->nnames ? t->nnames : 1, sizeof(uint32_t)),
            malloc((t->nnames ? t->nnames : 1) * sizeof(uint32_t)),
            0,
            NULL,
            0,
            {0},
            0};
    if (!w.g || !w.frame_of || !w.order) {
        if (w.g)
            yajl_gen_free(w.g);
        free(w.frame_of);
        free(w.order);
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    }
    yajl_gen_config(w.g, yajl_gen_print_callback, print, &w);
    const char *count_name = o->countname ? o->countname : p->count_name;
    const char *name = p->facts.files[0] ? p->facts.files : "foldsvg";
    int ordered = o->stack.flamechart && p->has_log;
    yajl_gen_map_open(w.g);
    key(&w, "$schema");
    key(&w, "https://www.speedscope.app/file-format-schema.json");
    key(&w, "exporter");
    key(&w, "foldsvg@" FOLDSVG_VERSION_STRING);
    key(&w, "name");
    str(&w, name, strlen(name));
    key(&w, "activeProfileIndex");
    yajl_gen_integer(w.g, 0);
    key(&w, "profiles");
    yajl_gen_array_open(w.g);
    yajl_gen_map_open(w.g);
    key(&w, "type");
    key(&w, "sampled");
    key(&w, "name");
    str(&w, name, strlen(name));
    key(&w, "unit");
    key(&w, unit_of(count_name));
    key(&w, "startValue");
    yajl_gen_integer(w.g, 0);
    key(&w, "endValue");
    u64(&w, t->total);
    for (int pass = 0; pass < 2; pass++) {
        /* the stacks, then their weights, in the same order */
        key(&w, pass ? "weights" : "samples");
        yajl_gen_array_open(w.g);
        if (ordered) {
            for (size_t i = 0; i < p->log.n && !w.failed; i++) {
                if (!p->log.count[i])
                    continue;
                if (pass)
                    u64(&w, p->log.count[i]);
                else
                    sample(&w, p->log.leaf[i]);
            }
        } else {
            for (uint32_t i = 1; i < t->nnodes && !w.failed; i++) {
                if (!t->nodes[i].count)
                    continue;
                if (pass)
                    u64(&w, t->nodes[i].count);
                else
                    sample(&w, i);
            }
        }
        yajl_gen_array_close(w.g);
    }
    yajl_gen_map_close(w.g);
    yajl_gen_array_close(w.g);
    key(&w, "shared");
    yajl_gen_map_open(w.g);
    key(&w, "frames");
    yajl_gen_array_open(w.g);
    for (uint32_t i = 0; i < w.nframes && !w.failed; i++) {
        fs_strref nm = {t->name_ptr[w.order[i]], t->name_len[w.order[i]]};
        yajl_gen_map_open(w.g);
        key(&w, "name");
        str(&w, nm.ptr, nm.len);
        yajl_gen_map_close(w.g);
    }
    yajl_gen_array_close(w.g);
    yajl_gen_map_close(w.g);
    yajl_gen_map_close(w.g);
    print(&w, "\n", 1);
    yajl_gen_free(w.g);
    free(w.frame_of);
    free(w.order);
    free(w.path);
    fs_buf_free(&w.clean);
    if (w.failed)
        return out->failed ? fs_error(err, FOLDSVG_E_IO, NULL, "write failed")
                           : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    return FOLDSVG_OK;
}
