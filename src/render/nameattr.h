/* --nameattr FILE: extra attributes for the frames of some function names (inferno's
 * FuncFrameAttrsMap).
 *
 * File format: one function per line, `NAME<TAB>key=value<TAB>key=value...`. The line
 * ending ("\n", "\r\n") and trailing ASCII whitespace are removed; the name is the text
 * before the first tab, byte for byte (an empty name, or an empty line, is skipped). Each
 * tab-separated attribute is split at its first '='. Keys: title (replaces the tooltip);
 * href (written xlink:href: the frame becomes an <a>); id, class, target, style, onclick,
 * onmouseover, onmouseout (written as they are); g_extra and a_extra, which hold
 * space-separated `k=v` pairs whose values may be double-quoted (the quotes are removed; a
 * quoted value may contain spaces). As in inferno, all of a name's attributes form one set
 * on its frame's element, whichever key gave them: a repeated attribute keeps one place and
 * the later value (lines for one name merge), and a link without a target gets
 * target="_top". Empty attributes are skipped; an unknown key, an attribute without '=', and
 * an extra pair that the SVG could not carry and stay well-formed (not an XML name, a
 * namespace declaration, a prefix other than xlink, xml and fg) are reported to the warning
 * handler and ignored. */
#ifndef FOLDSVG_RENDER_NAMEATTR_H
#define FOLDSVG_RENDER_NAMEATTR_H

#include <stddef.h>

#include "foldsvg.h"

typedef struct fs_attr_pair {
    char *key;
    char *value;
} fs_attr_pair;

/* The attributes of one name. Strings are NUL-terminated; TITLE NULL means "not given".
 * ATTRS are the element's attributes, keys unique, in the order each key first came. */
typedef struct fs_nameattr {
    char *title;
    fs_attr_pair *attrs;
    size_t nattrs;
} fs_nameattr;

/* The value of attribute KEY (e.g. "xlink:href": the frame is a link), or NULL. */
const char *fs_nameattr_value(const fs_nameattr *a, const char *key);

typedef struct fs_nameattr_map fs_nameattr_map;

/* An empty map, or NULL when out of memory. */
fs_nameattr_map *fs_nameattr_new(void);
/* NULL is fine. */
void fs_nameattr_free(fs_nameattr_map *m);

/* Adds the lines of the file PATH. FOLDSVG_E_IO (err->file = PATH) when it cannot be opened or
 * read, FOLDSVG_E_NOMEM. Warnings (code FOLDSVG_E_PARSE, with file and line) go to WARN,
 * which may be NULL. */
foldsvg_status fs_nameattr_load(fs_nameattr_map *m, const char *path, foldsvg_warning_fn warn,
                                void *user, foldsvg_error *err);
/* The same for the text DATA[0..len); NAME (may be NULL) is the file named in warnings. */
foldsvg_status fs_nameattr_parse(fs_nameattr_map *m, const char *data, size_t len, const char *name,
                                 foldsvg_warning_fn warn, void *user, foldsvg_error *err);

/* The attributes of the raw frame name NAME[0..len), or NULL when it has none. */
const fs_nameattr *fs_nameattr_get(const fs_nameattr_map *m, const char *name, size_t len);
/* How many names have attributes. */
size_t fs_nameattr_size(const fs_nameattr_map *m);

#endif
