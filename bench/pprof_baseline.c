/* The benchmark baseline for the pprof reader: the file read whole and unpacked by
 * protobuf-c (the code protoc-c generates from src/formats/pprof/profile.proto, with its
 * default allocator), then freed: what any protobuf-c program pays before it looks at a
 * sample, so the reader's cost over unpacking can be measured.
 *
 * Build (bench/run.sh does):
 *   protoc-c --c_out=DIR --proto_path=src/formats/pprof profile.proto
 *   cc -O2 -IDIR bench/pprof_baseline.c DIR/profile.pb-c.c -lprotobuf-c -o pprof_baseline
 * (gzip is not undone here: compare on a plain profile.) */
#include <stdio.h>
#include <stdlib.h>

#include "profile.pb-c.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pprof_baseline FILE.pb\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            unsigned char *b = realloc(buf, cap * 2);
            if (!b)
                return 1;
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, n, buf);
    free(buf);
    if (!p) {
        fprintf(stderr, "%s: not a pprof profile\n", argv[1]);
        return 1;
    }
    printf("%zu samples, %zu locations\n", p->n_sample, p->n_location);
    perftools__profiles__profile__free_unpacked(p, NULL);
    return 0;
}
