#include "analysis/tables.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/textout.h"
#include "util/error.h"
#include "util/numfmt.h"

static int row_cmp(const void *a, const void *b)
{
    const fs_top_row *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->name, y->name, n) : 0;
    if (c)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

/* Rows for the names with a non-zero sum, sorted; *N gets how many, *FUNCS the same before
 * LIMIT cuts it. */
static fs_top_row *make_rows(const fs_tree *t, const uint64_t *sums, size_t limit, size_t *n,
                             size_t *funcs)
{
    size_t k = 0;
    for (uint32_t i = 0; i < t->nnames; i++)
        k += sums[i] != 0;
    *funcs = k;
    *n = 0;
    fs_top_row *rows = malloc((k ? k : 1) * sizeof *rows);
    if (!rows)
        return NULL;
    k = 0;
    for (uint32_t i = 0; i < t->nnames; i++)
        if (sums[i])
            rows[k++] = (fs_top_row){t->name_ptr[i], t->name_len[i], sums[i]};
    qsort(rows, k, sizeof *rows, row_cmp);
    *n = limit && limit < k ? limit : k;
    return rows;
}

foldsvg_status fs_tables_compute(const fs_tree *t, size_t limit, fs_tables *out)
{
    uint32_t nnames = t->nnames;
    uint64_t *selfc = calloc(nnames ? nnames : 1, sizeof *selfc);
    uint64_t *incl = calloc(nnames ? nnames : 1, sizeof *incl);
    foldsvg_status st = FOLDSVG_E_NOMEM;
    memset(out, 0, sizeof *out);
    if (selfc && incl && fs_tree_function_sums(t, NULL, selfc, incl) == FOLDSVG_OK)
        st = fs_tables_from_sums(t, selfc, incl, limit, out);
    free(selfc);
    free(incl);
    return st;
}

foldsvg_status fs_tables_from_sums(const fs_tree *t, const uint64_t *self, const uint64_t *incl,
                                   size_t limit, fs_tables *out)
{
    memset(out, 0, sizeof *out);
    out->total = t->total;
    out->unique = t->unique;
    out->self = make_rows(t, self, limit, &out->nself, &out->self_funcs);
    out->incl = make_rows(t, incl, limit, &out->nincl, &out->incl_funcs);
    if (out->self && out->incl)
        return FOLDSVG_OK;
    fs_tables_free(out);
    return FOLDSVG_E_NOMEM;
}

void fs_tables_free(fs_tables *tb)
{
    free(tb->self);
    free(tb->incl);
    tb->self = tb->incl = NULL;
    tb->nself = tb->nincl = 0;
}

void fs_tables_format_count(uint64_t count, uint64_t per, int sep, char *buf)
{
    if (per <= 1) {
        if (sep)
            fs_format_thousands(count, buf);
        else
            snprintf(buf, 48, "%llu", (unsigned long long)count);
        return;
    }
    /* Whole and hundredths parts in integers, so large counts keep every digit; r * 100
     * cannot overflow when per is small, and long double covers the rest. */
    uint64_t q = count / per, r = count % per, cents;
    if (per <= UINT64_MAX / 100)
        cents = (r * 100 + per / 2) / per;
    else
        cents = (uint64_t)((long double)r * 100.0L / (long double)per + 0.5L);
    fs_tables_format_cents(q, cents, sep, buf);
}

void fs_tables_format_cents(uint64_t whole, uint64_t cents, int sep, char *buf)
{
    if (cents >= 100) {
        whole++;
        cents -= 100;
    }
    char w[32];
    if (sep)
        fs_format_thousands(whole, w);
    else
        snprintf(w, sizeof w, "%llu", (unsigned long long)whole);
    snprintf(buf, 48, "%s.%02u", w, (unsigned)cents);
}

void fs_tables_json_count(fs_jsonout *j, uint64_t count, uint64_t per)
{
    char num[48];
    fs_tables_format_count(count, per, 0, num);
    fs_json_num(j, num, strlen(num));
}

double fs_tables_percent(uint64_t count, uint64_t total)
{
    return total ? 100.0 * (double)count / (double)total : 0.0;
}

/* ---- writers --------------------------------------------------------------------------- */

static const char *per_note(uint64_t per)
{
    return per > 1 ? " per iteration" : "";
}

static void text_table(fs_textout *o, const char *title, const fs_top_row *rows, size_t n,
                       size_t funcs, uint64_t total, uint64_t per)
{
    char shown[32], all[32];
    fs_format_thousands((uint64_t)n, shown);
    fs_format_thousands((uint64_t)funcs, all);
    fs_text_printf(o, "\n%s: top %s of %s function%s\n", title, shown, all, funcs == 1 ? "" : "s");
    /* Columns as wide as their widest cell, so counts line up on the right. */
    int w = 5;
    char num[48];
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, per, 1, num);
        int len = (int)strlen(num);
        if (len > w)
            w = len;
    }
    fs_text_printf(o, "%*s  %7s  %s\n", w, "count", "percent", "function");
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, per, 1, num);
        fs_text_printf(o, "%*s  %6.2f%%  ", w, num, fs_tables_percent(rows[i].count, total));
        fs_text_put(o, rows[i].name, rows[i].len);
        fs_text_puts(o, "\n");
    }
}

static void write_text(fs_textout *o, const fs_tables *tb, uint64_t per, const char *unit)
{
    char num[48];
    fs_tables_format_count(tb->total, per, 1, num);
    fs_text_printf(o, "Total: %s %s%s\n", num, unit, per_note(per));
    if (per > 1) {
        char raw[48];
        fs_tables_format_count(tb->total, 0, 1, raw);
        char k[32];
        fs_format_thousands(per, k);
        fs_text_printf(o, "Per: counts are divided by %s (--per): %s %s in all\n", k, raw, unit);
    }
    fs_format_thousands((uint64_t)tb->unique, num);
    fs_text_printf(o, "Unique stacks: %s\n", num);
    text_table(o, "Self time", tb->self, tb->nself, tb->self_funcs, tb->total, per);
    text_table(o, "Inclusive time", tb->incl, tb->nincl, tb->incl_funcs, tb->total, per);
}

static void md_table(fs_textout *o, const char *title, const fs_top_row *rows, size_t n,
                     size_t funcs, uint64_t total, uint64_t per, const char *unit)
{
    char shown[32], all[32];
    fs_format_thousands((uint64_t)n, shown);
    fs_format_thousands((uint64_t)funcs, all);
    fs_text_printf(o, "\n### %s (top %s of %s)\n\n", title, shown, all);
    fs_text_printf(o, "| %s%s | %% | Function |\n|---:|---:|:---|\n", unit, per_note(per));
    char num[48];
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, per, 1, num);
        fs_text_printf(o, "| %s | %.2f%% | ", num, fs_tables_percent(rows[i].count, total));
        fs_text_md_code(o, rows[i].name, rows[i].len);
        fs_text_puts(o, " |\n");
    }
}

static void write_markdown(fs_textout *o, const fs_tables *tb, uint64_t per, const char *unit)
{
    char num[48];
    fs_tables_format_count(tb->total, per, 1, num);
    char unique[32];
    fs_format_thousands((uint64_t)tb->unique, unique);
    fs_text_printf(o, "**Total:** %s %s%s · **Unique stacks:** %s\n", num, unit, per_note(per),
                   unique);
    if (per > 1) {
        char raw[48], k[32];
        fs_tables_format_count(tb->total, 0, 1, raw);
        fs_format_thousands(per, k);
        /* the option as it is typed stays without separators */
        fs_text_printf(o, "\n*Counts are divided by %s (`--per %llu`); %s %s in all.*\n", k,
                       (unsigned long long)per, raw, unit);
    }
    md_table(o, "Self time", tb->self, tb->nself, tb->self_funcs, tb->total, per, unit);
    md_table(o, "Inclusive time", tb->incl, tb->nincl, tb->incl_funcs, tb->total, per, unit);
}

static void json_rows(fs_jsonout *j, const fs_top_row *rows, size_t n, uint64_t total, uint64_t per)
{
    fs_json_check(j, yajl_gen_array_open(j->g));
    for (size_t i = 0; i < n && !j->failed; i++) {
        fs_json_check(j, yajl_gen_map_open(j->g));
        fs_json_key(j, "name");
        fs_json_name(j, rows[i].name, rows[i].len);
        fs_json_key(j, "count");
        fs_tables_json_count(j, rows[i].count, per);
        fs_json_key(j, "percent");
        /* four decimals are plenty for a share and keep the numbers short */
        fs_json_real(j, fs_tables_percent(rows[i].count, total));
        fs_json_check(j, yajl_gen_map_close(j->g));
    }
    fs_json_check(j, yajl_gen_array_close(j->g));
}

static foldsvg_status write_json(fs_textout *o, const fs_tables *tb, uint64_t per, const char *unit,
                                 const fs_text_hook *h)
{
    fs_jsonout j;
    FS_FORWARD_IF_ERROR(fs_json_begin(&j, o));
    fs_json_check(&j, yajl_gen_map_open(j.g));
    if (h)
        h->head(h->user, o, &j);
    fs_json_key(&j, "total");
    fs_tables_json_count(&j, tb->total, per);
    fs_json_key(&j, "unique_stacks");
    fs_json_u64(&j, tb->unique);
    fs_json_key(&j, "count_name");
    fs_json_str(&j, unit, strlen(unit));
    if (per > 1 || h) { /* a hooked object (the summary) always says it */
        fs_json_key(&j, "per");
        fs_json_u64(&j, per > 1 ? per : 1);
    }
    fs_json_key(&j, "self");
    json_rows(&j, tb->self, tb->nself, tb->total, per);
    fs_json_key(&j, "inclusive");
    json_rows(&j, tb->incl, tb->nincl, tb->total, per);
    if (h)
        h->tail(h->user, o, &j);
    fs_json_check(&j, yajl_gen_map_close(j.g));
    return fs_json_end(&j);
}

foldsvg_status fs_tables_write(const fs_tables *tb, int format, uint64_t per, const char *countname,
                               FILE *out, foldsvg_error *err)
{
    return fs_tables_write_hooked(tb, format, per, countname, NULL, out, err);
}

foldsvg_status fs_tables_write_hooked(const fs_tables *tb, int format, uint64_t per,
                                      const char *countname, const fs_text_hook *h, FILE *out,
                                      foldsvg_error *err)
{
    fs_textout o = {out, 0, 0};
    const char *unit = countname ? countname : "cycles";
    if (format == FOLDSVG_TOP_JSON) {
        if (write_json(&o, tb, per, unit, h) != FOLDSVG_OK && !o.failed)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    } else {
        if (h)
            h->head(h->user, &o, NULL);
        if (format == FOLDSVG_TOP_MARKDOWN)
            write_markdown(&o, tb, per, unit);
        else
            write_text(&o, tb, per, unit);
        if (h)
            h->tail(h->user, &o, NULL);
    }
    return fs_text_finish(&o, err);
}
