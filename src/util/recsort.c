#include "util/recsort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/tmpfile.h"

enum { MIN_RECORDS = 16 };

/* A run being read: records [next, end) of the file not yet in BUF, BUF[at..n) in it. */
typedef struct run {
    uint64_t next, end;
    unsigned char *buf;
    size_t at, n;
} run;

struct fs_recsort {
    size_t size, cap; /* bytes a record; records the buffer holds at most */
    fs_recsort_cmp cmp;
    size_t budget;
    unsigned char *buf; /* the records not yet in a run */
    size_t n, buf_cap;
    int fd;          /* the runs, one after another; -1 until the first */
    int no_disk;     /* the disk took no run: the buffer grows instead */
    size_t written;  /* runs in the file */
    uint64_t stored; /* records in the file */
    run *runs;
    size_t nruns, runs_cap;
    /* the reading: from BUF (no runs) or a min-heap of the runs by their next record */
    size_t at;
    size_t *heap, nheap, per;
    unsigned char *cur; /* the record handed out, copied off its run's buffer */
};

fs_recsort *fs_recsort_new(size_t size, size_t budget, fs_recsort_cmp cmp)
{
    if (!size)
        return NULL;
    fs_recsort *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->size = size;
    s->cmp = cmp;
    s->budget = budget;
    s->cap = budget / size < MIN_RECORDS ? MIN_RECORDS : budget / size;
    s->fd = -1;
    return s;
}

void fs_recsort_free(fs_recsort *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nruns; i++)
        free(s->runs[i].buf);
    free(s->runs);
    free(s->heap);
    free(s->cur);
    free(s->buf);
    if (s->fd >= 0)
        close(s->fd);
    free(s);
}

size_t fs_recsort_runs(const fs_recsort *s)
{
    return s->written;
}

/* The buffer, sorted, as the next run. Where the disk takes none (no temporary file can be
 * made, or the disk is full) the buffer stays and grows from then on, as the folded sorter
 * keeps its stacks in memory then. */
static foldsvg_status spill(fs_recsort *s)
{
    if (FS_GROW(s->runs, s->runs_cap, s->nruns + 2, 16)) /* (and the buffer's, at the end) */
        return FOLDSVG_E_NOMEM;
    qsort(s->buf, s->n, s->size, s->cmp);
    if (s->fd < 0)
        s->fd = fs_tmpfd();
    if (s->fd < 0 || fs_write_all(s->fd, s->buf, s->n * s->size) != 0) {
        s->no_disk = 1; /* (a part written lies past the runs, never read) */
        s->cap = SIZE_MAX / s->size;
        return FOLDSVG_OK;
    }
    s->written++;
    s->runs[s->nruns++] = (run){s->stored, s->stored + s->n, NULL, 0, 0};
    s->stored += s->n;
    s->n = 0;
    return FOLDSVG_OK;
}

foldsvg_status fs_recsort_add(fs_recsort *s, const void *rec)
{
    if (s->n == s->cap)
        FS_FORWARD_IF_ERROR(spill(s));
    /* grown as records come: a few events take a few bytes, not the budget */
    if (s->n == s->buf_cap) {
        size_t want = s->buf_cap ? s->buf_cap * 2 : 64;
        if (want > s->cap)
            want = s->cap;
        if (want <= s->buf_cap || want > SIZE_MAX / s->size)
            return FOLDSVG_E_NOMEM;
        void *p = realloc(s->buf, want * s->size);
        if (!p)
            return FOLDSVG_E_NOMEM;
        s->buf = p;
        s->buf_cap = want;
    }
    memcpy(s->buf + s->n * s->size, rec, s->size);
    s->n++;
    return FOLDSVG_OK;
}

/* Reads R's next records into its buffer. */
static foldsvg_status refill(fs_recsort *s, run *r)
{
    size_t want = r->end - r->next < s->per ? (size_t)(r->end - r->next) : s->per;
    if (fs_read_all(s->fd, r->buf, want * s->size, r->next * s->size) != 0)
        return FOLDSVG_E_IO;
    r->next += want;
    r->at = 0;
    r->n = want;
    return FOLDSVG_OK;
}

static const unsigned char *head(const fs_recsort *s, size_t i)
{
    const run *r = &s->runs[i];
    return r->buf + r->at * s->size;
}

static void sift_down(fs_recsort *s, size_t i)
{
    size_t x = s->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->nheap)
            break;
        if (c + 1 < s->nheap && s->cmp(head(s, s->heap[c + 1]), head(s, s->heap[c])) < 0)
            c++;
        if (s->cmp(head(s, s->heap[c]), head(s, x)) >= 0)
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    s->heap[i] = x;
}

foldsvg_status fs_recsort_finish(fs_recsort *s)
{
    if (!s->nruns) {
        if (s->n > 1)
            qsort(s->buf, s->n, s->size, s->cmp);
        return FOLDSVG_OK;
    }
    if (s->n && !s->no_disk)
        FS_FORWARD_IF_ERROR(spill(s));
    if (s->n) { /* the disk took no more: the rest is a run in memory */
        if (s->n > 1)
            qsort(s->buf, s->n, s->size, s->cmp);
        s->runs[s->nruns++] = (run){0, 0, s->buf, 0, s->n};
    } else {
        free(s->buf);
    }
    s->buf = NULL;
    s->buf_cap = 0;
    /* the budget shared by the runs' buffers */
    s->per = s->budget / s->size / s->nruns;
    if (s->per < MIN_RECORDS)
        s->per = MIN_RECORDS;
    if (!(s->heap = malloc(s->nruns * sizeof *s->heap)) || !(s->cur = malloc(s->size)))
        return FOLDSVG_E_NOMEM;
    for (size_t i = 0; i < s->nruns; i++) {
        run *r = &s->runs[i];
        if (!r->buf && !(r->buf = malloc(s->per * s->size)))
            return FOLDSVG_E_NOMEM;
        if (r->next < r->end)
            FS_FORWARD_IF_ERROR(refill(s, r));
        s->heap[s->nheap++] = i;
    }
    for (size_t i = s->nheap / 2; i-- > 0;)
        sift_down(s, i);
    return FOLDSVG_OK;
}

foldsvg_status fs_recsort_next(fs_recsort *s, const void **rec)
{
    *rec = NULL;
    if (!s->nruns) {
        if (s->at < s->n)
            *rec = s->buf + s->size * s->at++;
        return FOLDSVG_OK;
    }
    if (!s->nheap)
        return FOLDSVG_OK;
    run *r = &s->runs[s->heap[0]];
    memcpy(s->cur, head(s, s->heap[0]), s->size);
    *rec = s->cur;
    if (++r->at == r->n) {
        if (r->next < r->end) {
            FS_FORWARD_IF_ERROR(refill(s, r));
        } else {
            free(r->buf);
            r->buf = NULL;
            s->heap[0] = s->heap[--s->nheap];
        }
    }
    if (s->nheap)
        sift_down(s, 0);
    return FOLDSVG_OK;
}
