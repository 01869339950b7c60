/* The values of options: each row's type parsed, bounded and stored (the generic setter), by
 * name and by key (the typed setters). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/options.h"
#include "api/optrow.h"
#include "formats/threadsel.h"
#include "render/colors.h"
#include "transform/filter.h"
#include "util/decimal.h"
#include "util/error.h"

static foldsvg_status bad_value(foldsvg_error *err, const char *name, const char *v,
                                const char *expected)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL, "invalid value '%s' for --%s: expected %s", v, name,
                    expected);
}

static foldsvg_status nomem(foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
}

static int cmp_words(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "one of a, b, c": VALUES sorted, for a list too long to read in its own order. */
static foldsvg_status bad_word(foldsvg_error *err, const opt_row *r, const char *v)
{
    const char *sorted[64];
    size_t n = 0;
    while (r->values[n] && n < sizeof sorted / sizeof sorted[0]) {
        sorted[n] = r->values[n];
        n++;
    }
    qsort(sorted, n, sizeof *sorted, cmp_words);
    char list[1024] = "one of ";
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", sorted[i]);
    }
    return bad_value(err, r->name, v, list);
}

/* "a, b or c": VALUES in their order. */
static foldsvg_status bad_choice(foldsvg_error *err, const opt_row *r, const char *v)
{
    char list[512] = "";
    for (size_t i = 0; r->values[i]; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s",
                 i == 0             ? ""
                 : r->values[i + 1] ? ", "
                                    : " or ",
                 r->values[i]);
    }
    return bad_value(err, r->name, v, list);
}

/* "KEY=PCT, KEY one of a, b, c and PCT from 0 to 100". */
static foldsvg_status bad_keyed(foldsvg_error *err, const opt_row *r, const char *v)
{
    char list[512] = "";
    for (size_t i = 0; r->values[i]; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", r->values[i]);
    }
    char expected[700];
    snprintf(expected, sizeof expected, "%s: RULE one of %s, PCT from %g to %g", r->metavar, list,
             r->dmin, r->dmax);
    return bad_value(err, r->name, v, expected);
}

static int parse_double(const char *v, double *out)
{
    if (!v || !*v || isspace((unsigned char)v[0]))
        return -1;
    errno = 0;
    char *end;
    double x = strtod(v, &end);
    if (errno || *end || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

/* SIZE[K|M|G] (binary units), as sort -S. */
static int parse_size(const char *v, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = isdigit((unsigned char)v[0]) ? strtoull(v, &end, 10) : 0;
    unsigned shift = 0;
    if (x > 0 && errno == 0) {
        if (*end == 'K' || *end == 'k')
            shift = 10;
        else if (*end == 'M' || *end == 'm')
            shift = 20;
        else if (*end == 'G' || *end == 'g')
            shift = 30;
        end += shift != 0;
    }
    if (x == 0 || errno || *end || x > (SIZE_MAX >> shift) || (x << shift) < 1024)
        return -1;
    *out = (size_t)(x << shift);
    return 0;
}

static void store_uint(void *f, c_type t, uint64_t x)
{
    switch (t) {
    case C_UNSIGNED:
        *(unsigned *)f = (unsigned)x;
        break;
    case C_SIZE:
        *(size_t *)f = (size_t)x;
        break;
    case C_U64:
        *(uint64_t *)f = x;
        break;
    case C_LONG:
        *(long *)f = (long)x;
        break;
    }
}

/* The generic setter: parses V by the row's type into its field (and notes that it was given,
 * where the row says so). */
foldsvg_status fs_opt_set_value(foldsvg_options *o, const opt_row *r, const char *v,
                                foldsvg_error *err)
{
    void *f = fs_opt_field(o, r);
    if (r->check) {
        foldsvg_status st = r->check(r->name, v, err);
        if (st)
            return r->expected ? bad_value(err, r->name, v, r->expected) : st;
    }
    switch ((opt_type)r->type) {
    case T_FLAG:
        *(int *)f = 1;
        break;
    case T_STRING: {
        char *copy = strdup(v);
        if (!copy)
            return nomem(err);
        free(*(char **)f);
        *(char **)f = copy;
        break;
    }
    case T_UINT: {
        uint64_t x;
        if (fs_parse_decimal(v, r->umax, &x) != 0 || x < r->umin)
            return bad_value(err, r->name, v, r->expected);
        store_uint(f, (c_type)r->ctype, x);
        break;
    }
    case T_REAL: {
        double x;
        char num[64];
        size_t vn = strlen(v);
        if ((r->flags & F_PERCENT) && vn > 1 && vn < sizeof num && v[vn - 1] == '%') {
            memcpy(num, v, vn - 1);
            num[vn - 1] = '\0';
        } else {
            snprintf(num, sizeof num, "%s", vn < sizeof num ? v : "");
        }
        int ok = parse_double(num, &x) == 0 &&
                 ((r->flags & F_MIN_INCLUSIVE) ? x >= r->dmin : x > r->dmin) &&
                 (r->dmax <= r->dmin || x <= r->dmax);
        if (!ok)
            return bad_value(err, r->name, v, r->expected);
        *(double *)f = x;
        break;
    }
    case T_ENUM: {
        size_t i = 0;
        while (r->values[i] && strcmp(r->values[i], v) != 0)
            i++;
        if (!r->values[i])
            return bad_choice(err, r, v);
        *(int *)f = (int)i;
        break;
    }
    case T_LIST:
        if (fs_strlist_push(f, v) != FOLDSVG_OK)
            return nomem(err);
        break;
    case T_SIZE:
        if (parse_size(v, f) != 0)
            return bad_value(err, r->name, v, r->expected);
        break;
    case T_COLOR:
        if (fs_rgb_parse_hex(v, f) != 0)
            return bad_value(err, r->name, v, r->expected);
        break;
    case T_PALETTE:
        if (fs_palette_from_name(v, f) != 0)
            return bad_word(err, r, v);
        break;
    case T_BACKGROUND:
        if (fs_background_parse(v, f) != 0)
            return bad_value(err, r->name, v, r->expected);
        break;
    case T_THRESHOLD: {
        const char *eq = strchr(v, '=');
        size_t i = 0, klen = eq ? (size_t)(eq - v) : 0;
        while (eq && r->values[i] &&
               (strlen(r->values[i]) != klen || strncmp(r->values[i], v, klen) != 0))
            i++;
        double x;
        if (!eq || !r->values[i] || parse_double(eq + 1, &x) != 0 || x < r->dmin || x > r->dmax)
            return bad_keyed(err, r, v);
        fs_thresholds *t = f;
        t->pct[i] = x;
        t->set |= 1u << i;
        break;
    }
    case T_CLI:
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "unknown option --%s", r->name);
    }
    if (r->set_off)
        *(int *)(void *)((char *)o + r->set_off - 1) = 1;
    return FOLDSVG_OK;
}

foldsvg_status foldsvg_options_set(foldsvg_options *o, const char *name, const char *value,
                                   foldsvg_error *err)
{
    if (!o || !name)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set: NULL argument");
    const opt_row *r = fs_opt_find(name);
    if (!r || r->type == T_CLI)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "unknown option --%s", name);
    if (fs_opt_takes_value(r) && !value)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "option --%s needs a value", name);
    if (!fs_opt_takes_value(r) && value)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "option --%s takes no value", name);
    return fs_opt_set_value(o, r, value, err);
}

static const opt_row *by_key(foldsvg_option key)
{
    size_t n;
    const opt_row *rows = fs_opt_rows(&n);
    for (size_t i = 0; i < n; i++)
        if (rows[i].key == (int)key && rows[i].type != T_CLI)
            return &rows[i];
    return NULL;
}

static foldsvg_status wrong_type(foldsvg_error *err, const opt_row *r, const char *takes)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s does not take %s", r->name, takes);
}

foldsvg_status foldsvg_option_bounds(foldsvg_option key, double *min, double *max)
{
    const opt_row *r = by_key(key);
    if (!r || !min || !max)
        return FOLDSVG_E_ARG;
    size_t n = 0;
    switch ((opt_type)r->type) {
    case T_FLAG:
        *min = 0, *max = 1;
        return FOLDSVG_OK;
    case T_UINT:
        *min = (double)r->umin, *max = (double)r->umax;
        return FOLDSVG_OK;
    case T_REAL:
        *min = r->dmin, *max = r->dmax > r->dmin ? r->dmax : HUGE_VAL;
        return FOLDSVG_OK;
    case T_SIZE:
        *min = 1024, *max = (double)SIZE_MAX;
        return FOLDSVG_OK;
    case T_ENUM:
    case T_PALETTE:
        while (r->values[n])
            n++;
        *min = 0, *max = (double)n - 1;
        return FOLDSVG_OK;
    default:
        return FOLDSVG_E_ARG;
    }
}

foldsvg_status foldsvg_options_set_int(foldsvg_options *o, foldsvg_option key, int64_t value,
                                       foldsvg_error *err)
{
    const opt_row *r = by_key(key);
    if (!o || !r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set_int: no such option");
    char text[32];
    switch ((opt_type)r->type) {
    case T_FLAG:
        if (value != 0 && value != 1)
            return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s is a flag: 0 or 1, not %lld", r->name,
                            (long long)value);
        *(int *)fs_opt_field(o, r) = (int)value;
        return FOLDSVG_OK;
    case T_ENUM:
    case T_PALETTE: {
        double lo, hi;
        foldsvg_option_bounds(key, &lo, &hi);
        if (value < 0 || (double)value > hi)
            return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s takes 0 to %.0f, not %lld", r->name,
                            hi, (long long)value);
        return fs_opt_set_value(o, r, r->values[value], err);
    }
    case T_UINT:
    case T_SIZE:
        if (value < 0)
            return bad_value(err, r->name, "a negative number", r->expected);
        snprintf(text, sizeof text, "%lld", (long long)value);
        return fs_opt_set_value(o, r, text, err);
    default:
        return wrong_type(err, r, "a whole number");
    }
}

foldsvg_status foldsvg_options_set_real(foldsvg_options *o, foldsvg_option key, double value,
                                        foldsvg_error *err)
{
    const opt_row *r = by_key(key);
    if (!o || !r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set_real: no such option");
    if (r->type != T_REAL)
        return wrong_type(err, r, "a number with a fraction");
    char text[64];
    snprintf(text, sizeof text, "%.17g", value);
    return fs_opt_set_value(o, r, text, err);
}

foldsvg_status foldsvg_options_set_text(foldsvg_options *o, foldsvg_option key, const char *value,
                                        foldsvg_error *err)
{
    const opt_row *r = by_key(key);
    if (!o || !r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set_text: no such option");
    return foldsvg_options_set(o, r->name, value, err);
}
