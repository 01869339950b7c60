/* Frame colors, bit-compatible with inferno-flamegraph 0.12 (color/mod.rs, palettes.rs).
 * Every float operation below is deliberately done in 32-bit float where inferno uses f32:
 * a double intermediate could move a value across an integer and change a channel. */
#include "render/colors.h"

#include <math.h>
#include <string.h>

/* The palettes by name, in the order --help lists them (the option table shows this list). */
const char *const fs_palette_names[] = {"hot",  "mem",    "io",     "wakeup", "java",  "js",
                                        "perl", "python", "rust",   "red",    "green", "blue",
                                        "aqua", "yellow", "purple", "orange", NULL};
static const fs_palette palette_of[] = {
    FS_PAL_HOT,  FS_PAL_MEM,    FS_PAL_IO,     FS_PAL_WAKEUP, FS_PAL_JAVA,  FS_PAL_JS,
    FS_PAL_PERL, FS_PAL_PYTHON, FS_PAL_RUST,   FS_PAL_RED,    FS_PAL_GREEN, FS_PAL_BLUE,
    FS_PAL_AQUA, FS_PAL_YELLOW, FS_PAL_PURPLE, FS_PAL_ORANGE,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

_Static_assert(COUNT(palette_of) + 1 == COUNT(fs_palette_names), "one palette per name");

int fs_palette_from_name(const char *name, fs_palette *out)
{
    if (!name)
        return -1;
    for (size_t i = 0; i < COUNT(palette_of); i++) {
        if (strcmp(name, fs_palette_names[i]) == 0) {
            if (out)
                *out = palette_of[i];
            return 0;
        }
    }
    return -1;
}

const char *fs_palette_name(fs_palette p)
{
    for (size_t i = 0; i < COUNT(palette_of); i++)
        if (palette_of[i] == p)
            return fs_palette_names[i];
    return "hot";
}

/* ---- value sources ------------------------------------------------------------------- */

typedef struct namehash_state {
    float vector, weight, max;
    unsigned mod;
} namehash_state;

static void namehash_reset(namehash_state *s)
{
    s->vector = 0.0f;
    s->weight = 1.0f;
    s->max = 1.0f;
    s->mod = 10;
}

static void namehash_add(namehash_state *s, unsigned char b)
{
    float i = (float)(b % s->mod);
    s->vector += i / (float)(s->mod - 1) * s->weight;
    s->mod++;
    s->max += s->weight;
    s->weight *= 0.7f;
}

float fs_namehash(const unsigned char *bytes, size_t n, int reversed)
{
    namehash_state s;
    namehash_reset(&s);
    if (n == 0)
        return 1.0f;
#define AT(k) (reversed ? bytes[n - 1 - (k)] : bytes[(k)])
    /* flamegraph.pl does `s/.(.*?)`//` and then hashes 3 characters: the first byte never
     * counts as the module separator, and only the first backtick after it does. */
    size_t tick = 1;
    while (tick < n && AT(tick) != '`')
        tick++;
    size_t end = tick < 3 ? tick : 3;
    for (size_t i = 0; i < end; i++)
        namehash_add(&s, AT(i));
    if (tick < n) {
        namehash_reset(&s);
        for (size_t i = tick + 1; i < n && i < tick + 4; i++)
            namehash_add(&s, AT(i));
    }
#undef AT
    return 1.0f - s.vector / s.max;
}

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static float fnv_unit(uint64_t h)
{
    return (float)((double)h / (double)UINT64_MAX);
}

void fs_fnv_values(const unsigned char *bytes, size_t n, float v[3])
{
    uint64_t h = FNV_OFFSET;
    for (size_t i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= FNV_PRIME;
    }
    v[0] = fnv_unit(h);
    /* inferno feeds a 0 byte between the values: the xor is a no-op, the multiply is not */
    h *= FNV_PRIME;
    v[1] = fnv_unit(h);
    h *= FNV_PRIME;
    v[2] = fnv_unit(h);
}

void fs_xorshift_init(fs_xorshift *x)
{
    x->state = 1234;
}

float fs_xorshift_next(fs_xorshift *x)
{
    uint64_t s = x->state;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x->state = s;
    /* an f64 in [0,1) from the top 53 bits, then narrowed to f32 as inferno does */
    return (float)((double)(s >> 11) / 9007199254740992.0);
}

/* ---- multi-hue palettes --------------------------------------------------------------- */

typedef struct bytes {
    const unsigned char *p;
    size_t n;
} bytes;

static int starts_with(bytes s, const char *prefix)
{
    size_t k = strlen(prefix);
    return s.n >= k && memcmp(s.p, prefix, k) == 0;
}

static int ends_with(bytes s, const char *suffix)
{
    size_t k = strlen(suffix);
    return s.n >= k && memcmp(s.p + s.n - k, suffix, k) == 0;
}

/* Offset of the first NEEDLE in S, or S.n when absent. */
static size_t find(bytes s, const char *needle)
{
    size_t k = strlen(needle);
    if (k == 0)
        return 0;
    for (size_t i = 0; i + k <= s.n; i++)
        if (s.p[i] == (unsigned char)needle[0] && memcmp(s.p + i, needle, k) == 0)
            return i;
    return s.n;
}

static int contains(bytes s, const char *needle)
{
    return find(s, needle) < s.n;
}

static bytes from(bytes s, size_t off)
{
    bytes r = {s.p + off, s.n - off};
    return r;
}

/* Rust's char::is_whitespace (Unicode White_Space) on the UTF-8 sequence at S, which is
 * LEN bytes long on success (0 when S does not start with a whitespace character). */
static size_t utf8_space(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c == ' ' || (c >= 0x09 && c <= 0x0d))
        return 1;
    if (n >= 2 && c == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
        return 2;
    if (n >= 3 && c == 0xe1 && s[1] == 0x9a && s[2] == 0x80) /* U+1680 */
        return 3;
    if (n >= 3 && c == 0xe2 && s[1] == 0x80 &&
        ((s[2] >= 0x80 && s[2] <= 0x8a) || s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
        return 3; /* U+2000..200A, U+2028, U+2029, U+202F */
    if (n >= 3 && c == 0xe2 && s[1] == 0x81 && s[2] == 0x9f) /* U+205F */
        return 3;
    if (n >= 3 && c == 0xe3 && s[1] == 0x80 && s[2] == 0x80) /* U+3000 */
        return 3;
    return 0;
}

static int all_whitespace(bytes s)
{
    size_t i = 0;
    while (i < s.n) {
        size_t k = utf8_space(s.p + i, s.n - i);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

static fs_palette resolve_java(bytes s)
{
    /* annotations are exact; the rest is guesswork on the shape of JVM names */
    if (ends_with(s, "_[k]"))
        return FS_PAL_ORANGE;
    if (ends_with(s, "_[i]"))
        return FS_PAL_AQUA;
    if (ends_with(s, "_[j]"))
        return FS_PAL_GREEN;
    if (contains(s, "::") || starts_with(s, "-[") || starts_with(s, "+["))
        return FS_PAL_YELLOW; /* C++ or Objective-C */
    bytes j = starts_with(s, "L") ? from(s, 1) : s;
    if (contains(j, "/") || (contains(j, ".") && !starts_with(j, "[")) ||
        (j.n > 0 && j.p[0] >= 'A' && j.p[0] <= 'Z'))
        return FS_PAL_GREEN;
    return FS_PAL_RED;
}

static fs_palette resolve_js(bytes s)
{
    if (s.n > 0 && all_whitespace(s))
        return FS_PAL_GREEN;
    if (ends_with(s, "_[k]"))
        return FS_PAL_ORANGE;
    if (ends_with(s, "_[j]"))
        return contains(s, "/") ? FS_PAL_GREEN : FS_PAL_AQUA;
    if (contains(s, "::"))
        return FS_PAL_YELLOW;
    if (contains(s, ":"))
        return FS_PAL_AQUA;
    size_t slash = find(s, "/");
    if (slash < s.n) {
        bytes path = from(s, slash);
        if (contains(path, "node_modules/"))
            return FS_PAL_PURPLE;
        if (contains(path, ".js"))
            return FS_PAL_GREEN;
    }
    return FS_PAL_RED;
}

static fs_palette resolve_perl(bytes s)
{
    if (ends_with(s, "_[k]"))
        return FS_PAL_ORANGE;
    if (contains(s, "Perl") || contains(s, ".pl"))
        return FS_PAL_GREEN;
    if (contains(s, "::"))
        return FS_PAL_YELLOW;
    return FS_PAL_RED;
}

/* A path part "python" or "Python" followed only by digits and dots (a stdlib dir). */
static int python_part(bytes part)
{
    if (!starts_with(part, "python") && !starts_with(part, "Python"))
        return 0;
    for (size_t i = 6; i < part.n; i++)
        if (!(part.p[i] == '.' || (part.p[i] >= '0' && part.p[i] <= '9')))
            return 0;
    return 1;
}

static fs_palette resolve_python(bytes s)
{
    int site = 0, stdlib = 0;
    size_t start = 0;
    for (size_t i = 0; i <= s.n; i++) {
        if (i < s.n && s.p[i] != '/' && s.p[i] != '\\')
            continue;
        bytes part = {s.p + start, i - start};
        if (part.n == 13 && memcmp(part.p, "site-packages", 13) == 0)
            site = 1;
        if (python_part(part))
            stdlib = 1;
        start = i + 1;
    }
    if (site)
        return FS_PAL_AQUA;
    if (stdlib || starts_with(s, "<built-in") || starts_with(s, "<method") ||
        starts_with(s, "<frozen"))
        return FS_PAL_YELLOW;
    return FS_PAL_RED;
}

static fs_palette resolve_rust(bytes s)
{
    size_t tick = find(s, "`");
    if (tick < s.n)
        s = from(s, tick + 1);
    /* user async fns are desugared into GenFuture, which is not a system function */
    if (starts_with(s, "core::") || starts_with(s, "std::") || starts_with(s, "alloc::") ||
        (starts_with(s, "<core::") &&
         !starts_with(s, "<core::future::from_generator::GenFuture<T>")) ||
        starts_with(s, "<std::") || starts_with(s, "<alloc::"))
        return FS_PAL_ORANGE;
    if (contains(s, "::"))
        return FS_PAL_AQUA;
    return FS_PAL_YELLOW;
}

fs_palette fs_palette_resolve(fs_palette p, const unsigned char *name, size_t n)
{
    bytes s = {name ? name : (const unsigned char *)"", name ? n : 0};
    switch (p) {
    case FS_PAL_WAKEUP:
        return FS_PAL_AQUA;
    case FS_PAL_JAVA:
        return resolve_java(s);
    case FS_PAL_JS:
        return resolve_js(s);
    case FS_PAL_PERL:
        return resolve_perl(s);
    case FS_PAL_PYTHON:
        return resolve_python(s);
    case FS_PAL_RUST:
        return resolve_rust(s);
    default:
        return p;
    }
}

/* ---- basic palettes ------------------------------------------------------------------- */

/* inferno's t!(b, a, v): b + (a as f32 * v) as u8, the cast truncating and saturating. */
static uint8_t t(unsigned base, unsigned a, float v)
{
    float x = (float)a * v;
    unsigned add = x >= 255.0f ? 255u : x > 0.0f ? (unsigned)x : 0u;
    return (uint8_t)(base + add);
}

static fs_rgb rgb(uint8_t r, uint8_t g, uint8_t b)
{
    fs_rgb c = {r, g, b};
    return c;
}

fs_rgb fs_palette_rgb(fs_palette basic, float v1, float v2, float v3)
{
    switch (fs_palette_resolve(basic, NULL, 0)) {
    case FS_PAL_MEM:
        return rgb(t(0, 0, v3), t(190, 50, v2), t(0, 210, v1));
    case FS_PAL_IO:
        return rgb(t(80, 60, v1), t(80, 60, v1), t(190, 55, v2));
    case FS_PAL_RED:
        return rgb(t(200, 55, v1), t(50, 80, v1), t(50, 80, v1));
    case FS_PAL_GREEN:
        return rgb(t(50, 60, v1), t(200, 55, v1), t(50, 60, v1));
    case FS_PAL_BLUE:
        return rgb(t(80, 60, v1), t(80, 60, v1), t(205, 50, v1));
    case FS_PAL_AQUA:
        return rgb(t(50, 60, v1), t(165, 55, v1), t(165, 55, v1));
    case FS_PAL_YELLOW:
        return rgb(t(175, 55, v1), t(175, 55, v1), t(50, 20, v1));
    case FS_PAL_PURPLE:
        return rgb(t(190, 65, v1), t(80, 60, v1), t(190, 65, v1));
    case FS_PAL_ORANGE:
        return rgb(t(190, 65, v1), t(90, 65, v1), 0);
    case FS_PAL_HOT:
    default:
        return rgb(t(205, 50, v3), t(0, 230, v1), t(0, 55, v2));
    }
}

/* ---- differential and diffusion ------------------------------------------------------- */

/* floor(150 * a / m) for a <= m, m > 0, exact for every 64-bit m. */
static unsigned scale150(uint64_t a, uint64_t m)
{
    if (m <= UINT64_MAX / 150)
        return (unsigned)(150 * a / m);
    /* 150 * a would overflow: add a to itself modulo m, counting the wraps */
    unsigned q = 0;
    uint64_t acc = 0;
    for (int k = 0; k < 150; k++) {
        if (acc >= m - a) {
            acc -= m - a;
            q++;
        } else {
            acc += a;
        }
    }
    return q;
}

fs_rgb fs_diff_rgb(int64_t delta, uint64_t max, int negate)
{
    if (delta == 0)
        return rgb(250, 250, 250);
    uint64_t mag = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
    /* a max below |delta| would make inferno's numerator negative, which truncates to 0 */
    if (max < mag)
        max = mag;
    uint8_t c = (uint8_t)(100 + scale150(max - mag, max));
    int more = (delta > 0) != (negate != 0);
    return more ? rgb(255, c, c) : rgb(c, c, 255);
}

fs_rgb fs_diffusion_rgb(double width_percent)
{
    double x = sqrt(width_percent / 100.0) * 2000.0;
    /* Rust's `as isize`: truncation, NaN to 0 */
    int64_t v = x > 0.0 ? (x < 1e18 ? (int64_t)x : INT64_C(1000000000000000000)) : 0;
    return fs_diff_rgb(v, 2000, 0);
}

/* ---- backgrounds and hex colors ------------------------------------------------------- */

static fs_background bg(const char *top, const char *bottom)
{
    fs_background b;
    memcpy(b.top, top, 8);
    memcpy(b.bottom, bottom, 8);
    return b;
}

static fs_background bg_named(fs_bg_kind k)
{
    switch (k) {
    case FS_BG_BLUE:
        return bg("#eeeeee", "#e0e0ff");
    case FS_BG_GREEN:
        return bg("#eef2ee", "#e0ffe0");
    case FS_BG_GREY:
        return bg("#f8f8f8", "#e8e8e8");
    case FS_BG_YELLOW:
    case FS_BG_FLAT:
    default:
        return bg("#eeeeee", "#eeeeb0");
    }
}

fs_background fs_background_for_palette(fs_palette p)
{
    switch (p) {
    case FS_PAL_MEM:
        return bg_named(FS_BG_GREEN);
    case FS_PAL_IO:
    case FS_PAL_WAKEUP:
        return bg_named(FS_BG_BLUE);
    case FS_PAL_RED:
    case FS_PAL_GREEN:
    case FS_PAL_BLUE:
    case FS_PAL_AQUA:
    case FS_PAL_YELLOW:
    case FS_PAL_PURPLE:
    case FS_PAL_ORANGE:
        return bg_named(FS_BG_GREY);
    default:
        return bg_named(FS_BG_YELLOW);
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int fs_rgb_parse_hex(const char *value, fs_rgb *out)
{
    if (!value || value[0] != '#' || strlen(value) != 7)
        return -1;
    uint8_t ch[3];
    for (int i = 0; i < 3; i++) {
        int hi = hexval(value[1 + 2 * i]), lo = hexval(value[2 + 2 * i]);
        if (hi < 0 || lo < 0)
            return -1;
        ch[i] = (uint8_t)(hi * 16 + lo);
    }
    if (out)
        *out = rgb(ch[0], ch[1], ch[2]);
    return 0;
}

const char *const fs_background_names[] = {"yellow", "blue", "green", "grey", NULL};

int fs_background_parse(const char *value, fs_background *out)
{
    if (!value)
        return -1;
    /* inferno matches the names exactly (lowercase); their order is fs_bg_kind's */
    for (size_t i = 0; fs_background_names[i]; i++) {
        if (strcmp(value, fs_background_names[i]) == 0) {
            if (out)
                *out = bg_named((fs_bg_kind)i);
            return 0;
        }
    }
    fs_rgb c;
    if (fs_rgb_parse_hex(value, &c) != 0)
        return -1;
    if (out) {
        static const char digits[] = "0123456789abcdef";
        char hex[8] = {'#',
                       digits[c.r >> 4],
                       digits[c.r & 15],
                       digits[c.g >> 4],
                       digits[c.g & 15],
                       digits[c.b >> 4],
                       digits[c.b & 15],
                       '\0'};
        *out = bg(hex, hex);
    }
    return 0;
}
