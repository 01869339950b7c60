#include "aggregate/tree.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"

static foldsvg_status nomem(void)
{
    return FOLDSVG_E_NOMEM;
}

static uint32_t *new_slots(size_t n)
{
    return calloc(n, sizeof(uint32_t));
}

foldsvg_status fs_tree_init(fs_tree *t)
{
    memset(t, 0, sizeof *t);
    fs_strmap_init(&t->names, FS_STRMAP_OWNED);
    fs_strmap_init(&t->stacks, FS_STRMAP_OWNED);
    t->child_mask = 1023;
    t->child_slots = new_slots(t->child_mask + 1);
    if (!t->child_slots) {
        fs_tree_free(t);
        return nomem();
    }
    uint32_t root_name;
    if (fs_tree_intern(t, "", 0, &root_name) != FOLDSVG_OK) {
        fs_tree_free(t);
        return nomem();
    }
    t->nodes_cap = 1024;
    t->nodes = malloc(t->nodes_cap * sizeof *t->nodes);
    t->nchild = malloc(t->nodes_cap);
    if (!t->nodes || !t->nchild) {
        fs_tree_free(t);
        return nomem();
    }
    t->nodes[0] = (fs_node){FS_NONE, root_name, FS_NONE, FS_NONE, 0};
    t->nchild[0] = 0;
    t->nnodes = 1;
    return FOLDSVG_OK;
}

void fs_tree_free(fs_tree *t)
{
    fs_strmap_free(&t->names);
    free(t->nodes);
    free(t->nchild);
    free(t->child_slots);
    free(t->before);
    free(t->is_diff);
    free(t->last_nodes);
    fs_strmap_free(&t->stacks);
    memset(t, 0, sizeof *t);
}

foldsvg_status fs_tree_intern(fs_tree *t, const char *name, size_t n, uint32_t *id)
{
    int added;
    foldsvg_status st = fs_strmap_put(&t->names, name, n, 0, id, &added);
    if (st)
        return st;
    if (added) {
        /* The map's arrays may have moved. */
        t->name_ptr = fs_strmap_key_array(&t->names);
        t->name_len = fs_strmap_len_array(&t->names);
        t->nnames = fs_strmap_size(&t->names);
    }
    return FOLDSVG_OK;
}

static inline uint64_t child_hash(uint32_t parent, uint32_t name)
{
    return fs_mix64(((uint64_t)parent << 32) | name);
}

static int hashed(const fs_tree *t, uint32_t parent)
{
    return t->nchild[parent] >= FS_TREE_HASH_AT;
}

/* The slot of child NAME of PARENT, or the empty slot where it would go. */
static size_t child_slot(const fs_tree *t, uint32_t parent, uint32_t name)
{
    size_t i = child_hash(parent, name) & t->child_mask;
    for (uint32_t s; (s = t->child_slots[i]) != 0; i = (i + 1) & t->child_mask) {
        const fs_node *n = &t->nodes[s - 1];
        if (n->parent == parent && n->name == name)
            break;
    }
    return i;
}

static uint32_t listed_child(const fs_tree *t, uint32_t parent, uint32_t name)
{
    for (uint32_t c = t->nodes[parent].first_child; c != FS_NONE; c = t->nodes[c].next_sibling)
        if (t->nodes[c].name == name)
            return c;
    return FS_NONE;
}

static void slot_add(uint32_t *slots, size_t mask, const fs_node *nodes, uint32_t id)
{
    size_t i = child_hash(nodes[id].parent, nodes[id].name) & mask;
    while (slots[i])
        i = (i + 1) & mask;
    slots[i] = id + 1;
}

/* The table's own entries move, not every node's: the table is a fraction of the tree, and
 * doubling it stays linear in its entries. */
static foldsvg_status grow_child_table(fs_tree *t)
{
    size_t cap = (t->child_mask + 1) * 2;
    uint32_t *slots = new_slots(cap);
    if (!slots)
        return FOLDSVG_E_NOMEM;
    for (size_t i = 0; i <= t->child_mask; i++)
        if (t->child_slots[i])
            slot_add(slots, cap - 1, t->nodes, t->child_slots[i] - 1);
    free(t->child_slots);
    t->child_slots = slots;
    t->child_mask = cap - 1;
    return FOLDSVG_OK;
}

static foldsvg_status grow_nodes(fs_tree *t)
{
    if (t->nodes_cap >= UINT32_MAX / 2)
        return FOLDSVG_E_NOMEM;
    size_t old = t->nodes_cap, cap = old * 2;
    FS_FORWARD_IF_ERROR(fs_resize(&t->nodes, cap, sizeof *t->nodes));
    FS_FORWARD_IF_ERROR(fs_resize(&t->nchild, cap, 1));
    if (t->before) {
        FS_FORWARD_IF_ERROR(fs_resize(&t->before, cap, sizeof *t->before));
        memset(t->before + old, 0, (cap - old) * sizeof *t->before);
        FS_FORWARD_IF_ERROR(fs_resize(&t->is_diff, cap, 1));
        memset(t->is_diff + old, 0, cap - old);
    }
    t->nodes_cap = (uint32_t)cap;
    return FOLDSVG_OK;
}

foldsvg_status fs_tree_child(fs_tree *t, uint32_t parent, uint32_t name, uint32_t *child)
{
    int in_table = hashed(t, parent);
    size_t slot = 0;
    if (in_table) {
        slot = child_slot(t, parent, name);
        if (t->child_slots[slot]) {
            *child = t->child_slots[slot] - 1;
            return FOLDSVG_OK;
        }
    } else {
        uint32_t c = listed_child(t, parent, name);
        if (c != FS_NONE) {
            *child = c;
            return FOLDSVG_OK;
        }
    }
    if (t->nnodes == UINT32_MAX - 1)
        return FOLDSVG_E_LIMIT;
    if (t->nnodes == t->nodes_cap)
        FS_FORWARD_IF_ERROR(grow_nodes(t));
    uint32_t id = t->nnodes++;
    fs_node *p = &t->nodes[parent];
    t->nodes[id] = (fs_node){parent, name, FS_NONE, p->first_child, 0};
    t->nchild[id] = 0;
    p->first_child = id;
    *child = id;
    if (in_table) {
        t->child_slots[slot] = id + 1;
        t->nhashed++;
    } else if (++t->nchild[parent] == FS_TREE_HASH_AT) {
        /* from now on its children are looked up in the table: all of them go there */
        for (uint32_t c = p->first_child; c != FS_NONE; c = t->nodes[c].next_sibling)
            slot_add(t->child_slots, t->child_mask, t->nodes, c);
        t->nhashed += FS_TREE_HASH_AT;
    }
    if (t->nhashed * 2 > t->child_mask)
        return grow_child_table(t);
    return FOLDSVG_OK;
}

uint32_t fs_tree_find_child(const fs_tree *t, uint32_t parent, const char *name, size_t n)
{
    uint32_t id = fs_strmap_find(&t->names, name, n);
    if (id == FS_STRMAP_NONE)
        return FS_NONE;
    if (!hashed(t, parent))
        return listed_child(t, parent, id);
    uint32_t s = t->child_slots[child_slot(t, parent, id)];
    return s ? s - 1 : FS_NONE;
}

static foldsvg_status add_count(fs_tree *t, uint32_t node, uint64_t count, uint64_t before,
                                int is_diff)
{
    fs_node *n = &t->nodes[node];
    if (count > UINT64_MAX - t->total)
        return FOLDSVG_E_OVERFLOW;
    if (is_diff) {
        if (!t->before) {
            t->before = calloc(t->nodes_cap, sizeof *t->before);
            t->is_diff = calloc(t->nodes_cap, 1);
            if (!t->before || !t->is_diff)
                return nomem();
        }
        if (before > UINT64_MAX - t->total_before)
            return FOLDSVG_E_OVERFLOW;
        t->total_before += before;
        t->before[node] += before;
        t->has_diff = 1;
    }
    int was_counted = n->count > 0 || (t->is_diff && t->is_diff[node]);
    t->total += count;
    n->count += count;
    if (is_diff)
        t->is_diff[node] = 1;
    if (!was_counted && (n->count > 0 || is_diff))
        t->unique++;
    return FOLDSVG_OK;
}

foldsvg_status fs_tree_add_count(fs_tree *t, uint32_t node, uint64_t count)
{
    return add_count(t, node, count, 0, 0);
}

/* The node for frame F[0..flen) at DEPTH below *NODE (the stack's frames before it): while
 * *SAME, the previous stack's node at that depth when it has that name (last_nodes holds the
 * path of a stack added before, root first: matching names from the root on follow it),
 * without hashing; else looked up, or made, and remembered in last_nodes. */
static foldsvg_status path_step(fs_tree *t, uint32_t *node, size_t depth, int *same, const char *f,
                                size_t flen)
{
    if (*same && depth < t->last_depth) {
        uint32_t cand = t->last_nodes[depth];
        uint32_t nid = t->nodes[cand].name;
        if (t->name_len[nid] == flen && memcmp(t->name_ptr[nid], f, flen) == 0) {
            *node = cand;
            return FOLDSVG_OK;
        }
    }
    *same = 0;
    uint32_t name, next;
    FS_FORWARD_IF_ERROR(fs_tree_intern(t, f, flen, &name));
    FS_FORWARD_IF_ERROR(fs_tree_child(t, *node, name, &next));
    FS_FORWARD_IF_ERROR(FS_GROW(t->last_nodes, t->last_cap, depth + 1, 64));
    t->last_nodes[depth] = next;
    *node = next;
    return FOLDSVG_OK;
}

foldsvg_status fs_tree_add_frames(fs_tree *t, const fs_strref *frames, size_t n, uint64_t count,
                                  uint64_t before, int is_diff, uint32_t *leaf)
{
    /* consecutive samples of a profile in order (--flamechart) share most of their frames */
    uint32_t node = 0;
    int same = 1;
    for (size_t i = 0; i < n; i++)
        FS_FORWARD_IF_ERROR(path_step(t, &node, i, &same, frames[i].ptr, frames[i].len));
    t->last_depth = n;
    if (leaf)
        *leaf = node;
    return add_count(t, node, count, before, is_diff);
}

static foldsvg_status fs_tree_add_path_frames(fs_tree *t, const char *path, size_t len,
                                              uint64_t count, uint64_t before, int is_diff,
                                              uint32_t *leaf);

static uint32_t stack_lookup(const fs_tree *t, uint64_t h, const char *path, size_t len)
{
    uint32_t i = fs_strmap_find_hashed(&t->stacks, path, len, h);
    return i == FS_STRMAP_NONE ? FS_NONE : fs_strmap_value(&t->stacks, i);
}

static void stack_drop(fs_tree *t)
{
    fs_strmap_free(&t->stacks);
    t->stack_bytes_used = 0;
    t->stack_off = 1;
}

/* Remembers PATH -> NODE while the cache has room; failing to remember is not an error. */
static void stack_remember(fs_tree *t, uint64_t h, const char *path, size_t len, uint32_t node)
{
    if (t->stack_off || len > UINT32_MAX || t->stack_bytes_used + len > FS_STACK_CACHE_BYTES)
        return;
    if (t->stack_bytes_used >= FS_STACK_CACHE_TRIAL && t->stack_hits < t->stack_misses) {
        stack_drop(t);
        return;
    }
    uint32_t i;
    if (fs_strmap_put_hashed(&t->stacks, path, len, h, node, &i, NULL) == FOLDSVG_OK)
        t->stack_bytes_used += len + 1;
}

foldsvg_status fs_tree_add_path(fs_tree *t, const char *path, size_t len, uint64_t count,
                                uint64_t before, int is_diff, uint32_t *leaf)
{
    uint64_t h = t->stack_off ? 0 : fs_strmap_hash(path, len);
    uint32_t known = t->stack_off ? FS_NONE : stack_lookup(t, h, path, len);
    if (known != FS_NONE) {
        t->stack_hits++;
        if (leaf)
            *leaf = known;
        return add_count(t, known, count, before, is_diff);
    }
    t->stack_misses++;
    foldsvg_status st = fs_tree_add_path_frames(t, path, len, count, before, is_diff, &known);
    if (st == FOLDSVG_OK)
        stack_remember(t, h, path, len, known);
    if (leaf)
        *leaf = known;
    return st;
}

/* Frame by frame, reusing the previous path's nodes while the frames agree. */
static foldsvg_status fs_tree_add_path_frames(fs_tree *t, const char *path, size_t len,
                                              uint64_t count, uint64_t before, int is_diff,
                                              uint32_t *leaf)
{
    uint32_t node = 0;
    size_t depth = 0;
    int same = 1;
    size_t pos = 0;
    for (;;) {
        const char *f = path + pos;
        const char *semi = memchr(f, ';', len - pos);
        size_t flen = semi ? (size_t)(semi - f) : len - pos;
        FS_FORWARD_IF_ERROR(path_step(t, &node, depth, &same, f, flen));
        depth++;
        if (!semi)
            break;
        pos += flen + 1;
    }
    t->last_depth = depth;
    if (leaf)
        *leaf = node;
    return add_count(t, node, count, before, is_diff);
}

/* One sibling as seen by the byte order of folded paths: the stack ending at NODE sorts
 * by its name; the stacks below NODE sort by its name followed by ';'. */
typedef struct walk_entry {
    const char *name;
    uint32_t len;
    uint32_t node;
    int subtree;
} walk_entry;

static int entry_cmp(const void *pa, const void *pb)
{
    const walk_entry *a = pa, *b = pb;
    size_t m = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, m);
    if (c)
        return c;
    /* One name is a prefix of the other: the next byte of the shorter side is ';' for a
     * subtree entry and "end of string" (smallest) for a stack entry. */
    if (a->len == b->len)
        return a->subtree - b->subtree;
    if (a->len < b->len) {
        if (!a->subtree)
            return -1;
        return (unsigned char)';' < (unsigned char)b->name[m] ? -1 : 1;
    }
    if (!b->subtree)
        return 1;
    return (unsigned char)a->name[m] < (unsigned char)';' ? -1 : 1;
}

typedef struct walk_frame {
    size_t base, count, next;
} walk_frame;

static foldsvg_status grow_walk(walk_frame **frames, uint32_t **path, size_t *cap)
{
    size_t ncap = fs_grow_cap(*cap, *cap + 1, 64, sizeof **frames);
    if (!ncap || fs_resize(frames, ncap, sizeof **frames) != FOLDSVG_OK ||
        fs_resize(path, ncap, sizeof **path) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    *cap = ncap;
    return FOLDSVG_OK;
}

static int node_has_stack(const fs_tree *t, uint32_t n)
{
    return t->nodes[n].count > 0 || (t->is_diff && t->is_diff[n]);
}

int fs_tree_walk_sorted(const fs_tree *t, fs_tree_walk_fn fn, void *user, foldsvg_status *st)
{
    walk_entry *ents = NULL;
    size_t nents = 0, ents_cap = 0;
    walk_frame *frames = NULL;
    uint32_t *path = NULL;
    size_t depth = 0, cap = 0;
    int rc = 0;
    *st = FOLDSVG_OK;

    uint32_t node = 0;
    for (;;) {
        /* Enter NODE: push it and its sorted entries. */
        if (depth == cap && grow_walk(&frames, &path, &cap) != 0) {
            *st = FOLDSVG_E_NOMEM;
            rc = -1;
            goto out;
        }
        path[depth] = node;
        size_t base = nents;
        for (uint32_t c = t->nodes[node].first_child; c != FS_NONE; c = t->nodes[c].next_sibling) {
            if (FS_GROW(ents, ents_cap, nents + 2, 256) != FOLDSVG_OK) {
                *st = FOLDSVG_E_NOMEM;
                rc = -1;
                goto out;
            }
            fs_strref name = fs_tree_name(t, c);
            if (node_has_stack(t, c))
                ents[nents++] = (walk_entry){name.ptr, (uint32_t)name.len, c, 0};
            if (t->nodes[c].first_child != FS_NONE)
                ents[nents++] = (walk_entry){name.ptr, (uint32_t)name.len, c, 1};
        }
        /* An empty tree has no entries: ents is still NULL, and NULL + 0 is undefined. */
        if (nents > base)
            qsort(ents + base, nents - base, sizeof *ents, entry_cmp);
        frames[depth] = (walk_frame){base, nents - base, 0};
        depth++;

        /* Advance to the next subtree to enter, reporting stacks on the way. */
        node = FS_NONE;
        while (depth > 0 && node == FS_NONE) {
            walk_frame *f = &frames[depth - 1];
            if (f->next == f->count) {
                nents = f->base;
                depth--;
                continue;
            }
            walk_entry e = ents[f->base + f->next++];
            if (e.subtree) {
                node = e.node;
            } else {
                if (depth == cap && grow_walk(&frames, &path, &cap) != 0) {
                    *st = FOLDSVG_E_NOMEM;
                    rc = -1;
                    goto out;
                }
                path[depth] = e.node;
                rc = fn(user, path, depth + 1);
                if (rc)
                    goto out;
            }
        }
        if (node == FS_NONE)
            break;
    }
out:
    free(ents);
    free(frames);
    free(path);
    return rc;
}

void fs_tree_subtree_sums(const fs_tree *t, const uint64_t *counts, uint64_t *sub)
{
    memset(sub, 0, (size_t)(t->nnodes ? t->nnodes : 1) * sizeof *sub);
    /* A node is always created after its parent, so one backward pass sums every subtree;
     * no sum can pass the total, which the tree keeps below 2^64. */
    for (uint32_t i = t->nnodes; i-- > 1;) {
        const fs_node *nd = &t->nodes[i];
        sub[i] += counts ? counts[i] : nd->count;
        sub[nd->parent] += sub[i];
    }
}

foldsvg_status fs_tree_function_sums(const fs_tree *t, const uint64_t *counts, uint64_t *self,
                                     uint64_t *incl)
{
    uint32_t nn = t->nnodes, nnames = t->nnames;
    memset(self, 0, (size_t)nnames * sizeof *self);
    memset(incl, 0, (size_t)nnames * sizeof *incl);
    uint64_t *sub = calloc(nn ? nn : 1, sizeof *sub);
    uint32_t *onpath = calloc(nnames ? nnames : 1, sizeof *onpath);
    if (!sub || !onpath) {
        free(sub);
        free(onpath);
        return FOLDSVG_E_NOMEM;
    }
    fs_tree_subtree_sums(t, counts, sub);
    for (uint32_t i = 1; i < nn; i++)
        self[t->nodes[i].name] += counts ? counts[i] : t->nodes[i].count;
    /* A function's inclusive time is the sum of the subtrees where it is outermost, which
     * counts each stack once however often the name recurs in it. ONPATH says how often a
     * name sits on the current path of an iterative depth-first walk. */
    uint32_t n = nn > 1 ? t->nodes[0].first_child : FS_NONE;
    while (n != FS_NONE) {
        uint32_t name = t->nodes[n].name;
        if (onpath[name]++ == 0)
            incl[name] += sub[n];
        if (t->nodes[n].first_child != FS_NONE && sub[n] != 0) {
            n = t->nodes[n].first_child;
            continue;
        }
        for (;;) {
            onpath[t->nodes[n].name]--;
            if (t->nodes[n].next_sibling != FS_NONE) {
                n = t->nodes[n].next_sibling;
                break;
            }
            n = t->nodes[n].parent;
            if (n == 0) {
                n = FS_NONE;
                break;
            }
        }
    }
    free(sub);
    free(onpath);
    return FOLDSVG_OK;
}
