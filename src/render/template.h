/* Text assets with holes (such as src/render/assets/flamegraph.css): {{name}} is replaced by the
 * value of NAME; {{#name}}...{{/name}} is kept only when NAME's value is not empty; {{! ... }} is a
 * comment and leaves nothing. A name without a value expands to nothing. */
#ifndef FOLDSVG_RENDER_TEMPLATE_H
#define FOLDSVG_RENDER_TEMPLATE_H

#include <stddef.h>

#include "util/buf.h"

typedef struct fs_template_var {
    const char *name;
    const char *value;
} fs_template_var;

/* Appends TPL[0..n) expanded with VARS[0..nvars) to OUT. FOLDSVG_E_NOMEM (OUT failed). */
foldsvg_status fs_template_expand(fs_buf *out, const char *tpl, size_t n,
                                  const fs_template_var *vars, size_t nvars);

#endif
