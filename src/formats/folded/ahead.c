/* A ring of NBLOCK blocks: the reader thread fills one (bytes, then a record of every line
 * in it) while the caller works through the one before; they meet on a lock once a block,
 * not once a line. A block's incomplete last line is copied to the start of the next one. */
#include "formats/folded/ahead.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/folded/folded.h"
#include "formats/folded/split.h"
#include "util/bytepos.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"
#include "util/strmap.h"
#include "util/thread.h"

/* A side that has to wait waits for SLACK blocks, not one: the threads meet less often.
 * Each meeting where one side sleeps costs a futex wake, an interrupt to the other core on
 * a virtual machine: with 64 KiB blocks (2,500 futex calls for the sorted bench row) the
 * row took 1.06x to 1.19x the wall time of 256 KiB ones (474 calls), in 0.5 MiB less. */
enum { NBLOCK = 8, SLACK = NBLOCK / 2, BLOCK = 256 << 10, ONE_READ = 1 << 20 };

/* One line as the reader thread parsed it. */
typedef struct rec {
    uint32_t off, len; /* the stack, in the block's bytes (a block stays below 4 GiB) */
    uint64_t count, before, hash;
    uint32_t semi, nsemi; /* its ';' positions: semis[semi, semi + nsemi), when HAS_SEMIS */
    /* the valid line before is BACK lines before (0: none known); SHARED, when HAS_SHARED, is
     * where the two first differ (fs_folded_line's shared) */
    uint32_t shared, back;
    signed char verdict;
    unsigned char has_hash, has_semis, has_shared; /* fs_folded_parse_line's */
    unsigned char is_diff, frac;
} rec;

typedef struct block {
    char *data;
    size_t cap;
    rec *recs;
    size_t nrec;
    uint32_t *semis;
    size_t nsemis, semis_cap;
    /* the last block: the input's end or ST (an error in ERR) after its lines */
    int last;
    foldsvg_status st;
    foldsvg_error err;
    uint64_t done; /* the raw bytes read once it was filled, for the caller's progress */
} block;

typedef struct ahead {
    fs_input *in;
    size_t rcap;  /* records a block holds */
    size_t block; /* a block's size, until a long line grows it */
    pthread_mutex_t mu;
    pthread_cond_t cv_data, cv_free;
    block b[NBLOCK];
    uint64_t head, tail; /* blocks [tail, head) are full; head % NBLOCK is being filled */
    int finished;        /* the last block is published */
    uint64_t reader_need, caller_need; /* a waiting side's tail or head to wake at, or 0 */
    int stop;                          /* the caller needs no more */
    uint64_t lines;                    /* lines recorded (the reader's) */
    unsigned hints;                    /* the sink's (FS_HINT_*) */
    int hash_block;                    /* the block being filled gets its stacks' hashes */
    int semis_block;                   /* ... and their ';' positions */
    int shared_block;                  /* ... and what each shares with the line before */
    /* FS_HINT_SHARED: the last valid line's stack, its line and block (bytes of the block
     * being filled and of the one before stay where they are) */
    const char *prev;
    size_t prev_len;
    uint64_t prev_line, prev_block;
} ahead;

/* Records the line DATA[start, end) in B; 0 when B's records are full. */
static int record(ahead *a, block *b, size_t start, size_t end)
{
    if (b->nrec == a->rcap)
        return 0;
    fs_folded_line fl;
    int frac = 0;
    int r = fs_folded_parse_line(b->data + start, end - start, &fl, &frac);
    rec *x = &b->recs[b->nrec++];
    x->verdict = (signed char)r;
    x->frac = (unsigned char)frac;
    x->shared = x->back = 0;
    x->has_shared = 0;
    if (r > 0) {
        x->off = (uint32_t)(fl.stack - b->data);
        x->len = (uint32_t)fl.len;
        x->count = fl.count;
        x->before = fl.before;
        x->is_diff = (unsigned char)fl.is_diff;
        x->has_hash = (unsigned char)a->hash_block;
        if (x->has_hash)
            x->hash = fs_strmap_hash(fl.stack, fl.len);
        if (a->prev && a->lines - a->prev_line < UINT32_MAX) {
            x->back = (uint32_t)(a->lines - a->prev_line);
            if (a->shared_block) {
                size_t m = fl.len < a->prev_len ? fl.len : a->prev_len;
                x->shared = (uint32_t)fs_mismatch(fl.stack, a->prev, m);
                x->has_shared = 1;
            }
        }
        x->semi = (uint32_t)b->nsemis;
        x->has_semis = (unsigned char)a->semis_block;
        /* a sorted line's ';' before the bytes it shares with the line before are that
         * line's: only the rest is looked for (fs_folded_line.semis) */
        size_t from = x->has_shared ? x->shared : 0;
        if (x->has_semis &&
            fs_byte_positions_add(fl.stack + from, fl.len - from, ';', (uint32_t)from, &b->semis,
                                  &b->semis_cap, &b->nsemis) != FOLDSVG_OK)
            x->has_semis = 0; /* the caller's thread finds them */
        x->nsemi = (uint32_t)(b->nsemis - x->semi);
        if (a->hints & FS_HINT_SHARED) {
            a->prev = fl.stack;
            a->prev_len = fl.len;
            a->prev_line = a->lines;
            a->prev_block = a->head;
        }
    } else { /* blank, comment or invalid: only its verdict is read, but no field is left unset */
        *x = (rec){.verdict = (signed char)r, .frac = (unsigned char)frac};
    }
    a->lines++;
    return 1;
}

/* Waits until block W is free (or the caller stopped): 0 to go on. Which thread hashes the
 * stacks of block W (for the sorter), or finds their ';' and what each shares with the line
 * before (for the merge), is chosen here, by which one is behind: the reader when the caller
 * has SLACK blocks or more still to take, the caller's thread (as it takes the lines)
 * otherwise. The work then moves to whichever thread has a core to spare; the hashes and
 * positions are the same on either side, and the shares too but for a block's first line
 * (the caller no longer has the line before): the merge then compares it itself. */
static int wait_free(ahead *a, uint64_t w)
{
    pthread_mutex_lock(&a->mu);
    if (w - a->tail >= NBLOCK) {
        a->reader_need = w + 1 - NBLOCK + SLACK;
        while (a->tail < a->reader_need && !a->stop)
            pthread_cond_wait(&a->cv_free, &a->mu);
        a->reader_need = 0;
    }
    int behind = w - a->tail >= SLACK;
    a->hash_block = (a->hints & FS_HINT_HASH) && behind;
    a->semis_block = (a->hints & FS_HINT_SEMIS) && behind;
    a->shared_block = (a->hints & FS_HINT_SHARED) && behind;
    int stop = a->stop;
    pthread_mutex_unlock(&a->mu);
    return !stop;
}

static void publish(ahead *a, int last)
{
    pthread_mutex_lock(&a->mu);
    a->head++;
    a->finished = last;
    if (a->caller_need && (a->head >= a->caller_need || last))
        pthread_cond_signal(&a->cv_data);
    pthread_mutex_unlock(&a->mu);
}

/* Fills block B from its first HAVE bytes (line ends looked for from SCAN on), leaving in
 * *START where its incomplete last line begins; returns the bytes in it. */
static size_t fill(ahead *a, block *b, size_t have, size_t scan, size_t *start)
{
    fs_input *in = a->in;
    *start = 0;
    for (;;) {
        const char *nl;
        while (scan < have && (nl = memchr(b->data + scan, '\n', have - scan)) != NULL) {
            size_t end = (size_t)(nl - b->data);
            if (!record(a, b, *start, end))
                return have;
            *start = end + 1;
            scan = *start;
        }
        scan = have;
        /* a block grown for a long line holds no more than a block's bytes after it */
        if (b->nrec > 0 && (have == b->cap || have >= a->block))
            return have; /* the rest goes to the next block */
        if (have == b->cap) {
            /* one line fills the block: grow up to the documented limit */
            if (b->cap >= FS_MAX_LINE) {
                b->st =
                    fs_error_at_line(&b->err, FOLDSVG_E_LIMIT, fs_input_name(in), a->lines + 1, 0,
                                     "line longer than %zu bytes; is this a folded-stack "
                                     "file?",
                                     (size_t)FS_MAX_LINE);
                b->last = 1;
                return have;
            }
            if (fs_resize(&b->data, b->cap * 2, 1) != FOLDSVG_OK) {
                b->st = fs_error(&b->err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
                b->last = 1;
                return have;
            }
            b->cap *= 2;
        }
        size_t got;
        size_t room = b->cap - have < a->block ? b->cap - have : a->block;
        b->st = fs_input_read(in, b->data + have, room, &got, &b->err);
        if (b->st) {
            b->last = 1;
            return have;
        }
        if (got == 0) {
            /* The end of a file ends its last line. */
            if (*start < have && record(a, b, *start, have))
                *start = have;
            b->last = *start == have; /* else the next block takes the last line */
            return have;
        }
        have += got;
    }
}

static void *reader_main(void *arg)
{
    ahead *a = arg;
    uint64_t w = 0;
    size_t have = 0, scan = 0;
    for (;;) {
        block *b = &a->b[w % NBLOCK];
        b->nrec = b->nsemis = 0;
        if (a->prev && a->prev_block + 1 < w)
            a->prev = NULL; /* its block may be filled again before the next valid line */
        /* a block grown for a long line shrinks back: long lines here and there must not
         * leave every block of the ring that large */
        if (b->cap > a->block && have <= a->block && fs_resize(&b->data, a->block, 1) == FOLDSVG_OK)
            b->cap = a->block;
        size_t start;
        have = fill(a, b, have, scan, &start);
        if (!b->last) {
            /* the incomplete line (or the lines past full records) into the next block */
            block *next = &a->b[(w + 1) % NBLOCK];
            size_t rest = have - start;
            if (!wait_free(a, w + 1))
                return NULL;
            if (rest > next->cap && fs_resize(&next->data, rest, 1) != FOLDSVG_OK) {
                b->st = fs_error(&b->err, FOLDSVG_E_NOMEM, fs_input_name(a->in), "out of memory");
                b->last = 1;
            } else {
                if (rest > next->cap)
                    next->cap = rest;
                memcpy(next->data, b->data + start, rest);
                /* only bytes past a full block's records can hold line ends */
                scan = b->nrec == a->rcap ? 0 : rest;
                have = rest;
            }
        }
        int last = b->last;
        b->done = fs_input_raw_consumed(a->in);
        publish(a, last);
        if (last || !wait_free(a, ++w))
            return NULL;
    }
}

static void ahead_free(ahead *a)
{
    for (int i = 0; i < NBLOCK; i++) {
        free(a->b[i].data);
        free(a->b[i].recs);
        free(a->b[i].semis);
    }
    free(a);
}

/* A share found on the caller's thread: that of record AT (SIZE_MAX: none) with the valid
 * line before it. */
typedef struct carry {
    size_t at, shared;
} carry;

/* Into FL (record I of B, line LINENO): what it shares with the valid line before it and
 * with the next one, where the reader found them or this block holds both lines. The next
 * one's share found here is kept in C for its turn. */
static void shares_of(const ahead *a, const block *b, size_t i, uint64_t lineno, fs_folded_line *fl,
                      carry *c)
{
    const rec *x = &b->recs[i];
    if (x->has_shared || c->at == i) {
        fl->shared_with = lineno - x->back;
        fl->shared = x->has_shared ? x->shared : c->shared;
    }
    if (x->verdict <= 0)
        return;
    size_t j = i + 1;
    while (j < b->nrec && b->recs[j].verdict <= 0)
        j++;
    if (j == b->nrec || b->recs[j].back != j - i)
        return;
    const rec *y = &b->recs[j];
    size_t next;
    if (y->has_shared) {
        next = y->shared;
    } else if (a->hints & FS_HINT_SHARED) {
        size_t m = x->len < y->len ? x->len : y->len;
        next = fs_mismatch(b->data + x->off, b->data + y->off, m);
        *c = (carry){j, next};
    } else {
        return;
    }
    fl->next_line = lineno + (j - i);
    fl->next_shared = next;
}

/* The caller's side: every record of every block into the sink, in order. */
static foldsvg_status consume(ahead *a, fs_sink *sink, fs_folded_stats *stats, foldsvg_error *err)
{
    uint64_t lineno = stats->lines; /* as the reader numbers them (a->lines is its) */
    for (;;) {
        pthread_mutex_lock(&a->mu);
        if (a->tail == a->head) {
            /* but not for the first: the lines it holds may already decide the route (an
             * unsorted input's first pass stops there), and the reader is ahead from then on */
            a->caller_need = a->tail + (a->tail == 0 ? 1 : SLACK);
            while (a->head < a->caller_need && !a->finished)
                pthread_cond_wait(&a->cv_data, &a->mu);
            a->caller_need = 0;
        }
        pthread_mutex_unlock(&a->mu);
        block *b = &a->b[a->tail % NBLOCK];
        carry c = {SIZE_MAX, 0};
        for (size_t i = 0; i < b->nrec; i++) {
            const rec *x = &b->recs[i];
            fs_folded_line fl = {.stack = b->data + x->off,
                                 .len = x->len,
                                 .count = x->count,
                                 .before = x->before,
                                 .is_diff = x->is_diff,
                                 .hash = x->hash,
                                 .has_hash = x->has_hash,
                                 .semis = x->has_semis ? b->semis + x->semi : NULL,
                                 .nsemis = x->nsemi};
            ++lineno;
            shares_of(a, b, i, lineno, &fl, &c);
            foldsvg_status st = fs_folded_take(x->verdict, &fl, x->frac, lineno, sink, stats, err);
            if (st)
                return st;
        }
        if (b->st) {
            if (err)
                *err = b->err;
            return b->st;
        }
        fs_input_give_progress(a->in, b->done, lineno);
        if (b->last)
            return FOLDSVG_OK;
        pthread_mutex_lock(&a->mu);
        a->tail++;
        if (a->reader_need && a->tail >= a->reader_need)
            pthread_cond_signal(&a->cv_free);
        pthread_mutex_unlock(&a->mu);
    }
}

foldsvg_status fs_folded_read_ahead(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                    size_t block_size, int *ran, foldsvg_error *err)
{
    *ran = 0;
    ahead *a = calloc(1, sizeof *a);
    if (!a)
        return FOLDSVG_OK;
    a->in = in;
    a->lines = stats->lines; /* a part of the input goes on from the part before */
    a->hints = sink->hints;
    a->block = block_size;
    a->rcap = block_size / sizeof(rec) + 1; /* shorter lines on average fill a block in parts */
    int ok = 1;
    for (int i = 0; ok && i < NBLOCK; i++) {
        a->b[i].data = malloc(block_size);
        a->b[i].cap = block_size;
        a->b[i].recs = malloc(a->rcap * sizeof(rec));
        ok = a->b[i].data && a->b[i].recs;
    }
    if (!ok || pthread_mutex_init(&a->mu, NULL) != 0) {
        ahead_free(a);
        return FOLDSVG_OK;
    }
    pthread_t thread;
    int have_data = pthread_cond_init(&a->cv_data, NULL) == 0;
    int have_free = have_data && pthread_cond_init(&a->cv_free, NULL) == 0;
    fs_input_hold_warnings(in); /* given on this thread once the reader is done */
    if (!have_free || fs_thread_create(&thread, reader_main, a) != 0) {
        fs_input_release_warnings(in);
        if (have_free)
            pthread_cond_destroy(&a->cv_free);
        if (have_data)
            pthread_cond_destroy(&a->cv_data);
        pthread_mutex_destroy(&a->mu);
        ahead_free(a);
        return FOLDSVG_OK;
    }
    *ran = 1;
    foldsvg_status st = consume(a, sink, stats, err);
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_signal(&a->cv_free);
    pthread_mutex_unlock(&a->mu);
    pthread_join(thread, NULL);
    fs_input_release_warnings(in);
    pthread_cond_destroy(&a->cv_data);
    pthread_cond_destroy(&a->cv_free);
    pthread_mutex_destroy(&a->mu);
    ahead_free(a);
    return st;
}

/* IN from where it stands into SINK, read ahead unless it is one block anyway. */
static foldsvg_status read_on(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                              foldsvg_error *err)
{
    uint64_t size = fs_input_raw_size(in);
    int ran = 0;
    foldsvg_status st = FOLDSVG_OK;
    if (size == 0 || size > ONE_READ)
        st = fs_folded_read_ahead(in, sink, stats, BLOCK, &ran, err);
    return ran ? st : fs_folded_read(in, sink, stats, err);
}

foldsvg_status fs_folded_read_input(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                    foldsvg_error *err)
{
    (void)opts;
    if (sink->facts)
        sink->facts(sink, "folded", "", 0, 0);
    fs_folded_stats stats;
    memset(&stats, 0, sizeof stats);
    int ran = 0;
    foldsvg_status st = fs_folded_read_split(in, sink, &stats, read_on, &ran, err);
    if (!ran)
        st = read_on(in, sink, &stats, err);
    FS_FORWARD_IF_ERROR(st);
    if (sink->stats)
        sink->stats(sink, &stats);
    return FOLDSVG_OK;
}
