/* --diff BEFORE_DIR AFTER_DIR: many benchmarks at once. The files of the two directories are
 * paired by name; each pair is a diff (api/diff.c) measured against the thresholds
 * (api/verdict.c), a section of the HTML report, and a part of one summary: one verdict over
 * all pairs, a line per pair, then each pair's summary; Markdown within GitHub's comment
 * limit as a whole. A pair is read, measured and freed before the next: memory holds one
 * diff, the report's sections and the summary's text. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/textout.h"
#include "analysis/verdict.h"
#include "api/diff.h"
#include "api/options.h"
#include "util/buf.h"
#include "util/error.h"

/* ---- the pairs ---------------------------------------------------------------------------- */

typedef struct names {
    char **v;
    size_t n, cap;
} names;

static void names_free(names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (p) {
        memcpy(p, dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, b + 1);
    }
    return p;
}

/* The regular files directly in DIR (links followed), hidden ones excepted, in byte order. */
static foldsvg_status list_dir(const char *dir, names *out, foldsvg_error *err)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d)
        return fs_error(err, FOLDSVG_E_IO, dir, "cannot read the directory: %s", strerror(errno));
    foldsvg_status st = FOLDSVG_OK;
    struct dirent *e;
    while (st == FOLDSVG_OK && (errno = 0, e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *path = join(dir, e->d_name);
        struct stat sb;
        int regular = path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
        free(path);
        if (!path) {
            st = fs_error(err, FOLDSVG_E_NOMEM, dir, "out of memory");
            break;
        }
        if (!regular)
            continue;
        if (out->n == out->cap) {
            size_t cap = out->cap ? 2 * out->cap : 16;
            char **v = realloc(out->v, cap * sizeof *v);
            if (!v) {
                st = fs_error(err, FOLDSVG_E_NOMEM, dir, "out of memory");
                break;
            }
            out->v = v;
            out->cap = cap;
        }
        if (!(out->v[out->n] = strdup(e->d_name)))
            st = fs_error(err, FOLDSVG_E_NOMEM, dir, "out of memory");
        else
            out->n++;
    }
    if (st == FOLDSVG_OK && errno)
        st = fs_error(err, FOLDSVG_E_IO, dir, "cannot read the directory: %s", strerror(errno));
    closedir(d);
    if (st)
        names_free(out);
    else
        qsort(out->v, out->n, sizeof *out->v, cmp_names);
    return st;
}

/* ---- what each pair left for the summary -------------------------------------------------- */

enum { ONLY_BEFORE = 1, ONLY_AFTER = 2, COMPARED = 3 };

typedef struct entry {
    const char *name;
    int sides;
    size_t broken, thresholds;
    fs_delta_cells totals; /* the totals' cells (BEFORE scaled, per iteration) */
    char unit[64];
    int per; /* the sides are divided */
    char *section;
    size_t section_len;
} entry;

typedef struct batch {
    const char *dirs[2];
    const foldsvg_options *o;
    entry *v;
    size_t n, pairs, failed, only[2];
    int thresholds; /* any were set */
    size_t budget;  /* Markdown: bytes a pair's summary may take */
    FILE *json_f;   /* JSON: the document so far, in JSON_MEM */
    char *json_mem;
    size_t json_len;
    fs_textout json_o;
    fs_jsonout j;
    int json_open;
} batch;

static foldsvg_status nomem(foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
}

/* The pair's summary: a value of the JSON document, or its own text kept for the end. */
static foldsvg_status summarize(batch *b, entry *e, const foldsvg_diff *d, foldsvg_error *err)
{
    fs_diff_parts p;
    FS_FORWARD_IF_ERROR(fs_diff_parts_make(d, b->o, &p, err));
    foldsvg_status st = FOLDSVG_OK;
    if (p.in.format == FOLDSVG_TOP_JSON) {
        fs_json_check(&b->j, yajl_gen_map_open(b->j.g));
        fs_json_key(&b->j, "name");
        fs_json_name(&b->j, e->name, strlen(e->name));
        fs_json_key(&b->j, "verdict");
        const char *word = fs_verdict_word(&p.gate);
        fs_json_str(&b->j, word, strlen(word));
        fs_json_key(&b->j, "summary");
        fs_verdict_json(&p.in, &b->j);
        fs_json_check(&b->j, yajl_gen_map_close(b->j.g));
    } else {
        FILE *m = open_memstream(&e->section, &e->section_len);
        if (!m) {
            fs_diff_parts_free(&p);
            return nomem(err);
        }
        size_t limit = p.in.format == FOLDSVG_TOP_MARKDOWN ? b->budget : 0;
        st = fs_verdict_write(&p.in, limit, m, err);
        if (fclose(m) != 0 && st == FOLDSVG_OK)
            st = nomem(err);
    }
    fs_diff_parts_free(&p);
    return st;
}

/* The totals of the pair, for its line of the summary. */
static foldsvg_status note_totals(entry *e, const foldsvg_diff *d, const foldsvg_options *o,
                                  foldsvg_error *err)
{
    fs_deltas deltas;
    FS_FORWARD_IF_ERROR(fs_diff_deltas(d, o, &deltas, err));
    fs_delta_row tot = fs_delta_totals(&deltas);
    fs_delta_format_row(&tot, &deltas, &e->totals);
    e->per = deltas.per_before > 1 || deltas.per_after > 1;
    snprintf(e->unit, sizeof e->unit, "%s", fs_diff_unit(d, o));
    fs_deltas_free(&deltas);
    return FOLDSVG_OK;
}

static foldsvg_status compare(batch *b, entry *e, foldsvg_report *report, FILE *summary,
                              foldsvg_threshold_fn fn, void *user, foldsvg_error *err)
{
    char *paths[2] = {join(b->dirs[0], e->name), join(b->dirs[1], e->name)};
    foldsvg_diff *d = foldsvg_diff_new();
    foldsvg_status st = paths[0] && paths[1] && d ? FOLDSVG_OK : nomem(err);
    if (st == FOLDSVG_OK)
        st = foldsvg_diff_read(d, paths[0], paths[1], b->o, err);
    if (st == FOLDSVG_OK)
        st = fs_diff_gate_report(d, b->o, e->name, fn, user, &e->broken, err);
    if (st == FOLDSVG_OK)
        st = note_totals(e, d, b->o, err);
    if (st == FOLDSVG_OK && report)
        st = foldsvg_report_add_diff(report, d, e->name, err);
    if (st == FOLDSVG_OK && summary)
        st = summarize(b, e, d, err);
    e->thresholds = b->o->fail_if.n;
    b->failed += e->broken > 0;
    foldsvg_diff_free(d);
    free(paths[0]);
    free(paths[1]);
    return st;
}

/* ---- the summary -------------------------------------------------------------------------- */

static const char *word_of(const entry *e)
{
    if (e->sides != COMPARED)
        return e->sides == ONLY_BEFORE ? "only before" : "only after";
    if (!e->thresholds)
        return "compared";
    return e->broken ? "failed" : "passed";
}

/* The order of the lines: failed pairs, files of one side, the others; each by name. */
static int rank(const entry *e)
{
    return e->sides == COMPARED && e->broken ? 0 : e->sides != COMPARED ? 1 : 2;
}

static void overview(const batch *b, fs_textout *o, int md)
{
    const char *verdict = !b->thresholds ? "" : b->failed ? "failed: " : "passed: ";
    if (md)
        fs_text_printf(o, "### %sfoldsvg: ",
                       !b->thresholds ? ""
                       : b->failed    ? "\u274c "
                                      : "\u2705 ");
    else
        fs_text_printf(o, "Verdict: %s", verdict);
    if (md)
        fs_text_puts(o, verdict);
    if (b->thresholds)
        fs_text_printf(o, "%zu of %zu pair%s broke a threshold", b->failed, b->pairs,
                       b->pairs == 1 ? "" : "s");
    else
        fs_text_printf(o, "%zu pair%s compared, no thresholds set", b->pairs,
                       b->pairs == 1 ? "" : "s");
    fs_text_printf(o, "%s %zu only in ", md ? " \u00b7" : ";", b->only[0]);
    if (md)
        fs_text_md_code_inline(o, b->dirs[0], strlen(b->dirs[0]));
    else
        fs_text_puts(o, b->dirs[0]);
    fs_text_printf(o, ", %zu only in ", b->only[1]);
    if (md)
        fs_text_md_code_inline(o, b->dirs[1], strlen(b->dirs[1]));
    else
        fs_text_puts(o, b->dirs[1]);
    fs_text_puts(o, md ? "\n\n| Profile | Verdict | Before | After | Change |\n"
                         "|:---|:---|---:|---:|---:|\n"
                       : "\n\n");
}

/* One line of the overview. */
static void line_of(const entry *e, int md, fs_textout *o)
{
    const char *per = e->per ? " per iteration" : "";
    char verdict[96];
    snprintf(verdict, sizeof verdict, "%s", word_of(e));
    if (e->sides == COMPARED && e->broken)
        snprintf(verdict, sizeof verdict, "%sfailed (%zu of %zu broken)", md ? "\u274c " : "",
                 e->broken, e->thresholds);
    else if (e->sides == COMPARED && e->thresholds)
        snprintf(verdict, sizeof verdict, "%spassed", md ? "\u2705 " : "");
    if (!md) {
        fs_text_printf(o, "%-12s  %s", word_of(e), e->name);
        if (e->sides == COMPARED)
            fs_text_printf(o, ": %s -> %s %s%s (%s, %s)", e->totals.before, e->totals.after,
                           e->unit, per, e->totals.delta, e->totals.change);
        if (e->broken)
            fs_text_printf(o, ", %zu of %zu thresholds broken", e->broken, e->thresholds);
        fs_text_puts(o, "\n");
        return;
    }
    fs_buf name = {0};
    if (fs_text_elide(e->name, strlen(e->name), 60, &name) != FOLDSVG_OK) {
        o->failed = 1;
        o->errnum = ENOMEM;
    }
    fs_text_puts(o, "| ");
    fs_text_md_code(o, name.data ? name.data : "", name.len);
    fs_text_printf(o, " | %s |", verdict);
    fs_buf_free(&name);
    if (e->sides == COMPARED)
        fs_text_printf(o, " %s %s%s | %s %s%s | %s (%s) |\n", e->totals.before, e->unit, per,
                       e->totals.after, e->unit, per, e->totals.delta, e->totals.change);
    else
        fs_text_puts(o, " | | |\n");
}

static void html_text(fs_textout *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fs_text_puts(o, "&lt;");
        else if (*s == '>')
            fs_text_puts(o, "&gt;");
        else if (*s == '&')
            fs_text_puts(o, "&amp;");
        else
            fs_text_put(o, s, 1);
    }
}

static foldsvg_status write_text(batch *b, FILE *out, foldsvg_error *err)
{
    int md = b->o->report.top_format == FOLDSVG_TOP_MARKDOWN;
    size_t limit = md ? FS_COMMENT_LIMIT : 0;
    size_t *order = malloc((b->n ? b->n : 1) * sizeof *order);
    if (!order)
        return nomem(err);
    size_t k = 0;
    for (int r = 0; r < 3; r++)
        for (size_t i = 0; i < b->n; i++)
            if (rank(&b->v[i]) == r)
                order[k++] = i;
    fs_textout o = {out, 0, 0};
    /* the overview: the verdict, then a line per file while half the limit holds them */
    char *hbuf = NULL;
    size_t hlen = 0;
    FILE *hm = open_memstream(&hbuf, &hlen);
    if (!hm) {
        free(order);
        return nomem(err);
    }
    fs_textout h = {hm, 0, 0};
    overview(b, &h, md);
    size_t lines = 0;
    for (; lines < b->n && !h.failed; lines++) {
        fflush(hm);
        if (limit && hlen + 500 > limit / 2)
            break;
        line_of(&b->v[order[lines]], md, &h);
    }
    if (lines < b->n)
        fs_text_printf(&h, "%s... and %zu more%s\n", md ? "\n*" : "", b->n - lines, md ? "*" : "");
    int hfailed = h.failed || fclose(hm) != 0;
    if (hfailed) {
        free(hbuf);
        free(order);
        return nomem(err);
    }
    fs_text_put(&o, hbuf, hlen);
    size_t used = hlen;
    free(hbuf);
    /* each pair's summary, the failed first, while they fit */
    size_t left_out = 0;
    for (size_t x = 0; x < b->n && !o.failed; x++) {
        const entry *e = &b->v[order[x]];
        if (e->sides != COMPARED || !e->section)
            continue;
        size_t wrap = strlen(e->name) * 6 + 120;
        if (limit && used + e->section_len + wrap + 300 > limit) {
            left_out++;
            continue;
        }
        if (md) {
            fs_text_printf(&o, "\n<details%s><summary><code>", e->broken ? " open" : "");
            html_text(&o, e->name);
            fs_text_printf(&o, "</code>: %s</summary>\n\n", word_of(e));
        } else {
            fs_text_printf(&o, "\n== %s ==\n\n", e->name);
        }
        fs_text_put(&o, e->section, e->section_len);
        if (md)
            fs_text_puts(&o, "\n</details>\n");
        used += e->section_len + wrap;
    }
    if (left_out)
        fs_text_printf(&o,
                       "\n*The summaries of %zu more pair%s are left out (the comment limit): "
                       "`--top-format text` and the report (`-o diff.html`) have them.*\n",
                       left_out, left_out == 1 ? "" : "s");
    free(order);
    return fs_text_finish(&o, err);
}

static foldsvg_status json_begin(batch *b, foldsvg_error *err)
{
    b->json_f = open_memstream(&b->json_mem, &b->json_len);
    if (!b->json_f)
        return nomem(err);
    b->json_o = (fs_textout){b->json_f, 0, 0};
    if (fs_json_begin(&b->j, &b->json_o) != FOLDSVG_OK)
        return nomem(err);
    b->json_open = 1;
    fs_json_check(&b->j, yajl_gen_map_open(b->j.g));
    fs_json_key(&b->j, "pairs");
    fs_json_check(&b->j, yajl_gen_array_open(b->j.g));
    return FOLDSVG_OK;
}

static void json_names(batch *b, const char *key, int sides)
{
    fs_json_key(&b->j, key);
    fs_json_check(&b->j, yajl_gen_array_open(b->j.g));
    for (size_t i = 0; i < b->n; i++)
        if (b->v[i].sides == sides)
            fs_json_name(&b->j, b->v[i].name, strlen(b->v[i].name));
    fs_json_check(&b->j, yajl_gen_array_close(b->j.g));
}

static foldsvg_status json_end(batch *b, FILE *out, foldsvg_error *err)
{
    fs_json_check(&b->j, yajl_gen_array_close(b->j.g));
    json_names(b, "only_before", ONLY_BEFORE);
    json_names(b, "only_after", ONLY_AFTER);
    fs_json_key(&b->j, "failed");
    fs_json_u64(&b->j, b->failed);
    fs_json_key(&b->j, "verdict");
    const char *word = !b->thresholds ? "none" : b->failed ? "failed" : "passed";
    fs_json_str(&b->j, word, strlen(word));
    fs_json_check(&b->j, yajl_gen_map_close(b->j.g));
    foldsvg_status st = fs_json_end(&b->j);
    b->json_open = 0;
    int bad = fclose(b->json_f) != 0 || b->json_o.failed;
    b->json_f = NULL;
    if (st || bad)
        return nomem(err);
    fs_textout o = {out, 0, 0};
    fs_text_puts(&o, b->json_mem); /* yajl escaped what needs it; its newlines stay */
    return fs_text_finish(&o, err);
}

static void batch_free(batch *b)
{
    if (b->json_open)
        fs_json_end(&b->j);
    if (b->json_f)
        fclose(b->json_f);
    free(b->json_mem);
    for (size_t i = 0; i < b->n; i++)
        free(b->v[i].section);
    free(b->v);
}

/* ---- the run ------------------------------------------------------------------------------ */

/* The two listings merged by name into B's entries. */
static foldsvg_status pair_up(batch *b, const names *l, foldsvg_error *err)
{
    b->v = calloc(l[0].n + l[1].n + 1, sizeof *b->v);
    if (!b->v)
        return nomem(err);
    size_t i = 0, k = 0;
    while (i < l[0].n || k < l[1].n) {
        int c = i == l[0].n ? 1 : k == l[1].n ? -1 : strcmp(l[0].v[i], l[1].v[k]);
        entry *e = &b->v[b->n++];
        e->name = c <= 0 ? l[0].v[i] : l[1].v[k];
        e->sides = c < 0 ? ONLY_BEFORE : c > 0 ? ONLY_AFTER : COMPARED;
        i += c <= 0;
        k += c >= 0;
        b->pairs += e->sides == COMPARED;
        b->only[0] += e->sides == ONLY_BEFORE;
        b->only[1] += e->sides == ONLY_AFTER;
    }
    return FOLDSVG_OK;
}

foldsvg_status foldsvg_diff_dirs(const char *before_dir, const char *after_dir, const char *report,
                                 FILE *summary, const foldsvg_options *opts,
                                 foldsvg_threshold_fn fn, void *user, foldsvg_dirs_stats *stats,
                                 foldsvg_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!before_dir || !after_dir)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL directory");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    FS_FORWARD_IF_ERROR(foldsvg_options_check(o, err));
    names l[2];
    FS_FORWARD_IF_ERROR(list_dir(before_dir, &l[0], err));
    foldsvg_status st = list_dir(after_dir, &l[1], err);
    if (st) {
        names_free(&l[0]);
        return st;
    }
    batch b;
    memset(&b, 0, sizeof b);
    b.dirs[0] = before_dir;
    b.dirs[1] = after_dir;
    b.o = o;
    b.thresholds = o->fail_if.n > 0;
    st = pair_up(&b, l, err);
    if (st == FOLDSVG_OK && b.pairs == 0)
        st = fs_error(err, FOLDSVG_E_NO_DATA, before_dir,
                      "nothing to compare: no file has the same name in %s", after_dir);
    /* a pair's share of the comment, past the overview's lines */
    size_t lines = b.n * 220 + 400;
    size_t overview = lines < FS_COMMENT_LIMIT / 2 ? lines : FS_COMMENT_LIMIT / 2;
    b.budget = (FS_COMMENT_LIMIT - overview) / (b.pairs ? b.pairs : 1);
    if (b.budget < 3000)
        b.budget = 3000;
    foldsvg_report *r = NULL;
    if (st == FOLDSVG_OK && report && !(r = foldsvg_report_new(o)))
        st = nomem(err);
    int json = summary && o->report.top_format == FOLDSVG_TOP_JSON;
    if (st == FOLDSVG_OK && json)
        st = json_begin(&b, err);
    for (size_t i = 0; st == FOLDSVG_OK && i < b.n; i++) {
        entry *e = &b.v[i];
        if (e->sides == COMPARED) {
            st = compare(&b, e, r, summary, fn, user, err);
            continue;
        }
        foldsvg_error w;
        memset(&w, 0, sizeof w);
        const char *dir = b.dirs[e->sides == ONLY_BEFORE ? 0 : 1];
        const char *other = b.dirs[e->sides == ONLY_BEFORE ? 1 : 0];
        snprintf(w.file, sizeof w.file, "%s/%s", dir, e->name);
        snprintf(w.message, sizeof w.message, "not compared: %s has no file of that name", other);
        fs_warn(o, &w);
    }
    if (st == FOLDSVG_OK && r)
        st = foldsvg_report_write(r, report, err);
    if (st == FOLDSVG_OK && summary)
        st = json ? json_end(&b, summary, err) : write_text(&b, summary, err);
    if (st == FOLDSVG_OK && stats) {
        stats->pairs = b.pairs;
        stats->failed = b.failed;
        stats->only_before = b.only[0];
        stats->only_after = b.only[1];
    }
    foldsvg_report_free(r);
    batch_free(&b);
    names_free(&l[0]);
    names_free(&l[1]);
    return st;
}
