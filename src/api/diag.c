#include "api/diag.h"

#include <stddef.h>
#include <string.h>

#include "api/options.h"
#include "api/profile.h"
#include "render/svg.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/numfmt.h"

foldsvg_status fs_stack_error(foldsvg_error *err, foldsvg_status st, const char *name,
                              uint64_t line)
{
    if (st == FOLDSVG_E_OVERFLOW)
        return fs_error_at_line(err, st, name, line, 0,
                                "the total count passes 2^64-1; the input's counts are too large");
    return fs_error_at_line(err, st, name, line, 0, "%s", foldsvg_status_name(st));
}

/* "--include 'a', 'b'": the option and its values (as many as fit). */
static void name_option(fs_buf *b, const char *option, const fs_strlist *values)
{
    fs_buf_printf(b, "--%s", option);
    for (size_t i = 0; i < values->n; i++) {
        if (i == 3) {
            fs_buf_printf(b, " (and %zu more)", values->n - i);
            break;
        }
        fs_buf_printf(b, "%s'%.60s%s'", i ? ", " : " ", values->v[i],
                      strlen(values->v[i]) > 60 ? "..." : "");
    }
}

static const struct {
    fs_drop step;
    const char *option;
    size_t list; /* offset of its values in foldsvg_options */
} drop_steps[] = {
    {FS_DROP_INCLUDE, "include", offsetof(foldsvg_options, stack.include)},
    {FS_DROP_EXCLUDE, "exclude", offsetof(foldsvg_options, stack.exclude)},
    {FS_DROP_FOCUS, "focus", offsetof(foldsvg_options, stack.focus)},
    {FS_DROP_BASE, "base", offsetof(foldsvg_options, stack.base)},
};

/* Step K of drop_steps as the message names it: as D carries it, else from O. */
static void name_step(fs_buf *b, size_t k, const fs_drops *d, const foldsvg_options *o)
{
    if (d->what[drop_steps[k].step][0])
        fs_buf_puts(b, d->what[drop_steps[k].step]);
    else
        name_option(b, drop_steps[k].option,
                    (const fs_strlist *)(const void *)((const char *)o + drop_steps[k].list));
}

void fs_drops_name_steps(fs_drops *d, const foldsvg_options *o)
{
    for (size_t k = 0; k < sizeof drop_steps / sizeof drop_steps[0]; k++) {
        fs_buf b = {0};
        name_step(&b, k, d, o);
        snprintf(d->what[drop_steps[k].step], sizeof d->what[0], "%s", fs_buf_str(&b));
        fs_buf_free(&b);
    }
}

/* Every stack was dropped, some by options: which ones, and how many stacks each. */
static foldsvg_status dropped_error(foldsvg_error *err, const fs_folded_stats *s, const fs_drops *d,
                                    const foldsvg_options *o)
{
    fs_buf b = {0};
    fs_buf_printf(&b, "nothing to draw: every stack was dropped (");
    const char *sep = "";
    for (size_t i = 0; i < sizeof drop_steps / sizeof drop_steps[0]; i++) {
        uint64_t n = d->n[drop_steps[i].step];
        if (!n)
            continue;
        fs_buf_printf(&b, "%s%llu by ", sep, (unsigned long long)n);
        name_step(&b, i, d, o);
        sep = ", ";
    }
    if (d->n[FS_DROP_ZERO])
        fs_buf_printf(&b, "%s%llu with a zero count", sep, (unsigned long long)d->n[FS_DROP_ZERO]);
    fs_buf_printf(&b, ")");
    if (s && s->invalid)
        fs_buf_printf(&b, "; %llu line%s with invalid format skipped, the first is line %llu",
                      (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s",
                      (unsigned long long)s->first_invalid);
    foldsvg_status st = fs_buf_status(&b) == FOLDSVG_OK
                            ? fs_error(err, FOLDSVG_E_NO_DATA, d->input, "%s", b.data)
                            : fs_error(err, FOLDSVG_E_NOMEM, d->input, "out of memory");
    fs_buf_free(&b);
    return st;
}

int fs_no_data_is_empty(const fs_folded_stats *s, const fs_drops *d)
{
    return s && s->lines == 0 && !fs_drops_by_option(d);
}

foldsvg_status fs_no_data_error(foldsvg_error *err, const char *name, const fs_folded_stats *s,
                                const fs_drops *d, const foldsvg_options *o)
{
    if (d && fs_drops_by_option(d))
        return dropped_error(err, s, d, o ? o : fs_default_options());
    uint64_t zero = d ? d->n[FS_DROP_ZERO] : 0;
    if (s && s->invalid)
        return fs_error_at_line(err, FOLDSVG_E_NO_DATA, name, s->first_invalid, 0,
                                "no valid stacks, nothing to draw: %llu line%s with invalid "
                                "format, the first is this one (a line is 'frame;frame;... "
                                "COUNT')",
                                (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s");
    if (!s && zero)
        return fs_error(err, FOLDSVG_E_NO_DATA, name,
                        "no valid stacks, nothing to draw: every sample (%llu stack%s) has a "
                        "zero weight",
                        (unsigned long long)zero, zero == 1 ? "" : "s");
    if (!s)
        return fs_error(err, FOLDSVG_E_NO_DATA, name,
                        "no valid stacks, nothing to draw: the profile holds no samples");
    if (zero)
        return fs_error(err, FOLDSVG_E_NO_DATA, name,
                        "no valid stacks, nothing to draw: every stack (%llu line%s) has a zero "
                        "count",
                        (unsigned long long)zero, zero == 1 ? "" : "s");
    return fs_error(err, FOLDSVG_E_NO_DATA, name, "no valid stacks, nothing to draw: the input %s",
                    s->lines ? "holds only blank lines and comments" : "is empty");
}

foldsvg_status fs_profile_no_data(const foldsvg_profile *p, foldsvg_format format,
                                  const foldsvg_options *o, foldsvg_error *err)
{
    if (format == FOLDSVG_FORMAT_FOLDED &&
        fs_no_data_is_empty(p->pending_name[0] ? &p->pending : NULL, &p->drops))
        return FOLDSVG_OK;
    if (p->pending_name[0])
        return fs_no_data_error(err, p->pending_name, &p->pending, &p->drops, o);
    if (p->last_name[0])
        return fs_no_data_error(err, p->last_name, NULL, &p->drops, o);
    return fs_error(err, FOLDSVG_E_NO_DATA, NULL, "no stacks were recorded: nothing to draw");
}

foldsvg_status fs_profile_check_inputs(const foldsvg_profile *p, const foldsvg_options *o,
                                       foldsvg_error *err)
{
    return fs_options_check_inputs(o, p->formats, p->last_name, p->last_what, err);
}

foldsvg_status fs_sorted_runs_error(foldsvg_error *err, const char *name)
{
    return fs_error(err, FOLDSVG_E_IO, name,
                    "sorting the stacks: the sorted runs came back out of order (did a "
                    "temporary file change?)");
}

void fs_warn_folded_stats(const foldsvg_options *o, const char *name, const fs_folded_stats *s)
{
    foldsvg_error w;
    if (s->invalid) {
        fs_error_at_line(&w, FOLDSVG_OK, name, s->first_invalid, 0,
                         "ignored %llu line%s with invalid format (the first is this one; a "
                         "line is 'frame;frame;... COUNT')",
                         (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s");
        fs_warn(o, &w);
    }
    if (s->fractional) {
        fs_error_at_line(&w, FOLDSVG_OK, name, s->first_fractional, 0,
                         "%llu line%s had fractional counts; the fractions were dropped (scale "
                         "the input and use --factor to keep them)",
                         (unsigned long long)s->fractional, s->fractional == 1 ? "" : "s");
        fs_warn(o, &w);
    }
}

/* The summary line: TOTAL's count and unit, what follows it (AFTER: ", M after" for --diff,
 * when not NULL), the unique stacks. */
static size_t summary(char *buf, size_t size, uint64_t total, const uint64_t *after,
                      const char *count_name, size_t unique_stacks)
{
    char t[32], a[48] = "", u[32];
    fs_format_thousands(total, t);
    if (after) {
        char n[32];
        fs_format_thousands(*after, n);
        snprintf(a, sizeof a, " before, %s after,", n);
    }
    fs_format_thousands((uint64_t)unique_stacks, u);
    const char *unit = fs_unit_for_count(count_name ? count_name : "cycles", total);
    int n = snprintf(buf, size, "%s %s%s across %s unique stack%s", t, unit, a, u,
                     unique_stacks == 1 ? "" : "s");
    return n < 0 ? 0 : (size_t)n;
}

size_t foldsvg_summary(char *buf, size_t size, uint64_t total, const char *count_name,
                       size_t unique_stacks)
{
    return summary(buf, size, total, NULL, count_name, unique_stacks);
}

size_t foldsvg_diff_summary(char *buf, size_t size, uint64_t before, uint64_t after,
                            const char *count_name, size_t unique_stacks)
{
    return summary(buf, size, before, &after, count_name, unique_stacks);
}
