/* The self and inclusive tables against sums worked out by hand, and their writers. */
#include "analysis/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static fs_tree tree;

static void add(const char *path, uint64_t count)
{
    ck_assert_int_eq(fs_tree_add_path(&tree, path, strlen(path), count, 0, 0, NULL), FOLDSVG_OK);
}

static void setup(void)
{
    ck_assert_int_eq(fs_tree_init(&tree), FOLDSVG_OK);
}

static void teardown(void)
{
    fs_tree_free(&tree);
}

#define ck_row(row, nm, cnt)                                                                       \
    do {                                                                                           \
        const fs_top_row *r_ = &(row);                                                             \
        ck_assert_msg(r_->len == strlen(nm) && memcmp(r_->name, nm, r_->len) == 0,                 \
                      "name %.*s, want %s", (int)r_->len, r_->name, nm);                           \
        ck_assert_uint_eq(r_->count, (cnt));                                                       \
    } while (0)

/* Runs a writer into memory; the caller frees. */
static char *written(const fs_tables *tb, int format, uint64_t per)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    foldsvg_error err;
    ck_assert_int_eq(fs_tables_write(tb, format, per, "cycles", f, &err), FOLDSVG_OK);
    fclose(f);
    return buf;
}

START_TEST(self_and_inclusive)
{
    add("main;a;b", 10);
    add("main;a", 5);
    add("main;b;a;b", 3); /* a and b recur: once each in inclusive time */
    add("other", 2);
    fs_tables tb;
    ck_assert_int_eq(fs_tables_compute(&tree, 0, &tb), FOLDSVG_OK);
    ck_assert_uint_eq(tb.total, 20);
    ck_assert_uint_eq(tb.unique, 4);
    /* self: b = 10 + 3, a = 5, other = 2 */
    ck_assert_uint_eq(tb.nself, 3);
    ck_row(tb.self[0], "b", 13);
    ck_row(tb.self[1], "a", 5);
    ck_row(tb.self[2], "other", 2);
    /* inclusive: a = 10 + 5 + 3, main = 18 (tie: by name), b = 10 + 3, other = 2 */
    ck_assert_uint_eq(tb.nincl, 4);
    ck_row(tb.incl[0], "a", 18);
    ck_row(tb.incl[1], "main", 18);
    ck_row(tb.incl[2], "b", 13);
    ck_row(tb.incl[3], "other", 2);
    fs_tables_free(&tb);
}
END_TEST

START_TEST(limit_and_ties)
{
    add("z", 4);
    add("y", 4);
    add("x", 4);
    add("w;[unknown]", 1);
    fs_tables tb;
    ck_assert_int_eq(fs_tables_compute(&tree, 2, &tb), FOLDSVG_OK);
    ck_assert_uint_eq(tb.nself, 2);
    ck_assert_uint_eq(tb.self_funcs, 4);
    ck_row(tb.self[0], "x", 4);
    ck_row(tb.self[1], "y", 4);
    ck_assert_uint_eq(tb.incl_funcs, 5);
    fs_tables_free(&tb);
}
END_TEST

START_TEST(deep_recursion_is_iterative)
{
    /* 200000 frames of one name: no recursion in the walk, and one count per stack */
    size_t depth = 200000;
    char *path = malloc(depth * 2);
    ck_assert_ptr_nonnull(path);
    for (size_t i = 0; i < depth; i++) {
        path[2 * i] = 'r';
        path[2 * i + 1] = ';';
    }
    path[2 * depth - 1] = '\0';
    add(path, 7);
    path[2 * 1000 - 1] = '\0';
    add(path, 3);
    free(path);
    fs_tables tb;
    ck_assert_int_eq(fs_tables_compute(&tree, 0, &tb), FOLDSVG_OK);
    ck_assert_uint_eq(tb.nincl, 1);
    ck_row(tb.incl[0], "r", 10);
    ck_row(tb.self[0], "r", 10);
    fs_tables_free(&tb);
}
END_TEST

START_TEST(count_format)
{
    char b[48];
    fs_tables_format_count(1234567, 0, 1, b);
    ck_assert_str_eq(b, "1,234,567");
    fs_tables_format_count(1234567, 1, 0, b);
    ck_assert_str_eq(b, "1234567");
    fs_tables_format_count(1234567, 1000, 1, b);
    ck_assert_str_eq(b, "1,234.57");
    fs_tables_format_count(999999, 1000, 0, b); /* 999.999 rounds up into the whole part */
    ck_assert_str_eq(b, "1000.00");
    fs_tables_format_count(UINT64_MAX, UINT64_MAX, 0, b);
    ck_assert_str_eq(b, "1.00");
    fs_tables_format_count(1, UINT64_MAX, 0, b);
    ck_assert_str_eq(b, "0.00");
}
END_TEST

START_TEST(markdown_escapes)
{
    add("a|b", 2);
    add("tick`s", 1);
    fs_tables tb;
    ck_assert_int_eq(fs_tables_compute(&tree, 0, &tb), FOLDSVG_OK);
    char *md = written(&tb, FOLDSVG_TOP_MARKDOWN, 0);
    ck_assert_ptr_nonnull(strstr(md, "| `a\\|b` |"));
    ck_assert_ptr_nonnull(strstr(md, "| ``tick`s`` |"));
    ck_assert_ptr_nonnull(strstr(md, "**Total:** 3 cycles"));
    free(md);
    fs_tables_free(&tb);
}
END_TEST

START_TEST(json_is_valid_utf8_and_per)
{
    add("bad\xff\"q\"", 3);
    add("ok", 1);
    fs_tables tb;
    ck_assert_int_eq(fs_tables_compute(&tree, 0, &tb), FOLDSVG_OK);
    char *js = written(&tb, FOLDSVG_TOP_JSON, 2);
    ck_assert_ptr_nonnull(strstr(js, "\"name\": \"bad\xEF\xBF\xBD\\\"q\\\"\""));
    ck_assert_ptr_nonnull(strstr(js, "\"total\": 2.00"));
    ck_assert_ptr_nonnull(strstr(js, "\"per\": 2"));
    ck_assert_ptr_nonnull(strstr(js, "\"count\": 1.50"));
    ck_assert_ptr_nonnull(strstr(js, "\"percent\": 75\n"));
    free(js);
    char *txt = written(&tb, FOLDSVG_TOP_TEXT, 2);
    ck_assert_ptr_nonnull(strstr(txt, "Total: 2.00 cycles per iteration\n"));
    ck_assert_ptr_nonnull(strstr(txt, "divided by 2"));
    free(txt);
    fs_tables_free(&tb);
}
END_TEST

START_TEST(public_write_top)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_options *o = foldsvg_options_new();
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(o);
    foldsvg_error err;
    FILE *devnull = fopen("/dev/null", "w");
    ck_assert_int_eq(foldsvg_profile_write_top(p, devnull, o, &err), FOLDSVG_E_NO_DATA);
    ck_assert_int_eq(foldsvg_profile_record_path(p, "main;f", 5), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "top-format", "json", &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_options_set(o, "countname", "samples", &err), FOLDSVG_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(foldsvg_profile_write_top(p, f, o, &err), FOLDSVG_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"count_name\": \"samples\""));
    free(buf);
    fclose(devnull);

    /* a report of two sections: distinct id prefixes, one page */
    foldsvg_report *r = foldsvg_report_new(o);
    ck_assert_ptr_nonnull(r);
    const char *in[] = {"x.folded"};
    ck_assert_int_eq(foldsvg_report_add(r, p, "x", in, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(foldsvg_report_add(r, p, "y", in, 1, &err), FOLDSVG_OK);
    ck_assert_uint_eq(foldsvg_report_sections(r), 2);
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(foldsvg_report_render(r, f, &err), FOLDSVG_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "<!DOCTYPE html>"));
    ck_assert_ptr_null(strstr(buf, "<?xml"));
    ck_assert_ptr_nonnull(strstr(buf, "id=\"fg-s2-root\""));
    ck_assert_ptr_nonnull(strstr(buf, "id=\"fs-section-2\""));
    free(buf);
    foldsvg_report_free(r);
    foldsvg_options_free(o);
    foldsvg_profile_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("tables");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, self_and_inclusive);
    tcase_add_test(tc, limit_and_ties);
    tcase_add_test(tc, deep_recursion_is_iterative);
    tcase_add_test(tc, count_format);
    tcase_add_test(tc, markdown_escapes);
    tcase_add_test(tc, json_is_valid_utf8_and_per);
    tcase_add_test(tc, public_write_top);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
