/* The fast formatter must print exactly what printf prints. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/numfmt.h"

static void same(double x, int decimals)
{
    char a[64], b[64];
    fs_fmt_fixed(a, x, decimals);
    snprintf(b, sizeof b, "%.*f", decimals, x);
    ck_assert_msg(strcmp(a, b) == 0, "%.17g with %d decimals: %s != printf %s", x, decimals, a, b);
}

START_TEST(matches_printf_on_edges)
{
    const double xs[] = {0,       0.5,     1.5,      2.5,          0.125,    0.00005,
                         0.00015, 0.00025, 99.99995, 100,          33.33335, 12.34565,
                         0.30005, 1e-300,  5e-5,     0.0001499999, 999999.9, 1e8 + 0.5};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        for (int d = 0; d <= 6; d++)
            same(xs[i], d);
}
END_TEST

START_TEST(matches_printf_on_frame_geometry)
{
    /* what the writer formats: start * (100 / total) and differences of those */
    srand(7);
    for (int i = 0; i < 300000; i++) {
        uint64_t total = 1 + (uint64_t)rand() * (uint64_t)rand() % 100000000000ULL;
        uint64_t start = (uint64_t)rand() * (uint64_t)rand() % total;
        double k = 100.0 / (double)total;
        double x1 = (double)start * k;
        double x2 = (double)(start + (total - start) / 3) * k;
        same(x1, 4);
        same(x2 - x1, 4);
        same(x1 + 300.0 / 1200, 4);
        same(100.0 * (double)(start % 1000) / (double)total, 2);
    }
    /* exact halves at every scale */
    for (int d = 1; d <= 4; d++)
        for (int v = 0; v < 20000; v++)
            same((v + 0.5) / pow(10, d), d);
}
END_TEST

START_TEST(integers)
{
    char b[32];
    ck_assert_uint_eq(fs_fmt_u64(b, 0), 1);
    ck_assert_str_eq(b, "0");
    fs_fmt_u64(b, UINT64_MAX);
    ck_assert_str_eq(b, "18446744073709551615");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("numfmt");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, matches_printf_on_edges);
    tcase_add_test(tc, matches_printf_on_frame_geometry);
    tcase_add_test(tc, integers);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
