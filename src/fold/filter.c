/* Placeholder until the PCRE2 filters land: accepts no filter. */
#include "fold/filter.h"

#include "util/error.h"

foldsvg_status fs_filter_check_pattern(const char *flag, const char *pattern, foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s '%s': filters are not available yet", flag,
                    pattern);
}

foldsvg_status fs_filter_new(fs_filter **out, const foldsvg_options *opts, foldsvg_error *err)
{
    (void)opts;
    (void)err;
    *out = NULL;
    return FOLDSVG_OK;
}

void fs_filter_free(fs_filter *f)
{
    (void)f;
}

int fs_filter_apply(fs_filter *f, fs_strref *frames, size_t *n)
{
    (void)f;
    (void)frames;
    (void)n;
    return 1;
}
