/* The yajl callbacks of the Firefox-Profiler reader. A heap stack of frames, one per open
 * JSON container, says what each value means ("the stack column of a sample row", "a
 * string of thread 2's string table", ...: formats/firefox/roles.h); uninteresting subtrees
 * are skipped with a depth counter. Samples are summed as their rows close
 * (formats/firefox/samples.c); the JSON layer (formats/json/json.h) runs yajl over the text. The
 * callbacks return what yajl wants (1 go on, 0 stop); everything below them returns a
 * foldsvg_status, failures recorded in the parse (fs_json_fail) to be reported with their offset.
 */
#include "formats/firefox/sax.h"

#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "formats/firefox/roles.h"
#include "formats/firefox/samples.h"
#include "formats/firefox/split.h"

/* ---------------------------------------------------------------- containers */

/* The hot callbacks test one byte instead of looking at the frame stack: after the frames
 * changed (nothing being skipped), whether the innermost is a Gecko samples data array. */
static void set_hot(ff_parser *p)
{
    const ff_frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
    p->hot = f && f->role == R_S_DATA ? FF_HOT_SDATA : FF_HOT_NONE;
    p->sthr = f ? f->thr : NULL;
    if (p->split)
        ff_split_where(p);
}

/* Cell K of the open sample row, which holds C: only two columns are kept. */
static void row_cell(ff_parser *p, fs_json_value c)
{
    int64_t k = p->srow_k++;
    if (k == p->scol_stack)
        p->row_stack = c;
    else if (k == p->scol_cpu)
        p->row_cpu = c;
}

/* A value that is skipped whole begins (P->skip became 1): the hot state comes back when it
 * ends. */
static void skip_begins(ff_parser *p)
{
    p->hot_saved = p->hot;
    p->hot = FF_HOT_NONE;
}

static foldsvg_status begin_container(ff_parser *p, int is_map)
{
    p->j.events++;               /* for formats/json/json.c: a token ended */
    if (p->hot == FF_HOT_SROW) { /* a container as a sample row's cell */
        fs_json_value other = {.tag = FS_JSON_OTHER};
        row_cell(p, other);
        p->skip = 1;
        skip_begins(p);
        return FOLDSVG_OK;
    }
    int skipping = p->skip != 0;
    foldsvg_status st = ff_role_open(p, is_map);
    if (skipping)
        return st;
    if (p->skip)
        skip_begins(p);
    else
        set_hot(p);
    return st;
}

/* A container closes, a sample row excepted. */
static foldsvg_status end_container(ff_parser *p)
{
    p->j.events++;
    if (p->skip) {
        if (--p->skip == 0)
            p->hot = p->hot_saved; /* e.g. a container inside a sample row's cell closed */
        return FOLDSVG_OK;
    }
    foldsvg_status st = ff_role_close(p, &p->st[--p->depth]);
    set_hot(p);
    return st;
}

static int cb_start_map(void *ctx)
{
    return begin_container(ctx, 1) == FOLDSVG_OK;
}

/* The hot callbacks below (a sample row opens, closes, has a number) make no calls on their
 * common path but tail calls of the rest, which is out of line: they run 10M times. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

static NOINLINE int start_array_cold(ff_parser *p)
{
    return begin_container(p, 0) == FOLDSVG_OK;
}

static int cb_start_array(void *ctx)
{
    ff_parser *p = ctx;
    if (p->hot != FF_HOT_SDATA)
        return start_array_cold(p);
    p->hot = FF_HOT_SROW;
    p->j.events++; /* the row's numbers do not count */
    p->srow_k = 0;
    p->row_stack.tag = FS_JSON_NULL;
    p->row_cpu.tag = FS_JSON_NULL;
    return 1;
}

static NOINLINE int end_cold(ff_parser *p)
{
    return end_container(p) == FOLDSVG_OK;
}

static NOINLINE int row_end_cold(ff_parser *p)
{
    ff_thread *t = p->sthr;
    return ff_sample_row(p, t, p->row_stack, p->row_cpu, t->rows) == FOLDSVG_OK;
}

static int cb_end(void *ctx)
{
    ff_parser *p = ctx;
    if (p->hot != FF_HOT_SROW)
        return end_cold(p);
    p->hot = FF_HOT_SDATA;
    return ff_sample_row_quick(p, p->sthr) ? 1 : row_end_cold(p);
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t n)
{
    ff_parser *p = ctx;
    p->j.events++;
    if (p->skip)
        return 1;
    ff_role_key(p, &p->st[p->depth - 1], (const char *)k, n);
    return 1;
}

/* ---------------------------------------------------------------- scalars */

static foldsvg_status scalar(ff_parser *p, fs_json_value c, const char *s, size_t n)
{
    p->j.events++;
    if (p->hot == FF_HOT_SROW) {
        row_cell(p, c);
        return FOLDSVG_OK;
    }
    if (p->skip)
        return FOLDSVG_OK;
    ff_frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
    uint64_t ei = f ? f->idx++ : 0;
    return ff_role_value(p, f, ei, c, s, n);
}

static int cb_null(void *ctx)
{
    fs_json_value c = {.tag = FS_JSON_NULL};
    return scalar(ctx, c, NULL, 0) == FOLDSVG_OK;
}

static int cb_bool(void *ctx, int b)
{
    fs_json_value c = {.tag = FS_JSON_BOOL};
    c.v.i = b;
    return scalar(ctx, c, NULL, 0) == FOLDSVG_OK;
}

/* Numbers outside sample rows. */
static NOINLINE int number_cold(ff_parser *p, const char *s, size_t n)
{
    p->j.events++;
    if (p->skip)
        return 1;
    /* Depth 0: a bare number as the whole text (a sub-profile string "21"); scalar()
     * reports it as not a profile. */
    if (p->depth && p->st[p->depth - 1].child == R_SKIP) {
        p->st[p->depth - 1].idx++;
        return 1;
    }
    return scalar(p, fs_json_number(s, n), NULL, 0) == FOLDSVG_OK;
}

/* A sample row's stack or threadCPUDelta cell DST that is not a short integer. */
static NOINLINE int row_number_cold(ff_parser *p, fs_json_value *dst, const char *s, size_t n)
{
    *dst = fs_json_number(s, n);
    if (dst == &p->row_stack && dst->tag == FS_JSON_INT)
        ff_sample_stack_seen(p, dst->v.i);
    return 1;
}

static int cb_number(void *ctx, const char *s, size_t n)
{
    ff_parser *p = ctx;
    if (p->hot != FF_HOT_SROW)
        return number_cold(p, s, n);
    /* The hot path: one call per cell of every sample row, kept free of calls but tail
     * calls. Only two cells matter, the rest (times) are not even converted. */
    int64_t k = p->srow_k++, v;
    if (k == p->scol_stack) {
        if (!fs_json_small_uint(s, n, &v))
            return row_number_cold(p, &p->row_stack, s, n);
        p->row_stack.v.i = v;
        p->row_stack.tag = FS_JSON_INT;
        ff_sample_stack_seen(p, v);
    } else if (k == p->scol_cpu) {
        if (!fs_json_small_uint(s, n, &v))
            return row_number_cold(p, &p->row_cpu, s, n);
        p->row_cpu.v.i = v;
        p->row_cpu.tag = FS_JSON_INT;
    }
    return 1;
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
    fs_json_value c = {.tag = FS_JSON_STR};
    return scalar(ctx, c, (const char *)s, n) == FOLDSVG_OK;
}

static const yajl_callbacks callbacks = {cb_null,   cb_bool,        NULL,         NULL,
                                         cb_number, cb_string,      cb_start_map, cb_map_key,
                                         cb_end,    cb_start_array, cb_end};

/* ---------------------------------------------------------------- parses */

static void parser_init(ff_parser *p, ff_profile *root, ff_queue *q, const char *file)
{
    memset(p, 0, sizeof *p);
    p->root = root;
    p->q = q;
    p->scol_stack = p->scol_cpu = -1;
    p->j.counts_events = 1;
    p->file = file;
    const ff_profile *top = root;
    while (top->parent)
        top = top->parent;
    p->ordered = top->ordered;
}

static void parser_free(ff_parser *p)
{
    fs_json_cursor_close(p->cur);
    fs_json_reread_free(p->rr);
    free(p->st);
}

foldsvg_status ff_parse_input(fs_input *in, ff_profile *root, ff_queue *q, foldsvg_error *err)
{
    ff_parser p;
    const char *file = fs_input_name(in);
    parser_init(&p, root, q, file);
    p.can_reread = fs_input_can_reopen(in);
    if (!(p.rr = fs_json_reread_new(in, fs_input_offset(in), NULL, 0)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    /* sample rows parsed on the reading thread too (none when out of memory) */
    if ((p.split = ff_split_new()))
        p.j.split = ff_split_hooks(p.split);
    foldsvg_status st = fs_json_parse(&p.j, &callbacks, &p, in, NULL, 0, file, NULL, 0, err);
    parser_free(&p);
    ff_split_free(p.split);
    return st;
}

foldsvg_status ff_parse_sub(ff_profile *sub, ff_queue *q, const char *file, foldsvg_error *err)
{
    ff_parser p;
    parser_init(&p, sub, q, file);
    p.can_reread = 1;
    if (!(p.rr = fs_json_reread_new(NULL, 0, sub->json, sub->json_len)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    foldsvg_status st = fs_json_parse(&p.j, &callbacks, &p, NULL, sub->json, sub->json_len, file,
                                      sub->origin, sub->json_offset, err);
    parser_free(&p);
    free(sub->json);
    sub->json = NULL;
    sub->json_len = 0;
    return st;
}
