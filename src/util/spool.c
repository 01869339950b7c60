#include "util/spool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/tmpfile.h"

void fs_spool_init(fs_spool *s, size_t size)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->fd = -1;
}

void fs_spool_clear(fs_spool *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    s->n = 0;
    s->written = s->read = 0;
    s->done = 0;
}

void fs_spool_free(fs_spool *s)
{
    fs_spool_clear(s);
    free(s->v);
    free(s->back);
    s->v = s->back = NULL;
    s->cap = 0;
}

/* The values in memory to the file. */
static foldsvg_status spill(fs_spool *s)
{
    if (s->fd < 0 && (s->fd = fs_tmpfd()) < 0)
        return FOLDSVG_E_IO;
    const unsigned char *p = s->v;
    size_t len = s->n * s->size;
    while (len) {
        ssize_t w = write(s->fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return FOLDSVG_E_IO;
        }
        p += w;
        len -= (size_t)w;
    }
    s->written += s->n;
    s->n = 0;
    return FOLDSVG_OK;
}

foldsvg_status fs_spool_add(fs_spool *s, const void *v, size_t n)
{
    const unsigned char *p = v;
    while (n) {
        if (s->n == FS_SPOOL_HELD)
            FS_FORWARD_IF_ERROR(spill(s));
        size_t k = FS_SPOOL_HELD - s->n < n ? FS_SPOOL_HELD - s->n : n;
        if (s->n + k > s->cap) {
            size_t want = s->cap ? s->cap : 256;
            while (want < s->n + k)
                want *= 2;
            if (want > FS_SPOOL_HELD)
                want = FS_SPOOL_HELD;
            void *grown = realloc(s->v, want * s->size);
            if (!grown)
                return FOLDSVG_E_NOMEM;
            s->v = grown;
            s->cap = want;
        }
        memcpy(s->v + s->n * s->size, p, k * s->size);
        s->n += k;
        p += k * s->size;
        n -= k;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_spool_next(fs_spool *s, const void **v, size_t *n)
{
    *v = NULL;
    *n = 0;
    if (s->read < s->written) {
        if (!s->back && !(s->back = malloc((size_t)FS_SPOOL_HELD * s->size)))
            return FOLDSVG_E_NOMEM;
        size_t k = s->written - s->read < FS_SPOOL_HELD ? (size_t)(s->written - s->read)
                                                        : (size_t)FS_SPOOL_HELD;
        size_t len = k * s->size, got = 0;
        while (got < len) {
            ssize_t r = pread(s->fd, s->back + got, len - got, (off_t)(s->read * s->size + got));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                if (r == 0)
                    errno = EIO;
                return FOLDSVG_E_IO;
            }
            got += (size_t)r;
        }
        s->read += k;
        *v = s->back;
        *n = k;
        return FOLDSVG_OK;
    }
    if (!s->done) {
        s->done = 1;
        *v = s->v;
        *n = s->n;
    }
    return FOLDSVG_OK;
}
