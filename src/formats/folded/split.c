#include "formats/folded/split.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "formats/folded/folded.h"
#include "util/error.h"
#include "util/pool.h"

/* How much of the first half is read between looks at whether the second half gave up. */
#define LOOK_STEP ((uint64_t)16 << 20)

/* The second half's reading, a task of the pool. */
typedef struct part_job {
    fs_sink sink; /* first: what the reader calls, on to PART */
    fs_sink *part;
    fs_input *in; /* of its own, at the second half's start */
    fs_task task;
    atomic_int cancel;
    atomic_int over;              /* ST is set */
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

static void part_main(void *arg)
{
    part_job *j = arg;
    j->st = fs_folded_read(j->in, &j->sink, &j->stats, &j->err);
    atomic_store_explicit(&j->over, 1, memory_order_release);
}

/* The first line start at or after decoded offset MID that is not the end (0: none within
 * 1 MiB, or anything failed: the reading in one part then says what is wrong, if anything). */
static uint64_t line_start_after(const fs_input *in, uint64_t mid)
{
    fs_input *r;
    if (mid == 0 || fs_input_reopen(in, &r, NULL) != FOLDSVG_OK)
        return 0;
    uint64_t at = 0;
    char buf[4096];
    size_t got = 0;
    if (fs_input_seek(r, mid - 1, NULL) == FOLDSVG_OK) {
        uint64_t pos = mid - 1;
        /* a line that long there: the halves would not pay for the search */
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
    return at < fs_input_raw_size(in) ? at : 0;
}

/* A new input over IN's bytes at decoded offset AT, or NULL. */
static fs_input *open_at(const fs_input *in, uint64_t at)
{
    fs_input *r;
    if (fs_input_reopen(in, &r, NULL) != FOLDSVG_OK)
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

/* The first half, up to AT, in steps: a second half that gives up does so early (its table
 * holds less than a step), and this thread then reads on to the end the usual way. */
static foldsvg_status read_first(fs_input *in, uint64_t at, fs_sink *sink, fs_folded_stats *stats,
                                 part_job *j, int *gave_up, foldsvg_error *err)
{
    foldsvg_status st = FOLDSVG_OK;
    while (st == FOLDSVG_OK && !*gave_up && fs_input_offset(in) < at) {
        uint64_t from = fs_input_offset(in);
        uint64_t stop = at - from > 2 * LOOK_STEP ? line_start_after(in, from + LOOK_STEP) : 0;
        if (stop == 0 || stop > at)
            stop = at;
        fs_input_set_limit(in, stop);
        st = fs_folded_read(in, sink, stats, err);
        if (fs_input_offset(in) != stop)
            break; /* the file is shorter now */
        *gave_up = atomic_load_explicit(&j->over, memory_order_acquire) && j->st != FOLDSVG_OK;
    }
    fs_input_set_limit(in, UINT64_MAX);
    return st;
}

foldsvg_status fs_folded_read_split(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                    foldsvg_error *err)
{
    uint64_t size = fs_input_raw_size(in);
    fs_pool *pool = fs_input_pool(in);
    part_job *j = NULL;
    if (sink->fork && fs_pool_threads(pool) > 1 && fs_input_can_split(in) && size >= FS_SPLIT_MIN &&
        fs_input_offset(in) == 0)
        j = calloc(1, sizeof *j);
    if (j) {
        j->sink.line = part_line;
        j->part = sink->fork(sink);
    }
    /* where the second half starts */
    uint64_t at = j && j->part ? line_start_after(in, size / 2) : 0;
    if (at)
        j->in = open_at(in, at);
    if (!j || !j->in) {
        if (j && j->part)
            sink->drop(sink, j->part);
        free(j);
        return fs_folded_read(in, sink, stats, err);
    }
    j->base = fs_input_raw_consumed(j->in);
    fs_input_set_progress(j->in, part_progress, j);
    fs_task_start(pool, &j->task, part_main, j);
    fs_input_progress_also(in, &j->done, &j->lines);
    int gave_up = 0;
    foldsvg_status st = read_first(in, at, sink, stats, j, &gave_up, err);
    fs_input_progress_also(in, NULL, NULL);
    if (st || gave_up)
        atomic_store(&j->cancel, 1);
    fs_task_wait(pool, &j->task);
    int joined = 0;
    /* the first half must have ended at the line start the second begins with (a file cut
     * short since would not) */
    if (st == FOLDSVG_OK && !gave_up && j->st == FOLDSVG_OK && fs_input_offset(in) == at)
        st = sink->join(sink, j->part, stats->lines, &joined, err);
    sink->drop(sink, j->part);
    if (joined) {
        add_stats(stats, &j->stats);
        fs_input_give_progress(in, at + fs_input_raw_consumed(j->in) - j->base, stats->lines);
    }
    fs_input_close(j->in);
    free(j);
    if (st == FOLDSVG_OK && !joined)
        st = fs_folded_read(in, sink, stats, err); /* the rest, here */
    return st;
}

foldsvg_status fs_folded_read_input(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                    foldsvg_error *err)
{
    (void)opts;
    if (sink->facts)
        sink->facts(sink, "folded", "", 0, 0);
    fs_folded_stats stats;
    memset(&stats, 0, sizeof stats);
    FS_FORWARD_IF_ERROR(fs_folded_read_split(in, sink, &stats, err));
    if (sink->stats)
        sink->stats(sink, &stats);
    return FOLDSVG_OK;
}
