/* Whole decimal numbers as the command line and foldsvg's own files write them. */
#ifndef FOLDSVG_UTIL_DECIMAL_H
#define FOLDSVG_UTIL_DECIMAL_H

#include <stdint.h>

/* S whole: digits only (no sign, no white space), at most MAX. 0 and *OUT set, else -1. */
int fs_parse_decimal(const char *s, uint64_t max, uint64_t *out);

#endif
