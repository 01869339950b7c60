#include "util/regex.h"

#include <stdio.h>

#include "util/error.h"

static const uint32_t compile_options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

foldsvg_status fs_regex_compile(pcre2_code **out, const char *what, const char *pattern,
                                uint32_t extra, foldsvg_error *err)
{
    int code;
    PCRE2_SIZE offset;
    *out = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, compile_options | extra, &code,
                         &offset, NULL);
    if (*out) {
        /* JIT is an optimization only: a library without it (or a pattern it declines)
         * still matches through the interpreter. */
        pcre2_jit_compile(*out, PCRE2_JIT_COMPLETE);
        return FOLDSVG_OK;
    }
    if (code == PCRE2_ERROR_NOMEMORY)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory compiling --%s '%s'", what,
                        pattern);
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(code, msg, sizeof msg) < 0)
        snprintf((char *)msg, sizeof msg, "PCRE2 error %d", code);
    return fs_error(err, FOLDSVG_E_USAGE, NULL,
                    "--%s '%s': invalid regular expression: %s at offset %zu", what, pattern,
                    (const char *)msg, (size_t)offset);
}

int fs_regex_match(const pcre2_code *code, const char *s, size_t len, pcre2_match_data *md,
                   pcre2_match_context *mctx)
{
    int rc = pcre2_match(code, (PCRE2_SPTR)(s ? s : ""), len, 0, 0, md, mctx);
    if (rc == PCRE2_ERROR_NOMEMORY)
        return -1;
    return rc >= 0;
}
