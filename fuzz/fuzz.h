/* Shared by the fuzz targets and the replay driver: every target defines libFuzzer's entry
 * point, so one target's code runs unchanged under libFuzzer and in the normal test suite. */
#ifndef FOLDSVG_FUZZ_H
#define FOLDSVG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant is a crash for libFuzzer (it keeps the input) and a failed test for
 * the replay driver. */
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
