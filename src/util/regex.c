#include "util/regex.h"

#include <stdio.h>

#include "util/error.h"

static foldsvg_status compile(pcre2_code **out, const char *flag, const char *pattern,
                              uint32_t extra, foldsvg_error *err)
{
    int code;
    PCRE2_SIZE offset;
    *out = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                         PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | extra, &code, &offset, NULL);
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

foldsvg_status fs_regex_compile(pcre2_code **out, const char *flag, const char *pattern,
                                foldsvg_error *err)
{
    return compile(out, flag, pattern, 0, err);
}

foldsvg_status fs_regex_compile_jit(pcre2_code **out, const char *flag, const char *pattern,
                                    uint32_t extra, foldsvg_error *err)
{
    foldsvg_status st = compile(out, flag, pattern, extra, err);
    if (st == FOLDSVG_OK)
        pcre2_jit_compile(*out, PCRE2_JIT_COMPLETE);
    return st;
}

int fs_regex_match(const pcre2_code *code, const char *s, size_t len, pcre2_match_data *md,
                   pcre2_match_context *mctx)
{
    int rc = pcre2_match(code, (PCRE2_SPTR)(s ? s : ""), len, 0, 0, md, mctx);
    if (rc == PCRE2_ERROR_NOMEMORY)
        return -1;
    return rc >= 0;
}
