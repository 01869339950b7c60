#include "formats/threadsel.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/regex.h"

#define FS_THREAD_INDEX_MAX 1000000000L

typedef struct selector {
    const char *value; /* as given (points into the option's list) */
    long index;        /* >= 0: an index */
    pcre2_code *re;    /* else a regular expression, or else a name (value) */
    int used;
} selector;

struct fs_threadsel {
    selector *v;
    size_t n;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    int limit_rc;            /* the last limit hit */
    const char *limit_value; /* by this value */
};

static int is_index(const char *v)
{
    if (!*v)
        return 0;
    for (const char *p = v; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return 1;
}

/* /RE/ */
static int is_regex(const char *v)
{
    size_t n = strlen(v);
    return n >= 2 && v[0] == '/' && v[n - 1] == '/';
}

static foldsvg_status parse_one(const char *v, selector *s, foldsvg_error *err)
{
    memset(s, 0, sizeof *s);
    s->value = v;
    s->index = -1;
    if (is_index(v)) {
        errno = 0;
        long x = strtol(v, NULL, 10);
        if (errno || x > FS_THREAD_INDEX_MAX)
            return fs_error(err, FOLDSVG_E_USAGE, NULL,
                            "invalid value '%s' for --thread: a thread index is at most %ld", v,
                            FS_THREAD_INDEX_MAX);
        s->index = x;
        return FOLDSVG_OK;
    }
    if (!is_regex(v))
        return FOLDSVG_OK;
    size_t n = strlen(v) - 2;
    char *re = malloc(n + 1);
    if (!re)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    memcpy(re, v + 1, n);
    re[n] = '\0';
    foldsvg_status st = fs_regex_compile(&s->re, "thread", re, err);
    free(re);
    return st;
}

foldsvg_status fs_threadsel_check(const char *value, foldsvg_error *err)
{
    selector s;
    foldsvg_status st = parse_one(value, &s, err);
    pcre2_code_free(s.re);
    return st;
}

foldsvg_status fs_threadsel_new(fs_threadsel **out, const fs_strlist *values, foldsvg_error *err)
{
    *out = NULL;
    fs_threadsel *s = calloc(1, sizeof *s);
    if (!s || (values->n && !(s->v = calloc(values->n, sizeof *s->v)))) {
        free(s);
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    }
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < values->n && st == FOLDSVG_OK; i++) {
        st = parse_one(values->v[i], &s->v[i], err);
        s->n = i + 1;
        if (st == FOLDSVG_OK && s->v[i].re && !s->md &&
            (!(s->md = pcre2_match_data_create(1, NULL)) ||
             !(s->mctx = pcre2_match_context_create(NULL))))
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        if (st == FOLDSVG_OK && s->v[i].re)
            pcre2_jit_compile(s->v[i].re, PCRE2_JIT_COMPLETE); /* an optimization only */
    }
    if (st) {
        fs_threadsel_free(s);
        return st;
    }
    if (s->mctx)
        fs_regex_set_limits(s->mctx);
    *out = s;
    return FOLDSVG_OK;
}

void fs_threadsel_free(fs_threadsel *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        pcre2_code_free(s->v[i].re);
    pcre2_match_data_free(s->md);
    pcre2_match_context_free(s->mctx);
    free(s->v);
    free(s);
}

int fs_threadsel_some(const fs_threadsel *s)
{
    return s && s->n > 0;
}

int fs_threadsel_picks(fs_threadsel *s, size_t index, const char *name)
{
    if (!fs_threadsel_some(s))
        return 1;
    const char *nm = name ? name : "";
    int picked = 0;
    for (size_t i = 0; i < s->n; i++) {
        selector *v = &s->v[i];
        int hit;
        if (v->index >= 0) {
            hit = (size_t)v->index == index;
        } else if (v->re) {
            int rc = pcre2_match(v->re, (PCRE2_SPTR)nm, strlen(nm), 0, 0, s->md, s->mctx);
            if (fs_regex_is_limit(rc)) {
                s->limit_rc = rc;
                s->limit_value = v->value;
                return -2;
            }
            if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)
                return -1;
            hit = rc >= 0;
        } else {
            hit = strcmp(v->value, nm) == 0;
        }
        if (hit) {
            v->used = 1;
            picked = 1;
        }
    }
    return picked;
}

const char *fs_threadsel_unused(const fs_threadsel *s, long *index)
{
    for (size_t i = 0; s && i < s->n; i++) {
        if (!s->v[i].used) {
            *index = s->v[i].index;
            return s->v[i].value;
        }
    }
    *index = -1;
    return NULL;
}

const char *fs_threadsel_limit(const fs_threadsel *s, const char **value)
{
    *value = s->limit_value;
    return fs_regex_limit_name(s->limit_rc);
}
