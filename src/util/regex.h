/* The one way foldsvg compiles and matches PCRE2 patterns: UTF mode with
 * PCRE2_MATCH_INVALID_UTF (names that are not valid UTF-8 never make a match fail: invalid
 * sequences simply match nothing), JIT when the library has it, and errors that quote the
 * pattern with PCRE2's message and offset. The stack filters (fold/filter.c) and the rules
 * of the findings (render/findings.c) use it. */
#ifndef FOLDSVG_UTIL_REGEX_H
#define FOLDSVG_UTIL_REGEX_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

#include "foldsvg.h"

/* Compiles PATTERN (EXTRA: more PCRE2 compile options, e.g. PCRE2_CASELESS) into *OUT, JIT
 * compiled when possible. WHAT names it in the error, as "--WHAT 'PATTERN': ...":
 * FOLDSVG_E_USAGE (a bad pattern) or FOLDSVG_E_NOMEM. */
foldsvg_status fs_regex_compile(pcre2_code **out, const char *what, const char *pattern,
                                uint32_t extra, foldsvg_error *err);

/* Whether CODE matches somewhere in S[0..len), with MD (one ovector pair is enough) and MCTX
 * (may be NULL). 1 or 0; -1 when PCRE2 ran out of memory. Match or JIT stack limits count as
 * no match, so a name is treated the same way every time. */
int fs_regex_match(const pcre2_code *code, const char *s, size_t len, pcre2_match_data *md,
                   pcre2_match_context *mctx);

#endif
