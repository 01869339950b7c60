#include "analysis/summary.h"

#include <stdio.h>
#include <string.h>

#include "analysis/annotation.h"
#include "analysis/textout.h"
#include "util/buf.h"
#include "util/error.h"

typedef struct summary_ctx {
    const fs_findings *f;
    const char *input; /* NULL: a diff's tables name their inputs */
    const char *unit;
    int format;
} summary_ctx;

/* Where a finding's words go: names shortened to MAX bytes in Markdown (0: whole). */
typedef struct words_out {
    fs_textout *o;
    size_t max;
    fs_buf name;
} words_out;

static void word_text(void *user, fs_word_kind kind, const char *s, size_t n)
{
    words_out *w = user;
    if (kind == FS_WORD_CODE)
        fs_text_puts(w->o, "`");
    fs_text_put(w->o, s, n);
    if (kind == FS_WORD_CODE)
        fs_text_puts(w->o, "`");
}

static void word_markdown(void *user, fs_word_kind kind, const char *s, size_t n)
{
    words_out *w = user;
    if (kind == FS_WORD_TEXT) {
        fs_text_put(w->o, s, n);
        return;
    }
    fs_buf_clear(&w->name);
    if (fs_text_elide(s, n, kind == FS_WORD_NAME ? w->max : 0, &w->name) != FOLDSVG_OK) {
        w->o->failed = 1;
        return;
    }
    fs_text_md_code_inline(w->o, w->name.data ? w->name.data : "", w->name.len);
}

static void head(void *user, fs_textout *o, fs_jsonout *j)
{
    const summary_ctx *c = user;
    if (!c->input)
        return;
    if (j) {
        fs_json_key(j, "input");
        fs_json_name(j, c->input, strlen(c->input));
    } else if (c->format == FOLDSVG_TOP_MARKDOWN) {
        fs_text_puts(o, "**Input:** ");
        fs_text_md_code_inline(o, c->input, strlen(c->input));
        fs_text_puts(o, "\n\n");
    } else {
        fs_text_printf(o, "Input: %s\n", c->input);
    }
}

static void json_value(fs_jsonout *j, const fs_findings *f, const fs_finding_item *it)
{
    if (!f->diff) {
        fs_tables_json_count(j, it->after, f->per_after);
        return;
    }
    fs_delta_row r = {it->name, it->len, it->before, it->after, fs_finding_value(f, it), f->scale};
    fs_delta_json(j, &r, f->per_before, f->per_after);
}

static void json_findings(fs_jsonout *j, const summary_ctx *c)
{
    const fs_findings *f = c->f;
    fs_buf detail = {0};
    fs_json_key(j, "findings");
    fs_json_check(j, yajl_gen_array_open(j->g));
    for (size_t i = 0; i < f->n && !j->failed; i++) {
        const fs_finding *x = &f->v[i];
        fs_json_check(j, yajl_gen_map_open(j->g));
        fs_json_key(j, "rule");
        const char *rule = fs_finding_rule(x);
        fs_json_str(j, rule, strlen(rule));
        fs_json_key(j, "function");
        fs_json_name(j, x->fn.name, x->fn.len);
        fs_json_key(j, "value");
        json_value(j, f, &x->fn);
        fs_json_key(j, "share");
        fs_json_real(j, fs_finding_share(f, &x->fn));
        fs_json_key(j, "detail");
        if (fs_finding_detail(f, x, c->unit, &detail) != FOLDSVG_OK)
            j->failed = 1;
        else
            fs_json_name(j, detail.data, detail.len);
        fs_json_key(j, "related");
        fs_json_check(j, yajl_gen_array_open(j->g));
        long double v = fs_finding_value(f, &x->fn);
        for (size_t k = 0; k < x->nrelated; k++) {
            const fs_finding_item *r = &x->related[k];
            fs_json_check(j, yajl_gen_map_open(j->g));
            fs_json_key(j, "function");
            fs_json_name(j, r->name, r->len);
            fs_json_key(j, "value");
            json_value(j, f, r);
            fs_json_key(j, "share"); /* of the finding's value */
            fs_json_real(j, v != 0 ? (double)(100.0L * fs_finding_value(f, r) / v) : 0.0);
            fs_json_check(j, yajl_gen_map_close(j->g));
        }
        fs_json_check(j, yajl_gen_array_close(j->g));
        fs_json_check(j, yajl_gen_map_close(j->g));
    }
    fs_json_check(j, yajl_gen_array_close(j->g));
    fs_buf_free(&detail);
}

static void tail(void *user, fs_textout *o, fs_jsonout *j)
{
    const summary_ctx *c = user;
    fs_summary_findings(c->f, c->unit, c->format, 0, o, j);
}

void fs_summary_findings(const fs_findings *f, const char *unit, int format, size_t max_name,
                         fs_textout *o, fs_jsonout *j)
{
    summary_ctx cx = {f, NULL, unit, format};
    const summary_ctx *c = &cx;
    if (j) {
        json_findings(j, c);
        return;
    }
    int md = c->format == FOLDSVG_TOP_MARKDOWN;
    words_out w = {o, max_name, {0}};
    const char *title = f->diff ? "What explains the change" : "What stands out";
    if (md)
        fs_text_printf(o, "\n### %s\n\n", title);
    else
        fs_text_printf(o, "\n%s:%s", title, f->n ? "\n" : " ");
    if (f->n == 0)
        fs_text_printf(o, "%s%s.\n", md ? "Nothing stands out: " : "nothing: ", FS_NO_RULE);
    for (size_t i = 0; i < f->n; i++) {
        const fs_finding *x = &f->v[i];
        if (md)
            fs_text_printf(o, "- **%s** · ", fs_finding_rule(x));
        else
            fs_text_printf(o, "- [%s] ", fs_finding_rule(x));
        fs_finding_words(f, x, c->unit, md ? word_markdown : word_text, &w);
        fs_text_puts(o, "\n");
    }
    fs_buf_free(&w.name);
}

foldsvg_status fs_summary_write(const fs_tables *tb, const fs_findings *f, const char *input,
                                int format, uint64_t per, const char *unit, FILE *out,
                                foldsvg_error *err)
{
    summary_ctx c = {f, input ? input : "<stdin>", unit, format};
    fs_text_hook h = {head, tail, &c, 0};
    return fs_tables_write_hooked(tb, format, per, unit, &h, out, err);
}

foldsvg_status fs_summary_write_diff(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                                     const fs_findings *f, int format, const char *unit, FILE *out,
                                     foldsvg_error *err)
{
    summary_ctx c = {f, NULL, unit, format};
    fs_text_hook h = {head, tail, &c, 0};
    return fs_deltas_write_hooked(d, sides, top, format, unit, &h, out, err);
}
