/* The prefix tree and inferno's merge: frame order, adjacency-only merging, deltas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/tree.h"
#include "frames/merge.h"
#include "testutil.h"

typedef struct rec_ctx {
    char text[4096];
    const fs_tree *t;
} rec_ctx;

static void add(fs_tree *t, const char *path, uint64_t n)
{
    ck_assert_int_eq(fs_tree_add_path(t, path, strlen(path), n, 0, 0, NULL), FOLDSVG_OK);
}

static int on_frame(void *user, const fs_frame *f)
{
    rec_ctx *r = user;
    fs_strref n = fs_tree_name(r->t, f->node);
    size_t len = strlen(r->text);
    snprintf(r->text + len, sizeof r->text - len, "%.*s@%u[%llu,%llu)%s ", (int)n.len, n.ptr,
             f->depth, (unsigned long long)f->start, (unsigned long long)f->end,
             f->has_delta ? "d" : "");
    return 0;
}

static const char *frames_of(const fs_tree *t, const fs_order_log *log, rec_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    foldsvg_status st;
    ck_assert_int_eq(fs_generate_frames(t, log, on_frame, c, &st), 0);
    ck_assert_int_eq(st, FOLDSVG_OK);
    return c->text;
}

START_TEST(close_order)
{
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    add(&t, "a;c", 2);
    add(&t, "a;b", 1);
    rec_ctx c;
    /* sorted: a;b then a;c. b closes when c opens; at the end the root comes first. */
    ck_assert_str_eq(frames_of(&t, NULL, &c), "b@2[0,1) @0[0,3) a@1[0,3) c@2[1,3) ");
    ck_assert_uint_eq(t.total, 3);
    ck_assert_uint_eq(t.unique, 2);
    fs_tree_free(&t);
}
END_TEST

START_TEST(byte_order_splits_frames)
{
    /* ';' sorts after ':' so "a;b::x" comes between "a;b" and "a;b;c": two b frames. */
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    add(&t, "a;b;c", 1);
    add(&t, "a;b::x", 1);
    add(&t, "a;b", 1);
    rec_ctx c;
    ck_assert_str_eq(frames_of(&t, NULL, &c),
                     "b@2[0,1) b::x@2[1,2) @0[0,3) a@1[0,3) b@2[2,3) c@3[2,3) ");
    fs_tree_free(&t);
}
END_TEST

START_TEST(equal_stacks_sum)
{
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    add(&t, "x;y", 2);
    add(&t, "x", 1);
    add(&t, "x;y", 3);
    ck_assert_uint_eq(t.unique, 2);
    ck_assert_uint_eq(t.total, 6);
    rec_ctx c;
    ck_assert_str_eq(frames_of(&t, NULL, &c), "@0[0,6) x@1[0,6) y@2[1,6) ");
    fs_tree_free(&t);
}
END_TEST

START_TEST(flamechart_replays_reversed)
{
    fs_tree t;
    fs_order_log log = {0};
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    const char *lines[] = {"a;b", "a;c", "a;b"};
    for (int i = 0; i < 3; i++) {
        uint32_t leaf;
        ck_assert_int_eq(fs_tree_add_path(&t, lines[i], 3, 1, 0, 0, &leaf), FOLDSVG_OK);
        ck_assert_int_eq(fs_order_log_add(&log, leaf, 1, 0, 0), FOLDSVG_OK);
    }
    rec_ctx c;
    /* reverse input order: a;b, a;c, a;b -> three separate leaf frames */
    ck_assert_str_eq(frames_of(&t, &log, &c), "b@2[0,1) c@2[1,2) @0[0,3) a@1[0,3) b@2[2,3) ");
    fs_order_log_free(&log);
    fs_tree_free(&t);
}
END_TEST

START_TEST(differential_deltas)
{
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    ck_assert_int_eq(fs_tree_add_path(&t, "a;b", 3, 5, 8, 1, NULL), FOLDSVG_OK);
    rec_ctx c;
    /* every frame the line opens has a delta; only the leaf's is non-zero */
    ck_assert_str_eq(frames_of(&t, NULL, &c), "@0[0,5)d a@1[0,5)d b@2[0,5)d ");
    ck_assert_int_eq(fs_delta(5, 8), -3);
    ck_assert_int_eq(fs_delta(UINT64_MAX, 0), INT64_MAX);
    ck_assert_uint_eq(t.total_before, 8);
    fs_tree_free(&t);
}
END_TEST

START_TEST(overflow_is_an_error)
{
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    add(&t, "a", UINT64_MAX);
    ck_assert_int_eq(fs_tree_add_path(&t, "b", 1, 1, 0, 0, NULL), FOLDSVG_E_OVERFLOW);
    ck_assert_uint_eq(t.total, UINT64_MAX);
    fs_tree_free(&t);
}
END_TEST

START_TEST(deep_and_wide)
{
    /* 100k-deep stack and 50k siblings: no recursion, tables grow. */
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    size_t depth = 100000;
    char *path = malloc(depth * 8);
    size_t n = 0;
    for (size_t i = 0; i < depth; i++)
        n += (size_t)sprintf(path + n, "%sf%zu", i ? ";" : "", i % 7);
    ck_assert_int_eq(fs_tree_add_path(&t, path, n, 1, 0, 0, NULL), FOLDSVG_OK);
    for (int i = 0; i < 50000; i++) {
        char s[32];
        int len = sprintf(s, "root;s%d", i);
        ck_assert_int_eq(fs_tree_add_path(&t, s, (size_t)len, 1, 0, 0, NULL), FOLDSVG_OK);
    }
    ck_assert_uint_eq(t.unique, 50001);
    ck_assert_uint_eq(t.nnodes, 1 + depth + 1 + 50000);
    free(path);
    fs_tree_free(&t);
}
END_TEST

/* Children are found on the sibling list below FS_TREE_HASH_AT of them and in the table
 * from there on (aggregate/tree.h): parents with every count of children around that point,
 * their children added in turns and looked up again after the table has grown many times,
 * each found once (the same node) and never one under another parent. */
START_TEST(children_found_by_list_and_table)
{
    fs_tree t;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    enum { PARENTS = 3 * FS_TREE_HASH_AT, MAX_KIDS = 2 * PARENTS };
    uint32_t parent[PARENTS], kid[PARENTS][MAX_KIDS], names[MAX_KIDS];
    for (int k = 0; k < MAX_KIDS; k++) {
        char nm[16];
        int len = sprintf(nm, "k%d", k);
        ck_assert_int_eq(fs_tree_intern(&t, nm, (size_t)len, &names[k]), FOLDSVG_OK);
    }
    for (int p = 0; p < PARENTS; p++)
        ck_assert_int_eq(fs_tree_child(&t, 0, names[p], &parent[p]), FOLDSVG_OK);
    /* parent P gets P * 2 children (none to 22: below, at and past FS_TREE_HASH_AT), one
     * child of each parent a turn */
    for (int k = 0; k < MAX_KIDS; k++)
        for (int p = 0; p < PARENTS; p++)
            if (k < 2 * p)
                ck_assert_int_eq(fs_tree_child(&t, parent[p], names[k], &kid[p][k]), FOLDSVG_OK);
    uint32_t before = t.nnodes;
    /* each found where it was put, before the table has grown (growing it adds every
     * hashed child again) */
    for (int p = 0; p < PARENTS; p++)
        for (int k = 0; k < 2 * p; k++) {
            uint32_t again;
            ck_assert_int_eq(fs_tree_child(&t, parent[p], names[k], &again), FOLDSVG_OK);
            ck_assert_uint_eq(again, kid[p][k]);
        }
    ck_assert_uint_eq(t.nnodes, before);
    ck_assert_uint_eq(t.child_mask, 1023);
    /* many hashed children elsewhere: the table grows past its first size several times */
    uint32_t wide;
    ck_assert_int_eq(fs_tree_intern(&t, "wide", 4, &names[0]), FOLDSVG_OK);
    ck_assert_int_eq(fs_tree_child(&t, 0, names[0], &wide), FOLDSVG_OK);
    for (int i = 0; i < 5000; i++) {
        char nm[16];
        int len = sprintf(nm, "w%d", i);
        uint32_t id, c;
        ck_assert_int_eq(fs_tree_intern(&t, nm, (size_t)len, &id), FOLDSVG_OK);
        ck_assert_int_eq(fs_tree_child(&t, wide, id, &c), FOLDSVG_OK);
    }
    ck_assert_uint_gt(t.child_mask, 8 * 1024);
    ck_assert_uint_eq(t.nnodes, before + 1 + 5000);
    before = t.nnodes;
    for (int p = 0; p < PARENTS; p++) {
        for (int k = 0; k < MAX_KIDS; k++) {
            char nm[16];
            int len = sprintf(nm, "k%d", k);
            uint32_t found = fs_tree_find_child(&t, parent[p], nm, (size_t)len);
            if (k < 2 * p) {
                ck_assert_uint_eq(found, kid[p][k]);
                ck_assert_uint_eq(t.nodes[found].parent, parent[p]);
                uint32_t again;
                ck_assert_int_eq(fs_tree_intern(&t, nm, (size_t)len, &names[k]), FOLDSVG_OK);
                ck_assert_int_eq(fs_tree_child(&t, parent[p], names[k], &again), FOLDSVG_OK);
                ck_assert_uint_eq(again, kid[p][k]);
            } else {
                ck_assert_uint_eq(found, FS_NONE);
            }
        }
        ck_assert_uint_eq(fs_tree_find_child(&t, parent[p], "absent", 6), FS_NONE);
    }
    ck_assert_uint_eq(t.nnodes, before); /* nothing was added again */
    char nm[16];
    for (int i = 0; i < 5000; i += 499) {
        int len = sprintf(nm, "w%d", i);
        uint32_t found = fs_tree_find_child(&t, wide, nm, (size_t)len);
        ck_assert_uint_ne(found, FS_NONE);
        ck_assert_uint_eq(t.nodes[found].parent, wide);
        ck_assert_uint_eq(fs_tree_find_child(&t, parent[3], nm, (size_t)len), FS_NONE);
    }
    fs_tree_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("merge");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, close_order);
    tcase_add_test(tc, byte_order_splits_frames);
    tcase_add_test(tc, equal_stacks_sum);
    tcase_add_test(tc, flamechart_replays_reversed);
    tcase_add_test(tc, differential_deltas);
    tcase_add_test(tc, overflow_is_an_error);
    tcase_add_test(tc, deep_and_wide);
    tcase_add_test(tc, children_found_by_list_and_table);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
