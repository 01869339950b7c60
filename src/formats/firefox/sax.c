/* The yajl callbacks of the Firefox-Profiler reader. A heap stack of frames, one per open
 * JSON container, says what each value means ("the stack column of a sample row", "a
 * string of thread 2's string table", ...); uninteresting subtrees are skipped with a
 * depth counter. Samples are summed as their rows close (formats/firefox/samples.c); the JSON
 * layer (formats/json/json.h) runs yajl over the text. The callbacks return what yajl wants (1 go
 * on, 0 stop); everything below them returns a foldsvg_status, failures recorded in the
 * parse (fs_json_fail) to be reported with their offset. */
#include "formats/firefox/sax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "formats/firefox/samples.h"
#include "formats/firefox/early.h"
#include "formats/firefox/split.h"
#include "util/grow.h"

/* What a JSON value (or container) means at its place in the document. */
typedef enum ff_role {
    R_SKIP,
    R_ROOT,
    R_PROFILE,
    R_WRAPPED, /* value of a top-level "profile" key */
    R_META,
    R_META_PRODUCT,
    R_META_PPV,
    R_META_VERSION,
    R_THREADS,
    R_THREAD_ELEM,
    R_PROCESSES,
    R_PROCESS_ELEM,
    R_THREAD,
    R_THREAD_NAME,
    R_THREAD_PROCNAME,
    R_STRINGS,
    R_STRING_ELEM,
    R_SHARED,
    R_TABLE,
    R_SCHEMA,
    R_SCHEMA_COL,
    R_DATA,
    R_ROW,
    R_CELL,
    R_COLUMN,
    R_COLCELL,
    R_LENGTH,
    R_SAMPLES,
    R_S_DATA,
    R_S_ROW, /* has no frame: ff_parser.hot says when one is open */
    R_S_COL,
    R_S_COLCELL,
    R_S_WEIGHTTYPE,
    R_D_DATA, /* Gecko sample rows before their schema: checked, read again later */
    R_D_ROW
} ff_role;

enum { K_STACK, K_FRAME, K_FUNC, K_SAMPLES };

struct ff_frame {
    uint8_t role;  /* of this container */
    uint8_t child; /* of the next value inside it */
    uint8_t kind;  /* table kind (K_*) */
    uint8_t first; /* a thread object that is threads[0] */
    int col;       /* column id of a column array / schema entry */
    uint64_t idx;  /* values seen so far in an array */
    ff_profile *prof;
    ff_thread *thr;
    ff_table *tab;
    ff_strings *strs;
};

static ff_frame *push(ff_parser *p, uint8_t role, uint8_t child)
{
    if (p->depth >= FS_JSON_MAX_DEPTH) {
        fs_json_fail(&p->j, FOLDSVG_E_LIMIT,
                     "profile containers nested more than %d deep (processes inside processes?)",
                     FS_JSON_MAX_DEPTH);
        return NULL;
    }
    if (FS_GROW(p->st, p->cap, p->depth + 1, 32) != FOLDSVG_OK)
        return NULL;
    ff_frame *f = &p->st[p->depth++];
    memset(f, 0, sizeof *f);
    f->role = role;
    f->child = child;
    if (p->depth > 1) { /* inherit the objects the new container belongs to */
        ff_frame *up = f - 1;
        f->prof = up->prof;
        f->thr = up->thr;
        f->tab = up->tab;
        f->strs = up->strs;
        f->kind = up->kind;
        f->col = up->col;
    }
    return f;
}

static char *dupn(const unsigned char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static const char *role_name(uint8_t r)
{
    switch (r) {
    case R_ROOT:
    case R_PROFILE:
        return "a profile";
    case R_META:
        return "meta";
    case R_THREADS:
        return "threads";
    case R_THREAD_ELEM:
        return "a threads[] entry";
    case R_PROCESSES:
        return "processes";
    case R_PROCESS_ELEM:
        return "a processes[] entry";
    case R_THREAD:
        return "a thread";
    case R_STRINGS:
        return "a string table";
    case R_SHARED:
        return "shared";
    case R_TABLE:
        return "a table";
    case R_SCHEMA:
        return "a table schema";
    case R_DATA:
    case R_S_DATA:
    case R_D_DATA:
        return "a table's data";
    case R_ROW:
    case R_S_ROW:
    case R_D_ROW:
        return "a table row";
    case R_COLUMN:
    case R_S_COL:
        return "a table column";
    case R_SAMPLES:
        return "samples";
    default:
        return "this value";
    }
}

/* Cells and column entries may be anything; containers there are kept as FS_JSON_OTHER. */
static int is_cell_role(uint8_t r)
{
    return r == R_CELL || r == R_COLCELL || r == R_S_COLCELL || r == R_STRING_ELEM;
}

static foldsvg_status store_scalar(ff_parser *p, ff_frame *f, uint64_t ei, fs_json_value c,
                                   const char *s, size_t n);

/* ---------------------------------------------------------------- containers */

static foldsvg_status begin_container_(ff_parser *p, int is_map);

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
    foldsvg_status st = begin_container_(p, is_map);
    if (skipping)
        return st;
    if (p->skip)
        skip_begins(p);
    else
        set_hot(p);
    return st;
}

static foldsvg_status begin_container_(ff_parser *p, int is_map)
{
    if (p->skip) {
        p->skip++;
        return FOLDSVG_OK;
    }
    ff_frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
    uint8_t role = f ? f->child : R_ROOT;
    uint64_t ei = f ? f->idx++ : 0;
    if (role == R_SKIP) {
        p->skip = 1;
        return FOLDSVG_OK;
    }
    if (is_cell_role(role)) {
        fs_json_value other = {.tag = FS_JSON_OTHER};
        FS_FORWARD_IF_ERROR(store_scalar(p, f, ei, other, NULL, 0));
        p->skip = 1;
        return FOLDSVG_OK;
    }
    if (role == R_WRAPPED && !is_map) {
        p->skip = 1;
        return FOLDSVG_OK;
    }
    int want_map = role == R_ROOT || role == R_PROFILE || role == R_WRAPPED || role == R_META ||
                   role == R_THREAD_ELEM || role == R_PROCESS_ELEM || role == R_SHARED ||
                   role == R_TABLE || role == R_SCHEMA || role == R_SAMPLES;
    if (want_map != is_map) {
        if (role == R_ROOT)
            return fs_json_fail(&p->j, FOLDSVG_E_PARSE,
                                "not a Firefox profile: the JSON text is not an object");
        if (role == R_META) { /* only the root's meta matters; checked at the end */
            f->prof->has_meta_key = 1;
            p->skip = 1;
            return FOLDSVG_OK;
        }
        if (role == R_SCHEMA_COL || role == R_LENGTH || role == R_META_PRODUCT ||
            role == R_META_PPV || role == R_META_VERSION || role == R_THREAD_NAME ||
            role == R_THREAD_PROCNAME || role == R_S_WEIGHTTYPE) {
            if (role == R_META_PRODUCT) {
                f->prof->product_set = 1;
                f->prof->product_sp1 = 0;
            }
            if (role == R_SCHEMA_COL)
                f->tab->schema[f->col] = -2;
            p->skip = 1;
            return FOLDSVG_OK;
        }
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "%s must be %s", role_name(role),
                            want_map ? "an object" : "an array");
    }
    ff_frame *n;
    switch (role) {
    case R_ROOT:
        if (!(n = push(p, R_PROFILE, R_SKIP)))
            return fs_json_nomem(&p->j);
        n->prof = p->root;
        return FOLDSVG_OK;
    case R_WRAPPED:
    case R_PROCESS_ELEM: {
        ff_profile *parent = f->prof;
        ff_profile *sub = ff_profile_new(role == R_WRAPPED ? NULL : parent);
        if (!sub)
            return fs_json_nomem(&p->j);
        if (role == R_WRAPPED) {
            ff_profile_free(parent->wrapped); /* a repeated key: the last one counts */
            parent->wrapped = sub;
            snprintf(sub->origin, sizeof sub->origin, "profile");
        } else {
            if (ff_profile_add_sub(&parent->proc_subs, &parent->nproc, &parent->cproc, sub)) {
                ff_profile_free(sub);
                return fs_json_nomem(&p->j);
            }
            snprintf(sub->origin, sizeof sub->origin, "processes[%llu]", (unsigned long long)ei);
        }
        if (!(n = push(p, R_PROFILE, R_SKIP)))
            return fs_json_nomem(&p->j);
        n->prof = sub;
        return FOLDSVG_OK;
    }
    case R_META:
        f->prof->has_meta_key = 1;
        f->prof->meta_is_object = 1;
        return push(p, R_META, R_SKIP) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_THREADS:
        return push(p, R_THREADS, R_THREAD_ELEM) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_PROCESSES:
        return push(p, R_PROCESSES, R_PROCESS_ELEM) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_THREAD_ELEM: {
        ff_thread *t = ff_thread_new(f->prof);
        if (!t)
            return fs_json_nomem(&p->j);
        f->prof->nthread_entries++;
        if (!(n = push(p, R_THREAD, R_SKIP)))
            return fs_json_nomem(&p->j);
        n->thr = t;
        n->first = ei == 0; /* for the processed-format test on threads[0] */
        return FOLDSVG_OK;
    }
    case R_SHARED:
        return push(p, R_SHARED, R_SKIP) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_STRINGS:
        f->strs->present = 1;
        f->strs->n = f->strs->len = 0; /* a repeated key: the last one counts */
        return push(p, R_STRINGS, R_STRING_ELEM) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_TABLE:
        f->tab->present = 1;
        return push(p, R_TABLE, R_SKIP) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_SCHEMA:
        f->tab->has_schema = 1;
        for (int i = 0; i < FF_NCOLS; i++)
            f->tab->schema[i] = -1;
        return push(p, R_SCHEMA, R_SKIP) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_DATA: {
        static const int wanted[3][2] = {
            {FF_C_PREFIX, FF_C_FRAME}, {FF_C_LOCATION, -1}, {FF_C_NAME, -1}};
        int k = f->kind < 3 ? f->kind : 0;
        ff_table_data_begin(f->tab, wanted[k], wanted[k][1] < 0 ? 1 : 2);
        return push(p, R_DATA, R_ROW) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    }
    case R_ROW:
        if (ff_table_row_begin(f->tab) != FOLDSVG_OK)
            return fs_json_nomem(&p->j);
        return push(p, R_ROW, R_CELL) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_COLUMN:
        if (ff_table_col_begin(f->tab, f->col) != FOLDSVG_OK)
            return fs_json_nomem(&p->j);
        return push(p, R_COLUMN, R_COLCELL) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_SAMPLES:
        f->thr->has_samples = 1;
        ff_samples_reset(f->thr);
        if (!(n = push(p, R_SAMPLES, R_SKIP)))
            return fs_json_nomem(&p->j);
        n->tab = &f->thr->tab->samples;
        return FOLDSVG_OK;
    case R_S_DATA:
        if (!f->tab->has_schema) {
            /* Rows before their schema: their shape is checked now, their cells are read
             * again when the samples object ends. */
            FS_FORWARD_IF_ERROR(
                fs_json_region_begin(&p->j, &f->thr->tab->rows_reg, 1, p->can_reread));
            return push(p, R_D_DATA, R_D_ROW) ? FOLDSVG_OK : fs_json_nomem(&p->j);
        }
        if (f->tab->schema[FF_C_STACK] == -1)
            return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "samples: the schema has no stack column");
        p->scol_stack = f->tab->schema[FF_C_STACK];
        p->scol_cpu = f->tab->schema[FF_C_CPU];
        return push(p, R_S_DATA, R_S_ROW) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_D_ROW:
        return push(p, R_D_ROW, R_SKIP) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_S_COL:
        FS_FORWARD_IF_ERROR(ff_column_begin(p, f->thr, f->col));
        return push(p, R_S_COL, R_S_COLCELL) ? FOLDSVG_OK : fs_json_nomem(&p->j);
    default:
        p->skip = 1;
        return FOLDSVG_OK;
    }
}

static foldsvg_status end_container_(ff_parser *p, const ff_frame *f)
{
    switch (f->role) {
    case R_ROW:
        ff_table_row_end(f->tab);
        return FOLDSVG_OK;
    case R_THREAD:
        ff_thread_trim(f->thr);
        if (f->first)
            f->prof->first_thread_done = 1;
        ff_early_resolve(f->prof, f->thr, p->file);
        return FOLDSVG_OK;
    case R_META:
        f->prof->meta_done = 1;
        return FOLDSVG_OK;
    case R_SAMPLES:
        return ff_samples_end(p, f->thr);
    case R_S_COL:
        return ff_column_end(p, f->thr, f->col);
    case R_D_DATA:
        return fs_json_region_end(&p->j, &f->thr->tab->rows_reg);
    default:
        return FOLDSVG_OK;
    }
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
    foldsvg_status st = end_container_(p, &p->st[--p->depth]);
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

/* The processed columns a table of KIND keeps: those the stack model reads
 * (formats/firefox/processed.c). Others, however long, are skipped. */
static int processed_column_wanted(uint8_t kind, int col)
{
    switch (kind) {
    case K_STACK:
        return col == FF_C_FRAME || col == FF_C_PREFIX || col == FF_C_PREFIXOFFSET;
    case K_FRAME:
        return col == FF_C_FUNC;
    case K_FUNC:
        return col == FF_C_NAME;
    default:
        return 0;
    }
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t n)
{
    ff_parser *p = ctx;
    p->j.events++;
    if (p->skip)
        return 1;
    ff_frame *f = &p->st[p->depth - 1];
    const char *s = (const char *)k;
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)
    f->child = R_SKIP;
    switch (f->role) {
    case R_PROFILE:
        if (IS("meta"))
            f->child = R_META;
        else if (IS("threads"))
            f->child = R_THREADS;
        else if (IS("processes"))
            f->child = R_PROCESSES;
        else if (IS("shared"))
            f->child = R_SHARED;
        else if (IS("profile") && p->depth == 1)
            f->child = R_WRAPPED;
        if (f->child == R_META)
            f->prof->has_meta_key = 1;
        break;
    case R_META:
        if (IS("product"))
            f->child = R_META_PRODUCT;
        else if (IS("preprocessedProfileVersion"))
            f->child = R_META_PPV;
        else if (IS("version"))
            f->child = R_META_VERSION;
        break;
    case R_THREAD:
        if (IS("name")) {
            f->child = R_THREAD_NAME;
        } else if (IS("processName")) {
            f->child = R_THREAD_PROCNAME;
        } else if (IS("stringTable") || IS("stringArray")) {
            if (IS("stringArray") && f->first)
                f->prof->first_thread_has_string_array = 1;
            f->child = R_STRINGS;
            f->strs = &f->thr->tab->strings;
        } else if (IS("stackTable") || IS("frameTable") || IS("funcTable")) {
            f->child = R_TABLE;
            f->kind = s[0] == 's' ? K_STACK : s[1] == 'r' ? K_FRAME : K_FUNC;
            f->tab = f->kind == K_STACK   ? &f->thr->tab->stack
                     : f->kind == K_FRAME ? &f->thr->tab->frame
                                          : &f->thr->tab->func;
        } else if (IS("samples")) {
            f->child = R_SAMPLES;
        }
        break;
    case R_SHARED:
        if (IS("stringArray")) {
            f->child = R_STRINGS;
            f->strs = &f->prof->shared_strings;
        } else if (IS("stackTable") || IS("frameTable") || IS("funcTable")) {
            f->child = R_TABLE;
            f->kind = s[0] == 's' ? K_STACK : s[1] == 'r' ? K_FRAME : K_FUNC;
            f->tab = f->kind == K_STACK   ? &f->prof->shared_stack
                     : f->kind == K_FRAME ? &f->prof->shared_frame
                                          : &f->prof->shared_func;
        }
        break;
    case R_TABLE:
        if (IS("schema")) {
            f->child = R_SCHEMA;
        } else if (IS("data")) {
            f->child = R_DATA;
        } else if (IS("length")) {
            f->child = R_LENGTH;
        } else {
            int c = ff_column_id(s, n);
            if (c >= 0 && processed_column_wanted(f->kind, c)) {
                f->child = R_COLUMN;
                f->col = c;
            }
        }
        break;
    case R_SCHEMA: {
        int c = ff_column_id(s, n);
        if (c >= 0) {
            f->child = R_SCHEMA_COL;
            f->col = c;
        }
        break;
    }
    case R_SAMPLES:
        if (IS("schema")) {
            f->child = R_SCHEMA;
        } else if (IS("data")) {
            f->child = R_S_DATA;
        } else if (IS("stack") || IS("weight") || IS("duration")) {
            f->child = R_S_COL;
            f->col = ff_column_id(s, n);
        } else if (IS("weightType")) {
            f->child = R_S_WEIGHTTYPE;
        }
        break;
    default:
        break;
    }
#undef IS
    return 1;
}

/* ---------------------------------------------------------------- scalars */

static foldsvg_status store_scalar(ff_parser *p, ff_frame *f, uint64_t ei, fs_json_value c,
                                   const char *s, size_t n)
{
    uint8_t role = f ? f->child : R_ROOT;
    switch (role) {
    case R_SKIP:
        return FOLDSVG_OK;
    case R_ROOT:
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE,
                            "not a Firefox profile: the JSON text is not an object");
    case R_WRAPPED:
        return FOLDSVG_OK;
    case R_META:
        f->prof->has_meta_key = 1;
        return FOLDSVG_OK;
    case R_META_PRODUCT:
        f->prof->product_set = 1;
        f->prof->product_sp1 = c.tag == FS_JSON_STR && n == 8 && memcmp(s, "SP1 ZKVM", 8) == 0;
        if (c.tag == FS_JSON_STR) {
            size_t k = n < sizeof f->prof->product - 1 ? n : sizeof f->prof->product - 1;
            memcpy(f->prof->product, s, k);
            f->prof->product[k] = '\0';
        }
        return FOLDSVG_OK;
    case R_META_PPV:
        if (c.tag == FS_JSON_INT || c.tag == FS_JSON_NUM) {
            f->prof->ppv_is_number = 1;
            f->prof->ppv = c.tag == FS_JSON_INT ? (double)c.v.i : c.v.d;
        }
        return FOLDSVG_OK;
    case R_META_VERSION:
        if (c.tag == FS_JSON_INT || c.tag == FS_JSON_NUM)
            f->prof->version = c.tag == FS_JSON_INT ? (double)c.v.i : c.v.d;
        return FOLDSVG_OK;
    case R_THREAD_NAME:
    case R_THREAD_PROCNAME:
        if (c.tag == FS_JSON_STR) {
            char **dst = role == R_THREAD_NAME ? &f->thr->name : &f->thr->process;
            free(*dst);
            if (!(*dst = dupn((const unsigned char *)s, n)))
                return fs_json_nomem(&p->j);
        }
        return FOLDSVG_OK;
    case R_S_WEIGHTTYPE:
        if (c.tag == FS_JSON_STR) {
            free(f->thr->tab->weight_type);
            if (!(f->thr->tab->weight_type = dupn((const unsigned char *)s, n)))
                return fs_json_nomem(&p->j);
        }
        return FOLDSVG_OK;
    case R_STRING_ELEM:
        return ff_strings_push(f->strs, s, n, c.tag == FS_JSON_STR) == FOLDSVG_OK
                   ? FOLDSVG_OK
                   : fs_json_nomem(&p->j);
    case R_SCHEMA_COL:
        f->tab->schema[f->col] = c.tag == FS_JSON_INT && c.v.i >= 0 ? c.v.i : -2;
        return FOLDSVG_OK;
    case R_LENGTH:
        f->tab->has_length = 1;
        f->tab->length = c.tag == FS_JSON_INT ? c.v.i : -1;
        return FOLDSVG_OK;
    case R_CELL:
        return ff_table_row_cell(f->tab, (size_t)ei, c) == FOLDSVG_OK ? FOLDSVG_OK
                                                                      : fs_json_nomem(&p->j);
    case R_COLCELL:
        return ff_table_col_push(f->tab, c) == FOLDSVG_OK ? FOLDSVG_OK : fs_json_nomem(&p->j);
    case R_S_COLCELL:
        return ff_column_cell(p, f->thr, f->col, ei, c);
    case R_THREAD_ELEM:
    case R_PROCESS_ELEM:
        if (c.tag == FS_JSON_STR) {
            /* A whole profile in a string (Gecko < v5): parsed after this text is done. */
            ff_profile *parent = f->prof;
            ff_profile *sub = ff_profile_new(parent);
            if (!sub)
                return fs_json_nomem(&p->j);
            foldsvg_status st =
                role == R_THREAD_ELEM
                    ? ff_profile_add_sub(&parent->str_subs, &parent->nstr, &parent->cstr, sub)
                    : ff_profile_add_sub(&parent->proc_subs, &parent->nproc, &parent->cproc, sub);
            if (st) {
                ff_profile_free(sub);
                return fs_json_nomem(&p->j);
            }
            if (role == R_THREAD_ELEM)
                parent->nthread_entries++;
            snprintf(sub->origin, sizeof sub->origin, "%.90s%s%s[%llu] (JSON string)",
                     parent->origin, parent->origin[0] ? "." : "",
                     role == R_THREAD_ELEM ? "threads" : "processes", (unsigned long long)ei);
            if (!(sub->json = dupn((const unsigned char *)s, n)))
                return fs_json_nomem(&p->j);
            sub->json_len = n;
            sub->json_offset = p->j.origin_offset ? p->j.origin_offset : fs_json_offset(&p->j);
            if (p->q->tail)
                p->q->tail->next_pending = sub;
            else
                p->q->head = sub;
            p->q->tail = sub;
            return FOLDSVG_OK;
        }
        if (c.tag == FS_JSON_NULL && role == R_PROCESS_ELEM)
            return FOLDSVG_OK;
        return fs_json_fail(
            &p->j, FOLDSVG_E_PARSE, "%s[%llu] is neither an object nor a JSON string",
            role == R_THREAD_ELEM ? "threads" : "processes", (unsigned long long)ei);
    case R_THREADS:
    case R_PROCESSES:
    case R_SHARED:
    case R_SAMPLES:
    case R_S_COL:
        if (c.tag == FS_JSON_NULL)
            return FOLDSVG_OK;
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "%s must be %s", role_name(role),
                            role == R_SHARED || role == R_SAMPLES ? "an object or null"
                                                                  : "an array or null");
    default:
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "%s must be %s", role_name(role),
                            role == R_TABLE || role == R_SCHEMA || role == R_THREAD ? "an object"
                                                                                    : "an array");
    }
}

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
    return store_scalar(p, f, ei, c, s, n);
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
