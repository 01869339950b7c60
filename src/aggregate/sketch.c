#include "aggregate/sketch.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* 2^18 counters: about 37,000 cut stacks for the shuffled bench file's 200,000 (exact
 * totals would give 32,000); 2^17 43,800, 2^19 34,300. */
enum { BITS = 18 };

static inline uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline const char *lower(const char *x, const char *y)
{
    return x < y ? x : y;
}

/* The hash of the prefix [BASE, E) whose last frame is [F, E), from H, the hash of the prefix
 * before that frame (0 for the first). Only bytes of [BASE, E) are read: the same prefix
 * gives the same hash whatever follows it. Four words a frame whatever its length (its last
 * 16 bytes, its first 8 and 8 from its middle, each moved back to end by E when the frame is
 * short: the prefix's bytes before it), chosen without branches: a loop over a frame's
 * bytes, or a branch on its length, mispredicts on most frames. */
static inline uint64_t step(uint64_t h, const char *base, const char *f, const char *e)
{
    size_t len = (size_t)(e - f);
    uint64_t a, b, c, d;
    if (e - base >= 16) {
        a = load8(e - 8);
        b = load8(e - 16);
        c = load8(lower(f, e - 8));
        d = load8(lower(f + (len >> 1) - 4, e - 8));
    } else {
        size_t n = (size_t)(e - base);
        a = b = 0;
        memcpy(&a, base, n < 8 ? n : 8);
        if (n > 8)
            memcpy(&b, base + 8, n - 8);
        c = d = n;
    }
    /* the prefix's length too: else an empty frame would leave the hash as it was */
    uint64_t x = h ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL) ^
                 (c * 0x165667b19e3779f9ULL) ^ (d * 0x27d4eb2f165667c5ULL) ^
                 ((uint64_t)(e - base) * 0x9fb21c651e98df25ULL) ^ len;
    x *= 0xff51afd7ed558ccdULL;
    return x ^ (x >> 32);
}

/* The ';' in S[0..N), N <= 64, as bits. */
static inline uint64_t semis_of(const char *s, size_t n)
{
    uint64_t m = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8(';');
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, want)) << i;
    }
#endif
    for (; i < n; i++)
        m |= (uint64_t)(s[i] == ';') << i;
    return m;
}

/* A counter's value as a bound: UINT32_MAX is none. */
static inline uint64_t bound_of(uint32_t v)
{
    return v == UINT32_MAX ? UINT64_MAX : v;
}

/* Each counter on the path gets COUNT, but is raised no higher than its parent's bound: the
 * least of (counter + COUNT) over the prefixes before it, each at least that prefix's total
 * so far (a conservative update: 37,000 cut stacks instead of 51,000 for the bench file).
 * A counter is never lowered, so one shared with another prefix stays a bound of both.
 * Written without branches (whether a counter moves is a coin toss). */
static inline uint64_t raise(uint32_t *c, uint64_t count, uint64_t cap)
{
    uint32_t had = *c;
    uint64_t old = bound_of(had);
    uint64_t v = old + count;
    v = v < old ? UINT64_MAX : v;
    uint64_t want = v < cap ? v : cap;
    uint32_t put = want >= UINT32_MAX ? UINT32_MAX : (uint32_t)want;
    *c = put > had ? put : had;
    return want;
}

foldsvg_status fs_sketch_init(fs_sketch *k, unsigned bits)
{
    bits = bits ? (bits > 30 ? 30 : bits) : BITS;
    k->counters = calloc((size_t)1 << bits, sizeof *k->counters);
    k->mask = ((size_t)1 << bits) - 1;
    k->shift = 64 - bits;
    return k->counters ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
}

void fs_sketch_free(fs_sketch *k)
{
    free(k->counters);
    k->counters = NULL;
}

/* The counters of a stack's prefixes, BATCH at a time: the indexes first (each counter asked
 * for as soon as its index is known), then the updates. Done frame by frame, the loop's
 * exit at each 64 bytes mispredicted and the misses on the table came one after the other
 * (1.1x the time). The walks keep their state in locals: the hash of one frame is the input
 * of the next, and kept in memory each step waited on a store and a load. */
enum { BATCH = 128 };

static inline uint64_t apply(fs_sketch *k, const uint32_t *idx, size_t n, uint64_t count,
                             uint64_t cap)
{
    for (size_t i = 0; i < n; i++)
        cap = raise(&k->counters[idx[i]], count, cap);
    return cap;
}

void fs_sketch_add(fs_sketch *k, const char *stack, size_t len, uint64_t count)
{
    uint32_t idx[BATCH + 64];
    size_t n = 0;
    uint64_t h = 0, cap = UINT64_MAX;
    const char *f = stack;
    for (size_t at = 0; at < len; at += 64) {
        size_t piece = len - at < 64 ? len - at : 64;
        for (uint64_t m = semis_of(stack + at, piece); m; m &= m - 1) {
            const char *e = stack + at + __builtin_ctzll(m);
            h = step(h, stack, f, e);
            f = e + 1;
            idx[n] = (uint32_t)(h >> k->shift);
            __builtin_prefetch(&k->counters[idx[n]], 1);
            n++;
        }
        if (n >= BATCH) {
            cap = apply(k, idx, n, count, cap);
            n = 0;
        }
    }
    h = step(h, stack, f, stack + len);
    idx[n++] = (uint32_t)(h >> k->shift);
    apply(k, idx, n, count, cap);
}

void fs_sketch_join(fs_sketch *to, const fs_sketch *from)
{
    for (size_t i = 0; i <= to->mask; i++) {
        uint64_t v = (uint64_t)to->counters[i] + from->counters[i];
        to->counters[i] = v >= UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    }
}

size_t fs_sketch_cut(const fs_sketch *k, const char *stack, size_t len, uint64_t below)
{
    uint64_t h = 0;
    const char *f = stack;
    for (size_t at = 0; at < len; at += 64) {
        size_t n = len - at < 64 ? len - at : 64;
        for (uint64_t m = semis_of(stack + at, n); m; m &= m - 1) {
            const char *e = stack + at + __builtin_ctzll(m);
            h = step(h, stack, f, e);
            f = e + 1;
            /* the least counter on the path: any below BELOW is */
            if (bound_of(k->counters[h >> k->shift]) < below)
                return (size_t)(e - stack) + 1;
        }
    }
    return len;
}
