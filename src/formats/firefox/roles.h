/* The frames of the Firefox-Profiler reader's stack, one per open JSON container, and what
 * they say each value means (formats/firefox/roles.c); the yajl callbacks that drive them
 * are in formats/firefox/sax.c. */
#ifndef FOLDSVG_FORMATS_FIREFOX_ROLES_H
#define FOLDSVG_FORMATS_FIREFOX_ROLES_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/firefox/parser.h"

/* What a JSON value (or container) means at its place in the document. */
typedef enum ff_role {
    R_SKIP,
    R_ROOT,
    R_PROFILE,
    R_WRAPPED, /* value of a top-level "profile" key */
    R_META,
    R_META_PRODUCT,
    R_META_PPV,
    R_META_VERSION,
    R_THREADS,
    R_THREAD_ELEM,
    R_PROCESSES,
    R_PROCESS_ELEM,
    R_THREAD,
    R_THREAD_NAME,
    R_THREAD_PROCNAME,
    R_STRINGS,
    R_STRING_ELEM,
    R_SHARED,
    R_TABLE,
    R_SCHEMA,
    R_SCHEMA_COL,
    R_DATA,
    R_ROW,
    R_CELL,
    R_COLUMN,
    R_COLCELL,
    R_LENGTH,
    R_SAMPLES,
    R_S_DATA,
    R_S_ROW, /* has no frame: ff_parser.hot says when one is open */
    R_S_COL,
    R_S_COLCELL,
    R_S_WEIGHTTYPE,
    R_D_DATA, /* Gecko sample rows before their schema: checked, read again later */
    R_D_ROW
} ff_role;

enum { K_STACK, K_FRAME, K_FUNC, K_SAMPLES };

struct ff_frame {
    uint8_t role;  /* of this container */
    uint8_t child; /* of the next value inside it */
    uint8_t kind;  /* table kind (K_*) */
    uint8_t first; /* a thread object that is threads[0] */
    int col;       /* column id of a column array / schema entry */
    uint64_t idx;  /* values seen so far in an array */
    ff_profile *prof;
    ff_thread *thr;
    ff_table *tab;
    ff_strings *strs;
};

/* A container opens (IS_MAP: an object), not as a sample row's cell: a frame for it is pushed,
 * or P->skip counts it while a value is skipped whole. */
foldsvg_status ff_role_open(ff_parser *p, int is_map);
/* The container of frame F (popped already) closes. */
foldsvg_status ff_role_close(ff_parser *p, const ff_frame *f);
/* Key S[0..N) of the object of frame F: what its value means. */
void ff_role_key(ff_parser *p, ff_frame *f, const char *s, size_t n);
/* Scalar C (a string: S[0..N)) as value EI of the container of frame F (NULL: the whole
 * text), or a container there that is kept as FS_JSON_OTHER. */
foldsvg_status ff_role_value(ff_parser *p, ff_frame *f, uint64_t ei, fs_json_value c, const char *s,
                             size_t n);

#endif
