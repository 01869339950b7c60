/* The pprof reader's samples: summed per distinct stack (the sample's location ids, after the
 * --tag-root values), then each distinct stack resolved to frames once and given to the sink
 * (formats/pprof/pprof.h says what a stack is). */
#include "formats/pprof/pprof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pprof/model.h"
#include "formats/reader.h"
#include "formats/threadsel.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/strmap.h"

/* A read: the model, the selection, and the distinct stacks with their sums. */
typedef struct pp_read {
    pp_model m;
    const fs_pprof_opts *po;
    uint8_t *picked; /* per thread; NULL: all */
    /* --tag-root: each key's text and string indexes */
    size_t ntags;
    int64_t **tag_keys;
    size_t *ntag_keys;
    fs_strmap stacks; /* key: the tag values (pp_value each), then the location ids */
    int64_t *sums;
    size_t sums_cap;
    uint64_t *scratch; /* a key being made */
    size_t scratch_cap;
} pp_read;

static foldsvg_status nomem(pp_read *r)
{
    return fs_error(r->m.err, FOLDSVG_E_NOMEM, r->m.file, "out of memory");
}

static foldsvg_status setup_tags(pp_read *r)
{
    const fs_strlist *tags = r->po ? &r->po->tag_root : NULL;
    r->ntags = tags ? tags->n : 0;
    if (!r->ntags)
        return FOLDSVG_OK;
    r->tag_keys = fs_arena_alloc(&r->m.arena, r->ntags * sizeof *r->tag_keys);
    r->ntag_keys = fs_arena_alloc(&r->m.arena, r->ntags * sizeof *r->ntag_keys);
    if (!r->tag_keys || !r->ntag_keys)
        return nomem(r);
    for (size_t i = 0; i < r->ntags; i++)
        FS_FORWARD_IF_ERROR(pp_string_indexes(&r->m, tags->v[i], strlen(tags->v[i]),
                                              &r->tag_keys[i], &r->ntag_keys[i]));
    return FOLDSVG_OK;
}

/* Adds sample I's value V to its stack. */
static foldsvg_status add_sample(pp_read *r, size_t i, const pp_sample *s, int64_t v)
{
    const void *key = s->location_id;
    size_t len = s->n_location_id * sizeof(uint64_t);
    if (r->ntags) {
        size_t need = r->ntags * 2 + s->n_location_id;
        if (FS_GROW(r->scratch, r->scratch_cap, need, 64))
            return nomem(r);
        for (size_t t = 0; t < r->ntags; t++) {
            pp_value tv = pp_label_value(s, r->tag_keys[t], r->ntag_keys[t]);
            if (tv.kind == PP_STR)
                FS_FORWARD_IF_ERROR(pp_check_str(&r->m, (int64_t)tv.v, "sample", i));
            r->scratch[2 * t] = tv.kind;
            r->scratch[2 * t + 1] = tv.v;
        }
        if (s->n_location_id)
            memcpy(r->scratch + 2 * r->ntags, s->location_id, len);
        key = r->scratch;
        len = need * sizeof(uint64_t);
    }
    uint32_t k;
    int added;
    foldsvg_status st = fs_strmap_put(&r->stacks, key, len, 0, &k, &added);
    if (st)
        return st == FOLDSVG_E_NOMEM ? nomem(r)
                                     : fs_error(r->m.err, st, r->m.file, "too many stacks");
    if (added) {
        if (FS_GROW(r->sums, r->sums_cap, (size_t)k + 1, 1024))
            return nomem(r);
        r->sums[k] = 0;
    }
    if (__builtin_add_overflow(r->sums[k], v, &r->sums[k]))
        return fs_error(r->m.err, FOLDSVG_E_OVERFLOW, r->m.file,
                        "sample %zu: the values of its stack sum past 2^63", i);
    return FOLDSVG_OK;
}

static foldsvg_status sum_samples(pp_read *r)
{
    pp_profile *p = r->m.p;
    size_t vi = r->m.vi;
    for (size_t i = 0; i < p->n_sample; i++) {
        const pp_sample *s = p->sample[i];
        if (s->n_value != p->n_sample_type)
            return fs_error(r->m.err, FOLDSVG_E_PARSE, r->m.file,
                            "not a valid pprof profile: sample[%zu] has %zu values for %zu "
                            "sample types",
                            i, s->n_value, p->n_sample_type);
        if (r->picked && !r->picked[pp_thread_of(&r->m, s)])
            continue;
        if (s->value[vi] != 0)
            FS_FORWARD_IF_ERROR(add_sample(r, i, s, s->value[vi]));
    }
    return FOLDSVG_OK;
}

/* Stack K's frames into FRAMES: the tag frames (their text in NAMES), then the locations
 * from the last (the root) to the first. */
static foldsvg_status frames_of(pp_read *r, uint32_t k, fs_strref **frames, size_t *cap, size_t *n,
                                fs_buf *names)
{
    /* an owned key's bytes are not aligned: read it from a copy */
    size_t nkey = fs_strmap_key_len(&r->stacks, k) / sizeof(uint64_t);
    if (FS_GROW(r->scratch, r->scratch_cap, nkey ? nkey : 1, 64))
        return nomem(r);
    memcpy(r->scratch, fs_strmap_key(&r->stacks, k), nkey * sizeof(uint64_t));
    const uint64_t *key = r->scratch;
    *n = 0;
    fs_buf_clear(names);
    size_t ends[64];
    size_t ntags = r->ntags < 64 ? r->ntags : 64;
    for (size_t t = 0; t < ntags; t++) {
        pp_value v = {key[2 * t], key[2 * t + 1]};
        FS_FORWARD_IF_ERROR(pp_value_text(&r->m, r->po->tag_root.v[t], v, names));
        ends[t] = names->len;
    }
    const uint64_t *locs = key + 2 * r->ntags;
    size_t nlocs = nkey - 2 * r->ntags, need = ntags;
    for (size_t j = 0; j < nlocs; j++) {
        uint32_t li = pp_location(&r->m, locs[j]);
        if (li == FS_U64MAP_NONE)
            return fs_error(r->m.err, FOLDSVG_E_PARSE, r->m.file,
                            "not a valid pprof profile: a sample's location_id %" PRIu64
                            " is no location's id",
                            locs[j]);
        need += r->m.count[li];
    }
    if (FS_GROW(*frames, *cap, need, 64))
        return nomem(r);
    for (size_t t = 0; t < ntags; t++) {
        size_t from = t ? ends[t - 1] : 0;
        (*frames)[(*n)++] = (fs_strref){names->data + from, ends[t] - from};
    }
    for (size_t j = nlocs; j-- > 0;) {
        uint32_t li = pp_location(&r->m, locs[j]);
        memcpy(*frames + *n, r->m.frames + r->m.first[li], r->m.count[li] * sizeof **frames);
        *n += r->m.count[li];
    }
    return FOLDSVG_OK;
}

static foldsvg_status emit(pp_read *r, fs_sink *sink)
{
    fs_strref *frames = NULL;
    size_t cap = 0, n = 0;
    fs_buf names = {0};
    uint64_t negative = 0;
    foldsvg_status st = FOLDSVG_OK;
    for (uint32_t k = 0; k < fs_strmap_size(&r->stacks) && st == FOLDSVG_OK; k++) {
        if (r->sums[k] <= 0) {
            negative += r->sums[k] < 0;
            continue;
        }
        st = frames_of(r, k, &frames, &cap, &n, &names);
        if (st == FOLDSVG_OK)
            st = sink->stack(sink, frames, n, (uint64_t)r->sums[k], r->m.err);
    }
    free(frames);
    fs_buf_free(&names);
    if (st == FOLDSVG_OK && negative && sink->warn) {
        foldsvg_error w;
        fs_error(&w, FOLDSVG_E_PARSE, r->m.file,
                 "%" PRIu64 " stacks whose values sum below 0 (a difference of profiles?) were "
                 "left out",
                 negative);
        sink->warn(sink, &w);
    }
    return st;
}

/* What the input is, for the report, and the unit. */
static void describe(pp_read *r, fs_sink *sink)
{
    if (sink->count_name)
        sink->count_name(sink, pp_count_name(&r->m));
    uint32_t nsel = 0;
    fs_buf names = {0};
    for (size_t i = 0; i < r->m.nthreads; i++)
        if (!r->picked || r->picked[i])
            fs_buf_printf(&names, "%s%s (%zu)", nsel++ ? ", " : "", r->m.thread_names[i], i);
    if (sink->facts)
        sink->facts(sink, "pprof", "", nsel, 0);
    if (sink->threads && nsel && fs_buf_status(&names) == FOLDSVG_OK)
        sink->threads(sink, fs_buf_str(&names));
    fs_buf_free(&names);
}

/* Opens the profile and works out the sample type, the threads and the selection. */
static foldsvg_status open_read(pp_read *r, fs_input *in, const fs_input_opts *opts, int select,
                                foldsvg_error *err)
{
    memset(r, 0, sizeof *r);
    fs_strmap_init(&r->stacks, FS_STRMAP_BORROWED);
    r->po = opts ? &opts->pprof : NULL;
    FS_FORWARD_IF_ERROR(pp_open(&r->m, in, err));
    if (r->po && r->po->tag_root.n) {
        fs_strmap_free(&r->stacks);
        fs_strmap_init(&r->stacks, FS_STRMAP_OWNED);
    }
    FS_FORWARD_IF_ERROR(pp_pick_sample_type(&r->m, r->po ? r->po->sample_type : NULL));
    FS_FORWARD_IF_ERROR(setup_tags(r));
    FS_FORWARD_IF_ERROR(pp_find_threads(&r->m));
    if (!select || !opts || !opts->threads.n)
        return FOLDSVG_OK;
    fs_threadsel *sel;
    FS_FORWARD_IF_ERROR(fs_threadsel_new(&sel, &opts->threads, err));
    foldsvg_status st = fs_threadsel_pick(sel, r->m.nthreads, r->m.thread_names, NULL, 0,
                                          &r->picked, r->m.file, err);
    fs_threadsel_free(sel);
    if (st == FOLDSVG_OK && !r->m.nthreads)
        st = fs_error(err, FOLDSVG_E_USAGE, r->m.file,
                      "--thread: this pprof profile has no threads (no sample has a thread "
                      "label: thread_name, thread, thread_id, tid or goroutine)");
    return st;
}

static void close_read(pp_read *r)
{
    free(r->picked);
    free(r->sums);
    free(r->scratch);
    fs_strmap_free(&r->stacks);
    pp_close(&r->m);
}

foldsvg_status fs_pprof_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                             foldsvg_error *err)
{
    pp_read r;
    foldsvg_status st = open_read(&r, in, opts, 1, err);
    if (st == FOLDSVG_OK) {
        describe(&r, sink);
        st = sum_samples(&r);
    }
    if (st == FOLDSVG_OK)
        st = emit(&r, sink);
    close_read(&r);
    return st;
}

foldsvg_status fs_pprof_list_threads(fs_input *in, const fs_input_opts *opts, foldsvg_thread_fn fn,
                                     void *user, foldsvg_error *err)
{
    pp_read r;
    foldsvg_status st = open_read(&r, in, opts, 0, err);
    if (st == FOLDSVG_OK && !r.m.nthreads)
        st = fs_error(err, FOLDSVG_E_USAGE, r.m.file,
                      "--list-threads: this pprof profile has no threads (no sample has a "
                      "thread label: thread_name, thread, thread_id, tid or goroutine); "
                      "--list-sample-types lists its sample types");
    size_t n = r.m.nthreads;
    uint64_t *samples = st ? NULL : calloc(n ? n : 1, sizeof *samples);
    double *weight = st ? NULL : calloc(n ? n : 1, sizeof *weight);
    if (st == FOLDSVG_OK && (!samples || !weight))
        st = nomem(&r);
    for (size_t i = 0; st == FOLDSVG_OK && i < r.m.p->n_sample; i++) {
        const pp_sample *s = r.m.p->sample[i];
        long t = pp_thread_of(&r.m, s);
        if (t < 0)
            break;
        samples[t]++;
        if (s->n_value > r.m.vi)
            weight[t] += (double)s->value[r.m.vi];
    }
    for (size_t i = 0; st == FOLDSVG_OK && i < n; i++)
        fn(user, i, r.m.thread_names[i], "", samples[i], weight[i]);
    free(samples);
    free(weight);
    close_read(&r);
    return st;
}

foldsvg_status fs_pprof_list_sample_types(fs_input *in, const fs_input_opts *opts,
                                          foldsvg_sample_type_fn fn, void *user, foldsvg_error *err)
{
    (void)opts;
    pp_model m;
    foldsvg_status st = pp_open(&m, in, err);
    size_t n = st ? 0 : m.p->n_sample_type;
    int64_t *totals = st ? NULL : calloc(n ? n : 1, sizeof *totals);
    if (st == FOLDSVG_OK && !totals)
        st = fs_error(err, FOLDSVG_E_NOMEM, m.file, "out of memory");
    for (size_t i = 0; st == FOLDSVG_OK && i < m.p->n_sample; i++) {
        const pp_sample *s = m.p->sample[i];
        for (size_t k = 0; k < n && k < s->n_value; k++)
            if (__builtin_add_overflow(totals[k], s->value[k], &totals[k]))
                st = fs_error(err, FOLDSVG_E_OVERFLOW, m.file,
                              "the values of sample type %zu sum past 2^63", k);
    }
    for (size_t k = 0; st == FOLDSVG_OK && k < n; k++) {
        const Perftools__Profiles__ValueType *t = m.p->sample_type[k];
        fn(user, k, m.p->string_table[t->type], m.p->string_table[t->unit], totals[k]);
    }
    free(totals);
    pp_close(&m);
    return st;
}
