#include "aggregate/tally.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

void fs_tally_init(fs_tally *t, size_t budget)
{
    memset(t, 0, sizeof *t);
    fs_strmap_init(&t->map, FS_STRMAP_OWNED);
    t->budget = budget;
}

void fs_tally_free(fs_tally *t)
{
    fs_strmap_free(&t->map);
    free(t->sums);
    memset(t, 0, sizeof *t);
}

/* The tally is of no use: what it held goes at once, not when it is dropped. */
static foldsvg_status give_up(fs_tally *t)
{
    fs_tally_free(t);
    t->gave_up = 1;
    return FS_STOP;
}

foldsvg_status fs_tally_add(fs_tally *t, const char *stack, size_t len, uint64_t hash,
                            uint64_t count, uint64_t before, int is_diff, uint64_t line)
{
    /* the totals bound every stack's sums: only they need checking */
    if (t->gave_up || count > UINT64_MAX - t->total ||
        (is_diff && before > UINT64_MAX - t->total_before))
        return give_up(t);
    uint32_t e = fs_strmap_find_hashed(&t->map, stack, len, hash);
    if (e == FS_STRMAP_NONE) {
        /* a stack's bytes, its table entry and its sums */
        size_t cost = len + 1 + 2 * sizeof(uint32_t) + sizeof(void *) + sizeof(fs_tally_sum);
        if (len > t->budget || t->bytes + cost > t->budget)
            return give_up(t);
        uint32_t n = fs_strmap_size(&t->map);
        FS_FORWARD_IF_ERROR(FS_GROW(t->sums, t->cap, (size_t)n + 1, 256));
        int added;
        FS_FORWARD_IF_ERROR(fs_strmap_put_hashed(&t->map, stack, len, hash, 0, &e, &added));
        t->sums[e] = (fs_tally_sum){0, 0, hash, line, 0};
        t->bytes += cost;
        t->window_new++;
    }
    if (++t->window == FS_TALLY_WINDOW) {
        if (t->bytes > t->budget / 4 && (uint64_t)t->window_new * 10 >= (uint64_t)t->window * 9)
            return give_up(t);
        t->window = t->window_new = 0;
    }
    fs_tally_sum *s = &t->sums[e];
    s->count += count;
    t->total += count;
    if (is_diff) {
        s->before += before;
        s->is_diff = 1;
        t->total_before += before;
    }
    return FOLDSVG_OK;
}
