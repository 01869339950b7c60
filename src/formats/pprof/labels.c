/* pprof's sample labels: the values --tag-root roots stacks at, and the thread label whose
 * values are the profile's threads. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "formats/pprof/model.h"
#include "util/error.h"

pp_value pp_label_value(const pp_sample *s, const int64_t *keys, size_t n)
{
    for (size_t i = 0; i < s->n_label; i++) {
        const pp_label *l = s->label[i];
        for (size_t k = 0; k < n; k++) {
            if (l->key != keys[k])
                continue;
            if (l->str)
                return (pp_value){PP_STR, (uint64_t)l->str};
            return (pp_value){PP_NUM, (uint64_t)l->num};
        }
    }
    return (pp_value){PP_ABSENT, 0};
}

foldsvg_status pp_string_indexes(pp_model *m, const char *key, size_t len, int64_t **out, size_t *n)
{
    *n = 0;
    *out = NULL;
    size_t cap = 0;
    for (size_t i = 1; i < m->p->n_string_table; i++) {
        if (m->slen[i] != len || memcmp(m->p->string_table[i], key, len) != 0)
            continue;
        if (*n == cap) {
            size_t ncap = cap ? cap * 2 : 2;
            int64_t *v = fs_arena_alloc(&m->arena, ncap * sizeof *v);
            if (!v)
                return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
            if (*n)
                memcpy(v, *out, *n * sizeof *v);
            *out = v;
            cap = ncap;
        }
        (*out)[(*n)++] = (int64_t)i;
    }
    return FOLDSVG_OK;
}

/* The label keys that name a thread, in the order one is taken: what Go's pprof.Do users,
 * async-profiler, Datadog's and Pyroscope's agents write. */
static const char *const thread_keys[] = {
    "thread_name", "thread name", "thread", "thread_id", "thread id", "tid", "goroutine",
};

/* Whether a sample has a label with one of KEYS[0..n). */
static int used_as_key(const pp_model *m, const int64_t *keys, size_t n)
{
    for (size_t i = 0; i < m->p->n_sample; i++)
        if (pp_label_value(m->p->sample[i], keys, n).kind != PP_ABSENT)
            return 1;
    return 0;
}

static uint64_t value_key(pp_value v)
{
    return v.kind == PP_ABSENT ? UINT64_MAX : v.kind == PP_STR ? v.v << 1 : v.v << 1 | 1;
}

/* A thread's name: the label's string, its number, or "" for samples without the label. */
static foldsvg_status thread_name(pp_model *m, pp_value v, const char **out, size_t sample)
{
    if (v.kind == PP_STR) {
        FS_FORWARD_IF_ERROR(pp_check_str(m, (int64_t)v.v, "sample", sample));
        *out = m->p->string_table[v.v];
        return FOLDSVG_OK;
    }
    char num[24] = "";
    if (v.kind == PP_NUM)
        snprintf(num, sizeof num, "%" PRId64, (int64_t)v.v);
    if (!(*out = fs_arena_strndup(&m->arena, num, strlen(num))))
        return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
    return FOLDSVG_OK;
}

foldsvg_status pp_find_threads(pp_model *m)
{
    for (size_t k = 0; k < sizeof thread_keys / sizeof thread_keys[0] && !m->nthread_keys; k++) {
        int64_t *keys;
        size_t n;
        FS_FORWARD_IF_ERROR(
            pp_string_indexes(m, thread_keys[k], strlen(thread_keys[k]), &keys, &n));
        if (n && used_as_key(m, keys, n)) {
            m->thread_keys = keys;
            m->nthread_keys = n;
        }
    }
    if (!m->nthread_keys)
        return FOLDSVG_OK;
    size_t cap = 0;
    for (size_t i = 0; i < m->p->n_sample; i++) {
        pp_value v = pp_label_value(m->p->sample[i], m->thread_keys, m->nthread_keys);
        uint32_t t = (uint32_t)m->nthreads;
        int added;
        if (fs_u64map_put(&m->thread_of, value_key(v), &t, &added))
            return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
        if (!added)
            continue;
        if (m->nthreads == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            const char **names = fs_arena_alloc(&m->arena, ncap * sizeof *names);
            if (!names)
                return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
            if (m->nthreads)
                memcpy(names, m->thread_names, m->nthreads * sizeof *names);
            m->thread_names = names;
            cap = ncap;
        }
        FS_FORWARD_IF_ERROR(thread_name(m, v, &m->thread_names[m->nthreads], i));
        m->nthreads++;
    }
    return FOLDSVG_OK;
}

long pp_thread_of(const pp_model *m, const pp_sample *s)
{
    if (!m->nthread_keys)
        return -1;
    pp_value v = pp_label_value(s, m->thread_keys, m->nthread_keys);
    return (long)fs_u64map_get(&m->thread_of, value_key(v));
}

foldsvg_status pp_value_text(const pp_model *m, const char *key, pp_value v, fs_buf *b)
{
    if (v.kind == PP_STR) {
        fs_strref s = pp_str(m, (int64_t)v.v);
        fs_buf_printf(b, "%s=%.*s", key, (int)s.len, s.ptr);
    } else if (v.kind == PP_NUM) {
        fs_buf_printf(b, "%s=%" PRId64, key, (int64_t)v.v);
    } else {
        fs_buf_printf(b, "%s=(none)", key);
    }
    return fs_buf_status(b);
}
