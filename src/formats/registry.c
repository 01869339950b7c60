#include "formats/registry.h"

#include "formats/chrome/chrome.h"
#include "formats/dtrace/dtrace.h"
#include "formats/firefox/firefox.h"
#include "formats/folded/folded.h"
#include "formats/folded/split.h"
#include "formats/foreign.h"
#include "formats/ghcprof/ghcprof.h"
#include "formats/perf/perf.h"
#include "formats/pprof/pprof.h"
#include "formats/pprof/wire.h"
#include "formats/sample/sample.h"
#include "formats/speedscope/speedscope.h"
#include "formats/vsprof/vsprof.h"
#include "formats/vtune/vtune.h"
#include "formats/xctrace/xctrace.h"
#include "util/error.h"

/* Its samples come in time order (--flamechart: one thread's), not as folded paths. */
static const fs_format firefox = {
    "firefox",
    "a Firefox-Profiler profile",
    FS_FORMAT_ORDERED | FS_FORMAT_SYMBOLIZED,
    fs_firefox_detect,
    fs_firefox_read,
    fs_firefox_list_threads,
    NULL,
};

static foldsvg_status perf_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                foldsvg_error *err)
{
    return fs_perf_read(in, &opts->perf, sink, err);
}

/* Its samples come in time order (--flamechart), but not sorted by stack (--no-sort). */
static const fs_format perf = {
    "perf", "perf script output", FS_FORMAT_ORDERED, fs_perf_detect, perf_read, NULL, NULL,
};

/* Its samples have no order (pprof sums them per stack as it records). */
static const fs_format pprof = {
    "pprof",       "a pprof profile",     FS_FORMAT_SYMBOLIZED,       fs_pprof_detect,
    fs_pprof_read, fs_pprof_list_threads, fs_pprof_list_sample_types,
};

/* Its samples and events come in time order (--flamechart: one thread's). */
static const fs_format chrome = {
    "chrome",
    "a Chrome or V8 profile (.cpuprofile, trace events)",
    FS_FORMAT_ORDERED | FS_FORMAT_SYMBOLIZED,
    fs_chrome_detect,
    fs_chrome_read,
    fs_chrome_list_threads,
    NULL,
};

/* Its profiles' samples and events come in their order (--flamechart: one profile's). */
static const fs_format speedscope = {
    "speedscope",      "a speedscope file", /* not symbolized: foldsvg writes it from folded text,
                                               and reads it back as it was */
    FS_FORMAT_ORDERED, fs_speedscope_detect, fs_speedscope_read, fs_speedscope_list_threads, NULL,
};

/* inferno's other collapsers' inputs: read as their collapsers read them (formats/collapse.h),
 * each stack given as the folded line the collapser writes. */
static const fs_format dtrace = {
    "dtrace", "DTrace stack aggregations", 0, fs_dtrace_detect, fs_dtrace_read, NULL, NULL,
};
static const fs_format sample = {
    "sample", "a macOS sample report", 0, fs_sample_detect, fs_sample_read, NULL, NULL,
};
static const fs_format vtune = {
    "vtune", "a VTune top-down CSV", 0, fs_vtune_detect, fs_vtune_read, NULL, NULL,
};
static const fs_format vsprof = {
    "vsprof", "a Visual Studio call tree CSV", 0, fs_vsprof_detect, fs_vsprof_read, NULL, NULL,
};
static const fs_format ghcprof = {
    "ghcprof", "a GHC .prof report", 0, fs_ghcprof_detect, fs_ghcprof_read, NULL, NULL,
};
static const fs_format xctrace = {
    "xctrace", "an xctrace export (XML)", 0, fs_xctrace_detect, fs_xctrace_read, NULL, NULL,
};

static const fs_format folded = {
    "folded",
    "folded text",
    FS_FORMAT_ORDERED | FS_FORMAT_PATHS,
    fs_folded_detect,
    fs_folded_read_input,
    NULL,
    NULL,
};

/* In detection order: magic numbers of what foldsvg does not read first; pprof's protobuf,
 * recognized by walking its fields, before binary data; other profilers' JSON before
 * Firefox-Profiler JSON, which starts with '{'; perf script output starts with an event
 * header line; binary data before folded text, which is anything else. */
const fs_format *const fs_formats[] = {
    &fs_foreign_magic,
    &pprof,
    &chrome,
    &speedscope,
    &fs_foreign_json,
    &firefox,
    &perf,
    &xctrace,
    &vsprof,
    &vtune,
    &sample,
    &ghcprof,
    &dtrace,
    &fs_foreign_binary,
    &fs_foreign_text,
    &folded,
    &fs_foreign_unknown,
    NULL,
};

unsigned fs_format_bit(const fs_format *f)
{
    for (unsigned i = 0; fs_formats[i]; i++)
        if (fs_formats[i] == f)
            return 1u << i;
    return 0;
}

foldsvg_status fs_format_detect(fs_input *in, const fs_format **out, foldsvg_error *err)
{
    *out = NULL;
    int complete = 0;
    for (;;) {
        const unsigned char *head;
        size_t len;
        fs_input_head(in, &head, &len);
        int r = 0;
        size_t i;
        for (i = 0; fs_formats[i] && r == 0; i++)
            r = fs_formats[i]->detect(head, len, complete);
        if (r > 0 && (fs_formats[i - 1]->flags & FS_FORMAT_FOREIGN)) /* names what it is */
            return fs_formats[i - 1]->read(in, NULL, NULL, err);
        if (r > 0) {
            *out = fs_formats[i - 1];
            return FOLDSVG_OK;
        }
        if (r == 0) /* not even the last: cannot happen, it takes anything */
            return fs_error(err, FOLDSVG_E_PARSE, fs_input_name(in), "not a known input format");
        /* A format cannot tell yet: read further ahead, and ask again from the first. */
        int more;
        foldsvg_error ignored;
        /* A read or gzip error is judged on the bytes before it: the reader meets it again
         * when it gets there, and names the place then. */
        if (fs_input_peek_more(in, &more, &ignored) != FOLDSVG_OK)
            more = 0;
        complete = !more;
    }
}
