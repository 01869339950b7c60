/* The Chrome/V8 reader's entry points: the parse, then the threads (CPU profiles, or trace
 * event threads), their selection, and the stacks to the sink. */
#include "formats/chrome/chrome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chrome/model.h"
#include "formats/json/sniff.h"
#include "formats/threadsel.h"
#include "input/input.h"
#include "util/error.h"

int fs_chrome_detect(const unsigned char *head, size_t len, int complete)
{
    fs_json_kind k = fs_json_sniff(head, len, complete);
    return k == FS_JSON_UNSURE ? -1 : k == FS_JSON_CHROME || k == FS_JSON_V8;
}

typedef enum kind { K_PROFILES, K_SAMPLES, K_EVENTS } kind;

/* One thread as read: a CPU profile or a trace event thread. */
typedef struct cthread {
    const fs_trie *trie;
    char *name;
    const char *process;
    uint64_t samples;
    double pid, tid;
} cthread;

typedef struct reading {
    cr_doc d;
    kind k;
    cthread *t;
    size_t n;
    const char **names;
    uint8_t *picked;
    int again; /* read again: its B/E/X events did not come in time order */
} reading;

static fs_strref item_name(void *user, uint32_t item)
{
    const reading *r = user;
    return cr_name(&r->d, item);
}

/* CPU profiles: items are nodes of a profile */
typedef struct pnames {
    const cr_doc *d;
    const cr_profile *p;
} pnames;

static fs_strref node_name(void *user, uint32_t item)
{
    const pnames *pn = user;
    return cr_name(pn->d, pn->p->nodes[item].name);
}

static foldsvg_status sf_frames(void *user, const fs_trie *t, uint32_t node, fs_strref **out,
                                size_t *cap, size_t *n)
{
    reading *r = user;
    return cr_stackframe_frames(&r->d, t->item[node], out, cap, n);
}

static int by_pid_tid(const void *a, const void *b)
{
    const cthread *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* "pid" of "pid:tid" */
static size_t pid_len(const char *pidtid)
{
    const char *colon = strrchr(pidtid, ':');
    return colon ? (size_t)(colon - pidtid) : strlen(pidtid);
}

static char *dup_name(const char *s)
{
    return strdup(s ? s : "");
}

/* The threads of the document, by kind, named. */
static foldsvg_status collect(reading *r)
{
    cr_doc *d = &r->d;
    /* chunks of a profile no Profile event declared: speedscope leaves them out */
    size_t kept = 0;
    for (size_t i = 0; i < d->nprofiles; i++) {
        if (d->profiles[i]->declared)
            d->profiles[kept++] = d->profiles[i];
        else
            cr_profile_free(d->profiles[i]);
    }
    d->nprofiles = kept;
    r->k = d->nprofiles ? K_PROFILES : d->has_samples ? K_SAMPLES : K_EVENTS;
    size_t n = r->k == K_PROFILES ? d->nprofiles : d->nthreads;
    r->t = calloc(n ? n : 1, sizeof *r->t);
    r->names = calloc(n ? n : 1, sizeof *r->names);
    if (!r->t || !r->names)
        return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
    for (size_t i = 0; i < n; i++) {
        cthread *t = &r->t[r->n++];
        if (r->k == K_PROFILES) {
            const cr_profile *p = d->profiles[i];
            const char *pt = p->pidtid ? p->pidtid : "";
            const char *tn = cr_thread_name_of(d, pt);
            t->trie = &p->trie;
            t->samples = p->nsamples;
            t->process = p->pidtid ? cr_process_name_of(d, pt, pid_len(pt)) : NULL;
            char fallback[320];
            snprintf(fallback, sizeof fallback, "%s%s%s", p->key[0] ? "profile " : "", p->key,
                     p->pidtid && strcmp(p->key, p->pidtid) ? "" : "");
            t->name = dup_name(tn ? tn : fallback);
        } else {
            cr_thread *ct = d->threads[i];
            if (r->k == K_EVENTS)
                FS_FORWARD_IF_ERROR(cr_thread_build(d, ct));
            t->trie = r->k == K_EVENTS ? &ct->trie : &ct->samples;
            t->samples = r->k == K_EVENTS ? ct->trie.n - 1 : ct->nsamples;
            t->pid = ct->pid;
            t->tid = ct->tid;
            const char *tn = cr_thread_name_of(d, ct->pidtid);
            t->process = cr_process_name_of(d, ct->pidtid, pid_len(ct->pidtid));
            char fallback[320];
            snprintf(fallback, sizeof fallback, "pid %.*s, tid %s", (int)pid_len(ct->pidtid),
                     ct->pidtid,
                     ct->pidtid + pid_len(ct->pidtid) + (ct->pidtid[pid_len(ct->pidtid)] == ':'));
            t->name = dup_name(tn ? tn : fallback);
        }
        if (!t->name)
            return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
    }
    if (r->k != K_PROFILES)
        qsort(r->t, r->n, sizeof *r->t, by_pid_tid);
    for (size_t i = 0; i < r->n; i++)
        r->names[i] = r->t[i].name;
    if (r->n == 0)
        return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                        "no CPU profile and no B, E or X trace events with a ts: nothing to "
                        "draw in this %s",
                        d->is_cpuprofile ? "V8 CPU profile" : "trace");
    return FOLDSVG_OK;
}

static void reading_free(reading *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->t[i].name);
    free(r->t);
    free(r->names);
    free(r->picked);
    cr_doc_free(&r->d);
}

static int picked(const reading *r, size_t i)
{
    return !r->picked || r->picked[i];
}

static const char *format_name(const reading *r)
{
    if (r->d.is_cpuprofile)
        return "V8 CPU profile";
    return r->k == K_PROFILES  ? "Chrome trace (CPU profiles)"
           : r->k == K_SAMPLES ? "trace events (samples)"
                               : "trace events";
}

static void describe(const reading *r, fs_sink *sink)
{
    if (sink->count_name)
        sink->count_name(sink, "microseconds");
    uint32_t nsel = 0;
    fs_buf names = {0};
    for (size_t i = 0; i < r->n; i++)
        if (picked(r, i))
            fs_buf_printf(&names, "%s%s (%zu)", nsel++ ? ", " : "", r->t[i].name, i);
    if (sink->facts)
        sink->facts(sink, format_name(r), "", nsel, 0);
    if (sink->threads && nsel && !r->d.is_cpuprofile && fs_buf_status(&names) == FOLDSVG_OK)
        sink->threads(sink, fs_buf_str(&names));
    fs_buf_free(&names);
}

/* Thread I's names for its trie's items. */
static fs_trie_names names_of(reading *r, size_t i, pnames *pn)
{
    fs_trie_names nm = {item_name, NULL, r};
    if (r->k == K_SAMPLES) {
        nm.frames = sf_frames;
    } else if (r->k == K_PROFILES) {
        for (size_t k = 0; k < r->d.nprofiles; k++)
            if (&r->d.profiles[k]->trie == r->t[i].trie)
                *pn = (pnames){&r->d, r->d.profiles[k]};
        nm = (fs_trie_names){node_name, NULL, pn};
    }
    return nm;
}

static foldsvg_status open_read(reading *r, fs_input *in, const fs_input_opts *opts, int select,
                                foldsvg_error *err)
{
    memset(r, 0, sizeof *r);
    int ordered = opts ? opts->ordered : 0, again = fs_input_can_reopen(in);
    size_t budget = opts ? opts->sort_buffer : 0;
    uint64_t base = fs_input_offset(in);
    /* B/E/X events are taken as they come; at the first that does not come in time order the
     * reading stops and the input is read again keeping them (kept from the start when it
     * cannot be read twice) */
    cr_doc_init(&r->d, fs_input_name(in), err, ordered, !again, budget);
    foldsvg_status first = cr_parse(&r->d, in);
    if (first != FS_STOP)
        FS_FORWARD_IF_ERROR(first);
    if (first == FS_STOP) {
        fs_input *in2;
        r->again = 1;
        fs_error_clear(err);
        cr_doc_free(&r->d);
        cr_doc_init(&r->d, fs_input_name(in), err, ordered, 1, budget);
        FS_FORWARD_IF_ERROR(fs_input_reopen(in, &in2, err));
        foldsvg_status st = fs_input_seek(in2, base, err);
        if (st == FOLDSVG_OK)
            st = cr_parse(&r->d, in2);
        fs_input_close(in2);
        FS_FORWARD_IF_ERROR(st);
    }
    FS_FORWARD_IF_ERROR(collect(r));
    if (!select || !opts || (!opts->threads.n && !opts->ordered))
        return FOLDSVG_OK;
    fs_threadsel *sel;
    FS_FORWARD_IF_ERROR(fs_threadsel_new(&sel, &opts->threads, err));
    uint8_t *with = calloc(r->n ? r->n : 1, 1);
    foldsvg_status st =
        with ? FOLDSVG_OK : fs_error(err, FOLDSVG_E_NOMEM, r->d.file, "out of memory");
    for (size_t i = 0; with && i < r->n; i++)
        with[i] = fs_trie_total(r->t[i].trie, 0) > 0;
    if (st == FOLDSVG_OK)
        st =
            fs_threadsel_pick(sel, r->n, r->names, with, opts->ordered, &r->picked, r->d.file, err);
    free(with);
    fs_threadsel_free(sel);
    return st;
}

foldsvg_status fs_chrome_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err)
{
    reading r;
    foldsvg_status st = open_read(&r, in, opts, 1, err);
    if (st == FOLDSVG_OK)
        describe(&r, sink);
    if (st == FOLDSVG_OK && r.k == K_EVENTS && r.d.kept && sink->say) {
        char line[1400];
        size_t runs = fs_recsort_runs(r.d.kept);
        snprintf(line, sizeof line,
                 "%s: B/E/X events %s: sorted by time within --sort-buffer (%zu KiB)%s", r.d.file,
                 r.again ? "out of time order (X events written as they end), read again"
                         : "from a stream that cannot be read twice",
                 r.d.budget >> 10, runs ? ", in sorted runs in $TMPDIR beyond it" : "");
        sink->say(sink, line);
    }
    int frac = 0;
    for (size_t i = 0; st == FOLDSVG_OK && i < r.n; i++)
        if (picked(&r, i) && fs_trie_has_frac(r.t[i].trie))
            frac = 1;
    for (size_t i = 0; st == FOLDSVG_OK && i < r.n; i++) {
        if (!picked(&r, i))
            continue;
        pnames pn;
        fs_trie_names nm = names_of(&r, i, &pn);
        st = opts && opts->ordered
                 ? fs_trie_emit_runs(r.t[i].trie, &nm, (uint64_t)i << 40, sink, r.d.file, err)
                 : fs_trie_emit(r.t[i].trie, &nm, frac, sink, r.d.file, err);
    }
    reading_free(&r);
    return st;
}

foldsvg_status fs_chrome_list_threads(fs_input *in, const fs_input_opts *opts, foldsvg_thread_fn fn,
                                      void *user, foldsvg_error *err)
{
    reading r;
    fs_input_opts o = opts ? *opts : (fs_input_opts){0};
    o.ordered = 0;
    foldsvg_status st = open_read(&r, in, &o, 0, err);
    for (size_t i = 0; st == FOLDSVG_OK && i < r.n; i++)
        fn(user, i, r.t[i].name, r.t[i].process ? r.t[i].process : "", r.t[i].samples,
           fs_trie_total(r.t[i].trie, 0));
    reading_free(&r);
    return st;
}
