/* What the Chrome/V8 reader keeps of a document (formats/chrome/chrome.h says what it reads):
 * the CPU profiles (one per V8 profile: a .cpuprofile's, each Profile/ProfileChunk series or
 * CpuProfile event of a trace), their nodes and the stacks their samples make; the threads of
 * trace events (their B/E/X events, or their samples over a stackFrames table); names
 * interned once. formats/chrome/sax.c fills it, formats/chrome/cpuprofile.c turns samples
 * into stacks, formats/chrome/events.c trace events, formats/chrome/chrome.c hands them over. */
#ifndef FOLDSVG_FORMATS_CHROME_MODEL_H
#define FOLDSVG_FORMATS_CHROME_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/stacks/trie.h"
#include "util/buf.h"
#include "util/recsort.h"
#include "util/strmap.h"
#include "util/u64map.h"

#define CR_NONE UINT32_MAX

/* ---- V8 CPU profiles -------------------------------------------------------------------- */

enum { CR_IGNORED = 1, CR_ON_TOP = 2 };

typedef struct cr_node {
    int64_t id;
    int64_t parent_id; /* its "parent" field; INT64_MIN: none */
    uint32_t name;     /* in cr_doc.names */
    uint8_t flags;     /* CR_IGNORED: (root), (idle), native dummy.js; CR_ON_TOP: (program) and
                        * (garbage collector), drawn on the stack before them as speedscope does */
    uint8_t simple;    /* 0: not known yet; 1: no (program)/(garbage collector) above it and
                        * no left-out frame but at the root: its stack is its path, NAT; 2: not */
    uint32_t nat;      /* its path's stack (a trie node), when SIMPLE is 1 */
} cr_node;

typedef struct cr_profile {
    char *key;    /* the trace's profile id, or "pid:tid"; "" for a .cpuprofile */
    char *pidtid; /* "pid:tid" of the event that declared it, or NULL */
    int declared; /* a Profile or CpuProfile event (or the .cpuprofile) made it: chunks may
                   * come before their Profile event, which speedscope orders by time */
    cr_node *nodes;
    size_t nnodes, cap;
    fs_u64map by_id; /* node id -> index */
    uint32_t *dense; /* node id -> index + 1, for ids below dense_cap (V8's are 1..n) */
    size_t dense_cap;
    fs_u64map child_parent; /* node id -> the index of the node whose children list it */
    fs_trie trie;           /* items: node indexes */
    fs_u64map memo;         /* current stack << 32 | node -> the stack after it */
    /* the samples so far (speedscope's importFromChromeCPUProfile, as a stream) */
    uint64_t nsamples;
    int64_t prev_id;
    uint32_t cur;
    double elapsed, last_valid, run_start;
    /* samples and time deltas that came unpaired (chunks of unequal lengths) */
    int64_t *qs;
    double *qd;
    size_t nqs, nqd, qs_cap, qd_cap, qs_head, qd_head;
    /* scratch of a transition */
    uint32_t *mark, *stamp, *open;
    size_t mark_cap, open_cap;
    uint32_t stamp_now;
} cr_profile;

/* ---- trace events ------------------------------------------------------------------------ */

typedef struct cr_bex cr_bex; /* B/E/X events as they come (formats/chrome/bex.c) */

typedef struct cr_thread {
    char *pidtid; /* "pid:tid" */
    double pid, tid;
    cr_bex *bex;
    uint32_t index; /* in cr_doc.threads */
    uint64_t nev;   /* its B/E/X events so far (ties keep their order) */
    /* samples over stackFrames: the last sample's frame and time */
    fs_trie samples; /* depth-1 nodes, items: stack frame indexes */
    uint32_t last_sf;
    double last_ts;
    uint64_t nsamples;
    fs_trie trie; /* items: names; the stacks of the B/E/X events */
} cr_thread;

typedef struct cr_stackframe {
    uint32_t name;   /* in cr_doc.names */
    uint32_t parent; /* a stack frame index, CR_NONE */
} cr_stackframe;

/* ---- the document ------------------------------------------------------------------------- */

typedef struct cr_doc {
    const char *file;
    foldsvg_error *err;
    int ordered;
    int keep;              /* B/E/X events are kept and sorted, not taken as they come */
    size_t budget;         /* bytes for sorting the events kept, beyond which they spill */
    fs_recsort *kept;      /* the events kept (formats/chrome/bex.c), NULL until one */
    int kept_sorted;       /* they are being read back in order, */
    const void *next_kept; /* the next of them (NULL: none is left) */
    fs_strmap names;       /* every frame name */
    cr_profile **profiles;
    size_t nprofiles, profiles_cap;
    cr_thread **threads;
    size_t nthreads, threads_cap;
    fs_strmap thread_ids;    /* "pid:tid" -> its index in threads */
    fs_strmap thread_names;  /* "pid:tid" -> 1 + index into tnames (thread_name metadata) */
    fs_strmap process_names; /* "pid" -> 1 + index into pnames */
    char **tnames, **pnames;
    size_t ntnames, npnames, tnames_cap, pnames_cap;
    fs_strmap sf_ids; /* a stackFrames key -> its index */
    cr_stackframe *sf;
    size_t nsf, sf_cap;
    int has_cpu_events; /* a Profile, ProfileChunk or CpuProfile event came */
    int has_samples;    /* a trace's samples array (over stackFrames) came */
    int is_cpuprofile;  /* a .cpuprofile: a top-level object with nodes or head */
} cr_doc;

/* The index of NAME in d->names (interned). FOLDSVG_E_NOMEM. */
foldsvg_status cr_intern(cr_doc *d, const char *name, size_t len, uint32_t *out);
static inline fs_strref cr_name(const cr_doc *d, uint32_t id)
{
    fs_strref r = {fs_strmap_key(&d->names, id), fs_strmap_key_len(&d->names, id)};
    return r;
}

/* Profiles (formats/chrome/cpuprofile.c). The profile of KEY, made when absent (with PIDTID
 * when not NULL). */
foldsvg_status cr_profile_get(cr_doc *d, const char *key, const char *pidtid, int make,
                              cr_profile **out);
/* A node: its id, its parent's id (INT64_MIN: none), its name and flags. */
foldsvg_status cr_profile_node(cr_doc *d, cr_profile *p, int64_t id, int64_t parent_id,
                               uint32_t name, uint8_t flags);
/* The node CHILD is one of PARENT's children (both ids). */
foldsvg_status cr_profile_child(cr_doc *d, cr_profile *p, int64_t parent, int64_t child);
/* Samples and time deltas, in their order (each list may come apart from the other). */
foldsvg_status cr_profile_samples(cr_doc *d, cr_profile *p, const int64_t *ids, size_t n);
foldsvg_status cr_profile_deltas(cr_doc *d, cr_profile *p, const double *deltas, size_t n);
/* One sample and its delta, paired already. */
foldsvg_status cr_profile_sample(cr_doc *d, cr_profile *p, int64_t id, double delta);
/* The last run's weight, once every sample came. */
foldsvg_status cr_profile_finish(cr_doc *d, cr_profile *p);
void cr_profile_free(cr_profile *p);
/* A node's name, as speedscope gives it: the function's name, else "(anonymous FILE:LINE)"
 * with the URL's last part and the line counted from 1, else "(anonymous)". Into B. */
void cr_frame_name(fs_buf *b, const char *fn, size_t fn_len, const char *url, size_t url_len,
                   int has_line, int64_t line);
/* The flags of a node so named (with URL). */
uint8_t cr_node_flags(const char *fn, size_t fn_len, const char *url, size_t url_len);

/* Trace events (formats/chrome/events.c). The thread of PIDTID, made when absent. */
foldsvg_status cr_thread_get(cr_doc *d, const char *pidtid, double pid, double tid,
                             cr_thread **out);
/* A B, E or X event of T (DUR: X events'), kept or taken as it comes; FS_STOP when it comes
 * too late to be taken (out of time order: the input is to be read again, keeping them). */
foldsvg_status cr_thread_event(cr_doc *d, cr_thread *t, char ph, double ts, double dur,
                               uint32_t name);
/* A sample of the samples-over-stackFrames form: frame SF (its stackFrames key) at TS. */
foldsvg_status cr_thread_sample(cr_doc *d, cr_thread *t, const char *sf, size_t sf_len, double ts);
/* A stackFrames entry: KEY's name and parent key (NULL: none). */
foldsvg_status cr_stackframe_set(cr_doc *d, const char *key, size_t key_len, uint32_t name,
                                 const char *parent, size_t parent_len);
/* The rest of T's B/E/X events into its trie (speedscope's eventListToProfile). Threads are
 * built in their order (the events kept are read back by thread). */
foldsvg_status cr_thread_build(cr_doc *d, cr_thread *t);
/* Forgets every thread's B/E/X events and their stacks (the trace has CPU profiles). */
foldsvg_status cr_doc_drop_events(cr_doc *d);
void cr_bex_free(cr_bex *x);
void cr_thread_free(cr_thread *t);
/* The frames of stack frame SF, root first, into *FRAMES. FOLDSVG_E_PARSE for a parent that
 * is no stack frame or a cycle. */
foldsvg_status cr_stackframe_frames(cr_doc *d, uint32_t sf, fs_strref **frames, size_t *cap,
                                    size_t *n);

/* Metadata. */
foldsvg_status cr_name_thread(cr_doc *d, const char *pidtid, const char *name, size_t len);
foldsvg_status cr_name_process(cr_doc *d, const char *pid, const char *name, size_t len);
const char *cr_thread_name_of(const cr_doc *d, const char *pidtid);
const char *cr_process_name_of(const cr_doc *d, const char *pid, size_t len);

/* KEEP: B/E/X events are kept and sorted in about BUDGET bytes, not taken as they come. */
void cr_doc_init(cr_doc *d, const char *file, foldsvg_error *err, int ordered, int keep,
                 size_t budget);
void cr_doc_free(cr_doc *d);

/* The parse (formats/chrome/sax.c). */
struct fs_input;
foldsvg_status cr_parse(cr_doc *d, struct fs_input *in);

#endif
