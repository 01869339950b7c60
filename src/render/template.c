#include "render/template.h"

#include <string.h>

static const char *lookup(const fs_template_var *vars, size_t nvars, const char *name, size_t len)
{
    for (size_t i = 0; i < nvars; i++)
        if (strlen(vars[i].name) == len && memcmp(vars[i].name, name, len) == 0)
            return vars[i].value ? vars[i].value : "";
    return "";
}

/* The first PAT (2 bytes) in S[0..n), or NULL. */
static const char *find2(const char *s, size_t n, const char *pat)
{
    for (const char *p = s; (p = memchr(p, pat[0], n - (size_t)(p - s))) != NULL; p++)
        if ((size_t)(p - s) + 1 < n && p[1] == pat[1])
            return p;
    return NULL;
}

foldsvg_status fs_template_expand(fs_buf *out, const char *tpl, size_t n,
                                  const fs_template_var *vars, size_t nvars)
{
    size_t i = 0;
    int skipping = 0; /* inside a section whose name is empty: nothing is written */
    while (i < n) {
        const char *open = find2(tpl + i, n - i, "{{");
        size_t at = open ? (size_t)(open - tpl) : n;
        if (!skipping)
            fs_buf_append(out, tpl + i, at - i);
        if (at == n)
            break;
        const char *close = find2(tpl + at + 2, n - at - 2, "}}");
        if (!close) { /* not a hole: the rest is text */
            if (!skipping)
                fs_buf_append(out, tpl + at, n - at);
            break;
        }
        const char *name = tpl + at + 2;
        size_t len = (size_t)(close - name);
        if (name[0] == '#' || name[0] == '/') {
            const char *v = lookup(vars, nvars, name + 1, len - 1);
            skipping = name[0] == '#' && !*v;
        } else if (name[0] != '!' && !skipping) {
            fs_buf_puts(out, lookup(vars, nvars, name, len));
        }
        i = (size_t)(close - tpl) + 2;
    }
    return fs_buf_status(out);
}
