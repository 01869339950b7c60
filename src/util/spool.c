#include "util/spool.h"

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
    s->limit = FS_SPOOL_HELD;
    s->fd = -1;
}

void fs_spool_clear(fs_spool *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    s->limit = FS_SPOOL_HELD; /* (the disk may take the next sequence) */
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

/* The values in memory to the file; where the disk takes none (no temporary file can be
 * made, or it is full), they stay in memory and grow from then on. */
static void spill(fs_spool *s)
{
    if (s->fd < 0)
        s->fd = fs_tmpfd();
    if (s->fd < 0 || fs_write_all(s->fd, s->v, s->n * s->size) != 0) {
        s->limit = SIZE_MAX / s->size; /* (a part written lies past the values, never read) */
        return;
    }
    s->written += s->n;
    s->n = 0;
}

foldsvg_status fs_spool_add(fs_spool *s, const void *v, size_t n)
{
    const unsigned char *p = v;
    while (n) {
        if (s->n == s->limit)
            spill(s);
        size_t k = s->limit - s->n < n ? s->limit - s->n : n;
        if (s->n + k > s->cap) {
            size_t want = s->cap ? s->cap : 256;
            while (want < s->n + k && want <= SIZE_MAX / 2)
                want *= 2;
            if (want > s->limit)
                want = s->limit;
            if (want < s->n + k || want > SIZE_MAX / s->size)
                return FOLDSVG_E_NOMEM;
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
        if (fs_read_all(s->fd, s->back, k * s->size, s->read * s->size) != 0)
            return FOLDSVG_E_IO;
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
