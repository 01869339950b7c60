#include "lib/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold/filter.h"
#include "util/error.h"

static const foldsvg_options defaults = {
    .palette = FS_PAL_HOT,
    .uicolor = {0, 0, 0},
    .searchcolor = {230, 0, 230},
    .fontsize = 12,
    .fontwidth = 0.59,
    .frameheight = 16,
    .width = 0,
    .minwidth = 0.01,
    .factor = 1.0,
    .thread = -1,
};

const foldsvg_options *fs_default_options(void)
{
    return &defaults;
}

void fs_warn(const foldsvg_options *o, const foldsvg_error *w)
{
    if (o && o->warn)
        o->warn(o->warn_user, w);
}

foldsvg_options *foldsvg_options_new(void)
{
    foldsvg_options *o = malloc(sizeof *o);
    if (o)
        *o = defaults;
    return o;
}

static void free_strings(foldsvg_options *o)
{
    free(o->title);
    free(o->subtitle);
    free(o->countname);
    free(o->nametype);
    free(o->notes);
    free(o->fonttype);
    free(o->nameattr);
    free(o->palette_map_path);
    free(o->id_prefix);
    free(o->event_filter);
    char **const *lists[] = {(char **const *)&o->base,    (char **const *)&o->strip,
                             (char **const *)&o->include, (char **const *)&o->exclude,
                             (char **const *)&o->focus,   (char **const *)&o->skip_after};
    const size_t counts[] = {o->nbase,    o->nstrip, o->ninclude,
                             o->nexclude, o->nfocus, o->nskip_after};
    for (size_t l = 0; l < sizeof counts / sizeof counts[0]; l++) {
        for (size_t i = 0; i < counts[l]; i++)
            free((*lists[l])[i]);
        free(*lists[l]);
    }
}

static int clone_list(char ***dst, size_t *ndst, char *const *src, size_t n)
{
    *dst = NULL;
    *ndst = 0;
    if (!n)
        return 0;
    *dst = calloc(n, sizeof **dst);
    if (!*dst)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!((*dst)[i] = strdup(src[i])))
            return -1;
        *ndst = i + 1;
    }
    return 0;
}

void foldsvg_options_free(foldsvg_options *o)
{
    if (!o)
        return;
    free_strings(o);
    free(o);
}

static int dup_into(char **dst, const char *src)
{
    if (!src) {
        *dst = NULL;
        return 0;
    }
    *dst = strdup(src);
    return *dst ? 0 : -1;
}

foldsvg_options *foldsvg_options_clone(const foldsvg_options *src)
{
    foldsvg_options *o = malloc(sizeof *o);
    if (!o)
        return NULL;
    *o = *src;
    o->base = o->strip = o->include = o->exclude = o->focus = o->skip_after = NULL;
    o->nbase = o->nstrip = o->ninclude = o->nexclude = o->nfocus = o->nskip_after = 0;
    char **strs[] = {&o->title,     &o->subtitle,    &o->countname, &o->nametype,
                     &o->notes,     &o->fonttype,    &o->nameattr,  &o->palette_map_path,
                     &o->id_prefix, &o->event_filter};
    int bad = 0;
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        bad |= dup_into(strs[i], *strs[i]);
    bad |= clone_list(&o->base, &o->nbase, src->base, src->nbase);
    bad |= clone_list(&o->strip, &o->nstrip, src->strip, src->nstrip);
    bad |= clone_list(&o->include, &o->ninclude, src->include, src->ninclude);
    bad |= clone_list(&o->exclude, &o->nexclude, src->exclude, src->nexclude);
    bad |= clone_list(&o->focus, &o->nfocus, src->focus, src->nfocus);
    bad |= clone_list(&o->skip_after, &o->nskip_after, src->skip_after, src->nskip_after);
    if (bad) {
        foldsvg_options_free(o);
        return NULL;
    }
    return o;
}

void foldsvg_options_set_warning_handler(foldsvg_options *o, foldsvg_warning_fn fn, void *user)
{
    if (!o)
        return;
    o->warn = fn;
    o->warn_user = user;
}

void foldsvg_options_set_progress_handler(foldsvg_options *o, foldsvg_progress_fn fn, void *user)
{
    if (!o)
        return;
    o->progress = fn;
    o->progress_user = user;
}

typedef enum kind { FLAG, VALUE } kind;

typedef foldsvg_status (*setter)(foldsvg_options *o, const char *name, const char *v,
                                 foldsvg_error *err);

typedef struct option_def {
    const char *name;
    kind kind;
    setter set;
    size_t offset; /* for the generic flag and string setters */
} option_def;

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

static foldsvg_status set_flag(foldsvg_options *o, const char *name, const char *v,
                               foldsvg_error *err);
static foldsvg_status set_string(foldsvg_options *o, const char *name, const char *v,
                                 foldsvg_error *err);

static int parse_uint(const char *v, unsigned long max, unsigned long *out)
{
    if (!v || !isdigit((unsigned char)v[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (errno || *end || x > max)
        return -1;
    *out = x;
    return 0;
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

static foldsvg_status set_colors(foldsvg_options *o, const char *name, const char *v,
                                 foldsvg_error *err)
{
    if (fs_palette_from_name(v, &o->palette) != 0)
        return bad_value(err, name, v,
                         "one of aqua, blue, green, hot, io, java, js, mem, orange, perl, "
                         "python, purple, red, rust, wakeup, yellow");
    o->palette_set = 1;
    return FOLDSVG_OK;
}

static foldsvg_status set_bgcolors(foldsvg_options *o, const char *name, const char *v,
                                   foldsvg_error *err)
{
    if (fs_background_parse(v, &o->bg) != 0)
        return bad_value(err, name, v, "yellow, blue, green, grey or #rrggbb");
    o->bg_set = 1;
    return FOLDSVG_OK;
}

static foldsvg_status set_rgb(foldsvg_options *o, const char *name, const char *v,
                              foldsvg_error *err)
{
    fs_rgb c;
    if (fs_rgb_parse_hex(v, &c) != 0)
        return bad_value(err, name, v, "a color #rrggbb");
    if (strcmp(name, "uicolor") == 0) {
        o->uicolor = c;
    } else if (strcmp(name, "search-color") == 0) {
        o->searchcolor = c;
    } else {
        o->strokecolor = c;
        o->stroke_set = 1;
    }
    return FOLDSVG_OK;
}

static foldsvg_status set_positive_int(foldsvg_options *o, const char *name, const char *v,
                                       foldsvg_error *err)
{
    unsigned long x;
    if (parse_uint(v, 1000000, &x) != 0 || x == 0)
        return bad_value(err, name, v, "a whole number from 1 to 1000000");
    if (strcmp(name, "fontsize") == 0)
        o->fontsize = (unsigned)x;
    else if (strcmp(name, "height") == 0)
        o->frameheight = (unsigned)x;
    else
        o->width = (unsigned)x;
    return FOLDSVG_OK;
}

static foldsvg_status set_real(foldsvg_options *o, const char *name, const char *v,
                               foldsvg_error *err)
{
    double x;
    int ok = parse_double(v, &x) == 0;
    if (strcmp(name, "fontwidth") == 0) {
        if (!ok || x <= 0)
            return bad_value(err, name, v, "a number above 0");
        o->fontwidth = x;
    } else if (strcmp(name, "minwidth") == 0) {
        if (!ok || x < 0)
            return bad_value(err, name, v, "a percentage of 0 or more");
        o->minwidth = x;
    } else {
        if (!ok || x <= 0)
            return bad_value(err, name, v, "a number above 0");
        o->factor = x;
    }
    return FOLDSVG_OK;
}

static foldsvg_status push(char ***list, size_t *n, const char *v, foldsvg_error *err)
{
    char **nl = realloc(*list, (*n + 1) * sizeof *nl);
    if (!nl)
        return nomem(err);
    *list = nl;
    if (!(nl[*n] = strdup(v)))
        return nomem(err);
    (*n)++;
    return FOLDSVG_OK;
}

static foldsvg_status set_base(foldsvg_options *o, const char *name, const char *v,
                               foldsvg_error *err)
{
    (void)name;
    return push(&o->base, &o->nbase, v, err);
}

static foldsvg_status set_skip_after(foldsvg_options *o, const char *name, const char *v,
                                     foldsvg_error *err)
{
    (void)name;
    return push(&o->skip_after, &o->nskip_after, v, err);
}

/* perf script: --all is --kernel and --jit. */
static foldsvg_status set_all(foldsvg_options *o, const char *name, const char *v,
                              foldsvg_error *err)
{
    (void)name;
    (void)v;
    (void)err;
    o->perf_kernel = o->perf_jit = 1;
    return FOLDSVG_OK;
}

/* Patterns are compiled here once to reject bad ones early (exit 2, nothing written). */
static foldsvg_status set_pattern(foldsvg_options *o, const char *name, const char *v,
                                  foldsvg_error *err)
{
    foldsvg_status st = fs_filter_check_pattern(name, v, err);
    if (st)
        return st;
    if (strcmp(name, "strip") == 0)
        return push(&o->strip, &o->nstrip, v, err);
    if (strcmp(name, "include") == 0)
        return push(&o->include, &o->ninclude, v, err);
    if (strcmp(name, "exclude") == 0)
        return push(&o->exclude, &o->nexclude, v, err);
    return push(&o->focus, &o->nfocus, v, err);
}

static foldsvg_status set_top(foldsvg_options *o, const char *name, const char *v,
                              foldsvg_error *err)
{
    unsigned long x;
    if (parse_uint(v, 1000000000UL, &x) != 0 || x == 0)
        return bad_value(err, name, v, "a number of rows, 1 or more");
    o->top = x;
    return FOLDSVG_OK;
}

static foldsvg_status set_top_format(foldsvg_options *o, const char *name, const char *v,
                                     foldsvg_error *err)
{
    if (strcmp(v, "text") == 0)
        o->top_format = FOLDSVG_TOP_TEXT;
    else if (strcmp(v, "markdown") == 0)
        o->top_format = FOLDSVG_TOP_MARKDOWN;
    else if (strcmp(v, "json") == 0)
        o->top_format = FOLDSVG_TOP_JSON;
    else
        return bad_value(err, name, v, "text, markdown or json");
    return FOLDSVG_OK;
}

static foldsvg_status set_per(foldsvg_options *o, const char *name, const char *v,
                              foldsvg_error *err)
{
    unsigned long x;
    if (parse_uint(v, ULONG_MAX, &x) != 0 || x == 0)
        return bad_value(err, name, v, "a whole number, 1 or more");
    o->per = x;
    return FOLDSVG_OK;
}

/* SIZE[K|M|G] (binary units), as sort -S. */
static foldsvg_status set_sort_buffer(foldsvg_options *o, const char *name, const char *v,
                                      foldsvg_error *err)
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
        return bad_value(err, name, v, "a size of 1K or more, as 64M or 2G");
    o->sort_buffer = (size_t)(x << shift);
    return FOLDSVG_OK;
}

static foldsvg_status set_id_prefix(foldsvg_options *o, const char *name, const char *v,
                                    foldsvg_error *err)
{
    /* The prefix becomes part of XML ids and CSS selectors: keep it to characters that
     * need no escaping in either. */
    int ok = isalpha((unsigned char)v[0]) && strlen(v) <= 64;
    for (const char *p = v; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_' || *p == '-';
    if (!ok)
        return bad_value(err, name, v, "a letter followed by letters, digits, '_' or '-'");
    return set_string(o, name, v, err);
}

static foldsvg_status set_thread(foldsvg_options *o, const char *name, const char *v,
                                 foldsvg_error *err)
{
    unsigned long x;
    if (parse_uint(v, 1000000000UL, &x) != 0)
        return bad_value(err, name, v, "a thread index (0, 1, ...; see --list-threads)");
    o->thread = (long)x;
    return FOLDSVG_OK;
}

static foldsvg_status set_weight(foldsvg_options *o, const char *name, const char *v,
                                 foldsvg_error *err)
{
    if (strcmp(v, "auto") == 0)
        o->weight_samples = 0;
    else if (strcmp(v, "samples") == 0)
        o->weight_samples = 1;
    else
        return bad_value(err, name, v, "auto or samples");
    return FOLDSVG_OK;
}

#define OFF(field) offsetof(foldsvg_options, field)

static const option_def options[] = {
    {"title", VALUE, set_string, OFF(title)},
    {"subtitle", VALUE, set_string, OFF(subtitle)},
    {"countname", VALUE, set_string, OFF(countname)},
    {"nametype", VALUE, set_string, OFF(nametype)},
    {"notes", VALUE, set_string, OFF(notes)},
    {"colors", VALUE, set_colors, 0},
    {"bgcolors", VALUE, set_bgcolors, 0},
    {"hash", FLAG, set_flag, OFF(hash)},
    {"deterministic", FLAG, set_flag, OFF(deterministic)},
    {"cp", FLAG, set_flag, OFF(cp)},
    {"colordiffusion", FLAG, set_flag, OFF(colordiffusion)},
    {"uicolor", VALUE, set_rgb, 0},
    {"search-color", VALUE, set_rgb, 0},
    {"stroke-color", VALUE, set_rgb, 0},
    {"fonttype", VALUE, set_string, OFF(fonttype)},
    {"fontsize", VALUE, set_positive_int, 0},
    {"fontwidth", VALUE, set_real, 0},
    {"height", VALUE, set_positive_int, 0},
    {"width", VALUE, set_positive_int, 0},
    {"minwidth", VALUE, set_real, 0},
    {"inverted", FLAG, set_flag, OFF(inverted)},
    {"truncate-text-right", FLAG, set_flag, OFF(truncate_text_right)},
    {"reverse", FLAG, set_flag, OFF(reverse)},
    {"flamechart", FLAG, set_flag, OFF(flamechart)},
    {"no-sort", FLAG, set_flag, OFF(no_sort)},
    {"negate", FLAG, set_flag, OFF(negate)},
    {"factor", VALUE, set_real, 0},
    {"base", VALUE, set_base, 0},
    {"nameattr", VALUE, set_string, OFF(nameattr)},
    {"palette-map", VALUE, set_string, OFF(palette_map_path)},
    {"pretty-xml", FLAG, set_flag, OFF(pretty_xml)},
    {"no-javascript", FLAG, set_flag, OFF(no_javascript)},
    {"id-prefix", VALUE, set_id_prefix, OFF(id_prefix)},
    {"thread", VALUE, set_thread, 0},
    {"weight", VALUE, set_weight, 0},
    {"strip", VALUE, set_pattern, 0},
    {"strip-rust-hash", FLAG, set_flag, OFF(strip_rust_hash)},
    {"include", VALUE, set_pattern, 0},
    {"exclude", VALUE, set_pattern, 0},
    {"focus", VALUE, set_pattern, 0},
    {"collapse-recursion", FLAG, set_flag, OFF(collapse_recursion)},
    {"top", VALUE, set_top, 0},
    {"top-format", VALUE, set_top_format, 0},
    {"per", VALUE, set_per, 0},
    {"sort-buffer", VALUE, set_sort_buffer, 0},
    {"pid", FLAG, set_flag, OFF(perf_pid)},
    {"tid", FLAG, set_flag, OFF(perf_tid)},
    {"kernel", FLAG, set_flag, OFF(perf_kernel)},
    {"jit", FLAG, set_flag, OFF(perf_jit)},
    {"all", FLAG, set_all, 0},
    {"addrs", FLAG, set_flag, OFF(perf_addrs)},
    {"event-filter", VALUE, set_string, OFF(event_filter)},
    {"skip-after", VALUE, set_skip_after, 0},
};

static const option_def *find(const char *name)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

static foldsvg_status set_flag(foldsvg_options *o, const char *name, const char *v,
                               foldsvg_error *err)
{
    (void)v;
    const option_def *d = find(name);
    if (!d)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "unknown option --%s", name);
    *(int *)(void *)((char *)o + d->offset) = 1;
    return FOLDSVG_OK;
}

static foldsvg_status set_string(foldsvg_options *o, const char *name, const char *v,
                                 foldsvg_error *err)
{
    const option_def *d = find(name);
    if (!d)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "unknown option --%s", name);
    char **slot = (char **)(void *)((char *)o + d->offset);
    char *copy = strdup(v);
    if (!copy)
        return nomem(err);
    free(*slot);
    *slot = copy;
    return FOLDSVG_OK;
}

int foldsvg_option_takes_value(const char *name)
{
    const option_def *d = name ? find(name) : NULL;
    return d ? d->kind == VALUE : -1;
}

foldsvg_status foldsvg_options_set(foldsvg_options *o, const char *name, const char *value,
                                   foldsvg_error *err)
{
    if (!o || !name)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set: NULL argument");
    const option_def *d = find(name);
    if (!d)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "unknown option --%s", name);
    if (d->kind == VALUE && !value)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "option --%s needs a value", name);
    if (d->kind == FLAG && value)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "option --%s takes no value", name);
    return d->set(o, name, value, err);
}

foldsvg_status foldsvg_options_check(const foldsvg_options *o, foldsvg_error *err)
{
    if (!o)
        return FOLDSVG_OK;
    static const struct {
        size_t a, b;
        const char *na, *nb;
    } conflicts[] = {
        {OFF(reverse), OFF(no_sort), "reverse", "no-sort"},
        {OFF(flamechart), OFF(no_sort), "flamechart", "no-sort"},
        {OFF(reverse), OFF(flamechart), "reverse", "flamechart"},
        {OFF(hash), OFF(deterministic), "hash", "deterministic"},
        {OFF(colordiffusion), OFF(palette_set), "colordiffusion", "colors"},
    };
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++) {
        int a = *(const int *)(const void *)((const char *)o + conflicts[i].a);
        int b = *(const int *)(const void *)((const char *)o + conflicts[i].b);
        if (a && b)
            return fs_error(err, FOLDSVG_E_USAGE, NULL,
                            "--%s cannot be used with --%s: drop one of them", conflicts[i].na,
                            conflicts[i].nb);
    }
    return FOLDSVG_OK;
}
