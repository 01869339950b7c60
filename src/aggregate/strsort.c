/* Multikey quicksort (Bentley and Sedgewick) on 8-byte digits. Stacks that sort next to
 * each other share long prefixes (hundreds of bytes), which a comparison sort compares
 * again at every step; here each partition step looks at one cached 8-byte digit per string,
 * and only strings still tied move on to the next digit. Partitions wait on an explicit
 * stack, so no input can exhaust the C stack. Each string's share with the one before it
 * comes for free: where a partition separates two neighbours they agree up to its depth,
 * and their digits say how far into the next. */
#include "aggregate/strsort.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"
#include "util/prefetch.h"

typedef struct item {
    uint64_t digit; /* bytes [depth, depth + 8) as a big-endian number, zero-padded */
    uint32_t idx;
} item;

typedef struct part {
    size_t lo, n, depth;
} part;

typedef struct sorter {
    const char *const *keys;
    const uint32_t *lens;
} sorter;

enum { SMALL = 16, PREFETCH = 8, PREFETCH_NEAR = 4, PREFETCH_SPAN = 1024 };

static uint64_t digit_at(const sorter *s, uint32_t i, size_t depth)
{
    size_t len = s->lens[i];
    if (depth >= len)
        return 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len - depth >= 8) { /* the common case: one load */
        uint64_t w;
        memcpy(&w, s->keys[i] + depth, 8);
        return __builtin_bswap64(w);
    }
#endif
    unsigned char b[8] = {0};
    size_t n = len - depth < 8 ? len - depth : 8;
    memcpy(b, s->keys[i] + depth, n);
    return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40 |
           (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
           (uint64_t)b[6] << 8 | (uint64_t)b[7];
}

/* Compares strings known to agree on their first DEPTH bytes. */
static int cmp_from(const sorter *s, uint32_t x, uint32_t y, size_t depth)
{
    size_t lx = s->lens[x], ly = s->lens[y];
    size_t m = lx < ly ? lx : ly;
    if (depth > m)
        depth = m;
    return fs_strcmp_bytes(s->keys[x] + depth, lx - depth, s->keys[y] + depth, ly - depth);
}

/* When a whole partition ties on a digit, its strings often share far more (the same
 * outer frames): how many bytes from DEPTH they all share, found in one sequential pass
 * over each string instead of a partition step per 8 bytes. All are longer than DEPTH. */
static size_t common_prefix(const sorter *s, const item *v, size_t n, size_t depth)
{
    const char *first = s->keys[v[0].idx] + depth;
    size_t common = s->lens[v[0].idx] - depth;
    for (size_t i = 1; i < n && common > 0; i++) {
        /* each string is read from DEPTH on, the next ones' lines asked for meanwhile */
        if (i + PREFETCH_NEAR < n)
            fs_prefetch_span(s->keys[v[i + PREFETCH_NEAR].idx] + depth, common, PREFETCH_SPAN);
        size_t len = s->lens[v[i].idx] - depth;
        common = fs_mismatch(first, s->keys[v[i].idx] + depth, len < common ? len : common);
    }
    return common;
}

static void insertion_sort(const sorter *s, item *a, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        item t = a[i];
        size_t j = i;
        while (j > 0 && cmp_from(s, a[j - 1].idx, t.idx, depth) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

static void swap(item *a, item *b)
{
    item t = *a;
    *a = *b;
    *b = t;
}

/* V[0..n) into those below PIVOT, [0, *LT), those equal, and those above, [*GT, n): counted
 * first, then each moved to its place through TMP without a branch on its digit. The
 * digits are in no order the branch predictor could learn (the swaps of an in-place
 * partition mispredicted about one digit in two: a third of the sort's time). *BELOW and
 * *ABOVE: the greatest digit below PIVOT and the least above it, the digits of the strings
 * that will end up next to the equal ones. */
static void partition(item *v, item *tmp, size_t n, uint64_t pivot, size_t *lt, size_t *gt,
                      uint64_t *below, uint64_t *above)
{
    size_t nl = 0, ne = 0;
    for (size_t i = 0; i < n; i++) {
        nl += v[i].digit < pivot;
        ne += v[i].digit == pivot;
    }
    size_t at[3] = {0, nl, nl + ne}; /* the next place in each class */
    for (size_t i = 0; i < n; i++) {
        uint64_t d = v[i].digit;
        size_t k = (size_t)(d >= pivot) + (size_t)(d > pivot);
        tmp[at[k]++] = v[i];
    }
    uint64_t lo = 0, hi = UINT64_MAX;
    for (size_t i = 0; i < nl; i++)
        lo = tmp[i].digit > lo ? tmp[i].digit : lo;
    for (size_t i = nl + ne; i < n; i++)
        hi = tmp[i].digit < hi ? tmp[i].digit : hi;
    *below = lo;
    *above = hi;
    memcpy(v, tmp, n * sizeof *v);
    *lt = nl;
    *gt = nl + ne;
}

static uint64_t median3(uint64_t x, uint64_t y, uint64_t z)
{
    if (x < y)
        return y < z ? y : (x < z ? z : x);
    return x < z ? x : (y < z ? z : y);
}

/* The bytes two strings whose digits at DEPTH are X and Y share, at most (their padding
 * may agree past the shorter one's end: fs_strsort cuts each share to both lengths). */
static uint32_t digit_share(size_t depth, uint64_t x, uint64_t y)
{
    size_t same = 0;
    for (uint64_t d = x ^ y; same < 8 && !(d >> 56); d <<= 8)
        same++;
    size_t share = depth + same;
    return share < UINT32_MAX ? (uint32_t)share : UINT32_MAX;
}

/* LCP[1..n) of V[0..n), sorted and known to agree on their first DEPTH bytes: each
 * string's share with the one before (just compared, so in the cache). */
static void shares_of_sorted(const sorter *s, const item *v, size_t n, size_t depth, uint32_t *lcp)
{
    for (size_t j = 1; j < n; j++) {
        uint32_t x = v[j - 1].idx, y = v[j].idx;
        size_t m = s->lens[x] < s->lens[y] ? s->lens[x] : s->lens[y];
        size_t from = depth < m ? depth : m;
        lcp[j] = (uint32_t)(from + fs_mismatch(s->keys[x] + from, s->keys[y] + from, m - from));
    }
}

static int by_digit(const void *x, const void *y)
{
    uint64_t a = ((const item *)x)->digit, b = ((const item *)y)->digit;
    return (a > b) - (a < b);
}

static foldsvg_status push(part **stack, size_t *n, size_t *cap, part p)
{
    if (p.n < 2)
        return FOLDSVG_OK;
    FS_FORWARD_IF_ERROR(fs_grow(stack, cap, *n + 1, sizeof **stack, 64));
    (*stack)[(*n)++] = p;
    return FOLDSVG_OK;
}

foldsvg_status fs_strsort(const char *const *keys, const uint32_t *lens, uint32_t *order,
                          uint32_t *lcp, size_t n)
{
    if (n == 0)
        return FOLDSVG_OK;
    sorter s = {keys, lens};
    item *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
    part *stack = NULL;
    size_t depth_n = 0, cap = 0;
    foldsvg_status st = FOLDSVG_OK;
    if (!a || !tmp) {
        free(a);
        free(tmp);
        return FOLDSVG_E_NOMEM;
    }
    /* LCP[i], while sorting: at most what string i shares with the one before (padding
     * included), set where a partition separates the two; both lengths cut it at the end */
    lcp[0] = 0;
    for (size_t i = 0; i < n; i++)
        a[i] = (item){digit_at(&s, (uint32_t)i, 0), (uint32_t)i};
    if (push(&stack, &depth_n, &cap, (part){0, n, 0}) != 0)
        st = FOLDSVG_E_NOMEM;
    while (st == FOLDSVG_OK && depth_n > 0) {
        part p = stack[--depth_n];
        item *v = a + p.lo;
        uint32_t *sh = lcp + p.lo;
        if (p.n <= SMALL) {
            insertion_sort(&s, v, p.n, p.depth);
            shares_of_sorted(&s, v, p.n, p.depth, sh);
            continue;
        }
        uint64_t pivot = median3(v[0].digit, v[p.n / 2].digit, v[p.n - 1].digit);
        size_t lt, gt;
        uint64_t below, above;
        partition(v, tmp, p.n, pivot, &lt, &gt, &below, &above);
        if (lt > 0)
            sh[lt] = digit_share(p.depth, below, pivot);
        if (gt < p.n)
            sh[gt] = digit_share(p.depth, pivot, above);
        /* Among the ties, strings that end within this digit are equal up to trailing NUL
         * bytes: they come first, ordered by length; the others need the next digit. */
        size_t ended = 0;
        for (size_t j = lt; j < gt; j++)
            if (lens[v[j].idx] <= p.depth + 8)
                swap(&v[lt + ended++], &v[j]);
        if (ended <= SMALL) {
            insertion_sort(&s, v + lt, ended, p.depth);
            shares_of_sorted(&s, v + lt, ended, p.depth, sh + lt);
        } else {
            /* only their lengths differ (many only when equal strings were given): each is
             * a prefix of the next, padded */
            for (size_t j = lt; j < lt + ended; j++) {
                v[j].digit = lens[v[j].idx];
                if (j > lt)
                    sh[j] = digit_share(p.depth, pivot, pivot);
            }
            qsort(v + lt, ended, sizeof *v, by_digit);
        }
        if (ended > 0 && lt + ended < gt) /* the longest that ended is a prefix of the next */
            sh[lt + ended] = digit_share(p.depth, pivot, pivot);
        size_t next = p.depth + 8;
        if (lt == 0 && gt == p.n && ended == 0)
            next += common_prefix(&s, v, p.n, next);
        for (size_t j = lt + ended; j < gt; j++) {
            /* the strings lie anywhere: ask for one a few steps ahead while this one loads */
            if (j + PREFETCH < gt && lens[v[j + PREFETCH].idx] > next)
                FS_PREFETCH(keys[v[j + PREFETCH].idx] + next);
            v[j].digit = digit_at(&s, v[j].idx, next);
        }
        if (push(&stack, &depth_n, &cap, (part){p.lo, lt, p.depth}) != 0 ||
            push(&stack, &depth_n, &cap, (part){p.lo + gt, p.n - gt, p.depth}) != 0 ||
            push(&stack, &depth_n, &cap, (part){p.lo + lt + ended, gt - lt - ended, next}) != 0)
            st = FOLDSVG_E_NOMEM;
    }
    if (st == FOLDSVG_OK)
        for (size_t i = 0; i < n; i++) {
            order[i] = a[i].idx;
            if (i > 0) {
                uint32_t x = lens[a[i - 1].idx], y = lens[a[i].idx];
                uint32_t m = x < y ? x : y;
                lcp[i] = lcp[i] < m ? lcp[i] : m;
            }
        }
    free(stack);
    free(tmp);
    free(a);
    return st;
}
