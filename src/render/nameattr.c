#include "render/nameattr.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/strmap.h"

struct fs_nameattr_map {
    fs_strmap names; /* name -> its entry index, the index in ATTRS */
    fs_nameattr *attrs;
    size_t cap;
};

/* Where warnings go while one file is read. */
typedef struct na_ctx {
    const char *file;
    uint64_t line;
    foldsvg_warning_fn warn;
    void *user;
} na_ctx;

fs_nameattr_map *fs_nameattr_new(void)
{
    fs_nameattr_map *m = calloc(1, sizeof *m);
    if (m)
        fs_strmap_init(&m->names, FS_STRMAP_OWNED);
    return m;
}

static void free_pairs(fs_attr_pair *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].key);
        free(p[i].value);
    }
    free(p);
}

void fs_nameattr_free(fs_nameattr_map *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < fs_strmap_size(&m->names); i++) {
        fs_nameattr *a = &m->attrs[i];
        free(a->title);
        free(a->href);
        free(a->id);
        free(a->cls);
        free(a->target);
        free_pairs(a->g_extra, a->n_g_extra);
        free_pairs(a->a_extra, a->n_a_extra);
    }
    free(m->attrs);
    fs_strmap_free(&m->names);
    free(m);
}

size_t fs_nameattr_size(const fs_nameattr_map *m)
{
    return m ? fs_strmap_size(&m->names) : 0;
}

const fs_nameattr *fs_nameattr_get(const fs_nameattr_map *m, const char *name, size_t len)
{
    if (!m || (!name && len > 0))
        return NULL;
    uint32_t i = fs_strmap_find(&m->names, name, len);
    return i == FS_STRMAP_NONE ? NULL : &m->attrs[i];
}

static char *dup_bytes(const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *c = malloc(n + 1);
    if (!c)
        return NULL;
    if (n > 0)
        memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* The attributes of NAME, created empty when new; NULL when out of memory. */
static fs_nameattr *entry_for(fs_nameattr_map *m, const char *name, size_t len)
{
    uint32_t n = fs_strmap_size(&m->names);
    /* Room for the attributes first: once the map holds the name, its index must be valid. */
    if (FS_GROW(m->attrs, m->cap, (size_t)n + 1, 16) != FOLDSVG_OK)
        return NULL;
    uint32_t i;
    int added;
    if (fs_strmap_put(&m->names, name, len, 0, &i, &added) != FOLDSVG_OK)
        return NULL;
    if (added)
        memset(&m->attrs[i], 0, sizeof m->attrs[i]);
    return &m->attrs[i];
}

static foldsvg_status set_string(char **field, const char *v, size_t n)
{
    char *c = dup_bytes(v, n);
    if (!c)
        return FOLDSVG_E_NOMEM;
    free(*field);
    *field = c;
    return FOLDSVG_OK;
}

static foldsvg_status put_pair(fs_attr_pair **pairs, size_t *n, const char *k, size_t kn,
                               const char *v, size_t vn)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*pairs)[i].key) == kn && memcmp((*pairs)[i].key, k, kn) == 0)
            return set_string(&(*pairs)[i].value, v, vn);
    if (*n == SIZE_MAX || fs_resize(pairs, *n + 1, sizeof **pairs) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    fs_attr_pair *p = &(*pairs)[*n];
    p->key = dup_bytes(k, kn);
    p->value = dup_bytes(v, vn);
    if (!p->key || !p->value) {
        free(p->key);
        free(p->value);
        return FOLDSVG_E_NOMEM;
    }
    (*n)++;
    return FOLDSVG_OK;
}

/* g_extra / a_extra: `k=v k="v w" ...`. A value that starts with a quote runs to the next
 * quote; any other value runs to the next space and loses stray quotes at its ends, so
 * inferno's quote stripping and its quoted values with spaces both come out the same. */
static foldsvg_status parse_extra(fs_attr_pair **pairs, size_t *n, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && s[i] == ' ')
            i++;
        size_t k0 = i;
        while (i < len && s[i] != ' ' && s[i] != '=')
            i++;
        size_t kn = i - k0;
        if (i >= len || s[i] != '=') {
            continue; /* a word without '=' carries no attribute */
        }
        i++; /* '=' */
        const char *v;
        size_t vn;
        if (i < len && s[i] == '"') {
            const char *close = memchr(s + i + 1, '"', len - i - 1);
            v = s + i + 1;
            vn = close ? (size_t)(close - v) : len - i - 1;
            i = close ? (size_t)(close - s) + 1 : len;
        } else {
            v = s + i;
            while (i < len && s[i] != ' ')
                i++;
            vn = (size_t)(s + i - v);
            while (vn > 0 && v[0] == '"') {
                v++;
                vn--;
            }
            while (vn > 0 && v[vn - 1] == '"')
                vn--;
        }
        if (kn > 0)
            FS_FORWARD_IF_ERROR(put_pair(pairs, n, s + k0, kn, v, vn));
    }
    return FOLDSVG_OK;
}

static void warn_attr(const na_ctx *ctx, const char *what, const char *a, size_t an,
                      const char *name, size_t nn)
{
    if (!ctx->warn)
        return;
    foldsvg_error w;
    int ai = an > 200 ? 200 : (int)an, ni = nn > 200 ? 200 : (int)nn;
    fs_error_at_line(&w, FOLDSVG_E_PARSE, ctx->file, ctx->line, 0,
                     "nameattr: %s \"%.*s\" for \"%.*s\" ignored", what, ai, a, ni, name);
    ctx->warn(ctx->user, &w);
}

/* One attribute of NAME. FOLDSVG_E_NOMEM. */
static foldsvg_status add_attr(fs_nameattr_map *m, const na_ctx *ctx, const char *name, size_t nn,
                               const char *a, size_t an)
{
    const char *eq = memchr(a, '=', an);
    if (!eq) {
        warn_attr(ctx, "attribute without '='", a, an, name, nn);
        return FOLDSVG_OK;
    }
    size_t kn = (size_t)(eq - a);
    const char *v = eq + 1;
    size_t vn = an - kn - 1;
    static const char *const keys[] = {"title",  "href",    "id",     "class",
                                       "target", "g_extra", "a_extra"};
    size_t k = 0;
    while (k < sizeof keys / sizeof keys[0] &&
           !(strlen(keys[k]) == kn && memcmp(keys[k], a, kn) == 0))
        k++;
    if (k == sizeof keys / sizeof keys[0]) {
        warn_attr(ctx, "unknown attribute", a, kn, name, nn);
        return FOLDSVG_OK;
    }
    fs_nameattr *at = entry_for(m, name, nn);
    if (!at)
        return FOLDSVG_E_NOMEM;
    switch (k) {
    case 0:
        return set_string(&at->title, v, vn);
    case 1:
        return set_string(&at->href, v, vn);
    case 2:
        return set_string(&at->id, v, vn);
    case 3:
        return set_string(&at->cls, v, vn);
    case 4:
        return set_string(&at->target, v, vn);
    case 5:
        return parse_extra(&at->g_extra, &at->n_g_extra, v, vn);
    default:
        return parse_extra(&at->a_extra, &at->n_a_extra, v, vn);
    }
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* One line, its terminator included or not. FOLDSVG_E_NOMEM. */
static foldsvg_status add_line(fs_nameattr_map *m, const na_ctx *ctx, const char *s, size_t n)
{
    while (n > 0 && is_space(s[n - 1]))
        n--;
    const char *tab = memchr(s, '\t', n);
    size_t nn = tab ? (size_t)(tab - s) : n;
    if (nn == 0 || !tab)
        return FOLDSVG_OK; /* empty line, no name, or a name with no attributes */
    size_t i = nn + 1;
    while (i <= n) {
        const char *next = memchr(s + i, '\t', n - i);
        size_t end = next ? (size_t)(next - s) : n;
        if (end > i)
            FS_FORWARD_IF_ERROR(add_attr(m, ctx, s, nn, s + i, end - i));
        i = end + 1;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_nameattr_parse(fs_nameattr_map *m, const char *data, size_t len, const char *name,
                                 foldsvg_warning_fn warn, void *user, foldsvg_error *err)
{
    if (!m || (!data && len > 0))
        return fs_error(err, FOLDSVG_E_ARG, name, "nameattr: no map or no data");
    na_ctx ctx = {name, 0, warn, user};
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr(data + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - data) + 1 : len;
        ctx.line++;
        if (add_line(m, &ctx, data + start, end - start) != FOLDSVG_OK)
            return fs_error_at_line(err, FOLDSVG_E_NOMEM, name, ctx.line, 0,
                                    "out of memory reading the nameattr file");
        start = end;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_nameattr_load(fs_nameattr_map *m, const char *path, foldsvg_warning_fn warn,
                                void *user, foldsvg_error *err)
{
    if (!m || !path)
        return fs_error(err, FOLDSVG_E_ARG, path, "nameattr: no map or no path");
    FILE *f = fopen(path, "rb");
    if (!f)
        return fs_error(err, FOLDSVG_E_IO, path, "cannot open the --nameattr file: %s",
                        strerror(errno));
    na_ctx ctx = {path, 0, warn, user};
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    foldsvg_status st = FOLDSVG_OK;
    errno = 0;
    while ((got = getline(&line, &cap, f)) >= 0) {
        ctx.line++;
        if (add_line(m, &ctx, line, (size_t)got) != FOLDSVG_OK) {
            st = fs_error_at_line(err, FOLDSVG_E_NOMEM, path, ctx.line, 0,
                                  "out of memory reading the nameattr file");
            break;
        }
    }
    if (st == FOLDSVG_OK && ferror(f))
        st = fs_error(err, FOLDSVG_E_IO, path, "cannot read the --nameattr file: %s",
                      errno ? strerror(errno) : "read error");
    free(line);
    fclose(f);
    return st;
}
