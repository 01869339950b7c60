#include "render/nameattr.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

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
        free_pairs(a->attrs, a->nattrs);
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

const char *fs_nameattr_value(const fs_nameattr *a, const char *key)
{
    for (size_t i = 0; a && i < a->nattrs; i++)
        if (strcmp(a->attrs[i].key, key) == 0)
            return a->attrs[i].value;
    return NULL;
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

/* Why KEY cannot be an attribute of a frame's element in a well-formed SVG, or NULL. The
 * document declares the xlink and fg prefixes (xml is predefined); a namespace declaration
 * of the file's own would change what the names around it mean. */
static const char *bad_key(const char *key)
{
    if (xmlValidateQName((const xmlChar *)key, 0) != 0)
        return "attribute that is not an XML name";
    const char *colon = strchr(key, ':');
    if (strcmp(key, "xmlns") == 0 || strncmp(key, "xmlns:", 6) == 0)
        return "namespace declaration";
    if (colon && !((colon - key == 5 && memcmp(key, "xlink", 5) == 0) ||
                   (colon - key == 3 && memcmp(key, "xml", 3) == 0) ||
                   (colon - key == 2 && memcmp(key, "fg", 2) == 0)))
        return "attribute with an undeclared namespace prefix";
    return NULL;
}

/* Sets attribute K[0..kn) of A to V[0..vn): a new key goes last, a known one keeps its place
 * and takes the new value (inferno keeps one map per name). A key the SVG cannot carry
 * warns instead. FOLDSVG_E_NOMEM. */
static foldsvg_status put_attr(fs_nameattr *a, const na_ctx *ctx, const char *name, size_t nn,
                               const char *k, size_t kn, const char *v, size_t vn)
{
    for (size_t i = 0; i < a->nattrs; i++)
        if (strlen(a->attrs[i].key) == kn && memcmp(a->attrs[i].key, k, kn) == 0)
            return set_string(&a->attrs[i].value, v, vn);
    char *key = dup_bytes(k, kn);
    if (!key)
        return FOLDSVG_E_NOMEM;
    const char *why = bad_key(key);
    if (why) {
        warn_attr(ctx, why, k, kn, name, nn);
        free(key);
        return FOLDSVG_OK;
    }
    char *value = dup_bytes(v, vn);
    if (!value || a->nattrs == SIZE_MAX ||
        fs_resize(&a->attrs, a->nattrs + 1, sizeof *a->attrs) != FOLDSVG_OK) {
        free(key);
        free(value);
        return FOLDSVG_E_NOMEM;
    }
    a->attrs[a->nattrs++] = (fs_attr_pair){key, value};
    return FOLDSVG_OK;
}

/* g_extra / a_extra: `k=v k="v w" ...`. A value that starts with a quote runs to the next
 * quote; any other value runs to the next space and loses stray quotes at its ends, so
 * inferno's quote stripping and its quoted values with spaces both come out the same. */
static foldsvg_status parse_extra(fs_nameattr *a, const na_ctx *ctx, const char *name, size_t nn,
                                  const char *s, size_t len)
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
            FS_FORWARD_IF_ERROR(put_attr(a, ctx, name, nn, s + k0, kn, v, vn));
    }
    return FOLDSVG_OK;
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
    /* g_extra and a_extra both add to the one set (inferno); href is xlink:href. */
    static const char *const keys[] = {"title",   "g_extra",     "a_extra",   "href",
                                       "id",      "class",       "target",    "style",
                                       "onclick", "onmouseover", "onmouseout"};
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
    case 2:
        return parse_extra(at, ctx, name, nn, v, vn);
    case 3:
        return put_attr(at, ctx, name, nn, "xlink:href", 10, v, vn);
    default:
        return put_attr(at, ctx, name, nn, a, kn, v, vn);
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
    /* A link opens in the top window unless told otherwise, also inside an <object>
     * (inferno, flamegraph.pl); checked per line, as inferno does. */
    uint32_t e = fs_strmap_find(&m->names, s, nn);
    if (e != FS_STRMAP_NONE) {
        fs_nameattr *at = &m->attrs[e];
        if (fs_nameattr_value(at, "xlink:href") && !fs_nameattr_value(at, "target"))
            return put_attr(at, ctx, s, nn, "target", 6, "_top", 4);
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
