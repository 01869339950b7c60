/* The folded-stack line rules (docs/inferno-compat.md, "Input"). */
#include <stdlib.h>
#include <string.h>

#include "parse/folded.h"
#include "parse/input.h"
#include "testutil.h"

static int parse(const char *s, fs_folded_line *l, int *frac)
{
    *frac = 0;
    memset(l, 0, sizeof *l);
    return fs_folded_parse_line(s, strlen(s), l, frac);
}

static void expect_stack(const char *line, const char *stack, uint64_t count)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse(line, &l, &frac), 1);
    ck_assert_uint_eq(l.len, strlen(stack));
    ck_assert(memcmp(l.stack, stack, l.len) == 0);
    ck_assert_uint_eq(l.count, count);
}

static void expect_invalid(const char *line)
{
    fs_folded_line l;
    int frac;
    ck_assert_msg(parse(line, &l, &frac) == -1, "'%s' should be invalid", line);
}

START_TEST(plain_lines)
{
    expect_stack("a;b;c 42", "a;b;c", 42);
    expect_stack("  a;b 7 \r", "a;b", 7);
    expect_stack("a b c 3", "a b c", 3); /* the count is after the LAST space */
    expect_stack("a\t 5", "a", 5);       /* trailing whitespace of the stack goes */
    expect_stack("#x 1", "#x", 1);       /* only "# " starts a comment */
    expect_stack("a;;b 2", "a;;b", 2);   /* empty frame names are names */
    expect_stack("a 18446744073709551615", "a", UINT64_MAX);
}
END_TEST

START_TEST(skipped_and_invalid)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("", &l, &frac), 0);
    ck_assert_int_eq(parse(" \t\r", &l, &frac), 0);
    ck_assert_int_eq(parse("# comment 5", &l, &frac), 0);
    expect_invalid("a\t5"); /* a tab is not the separator */
    expect_invalid("a");    /* no count */
    expect_invalid(" 5");   /* trimmed to "5": no stack */
    expect_invalid("a .5"); /* digits first */
    expect_invalid("a -1");
    expect_invalid("a 5x");
    expect_invalid("a 1.2.3");
    expect_invalid("a 18446744073709551616"); /* 2^64 */
}
END_TEST

START_TEST(fractions)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("a 5.", &l, &frac), 1);
    ck_assert_uint_eq(l.count, 5);
    ck_assert_int_eq(frac, 0);
    ck_assert_int_eq(parse("a 5.000", &l, &frac), 1);
    ck_assert_int_eq(frac, 0);
    ck_assert_int_eq(parse("a 31.23", &l, &frac), 1);
    ck_assert_uint_eq(l.count, 31); /* the fraction is dropped, with a warning */
    ck_assert_int_eq(frac, 1);
}
END_TEST

START_TEST(differential)
{
    fs_folded_line l;
    int frac;
    ck_assert_int_eq(parse("cksum;main 31 56", &l, &frac), 1);
    ck_assert_int_eq(l.is_diff, 1);
    ck_assert_uint_eq(l.before, 31);
    ck_assert_uint_eq(l.count, 56);
    ck_assert_uint_eq(l.len, strlen("cksum;main"));
    ck_assert_int_eq(parse("a;b 7", &l, &frac), 1);
    ck_assert_int_eq(l.is_diff, 0);
    /* "x 1" before the count: the line is differential with stack "a;x" */
    ck_assert_int_eq(parse("a;x 1 2", &l, &frac), 1);
    ck_assert_int_eq(l.is_diff, 1);
    ck_assert_uint_eq(l.len, 3);
}
END_TEST

typedef struct collected {
    fs_sink sink; /* first: the reader passes a pointer to it */
    uint64_t lines, sum, last_lineno;
    size_t longest;
} collected;

static foldsvg_status collect(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    collected *c = (collected *)(void *)self;
    c->lines++;
    c->sum += l->count;
    c->last_lineno = l->lineno;
    if (l->len > c->longest)
        c->longest = l->len;
    return FOLDSVG_OK;
}

START_TEST(reads_across_blocks_and_long_lines)
{
    /* 3 MiB of short lines, then a 3 MiB line, then a last line without a newline: lines
     * cross the 1 MiB read blocks and one outgrows the buffer. */
    size_t n = 0, cap = 8u << 20;
    char *data = malloc(cap);
    ck_assert_ptr_nonnull(data);
    uint64_t expect_lines = 0;
    while (n < (3u << 20)) {
        n += (size_t)sprintf(data + n, "main;f%llu 1\n", (unsigned long long)expect_lines);
        expect_lines++;
    }
    data[n++] = '\n'; /* a blank line is skipped but counted */
    size_t long_start = n;
    memset(data + n, 'x', 3u << 20);
    n += 3u << 20;
    size_t long_len = n - long_start;
    n += (size_t)sprintf(data + n, " 5\nlast 2");
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", NULL), FOLDSVG_OK);
    collected c = {.sink = {.line = collect}};
    fs_folded_stats stats = {0};
    foldsvg_error err;
    ck_assert_int_eq(fs_folded_read(in, &c.sink, &stats, &err), FOLDSVG_OK);
    ck_assert_uint_eq(c.lines, expect_lines + 2);
    ck_assert_uint_eq(c.sum, expect_lines + 5 + 2);
    ck_assert_uint_eq(c.longest, long_len);
    ck_assert_uint_eq(c.last_lineno, expect_lines + 3);
    ck_assert_uint_eq(stats.invalid, 0);
    fs_input_close(in);
    free(data);
}
END_TEST

START_TEST(invalid_lines_are_counted)
{
    const char *text = "a 1\nbad\n\nb x\nc 2\n";
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, text, strlen(text), "mem", NULL), FOLDSVG_OK);
    collected c = {.sink = {.line = collect}};
    fs_folded_stats stats = {0};
    ck_assert_int_eq(fs_folded_read(in, &c.sink, &stats, NULL), FOLDSVG_OK);
    ck_assert_uint_eq(c.lines, 2);
    ck_assert_uint_eq(stats.invalid, 2);
    ck_assert_uint_eq(stats.first_invalid, 2);
    fs_input_close(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("folded");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, plain_lines);
    tcase_add_test(tc, skipped_and_invalid);
    tcase_add_test(tc, fractions);
    tcase_add_test(tc, differential);
    tcase_add_test(tc, reads_across_blocks_and_long_lines);
    tcase_add_test(tc, invalid_lines_are_counted);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
