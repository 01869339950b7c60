/* "What stands out": the findings of analysis/findings.h as an HTML block, at the top of a
 * report section (render/report.c). */
#include "render/findings_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/annotation.h"
#include "analysis/summary.h"
#include "util/numfmt.h"

typedef struct html_words {
    fs_xmlw *c;
    int views; /* function names open their views, as the tables' names do */
} html_words;

static void word_html(void *user, fs_word_kind kind, const char *s, size_t n)
{
    html_words *w = user;
    fs_xmlw *c = w->c;
    if (kind == FS_WORD_TEXT) {
        fs_xmlw_text_clean(c, s, n);
        return;
    }
    if (kind == FS_WORD_NAME && w->views) {
        fs_xmlw_start(c, "button");
        fs_xmlw_attr(c, "type", "button");
        fs_xmlw_attr(c, "class", "fs-fn");
        fs_xmlw_attr(c, "data-fn", fs_xmlw_clean(c, s, fs_deannotated_len(s, n)));
        fs_xmlw_attr(c, "title", "Its callers and callees (click again to close)");
    }
    fs_xmlw_start(c, "code");
    fs_xmlw_text_clean(c, s, n);
    fs_xmlw_end_full(c);
    if (kind == FS_WORD_NAME && w->views)
        fs_xmlw_end_full(c);
}

static void finding_li(fs_xmlw *c, const fs_findings *f, const fs_finding *x, const char *unit,
                       html_words *w)
{
    fs_xmlw_raw(c, "\n", 1);
    fs_xmlw_start(c, "li");
    fs_xmlw_attr(c, "data-rule", fs_finding_rule(x));
    fs_xmlw_start(c, "span");
    fs_xmlw_attr(c, "class", "fs-rule");
    fs_xmlw_text(c, fs_finding_rule(x));
    fs_xmlw_end_full(c);
    fs_xmlw_text(c, " ");
    fs_finding_words(f, x, unit, word_html, w);
    fs_xmlw_end_full(c);
}

static void td_text(fs_xmlw *c, const char *klass, const char *text)
{
    fs_xmlw_start(c, "td");
    if (klass)
        fs_xmlw_attr(c, "class", klass);
    fs_xmlw_text(c, text);
    fs_xmlw_end_full(c);
}

/* The precompiles seen: a small table (name, its time, share, heaviest caller), not
 * sentences: they are facts about the run, rarely advice. */
static void precompile_table(fs_xmlw *c, const fs_findings *f, const fs_finding *const *v, size_t n,
                             const char *unit, html_words *w)
{
    fs_xmlw_start(c, "table");
    fs_xmlw_attr(c, "class", "fs-precompiles");
    fs_xmlw_start(c, "caption");
    fs_xmlw_text(c, f->diff ? "Precompiles (change)" : "Precompiles");
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "thead");
    fs_xmlw_start(c, "tr");
    char delta[80];
    snprintf(delta, sizeof delta, "\u0394 %.60s", unit); /* a diff's are changes */
    const char *heads[] = {"precompile", f->diff ? delta : unit, "share", "heaviest caller", ""};
    for (size_t i = 0; i < 5; i++) {
        fs_xmlw_start(c, "th");
        fs_xmlw_attr(c, "scope", "col");
        if (i == 1 || i == 2)
            fs_xmlw_attr(c, "class", "num");
        fs_xmlw_text(c, heads[i]);
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "tbody");
    for (size_t i = 0; i < n; i++) {
        const fs_finding *x = v[i];
        char num[64], share[32];
        long double val = fs_finding_value(f, &x->fn);
        char g[32];
        fs_format_thousands((uint64_t)(fabsl(val) + 0.5L), g);
        snprintf(num, sizeof num, "%s%s", val < 0 ? "-" : f->diff && val > 0 ? "+" : "", g);
        snprintf(share, sizeof share, "%.1f%%", fs_finding_share(f, &x->fn));
        fs_xmlw_raw(c, "\n", 1);
        fs_xmlw_start(c, "tr");
        fs_xmlw_attr(c, "data-rule", "precompile");
        fs_buf said = {0}; /* the finding's sentence, on hover */
        if (fs_finding_detail(f, x, unit, &said) == FOLDSVG_OK && said.data)
            fs_xmlw_attr(c, "title", fs_xmlw_clean(c, said.data, said.len));
        fs_buf_free(&said);
        fs_xmlw_start(c, "td");
        word_html(w, FS_WORD_NAME, x->fn.name, x->fn.len);
        fs_xmlw_end_full(c);
        td_text(c, "num", num);
        td_text(c, "num", share);
        fs_xmlw_start(c, "td");
        if (x->nrelated)
            word_html(w, FS_WORD_NAME, x->related[0].name, x->related[0].len);
        fs_xmlw_end_full(c);
        char own[96] = "";
        if (x->flagged && x->base.after)
            snprintf(own, sizeof own, "own time %.0f%% of its callers': should be small",
                     100.0 * (double)x->self.after / (double)x->base.after);
        td_text(c, "fs-flag", own);
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
}

/* Whether X concerns more of the profile than Y (|value|; ties keep the rules' order). */
void fs_findings_write_html(fs_xmlw *c, const fs_findings *f, const char *unit, int views)
{
    html_words w = {c, views};
    fs_xmlw_start(c, "div");
    fs_xmlw_attr(c, "class", "fs-findings");
    fs_xmlw_start(c, "h3");
    fs_xmlw_text(c, f->diff ? "What explains the change" : "What stands out");
    fs_xmlw_end_full(c);
    const fs_finding **said, **pre;
    size_t nsaid, npre;
    if (fs_findings_split(f, &said, &nsaid, &pre, &npre) != FOLDSVG_OK) {
        c->st = FOLDSVG_E_NOMEM;
        return;
    }
    if (!f->diff) { /* the summary's paragraph, first: where the time goes, what to do */
        fs_buf para = {0};
        fs_summary_paragraph(f, unit, &para);
        if (fs_buf_status(&para) != FOLDSVG_OK) {
            c->st = FOLDSVG_E_NOMEM;
        } else if (para.len) {
            fs_xmlw_start(c, "p");
            fs_xmlw_attr(c, "class", "fs-inshort");
            fs_xmlw_text_clean(c, para.data, para.len);
            fs_xmlw_end_full(c);
        }
        fs_buf_free(&para);
    }
    if (nsaid == 0) {
        fs_xmlw_start(c, "p");
        fs_xmlw_attr(c, "class", "fs-none");
        char line[sizeof FS_NO_RULE + 32];
        snprintf(line, sizeof line, "Nothing stands out: %s.", FS_NO_RULE);
        fs_xmlw_text(c, line);
        fs_xmlw_end_full(c);
    } else {
        fs_xmlw_start(c, "ul");
        for (size_t i = 0; i < nsaid && i < FS_FINDINGS_SHOWN; i++)
            finding_li(c, f, said[i], unit, &w);
        fs_xmlw_end_full(c);
        if (nsaid > FS_FINDINGS_SHOWN) {
            fs_xmlw_start(c, "details");
            fs_xmlw_attr(c, "class", "fs-more");
            fs_xmlw_start(c, "summary");
            char more[48];
            snprintf(more, sizeof more, "%zu more", nsaid - FS_FINDINGS_SHOWN);
            fs_xmlw_text(c, more);
            fs_xmlw_end_full(c);
            fs_xmlw_start(c, "ul");
            for (size_t i = FS_FINDINGS_SHOWN; i < nsaid; i++)
                finding_li(c, f, said[i], unit, &w);
            fs_xmlw_end_full(c);
            fs_xmlw_end_full(c);
        }
        if (nsaid > 1) {
            fs_xmlw_start(c, "p");
            fs_xmlw_attr(c, "class", "fs-overlap");
            fs_xmlw_text(c, "Shares overlap: a stack counts toward every finding on it.");
            fs_xmlw_end_full(c);
        }
    }
    if (npre)
        precompile_table(c, f, pre, npre, unit, &w);
    free(said);
    free(pre);
    fs_xmlw_end_full(c);
    fs_xmlw_raw(c, "\n", 1);
}
