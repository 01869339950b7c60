/* The --cp palette map: parsing as inferno does, lookups, and the sorted atomic rewrite. */
#include "render/palettemap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define EXAMPLE FOLDSVG_TEST_DATA "/compat/inputs/tests/data/flamegraph/palette-map/palette.map"

#define ck_rgb(c, R, G, B)                                                                         \
    do {                                                                                           \
        fs_rgb c_ = (c);                                                                           \
        ck_assert_msg(c_.r == (R) && c_.g == (G) && c_.b == (B),                                   \
                      "got rgb(%d,%d,%d), want rgb(%d,%d,%d)", c_.r, c_.g, c_.b, (R), (G), (B));   \
    } while (0)

static fs_rgb rgb(int r, int g, int b)
{
    fs_rgb c = {(uint8_t)r, (uint8_t)g, (uint8_t)b};
    return c;
}

static int get(const fs_palettemap *m, const char *name, fs_rgb *out)
{
    return fs_palettemap_get(m, name, strlen(name), out);
}

static fs_palettemap *parsed(const char *text)
{
    fs_palettemap *m = fs_palettemap_new();
    ck_assert(m != NULL);
    foldsvg_error err;
    ck_assert_int_eq(fs_palettemap_parse(m, text, strlen(text), &err), FOLDSVG_OK);
    return m;
}

/* A fresh directory under /tmp for files; removed by rmdir_all. */
static void tmpdir(char dir[64])
{
    snprintf(dir, 64, "/tmp/fs_pmtest.XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void rm_in(const char *dir, const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    unlink(p);
}

START_TEST(test_put_get)
{
    fs_palettemap *m = fs_palettemap_new();
    ck_assert(m != NULL);
    fs_rgb c;
    ck_assert_int_eq(get(m, "main", &c), 0);
    ck_assert_uint_eq(fs_palettemap_size(m), 0);
    ck_assert_int_eq(fs_palettemap_put(m, "main", 4, rgb(1, 2, 3)), FOLDSVG_OK);
    ck_assert_int_eq(get(m, "main", &c), 1);
    ck_rgb(c, 1, 2, 3);
    /* lookups use the given length, not a NUL */
    ck_assert_int_eq(fs_palettemap_get(m, "mainly", 4, &c), 1);
    ck_assert_int_eq(get(m, "mai", &c), 0);
    /* replacing keeps one entry */
    ck_assert_int_eq(fs_palettemap_put(m, "main", 4, rgb(9, 8, 7)), FOLDSVG_OK);
    ck_assert_uint_eq(fs_palettemap_size(m), 1);
    ck_assert_int_eq(get(m, "main", &c), 1);
    ck_rgb(c, 9, 8, 7);
    /* the root's empty name and names with NUL bytes are names like any other */
    ck_assert_int_eq(fs_palettemap_put(m, "", 0, rgb(255, 230, 55)), FOLDSVG_OK);
    ck_assert_int_eq(fs_palettemap_put(m, "a\0b", 3, rgb(4, 5, 6)), FOLDSVG_OK);
    ck_assert_int_eq(get(m, "", &c), 1);
    ck_rgb(c, 255, 230, 55);
    ck_assert_int_eq(fs_palettemap_get(m, "a\0b", 3, &c), 1);
    ck_rgb(c, 4, 5, 6);
    ck_assert_int_eq(get(m, "a", &c), 0);
    ck_assert_uint_eq(fs_palettemap_size(m), 3);
    fs_palettemap_free(m);
    fs_palettemap_free(NULL);
}
END_TEST

START_TEST(test_parse_lines)
{
    fs_palettemap *m = parsed("main->rgb(1,2,3)\n"
                              "->rgb(255,230,55)\n"
                              "with space->rgb( 10 , 20 ,30 ) \r\n"
                              "plus->rgb(+7,08,255)\n"
                              "later->rgb(1,1,1)\n"
                              "later->rgb(2,2,2)\n"
                              " lead->rgb(3,3,3)\n"
                              "last->rgb(4,5,6)"); /* no final newline */
    fs_rgb c;
    ck_assert_uint_eq(fs_palettemap_size(m), 7);
    ck_assert_int_eq(get(m, "main", &c), 1);
    ck_rgb(c, 1, 2, 3);
    ck_assert_int_eq(get(m, "", &c), 1);
    ck_rgb(c, 255, 230, 55);
    /* the color part and each channel may be padded; "\r\n" ends a line */
    ck_assert_int_eq(get(m, "with space", &c), 1);
    ck_rgb(c, 10, 20, 30);
    /* Rust's u8 parser takes a '+' and leading zeros */
    ck_assert_int_eq(get(m, "plus", &c), 1);
    ck_rgb(c, 7, 8, 255);
    ck_assert_int_eq(get(m, "later", &c), 1);
    ck_rgb(c, 2, 2, 2);
    /* the name is not trimmed */
    ck_assert_int_eq(get(m, " lead", &c), 1);
    ck_assert_int_eq(get(m, "lead", &c), 0);
    ck_assert_int_eq(get(m, "last", &c), 1);
    ck_rgb(c, 4, 5, 6);
    fs_palettemap_free(m);
}
END_TEST

START_TEST(test_parse_invalid_dropped)
{
    fs_palettemap *m = parsed("\n"
                              "noarrow rgb(1,2,3)\n"
                              "two->arrows->rgb(1,2,3)\n"
                              "a->rgb(1,2)\n"
                              "b->rgb(1,2,3,4)\n"
                              "c->rgb(256,0,0)\n"
                              "d->rgb(-1,0,0)\n"
                              "e->rgb(1,2,3\n"
                              "f->(1,2,3)\n"
                              "g->#010203\n"
                              "h->rgb(,2,3)\n"
                              "i->rgb(+,2,3)\n"
                              "j->RGB(1,2,3)\n"
                              "k->rgb(1,2,3) x\n"
                              "ok->rgb(0,0,0)\n");
    fs_rgb c;
    ck_assert_uint_eq(fs_palettemap_size(m), 1);
    ck_assert_int_eq(get(m, "ok", &c), 1);
    ck_rgb(c, 0, 0, 0);
    ck_assert_int_eq(get(m, "two", &c), 0);
    ck_assert_int_eq(get(m, "two->arrows", &c), 0);
    ck_assert_int_eq(get(m, "b", &c), 0);
    fs_palettemap_free(m);
}
END_TEST

START_TEST(test_load_example)
{
    fs_palettemap *m = fs_palettemap_new();
    foldsvg_error err;
    ck_assert_int_eq(fs_palettemap_load(m, EXAMPLE, &err), FOLDSVG_OK);
    /* 229 lines, all valid, all distinct */
    ck_assert_uint_eq(fs_palettemap_size(m), 229);
    fs_rgb c;
    ck_assert_int_eq(get(m, "", &c), 1);
    ck_rgb(c, 255, 230, 55);
    ck_assert_int_eq(get(m, "ClassLoaderData::oops_do", &c), 1);
    ck_rgb(c, 244, 125, 43);
    ck_assert_int_eq(get(m, "GCTaskThread::run", &c), 1);
    ck_rgb(c, 243, 216, 41);
    fs_palettemap_free(m);
}
END_TEST

/* palette_map case: frames whose name is in the map were drawn with the map's color. */
START_TEST(test_palette_map_case)
{
    fs_palettemap *m = fs_palettemap_new();
    ck_assert_int_eq(fs_palettemap_load(m, EXAMPLE, NULL), FOLDSVG_OK);
    char *text = fs_test_slurp(FOLDSVG_TEST_DATA "/compat/expected/palette_map.frames.tsv", NULL);
    ck_assert(text != NULL);
    int checked = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *f[9];
        if (!fs_test_frame_row(line, f))
            continue;
        char *paren = strstr(f[7], " (");
        ck_assert(paren != NULL);
        *paren = '\0';
        const char *name = strcmp(f[7], "all") == 0 ? "" : f[7];
        fs_rgb c;
        if (!get(m, name, &c))
            continue;
        char want[32];
        snprintf(want, sizeof want, "rgb(%d,%d,%d)", c.r, c.g, c.b);
        ck_assert_str_eq(f[4], want);
        checked++;
    }
    ck_assert_int_ge(checked, 30);
    free(text);
    fs_palettemap_free(m);
}
END_TEST

START_TEST(test_load_missing_and_errors)
{
    char dir[64], path[128];
    tmpdir(dir);
    snprintf(path, sizeof path, "%s/absent.map", dir);
    fs_palettemap *m = fs_palettemap_new();
    foldsvg_error err;
    /* a first --cp run has no file yet */
    ck_assert_int_eq(fs_palettemap_load(m, path, &err), FOLDSVG_OK);
    ck_assert_uint_eq(fs_palettemap_size(m), 0);
    /* a directory cannot be read as a map */
    ck_assert_int_eq(fs_palettemap_load(m, dir, &err), FOLDSVG_E_IO);
    ck_assert_int_eq(err.code, FOLDSVG_E_IO);
    ck_assert_str_eq(err.file, dir);
    /* saving into a directory that does not exist */
    snprintf(path, sizeof path, "%s/no/such/dir.map", dir);
    ck_assert_int_eq(fs_palettemap_save(m, path, &err), FOLDSVG_E_IO);
    ck_assert_str_eq(err.file, path);
    ck_assert(strstr(err.message, "palette map") != NULL);
    fs_palettemap_free(m);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_save_sorted)
{
    char dir[64], path[128];
    tmpdir(dir);
    snprintf(path, sizeof path, "%s/palette.map", dir);
    fs_palettemap *m = parsed("zeta->rgb(1,1,1)\n"
                              "alpha->rgb(2,2,2)\n"
                              "->rgb(255,230,55)\n"
                              "Beta->rgb(3,3,3)\n"
                              "alpha2->rgb(4,4,4)\n"
                              "\xc3\xa9t\xc3\xa9->rgb(5,5,5)\n");
    ck_assert_int_eq(fs_palettemap_put(m, "two->arrows", 11, rgb(6, 6, 6)), FOLDSVG_OK);
    foldsvg_error err;
    ck_assert_int_eq(fs_palettemap_save(m, path, &err), FOLDSVG_OK);
    char *text = fs_test_slurp(path, NULL);
    ck_assert(text != NULL);
    /* bytewise: "" < "Beta" < "alpha" < "alpha2" < "two..." < "zeta" < 0xc3... */
    ck_assert_str_eq(text, "->rgb(255,230,55)\n"
                           "Beta->rgb(3,3,3)\n"
                           "alpha->rgb(2,2,2)\n"
                           "alpha2->rgb(4,4,4)\n"
                           "two->arrows->rgb(6,6,6)\n"
                           "zeta->rgb(1,1,1)\n"
                           "\xc3\xa9t\xc3\xa9->rgb(5,5,5)\n");
    free(text);
    /* reading it back gives every entry but the one inferno cannot read either */
    fs_palettemap *back = fs_palettemap_new();
    ck_assert_int_eq(fs_palettemap_load(back, path, &err), FOLDSVG_OK);
    ck_assert_uint_eq(fs_palettemap_size(back), 6);
    fs_rgb c;
    ck_assert_int_eq(get(back, "alpha2", &c), 1);
    ck_rgb(c, 4, 4, 4);
    fs_palettemap_free(back);
    fs_palettemap_free(m);
    rm_in(dir, "palette.map");
    /* no temporary file is left behind */
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_save_replaces_keeping_mode)
{
    char dir[64], path[128];
    tmpdir(dir);
    snprintf(path, sizeof path, "%s/palette.map", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs("old->rgb(1,2,3)\ngarbage line\n", f);
    fclose(f);
    ck_assert_int_eq(chmod(path, 0640), 0);
    fs_palettemap *m = fs_palettemap_new();
    ck_assert_int_eq(fs_palettemap_load(m, path, NULL), FOLDSVG_OK);
    ck_assert_int_eq(fs_palettemap_put(m, "new", 3, rgb(7, 8, 9)), FOLDSVG_OK);
    ck_assert_int_eq(fs_palettemap_save(m, path, NULL), FOLDSVG_OK);
    char *text = fs_test_slurp(path, NULL);
    ck_assert_str_eq(text, "new->rgb(7,8,9)\nold->rgb(1,2,3)\n");
    free(text);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    /* an empty map writes an empty file */
    fs_palettemap *empty = fs_palettemap_new();
    ck_assert_int_eq(fs_palettemap_save(empty, path, NULL), FOLDSVG_OK);
    size_t len = 99;
    text = fs_test_slurp(path, &len);
    ck_assert_uint_eq(len, 0);
    free(text);
    fs_palettemap_free(empty);
    fs_palettemap_free(m);
    rm_in(dir, "palette.map");
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_many_names)
{
    enum { N = 100000 };
    fs_palettemap *m = fs_palettemap_new();
    char name[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "fn_%d", i);
        ck_assert_int_eq(fs_palettemap_put(m, name, (size_t)n, rgb(i % 256, (i / 256) % 256, 7)),
                         FOLDSVG_OK);
    }
    ck_assert_uint_eq(fs_palettemap_size(m), N);
    fs_rgb c;
    for (int i = 0; i < N; i += 997) {
        int n = snprintf(name, sizeof name, "fn_%d", i);
        ck_assert_int_eq(fs_palettemap_get(m, name, (size_t)n, &c), 1);
        ck_rgb(c, i % 256, (i / 256) % 256, 7);
    }
    ck_assert_int_eq(get(m, "fn_100000", &c), 0);
    char dir[64], path[128];
    tmpdir(dir);
    snprintf(path, sizeof path, "%s/big.map", dir);
    ck_assert_int_eq(fs_palettemap_save(m, path, NULL), FOLDSVG_OK);
    fs_palettemap *back = fs_palettemap_new();
    ck_assert_int_eq(fs_palettemap_load(back, path, NULL), FOLDSVG_OK);
    ck_assert_uint_eq(fs_palettemap_size(back), N);
    ck_assert_int_eq(get(back, "fn_99999", &c), 1);
    ck_rgb(c, 99999 % 256, (99999 / 256) % 256, 7);
    fs_palettemap_free(back);
    fs_palettemap_free(m);
    rm_in(dir, "big.map");
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("palettemap");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_put_get);
    tcase_add_test(tc, test_parse_lines);
    tcase_add_test(tc, test_parse_invalid_dropped);
    tcase_add_test(tc, test_load_example);
    tcase_add_test(tc, test_palette_map_case);
    tcase_add_test(tc, test_load_missing_and_errors);
    tcase_add_test(tc, test_save_sorted);
    tcase_add_test(tc, test_save_replaces_keeping_mode);
    tcase_add_test(tc, test_many_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
