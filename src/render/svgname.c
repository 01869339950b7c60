#include "render/svgname.h"

#include <libxml/entities.h>
#include <libxml/globals.h>
#include <stdlib.h>
#include <string.h>

#include "render/xmltext.h"

foldsvg_status fs_svgnames_init(fs_svgnames *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    if (n == 0)
        return FOLDSVG_OK;
    t->e = calloc(n, sizeof *t->e);
    if (!t->e)
        return FOLDSVG_E_NOMEM;
    t->n = n;
    return FOLDSVG_OK;
}

void fs_svgnames_free(fs_svgnames *t)
{
    free(t->e);
    fs_buf_free(&t->arena);
    fs_buf_free(&t->scratch);
    memset(t, 0, sizeof *t);
}

foldsvg_status fs_xml_escape_text(fs_buf *out, fs_buf *scratch, const char *s, size_t n)
{
    fs_buf_clear(scratch);
    /* cleaned text holds no NUL (not an XML Char): the escaper's NUL-terminated input is
     * all of it */
    if (fs_xml_clean(scratch, s, n) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    xmlChar *esc = xmlEncodeSpecialChars(NULL, (const xmlChar *)fs_buf_str(scratch));
    if (!esc)
        return FOLDSVG_E_NOMEM;
    foldsvg_status st = fs_buf_append(out, esc, strlen((const char *)esc));
    xmlFree(esc);
    return st;
}

/* Whether the escaper leaves S[0..n) as it is. */
static int escapes_nothing(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '<' || ch == '>' || ch == '&' || ch == '"' || ch == '\r')
            return 0;
    }
    return 1;
}

foldsvg_status fs_svgnames_fill(fs_svgnames *t, uint32_t id, const char *s, size_t n)
{
    fs_svgname *e = &t->e[id];
    if (n <= UINT32_MAX && escapes_nothing(s, n) && fs_xml_is_clean(s, n)) {
        e->len = (uint32_t)n;
        e->plain = 1;
        e->own = 0;
        e->filled = 1;
        return FOLDSVG_OK;
    }
    size_t off = t->arena.len;
    if (fs_xml_escape_text(&t->arena, &t->scratch, s, n) != FOLDSVG_OK || off > UINT32_MAX ||
        t->arena.len - off > UINT32_MAX)
        return FOLDSVG_E_NOMEM;
    e->off = (uint32_t)off;
    e->len = (uint32_t)(t->arena.len - off);
    /* escaping only lengthens: the same length is the same bytes */
    e->plain = e->len == t->scratch.len;
    e->own = 1;
    e->filled = 1;
    return FOLDSVG_OK;
}
