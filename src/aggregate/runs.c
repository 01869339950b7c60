/* Record: varint shared-prefix length, varint (rest length << 1 | differential), the rest's
 * bytes, varint count, and for differential records varint before. Varints are LEB128. */
#include "aggregate/runs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/error.h"
#include "util/prefetch.h"
#include "util/reserve.h"
#include "util/tmpfile.h"

enum { WRITE_BUF = 1 << 20, MAX_VARINT = 10, RESERVE_MIN = 32 << 20 };

foldsvg_status fs_runfile_open(fs_runfile *f)
{
    memset(f, 0, sizeof *f);
    f->buf = malloc(WRITE_BUF);
    if (!f->buf) {
        f->fd = -1;
        return FOLDSVG_E_NOMEM;
    }
    f->fd = fs_tmpfd();
    if (f->fd < 0) {
        free(f->buf);
        f->buf = NULL;
        return FOLDSVG_E_IO;
    }
    return FOLDSVG_OK;
}

void fs_runfile_close(fs_runfile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    free(f->buf);
    memset(f, 0, sizeof *f);
    f->fd = -1;
}

/* Disk space ahead of the writes up to END: the file's reserved bytes doubled, 32 MiB at
 * least (the shuffled bench row's 89 MB of runs in three steps). Space the runs never take
 * goes with the file, which is unlinked. */
static void reserve(fs_runfile *f, uint64_t end)
{
    if (f->no_reserve || end <= f->reserved)
        return;
    uint64_t want = f->reserved + (f->reserved > RESERVE_MIN ? f->reserved : RESERVE_MIN);
    if (want < end)
        want = end;
    if (fs_file_reserve(f->fd, f->reserved, want - f->reserved) == 0)
        f->reserved = want;
    else
        f->no_reserve = 1;
}

static foldsvg_status flush(fs_runfile *f)
{
    /* at the buffer's place in the file: a discarded run's bytes are written over */
    off_t at = (off_t)(f->size - f->buf_len);
    reserve(f, f->size);
    size_t done = 0;
    while (done < f->buf_len) {
        ssize_t w = pwrite(f->fd, f->buf + done, f->buf_len - done, at + (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return FOLDSVG_E_IO;
        done += (size_t)w;
    }
    f->buf_len = 0;
    return FOLDSVG_OK;
}

static foldsvg_status put_bytes(fs_runfile *f, const void *p, size_t n)
{
    const char *s = p;
    while (n > 0) {
        if (f->buf_len == WRITE_BUF) {
            foldsvg_status st = flush(f);
            if (st)
                return st;
        }
        size_t k = WRITE_BUF - f->buf_len < n ? WRITE_BUF - f->buf_len : n;
        memcpy(f->buf + f->buf_len, s, k);
        f->buf_len += k;
        f->size += k;
        s += k;
        n -= k;
    }
    return FOLDSVG_OK;
}

static size_t encode_varint(unsigned char *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (unsigned char)v;
    return n;
}

void fs_run_begin(fs_runfile *f, fs_run *r)
{
    r->off = f->size;
    r->len = 0;
}

foldsvg_status fs_run_put(fs_runfile *f, const char *stack, size_t len, size_t shared,
                          uint64_t count, uint64_t before, int is_diff)
{
    unsigned char head[2 * MAX_VARINT];
    size_t n = encode_varint(head, shared);
    n += encode_varint(head + n, (uint64_t)(len - shared) << 1 | (is_diff != 0));
    foldsvg_status st = put_bytes(f, head, n);
    if (st == FOLDSVG_OK)
        st = put_bytes(f, stack + shared, len - shared);
    n = encode_varint(head, count);
    if (is_diff)
        n += encode_varint(head + n, before);
    return st == FOLDSVG_OK ? put_bytes(f, head, n) : st;
}

foldsvg_status fs_run_end(fs_runfile *f, fs_run *r)
{
    r->len = f->size - r->off;
    return flush(f);
}

void fs_run_discard(fs_runfile *f, const fs_run *r)
{
    f->buf_len = 0;
    f->size = r->off;
}

foldsvg_status fs_run_reader_init(fs_run_reader *r, const fs_runfile *f, fs_run run, size_t bufsize)
{
    memset(r, 0, sizeof *r);
    r->file = f;
    r->pos = run.off;
    r->end = run.off + run.len;
    /* two pages at least: a window mapped from the page of the bytes still in view always
     * reaches past them */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    r->window = bufsize < 2 * page ? 2 * page : bufsize;
    return FOLDSVG_OK;
}

void fs_run_reader_free(fs_run_reader *r)
{
    if (r->map)
        munmap(r->map, r->map_len);
    free(r->buf);
    fs_buf_free(&r->stack);
    memset(r, 0, sizeof *r);
}

/* Maps the window from the page of the bytes still in view on; 0 when the file cannot be
 * mapped. */
static int remap(fs_run_reader *r)
{
    size_t left = r->len - r->at;
    uint64_t from = r->pos - left, base = from - from % (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t n = r->end - base < r->window ? r->end - base : r->window;
    void *m = mmap(NULL, (size_t)n, PROT_READ, MAP_SHARED, r->file->fd, (off_t)base);
    if (m == MAP_FAILED)
        return 0;
    if (r->map)
        munmap(r->map, r->map_len);
    r->map = m;
    r->map_len = (size_t)n;
    r->data = (const unsigned char *)m + (from - base);
    r->at = 0;
    r->len = (size_t)(base + n - from);
    r->pos = base + n;
    return 1;
}

/* Brings more of the run into view, what is left in view kept (at its start); nothing new in
 * view means the end of the run. */
static foldsvg_status refill(fs_run_reader *r)
{
    if (r->pos == r->end)
        return FOLDSVG_OK;
    if (!r->buf && !r->file->no_map && remap(r))
        return FOLDSVG_OK;
    size_t left = r->len - r->at;
    if (!r->buf) { /* reading from now on: the bytes in view, mapped or none, move to BUF */
        r->buf = malloc(r->window);
        if (!r->buf)
            return FOLDSVG_E_NOMEM;
        if (left)
            memcpy(r->buf, r->data + r->at, left);
        if (r->map)
            munmap(r->map, r->map_len);
        r->map = NULL;
    } else {
        memmove(r->buf, r->data + r->at, left);
    }
    r->data = r->buf;
    r->at = 0;
    r->len = left;
    while (r->len < r->window && r->pos < r->end) {
        uint64_t want = r->end - r->pos;
        if (want > r->window - r->len)
            want = r->window - r->len;
        ssize_t got = pread(r->file->fd, r->buf + r->len, (size_t)want, (off_t)r->pos);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return FOLDSVG_E_IO;
        r->len += (size_t)got;
        r->pos += (uint64_t)got;
    }
    return FOLDSVG_OK;
}

static foldsvg_status get_varint(fs_run_reader *r, uint64_t *v)
{
    if (r->len - r->at < MAX_VARINT && r->pos < r->end) {
        foldsvg_status st = refill(r);
        if (st)
            return st;
    }
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (r->at == r->len)
            return FOLDSVG_E_IO;
        unsigned char b = r->data[r->at++];
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return FOLDSVG_OK;
        }
    }
    return FOLDSVG_E_IO;
}

int fs_run_peek_shared(const fs_run_reader *r, uint64_t *shared)
{
    if (r->at == r->len && r->pos == r->end) {
        *shared = 0;
        return 1;
    }
    uint64_t x = 0;
    for (size_t i = r->at, shift = 0; i < r->len && shift < 64; i++, shift += 7) {
        unsigned char b = r->data[i];
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *shared = x;
            return 1;
        }
    }
    return 0;
}

foldsvg_status fs_run_reader_whole(fs_run_reader *r)
{
    if (r->rest_len && fs_buf_append(&r->stack, r->rest, r->rest_len) != 0)
        return FOLDSVG_E_NOMEM;
    r->rest = NULL;
    r->rest_len = 0;
    return FOLDSVG_OK;
}

foldsvg_status fs_run_next(fs_run_reader *r, int *done)
{
    *done = 0;
    if (r->at == r->len && r->pos == r->end) {
        *done = 1;
        return FOLDSVG_OK;
    }
    /* the record's two varints may bring more into view, and move what REST points to */
    if (r->rest && r->len - r->at < 2 * MAX_VARINT && r->pos < r->end)
        FS_FORWARD_IF_ERROR(fs_run_reader_whole(r));
    uint64_t shared, head;
    foldsvg_status st = get_varint(r, &shared);
    if (st == FOLDSVG_OK)
        st = get_varint(r, &head);
    if (st)
        return st;
    uint64_t rest = head >> 1;
    if (shared > r->stack.len + r->rest_len || rest > SIZE_MAX - shared)
        return FOLDSVG_E_IO;
    /* the bytes shared with the stack before: those not in STACK yet are in its REST */
    if (shared > r->stack.len &&
        fs_buf_append(&r->stack, r->rest, (size_t)shared - r->stack.len) != 0)
        return FOLDSVG_E_NOMEM;
    r->stack.len = (size_t)shared;
    r->rest = NULL;
    r->rest_len = 0;
    r->shared = (size_t)shared;
    if (rest <= r->len - r->at && (r->len - r->at - rest >= 2 * MAX_VARINT || r->pos == r->end)) {
        /* in view, with the varints after it: read in place (nothing after them moves it) */
        r->rest = (const char *)r->data + r->at;
        r->rest_len = (size_t)rest;
        r->at += (size_t)rest;
        rest = 0;
    }
    while (rest > 0) {
        if (r->at == r->len) {
            st = refill(r);
            if (st)
                return st;
            if (r->at == r->len)
                return FOLDSVG_E_IO;
        }
        size_t k = r->len - r->at < rest ? r->len - r->at : (size_t)rest;
        if (fs_buf_append(&r->stack, r->data + r->at, k) != 0)
            return FOLDSVG_E_NOMEM;
        r->at += k;
        rest -= k;
    }
    r->is_diff = (int)(head & 1);
    /* The next record's lines asked for now, while this one is merged: a final merge takes
     * one record at a time from each of its runs' windows in turn, and each first touch of
     * a record was a miss (the shuffled bench row's merging thread spent a third of its
     * time in fs_run_next, the row took 0.92x the wall time with this in 31 pairs) */
    if (r->len - r->at > 64)
        fs_prefetch_span(r->data + r->at, r->len - r->at, 1024);
    st = get_varint(r, &r->count);
    r->before = 0;
    if (st == FOLDSVG_OK && r->is_diff)
        st = get_varint(r, &r->before);
    return st;
}
