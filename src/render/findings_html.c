/* "What stands out": the findings of analysis/findings.h as an HTML block, at the top of a
 * report section (render/report.c). */
#include "render/findings_html.h"

#include <stdio.h>

#include "analysis/annotation.h"

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

void fs_findings_write_html(fs_xmlw *c, const fs_findings *f, const char *unit, int views)
{
    html_words w = {c, views};
    fs_xmlw_start(c, "div");
    fs_xmlw_attr(c, "class", "fs-findings");
    fs_xmlw_start(c, "h3");
    fs_xmlw_text(c, f->diff ? "What explains the change" : "What stands out");
    fs_xmlw_end_full(c);
    if (f->n == 0) {
        fs_xmlw_start(c, "p");
        fs_xmlw_attr(c, "class", "fs-none");
        char line[sizeof FS_NO_RULE + 32];
        snprintf(line, sizeof line, "Nothing stands out: %s.", FS_NO_RULE);
        fs_xmlw_text(c, line);
        fs_xmlw_end_full(c);
    } else {
        fs_xmlw_start(c, "ul");
        for (size_t i = 0; i < f->n; i++) {
            const fs_finding *x = &f->v[i];
            fs_xmlw_raw(c, "\n", 1);
            fs_xmlw_start(c, "li");
            fs_xmlw_attr(c, "data-rule", fs_finding_rule(x));
            fs_xmlw_start(c, "span");
            fs_xmlw_attr(c, "class", "fs-rule");
            fs_xmlw_text(c, fs_finding_rule(x));
            fs_xmlw_end_full(c);
            fs_xmlw_text(c, " ");
            fs_finding_words(f, x, unit, word_html, &w);
            fs_xmlw_end_full(c);
        }
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_raw(c, "\n", 1);
}
