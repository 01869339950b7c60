#include "render/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double pow10_table[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

size_t fs_fmt_u64(char *buf, uint64_t n)
{
    char tmp[24];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    for (size_t i = 0; i < k; i++)
        buf[i] = tmp[k - 1 - i];
    buf[k] = '\0';
    return k;
}

size_t fs_fmt_fixed(char *buf, double x, int decimals)
{
    double scale = pow10_table[decimals];
    /* Outside the range where the scaled value is an exact-enough double, or negative
     * (never drawn), printf decides. */
    if (!(x >= 0 && x < 1e9) || decimals < 0 || decimals > 6) {
        int n = snprintf(buf, 48, "%.*f", decimals, x);
        return n < 0 ? 0 : (size_t)n;
    }
    /* x * scale = s + e exactly (fma gives the rounding error of the product). The
     * integer nearest to the exact value is r = nearbyint(s), except when s lies exactly
     * half-way: then the sign of e decides, and ties (e == 0) go to even as printf does. */
    double s = x * scale;
    double e = fma(x, scale, -s);
    double r = nearbyint(s);
    double d = s - r;
    if (d == 0.5 || d == -0.5) {
        double lo = d > 0 ? r : r - 1; /* the two neighbours of s */
        if (e > 0)
            r = lo + 1;
        else if (e < 0)
            r = lo;
        else
            r = fmod(lo, 2.0) == 0 ? lo : lo + 1;
    }
    uint64_t v = (uint64_t)r;
    uint64_t p = (uint64_t)scale;
    size_t n = fs_fmt_u64(buf, v / p);
    if (decimals > 0) {
        uint64_t f = v % p;
        buf[n++] = '.';
        for (int i = decimals - 1; i >= 0; i--) {
            buf[n + (size_t)i] = (char)('0' + f % 10);
            f /= 10;
        }
        n += (size_t)decimals;
        buf[n] = '\0';
    }
    return n;
}

const char *fs_unit_for_count(const char *unit, uint64_t n)
{
    /* The units foldsvg and the formats it reads use (docs/cli.md "Count name"), and perf's
     * generic event names. */
    static const char *const plural[][2] = {
        {"cycles", "cycle"},
        {"samples", "sample"},
        {"bytes", "byte"},
        {"instructions", "instruction"},
        {"events", "event"},
        {"calls", "call"},
        {"allocations", "allocation"},
        {"nanoseconds", "nanosecond"},
        {"microseconds", "microsecond"},
        {"milliseconds", "millisecond"},
        {"seconds", "second"},
        {"ticks", "tick"},
        {"branches", "branch"},
        {"branch-instructions", "branch-instruction"},
        {"branch-misses", "branch-miss"},
        {"cache-misses", "cache-miss"},
        {"cache-references", "cache-reference"},
        {"page-faults", "page-fault"},
        {"context-switches", "context-switch"},
        {"cpu-migrations", "cpu-migration"},
    };
    if (n != 1 || !unit)
        return unit;
    for (size_t i = 0; i < sizeof plural / sizeof plural[0]; i++)
        if (strcmp(unit, plural[i][0]) == 0)
            return plural[i][1];
    return unit;
}
