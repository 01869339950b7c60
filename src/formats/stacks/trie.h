/* The stacks of a structured profile read as a stream (V8 CPU profiles, trace events,
 * speedscope's files): a trie of items (whatever a reader's frames are: a profile's node, an
 * interned name), each node a distinct stack with its summed weight, and, for --flamechart,
 * the runs of stacks in their order. Memory follows the distinct stacks (and the runs, which
 * only the ordered mode keeps). The weights are time: summed exactly as whole units plus a
 * compensated fraction, handed over whole (sink->stack) when no stack has a fraction, else
 * with it (sink->weight). */
#ifndef FOLDSVG_FORMATS_STACKS_TRIE_H
#define FOLDSVG_FORMATS_STACKS_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/sink.h"
#include "util/strref.h"
#include "util/u64map.h"

/* Adds V to W: its whole part to W->whole, its fraction to the compensated sum. */
void fs_weight_add(fs_weight *w, double v);
/* Whether W has a fraction. */
int fs_weight_frac(const fs_weight *w);

typedef struct fs_run {
    uint32_t node;
    double w;
} fs_run;

typedef struct fs_trie {
    uint32_t *parent, *item, *depth; /* per node; node 0 is the empty stack */
    fs_weight *w;
    size_t n, cap;
    fs_u64map kids; /* parent << 32 | item -> node */
    fs_run *runs;   /* the ordered mode's, when KEEP_RUNS */
    size_t nruns, runs_cap;
    int keep_runs;
} fs_trie;

/* An empty trie (its root, node 0, only). FOLDSVG_E_NOMEM. */
foldsvg_status fs_trie_init(fs_trie *t, int keep_runs);
void fs_trie_free(fs_trie *t);

/* The node for ITEM on top of PARENT's stack. FOLDSVG_E_NOMEM, FOLDSVG_E_LIMIT (2^32 nodes). */
foldsvg_status fs_trie_child(fs_trie *t, uint32_t parent, uint32_t item, uint32_t *out);
/* The ancestor of NODE at DEPTH (<= its depth; 0: the root). */
uint32_t fs_trie_ancestor(const fs_trie *t, uint32_t node, uint32_t depth);
/* NODE's stack takes V more (and, keeping runs, a run of its own or the last one grows).
 * The root's weight is kept too (time no frame had), but never handed over. */
foldsvg_status fs_trie_add(fs_trie *t, uint32_t node, double v);

struct fs_trie;

/* What a reader's items are called, or (FRAMES, when set) the frames of a node's stack
 * built by the reader itself, root first, into *OUT (of *CAP), *N of them. */
typedef fs_strref (*fs_trie_name_fn)(void *user, uint32_t item);
typedef foldsvg_status (*fs_trie_frames_fn)(void *user, const struct fs_trie *t, uint32_t node,
                                            fs_strref **out, size_t *cap, size_t *n);
typedef struct fs_trie_names {
    fs_trie_name_fn name;
    fs_trie_frames_fn frames;
    void *user;
} fs_trie_names;

/* Hands each stack with a weight above 0 to SINK (frames root first), whole or with
 * fractions (FRAC: some stack of the whole input has one, see fs_trie_has_frac); whole ones
 * depth first through sink->shared when the sink has it and names has no FRAMES. */
foldsvg_status fs_trie_emit(const fs_trie *t, const fs_trie_names *names, int frac, fs_sink *sink,
                            const char *file, foldsvg_error *err);
/* Whether a stack's weight has a fraction. */
int fs_trie_has_frac(const fs_trie *t);
/* The ordered mode: the runs in order, each rounded where it ends on the running total;
 * KEY_BASE makes the keys of sink->again unique among the tries of one input. */
foldsvg_status fs_trie_emit_runs(const fs_trie *t, const fs_trie_names *names, uint64_t key_base,
                                 fs_sink *sink, const char *file, foldsvg_error *err);
/* The summed weight of the stacks (the root's included when ROOT). */
double fs_trie_total(const fs_trie *t, int root);

#endif
