/* The yajl callbacks of the Firefox-Profiler reader. A heap stack of frames, one per open
 * JSON container, says what each value means ("the stack column of a sample row", "a
 * string of thread 2's string table", ...); uninteresting subtrees are skipped with a
 * depth counter. Samples are summed into per-stack accumulators as their rows close, so
 * nothing here grows with the number of samples: arrays that must be paired with a later
 * one (processed stack and weight columns, Gecko rows before their schema) are read a
 * second time instead of being kept (firefox_reread.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "parse/firefox_internal.h"
#include "parse/input.h"
#include "util/error.h"
#include "util/tmpfile.h"

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
    R_S_ROW,
    R_S_CELL,
    R_S_COL,
    R_S_COLCELL,
    R_S_WEIGHTTYPE,
    R_D_DATA, /* Gecko sample rows before their schema: checked, read again later */
    R_D_ROW
} ff_role;

enum { K_STACK, K_FRAME, K_FUNC, K_SAMPLES };

typedef struct ff_frame {
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
} ff_frame;

/* Resource limits (docs/limits.md). Containers the reader follows (profiles, threads,
 * tables) are a few levels deep in real profiles; only processes[] nests, so a deeper
 * document is an attack or garbage, not a profile. Skipped values may nest deeper: yajl
 * tracks those itself, in one block that the token limit below bounds as well. */
#define FF_MAX_DEPTH 10000
/* yajl keeps a token (string, number) that spans input chunks in one growing block and
 * does not survive a failed allocation; a 10 GB string would otherwise take all memory.
 * Its blocks are measured (yalloc_*) and a larger one stops the parse after the chunk. */
#define FF_MAX_TOKEN ((size_t)256 << 20)

typedef struct ff_parser {
    ff_frame *st;
    size_t depth, cap;
    size_t skip; /* containers open inside a skipped value */
    ff_profile *root;
    ff_queue *q;
    /* fast sample rows (Gecko, schema known) */
    int srow;       /* the innermost open container is a sample row (and no skip) */
    int64_t srow_k; /* cells seen in that row */
    int64_t scol_stack, scol_cpu;
    ff_cell row_stack, row_cpu;
    /* a failure found in a callback, reported with the offset once yajl stops */
    yajl_handle h;
    uint64_t base;          /* decoded bytes before the chunk yajl is parsing */
    uint64_t origin_offset; /* a sub-profile's place in its parent text, or 0 */
    foldsvg_status ecode;
    char emsg[640];
    size_t yalloc_max; /* the largest block yajl asked for */
    /* second reads */
    const char *file;
    ff_reread *rr;
    int can_reread;             /* else arrays that may be read again are copied to a spool */
    ff_cursor *cur;             /* the array the column being read is paired with */
    int cur_k;                  /* its FF_P_* */
    const unsigned char *chunk; /* the block yajl is parsing */
    FILE *spool_out;            /* the spool taking the raw text from cap_pos on */
    uint64_t cap_pos;
} ff_parser;

static int fail(ff_parser *p, foldsvg_status code, const char *fmt, ...) FS_PRINTF(3, 4);

#include <stdarg.h>
static int fail(ff_parser *p, foldsvg_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->emsg, sizeof p->emsg, fmt, ap);
    va_end(ap);
    p->ecode = code;
    return 0;
}

static int nomem(ff_parser *p)
{
    /* push() may already have said why (a limit). */
    return p->ecode ? 0 : fail(p, FOLDSVG_E_NOMEM, "out of memory");
}

static ff_frame *push(ff_parser *p, uint8_t role, uint8_t child)
{
    if (p->depth >= FF_MAX_DEPTH) {
        fail(p, FOLDSVG_E_LIMIT,
             "profile containers nested more than %d deep (processes inside processes?)",
             FF_MAX_DEPTH);
        return NULL;
    }
    if (p->depth == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 32;
        ff_frame *ns = realloc(p->st, nc * sizeof *ns);
        if (!ns)
            return NULL;
        p->st = ns;
        p->cap = nc;
    }
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

/* Cells and column entries may be anything; containers there are kept as FF_OTHER. */
static int is_cell_role(uint8_t r)
{
    return r == R_CELL || r == R_COLCELL || r == R_S_CELL || r == R_S_COLCELL || r == R_STRING_ELEM;
}

static int store_scalar(ff_parser *p, ff_frame *f, uint64_t ei, ff_cell c, const char *s, size_t n);

/* ---------------------------------------------------------------- sample rows */

static int sample_row(ff_parser *p, ff_thread *t, ff_cell stack, ff_cell cpu, uint64_t row)
{
    int64_t key;
    if (stack.tag == FF_NULL)
        key = -1;
    else if (stack.tag == FF_INT && stack.v.i >= 0)
        key = stack.v.i;
    else
        return fail(p, FOLDSVG_E_PARSE,
                    "samples row %llu: the stack cell is not a stack index or null",
                    (unsigned long long)row);
    ff_acc *a = ff_agg_get(&t->agg, key, row);
    if (!a)
        return nomem(p);
    a->n++;
    t->rows++;
    if (cpu.tag == FF_NULL)
        a->cpu_null++;
    else if ((cpu.tag != FF_INT && cpu.tag != FF_NUM) || !ff_acc_add(a, &cpu)) {
        /* Only an error if the weights are SP1 cycles, known at the end. */
        if (!t->cpu_bad_row)
            t->cpu_bad_row = row + 1;
    }
    return 1;
}

/* ---------------------------------------------------------------- second reads */

static uint64_t here(ff_parser *p)
{
    return p->base + yajl_get_bytes_consumed(p->h);
}

/* Raw text of the captured array from cap_pos up to decoded offset TO (in this block). */
static int spool_flush(ff_parser *p, uint64_t to)
{
    size_t from = (size_t)(p->cap_pos - p->base), n = (size_t)(to - p->cap_pos);
    if (n && fwrite(p->chunk + from, 1, n, p->spool_out) != n)
        return fail(p, FOLDSVG_E_IO, "cannot write a temporary file: %s", strerror(errno));
    p->cap_pos = to;
    return 1;
}

/* An array that may be read again begins (its '[' was just parsed). SPOOL: it may really
 * be needed, so an input that cannot be read twice copies its text to a temporary file:
 * disk then grows with the samples, memory does not. */
static int region_begin(ff_parser *p, ff_region *r, int spool)
{
    ff_region_reset(r);
    r->present = 1;
    r->off = here(p) - 1;
    if (spool && !p->can_reread) {
        if (!(r->spool = fs_tmpfile()))
            return fail(p, FOLDSVG_E_IO, "cannot create a temporary file: %s", strerror(errno));
        p->spool_out = r->spool;
        p->cap_pos = r->off;
    }
    return 1;
}

static int region_end(ff_parser *p, ff_region *r)
{
    if (!p->spool_out || p->spool_out != r->spool)
        return 1;
    int ok = spool_flush(p, here(p));
    p->spool_out = NULL;
    return ok;
}

static int cursor_open(ff_parser *p, const ff_region *r, int rows, ff_cursor **out)
{
    foldsvg_error e;
    if (ff_cursor_open(out, p->rr, r, rows, p->file, &e))
        return fail(p, e.code, "%s", e.message);
    return 1;
}

/* The next cell of cursor C: 1, 0 at its end, -1 on failure (already reported). */
static int cursor_next(ff_parser *p, ff_cursor *c, ff_cell *v)
{
    foldsvg_error e;
    int r = ff_cursor_next(c, v, &e);
    if (r < 0)
        fail(p, e.code, "%s", e.message);
    return r;
}

/* Gecko rows that came before their schema, read again now that it is known. */
static int replay_rows(ff_parser *p, ff_thread *t)
{
    ff_table *s = &t->samples;
    if (s->schema[FF_C_STACK] == -1)
        return fail(p, FOLDSVG_E_PARSE, "samples: the schema has no stack column");
    ff_cursor *c;
    if (!cursor_open(p, &t->rows_reg, 1, &c))
        return 0;
    int64_t ks = s->schema[FF_C_STACK], kc = s->schema[FF_C_CPU], k = 0;
    ff_cell nul = {.tag = FF_NULL}, stack = nul, cpu = nul, v;
    uint64_t row = 0;
    int r = 0, ok = 1;
    while (ok && (r = cursor_next(p, c, &v)) > 0) {
        if (v.tag == FF_ROWEND) {
            ok = sample_row(p, t, stack, cpu, row++);
            stack = cpu = nul;
            k = 0;
        } else {
            if (k == ks)
                stack = v;
            else if (k == kc)
                cpu = v;
            k++;
        }
    }
    ff_cursor_close(c);
    return ok && r == 0;
}

static int is_number(ff_cell c)
{
    return c.tag == FF_INT || c.tag == FF_NUM;
}

/* The first problem with a weight, by index, as a walk in index order would meet it. */
static void weight_problem(ff_thread *t, uint64_t i, int overflow, int64_t stack)
{
    if (t->wprob && t->wprob <= i + 1)
        return;
    t->wprob = i + 1;
    t->wprob_overflow = overflow;
    t->wprob_stack = stack;
}

static void add_weight(ff_thread *t, ff_acc *a, ff_cell w, uint64_t i)
{
    if (!is_number(w))
        weight_problem(t, i, 0, a->key);
    else if (!ff_acc_add(a, &w))
        weight_problem(t, i, 1, a->key);
}

static int add_duration(ff_parser *p, ff_thread *t, int64_t key, ff_cell d, uint64_t i)
{
    ff_acc *a = ff_agg_get(&t->agg_dur, key, i);
    if (!a)
        return nomem(p);
    a->n++;
    if ((!is_number(d) || !ff_acc_add(a, &d)) && !t->dbad)
        t->dbad = i + 1;
    return 1;
}

/* Entry I of a processed samples column. */
static int column_cell(ff_parser *p, ff_thread *t, int col, uint64_t i, ff_cell c)
{
    int k = col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
    t->pn[k]++;
    ff_cell pc;
    int got = 0;
    if (p->cur && (got = cursor_next(p, p->cur, &pc)) < 0)
        return 0;
    if (k == FF_P_STACK) {
        int64_t key;
        if (c.tag == FF_NULL)
            key = -1;
        else if (c.tag == FF_INT && c.v.i >= 0)
            key = c.v.i;
        else
            return fail(p, FOLDSVG_E_PARSE, "samples.stack[%llu] is not a stack index or null",
                        (unsigned long long)i);
        ff_acc *a = ff_agg_get(&t->agg, key, i);
        if (!a)
            return nomem(p);
        a->n++;
        t->rows++;
        if (!got)
            return 1;
        if (p->cur_k == FF_P_WEIGHT) {
            add_weight(t, a, pc, i);
            return 1;
        }
        return add_duration(p, t, key, pc, i);
    }
    if (k == FF_P_WEIGHT && !is_number(c))
        weight_problem(t, i, 0, -1);
    if (!got)
        return 1;
    /* The stack array was checked on its first read: anything else means it changed. */
    if (pc.tag != FF_NULL && !(pc.tag == FF_INT && pc.v.i >= 0))
        return fail(p, FOLDSVG_E_IO, "samples.stack[%llu] is not the same when read again",
                    (unsigned long long)i);
    int64_t key = pc.tag == FF_NULL ? -1 : pc.v.i;
    if (k == FF_P_WEIGHT) {
        ff_acc *a = ff_agg_get(&t->agg, key, i); /* there since the stack array */
        if (!a)
            return nomem(p);
        add_weight(t, a, c, i);
        return 1;
    }
    return add_duration(p, t, key, c, i);
}

/* A processed samples column begins: pair it with an earlier one when it needs it. */
static int column_begin(ff_parser *p, ff_thread *t, int col)
{
    int k = col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
    if (t->pseen[k])
        return fail(p, FOLDSVG_E_PARSE, "samples has more than one \"%s\" array",
                    ff_column_names[col]);
    t->pseen[k] = 1;
    t->pn[k] = 0;
    if (k == FF_P_STACK)
        t->has_stack_col = 1;
    else if (k == FF_P_WEIGHT)
        t->has_weight_array = 1;
    else
        t->has_duration_array = 1;
    /* The weights decide when they exist; durations only without them. So the stack is
     * needed again unless the weights came first, and the weights or durations when the
     * stack has not come yet (durations: nor weights). */
    int pw = t->pseen[FF_P_WEIGHT] && k != FF_P_WEIGHT;
    int later = k == FF_P_STACK ? !pw : !t->pseen[FF_P_STACK] && (k == FF_P_WEIGHT || !pw);
    if (!region_begin(p, &t->preg[k], later))
        return 0;
    int partner = -1;
    if (k == FF_P_STACK)
        partner = pw ? FF_P_WEIGHT : t->pseen[FF_P_DUR] ? FF_P_DUR : -1;
    else if (t->pseen[FF_P_STACK] && (k == FF_P_WEIGHT || !pw))
        partner = FF_P_STACK;
    if (partner >= 0 && !cursor_open(p, &t->preg[partner], 0, &p->cur))
        return 0;
    p->cur_k = partner;
    return 1;
}

static int column_end(ff_parser *p, ff_thread *t, int col)
{
    int k = col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
    ff_cursor_close(p->cur);
    p->cur = NULL;
    return region_end(p, &t->preg[k]);
}

static void samples_reset(ff_thread *t)
{
    for (int k = 0; k < FF_NP; k++) {
        t->pseen[k] = 0;
        t->pn[k] = 0;
        ff_region_reset(&t->preg[k]);
    }
    t->wprob = 0;
    t->dbad = 0;
    ff_region_reset(&t->rows_reg);
}

/* The samples object ended: sum the rows that came before their schema, and report what
 * the pairing of processed columns found. */
static int samples_end(ff_parser *p, ff_thread *t)
{
    int ok = 1;
    if (t->rows_reg.present)
        ok = replay_rows(p, t);
    if (ok && t->pseen[FF_P_STACK]) {
        uint64_t ns = t->pn[FF_P_STACK];
        if (t->pseen[FF_P_WEIGHT]) {
            if (t->pn[FF_P_WEIGHT] != ns)
                ok = fail(p, FOLDSVG_E_PARSE,
                          "samples.weight has %llu entries but samples.stack %llu",
                          (unsigned long long)t->pn[FF_P_WEIGHT], (unsigned long long)ns);
            else if (t->wprob && !t->wprob_overflow)
                ok = fail(p, FOLDSVG_E_PARSE, "samples.weight[%llu] is not a number",
                          (unsigned long long)(t->wprob - 1));
            else if (t->wprob)
                ok = fail(p, FOLDSVG_E_OVERFLOW,
                          "samples.weight: the weights of stack %lld overflow 64 bits",
                          (long long)t->wprob_stack);
        } else if (t->pseen[FF_P_DUR]) {
            /* Durations of another length are ignored, as if they were not there. */
            if (t->pn[FF_P_DUR] != ns)
                ff_agg_free(&t->agg_dur);
            else if (t->dbad)
                ok = fail(p, FOLDSVG_E_PARSE, "samples.duration[%llu] is not a number",
                          (unsigned long long)(t->dbad - 1));
        }
    }
    samples_reset(t);
    return ok;
}

/* ---------------------------------------------------------------- containers */

static int begin_container_(ff_parser *p, int is_map);

/* The hot callbacks test one flag instead of looking at the frame stack. */
static void sync_mode(ff_parser *p)
{
    p->srow = !p->skip && p->depth && p->st[p->depth - 1].role == R_S_ROW;
}

static int begin_container(ff_parser *p, int is_map)
{
    int ok = begin_container_(p, is_map);
    sync_mode(p);
    if (p->srow)
        p->srow_k = 0;
    return ok;
}

static int begin_container_(ff_parser *p, int is_map)
{
    if (p->skip) {
        p->skip++;
        return 1;
    }
    ff_frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
    uint8_t role = f ? f->child : R_ROOT;
    uint64_t ei = f ? f->idx++ : 0;
    if (p->srow)
        ei = (uint64_t)p->srow_k++;
    if (role == R_SKIP) {
        p->skip = 1;
        return 1;
    }
    if (is_cell_role(role)) {
        ff_cell other = {.tag = FF_OTHER};
        if (!store_scalar(p, f, ei, other, NULL, 0))
            return 0;
        p->skip = 1;
        return 1;
    }
    if (role == R_WRAPPED && !is_map) {
        p->skip = 1;
        return 1;
    }
    int want_map = role == R_ROOT || role == R_PROFILE || role == R_WRAPPED || role == R_META ||
                   role == R_THREAD_ELEM || role == R_PROCESS_ELEM || role == R_SHARED ||
                   role == R_TABLE || role == R_SCHEMA || role == R_SAMPLES;
    if (want_map != is_map) {
        if (role == R_ROOT)
            return fail(p, FOLDSVG_E_PARSE,
                        "not a Firefox profile: the JSON text is not an object");
        if (role == R_META) { /* only the root's meta matters; checked at the end */
            f->prof->has_meta_key = 1;
            p->skip = 1;
            return 1;
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
            return 1;
        }
        return fail(p, FOLDSVG_E_PARSE, "%s must be %s", role_name(role),
                    want_map ? "an object" : "an array");
    }
    ff_frame *n;
    switch (role) {
    case R_ROOT:
        if (!(n = push(p, R_PROFILE, R_SKIP)))
            return nomem(p);
        n->prof = p->root;
        return 1;
    case R_WRAPPED:
    case R_PROCESS_ELEM: {
        ff_profile *parent = f->prof;
        ff_profile *sub = ff_profile_new(role == R_WRAPPED ? NULL : parent);
        if (!sub)
            return nomem(p);
        if (role == R_WRAPPED) {
            ff_profile_free(parent->wrapped); /* a repeated key: the last one counts */
            parent->wrapped = sub;
            snprintf(sub->origin, sizeof sub->origin, "profile");
        } else {
            if (!ff_profile_add_sub(&parent->proc_subs, &parent->nproc, &parent->cproc, sub)) {
                ff_profile_free(sub);
                return nomem(p);
            }
            snprintf(sub->origin, sizeof sub->origin, "processes[%llu]", (unsigned long long)ei);
        }
        if (!(n = push(p, R_PROFILE, R_SKIP)))
            return nomem(p);
        n->prof = sub;
        return 1;
    }
    case R_META:
        f->prof->has_meta_key = 1;
        f->prof->meta_is_object = 1;
        return push(p, R_META, R_SKIP) ? 1 : nomem(p);
    case R_THREADS:
        return push(p, R_THREADS, R_THREAD_ELEM) ? 1 : nomem(p);
    case R_PROCESSES:
        return push(p, R_PROCESSES, R_PROCESS_ELEM) ? 1 : nomem(p);
    case R_THREAD_ELEM: {
        ff_thread *t = ff_thread_new(f->prof);
        if (!t)
            return nomem(p);
        f->prof->nthread_entries++;
        if (!(n = push(p, R_THREAD, R_SKIP)))
            return nomem(p);
        n->thr = t;
        n->first = ei == 0; /* for the processed-format test on threads[0] */
        return 1;
    }
    case R_SHARED:
        return push(p, R_SHARED, R_SKIP) ? 1 : nomem(p);
    case R_STRINGS:
        f->strs->present = 1;
        f->strs->n = f->strs->len = 0; /* a repeated key: the last one counts */
        return push(p, R_STRINGS, R_STRING_ELEM) ? 1 : nomem(p);
    case R_TABLE:
        f->tab->present = 1;
        return push(p, R_TABLE, R_SKIP) ? 1 : nomem(p);
    case R_SCHEMA:
        f->tab->has_schema = 1;
        for (int i = 0; i < FF_NCOLS; i++)
            f->tab->schema[i] = -1;
        return push(p, R_SCHEMA, R_SKIP) ? 1 : nomem(p);
    case R_DATA: {
        static const int wanted[3][2] = {
            {FF_C_PREFIX, FF_C_FRAME}, {FF_C_LOCATION, -1}, {FF_C_NAME, -1}};
        int k = f->kind < 3 ? f->kind : 0;
        ff_table_data_begin(f->tab, wanted[k], wanted[k][1] < 0 ? 1 : 2);
        return push(p, R_DATA, R_ROW) ? 1 : nomem(p);
    }
    case R_ROW:
        if (!ff_table_row_begin(f->tab))
            return nomem(p);
        return push(p, R_ROW, R_CELL) ? 1 : nomem(p);
    case R_COLUMN:
        f->tab->has_col[f->col] = 1;
        f->tab->col[f->col].n = 0;
        return push(p, R_COLUMN, R_COLCELL) ? 1 : nomem(p);
    case R_SAMPLES:
        f->thr->has_samples = 1;
        samples_reset(f->thr);
        if (!(n = push(p, R_SAMPLES, R_SKIP)))
            return nomem(p);
        n->tab = &f->thr->samples;
        return 1;
    case R_S_DATA:
        if (!f->tab->has_schema) {
            /* Rows before their schema: their shape is checked now, their cells are read
             * again when the samples object ends. */
            if (!region_begin(p, &f->thr->rows_reg, 1))
                return 0;
            return push(p, R_D_DATA, R_D_ROW) ? 1 : nomem(p);
        }
        if (f->tab->schema[FF_C_STACK] == -1)
            return fail(p, FOLDSVG_E_PARSE, "samples: the schema has no stack column");
        p->scol_stack = f->tab->schema[FF_C_STACK];
        p->scol_cpu = f->tab->schema[FF_C_CPU];
        return push(p, R_S_DATA, R_S_ROW) ? 1 : nomem(p);
    case R_S_ROW:
        p->row_stack.tag = FF_NULL;
        p->row_cpu.tag = FF_NULL;
        return push(p, R_S_ROW, R_S_CELL) ? 1 : nomem(p);
    case R_D_ROW:
        return push(p, R_D_ROW, R_SKIP) ? 1 : nomem(p);
    case R_S_COL:
        if (!column_begin(p, f->thr, f->col))
            return 0;
        return push(p, R_S_COL, R_S_COLCELL) ? 1 : nomem(p);
    default:
        p->skip = 1;
        return 1;
    }
}

static int end_container(ff_parser *p)
{
    if (p->skip) {
        p->skip--;
        sync_mode(p); /* a container inside a sample row cell may just have closed */
        return 1;
    }
    p->srow = 0;
    ff_frame *f = &p->st[--p->depth];
    switch (f->role) {
    case R_ROW:
        return ff_table_row_end(f->tab) ? 1 : nomem(p);
    case R_S_ROW: {
        ff_thread *t = f->thr;
        return sample_row(p, t, p->row_stack, p->row_cpu, t->rows);
    }
    case R_SAMPLES:
        return samples_end(p, f->thr);
    case R_S_COL:
        return column_end(p, f->thr, f->col);
    case R_D_DATA:
        return region_end(p, &f->thr->rows_reg);
    default:
        return 1;
    }
}

static int cb_start_map(void *ctx)
{
    return begin_container(ctx, 1);
}

static int cb_start_array(void *ctx)
{
    ff_parser *p = ctx;
    /* The hot path: one sample row opens here for every sample. */
    if (!p->skip && p->depth && p->depth < p->cap && p->st[p->depth - 1].role == R_S_DATA) {
        ff_frame *up = &p->st[p->depth - 1];
        ff_frame *f = &p->st[p->depth++];
        up->idx++;
        f->role = R_S_ROW;
        f->child = R_S_CELL;
        f->idx = 0;
        f->thr = up->thr;
        p->row_stack.tag = FF_NULL;
        p->row_cpu.tag = FF_NULL;
        p->srow = 1;
        p->srow_k = 0;
        return 1;
    }
    return begin_container(ctx, 0);
}

static int cb_end(void *ctx)
{
    return end_container(ctx);
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t n)
{
    ff_parser *p = ctx;
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
            f->strs = &f->thr->strings;
        } else if (IS("stackTable") || IS("frameTable") || IS("funcTable")) {
            f->child = R_TABLE;
            f->kind = s[0] == 's' ? K_STACK : s[1] == 'r' ? K_FRAME : K_FUNC;
            f->tab = f->kind == K_STACK   ? &f->thr->stack
                     : f->kind == K_FRAME ? &f->thr->frame
                                          : &f->thr->func;
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
            if (c >= 0) {
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

static int store_scalar(ff_parser *p, ff_frame *f, uint64_t ei, ff_cell c, const char *s, size_t n)
{
    uint8_t role = f ? f->child : R_ROOT;
    switch (role) {
    case R_SKIP:
        return 1;
    case R_ROOT:
        return fail(p, FOLDSVG_E_PARSE, "not a Firefox profile: the JSON text is not an object");
    case R_WRAPPED:
        return 1;
    case R_META:
        f->prof->has_meta_key = 1;
        return 1;
    case R_META_PRODUCT:
        f->prof->product_set = 1;
        f->prof->product_sp1 = c.tag == FF_STR && n == 8 && memcmp(s, "SP1 ZKVM", 8) == 0;
        if (c.tag == FF_STR) {
            size_t k = n < sizeof f->prof->product - 1 ? n : sizeof f->prof->product - 1;
            memcpy(f->prof->product, s, k);
            f->prof->product[k] = '\0';
        }
        return 1;
    case R_META_PPV:
        if (c.tag == FF_INT || c.tag == FF_NUM) {
            f->prof->ppv_is_number = 1;
            f->prof->ppv = c.tag == FF_INT ? (double)c.v.i : c.v.d;
        }
        return 1;
    case R_META_VERSION:
        if (c.tag == FF_INT || c.tag == FF_NUM)
            f->prof->version = c.tag == FF_INT ? (double)c.v.i : c.v.d;
        return 1;
    case R_THREAD_NAME:
    case R_THREAD_PROCNAME:
        if (c.tag == FF_STR) {
            char **dst = role == R_THREAD_NAME ? &f->thr->name : &f->thr->process;
            free(*dst);
            if (!(*dst = dupn((const unsigned char *)s, n)))
                return nomem(p);
        }
        return 1;
    case R_S_WEIGHTTYPE:
        if (c.tag == FF_STR) {
            free(f->thr->weight_type);
            if (!(f->thr->weight_type = dupn((const unsigned char *)s, n)))
                return nomem(p);
        }
        return 1;
    case R_STRING_ELEM:
        return ff_strings_push(f->strs, s, n, c.tag == FF_STR) ? 1 : nomem(p);
    case R_SCHEMA_COL:
        f->tab->schema[f->col] = c.tag == FF_INT && c.v.i >= 0 ? c.v.i : -2;
        return 1;
    case R_LENGTH:
        f->tab->has_length = 1;
        f->tab->length = c.tag == FF_INT ? c.v.i : -1;
        return 1;
    case R_CELL:
        return ff_table_row_cell(f->tab, (size_t)ei, c) ? 1 : nomem(p);
    case R_COLCELL:
        return ff_cells_push(&f->tab->col[f->col], c) ? 1 : nomem(p);
    case R_S_CELL:
        if ((int64_t)ei == p->scol_stack)
            p->row_stack = c;
        else if ((int64_t)ei == p->scol_cpu)
            p->row_cpu = c;
        return 1;
    case R_S_COLCELL:
        return column_cell(p, f->thr, f->col, ei, c);
    case R_THREAD_ELEM:
    case R_PROCESS_ELEM:
        if (c.tag == FF_STR) {
            /* A whole profile in a string (Gecko < v5): parsed after this text is done. */
            ff_profile *parent = f->prof;
            ff_profile *sub = ff_profile_new(parent);
            if (!sub)
                return nomem(p);
            int ok =
                role == R_THREAD_ELEM
                    ? ff_profile_add_sub(&parent->str_subs, &parent->nstr, &parent->cstr, sub)
                    : ff_profile_add_sub(&parent->proc_subs, &parent->nproc, &parent->cproc, sub);
            if (!ok) {
                ff_profile_free(sub);
                return nomem(p);
            }
            if (role == R_THREAD_ELEM)
                parent->nthread_entries++;
            snprintf(sub->origin, sizeof sub->origin, "%.90s%s%s[%llu] (JSON string)",
                     parent->origin, parent->origin[0] ? "." : "",
                     role == R_THREAD_ELEM ? "threads" : "processes", (unsigned long long)ei);
            if (!(sub->json = dupn((const unsigned char *)s, n)))
                return nomem(p);
            sub->json_len = n;
            sub->json_offset =
                p->origin_offset ? p->origin_offset : p->base + yajl_get_bytes_consumed(p->h);
            if (p->q->tail)
                p->q->tail->next_pending = sub;
            else
                p->q->head = sub;
            p->q->tail = sub;
            return 1;
        }
        if (c.tag == FF_NULL && role == R_PROCESS_ELEM)
            return 1;
        return fail(p, FOLDSVG_E_PARSE, "%s[%llu] is neither an object nor a JSON string",
                    role == R_THREAD_ELEM ? "threads" : "processes", (unsigned long long)ei);
    case R_THREADS:
    case R_PROCESSES:
    case R_SHARED:
    case R_SAMPLES:
    case R_S_COL:
        if (c.tag == FF_NULL)
            return 1;
        return fail(p, FOLDSVG_E_PARSE, "%s must be %s", role_name(role),
                    role == R_SHARED || role == R_SAMPLES ? "an object or null"
                                                          : "an array or null");
    default:
        return fail(p, FOLDSVG_E_PARSE, "%s must be %s", role_name(role),
                    role == R_TABLE || role == R_SCHEMA || role == R_THREAD ? "an object"
                                                                            : "an array");
    }
}

static int scalar(ff_parser *p, ff_cell c, const char *s, size_t n)
{
    if (p->skip)
        return 1;
    ff_frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
    uint64_t ei = f ? f->idx++ : 0;
    if (p->srow)
        ei = (uint64_t)p->srow_k++;
    return store_scalar(p, f, ei, c, s, n);
}

static int cb_null(void *ctx)
{
    ff_cell c = {.tag = FF_NULL};
    return scalar(ctx, c, NULL, 0);
}

static int cb_bool(void *ctx, int b)
{
    ff_cell c = {.tag = FF_BOOL};
    c.v.i = b;
    return scalar(ctx, c, NULL, 0);
}

static int cb_number(void *ctx, const char *s, size_t n)
{
    ff_parser *p = ctx;
    if (p->srow) {
        /* The hot path: one call per cell of every sample row. Only two cells matter,
         * the rest (times) are not even converted. */
        int64_t k = p->srow_k++;
        if (k == p->scol_stack)
            p->row_stack = ff_number(s, n);
        else if (k == p->scol_cpu)
            p->row_cpu = ff_number(s, n);
        return 1;
    }
    if (p->skip)
        return 1;
    /* Depth 0: a bare number as the whole text (a sub-profile string "21"); scalar()
     * reports it as not a profile. */
    if (p->depth && p->st[p->depth - 1].child == R_SKIP) {
        p->st[p->depth - 1].idx++;
        return 1;
    }
    return scalar(p, ff_number(s, n), NULL, 0);
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
    ff_cell c = {.tag = FF_STR};
    return scalar(ctx, c, (const char *)s, n);
}

static const yajl_callbacks callbacks = {cb_null,   cb_bool,        NULL,         NULL,
                                         cb_number, cb_string,      cb_start_map, cb_map_key,
                                         cb_end,    cb_start_array, cb_end};

/* ---------------------------------------------------------------- driving yajl */

typedef struct ff_feed {
    fs_input *in;              /* the input, or */
    const unsigned char *text; /* a sub-profile's text */
    size_t text_len, text_pos;
} ff_feed;

enum { FF_CHUNK = 1 << 18 };

static void *yalloc_malloc(void *ctx, size_t sz)
{
    ff_parser *p = ctx;
    if (sz > p->yalloc_max)
        p->yalloc_max = sz;
    return malloc(sz);
}

static void *yalloc_realloc(void *ctx, void *ptr, size_t sz)
{
    ff_parser *p = ctx;
    if (sz > p->yalloc_max)
        p->yalloc_max = sz;
    return realloc(ptr, sz);
}

static void yalloc_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static foldsvg_status run(ff_parser *p, ff_feed *feed, const char *file, const char *origin,
                          uint64_t origin_offset, foldsvg_error *err)
{
    yajl_alloc_funcs af = {yalloc_malloc, yalloc_realloc, yalloc_free, p};
    yajl_handle h = yajl_alloc(&callbacks, &af, p);
    unsigned char *buf = feed->in ? malloc(FF_CHUNK) : NULL;
    if (!h || (feed->in && !buf)) {
        if (h)
            yajl_free(h);
        free(buf);
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    }
    foldsvg_status st = FOLDSVG_OK;
    uint64_t base = 0;
    p->h = h;
    p->origin_offset = origin ? origin_offset : 0;
    yajl_status ys = yajl_status_ok;
    const unsigned char *chunk = NULL;
    size_t got = 0;
    for (;;) {
        if (feed->in) {
            st = fs_input_read(feed->in, buf, FF_CHUNK, &got, err);
            if (st)
                goto out;
            chunk = buf;
        } else {
            chunk = feed->text + feed->text_pos;
            got = feed->text_len - feed->text_pos;
            feed->text_pos += got;
        }
        if (got == 0)
            break;
        p->base = base;
        p->chunk = chunk;
        ys = yajl_parse(h, chunk, got);
        if (ys != yajl_status_ok)
            break;
        if (p->spool_out && !spool_flush(p, base + got)) {
            st = fs_error_at_offset(err, p->ecode, file, base + got, "%s", p->emsg);
            goto out;
        }
        base += got;
        if (p->yalloc_max > FF_MAX_TOKEN) {
            /* A block grows by at most a chunk per call: it is caught below 2x the limit. */
            st = fs_error_at_offset(err, FOLDSVG_E_LIMIT, file, base,
                                    "a JSON string, number or nesting longer than %zu bytes "
                                    "ends past here; is this a Firefox profile?",
                                    FF_MAX_TOKEN);
            goto out;
        }
    }
    if (ys == yajl_status_ok) {
        chunk = NULL;
        got = 0;
        ys = yajl_complete_parse(h);
    }
    if (ys != yajl_status_ok) {
        uint64_t off = base + (chunk ? yajl_get_bytes_consumed(h) : 0);
        char what[640];
        foldsvg_status code = FOLDSVG_E_PARSE;
        if (ys == yajl_status_client_canceled) {
            code = p->ecode ? p->ecode : FOLDSVG_E_PARSE;
            snprintf(what, sizeof what, "%s", p->emsg);
        } else if (!chunk) {
            snprintf(what, sizeof what, "unexpected end of JSON (the text stops inside a value)");
        } else {
            unsigned char *m = yajl_get_error(h, 0, NULL, 0);
            snprintf(what, sizeof what, "invalid JSON: %s", m ? (const char *)m : "syntax error");
            if (m)
                yajl_free_error(h, m);
        }
        if (origin)
            st = fs_error_at_offset(err, code, file, origin_offset,
                                    "in the sub-profile %s, at its byte %llu: %s", origin,
                                    (unsigned long long)off, what);
        else
            st = fs_error_at_offset(err, code, file, off, "%s", what);
    }
out:
    yajl_free(h);
    free(buf);
    return st;
}

static void parser_init(ff_parser *p, ff_profile *root, ff_queue *q, const char *file)
{
    memset(p, 0, sizeof *p);
    p->root = root;
    p->q = q;
    p->scol_stack = p->scol_cpu = -1;
    p->file = file;
}

static void parser_free(ff_parser *p)
{
    ff_cursor_close(p->cur);
    ff_reread_free(p->rr);
    free(p->st);
}

foldsvg_status ff_parse_input(struct fs_input *in, ff_profile *root, ff_queue *q,
                              foldsvg_error *err)
{
    ff_parser p;
    const char *file = fs_input_name(in);
    parser_init(&p, root, q, file);
    p.can_reread = fs_input_can_reopen(in);
    if (!(p.rr = ff_reread_new(in, fs_input_offset(in), NULL, 0)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    ff_feed feed = {.in = in};
    foldsvg_status st = run(&p, &feed, file, NULL, 0, err);
    parser_free(&p);
    return st;
}

foldsvg_status ff_parse_sub(ff_profile *sub, ff_queue *q, const char *file, foldsvg_error *err)
{
    ff_parser p;
    parser_init(&p, sub, q, file);
    p.can_reread = 1;
    if (!(p.rr = ff_reread_new(NULL, 0, sub->json, sub->json_len)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    ff_feed feed = {.text = (const unsigned char *)sub->json, .text_len = sub->json_len};
    foldsvg_status st = run(&p, &feed, file, sub->origin, sub->json_offset, err);
    parser_free(&p);
    free(sub->json);
    sub->json = NULL;
    sub->json_len = 0;
    return st;
}
