/* Fuzz target: the Chrome/V8 reader (.cpuprofile, DevTools traces, trace events) and the
 * speedscope reader (byte 0 bit 2), plain or gzip. The Chrome reader reads each input twice,
 * from memory with the samples and deltas the reading job takes (formats/chrome/split.h) on
 * every block, and from a stream (B/E/X events kept and sorted, not taken as they come) with
 * none, which must give the same stacks, or the same failure.
 * Byte 0 chooses the options, the reader, and whether the rest is gzip-compressed here (and
 * possibly cut short) before reading. */
#include <stdio.h>
#include <string.h>

#include "formats/chrome/chrome.h"
#include "formats/chrome/split.h"
#include "formats/speedscope/speedscope.h"
#include "fuzz.h"
#include "gzip.h"
#include "input/input.h"

typedef struct check_sink {
    fs_sink sink; /* first: the reader passes a pointer to it */
    unsigned sum;
    uint64_t stacks;
    uint64_t weights; /* of the stacks in their order */
} check_sink;

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)err;
    check_sink *c = (check_sink *)(void *)self;
    c->weights = c->weights * 1000003u + count;
    FUZZ_CHECK(n == 0 || frames != NULL);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < frames[i].len; j++)
            c->sum += (unsigned char)frames[i].ptr[j];
    c->stacks++;
    return FOLDSVG_OK;
}

static foldsvg_status on_weight(fs_sink *self, const fs_strref *frames, size_t n,
                                const fs_weight *w, foldsvg_error *err)
{
    FUZZ_CHECK(w->hi == w->hi && w->lo == w->lo); /* not NaN */
    double frac = w->hi + w->lo;
    uint64_t bits;
    memcpy(&bits, &frac, sizeof bits);
    return on_stack(self, frames, n, (uint64_t)w->whole ^ bits, err);
}

static void on_count_name(fs_sink *self, const char *name)
{
    (void)self;
    FUZZ_CHECK(name && name[0]);
}

static void on_thread(void *ud, size_t index, const char *name, const char *process,
                      uint64_t samples, double weight)
{
    (void)samples;
    (void)weight;
    size_t *next = ud;
    FUZZ_CHECK(index == *next); /* in order, from 0 */
    FUZZ_CHECK(name && process);
    (void)strlen(name);
    (void)strlen(process);
    (*next)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++;
    size--;
    /* Bits 0-1: every thread, thread 0, the threads whose name matches a regular
     * expression, or every thread in the ordered mode (--flamechart). */
    static const char *const threads[4] = {NULL, "0", "/^[A-Z]/", NULL};
    fs_input_opts fo;
    memset(&fo, 0, sizeof fo);
    if (threads[flags & 3] && fs_strlist_push(&fo.threads, threads[flags & 3]) != FOLDSVG_OK)
        return 0;
    fo.ordered = (flags & 3) == 3;
    int speedscope = (flags >> 2) & 1;
    size_t next_thread = 0;
    unsigned char *gz = NULL;
    const uint8_t *in_data = data;
    size_t in_len = size;
    if (flags & 16) {
        gz = fuzz_gzip(data, size, 1, &in_len);
        if (!gz) {
            fs_strlist_free(&fo.threads);
            return 0;
        }
        /* Bits 5-7: cut 0..7 bytes off the end (a truncated download). */
        size_t cut = (size_t)(flags >> 5);
        in_len = cut < in_len ? in_len - cut : 0;
        /* An exactly sized copy, so reading past the end is caught. */
        unsigned char *exact = malloc(in_len ? in_len : 1);
        if (!exact) {
            free(gz);
            fs_strlist_free(&fo.threads);
            return 0;
        }
        memcpy(exact, gz, in_len);
        free(gz);
        gz = exact;
        in_data = gz;
    }
    if (!speedscope && !(flags & 8)) {
        check_sink got[2];
        foldsvg_status st[2];
        foldsvg_error e[2];
        for (int k = 0; k < 2; k++) {
            fs_input *in;
            memset(&got[k], 0, sizeof got[k]);
            got[k].sink.stack = on_stack;
            got[k].sink.count_name = on_count_name;
            got[k].sink.weight = on_weight;
            memset(&e[k], 0, sizeof e[k]);
            cr_split_mode(k ? 2 : 1);
            /* the second reading from a stream, which cannot be read twice: its B/E/X events
             * are kept and sorted from the start (in runs of 16 items: no sort buffer) */
            FILE *f = k && in_len ? fmemopen((void *)(uintptr_t)in_data, in_len, "rb") : NULL;
            st[k] = f ? fs_input_open_stream(&in, f, "fuzz.json", &e[k])
                      : fs_input_open_mem(&in, in_data, in_len, "fuzz.json", &e[k]);
            if (st[k] == FOLDSVG_OK) {
                st[k] = fs_chrome_read(in, &fo, &got[k].sink, &e[k]);
                fs_input_close(in);
            }
            if (f)
                fclose(f);
            cr_split_mode(0);
        }
        FUZZ_CHECK(st[0] == st[1] && got[0].sum == got[1].sum && got[0].stacks == got[1].stacks &&
                   got[0].weights == got[1].weights);
        if (st[0] != FOLDSVG_OK)
            FUZZ_CHECK(strcmp(e[0].message, e[1].message) == 0 && e[0].message[0] &&
                       strchr(e[0].message, '\n') == NULL);
        free(gz);
        fs_strlist_free(&fo.threads);
        return 0;
    }
    fs_input *in;
    foldsvg_error err;
    if (fs_input_open_mem(&in, in_data, in_len, "fuzz.json", &err) == FOLDSVG_OK) {
        check_sink cs;
        memset(&cs, 0, sizeof cs);
        cs.sink.stack = on_stack;
        cs.sink.count_name = on_count_name;
        cs.sink.weight = on_weight;
        /* Bit 3: list the threads (every one, whatever the selection) instead of reading. */
        foldsvg_status st =
            speedscope
                ? (flags & 8 ? fs_speedscope_list_threads(in, &fo, on_thread, &next_thread, &err)
                             : fs_speedscope_read(in, &fo, &cs.sink, &err))
                : (flags & 8 ? fs_chrome_list_threads(in, &fo, on_thread, &next_thread, &err)
                             : fs_chrome_read(in, &fo, &cs.sink, &err));
        if (st != FOLDSVG_OK)
            FUZZ_CHECK(strchr(err.message, '\n') == NULL && err.message[0]);
        fs_input_close(in);
    }
    free(gz);
    fs_strlist_free(&fo.threads);
    return 0;
}
