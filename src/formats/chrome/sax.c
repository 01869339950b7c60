/* The yajl callbacks of the Chrome/V8 reader: a stack of frames, one per open container,
 * says what each value means; what no reader wants is skipped. A trace event's fields come
 * in any order, so an event is gathered whole (its CPU profile nodes, samples and deltas
 * too: one chunk's) and used at its end; a .cpuprofile's samples and deltas, which can be
 * the whole file, are not kept: where they lie is noted and they are read again, side by
 * side, once the nodes are known (formats/json/reread.h). What an event gathered goes to the
 * model at its end (formats/chrome/gathered.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "formats/chrome/parser.h"
#include "formats/chrome/split.h"
#include "util/error.h"
#include "util/grow.h"

static frame *top(parser *p)
{
    return &p->st[p->depth - 1];
}

static int push(parser *p, uint8_t r)
{
    if (p->depth >= FS_JSON_MAX_DEPTH) {
        fs_json_fail(&p->j, FOLDSVG_E_LIMIT, "containers nested more than %d deep",
                     FS_JSON_MAX_DEPTH);
        return 0;
    }
    if (FS_GROW(p->st, p->cap, p->depth + 1, 32))
        return cr_fail_nomem(p);
    p->st[p->depth++] = (frame){r, R_SKIP, CR_NONE};
    return 1;
}

/* The role of the next value inside the container on top (its key's, or its array's). */
static uint8_t next_role(parser *p)
{
    return p->depth ? top(p)->child : R_SKIP;
}

static void chunk_reset(chunk *c)
{
    c->n = c->nkids = 0;
    fs_spool_clear(&c->ids);
    fs_spool_clear(&c->deltas);
    c->has_start = 0;
    fs_arena_reset(&c->strings);
}

static void chunk_free(chunk *c)
{
    free(c->nodes);
    free(c->kids);
    fs_spool_free(&c->ids);
    fs_spool_free(&c->deltas);
    fs_arena_free(&c->strings);
}

/* ---- values -------------------------------------------------------------------------------- */

static int set_buf(parser *p, fs_buf *b, const char *s, size_t len)
{
    fs_buf_clear(b);
    if (fs_buf_append(b, s, len))
        return cr_fail_nomem(p);
    return 1;
}

static double num_of(fs_json_value v)
{
    return v.tag == FS_JSON_INT ? (double)v.v.i : v.tag == FS_JSON_NUM ? v.v.d : (double)NAN;
}

static int all_digits(const char *s, size_t len)
{
    if (!s || !len || len > 18 || (s[0] == '0' && len > 1))
        return 0;
    for (size_t i = 0; i < len; i++)
        if ((unsigned)(unsigned char)s[i] - '0' > 9)
            return 0;
    return 1;
}

/* A scalar (a number, or a string where one may stand) in the role R. */
static int scalar(parser *p, uint8_t r, fs_json_value v, const char *s, size_t len)
{
    event *e = &p->ev;
    chunk *c = p->cur;
    pnode *n = p->depth && top(p)->node != CR_NONE && c ? &c->nodes[top(p)->node] : NULL;
    int is_str = v.tag == FS_JSON_STR;
    char numtext[32];
    int keyed = r == V_PID || r == V_TID || r == V_ID || r == V_SF;
    if (keyed && !is_str && (v.tag == FS_JSON_INT || v.tag == FS_JSON_NUM) &&
        !(v.tag == FS_JSON_INT && all_digits(s, len))) {
        /* ids written as numbers are keys as their text (plain digits are that already) */
        if (v.tag == FS_JSON_INT)
            snprintf(numtext, sizeof numtext, "%lld", (long long)v.v.i);
        else
            snprintf(numtext, sizeof numtext, "%.17g", v.v.d);
        s = numtext;
        len = strlen(numtext);
    }
    int numeric = v.tag == FS_JSON_INT || v.tag == FS_JSON_NUM;
    switch (r) {
    case V_PH:
        e->ph = is_str && len ? s[0] : 0;
        return 1;
    case V_NAME:
        if (!is_str)
            return 1;
        e->has_name = 1;
        return set_buf(p, &e->name, s, len);
    case V_PID:
    case V_TID:
        if (!is_str && !numeric)
            return 1;
        *(r == V_PID ? &e->has_pid : &e->has_tid) = 1;
        *(r == V_PID ? &e->pidn : &e->tidn) = numeric ? num_of(v) : strtod(s, NULL);
        return set_buf(p, r == V_PID ? &e->pid : &e->tid, s, len);
    case V_TS:
    case V_DUR:
    case V_TDUR: {
        double x = numeric ? num_of(v) : is_str ? strtod(s, NULL) : (double)NAN;
        if (!isfinite(x))
            return 1;
        *(r == V_TS ? &e->ts : r == V_DUR ? &e->dur : &e->tdur) = x;
        *(r == V_TS ? &e->has_ts : r == V_DUR ? &e->has_dur : &e->has_tdur) = 1;
        return 1;
    }
    case V_ID:
        if (!is_str && !numeric)
            return 1;
        e->has_id = 1;
        return set_buf(p, &e->id, s, len);
    case V_SF:
        if (!is_str && !numeric)
            return 1;
        e->has_sf = 1;
        return set_buf(p, &e->sf, s, len);
    case V_ARG_NAME:
        if (!is_str)
            return 1;
        e->has_arg_name = 1;
        return set_buf(p, &e->arg_name, s, len);
    case V_START:
        if (numeric && p->depth == 1) {
            p->top_start = num_of(v);
            p->has_top_start = 1;
        }
        return 1;
    default:
        break;
    }
    if (!n)
        return 1;
    switch (r) {
    case V_FN:
    case V_URL: {
        if (!is_str)
            return 1;
        char *copy = fs_arena_strndup(&c->strings, s, len);
        if (!copy)
            return cr_fail_nomem(p);
        *(r == V_FN ? &n->fn : &n->url) = copy;
        *(r == V_FN ? &n->fn_len : &n->url_len) = len;
        return 1;
    }
    case V_LINE:
        if (v.tag == FS_JSON_INT) {
            n->line = v.v.i;
            n->has_line = 1;
        }
        return 1;
    case V_PARENT:
        if (v.tag == FS_JSON_INT)
            n->parent_id = v.v.i;
        return 1;
    case V_NODE_ID:
        if (v.tag == FS_JSON_INT) {
            n->id = v.v.i;
            n->has_id = 1;
        }
        return 1;
    default:
        return 1;
    }
}

/* A stack frame's fields (stackFrames' entries). */
static int sf_scalar(parser *p, uint8_t r, fs_json_value v, const char *s, size_t len)
{
    char numtext[32];
    if (v.tag == FS_JSON_INT) {
        snprintf(numtext, sizeof numtext, "%lld", (long long)v.v.i);
        s = numtext;
        len = strlen(numtext);
    } else if (v.tag != FS_JSON_STR) {
        return 1;
    }
    if (r == V_FN && v.tag == FS_JSON_STR) {
        p->has_sf_name = 1;
        return set_buf(p, &p->sf_name, s, len);
    }
    if (r == V_PARENT) {
        p->has_sf_parent = 1;
        return set_buf(p, &p->sf_parent, s, len);
    }
    return 1;
}

/* A number or string in an array of the role R. */
static int element(parser *p, uint8_t r, fs_json_value v)
{
    chunk *c = p->cur;
    switch (r) {
    case R_CHILDREN:
        if (v.tag != FS_JSON_INT || !c || top(p)->node == CR_NONE)
            return 1;
        if (FS_GROW(c->kids, c->kids_cap, c->nkids * 2 + 2, 64))
            return cr_fail_nomem(p);
        c->kids[2 * c->nkids] = (int64_t)top(p)->node;
        c->kids[2 * c->nkids + 1] = v.v.i;
        c->nkids++;
        return 1;
    case R_IDS: {
        int64_t id = v.tag == FS_JSON_INT ? v.v.i : INT64_MIN;
        foldsvg_status st = fs_spool_add(&c->ids, &id, 1);
        return st ? cr_fail_spool(p, st) : 1;
    }
    case R_DELTAS: {
        double delta = num_of(v);
        foldsvg_status st = fs_spool_add(&c->deltas, &delta, 1);
        return st ? cr_fail_spool(p, st) : 1;
    }
    default:
        return 1;
    }
}

static int value(parser *p, fs_json_value v, const char *s, size_t len)
{
    p->j.events++;
    if (!p->depth)
        return 1;
    uint8_t r = next_role(p);
    uint8_t in = top(p)->role;
    if (in == R_STACKFRAME)
        return sf_scalar(p, r, v, s, len);
    if (r >= V_PH)
        return scalar(p, r, v, s, len);
    if (r != R_SKIP)
        return element(p, r, v);
    return 1;
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
    parser *p = ctx;
    if (!p->depth || (top(p)->child == R_SKIP && top(p)->role != R_STACKFRAME)) {
        p->j.events++; /* a number nothing reads: not converted */
        return 1;
    }
    int64_t small;
    fs_json_value v;
    if (fs_json_small_uint(s, len, &small)) {
        v.tag = FS_JSON_INT;
        v.v.i = small;
    } else {
        v = fs_json_number(s, len);
    }
    return value(p, v, s, len);
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
    fs_json_value v = {.tag = FS_JSON_STR};
    return value(ctx, v, (const char *)s, len);
}

/* ---- containers ------------------------------------------------------------------------------ */

static int new_node(parser *p, uint32_t parent)
{
    chunk *c = p->cur;
    if (!c)
        return push(p, R_SKIP);
    if (c->n >= CR_NONE - 1 || FS_GROW(c->nodes, c->cap, c->n + 1, 64))
        return cr_fail_nomem(p);
    c->nodes[c->n] = (pnode){0, INT64_MIN, parent, NULL, NULL, 0, 0, 0, 0, 0};
    if (!push(p, R_NODE))
        return 0;
    top(p)->node = (uint32_t)c->n++;
    return 1;
}

static void event_reset(event *e)
{
    e->ph = 0;
    e->has_name = e->has_pid = e->has_tid = e->has_ts = e->has_dur = e->has_tdur = 0;
    e->has_id = e->has_arg_name = e->has_sf = 0;
}

static int cb_start_map(void *ctx)
{
    parser *p = ctx;
    p->j.events++;
    if (!p->depth) {
        p->cur = &p->top_chunk;
        return push(p, R_TOP);
    }
    uint8_t r = next_role(p);
    switch (r) {
    case R_EVENT:
    case R_TSAMPLE:
        event_reset(&p->ev);
        chunk_reset(&p->ev_chunk);
        p->cur = &p->ev_chunk;
        return push(p, r);
    case R_CALLFRAME: {
        uint32_t node = top(p)->node;
        if (!push(p, r))
            return 0;
        top(p)->node = node;
        return 1;
    }
    case R_ARGS:
    case R_DATA:
    case R_CPUPROF:
    case R_STACKFRAMES:
        return push(p, r);
    case R_STACKFRAME:
        p->has_sf_name = p->has_sf_parent = 0;
        if (!set_buf(p, &p->sfkey, p->key.data ? p->key.data : "", p->key.len))
            return 0;
        return push(p, r);
    case R_NODE:
        return new_node(p, CR_NONE);
    case R_OLDNODE: {
        uint32_t parent =
            top(p)->role == R_OLDCHILDREN && p->depth >= 2 ? p->st[p->depth - 2].node : CR_NONE;
        if (!new_node(p, parent))
            return 0;
        top(p)->role = R_OLDNODE;
        return 1;
    }
    case R_TOP_SAMPLES:
        /* sample objects: the samples-over-stackFrames form, not node ids */
        if (top(p)->role == R_TOP_SAMPLES) {
            if (p->j.capture && p->j.capture == p->reg_samples.spool)
                p->j.capture = NULL;
            fs_json_region_reset(&p->reg_samples);
            top(p)->child = R_TSAMPLE;
            p->d->has_samples = 1;
            event_reset(&p->ev);
            return push(p, R_TSAMPLE);
        }
        return push(p, R_SKIP);
    default:
        return push(p, R_SKIP);
    }
}

/* What a key means inside the object on top. */
static uint8_t key_role(parser *p, const char *k, size_t len)
{
#define IS(lit) (len == sizeof(lit) - 1 && memcmp(k, lit, len) == 0)
    switch (top(p)->role) {
    case R_TOP:
        if (IS("traceEvents"))
            return R_EVENTS;
        if (IS("nodes")) {
            p->d->is_cpuprofile = 1;
            return R_NODES;
        }
        if (IS("head")) {
            p->d->is_cpuprofile = 1;
            return R_OLDNODE;
        }
        if (IS("samples"))
            return R_TOP_SAMPLES;
        if (IS("timeDeltas") || IS("timestamps")) {
            p->top_deltas_are_timestamps = IS("timestamps");
            return R_TOP_DELTAS;
        }
        if (IS("stackFrames"))
            return R_STACKFRAMES;
        if (IS("startTime"))
            return V_START;
        return R_SKIP;
    case R_EVENT:
        return IS("ph")     ? V_PH
               : IS("name") ? V_NAME
               : IS("pid")  ? V_PID
               : IS("tid")  ? V_TID
               : IS("ts")   ? V_TS
               : IS("dur")  ? V_DUR
               : IS("tdur") ? V_TDUR
               : IS("id")   ? V_ID
               : IS("args") ? R_ARGS
                            : R_SKIP;
    case R_TSAMPLE:
        return IS("pid") ? V_PID : IS("tid") ? V_TID : IS("ts") ? V_TS : IS("sf") ? V_SF : R_SKIP;
    case R_ARGS:
        return IS("name") ? V_ARG_NAME : IS("data") ? R_DATA : R_SKIP;
    case R_DATA:
        return IS("cpuProfile") ? R_CPUPROF : IS("timeDeltas") ? R_DELTAS : R_SKIP;
    case R_CPUPROF:
        return IS("nodes") ? R_NODES : IS("samples") ? R_IDS : IS("timeDeltas") ? R_DELTAS : R_SKIP;
    case R_NODE:
    case R_OLDNODE:
        if (IS("children"))
            return top(p)->role == R_OLDNODE ? R_OLDCHILDREN : R_CHILDREN;
        if (IS("id"))
            return V_NODE_ID;
        return IS("callFrame")      ? R_CALLFRAME
               : IS("parent")       ? V_PARENT
               : IS("functionName") ? V_FN
               : IS("url")          ? V_URL
               : IS("lineNumber")   ? V_LINE
                                    : R_SKIP;
    case R_CALLFRAME:
        return IS("functionName") ? V_FN : IS("url") ? V_URL : IS("lineNumber") ? V_LINE : R_SKIP;
    case R_STACKFRAMES:
        return R_STACKFRAME;
    case R_STACKFRAME:
        return IS("name") ? V_FN : IS("parent") ? V_PARENT : R_SKIP;
    default:
        return R_SKIP;
    }
#undef IS
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t len)
{
    parser *p = ctx;
    if (!p->depth || top(p)->role == R_SKIP)
        return 1;
    if (top(p)->role == R_STACKFRAMES && !set_buf(p, &p->key, (const char *)k, len))
        return 0;
    top(p)->child = key_role(p, (const char *)k, len);
    return 1;
}

static int cb_start_array(void *ctx)
{
    parser *p = ctx;
    p->j.events++;
    if (!p->depth) {
        p->cur = &p->top_chunk;
        if (!push(p, R_EVENTS))
            return 0;
        top(p)->child = R_EVENT;
        return 1;
    }
    uint8_t r = next_role(p);
    uint8_t child = R_SKIP;
    switch (r) {
    case R_EVENTS:
        child = R_EVENT;
        break;
    case R_NODES:
        child = R_NODE;
        break;
    case R_OLDCHILDREN:
        child = R_OLDNODE;
        break;
    case R_IDS:
    case R_DELTAS:
        p->arr_at = !p->cur      ? 0
                    : r == R_IDS ? fs_spool_count(&p->cur->ids)
                                 : fs_spool_count(&p->cur->deltas); /* split.h */
        child = r;
        break;
    case R_CHILDREN:
        child = r;
        break;
    case R_TOP_SAMPLES:
    case R_TOP_DELTAS: {
        fs_json_region *reg = r == R_TOP_SAMPLES ? &p->reg_samples : &p->reg_deltas;
        fs_json_region_reset(reg);
        if (fs_json_region_begin(&p->j, reg, 1, p->can_reread))
            return 0;
        child = r;
        break;
    }
    default:
        r = R_SKIP;
    }
    /* the node of a children list is its object's */
    uint32_t node = top(p)->node;
    if (!push(p, r))
        return 0;
    top(p)->child = child;
    if (r == R_CHILDREN || r == R_OLDCHILDREN)
        top(p)->node = node;
    return 1;
}

static int cb_end(void *ctx)
{
    parser *p = ctx;
    p->j.events++;
    frame f = *top(p);
    p->depth--;
    switch (f.role) {
    case R_EVENT: {
        int ok = cr_end_event(p);
        p->cur = &p->top_chunk;
        return ok;
    }
    case R_TSAMPLE:
        return cr_end_sample(p);
    case R_STACKFRAME:
        return cr_end_stackframe(p);
    case R_NODE:
    case R_OLDNODE: {
        pnode *n = &p->cur->nodes[f.node];
        if (!n->has_id)
            n->id = -(int64_t)f.node - 1; /* a node without an id: unique, unreferenced */
        return 1;
    }
    case R_TOP_SAMPLES:
        return p->reg_samples.present ? !fs_json_region_end(&p->j, &p->reg_samples) : 1;
    case R_TOP_DELTAS:
        return !fs_json_region_end(&p->j, &p->reg_deltas);
    default:
        return 1;
    }
}

static const yajl_callbacks callbacks = {cb_null,   cb_bool,        NULL,         NULL,
                                         cb_number, cb_string,      cb_start_map, cb_map_key,
                                         cb_end,    cb_start_array, cb_end};

/* ---- the .cpuprofile's samples, read again ------------------------------------------------- */

static foldsvg_status next_of(fs_json_cursor *c, fs_json_value *v, int *got, foldsvg_error *err)
{
    return c ? fs_json_cursor_next(c, v, got, err) : (*got = 0, FOLDSVG_OK);
}

static foldsvg_status top_samples(parser *p, fs_json_reread *rr, cr_profile *pr)
{
    cr_doc *d = p->d;
    fs_json_cursor *cs = NULL, *cd = NULL;
    foldsvg_status st = fs_json_cursor_open(&cs, rr, &p->reg_samples, 0, d->file, d->err);
    if (st == FOLDSVG_OK && p->reg_deltas.present)
        st = fs_json_cursor_open(&cd, rr, &p->reg_deltas, 0, d->file, d->err);
    /* timestamps (the tree form): deltas from the profile's start, in seconds */
    double prev = p->has_top_start ? p->top_start * 1e6 : 0;
    for (uint64_t i = 0; st == FOLDSVG_OK; i++) {
        fs_json_value s, t;
        int gs, gt;
        if ((st = next_of(cs, &s, &gs, d->err)) || !gs)
            break;
        if ((st = next_of(cd, &t, &gt, d->err)))
            break;
        double delta = gt ? num_of(t) : 0;
        if (p->top_deltas_are_timestamps && gt) {
            double at = delta;
            delta = at - prev;
            prev = at;
        }
        st = cr_profile_sample(d, pr, s.tag == FS_JSON_INT ? s.v.i : INT64_MIN, delta);
    }
    fs_json_cursor_close(cs);
    fs_json_cursor_close(cd);
    return st;
}

foldsvg_status cr_parse(cr_doc *d, fs_input *in)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.d = d;
    chunk *chunks[] = {&p.ev_chunk, &p.top_chunk};
    for (size_t i = 0; i < 2; i++) {
        fs_arena_init(&chunks[i]->strings);
        fs_spool_init(&chunks[i]->ids, sizeof(int64_t));
        fs_spool_init(&chunks[i]->deltas, sizeof(double));
    }
    p.can_reread = fs_input_can_reopen(in);
    p.j.counts_events = 1;
    p.j.split = cr_split_hooks(); /* NULL: the parse reads every value itself */
    fs_json_reread *rr = fs_json_reread_new(in, fs_input_offset(in), NULL, 0);
    foldsvg_status st =
        rr ? FOLDSVG_OK : fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
    if (st == FOLDSVG_OK)
        st = fs_json_parse(&p.j, &callbacks, &p, in, NULL, 0, d->file, NULL, 0, d->err);
    if (st == FOLDSVG_OK && d->is_cpuprofile) {
        cr_profile *pr;
        st = cr_profile_get(d, "", NULL, 1, &pr);
        if (st == FOLDSVG_OK)
            pr->declared = 1;
        if (st == FOLDSVG_OK)
            st = cr_apply(&p, &p.top_chunk, pr);
        if (st == FOLDSVG_OK && p.reg_samples.present)
            st = top_samples(&p, rr, pr);
    }
    for (size_t i = 0; st == FOLDSVG_OK && i < d->nprofiles; i++)
        st = cr_profile_finish(d, d->profiles[i]);
    fs_json_region_reset(&p.reg_samples);
    fs_json_region_reset(&p.reg_deltas);
    fs_json_reread_free(rr);
    chunk_free(&p.ev_chunk);
    chunk_free(&p.top_chunk);
    free(p.st);
    fs_buf *bufs[] = {&p.ev.name, &p.ev.pid, &p.ev.tid, &p.ev.id,   &p.ev.arg_name, &p.ev.sf,
                      &p.key,     &p.sfkey,  &p.text,   &p.sf_name, &p.sf_parent};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        fs_buf_free(bufs[i]);
    return st;
}
