#include "lib/diag.h"

#include "lib/options.h"
#include "util/error.h"

foldsvg_status fs_stack_error(foldsvg_error *err, foldsvg_status st, const char *name,
                              uint64_t line)
{
    if (st == FOLDSVG_E_OVERFLOW)
        return fs_error_at_line(err, st, name, line, 0,
                                "the total count passes 2^64-1; the input's counts are too large");
    return fs_error_at_line(err, st, name, line, 0, "%s", foldsvg_status_name(st));
}

foldsvg_status fs_no_data_error(foldsvg_error *err, const char *name, const fs_folded_stats *s)
{
    if (s && s->invalid)
        return fs_error_at_line(err, FOLDSVG_E_NO_DATA, name, s->first_invalid, 0,
                                "no valid stacks, nothing to draw: %llu line%s with invalid "
                                "format, the first is this one (a line is 'frame;frame;... "
                                "COUNT')",
                                (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s");
    if (!s)
        return fs_error(err, FOLDSVG_E_NO_DATA, name,
                        "no valid stacks, nothing to draw: no sample has a stack with a "
                        "non-zero weight");
    return fs_error(err, FOLDSVG_E_NO_DATA, name, "no valid stacks, nothing to draw: the input %s",
                    s->lines ? "holds only blank lines, comments or zero counts" : "is empty");
}

foldsvg_status fs_filtered_out_error(foldsvg_error *err, const char *name)
{
    return fs_error(err, FOLDSVG_E_NO_DATA, name,
                    "every stack was filtered out: nothing to draw (check the --include, "
                    "--exclude and --focus patterns)");
}

foldsvg_status fs_sorted_runs_error(foldsvg_error *err, const char *name)
{
    return fs_error(err, FOLDSVG_E_IO, name,
                    "sorting the stacks: the sorted runs came back out of order (did a "
                    "temporary file change?)");
}

void fs_warn_folded_stats(const foldsvg_options *o, const char *name, const fs_folded_stats *s)
{
    foldsvg_error w;
    if (s->invalid) {
        fs_error_at_line(&w, FOLDSVG_OK, name, s->first_invalid, 0,
                         "ignored %llu line%s with invalid format (the first is this one; a "
                         "line is 'frame;frame;... COUNT')",
                         (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s");
        fs_warn(o, &w);
    }
    if (s->fractional) {
        fs_error_at_line(&w, FOLDSVG_OK, name, s->first_fractional, 0,
                         "%llu line%s had fractional counts; the fractions were dropped (scale "
                         "the input and use --factor to keep them)",
                         (unsigned long long)s->fractional, s->fractional == 1 ? "" : "s");
        fs_warn(o, &w);
    }
}
