/* The PCRE2 stack filters (--strip, --strip-rust-hash, --include, --exclude, --focus,
 * --collapse-recursion) on single stacks, UTF-8 and invalid UTF-8 names, bad patterns. */
#include "api/options.h"
#include "transform/filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define DROP "<dropped>"

/* A filter from NAME, VALUE pairs (VALUE NULL for flags), ended by a NULL name. */
static fs_filter *make(const char *const *opts)
{
    foldsvg_options *o = foldsvg_options_new();
    ck_assert(o != NULL);
    foldsvg_error err;
    for (size_t i = 0; opts[i]; i += 2)
        ck_assert_msg(foldsvg_options_set(o, opts[i], opts[i + 1], &err) == FOLDSVG_OK, "--%s: %s",
                      opts[i], err.message);
    fs_filter *f;
    ck_assert_int_eq(fs_filter_new(&f, &o->stack, &err), FOLDSVG_OK);
    ck_assert(f != NULL);
    foldsvg_options_free(o);
    return f;
}

/* Runs F on STACK split at SEP; the result joined with ';' ("" for an emptied stack), or
 * DROP. Returns a static buffer. */
static const char *apply_sep(fs_filter *f, const char *stack, char sep)
{
    static char out[16384];
    static char in[16384];
    fs_strref fr[256];
    size_t n = 0, len = strlen(stack);
    ck_assert(len < sizeof in);
    memcpy(in, stack, len + 1);
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || in[i] == sep) {
            ck_assert(n < 256);
            fr[n++] = (fs_strref){in + start, i - start};
            start = i + 1;
        }
    }
    fs_drop why;
    ck_assert_int_eq(fs_filter_apply(f, fr, &n, 0, &why), FOLDSVG_OK);
    if (why != FS_DROP_NONE)
        return DROP;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert(o + fr[i].len + 2 < sizeof out);
        if (i)
            out[o++] = ';';
        memcpy(out + o, fr[i].ptr, fr[i].len);
        o += fr[i].len;
    }
    out[o] = '\0';
    return out;
}

static const char *apply(fs_filter *f, const char *stack)
{
    return apply_sep(f, stack, ';');
}

#define ck_apply(f, in, want) ck_assert_str_eq(apply((f), (in)), (want))

START_TEST(test_none)
{
    foldsvg_options *o = foldsvg_options_new();
    ck_assert(o != NULL);
    foldsvg_error err;
    fs_filter *f = (fs_filter *)o; /* anything non-NULL: must be overwritten */
    ck_assert_int_eq(fs_filter_new(&f, &o->stack, &err), FOLDSVG_OK);
    ck_assert(f == NULL);
    ck_apply(NULL, "a;b", "a;b");
    foldsvg_options_free(o);
}
END_TEST

START_TEST(test_strip)
{
    const char *const opts[] = {"strip", "[0-9]+", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "a1b22c;x;333", "abc;x");
    ck_apply(f, "1;2;3", "");
    ck_apply(f, "k9;k8;k7", "k;k;k"); /* equal names are merged later, by the tree */
    /* an empty name in the input is not "emptied by --strip": it stays */
    ck_apply(f, "a;;b", "a;;b");
    /* the same names again come from the cache */
    ck_apply(f, "a1b22c;x;333", "abc;x");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_strip_empty_matches)
{
    const char *const opts[] = {"strip", "x*", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "axxbx;xxx;q", "ab;q");
    fs_filter_free(f);
    const char *const opts2[] = {"strip", "(?=b)|c", NULL};
    f = make(opts2);
    ck_apply(f, "abcbc", "abb");
    fs_filter_free(f);
    const char *const opts3[] = {"strip", "^", NULL};
    f = make(opts3);
    ck_apply(f, "abc", "abc");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_strip_context)
{
    /* matching sees the whole name, so lookbehind and anchors keep their meaning after the
     * first deletion */
    const char *const opts[] = {"strip", "(?<=a)b", "strip", "^z", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "abab;bb;zaz", "aa;bb;az");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_strip_in_order)
{
    /* each --strip works on what the one before left */
    const char *const opts[] = {"strip", "c", "strip", "ab", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "acb;cab;x", "x");
    fs_filter_free(f);
    const char *const opts2[] = {"strip", "ab", "strip", "c", NULL};
    f = make(opts2);
    ck_apply(f, "acb;cab", "ab");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_rust_hash)
{
    const char *const opts[] = {"strip-rust-hash", NULL, NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "core::fmt::write::h0123456789abcdef", "core::fmt::write");
    ck_apply(f, "<a & b as core::cmp::PartialOrd<&'a str>>::lt::h6666666666666666",
             "<a & b as core::cmp::PartialOrd<&'a str>>::lt");
    ck_apply(f, "mycrate[1a2b3c4d5e6f7890]::func", "mycrate::func");
    ck_apply(f, "<alloc[9f]::vec::Vec<u8> as core[0123456789abcdef]::fmt::Debug>::fmt",
             "<alloc::vec::Vec<u8> as core::fmt::Debug>::fmt");
    /* arrays, slices, wrong lengths, upper case and hash-like words stay */
    ck_assert_str_eq(apply_sep(f, "<[u8; 32] as core::convert::TryFrom<&[u8]>>::try_from", '|'),
                     "<[u8; 32] as core::convert::TryFrom<&[u8]>>::try_from");
    ck_apply(f, "<[T] as x>::f", "<[T] as x>::f");
    ck_apply(f, "f::h0123456789abcde", "f::h0123456789abcde");
    ck_apply(f, "f::h0123456789abcdef0", "f::h0123456789abcdef0");
    ck_apply(f, "f::h0123456789ABCDEF", "f::h0123456789ABCDEF");
    ck_apply(f, "f::hash_map::h0123456789abcdefx", "f::hash_map::h0123456789abcdefx");
    ck_apply(f, "operator[]", "operator[]");
    /* a legacy hash in the middle of a name (closures, generic arguments) */
    ck_apply(f, "a::b::h0123456789abcdef::{{closure}}", "a::b::{{closure}}");
    ck_apply(f, "x<y::h0123456789abcdef>", "x<y>");
    /* the same function from two builds becomes one frame */
    ck_apply(f, "main::h1111111111111111;main::h2222222222222222", "main;main");
    fs_filter_free(f);
}
END_TEST

/* The Rust-hash screen (fs_filter_screen) finds a hash wherever it lies against its 16-byte
 * steps, up to the string's end, and passes names that only look like one. */
START_TEST(test_rust_hash_screen)
{
    const char *opts[] = {"strip-rust-hash", NULL, NULL};
    fs_filter *f = make(opts);
    ck_assert(fs_filter_screens(f));
    const char *hashes[] = {"f::h0123456789abcdef", "v[1f]", "Vec[a]", "::h0123456789abcdef"};
    const char *plain[] = {"std::hash::map", "x_[k]",          "f::h0123456789abcde",
                           "[1f]",           "::hyper::h1::h", "a::h0123456789abcdeg"};
    const char *tails[] = {"", ";q::hash_[z]", ";r"};
    char s[256];
    for (size_t pad = 0; pad < 40; pad++) {
        memset(s, 'x', pad);
        if (pad)
            s[pad - 1] = ';';
        for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
            for (size_t i = 0; i < sizeof hashes / sizeof *hashes; i++) {
                int len = snprintf(s + pad, sizeof s - pad, "%s%s", hashes[i], tails[t]);
                ck_assert_msg(fs_filter_screen(f, s, pad + (size_t)len) == pad, "%s", s);
            }
            for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
                int len = snprintf(s + pad, sizeof s - pad, "%s%s", plain[i], tails[t]);
                ck_assert_msg(fs_filter_screen(f, s, pad + (size_t)len) == SIZE_MAX, "%s", s);
            }
        }
    }
    fs_filter_free(f);
}
END_TEST

START_TEST(test_rust_hash_then_strip)
{
    /* --strip-rust-hash runs before --strip, so patterns can be written for clean names */
    const char *const opts[] = {"strip", "::\\{\\{closure\\}\\}$", "strip-rust-hash", NULL, NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "a::f::{{closure}}::h0123456789abcdef;b", "a::f;b");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_generator_names)
{
    /* hostile Rust names (as SP1 profiles hold them), after sanitizing */
    const char *const opts[] = {"strip-rust-hash", NULL, NULL};
    fs_filter *f = make(opts);
    ck_assert_str_eq(apply_sep(f, "weird name::with::newline::h0123456789abcdef", '|'),
                     "weird name::with::newline");
    ck_assert_str_eq(apply_sep(f, "tab\tseparated::h00000000deadbeef", '|'), "tab\tseparated");
    ck_assert_str_eq(apply_sep(f, "C:\\windows\\path::backslash::h2222222222222222", '|'),
                     "C:\\windows\\path::backslash");
    ck_assert_str_eq(apply_sep(f,
                               "ctrl\x01"
                               "char\x1f::h3333333333333333",
                               '|'),
                     "ctrl\x01"
                     "char\x1f");
    ck_assert_str_eq(
        apply_sep(f,
                  "gr\xc3\xb6\xc3\x9f"
                  "e::\xce\xbb::\xc2\xb5s::\xe6\x97\xa5\xe6\x9c\xac::h4444444444444444",
                  '|'),
        "gr\xc3\xb6\xc3\x9f"
        "e::\xce\xbb::\xc2\xb5s::\xe6\x97\xa5\xe6\x9c\xac");
    /* the 5 KB generic name */
    static char lng[8192];
    size_t o = 0;
    o += (size_t)snprintf(lng + o, sizeof lng - o, "<");
    for (int i = 0; i < 300; i++)
        o += (size_t)snprintf(lng + o, sizeof lng - o, "alloc::vec::Vec<");
    o += (size_t)snprintf(lng + o, sizeof lng - o, "u8");
    for (int i = 0; i < 300; i++)
        lng[o++] = '>';
    o += (size_t)snprintf(lng + o, sizeof lng - o, " as core::fmt::Debug>::fmt");
    size_t clean = o;
    snprintf(lng + o, sizeof lng - o, "::h7777777777777777");
    fs_strref fr = {lng, strlen(lng)};
    size_t n = 1;
    fs_drop why;
    ck_assert_int_eq(fs_filter_apply(f, &fr, &n, 0, &why), FOLDSVG_OK);
    ck_assert_int_eq(why, FS_DROP_NONE);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(fr.len, clean);
    ck_assert(memcmp(fr.ptr, lng, clean) == 0);
    fs_filter_free(f);
}
END_TEST

START_TEST(test_include_exclude)
{
    const char *const opts[] = {"include", "^alloc", "include", "free$", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "main;alloc_small", "main;alloc_small");
    ck_apply(f, "main;do_free", "main;do_free");
    ck_apply(f, "main;run", DROP);
    ck_apply(f, "main;my_alloc", DROP);
    fs_filter_free(f);

    const char *const opts2[] = {"exclude", "^alloc", "exclude", "free$", NULL};
    f = make(opts2);
    ck_apply(f, "main;alloc_small", DROP);
    ck_apply(f, "main;do_free;x", DROP);
    ck_apply(f, "main;run", "main;run");
    fs_filter_free(f);

    /* both: kept when an --include matches and no --exclude does */
    const char *const opts3[] = {"include", "parse", "exclude", "lex", NULL};
    f = make(opts3);
    ck_apply(f, "main;parse;lex", DROP);
    ck_apply(f, "main;parse;eval", "main;parse;eval");
    ck_apply(f, "main;render", DROP);
    fs_filter_free(f);
}
END_TEST

START_TEST(test_filters_see_stripped_names)
{
    const char *const opts[] = {"strip-rust-hash", NULL,      "include", "::write$",
                                "exclude",         "^core::", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "main;fmt::write::h0123456789abcdef", "main;fmt::write");
    ck_apply(f, "main;core::fmt::write::h0123456789abcdef", DROP);
    fs_filter_free(f);
    /* a frame that --strip emptied cannot match */
    const char *const opts2[] = {"strip", "^tmp$", "include", "^tmp$", NULL};
    f = make(opts2);
    ck_apply(f, "main;tmp", DROP);
    fs_filter_free(f);
}
END_TEST

START_TEST(test_focus)
{
    const char *const opts[] = {"focus", "^parse", NULL};
    fs_filter *f = make(opts);
    /* re-rooted at the outermost match */
    ck_apply(f, "main;parse_file;parse_expr;lex", "parse_file;parse_expr;lex");
    ck_apply(f, "parse;x", "parse;x");
    ck_apply(f, "main;render", DROP);
    fs_filter_free(f);

    const char *const opts2[] = {"focus", "^b$", "focus", "^c$", NULL};
    f = make(opts2);
    ck_apply(f, "a;c;b;d", "c;b;d");
    fs_filter_free(f);

    /* --exclude looks at the whole stack, before --focus cuts it */
    const char *const opts3[] = {"focus", "^b$", "exclude", "^a$", NULL};
    f = make(opts3);
    ck_apply(f, "a;b;c", DROP);
    ck_apply(f, "x;b;c", "b;c");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_collapse_recursion)
{
    const char *const opts[] = {"collapse-recursion", NULL, NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "a;a;a;b", "a;b");
    ck_apply(f, "a;b;a;b;b", "a;b;a;b");
    ck_apply(f, "a;;;b", "a;;b");
    ck_apply(f, "x", "x");
    fs_filter_free(f);

    /* after --strip, frames that became equal are recursion too; after --focus only what
     * is left counts */
    const char *const opts2[] = {
        "strip-rust-hash", NULL, "collapse-recursion", NULL, "focus", "^f", NULL};
    f = make(opts2);
    ck_apply(f, "m;m;f::h0123456789abcdef;f::h1123456789abcdef;g", "f;g");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_emptied_stack)
{
    /* a stack left empty is [unknown]: the filters look at it as that */
    const char *const opts[] = {"strip", ".*", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "a;b", "");
    fs_filter_free(f);
    const char *const opts2[] = {"strip", "^tmp.*", "include", "unknown", NULL};
    f = make(opts2);
    ck_apply(f, "tmp1;tmp2", "");
    ck_apply(f, "main;tmp2", DROP);
    fs_filter_free(f);
    const char *const opts3[] = {"strip", "^tmp.*", "exclude", "^\\[unknown\\]$", NULL};
    f = make(opts3);
    ck_apply(f, "tmp1;tmp2", DROP);
    ck_apply(f, "main;tmp2", "main");
    fs_filter_free(f);
    const char *const opts4[] = {"strip", "^tmp.*", "focus", "^main$", NULL};
    f = make(opts4);
    ck_apply(f, "tmp1;tmp2", DROP);
    fs_filter_free(f);
}
END_TEST

START_TEST(test_utf8)
{
    /* one "." is one character, not one byte */
    const char *const opts[] = {"strip", "^.", "include", "^\\x{3bb}", NULL};
    fs_filter *f = make(opts);
    ck_apply(f, "\xc3\xb6\xce\xbbx", "\xce\xbbx");
    ck_apply(f, "a;\xce\xbb\xc3\xb6", DROP);
    fs_filter_free(f);
    const char *const opts2[] = {"strip", "\xc3\xb6|\xe6\x97\xa5", NULL};
    f = make(opts2);
    ck_apply(f,
             "gr\xc3\xb6\xc3\x9f"
             "e;\xe6\x97\xa5\xe6\x9c\xac",
             "gr\xc3\x9f"
             "e;\xe6\x9c\xac");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_invalid_utf8)
{
    /* invalid sequences match nothing, but the valid text around them still does */
    const char *const opts[] = {"strip", ".+", NULL};
    fs_filter *f = make(opts);
    ck_apply(f,
             "ab\xff"
             "cd",
             "\xff");
    ck_apply(f, "\xc3", "\xc3"); /* truncated */
    ck_apply(f, "\xc3(x", "\xc3");
    ck_apply(f, "\xed\xa0\x80z", "\xed\xa0\x80");        /* a surrogate */
    ck_apply(f, "\xf4\x90\x80\x80", "\xf4\x90\x80\x80"); /* past U+10FFFF */
    ck_apply(f, "\xc0\xaf;ok", "\xc0\xaf");              /* overlong */
    fs_filter_free(f);

    const char *const opts2[] = {"strip-rust-hash", NULL, "include", "f$", NULL};
    f = make(opts2);
    ck_apply(f, "\xfe\xff::f::h0123456789abcdef", "\xfe\xff::f");
    ck_apply(f, "\xfe\xff::g::h0123456789abcdef", DROP);
    fs_filter_free(f);

    const char *const opts3[] = {"exclude", "\\x{fffd}", "focus", "\\w", NULL};
    f = make(opts3);
    ck_apply(f, "\xff\xfe;\x80z", "\x80z");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_names_stay_valid)
{
    /* rewritten names live in the filter until the next call, whatever the caller does
     * with its own buffer */
    const char *const opts[] = {"strip", "_[0-9]+$", NULL};
    fs_filter *f = make(opts);
    char buf[] = "fn_1;fn_2;other";
    fs_strref fr[3] = {{buf, 4}, {buf + 5, 4}, {buf + 10, 5}};
    size_t n = 3;
    fs_drop why;
    ck_assert_int_eq(fs_filter_apply(f, fr, &n, 0, &why), FOLDSVG_OK);
    ck_assert_int_eq(why, FS_DROP_NONE);
    memset(buf, 'X', sizeof buf - 1);
    ck_assert_uint_eq(n, 3);
    ck_assert(fr[0].len == 2 && memcmp(fr[0].ptr, "fn", 2) == 0);
    ck_assert(fr[1].len == 2 && memcmp(fr[1].ptr, "fn", 2) == 0);
    ck_assert(fr[2].len == 5);
    fs_filter_free(f);
}
END_TEST

START_TEST(test_many_names)
{
    /* enough distinct names to grow the cache several times */
    const char *const opts[] = {"strip", "^n", "exclude", "7$", NULL};
    fs_filter *f = make(opts);
    char in[64], want[64];
    for (int i = 0; i < 20000; i++) {
        snprintf(in, sizeof in, "root;n%d;leaf", i);
        snprintf(want, sizeof want, "root;%d;leaf", i);
        ck_apply(f, in, i % 10 == 7 ? DROP : want);
    }
    ck_apply(f, "root;n12;leaf", "root;12;leaf");
    fs_filter_free(f);
}
END_TEST

START_TEST(test_cache_reset)
{
    /* 80 MB of distinct names passes the cache's bound: it is dropped and refilled, and
     * the answers stay the same */
    const char *const opts[] = {"strip", "::h[0-9]+$", "include", "7$", NULL};
    fs_filter *f = make(opts);
    static char in[4200], want[4200];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 20000; i += round ? 97 : 1) {
            memset(in, 'x', 4000);
            int k = snprintf(in + 4000, sizeof in - 4000, "%d::h%d", i, i);
            ck_assert(k > 0);
            memcpy(want, in, 4000);
            snprintf(want + 4000, sizeof want - 4000, "%d", i);
            ck_assert_msg(strcmp(apply(f, in), i % 10 == 7 ? want : DROP) == 0, "name %d", i);
        }
    }
    fs_filter_free(f);
}
END_TEST

static void bad_pattern(const char *flag, const char *pattern, const char *msg, const char *offset)
{
    foldsvg_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(fs_filter_check_pattern(flag, pattern, &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(err.code, FOLDSVG_E_USAGE);
    char want[256];
    snprintf(want, sizeof want, "--%s '", flag);
    ck_assert_msg(strstr(err.message, want) == err.message, "%s", err.message);
    ck_assert_msg(strstr(err.message, msg) != NULL, "no '%s' in: %s", msg, err.message);
    ck_assert_msg(strstr(err.message, offset) != NULL, "no '%s' in: %s", offset, err.message);

    /* the same through the options, which check at set time */
    foldsvg_options *o = foldsvg_options_new();
    ck_assert(o != NULL);
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(foldsvg_options_set(o, flag, pattern, &err), FOLDSVG_E_USAGE);
    ck_assert_msg(strstr(err.message, msg) != NULL, "%s", err.message);
    foldsvg_options_free(o);
}

START_TEST(test_bad_patterns)
{
    bad_pattern("strip", "a(b", "missing closing parenthesis", "at offset 3");
    bad_pattern("include", "[z-a]", "range out of order", "at offset 3");
    bad_pattern("exclude", "*x", "quantifier does not follow a repeatable item", "at offset 0");
    bad_pattern("focus", "a\\", "\\ at end of pattern", "at offset 2");
    bad_pattern("include", "ok\xff", "UTF-8 error", "at offset 2");
    foldsvg_error err;
    ck_assert_int_eq(fs_filter_check_pattern("strip", "a(b", &err), FOLDSVG_E_USAGE);
    ck_assert_str_eq(err.message,
                     "--strip 'a(b': invalid regular expression: missing closing parenthesis "
                     "at offset 3");
    ck_assert_int_eq(fs_filter_check_pattern("focus", "(?<n>x)\\k<n>", &err), FOLDSVG_OK);
}
END_TEST

/* F on STACK (';'-separated) must fail with FOLDSVG_E_LIMIT, its message containing WANT. */
static void ck_limit(fs_filter *f, const char *stack, const char *want)
{
    static char in[4096];
    fs_strref fr[16];
    size_t n = 0, len = strlen(stack), start = 0;
    ck_assert(len < sizeof in);
    memcpy(in, stack, len + 1);
    for (size_t i = 0; i <= len; i++)
        if (i == len || in[i] == ';') {
            fr[n++] = (fs_strref){in + start, i - start};
            start = i + 1;
        }
    fs_drop why;
    ck_assert_int_eq(fs_filter_apply(f, fr, &n, 0, &why), FOLDSVG_E_LIMIT);
    ck_assert_msg(strstr(fs_filter_message(f), want) != NULL, "no '%s' in: %s", want,
                  fs_filter_message(f));
}

/* Catastrophic backtracking: a limit hit is an error naming the pattern and the frame when
 * the stack's fate depends on it, and no error when something else decides it. */
#define RUN_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
START_TEST(test_backtracking_limits)
{
    const char *const inc[] = {"include", "(a+)+$", NULL};
    fs_filter *f = make(inc);
    ck_limit(f, "main;" RUN_A "x", "--include '(a+)+$' hit PCRE2's match (backtracking) limit");
    ck_limit(f, "main;" RUN_A "x", "on the frame 'aaaaaaaa");
    ck_apply(f, "main;aaax", DROP); /* short runs stay cheap and right */
    ck_apply(f, "main;aaaa", "main;aaaa");
    ck_apply(f, RUN_A "x;" RUN_A, RUN_A "x;" RUN_A); /* another frame decides */
    fs_filter_free(f);

    const char *const inc2[] = {"include", "(a+)+$", "include", "x$", NULL};
    f = make(inc2);
    ck_apply(f, "main;" RUN_A "x", "main;" RUN_A "x"); /* another pattern matched */
    fs_filter_free(f);

    const char *const exc[] = {"exclude", "(a+)+$", "exclude", "^main$", NULL};
    f = make(exc);
    ck_apply(f, RUN_A "x;main", DROP); /* excluded by a frame whatever the other says */
    ck_limit(f, "other;" RUN_A "x", "--exclude '(a+)+$'");
    fs_filter_free(f);

    const char *const foc[] = {"focus", "(a+)+$|^f$", NULL};
    f = make(foc);
    ck_apply(f, "r;f;" RUN_A "x", "f;" RUN_A "x"); /* unknown only below the focus */
    ck_limit(f, "r;" RUN_A "x;f", "--focus '(a+)+$|^f$'");
    fs_filter_free(f);

    /* --strip: the stripped name is unknown; controls in the shown name are masked */
    const char *const strip[] = {"strip", "(a+)+$", NULL};
    f = make(strip);
    ck_limit(f, "m;\033[31m" RUN_A "x", "--strip '(a+)+$' hit");
    ck_limit(f, "m;\033[31m" RUN_A "x", "on the frame '?[31maaaa");
    ck_apply(f, "m;baaa", "m;b");
    fs_filter_free(f);
}
END_TEST

/* Limits hit on names that decide nothing are a warning (once, counted), and past a budget
 * of distinct names an error: the run would otherwise cost names x limit. */
START_TEST(test_backtracking_budget)
{
    const char *const inc[] = {"include", "^main$", "include", "(a+)+$", NULL};
    fs_filter *f = make(inc);
    char stack[256], why[768];
    ck_assert_int_eq(fs_filter_warning(f, why, sizeof why), 0);
    for (int i = 0; i < 15; i++) {
        snprintf(stack, sizeof stack, "main;" RUN_A "x%d", i);
        ck_apply(f, stack, stack); /* main decides */
    }
    ck_apply(f, "main;" RUN_A "x0", "main;" RUN_A "x0"); /* known: no new hit */
    ck_assert_int_eq(fs_filter_warning(f, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "--include '(a+)+$' hit PCRE2's match (backtracking) limit on 15 "
                              "frames (the first 'aaaa") != NULL,
                  "%s", why);
    ck_assert_msg(strstr(why, "...'); no stack depended on them") != NULL, "%s", why);
    ck_assert_int_eq(fs_filter_warning(f, why, sizeof why), 0); /* said once */
    ck_apply(f, "main;aaaa", "main;aaaa");                      /* no limit: goes on */
    ck_limit(f, "main;" RUN_A "x15",
             "--include '(a+)+$' hit PCRE2's match (backtracking) limit on 16 distinct frames (the "
             "last 'aaaa");
    fs_filter_free(f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("filter");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_none);
    tcase_add_test(tc, test_strip);
    tcase_add_test(tc, test_strip_empty_matches);
    tcase_add_test(tc, test_strip_context);
    tcase_add_test(tc, test_strip_in_order);
    tcase_add_test(tc, test_rust_hash);
    tcase_add_test(tc, test_rust_hash_screen);
    tcase_add_test(tc, test_rust_hash_then_strip);
    tcase_add_test(tc, test_generator_names);
    tcase_add_test(tc, test_include_exclude);
    tcase_add_test(tc, test_filters_see_stripped_names);
    tcase_add_test(tc, test_focus);
    tcase_add_test(tc, test_collapse_recursion);
    tcase_add_test(tc, test_emptied_stack);
    tcase_add_test(tc, test_utf8);
    tcase_add_test(tc, test_invalid_utf8);
    tcase_add_test(tc, test_names_stay_valid);
    tcase_add_test(tc, test_many_names);
    tcase_add_test(tc, test_cache_reset);
    tcase_add_test(tc, test_bad_patterns);
    tcase_add_test(tc, test_backtracking_limits);
    tcase_add_test(tc, test_backtracking_budget);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
