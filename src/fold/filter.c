/* Stack filters and name transforms with PCRE2. Patterns are compiled once (util/regex.h;
 * JIT when the library has it).
 *
 * Folded input calls fs_filter_apply once per line, and the same few thousand names recur
 * on millions of lines, so what the patterns say about a name (its stripped form and which
 * of --include/--exclude/--focus match it) is cached by name. The cache is bounded: it is
 * dropped and rebuilt when it grows past FS_FILTER_CACHE_BYTES, which only costs speed. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "fold/filter.h"

#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fold/sanitize.h"
#include "fold/stackopts.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/regex.h"

enum {
    FS_FILTER_CACHE_BYTES = 64 << 20,
    FS_FILTER_CACHE_ENTRIES = 1 << 21,
    /* The JIT's default 32 KiB stack is too small for backtracking patterns on long
     * generic names (the SP1 generator has one of 5 KB). */
    FS_FILTER_JIT_STACK_MAX = 1 << 20,
};

enum { M_INCLUDE = 1, M_EXCLUDE = 2, M_FOCUS = 4 };

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
    unsigned flags; /* M_* of the name after --strip */
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
    int nomem; /* a match ran out of memory */

    char *scratch[2]; /* ping-pong buffers for successive --strip patterns */
    size_t scratch_cap;

    cache_entry *table;
    size_t cap, count; /* cap is a power of two */
    fs_arena names;
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
    fs_arena_free(&f->names);
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

static int matches(fs_filter *f, pcre2_code *code, const char *s, size_t len)
{
    int rc = pcre2_match(code, (PCRE2_SPTR)(s ? s : ""), len, 0, 0, f->md, f->mctx);
    if (rc == PCRE2_ERROR_NOMEMORY)
        f->nomem = 1;
    /* Other errors (match or JIT stack limits on pathological patterns) count as no
     * match: the name is then treated the same way on every line. */
    return rc >= 0;
}

static unsigned match_flags(fs_filter *f, const char *s, size_t len)
{
    unsigned m = 0;
    for (size_t i = 0; i < f->ninclude && !(m & M_INCLUDE); i++)
        if (matches(f, f->include[i], s, len))
            m |= M_INCLUDE;
    for (size_t i = 0; i < f->nexclude && !(m & M_EXCLUDE); i++)
        if (matches(f, f->exclude[i], s, len))
            m |= M_EXCLUDE;
    for (size_t i = 0; i < f->nfocus && !(m & M_FOCUS); i++)
        if (matches(f, f->focus[i], s, len))
            m |= M_FOCUS;
    return m;
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
    foldsvg_status st = compile_list(&f->strip, &f->nstrip, rust, "strip", &opts->strip, err);
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
        if (!f->md || !f->mctx)
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        else if (f->jit_stack)
            pcre2_jit_stack_assign(f->mctx, NULL, f->jit_stack);
    }
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
static int strip_one(fs_filter *f, pcre2_code *code, const char *s, size_t len, char *out,
                     size_t *olen)
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
            if (strip_one(f, f->strip[p], s, slen, f->scratch[which], &nlen)) {
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
    }
    e.flags = match_flags(f, e.out, e.olen);
    if (f->nomem)
        return NULL;
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
    fs_arena_free(&f->names);
    fs_arena_init(&f->names);
}

static foldsvg_status drop(fs_drop *out, fs_drop why)
{
    *out = why;
    return FOLDSVG_OK;
}

foldsvg_status fs_filter_apply(fs_filter *f, fs_strref *frames, size_t *n, fs_drop *out)
{
    *out = FS_DROP_NONE;
    if (!f)
        return FOLDSVG_OK;
    int use_cache = f->nstrip || f->ninclude || f->nexclude || f->nfocus;
    /* Only here, between calls, may the names handed out before go away. */
    if (use_cache &&
        (f->names.used_total > FS_FILTER_CACHE_BYTES || f->count > FS_FILTER_CACHE_ENTRIES))
        reset_cache(f);
    size_t k = 0, focus_at = SIZE_MAX, nonempty = 0;
    unsigned seen = 0;
    for (size_t i = 0; i < *n; i++) {
        fs_strref fr = frames[i];
        if (use_cache) {
            const cache_entry *e = lookup(f, fr.ptr, fr.len);
            if (!e)
                return FOLDSVG_E_NOMEM;
            /* Only names that --strip emptied go; an empty name in the input stays. */
            if (e->olen == 0 && fr.len > 0)
                continue;
            if (e->flags & M_EXCLUDE)
                return drop(out, FS_DROP_EXCLUDE);
            seen |= e->flags;
            if ((e->flags & M_FOCUS) && focus_at == SIZE_MAX)
                focus_at = k;
            fr.ptr = e->out;
            fr.len = e->olen;
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
    }
    if (f->ninclude && !(seen & M_INCLUDE))
        return drop(out, FS_DROP_INCLUDE);
    if (f->nfocus) {
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
