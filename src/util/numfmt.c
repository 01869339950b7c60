#include "util/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double pow10_table[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

static const char digit_pairs[201] = "00010203040506070809"
                                     "10111213141516171819"
                                     "20212223242526272829"
                                     "30313233343536373839"
                                     "40414243444546474849"
                                     "50515253545556575859"
                                     "60616263646566676869"
                                     "70717273747576777879"
                                     "80818283848586878889"
                                     "90919293949596979899";

static size_t decimal_len(uint64_t n)
{
    size_t k = 1;
    while (n >= 10000) {
        n /= 10000;
        k += 4;
    }
    return k + (n >= 10) + (n >= 100) + (n >= 1000);
}

/* N's decimal digits, right-aligned to END (exclusive). */
static void digits_before(char *end, uint64_t n)
{
    while (n >= 100) {
        unsigned r = (unsigned)(n % 100);
        n /= 100;
        end -= 2;
        memcpy(end, digit_pairs + 2 * r, 2);
    }
    if (n >= 10)
        memcpy(end - 2, digit_pairs + 2 * n, 2);
    else
        end[-1] = (char)('0' + n);
}

size_t fs_fmt_u64(char *buf, uint64_t n)
{
    size_t k = decimal_len(n);
    digits_before(buf + k, n);
    buf[k] = '\0';
    return k;
}

size_t fs_fmt_fixed(char *buf, double x, int decimals)
{
    /* Outside the range where the scaled value is an exact-enough double, or negative
     * (never drawn), printf decides. */
    if (!(x >= 0 && x < 1e9) || decimals < 0 || decimals > 6) {
        int n = snprintf(buf, 48, "%.*f", decimals, x);
        return n < 0 ? 0 : (size_t)n;
    }
    double scale = pow10_table[decimals];
    /* The integer nearest to the exact value of x * scale: s = x * scale rounded, then
     * rounded to an integer, ties to even (0 <= s < 2^52: adding and taking away 2^52
     * rounds in the default mode, as nearbyint does, without its call). When s lies exactly
     * half-way, the rounding error of the product (fma gives it) decides, and exact ties go
     * to even as printf does. */
    double s = x * scale;
    double r = (s + 0x1p52) - 0x1p52;
    double d = s - r;
    if (d == 0.5 || d == -0.5) {
        double e = fma(x, scale, -s);
        double lo = d > 0 ? r : r - 1; /* the two neighbours of s */
        if (e > 0)
            r = lo + 1;
        else if (e < 0)
            r = lo;
        else
            r = fmod(lo, 2.0) == 0 ? lo : lo + 1;
    }
    uint64_t v = (uint64_t)r;
    uint32_t p = (uint32_t)scale;
    size_t n = fs_fmt_u64(buf, v / p);
    if (decimals > 0) {
        uint32_t f = (uint32_t)(v % p);
        buf[n] = '.';
        for (int i = decimals; i > 0; i--) {
            buf[n + (size_t)i] = (char)('0' + f % 10);
            f /= 10;
        }
        n += (size_t)decimals + 1;
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

size_t fs_format_thousands(uint64_t n, char *buf)
{
    char digits[24];
    size_t len = fs_fmt_u64(digits, n);
    size_t out = 0;
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[out++] = ',';
        buf[out++] = digits[i];
    }
    buf[out] = '\0';
    return out;
}
