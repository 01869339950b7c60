/* What each value of a Firefox-Profiler JSON text means at its place in the document, and
 * what it changes in the model (formats/firefox/model.h): containers opened and closed on
 * the frame stack, object keys, scalars. The yajl callbacks (formats/firefox/sax.c) call these
 * off their hot path; failures are recorded in the parse (fs_json_fail). */
#include "formats/firefox/roles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/firefox/early.h"
#include "formats/firefox/samples.h"
#include "util/grow.h"

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

/* ---------------------------------------------------------------- containers */

foldsvg_status ff_role_open(ff_parser *p, int is_map)
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
        FS_FORWARD_IF_ERROR(ff_role_value(p, f, ei, other, NULL, 0));
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

foldsvg_status ff_role_close(ff_parser *p, const ff_frame *f)
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

/* ---------------------------------------------------------------- keys */

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

void ff_role_key(ff_parser *p, ff_frame *f, const char *s, size_t n)
{
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
}

/* ---------------------------------------------------------------- scalars */

foldsvg_status ff_role_value(ff_parser *p, ff_frame *f, uint64_t ei, fs_json_value c, const char *s,
                             size_t n)
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
