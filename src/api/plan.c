#include "api/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/pool.h"

static const char *const engine_names[] = {
    [FS_ENGINE_STREAM] = "stream",
    [FS_ENGINE_SORT] = "sort",
    [FS_ENGINE_TREE] = "tree",
};

void fs_plan_say(const fs_plan *p, const char *fmt, ...)
{
    const foldsvg_options *o = p->o;
    if (!o || !o->log)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fs_plan_log(o, line);
}

void fs_plan_log(const foldsvg_options *o, const char *line)
{
    if (!o || !o->log)
        return;
    char text[1100];
    snprintf(text, sizeof text, "plan: %s", line);
    o->log(o->log_user, text);
}

/* Why every stack goes to a tree, or NULL when none does. */
static const char *tree_reason(fs_plan_output out, const fs_plan_input *in, size_t n,
                               const foldsvg_options *o, const char **input)
{
    *input = NULL;
    if (out == FS_OUT_PROFILE)
        return "a profile, for reports and tables";
    if (o->facts_from)
        return "--facts-from: the parts' inputs are noted in a profile";
    for (size_t i = 0; i < n; i++) {
        if (!(in[i].format->flags & FS_FORMAT_PATHS)) {
            *input = in[i].name;
            return in[i].format->what;
        }
        if (in[i].stdin_twice)
            return "standard input named twice";
    }
    if (o->stack.flamechart && out != FS_OUT_SVG)
        return "--flamechart to other than SVG";
    if (out == FS_OUT_FOLDED && o->stack.no_sort)
        return "--no-sort to folded text: the order is checked against a tree";
    return NULL;
}

void fs_plan_make(fs_plan *p, fs_plan_output out, const fs_plan_input *in, size_t n,
                  const foldsvg_options *o, int check)
{
    *p = (fs_plan){.o = o};
    p->threads = o->threads ? o->threads : fs_pool_default_threads();
    size_t buffer = fs_options_input(o).sort_buffer;
    /* two chunks a sorter; a diff has a sorter a side */
    p->chunk = out == FS_OUT_SIDE ? buffer / 4 : buffer / 2;
    p->again = 1;
    int gzip = 0;
    for (size_t i = 0; i < n; i++) {
        p->again &= in[i].again;
        gzip |= in[i].gzip;
    }
    const char *input, *why = tree_reason(out, in, n, o, &input);
    if (why) {
        p->engine = FS_ENGINE_TREE;
        if (input)
            fs_plan_say(p, "engine tree: %s is %s, whose stacks come as frames", input, why);
        else
            fs_plan_say(p, "engine tree: %s", why);
    } else if (out == FS_OUT_FOLDED) {
        p->engine = FS_ENGINE_SORT;
        fs_plan_say(p, "engine sort: folded text to folded text, summed and sorted");
    } else if (o->stack.flamechart) {
        p->engine = FS_ENGINE_STREAM;
        fs_plan_say(p, "engine stream: --flamechart, the stacks merged in the input's order");
    } else {
        p->engine = FS_ENGINE_STREAM;
        fs_plan_say(p, "engine stream: folded text merged as it is read, if sorted (as "
                       "collapsers write it)");
        fs_plan_say(p, "a line out of order: engine sort, the inputs read again%s",
                    p->again ? "" : " (a pipe from a copy made as it is read)");
    }
    p->check = check && p->engine == FS_ENGINE_STREAM && !o->stack.flamechart;
    if (p->check)
        fs_plan_say(p, "read twice: once to check the order and sum the total, once to join");
    /* cutting costs two more readings: not of what is dear to read again */
    p->cut = out == FS_OUT_SVG && p->engine != FS_ENGINE_TREE && !o->stack.flamechart &&
             o->svg.minwidth > 0 && !gzip && p->again;
    if (p->engine != FS_ENGINE_TREE)
        fs_plan_say(p, "sort buffer %zu KiB (--sort-buffer; chunks of %zu KiB): beyond it, %s",
                    buffer >> 10, p->chunk >> 10,
                    p->cut ? "stacks cut past what can be drawn, or spilled to $TMPDIR"
                           : "spilled to $TMPDIR");
    fs_plan_say(p, "threads %u%s", p->threads,
                o->threads ? " (--threads)" : " (FOLDSVG_THREADS, else the cores, at most 8)");
}

void fs_plan_revise(fs_plan *p, fs_plan_event ev, const char *input, uint64_t line)
{
    char at[1100] = "";
    if (input && line)
        snprintf(at, sizeof at, "%s:%llu: ", input, (unsigned long long)line);
    else if (input)
        snprintf(at, sizeof at, "%s: ", input);
    fs_engine was = p->engine;
    switch (ev) {
    case FS_PLAN_UNSORTED:
        p->engine = FS_ENGINE_SORT;
        fs_plan_say(p, "%sout of order: engine sort, the inputs read again", at);
        break;
    case FS_PLAN_FULL_CUT:
        fs_plan_say(p,
                    "%sthe sort buffer is full: a sketch bounds every frame, then the stacks "
                    "are cut past what can be drawn (two more readings)",
                    at);
        break;
    case FS_PLAN_FULL:
        p->cut = 0;
        fs_plan_say(p, "%sthe stacks outgrow the sort buffer: sorted runs spill to $TMPDIR", at);
        break;
    case FS_PLAN_NO_SPILL:
        p->engine = FS_ENGINE_TREE;
        fs_plan_say(p, "%sno temporary file could be written: engine tree, the inputs read again",
                    at);
        break;
    case FS_PLAN_CHANGED:
        p->cut = 0;
        fs_plan_say(p, "%sthe input changed between readings: whole stacks sorted again", at);
        break;
    case FS_PLAN_ONCE:
        p->engine = FS_ENGINE_TREE;
        fs_plan_say(p, "%scannot be read twice: engine tree", at);
        break;
    }
    (void)was;
    (void)engine_names;
}
