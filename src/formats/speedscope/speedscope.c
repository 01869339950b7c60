/* speedscope's file format, read (formats/speedscope/speedscope.h). */
#include "formats/speedscope/speedscope.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "formats/json/json.h"
#include "formats/json/reread.h"
#include "formats/json/sniff.h"
#include "formats/stacks/trie.h"
#include "formats/threadsel.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/strmap.h"

int fs_speedscope_detect(const unsigned char *head, size_t len, int complete)
{
    fs_json_kind k = fs_json_sniff(head, len, complete);
    return k == FS_JSON_UNSURE ? -1 : k == FS_JSON_SPEEDSCOPE;
}

typedef struct sprof {
    char *name, *unit;
    int sampled, evented;
    fs_trie trie; /* items: frame indexes */
    fs_json_region samples, weights;
    /* evented: the open frames and the trie node of each depth */
    uint32_t *open, *nodes;
    size_t depth, open_cap, nodes_cap;
    double last;
    uint64_t nevents, nsamples;
} sprof;

typedef enum srole {
    S_SKIP,
    S_TOP,
    S_SHARED,
    S_FRAMES,
    S_FRAME,
    S_PROFILES,
    S_PROFILE,
    S_EVENTS,
    S_EVENT,
    S_SAMPLES,
    S_WEIGHTS,
    V_NAME,
    V_TYPE,
    V_UNIT,
    V_AT,
    V_FRAME
} srole;

typedef struct sframe {
    uint8_t role, child;
} sframe;

typedef struct sdoc {
    const char *file;
    foldsvg_error *err;
    int ordered;
    fs_json j;
    sframe *st;
    size_t depth, cap;
    int can_reread;
    fs_strmap names;
    uint32_t *frames; /* shared.frames[i]'s name */
    size_t nframes, frames_cap;
    sprof **profiles;
    size_t nprofiles, profiles_cap;
    fs_buf text;
    /* the frame or event being read */
    int has_name, has_at, has_frame;
    char type;
    double at;
    int64_t frame;
} sdoc;

static int nomem(sdoc *d)
{
    fs_json_nomem(&d->j);
    return 0;
}

static sframe *top(sdoc *d)
{
    return &d->st[d->depth - 1];
}

static int push(sdoc *d, uint8_t r)
{
    if (d->depth >= FS_JSON_MAX_DEPTH) {
        fs_json_fail(&d->j, FOLDSVG_E_LIMIT, "containers nested more than %d deep",
                     FS_JSON_MAX_DEPTH);
        return 0;
    }
    if (FS_GROW(d->st, d->cap, d->depth + 1, 16))
        return nomem(d);
    d->st[d->depth++] = (sframe){r, S_SKIP};
    return 1;
}

static sprof *cur(sdoc *d)
{
    return d->nprofiles ? d->profiles[d->nprofiles - 1] : NULL;
}

/* ---- evented profiles ------------------------------------------------------------------ */

static int advance(sdoc *d, sprof *p, double at)
{
    if (p->nevents++ && at > p->last) {
        uint32_t node = p->depth ? p->nodes[p->depth - 1] : 0;
        if (fs_trie_add(&p->trie, node, at - p->last))
            return nomem(d);
    }
    if (p->nevents == 1 || at > p->last)
        p->last = at;
    return 1;
}

static int event_end(sdoc *d)
{
    sprof *p = cur(d);
    if (!p || !d->has_at || !d->has_frame || (d->type != 'O' && d->type != 'C')) {
        fs_json_fail(&d->j, FOLDSVG_E_PARSE,
                     "profiles[%zu].events[%llu]: an event needs a type (\"O\" or \"C\"), an "
                     "\"at\" and a frame",
                     d->nprofiles - 1, (unsigned long long)(p ? p->nevents : 0));
        return 0;
    }
    if (d->frame < 0 || d->frame >= (int64_t)UINT32_MAX) {
        fs_json_fail(&d->j, FOLDSVG_E_PARSE, "profiles[%zu].events[%llu]: frame %lld is no index",
                     d->nprofiles - 1, (unsigned long long)p->nevents, (long long)d->frame);
        return 0;
    }
    uint32_t f = (uint32_t)d->frame;
    if (d->type == 'C' && (!p->depth || p->open[p->depth - 1] != f)) {
        fs_json_fail(&d->j, FOLDSVG_E_PARSE,
                     "profiles[%zu].events[%llu]: closes frame %u, which is not the frame open "
                     "on top (%s)",
                     d->nprofiles - 1, (unsigned long long)p->nevents, f,
                     p->depth ? "another one is" : "none is");
        return 0;
    }
    if (!advance(d, p, d->at))
        return 0;
    if (d->type == 'C') {
        p->depth--;
        return 1;
    }
    if (FS_GROW(p->open, p->open_cap, p->depth + 1, 32) ||
        FS_GROW(p->nodes, p->nodes_cap, p->depth + 1, 32))
        return nomem(d);
    uint32_t node;
    foldsvg_status st = fs_trie_child(&p->trie, p->depth ? p->nodes[p->depth - 1] : 0, f, &node);
    if (st)
        return st == FOLDSVG_E_NOMEM ? nomem(d)
                                     : (fs_json_fail(&d->j, st, "more than 2^32 stacks"), 0);
    p->open[p->depth] = f;
    p->nodes[p->depth++] = node;
    return 1;
}

/* ---- callbacks ------------------------------------------------------------------------------- */

static int set_text(sdoc *d, const char *s, size_t len)
{
    fs_buf_clear(&d->text);
    return fs_buf_append(&d->text, s, len) == FOLDSVG_OK ? 1 : nomem(d);
}

static int value(sdoc *d, fs_json_value v, const char *s, size_t len)
{
    d->j.events++;
    if (!d->depth)
        return 1;
    uint8_t r = top(d)->child;
    sprof *p = cur(d);
    int str = v.tag == FS_JSON_STR;
    double num = v.tag == FS_JSON_INT ? (double)v.v.i : v.tag == FS_JSON_NUM ? v.v.d : (double)NAN;
    switch (r) {
    case V_NAME:
        if (!str)
            return 1;
        if (top(d)->role == S_FRAME) {
            d->has_name = 1;
            return set_text(d, s, len);
        }
        if (p && top(d)->role == S_PROFILE) {
            free(p->name);
            if (!(p->name = strndup(s, len)))
                return nomem(d);
        }
        return 1;
    case V_UNIT:
        if (str && p) {
            free(p->unit);
            if (!(p->unit = strndup(s, len)))
                return nomem(d);
        }
        return 1;
    case V_TYPE:
        if (!str)
            return 1;
        if (top(d)->role == S_EVENT)
            d->type = len == 1 ? s[0] : '?';
        else if (p) {
            p->sampled = len == 7 && memcmp(s, "sampled", 7) == 0;
            p->evented = len == 7 && memcmp(s, "evented", 7) == 0;
        }
        return 1;
    case V_AT:
        d->has_at = isfinite(num);
        d->at = num;
        return 1;
    case V_FRAME:
        d->has_frame = v.tag == FS_JSON_INT;
        d->frame = v.tag == FS_JSON_INT ? v.v.i : -1;
        return 1;
    default:
        return 1;
    }
}

static int cb_null(void *ctx)
{
    fs_json_value v = {.tag = FS_JSON_NULL};
    return value(ctx, v, NULL, 0);
}

static int cb_bool(void *ctx, int b)
{
    (void)b;
    fs_json_value v = {.tag = FS_JSON_BOOL};
    return value(ctx, v, NULL, 0);
}

static int cb_number(void *ctx, const char *s, size_t len)
{
    return value(ctx, fs_json_number(s, len), s, len);
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
    fs_json_value v = {.tag = FS_JSON_STR};
    return value(ctx, v, (const char *)s, len);
}

static int new_profile(sdoc *d)
{
    if (FS_GROW(d->profiles, d->profiles_cap, d->nprofiles + 1, 4))
        return nomem(d);
    sprof *p = calloc(1, sizeof *p);
    if (!p)
        return nomem(d);
    d->profiles[d->nprofiles++] = p;
    if (fs_trie_init(&p->trie, d->ordered))
        return nomem(d);
    return push(d, S_PROFILE);
}

static int cb_start_map(void *ctx)
{
    sdoc *d = ctx;
    d->j.events++;
    if (!d->depth)
        return push(d, S_TOP);
    uint8_t r = top(d)->child;
    switch (r) {
    case S_SHARED:
        return push(d, r);
    case S_FRAME:
        d->has_name = 0;
        return push(d, r);
    case S_PROFILE:
        return new_profile(d);
    case S_EVENT:
        d->has_at = d->has_frame = 0;
        d->type = 0;
        return push(d, r);
    default:
        return push(d, S_SKIP);
    }
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t len)
{
    sdoc *d = ctx;
#define IS(lit) (len == sizeof(lit) - 1 && memcmp(k, lit, len) == 0)
    if (!d->depth)
        return 1;
    sframe *f = top(d);
    switch (f->role) {
    case S_TOP:
        f->child = IS("shared") ? S_SHARED : IS("profiles") ? S_PROFILES : S_SKIP;
        break;
    case S_SHARED:
        f->child = IS("frames") ? S_FRAMES : S_SKIP;
        break;
    case S_FRAME:
        f->child = IS("name") ? V_NAME : S_SKIP;
        break;
    case S_PROFILE:
        f->child = IS("type")      ? V_TYPE
                   : IS("name")    ? V_NAME
                   : IS("unit")    ? V_UNIT
                   : IS("events")  ? S_EVENTS
                   : IS("samples") ? S_SAMPLES
                   : IS("weights") ? S_WEIGHTS
                                   : S_SKIP;
        break;
    case S_EVENT:
        f->child = IS("type") ? V_TYPE : IS("at") ? V_AT : IS("frame") ? V_FRAME : S_SKIP;
        break;
    default:
        break;
    }
    return 1;
#undef IS
}

static int cb_start_array(void *ctx)
{
    sdoc *d = ctx;
    d->j.events++;
    uint8_t r = d->depth ? top(d)->child : S_SKIP;
    uint8_t child = S_SKIP;
    if (r == S_FRAMES)
        child = S_FRAME;
    else if (r == S_PROFILES)
        child = S_PROFILE;
    else if (r == S_EVENTS)
        child = S_EVENT;
    else if ((r == S_SAMPLES || r == S_WEIGHTS) && cur(d)) {
        fs_json_region *reg = r == S_SAMPLES ? &cur(d)->samples : &cur(d)->weights;
        if (fs_json_region_begin(&d->j, reg, 1, d->can_reread))
            return 0;
    } else {
        r = S_SKIP;
    }
    if (!push(d, r))
        return 0;
    top(d)->child = child;
    return 1;
}

static int cb_end(void *ctx)
{
    sdoc *d = ctx;
    d->j.events++;
    sframe f = *top(d);
    d->depth--;
    switch (f.role) {
    case S_FRAME: {
        uint32_t id;
        if (fs_strmap_put(&d->names, d->has_name ? d->text.data : "(unnamed)",
                          d->has_name ? d->text.len : 9, 0, &id, NULL) ||
            FS_GROW(d->frames, d->frames_cap, d->nframes + 1, 64))
            return nomem(d);
        d->frames[d->nframes++] = id;
        return 1;
    }
    case S_EVENT:
        return event_end(d);
    case S_SAMPLES:
        return !fs_json_region_end(&d->j, &cur(d)->samples);
    case S_WEIGHTS:
        return !fs_json_region_end(&d->j, &cur(d)->weights);
    default:
        return 1;
    }
}

static const yajl_callbacks callbacks = {cb_null,   cb_bool,        NULL,         NULL,
                                         cb_number, cb_string,      cb_start_map, cb_map_key,
                                         cb_end,    cb_start_array, cb_end};

/* ---- sampled profiles, read again --------------------------------------------------------------
 */

static foldsvg_status sampled(sdoc *d, fs_json_reread *rr, size_t k, sprof *p)
{
    fs_json_cursor *cs = NULL, *cw = NULL;
    foldsvg_status st = fs_json_cursor_open(&cs, rr, &p->samples, 1, d->file, d->err);
    if (st == FOLDSVG_OK && p->weights.present)
        st = fs_json_cursor_open(&cw, rr, &p->weights, 0, d->file, d->err);
    uint32_t node = 0;
    while (st == FOLDSVG_OK) {
        fs_json_value v;
        int got;
        if ((st = fs_json_cursor_next(cs, &v, &got, d->err)) || !got)
            break;
        if (v.tag != FS_JSON_ROWEND) {
            if (v.tag != FS_JSON_INT || v.v.i < 0 || v.v.i >= (int64_t)UINT32_MAX) {
                st = fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                              "profiles[%zu].samples[%llu]: a frame that is no index", k,
                              (unsigned long long)p->nsamples);
                break;
            }
            st = fs_trie_child(&p->trie, node, (uint32_t)v.v.i, &node);
            if (st)
                st = fs_error(d->err, st, d->file,
                              st == FOLDSVG_E_NOMEM ? "out of memory" : "more than 2^32 stacks");
            continue;
        }
        double w = 1;
        if (cw) {
            fs_json_value wv;
            int gw;
            if ((st = fs_json_cursor_next(cw, &wv, &gw, d->err)))
                break;
            w = !gw                     ? 0
                : wv.tag == FS_JSON_INT ? (double)wv.v.i
                : wv.tag == FS_JSON_NUM ? wv.v.d
                                        : 0;
            if (!gw || !isfinite(w) || w < 0) {
                st = fs_error(d->err, FOLDSVG_E_PARSE, d->file, "profiles[%zu].weights[%llu]: %s",
                              k, (unsigned long long)p->nsamples,
                              gw ? "not a weight of 0 or more"
                                 : "missing: fewer weights than samples");
                break;
            }
        }
        p->nsamples++;
        if (fs_trie_add(&p->trie, node, w))
            st = fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
        node = 0;
    }
    fs_json_cursor_close(cs);
    fs_json_cursor_close(cw);
    return st;
}

static void doc_free(sdoc *d)
{
    for (size_t i = 0; i < d->nprofiles; i++) {
        sprof *p = d->profiles[i];
        free(p->name);
        free(p->unit);
        fs_trie_free(&p->trie);
        fs_json_region_reset(&p->samples);
        fs_json_region_reset(&p->weights);
        free(p->open);
        free(p->nodes);
        free(p);
    }
    free(d->profiles);
    free(d->frames);
    free(d->st);
    fs_buf_free(&d->text);
    fs_strmap_free(&d->names);
}

static foldsvg_status parse(sdoc *d, fs_input *in, int ordered, foldsvg_error *err)
{
    memset(d, 0, sizeof *d);
    d->file = fs_input_name(in);
    d->err = err;
    d->ordered = ordered;
    d->j.counts_events = 1;
    fs_strmap_init(&d->names, FS_STRMAP_OWNED);
    d->can_reread = fs_input_can_reopen(in);
    fs_json_reread *rr = fs_json_reread_new(in, fs_input_offset(in), NULL, 0);
    if (!rr)
        return fs_error(err, FOLDSVG_E_NOMEM, d->file, "out of memory");
    foldsvg_status st = fs_json_parse(&d->j, &callbacks, d, in, NULL, 0, d->file, NULL, 0, err);
    for (size_t k = 0; st == FOLDSVG_OK && k < d->nprofiles; k++) {
        sprof *p = d->profiles[k];
        if (p->samples.present)
            st = sampled(d, rr, k, p);
        else if (p->depth) /* frames left open close at the last value */
            p->depth = 0;
        /* every frame index a stack uses names a frame */
        for (size_t i = 1; st == FOLDSVG_OK && i < p->trie.n; i++)
            if (p->trie.item[i] >= d->nframes)
                st = fs_error(err, FOLDSVG_E_PARSE, d->file,
                              "profiles[%zu]: frame %u, but shared.frames has %zu frames", k,
                              p->trie.item[i], d->nframes);
    }
    fs_json_reread_free(rr);
    if (st == FOLDSVG_OK && !d->nprofiles)
        st = fs_error(err, FOLDSVG_E_PARSE, d->file, "a speedscope file without profiles");
    return st;
}

/* ---- entry points --------------------------------------------------------------------------- */

static fs_strref frame_name(void *user, uint32_t item)
{
    const sdoc *d = user;
    uint32_t id = d->frames[item];
    fs_strref r = {fs_strmap_key(&d->names, id), fs_strmap_key_len(&d->names, id)};
    return r;
}

static const char *unit_name(const char *unit)
{
    if (!unit || !*unit || strcmp(unit, "none") == 0)
        return "samples";
    return unit;
}

static const char *profile_name(const sprof *p)
{
    return p->name ? p->name : "";
}

foldsvg_status fs_speedscope_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                  foldsvg_error *err)
{
    sdoc d;
    int ordered = opts ? opts->ordered : 0;
    foldsvg_status st = parse(&d, in, ordered, err);
    uint8_t *picked = NULL;
    const char **names = NULL;
    uint8_t *with = NULL;
    if (st == FOLDSVG_OK && opts && (opts->threads.n || ordered)) {
        names = calloc(d.nprofiles, sizeof *names);
        with = calloc(d.nprofiles, 1);
        fs_threadsel *sel = NULL;
        st = names && with ? fs_threadsel_new(&sel, &opts->threads, err)
                           : fs_error(err, FOLDSVG_E_NOMEM, d.file, "out of memory");
        for (size_t i = 0; st == FOLDSVG_OK && i < d.nprofiles; i++) {
            names[i] = profile_name(d.profiles[i]);
            with[i] = fs_trie_total(&d.profiles[i]->trie, 0) > 0;
        }
        if (st == FOLDSVG_OK)
            st = fs_threadsel_pick(sel, d.nprofiles, names, with, ordered, &picked, d.file, err);
        fs_threadsel_free(sel);
    }
    if (st == FOLDSVG_OK) {
        size_t first = 0;
        while (picked && first < d.nprofiles && !picked[first])
            first++;
        if (sink->count_name)
            sink->count_name(sink, unit_name(first < d.nprofiles ? d.profiles[first]->unit : NULL));
        fs_buf tn = {0};
        uint32_t nsel = 0;
        for (size_t i = 0; i < d.nprofiles; i++)
            if (!picked || picked[i])
                fs_buf_printf(&tn, "%s%s (%zu)", nsel++ ? ", " : "", profile_name(d.profiles[i]),
                              i);
        if (sink->facts)
            sink->facts(sink, "speedscope", "", nsel, 0);
        if (sink->threads && nsel && fs_buf_status(&tn) == FOLDSVG_OK)
            sink->threads(sink, fs_buf_str(&tn));
        fs_buf_free(&tn);
    }
    int frac = 0;
    for (size_t i = 0; st == FOLDSVG_OK && i < d.nprofiles; i++)
        if ((!picked || picked[i]) && fs_trie_has_frac(&d.profiles[i]->trie))
            frac = 1;
    fs_trie_names nm = {frame_name, NULL, &d};
    for (size_t i = 0; st == FOLDSVG_OK && i < d.nprofiles; i++) {
        if (picked && !picked[i])
            continue;
        const fs_trie *t = &d.profiles[i]->trie;
        st = ordered ? fs_trie_emit_runs(t, &nm, (uint64_t)i << 40, sink, d.file, err)
                     : fs_trie_emit(t, &nm, frac, sink, d.file, err);
    }
    free(picked);
    free(names);
    free(with);
    doc_free(&d);
    return st;
}

foldsvg_status fs_speedscope_list_threads(fs_input *in, const fs_input_opts *opts,
                                          foldsvg_thread_fn fn, void *user, foldsvg_error *err)
{
    (void)opts;
    sdoc d;
    foldsvg_status st = parse(&d, in, 0, err);
    for (size_t i = 0; st == FOLDSVG_OK && i < d.nprofiles; i++) {
        const sprof *p = d.profiles[i];
        fn(user, i, profile_name(p), "",
           p->sampled || p->samples.present ? p->nsamples : p->nevents, fs_trie_total(&p->trie, 0));
    }
    doc_free(&d);
    return st;
}
