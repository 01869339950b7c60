#include "render/tables.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "render/svg.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/utf8.h"

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
    memset(out, 0, sizeof *out);
    out->total = t->total;
    out->unique = t->unique;
    uint32_t nn = t->nnodes, nnames = t->nnames;
    uint64_t *sub = calloc(nn ? nn : 1, sizeof *sub);
    uint64_t *selfc = calloc(nnames ? nnames : 1, sizeof *selfc);
    uint64_t *incl = calloc(nnames ? nnames : 1, sizeof *incl);
    uint32_t *onpath = calloc(nnames ? nnames : 1, sizeof *onpath);
    foldsvg_status st = FOLDSVG_E_NOMEM;
    if (!sub || !selfc || !incl || !onpath)
        goto done;
    /* A node is always created after its parent, so one backward pass sums every subtree;
     * no sum can pass the total, which the tree keeps below 2^64. */
    for (uint32_t i = nn; i-- > 1;) {
        const fs_node *nd = &t->nodes[i];
        sub[i] += nd->count;
        sub[nd->parent] += sub[i];
        selfc[nd->name] += nd->count;
    }
    /* Inclusive time: a function's time is the sum of the subtrees where it is outermost,
     * which counts each stack once however often the name recurs in it. ONPATH says how
     * often a name sits on the current path of an iterative depth-first walk. */
    uint32_t n = nn > 1 ? t->nodes[0].first_child : FS_NONE;
    while (n != FS_NONE) {
        uint32_t name = t->nodes[n].name;
        if (onpath[name]++ == 0)
            incl[name] += sub[n];
        if (t->nodes[n].first_child != FS_NONE && sub[n] != 0) {
            n = t->nodes[n].first_child;
            continue;
        }
        for (;;) {
            onpath[t->nodes[n].name]--;
            if (t->nodes[n].next_sibling != FS_NONE) {
                n = t->nodes[n].next_sibling;
                break;
            }
            n = t->nodes[n].parent;
            if (n == 0) {
                n = FS_NONE;
                break;
            }
        }
    }
    out->self = make_rows(t, selfc, limit, &out->nself, &out->self_funcs);
    out->incl = make_rows(t, incl, limit, &out->nincl, &out->incl_funcs);
    if (out->self && out->incl)
        st = FOLDSVG_OK;
    else
        fs_tables_free(out);
done:
    free(sub);
    free(selfc);
    free(incl);
    free(onpath);
    return st;
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
    if (cents >= 100) {
        q++;
        cents -= 100;
    }
    char whole[32];
    if (sep)
        fs_format_thousands(q, whole);
    else
        snprintf(whole, sizeof whole, "%llu", (unsigned long long)q);
    snprintf(buf, 48, "%s.%02u", whole, (unsigned)cents);
}

double fs_tables_percent(uint64_t count, uint64_t total)
{
    return total ? 100.0 * (double)count / (double)total : 0.0;
}

/* ---- writers --------------------------------------------------------------------------- */

typedef struct out_ctx {
    FILE *f;
    int failed;
    int errnum; /* why */
} out_ctx;

static void put(out_ctx *o, const char *s, size_t n)
{
    if (!o->failed && n && fwrite(s, 1, n, o->f) != n) {
        o->failed = 1;
        o->errnum = errno;
    }
}

static void puts_(out_ctx *o, const char *s)
{
    put(o, s, strlen(s));
}

static void printf_(out_ctx *o, const char *fmt, ...) FS_PRINTF(2, 3);
static void printf_(out_ctx *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!o->failed && vfprintf(o->f, fmt, ap) < 0) {
        o->failed = 1;
        o->errnum = errno;
    }
    va_end(ap);
}

static const char *per_note(uint64_t per)
{
    return per > 1 ? " per iteration" : "";
}

static void text_table(out_ctx *o, const char *title, const fs_top_row *rows, size_t n,
                       size_t funcs, uint64_t total, uint64_t per)
{
    printf_(o, "\n%s: top %zu of %zu function%s\n", title, n, funcs, funcs == 1 ? "" : "s");
    /* Columns as wide as their widest cell, so counts line up on the right. */
    int w = 5;
    char num[48];
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, per, 1, num);
        int len = (int)strlen(num);
        if (len > w)
            w = len;
    }
    printf_(o, "%*s  %7s  %s\n", w, "count", "percent", "function");
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, per, 1, num);
        printf_(o, "%*s  %6.2f%%  ", w, num, fs_tables_percent(rows[i].count, total));
        put(o, rows[i].name, rows[i].len);
        puts_(o, "\n");
    }
}

static void write_text(out_ctx *o, const fs_tables *tb, uint64_t per, const char *unit)
{
    char num[48];
    fs_tables_format_count(tb->total, per, 1, num);
    printf_(o, "Total: %s %s%s\n", num, unit, per_note(per));
    if (per > 1) {
        char raw[48];
        fs_tables_format_count(tb->total, 0, 1, raw);
        printf_(o, "Per: counts are divided by %llu (--per): %s %s in all\n",
                (unsigned long long)per, raw, unit);
    }
    printf_(o, "Unique stacks: %zu\n", tb->unique);
    text_table(o, "Self time", tb->self, tb->nself, tb->self_funcs, tb->total, per);
    text_table(o, "Inclusive time", tb->incl, tb->nincl, tb->incl_funcs, tb->total, per);
}

/* A Markdown code span holding NAME: a backtick fence longer than any run inside, and '|'
 * escaped because GitHub splits table cells before it parses spans. */
static void md_name(out_ctx *o, const char *s, size_t n)
{
    if (n == 0)
        return;
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    int pad = s[0] == '`' || s[n - 1] == '`' || s[0] == ' ' || s[n - 1] == ' ';
    for (size_t i = 0; i <= longest; i++)
        puts_(o, "`");
    if (pad)
        puts_(o, " ");
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '|') {
            put(o, s + from, i - from);
            puts_(o, "\\|");
            from = i + 1;
        }
    }
    put(o, s + from, n - from);
    if (pad)
        puts_(o, " ");
    for (size_t i = 0; i <= longest; i++)
        puts_(o, "`");
}

static void md_table(out_ctx *o, const char *title, const fs_top_row *rows, size_t n, size_t funcs,
                     uint64_t total, uint64_t per, const char *unit)
{
    printf_(o, "\n### %s (top %zu of %zu)\n\n", title, n, funcs);
    printf_(o, "| %s%s | %% | Function |\n|---:|---:|:---|\n", unit, per_note(per));
    char num[48];
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, per, 1, num);
        printf_(o, "| %s | %.2f%% | ", num, fs_tables_percent(rows[i].count, total));
        md_name(o, rows[i].name, rows[i].len);
        puts_(o, " |\n");
    }
}

static void write_markdown(out_ctx *o, const fs_tables *tb, uint64_t per, const char *unit)
{
    char num[48];
    fs_tables_format_count(tb->total, per, 1, num);
    printf_(o, "**Total:** %s %s%s · **Unique stacks:** %zu\n", num, unit, per_note(per),
            tb->unique);
    if (per > 1) {
        char raw[48];
        fs_tables_format_count(tb->total, 0, 1, raw);
        printf_(o, "\n*Counts are divided by %llu (`--per %llu`); %s %s in all.*\n",
                (unsigned long long)per, (unsigned long long)per, raw, unit);
    }
    md_table(o, "Self time", tb->self, tb->nself, tb->self_funcs, tb->total, per, unit);
    md_table(o, "Inclusive time", tb->incl, tb->nincl, tb->incl_funcs, tb->total, per, unit);
}

static void json_print(void *ctx, const char *s, size_t n)
{
    put(ctx, s, n);
}

/* A yajl generator that remembers its first failure, so the writers below call it freely
 * and look once at the end. */
typedef struct json_out {
    yajl_gen g;
    int failed;
    fs_buf scratch; /* names made valid UTF-8 (yajl escapes the rest) */
} json_out;

static void jcheck(json_out *j, yajl_gen_status st)
{
    if (st != yajl_gen_status_ok)
        j->failed = 1;
}

static void jstr(json_out *j, const char *s, size_t n)
{
    jcheck(j, yajl_gen_string(j->g, (const unsigned char *)s, n));
}

static void jkey(json_out *j, const char *k)
{
    jstr(j, k, strlen(k));
}

static void jnum(json_out *j, const char *num, size_t n)
{
    jcheck(j, yajl_gen_number(j->g, num, n));
}

static void jcount(json_out *j, uint64_t count, uint64_t per)
{
    char num[48];
    fs_tables_format_count(count, per, 0, num);
    jnum(j, num, strlen(num));
}

static void jname(json_out *j, const char *s, size_t n)
{
    fs_buf_clear(&j->scratch);
    if (fs_utf8_clean(&j->scratch, s, n, NULL) != FOLDSVG_OK)
        j->failed = 1;
    else
        jstr(j, fs_buf_str(&j->scratch), j->scratch.len);
}

static void json_rows(json_out *j, const fs_top_row *rows, size_t n, uint64_t total, uint64_t per)
{
    jcheck(j, yajl_gen_array_open(j->g));
    for (size_t i = 0; i < n && !j->failed; i++) {
        jcheck(j, yajl_gen_map_open(j->g));
        jkey(j, "name");
        jname(j, rows[i].name, rows[i].len);
        jkey(j, "count");
        jcount(j, rows[i].count, per);
        jkey(j, "percent");
        /* four decimals are plenty for a share and keep the numbers short */
        char pct[32];
        int len = snprintf(pct, sizeof pct, "%.4f", fs_tables_percent(rows[i].count, total));
        while (len > 1 && pct[len - 1] == '0')
            len--;
        if (pct[len - 1] == '.')
            len--;
        jnum(j, pct, (size_t)len);
        jcheck(j, yajl_gen_map_close(j->g));
    }
    jcheck(j, yajl_gen_array_close(j->g));
}

static foldsvg_status write_json(out_ctx *o, const fs_tables *tb, uint64_t per, const char *unit)
{
    json_out j = {yajl_gen_alloc(NULL), 0, {0}};
    if (!j.g)
        return FOLDSVG_E_NOMEM;
    yajl_gen_config(j.g, yajl_gen_beautify, 1);
    yajl_gen_config(j.g, yajl_gen_indent_string, "  ");
    yajl_gen_config(j.g, yajl_gen_print_callback, json_print, o);
    jcheck(&j, yajl_gen_map_open(j.g));
    jkey(&j, "total");
    jcount(&j, tb->total, per);
    jkey(&j, "unique_stacks");
    char num[32];
    snprintf(num, sizeof num, "%zu", tb->unique);
    jnum(&j, num, strlen(num));
    jkey(&j, "count_name");
    jstr(&j, unit, strlen(unit));
    if (per > 1) {
        jkey(&j, "per");
        snprintf(num, sizeof num, "%llu", (unsigned long long)per);
        jnum(&j, num, strlen(num));
    }
    jkey(&j, "self");
    json_rows(&j, tb->self, tb->nself, tb->total, per);
    jkey(&j, "inclusive");
    json_rows(&j, tb->incl, tb->nincl, tb->total, per);
    jcheck(&j, yajl_gen_map_close(j.g));
    fs_buf_free(&j.scratch);
    yajl_gen_free(j.g);
    return j.failed ? FOLDSVG_E_NOMEM : FOLDSVG_OK;
}

foldsvg_status fs_tables_write(const fs_tables *tb, int format, uint64_t per, const char *countname,
                               FILE *out, foldsvg_error *err)
{
    out_ctx o = {out, 0, 0};
    const char *unit = countname ? countname : "cycles";
    if (format == FOLDSVG_TOP_JSON) {
        if (write_json(&o, tb, per, unit) != FOLDSVG_OK && !o.failed)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    } else if (format == FOLDSVG_TOP_MARKDOWN) {
        write_markdown(&o, tb, per, unit);
    } else {
        write_text(&o, tb, per, unit);
    }
    if (!o.failed && fflush(out) != 0) {
        o.failed = 1;
        o.errnum = errno;
    }
    if (o.failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "write failed: %s",
                        strerror(o.errnum ? o.errnum : EIO));
    return FOLDSVG_OK;
}
