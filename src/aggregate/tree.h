/* The aggregated profile: a prefix tree of interned frame names. Memory grows with the
 * distinct stack prefixes; equal stacks are summed on insertion. */
#ifndef FOLDSVG_AGGREGATE_TREE_H
#define FOLDSVG_AGGREGATE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/arena.h"
#include "util/strmap.h"
#include "util/strref.h"

#define FS_NONE UINT32_MAX

typedef struct fs_node {
    uint32_t parent;      /* FS_NONE for the root */
    uint32_t name;        /* interned name id; the root's name is "" (id 0) */
    uint32_t first_child; /* children in insertion order; sorted only when walked */
    uint32_t next_sibling;
    uint64_t count; /* summed count of the stacks that end here */
} fs_node;

typedef struct fs_tree {
    /* Name bytes -> id, the map's entry index. NAME_PTR and NAME_LEN are the map's own
     * arrays (fs_strmap_key_array), taken again after each new name. */
    fs_strmap names;
    const char **name_ptr;
    uint32_t *name_len;
    uint32_t nnames;

    fs_node *nodes;
    uint32_t nnodes, nodes_cap;
    /* A node's children are found on its sibling list until it has FS_TREE_HASH_AT of them,
     * then in CHILD_SLOTS (open addressing over (parent, name): node id + 1), which holds
     * the children of those nodes only. Most nodes of a large tree have one child (the
     * frames a single stack has alone): their lookups and insertions touch no table. */
    uint8_t *nchild; /* children per node, up to FS_TREE_HASH_AT */
    uint32_t *child_slots;
    size_t child_mask, nhashed;

    /* Differential input: BEFORE sums per node, and whether a two-count line ended there. */
    uint64_t *before;
    uint8_t *is_diff;
    int has_diff;

    uint64_t total, total_before;
    size_t unique; /* nodes with a non-zero count (or a differential line) */

    /* Fast path for sorted input: the node reached by each depth of the last inserted
     * path, so a line sharing a prefix with the previous one skips those lookups. */
    uint32_t *last_nodes;
    size_t last_depth, last_cap;

    /* Fast path for inputs that repeat few stacks in any order (raw profiler output): whole
     * paths already seen map straight to their node. Bounded by FS_STACK_CACHE_BYTES; past
     * that, new paths take the frame-by-frame way. */
    fs_strmap stacks; /* path bytes -> node */
    size_t stack_bytes_used;
    uint64_t stack_hits, stack_misses;
    int stack_off; /* the cache did not pay (mostly distinct stacks) and was dropped */
} fs_tree;

#define FS_TREE_HASH_AT 4
#define FS_STACK_CACHE_BYTES ((size_t)32 << 20)
/* After this many bytes cached, the cache must have been hit at least once per miss. */
#define FS_STACK_CACHE_TRIAL ((size_t)4 << 20)

foldsvg_status fs_tree_init(fs_tree *t);
void fs_tree_free(fs_tree *t);

/* Interns NAME[0..n). FOLDSVG_E_NOMEM or FOLDSVG_E_LIMIT (2^32-1 names). */
foldsvg_status fs_tree_intern(fs_tree *t, const char *name, size_t n, uint32_t *id);
/* The child of PARENT named NAME, created when absent. */
foldsvg_status fs_tree_child(fs_tree *t, uint32_t parent, uint32_t name, uint32_t *child);
/* The child of PARENT named NAME, or FS_NONE. */
uint32_t fs_tree_find_child(const fs_tree *t, uint32_t parent, const char *name, size_t n);

/* Adds COUNT to the stack given as frames (root excluded: FRAMES[0] is the outermost
 * function). BEFORE/IS_DIFF: the first count of a differential line. *LEAF gets the node
 * (may be NULL). Checks 64-bit overflow of the stack's and the total's sums. */
foldsvg_status fs_tree_add_frames(fs_tree *t, const fs_strref *frames, size_t n, uint64_t count,
                                  uint64_t before, int is_diff, uint32_t *leaf);
/* COUNT more for the stack ending at NODE (a leaf fs_tree_add_frames gave), as adding its
 * frames again would. FOLDSVG_E_OVERFLOW past 2^64 - 1 in all. */
foldsvg_status fs_tree_add_count(fs_tree *t, uint32_t node, uint64_t count);
/* The same for a folded path "a;b;c" (split on ';'); uses the sorted-input fast path. */
foldsvg_status fs_tree_add_path(fs_tree *t, const char *path, size_t len, uint64_t count,
                                uint64_t before, int is_diff, uint32_t *leaf);

/* The name of a node. */
static inline fs_strref fs_tree_name(const fs_tree *t, uint32_t node)
{
    uint32_t id = t->nodes[node].name;
    fs_strref r = {t->name_ptr[id], t->name_len[id]};
    return r;
}

/* SUB[node]: the summed counts of the stacks that end in the node's subtree (NNODES entries,
 * filled here; the root's is the total). COUNTS as for fs_tree_function_sums. */
void fs_tree_subtree_sums(const fs_tree *t, const uint64_t *counts, uint64_t *sub);

/* Self and inclusive time per interned name (SELF[name], INCL[name], NNAMES entries each,
 * filled here): self, the counts of the stacks that end in a frame of that name; inclusive,
 * of the stacks that hold the name anywhere, each stack once however often the name recurs
 * in it. COUNTS is one count per node: NULL takes the nodes' own, a differential tree's
 * BEFORE (t->before) the first counts. FOLDSVG_E_NOMEM. */
foldsvg_status fs_tree_function_sums(const fs_tree *t, const uint64_t *counts, uint64_t *self,
                                     uint64_t *incl);

/* Walks the stacks in the byte order of their folded paths. PATH[0] is the root and
 * PATH[n-1] the stack's own node. A non-zero return from FN stops the walk and is
 * returned. */
typedef int (*fs_tree_walk_fn)(void *user, const uint32_t *path, size_t n);
int fs_tree_walk_sorted(const fs_tree *t, fs_tree_walk_fn fn, void *user, foldsvg_status *st);

#endif
