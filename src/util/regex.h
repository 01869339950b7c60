/* The one way a user's regular expression is compiled (PCRE2, every option that takes one:
 * the filters, --thread /RE/): UTF mode with PCRE2_MATCH_INVALID_UTF, so names that are not
 * valid UTF-8 never make a match fail (invalid sequences simply match nothing), and one
 * message for a bad pattern, naming the option. */
#ifndef FOLDSVG_UTIL_REGEX_H
#define FOLDSVG_UTIL_REGEX_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

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

#endif
