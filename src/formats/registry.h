/* The registry of input formats (formats/reader.h says what each provides), which lib/ walks
 * to read any input: it never names a format.
 *
 * Adding a format, say perf script output, is one file and two tables:
 *  - formats/perf/perf.c with its detect and read functions; a settings struct, if it has one, is a
 *    member of fs_input_opts (formats/reader.h);
 *  - one row in fs_formats (formats/registry.c), before the formats it must be told apart from
 *    (folded text takes anything, so before it), with adapters when its functions have
 *    their own signatures: a detector that needs a whole first line returns -1 until HEAD
 *    holds a newline (or COMPLETE says no more will come), and the reader gets its member of
 *    fs_input_opts;
 *  - its option rows in src/api/optrow.c (stage "input", writing into that member; a new
 *    --help group is one more entry in the groups table there).
 * Nothing in fold/, render/ or lib/ changes: its stacks (sink->stack, raw frames, root first)
 * are sanitized and transformed by the stack pipeline like every other structured input. */
#ifndef FOLDSVG_FORMATS_REGISTRY_H
#define FOLDSVG_FORMATS_REGISTRY_H

#include "foldsvg.h"
#include "formats/reader.h"
#include "input/input.h"

/* The registry, NULL-terminated, in the order formats are tried: the first whose detect
 * says yes reads the input. Folded text, which takes anything, comes last. */
extern const fs_format *const fs_formats[];

/* F's bit in a set of formats: 1 << its index in fs_formats. */
unsigned fs_format_bit(const fs_format *f);

/* The format of IN, from its first decoded bytes (read ahead: nothing is consumed). A
 * format foldsvg does not read (FS_FORMAT_FOREIGN) is FOLDSVG_E_PARSE naming it. */
foldsvg_status fs_format_detect(fs_input *in, const fs_format **out, foldsvg_error *err);

#endif
