/* Colors against hand-computed values (arithmetic in the comments) and against the fills
 * inferno drew (tests/data/compat/expected). */
#include "render/colors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define S(str) (const unsigned char *)(str), strlen(str)

#define ck_rgb(c, R, G, B)                                                                         \
    do {                                                                                           \
        fs_rgb c_ = (c);                                                                           \
        ck_assert_msg(c_.r == (R) && c_.g == (G) && c_.b == (B),                                   \
                      "got rgb(%d,%d,%d), want rgb(%d,%d,%d)", c_.r, c_.g, c_.b, (R), (G), (B));   \
    } while (0)

/* Check's float macros pass floats through varargs, which -Wdouble-promotion rejects */
#define ck_float(x, want, tol)                                                                     \
    do {                                                                                           \
        double x_ = (double)(x), w_ = (double)(want);                                              \
        ck_assert_msg(fabs(x_ - w_) <= (double)(tol), "got %.9g, want %.9g", x_, w_);              \
    } while (0)

static fs_rgb hash_color(fs_palette p, const char *name)
{
    size_t n = strlen(name);
    const unsigned char *b = (const unsigned char *)name;
    float v1 = fs_namehash(b, n, 0), v2 = fs_namehash(b, n, 1);
    return fs_palette_rgb(fs_palette_resolve(p, b, n), v1, v2, v2);
}

static fs_rgb fnv_color(fs_palette p, const char *name)
{
    float v[3];
    size_t n = strlen(name);
    fs_fnv_values((const unsigned char *)name, n, v);
    return fs_palette_rgb(fs_palette_resolve(p, (const unsigned char *)name, n), v[0], v[1], v[2]);
}

static char *rgb_text(fs_rgb c, char buf[32])
{
    snprintf(buf, 32, "rgb(%d,%d,%d)", c.r, c.g, c.b);
    return buf;
}

/* The fill of the first frame of expected/CASE.frames.tsv whose tooltip is TITLE followed by
 * " (" (the root is "all"). Fails the test when there is none. */
static void expected_fill(const char *casename, const char *title, char out[32])
{
    char path[1024];
    snprintf(path, sizeof path, "%s/compat/expected/%s.frames.tsv", FOLDSVG_TEST_DATA, casename);
    char *text = fs_test_slurp(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    out[0] = '\0';
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *f[9];
        if (!fs_test_frame_row(line, f))
            continue;
        size_t tn = strlen(title);
        if (strncmp(f[7], title, tn) == 0 && strncmp(f[7] + tn, " (", 2) == 0) {
            snprintf(out, 32, "%s", f[4]);
            break;
        }
    }
    free(text);
    ck_assert_msg(out[0], "no frame %s in %s", title, path);
}

START_TEST(test_palette_names)
{
    fs_palette p;
    const char *names[] = {"hot",  "mem",    "io",     "red",    "green",  "blue",
                           "aqua", "yellow", "purple", "orange", "wakeup", "java",
                           "js",   "perl",   "python", "rust"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ck_assert_int_eq(fs_palette_from_name(names[i], &p), 0);
        ck_assert_str_eq(fs_palette_name(p), names[i]);
    }
    ck_assert_int_eq(fs_palette_from_name("java", &p), 0);
    ck_assert_int_eq(p, FS_PAL_JAVA);
    ck_assert_int_eq(fs_palette_from_name("Hot", &p), -1);
    ck_assert_int_eq(fs_palette_from_name("", &p), -1);
    ck_assert_int_eq(fs_palette_from_name("chartreuse", &p), -1);
}
END_TEST

START_TEST(test_namehash_hand)
{
    /* "" hashes nothing: 1 - 0/1 = 1 */
    ck_assert(fs_namehash(S(""), 0) == 1.0f);
    /* "a": 97 % 10 = 7; v = 7/9 = 0.777778, max = 2; 1 - 0.388889 = 0.611111 */
    ck_float(fs_namehash(S("a"), 0), 0.611111f, 1e-6f);
    /* "main", forwards only "mai":
     *   m 109 % 10 = 9: v = 9/9 * 1           = 1,        max = 2,    w = 0.7
     *   a  97 % 11 = 9: v += 9/10 * 0.7       = 1.63,     max = 2.7,  w = 0.49
     *   i 105 % 12 = 9: v += 9/11 * 0.49      = 2.030909, max = 3.19
     *   1 - 2.030909 / 3.19 = 0.363351 */
    ck_float(fs_namehash(S("main"), 0), 0.363351f, 1e-6f);
    /* reversed, "nia" of "niam":
     *   n 110 % 10 = 0: v = 0,                           max = 2
     *   i 105 % 11 = 6: v += 6/10 * 0.7  = 0.42,         max = 2.7
     *   a  97 % 12 = 1: v += 1/11 * 0.49 = 0.464545,     max = 3.19
     *   1 - 0.464545 / 3.19 = 0.854375 */
    ck_float(fs_namehash(S("main"), 1), 0.854375f, 1e-6f);
    /* only 3 bytes count */
    ck_assert(fs_namehash(S("main"), 0) == fs_namehash(S("mai"), 0));
    ck_assert(fs_namehash(S("mainly"), 0) == fs_namehash(S("main_x"), 0));
    /* hot of "main": r = 205 + (u8)(50 * 0.854375 = 42.72) = 247,
     * g = (u8)(230 * 0.363351 = 83.57) = 83, b = (u8)(55 * 0.854375 = 46.99) = 46 */
    ck_rgb(hash_color(FS_PAL_HOT, "main"), 247, 83, 46);
    /* root: v = 1 -> hot (205 + 50, 230, 55) */
    ck_rgb(hash_color(FS_PAL_HOT, ""), 255, 230, 55);
}
END_TEST

START_TEST(test_namehash_backtick)
{
    /* "ab`cd": a, b hashed, the backtick stops and restarts on "cd":
     *   c  99 % 10 = 9: v = 1, max = 2;  d 100 % 11 = 1: v += 1/10 * 0.7 = 1.07, max = 2.7
     *   1 - 1.07 / 2.7 = 0.603704 */
    ck_float(fs_namehash(S("ab`cd"), 0), 0.603704f, 1e-6f);
    ck_assert(fs_namehash(S("ab`cd"), 0) == fs_namehash(S("cd"), 0));
    /* a backtick after the first 3 bytes still restarts; 3 bytes after it count */
    ck_assert(fs_namehash(S("libc.so`malloc"), 0) == fs_namehash(S("mal"), 0));
    ck_assert(fs_namehash(S("libc.so`malloc"), 0) != fs_namehash(S("lib"), 0));
    /* the first byte is never the separator: "`ab" hashes all three bytes:
     *   ` 96 % 10 = 6: v = 6/9 = 0.666667; a 97 % 11 = 9: v += 0.63;
     *   b 98 % 12 = 2: v += 2/11 * 0.49 = 0.089091; v = 1.385758, max = 3.19
     *   1 - 1.385758 / 3.19 = 0.565593 */
    ck_float(fs_namehash(S("`ab"), 0), 0.565593f, 1e-6f);
    /* only the first backtick after byte 0 separates; bytes after it hash as they are */
    ck_assert(fs_namehash(S("a``b"), 0) == fs_namehash(S("`b"), 0));
    /* nothing after the backtick: the reset state, 1 */
    ck_assert(fs_namehash(S("abc`"), 0) == 1.0f);
    /* reversed: "dc`ba" restarts on "ba" */
    ck_assert(fs_namehash(S("ab`cd"), 1) == fs_namehash(S("ba"), 0));
}
END_TEST

START_TEST(test_fnv)
{
    float v[3];
    /* "": h = 0xcbf29ce484222325 = 14695981039346656037; / 2^64 = 0.796671 */
    fs_fnv_values(S(""), v);
    ck_float(v[0], 0.796671f, 1e-6f);
    /* h * 0x100000001b3 mod 2^64 = 0.685116 and, once more, 0.032021 of 2^64 */
    ck_float(v[1], 0.685116f, 1e-6f);
    ck_float(v[2], 0.032021f, 1e-6f);
    /* hot: r = 205 + (u8)(50 * 0.032021 = 1.6) = 206, g = (u8)(230 * 0.796671 = 183.2) = 183,
     * b = (u8)(55 * 0.685116 = 37.7) = 37 -- inferno's root in colors_deterministic */
    ck_rgb(fnv_color(FS_PAL_HOT, ""), 206, 183, 37);
    char want[32], got[32];
    expected_fill("colors_deterministic", "all", want);
    ck_assert_str_eq(rgb_text(fnv_color(FS_PAL_HOT, ""), got), want);
    expected_fill("colors_deterministic", "scala.collection.concurrent.INode.rec_lookup", want);
    ck_assert_str_eq(want, "rgb(205,197,13)");
    ck_assert_str_eq(
        rgb_text(fnv_color(FS_PAL_HOT, "scala.collection.concurrent.INode.rec_lookup"), got), want);
    ck_rgb(fnv_color(FS_PAL_HOT, "scala.collection.concurrent.TrieMap.lookuphc"), 237, 13, 9);
    /* "main": 0.122458, 0.862890, 0.663673 -> (205 + 33, 28, 47) */
    ck_rgb(fnv_color(FS_PAL_HOT, "main"), 238, 28, 47);
}
END_TEST

START_TEST(test_xorshift)
{
    fs_xorshift x;
    fs_xorshift_init(&x);
    ck_assert_uint_eq(x.state, 1234);
    /* x = 1234; x ^= x << 13 (10108928) = 10110162; x ^= x >> 7 (78985) = 10186843;
     * x ^= x << 17 (1335209885696) = 1335200936027; >> 11 = 651953582; / 2^53 = 7.238e-8 */
    float a = fs_xorshift_next(&x);
    ck_assert_uint_eq(x.state, UINT64_C(1335200936027));
    ck_float(a, 7.238139e-8f, 1e-12f);
    float b = fs_xorshift_next(&x), c = fs_xorshift_next(&x);
    ck_assert_uint_eq(x.state, UINT64_C(8241168380668852739));
    ck_float(b, 0.129711f, 1e-6f);
    ck_float(c, 0.446755f, 1e-6f);
    /* first frame, hot: r = 205 + (u8)(50 * 0.446755 = 22.3) = 227, g = (u8)(230 * 7e-8) = 0,
     * b = (u8)(55 * 0.129711 = 7.1) = 7 */
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, a, b, c), 227, 0, 7);
    /* second: 6.6968e-5, 0.443870, 0.245186 -> (205 + 12, 0, 24) */
    float d = fs_xorshift_next(&x), e = fs_xorshift_next(&x), f = fs_xorshift_next(&x);
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, d, e, f), 217, 0, 24);
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* base_symbol is rendered with the default generator: its fills, as a multiset, are the
 * first N draws (the order of the rows is not the draw order, so compare sorted). */
START_TEST(test_xorshift_base_symbol)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/compat/expected/base_symbol.frames.tsv", FOLDSVG_TEST_DATA);
    char *text = fs_test_slurp(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    char *want[512], *got[512];
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line && n < 512; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *p = line;
        for (int k = 0; k < 4 && p; k++) {
            p = strchr(p, '\t');
            if (p)
                p++;
        }
        ck_assert(p != NULL);
        *strchr(p, '\t') = '\0';
        if (strcmp(p, "rgb(160,160,160)") == 0 || strcmp(p, "rgb(200,200,200)") == 0)
            continue; /* grey frames draw nothing */
        want[n++] = p;
    }
    ck_assert_uint_gt(n, 10);
    fs_xorshift x;
    fs_xorshift_init(&x);
    for (size_t i = 0; i < n; i++) {
        float v1 = fs_xorshift_next(&x), v2 = fs_xorshift_next(&x), v3 = fs_xorshift_next(&x);
        got[i] = malloc(32);
        ck_assert(got[i] != NULL);
        rgb_text(fs_palette_rgb(FS_PAL_HOT, v1, v2, v3), got[i]);
    }
    qsort(want, n, sizeof want[0], cmp_str);
    qsort(got, n, sizeof got[0], cmp_str);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(got[i], want[i]);
    for (size_t i = 0; i < n; i++)
        free(got[i]);
    free(text);
}
END_TEST

START_TEST(test_basic_palettes)
{
    /* v = 1: every channel at base + a */
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, 1, 1, 1), 255, 230, 55);
    ck_rgb(fs_palette_rgb(FS_PAL_MEM, 1, 1, 1), 0, 240, 210);
    ck_rgb(fs_palette_rgb(FS_PAL_IO, 1, 1, 1), 140, 140, 245);
    ck_rgb(fs_palette_rgb(FS_PAL_RED, 1, 1, 1), 255, 130, 130);
    ck_rgb(fs_palette_rgb(FS_PAL_GREEN, 1, 1, 1), 110, 255, 110);
    ck_rgb(fs_palette_rgb(FS_PAL_BLUE, 1, 1, 1), 140, 140, 255);
    ck_rgb(fs_palette_rgb(FS_PAL_AQUA, 1, 1, 1), 110, 220, 220);
    ck_rgb(fs_palette_rgb(FS_PAL_YELLOW, 1, 1, 1), 230, 230, 70);
    ck_rgb(fs_palette_rgb(FS_PAL_PURPLE, 1, 1, 1), 255, 140, 255);
    ck_rgb(fs_palette_rgb(FS_PAL_ORANGE, 1, 1, 1), 255, 155, 0);
    /* v = 0: the bases */
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, 0, 0, 0), 205, 0, 0);
    ck_rgb(fs_palette_rgb(FS_PAL_MEM, 0, 0, 0), 0, 190, 0);
    ck_rgb(fs_palette_rgb(FS_PAL_ORANGE, 0, 0, 0), 190, 90, 0);
    /* v = 0.5, halves truncate: 55 * 0.5 = 27.5 -> 27, 65 * 0.5 = 32.5 -> 32 */
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, 0.5f, 0.5f, 0.5f), 230, 115, 27);
    ck_rgb(fs_palette_rgb(FS_PAL_IO, 0.5f, 0.5f, 0.5f), 110, 110, 217);
    ck_rgb(fs_palette_rgb(FS_PAL_RED, 0.5f, 0.5f, 0.5f), 227, 90, 90);
    ck_rgb(fs_palette_rgb(FS_PAL_GREEN, 0.5f, 0.5f, 0.5f), 80, 227, 80);
    ck_rgb(fs_palette_rgb(FS_PAL_BLUE, 0.5f, 0.5f, 0.5f), 110, 110, 230);
    ck_rgb(fs_palette_rgb(FS_PAL_AQUA, 0.5f, 0.5f, 0.5f), 80, 192, 192);
    ck_rgb(fs_palette_rgb(FS_PAL_YELLOW, 0.5f, 0.5f, 0.5f), 202, 202, 60);
    ck_rgb(fs_palette_rgb(FS_PAL_PURPLE, 0.5f, 0.5f, 0.5f), 222, 110, 222);
    ck_rgb(fs_palette_rgb(FS_PAL_ORANGE, 0.5f, 0.5f, 0.5f), 222, 122, 0);
    /* which value feeds which channel: v1 = 0.25, v2 = 0.5, v3 = 0.75
     * hot: (205 + (u8)37.5, (u8)57.5, (u8)27.5) = (242, 57, 27)
     * mem: (0, 190 + 25, (u8)52.5) = (0, 215, 52); io: (80 + 15, 95, 190 + 27) */
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, 0.25f, 0.5f, 0.75f), 242, 57, 27);
    ck_rgb(fs_palette_rgb(FS_PAL_MEM, 0.25f, 0.5f, 0.75f), 0, 215, 52);
    ck_rgb(fs_palette_rgb(FS_PAL_IO, 0.25f, 0.5f, 0.75f), 95, 95, 217);
    /* truncation, not rounding: 230 * 0.999 = 229.77 -> 229 */
    ck_rgb(fs_palette_rgb(FS_PAL_HOT, 0.999f, 0, 0), 205, 229, 0);
}
END_TEST

START_TEST(test_resolve_java)
{
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("__alloc_skb_[k]")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("foo_[i]")), FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("Interpreter_[j]")), FS_PAL_GREEN);
    /* _[w] is no java annotation: falls through (lowercase, no '/' or '.') */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("foo_[w]")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("JavaCalls::call")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("-[NSObject foo]")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("+[NSObject foo]")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("java/lang/Thread.run")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("org.Foo.bar")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("Thread")), FS_PAL_GREEN);
    /* one leading L is dropped before the capital test */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("LFoo")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("Lfoo")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("L[foo.bar")), FS_PAL_RED);
    /* '.' but starting with '[' */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("[libc.so]")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("[unknown]")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JAVA, S("")), FS_PAL_RED);
}
END_TEST

START_TEST(test_colors_java_case)
{
    /* colors_java: --colors java --hash; inferno's fills for four kinds of name */
    char want[32], got[32];
    /* JavaCalls::call_helper, yellow; "Jav": J 74%10=4 -> 4/9 = 0.444444;
     * a 97%11=9 -> +0.63; v 118%12=10 -> +10/11*0.49 = 0.445455; v = 1.519899, max 3.19;
     * 1 - 0.476457 = 0.523543 -> (175 + (u8)28.79, 175 + 28, 50 + (u8)10.47) */
    expected_fill("colors_java", "JavaCalls::call_helper", want);
    ck_assert_str_eq(want, "rgb(203,203,60)");
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JAVA, "JavaCalls::call_helper"), got), want);
    /* [libpthread-2.19.so], red: "[li": [ 91%10=1 -> 0.111111; l 108%11=9 -> +0.63;
     * i 105%12=9 -> +0.400909; 1 - 1.142020/3.19 = 0.642 -> (200 + 35, 50 + 51, 50 + 51) */
    expected_fill("colors_java", "[libpthread-2.19.so]", want);
    ck_assert_str_eq(want, "rgb(235,101,101)");
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JAVA, "[libpthread-2.19.so]"), got), want);
    /* annotated names: the label drops the annotation, the color keeps it */
    expected_fill("colors_java", "Interpreter", want);
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JAVA, "Interpreter_[j]"), got), want);
    ck_assert_str_eq(want, "rgb(97,243,97)");
    expected_fill("colors_java", "__alloc_skb", want);
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JAVA, "__alloc_skb_[k]"), got), want);
    ck_assert_str_eq(want, "rgb(232,132,0)");
}
END_TEST

START_TEST(test_resolve_js)
{
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S(" ")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S(" \t")), FS_PAL_GREEN);
    /* U+00A0 and U+3000 are whitespace to Rust's trim() */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("\xc2\xa0\xe3\x80\x80")), FS_PAL_GREEN);
    /* U+2003 EM SPACE is whitespace, U+200B ZERO WIDTH SPACE is not */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("\xe2\x80\x83")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("\xe2\x80\x8b")), FS_PAL_RED);
    /* invalid UTF-8 is not whitespace */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("\xc2")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("x_[k]")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("a/b_[j]")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("Stub:JSEntryStub_[j]")), FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("node::Start")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("a:b")), FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("f /x/node_modules/y.js")), FS_PAL_PURPLE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("f /x/y.js")), FS_PAL_GREEN);
    /* ".js" before the first '/' does not count */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("f.js /x/y")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_JS, S("uv_run")), FS_PAL_RED);

    char want[32], got[32];
    expected_fill("colors_js", "v8::internal::Invoke", want);
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JS, "v8::internal::Invoke"), got), want);
    expected_fill("colors_js", "Stub:JSEntryStub", want);
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JS, "Stub:JSEntryStub_[j]"), got), want);
    ck_assert_str_eq(want, "rgb(88,200,200)");
    /* root under js: namehash 1 -> red (200 + 55, 50 + 80, 50 + 80) */
    expected_fill("colors_js", "all", want);
    ck_assert_str_eq(want, "rgb(255,130,130)");
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_JS, ""), got), want);
}
END_TEST

START_TEST(test_resolve_perl_python_rust_wakeup)
{
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PERL, S("x_[k]")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PERL, S("Perl_pp_entersub")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PERL, S("main::foo at x.pl")), FS_PAL_GREEN);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PERL, S("Foo::bar")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PERL, S("perl")), FS_PAL_RED);

    ck_assert_int_eq(
        fs_palette_resolve(FS_PAL_PYTHON, S("f (/usr/lib/python3/site-packages/x.py)")),
        FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("f (C:\\Python3.9\\x.py)")),
                     FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("f (/usr/lib/python3.10/x.py)")),
                     FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("x/python/y")), FS_PAL_YELLOW);
    /* a letter after the version: not stdlib */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("x/python3x/y")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("x/site-packages2/y")), FS_PAL_RED);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("<built-in method len>")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("<frozen importlib>")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("<method 'x'>")), FS_PAL_YELLOW);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_PYTHON, S("main (app.py)")), FS_PAL_RED);

    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("core::ptr::drop")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("std::rt::lang_start")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("alloc::vec::Vec")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("<std::io::Stdout as X>::f")),
                     FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("<core::future::from_generator::"
                                                       "GenFuture<T> as Future>::poll")),
                     FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("<core::fmt::X as Y>::f")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("myapp::main")), FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("main")), FS_PAL_YELLOW);
    /* the module before a backtick is ignored */
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("libstd.so`std::rt::f")), FS_PAL_ORANGE);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_RUST, S("std::x`main")), FS_PAL_YELLOW);

    ck_assert_int_eq(fs_palette_resolve(FS_PAL_WAKEUP, S("anything")), FS_PAL_AQUA);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_HOT, S("java/Foo")), FS_PAL_HOT);
    ck_assert_int_eq(fs_palette_resolve(FS_PAL_ORANGE, S("x")), FS_PAL_ORANGE);
}
END_TEST

START_TEST(test_grey_frames_case)
{
    /* grey_frames: --hash, hot; ordinary frames next to the grey ones */
    char want[32], got[32];
    expected_fill("grey_frames", "main", want);
    ck_assert_str_eq(want, "rgb(247,83,46)");
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_HOT, "main"), got), want);
    expected_fill("grey_frames", "noploop", want);
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_HOT, "noploop"), got), want);
    expected_fill("grey_frames", "all", want);
    ck_assert_str_eq(rgb_text(hash_color(FS_PAL_HOT, ""), got), want);
}
END_TEST

START_TEST(test_diff)
{
    ck_rgb(fs_diff_rgb(0, 141, 0), 250, 250, 250);
    ck_rgb(fs_diff_rgb(0, 141, 1), 250, 250, 250);
    /* differential case, max |delta| = 141:
     * cksum 31 -> 56, +25: 100 + 150 * 116 / 141 = 100 + 17400 / 141 = 100 + 123 */
    ck_rgb(fs_diff_rgb(25, 141, 0), 255, 223, 223);
    /* main +141: 100 + 0 */
    ck_rgb(fs_diff_rgb(141, 141, 0), 255, 100, 100);
    /* -4: 100 + 150 * 137 / 141 = 100 + 20550 / 141 = 100 + 145, blue */
    ck_rgb(fs_diff_rgb(-4, 141, 0), 245, 245, 255);
    /* +2: 100 + 20850 / 141 = 100 + 147 */
    ck_rgb(fs_diff_rgb(2, 141, 0), 255, 247, 247);
    /* --negate swaps the hues, same c */
    ck_rgb(fs_diff_rgb(25, 141, 1), 223, 223, 255);
    ck_rgb(fs_diff_rgb(-4, 141, 1), 255, 245, 245);
    /* 150 * (max - v) would overflow 64 bits:
     * max 2^63, v 2^62 -> 150 * 2^62 / 2^63 = 75 */
    ck_rgb(fs_diff_rgb(INT64_C(1) << 62, UINT64_C(1) << 63, 0), 255, 175, 175);
    /* max 2^64-1, v 1: 150 * (2^64-2) / (2^64-1) = 149.99... -> 149 */
    ck_rgb(fs_diff_rgb(1, UINT64_MAX, 0), 255, 249, 249);
    /* |INT64_MIN| = 2^63 = max -> 100 */
    ck_rgb(fs_diff_rgb(INT64_MIN, UINT64_C(1) << 63, 0), 100, 100, 255);
    /* right at the fast-path limit both ways agree: 150 * (m - 1) / m = 149 */
    uint64_t m = UINT64_MAX / 150;
    ck_rgb(fs_diff_rgb(1, m, 0), 255, 249, 249);
    ck_rgb(fs_diff_rgb(1, m + 1, 0), 255, 249, 249);
    /* max 3, v 1: 150 * 2 / 3 = 100 exactly */
    ck_rgb(fs_diff_rgb(1, 3, 0), 255, 200, 200);
}
END_TEST

START_TEST(test_diff_case)
{
    char want[32];
    expected_fill("differential", "cksum", want);
    ck_assert_str_eq(want, "rgb(255,223,223)");
    expected_fill("differential", "main", want);
    ck_assert_str_eq(want, "rgb(250,250,250)"); /* the first "main" row opens with delta 0 */
    expected_fill("differential", "ext4_file_read_iter", want);
    ck_assert_str_eq(want, "rgb(255,247,247)");
}
END_TEST

START_TEST(test_diffusion)
{
    /* the full width: sqrt(1) * 2000 = 2000 -> 100 + 0 */
    ck_rgb(fs_diffusion_rgb(100.0), 255, 100, 100);
    ck_rgb(fs_diffusion_rgb(0.0), 250, 250, 250);
    /* color_diffusion (total 286), a 1-sample frame: width = 0.349650%;
     * sqrt(0.0034965) * 2000 = 118.26 -> 118; 100 + 150 * 1882 / 2000 = 100 + 141 */
    double k = 100.0 / 286.0;
    ck_rgb(fs_diffusion_rgb((81 + 1) * k - 81 * k), 255, 241, 241);
    /* 282 of 286: sqrt(0.986014) * 2000 = 1985.96 -> 1985; 100 + 2250 / 2000 = 101 */
    ck_rgb(fs_diffusion_rgb((1 + 282) * k - 1 * k), 255, 101, 101);
    /* 25%: sqrt(0.25) * 2000 = 1000; 100 + 150000 / 2000 = 175 */
    ck_rgb(fs_diffusion_rgb(25.0), 255, 175, 175);
    /* a width a hair above 100 from rounding must not wrap */
    ck_rgb(fs_diffusion_rgb(100.0000001), 255, 100, 100);
}
END_TEST

START_TEST(test_backgrounds)
{
    fs_background b = fs_background_for_palette(FS_PAL_HOT);
    ck_assert_str_eq(b.top, "#eeeeee");
    ck_assert_str_eq(b.bottom, "#eeeeb0");
    b = fs_background_for_palette(FS_PAL_JAVA);
    ck_assert_str_eq(b.bottom, "#eeeeb0");
    b = fs_background_for_palette(FS_PAL_RUST);
    ck_assert_str_eq(b.bottom, "#eeeeb0");
    b = fs_background_for_palette(FS_PAL_IO);
    ck_assert_str_eq(b.top, "#eeeeee");
    ck_assert_str_eq(b.bottom, "#e0e0ff");
    b = fs_background_for_palette(FS_PAL_WAKEUP);
    ck_assert_str_eq(b.bottom, "#e0e0ff");
    b = fs_background_for_palette(FS_PAL_MEM);
    ck_assert_str_eq(b.top, "#eef2ee");
    ck_assert_str_eq(b.bottom, "#e0ffe0");
    fs_palette single[] = {FS_PAL_RED,    FS_PAL_GREEN,  FS_PAL_BLUE,  FS_PAL_AQUA,
                           FS_PAL_YELLOW, FS_PAL_PURPLE, FS_PAL_ORANGE};
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++) {
        b = fs_background_for_palette(single[i]);
        ck_assert_str_eq(b.top, "#f8f8f8");
        ck_assert_str_eq(b.bottom, "#e8e8e8");
    }

    ck_assert_int_eq(fs_background_parse("blue", &b), 0);
    ck_assert_str_eq(b.bottom, "#e0e0ff");
    ck_assert_int_eq(fs_background_parse("green", &b), 0);
    ck_assert_str_eq(b.top, "#eef2ee");
    ck_assert_int_eq(fs_background_parse("grey", &b), 0);
    ck_assert_str_eq(b.top, "#f8f8f8");
    ck_assert_int_eq(fs_background_parse("yellow", &b), 0);
    ck_assert_str_eq(b.bottom, "#eeeeb0");
    ck_assert_int_eq(fs_background_parse("#AbC012", &b), 0);
    ck_assert_str_eq(b.top, "#abc012");
    ck_assert_str_eq(b.bottom, "#abc012");
    ck_assert_int_eq(fs_background_parse("gray", &b), -1);
    ck_assert_int_eq(fs_background_parse("Blue", &b), -1);
    ck_assert_int_eq(fs_background_parse("#abc", &b), -1);
    ck_assert_int_eq(fs_background_parse("#abcdefa", &b), -1);
    ck_assert_int_eq(fs_background_parse("abcdef", &b), -1);
    ck_assert_int_eq(fs_background_parse("", &b), -1);
}
END_TEST

START_TEST(test_hex)
{
    fs_rgb c;
    ck_assert_int_eq(fs_rgb_parse_hex("#e600e6", &c), 0);
    ck_rgb(c, 230, 0, 230);
    ck_assert_int_eq(fs_rgb_parse_hex("#7D7d7D", &c), 0);
    ck_rgb(c, 125, 125, 125);
    ck_assert_int_eq(fs_rgb_parse_hex("#000000", &c), 0);
    ck_rgb(c, 0, 0, 0);
    ck_assert_int_eq(fs_rgb_parse_hex("#ffffff", &c), 0);
    ck_rgb(c, 255, 255, 255);
    ck_assert_int_eq(fs_rgb_parse_hex("#fffff", &c), -1);
    ck_assert_int_eq(fs_rgb_parse_hex("#fffffff", &c), -1);
    ck_assert_int_eq(fs_rgb_parse_hex("ffffff", &c), -1);
    ck_assert_int_eq(fs_rgb_parse_hex("#gfffff", &c), -1);
    ck_assert_int_eq(fs_rgb_parse_hex("#+f+f+f", &c), -1);
    ck_assert_int_eq(fs_rgb_parse_hex("", &c), -1);
    ck_assert_int_eq(fs_rgb_parse_hex(NULL, &c), -1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("colors");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_palette_names);
    tcase_add_test(tc, test_namehash_hand);
    tcase_add_test(tc, test_namehash_backtick);
    tcase_add_test(tc, test_fnv);
    tcase_add_test(tc, test_xorshift);
    tcase_add_test(tc, test_xorshift_base_symbol);
    tcase_add_test(tc, test_basic_palettes);
    tcase_add_test(tc, test_resolve_java);
    tcase_add_test(tc, test_colors_java_case);
    tcase_add_test(tc, test_resolve_js);
    tcase_add_test(tc, test_resolve_perl_python_rust_wakeup);
    tcase_add_test(tc, test_grey_frames_case);
    tcase_add_test(tc, test_diff);
    tcase_add_test(tc, test_diff_case);
    tcase_add_test(tc, test_diffusion);
    tcase_add_test(tc, test_backgrounds);
    tcase_add_test(tc, test_hex);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
