/* The one-of-each helpers of src/util and the asset templates: the sticky buffer, checked
 * growth, the UTF-8 decoder and cleaner, string lists, {{holes}}. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/template.h"
#include "util/buf.h"
#include "util/grow.h"
#include "util/strlist.h"
#include "util/utf8.h"
#include "testutil.h"

/* One failure sticks: later appends do nothing and say so, until the buffer is freed. */
START_TEST(buf_failure_sticks)
{
    fs_buf b = {0};
    ck_assert_int_eq(fs_buf_puts(&b, "ab"), FOLDSVG_OK);
    ck_assert_int_eq(fs_buf_printf(&b, "%d", 12), FOLDSVG_OK);
    ck_assert_str_eq(fs_buf_str(&b), "ab12");
    ck_assert_int_eq(fs_buf_status(&b), FOLDSVG_OK);
    ck_assert_int_eq(fs_buf_reserve(&b, SIZE_MAX - 1), FOLDSVG_E_NOMEM); /* cannot fit */
    ck_assert_int_eq(fs_buf_puts(&b, "cd"), FOLDSVG_E_NOMEM);
    ck_assert_int_eq(fs_buf_printf(&b, "%s", "ef"), FOLDSVG_E_NOMEM);
    ck_assert_int_eq(fs_buf_status(&b), FOLDSVG_E_NOMEM);
    ck_assert_str_eq(fs_buf_str(&b), "ab12"); /* what was there is left as it was */
    fs_buf_clear(&b);
    ck_assert_int_eq(fs_buf_puts(&b, "x"), FOLDSVG_E_NOMEM); /* clearing keeps the failure */
    fs_buf_free(&b);
    ck_assert_int_eq(fs_buf_puts(&b, "x"), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "x");
    /* a printf longer than the spare room takes the second pass */
    char big[300];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_int_eq(fs_buf_printf(&b, "[%s]", big), FOLDSVG_OK);
    ck_assert_uint_eq(b.len, 1 + 2 + sizeof big - 1);
    fs_buf_free(&b);
}
END_TEST

/* Doubling from the minimum, and no size that overflows. */
START_TEST(grow_doubles_and_checks)
{
    ck_assert_uint_eq(fs_grow_cap(0, 1, 64, 4), 64);
    ck_assert_uint_eq(fs_grow_cap(64, 65, 64, 4), 128);
    ck_assert_uint_eq(fs_grow_cap(64, 1000, 64, 4), 1024);
    ck_assert_uint_eq(fs_grow_cap(64, 10, 64, 4), 64);
    ck_assert_uint_eq(fs_grow_cap(0, SIZE_MAX / 8 + 1, 16, 8), 0); /* n * elem overflows */
    uint64_t *a = NULL;
    size_t cap = 0;
    ck_assert_int_eq(FS_GROW(a, cap, 3, 2), FOLDSVG_OK);
    ck_assert_uint_eq(cap, 4);
    a[3] = 7;
    ck_assert_int_eq(FS_GROW(a, cap, 5, 2), FOLDSVG_OK);
    ck_assert_uint_eq(cap, 8);
    ck_assert_uint_eq(a[3], 7);
    ck_assert_int_eq(FS_GROW(a, cap, SIZE_MAX / 4, 2), FOLDSVG_E_NOMEM);
    ck_assert_uint_eq(cap, 8); /* unchanged on failure */
    ck_assert_int_eq(fs_resize(&a, SIZE_MAX / 2, 8), FOLDSVG_E_NOMEM);
    ck_assert_uint_eq(a[3], 7);
    /* trimming keeps what is used; an empty array is freed; never grows */
    fs_trim(&a, &cap, 5, sizeof *a);
    ck_assert_uint_eq(cap, 5);
    ck_assert_uint_eq(a[3], 7);
    fs_trim(&a, &cap, 9, sizeof *a);
    ck_assert_uint_eq(cap, 5);
    fs_trim(&a, &cap, 0, sizeof *a);
    ck_assert_uint_eq(cap, 0);
    ck_assert_ptr_null(a);
    free(a);
}
END_TEST

static int no_controls(uint32_t cp)
{
    return cp >= 0x20;
}

/* RFC 3629 decoding; one U+FFFD per rejected byte; the writer's own rejections too. */
START_TEST(utf8_decode_and_clean)
{
    uint32_t cp;
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp), 2);
    ck_assert_uint_eq(cp, 0xe9);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xf0\x9f\x94\xa5", 4, &cp), 4);
    ck_assert_uint_eq(cp, 0x1f525);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xc0\x80", 2, &cp), 0); /* overlong */
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xe0\x80\x80", 3, &cp), 0);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0); /* D800 */
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xe2\x82", 2, &cp), 0); /* cut */
    fs_buf b = {0};
    ck_assert_int_eq(fs_utf8_clean(&b,
                                   "a\xe2\x82"
                                   "b\xc3\xa9",
                                   6, NULL),
                     FOLDSVG_OK);
    ck_assert_str_eq(b.data, "a\xef\xbf\xbd\xef\xbf\xbd"
                             "b\xc3\xa9");
    fs_buf_clear(&b);
    ck_assert_int_eq(fs_utf8_clean(&b, "a\tb\x01", 4, no_controls), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "a\xef\xbf\xbd"
                             "b\xef\xbf\xbd");
    fs_buf_free(&b);
    ck_assert_uint_eq(fs_utf8_chars("\xc3\xa9x\xf0\x9f\x94\xa5", 7), 3);
    ck_assert_uint_eq(fs_utf8_prefix("\xc3\xa9x\xf0\x9f\x94\xa5", 7, 2), 3);
}
END_TEST

START_TEST(strlist_push_copy_has)
{
    fs_strlist a = {0}, b;
    ck_assert_int_eq(fs_strlist_push(&a, "main"), FOLDSVG_OK);
    ck_assert_int_eq(fs_strlist_push(&a, "f"), FOLDSVG_OK);
    ck_assert_int_eq(fs_strlist_copy(&b, &a), FOLDSVG_OK);
    fs_strlist_free(&a);
    ck_assert_uint_eq(b.n, 2);
    ck_assert_int_eq(fs_strlist_has(&b, "main", 4), 1);
    ck_assert_int_eq(fs_strlist_has(&b, "mai", 3), 0);
    ck_assert_int_eq(fs_strlist_has(&b, "f;", 1), 1);
    fs_strlist_free(&b);
    ck_assert_uint_eq(b.n, 0);
}
END_TEST

START_TEST(template_holes_sections_comments)
{
    const char tpl[] =
        "{{! a comment }}#{{p}}-a {x}\n{{#s}}s={{s}};{{/s}}{{#e}}gone{{/e}}end{{nope}}";
    fs_template_var v[] = {{"p", "fg1"}, {"s", "red"}, {"e", ""}};
    fs_buf b = {0};
    ck_assert_int_eq(fs_template_expand(&b, tpl, sizeof tpl - 1, v, 3), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "#fg1-a {x}\ns=red;end");
    fs_buf_clear(&b);
    /* the length counts, not a NUL; a "{{" without its "}}" is text */
    ck_assert_int_eq(fs_template_expand(&b, "a{{p}}b{{c", 10, v, 3), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "afg1b{{c");
    fs_buf_clear(&b);
    ck_assert_int_eq(fs_template_expand(&b, "{{p}}xyz", 5, v, 3), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "fg1");
    fs_buf_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, buf_failure_sticks);
    tcase_add_test(tc, grow_doubles_and_checks);
    tcase_add_test(tc, utf8_decode_and_clean);
    tcase_add_test(tc, strlist_push_copy_has);
    tcase_add_test(tc, template_holes_sections_comments);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
