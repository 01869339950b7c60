/* The streaming merge of sorted input must give exactly the frames of the tree merge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/tree.h"
#include "frames/merge.h"
#include "frames/stream.h"
#include "testutil.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int drawn(const fs_frame *f, double minwidth, uint64_t total)
{
    return !((double)(f->end - f->start) < minwidth / (100.0 / (double)total));
}

/* Random stacks over a small vocabulary (so prefixes are shared and names like "f1" and
 * "f1:x" interleave in byte order), sorted, merged both ways. */
static void check_equal(unsigned seed, size_t nstacks, double minwidth)
{
    srand(seed);
    static const char *const vocab[] = {"f1", "f1:x", "f10", "g", "g;", "h", "a b", "f"};
    char **stacks = calloc(nstacks, sizeof *stacks);
    uint64_t *counts = calloc(nstacks, sizeof *counts);
    for (size_t i = 0; i < nstacks; i++) {
        char buf[512] = "";
        int depth = 1 + rand() % 12;
        for (int d = 0; d < depth; d++) {
            const char *w = vocab[rand() % 8];
            if (strcmp(w, "g;") == 0)
                w = "g"; /* ';' would split: keep it a name */
            if (d)
                strcat(buf, ";");
            strcat(buf, w);
        }
        stacks[i] = strdup(buf);
    }
    qsort(stacks, nstacks, sizeof *stacks, cmp_str);
    fs_tree t;
    fs_stream s;
    ck_assert_int_eq(fs_tree_init(&t), FOLDSVG_OK);
    ck_assert_int_eq(fs_stream_init(&s, minwidth), FOLDSVG_OK);
    for (size_t i = 0; i < nstacks; i++) {
        counts[i] = (uint64_t)(1 + rand() % 50);
        uint64_t before = (uint64_t)(rand() % 60);
        int diff = rand() % 3 == 0;
        ck_assert_int_eq(
            fs_tree_add_path(&t, stacks[i], strlen(stacks[i]), counts[i], before, diff, NULL),
            FOLDSVG_OK);
        int ooo;
        ck_assert_int_eq(
            fs_stream_add(&s, stacks[i], strlen(stacks[i]), counts[i], before, diff, &ooo),
            FOLDSVG_OK);
        ck_assert_int_eq(ooo, 0);
    }
    ck_assert_int_eq(fs_stream_finish(&s), FOLDSVG_OK);
    ck_assert_uint_eq(s.t, t.total);
    ck_assert_uint_eq(s.unique, t.unique);
    fs_test_frames tree = {0};
    foldsvg_status st;
    ck_assert_int_eq(fs_generate_frames(&t, NULL, fs_test_collect_frame, &tree, &st), 0);
    size_t j = 0;
    for (size_t i = 0; i < tree.n; i++) {
        const fs_frame *a = &tree.f[i];
        if (!drawn(a, minwidth, t.total))
            continue;
        while (j < s.nkept && !drawn(&s.kept[j], minwidth, s.t))
            j++;
        ck_assert_msg(j < s.nkept, "stream lost frame %zu", i);
        const fs_frame *b = &s.kept[j++];
        ck_assert_uint_eq(a->depth, b->depth);
        ck_assert_uint_eq(a->start, b->start);
        ck_assert_uint_eq(a->end, b->end);
        ck_assert_int_eq(a->has_delta, b->has_delta);
        ck_assert_int_eq(a->delta, b->delta);
        ck_assert_str_eq(t.name_ptr[a->name], s.names.name_ptr[b->name]);
    }
    while (j < s.nkept)
        ck_assert(!drawn(&s.kept[j++], minwidth, s.t));
    free(tree.f);
    for (size_t i = 0; i < nstacks; i++)
        free(stacks[i]);
    free(stacks);
    free(counts);
    fs_stream_free(&s);
    fs_tree_free(&t);
}

START_TEST(same_frames_as_the_tree)
{
    for (unsigned seed = 1; seed <= 20; seed++)
        check_equal(seed, 300, 0.0);
}
END_TEST

START_TEST(same_drawn_frames_when_pruning)
{
    for (unsigned seed = 1; seed <= 10; seed++)
        check_equal(seed, 3000, 0.5);
    check_equal(99, 200000, 0.01); /* enough frames to compact the kept list */
}
END_TEST

/* A stack cut short one byte past where it first differs from both of its neighbours, when
 * its count is below fs_stream_cut_below (what the sorter hands over), draws the same frames
 * as the whole stack: its own frames are too narrow to draw. Each stack is a copy of its own,
 * so that ASan sees any read past a cut. */
START_TEST(cut_stacks_change_nothing)
{
    static const char *const vocab[] = {"f1", "f1:x", "f10", "g", "h", "a b", "f"};
    enum { N = 4000 };
    char **stacks = calloc(N, sizeof *stacks);
    ck_assert_ptr_nonnull(stacks);
    srand(5);
    for (size_t i = 0; i < N; i++) {
        char buf[512] = "";
        for (int d = 0, depth = 1 + rand() % 12; d < depth; d++) {
            if (d)
                strcat(buf, ";");
            strcat(buf, vocab[rand() % 7]);
        }
        stacks[i] = strdup(buf);
    }
    qsort(stacks, N, sizeof *stacks, cmp_str);
    fs_stream s[2];
    size_t cuts = 0;
    for (int cut = 0; cut < 2; cut++) {
        ck_assert_int_eq(fs_stream_init(&s[cut], 0.5), FOLDSVG_OK);
        uint64_t total = 0;
        for (size_t i = 0; i < N; i++)
            total += 1 + i % 7;
        s[cut].final_total = total;
        ck_assert_uint_gt(fs_stream_cut_below(&s[cut]), 7);
        for (size_t i = 0; i < N; i++) {
            size_t len = strlen(stacks[i]), keep = len;
            if (cut && i > 0 && i + 1 < N) {
                size_t share = 0;
                for (int k = -1; k <= 1; k += 2) {
                    const char *o = stacks[(size_t)((long)i + k)];
                    size_t m = 0;
                    while (o[m] && stacks[i][m] && o[m] == stacks[i][m])
                        m++;
                    if (m > share)
                        share = m;
                }
                if (share + 1 < len) {
                    keep = share + 1;
                    cuts++;
                }
            }
            char *bytes = malloc(keep);
            memcpy(bytes, stacks[i], keep);
            int ooo;
            ck_assert_int_eq(fs_stream_add(&s[cut], bytes, keep, 1 + i % 7, 0, 0, &ooo),
                             FOLDSVG_OK);
            ck_assert_int_eq(ooo, 0);
            free(bytes);
        }
        ck_assert_int_eq(fs_stream_finish(&s[cut]), FOLDSVG_OK);
    }
    ck_assert_uint_gt(cuts, N / 10);
    ck_assert_uint_eq(s[1].nkept, s[0].nkept);
    for (size_t i = 0; i < s[0].nkept; i++) {
        const fs_frame *a = &s[0].kept[i], *b = &s[1].kept[i];
        ck_assert_uint_eq(a->depth, b->depth);
        ck_assert_uint_eq(a->start, b->start);
        ck_assert_uint_eq(a->end, b->end);
        ck_assert_str_eq(s[0].names.name_ptr[a->name], s[1].names.name_ptr[b->name]);
    }
    for (int cut = 0; cut < 2; cut++)
        fs_stream_free(&s[cut]);
    for (size_t i = 0; i < N; i++)
        free(stacks[i]);
    free(stacks);
}
END_TEST

/* A frame pruned at a compaction never has its name interned: the names table holds the
 * drawn frames' names (and those kept since the last compaction), not every name seen. */
START_TEST(pruned_names_are_not_interned)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 0.001), FOLDSVG_OK);
    int ooo;
    char name[32];
    /* each wide enough when it closes (1 of at most 65,536), so kept: as many as make the
     * kept list compact at the next frame closed */
    for (unsigned i = 0; i < 65536; i++) {
        snprintf(name, sizeof name, "n%06u", i);
        ck_assert_int_eq(fs_stream_add(&s, name, strlen(name), 1, 0, 0, &ooo), FOLDSVG_OK);
        ck_assert_int_eq(ooo, 0);
    }
    /* y makes them narrow; closing it compacts */
    ck_assert_int_eq(fs_stream_add(&s, "y", 1, 1000000000, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(fs_stream_add(&s, "z", 1, 1, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(fs_stream_finish(&s), FOLDSVG_OK);
    ck_assert_uint_lt(fs_strmap_size(&s.names.names), 8);
    int found_y = 0;
    for (size_t i = 0; i < s.nkept; i++)
        found_y |= s.kept[i].depth == 1 && strcmp(s.names.name_ptr[s.kept[i].name], "y") == 0;
    ck_assert(found_y);
    fs_stream_free(&s);
}
END_TEST

/* Against a final total known in advance (the sorter's output) a kept frame stays kept:
 * its name goes to the table at once, and nothing waits for a compaction. */
START_TEST(known_total_names_at_once)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 0.1), FOLDSVG_OK);
    s.final_total = 100;
    int ooo;
    static const char *const stacks[] = {"a;b", "a;c", "b", "c;d;e"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_int_eq(fs_stream_add(&s, stacks[i], strlen(stacks[i]), 25, 0, 0, &ooo),
                         FOLDSVG_OK);
    ck_assert_uint_eq(s.pending.len, 0);
    ck_assert_uint_eq(s.interned, s.nkept);
    ck_assert_uint_gt(s.nkept, 0);
    ck_assert_int_eq(fs_stream_finish(&s), FOLDSVG_OK);
    ck_assert_uint_eq(s.nkept, 8); /* all, a, a;b, a;c, b, c, c;d, c;d;e */
    fs_stream_free(&s);
}
END_TEST

/* The end leaves out what the final total makes too narrow to draw, unnamed: a frame kept
 * while the total was small is not handed to the drawing (which would skip it). */
START_TEST(finish_drops_what_the_total_prunes)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 10.0), FOLDSVG_OK);
    int ooo;
    ck_assert_int_eq(fs_stream_add(&s, "a;x", 3, 1, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(fs_stream_add(&s, "b", 1, 1000, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(fs_stream_finish(&s), FOLDSVG_OK);
    ck_assert_uint_eq(s.nkept, 2); /* all, b */
    ck_assert_str_eq(s.names.name_ptr[s.kept[1].name], "b");
    ck_assert_uint_eq(fs_strmap_find(&s.names.names, "a", 1), FS_STRMAP_NONE);
    ck_assert_uint_eq(fs_strmap_find(&s.names.names, "x", 1), FS_STRMAP_NONE);
    fs_stream_free(&s);
}
END_TEST

/* A stack's own frames (past where it first differs from both neighbours) are as wide as its
 * count: below the least the prune rule keeps, they are never opened; the stack's depth
 * shows it once the stack after it came. */
START_TEST(own_frames_of_narrow_stacks_stay_unopened)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 10.0), FOLDSVG_OK);
    s.final_total = 1000; /* frames under 100 are not drawn */
    ck_assert_uint_eq(fs_stream_cut_below(&s), 100);
    s.final_total = 1001; /* 100.1: the least kept is 101 */
    ck_assert_uint_eq(fs_stream_cut_below(&s), 101);
    s.final_total = 1000;
    int ooo;
    ck_assert_int_eq(fs_stream_add(&s, "a;b;w", 5, 500, 0, 0, &ooo), FOLDSVG_OK);
    /* "a;b;x;y" shares "a;b;" with the one before it and the one after it: x and y are its */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;x;y", 7, 99, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(fs_stream_add(&s, "a;b;z;q", 7, 100, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.depth, 3); /* a;b;x;y taken: the root, a, b */
    ck_assert_int_eq(fs_stream_add(&s, "a;c", 3, 300, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.depth, 5); /* a;b;z;q wide enough: its own frames open */
    ck_assert_int_eq(fs_stream_finish(&s), FOLDSVG_OK);
    fs_stream_free(&s);
}
END_TEST

START_TEST(unsorted_input_is_reported)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 0.01), FOLDSVG_OK);
    int ooo;
    ck_assert_int_eq(fs_stream_add(&s, "b;a", 3, 1, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(ooo, 0);
    ck_assert_int_eq(fs_stream_add(&s, "a", 1, 1, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(ooo, 1);
    ck_assert_int_eq(fs_stream_add(&s, "b", 1, 1, 0, 0, &ooo), FOLDSVG_OK); /* prefix: before */
    ck_assert_int_eq(ooo, 1);
    ck_assert_int_eq(fs_stream_add(&s, "b;a", 3, 2, 0, 0, &ooo), FOLDSVG_OK); /* equal: ok */
    ck_assert_int_eq(ooo, 0);
    ck_assert_int_eq(fs_stream_add(&s, "b;b", 3, UINT64_MAX - 2, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.t, 3); /* b;a taken */
    ck_assert_uint_eq(s.unique, 1);
    /* the total passes 2^64 - 1 when b;b is taken */
    ck_assert_int_eq(fs_stream_finish(&s), FOLDSVG_E_OVERFLOW);
    fs_stream_free(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, same_frames_as_the_tree);
    tcase_add_test(tc, same_drawn_frames_when_pruning);
    tcase_add_test(tc, unsorted_input_is_reported);
    tcase_add_test(tc, pruned_names_are_not_interned);
    tcase_add_test(tc, cut_stacks_change_nothing);
    tcase_add_test(tc, known_total_names_at_once);
    tcase_add_test(tc, finish_drops_what_the_total_prunes);
    tcase_add_test(tc, own_frames_of_narrow_stacks_stay_unopened);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
