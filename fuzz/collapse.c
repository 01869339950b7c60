/* Fuzz target: the readers of inferno's other collapsers' inputs (DTrace, macOS sample,
 * VTune and Visual Studio CSV, GHC .prof, xctrace XML: formats/<name>/) and their detection.
 * Byte 0 chooses the reader (its low three bits, modulo six) and the options (bit 3
 * --includeoffset, bit 4 --no-modules, bits 5-6 GHC's column: time, ticks, bytes). The rest
 * is the input. Whatever the bytes, a reader either fails with one line naming the input or
 * gives valid folded lines: a non-empty stack without a newline; warnings and errors are one
 * line each. */
#include <string.h>

#include "formats/dtrace/dtrace.h"
#include "formats/ghcprof/ghcprof.h"
#include "formats/sample/sample.h"
#include "formats/vsprof/vsprof.h"
#include "formats/vtune/vtune.h"
#include "formats/xctrace/xctrace.h"
#include "fuzz.h"
#include "input/input.h"

typedef struct reader {
    int (*detect)(const unsigned char *head, size_t len, int complete);
    foldsvg_status (*read)(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                           foldsvg_error *err);
} reader;

static const reader readers[6] = {
    {fs_dtrace_detect, fs_dtrace_read},   {fs_sample_detect, fs_sample_read},
    {fs_vtune_detect, fs_vtune_read},     {fs_vsprof_detect, fs_vsprof_read},
    {fs_ghcprof_detect, fs_ghcprof_read}, {fs_xctrace_detect, fs_xctrace_read},
};

typedef struct check_sink {
    fs_sink sink; /* first: the reader passes a pointer to it */
    uint64_t lines;
} check_sink;

static foldsvg_status on_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    check_sink *c = (check_sink *)(void *)self;
    FUZZ_CHECK(l->stack != NULL && l->len > 0);
    FUZZ_CHECK(memchr(l->stack, '\n', l->len) == NULL);
    c->lines++;
    return FOLDSVG_OK;
}

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)self;
    (void)count;
    (void)err;
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(frames[i].ptr != NULL || frames[i].len == 0);
    return FOLDSVG_OK;
}

static void on_warn(fs_sink *self, const foldsvg_error *w)
{
    (void)self;
    FUZZ_CHECK(w->message[0] && strchr(w->message, '\n') == NULL);
}

static void on_count_name(fs_sink *self, const char *name)
{
    (void)self;
    FUZZ_CHECK(name && name[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++;
    size--;
    const reader *r = &readers[(flags & 7) % 6];
    (void)r->detect(data, size, 0);
    (void)r->detect(data, size, 1);

    fs_input_opts o;
    memset(&o, 0, sizeof o);
    o.collapse.includeoffset = (flags >> 3) & 1;
    o.collapse.no_modules = (flags >> 4) & 1;
    int col = (flags >> 5) & 3;
    o.collapse.ghc_time = col == 0 || col == 3;
    o.collapse.ghc_ticks = col == 1;
    o.collapse.ghc_bytes = col == 2 || col == 3; /* 3: two columns, a usage error */

    /* An exactly sized copy, so a read past the end is caught. */
    unsigned char *exact = malloc(size ? size : 1);
    if (!exact)
        return 0;
    memcpy(exact, data, size);
    check_sink c;
    memset(&c, 0, sizeof c);
    c.sink.stack = on_stack;
    c.sink.line = on_line;
    c.sink.warn = on_warn;
    c.sink.count_name = on_count_name;
    fs_input *in;
    foldsvg_error err;
    if (fs_input_open_mem(&in, exact, size, "fuzz.in", &err) == FOLDSVG_OK) {
        if (r->read(in, &o, &c.sink, &err) != FOLDSVG_OK)
            FUZZ_CHECK(err.message[0] && strchr(err.message, '\n') == NULL);
        fs_input_close(in);
    }
    free(exact);
    return 0;
}
