/* The JSON layer (formats/json/json.c): chunks around long tokens. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "formats/json/json.h"
#include "input/input.h"
#include "testutil.h"

typedef struct tctx {
    fs_json *j;
    uint64_t numbers;
    size_t strings[4];
    size_t nstrings;
} tctx;

static int t_count(void *ctx)
{
    tctx *t = ctx;
    t->j->events++;
    return 1;
}

static int t_number(void *ctx, const char *s, size_t n)
{
    tctx *t = ctx;
    (void)s;
    (void)n;
    t->j->events++;
    t->numbers++;
    return 1;
}

static int t_string(void *ctx, const unsigned char *s, size_t n)
{
    tctx *t = ctx;
    (void)s;
    t->j->events++;
    if (t->nstrings < 4)
        t->strings[t->nstrings++] = n;
    return 1;
}

static const yajl_callbacks t_callbacks = {NULL, NULL, NULL,    NULL,    t_number, t_string,
                                           NULL, NULL, t_count, t_count, t_count};

/* "[" then for each of the NLONG long strings LONG bytes of it followed by TAIL numbers. */
static char *text(size_t nlong, size_t lng, size_t tail, size_t *len)
{
    size_t cap = 2 + nlong * (lng + 3 + tail * 2), n = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    s[n++] = '[';
    for (size_t k = 0; k < nlong; k++) {
        if (k)
            s[n++] = ',';
        s[n++] = '"';
        memset(s + n, 'a' + (int)k, lng);
        n += lng;
        s[n++] = '"';
        for (size_t i = 0; i < tail; i++) {
            s[n++] = ',';
            s[n++] = '1';
        }
    }
    s[n++] = ']';
    *len = n;
    return s;
}

static void parse(const char *s, size_t len, int counts, tctx *t, fs_json *j)
{
    memset(j, 0, sizeof *j);
    memset(t, 0, sizeof *t);
    t->j = j;
    j->counts_events = counts;
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_mem(&in, s, len, "mem.json", &err), FOLDSVG_OK);
    foldsvg_status st = fs_json_parse(j, &t_callbacks, t, in, NULL, 0, "mem.json", NULL, 0, &err);
    ck_assert_msg(st == FOLDSVG_OK, "%s", err.message);
    fs_input_close(in);
}

/* After a long string the blocks read ahead are parsed where they are again, not copied
 * into chunks as large as it: with a reader that counts its callbacks, only the bytes
 * around the long tokens are copied; one that does not keeps the large chunks. */
START_TEST(chunks_shrink_after_a_long_token)
{
    enum { LONG = 3 << 20, TAIL = 5 << 20 }; /* 3 MB strings, each followed by 10 MB */
    size_t len;
    char *s = text(2, LONG, TAIL, &len);
    tctx t;
    fs_json j;
    parse(s, len, 1, &t, &j);
    ck_assert_uint_eq(t.numbers, 2 * (uint64_t)TAIL);
    ck_assert_uint_eq(t.nstrings, 2);
    ck_assert_uint_eq(t.strings[0], LONG);
    ck_assert_uint_eq(t.strings[1], LONG);
    /* each string spans chunks growing to 4 MB, and the one it ends in is copied too */
    ck_assert_uint_gt(j.copied, 0);
    ck_assert_uint_le(j.copied, 2 * (uint64_t)(LONG + (8 << 20)));
    ck_assert_uint_lt(j.copied, len / 2);
    parse(s, len, 0, &t, &j);
    ck_assert_uint_eq(t.numbers, 2 * (uint64_t)TAIL);
    ck_assert_uint_gt(j.copied, len - LONG - (1 << 20));
    free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, chunks_shrink_after_a_long_token);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
