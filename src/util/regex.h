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

#endif
