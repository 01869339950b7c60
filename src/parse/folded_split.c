#include "parse/folded_split.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "parse/folded.h"
#include "util/error.h"
#include "util/thread.h"

/* The second half's reading, on its own thread. */
typedef struct part_job {
    fs_sink sink; /* first: what the reader calls, on to PART */
    fs_sink *part;
    fs_input *in; /* of its own, at the second half's start */
    atomic_int cancel;
    _Atomic uint64_t done, lines; /* its progress, for the first half's reports */
    uint64_t base;                /* raw bytes its input had read before the second half */
    fs_folded_stats stats;
    foldsvg_status st;
    foldsvg_error err;
} part_job;

static foldsvg_status part_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    part_job *j = (part_job *)(void *)self;
    if (atomic_load_explicit(&j->cancel, memory_order_relaxed))
        return FS_STOP; /* the first half failed: nothing of this is wanted */
    return j->part->line(j->part, l, err);
}

static void part_progress(void *user, const char *name, uint64_t done, uint64_t total,
                          uint64_t lines)
{
    (void)name;
    (void)total;
    part_job *j = user;
    /* (0 as the reading starts, before the bytes its opening read) */
    atomic_store_explicit(&j->done, done > j->base ? done - j->base : 0, memory_order_relaxed);
    atomic_store_explicit(&j->lines, lines, memory_order_relaxed);
}

static void *part_main(void *arg)
{
    part_job *j = arg;
    j->st = fs_folded_read(j->in, &j->sink, &j->stats, &j->err);
    return NULL;
}

/* A new input over IN's bytes, at the first line start at or after decoded offset MID that
 * is not the end: NULL when there is none within 1 MiB, or when anything fails (the reading
 * in one part then says what is wrong, if anything is). */
static fs_input *open_second_half(const fs_input *in, uint64_t mid)
{
    fs_input *r;
    if (fs_input_reopen(in, &r, NULL) != FOLDSVG_OK)
        return NULL;
    uint64_t at = 0;
    char buf[4096];
    size_t got = 0;
    if (fs_input_seek(r, mid - 1, NULL) == FOLDSVG_OK) {
        uint64_t pos = mid - 1;
        /* a line that long near the middle: the halves would not pay for the search */
        while (pos - (mid - 1) < (1 << 20) &&
               fs_input_read(r, buf, sizeof buf, &got, NULL) == FOLDSVG_OK && got > 0) {
            const char *nl = memchr(buf, '\n', got);
            if (nl) {
                at = pos + (uint64_t)(nl - buf) + 1;
                break;
            }
            pos += got;
        }
    }
    fs_input_close(r);
    /* (a line end that is the input's last byte starts no second half) */
    if (at == 0 || at >= fs_input_raw_size(in) || fs_input_reopen(in, &r, NULL) != FOLDSVG_OK)
        return NULL;
    if (fs_input_seek(r, at, NULL) != FOLDSVG_OK) {
        fs_input_close(r);
        return NULL;
    }
    return r;
}

/* S's lines follow TO's. */
static void add_stats(fs_folded_stats *to, const fs_folded_stats *s)
{
    if (s->invalid && !to->invalid)
        to->first_invalid = to->lines + s->first_invalid;
    if (s->fractional && !to->fractional)
        to->first_fractional = to->lines + s->first_fractional;
    to->lines += s->lines;
    to->valid += s->valid;
    to->invalid += s->invalid;
    to->fractional += s->fractional;
}

foldsvg_status fs_folded_read_split(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                    fs_folded_part_fn read, int *ran, foldsvg_error *err)
{
    *ran = 0;
    uint64_t size = fs_input_raw_size(in);
    if (!sink->fork || !fs_input_can_split(in) || size < FS_SPLIT_MIN || fs_input_offset(in) != 0)
        return FOLDSVG_OK;
    part_job *j = calloc(1, sizeof *j);
    if (!j)
        return FOLDSVG_OK;
    j->sink.line = part_line;
    j->part = sink->fork(sink);
    j->in = j->part ? open_second_half(in, size / 2) : NULL;
    /* where the second half starts, read before its thread moves its input on */
    uint64_t at = j->in ? fs_input_offset(j->in) : 0;
    if (j->in) {
        j->base = fs_input_raw_consumed(j->in);
        fs_input_set_progress(j->in, part_progress, j);
    }
    pthread_t thread;
    if (!j->in || fs_thread_create(&thread, part_main, j) != 0) {
        if (j->part)
            sink->drop(sink, j->part);
        fs_input_close(j->in);
        free(j);
        return FOLDSVG_OK;
    }
    *ran = 1;
    /* the first half on this thread alone: the other core has the second */
    fs_input_set_limit(in, at, 1);
    fs_input_progress_also(in, &j->done, &j->lines);
    foldsvg_status st = fs_folded_read(in, sink, stats, err);
    fs_input_progress_also(in, NULL, NULL);
    fs_input_set_limit(in, 0, 0);
    if (st)
        atomic_store(&j->cancel, 1);
    pthread_join(thread, NULL);
    int joined = 0;
    /* the first half must have ended at the line start the second begins with (a file cut
     * short since would not) */
    if (st == FOLDSVG_OK && j->st == FOLDSVG_OK && fs_input_offset(in) == at)
        st = sink->join(sink, j->part, stats->lines, &joined, err);
    sink->drop(sink, j->part);
    if (joined) {
        add_stats(stats, &j->stats);
        fs_input_give_progress(in, at + fs_input_raw_consumed(j->in) - j->base, stats->lines);
    }
    fs_input_close(j->in);
    free(j);
    if (st == FOLDSVG_OK && !joined)
        st = read(in, sink, stats, err); /* the second half, here */
    return st;
}
