#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fs_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

char *fs_test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int fs_test_frame_row(char *line, char *cols[9])
{
    if (line[0] == '#')
        return 0;
    int k = 0;
    for (char *p = line; k < 9; k++) {
        cols[k] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    for (int i = k + 1; i < 9; i++)
        cols[i] = NULL;
    return k >= 7;
}

int fs_test_collect_frame(void *user, const fs_frame *f)
{
    fs_test_frames *l = user;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->f = realloc(l->f, l->cap * sizeof *l->f);
        ck_assert_ptr_nonnull(l->f);
    }
    l->f[l->n++] = *f;
    return 0;
}
