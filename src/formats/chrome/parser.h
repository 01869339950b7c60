/* The Chrome/V8 reader's parse state, private to formats/chrome/: sax.c's callbacks fill it
 * (what each open container means, the event or chunk being gathered); gathered.c hands what
 * an event gathered to the model (formats/chrome/model.h) at its end. */
#ifndef FOLDSVG_FORMATS_CHROME_PARSER_H
#define FOLDSVG_FORMATS_CHROME_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "formats/chrome/model.h"
#include "formats/json/json.h"
#include "formats/json/reread.h"
#include "util/arena.h"
#include "util/spool.h"
#include "util/buf.h"

typedef enum role_t {
    R_SKIP,
    R_TOP,         /* the top-level object */
    R_EVENTS,      /* traceEvents, or the top-level array */
    R_EVENT,       /* one trace event */
    R_ARGS,        /* its args */
    R_DATA,        /* args.data */
    R_CPUPROF,     /* args.data.cpuProfile */
    R_NODES,       /* nodes */
    R_NODE,        /* one node */
    R_CALLFRAME,   /* its callFrame */
    R_CHILDREN,    /* its children (ids) */
    R_IDS,         /* an event's samples (node ids) */
    R_DELTAS,      /* an event's timeDeltas */
    R_TOP_SAMPLES, /* the top-level samples: node ids, or sample objects */
    R_TOP_DELTAS,  /* the top-level timeDeltas or timestamps */
    R_OLDNODE,     /* a node of the tree form (head) */
    R_OLDCHILDREN, /* its children (nodes) */
    R_TSAMPLE,     /* a sample object (samples over stackFrames) */
    R_STACKFRAMES, /* stackFrames */
    R_STACKFRAME,  /* one of them */
    /* scalar values */
    V_PH,
    V_NAME,
    V_PID,
    V_TID,
    V_TS,
    V_DUR,
    V_TDUR,
    V_ID,
    V_NODE_ID,
    V_ARG_NAME,
    V_PARENT,
    V_FN,
    V_URL,
    V_LINE,
    V_SF,
    V_START
} role_t;

typedef struct frame {
    uint8_t role, child;
    uint32_t node; /* R_NODE, R_OLDNODE: the pending node */
} frame;

typedef struct pnode {
    int64_t id, parent_id; /* INT64_MIN: none */
    uint32_t parent;       /* a pending node (the tree form), CR_NONE */
    const char *fn, *url;  /* in the chunk's arena */
    size_t fn_len, url_len;
    int64_t line;
    int has_line, has_id;
} pnode;

/* What one event (or the .cpuprofile) holds of a CPU profile. */
typedef struct chunk {
    pnode *nodes;
    size_t n, cap;
    int64_t *kids; /* pending node, child id */
    size_t nkids, kids_cap;
    /* the samples (int64_t) and time deltas (double): a CpuProfile event holds a whole
     * profile's, past a limit in a temporary file (util/spool.h) */
    fs_spool ids, deltas;
    fs_arena strings;
    double start;
    int has_start;
} chunk;

typedef struct event {
    char ph;
    fs_buf name, pid, tid, id, arg_name, sf;
    double pidn, tidn, ts, dur, tdur;
    int has_name, has_pid, has_tid, has_ts, has_dur, has_tdur, has_id, has_arg_name, has_sf;
} event;

typedef struct parser {
    cr_doc *d;
    fs_json j;
    frame *st;
    size_t depth, cap;
    chunk ev_chunk, top_chunk;
    chunk *cur; /* the chunk nodes and samples go to */
    event ev;
    fs_buf key, sfkey, text;
    fs_json_region reg_samples, reg_deltas;
    uint64_t arr_at; /* the values the chunk held when the open samples or deltas array began */
    int top_deltas_are_timestamps;
    int can_reread;
    double top_start;
    int has_top_start;
    /* the stack frame being read */
    fs_buf sf_name, sf_parent;
    int has_sf_name, has_sf_parent;
} parser;

/* Records an out-of-memory failure in the parse: returns 0 (yajl stops). */
int cr_fail_nomem(parser *p);
/* 1 for FOLDSVG_OK, else records ST (its message in the document's error) and returns 0. */
int cr_failed(parser *p, foldsvg_status st);

/* The nodes, children, samples and deltas of chunk C into profile PR. */
foldsvg_status cr_apply(parser *p, chunk *c, cr_profile *pr);
/* Fails the parse for status ST of a chunk's values (util/spool.h); returns 0. */
int cr_fail_spool(parser *p, foldsvg_status st);
/* The ends of a trace event, a sample object and a stack frame: what they gathered, handed
 * to the model. 0: the parse stops (recorded). */
int cr_end_event(parser *p);
int cr_end_sample(parser *p);
int cr_end_stackframe(parser *p);

#endif
