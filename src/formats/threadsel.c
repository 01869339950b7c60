#include "formats/threadsel.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
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

/* "0 'main', 2 'worker'": the threads WHICH picks (NULL: all), ten at most. */
static void list_names(size_t n, const char *const *names, const uint8_t *which, fs_buf *b)
{
    size_t shown = 0, left = 0;
    for (size_t i = 0; i < n; i++) {
        if (which && !which[i])
            continue;
        if (shown == 10) {
            left++;
            continue;
        }
        fs_buf_printf(b, "%s%zu '%s'", shown ? ", " : "", i, names[i] ? names[i] : "");
        shown++;
    }
    if (left)
        fs_buf_printf(b, " and %zu more", left);
}

static foldsvg_status pick_values(fs_threadsel *s, size_t n, const char *const *names,
                                  uint8_t *picked, const char *file, foldsvg_error *err)
{
    for (size_t i = 0; i < n; i++) {
        int r = fs_threadsel_picks(s, i, names[i]);
        if (r == -2) {
            const char *value, *limit = fs_threadsel_limit(s, &value);
            return fs_error(err, FOLDSVG_E_LIMIT, file,
                            "--thread '%s' hit PCRE2's %s on the name of thread %zu, so whether "
                            "it picks the thread is unknown; simplify the pattern",
                            value, limit, i);
        }
        if (r < 0)
            return fs_error(err, FOLDSVG_E_NOMEM, file,
                            "--thread: matching the name of thread %zu failed (out of memory)", i);
        picked[i] = (uint8_t)r;
    }
    long index;
    const char *v = fs_threadsel_unused(s, &index);
    if (!v)
        return FOLDSVG_OK;
    if (!n)
        return fs_error(err, FOLDSVG_E_USAGE, file, "--thread %s: the profile has no threads", v);
    if (index >= 0)
        return fs_error(err, FOLDSVG_E_USAGE, file,
                        "--thread %ld: the profile has %zu threads (0..%zu)", index, n, n - 1);
    fs_buf list = {0};
    list_names(n, names, NULL, &list);
    foldsvg_status st = fs_error(err, FOLDSVG_E_USAGE, file,
                                 "--thread '%s': no thread's name %s; the threads are %s", v,
                                 v[0] == '/' ? "matches" : "is that", fs_buf_str(&list));
    fs_buf_free(&list);
    return st;
}

foldsvg_status fs_threadsel_pick(fs_threadsel *s, size_t n, const char *const *names,
                                 const uint8_t *with, int one, uint8_t **picked, const char *file,
                                 foldsvg_error *err)
{
    *picked = NULL;
    if (!fs_threadsel_some(s) && !one)
        return FOLDSVG_OK;
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    memset(p, 1, n ? n : 1);
    foldsvg_status st = fs_threadsel_some(s) ? pick_values(s, n, names, p, file, err) : FOLDSVG_OK;
    size_t k = 0;
    for (size_t i = 0; st == FOLDSVG_OK && one && i < n; i++) {
        p[i] = p[i] && (!with || with[i]);
        k += p[i];
    }
    if (st == FOLDSVG_OK && k > 1) {
        fs_buf list = {0};
        list_names(n, names, p, &list);
        st = fs_error(err, FOLDSVG_E_USAGE, file,
                      "--flamechart draws one thread's samples in their order, and %zu threads "
                      "have samples (%s): choose one with --thread (an index, a name or /REGEX/; "
                      "see --list-threads)",
                      k, fs_buf_str(&list));
        fs_buf_free(&list);
    }
    if (st) {
        free(p);
        return st;
    }
    *picked = p;
    return FOLDSVG_OK;
}
