/* gzip in memory, for the targets that feed compressed input (firefox.c, convert.c). */
#ifndef FOLDSVG_FUZZ_GZIP_H
#define FOLDSVG_FUZZ_GZIP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

/* DATA gzip-compressed at LEVEL into a new buffer (*OUT_LEN); NULL when out of memory. */
static inline unsigned char *fuzz_gzip(const uint8_t *data, size_t size, int level, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&zs, (uLong)size) + 32;
    unsigned char *out = malloc(cap);
    if (!out) {
        deflateEnd(&zs);
        return NULL;
    }
    zs.next_in = (Bytef *)(uintptr_t)data;
    zs.avail_in = (uInt)size;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    int rc = deflate(&zs, Z_FINISH);
    *out_len = cap - zs.avail_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

#endif
