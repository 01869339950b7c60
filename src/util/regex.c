#include "util/regex.h"

#include <stdio.h>

#include "util/error.h"

foldsvg_status fs_regex_compile(pcre2_code **out, const char *flag, const char *pattern,
                                foldsvg_error *err)
{
    int code;
    PCRE2_SIZE offset;
    *out = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                         PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &offset, NULL);
    if (*out)
        return FOLDSVG_OK;
    if (code == PCRE2_ERROR_NOMEMORY)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory compiling --%s '%s'", flag,
                        pattern);
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(code, msg, sizeof msg) < 0)
        snprintf((char *)msg, sizeof msg, "PCRE2 error %d", code);
    return fs_error(err, FOLDSVG_E_USAGE, NULL,
                    "--%s '%s': invalid regular expression: %s at offset %zu", flag, pattern,
                    (const char *)msg, (size_t)offset);
}

void fs_regex_set_limits(pcre2_match_context *m)
{
    pcre2_set_match_limit(m, FS_REGEX_MATCH_LIMIT);
    pcre2_set_depth_limit(m, FS_REGEX_DEPTH_LIMIT);
    pcre2_set_heap_limit(m, FS_REGEX_HEAP_LIMIT_KIB);
}

int fs_regex_is_limit(int rc)
{
    return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
           rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT;
}

const char *fs_regex_limit_name(int rc)
{
    return rc == PCRE2_ERROR_MATCHLIMIT   ? "match (backtracking) limit"
           : rc == PCRE2_ERROR_DEPTHLIMIT ? "depth limit"
           : rc == PCRE2_ERROR_HEAPLIMIT  ? "heap limit"
                                          : "JIT stack limit";
}
