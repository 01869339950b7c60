#include "analysis/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotation.h"
#include "analysis/textout.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/numfmt.h"

typedef struct summary_ctx {
    const fs_findings *f;
    const char *input; /* NULL: a diff's tables name their inputs */
    const char *unit;
    int format;
    const fs_summary_facts *sf; /* NULL: none */
} summary_ctx;

/* ---- the paragraph -------------------------------------------------------------------------- */

/* V (a finding's value) as the summary writes counts: grouped, two decimals per iteration. */
static void put_value(fs_buf *out, const fs_findings *f, const fs_finding_item *it,
                      const char *unit)
{
    long double v = fs_finding_value(f, it);
    if (f->per_after > 1) {
        fs_buf_printf(out, "%.2Lf %s per iteration", v, unit);
        return;
    }
    char g[32];
    fs_format_thousands((uint64_t)(v < 0 ? 0 : v + 0.5L), g);
    fs_buf_printf(out, "%s %s", g, unit);
}

static void put_name(fs_buf *out, const fs_finding_item *it)
{
    fs_buf_append(out, it->name, it->len);
}

/* The heaviest finding of the rules in MASK (bits by FS_RULE_*), or NULL. */
static const fs_finding *heaviest(const fs_findings *f, unsigned mask)
{
    const fs_finding *best = NULL;
    for (size_t i = 0; i < f->n; i++) {
        const fs_finding *x = &f->v[i];
        if ((mask & (1u << x->rule)) &&
            (!best || fs_finding_value(f, &x->fn) > fs_finding_value(f, &best->fn)))
            best = x;
    }
    return best;
}

void fs_summary_paragraph(const fs_findings *f, const char *unit, fs_buf *out)
{
    if (f->n == 0) {
        fs_buf_puts(out, "No rule fired: no function holds enough of the time to stand out; "
                         "the time is spread over many.");
        return;
    }
    const fs_finding *path = heaviest(f, 1u << FS_RULE_CALLEES);
    if (path) {
        fs_buf_printf(out, "Structurally, %.1f%% of the time (", fs_finding_share(f, &path->fn));
        put_value(out, f, &path->fn, unit);
        fs_buf_puts(out, ") runs under ");
        put_name(out, &path->fn);
        if (path->nrelated) {
            long double v = fs_finding_value(f, &path->fn);
            fs_buf_puts(out, ", in its callees ");
            for (size_t k = 0; k < path->nrelated; k++) {
                if (k)
                    fs_buf_puts(out, k + 1 == path->nrelated ? " and " : ", ");
                put_name(out, &path->related[k]);
                fs_buf_printf(out, " (%.0Lf%%)",
                              v > 0 ? 100.0L * fs_finding_value(f, &path->related[k]) / v : 0);
            }
        }
        fs_buf_puts(out, ". ");
    }
    const fs_finding *t =
        heaviest(f, (1u << FS_RULE_BOTTLENECK) | (1u << FS_RULE_MEMORY_COPY) |
                        (1u << FS_RULE_SOFTWARE_FALLBACK) | (1u << FS_RULE_SETUP));
    if (!t) {
        fs_buf_puts(out, "No single function's own code stands out as a target.");
        return;
    }
    double share = fs_finding_share(f, &t->fn);
    fs_buf_puts(out, "The most actionable target is ");
    switch (t->rule) {
    case FS_RULE_BOTTLENECK:
        put_name(out, &t->fn);
        fs_buf_printf(out, ", %.1f%% of the time in its own code (", share);
        put_value(out, f, &t->fn, unit);
        fs_buf_puts(out, "): make it cheaper or call it less.");
        break;
    case FS_RULE_MEMORY_COPY:
        fs_buf_puts(out, "copying: ");
        put_name(out, &t->fn);
        fs_buf_printf(out, " holds %.1f%% of the time", share);
        if (t->nrelated) {
            fs_buf_puts(out, ", called mostly from ");
            put_name(out, &t->related[0]);
        }
        fs_buf_puts(out, ": copy less at the call site.");
        break;
    case FS_RULE_SOFTWARE_FALLBACK:
        fs_buf_printf(out, "%s computed in software, %.1f%% of the time (most in ",
                      fs_finding_family(t), share);
        put_name(out, &t->fn);
        fs_buf_puts(out, "): use the crate patched for the zkVM's precompile.");
        break;
    default: /* setup */
        put_name(out, &t->fn);
        fs_buf_printf(out,
                      ", %.1f%% of the time in construction or initialization: build it "
                      "once and reuse it.",
                      share);
        break;
    }
}

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
    const fs_summary_facts *sf = c->sf;
    if (!sf)
        return;
    if (j) {
        fs_json_key(j, "sample_rate"); /* units per sample, or null */
        if (sf->rate)
            fs_json_u64(j, sf->rate);
        else
            fs_json_check(j, yajl_gen_null(j->g));
        fs_json_key(j, "interval_ms");
        if (sf->interval_ms > 0)
            fs_json_real(j, sf->interval_ms);
        else
            fs_json_check(j, yajl_gen_null(j->g));
        return;
    }
    const char *label = c->format == FOLDSVG_TOP_MARKDOWN ? "**Sample rate:** " : "Sample rate: ";
    char g[32];
    if (sf->rate) {
        fs_format_thousands(sf->rate, g);
        size_t n = strlen(c->unit); /* "every 1 cycle" */
        int one = sf->rate == 1 && n > 1 && c->unit[n - 1] == 's';
        fs_text_printf(o, "%sone sample every %s %.*s\n", label, g, (int)(one ? n - 1 : n),
                       c->unit);
    } else if (sf->interval_ms > 0) {
        fs_text_printf(o, "%sone sample every %g ms\n", label, sf->interval_ms);
    }
    if (c->format == FOLDSVG_TOP_MARKDOWN && (sf->rate || sf->interval_ms > 0))
        fs_text_puts(o, "\n");
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
    const fs_findings *f = c->f;
    fs_summary_findings(f, c->unit, c->format, 0, o, j);
    fs_buf para = {0};
    if (!f->diff)
        fs_summary_paragraph(f, c->unit, &para);
    const char *samply = c->sf ? c->sf->samply_path : NULL;
    if (j) {
        if (!f->diff) {
            fs_json_key(j, "interpretation");
            if (fs_buf_status(&para) != FOLDSVG_OK)
                j->failed = 1;
            else
                fs_json_name(j, para.data ? para.data : "", para.len);
        }
        if (samply) {
            fs_json_key(j, "trace");
            fs_json_name(j, samply, strlen(samply));
        }
        fs_buf_free(&para);
        return;
    }
    int md = c->format == FOLDSVG_TOP_MARKDOWN;
    if (para.len) {
        fs_text_puts(o, md ? "\n### In short\n\n" : "\nIn short: ");
        fs_text_put(o, para.data, para.len);
        fs_text_puts(o, "\n");
    }
    fs_buf_free(&para);
    if (samply) {
        fs_text_puts(o, md ? "\n**Trace:** " : "\nTrace: ");
        if (md)
            fs_text_md_code_inline(o, samply, strlen(samply));
        else
            fs_text_puts(o, samply);
        fs_text_puts(o, md ? " — open it in the Firefox Profiler with `samply load "
                           : " (open it in the Firefox Profiler: samply load ");
        fs_text_puts(o, samply);
        fs_text_puts(o, md ? "`\n" : ")\n");
    }
}

void fs_summary_findings(const fs_findings *f, const char *unit, int format, size_t max_name,
                         fs_textout *o, fs_jsonout *j)
{
    summary_ctx cx = {f, NULL, unit, format, NULL};
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
    /* as the report: the heaviest sentences first, at most FS_FINDINGS_SHOWN, then the
     * precompiles; every finding is in the JSON */
    const fs_finding **said, **pre;
    size_t nsaid, npre;
    if (fs_findings_split(f, &said, &nsaid, &pre, &npre) != FOLDSVG_OK) {
        o->failed = 1;
        return;
    }
    for (size_t i = 0; i < nsaid + npre; i++) {
        if (i == nsaid && nsaid > FS_FINDINGS_SHOWN)
            fs_text_printf(o, "%s%zu more (--top-format json lists every finding)\n",
                           md ? "- *and* " : "- and ", nsaid - FS_FINDINGS_SHOWN);
        if (i < nsaid && i >= FS_FINDINGS_SHOWN)
            continue;
        const fs_finding *x = i < nsaid ? said[i] : pre[i - nsaid];
        if (md)
            fs_text_printf(o, "- **%s** · ", fs_finding_rule(x));
        else
            fs_text_printf(o, "- [%s] ", fs_finding_rule(x));
        fs_finding_words(f, x, c->unit, md ? word_markdown : word_text, &w);
        fs_text_puts(o, "\n");
    }
    free(said);
    free(pre);
    fs_buf_free(&w.name);
}

foldsvg_status fs_summary_write(const fs_tables *tb, const fs_findings *f, const char *input,
                                const fs_summary_facts *sf, int format, uint64_t per,
                                const char *unit, FILE *out, foldsvg_error *err)
{
    summary_ctx c = {f, input ? input : "<stdin>", unit, format, sf};
    fs_text_hook h = {head, tail, &c, 0};
    return fs_tables_write_hooked(tb, format, per, unit, &h, out, err);
}

foldsvg_status fs_summary_write_diff(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                                     const fs_findings *f, int format, const char *unit, FILE *out,
                                     foldsvg_error *err)
{
    summary_ctx c = {f, NULL, unit, format, NULL};
    fs_text_hook h = {head, tail, &c, 0};
    return fs_deltas_write_hooked(d, sides, top, format, unit, &h, out, err);
}
