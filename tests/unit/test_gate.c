/* The regression gate's pieces: the threshold grammar (analysis/gate.h), measuring on delta
 * tables made by hand (largest and smallest, the floor, names, per iteration), and names
 * shortened between whole UTF-8 characters (fs_text_elide). The command line's behaviour is
 * tests/gate.sh. */
#include <string.h>

#include "analysis/gate.h"
#include "analysis/textout.h"
#include "testutil.h"

static fs_gate_rule parse_ok(const char *expr)
{
    fs_gate_rule r;
    foldsvg_error err;
    ck_assert_msg(fs_gate_parse(expr, "fail-if", &r, &err) == FOLDSVG_OK, "%s: %s", expr,
                  err.message);
    return r;
}

START_TEST(grammar)
{
    fs_gate_rule r = parse_ok("total > +2%");
    ck_assert_int_eq(r.measure, FS_GATE_TOTAL);
    ck_assert_int_eq(r.op, FS_GATE_GT);
    ck_assert(r.percent && r.limit == 2);
    r = parse_ok("  inclusive<=-50000 ");
    ck_assert_int_eq(r.measure, FS_GATE_INCL);
    ck_assert_int_eq(r.op, FS_GATE_LE);
    ck_assert(!r.percent && r.limit == -50000);
    r = parse_ok("self[operator>=(a, b) > 1] >= 0.5%");
    ck_assert_int_eq(r.measure, FS_GATE_SELF);
    ck_assert_int_eq(r.op, FS_GATE_GE);
    ck_assert_uint_eq(r.len, strlen("operator>=(a, b) > 1"));
    ck_assert(memcmp(r.name, "operator>=(a, b) > 1", r.len) == 0);
    r = parse_ok("new > 0");
    ck_assert_int_eq(r.measure, FS_GATE_NEW);
    const char *bad[] = {"",
                         "total",
                         "total >",
                         "> 1",
                         "total >> 1",
                         "total => 1",
                         "total 1",
                         "Total > 1",
                         "self[] > 1",
                         "self[x > 1",
                         "new[x] > 1",
                         "new <= 1",
                         "total > 1.",
                         "total > .5",
                         "total > 1%%",
                         "total > 1e3",
                         "total > +-1",
                         "total > 1 2",
                         "total[x] > 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fs_gate_rule x;
        foldsvg_error err;
        ck_assert_msg(fs_gate_parse(bad[i], "fail-if", &x, &err) == FOLDSVG_E_USAGE, "'%s'",
                      bad[i]);
        ck_assert_msg(strstr(err.message, "--fail-if") && !strchr(err.message, '\n'), "%s",
                      err.message);
    }
}
END_TEST

/* BEFORE 1,000, AFTER 1,100: a +60 (0 -> 60, new), b +50 (100 -> 150), c -10, d +3 (1 -> 4). */
static fs_delta_row rows[] = {
    {"a", 1, 0, 60, 60, 0},
    {"b", 1, 100, 150, 50, 0},
    {"c", 1, 899, 889, -10, 0},
    {"d", 1, 1, 4, 3, 0},
};

static fs_deltas deltas(void)
{
    fs_deltas d;
    memset(&d, 0, sizeof d);
    d.total_before = 1000;
    d.total_after = 1103;
    d.per_before = d.per_after = 1;
    d.self.rows = d.incl.rows = rows;
    d.self.n = d.incl.n = sizeof rows / sizeof rows[0];
    return d;
}

static fs_gate_result one(const fs_deltas *d, const char *expr, double floor)
{
    fs_gate g;
    ck_assert(fs_gate_eval(d, &expr, 1, floor, &g, NULL) == FOLDSVG_OK);
    ck_assert_uint_eq(g.n, 1);
    fs_gate_result r = g.v[0];
    ck_assert_uint_eq(g.broken, (size_t)r.broken);
    fs_gate_free(&g);
    return r;
}

START_TEST(measures)
{
    fs_deltas d = deltas();
    fs_gate_result r = one(&d, "self > 59", 0);
    ck_assert(r.broken && r.row.name[0] == 'a');
    ck_assert(!one(&d, "self > 60", 0).broken);
    r = one(&d, "self < -9", 0);
    ck_assert(r.broken && r.row.name[0] == 'c');
    ck_assert(one(&d, "self > 5.9%", 0).broken);
    ck_assert(!one(&d, "self > 6%", 0).broken);
    ck_assert(!one(&d, "self[b] > 50", 0).broken);
    ck_assert(one(&d, "self[b] >= 50", 0).broken);
    r = one(&d, "self[zz] > -1", 0);
    ck_assert(r.broken && r.measured && r.value == 0);
    r = one(&d, "new > 5.9%", 0);
    ck_assert(r.broken && r.row.name[0] == 'a');
    ck_assert(one(&d, "total > 102", 0).broken);
    ck_assert(!one(&d, "total > 103", 0).broken);
    ck_assert(!one(&d, "total > 10.3%", 0).broken);
    /* the floor: d holds 0.1% and 0.36%; a holds 5.4% after */
    r = one(&d, "self > 2", 0.37);
    ck_assert(r.broken && r.row.name[0] == 'a');
    r = one(&d, "new > 0", 6);
    ck_assert(!r.broken && !r.measured);
    r = one(&d, "self[d] > 2", 50); /* named: measured whatever the floor */
    ck_assert(r.broken && r.measured);
    /* per iteration: the rows' deltas are per iteration already, the limits compare with them,
     * percents with BEFORE's total per iteration */
    d.per_before = d.per_after = 2;
    ck_assert(one(&d, "total > 51", 0).broken);
    ck_assert(!one(&d, "total > 51.5", 0).broken);
    ck_assert(one(&d, "self[b] > 9.9%", 0).broken); /* 50 of 500 */
}
END_TEST

START_TEST(describes)
{
    fs_deltas d = deltas();
    fs_gate_result r = one(&d, "self > 5%", 0);
    fs_buf b = {0};
    ck_assert(fs_gate_describe(&r, &d, "cycles", 0, 1, &b) == FOLDSVG_OK);
    ck_assert_str_eq(fs_buf_str(&b),
                     "a: +6.00% of before's total (+60 cycles; 0 -> 60), 1.00 point over");
    fs_buf_clear(&b);
    r = one(&d, "total < +200", 0);
    ck_assert(fs_gate_describe(&r, &d, "cycles", 0, 1, &b) == FOLDSVG_OK);
    ck_assert_str_eq(fs_buf_str(&b), "+10.30% (+103 cycles; 1,000 -> 1,103), 97 cycles under");
    fs_buf_free(&b);
}
END_TEST

START_TEST(elide)
{
    fs_buf b = {0};
    ck_assert(fs_text_elide("abcdef", 6, 0, &b) == FOLDSVG_OK);
    ck_assert_str_eq(fs_buf_str(&b), "abcdef");
    fs_buf_clear(&b);
    ck_assert(fs_text_elide("0123456789abcdefghij", 20, 11, &b) == FOLDSVG_OK);
    ck_assert_str_eq(fs_buf_str(&b), "01234\u2026fghij");
    /* "é" is two bytes: no cut falls inside one */
    const char *s = "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9";
    for (size_t max = 8; max < 20; max++) {
        fs_buf_clear(&b);
        ck_assert(fs_text_elide(s, strlen(s), max, &b) == FOLDSVG_OK);
        const char *x = fs_buf_str(&b);
        ck_assert_msg(b.len < strlen(s) + 3, "max %zu: %s", max, x);
        for (size_t i = 0; i < b.len; i++) {
            unsigned char c = (unsigned char)x[i];
            if (c == 0xC3)
                ck_assert_msg(i + 1 < b.len && ((unsigned char)x[i + 1] & 0xC0) == 0x80,
                              "max %zu: a lead byte alone", max);
            if (c == 0xA9)
                ck_assert_msg(i > 0 && (unsigned char)x[i - 1] == 0xC3,
                              "max %zu: a continuation byte alone", max);
        }
    }
    fs_buf_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gate");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, grammar);
    tcase_add_test(tc, measures);
    tcase_add_test(tc, describes);
    tcase_add_test(tc, elide);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
