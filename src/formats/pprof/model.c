#include "formats/pprof/model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "formats/pprof/wire.h"
#include "util/buf.h"
#include "util/error.h"

/* ---- the bytes, unpacked --------------------------------------------------------------- */

/* protobuf-c allocates every message, string and array apart: from the arena, freed at once. */
static void *arena_alloc(void *data, size_t size)
{
    return fs_arena_alloc(data, size ? size : 1);
}

static void arena_release(void *data, void *ptr)
{
    (void)data;
    (void)ptr;
}

/* The whole decoded input into *BUF (malloc'd). */
static foldsvg_status slurp(fs_input *in, unsigned char **buf, size_t *len, foldsvg_error *err)
{
    uint64_t raw = fs_input_raw_size(in);
    size_t cap = raw ? (size_t)raw * (fs_input_is_gzip(in) ? 4 : 1) + 1 : (size_t)1 << 20;
    unsigned char *b = malloc(cap);
    size_t n = 0;
    if (!b)
        return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
    for (;;) {
        if (n == cap) {
            unsigned char *nb = cap <= SIZE_MAX / 2 ? realloc(b, cap * 2) : NULL;
            if (!nb) {
                free(b);
                return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
            }
            b = nb;
            cap *= 2;
        }
        size_t got;
        foldsvg_status st = fs_input_read(in, b + n, cap - n, &got, err);
        if (st) {
            free(b);
            return st;
        }
        if (got == 0)
            break;
        n += got;
    }
    *buf = b;
    *len = n;
    return FOLDSVG_OK;
}

/* A protobuf compressed twice (the input layer undid the outer gzip): *BUF inflated. */
static foldsvg_status inflate_again(const char *file, unsigned char **buf, size_t *len,
                                    foldsvg_error *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    size_t cap = *len * 4 + 4096, n = 0;
    unsigned char *out = malloc(cap);
    int rc = Z_OK;
    z.next_in = *buf;
    while (out && rc == Z_OK) {
        size_t left = *len - (size_t)(z.next_in - *buf);
        z.avail_in = (uInt)(left < UINT32_MAX ? left : UINT32_MAX);
        if (n == cap) {
            unsigned char *o = cap <= SIZE_MAX / 2 ? realloc(out, cap * 2) : NULL;
            if (!o) {
                free(out);
                out = NULL;
                break;
            }
            out = o;
            cap *= 2;
        }
        size_t room = cap - n < UINT32_MAX ? cap - n : UINT32_MAX;
        z.next_out = out + n;
        z.avail_out = (uInt)room;
        rc = inflate(&z, Z_NO_FLUSH);
        n += room - z.avail_out;
        if (rc == Z_BUF_ERROR && z.avail_out)
            break; /* no more input: cut short */
        if (rc == Z_BUF_ERROR)
            rc = Z_OK;
    }
    size_t at = (size_t)(z.next_in - *buf);
    inflateEnd(&z);
    if (!out)
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    if (rc != Z_STREAM_END) {
        free(out);
        return fs_error_at_offset(err, FOLDSVG_E_PARSE, file, at,
                                  "the gzip stream inside the gzip stream is %s",
                                  rc == Z_OK || rc == Z_BUF_ERROR ? "cut short" : "corrupt");
    }
    free(*buf);
    *buf = out;
    *len = n;
    return FOLDSVG_OK;
}

/* Why protobuf-c refused BUF: the wire walk names the place; what it finds sound is wrong in
 * a way only the unpacking sees (a string that is not UTF-8, a value out of its type). */
static foldsvg_status corrupt(const char *file, const unsigned char *buf, size_t len,
                              foldsvg_error *err)
{
    fs_pb_walk w;
    fs_pb_walk_profile(buf, len, 0, &w);
    if (w.result == 1)
        return fs_error(err, FOLDSVG_E_PARSE, file,
                        "not a valid pprof profile: protobuf-c cannot unpack it (its fields are "
                        "in order, but a value is not what profile.proto says, e.g. a string "
                        "that is not UTF-8)");
    return fs_error_at_offset(err, FOLDSVG_E_PARSE, file, w.offset, "%s pprof profile: %s%s%s",
                              w.result < 0 ? "a truncated" : "a corrupt", w.why,
                              w.where[0] ? " in " : "", w.where);
}

/* ---- the tables -------------------------------------------------------------------------- */

foldsvg_status pp_check_str(pp_model *m, int64_t i, const char *what, size_t elem)
{
    if (i >= 0 && (uint64_t)i < m->p->n_string_table)
        return FOLDSVG_OK;
    return fs_error(m->err, FOLDSVG_E_PARSE, m->file,
                    "not a valid pprof profile: %s[%zu] names string %" PRId64
                    ", past the string table (%zu strings)",
                    what, elem, i, m->p->n_string_table);
}

/* Whether the ids of N records are 1..N in order; else MAP gets id -> index (a repeated id:
 * the error). */
static foldsvg_status index_ids(pp_model *m, const char *what, size_t n, const uint64_t *ids,
                                size_t stride, fs_u64map *map, int *dense)
{
    *dense = 1;
    for (size_t i = 0; i < n && *dense; i++)
        if (*(const uint64_t *)((const char *)ids + i * stride) != i + 1)
            *dense = 0;
    for (size_t i = 0; !*dense && i < n; i++) {
        uint64_t id = *(const uint64_t *)((const char *)ids + i * stride);
        uint32_t v = (uint32_t)i;
        int added;
        if (fs_u64map_put(map, id, &v, &added))
            return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
        if (!added || id == 0)
            return fs_error(m->err, FOLDSVG_E_PARSE, m->file,
                            "not a valid pprof profile: %s[%zu] has id %" PRIu64 ", %s", what, i,
                            id, id ? "which an earlier one has" : "which is none");
    }
    return FOLDSVG_OK;
}

/* ids read through the message pointers: each record's id into a flat array */
static foldsvg_status ids_of(pp_model *m, size_t n, void *const *recs, size_t id_off,
                             uint64_t **out)
{
    *out = fs_arena_alloc(&m->arena, (n ? n : 1) * sizeof **out);
    if (!*out)
        return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
    for (size_t i = 0; i < n; i++)
        memcpy(&(*out)[i], (const char *)recs[i] + id_off, sizeof(uint64_t));
    return FOLDSVG_OK;
}

/* Function I's name: its name, else its system name, else "(unknown)". */
static foldsvg_status function_name(pp_model *m, size_t i, fs_strref *out)
{
    const Perftools__Profiles__Function *f = m->p->function[i];
    FS_FORWARD_IF_ERROR(pp_check_str(m, f->name, "function", i));
    FS_FORWARD_IF_ERROR(pp_check_str(m, f->system_name, "function", i));
    *out = pp_str(m, f->name);
    if (!out->len)
        *out = pp_str(m, f->system_name);
    if (!out->len)
        *out = (fs_strref){"(unknown)", 9};
    return FOLDSVG_OK;
}

/* Every location's frames: its lines from the last (the caller the others were inlined
 * into) to the first, or its address when it has none. */
static foldsvg_status location_frames(pp_model *m)
{
    pp_profile *p = m->p;
    size_t nfn = p->n_function, total = 0;
    fs_strref *fnames = fs_arena_alloc(&m->arena, (nfn ? nfn : 1) * sizeof *fnames);
    m->first = fs_arena_alloc(&m->arena, (p->n_location ? p->n_location : 1) * sizeof(uint32_t));
    m->count = fs_arena_alloc(&m->arena, (p->n_location ? p->n_location : 1) * sizeof(uint32_t));
    if (!fnames || !m->first || !m->count)
        return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
    for (size_t i = 0; i < nfn; i++)
        FS_FORWARD_IF_ERROR(function_name(m, i, &fnames[i]));
    for (size_t i = 0; i < p->n_location; i++)
        total += p->location[i]->n_line ? p->location[i]->n_line : 1;
    if (total > UINT32_MAX)
        return fs_error(m->err, FOLDSVG_E_LIMIT, m->file, "more than 2^32 location lines");
    m->frames = fs_arena_alloc(&m->arena, (total ? total : 1) * sizeof *m->frames);
    if (!m->frames)
        return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
    uint32_t k = 0;
    for (size_t i = 0; i < p->n_location; i++) {
        const Perftools__Profiles__Location *l = p->location[i];
        m->first[i] = k;
        if (!l->n_line) {
            char addr[24];
            int n = snprintf(addr, sizeof addr, "0x%" PRIx64, l->address);
            char *s = fs_arena_strndup(&m->arena, addr, (size_t)n);
            if (!s)
                return fs_error(m->err, FOLDSVG_E_NOMEM, m->file, "out of memory");
            m->frames[k++] = (fs_strref){s, (size_t)n};
        }
        for (size_t j = l->n_line; j-- > 0;) {
            uint64_t fid = l->line[j]->function_id;
            uint32_t fi = m->fn_dense ? (fid - 1 < nfn ? (uint32_t)(fid - 1) : FS_U64MAP_NONE)
                                      : fs_u64map_get(&m->fn_ids, fid);
            if (fid == 0)
                m->frames[k++] = (fs_strref){"(unknown)", 9};
            else if (fi == FS_U64MAP_NONE)
                return fs_error(m->err, FOLDSVG_E_PARSE, m->file,
                                "not a valid pprof profile: location[%zu] (id %" PRIu64
                                ") line[%zu] names function %" PRIu64 ", which no function has",
                                i, l->id, j, fid);
            else
                m->frames[k++] = fnames[fi];
        }
        m->count[i] = k - m->first[i];
    }
    return FOLDSVG_OK;
}

foldsvg_status pp_open(pp_model *m, fs_input *in, foldsvg_error *err)
{
    memset(m, 0, sizeof *m);
    m->file = fs_input_name(in);
    m->err = err;
    fs_arena_init(&m->arena);
    fs_u64map_init(&m->loc_ids);
    fs_u64map_init(&m->fn_ids);
    fs_u64map_init(&m->thread_of);
    unsigned char *buf = NULL;
    size_t len = 0;
    FS_FORWARD_IF_ERROR(slurp(in, &buf, &len, err));
    if (len >= 3 && buf[0] == 0x1f && buf[1] == 0x8b && buf[2] == 8) {
        foldsvg_status st = inflate_again(m->file, &buf, &len, err);
        if (st) {
            free(buf);
            return st;
        }
    }
    ProtobufCAllocator a = {arena_alloc, arena_release, &m->arena};
    m->p = perftools__profiles__profile__unpack(&a, len, buf);
    foldsvg_status st = m->p ? FOLDSVG_OK : corrupt(m->file, buf, len, err);
    free(buf);
    FS_FORWARD_IF_ERROR(st);
    pp_profile *p = m->p;
    if (p->n_string_table == 0 || p->string_table[0][0] != '\0')
        return fs_error(err, FOLDSVG_E_PARSE, m->file,
                        "not a valid pprof profile: its string table does not start with the "
                        "empty string");
    if (!(m->slen = fs_arena_alloc(&m->arena, p->n_string_table * sizeof *m->slen)))
        return fs_error(err, FOLDSVG_E_NOMEM, m->file, "out of memory");
    for (size_t i = 0; i < p->n_string_table; i++)
        m->slen[i] = strlen(p->string_table[i]);
    uint64_t *ids;
    FS_FORWARD_IF_ERROR(ids_of(m, p->n_location, (void *const *)p->location,
                               offsetof(Perftools__Profiles__Location, id), &ids));
    FS_FORWARD_IF_ERROR(
        index_ids(m, "location", p->n_location, ids, sizeof *ids, &m->loc_ids, &m->loc_dense));
    FS_FORWARD_IF_ERROR(ids_of(m, p->n_function, (void *const *)p->function,
                               offsetof(Perftools__Profiles__Function, id), &ids));
    FS_FORWARD_IF_ERROR(
        index_ids(m, "function", p->n_function, ids, sizeof *ids, &m->fn_ids, &m->fn_dense));
    for (size_t i = 0; i < p->n_sample_type; i++) {
        FS_FORWARD_IF_ERROR(pp_check_str(m, p->sample_type[i]->type, "sample_type", i));
        FS_FORWARD_IF_ERROR(pp_check_str(m, p->sample_type[i]->unit, "sample_type", i));
    }
    return location_frames(m);
}

void pp_close(pp_model *m)
{
    fs_u64map_free(&m->loc_ids);
    fs_u64map_free(&m->fn_ids);
    fs_u64map_free(&m->thread_of);
    fs_arena_free(&m->arena);
}

/* ---- the sample type ----------------------------------------------------------------------- */

static const char *type_name(const pp_model *m, size_t i)
{
    return m->p->string_table[m->p->sample_type[i]->type];
}

static const char *unit_name(const pp_model *m, size_t i)
{
    return m->p->string_table[m->p->sample_type[i]->unit];
}

foldsvg_status pp_pick_sample_type(pp_model *m, const char *sel)
{
    pp_profile *p = m->p;
    if (p->n_sample_type == 0)
        return fs_error(m->err, FOLDSVG_E_PARSE, m->file,
                        "not a valid pprof profile: it has no sample types");
    if (!sel || !*sel) {
        /* pprof's choice: the default sample type when one is named, else the last */
        m->vi = p->n_sample_type - 1;
        int64_t d = p->default_sample_type;
        if (d > 0 && (uint64_t)d < p->n_string_table)
            for (size_t i = 0; i < p->n_sample_type; i++)
                if (strcmp(type_name(m, i), p->string_table[d]) == 0) {
                    m->vi = i;
                    break;
                }
        return FOLDSVG_OK;
    }
    for (size_t i = 0; i < p->n_sample_type; i++)
        if (strcmp(type_name(m, i), sel) == 0) {
            m->vi = i;
            return FOLDSVG_OK;
        }
    char *end;
    unsigned long long k = strtoull(sel, &end, 10);
    if (*sel >= '0' && *sel <= '9' && !*end && k < p->n_sample_type) {
        m->vi = (size_t)k;
        return FOLDSVG_OK;
    }
    fs_buf b = {0};
    for (size_t i = 0; i < p->n_sample_type; i++)
        fs_buf_printf(&b, "%s%zu '%s' (%s)", i ? ", " : "", i, type_name(m, i), unit_name(m, i));
    foldsvg_status st = fs_error(m->err, FOLDSVG_E_USAGE, m->file,
                                 "--sample-type '%s': the profile has no such sample type; its "
                                 "sample types are %s (see --list-sample-types)",
                                 sel, fs_buf_str(&b));
    fs_buf_free(&b);
    return st;
}

const char *pp_count_name(const pp_model *m)
{
    const char *unit = unit_name(m, m->vi), *type = type_name(m, m->vi);
    if (*unit && strcmp(unit, "count") != 0)
        return unit;
    return *type ? type : "samples";
}
