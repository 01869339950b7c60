/* Fuzz target: the perf script reader (fs_perf_detect, fs_perf_read).
 * Byte 0 chooses the options: bit 0 --pid, 1 --tid, 2 --kernel, 3 --jit, 4 --addrs,
 * bits 5-6 the event filter (none, "cycles", "sched:sched_switch", "cpu-clock"), bit 7
 * --skip-after main. The rest is the input. It is read twice, the second time with every
 * "\n" written "\r\n": trailing whitespace never matters, so both reads must give the same
 * stacks in the same order, the same warnings and the same status. */
#include <string.h>

#include "formats/perf/perf.h"
#include "fuzz.h"
#include "input/input.h"

typedef struct check_sink {
    fs_sink sink; /* first: the reader passes a pointer to it */
    uint64_t hash, stacks;
    int units;
} check_sink;

static void mix(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ b[i]) * 0x100000001b3ULL;
}

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)err;
    check_sink *c = (check_sink *)(void *)self;
    /* the command name, then at least one frame; a stack cut by --skip-after main has no
     * command name: it starts at main */
    int cut = n >= 1 && frames[0].len >= 4 && memcmp(frames[0].ptr, "main", 4) == 0;
    FUZZ_CHECK(frames != NULL && (n >= 2 || (n == 1 && cut)));
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(frames[i].ptr != NULL || frames[i].len == 0);
        FUZZ_CHECK(memchr(frames[i].ptr, '\n', frames[i].len) == NULL);
        mix(&c->hash, frames[i].ptr, frames[i].len);
        mix(&c->hash, "\0", 1);
    }
    FUZZ_CHECK(cut || memchr(frames[0].ptr, ' ', frames[0].len) == NULL);
    mix(&c->hash, &count, sizeof count);
    c->stacks++;
    return FOLDSVG_OK;
}

static void on_count_name(fs_sink *self, const char *name)
{
    check_sink *c = (check_sink *)(void *)self;
    FUZZ_CHECK(name && name[0]);
    c->units++;
}

typedef struct warns {
    uint64_t hash, lines;
} warns;

static warns *current_warns; /* the outcome being read */

static void on_warn(fs_sink *self, const foldsvg_error *w)
{
    (void)self;
    warns *ws = current_warns;
    FUZZ_CHECK(w->message[0] && strchr(w->message, '\n') == NULL);
    FUZZ_CHECK(w->line <= ws->lines + 1);
    mix(&ws->hash, w->message, strlen(w->message));
    mix(&ws->hash, &w->line, sizeof w->line);
}

typedef struct outcome {
    foldsvg_status st;
    check_sink sink;
    warns warn;
} outcome;

static void read_once(const uint8_t *data, size_t size, const fs_perf_opts *base, outcome *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < size; i++)
        out->warn.lines += data[i] == '\n';
    current_warns = &out->warn;
    out->sink.sink.stack = on_stack;
    out->sink.sink.warn = on_warn;
    out->sink.sink.count_name = on_count_name;
    fs_input *in;
    foldsvg_error err;
    if (fs_input_open_mem(&in, data, size, "fuzz.perf", &err) != FOLDSVG_OK) {
        out->st = err.code;
        return;
    }
    out->st = fs_perf_read(in, base, &out->sink.sink, &err);
    if (out->st != FOLDSVG_OK)
        FUZZ_CHECK(err.message[0] && strchr(err.message, '\n') == NULL);
    FUZZ_CHECK(out->sink.units <= 1);
    fs_input_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++;
    size--;
    (void)fs_perf_detect(data, size, 1);
    (void)fs_perf_detect(data, size, 0);

    static const char *const filters[4] = {NULL, "cycles", "sched:sched_switch", "cpu-clock"};
    fs_perf_opts o;
    memset(&o, 0, sizeof o);
    o.pid = flags & 1;
    o.tid = (flags >> 1) & 1;
    o.kernel = (flags >> 2) & 1;
    o.jit = (flags >> 3) & 1;
    o.addrs = (flags >> 4) & 1;
    o.event_filter = filters[(flags >> 5) & 3];
    if ((flags & 128) && fs_strlist_push(&o.skip_after, "main") != FOLDSVG_OK)
        return 0;
    /* An exactly sized copy, so a read past the end is caught. */
    unsigned char *exact = malloc(size ? size : 1);
    if (!exact) {
        fs_strlist_free(&o.skip_after);
        return 0;
    }
    memcpy(exact, data, size);
    outcome a;
    read_once(exact, size, &o, &a);

    size_t nl = 0;
    for (size_t i = 0; i < size; i++)
        nl += data[i] == '\n';
    unsigned char *crlf = malloc(size + nl + 1);
    if (crlf) {
        size_t k = 0;
        for (size_t i = 0; i < size; i++) {
            if (data[i] == '\n')
                crlf[k++] = '\r';
            crlf[k++] = data[i];
        }
        outcome b;
        read_once(crlf, k, &o, &b);
        FUZZ_CHECK(a.st == b.st);
        FUZZ_CHECK(a.sink.stacks == b.sink.stacks && a.sink.hash == b.sink.hash);
        FUZZ_CHECK(a.sink.units == b.sink.units);
        FUZZ_CHECK(a.warn.hash == b.warn.hash);
        free(crlf);
    }
    free(exact);
    fs_strlist_free(&o.skip_after);
    return 0;
}
