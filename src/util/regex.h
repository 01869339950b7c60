/* The one way foldsvg compiles its regular expressions (PCRE2): a user's (every option that
 * takes one: the filters, --thread /RE/) and the fixed patterns of the findings' rules
 * (analysis/findings.c). UTF mode with PCRE2_MATCH_INVALID_UTF, so names that are not valid
 * UTF-8 never make a match fail (invalid sequences simply match nothing), and one message for
 * a bad pattern, naming the option. */
#ifndef FOLDSVG_UTIL_REGEX_H
#define FOLDSVG_UTIL_REGEX_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

/* *OUT: PATTERN compiled (free with pcre2_code_free), or NULL and FOLDSVG_E_USAGE ("--FLAG
 * 'PATTERN': invalid regular expression: ... at offset N") or FOLDSVG_E_NOMEM. */
foldsvg_status fs_regex_compile(pcre2_code **out, const char *flag, const char *pattern,
                                foldsvg_error *err);

/* The limits every match of a user's pattern runs under. PCRE2's own default step limit
 * (what grep -P runs with): tens of milliseconds on a name; a linear pattern needs a few
 * steps a byte, so only names of megabytes with patterns that backtrack near them. The depth
 * and heap limits bind the interpreter (no JIT): PCRE2's heap default is 20 GB. */
enum {
    FS_REGEX_MATCH_LIMIT = 10000000,
    FS_REGEX_DEPTH_LIMIT = 10000000,
    FS_REGEX_HEAP_LIMIT_KIB = 64 << 10,
};
/* Sets them on M. */
void fs_regex_set_limits(pcre2_match_context *m);
/* Whether pcre2_match's RC says a limit was hit (the verdict is unknown, not "no match"),
 * and which one, in words ("match (backtracking) limit"). */
int fs_regex_is_limit(int rc);
const char *fs_regex_limit_name(int rc);

/* The same with more compile options (EXTRA, e.g. PCRE2_CASELESS), JIT compiled when the
 * library can (an optimization only: the interpreter matches otherwise). */
foldsvg_status fs_regex_compile_jit(pcre2_code **out, const char *flag, const char *pattern,
                                    uint32_t extra, foldsvg_error *err);

/* Whether CODE matches somewhere in S[0..len), with MD (one ovector pair is enough) and MCTX
 * (may be NULL): 1 or 0; -1 when PCRE2 ran out of memory. Match or JIT stack limits count as
 * no match, so a name is treated the same way every time. */
int fs_regex_match(const pcre2_code *code, const char *s, size_t len, pcre2_match_data *md,
                   pcre2_match_context *mctx);

#endif
