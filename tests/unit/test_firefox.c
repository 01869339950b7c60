/* The streaming Firefox-Profiler reader against the fixtures, against the reference
 * converter on generated SP1 profiles, and on every kind of malformed input. */
#include <check.h>
#include <stdarg.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/firefox/firefox.h"
#include "formats/firefox/split.h"
#include "formats/threadsel.h"
#include "input/input.h"
#include "testutil.h"
#include "util/pool.h"
#include "transform/fracsum.h"
#include "transform/sanitize.h"
#include "util/buf.h"

#define FIXDIR FOLDSVG_TEST_DATA "/firefox"
#define TOOLS FOLDSVG_TEST_TOOLS

/* ---------------------------------------------------------------- a test sink */

typedef struct ent {
    char *key;
    uint64_t count;
} ent;

typedef struct tsink {
    fs_sink base;
    ent *e;
    size_t n, cap;
    char count_name[32];
    int count_name_calls;
    fs_fracsum frac; /* fractional weights, summed as the pipeline does */
} tsink;

static foldsvg_status ts_stack(fs_sink *self, const fs_strref *fr, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)err;
    tsink *s = (tsink *)self;
    size_t len = n ? 0 : strlen(FS_UNKNOWN_FRAME);
    for (size_t i = 0; i < n; i++)
        len += fr[i].len + (i > 0);
    char *k = malloc(len + 1);
    ck_assert_ptr_nonnull(k);
    if (n == 0)
        strcpy(k, FS_UNKNOWN_FRAME);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            k[o++] = ';';
        o += fs_sanitize_name(k + o, fr[i].ptr, fr[i].len);
    }
    if (n)
        k[o] = '\0';
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->e = realloc(s->e, s->cap * sizeof *s->e);
        ck_assert_ptr_nonnull(s->e);
    }
    s->e[s->n].key = k;
    s->e[s->n++].count = count;
    return FOLDSVG_OK;
}

static foldsvg_status ts_weight(fs_sink *self, const fs_strref *fr, size_t n, const fs_weight *w,
                                foldsvg_error *err)
{
    tsink *s = (tsink *)self;
    return fs_fracsum_add(&s->frac, fr, n, w, "mem.json", err);
}

static foldsvg_status ts_rounded(void *user, const fs_strref *fr, size_t n, uint64_t count,
                                 foldsvg_error *err)
{
    return ts_stack(user, fr, n, count, err);
}

static void ts_count_name(fs_sink *self, const char *name)
{
    tsink *s = (tsink *)self;
    snprintf(s->count_name, sizeof s->count_name, "%s", name);
    s->count_name_calls++;
}

static void ts_init(tsink *s)
{
    memset(s, 0, sizeof *s);
    s->base.stack = ts_stack;
    s->base.count_name = ts_count_name;
    s->base.weight = ts_weight;
}

static int ent_cmp(const void *a, const void *b)
{
    return strcmp(((const ent *)a)->key, ((const ent *)b)->key);
}

/* Sorted, summed "STACK COUNT\n" lines; frees the entries. */
static char *ts_folded(tsink *s)
{
    if (s->n)
        qsort(s->e, s->n, sizeof *s->e, ent_cmp);
    size_t cap = 64, len = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    for (size_t i = 0; i < s->n;) {
        uint64_t c = 0;
        size_t j = i;
        for (; j < s->n && strcmp(s->e[j].key, s->e[i].key) == 0; j++)
            c += s->e[j].count;
        if (c) {
            size_t need = strlen(s->e[i].key) + 32;
            while (len + need >= cap)
                cap *= 2;
            out = realloc(out, cap);
            len += (size_t)sprintf(out + len, "%s %llu\n", s->e[i].key, (unsigned long long)c);
        }
        i = j;
    }
    for (size_t i = 0; i < s->n; i++)
        free(s->e[i].key);
    free(s->e);
    s->e = NULL;
    s->n = s->cap = 0;
    return out;
}

/* The stacks in the order they came, "STACK COUNT\n" each (zero counts left out, as the
 * pipeline drops them); frees the entries. */
static char *ts_sequence(tsink *s)
{
    fs_buf b = {0};
    for (size_t i = 0; i < s->n; i++) {
        if (s->e[i].count)
            fs_buf_printf(&b, "%s %llu\n", s->e[i].key, (unsigned long long)s->e[i].count);
        free(s->e[i].key);
    }
    free(s->e);
    s->e = NULL;
    s->n = s->cap = 0;
    ck_assert_int_eq(fs_buf_status(&b), FOLDSVG_OK);
    char *out = strdup(fs_buf_str(&b));
    fs_buf_free(&b);
    return out;
}

/* ---------------------------------------------------------------- helpers */

/* What a test asks of the reader: a selection and weighting, or (THREAD_CB) a listing. */
typedef struct fx_opts {
    long thread; /* -1: all (unless SEL) */
    int weight_samples;
    foldsvg_thread_fn thread_cb;
    void *thread_ud;
    const char *sel[4]; /* --thread values beside THREAD */
    int ordered;        /* --flamechart */
} fx_opts;

typedef struct tinfo {
    size_t n;
    char names[64][64];
    char procs[64][64];
    uint64_t samples[64];
    double weight[64];
} tinfo;

static void list_cb(void *ud, size_t index, const char *name, const char *process, uint64_t samples,
                    double weight)
{
    tinfo *ti = ud;
    ck_assert_uint_eq(index, ti->n);
    if (ti->n < 64) {
        snprintf(ti->names[ti->n], 64, "%s", name);
        snprintf(ti->procs[ti->n], 64, "%s", process);
        ti->samples[ti->n] = samples;
        ti->weight[ti->n] = weight;
    }
    ti->n++;
}

static foldsvg_status run_input(fs_input *in, const fx_opts *o, tsink *s, char **out,
                                foldsvg_error *err)
{
    ts_init(s);
    fs_input_opts io = {.weight_samples = o ? o->weight_samples : 0, .ordered = o ? o->ordered : 0};
    char index[24];
    if (o && o->thread >= 0) {
        snprintf(index, sizeof index, "%ld", o->thread);
        ck_assert_int_eq(fs_strlist_push(&io.threads, index), FOLDSVG_OK);
    }
    for (int i = 0; o && i < 4 && o->sel[i]; i++)
        ck_assert_int_eq(fs_strlist_push(&io.threads, o->sel[i]), FOLDSVG_OK);
    foldsvg_status st = o && o->thread_cb
                            ? fs_firefox_list_threads(in, &io, o->thread_cb, o->thread_ud, err)
                            : fs_firefox_read(in, &io, &s->base, err);
    fs_strlist_free(&io.threads);
    if (st == FOLDSVG_OK)
        st = fs_fracsum_flush(&s->frac, ts_rounded, s, fs_input_name(in), err);
    fs_fracsum_free(&s->frac);
    char *f = o && o->ordered ? ts_sequence(s) : ts_folded(s);
    if (out)
        *out = f;
    else
        free(f);
    return st;
}

static foldsvg_status run_file(const char *path, const fx_opts *o, tsink *s, char **out,
                               foldsvg_error *err)
{
    fs_input *in;
    foldsvg_status st = fs_input_open_file(&in, path, err);
    ck_assert_int_eq(st, FOLDSVG_OK);
    st = run_input(in, o, s, out, err);
    fs_input_close(in);
    return st;
}

static foldsvg_status run_mem(const char *json, size_t len, const fx_opts *o, tsink *s, char **out,
                              foldsvg_error *err)
{
    fs_input *in;
    foldsvg_status st = fs_input_open_mem(&in, json, len, "mem.json", err);
    ck_assert_int_eq(st, FOLDSVG_OK);
    st = run_input(in, o, s, out, err);
    fs_input_close(in);
    return st;
}

static foldsvg_status run_str(const char *json, const fx_opts *o, char **out, foldsvg_error *err)
{
    tsink s;
    return run_mem(json, strlen(json), o, &s, out, err);
}

static void expect_ok(const char *json, const fx_opts *o, const char *want)
{
    char *out = NULL;
    foldsvg_error err;
    foldsvg_status st = run_str(json, o, &out, &err);
    ck_assert_msg(st == FOLDSVG_OK, "status %d: %s", (int)st, err.message);
    ck_assert_str_eq(out, want);
    free(out);
}

/* An error of CODE whose message contains every one of the NULL-terminated parts. */
static foldsvg_error expect_err(const char *json, const fx_opts *o, foldsvg_status code, ...)
{
    foldsvg_error err;
    memset(&err, 0, sizeof err);
    foldsvg_status st = run_str(json, o, NULL, &err);
    ck_assert_msg(st == code, "status %d, wanted %d: %s", (int)st, (int)code, err.message);
    ck_assert_int_eq(err.code, code);
    ck_assert_str_eq(err.file, "mem.json");
    va_list ap;
    va_start(ap, code);
    for (const char *part; (part = va_arg(ap, const char *));)
        ck_assert_msg(strstr(err.message, part), "message \"%s\" lacks \"%s\"", err.message, part);
    va_end(ap);
    return err;
}

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/foldsvg_ff_XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    }
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static int sh(const char *cmd)
{
    int rc = system(cmd);
    return rc;
}

/* The folded output of the reference converter for PATH (optionally one thread). */
static char *reference(const char *path, long thread)
{
    char cmd[2048], th[32] = "";
    const char *out = tmp_path("ref.folded");
    if (thread >= 0)
        snprintf(th, sizeof th, " --thread %ld", thread);
    snprintf(cmd, sizeof cmd, "python3 %s/ffprof2folded.py '%s'%s > '%s' 2> '%s.err'", TOOLS, path,
             th, out, out);
    ck_assert_msg(sh(cmd) == 0, "reference failed: %s", cmd);
    char *txt = fs_test_slurp(out, NULL);
    ck_assert_ptr_nonnull(txt);
    return txt;
}

/* ---------------------------------------------------------------- fixtures */

START_TEST(fixtures_match_expected)
{
    DIR *d = opendir(FIXDIR);
    ck_assert_ptr_nonnull(d);
    int checked = 0;
    for (struct dirent *de; (de = readdir(d));) {
        const char *n = de->d_name;
        size_t l = strlen(n);
        if (!((l > 5 && strcmp(n + l - 5, ".json") == 0) ||
              (l > 8 && strcmp(n + l - 8, ".json.gz") == 0)))
            continue;
        char path[1024], exp[1024];
        snprintf(path, sizeof path, "%s/%s", FIXDIR, n);
        snprintf(exp, sizeof exp, "%s/expected/%s.folded", FIXDIR, n);
        char *want = fs_test_slurp(exp, NULL);
        ck_assert_msg(want != NULL, "no expected output for %s", n);
        tsink s;
        char *got;
        foldsvg_error err;
        foldsvg_status st = run_file(path, NULL, &s, &got, &err);
        ck_assert_msg(st == FOLDSVG_OK, "%s: %s", n, err.message);
        ck_assert_msg(strcmp(got, want) == 0, "%s differs:\n--- got\n%s--- want\n%s", n, got, want);
        free(got);
        free(want);
        checked++;
    }
    closedir(d);
    ck_assert_int_ge(checked, 10);
}
END_TEST

/* Every thread of the multi-thread fixtures, one at a time, against the reference. */
START_TEST(thread_selection_matches_reference)
{
    const char *files[] = {"gecko-v13-nested-processes.firefox-profiler.json",
                           "gecko-v3-subprocess-as-string.firefox-profiler.json",
                           "processed-v49-samply-style.firefox-profiler.json.gz"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FIXDIR, files[f]);
        tinfo ti = {0};
        fx_opts o = {.thread = -1, .thread_cb = list_cb, .thread_ud = &ti};
        tsink s;
        foldsvg_error err;
        ck_assert_int_eq(run_file(path, &o, &s, NULL, &err), FOLDSVG_OK);
        ck_assert_uint_gt(ti.n, 1);
        for (size_t t = 0; t < ti.n; t++) {
            fx_opts one = {.thread = (long)t};
            char *got;
            ck_assert_int_eq(run_file(path, &one, &s, &got, &err), FOLDSVG_OK);
            char *want = reference(path, (long)t);
            ck_assert_msg(strcmp(got, want) == 0, "%s thread %zu:\n%s---\n%s", files[f], t, got,
                          want);
            free(got);
            free(want);
        }
        fx_opts bad = {.thread = (long)ti.n};
        ck_assert_int_eq(run_file(path, &bad, &s, NULL, &err), FOLDSVG_E_USAGE);
        char num[64];
        snprintf(num, sizeof num, "%zu threads", ti.n);
        ck_assert_msg(strstr(err.message, num), "%s", err.message);
    }
}
END_TEST

/* --list-threads: order, names, sample counts and weights as the reference lists them. */
START_TEST(thread_listing)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FIXDIR,
             "processed-v49-samply-style.firefox-profiler.json.gz");
    tinfo ti = {0};
    fx_opts o = {.thread = -1, .thread_cb = list_cb, .thread_ud = &ti};
    tsink s;
    foldsvg_error err;
    ck_assert_int_eq(run_file(path, &o, &s, NULL, &err), FOLDSVG_OK);
    free(reference(path, -1));
    char *log = fs_test_slurp(tmp_path("ref.folded.err"), NULL);
    ck_assert_ptr_nonnull(log);
    size_t k = 0;
    for (char *p = log; (p = strstr(p, "  thread ")); p++) {
        unsigned long long smp;
        double w;
        char *q = strstr(p, "samples=");
        ck_assert_int_eq(sscanf(q, "samples=%llu weight=%lf", &smp, &w), 2);
        ck_assert_uint_lt(k, ti.n);
        ck_assert_uint_eq(ti.samples[k], smp);
        ck_assert_double_eq_tol(ti.weight[k], w, 1e-9);
        char nm[80];
        snprintf(nm, sizeof nm, "name='%s'", ti.names[k]);
        ck_assert_msg(strstr(p, nm) && strstr(p, nm) < q, "thread %zu name %s", k, ti.names[k]);
        k++;
    }
    ck_assert_uint_eq(k, ti.n);
    ck_assert_uint_eq(ti.n, 6);
    ck_assert_str_eq(ti.procs[0], "a.out");
    free(log);

    /* Gecko: own threads, then processes[], depth first. */
    tinfo t2 = {0};
    o.thread_ud = &t2;
    snprintf(path, sizeof path, "%s/%s", FIXDIR,
             "gecko-v13-nested-processes.firefox-profiler.json");
    ck_assert_int_eq(run_file(path, &o, &s, NULL, &err), FOLDSVG_OK);
    ck_assert_uint_eq(t2.n, 3);
    ck_assert_str_eq(t2.names[0], "GeckoMain");
    ck_assert_str_eq(t2.names[1], "Compositor");
    ck_assert_str_eq(t2.names[2], "GeckoMain");
    ck_assert_uint_eq(t2.samples[2], 7);
}
END_TEST

/* ---------------------------------------------------------------- generated SP1 */

static void check_generated(const char *name, const char *args, long thread)
{
    const char *path = tmp_path(name);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "python3 %s/gen_sp1_profile.py %s -o '%s' 2>/dev/null", TOOLS, args,
             path);
    ck_assert_msg(sh(cmd) == 0, "generator failed: %s", cmd);
    char *want = reference(path, thread);
    tsink s;
    char *got;
    foldsvg_error err;
    fx_opts o = {.thread = thread};
    foldsvg_status st = run_file(path, &o, &s, &got, &err);
    ck_assert_msg(st == FOLDSVG_OK, "%s: %s", name, err.message);
    ck_assert_msg(strcmp(got, want) == 0, "%s (%s) differs from the reference", name, args);
    ck_assert_int_eq(s.count_name_calls, 0); /* SP1 weights are cycles */
    free(got);
    free(want);
}

START_TEST(generated_sp1_default)
{
    check_generated("a.json", "-n 20000 --seed 1", -1);
}
END_TEST

START_TEST(generated_sp1_rate_nasty)
{
    check_generated("b.json", "-n 20000 --seed 2 --rate 7 --nasty", -1);
}
END_TEST

START_TEST(generated_sp1_gzip)
{
    check_generated("c.json.gz", "-n 20000 --seed 3 --rate 100 --no-nasty", 0);
}
END_TEST

START_TEST(generated_sp1_more_nulls)
{
    check_generated("d.json", "-n 20000 --seed 4 --null-frac 0.05 --stacks 2000", -1);
}
END_TEST

/* ---------------------------------------------------------------- semantics */

#define GECKO_HEAD "{\"meta\":{\"version\":24},\"threads\":[{\"name\":\"T\","

/* Schemas in either order, rows before their schema, string table first or last, short
 * rows, stack ids in any order (prefix > id). */
START_TEST(key_order_variants)
{
    /* stack 0 = main (root), stack 1 = main;f:x. */
    const char *want = "[unknown] 1\nmain 2\nmain;f:x 3\n";
    /* 1: everything in the usual order */
    expect_ok(GECKO_HEAD "\"stringTable\":[\"f;x\",\"main\"],"
                         "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[1],[0]]},"
                         "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
                         "\"data\":[[null,0],[0,1]]},"
                         "\"samples\":{\"schema\":{\"stack\":0,\"time\":1},"
                         "\"data\":[[1,0.5],[1,0.6],[1],[0,1e3],[null,2],[0,3]]}}]}",
              NULL, want);
    /* 2: data before schema everywhere, string table last, meta last */
    expect_ok("{\"threads\":[{\"samples\":{\"data\":[[0.5,1],[0.6,1],[7,1],[1e3,0],[2,null],"
              "[3,0]],\"schema\":{\"time\":0,\"stack\":1}},"
              "\"stackTable\":{\"data\":[[0,null],[1,0]],\"schema\":{\"frame\":0,\"prefix\":1}},"
              "\"frameTable\":{\"data\":[[true,1],[false,0]],\"schema\":{\"location\":1}},"
              "\"stringTable\":[\"f;x\",\"main\"]}],\"meta\":{\"version\":24}}",
              NULL, want);
    /* 3: prefix > id (root stored last) */
    expect_ok(GECKO_HEAD "\"stringTable\":[\"f;x\",\"main\"],"
                         "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[1],[0]]},"
                         "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
                         "\"data\":[[1,1],[null,0]]},"
                         "\"samples\":{\"schema\":{\"stack\":0},"
                         "\"data\":[[0],[0],[0],[1],[null],[1]]}}]}",
              NULL, want);
}
END_TEST

/* SP1: product anywhere in meta (even after the threads), weights from threadCPUDelta,
 * null cells weigh 1, zero weights drop out; --weight samples counts rows. */
START_TEST(sp1_weights)
{
    const char *body = "\"threads\":[{\"stringTable\":[\"a\",\"b\"],"
                       "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0],[1]]},"
                       "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
                       "\"data\":[[null,0],[0,1]]},"
                       "\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"threadCPUDelta\":3},"
                       "\"data\":[[null,0.1,0.0,5],[0,0.11990899999999999,0.0,5],[1,1,0,5],"
                       "[1,1,0,5.0],[1,1,0,null],[0,1,0,0],[1,1]]}}]";
    char json[2048];
    snprintf(json, sizeof json, "{%s,\"meta\":{\"version\":24,\"product\":\"SP1 ZKVM\"}}", body);
    expect_ok(json, NULL, "[unknown] 5\na 5\na;b 12\n");
    fx_opts ws = {.thread = -1, .weight_samples = 1};
    expect_ok(json, &ws, "[unknown] 1\na 2\na;b 4\n");
    tsink s;
    foldsvg_error err;
    ck_assert_int_eq(run_mem(json, strlen(json), &ws, &s, NULL, &err), FOLDSVG_OK);
    ck_assert_str_eq(s.count_name, "samples");
    ck_assert_int_eq(run_mem(json, strlen(json), NULL, &s, NULL, &err), FOLDSVG_OK);
    ck_assert_int_eq(s.count_name_calls, 0);
    /* not SP1: every row weighs 1 and the unit is samples */
    snprintf(json, sizeof json, "{%s,\"meta\":{\"version\":24,\"product\":\"Firefox\"}}", body);
    expect_ok(json, NULL, "[unknown] 1\na 2\na;b 4\n");
    ck_assert_int_eq(run_mem(json, strlen(json), NULL, &s, NULL, &err), FOLDSVG_OK);
    ck_assert_str_eq(s.count_name, "samples");
    ck_assert_int_eq(s.count_name_calls, 1);
}
END_TEST

/* Containers inside sample-row cells are skipped without losing the cell count. */
START_TEST(sample_cells_with_containers)
{
    expect_ok("{\"meta\":{\"product\":\"SP1 ZKVM\"},\"threads\":[{\"stringTable\":[\"a\"],"
              "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0]]},"
              "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
              "\"samples\":{\"schema\":{\"stack\":0,\"threadCPUDelta\":3},"
              "\"data\":[[0,[1,[2]],{\"k\":[3]},5],[null,\"t\",true,2],[0,null,null,4]]}}]}",
              NULL, "[unknown] 2\na 9\n");
}
END_TEST

/* Sample rows summed in place (the last row's stack, a whole threadCPUDelta that fits) and
 * every way out of that to the full path: a new stack, a float, a null, an overflow, a
 * stack cell that is no index, in either mode. */
#define FAST_HEAD                                                                                  \
    "{\"meta\":{\"version\":24,\"product\":\"SP1 "                                                 \
    "ZKVM\"},\"threads\":[{\"stringTable\":[\"a\",\"b\"],"                                         \
    "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0],[1]]},"                             \
    "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[0,1]]},"            \
    "\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"threadCPUDelta\":2},\"data\":"

START_TEST(sample_rows_fast_and_full)
{
    fx_opts o = {.thread = -1, .ordered = 1};
    const char *rows = FAST_HEAD "[[1,0,2],[1,0,3],[1,0,0.5],[1,0,0.5],[1,0,null],[1,0,4],"
                                 "[0,0,1],[0,0,1],[1,0,1],[1,0,2],[null,0,1],[null,0,1]]}}]}";
    expect_ok(rows, NULL, "[unknown] 2\na 2\na;b 14\n");
    expect_ok(rows, &o, "a;b 11\na 2\na;b 3\n[unknown] 2\n");
    /* the sum of the last row's stack passing 63 bits: the full path finds the row */
    const char *big = FAST_HEAD "[[1,0,9223372036854775000],[1,0,900],[1,0,1]]}}]}";
    expect_err(big, NULL, FOLDSVG_E_PARSE, "samples row 1: threadCPUDelta", (const char *)NULL);
    expect_err(big, &o, FOLDSVG_E_PARSE, "samples row 1: threadCPUDelta", (const char *)NULL);
    /* after rows of stack 1, cells that are no stack index stop at their row */
    static const char *bad[] = {"-1", "1.0", "1e0", "true", "\"1\"", "[1]", "{}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char json[1024];
        snprintf(json, sizeof json, FAST_HEAD "[[1,0,1],[1,0,1],[%s,0,1],[1,0,1]]}}]}", bad[i]);
        foldsvg_error e = expect_err(json, NULL, FOLDSVG_E_PARSE,
                                     "samples row 2: the stack cell is not a stack index or null",
                                     (const char *)NULL);
        ck_assert_msg(e.has_offset, "no byte offset for %s", bad[i]);
    }
    /* -1 is no stack index, not the null stack of the rows before it */
    expect_err(FAST_HEAD "[[null,0,1],[null,0,1],[-1,0,1]]}}]}", NULL, FOLDSVG_E_PARSE,
               "samples row 2: the stack cell is not a stack index or null", (const char *)NULL);
}
END_TEST

/* A sub-profile without meta.product inherits SP1 from its parent, through a string. */
START_TEST(sp1_inherited_by_subprofiles)
{
    const char *thr = "{\\\"stringTable\\\":[\\\"a\\\"],"
                      "\\\"frameTable\\\":{\\\"schema\\\":{\\\"location\\\":0},\\\"data\\\":[[0]]},"
                      "\\\"stackTable\\\":{\\\"schema\\\":{\\\"prefix\\\":0,\\\"frame\\\":1},"
                      "\\\"data\\\":[[null,0]]},"
                      "\\\"samples\\\":{\\\"schema\\\":{\\\"stack\\\":0,\\\"threadCPUDelta\\\":1},"
                      "\\\"data\\\":[[0,10]]}}";
    char json[4096];
    snprintf(json, sizeof json,
             "{\"meta\":{\"version\":3,\"product\":\"SP1 ZKVM\"},\"threads\":["
             "\"{\\\"meta\\\":{\\\"version\\\":3},\\\"threads\\\":[%s]}\"],"
             "\"processes\":[{\"meta\":{},\"threads\":[{\"stringTable\":[\"b\"],"
             "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0]]},"
             "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
             "\"samples\":{\"schema\":{\"stack\":0,\"threadCPUDelta\":1},\"data\":[[0,7]]}}]}]}",
             thr);
    expect_ok(json, NULL, "a 10\nb 7\n");
}
END_TEST

/* The ordered mode (--flamechart): the runs of equal stacks in their order, each weighed as
 * the sums are, Gecko and processed, the weights coming before or after the stacks. */
#define ORDER_GECKO                                                                                \
    "{\"meta\":{\"version\":24,\"product\":\"SP1 ZKVM\"},\"threads\":[{\"name\":\"T\","            \
    "\"stringTable\":[\"a\",\"b\",\"main\"],"                                                      \
    "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[2],[0],[1]]},"                         \
    "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[0,1],[0,2]]},"

START_TEST(ordered_gecko_runs)
{
    fx_opts o = {.thread = -1, .ordered = 1};
    /* SP1 cycles: a a b a null a; a row without threadCPUDelta weighs 1 */
    expect_ok(ORDER_GECKO "\"samples\":{\"schema\":{\"stack\":0,\"threadCPUDelta\":1},"
                          "\"data\":[[1,3],[1,4],[2,5],[1,1],[null,2],[1]]}}]}",
              &o, "main;a 7\nmain;b 5\nmain;a 1\n[unknown] 2\nmain;a 1\n");
    /* rows before their schema (read again at the end) keep their order */
    expect_ok(ORDER_GECKO "\"samples\":{\"data\":[[2,5],[2,5],[1,1],[2,1]],"
                          "\"schema\":{\"threadCPUDelta\":1,\"stack\":0}}}]}",
              &o, "main;b 10\nmain;a 1\nmain;b 1\n");
    /* --weight samples: each row 1 */
    fx_opts ws = {.thread = -1, .ordered = 1, .weight_samples = 1};
    expect_ok(ORDER_GECKO "\"samples\":{\"schema\":{\"stack\":0,\"threadCPUDelta\":1},"
                          "\"data\":[[1,3],[1,4],[2,5]]}}]}",
              &ws, "main;a 2\nmain;b 1\n");
    /* the same profile unordered: one sum per stack */
    expect_ok(ORDER_GECKO "\"samples\":{\"schema\":{\"stack\":0,\"threadCPUDelta\":1},"
                          "\"data\":[[1,3],[2,5],[1,4]]}}]}",
              NULL, "main;a 7\nmain;b 5\n");
}
END_TEST

START_TEST(ordered_processed_runs)
{
    fx_opts o = {.thread = -1, .ordered = 1};
#define ORDER_PROCESSED                                                                            \
    "{\"meta\":{\"preprocessedProfileVersion\":%d},\"threads\":[{"                                 \
    "\"stringArray\":[\"r\",\"s\"],\"stackTable\":{\"frame\":[0,1],"                               \
    "\"prefix\":[null,0]},\"frameTable\":{\"func\":[0,1]},"                                        \
    "\"funcTable\":{\"name\":[0,1]},\"samples\":{%s}}]}"
    char json[2048];
    static const struct {
        int version;
        const char *samples, *want;
    } cases[] = {
        /* no weights: 1 each */
        {66, "\"stack\":[1,1,0,1]", "r;s 2\nr 1\nr;s 1\n"},
        /* weights after the stacks, and before */
        {66, "\"stack\":[1,1,0,1],\"weight\":[2,3,4,5]", "r;s 5\nr 4\nr;s 5\n"},
        {66, "\"weight\":[2,3,4,5],\"stack\":[1,1,0,1]", "r;s 5\nr 4\nr;s 5\n"},
        /* a null stack between two equal ones */
        {66, "\"stack\":[0,null,0],\"weight\":[1,1,1]", "r 1\n[unknown] 1\nr 1\n"},
        /* durations before v29, either order */
        {20, "\"stack\":[0,0,1],\"duration\":[2,3,4]", "r 5\nr;s 4\n"},
        {20, "\"duration\":[2,3,4],\"stack\":[0,0,1]", "r 5\nr;s 4\n"},
        /* fractions rounded where they end up: running totals 0.4 0.8 1.2 1.6 -> 0 1 1 2 */
        {66, "\"stack\":[0,1,0,1],\"weight\":[0.4,0.4,0.4,0.4],\"weightType\":\"tracing-ms\"",
         "r;s 1\nr;s 1\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(json, sizeof json, ORDER_PROCESSED, cases[i].version, cases[i].samples);
        expect_ok(json, &o, cases[i].want);
    }
}
END_TEST

/* One thread only: several with samples is a usage error that names them; --thread picks. */
START_TEST(ordered_needs_one_thread)
{
    const char *json = "{\"meta\":{\"preprocessedProfileVersion\":66},\"shared\":{"
                       "\"stringArray\":[\"r\"],\"stackTable\":{\"frame\":[0],\"prefix\":[null]},"
                       "\"frameTable\":{\"func\":[0]},\"funcTable\":{\"name\":[0]}},"
                       "\"threads\":[{\"name\":\"Main\",\"samples\":{\"stack\":[0]}},"
                       "{\"name\":\"Idle\",\"samples\":{\"stack\":[]}},"
                       "{\"name\":\"Worker 1\",\"samples\":{\"stack\":[0,0]}}]}";
    fx_opts o = {.thread = -1, .ordered = 1};
    expect_err(json, &o, FOLDSVG_E_USAGE, "--flamechart", "2 threads have samples",
               "0 'Main', 2 'Worker 1'", "--thread", NULL);
    fx_opts one = {.thread = -1, .ordered = 1, .sel = {"/^Work/"}};
    expect_ok(json, &one, "r 2\n");
    fx_opts two = {.thread = -1, .ordered = 1, .sel = {"Main", "Idle"}};
    expect_ok(json, &two, "r 1\n"); /* Idle has no samples */
    fx_opts none = {.thread = -1, .sel = {"Main", "/ 1$/"}};
    expect_ok(json, &none, "r 3\n"); /* unordered: the union */
}
END_TEST

START_TEST(thread_selection)
{
    const char *json = "{\"meta\":{\"preprocessedProfileVersion\":66},\"shared\":{"
                       "\"stringArray\":[\"r\",\"s\"],\"stackTable\":{\"frame\":[0,1],"
                       "\"prefix\":[null,null]},\"frameTable\":{\"func\":[0,1]},"
                       "\"funcTable\":{\"name\":[0,1]}},"
                       "\"threads\":[{\"name\":\"3\",\"samples\":{\"stack\":[0]}},"
                       "{\"samples\":{\"stack\":[1,1]}},"
                       "{\"name\":\"3\",\"samples\":{\"stack\":[0,1,1,1]}}]}";
    /* digits are an index, even when a thread has them as its name: /^3$/ is the name */
    fx_opts idx = {.thread = -1, .sel = {"1"}};
    expect_ok(json, &idx, "s 2\n");
    fx_opts name = {.thread = -1, .sel = {"/^3$/"}};
    expect_ok(json, &name, "r 2\ns 3\n");
    /* the unnamed thread: an empty name */
    fx_opts empty = {.thread = -1, .sel = {"/^$/"}};
    expect_ok(json, &empty, "s 2\n");
    fx_opts miss = {.thread = -1, .sel = {"1", "worker"}};
    expect_err(json, &miss, FOLDSVG_E_USAGE, "--thread 'worker': no thread's name is that",
               "0 '3', 1 '', 2 '3'", NULL);
    fx_opts range = {.thread = 3};
    expect_err(json, &range, FOLDSVG_E_USAGE, "--thread 3: the profile has 3 threads (0..2)", NULL);
    foldsvg_error err;
    ck_assert_int_eq(fs_threadsel_check("/a(/", &err), FOLDSVG_E_USAGE);
    ck_assert_msg(strstr(err.message, "--thread 'a(': invalid regular expression"), "%s",
                  err.message);
    ck_assert_int_eq(fs_threadsel_check("99999999999", &err), FOLDSVG_E_USAGE);
    ck_assert_int_eq(fs_threadsel_check("GeckoMain", &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_threadsel_check("/", &err), FOLDSVG_OK); /* a name: "/" */
}
END_TEST

/* Processed: per-thread and shared tables, prefixOffset, weights and their units, exact
 * fractional sums per folded stack rounded half up. */
START_TEST(processed_weights_and_units)
{
    const char *tables =
        "\"shared\":{\"stringArray\":[\"a\",\"b;c\"],"
        "\"stackTable\":{\"length\":3,\"frame\":[0,1,1],\"prefixOffset\":[0,1,2]},"
        "\"frameTable\":{\"length\":2,\"func\":[0,1]},\"funcTable\":{\"length\":2,\"name\":[0,1]}}";
    char json[4096];
    /* stacks 1 and 2 both fold to a;b:c: 0.3 + 0.3 = 0.6 rounds to 1 only when summed */
    snprintf(json, sizeof json,
             "{\"meta\":{\"preprocessedProfileVersion\":66,\"version\":24},%s,"
             "\"threads\":[{\"name\":\"x\",\"samples\":{\"length\":4,\"stack\":[1,2,0,null],"
             "\"weight\":[0.3,0.3,2.5,0.49],\"weightType\":\"tracing-ms\"}}]}",
             tables);
    expect_ok(json, NULL, "a 3\na;b:c 1\n");
    tsink s;
    foldsvg_error err;
    ck_assert_int_eq(run_mem(json, strlen(json), NULL, &s, NULL, &err), FOLDSVG_OK);
    ck_assert_str_eq(s.count_name, "ms");
    /* bytes, integer weights, weight before stack */
    snprintf(json, sizeof json,
             "{\"meta\":{\"preprocessedProfileVersion\":66},%s,"
             "\"threads\":[{\"samples\":{\"weightType\":\"bytes\",\"weight\":[100,0,28],"
             "\"stack\":[2,0,null]}}]}",
             tables);
    expect_ok(json, NULL, "[unknown] 28\na;b:c 100\n");
    ck_assert_int_eq(run_mem(json, strlen(json), NULL, &s, NULL, &err), FOLDSVG_OK);
    ck_assert_str_eq(s.count_name, "bytes");
    /* weight null: one per sample; processed prefix column */
    expect_ok("{\"meta\":{\"preprocessedProfileVersion\":30},\"threads\":[{"
              "\"stringArray\":[\"r\",\"s\"],\"stackTable\":{\"frame\":[0,1],\"prefix\":[null,0]},"
              "\"frameTable\":{\"func\":[1,0]},\"funcTable\":{\"name\":[1,0]},"
              "\"samples\":{\"stack\":[1,1,0],\"weight\":null,\"weightType\":\"samples\"}}]}",
              NULL, "r 1\nr;s 2\n");
    /* before v29 a duration array weighs the samples */
    expect_ok("{\"meta\":{\"preprocessedProfileVersion\":20},\"threads\":[{"
              "\"stringArray\":[\"r\"],\"stackTable\":{\"frame\":[0],\"prefix\":[null]},"
              "\"frameTable\":{\"func\":[0]},\"funcTable\":{\"name\":[0]},"
              "\"samples\":{\"stack\":[0,0],\"duration\":[2,3]}}]}",
              NULL, "r 5\n");
}
END_TEST

START_TEST(wrapper_and_detection)
{
    /* {"profile": ...} without a top-level meta is unwrapped */
    expect_ok("{\"x\":1,\"profile\":{\"meta\":{\"version\":5},\"threads\":[{"
              "\"stringTable\":[\"w\"],\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0]]},"
              "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
              "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0]]}}]}}",
              NULL, "w 1\n");
    /* ...but not when the top level has its own meta */
    expect_ok("{\"meta\":{\"version\":5},\"threads\":[],\"profile\":{\"meta\":{},\"threads\":[{"
              "\"stringTable\":[\"w\"],\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0]]},"
              "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
              "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0]]}}]}}",
              NULL, "");
    /* unversioned processed: threads[0] has stringArray */
    expect_ok("{\"meta\":{\"version\":3},\"threads\":[{\"stringArray\":[\"p\"],"
              "\"stackTable\":{\"frame\":[0],\"prefix\":[null]},\"frameTable\":{\"func\":[0]},"
              "\"funcTable\":{\"name\":[0]},\"samples\":{\"stack\":[0,0,0]}}]}",
              NULL, "p 3\n");
}
END_TEST

/* A 100k-deep prefix chain resolves without recursion. */
START_TEST(deep_prefix_chain)
{
    const int depth = 100000;
    size_t cap = (size_t)depth * 24 + 4096;
    char *json = malloc(cap);
    size_t n = (size_t)sprintf(json, GECKO_HEAD "\"stringTable\":[\"f\"],"
                                                "\"frameTable\":{\"schema\":{\"location\":0},"
                                                "\"data\":[[0]]},\"stackTable\":{\"schema\":{"
                                                "\"prefix\":0,\"frame\":1},\"data\":[[null,0]");
    for (int i = 1; i < depth; i++)
        n += (size_t)sprintf(json + n, ",[%d,0]", i - 1);
    n += (size_t)sprintf(json + n,
                         "]},\"samples\":{\"schema\":{\"stack\":0},\"data\":[[%d],[%d]]}}]}",
                         depth - 1, depth / 2);
    tsink s;
    ts_init(&s);
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_mem(&in, json, n, "deep.json", &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_firefox_read(in, NULL, &s.base, &err), FOLDSVG_OK);
    fs_input_close(in);
    ck_assert_uint_eq(s.n, 2);
    size_t l0 = strlen(s.e[0].key), l1 = strlen(s.e[1].key);
    ck_assert(l0 == (size_t)depth * 2 - 1 || l1 == (size_t)depth * 2 - 1);
    ck_assert(l0 == (size_t)(depth / 2 + 1) * 2 - 1 || l1 == (size_t)(depth / 2 + 1) * 2 - 1);
    free(ts_folded(&s));
    /* the same chain closed into a cycle */
    char *p = strstr(json, "[null,0]");
    memcpy(p + 1, "9999", 4); /* row 0's prefix: row 9999, whose chain leads to row 0 */
    err.code = FOLDSVG_OK;
    ck_assert_int_eq(fs_input_open_mem(&in, json, n, "deep.json", &err), FOLDSVG_OK);
    ts_init(&s);
    ck_assert_int_eq(fs_firefox_read(in, NULL, &s.base, &err), FOLDSVG_E_PARSE);
    ck_assert_msg(strstr(err.message, "thread 0 stackTable row") && strstr(err.message, "cycle"),
                  "%s", err.message);
    fs_input_close(in);
    free(ts_folded(&s));
    free(json);
}
END_TEST

/* ---------------------------------------------------------------- errors */

#define TABLES_OK                                                                                  \
    "\"stringTable\":[\"a\",\"b\"],"                                                               \
    "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0],[1]]},"

START_TEST(error_truncated_json)
{
    const char *json = GECKO_HEAD "\"stringTable\":[\"a\"";
    foldsvg_error e =
        expect_err(json, NULL, FOLDSVG_E_PARSE, "unexpected end of JSON", (const char *)NULL);
    ck_assert(e.has_offset);
    ck_assert_uint_eq(e.offset, strlen(json));
    e = expect_err("", NULL, FOLDSVG_E_PARSE, "unexpected end of JSON", (const char *)NULL);
    ck_assert(e.has_offset);
}
END_TEST

START_TEST(error_invalid_json)
{
    const char *json = "{\"meta\":{\"version\":24},\"threads\":[x]}";
    foldsvg_error e = expect_err(json, NULL, FOLDSVG_E_PARSE, "invalid JSON", (const char *)NULL);
    ck_assert(e.has_offset);
    ck_assert_uint_ge(e.offset, 34);
    ck_assert_uint_le(e.offset, 35);
    expect_err("[1,2]", NULL, FOLDSVG_E_PARSE, "not a Firefox profile", (const char *)NULL);
    expect_err("{\"threads\":[]}", NULL, FOLDSVG_E_PARSE, "no meta object", (const char *)NULL);
}
END_TEST

/* The offset counts the whole decoded stream, across read chunks and through gzip. */
START_TEST(error_offset_over_chunks)
{
    size_t pad = 1500000;
    char *json = malloc(pad * 2 + 256);
    size_t n = (size_t)sprintf(json, "{\"meta\":{\"version\":24},\"libs\":[");
    for (size_t i = 0; i < pad; i++) {
        json[n++] = '0';
        json[n++] = ',';
    }
    size_t bad = n;
    n += (size_t)sprintf(json + n, "tru]}");
    tsink s;
    foldsvg_error err;
    ck_assert_int_eq(run_mem(json, n, NULL, &s, NULL, &err), FOLDSVG_E_PARSE);
    ck_assert(err.has_offset);
    ck_assert_uint_ge(err.offset, bad);
    ck_assert_uint_le(err.offset, bad + 4);
    /* the same through gzip */
    const char *raw = tmp_path("pad.json");
    FILE *f = fopen(raw, "wb");
    fwrite(json, 1, n, f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "gzip -kf '%s'", raw);
    ck_assert_int_eq(sh(cmd), 0);
    char gz[600];
    snprintf(gz, sizeof gz, "%s.gz", raw);
    ck_assert_int_eq(run_file(gz, NULL, &s, NULL, &err), FOLDSVG_E_PARSE);
    ck_assert(err.has_offset);
    ck_assert_uint_ge(err.offset, bad);
    ck_assert_uint_le(err.offset, bad + 4);
    free(json);
}
END_TEST

START_TEST(error_truncated_gzip)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FIXDIR,
             "processed-v49-samply-style.firefox-profiler.json.gz");
    size_t len;
    char *gz = fs_test_slurp(path, &len);
    ck_assert_ptr_nonnull(gz);
    tsink s;
    foldsvg_error err;
    ck_assert_int_eq(run_mem(gz, len / 2, NULL, &s, NULL, &err), FOLDSVG_E_PARSE);
    ck_assert_msg(strstr(err.message, "gzip"), "%s", err.message);
    free(gz);
}
END_TEST

START_TEST(error_wrong_types)
{
    foldsvg_error e = expect_err(GECKO_HEAD "\"stackTable\":5}]}", NULL, FOLDSVG_E_PARSE,
                                 "table must be an object", (const char *)NULL);
    ck_assert(e.has_offset);
    ck_assert_uint_eq(e.offset, strlen(GECKO_HEAD "\"stackTable\":5"));
    e = expect_err(GECKO_HEAD "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0],[\"x\"]]}}]}",
                   NULL, FOLDSVG_E_PARSE, "samples row 1", "stack", (const char *)NULL);
    ck_assert(e.has_offset);
    e = expect_err(GECKO_HEAD "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[1.0]]}}]}", NULL,
                   FOLDSVG_E_PARSE, "samples row 0", (const char *)NULL);
    e = expect_err("{\"meta\":{},\"threads\":[{\"samples\":{\"stack\":[0,-1]}}]}", NULL,
                   FOLDSVG_E_PARSE, "samples.stack[1]", (const char *)NULL);
    ck_assert(e.has_offset);
    expect_err("{\"meta\":{},\"threads\":[3]}", NULL, FOLDSVG_E_PARSE, "threads[0]",
               (const char *)NULL);
    expect_err(GECKO_HEAD "\"frameTable\":{\"schema\":{\"location\":0},\"data\":{}}}]}", NULL,
               FOLDSVG_E_PARSE, "must be an array", (const char *)NULL);
    /* SP1 weight that is not a number */
    expect_err("{\"meta\":{\"product\":\"SP1 ZKVM\"},\"threads\":[{" TABLES_OK
               "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
               "\"samples\":{\"schema\":{\"stack\":0,\"threadCPUDelta\":1},"
               "\"data\":[[0,1],[0,\"3\"]]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 samples row 1", "threadCPUDelta",
               (const char *)NULL);
    /* missing tables */
    expect_err(GECKO_HEAD "\"stringTable\":[]}]}", NULL, FOLDSVG_E_PARSE, "thread 0", "frameTable",
               (const char *)NULL);
    expect_err("{\"meta\":{\"preprocessedProfileVersion\":60},\"threads\":[{\"samples\":"
               "{\"stack\":[]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0", "no stackTable", (const char *)NULL);
}
END_TEST

START_TEST(error_indices)
{
    expect_err(GECKO_HEAD TABLES_OK
               "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[99,1]]},"
               "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0],[1]]}}]}",
               NULL, FOLDSVG_E_PARSE,
               "thread 0 stackTable row 1: prefix 99 out of range (table "
               "has 2 rows)",
               (const char *)NULL);
    expect_err(GECKO_HEAD TABLES_OK
               "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[0,7]]},"
               "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[1]]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 stackTable row 1: frame 7 out of range",
               (const char *)NULL);
    expect_err(GECKO_HEAD "\"stringTable\":[\"a\"],"
                          "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0],[5]]},"
                          "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
                          "\"data\":[[null,1]]},"
                          "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0]]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 frameTable row 1: location 5 out of range",
               "stringTable has 1 strings", (const char *)NULL);
    expect_err(GECKO_HEAD "\"stringTable\":[\"a\",null],"
                          "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[1]]},"
                          "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
                          "\"data\":[[null,0]]},"
                          "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0]]}}]}",
               NULL, FOLDSVG_E_PARSE, "stringTable entry 1", "not a string", (const char *)NULL);
    expect_err(GECKO_HEAD TABLES_OK
               "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
               "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0],[0],[3]]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 samples row 2: stack 3 out of range",
               (const char *)NULL);
    expect_err(GECKO_HEAD TABLES_OK "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
                                    "\"data\":[[2,0],[0,1],[1,0]]},"
                                    "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[1]]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 stackTable row 1", "cycle", (const char *)NULL);
    /* unused bad rows are not errors (the reference checks lazily too) */
    expect_ok(GECKO_HEAD TABLES_OK
              "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[99,1]]},"
              "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0]]}}]}",
              NULL, "a 1\n");
    /* processed */
    expect_err("{\"meta\":{\"preprocessedProfileVersion\":40},\"threads\":[{"
               "\"stringArray\":[\"r\"],\"stackTable\":{\"frame\":[0],\"prefix\":[null]},"
               "\"frameTable\":{\"func\":[4]},\"funcTable\":{\"name\":[0]},"
               "\"samples\":{\"stack\":[0]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 frameTable row 0: func 4 out of range",
               (const char *)NULL);
    expect_err("{\"meta\":{\"preprocessedProfileVersion\":66},\"threads\":[{"
               "\"stringArray\":[\"r\"],\"stackTable\":{\"frame\":[0,0],\"prefixOffset\":[0,5]},"
               "\"frameTable\":{\"func\":[0]},\"funcTable\":{\"name\":[0]},"
               "\"samples\":{\"stack\":[1]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 0 stackTable row 1: prefixOffset 5",
               (const char *)NULL);
    /* the error names the thread by its document number */
    expect_err("{\"meta\":{},\"threads\":[{" TABLES_OK
               "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
               "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[0]]}},{" TABLES_OK
               "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]]},"
               "\"samples\":{\"schema\":{\"stack\":0},\"data\":[[4]]}}]}",
               NULL, FOLDSVG_E_PARSE, "thread 1 samples row 0: stack 4", (const char *)NULL);
}
END_TEST

START_TEST(error_in_string_subprofile)
{
    foldsvg_error e = expect_err(
        "{\"meta\":{},\"threads\":[\"{\\\"meta\\\":{},\\\"threads\\\":[\"]}", NULL, FOLDSVG_E_PARSE,
        "threads[0] (JSON string)", "unexpected end of JSON", (const char *)NULL);
    ck_assert(e.has_offset);
}
END_TEST

START_TEST(files_in_test_data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/firefox/schema-after-data.json", FOLDSVG_TEST_DATA);
    tsink s;
    char *got;
    foldsvg_error err;
    ck_assert_int_eq(run_file(path, NULL, &s, &got, &err), FOLDSVG_OK);
    ck_assert_str_eq(got, "[unknown] 3\nmain;work 4\nmain;work;leaf:inner 2\n");
    free(got);
}
END_TEST

/* ---------------------------------------------------------------- pairing without buffers */

/* A processed profile with two threads of N samples each, its sample columns written in
 * the order ORDER gives: s stack, w weight array, n "weight": null, d duration (which
 * also makes it v20, where durations weigh samples without weights). WANT receives the
 * folded output, summed here independently of the reader. */
static void gen_processed(const char *path, size_t n, const char *order, char *want, size_t wcap)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    int dur = strchr(order, 'd') != NULL, weights = strchr(order, 'w') != NULL;
    fprintf(f, "{\"meta\":{\"preprocessedProfileVersion\":%d,\"version\":24},\"threads\":[",
            dur ? 20 : 40);
    uint64_t sum[4] = {0, 0, 0, 0}; /* stacks 0..2, null */
    for (int t = 0; t < 2; t++) {
        fprintf(f,
                "%s{\"name\":\"t%d\",\"stringArray\":[\"main\",\"a\",\"b;c\"],"
                "\"stackTable\":{\"length\":3,\"frame\":[0,1,2],\"prefix\":[null,0,1]},"
                "\"frameTable\":{\"length\":3,\"func\":[0,1,2]},"
                "\"funcTable\":{\"length\":3,\"name\":[0,1,2]},"
                "\"samples\":{\"length\":%zu",
                t ? "," : "", t, n);
        for (const char *o = order; *o; o++) {
            if (*o == 'n') {
                fputs(",\"weight\":null", f);
                continue;
            }
            fprintf(f, ",\"%s\":[", *o == 's' ? "stack" : *o == 'w' ? "weight" : "duration");
            for (size_t i = 0; i < n; i++) {
                unsigned st = (unsigned)((i * i + i / 3 + (size_t)t) % 4);
                unsigned w = (unsigned)(1 + (i + (size_t)t) % 7), d = (unsigned)(2 + i % 3);
                if (i)
                    fputc(',', f);
                if (*o == 's' && st == 3)
                    fputs("null", f);
                else
                    fprintf(f, "%u", *o == 's' ? st : *o == 'w' ? w : d);
                if (*o == 's')
                    sum[st] += weights ? w : dur ? d : 1;
            }
            fputc(']', f);
        }
        fputs(",\"weightType\":\"samples\"}}", f);
    }
    fputs("]}\n", f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(want, wcap, "[unknown] %llu\nmain %llu\nmain;a %llu\nmain;a;b:c %llu\n",
             (unsigned long long)sum[3], (unsigned long long)sum[0], (unsigned long long)sum[1],
             (unsigned long long)sum[2]);
}

/* The folded output of PATH read as a file, from memory, and through a pipe (which cannot
 * be read twice: the reader spools to a temporary file instead). */
static void check_all_ways(const char *path, const char *want)
{
    tsink s;
    char *got;
    foldsvg_error err;
    foldsvg_status st = run_file(path, NULL, &s, &got, &err);
    ck_assert_msg(st == FOLDSVG_OK, "%s: %s", path, err.message);
    ck_assert_str_eq(got, want);
    free(got);
    size_t len;
    char *mem = fs_test_slurp(path, &len);
    ck_assert_ptr_nonnull(mem);
    ck_assert_int_eq(run_mem(mem, len, NULL, &s, &got, &err), FOLDSVG_OK);
    ck_assert_str_eq(got, want);
    free(got);
    free(mem);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cat '%s'", path);
    FILE *pipe = popen(cmd, "r");
    ck_assert_ptr_nonnull(pipe);
    fs_input *in;
    ck_assert_int_eq(fs_input_open_stream(&in, pipe, "<pipe>", &err), FOLDSVG_OK);
    ck_assert(!fs_input_can_reopen(in));
    st = run_input(in, NULL, &s, &got, &err);
    fs_input_close(in);
    ck_assert_int_eq(pclose(pipe), 0);
    ck_assert_msg(st == FOLDSVG_OK, "%s through a pipe: %s", path, err.message);
    ck_assert_str_eq(got, want);
    free(got);
}

/* Every order of the sample columns, plain, gzip, from memory and through pipes. */
START_TEST(processed_columns_any_order)
{
    const char *orders[] = {"sw",  "ws",  "s",   "sn",  "ns",  "sd",  "ds",
                            "dsw", "wsd", "sdw", "swd", "dws", "nsd", "w"};
    for (size_t k = 0; k < sizeof orders / sizeof *orders; k++) {
        char name[64], want[512], cmd[1200];
        snprintf(name, sizeof name, "cols-%s.json", orders[k]);
        const char *path = tmp_path(name);
        gen_processed(path, 40000, orders[k], want, sizeof want);
        if (strcmp(orders[k], "w") == 0) /* weights without stacks: nothing */
            snprintf(want, sizeof want, "%s", "");
        check_all_ways(path, want);
        snprintf(cmd, sizeof cmd, "gzip -kf '%s'", path);
        ck_assert_int_eq(sh(cmd), 0);
        char gz[600];
        snprintf(gz, sizeof gz, "%s.gz", path);
        check_all_ways(gz, want);
        unlink(path);
        unlink(gz);
    }
}
END_TEST

/* The same through a FILE* opened on a gzip file: read as a stream, never twice. */
START_TEST(gecko_rows_before_schema_streams)
{
    char path[1024], cmd[2200];
    snprintf(path, sizeof path, "%s/firefox/schema-after-data.json", FOLDSVG_TEST_DATA);
    check_all_ways(path, "[unknown] 3\nmain;work 4\nmain;work;leaf:inner 2\n");
    const char *gz = tmp_path("schema-after-data.json.gz");
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s'", path, gz);
    ck_assert_int_eq(sh(cmd), 0);
    check_all_ways(gz, "[unknown] 3\nmain;work 4\nmain;work;leaf:inner 2\n");
    /* many rows before the schema, a row error found when they are read again */
    const char *big = tmp_path("rows-first.json");
    FILE *f = fopen(big, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("{\"meta\":{\"version\":24,\"product\":\"SP1 ZKVM\"},\"threads\":[{\"samples\":{"
          "\"data\":[",
          f);
    const size_t n = 200000;
    uint64_t sum[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        unsigned st = (unsigned)(i * 7 % 3), cpu = (unsigned)(1 + i % 5);
        fprintf(f, "%s[%zu.5,%u,[0,{\"x\":1}],%u]", i ? "," : "", i, st, cpu);
        sum[st] += cpu;
    }
    fputs("],\"schema\":{\"time\":0,\"stack\":1,\"threadCPUDelta\":3}},"
          "\"stackTable\":{\"data\":[[null,0],[0,1],[1,2]],\"schema\":{\"prefix\":0,\"frame\":1}},"
          "\"frameTable\":{\"data\":[[0],[1],[2]],\"schema\":{\"location\":0}},"
          "\"stringTable\":[\"m\",\"w\",\"l\"]}]}",
          f);
    ck_assert_int_eq(fclose(f), 0);
    char want[256];
    snprintf(want, sizeof want, "m %llu\nm;w %llu\nm;w;l %llu\n", (unsigned long long)sum[0],
             (unsigned long long)sum[1], (unsigned long long)sum[2]);
    check_all_ways(big, want);
    unlink(big);
    unlink(gz);
}
END_TEST

/* Problems found by pairing keep their messages, whichever array comes first. */
START_TEST(processed_pairing_errors)
{
    const char *head = "{\"meta\":{\"preprocessedProfileVersion\":40},\"threads\":[{"
                       "\"stringArray\":[\"r\"],\"stackTable\":{\"frame\":[0],\"prefix\":[null]},"
                       "\"frameTable\":{\"func\":[0]},\"funcTable\":{\"name\":[0]},\"samples\":";
    char json[1024];
    snprintf(json, sizeof json, "%s{\"stack\":[0,0,0],\"weight\":[1,2]}}]}", head);
    expect_err(json, NULL, FOLDSVG_E_PARSE, "samples.weight has 2 entries but samples.stack 3",
               (const char *)NULL);
    snprintf(json, sizeof json, "%s{\"weight\":[1,2,3,4],\"stack\":[0,0,0]}}]}", head);
    expect_err(json, NULL, FOLDSVG_E_PARSE, "samples.weight has 4 entries but samples.stack 3",
               (const char *)NULL);
    snprintf(json, sizeof json, "%s{\"stack\":[0,0,0],\"weight\":[1,\"x\",3]}}]}", head);
    expect_err(json, NULL, FOLDSVG_E_PARSE, "samples.weight[1] is not a number",
               (const char *)NULL);
    snprintf(json, sizeof json, "%s{\"weight\":[1,2,[3]],\"stack\":[0,0,0]}}]}", head);
    expect_err(json, NULL, FOLDSVG_E_PARSE, "samples.weight[2] is not a number",
               (const char *)NULL);
    snprintf(json, sizeof json, "%s{\"weight\":[9223372036854775807,1],\"stack\":[0,0]}}]}", head);
    expect_err(json, NULL, FOLDSVG_E_OVERFLOW, "weights of stack 0 overflow", (const char *)NULL);
    snprintf(json, sizeof json, "%s{\"stack\":[0],\"stack\":[0]}}]}", head);
    expect_err(json, NULL, FOLDSVG_E_PARSE, "more than one \"stack\" array", (const char *)NULL);
    /* a stack error is found as the stack streams, with its offset, in either order */
    snprintf(json, sizeof json, "%s{\"weight\":[1,1],\"stack\":[0,\"s\"]}}]}", head);
    foldsvg_error e =
        expect_err(json, NULL, FOLDSVG_E_PARSE, "samples.stack[1]", (const char *)NULL);
    ck_assert(e.has_offset);
    ck_assert_uint_eq(e.offset, (uint64_t)(strstr(json, "\"s\"]") - json) + 3);
    /* durations of another length, or any durations with weights, do not count */
    const char *v20 = "{\"meta\":{\"preprocessedProfileVersion\":20},\"threads\":[{"
                      "\"stringArray\":[\"r\"],\"stackTable\":{\"frame\":[0],\"prefix\":[null]},"
                      "\"frameTable\":{\"func\":[0]},\"funcTable\":{\"name\":[0]},\"samples\":";
    snprintf(json, sizeof json, "%s{\"stack\":[0,0],\"duration\":[2,3,4]}}]}", v20);
    expect_ok(json, NULL, "");
    snprintf(json, sizeof json, "%s{\"duration\":[2,\"x\"],\"stack\":[0,0]}}]}", v20);
    expect_err(json, NULL, FOLDSVG_E_PARSE, "samples.duration[1] is not a number",
               (const char *)NULL);
    snprintf(json, sizeof json, "%s{\"duration\":[2,\"x\"],\"stack\":[0,0],\"weight\":[5,6]}}]}",
             v20);
    expect_ok(json, NULL, "r 11\n");
}
END_TEST

/* Peak memory of reading PATH (as a file, or through a pipe) in a child process, in KiB:
 * the child's own maximum resident size, sent back through a pipe. */
static long child_peak_kib(const char *path, int through_pipe)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        fs_input *in;
        foldsvg_error err;
        FILE *pp = NULL;
        foldsvg_status st;
        if (through_pipe) {
            char cmd[1200];
            snprintf(cmd, sizeof cmd, "cat '%s'", path);
            pp = popen(cmd, "r");
            st = pp ? fs_input_open_stream(&in, pp, "<pipe>", &err) : FOLDSVG_E_IO;
        } else {
            st = fs_input_open_file(&in, path, &err);
        }
        if (st == FOLDSVG_OK) {
            tsink s;
            ts_init(&s);
            st = fs_firefox_read(in, NULL, &s.base, &err);
            fs_input_close(in);
            free(ts_folded(&s));
        }
        struct rusage ru;
        long kib = st == FOLDSVG_OK && getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
        if (write(fds[1], &kib, sizeof kib) != (ssize_t)sizeof kib)
            _exit(4);
        _exit(0);
    }
    close(fds[1]);
    long kib = -1;
    ck_assert_int_eq(read(fds[0], &kib, sizeof kib), (ssize_t)sizeof kib);
    close(fds[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0 && kib > 0, "reading %s failed",
                  path);
    return kib;
}

/* Memory does not grow with samples: 2M samples per thread take no more than 20k do
 * (within a few MiB), whichever array comes first, read again from a file, through gzip,
 * or spooled from a pipe. Keeping the columns, as the reader once did, takes 24 bytes a
 * sample: about 50 MiB more here. */
START_TEST(processed_memory_flat)
{
    static const struct {
        const char *order;
        int gzip, pipe;
    } cases[] = {{"sw", 1, 1}, {"ws", 0, 1}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char small_name[64], big_name[64], want[512], cmd[1200];
        snprintf(small_name, sizeof small_name, "mem-small-%s.json", cases[k].order);
        snprintf(big_name, sizeof big_name, "mem-big-%s.json", cases[k].order);
        const char *small = tmp_path(small_name), *big = tmp_path(big_name);
        gen_processed(small, 20000, cases[k].order, want, sizeof want);
        gen_processed(big, 2000000, cases[k].order, want, sizeof want);
        long ka = child_peak_kib(small, 0);
        const char *ways[3] = {"file", "gzip", "pipe"};
        for (int way = 0; way < 3; way++) {
            char b[600];
            snprintf(b, sizeof b, "%s", big);
            if (way == 1) {
                if (!cases[k].gzip)
                    continue;
                snprintf(cmd, sizeof cmd, "gzip -1kf '%s'", big);
                ck_assert_int_eq(sh(cmd), 0);
                snprintf(b, sizeof b, "%s.gz", big);
            }
            if (way == 2 && !cases[k].pipe)
                continue;
            long kb = child_peak_kib(b, way == 2);
            ck_assert_msg(kb - ka < 8 * 1024,
                          "order %s, %s: 2M samples peak at %ld KiB, 20k at %ld KiB",
                          cases[k].order, ways[way], kb, ka);
            if (way == 1)
                unlink(b);
        }
        unlink(small);
        unlink(big); /* 19 MB */
    }
}
END_TEST

/* ---------------------------------------------------------------- rows parsed ahead */

/* A profile of N Gecko sample rows (four stacks, runs of them), with cells the reading
 * thread's rows cannot stand for sprinkled in (a float, a null, a container, white space
 * between rows), and strings holding what looks like the end of a row and another row;
 * BAD, when not NULL, replaces the text of row BAD_ROW. */
static char *gen_rows(size_t nrows, size_t bad_row, const char *bad, size_t *len)
{
    size_t cap = nrows * 40 + 4096, n = 0;
    char *j = malloc(cap);
    ck_assert_ptr_nonnull(j);
    n += (size_t)snprintf(j + n, cap - n, "%s",
                          ORDER_GECKO "\"samples\":{\"schema\":{\"stack\":0,\"time\":1,"
                                      "\"threadCPUDelta\":2},\"data\":[");
    uint64_t x = 12345;
    int key = 1;
    for (size_t i = 0; i < nrows; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(x >> 33);
        if (r % 7 == 0)
            key = (int)(r >> 8) % 4;
        const char *sep = i == 0 ? "" : r % 97 == 0 ? " ,\n " : ",";
        if (bad && i == bad_row)
            n += (size_t)snprintf(j + n, cap - n, "%s%s", sep, bad);
        else if (r % 5 == 0) /* what looks like rows, in a string */
            n += (size_t)snprintf(j + n, cap - n, "%s[%d,\"],[2,0,5],[\",3]", sep, key % 3);
        else if (r % 1009 == 0)
            n += (size_t)snprintf(j + n, cap - n, "%s[%d,1.5,0.5]", sep, key % 3);
        else if (r % 1013 == 0)
            n += (size_t)snprintf(j + n, cap - n, "%s[%d,[0],3]", sep, key % 3);
        else if (r % 1019 == 0)
            n += (size_t)snprintf(j + n, cap - n, "%s[%d,\"t\",null]", sep, key % 3);
        else if (key == 3)
            n += (size_t)snprintf(j + n, cap - n, "%s[null,%zu,%u]", sep, i, r % 5);
        else
            n += (size_t)snprintf(j + n, cap - n, "%s[%d,%zu.25,%u]", sep, key, i, r % 1000);
        ck_assert_uint_lt(n, cap - 64);
    }
    n += (size_t)snprintf(j + n, cap - n, "]}}]}");
    *len = n;
    return j;
}

/* Two threads: the next block read, and its rows parsed, on the other. */
static fs_pool *pool2;

/* JSON[0..len) read with rows parsed ahead on the reading thread (AHEAD) or not: every row
 * parsed by the parse's own thread, none taken (checked), to *OUT; the status. */
static foldsvg_status run_ahead(const char *json, size_t len, int ahead, const fx_opts *o,
                                char **out, foldsvg_error *err)
{
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, json, len, "mem.json", err), FOLDSVG_OK);
    if (ahead)
        fs_input_set_pool(in, pool2);
    ff_split_mode(ahead ? 2 : 1);
    uint64_t taken = ff_split_taken_rows();
    tsink s;
    foldsvg_status st = run_input(in, o, &s, out, err);
    if (!ahead)
        ck_assert_uint_eq(ff_split_taken_rows(), taken);
    ff_split_mode(0);
    fs_input_close(in);
    return st;
}

/* The same outcome both ways, with rows parsed ahead (CHECK_TAKEN) or not: output, or
 * error, message and offset. */
static void same_both_ways(const char *json, size_t len, const fx_opts *o, int check_taken)
{
    char *a = NULL, *b = NULL;
    foldsvg_error ea, eb;
    memset(&ea, 0, sizeof ea);
    memset(&eb, 0, sizeof eb);
    uint64_t taken = ff_split_taken_rows();
    foldsvg_status sa = run_ahead(json, len, 1, o, &a, &ea);
    if (check_taken) {
        ck_assert_msg(sa == FOLDSVG_OK, "%s", ea.message);
        ck_assert_uint_gt(ff_split_taken_rows(), taken);
    }
    foldsvg_status sb = run_ahead(json, len, 0, o, &b, &eb);
    ck_assert_int_eq(sa, sb);
    if (sa == FOLDSVG_OK) {
        ck_assert_str_eq(a, b);
    } else {
        ck_assert_str_eq(ea.message, eb.message);
        ck_assert_int_eq(ea.has_offset, eb.has_offset);
        ck_assert_uint_eq(ea.offset, eb.offset);
    }
    free(a);
    free(b);
}

START_TEST(rows_parsed_ahead_same_sums)
{
    enum { N = 400000 }; /* about 6 MB: many blocks read ahead */
    size_t len;
    char *json = gen_rows(N, 0, NULL, &len);
    fx_opts ord = {.thread = -1, .ordered = 1};
    fx_opts ws = {.thread = -1, .weight_samples = 1}; /* each row 1: the counts of rows */
    fx_opts ordws = {.thread = -1, .ordered = 1, .weight_samples = 1};
    same_both_ways(json, len, NULL, 1);
    same_both_ways(json, len, &ord, 1);
    same_both_ways(json, len, &ws, 1);
    same_both_ways(json, len, &ordws, 1);
    free(json);
    /* problems deep in the rows: the same message at the same offset (a syntax error, a cell
     * that is no stack index, a sum passing 63 bits, the text cut inside a row) */
    static const char *bad[] = {"[1,2,3]x", "[1,2,3],,", "[-1,0,1]", "[1,2,\"\xff\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json = gen_rows(N, N / 2 + i * 1000, bad[i], &len);
        same_both_ways(json, len, NULL, 0);
        free(json);
    }
    char big[4096] = "[1,0,999999999999999999]";
    for (int i = 0; i < 20; i++)
        strcat(big, ",[1,0,999999999999999999]");
    json = gen_rows(N, N / 2, big, &len);
    same_both_ways(json, len, NULL, 0);
    same_both_ways(json, len, &ord, 0);
    json[len / 2] = '\0';
    same_both_ways(json, len / 2, NULL, 0);
    free(json);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("firefox");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fixtures_match_expected);
    tcase_add_test(tc, thread_selection_matches_reference);
    tcase_add_test(tc, thread_listing);
    tcase_add_test(tc, generated_sp1_default);
    tcase_add_test(tc, generated_sp1_rate_nasty);
    tcase_add_test(tc, generated_sp1_gzip);
    tcase_add_test(tc, generated_sp1_more_nulls);
    tcase_add_test(tc, key_order_variants);
    tcase_add_test(tc, sp1_weights);
    tcase_add_test(tc, sample_cells_with_containers);
    tcase_add_test(tc, sample_rows_fast_and_full);
    tcase_add_test(tc, sp1_inherited_by_subprofiles);
    tcase_add_test(tc, processed_weights_and_units);
    tcase_add_test(tc, ordered_gecko_runs);
    tcase_add_test(tc, ordered_processed_runs);
    tcase_add_test(tc, ordered_needs_one_thread);
    tcase_add_test(tc, thread_selection);
    tcase_add_test(tc, wrapper_and_detection);
    tcase_add_test(tc, deep_prefix_chain);
    tcase_add_test(tc, error_truncated_json);
    tcase_add_test(tc, error_invalid_json);
    tcase_add_test(tc, error_offset_over_chunks);
    tcase_add_test(tc, error_truncated_gzip);
    tcase_add_test(tc, error_wrong_types);
    tcase_add_test(tc, error_indices);
    tcase_add_test(tc, error_in_string_subprofile);
    tcase_add_test(tc, files_in_test_data);
    tcase_add_test(tc, processed_columns_any_order);
    tcase_add_test(tc, gecko_rows_before_schema_streams);
    tcase_add_test(tc, processed_pairing_errors);
    tcase_add_test(tc, processed_memory_flat);
    tcase_add_test(tc, rows_parsed_ahead_same_sums);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    pool2 = fs_pool_new(2);
    return fs_test_run(suite());
}
