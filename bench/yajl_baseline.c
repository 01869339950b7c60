/* The benchmark baseline for the Firefox-Profiler reader: a bare yajl parse of a JSON file
 * whose callbacks do nothing (the same callback set and raw number callback as
 * src/formats/firefox/sax.c, the chunk size and UTF-8 validation of src/formats/json/json.c),
 * so the reader's cost over plain JSON lexing can be measured.
 *
 * Build and run:
 *   cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L bench/yajl_baseline.c \
 *      $(pkg-config --cflags --libs yajl) -o /tmp/yajl_baseline
 *   /usr/bin/time -v /tmp/yajl_baseline big.json
 * (gzip is not undone here: compare on plain JSON.) */
#include <stdio.h>
#include <stdlib.h>

#include <yajl/yajl_parse.h>

static int nop(void *ctx)
{
    (void)ctx;
    return 1;
}

static int nop_bool(void *ctx, int b)
{
    (void)ctx;
    (void)b;
    return 1;
}

static int nop_text(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    (void)s;
    (void)n;
    return 1;
}

static int nop_str(void *ctx, const unsigned char *s, size_t n)
{
    (void)ctx;
    (void)s;
    (void)n;
    return 1;
}

static const yajl_callbacks callbacks = {nop, nop_bool, NULL, NULL, nop_text, nop_str,
                                         nop, nop_str,  nop,  nop,  nop};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.json\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    enum { CHUNK = 1 << 18 };
    unsigned char *buf = malloc(CHUNK);
    yajl_handle h = yajl_alloc(&callbacks, NULL, NULL);
    if (!buf || !h) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    size_t got, total = 0;
    yajl_status st = yajl_status_ok;
    while (st == yajl_status_ok && (got = fread(buf, 1, CHUNK, f)) > 0) {
        st = yajl_parse(h, buf, got);
        total += got;
    }
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    if (st != yajl_status_ok) {
        unsigned char *m = yajl_get_error(h, 0, NULL, 0);
        fprintf(stderr, "%s: %s\n", argv[1], (const char *)m);
        yajl_free_error(h, m);
    } else {
        printf("%zu bytes parsed\n", total);
    }
    yajl_free(h);
    free(buf);
    fclose(f);
    return st == yajl_status_ok ? 0 : 1;
}
