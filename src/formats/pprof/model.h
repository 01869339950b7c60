/* An unpacked pprof profile and what the reader works out of it before the samples: its
 * string, location and function tables indexed by id, each location's frames, the sample
 * type, and the thread label (formats/pprof/labels.c). Shared by formats/pprof/pprof.c
 * (the samples) and labels.c. */
#ifndef FOLDSVG_FORMATS_PPROF_MODEL_H
#define FOLDSVG_FORMATS_PPROF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "input/input.h"
/* protoc-c's code for formats/pprof/profile.proto, generated in the build tree */
#include <profile.pb-c.h>
#include "util/arena.h"
#include "util/buf.h"
#include "util/strref.h"
#include "util/u64map.h"

typedef Perftools__Profiles__Profile pp_profile;
typedef Perftools__Profiles__Sample pp_sample;
typedef Perftools__Profiles__Label pp_label;

/* One label's value in a sample, as a key: absent, a string (its index) or a number. */
enum { PP_ABSENT = 0, PP_STR = 1, PP_NUM = 2 };
typedef struct pp_value {
    uint64_t kind, v;
} pp_value;

typedef struct pp_model {
    const char *file;
    foldsvg_error *err;
    fs_arena arena; /* the unpacked message and the names made here */
    pp_profile *p;
    size_t *slen;              /* the strings' lengths */
    fs_u64map loc_ids, fn_ids; /* id -> index, when the ids are not 1..n in order */
    int loc_dense, fn_dense;
    /* location I's frames, root first: frames[first[I] .. first[I] + count[I]) */
    fs_strref *frames;
    uint32_t *first, *count;
    size_t vi; /* the sample type whose values are read */
    /* the thread label: its key's string indexes (the table may hold a string twice) */
    int64_t *thread_keys;
    size_t nthread_keys;
    fs_u64map thread_of; /* a thread label value's key -> thread index */
    const char **thread_names;
    uint64_t *thread_samples;
    double *thread_weight;
    size_t nthreads;
} pp_model;

/* Reads IN whole, unpacks it (a corrupt or truncated protobuf is one message naming the
 * byte offset and the field), checks what the samples use and indexes the tables. */
foldsvg_status pp_open(pp_model *m, fs_input *in, foldsvg_error *err);
void pp_close(pp_model *m);

/* String I of the table (I checked), and its length. */
static inline fs_strref pp_str(const pp_model *m, int64_t i)
{
    fs_strref r = {m->p->string_table[i], m->slen[i]};
    return r;
}
/* Whether I is an index into the string table; else the error, naming WHAT. */
foldsvg_status pp_check_str(pp_model *m, int64_t i, const char *what, size_t elem);

/* The index of location ID, or FS_U64MAP_NONE. */
static inline uint32_t pp_location(const pp_model *m, uint64_t id)
{
    if (m->loc_dense)
        return id - 1 < m->p->n_location ? (uint32_t)(id - 1) : FS_U64MAP_NONE;
    return fs_u64map_get(&m->loc_ids, id);
}

/* The sample type named by SEL (its type or its index; NULL: pprof's default) into m->vi;
 * FOLDSVG_E_USAGE naming the types when none is. */
foldsvg_status pp_pick_sample_type(pp_model *m, const char *sel);
/* The unit of m->vi's values, for the sink. */
const char *pp_count_name(const pp_model *m);

/* Labels (formats/pprof/labels.c). The value of label KEY (string indexes KEYS[0..n)) in S. */
pp_value pp_label_value(const pp_sample *s, const int64_t *keys, size_t n);
/* The string indexes of the string KEY[0..len) (none: *N 0), into the arena. */
foldsvg_status pp_string_indexes(pp_model *m, const char *key, size_t len, int64_t **out,
                                 size_t *n);
/* Finds the thread label and numbers its values in order of first use (m->thread_*); a
 * profile without one has no threads. */
foldsvg_status pp_find_threads(pp_model *m);
/* The thread of sample S, or -1 when the profile has no threads. */
long pp_thread_of(const pp_model *m, const pp_sample *s);
/* "KEY=VALUE" of V into B's end (the value written as the profile gives it). */
foldsvg_status pp_value_text(const pp_model *m, const char *key, pp_value v, fs_buf *b);

#endif
