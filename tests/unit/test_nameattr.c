/* --nameattr files: keys, extras, skipped and warned-about input, errors. */
#include "render/nameattr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define DATA FOLDSVG_TEST_DATA "/compat/inputs/tests/data/flamegraph/nameattr/"

typedef struct warnings {
    int n;
    uint64_t line[8];
    char message[8][768];
    char file[8][1024];
} warnings;

static void on_warning(void *user, const foldsvg_error *w)
{
    warnings *ws = user;
    if (ws->n < 8) {
        ws->line[ws->n] = w->line;
        snprintf(ws->message[ws->n], sizeof ws->message[0], "%s", w->message);
        snprintf(ws->file[ws->n], sizeof ws->file[0], "%s", w->file);
    }
    ws->n++;
}

static const fs_nameattr *get(const fs_nameattr_map *m, const char *name)
{
    return fs_nameattr_get(m, name, strlen(name));
}

static fs_nameattr_map *parsed(const char *text, warnings *ws)
{
    fs_nameattr_map *m = fs_nameattr_new();
    ck_assert(m != NULL);
    foldsvg_error err;
    ck_assert_int_eq(fs_nameattr_parse(m, text, strlen(text), "test.txt", on_warning, ws, &err),
                     FOLDSVG_OK);
    return m;
}

/* A's attributes as "k=v|k=v" in their order. Returns a static buffer. */
static const char *attrs(const fs_nameattr *a)
{
    static char out[4096];
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; a && i < a->nattrs; i++) {
        int n = snprintf(out + o, sizeof out - o, "%s%s=%s", i ? "|" : "", a->attrs[i].key,
                         a->attrs[i].value);
        ck_assert(n > 0 && (size_t)n < sizeof out - o);
        o += (size_t)n;
    }
    return out;
}

/* The three example files describe the same attributes: one set per name, whichever key
 * gave them (g_extra's and a_extra's too), href as xlink:href, target="_top" added to a
 * link without one. */
static void check_example(const fs_nameattr_map *m)
{
    ck_assert_uint_eq(fs_nameattr_size(m), 3);
    const fs_nameattr *a = get(m, "main");
    ck_assert(a != NULL);
    ck_assert_str_eq(a->title, "foo");
    ck_assert_str_eq(attrs(a), "class=inferno|stroke-width=1|stroke=green|"
                               "xlink:href=https://github.com/jonhoo/inferno|target=_blank|"
                               "rel=external|hreflang=en-us");
    a = get(m, "cksum");
    ck_assert(a != NULL);
    ck_assert_str_eq(a->title, "bar");
    ck_assert_str_eq(attrs(a), "class=flames|xlink:href=https://github.com/jonhoo/inferno|"
                               "target=_top");
    a = get(m, "noploop");
    ck_assert(a != NULL);
    ck_assert(a->title == NULL);
    ck_assert_str_eq(attrs(a), "id=test");
    ck_assert_str_eq(fs_nameattr_value(a, "id"), "test");
    ck_assert(fs_nameattr_value(a, "xlink:href") == NULL);

    ck_assert(get(m, "_start") == NULL);
    ck_assert(get(m, "mai") == NULL);
    ck_assert(get(m, "main_[k]") == NULL);
}

START_TEST(test_example_files)
{
    const char *files[] = {DATA "nameattr.txt", DATA "nameattr_empty_attribute.txt",
                           DATA "nameattr_empty_first_line.txt"};
    for (size_t i = 0; i < 3; i++) {
        fs_nameattr_map *m = fs_nameattr_new();
        warnings ws = {0};
        foldsvg_error err;
        ck_assert_int_eq(fs_nameattr_load(m, files[i], on_warning, &ws, &err), FOLDSVG_OK);
        ck_assert_int_eq(ws.n, 0);
        check_example(m);
        fs_nameattr_free(m);
    }
}
END_TEST

/* In the nameattr case inferno drew the frames with an href as <a>, which the frame dump
 * does not list: main and cksum are absent, noploop (an id only) is a plain frame. */
START_TEST(test_nameattr_case)
{
    char *text = fs_test_slurp(FOLDSVG_TEST_DATA "/compat/expected/nameattr.frames.tsv", NULL);
    ck_assert(text != NULL);
    ck_assert(strstr(text, "\tnoploop (") != NULL);
    ck_assert(strstr(text, "\tmain (") == NULL);
    ck_assert(strstr(text, "\tcksum (") == NULL);
    free(text);
    /* and the input does have those frames */
    text = fs_test_slurp(FOLDSVG_TEST_DATA "/compat/inputs/flamegraph/test/results/"
                                           "perf-cycles-instructions-01-collapsed-all.txt",
                         NULL);
    ck_assert(text != NULL);
    ck_assert(strstr(text, ";main;") != NULL);
    ck_assert(strstr(text, "cksum;") != NULL);
    free(text);
}
END_TEST

START_TEST(test_warnings)
{
    warnings ws = {0};
    fs_nameattr_map *m = parsed("f\tbogus=alert(1)\ttitle=T\tonclick=go()\n"
                                "\n"
                                "g\tnoequals\tid=x\n",
                                &ws);
    /* unknown key and a word without '=' warn, with file and line */
    ck_assert_int_eq(ws.n, 2);
    ck_assert_uint_eq(ws.line[0], 1);
    ck_assert(strstr(ws.message[0], "bogus") != NULL);
    ck_assert(strstr(ws.message[0], "\"f\"") != NULL);
    ck_assert_str_eq(ws.file[0], "test.txt");
    ck_assert_uint_eq(ws.line[1], 3);
    ck_assert(strstr(ws.message[1], "noequals") != NULL);
    /* the rest of those lines still counts */
    ck_assert_str_eq(get(m, "f")->title, "T");
    ck_assert_str_eq(attrs(get(m, "f")), "onclick=go()");
    ck_assert_str_eq(attrs(get(m, "g")), "id=x");
    ck_assert_uint_eq(fs_nameattr_size(m), 2);
    fs_nameattr_free(m);

    /* without a handler warnings are dropped */
    m = fs_nameattr_new();
    const char *t = "f\tbogus=1\n";
    ck_assert_int_eq(fs_nameattr_parse(m, t, strlen(t), NULL, NULL, NULL, NULL), FOLDSVG_OK);
    ck_assert(get(m, "f") == NULL);
    fs_nameattr_free(m);
}
END_TEST

/* inferno's keys, and attributes given twice: one place each, the later value (issue 15,
 * issue 17 item 6), across keys, extras and lines. */
START_TEST(test_repeated_attributes)
{
    warnings ws = {0};
    fs_nameattr_map *m =
        parsed("f\tstyle=fill:red\tonmouseover=a()\tonmouseout=b()\tonclick=c()\n"
               "g\tclass=one\tg_extra=class=two id=i1\ta_extra=id=i2 class=\"three\"\tid=i3\n"
               "h\thref=u1\ta_extra=xlink:href=u2 target=_self\tg_extra=target=_parent\n"
               "h\ttarget=_blank\n"
               "k\tg_extra=xlink:href=u3\n"
               "g\tclass=four\n",
               &ws);
    ck_assert_int_eq(ws.n, 0);
    ck_assert_str_eq(attrs(get(m, "f")),
                     "style=fill:red|onmouseover=a()|onmouseout=b()|onclick=c()");
    ck_assert_str_eq(attrs(get(m, "g")), "class=four|id=i3");
    ck_assert_str_eq(attrs(get(m, "h")), "xlink:href=u2|target=_blank");
    /* a link from an extra is a link too, and gets its target */
    ck_assert_str_eq(attrs(get(m, "k")), "xlink:href=u3|target=_top");
    fs_nameattr_free(m);
}
END_TEST

/* Extras the SVG could not carry and stay well-formed are dropped with a warning. */
START_TEST(test_unwritable_attributes)
{
    warnings ws = {0};
    fs_nameattr_map *m = parsed("f\tg_extra=foo:bar=1 xmlns=x xmlns:q=y 1a=2 a:b:c=3 ok=4 "
                                "xlink:title=t xml:lang=en fg:note=n :x=5 a:=6\n",
                                &ws);
    ck_assert_str_eq(attrs(get(m, "f")), "ok=4|xlink:title=t|xml:lang=en|fg:note=n");
    ck_assert_int_eq(ws.n, 7);
    ck_assert(strstr(ws.message[0], "undeclared namespace prefix \"foo:bar\"") != NULL);
    ck_assert(strstr(ws.message[1], "namespace declaration \"xmlns\"") != NULL);
    ck_assert(strstr(ws.message[2], "namespace declaration \"xmlns:q\"") != NULL);
    ck_assert(strstr(ws.message[3], "not an XML name \"1a\"") != NULL);
    ck_assert(strstr(ws.message[4], "not an XML name \"a:b:c\"") != NULL);
    ck_assert_uint_eq(ws.line[6], 1);
    fs_nameattr_free(m);
}
END_TEST

START_TEST(test_details)
{
    warnings ws = {0};
    fs_nameattr_map *m = parsed("a b\ttitle=with space\t\t\tclass=\r\n"
                                "x\tg_extra=onclick=\"alert('a b')\" k=v  z=\"\" bare w=\"q\"\"\r\n"
                                "x\ttitle=first\n"
                                "x\ttitle=second\tg_extra=k=v2 n=1\n"
                                "only\n"
                                "\ttitle=no name\n"
                                "t\ttitle=a=b\n"
                                "last\thref=h",
                                &ws);
    ck_assert_int_eq(ws.n, 0);
    /* the name is everything before the first tab, spaces included */
    const fs_nameattr *a = get(m, "a b");
    ck_assert(a != NULL);
    ck_assert_str_eq(a->title, "with space");
    ck_assert_str_eq(attrs(a), "class="); /* given, empty */
    /* extras: a quoted value keeps its spaces; "" is an empty value; a bare word is no
     * pair; lines for one name merge, later values winning in the earlier place */
    a = get(m, "x");
    ck_assert(a != NULL);
    ck_assert_str_eq(a->title, "second");
    ck_assert_str_eq(attrs(a), "onclick=alert('a b')|k=v2|z=|w=q|n=1");
    /* a name with no attributes, and a line with an empty name, add nothing */
    ck_assert(get(m, "only") == NULL);
    ck_assert(get(m, "") == NULL);
    /* the value is split at the first '=' only */
    ck_assert_str_eq(get(m, "t")->title, "a=b");
    /* a last line without a newline */
    ck_assert_str_eq(attrs(get(m, "last")), "xlink:href=h|target=_top");
    ck_assert_uint_eq(fs_nameattr_size(m), 4);
    fs_nameattr_free(m);
    fs_nameattr_free(NULL);
}
END_TEST

START_TEST(test_unreadable)
{
    fs_nameattr_map *m = fs_nameattr_new();
    foldsvg_error err;
    const char *path = "/nonexistent/dir/attrs.txt";
    ck_assert_int_eq(fs_nameattr_load(m, path, NULL, NULL, &err), FOLDSVG_E_IO);
    ck_assert_int_eq(err.code, FOLDSVG_E_IO);
    ck_assert_str_eq(err.file, path);
    ck_assert(strstr(err.message, "nameattr") != NULL);
    char line[2048];
    foldsvg_error_format(&err, line, sizeof line);
    ck_assert(strstr(line, path) != NULL);
    /* a directory opens but cannot be read */
    ck_assert_int_eq(fs_nameattr_load(m, "/tmp", NULL, NULL, &err), FOLDSVG_E_IO);
    ck_assert_str_eq(err.file, "/tmp");
    /* NULL err is fine */
    ck_assert_int_eq(fs_nameattr_load(m, path, NULL, NULL, NULL), FOLDSVG_E_IO);
    ck_assert_uint_eq(fs_nameattr_size(m), 0);
    fs_nameattr_free(m);
}
END_TEST

START_TEST(test_many_names)
{
    fs_nameattr_map *m = fs_nameattr_new();
    char line[64];
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(line, sizeof line, "fn_%d\tid=i%d\n", i, i);
        ck_assert_int_eq(fs_nameattr_parse(m, line, (size_t)n, NULL, NULL, NULL, NULL), FOLDSVG_OK);
    }
    ck_assert_uint_eq(fs_nameattr_size(m), 20000);
    ck_assert_str_eq(fs_nameattr_value(get(m, "fn_12345"), "id"), "i12345");
    ck_assert(get(m, "fn_20000") == NULL);
    fs_nameattr_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("nameattr");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_example_files);
    tcase_add_test(tc, test_nameattr_case);
    tcase_add_test(tc, test_warnings);
    tcase_add_test(tc, test_repeated_attributes);
    tcase_add_test(tc, test_unwritable_attributes);
    tcase_add_test(tc, test_details);
    tcase_add_test(tc, test_unreadable);
    tcase_add_test(tc, test_many_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
