/* The registry of input formats (parse/reader.h says what each provides), which lib/ walks
 * to read any input: it never names a format.
 *
 * Adding a format (say perf script output): one file, parse/perf.c, with its detect and read
 * functions (and its options struct, if it has settings, as a member of fs_input_opts in
 * parse/reader.h); one row in fs_formats (parse/format.c), before the formats it must be told
 * apart from, with an adapter when its functions take their own options struct; its option
 * rows in src/lib/options.c, writing into fs_input_opts. Nothing in fold/, render/ or lib/
 * changes. */
#ifndef FOLDSVG_PARSE_FORMAT_H
#define FOLDSVG_PARSE_FORMAT_H

#include "foldsvg.h"
#include "parse/input.h"
#include "parse/reader.h"

/* The registry, NULL-terminated, in the order formats are tried: the first whose detect
 * says yes reads the input. Folded text, which takes anything, comes last. */
extern const fs_format *const fs_formats[];

/* The format of IN, from its first decoded bytes (read ahead: nothing is consumed). */
foldsvg_status fs_format_detect(fs_input *in, const fs_format **out, foldsvg_error *err);

#endif
