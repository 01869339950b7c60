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

/* What a reader thread may give with a line (its share with the line before, the ';' from
 * there on, or only the share: formats/folded/ahead.c leaves the ';' to the merging thread when
 * it is the one behind) changes no frame; nor does giving only the bytes past the share (the
 * sorter's merge thread, fs_stream_add_from), with the ';' or without, or past part of it,
 * the share known or not. Those bytes are a copy of their own, so that ASan sees any read
 * before them. */
START_TEST(split_hints_change_nothing)
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
    enum { MODES = 7 };
    fs_stream s[MODES];
    uint32_t semis[512];
    for (int mode = 0; mode < MODES; mode++) {
        ck_assert_int_eq(fs_stream_init(&s[mode], 0.1), FOLDSVG_OK);
        for (size_t i = 0; i < N; i++) {
            size_t len = strlen(stacks[i]), shared = SIZE_MAX, nsemis = 0, from = 0;
            if (i > 0 && mode > 0) {
                size_t plen = strlen(stacks[i - 1]), m = len < plen ? len : plen;
                for (shared = 0; shared < m && stacks[i][shared] == stacks[i - 1][shared];)
                    shared++;
                from = shared;
            }
            for (size_t j = from; j < len; j++)
                if (stacks[i][j] == ';')
                    semis[nsemis++] = (uint32_t)j;
            int ooo;
            if (mode < 3) {
                ck_assert_int_eq(fs_stream_add_split(&s[mode], stacks[i], len,
                                                     mode == 2 ? NULL : semis, nsemis, shared,
                                                     1 + i % 7, 0, 0, &ooo),
                                 FOLDSVG_OK);
            } else {
                /* 3: the ';' given, 4: found, 5: from half the share, 6: the share unknown */
                size_t at = i == 0 ? 0 : mode == 5 || mode == 6 ? shared / 2 : shared;
                char *bytes = malloc(len - at + 1);
                memcpy(bytes, stacks[i] + at, len - at);
                ck_assert_int_eq(
                    fs_stream_add_from(&s[mode], bytes, at, len, mode == 3 ? semis : NULL, nsemis,
                                       mode == 6 ? SIZE_MAX : shared, 1 + i % 7, 0, 0, &ooo),
                    FOLDSVG_OK);
                free(bytes);
            }
            ck_assert_int_eq(ooo, 0);
        }
        ck_assert_int_eq(fs_stream_finish(&s[mode]), FOLDSVG_OK);
    }
    for (int mode = 1; mode < MODES; mode++) {
        ck_assert_uint_eq(s[mode].nkept, s[0].nkept);
        for (size_t i = 0; i < s[0].nkept; i++) {
            const fs_frame *a = &s[0].kept[i], *b = &s[mode].kept[i];
            ck_assert_uint_eq(a->depth, b->depth);
            ck_assert_uint_eq(a->start, b->start);
            ck_assert_uint_eq(a->end, b->end);
            ck_assert_str_eq(s[0].names.name_ptr[a->name], s[mode].names.name_ptr[b->name]);
        }
    }
    for (int mode = 0; mode < MODES; mode++)
        fs_stream_free(&s[mode]);
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

/* Looking one stack ahead: a stack too narrow to draw opens none of its own frames (those
 * past both its shares), one wide enough opens them all; the count from which frames are
 * drawn is the least the prune rule keeps; a stack said to be cut short but wide enough is
 * refused. */
START_TEST(own_frames_of_narrow_stacks_stay_unopened)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 10.0), FOLDSVG_OK);
    s.final_total = 1000; /* frames under 100 are not drawn */
    uint64_t c = fs_stream_cut_below(&s);
    ck_assert_uint_eq(c, 100);
    s.final_total = 1001; /* 100.1: the least kept is 101 */
    ck_assert_uint_eq(fs_stream_cut_below(&s), 101);
    s.final_total = 1000;
    int ooo;
    /* "a;b;x;y" shares "a;b;" with the one before it and the one after it: x and y are its */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;w", 5, 500, 0, 0, &ooo), FOLDSVG_OK);
    fs_stream_next_shares(&s, 4, 0);
    ck_assert_int_eq(fs_stream_add(&s, "a;b;x;y", 7, 99, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.depth, 3);   /* the root, a, b */
    fs_stream_next_shares(&s, 4, 1); /* cut, and narrow: as above */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;y;", 6, 1, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.depth, 3);
    fs_stream_next_shares(&s, 4, 0); /* wide enough: its own frames open */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;z;q", 7, 100, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.depth, 5);
    fs_stream_next_shares(&s, 4, 1); /* cut, but wide enough: refused */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;zz;q", 8, 300, 0, 0, &ooo), FOLDSVG_E_ARG);
    fs_stream_free(&s);
}
END_TEST

/* A stack promised to share NEXT_SHARED bytes with the next one, and then followed by one
 * that shares more (the one promised was dropped on the way): the frames left unopened could
 * have stayed open for it, so it is out of order; one that shares no more is not. */
START_TEST(a_next_stack_sharing_more_than_said_is_out_of_order)
{
    fs_stream s;
    ck_assert_int_eq(fs_stream_init(&s, 10.0), FOLDSVG_OK);
    s.final_total = 1000;
    int ooo;
    ck_assert_int_eq(fs_stream_add(&s, "a;b;w", 5, 500, 0, 0, &ooo), FOLDSVG_OK);
    fs_stream_next_shares(&s, 4, 0); /* "a;b;" with a next "a;b;a", say */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;x", 5, 1, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_uint_eq(s.depth, 3); /* x left unopened */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;x;y", 7, 400, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(ooo, 1); /* x would have stayed open */
    ck_assert_int_eq(fs_stream_add(&s, "a;b;x", 5, 400, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(ooo, 1); /* so would the same stack again */
    ck_assert_uint_eq(s.t, 501);
    ck_assert_int_eq(fs_stream_add(&s, "a;c", 3, 400, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(ooo, 0); /* "a;" is less than promised */
    ck_assert_int_eq(fs_stream_add(&s, "a;c;d", 5, 10, 0, 0, &ooo), FOLDSVG_OK);
    ck_assert_int_eq(ooo, 0); /* no promise for this one */
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
    ck_assert_uint_eq(s.t, 1);
    ck_assert_int_eq(fs_stream_add(&s, "b;a", 3, 2, 0, 0, &ooo), FOLDSVG_OK); /* equal: ok */
    ck_assert_int_eq(ooo, 0);
    ck_assert_uint_eq(s.t, 3);
    ck_assert_uint_eq(s.unique, 1);
    ck_assert_int_eq(fs_stream_add(&s, "b;b", 3, UINT64_MAX, 0, 0, &ooo), FOLDSVG_E_OVERFLOW);
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
    tcase_add_test(tc, split_hints_change_nothing);
    tcase_add_test(tc, known_total_names_at_once);
    tcase_add_test(tc, finish_drops_what_the_total_prunes);
    tcase_add_test(tc, own_frames_of_narrow_stacks_stay_unopened);
    tcase_add_test(tc, a_next_stack_sharing_more_than_said_is_out_of_order);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
