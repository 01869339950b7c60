#include "aggregate/diffjoin.h"

#include <string.h>

#include "aggregate/strsort.h"

uint64_t fs_diff_normalize(uint64_t before, uint64_t total_before, uint64_t total_after)
{
    if (total_before == total_after)
        return before;
    double v = (double)before * (double)total_after / (double)total_before;
    if (!(v >= 0.0)) /* NaN: 0 / 0 */
        return 0;
    if (v >= 18446744073709551616.0)
        return UINT64_MAX;
    return (uint64_t)v;
}

/* One side's current stack. */
typedef struct head {
    fs_relay *r;
    fs_relay_item it;
    int done;
} head;

static foldsvg_status step(head *h)
{
    return fs_relay_next(h->r, &h->it, &h->done);
}

foldsvg_status fs_diff_join(fs_relay *before, fs_relay *after, void (*primed)(void *user),
                            fs_diff_fn fn, void *user, fs_diff_join_stats *stats)
{
    fs_diff_join_stats s;
    memset(&s, 0, sizeof s);
    head a = {before, {0}, 0}, b = {after, {0}, 0};
    foldsvg_status st = step(&a);
    if (st == FOLDSVG_OK)
        st = step(&b);
    if (st == FOLDSVG_OK && primed)
        primed(user);
    while (st == FOLDSVG_OK && !(a.done && b.done)) {
        int c = a.done   ? 1
                : b.done ? -1
                         : fs_strcmp_bytes(a.it.stack, a.it.len, b.it.stack, b.it.len);
        s.unique++;
        if (c < 0) {
            s.only_before++;
            st = fn(user, a.it.stack, a.it.len, a.it.count, 0);
            if (st == FOLDSVG_OK)
                st = step(&a);
        } else if (c > 0) {
            s.only_after++;
            st = fn(user, b.it.stack, b.it.len, 0, b.it.count);
            if (st == FOLDSVG_OK)
                st = step(&b);
        } else {
            st = fn(user, a.it.stack, a.it.len, a.it.count, b.it.count);
            if (st == FOLDSVG_OK)
                st = step(&a);
            if (st == FOLDSVG_OK)
                st = step(&b);
        }
    }
    if (stats)
        *stats = s;
    return st;
}
