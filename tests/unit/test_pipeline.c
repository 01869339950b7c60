/* The stack pipeline (transform/pipeline.h) on its own: the order of its rules, the shapes a
 * consumer gets, fractional sums, and that it is a value (two side by side). */
#include <stdlib.h>
#include <string.h>

#include "api/options.h"
#include "testutil.h"
#include "transform/pipeline.h"

/* A consumer that writes what it gets as "path count [before] (how)\n". */
typedef struct rec {
    char out[4096];
    size_t len;
    int paths, frames;
} rec;

static void put(rec *r, const char *s, size_t n)
{
    ck_assert_uint_lt(r->len + n, sizeof r->out);
    memcpy(r->out + r->len, s, n);
    r->len += n;
    r->out[r->len] = '\0';
}

static void put_counts(rec *r, uint64_t count, uint64_t before, int is_diff, const char *how)
{
    char num[96];
    if (is_diff)
        snprintf(num, sizeof num, " %llu %llu %s\n", (unsigned long long)before,
                 (unsigned long long)count, how);
    else
        snprintf(num, sizeof num, " %llu %s\n", (unsigned long long)count, how);
    put(r, num, strlen(num));
}

static foldsvg_status on_path(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    rec *r = user;
    r->paths++;
    put(r, l->stack, l->len);
    put_counts(r, l->count, l->before, l->is_diff, "path");
    return FOLDSVG_OK;
}

static foldsvg_status on_frames(void *user, const fs_strref *f, size_t n, uint64_t count,
                                uint64_t before, int is_diff, uint64_t lineno, foldsvg_error *err)
{
    (void)err;
    (void)lineno;
    rec *r = user;
    r->frames++;
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(r, "|", 1);
        put(r, f[i].ptr, f[i].len);
    }
    put_counts(r, count, before, is_diff, "frames");
    return FOLDSVG_OK;
}

/* A consumer that names each stack by a token (its order of arrival) and takes it again by
 * token (fs_consumer.frames_token, .again): what it gets, as on_frames writes it. */
static foldsvg_status on_frames_token(void *user, const fs_strref *f, size_t n, uint64_t count,
                                      uint32_t *token, foldsvg_error *err)
{
    rec *r = user;
    *token = (uint32_t)r->frames + 100;
    return on_frames(user, f, n, count, 0, 0, 0, err);
}

static foldsvg_status on_again(void *user, uint32_t token, uint64_t count, foldsvg_error *err)
{
    (void)err;
    rec *r = user;
    char s[64];
    snprintf(s, sizeof s, "#%u %llu again\n", (unsigned)token, (unsigned long long)count);
    put(r, s, strlen(s));
    return FOLDSVG_OK;
}

/* Options from name/value pairs, through the option table. */
static foldsvg_options *opts(const char *const *kv)
{
    foldsvg_options *o = foldsvg_options_new();
    for (; kv && kv[0]; kv += 2) {
        foldsvg_error err;
        ck_assert_msg(foldsvg_options_set(o, kv[0], kv[1], &err) == FOLDSVG_OK, "%s", err.message);
    }
    return o;
}

static fs_pipeline *make(const foldsvg_options *o, rec *r, int with_frames)
{
    memset(r, 0, sizeof *r);
    fs_consumer to = {.user = r, .path = on_path, .frames = with_frames ? on_frames : NULL};
    fs_pipeline *pl;
    foldsvg_error err;
    ck_assert_int_eq(fs_pipeline_new(&pl, &o->stack, &to, &err), FOLDSVG_OK);
    return pl;
}

static foldsvg_status line(fs_sink *s, const char *stack, uint64_t count, uint64_t lineno,
                           foldsvg_error *err)
{
    fs_folded_line l = {.stack = stack, .len = strlen(stack), .count = count, .lineno = lineno};
    return s->line(s, &l, err);
}

static foldsvg_status stack(fs_sink *s, const char *const *names, size_t n, uint64_t count,
                            foldsvg_error *err)
{
    fs_strref f[16];
    for (size_t i = 0; i < n; i++)
        f[i] = (fs_strref){names[i], strlen(names[i])};
    return s->stack(s, f, n, count, err);
}

/* Without transforms folded lines pass whole; structured stacks are sanitized (whitespace at
 * names' ends trimmed), an empty one is [unknown]; zero counts go, a differential line with
 * only a first count stays. */
START_TEST(plain_lines_pass_whole)
{
    foldsvg_options *o = opts(NULL);
    rec r;
    fs_pipeline *pl = make(o, &r, 1);
    ck_assert_int_eq(fs_pipeline_rewrites(pl), 0);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    ck_assert_int_eq(line(s, "a;b", 3, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, "zero", 0, 2, &err), FOLDSVG_OK);
    fs_folded_line d = {.stack = "d", .len = 1, .before = 5, .is_diff = 1, .lineno = 3};
    ck_assert_int_eq(s->line(s, &d, &err), FOLDSVG_OK);
    const char *x[] = {"x;y", "z\n"};
    ck_assert_int_eq(stack(s, x, 2, 4, &err), FOLDSVG_OK);
    ck_assert_int_eq(stack(s, NULL, 0, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(stack(s, x, 2, 0, &err), FOLDSVG_OK);
    /* whitespace at a name's ends goes; names all empty are an empty stack */
    const char *ws[] = {" \tmain ", "\r;leaf\f \n"}, *blank[] = {" ", "", "\t"};
    ck_assert_int_eq(stack(s, ws, 2, 6, &err), FOLDSVG_OK);
    ck_assert_int_eq(stack(s, blank, 3, 7, &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    ck_assert_str_eq(r.out, "a;b 3 path\n"
                            "d 5 0 path\n"
                            "x:y|z 4 frames\n"
                            "[unknown] 1 frames\n"
                            "main|:leaf 6 frames\n"
                            "[unknown] 7 frames\n");
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* --no-sort compares every valid line with the one before, zero counts included (the
 * line after a zero count is checked against it), per input. */
START_TEST(no_sort_checks_before_the_zero_count_rule)
{
    const char *kv[] = {"no-sort", NULL, NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 1);
    fs_sink *s = fs_pipeline_begin(pl, "one");
    foldsvg_error err;
    ck_assert_int_eq(line(s, "b", 1, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, "c", 0, 2, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, "bb", 1, 3, &err), FOLDSVG_E_UNSORTED);
    ck_assert_str_eq(err.file, "one");
    ck_assert_uint_eq(err.line, 3);
    ck_assert_ptr_nonnull(strstr(err.message, "line 2;"));
    /* a new input starts afresh */
    s = fs_pipeline_begin(pl, "two");
    ck_assert_int_eq(line(s, "a", 1, 1, &err), FOLDSVG_OK);
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* Transforms in the documented order: reverse, strip, include, focus, collapse, base. A
 * consumer of paths only gets the frames joined. */
START_TEST(transforms_in_order)
{
    const char *kv[] = {
        "reverse", NULL, "strip", "_x$", "include", "^m", "focus", "^m", "collapse-recursion",
        NULL,      NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 0);
    ck_assert_int_eq(fs_pipeline_rewrites(pl), 1);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    /* reversed: leaf;f_x;f;main -> strip: leaf;f;f;main -> focus at main: main */
    ck_assert_int_eq(line(s, "main;f;f_x;leaf", 2, 1, &err), FOLDSVG_OK);
    /* reversed: b;m;m -> focus at the first m -> m;m -> collapsed: m */
    ck_assert_int_eq(line(s, "m;m;b", 1, 2, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, "other", 1, 3, &err), FOLDSVG_OK); /* no frame matches ^m */
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    ck_assert_str_eq(r.out, "main 2 path\nm 1 path\n");
    ck_assert_int_eq(r.frames, 0);
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
    /* --base: the deepest base frame above the leaf starts the stack */
    const char *kv2[] = {"base", "b", NULL};
    o = opts(kv2);
    pl = make(o, &r, 1);
    s = fs_pipeline_begin(pl, "in");
    ck_assert_int_eq(line(s, "a;b;c;b;d", 1, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, "b;x", 1, 2, &err), FOLDSVG_OK); /* its only match is outermost */
    ck_assert_int_eq(line(s, "a;c", 1, 3, &err), FOLDSVG_OK); /* no match */
    ck_assert_str_eq(r.out, "b|d 1 frames\n");
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* --reverse on a folded line trims the reversed line as a whole, as inferno does: the new
 * root loses its leading, the new leaf its trailing whitespace, the frames between keep
 * theirs. Names from structured inputs are trimmed whole by the sanitizing (every name, both
 * ends), before --reverse. */
START_TEST(reverse_trims_the_reversed_line)
{
    const char *kv[] = {"reverse", NULL, NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 1);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    ck_assert_int_eq(line(s, "a;impl for [T; _]>::f", 19, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, "x \t;m; mid ;\t y", 2, 2, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s, " lone ", 1, 3, &err), FOLDSVG_OK); /* root and leaf at once */
    const char *names[] = {" s ", " t "};
    ck_assert_int_eq(stack(s, names, 2, 4, &err), FOLDSVG_OK);
    ck_assert_str_eq(r.out, "_]>::f|impl for [T|a 19 frames\n"
                            "y| mid |m|x 2 frames\n"
                            "lone 1 frames\n"
                            "t|s 4 frames\n");
    fs_pipeline_free(pl);
    /* a consumer of paths gets the trimmed line */
    pl = make(o, &r, 0);
    s = fs_pipeline_begin(pl, "in");
    ck_assert_int_eq(line(s, "a;impl for [T; _]>::f", 19, 1, &err), FOLDSVG_OK);
    ck_assert_str_eq(r.out, "_]>::f;impl for [T;a 19 path\n");
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* One whitespace rule everywhere (util/utf8.h): Unicode White_Space at a name's ends goes
 * for structured names and at the reversed line's ends, inside a name it stays. */
START_TEST(unicode_whitespace_is_whitespace)
{
    const char *kv[] = {"reverse", NULL, NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 1);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    ck_assert_int_eq(line(s,
                          "a;b\xc2\xa0x;\xe3\x80\x80"
                          "c",
                          3, 1, &err),
                     FOLDSVG_OK);
    const char *names[] = {"\xe3\x80\x80"
                           "s\xc2\xa0",
                           "\xe2\x80\x8b"
                           "t "};
    ck_assert_int_eq(stack(s, names, 2, 4, &err), FOLDSVG_OK);
    /* U+200B (zero width space) is not White_Space: it stays */
    ck_assert_str_eq(r.out, "c|b\xc2\xa0x|a 3 frames\n"
                            "\xe2\x80\x8b"
                            "t|s 4 frames\n");
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* Fractional weights meet per sanitized stack and are rounded half up at the input's end,
 * then take the same way as the other stacks (transforms included). */
START_TEST(fractions_sum_per_sanitized_stack)
{
    const char *kv[] = {"reverse", NULL, NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 1);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    fs_strref a[] = {{"a;1", 3}, {"b", 1}};
    fs_strref b[] = {{"a:1", 3}, {"b", 1}};
    fs_weight w1 = {1, 0.25, 0}, w2 = {0, 0.25, 0}, w3 = {0, 0.4, 0};
    ck_assert_int_eq(s->weight(s, a, 2, &w1, &err), FOLDSVG_OK);
    ck_assert_int_eq(s->weight(s, b, 2, &w2, &err), FOLDSVG_OK);
    ck_assert_int_eq(s->weight(s, NULL, 0, &w3, &err), FOLDSVG_OK); /* rounds to 0: dropped */
    /* names trimmed before they meet: " a;1 " is "a:1"; blank names are [unknown], and
     * their fractions meet those of the empty stack */
    fs_strref c[] = {{" a;1 ", 5}, {"b\t", 2}}, blank[] = {{" ", 1}, {"", 0}};
    fs_weight w4 = {0, 0.5, 0}, w5 = {0, 0.2, 0};
    ck_assert_int_eq(s->weight(s, c, 2, &w4, &err), FOLDSVG_OK);
    ck_assert_int_eq(s->weight(s, blank, 2, &w5, &err), FOLDSVG_OK);
    ck_assert_uint_eq(r.len, 0); /* nothing before the end */
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    ck_assert_str_eq(r.out, "b|a:1 2 frames\n"       /* 2.0 */
                            "[unknown] 1 frames\n"); /* 0.4 + 0.2 rounds up */
    fs_weight neg = {-3, 0.5, 0};
    s = fs_pipeline_begin(pl, "neg");
    ck_assert_int_eq(s->weight(s, a, 2, &neg, &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_E_PARSE);
    ck_assert_str_eq(err.file, "neg");
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* Two pipelines with different options run side by side on the same stacks. */
START_TEST(two_pipelines_are_independent)
{
    const char *kv[] = {"reverse", NULL, NULL};
    foldsvg_options *plain = opts(NULL), *rev = opts(kv);
    rec r1, r2;
    fs_pipeline *p1 = make(plain, &r1, 1), *p2 = make(rev, &r2, 1);
    fs_sink *s1 = fs_pipeline_begin(p1, "a"), *s2 = fs_pipeline_begin(p2, "b");
    foldsvg_error err;
    ck_assert_int_eq(line(s1, "x;y", 1, 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(line(s2, "x;y", 1, 1, &err), FOLDSVG_OK);
    ck_assert_str_eq(r1.out, "x;y 1 path\n");
    ck_assert_str_eq(r2.out, "y|x 1 frames\n");
    fs_pipeline_free(p1);
    fs_pipeline_free(p2);
    foldsvg_options_free(plain);
    foldsvg_options_free(rev);
}
END_TEST

/* Sorted folded lines share most frames with the line before: what the steps made of them is
 * taken again, and lines the steps leave alone pass whole; either way each line comes out as
 * it would alone. */
static void run_lines(const char *const *kv, const char *const *in, const char *want)
{
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 0);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    for (size_t i = 0; in[i]; i++)
        ck_assert_int_eq(line(s, in[i], 1, i + 1, &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    ck_assert_str_eq(r.out, want);
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}

START_TEST(shared_frames_transformed_as_alone)
{
    /* a pattern the screen cannot read: every line is split, the shared frames taken again */
    const char *strip[] = {"strip", "_x$", NULL};
    const char *a[] = {"m;f_x;a", "m;f_x;b", "m;g", "m;g;h_x", NULL};
    run_lines(strip, a, "m;f;a 1 path\nm;f;b 1 path\nm;g 1 path\nm;g;h 1 path\n");
    /* the screen: a Rust hash in a shared frame is stripped on every line that has it; a
     * [hex] after a word byte is one, _[k] is not */
    const char *rust[] = {"strip-rust-hash", NULL, NULL};
    const char *b[] = {"a;b::h0123456789abcdef;c",
                       "a;b::h0123456789abcdef;d",
                       "a;e_[k]",
                       "a;e_[k];f[1a]",
                       "a;e_[k];g",
                       "b::hash::h0123456789abcde",
                       NULL};
    run_lines(rust, b,
              "a;b;c 1 path\na;b;d 1 path\na;e_[k] 1 path\na;e_[k];f 1 path\n"
              "a;e_[k];g 1 path\nb::hash::h0123456789abcde 1 path\n");
    /* --exclude '^x' reads the first byte of every frame, the shared ones included */
    const char *exc[] = {"exclude", "^x", NULL};
    const char *c[] = {"a;x1;b", "a;x1;c", "a;y", "a;yx", "xa", NULL};
    run_lines(exc, c, "a;y 1 path\na;yx 1 path\n");
    /* --collapse-recursion: repeats in the shared frames, across the first byte that
     * differs, and of empty names */
    const char *col[] = {"collapse-recursion", NULL, NULL};
    const char *d[] = {"a;b", "a;b;b", "a;b;b;c", "a;bb;b", "a;c;;", "a;c;;;d", NULL};
    run_lines(col, d,
              "a;b 1 path\na;b 1 path\na;b;c 1 path\na;bb;b 1 path\na;c; 1 path\n"
              "a;c;;d 1 path\n");
}
END_TEST

/* fs_sink.shared: a trie's stacks depth first, each sharing frames with the one before, give
 * what stack() gives for each alone, whatever the steps: names the sanitizer rewrites (';',
 * newlines) in shared frames, empty names, a stack of empty names, zero counts, and the
 * filters' and --strip-hex's memory of the frames before. */
static void run_shared(const char *const *kv, int with_shared)
{
    /* frames; the number of them shared with the stack before; the count */
    static const struct {
        const char *f[6];
        size_t n, same;
        uint64_t count;
    } in[] = {
        {{"main", "a;b", "x1"}, 3, 0, 1},
        {{"main", "a;b", "x1", "0x1f"}, 4, 3, 2},
        {{"main", "a;b", "y\nz"}, 3, 2, 3},
        {{"main", "a;b", "y\nz", "y\nz"}, 4, 3, 0},
        {{"main", "a;b", "y\nz", "y\nz", "w::h0123456789abcdef"}, 5, 4, 4},
        {{"main", "", ""}, 3, 1, 5},
        {{"main", "", "", "q"}, 4, 3, 6},
        {{"", " "}, 2, 0, 7},
        {{"", " ", "r"}, 3, 2, 8},
        {{"main", "0x2f"}, 2, 0, 9},
        {{"main", "0x2f", "x2"}, 3, 2, 10},
    };
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 1);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    ck_assert(s->shared != NULL);
    foldsvg_error err;
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        fs_strref f[6];
        /* each stack in its own copy, the shared frames at the same addresses as before */
        static char names[sizeof in / sizeof in[0]][6][32];
        for (size_t k = 0; k < in[i].n; k++) {
            if (k >= in[i].same || i == 0)
                snprintf(names[i][k], sizeof names[i][k], "%s", in[i].f[k]);
            else
                memcpy(names[i][k], names[i - 1][k], sizeof names[i][k]);
            f[k] = (fs_strref){names[i][k], strlen(names[i][k])};
        }
        foldsvg_status st = with_shared ? s->shared(s, f, in[i].n, in[i].same, in[i].count, &err)
                                        : s->stack(s, f, in[i].n, in[i].count, &err);
        ck_assert_int_eq(st, FOLDSVG_OK);
    }
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    static char want[4096];
    if (!with_shared)
        snprintf(want, sizeof want, "%s", r.out);
    else
        ck_assert_str_eq(r.out, want);
    ck_assert_uint_gt(strlen(want), 0);
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}

START_TEST(shared_stacks_as_alone)
{
    const char *none[] = {NULL, NULL};
    const char *hex[] = {"strip-hex", NULL, "exclude", "^x2", NULL};
    const char *col[] = {"collapse-recursion", NULL, "strip", "z$", NULL};
    const char *rev[] = {"reverse", NULL, "focus", "main", NULL};
    const char *inc[] = {"include", "a:b", "keep-rust-hash", NULL, NULL};
    const char *const *sets[] = {none, hex, col, rev, inc};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        run_shared(sets[i], 0);
        run_shared(sets[i], 1);
    }
}
END_TEST

/* --collapse-recursion can put a stack of sorted input before the one just before it
 * ("b;b;a" becomes "b;a", after "b;a;z"): the pipeline passes them on sorted, as the stream
 * engine needs them. */
START_TEST(collapsed_stacks_passed_on_sorted)
{
    const char *col[] = {"collapse-recursion", NULL, NULL};
    const char *in[] = {"a", "b;a;z", "b;b;a", "c", NULL};
    run_lines(col, in, "a 1 path\nb;a 1 path\nb;a;z 1 path\nc 1 path\n");
    /* unsorted input: a line after one the filter dropped is placed among those held, not
     * taken to sort after the last one for sorting after the dropped line */
    const char *exc[] = {"collapse-recursion", NULL, "exclude", "^z", NULL};
    const char *un[] = {"m;q", "m;b;zz", "m;c", "m;d;d", NULL};
    run_lines(exc, un, "m;c 1 path\nm;d 1 path\nm;q 1 path\n");
}
END_TEST

/* --strip-hex comes first: the filters see the stripped names, equal names merge, and the
 * frames point at the rewritten names whatever their number (the buffer grows under them). */
START_TEST(strip_hex_before_the_filters)
{
    const char *kv[] = {"strip-hex", NULL, "exclude", "0x1f", "collapse-recursion", NULL, NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    fs_pipeline *pl = make(o, &r, 0);
    ck_assert_int_eq(fs_pipeline_rewrites(pl), 1);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    foldsvg_error err;
    /* 0x1f is gone before --exclude looks; f@0x1 and f@0x2 become one frame */
    ck_assert_int_eq(line(s, "main;f@0x1f;f@0x2;jit 0xABCdef9 ;0x;0xg", 3, 1, &err), FOLDSVG_OK);
    const char *x[] = {"lib.so+0x10", "h 0x0x1"};
    ck_assert_int_eq(stack(s, x, 2, 4, &err), FOLDSVG_OK);
    char many[2048] = "";
    for (int i = 0; i < 100; i++) /* 100 frames, each rewritten */
        snprintf(many + strlen(many), sizeof many - strlen(many), "%sf%d@0x%x", i ? ";" : "", i,
                 i + 0x100);
    ck_assert_int_eq(line(s, many, 1, 2, &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    /* (--collapse-recursion's window passes them on sorted) */
    const char *want2 = "lib.so+0x...;h 0x...x1 4 path\n";
    ck_assert_msg(strstr(r.out, "main;f@0x...;jit 0x... ;0x;0xg 3 path\n"), "%s", r.out);
    ck_assert_ptr_nonnull(strstr(r.out, want2));
    ck_assert_ptr_nonnull(strstr(r.out, "f0@0x...;f1@0x...;"));
    ck_assert_ptr_nonnull(strstr(r.out, "f99@0x... 1 path\n"));
    fs_pipeline_free(pl);
    foldsvg_options_free(o);
}
END_TEST

/* A consumer's part (fs_consumer.fork): its lines recorded apart, each "path count (part)". */
static void *fork_rec(void *user)
{
    (void)user;
    rec *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    return p;
}

static foldsvg_status part_rec(void *part, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    rec *p = part;
    put(p, l->stack, l->len);
    put_counts(p, l->count, l->before, l->is_diff, "part");
    return FOLDSVG_OK;
}

static foldsvg_status join_rec(void *user, void *part, uint64_t lines_before, int *joined,
                               foldsvg_error *err)
{
    (void)err;
    (void)lines_before;
    rec *r = user, *p = part;
    put(r, p->out, p->len);
    *joined = 1;
    return FOLDSVG_OK;
}

static void drop_rec(void *user, void *part)
{
    (void)user;
    free(part);
}

/* A part of the input read on another thread: a direct pipeline forks the consumer's part,
 * takes the zero-count rule there and counts those drops apart until the part is joined; a
 * pipeline with transforms (the lines are rewritten on its own thread) does not fork. */
START_TEST(a_part_goes_to_the_consumers_part)
{
    static const char *const reverse[] = {"reverse", NULL, NULL};
    for (int rewrites = 0; rewrites < 2; rewrites++) {
        foldsvg_options *o = opts(rewrites ? reverse : NULL);
        rec r;
        memset(&r, 0, sizeof r);
        fs_consumer to = {.user = &r,
                          .path = on_path,
                          .fork = fork_rec,
                          .part_path = part_rec,
                          .join = join_rec,
                          .drop = drop_rec};
        fs_pipeline *pl;
        foldsvg_error err;
        ck_assert_int_eq(fs_pipeline_new(&pl, &o->stack, &to, &err), FOLDSVG_OK);
        fs_sink *s = fs_pipeline_begin(pl, "in");
        if (rewrites) { /* the sink offers no parts */
            ck_assert(!s->fork && !s->join && !s->drop);
            fs_pipeline_free(pl);
            foldsvg_options_free(o);
            continue;
        }
        fs_sink *part = s->fork(s);
        ck_assert_ptr_nonnull(part);
        ck_assert_int_eq(line(s, "a;b", 3, 1, &err), FOLDSVG_OK);
        ck_assert_int_eq(line(part, "c", 2, 1, &err), FOLDSVG_OK);
        ck_assert_int_eq(line(part, "zero", 0, 2, &err), FOLDSVG_OK);
        ck_assert_uint_eq(fs_pipeline_drops(pl)->n[FS_DROP_ZERO], 0); /* not joined yet */
        int joined = 0;
        ck_assert_int_eq(s->join(s, part, 1, &joined, &err), FOLDSVG_OK);
        ck_assert_int_eq(joined, 1);
        s->drop(s, part);
        ck_assert_uint_eq(fs_pipeline_drops(pl)->n[FS_DROP_ZERO], 1);
        ck_assert_str_eq(r.out, "a;b 3 path\nc 2 part\n");
        fs_pipeline_free(pl);
        foldsvg_options_free(o);
    }
}
END_TEST

/* A reader's keys (fs_sink.again, .keyed): a stack given under a key is taken again by the
 * consumer's token, sanitized and filtered once; one the filters drop is not remembered (its
 * drops counted each time), nor is a zero count's; keys name stacks of one input only. */
START_TEST(keyed_stacks_taken_again_by_token)
{
    static const char *const kv[] = {"exclude", "^drop$", NULL};
    foldsvg_options *o = opts(kv);
    rec r;
    memset(&r, 0, sizeof r);
    fs_consumer to = {.user = &r,
                      .path = on_path,
                      .frames = on_frames,
                      .frames_token = on_frames_token,
                      .again = on_again};
    fs_pipeline *pl;
    foldsvg_error err;
    ck_assert_int_eq(fs_pipeline_new(&pl, &o->stack, &to, &err), FOLDSVG_OK);
    fs_sink *s = fs_pipeline_begin(pl, "in");
    ck_assert(s->again != NULL);
    ck_assert(s->keyed != NULL);
    fs_strref a[] = {{" main ", 6}, {"f", 1}}, d[] = {{"main", 4}, {"drop", 4}};
    int known = 1;
    ck_assert_int_eq(s->again(s, 7, 5, &known, &err), FOLDSVG_OK);
    ck_assert_int_eq(known, 0);
    ck_assert_int_eq(s->keyed(s, 7, a, 2, 5, &err), FOLDSVG_OK);
    ck_assert_int_eq(s->again(s, 7, 3, &known, &err), FOLDSVG_OK);
    ck_assert_int_eq(known, 1);
    ck_assert_int_eq(s->again(s, 7, 0, &known, &err), FOLDSVG_OK); /* dropped: nothing to draw */
    ck_assert_int_eq(known, 1);
    ck_assert_int_eq(s->keyed(s, 9, d, 2, 4, &err), FOLDSVG_OK);
    ck_assert_int_eq(s->again(s, 9, 4, &known, &err), FOLDSVG_OK);
    ck_assert_int_eq(known, 0);
    ck_assert_int_eq(s->keyed(s, 9, d, 2, 4, &err), FOLDSVG_OK);
    ck_assert_int_eq(s->keyed(s, 8, a, 2, 0, &err), FOLDSVG_OK); /* a zero count: not kept */
    ck_assert_int_eq(s->again(s, 8, 2, &known, &err), FOLDSVG_OK);
    ck_assert_int_eq(known, 0);
    ck_assert_str_eq(r.out, "main|f 5 frames\n#100 3 again\n");
    const fs_drops *dr = fs_pipeline_drops(pl);
    ck_assert_uint_eq(dr->n[FS_DROP_EXCLUDE], 2);
    ck_assert_uint_eq(dr->n[FS_DROP_ZERO], 2);
    /* another input: its keys are its own */
    s = fs_pipeline_begin(pl, "in2");
    ck_assert_int_eq(s->again(s, 7, 1, &known, &err), FOLDSVG_OK);
    ck_assert_int_eq(known, 0);
    ck_assert_int_eq(fs_pipeline_end(pl, &err), FOLDSVG_OK);
    fs_pipeline_free(pl);
    foldsvg_options_free(o);

    /* a consumer without tokens: the reader is told to give frames each time */
    rec q;
    fs_pipeline *plain = make(o = opts(NULL), &q, 1);
    s = fs_pipeline_begin(plain, "in");
    ck_assert(s->again == NULL);
    ck_assert(s->keyed == NULL);
    fs_pipeline_free(plain);
    foldsvg_options_free(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pipeline");
    TCase *tc = tcase_create("pipeline");
    tcase_add_test(tc, a_part_goes_to_the_consumers_part);
    tcase_add_test(tc, plain_lines_pass_whole);
    tcase_add_test(tc, no_sort_checks_before_the_zero_count_rule);
    tcase_add_test(tc, transforms_in_order);
    tcase_add_test(tc, reverse_trims_the_reversed_line);
    tcase_add_test(tc, unicode_whitespace_is_whitespace);
    tcase_add_test(tc, fractions_sum_per_sanitized_stack);
    tcase_add_test(tc, two_pipelines_are_independent);
    tcase_add_test(tc, strip_hex_before_the_filters);
    tcase_add_test(tc, shared_frames_transformed_as_alone);
    tcase_add_test(tc, collapsed_stacks_passed_on_sorted);
    tcase_add_test(tc, keyed_stacks_taken_again_by_token);
    tcase_add_test(tc, shared_stacks_as_alone);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
