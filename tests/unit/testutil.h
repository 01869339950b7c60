#ifndef FOLDSVG_TESTUTIL_H
#define FOLDSVG_TESTUTIL_H
#include <check.h>
#include <stddef.h>

/* Runs one suite and returns the process exit status (0 when every test passed). */
int fs_test_run(Suite *s);
/* Reads a whole file into a NUL-terminated malloc'd buffer; NULL on error. */
char *fs_test_slurp(const char *path, size_t *len);

#endif
