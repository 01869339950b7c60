/* The words of a finding (fs_finding_words, fs_finding_detail) and the order they are said
 * in (fs_findings_split): what the summary, the tables and the report say about it, apart
 * from the rules that find it (findings.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deltatables.h"
#include "analysis/findings.h"
#include "analysis/findrule.h"
#include "analysis/tables.h"
#include "util/buf.h"

/* |A| as a percent of |B| (0 when B is 0). */
static double ratio(long double a, long double b)
{
    return b != 0 ? (double)(100.0L * fabsl(a) / fabsl(b)) : 0.0;
}

/* ---- wording ------------------------------------------------------------------------------- */

static void put(fs_word_fn fn, void *user, const char *s)
{
    fn(user, FS_WORD_TEXT, s, strlen(s));
}

static void format_share(const fs_findings *fs, double share, char *buf, size_t size)
{
    snprintf(buf, size, fs->diff ? "%+.1f%%" : "%.1f%%", share);
}

/* The item's value with the unit: "1,200 cycles", in a diff "+1,200 cycles (+12.50%)". */
static void format_value(const fs_findings *fs, const fs_finding_item *it, const char *unit,
                         int with_unit, char *buf, size_t size)
{
    char num[64];
    if (!fs->diff) {
        fs_tables_format_count(it->after, fs->per_after, 1, num);
        snprintf(buf, size, "%s%s%s", num, with_unit ? " " : "", with_unit ? unit : "");
        return;
    }
    fs_delta_row r = {it->name, it->len, it->before, it->after, fs_finding_value(fs, it),
                      fs->scale};
    char change[64];
    fs_delta_format_delta(&r, fs->per_before, fs->per_after, 1, num);
    fs_delta_format_change(&r, fs->per_before, change);
    if (with_unit && (it->before || it->after))
        snprintf(buf, size, "%s %s (%s)", num, unit, change);
    else if (with_unit)
        snprintf(buf, size, "%s %s", num, unit);
    else
        snprintf(buf, size, "%s", num);
}

static void put_related(const fs_findings *fs, const fs_finding *f, fs_word_fn fn, void *user)
{
    if (f->nrelated == 0) {
        put(fn, user, "none seen");
        return;
    }
    long double v = fs_finding_value(fs, &f->fn);
    char num[96];
    for (size_t i = 0; i < f->nrelated; i++) {
        const fs_finding_item *r = &f->related[i];
        if (i)
            put(fn, user, ", ");
        fn(user, FS_WORD_NAME, r->name, r->len);
        if (fs->diff || f->rule == FS_RULE_SOFTWARE_FALLBACK)
            format_value(fs, r, "", 0, num + 1, sizeof num - 1);
        else
            snprintf(num + 1, sizeof num - 1, "%.1f%%", ratio(fs_finding_value(fs, r), v));
        num[0] = ' ';
        put(fn, user, num);
    }
}

static void put_field(const fs_findings *fs, const fs_finding *f, const char *unit, const char *key,
                      size_t klen, fs_word_fn fn, void *user)
{
    const rule_row *row = f->row;
    char buf[160];
#define IS(k) (klen == sizeof k - 1 && memcmp(key, k, klen) == 0)
    if (IS("fn")) {
        fn(user, FS_WORD_NAME, f->fn.name, f->fn.len);
    } else if (IS("value")) {
        format_value(fs, &f->fn, unit, 1, buf, sizeof buf);
        put(fn, user, buf);
    } else if (IS("share")) {
        format_share(fs, fs_finding_share(fs, &f->fn), buf, sizeof buf);
        put(fn, user, buf);
    } else if (IS("self")) {
        format_share(fs, fs_finding_share(fs, &f->self), buf, sizeof buf);
        put(fn, user, buf);
    } else if (IS("selfvalue")) {
        format_value(fs, &f->self, unit, 1, buf, sizeof buf);
        put(fn, user, buf);
    } else if (IS("base")) {
        format_value(fs, &f->base, unit, 1, buf, sizeof buf);
        put(fn, user, buf);
    } else if (IS("ratio")) {
        snprintf(buf, sizeof buf, "%.1f%%",
                 ratio(fs_finding_value(fs, &f->self), fs_finding_value(fs, &f->base)));
        put(fn, user, buf);
    } else if (IS("related")) {
        put_related(fs, f, fn, user);
    } else if (IS("family")) {
        put(fn, user, row->family ? row->family : "");
    } else if (IS("syscall")) {
        if (row->syscall_shown)
            fn(user, FS_WORD_CODE, row->syscall_shown, strlen(row->syscall_shown));
    }
#undef IS
}

void fs_finding_words(const fs_findings *fs, const fs_finding *f, const char *unit, fs_word_fn fn,
                      void *user)
{
    const rule_row *row = f->row;
    const char *s = fs->diff ? row->say_change : row->say;
    int skipping = 0;
    while (*s) {
        const char *stop = s + strcspn(s, "{`");
        if (stop > s && !skipping)
            fn(user, FS_WORD_TEXT, s, (size_t)(stop - s));
        if (!*stop)
            break;
        const char *close = strchr(stop + 1, *stop == '{' ? '}' : '`');
        if (!close)
            break; /* the table's own text: never unclosed */
        const char *key = stop + 1;
        size_t klen = (size_t)(close - key);
        if (*stop == '`') {
            if (!skipping)
                fn(user, FS_WORD_CODE, key, klen);
        } else if (klen == 1 && *key == '?') {
            skipping = !f->flagged;
        } else if (klen == 1 && *key == '/') {
            skipping = 0;
        } else if (!skipping) {
            put_field(fs, f, unit, key, klen, fn, user);
        }
        s = close + 1;
    }
}

static void to_buf(void *user, fs_word_kind kind, const char *s, size_t n)
{
    if (kind == FS_WORD_CODE)
        fs_buf_puts(user, "`");
    fs_buf_append(user, s, n);
    if (kind == FS_WORD_CODE)
        fs_buf_puts(user, "`");
}

foldsvg_status fs_finding_detail(const fs_findings *fs, const fs_finding *f, const char *unit,
                                 fs_buf *out)
{
    fs_buf_clear(out);
    fs_finding_words(fs, f, unit, to_buf, out);
    return fs_buf_status(out);
}

/* ---- order ---------------------------------------------------------------------------- */

static int heavier(const fs_findings *f, const fs_finding *x, const fs_finding *y)
{
    return fabsl(fs_finding_value(f, &x->fn)) > fabsl(fs_finding_value(f, &y->fn));
}

foldsvg_status fs_findings_split(const fs_findings *f, const fs_finding ***said, size_t *nsaid,
                                 const fs_finding ***pre, size_t *npre)
{
    *said = malloc((f->n ? f->n : 1) * sizeof **said);
    *pre = malloc((f->n ? f->n : 1) * sizeof **pre);
    *nsaid = *npre = 0;
    if (!*said || !*pre) {
        free(*said);
        free(*pre);
        *said = *pre = NULL;
        return FOLDSVG_E_NOMEM;
    }
    for (size_t i = 0; i < f->n; i++) { /* a stable insertion sort: findings are few */
        const fs_finding *x = &f->v[i];
        if (x->rule == FS_RULE_PRECOMPILE) {
            (*pre)[(*npre)++] = x;
            continue;
        }
        size_t k = (*nsaid)++;
        while (k > 0 && heavier(f, x, (*said)[k - 1])) {
            (*said)[k] = (*said)[k - 1];
            k--;
        }
        (*said)[k] = x;
    }
    return FOLDSVG_OK;
}
