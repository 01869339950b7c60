/* SVG geometry, labels, tooltips and escaping, checked against hand-computed numbers
 * (docs/inferno-compat.md, "Geometry"). */
#include <libxml/entities.h>
#include <libxml/parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/options.h"
#include "foldsvg.h"
#include "frames/merge.h"
#include "render/svg.h"
#include "render/svgname.h"
#include "render/xmlpar.h"
#include "render/xmltext.h"
#include "testutil.h"
#include "util/pool.h"
#include "util/numfmt.h"
#include "util/utf8.h"

static char *render(foldsvg_profile *p, const char *const *opts)
{
    foldsvg_options *o = foldsvg_options_new();
    foldsvg_error err;
    for (; opts && opts[0]; opts += 2)
        ck_assert_int_eq(foldsvg_options_set(o, opts[0], opts[1], &err), FOLDSVG_OK);
    char *out;
    size_t len;
    ck_assert_int_eq(foldsvg_profile_render_mem(p, FOLDSVG_FORMAT_SVG, o, &out, &len, &err),
                     FOLDSVG_OK);
    /* whatever went in, the output is well-formed XML */
    xmlDocPtr doc = xmlReadMemory(out, (int)len, "mem.svg", NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
    ck_assert_msg(doc != NULL, "not well-formed XML");
    xmlFreeDoc(doc);
    foldsvg_options_free(o);
    return out;
}

static void has(const char *svg, const char *needle)
{
    ck_assert_msg(strstr(svg, needle) != NULL, "missing: %s", needle);
}

static void lacks(const char *svg, const char *needle)
{
    ck_assert_msg(strstr(svg, needle) == NULL, "unexpected: %s", needle);
}

START_TEST(geometry)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a;b", 1);
    foldsvg_profile_record_path(p, "a;c", 3);
    const char *opts[] = {"id-prefix", "t", NULL};
    char *s = render(p, opts);
    /* depth max 2: H = 3*16 + 3*12 + (2*12 + 10) = 118 */
    has(s, "width=\"1200\" height=\"118\" viewBox=\"0 0 1200 118\"");
    /* root at depth 0: y1 = 118 - 34 - 16 + 1 = 69, height 15 */
    has(s, "<title>all (4 cycles, 100%)</title><rect x=\"0.0000%\" y=\"69\" width=\"100.0000%\" "
           "height=\"15\"");
    has(s, "<title>a (4 cycles, 100.00%)</title><rect x=\"0.0000%\" y=\"53\"");
    has(s, "<title>b (1 cycles, 25.00%)</title><rect x=\"0.0000%\" y=\"37\" width=\"25.0000%\"");
    /* c starts at 1/4: label x = 25 + 300/1200, y = 3 + (37 + 52) / 2 */
    has(s, "<title>c (3 cycles, 75.00%)</title><rect x=\"25.0000%\" y=\"37\" width=\"75.0000%\" "
           "height=\"15\"");
    has(s, "fg:x=\"1\" fg:w=\"3\"/><text x=\"25.2500%\" y=\"47.50\">c</text>");
    /* details and matched at H - ypad2/2 = 118 - 17 */
    has(s, "id=\"t-details\" fill=\"rgb(0,0,0)\" x=\"10\" y=\"101\"");
    has(s, "id=\"t-matched\" fill=\"rgb(0,0,0)\" x=\"1190\" y=\"101\"");
    has(s, "<svg id=\"t-frames\" x=\"10\" width=\"1180\" total_samples=\"4\">");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

/* An unlabelled frame (the root; b, too narrow for 3 characters) has no <text> when the script
 * is there to make one, and inferno's empty <text> without it. */
START_TEST(empty_labels_only_without_script)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a;b", 1);
    foldsvg_profile_record_path(p, "a;c", 99);
    const char *js[] = {"id-prefix", "t", NULL};
    const char *nojs[] = {"id-prefix", "t", "no-javascript", NULL, NULL};
    char *s = render(p, js);
    has(s, "fg:x=\"0\" fg:w=\"100\"/></g>");
    has(s, "fg:x=\"0\" fg:w=\"1\"/></g>");
    has(s, "fg:x=\"1\" fg:w=\"99\"/><text x=\"1.2500%\" y=\"47.50\">c</text></g>");
    lacks(s, "\"></text>");
    free(s);
    s = render(p, nojs);
    has(s, "fg:x=\"0\" fg:w=\"100\"/><text x=\"0.2500%\" y=\"79.50\"></text></g>");
    has(s, "fg:x=\"0\" fg:w=\"1\"/><text x=\"0.2500%\" y=\"47.50\"></text></g>");
    has(s, "fg:x=\"1\" fg:w=\"99\"/><text x=\"1.2500%\" y=\"47.50\">c</text></g>");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(inverted_and_subtitle)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a", 2);
    const char *opts[] = {"inverted", NULL, "subtitle", "sub", "id-prefix", "t", NULL};
    char *s = render(p, opts);
    /* ypad1 = 4*12 + 4 + 2*12 = 76; ypad2 = 12 + 10; H = 2*16 + 76 + 22 = 130 */
    has(s, "height=\"130\"");
    has(s, "<title>all (2 cycles, 100%)</title><rect x=\"0.0000%\" y=\"76\"");
    has(s, "<title>a (2 cycles, 100.00%)</title><rect x=\"0.0000%\" y=\"92\"");
    has(s, ">Icicle Graph</text>");
    has(s, "id=\"t-subtitle\" x=\"50.0000%\" y=\"48\">sub</text>");
    /* details at ypad1 - fs */
    has(s, "id=\"t-details\" fill=\"rgb(0,0,0)\" x=\"10\" y=\"64\"");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(labels_truncate_by_characters)
{
    foldsvg_profile *p = foldsvg_profile_new();
    char ascii[51], utf8[61];
    memset(ascii, 'x', 50);
    ascii[50] = 0;
    for (int i = 0; i < 30; i++)
        memcpy(utf8 + 2 * i, "\xc3\xa9", 2);
    utf8[60] = 0;
    char pa[64], pu[80];
    snprintf(pa, sizeof pa, "%s", ascii);
    snprintf(pu, sizeof pu, "%s", utf8);
    foldsvg_profile_record_path(p, pa, 1);
    foldsvg_profile_record_path(p, pu, 1);
    foldsvg_profile_record_path(p, "short", 1);
    foldsvg_profile_record_path(p, "zz", 1);
    char *s = render(p, NULL);
    /* each frame is 25% wide: fitchars = floor(25 / (100*12*0.59/1200)) = 42 */
    char want[128];
    memset(want, 'x', 40);
    strcpy(want + 40, "..</text>");
    has(s, want);
    /* 60 bytes >= 42: keep 40 code points (all 30 here) and add "..", never half a char */
    snprintf(want, sizeof want, ">%s..</text>", utf8);
    has(s, want);
    has(s, ">short</text>");
    has(s, ">zz</text>");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(narrow_frames_are_pruned)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "big", 99999);
    foldsvg_profile_record_path(p, "big;tiny", 1); /* 0.001% < 0.01% */
    char *s = render(p, NULL);
    lacks(s, "tiny");
    free(s);
    const char *opts[] = {"minwidth", "0", NULL};
    s = render(p, opts);
    has(s, "tiny (1 cycles, 0.00%)");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(tooltips_factor_and_thousands)
{
    char buf[32];
    fs_format_thousands(0, buf);
    ck_assert_str_eq(buf, "0");
    fs_format_thousands(999, buf);
    ck_assert_str_eq(buf, "999");
    fs_format_thousands(1000, buf);
    ck_assert_str_eq(buf, "1,000");
    fs_format_thousands(UINT64_MAX, buf);
    ck_assert_str_eq(buf, "18,446,744,073,709,551,615");
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a", 3);
    foldsvg_profile_record_path(p, "b", 1);
    const char *opts[] = {"factor", "2.5", "countname", "samples", NULL};
    char *s = render(p, opts);
    /* round(3 * 2.5) = 8 (half away from zero), 100 * 8 / (4 * 2.5) = 80% */
    has(s, "a (8 samples, 80.00%)");
    has(s, "all (10 samples, 100%)");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(differential_tooltips)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_diff(p, "a;b", 10, 30);
    foldsvg_profile_record_diff(p, "a;c", 20, 10);
    char *s = render(p, NULL);
    /* delta b = +20, c = -10 of total 40: +50.00%, -25.00%; a opened with delta 0 */
    has(s, "b (30 cycles, 75.00%; +50.00%)");
    has(s, "c (10 cycles, 25.00%; -25.00%)");
    has(s, "a (40 cycles, 100.00%; 0.00%)");
    free(s);
    const char *neg[] = {"negate", NULL, NULL};
    s = render(p, neg);
    has(s, "b (30 cycles, 75.00%; -50.00%)");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(hostile_names_stay_well_formed)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "<&>\"';]]>", 1);
    foldsvg_profile_record_path(p, "ctl\x01\x1f\x7f", 1);
    foldsvg_profile_record_path(p, "bad\xff\xfe\xc3", 1);
    foldsvg_profile_record_path(p, "sur\xed\xa0\x80", 1);
    const char *opts[] = {"notes", "a--b-", "title", "<t>", "nametype", "\x02", NULL};
    char *s = render(p, opts); /* render() parses the result */
    has(s, "&lt;&amp;&gt;");
    has(s, "ctl\xef\xbf\xbd\xef\xbf\xbd\x7f");         /* C0 controls replaced; DEL is allowed */
    has(s, "bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* invalid UTF-8 replaced byte by byte */
    has(s, "<!--NOTES: a- -b- -->");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

START_TEST(xml_cleaning)
{
    ck_assert_int_eq(fs_xml_is_clean("plain", 5), 1);
    ck_assert_int_eq(fs_xml_is_clean("\xc3\xa9", 2), 1);
    ck_assert_int_eq(fs_xml_is_clean("\xc0\x80", 2), 0); /* overlong NUL */
    ck_assert_int_eq(fs_xml_is_clean("a\0b", 3), 0);
    ck_assert_int_eq(fs_xml_is_clean("\xef\xbf\xbe", 3), 0); /* U+FFFE */
    ck_assert_int_eq(fs_xml_is_clean("\xf0\x9f\x94\xa5", 4), 1);
    fs_buf b = {0};
    ck_assert_int_eq(fs_xml_clean(&b, "a\0b", 3), 0);
    ck_assert_str_eq(b.data, "a\xef\xbf\xbd"
                             "b");
    ck_assert_uint_eq(fs_utf8_chars("\xc3\xa9x", 3), 2);
    ck_assert_uint_eq(fs_utf8_prefix("\xc3\xa9x", 3, 1), 2);
    fs_buf_free(&b);
}
END_TEST

START_TEST(ids_follow_content)
{
    foldsvg_profile *a = foldsvg_profile_new(), *b = foldsvg_profile_new();
    foldsvg_profile_record_path(a, "x", 1);
    foldsvg_profile_record_path(b, "y", 1);
    char *sa = render(a, NULL), *sa2 = render(a, NULL), *sb = render(b, NULL);
    char ida[32], idb[32];
    ck_assert_int_eq(sscanf(strstr(sa, "id=\"") + 4, "%31[^\"]", ida), 1);
    ck_assert_int_eq(sscanf(strstr(sb, "id=\"") + 4, "%31[^\"]", idb), 1);
    ck_assert_str_ne(ida, idb);
    ck_assert_str_eq(sa, sa2); /* deterministic */
    free(sa);
    free(sa2);
    free(sb);
    foldsvg_profile_free(a);
    foldsvg_profile_free(b);
}
END_TEST

START_TEST(pretty_xml_and_no_javascript)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a", 1);
    const char *opts[] = {"pretty-xml", NULL, "no-javascript", NULL, NULL};
    char *s = render(p, opts);
    has(s, "\n    <defs>\n        <linearGradient");
    lacks(s, "addEventListener");
    free(s);
    s = render(p, NULL);
    has(s, "addEventListener");
    free(s);
    foldsvg_profile_free(p);
}
END_TEST

/* --theme: auto is the default, byte for byte: light-dark() colors under the scheme of the
 * document's root (a standalone SVG's own: the system's; inline, the page's); light has no
 * dark colors; dark sets the scheme on the SVG itself; the script is told (a fixed theme
 * only). Each theme draws under ids of its own, so that a light and a dark copy of one graph
 * can share a page. */
START_TEST(themes)
{
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile_record_path(p, "a", 1);
    const char *none[] = {"id-prefix", "t", "no-javascript", NULL, NULL};
    const char *opts[] = {"id-prefix", "t", "no-javascript", NULL, "theme", "auto", NULL};
    char *plain = render(p, none), *s = render(p, opts);
    ck_assert_str_eq(s, plain);
    has(s, "\n:root#t-root { color-scheme:light dark; }\n"
           "#t-background &gt; stop:first-child { stop-color:light-dark(#eeeeee, #1b1b1f); }\n"
           "#t-background &gt; stop:last-child { stop-color:light-dark(#eeeeb0, #1b1b1f); }\n"
           "#t-root &gt; text { fill:light-dark(rgb(0,0,0), #e8e8e8); }\n");
    lacks(s, "@media");
    lacks(s, "\"theme\"");
    free(s);
    opts[5] = "light";
    s = render(p, opts);
    lacks(s, "light-dark");
    lacks(s, "color-scheme");
    has(s, ", \"theme\": \"light\"};");
    free(s);
    opts[5] = "dark";
    s = render(p, opts);
    has(s, "\n#t-root { color-scheme:dark; }\n#t-background &gt; stop:first-child");
    lacks(s, ":root");
    has(s, ", \"theme\": \"dark\"};");
    free(s);
    free(plain);
    char ids[3][32];
    const char *names[] = {"auto", "light", "dark"};
    for (int i = 0; i < 3; i++) {
        const char *t[] = {"theme", names[i], NULL};
        s = render(p, t);
        ck_assert_int_eq(sscanf(strstr(s, "id=\"") + 4, "%31[^\"]", ids[i]), 1);
        free(s);
    }
    ck_assert_str_ne(ids[0], ids[1]);
    ck_assert_str_ne(ids[0], ids[2]);
    ck_assert_str_ne(ids[1], ids[2]);
    foldsvg_profile_free(p);
}
END_TEST

/* Names written as text are escaped once per name (render/svgname.c), by the writer's own
 * escaper: whole in tooltips and labels, and a truncated label never cuts an entity. */
START_TEST(escaped_names_in_titles_and_labels)
{
    foldsvg_profile *p = foldsvg_profile_new();
    char lt[51];
    memset(lt, '<', 50);
    lt[50] = 0;
    foldsvg_profile_record_path(p, lt, 1);
    foldsvg_profile_record_path(p, "a<b&c\"d\re>", 1);
    foldsvg_profile_record_path(p, "x\xff_[k]", 1);
    foldsvg_profile_record_path(p, "zz", 1);
    char *s = render(p, NULL);
    /* 25% wide: 42 characters fit; 50 > 42 keeps 40 and "..": 40 whole entities */
    char want[512] = ">";
    for (int i = 0; i < 40; i++)
        strcat(want, "&lt;");
    strcat(want, "..</text>");
    has(s, want);
    has(s, "<title>a&lt;b&amp;c&quot;d&#13;e&gt; (1 cycles, 25.00%)</title>");
    has(s, ">a&lt;b&amp;c&quot;d&#13;e&gt;</text>");
    /* the annotation is not shown; the invalid byte is U+FFFD */
    has(s, "<title>x\xef\xbf\xbd (1 cycles, 25.00%)</title>");
    free(s);
    foldsvg_profile_free(p);

    fs_svgnames t;
    ck_assert_int_eq(fs_svgnames_init(&t, 3), FOLDSVG_OK);
    ck_assert_int_eq(fs_svgnames_fill(&t, 0, "plain", 5), FOLDSVG_OK);
    ck_assert_int_eq(fs_svgnames_fill(&t, 1, "a&b", 3), FOLDSVG_OK);
    ck_assert_int_eq(fs_svgnames_fill(&t, 2, "", 0), FOLDSVG_OK);
    ck_assert_int_eq(t.e[0].plain, 1);
    ck_assert_int_eq(t.e[0].own, 0); /* its own text, not copied */
    ck_assert_int_eq(t.e[1].plain, 0);
    ck_assert_int_eq(t.e[2].plain, 1);
    ck_assert_uint_eq(t.e[1].len, 7);
    const char *plain = "plain";
    ck_assert_ptr_eq(fs_svgname_text(&t, &t.e[0], plain), plain);
    ck_assert_int_eq(memcmp(fs_svgname_text(&t, &t.e[1], "a&b"), "a&amp;b", 7), 0);
    ck_assert_uint_eq(t.e[2].len, 0);
    fs_svgnames_free(&t);
    /* every byte value, alone and between letters: the text is what the writer's escaper
     * makes of the cleaned name */
    ck_assert_int_eq(fs_svgnames_init(&t, 512), FOLDSVG_OK);
    fs_buf clean = {0};
    for (unsigned i = 0; i < 512; i++) {
        char name[3] = {'x', (char)(i & 255), 'y'};
        const char *s0 = i < 256 ? name + 1 : name;
        size_t n = i < 256 ? 1 : 3;
        ck_assert_int_eq(fs_svgnames_fill(&t, i, s0, n), FOLDSVG_OK);
        fs_buf_clear(&clean);
        ck_assert_int_eq(fs_xml_clean(&clean, s0, n), FOLDSVG_OK);
        xmlChar *esc = xmlEncodeSpecialChars(NULL, (const xmlChar *)fs_buf_str(&clean));
        ck_assert_uint_eq(t.e[i].len, strlen((const char *)esc));
        ck_assert_int_eq(memcmp(fs_svgname_text(&t, &t.e[i], s0), esc, t.e[i].len), 0);
        ck_assert_int_eq(t.e[i].plain, strcmp((const char *)esc, fs_buf_str(&clean)) == 0);
        xmlFree(esc);
    }
    fs_buf_free(&clean);
    fs_svgnames_free(&t);
}
END_TEST

static int buf_write(void *ctx, const char *data, int len)
{
    return fs_buf_append(ctx, data, (size_t)len) == FOLDSVG_OK ? len : -1;
}

/* Two threads: a long frame list written by two writers. */
static fs_pool *pool2;

/* The SVG of TREE: from the frame list FRAMES (the streaming routes' input; on two writers
 * when it is long) or, FRAMES NULL, from the tree itself (one writer). */
static char *render_frames(const fs_tree *tree, const fs_test_frames *frames,
                           const char *const *opts)
{
    foldsvg_options *o = foldsvg_options_new();
    foldsvg_error err;
    for (; opts && opts[0]; opts += 2)
        ck_assert_int_eq(foldsvg_options_set(o, opts[0], opts[1], &err), FOLDSVG_OK);
    fs_buf out = {0};
    fs_svg_input in = {.tree = tree, .opts = &o->svg, .countname = "cycles"};
    if (frames) {
        in.frames = frames->f;
        in.nframes = frames->n;
        in.pool = pool2;
    }
    xmlOutputBufferPtr xb = xmlOutputBufferCreateIO(buf_write, NULL, &out, NULL);
    ck_assert_int_eq(fs_render_svg(&in, xb, &err), FOLDSVG_OK);
    foldsvg_options_free(o);
    return out.data;
}

/* A tree of N stacks of 1 to DEPTHS frames named from PARTS[0..nparts) and a number (less
 * than SPREAD times the depth), counts of 1 and multiples of 1000 below COUNTS thousand. */
static void hostile_tree(fs_tree *t, const char *const *parts, unsigned nparts, int n, int depths,
                         int spread, int counts)
{
    ck_assert_int_eq(fs_tree_init(t), FOLDSVG_OK);
    char path[512];
    for (int i = 0; i < n; i++) {
        int len = 0;
        unsigned v = (unsigned)i;
        for (int d = 0; d < 1 + i % depths; d++, v = v * 7 + 3)
            len += snprintf(path + len, sizeof path - (size_t)len, "%s%s%d", d ? ";" : "",
                            parts[v % nparts], d ? (i / (d + 1)) % (spread * d) : 0);
        ck_assert_int_eq(fs_tree_add_path(t, path, (size_t)len,
                                          1 + (uint64_t)i % (uint64_t)counts * 1000, 0, 0, NULL),
                         FOLDSVG_OK);
    }
}

/* A long frame list is written by two xmlTextWriters (render/xmlpar.c): the bytes one
 * writer writes, random colors, hostile names and indenting (--pretty-xml: one writer)
 * included. */
START_TEST(two_writers_write_what_one_writes)
{
    static const char *const parts[] = {"main",
                                        "a<b",
                                        "q\"\r",
                                        "\xff\xfe",
                                        "\xc3\xa9t\xc3\xa9",
                                        "x_[k]",
                                        "--",
                                        "-",
                                        "long_function_name_of_a_few_words"};
    fs_tree t;
    hostile_tree(&t, parts, 9, 6000, 7, 40, 97);
    fs_test_frames l = {0};
    foldsvg_status st;
    ck_assert_int_eq(fs_generate_frames(&t, NULL, fs_test_collect_frame, &l, &st), 0);
    ck_assert_uint_gt(l.n, 4096);
    const char *random[] = {"minwidth", "0", NULL};
    const char *hash[] = {"minwidth", "0", "hash", NULL, NULL};
    const char *pretty[] = {"minwidth", "0", "pretty-xml", NULL, NULL};
    const char *flags[] = {"inverted", NULL, "no-javascript", NULL, "deterministic", NULL, NULL};
    const char *const *sets[] = {random, hash, pretty, flags};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        char *one = render_frames(&t, NULL, sets[i]), *two = render_frames(&t, &l, sets[i]);
        ck_assert_msg(strcmp(one, two) == 0, "option set %zu differs", i);
        xmlDocPtr doc =
            xmlReadMemory(two, (int)strlen(two), "mem.svg", NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
        ck_assert_msg(doc != NULL, "not well-formed XML");
        xmlFreeDoc(doc);
        free(one);
        free(two);
    }
    free(l.f);
    fs_tree_free(&t);
}
END_TEST

/* fs_xmlpar on its own: items in order whichever writer wrote them, each writer's chunks in
 * increasing order; a failing item stops the run (no hang) and is reported as the writers'
 * out of memory. */
typedef struct par_user {
    fs_xmlw x;
    size_t last_to, fail_at;
    int order_broken;
} par_user;

static int par_write(void *user, size_t from, size_t to)
{
    par_user *u = user;
    if (from < u->last_to)
        u->order_broken = 1;
    u->last_to = to;
    for (size_t i = from; i < to; i++) {
        if (i == u->fail_at)
            return 1;
        char num[24];
        snprintf(num, sizeof num, "%zu", i);
        fs_xmlw_start(&u->x, "i");
        fs_xmlw_attr_raw(&u->x, "n", num);
        fs_xmlw_end(&u->x);
    }
    return 0;
}

static foldsvg_status par_items(size_t n, size_t fail_at, fs_buf *out)
{
    fs_xmlw x;
    xmlOutputBufferPtr o = xmlOutputBufferCreateIO(buf_write, NULL, out, NULL);
    ck_assert_int_eq(fs_xmlw_begin(&x, o, "t", NULL), FOLDSVG_OK);
    fs_xmlw_start(&x, "r");
    par_user u[2] = {{.fail_at = fail_at}, {.fail_at = fail_at}};
    fs_xmlpar p = {n, 10, par_write, {&u[0], &u[1]}, {&u[0].x, &u[1].x}};
    ck_assert_int_eq(fs_xmlpar_run(&x, &p, pool2), 0);
    ck_assert_int_eq(u[0].order_broken | u[1].order_broken, 0);
    fs_xmlw_end(&x);
    foldsvg_error err;
    return fs_xmlw_finish(&x, "t", &err);
}

START_TEST(parallel_items_in_order_and_failures)
{
    fs_buf out = {0}, want = {0};
    ck_assert_int_eq(par_items(1234, SIZE_MAX, &out), FOLDSVG_OK);
    fs_buf_puts(&want, "<r>");
    for (size_t i = 0; i < 1234; i++)
        fs_buf_printf(&want, "<i n=\"%zu\"/>", i);
    fs_buf_puts(&want, "</r>");
    ck_assert_str_eq(out.data, want.data);
    for (size_t at = 0; at < 60; at += 7) {
        fs_buf_clear(&out);
        ck_assert_int_eq(par_items(100, at, &out), FOLDSVG_E_NOMEM);
    }
    fs_buf_free(&out);
    fs_buf_free(&want);
}
END_TEST

static int refuse_write(void *ctx, const char *data, int len)
{
    (void)data;
    (void)len;
    return *(int *)ctx ? -1 : len;
}

/* Copied markup follows what the writer holds still (an open start tag is closed first), in
 * order; a refused write is the writer's failure. */
START_TEST(copied_markup_in_order)
{
    fs_buf out = {0};
    fs_xmlw x;
    xmlOutputBufferPtr o = xmlOutputBufferCreateIO(buf_write, NULL, &out, NULL);
    ck_assert_int_eq(fs_xmlw_begin(&x, o, "t", NULL), FOLDSVG_OK);
    fs_xmlw_start(&x, "r");
    fs_xmlw_attr_raw(&x, "a", "1");
    fs_xmlw_copy(&x, "<x/>", 4);
    fs_xmlw_copy(&x, NULL, 0);
    fs_xmlw_start(&x, "y");
    fs_xmlw_end(&x);
    fs_xmlw_copy(&x, "<z/>", 4);
    fs_xmlw_end(&x);
    foldsvg_error err;
    ck_assert_int_eq(fs_xmlw_finish(&x, "t", &err), FOLDSVG_OK);
    ck_assert_str_eq(out.data, "<r a=\"1\"><x/><y/><z/></r>");
    fs_buf_free(&out);

    int refuse = 0;
    o = xmlOutputBufferCreateIO(refuse_write, NULL, &refuse, NULL);
    ck_assert_int_eq(fs_xmlw_begin(&x, o, "t", NULL), FOLDSVG_OK);
    fs_xmlw_start(&x, "r");
    refuse = 1;
    fs_xmlw_copy(&x, "<x/>", 4);
    ck_assert_int_eq(x.failed, 1);
    ck_assert_int_eq(fs_xmlw_finish(&x, "t", &err), FOLDSVG_E_IO);
}
END_TEST

int main(void)
{
    pool2 = fs_pool_new(2);
    Suite *s = suite_create("svg");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, geometry);
    tcase_add_test(tc, empty_labels_only_without_script);
    tcase_add_test(tc, inverted_and_subtitle);
    tcase_add_test(tc, labels_truncate_by_characters);
    tcase_add_test(tc, narrow_frames_are_pruned);
    tcase_add_test(tc, tooltips_factor_and_thousands);
    tcase_add_test(tc, differential_tooltips);
    tcase_add_test(tc, hostile_names_stay_well_formed);
    tcase_add_test(tc, xml_cleaning);
    tcase_add_test(tc, ids_follow_content);
    tcase_add_test(tc, pretty_xml_and_no_javascript);
    tcase_add_test(tc, themes);
    tcase_add_test(tc, escaped_names_in_titles_and_labels);
    tcase_add_test(tc, two_writers_write_what_one_writes);
    tcase_add_test(tc, parallel_items_in_order_and_failures);
    tcase_add_test(tc, copied_markup_in_order);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
