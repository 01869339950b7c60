#include "render/diffreport.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/annotation.h"
#include "util/grow.h"
#include "util/numfmt.h"

/* The rows of FROM that KEEP accepts, at most TOP (0: all), into TO; their name bytes are
 * counted in *BYTES. */
static foldsvg_status pick(fs_delta_table *to, const fs_delta_table *from, size_t top,
                           int (*keep)(const fs_delta_row *), size_t *bytes)
{
    memset(to, 0, sizeof *to);
    to->rows = malloc((from->n ? from->n : 1) * sizeof *to->rows);
    if (!to->rows)
        return FOLDSVG_E_NOMEM;
    for (size_t i = 0; i < from->n; i++) {
        if (keep && !keep(&from->rows[i]))
            continue;
        if (!top || to->n < top) {
            to->rows[to->n++] = from->rows[i];
            *bytes += from->rows[i].len;
        }
    }
    to->only_before = from->only_before;
    to->only_after = from->only_after;
    return FOLDSVG_OK;
}

static int is_new(const fs_delta_row *r)
{
    return r->before == 0;
}

static int is_gone(const fs_delta_row *r)
{
    return r->after == 0;
}

foldsvg_status fs_diff_section_cut(fs_diff_section *s, const fs_deltas *full, size_t top)
{
    s->deltas = *full;
    /* the tables are S's own from here (FULL's rows stay FULL's) */
    memset(&s->deltas.self, 0, sizeof s->deltas.self);
    memset(&s->deltas.incl, 0, sizeof s->deltas.incl);
    s->self_funcs = full->self.n;
    s->incl_funcs = full->incl.n;
    size_t bytes = 1;
    fs_delta_table *t[4] = {&s->deltas.self, &s->deltas.incl, &s->only_after, &s->only_before};
    const fs_delta_table *f[4] = {&full->self, &full->incl, &full->incl, &full->incl};
    int (*keep[4])(const fs_delta_row *) = {NULL, NULL, is_new, is_gone};
    for (int i = 0; i < 4; i++)
        FS_FORWARD_IF_ERROR(pick(t[i], f[i], top, keep[i], &bytes));
    s->names = malloc(bytes);
    if (!s->names)
        return FOLDSVG_E_NOMEM;
    size_t off = 0;
    for (int i = 0; i < 4; i++) {
        for (size_t k = 0; k < t[i]->n; k++) {
            fs_delta_row *r = &t[i]->rows[k];
            if (r->len)
                memcpy(s->names + off, r->name, r->len);
            r->name = s->names + off;
            off += r->len;
        }
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_diff_section_fact(fs_diff_section *s, const char *label, const char *before,
                                    const char *after, const char *change)
{
    fs_diff_fact f = {strdup(label), strdup(before), strdup(after), strdup(change)};
    if (!f.label || !f.before || !f.after || !f.change ||
        FS_GROW(s->facts, s->facts_cap, s->nfacts + 1, 8) != FOLDSVG_OK) {
        free(f.label);
        free(f.before);
        free(f.after);
        free(f.change);
        return FOLDSVG_E_NOMEM;
    }
    s->facts[s->nfacts++] = f;
    return FOLDSVG_OK;
}

void fs_diff_section_free(fs_diff_section *s)
{
    if (!s)
        return;
    fs_deltas_free(&s->deltas);
    free(s->only_after.rows);
    free(s->only_before.rows);
    free(s->names);
    free(s->side_name[0]);
    free(s->side_name[1]);
    for (size_t i = 0; i < s->nfacts; i++) {
        free(s->facts[i].label);
        free(s->facts[i].before);
        free(s->facts[i].after);
        free(s->facts[i].change);
    }
    free(s->facts);
    free(s->countname);
    memset(s, 0, sizeof *s);
}

/* ---- writing ----------------------------------------------------------------------------- */

static void nl(fs_xmlw *c)
{
    fs_xmlw_raw(c, "\n", 1);
}

static void cell(fs_xmlw *c, const char *tag, const char *klass, const char *text, size_t n)
{
    fs_xmlw_start(c, tag);
    if (klass)
        fs_xmlw_attr(c, "class", klass);
    fs_xmlw_text_clean(c, text, n);
    fs_xmlw_end_full(c);
}

static void header_cell(fs_xmlw *c, const char *klass, const char *text)
{
    fs_xmlw_start(c, "th");
    fs_xmlw_attr(c, "scope", "col");
    if (klass)
        fs_xmlw_attr(c, "class", klass);
    fs_xmlw_text_clean(c, text, strlen(text));
    fs_xmlw_end_full(c);
}

/* The class of a change: more (red, as the graph draws it) or less (blue). */
static const char *direction(const fs_diff_section *s, const fs_delta_row *r)
{
    if (r->delta == 0)
        return "num";
    return (r->delta > 0) != (s->negate != 0) ? "num fs-more" : "num fs-less";
}

void fs_diff_write_facts(fs_xmlw *c, const fs_diff_section *s)
{
    fs_xmlw_start(c, "table");
    fs_xmlw_attr(c, "class", "fs-difffacts");
    fs_xmlw_start(c, "thead");
    fs_xmlw_start(c, "tr");
    fs_xmlw_start(c, "td");
    fs_xmlw_end_full(c);
    header_cell(c, NULL, "Before");
    header_cell(c, NULL, "After");
    header_cell(c, NULL, "Change");
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "tbody");
    fs_delta_row tot = fs_delta_totals(&s->deltas);
    for (size_t i = 0; i < s->nfacts; i++) {
        const fs_diff_fact *f = &s->facts[i];
        nl(c);
        fs_xmlw_start(c, "tr");
        fs_xmlw_start(c, "th");
        fs_xmlw_attr(c, "scope", "row");
        fs_xmlw_text_clean(c, f->label, strlen(f->label));
        fs_xmlw_end_full(c);
        cell(c, "td", NULL, f->before, strlen(f->before));
        cell(c, "td", NULL, f->after, strlen(f->after));
        /* the totals' row is colored as the graph colors a change */
        cell(c, "td", strncmp(f->label, "Total", 5) == 0 ? direction(s, &tot) : NULL, f->change,
             strlen(f->change));
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    nl(c);
}

/* A function's name: a button that finds it in the graph, or (GRAPHED 0: it has no frame
 * there) plain text. */
static void name_cell(fs_xmlw *c, const fs_delta_row *r, int graphed)
{
    fs_xmlw_start(c, "td");
    fs_xmlw_attr(c, "class", "fn");
    if (graphed) {
        fs_xmlw_start(c, "button");
        fs_xmlw_attr(c, "type", "button");
        fs_xmlw_attr(c, "class", "fs-fn");
        fs_xmlw_attr(c, "data-fn", fs_xmlw_clean(c, r->name, fs_deannotated_len(r->name, r->len)));
        fs_xmlw_attr(c, "title", "Highlight in the flamegraph (click again to clear)");
    } else {
        fs_xmlw_start(c, "span");
        fs_xmlw_attr(c, "class", "fs-fn fs-gone");
        fs_xmlw_attr(c, "title", "Not in the flamegraph: AFTER has no time in it");
    }
    fs_xmlw_text_clean(c, r->name, r->len);
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
}

static void caption(fs_xmlw *c, const char *title, const char *note)
{
    fs_xmlw_start(c, "caption");
    fs_xmlw_text(c, title);
    fs_xmlw_text(c, " ");
    fs_xmlw_start(c, "span");
    fs_xmlw_text(c, note);
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
}

static void delta_table(fs_xmlw *c, const fs_diff_section *s, const char *kind, const char *title,
                        const fs_delta_table *t, size_t funcs)
{
    const fs_deltas *d = &s->deltas;
    fs_xmlw_start(c, "table");
    fs_xmlw_attr(c, "class", "fs-top fs-delta");
    fs_xmlw_attr(c, "data-kind", kind);
    char note[128];
    char g[32];
    fs_format_thousands((uint64_t)funcs, g);
    snprintf(note, sizeof note, "top %zu of %s function%s, biggest changes first", t->n, g,
             funcs == 1 ? "" : "s");
    caption(c, title, note);
    fs_xmlw_start(c, "thead");
    fs_xmlw_start(c, "tr");
    header_cell(c, "num", "before");
    header_cell(c, "num", "after");
    header_cell(c, "num", "delta");
    header_cell(c, "num", "change");
    header_cell(c, NULL, "function");
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "tbody");
    fs_delta_cells x;
    for (size_t i = 0; i < t->n; i++) {
        const fs_delta_row *r = &t->rows[i];
        fs_delta_format_row(r, d, &x);
        nl(c);
        fs_xmlw_start(c, "tr");
        cell(c, "td", "num", x.before, strlen(x.before));
        cell(c, "td", "num", x.after, strlen(x.after));
        cell(c, "td", direction(s, r), x.delta, strlen(x.delta));
        cell(c, "td", direction(s, r), x.change, strlen(x.change));
        name_cell(c, r, r->after != 0);
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    nl(c);
}

/* The functions of one side only, with their inclusive time on that side. */
static void one_side_table(fs_xmlw *c, const fs_diff_section *s, int after)
{
    const fs_delta_table *t = after ? &s->only_after : &s->only_before;
    size_t funcs = after ? s->deltas.incl.only_after : s->deltas.incl.only_before;
    uint64_t per = after ? s->deltas.per_after : s->deltas.per_before;
    fs_xmlw_start(c, "table");
    fs_xmlw_attr(c, "class", "fs-top fs-oneside");
    fs_xmlw_attr(c, "data-kind", after ? "only-after" : "only-before");
    char note[128];
    char g[32];
    fs_format_thousands((uint64_t)funcs, g);
    snprintf(note, sizeof note, "%s function%s, inclusive time", g, funcs == 1 ? "" : "s");
    caption(c, after ? "Only in AFTER (new)" : "Only in BEFORE (gone)", note);
    fs_xmlw_start(c, "thead");
    fs_xmlw_start(c, "tr");
    header_cell(c, "num", s->countname);
    header_cell(c, NULL, "function");
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "tbody");
    char num[64];
    for (size_t i = 0; i < t->n; i++) {
        const fs_delta_row *r = &t->rows[i];
        fs_delta_format_count(after ? r->after : r->before, per, 1, num);
        nl(c);
        fs_xmlw_start(c, "tr");
        cell(c, "td", after ? "num fs-more" : "num fs-less", num, strlen(num));
        name_cell(c, r, after);
        fs_xmlw_end_full(c);
    }
    if (t->n == 0) {
        nl(c);
        fs_xmlw_start(c, "tr");
        fs_xmlw_start(c, "td");
        fs_xmlw_attr(c, "colspan", "2");
        fs_xmlw_attr(c, "class", "fs-none");
        fs_xmlw_text(c, "none");
        fs_xmlw_end_full(c);
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    nl(c);
}

void fs_diff_write_tables(fs_xmlw *c, const fs_diff_section *s)
{
    const fs_deltas *d = &s->deltas;
    fs_xmlw_start(c, "div");
    fs_xmlw_attr(c, "class", "fs-tables fs-difftables");
    nl(c);
    delta_table(c, s, "self", "Self time", &d->self, s->self_funcs);
    delta_table(c, s, "inclusive", "Inclusive time", &d->incl, s->incl_funcs);
    one_side_table(c, s, 1);
    one_side_table(c, s, 0);
    fs_xmlw_end_full(c);
    nl(c);
}

void fs_diff_write_note(fs_xmlw *c, const fs_diff_section *s)
{
    fs_xmlw_text(c, s->negate ? "Frames are as wide as AFTER; blue grew, red shrank (--negate), "
                              : "Frames are as wide as AFTER; red grew, blue shrank, ");
    fs_xmlw_text(c, s->inclusive ? "by the time under each frame (--diff-color inclusive). "
                                 : "by each frame's self time. ");
    fs_xmlw_text(c, "Delta = AFTER - BEFORE; change in percent of BEFORE. Self time: the function "
                    "is the leaf of the stack. Inclusive time: anywhere on the stack, counted "
                    "once per stack. Click a function to highlight it in the flamegraph.");
    if (s->sides.normalized)
        fs_xmlw_text(c, " BEFORE's counts were scaled to AFTER's total (--normalize).");
    if (s->deltas.per_before > 1 || s->deltas.per_after > 1) {
        char per[160];
        snprintf(per, sizeof per,
                 " Counts are per iteration: BEFORE divided by %llu, AFTER by %llu.",
                 (unsigned long long)s->deltas.per_before, (unsigned long long)s->deltas.per_after);
        fs_xmlw_text(c, per);
    }
}
