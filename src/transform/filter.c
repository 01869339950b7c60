/* Stack filters and name transforms with PCRE2. Patterns are compiled once (util/regex.h;
 * JIT when the library has it).
 *
 * Folded input calls fs_filter_apply once per line, and the same few thousand names recur
 * on millions of lines, so what the patterns say about a name (its stripped form and which
 * of --include/--exclude/--focus match it) is cached by name. The cache is bounded: it is
 * dropped and rebuilt when it grows past FS_FILTER_CACHE_BYTES, which only costs speed.
 *
 * A pattern can backtrack exponentially ((a+)+$ on a long run of a's): every match runs
 * under PCRE2's limits (steps, depth, heap, JIT stack), so one name costs at most a bounded
 * amount of work, and once per distinct name thanks to the cache. A limit hit leaves that
 * pattern's verdict on the name unknown; the stack's fate is still decided when it does not
 * depend on it (another pattern of the same kind matched, another frame decided, a frame
 * further out was focused), and is an error naming the pattern when it does: results are
 * never silently wrong, and the first such name ends the run. Hits that decide nothing are
 * one warning; on a 16th distinct name they end the run too, so a pattern that backtracks
 * on every name costs 16 limits' work, not one a name. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "transform/filter.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transform/sanitize.h"
#include "transform/stackopts.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/regex.h"
#include "util/strlist.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    FS_FILTER_CACHE_BYTES = 64 << 20,
    FS_FILTER_CACHE_ENTRIES = 1 << 21,
    /* The JIT's default 32 KiB stack is too small for backtracking patterns on long
     * generic names (the SP1 generator has one of 5 KB). */
    FS_FILTER_JIT_STACK_MAX = 1 << 20,
    /* Distinct names on which a limit may be hit before the run stops: each costs up to a
     * whole limit's work, so a pattern that backtracks on every name would otherwise take
     * names x limit (2,000 names, 88 s) even where no stack depends on the verdicts. */
    FS_FILTER_LIMITED_NAMES = 16,
};

/* What the patterns say about a name: M_* it matched; U_* the kinds where a pattern hit a
 * limit and none matched (so the verdict is unknown); U_STRIP a --strip that hit one (the
 * stripped name is unknown). */
enum {
    M_INCLUDE = 1,
    M_EXCLUDE = 2,
    M_FOCUS = 4,
    U_SHIFT = 3,
    U_INCLUDE = M_INCLUDE << U_SHIFT,
    U_EXCLUDE = M_EXCLUDE << U_SHIFT,
    U_FOCUS = M_FOCUS << U_SHIFT,
    U_STRIP = 64,
    LIMITED = 128, /* some pattern hit a limit on the name */
};

/* Where a limit was hit: the pattern (its list and index) and PCRE2's code. */
typedef struct limit_hit {
    uint8_t list; /* L_* */
    int rc;       /* PCRE2_ERROR_*LIMIT */
    uint32_t index;
} limit_hit;
enum { L_STRIP, L_INCLUDE, L_EXCLUDE, L_FOCUS };

/* Legacy mangling ends a path segment with ::h and 16 hex digits; v0 Display puts a
 * [hex] disambiguator right after each crate name (no zero padding, so 1-16 digits). The
 * lookbehind keeps array and slice types such as [u8; 32] or <[T] as ..> intact. */
static const char rust_hash_pattern[] =
    "::h[0-9a-f]{16}(?![0-9A-Za-z_])|(?<=[0-9A-Za-z_])\\[[0-9a-f]{1,16}\\]";

typedef struct cache_entry {
    const char *key; /* NULL: a free slot */
    size_t klen;
    const char *out; /* the name after --strip (== key when unchanged) */
    size_t olen;
    uint64_t hash;
    unsigned flags; /* M_* and U_* of the name after --strip */
    limit_hit hit;  /* U_STRIP: the --strip that hit a limit */
} cache_entry;

struct fs_filter {
    pcre2_code **strip; /* --strip-rust-hash first, then each --strip in order */
    size_t nstrip;
    pcre2_code **include, **exclude, **focus;
    size_t ninclude, nexclude, nfocus;
    int collapse_recursion;
    unsigned unknown_flags; /* what the patterns say about "[unknown]" */

    pcre2_match_data *md;
    pcre2_match_context *mctx;
    pcre2_jit_stack *jit_stack;
    int nomem;              /* a match ran out of memory */
    limit_hit hit;          /* the last limit hit of a match (for the entry being made) */
    int hits;               /* limits hit while making it */
    fs_strlist patterns[4]; /* L_*: the patterns as given, for messages */
    int rust_hash;          /* f->strip[0] is --strip-rust-hash */
    char message[512];      /* why fs_filter_apply returned FOLDSVG_E_LIMIT */
    /* Distinct names on which a limit was hit, and those not yet warned about (the first
     * of them: its limit and its name as shown). */
    unsigned limited;
    unsigned unwarned;
    limit_hit warn_hit;
    char warn_name[192];

    char *scratch[2]; /* ping-pong buffers for successive --strip patterns */
    size_t scratch_cap;

    cache_entry *table;
    size_t cap, count; /* cap is a power of two */
    fs_arena names;
    /* The entries of the last stack's frames, in order, as far as it was looked at: copies,
     * since the table moves as it grows (their names stay until the cache is dropped) */
    cache_entry *line;
    size_t line_cap, line_n;
    /* Most names are ones no pattern can match, and in sorted input most frames that are
     * not the last stack's have names not seen for a while: when every pattern has a
     * necessary condition that a byte test checks (screened), a name that fails them all
     * is taken as it is without a lookup. starts[c]: a pattern can match only names that
     * begin with c (one of first[0..nfirst)). */
    int screened;
    unsigned char starts[256];
    unsigned char first[8];
    int nfirst;
};

foldsvg_status fs_filter_check_pattern(const char *flag, const char *pattern, foldsvg_error *err)
{
    pcre2_code *c;
    foldsvg_status st = fs_regex_compile(&c, flag, pattern, err);
    pcre2_code_free(c);
    return st;
}

static void free_codes(pcre2_code **codes, size_t n)
{
    if (!codes)
        return;
    for (size_t i = 0; i < n; i++)
        pcre2_code_free(codes[i]);
    free(codes);
}

void fs_filter_free(fs_filter *f)
{
    if (!f)
        return;
    free_codes(f->strip, f->nstrip);
    free_codes(f->include, f->ninclude);
    free_codes(f->exclude, f->nexclude);
    free_codes(f->focus, f->nfocus);
    pcre2_match_data_free(f->md);
    pcre2_match_context_free(f->mctx);
    pcre2_jit_stack_free(f->jit_stack);
    free(f->scratch[0]);
    free(f->scratch[1]);
    free(f->table);
    free(f->line);
    fs_arena_free(&f->names);
    for (int i = 0; i < 4; i++)
        fs_strlist_free(&f->patterns[i]);
    free(f);
}

/* Compiles PATTERNS[0..n) into *OUT, a calloc'd array of N + EXTRA slots of which the first
 * EXTRA are left to the caller. *COUNT covers every slot at once: pcre2_code_free(NULL) is
 * harmless, so a failure halfway frees just what exists. */
static foldsvg_status compile_list(pcre2_code ***out, size_t *count, size_t extra, const char *flag,
                                   const fs_strlist *list, foldsvg_error *err)
{
    char *const *patterns = list->v;
    size_t n = list->n;
    if (n + extra == 0)
        return FOLDSVG_OK;
    *out = calloc(n + extra, sizeof **out);
    if (!*out)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    *count = n + extra;
    for (size_t i = 0; i < n; i++) {
        foldsvg_status st = fs_regex_compile(&(*out)[extra + i], flag, patterns[i], err);
        if (st)
            return st;
        /* JIT is an optimization only: a library without it (or a pattern it declines)
         * still matches through the interpreter. */
        pcre2_jit_compile((*out)[extra + i], PCRE2_JIT_COMPLETE);
    }
    return FOLDSVG_OK;
}

/* Notes a limit hit by pattern INDEX of LIST. */
static void limit(fs_filter *f, int list, size_t index, int rc)
{
    if (!f->hits)
        f->hit = (limit_hit){(uint8_t)list, rc, (uint32_t)index};
    f->hits++;
}

/* 1 match, 0 no match, -1 a limit was hit (noted). */
static int matches(fs_filter *f, pcre2_code *code, int list, size_t index, const char *s,
                   size_t len)
{
    int rc = pcre2_match(code, (PCRE2_SPTR)(s ? s : ""), len, 0, 0, f->md, f->mctx);
    if (rc >= 0)
        return 1;
    if (rc == PCRE2_ERROR_NOMEMORY)
        f->nomem = 1;
    if (fs_regex_is_limit(rc)) {
        limit(f, list, index, rc);
        return -1;
    }
    /* Anything else (a bad offset cannot happen: subjects are whole names) is no match. */
    return 0;
}

/* M_BIT if one of CODES[0..n) matches; else U_* (M_BIT << U_SHIFT) if one hit a limit. */
static unsigned match_kind(fs_filter *f, pcre2_code **codes, size_t n, int list, unsigned m_bit,
                           const char *s, size_t len)
{
    unsigned unknown = 0;
    for (size_t i = 0; i < n; i++) {
        int r = matches(f, codes[i], list, i, s, len);
        if (r > 0)
            return m_bit;
        if (r < 0)
            unknown = m_bit << U_SHIFT;
    }
    return unknown;
}

static unsigned match_flags(fs_filter *f, const char *s, size_t len)
{
    return match_kind(f, f->include, f->ninclude, L_INCLUDE, M_INCLUDE, s, len) |
           match_kind(f, f->exclude, f->nexclude, L_EXCLUDE, M_EXCLUDE, s, len) |
           match_kind(f, f->focus, f->nfocus, L_FOCUS, M_FOCUS, s, len);
}

/* The byte every match of PATTERN starts with, when the pattern says so plainly: '^', then a
 * letter, digit or '_' that no quantifier follows, and no '|' anywhere; -1 otherwise. */
static int plain_start(const char *p)
{
    if (p[0] != '^' || !(isalnum((unsigned char)p[1]) || p[1] == '_') || strchr(p, '|'))
        return -1;
    if (p[2] && strchr("?*+{", p[2]))
        return -1;
    return (unsigned char)p[1];
}

static int lower_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int word_byte(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Whether rust_hash_pattern may match at P, a "::h" or a '[' of S[.., END): "::h" and 16
 * hex digits, or '[' after a word byte and before a hex digit. */
static int rust_hash_here(const char *s, const char *p, const char *end)
{
    if (*p == '[')
        return p > s && word_byte(p[-1]) && p + 1 < end && lower_hex(p[1]);
    int k = 3;
    while (k < 19 && p + k < end && lower_hex(p[k]))
        k++;
    return k == 19;
}

#if defined(__SSE2__)
/* The lanes of X that hold a lowercase hex digit. */
static __m128i hex_lanes(__m128i x)
{
    __m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0')), l = _mm_sub_epi8(x, _mm_set1_epi8('a'));
    return _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d),
                        _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l));
}
#endif

/* The first place in S[0..len) where rust_hash_pattern may match; LEN when there is none.
 * Names hold "::h" ("::hash") and '[' ("_[k]") often: 16 places at a time, a place is the
 * three bytes and the one byte that rules out most of them (a hex digit after the '[', and
 * as the second after the 'h'), so that a block rarely has one to try and the branch on it
 * is rarely mispredicted. */
static size_t rust_hash_at(const char *s, size_t len)
{
    const char *end = s + len, *p = s;
#if defined(__SSE2__)
    const __m128i colon = _mm_set1_epi8(':'), h = _mm_set1_epi8('h'), open = _mm_set1_epi8('[');
    for (; end - p >= 20; p += 16) { /* (the 16 bytes from p + 4 lie before END) */
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + 2));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(p + 4));
        __m128i at_open = _mm_cmpeq_epi8(a, open);
        __m128i hash =
            _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(a, colon), _mm_cmpeq_epi8(b, colon)),
                          _mm_cmpeq_epi8(c, h));
        __m128i next = _mm_or_si128(_mm_and_si128(at_open, b), _mm_andnot_si128(at_open, e));
        __m128i may = _mm_and_si128(_mm_or_si128(hash, at_open), hex_lanes(next));
        for (unsigned bits = (unsigned)_mm_movemask_epi8(may); bits; bits &= bits - 1) {
            const char *q = p + __builtin_ctz(bits);
            if (rust_hash_here(s, q, end))
                return (size_t)(q - s);
        }
    }
#endif
    for (; p < end; p++)
        if ((*p == '[' || (end - p >= 3 && p[0] == ':' && p[1] == ':' && p[2] == 'h')) &&
            rust_hash_here(s, p, end))
            return (size_t)(p - s);
    return len;
}

/* Whether no pattern can match NAME (only when f->screened). */
static int untouched(const fs_filter *f, const char *s, size_t len)
{
    if (len > 0 && f->starts[(unsigned char)s[0]])
        return 0;
    return !f->rust_hash || rust_hash_at(s, len) == len;
}

int fs_filter_screens(const fs_filter *f)
{
    return f->screened && f->ninclude == 0 && f->nfocus == 0;
}

size_t fs_filter_screen(const fs_filter *f, const char *s, size_t len)
{
    size_t at = f->rust_hash ? rust_hash_at(s, len) : len;
    for (int i = 0; i < f->nfirst; i++) {
        for (const char *p = s; (p = memchr(p, f->first[i], at - (size_t)(p - s))) != NULL; p++) {
            if (p == s || p[-1] == ';') {
                at = (size_t)(p - s);
                break;
            }
        }
    }
    if (at >= len)
        return SIZE_MAX;
    while (at > 0 && s[at - 1] != ';')
        at--;
    return at;
}

/* Sets f->screened and f->starts from the patterns given. */
static void make_screen(fs_filter *f)
{
    f->screened = 1;
    for (int l = 0; l < 4; l++) {
        for (size_t i = 0; i < f->patterns[l].n; i++) {
            int c = plain_start(f->patterns[l].v[i]);
            if (c < 0 || (!f->starts[c] && f->nfirst == (int)sizeof f->first)) {
                f->screened = 0;
            } else if (!f->starts[c]) {
                f->starts[c] = 1;
                f->first[f->nfirst++] = (unsigned char)c;
            }
        }
    }
}

foldsvg_status fs_filter_new(fs_filter **out, const fs_stack_opts *opts, foldsvg_error *err)
{
    *out = NULL;
    if (!opts->strip_rust_hash && !opts->collapse_recursion && opts->strip.n == 0 &&
        opts->include.n == 0 && opts->exclude.n == 0 && opts->focus.n == 0)
        return FOLDSVG_OK;
    fs_filter *f = calloc(1, sizeof *f);
    if (!f)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_arena_init(&f->names);
    f->collapse_recursion = opts->collapse_recursion;
    size_t rust = opts->strip_rust_hash ? 1 : 0;
    f->rust_hash = (int)rust;
    const fs_strlist *given[4] = {&opts->strip, &opts->include, &opts->exclude, &opts->focus};
    foldsvg_status st = FOLDSVG_OK;
    for (int i = 0; i < 4 && st == FOLDSVG_OK; i++)
        if (fs_strlist_copy(&f->patterns[i], given[i]) != FOLDSVG_OK)
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st == FOLDSVG_OK)
        st = compile_list(&f->strip, &f->nstrip, rust, "strip", &opts->strip, err);
    if (st == FOLDSVG_OK && rust) {
        st = fs_regex_compile(&f->strip[0], "strip-rust-hash", rust_hash_pattern, err);
        if (st == FOLDSVG_OK)
            pcre2_jit_compile(f->strip[0], PCRE2_JIT_COMPLETE);
    }
    if (st == FOLDSVG_OK)
        st = compile_list(&f->include, &f->ninclude, 0, "include", &opts->include, err);
    if (st == FOLDSVG_OK)
        st = compile_list(&f->exclude, &f->nexclude, 0, "exclude", &opts->exclude, err);
    if (st == FOLDSVG_OK)
        st = compile_list(&f->focus, &f->nfocus, 0, "focus", &opts->focus, err);
    if (st == FOLDSVG_OK) {
        /* One ovector pair is all we read; match data sized by the patterns' groups
         * would only cost memory. */
        f->md = pcre2_match_data_create(1, NULL);
        f->mctx = pcre2_match_context_create(NULL);
        f->jit_stack = pcre2_jit_stack_create(32 << 10, FS_FILTER_JIT_STACK_MAX, NULL);
        if (!f->md || !f->mctx) {
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        } else {
            if (f->jit_stack)
                pcre2_jit_stack_assign(f->mctx, NULL, f->jit_stack);
            fs_regex_set_limits(f->mctx);
        }
    }
    if (st == FOLDSVG_OK)
        make_screen(f);
    if (st == FOLDSVG_OK) {
        f->unknown_flags = match_flags(f, FS_UNKNOWN_FRAME, sizeof FS_UNKNOWN_FRAME - 1);
        if (f->nomem)
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    }
    if (st) {
        fs_filter_free(f);
        return st;
    }
    *out = f;
    return FOLDSVG_OK;
}

/* Deletes every match of CODE in S[0..len) into OUT (room for LEN bytes), like s/RE//g.
 * Returns 1 with *OLEN set when something was deleted, 0 when nothing matched. */
static int strip_one(fs_filter *f, pcre2_code *code, size_t index, const char *s, size_t len,
                     char *out, size_t *olen)
{
    PCRE2_SPTR subj = (PCRE2_SPTR)(s ? s : "");
    size_t start = 0, copied = 0, o = 0;
    uint32_t opts = 0;
    int changed = 0;
    while (start <= len) {
        int rc = pcre2_match(code, subj, len, start, opts, f->md, f->mctx);
        if (rc < 0) {
            if (rc == PCRE2_ERROR_NOMEMORY)
                f->nomem = 1;
            if (fs_regex_is_limit(rc))
                limit(f, L_STRIP, index, rc);
            break;
        }
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(f->md);
        size_t ms = ov[0], me = ov[1];
        /* \K can report a start past the end; delete nothing then, but move on. */
        if (ms > me)
            ms = me;
        if (ms < copied)
            ms = copied;
        if (me > ms) {
            memcpy(out + o, s + copied, ms - copied);
            o += ms - copied;
            copied = me;
            changed = 1;
            opts = 0;
        } else {
            /* An empty match deletes nothing; look again from here for a non-empty one,
             * which is how pcre2_substitute and Perl make progress. Only a \K oddity can
             * repeat an empty match where that was already asked: stop rather than spin. */
            if (me <= start && opts == PCRE2_NOTEMPTY_ATSTART)
                break;
            opts = PCRE2_NOTEMPTY_ATSTART;
        }
        start = me;
    }
    if (!changed)
        return 0;
    memcpy(out + o, s + copied, len - copied);
    *olen = o + len - copied;
    return 1;
}

enum { SHOW = 60 };

/* NAME as a message can show it, into OUT (SHOW * 3 + 8 bytes): its start, cleaned of what a
 * terminal would act on. */
static void show_name(char *out, const char *name, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && i < SHOW; i++) {
        unsigned char c = (unsigned char)name[i];
        out[o++] = c < 0x20 || c == 0x7f || c >= 0x80 ? '?' : (char)c;
    }
    if (len > SHOW)
        memcpy(out + o, "...", 3), o += 3;
    out[o] = '\0';
}

/* The cached facts about NAME, computed on first sight; NULL when out of memory. */
static const cache_entry *lookup(fs_filter *f, const char *name, size_t len)
{
    if (!name)
        name = "";
    uint64_t h = fs_hash_bytes(name, len);
    size_t mask = f->cap - 1;
    if (f->table) {
        for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
            const cache_entry *e = &f->table[i];
            if (!e->key)
                break;
            if (e->hash == h && e->klen == len && memcmp(e->key, name, len) == 0)
                return e;
        }
    }
    if ((f->count + 1) * 2 > f->cap) {
        size_t ncap = f->cap ? f->cap * 2 : 1024;
        cache_entry *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return NULL;
        for (size_t j = 0; j < f->cap; j++) {
            if (!f->table[j].key)
                continue;
            size_t i = (size_t)f->table[j].hash & (ncap - 1);
            while (nt[i].key)
                i = (i + 1) & (ncap - 1);
            nt[i] = f->table[j];
        }
        free(f->table);
        f->table = nt;
        f->cap = ncap;
        mask = ncap - 1;
    }
    cache_entry e;
    e.hash = h;
    e.klen = len;
    e.key = fs_arena_strndup(&f->names, name, len);
    if (!e.key)
        return NULL;
    e.out = e.key;
    e.olen = len;
    f->hits = 0;
    unsigned strip_unknown = 0;
    if (f->nstrip) {
        if (len > f->scratch_cap) {
            for (int b = 0; b < 2; b++)
                if (fs_resize(&f->scratch[b], len, 1) != FOLDSVG_OK)
                    return NULL;
            f->scratch_cap = len;
        }
        const char *s = e.key;
        size_t slen = len;
        int which = 0, changed = 0;
        for (size_t p = 0; p < f->nstrip; p++) {
            size_t nlen;
            if (strip_one(f, f->strip[p], p, s, slen, f->scratch[which], &nlen)) {
                s = f->scratch[which];
                slen = nlen;
                which ^= 1;
                changed = 1;
            }
        }
        if (changed) {
            e.out = fs_arena_strndup(&f->names, s, slen);
            if (!e.out)
                return NULL;
            e.olen = slen;
        }
        strip_unknown = f->hits ? U_STRIP : 0;
    }
    e.flags = match_flags(f, e.out, e.olen) | strip_unknown;
    e.hit = f->hit; /* the first limit hit: a --strip's comes before the matches' */
    if (f->nomem)
        return NULL;
    if (f->hits) {
        e.flags |= LIMITED;
        f->limited++;
        if (f->unwarned++ == 0) {
            f->warn_hit = e.hit;
            show_name(f->warn_name, e.key, e.klen);
        }
    }
    size_t i = (size_t)h & mask;
    while (f->table[i].key)
        i = (i + 1) & mask;
    f->table[i] = e;
    f->count++;
    return &f->table[i];
}

static void reset_cache(fs_filter *f)
{
    memset(f->table, 0, f->cap * sizeof *f->table);
    f->count = 0;
    f->line_n = 0;
    fs_arena_free(&f->names);
    fs_arena_init(&f->names);
}

static foldsvg_status drop(fs_drop *out, fs_drop why)
{
    *out = why;
    return FOLDSVG_OK;
}

/* The option, the pattern and the limit of HIT, in words. */
static void describe(const fs_filter *f, const limit_hit *hit, const char **flag,
                     const char **pattern, const char **what)
{
    static const char *const flags[] = {"strip", "include", "exclude", "focus"};
    size_t rust = hit->list == L_STRIP ? (size_t)f->rust_hash : 0;
    *flag = flags[hit->list];
    if (rust && hit->index == 0) {
        *flag = "strip-rust-hash";
        *pattern = rust_hash_pattern;
    } else {
        *pattern = f->patterns[hit->list].v[hit->index - rust];
    }
    *what = fs_regex_limit_name(hit->rc);
}

static const char simplify[] =
    "simplify the pattern (nested quantifiers such as (a+)+ backtrack exponentially)";

/* The error for a stack whose fate depends on the verdict a limit left unknown: HIT, on the
 * frame NAME. */
static foldsvg_status limit_error(fs_filter *f, const limit_hit *hit, const char *name, size_t len)
{
    const char *flag, *pattern, *what;
    describe(f, hit, &flag, &pattern, &what);
    char shown[SHOW * 3 + 8];
    show_name(shown, name, len);
    snprintf(f->message, sizeof f->message,
             "--%s '%s' hit PCRE2's %s on the frame '%s', so whether it matches is unknown; %s",
             flag, pattern, what, shown, simplify);
    return FOLDSVG_E_LIMIT;
}

/* The error when limits were hit on too many distinct names, the last one E. */
static foldsvg_status budget_error(fs_filter *f, const cache_entry *e)
{
    const char *flag, *pattern, *what;
    describe(f, &e->hit, &flag, &pattern, &what);
    char shown[SHOW * 3 + 8];
    show_name(shown, e->key, e->klen);
    snprintf(f->message, sizeof f->message,
             "--%s '%s' hit PCRE2's %s on %u distinct frames (the last '%s'), each costing up "
             "to a whole limit's work; %s",
             flag, pattern, what, f->limited, shown, simplify);
    return FOLDSVG_E_LIMIT;
}

int fs_filter_warning(fs_filter *f, char *buf, size_t size)
{
    if (!f || !f->unwarned)
        return 0;
    const char *flag, *pattern, *what;
    describe(f, &f->warn_hit, &flag, &pattern, &what);
    snprintf(buf, size,
             "--%s '%s' hit PCRE2's %s on %u frame%s (the first '%s'); no stack depended on "
             "%s, but each costs up to a whole limit's work; %s",
             flag, pattern, what, f->unwarned, f->unwarned == 1 ? "" : "s", f->warn_name,
             f->unwarned == 1 ? "it" : "them", simplify);
    f->unwarned = 0;
    return 1;
}

/* The same for the unknown verdict of kind U (U_INCLUDE...) on NAME: which pattern hit the
 * limit is found again (the run ends here, so once). */
static foldsvg_status unknown_verdict(fs_filter *f, unsigned u, const char *name, size_t len)
{
    int list = u == U_INCLUDE ? L_INCLUDE : u == U_EXCLUDE ? L_EXCLUDE : L_FOCUS;
    pcre2_code **codes = list == L_INCLUDE ? f->include : list == L_EXCLUDE ? f->exclude : f->focus;
    size_t n = list == L_INCLUDE ? f->ninclude : list == L_EXCLUDE ? f->nexclude : f->nfocus;
    f->hits = 0;
    for (size_t i = 0; i < n && !f->hits; i++)
        matches(f, codes[i], list, i, name, len);
    if (!f->hits) /* cannot happen: the same match hits the same limit */
        f->hit = (limit_hit){(uint8_t)list, PCRE2_ERROR_MATCHLIMIT, 0};
    return limit_error(f, &f->hit, name, len);
}

const char *fs_filter_message(const fs_filter *f)
{
    return f->message;
}

foldsvg_status fs_filter_apply(fs_filter *f, fs_strref *frames, size_t *n, size_t same,
                               fs_drop *out)
{
    *out = FS_DROP_NONE;
    if (!f)
        return FOLDSVG_OK;
    int use_cache = f->nstrip || f->ninclude || f->nexclude || f->nfocus;
    /* Only here, between calls, may the names handed out before go away. */
    if (use_cache &&
        (f->names.used_total > FS_FILTER_CACHE_BYTES || f->count > FS_FILTER_CACHE_ENTRIES))
        reset_cache(f);
    if (use_cache && FS_GROW(f->line, f->line_cap, *n, 64) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    if (same > f->line_n)
        same = f->line_n;
    f->line_n = same;
    size_t k = 0, focus_at = SIZE_MAX, nonempty = 0;
    unsigned seen = 0;
    /* The first frame whose verdict is unknown, per kind (focus: only before the first
     * focused frame counts). */
    const cache_entry *unknown_inc = NULL, *unknown_exc = NULL, *unknown_foc = NULL;
    for (size_t i = 0; i < *n; i++) {
        fs_strref fr = frames[i];
        if (use_cache) {
            if (i >= same) {
                if (f->screened && untouched(f, fr.ptr, fr.len)) {
                    /* out NULL: the name as given */
                    f->line[i] = (cache_entry){.klen = fr.len, .olen = fr.len};
                } else {
                    const cache_entry *e = lookup(f, fr.ptr, fr.len);
                    if (!e)
                        return FOLDSVG_E_NOMEM;
                    f->line[i] = *e;
                }
                f->line_n = i + 1;
            }
            const cache_entry *e = &f->line[i];
            if (f->limited >= FS_FILTER_LIMITED_NAMES && (e->flags & LIMITED))
                return budget_error(f, e);
            if (e->flags & U_STRIP)
                return limit_error(f, &e->hit, e->key, e->klen);
            /* Only names that --strip emptied go; an empty name in the input stays. */
            if (e->olen == 0 && fr.len > 0)
                continue;
            if (e->flags & M_EXCLUDE)
                return drop(out, FS_DROP_EXCLUDE); /* whatever the unknowns say */
            seen |= e->flags;
            if ((e->flags & U_INCLUDE) && !unknown_inc)
                unknown_inc = e;
            if ((e->flags & U_EXCLUDE) && !unknown_exc)
                unknown_exc = e;
            if ((e->flags & U_FOCUS) && !unknown_foc && focus_at == SIZE_MAX)
                unknown_foc = e;
            if ((e->flags & M_FOCUS) && focus_at == SIZE_MAX)
                focus_at = k;
            if (e->out) {
                fr.ptr = e->out;
                fr.len = e->olen;
            }
        }
        frames[k++] = fr;
        nonempty += fr.len > 0;
    }
    /* Empty names kept from the input cannot make a stack on their own: a stack of only
     * empty names would be written as an empty (invalid) folded path. */
    if (nonempty == 0)
        k = 0;
    if (k == 0) {
        /* The caller records an emptied stack as [unknown]: filter it as that. */
        seen = f->unknown_flags;
        if (seen & M_EXCLUDE)
            return drop(out, FS_DROP_EXCLUDE);
        focus_at = (seen & M_FOCUS) ? 0 : SIZE_MAX;
        unknown_inc = unknown_exc = unknown_foc = NULL;
        unsigned u = seen & (U_INCLUDE | U_EXCLUDE | U_FOCUS);
        if (u)
            return unknown_verdict(f,
                                   u & U_EXCLUDE   ? U_EXCLUDE
                                   : u & U_INCLUDE ? U_INCLUDE
                                                   : U_FOCUS,
                                   FS_UNKNOWN_FRAME, sizeof FS_UNKNOWN_FRAME - 1);
    }
    if (unknown_exc)
        return unknown_verdict(f, U_EXCLUDE, unknown_exc->out, unknown_exc->olen);
    if (f->ninclude && !(seen & M_INCLUDE)) {
        if (unknown_inc)
            return unknown_verdict(f, U_INCLUDE, unknown_inc->out, unknown_inc->olen);
        return drop(out, FS_DROP_INCLUDE);
    }
    if (f->nfocus) {
        if (unknown_foc)
            return unknown_verdict(f, U_FOCUS, unknown_foc->out, unknown_foc->olen);
        if (focus_at == SIZE_MAX)
            return drop(out, FS_DROP_FOCUS);
        if (focus_at > 0) {
            memmove(frames, frames + focus_at, (k - focus_at) * sizeof *frames);
            k -= focus_at;
        }
    }
    if (f->collapse_recursion && k > 1) {
        size_t w = 1;
        for (size_t i = 1; i < k; i++) {
            const fs_strref *prev = &frames[w - 1];
            if (frames[i].len == prev->len && (prev->len == 0 || frames[i].ptr == prev->ptr ||
                                               memcmp(frames[i].ptr, prev->ptr, prev->len) == 0))
                continue;
            frames[w++] = frames[i];
        }
        k = w;
    }
    *n = k;
    return FOLDSVG_OK;
}
