#include "transform/fracsum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "transform/sanitize.h"
#include "util/error.h"
#include "util/grow.h"

struct fs_fracsum_entry {
    char *key; /* the sanitized folded path */
    size_t len;
    int unknown;
    int64_t wi;
    double hi, lo;
};

static size_t hash_bytes(const char *s, size_t n, int unknown)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ (uint64_t)unknown;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return (size_t)h;
}

static void frac_add(double *hi, double *lo, double x)
{
    double t = *hi + x;
    if (fabs(*hi) >= fabs(x))
        *lo += (*hi - t) + x;
    else
        *lo += (x - t) + *hi;
    *hi = t;
}

static foldsvg_status nomem(const char *file, foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
}

static foldsvg_status grow_table(fs_fracsum *m, const char *file, foldsvg_error *err)
{
    size_t nc = m->cap ? m->cap * 2 : 256;
    fs_fracsum_entry *ne = calloc(nc, sizeof *ne);
    if (!ne)
        return nomem(file, err);
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->e[i].key)
            continue;
        size_t h = hash_bytes(m->e[i].key, m->e[i].len, m->e[i].unknown) & (nc - 1);
        while (ne[h].key)
            h = (h + 1) & (nc - 1);
        ne[h] = m->e[i];
    }
    free(m->e);
    m->e = ne;
    m->cap = nc;
    return FOLDSVG_OK;
}

foldsvg_status fs_fracsum_add(fs_fracsum *m, const fs_strref *fr, size_t n, const fs_weight *w,
                              const char *file, foldsvg_error *err)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += fr[i].len + (i > 0);
    if (fs_grow(&m->buf, &m->bcap, len + 1, 1, 64) != FOLDSVG_OK)
        return nomem(file, err);
    size_t k = 0, nonempty = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            m->buf[k++] = ';';
        size_t nk = fs_sanitize_name(m->buf + k, fr[i].ptr, fr[i].len);
        nonempty += nk > 0;
        k += nk;
    }
    /* a stack of empty names is "[unknown]" (transform/sanitize.h) */
    int unknown = nonempty == 0;
    len = unknown ? 0 : k;
    if ((m->n + 1) * 2 > m->cap)
        FS_FORWARD_IF_ERROR(grow_table(m, file, err));
    size_t h = hash_bytes(m->buf, len, unknown) & (m->cap - 1);
    while (m->e[h].key && !(m->e[h].len == len && m->e[h].unknown == unknown &&
                            memcmp(m->e[h].key, m->buf, len) == 0))
        h = (h + 1) & (m->cap - 1);
    fs_fracsum_entry *e = &m->e[h];
    if (!e->key) {
        if (!(e->key = malloc(len + 1)))
            return nomem(file, err);
        memcpy(e->key, m->buf, len);
        e->key[len] = '\0';
        e->len = len;
        e->unknown = unknown;
        m->n++;
    }
    int64_t wi = w->whole;
    if ((wi > 0 && e->wi > INT64_MAX - wi) || (wi < 0 && e->wi < INT64_MIN - wi))
        return fs_error(err, FOLDSVG_E_OVERFLOW, file, "a stack's weight overflows 64 bits");
    e->wi += wi;
    frac_add(&e->hi, &e->lo, w->hi);
    frac_add(&e->hi, &e->lo, w->lo);
    return FOLDSVG_OK;
}

/* Half up: floor(wi + hi + lo + 1/2), with hi + lo split to stay exact-ish. */
static double rounded(const fs_fracsum_entry *e)
{
    double k = floor(e->hi);
    double rem = (e->hi - k) + e->lo;
    double kk = floor(rem);
    k += kk;
    rem -= kk;
    return (double)e->wi + k + (rem >= 0.5 ? 1.0 : 0.0);
}

foldsvg_status fs_fracsum_flush(fs_fracsum *m, fs_fracsum_fn fn, void *user, const char *file,
                                foldsvg_error *err)
{
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < m->cap && !st; i++) {
        fs_fracsum_entry *e = &m->e[i];
        if (!e->key)
            continue;
        double total = rounded(e);
        if (total < 0 || total >= 9.2e18) {
            st = fs_error(err, FOLDSVG_E_PARSE, file,
                          "the weights of stack \"%.200s\" sum to %g, which is not a count", e->key,
                          total);
            break;
        }
        uint64_t count = (uint64_t)total;
        if (count == 0)
            continue;
        size_t n = 0;
        if (!e->unknown) {
            n = 1;
            for (size_t j = 0; j < e->len; j++)
                n += e->key[j] == ';';
        }
        if (FS_GROW(m->frames, m->frames_cap, n, 16) != FOLDSVG_OK) {
            st = nomem(file, err);
            break;
        }
        size_t a = 0, f = 0;
        for (size_t j = 0; n && j <= e->len; j++) {
            if (j == e->len || e->key[j] == ';') {
                m->frames[f].ptr = e->key + a;
                m->frames[f++].len = j - a;
                a = j + 1;
            }
        }
        st = fn(user, m->frames, n, count, err);
    }
    for (size_t i = 0; i < m->cap; i++)
        free(m->e[i].key);
    free(m->e);
    m->e = NULL;
    m->cap = m->n = 0;
    return st;
}

void fs_fracsum_free(fs_fracsum *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->e[i].key);
    free(m->e);
    free(m->buf);
    free(m->frames);
    memset(m, 0, sizeof *m);
}
