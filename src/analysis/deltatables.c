#include "analysis/deltatables.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "analysis/tables.h"
#include "analysis/textout.h"
#include "util/error.h"
#include "util/numfmt.h"

void fs_delta_format_count(uint64_t count, uint64_t per, int sep, char *buf)
{
    fs_tables_format_count(count, per, sep, buf);
}

/* N with thousands separators, as every count foldsvg prints (B: 32 bytes). */
static const char *grp(size_t n, char *b)
{
    fs_format_thousands((uint64_t)n, b);
    return b;
}

/* |V| with two decimals (V per iteration, sides divided differently). */
static void format_real(long double v, int sep, char *buf)
{
    long double a = fabsl(v);
    if (!(a < 18446744073709551615.0L))
        a = 18446744073709551615.0L;
    uint64_t whole = (uint64_t)a;
    fs_tables_format_cents(whole, (uint64_t)roundl((a - (long double)whole) * 100.0L), sep, buf);
}

void fs_delta_format_before(const fs_delta_row *r, uint64_t per_before, int sep, char *buf)
{
    if (r->scale > 0)
        format_real(fs_delta_before(r, per_before), sep, buf);
    else
        fs_delta_format_count(r->before, per_before, sep, buf);
}

void fs_delta_format_delta(const fs_delta_row *r, uint64_t per_before, uint64_t per_after, int sep,
                           char *buf)
{
    char mag[56];
    int exact = per_before == per_after && !(r->scale > 0);
    if (r->delta == 0 || (r->after == r->before && exact)) {
        strcpy(buf, per_before > 1 || per_after > 1 || r->scale > 0 ? "0.00" : "0");
        return;
    }
    if (exact) { /* the difference of the counts, divided once */
        uint64_t d = r->after > r->before ? r->after - r->before : r->before - r->after;
        fs_tables_format_count(d, per_before, sep, mag);
    } else {
        format_real(r->delta, sep, mag);
    }
    int negative = exact ? r->after < r->before : r->delta < 0;
    snprintf(buf, 64, "%s%s", negative ? "-" : "+", mag);
}

void fs_delta_format_change(const fs_delta_row *r, uint64_t per_before, char *buf)
{
    int is_new;
    double p = fs_delta_percent(r, per_before, &is_new);
    if (is_new)
        strcpy(buf, "new");
    else if (p == 0.0)
        strcpy(buf, "0.00%");
    else
        snprintf(buf, 64, "%+.2f%%", p);
}

void fs_delta_format_row(const fs_delta_row *r, const fs_deltas *d, fs_delta_cells *out)
{
    fs_delta_format_before(r, d->per_before, 1, out->before);
    fs_delta_format_count(r->after, d->per_after, 1, out->after);
    fs_delta_format_delta(r, d->per_before, d->per_after, 1, out->delta);
    fs_delta_format_change(r, d->per_before, out->change);
}

fs_delta_row fs_delta_totals(const fs_deltas *d)
{
    fs_delta_row r = {"", 0, d->total_before, d->total_after, 0, d->scale};
    r.delta = fs_delta_scaled(d->total_after, d->per_after) - fs_delta_before(&r, d->per_before);
    return r;
}

static size_t shown(const fs_delta_table *t, size_t top)
{
    return top && top < t->n ? top : t->n;
}

static int divided(const fs_deltas *d)
{
    return d->per_before > 1 || d->per_after > 1;
}

/* ---- text -------------------------------------------------------------------------------- */

static void text_side(fs_textout *o, const char *label, const fs_deltas *d, const fs_delta_sides *s,
                      int i, const char *unit)
{
    uint64_t total = i ? d->total_after : d->total_before, per = i ? d->per_after : d->per_before;
    char num[64], raw[64];
    fs_delta_row tot = fs_delta_totals(d);
    if (i)
        fs_delta_format_count(total, per, 1, num);
    else
        fs_delta_format_before(&tot, per, 1, num);
    fs_text_printf(o, "%s %s %s%s", label, num, unit, per > 1 ? " per iteration" : "");
    if (per > 1) {
        fs_delta_format_count(total, 0, 1, raw);
        fs_text_printf(o, " (%s in all / %llu)", raw, (unsigned long long)per);
    }
    if (i == 0 && s->normalized) {
        fs_delta_format_count(s->total[0], 0, 1, raw);
        fs_text_printf(o, ", normalized from %s", raw);
    }
    char g[32];
    fs_text_printf(o, " in %s unique stack%s (", grp(s->unique[i], g),
                   s->unique[i] == 1 ? "" : "s");
    fs_text_puts(o, s->name[i]);
    fs_text_puts(o, ")\n");
}

static void text_table(fs_textout *o, const char *title, const fs_delta_table *t, size_t top,
                       const fs_deltas *d)
{
    size_t n = shown(t, top);
    char g[32];
    fs_text_printf(o, "\n%s: top %zu of %s function%s by change\n", title, n, grp(t->n, g),
                   t->n == 1 ? "" : "s");
    fs_delta_cells x;
    int wb = 6, wa = 5, wd = 5, wc = 6;
    for (size_t i = 0; i < n; i++) {
        fs_delta_format_row(&t->rows[i], d, &x);
        int lb = (int)strlen(x.before), la = (int)strlen(x.after), ld = (int)strlen(x.delta),
            lc = (int)strlen(x.change);
        wb = lb > wb ? lb : wb;
        wa = la > wa ? la : wa;
        wd = ld > wd ? ld : wd;
        wc = lc > wc ? lc : wc;
    }
    fs_text_printf(o, "%*s  %*s  %*s  %*s  %s\n", wb, "before", wa, "after", wd, "delta", wc,
                   "change", "function");
    for (size_t i = 0; i < n; i++) {
        const fs_delta_row *r = &t->rows[i];
        fs_delta_format_row(r, d, &x);
        fs_text_printf(o, "%*s  %*s  %*s  %*s  ", wb, x.before, wa, x.after, wd, x.delta, wc,
                       x.change);
        fs_text_put(o, r->name, r->len);
        fs_text_puts(o, "\n");
    }
}

static void write_text(fs_textout *o, const fs_deltas *d, const fs_delta_sides *s, size_t top,
                       const char *unit)
{
    text_side(o, "Before:", d, s, 0, unit);
    text_side(o, "After: ", d, s, 1, unit);
    fs_delta_row tot = fs_delta_totals(d);
    char dl[64], ch[64];
    fs_delta_format_delta(&tot, d->per_before, d->per_after, 1, dl);
    fs_delta_format_change(&tot, d->per_before, ch);
    char g1[32], g2[32], g3[32];
    fs_text_printf(o, "Change: %s %s (%s); %s unique stack%s, %s only before, %s only after\n", dl,
                   unit, ch, grp(d->unique, g1), d->unique == 1 ? "" : "s", grp(s->only_before, g2),
                   grp(s->only_after, g3));
    text_table(o, "Self time", &d->self, top, d);
    text_table(o, "Inclusive time", &d->incl, top, d);
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void md_table(fs_textout *o, const char *title, const fs_delta_table *t, size_t top,
                     const fs_deltas *d, const char *unit, size_t max_name)
{
    fs_buf name = {0};
    size_t n = shown(t, top);
    char g[32];
    fs_text_printf(o, "\n### %s, biggest changes first (top %zu of %s)\n\n", title, n,
                   grp(t->n, g));
    const char *per = divided(d) ? " per iteration" : "";
    fs_text_printf(o, "| Before | After | Δ %s%s | Change | Function |\n", unit, per);
    fs_text_puts(o, "|---:|---:|---:|---:|:---|\n");
    fs_delta_cells x;
    for (size_t i = 0; i < n; i++) {
        const fs_delta_row *r = &t->rows[i];
        fs_delta_format_row(r, d, &x);
        fs_text_printf(o, "| %s | %s | %s | %s | ", x.before, x.after, x.delta, x.change);
        fs_buf_clear(&name);
        if (fs_text_elide(r->name, r->len, max_name, &name) != FOLDSVG_OK)
            o->failed = 1, o->errnum = ENOMEM;
        fs_text_md_code(o, name.data ? name.data : "", name.len);
        fs_text_puts(o, " |\n");
    }
    fs_buf_free(&name);
}

static void write_markdown(fs_textout *o, const fs_deltas *d, const fs_delta_sides *s, size_t top,
                           const char *unit, size_t max_name)
{
    fs_delta_row tot = fs_delta_totals(d);
    fs_delta_cells x;
    fs_delta_format_row(&tot, d, &x);
    const char *per = divided(d) ? " per iteration" : "";
    fs_text_printf(o, "**Before:** %s %s%s · **After:** %s %s%s · **Change:** %s (%s)\n", x.before,
                   unit, per, x.after, unit, per, x.delta, x.change);
    fs_text_puts(o, "\n");
    fs_text_printf(o, "*");
    fs_text_md_code(o, s->name[0], strlen(s->name[0]));
    fs_text_puts(o, " → ");
    fs_text_md_code(o, s->name[1], strlen(s->name[1]));
    char g1[32], g2[32], g3[32];
    fs_text_printf(o, ": %s unique stacks, %s only before, %s only after", grp(d->unique, g1),
                   grp(s->only_before, g2), grp(s->only_after, g3));
    if (s->normalized) {
        char raw[64];
        fs_delta_format_count(s->total[0], 0, 1, raw);
        fs_text_printf(o, "; before normalized from %s", raw);
    }
    if (divided(d))
        fs_text_printf(o, "; before divided by %llu, after by %llu",
                       (unsigned long long)d->per_before, (unsigned long long)d->per_after);
    fs_text_puts(o, ".*\n");
    md_table(o, "Self time", &d->self, top, d, unit, max_name);
    md_table(o, "Inclusive time", &d->incl, top, d, unit, max_name);
}

/* ---- JSON -------------------------------------------------------------------------------- */

void fs_delta_json(fs_jsonout *j, const fs_delta_row *r, uint64_t per_before, uint64_t per_after)
{
    if (r->scale > 0) { /* a real: four decimals at most, as every share */
        fs_json_real(j, (double)r->delta);
        return;
    }
    char num[64];
    fs_delta_format_delta(r, per_before, per_after, 0, num);
    const char *s = num[0] == '+' ? num + 1 : num;
    fs_json_num(j, s, strlen(s));
}

void fs_delta_json_before(fs_jsonout *j, const fs_delta_row *r, uint64_t per_before)
{
    if (r->scale > 0) {
        fs_json_real(j, (double)fs_delta_before(r, per_before));
        return;
    }
    char num[64];
    fs_delta_format_before(r, per_before, 0, num);
    fs_json_num(j, num, strlen(num));
}

static void json_percent(fs_jsonout *j, const fs_delta_row *r, const fs_deltas *d)
{
    int is_new;
    double p = fs_delta_percent(r, d->per_before, &is_new);
    if (is_new)
        fs_json_check(j, yajl_gen_null(j->g));
    else
        fs_json_real(j, p);
}

static void json_rows(fs_jsonout *j, const fs_delta_table *t, size_t top, const fs_deltas *d)
{
    fs_json_check(j, yajl_gen_array_open(j->g));
    for (size_t i = 0; i < shown(t, top) && !j->failed; i++) {
        const fs_delta_row *r = &t->rows[i];
        fs_json_check(j, yajl_gen_map_open(j->g));
        fs_json_key(j, "name");
        fs_json_name(j, r->name, r->len);
        fs_json_key(j, "before");
        fs_delta_json_before(j, r, d->per_before);
        fs_json_key(j, "after");
        fs_tables_json_count(j, r->after, d->per_after);
        fs_json_key(j, "delta");
        fs_delta_json(j, r, d->per_before, d->per_after);
        fs_json_key(j, "percent");
        json_percent(j, r, d);
        fs_json_check(j, yajl_gen_map_close(j->g));
    }
    fs_json_check(j, yajl_gen_array_close(j->g));
}

static void json_side(fs_jsonout *j, const char *key, const fs_delta_sides *s, int i)
{
    fs_json_key(j, key);
    fs_json_check(j, yajl_gen_map_open(j->g));
    fs_json_key(j, "input");
    fs_json_name(j, s->name[i], strlen(s->name[i]));
    fs_json_key(j, "total");
    fs_json_u64(j, s->total[i]);
    fs_json_key(j, "unique_stacks");
    fs_json_u64(j, s->unique[i]);
    fs_json_check(j, yajl_gen_map_close(j->g));
}

void fs_deltas_json(fs_jsonout *j, fs_textout *o, const fs_deltas *d, const fs_delta_sides *s,
                    size_t top, const char *unit, const fs_text_hook *h)
{
    fs_delta_row tot = fs_delta_totals(d);
    fs_json_check(j, yajl_gen_map_open(j->g));
    if (h)
        h->head(h->user, o, j);
    fs_json_key(j, "total_before");
    fs_delta_json_before(j, &tot, d->per_before);
    fs_json_key(j, "total_after");
    fs_tables_json_count(j, d->total_after, d->per_after);
    fs_json_key(j, "delta");
    fs_delta_json(j, &tot, d->per_before, d->per_after);
    fs_json_key(j, "percent");
    json_percent(j, &tot, d);
    fs_json_key(j, "count_name");
    fs_json_str(j, unit, strlen(unit));
    fs_json_key(j, "unique_stacks");
    fs_json_u64(j, d->unique);
    fs_json_key(j, "only_before");
    fs_json_u64(j, s->only_before);
    fs_json_key(j, "only_after");
    fs_json_u64(j, s->only_after);
    fs_json_key(j, "normalized");
    fs_json_check(j, yajl_gen_bool(j->g, s->normalized));
    if (divided(d)) {
        fs_json_key(j, "per_before");
        fs_json_u64(j, d->per_before);
        fs_json_key(j, "per_after");
        fs_json_u64(j, d->per_after);
    }
    json_side(j, "before", s, 0);
    json_side(j, "after", s, 1);
    fs_json_key(j, "self");
    json_rows(j, &d->self, top, d);
    fs_json_key(j, "inclusive");
    json_rows(j, &d->incl, top, d);
    if (h)
        h->tail(h->user, o, j);
    fs_json_check(j, yajl_gen_map_close(j->g));
}

static foldsvg_status write_json(fs_textout *o, const fs_deltas *d, const fs_delta_sides *s,
                                 size_t top, const char *unit, const fs_text_hook *h)
{
    fs_jsonout j;
    FS_FORWARD_IF_ERROR(fs_json_begin(&j, o));
    fs_deltas_json(&j, o, d, s, top, unit, h);
    return fs_json_end(&j);
}

foldsvg_status fs_deltas_write(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                               int format, const char *countname, FILE *out, foldsvg_error *err)
{
    return fs_deltas_write_hooked(d, sides, top, format, countname, NULL, out, err);
}

foldsvg_status fs_deltas_write_hooked(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                                      int format, const char *countname, const fs_text_hook *h,
                                      FILE *out, foldsvg_error *err)
{
    fs_textout o = {out, 0, 0};
    const char *unit = countname ? countname : "cycles";
    if (format == FOLDSVG_TOP_JSON) {
        if (write_json(&o, d, sides, top, unit, h) != FOLDSVG_OK && !o.failed)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    } else {
        if (h)
            h->head(h->user, &o, NULL);
        if (format == FOLDSVG_TOP_MARKDOWN)
            write_markdown(&o, d, sides, top, unit, h ? h->max_name : 0);
        else
            write_text(&o, d, sides, top, unit);
        if (h)
            h->tail(h->user, &o, NULL);
    }
    return fs_text_finish(&o, err);
}
