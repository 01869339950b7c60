#ifndef FOLDSVG_TESTUTIL_H
#define FOLDSVG_TESTUTIL_H
#include <check.h>
#include <stddef.h>

#include "frames/merge.h"

/* tests/data and tests/tools of the source tree, set by tests/CMakeLists.txt: the suites
 * read nothing from outside the repository. */
#if !defined(FOLDSVG_TEST_DATA) || !defined(FOLDSVG_TEST_TOOLS)
#error "FOLDSVG_TEST_DATA and FOLDSVG_TEST_TOOLS come from tests/CMakeLists.txt"
#endif

/* Runs one suite and returns the process exit status (0 when every test passed). */
int fs_test_run(Suite *s);
/* Reads a whole file into a NUL-terminated malloc'd buffer; NULL on error. */
char *fs_test_slurp(const char *path, size_t *len);

/* Splits a frame row of a compat frames TSV (tests/data/compat/expected) in place into its
 * columns (y, x, width, height, fill, fg_x, fg_w, title, label). Returns 0 for header
 * lines ('#') and rows with fewer than 8 columns, else 1. */
int fs_test_frame_row(char *line, char *cols[9]);

/* Frames collected in order (fs_frame_fn: fs_test_collect_frame with a fs_test_frames;
 * free F). */
typedef struct fs_test_frames {
    fs_frame *f;
    size_t n, cap;
} fs_test_frames;
int fs_test_collect_frame(void *user, const fs_frame *f);

#endif
