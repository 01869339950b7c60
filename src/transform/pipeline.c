#include "transform/pipeline.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "transform/filter.h"
#include "transform/fracsum.h"
#include "transform/hexstrip.h"
#include "transform/sanitize.h"
#include "transform/window.h"
#include "util/buf.h"
#include "util/bytepos.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"
#include "util/strmap.h"
#include "util/utf8.h"

/* How many bytes of stacks the window holds: stacks that --collapse-recursion moves further
 * back than that come out of order (the stream engine then sorts them all). */
enum { FS_WINDOW_BYTES = 1 << 20 };

struct fs_pipeline {
    fs_sink sink; /* first: readers call back with a pointer to it */
    const fs_stack_opts *o;
    fs_consumer to;
    int use_base;      /* --base applies (not under --flamechart or --no-sort) */
    int rewrites;      /* some transform applies: folded lines are split */
    int direct;        /* nothing but the zero-count rule applies to folded lines */
    fs_filter *filter; /* the current input's: NULL when no filter is set */
    /* the filters of inputs as the options say (plain), and of symbolized ones, which drop
     * Rust hashes unless kept (sym: NULL when the same as plain) */
    fs_filter *plain, *sym;
    /* a symbolized input: the counts of its stacks, and of those whose leaf is a raw
     * address ("0x43e8": the symbolizer did not run), for a word about it at its end */
    int symbolized;
    uint64_t counted, raw;
    char raw_name[32];
    char name[1024]; /* the current input */
    /* --no-sort: the previous valid line */
    fs_buf prev;
    uint64_t prev_line;
    int have_prev;
    fs_strref *frames; /* the stack being transformed */
    size_t frames_cap;
    /* The last folded line (have_bytes), and where each of its frames ends: the next line,
     * which in sorted input shares most of its frames, is split and transformed past them
     * only (have_last: 0 when the steps did not see it split). Its bytes: the window's copy
     * of it when it went there whole, else LAST (own_last) */
    const char *last_data;
    size_t last_len;
    fs_buf last;
    int have_bytes, own_last;
    size_t *ends;
    size_t ends_cap, nlast;
    int have_last;
    /* screen: a folded line whose frames the steps leave as they are (the filters say so at
     * a glance: fs_filter_screen) goes on whole; clean_to: in the last line, the frames that
     * start before it are such frames */
    int screen;
    size_t clean_to;
    /* --collapse-recursion may put a stack before those just before it: paths wait in a
     * window to be passed on in order (use_window) */
    int use_window;
    fs_window window;
    int tail_whole; /* the window's last stack is the last line, as it came (pass) */
    fs_buf names;   /* sanitized names of the stack */
    /* fs_sink.shared: the last stack's frames sanitized (before the transforms), the first
     * SHARED_N of them good for the next; those from SCRATCH_AT on lie in NAMES. Good only
     * while no other stack went through add_stack (STACKS counts them). */
    fs_strref *clean;
    size_t clean_cap, shared_n, scratch_at;
    uint64_t stacks, shared_stacks;
    fs_buf path; /* the stack joined, for a consumer of paths only */
    fs_buf hex;  /* --strip-hex: the rewritten names of the stack */
    struct hex_span {
        size_t off, len;
        size_t end; /* hex's length after this frame */
    } * hex_spans;  /* where each rewritten name lies in hex (off SIZE_MAX: untouched) */
    size_t hex_cap;
    fs_fracsum frac;
    fs_drops drops;
    /* fs_sink.again: the consumer's token of each stack the reader keyed in this input (the
     * steps above are the same for the same frames, so a key stands for what they made) */
    fs_strmap keys;
};

static void note_drop(fs_drops *d, fs_drop why, const char *input)
{
    d->n[why]++;
    int by_option = why != FS_DROP_ZERO;
    if (!d->input[0] || (by_option && !d->by_option)) {
        snprintf(d->input, sizeof d->input, "%s", input);
        d->by_option = by_option;
    }
}

void fs_drops_add(fs_drops *to, const fs_drops *from)
{
    for (int i = FS_DROP_NONE + 1; i < FS_DROP_N; i++) {
        to->n[i] += from->n[i];
        if (!to->what[i][0])
            memcpy(to->what[i], from->what[i], sizeof to->what[i]);
    }
    if (from->input[0] && (!to->input[0] || (from->by_option && !to->by_option))) {
        snprintf(to->input, sizeof to->input, "%s", from->input);
        to->by_option = from->by_option;
    }
}

int fs_drops_by_option(const fs_drops *d)
{
    return d->by_option;
}

/* A stack with nothing to draw: dropped by the zero-count rule. */
static foldsvg_status zero_count(fs_pipeline *pl)
{
    note_drop(&pl->drops, FS_DROP_ZERO, pl->name);
    return FOLDSVG_OK;
}

static const fs_strref unknown_frame = {FS_UNKNOWN_FRAME, sizeof FS_UNKNOWN_FRAME - 1};

static foldsvg_status nomem(fs_pipeline *pl, uint64_t line, foldsvg_error *err)
{
    if (line)
        return fs_error_at_line(err, FOLDSVG_E_NOMEM, pl->name, line, 0, "out of memory");
    return fs_error(err, FOLDSVG_E_NOMEM, pl->name, "out of memory");
}

foldsvg_status fs_unsorted_error(foldsvg_error *err, const char *name, uint64_t line,
                                 uint64_t prev_line)
{
    return fs_error_at_line(err, FOLDSVG_E_UNSORTED, name, line, 0,
                            "unsorted input lines detected: this stack sorts before the one on "
                            "line %llu; drop --no-sort or sort the input",
                            (unsigned long long)prev_line);
}

/* inferno reverses a folded line's text and trims the reversed line as a whole, so that the
 * new root frame (the old leaf) loses its leading and the new leaf its trailing whitespace:
 * `a;impl for [T; _]>::f` gives `_]>::f`, `impl for [T`, `a`. Frames in between keep theirs.
 * (The reader trimmed the other two ends already.) */
static void trim_reversed(fs_strref *f, size_t n)
{
    size_t lead = fs_utf8_trim_start(f[0].ptr, f[0].len);
    f[0].ptr += lead;
    f[0].len -= lead;
    f[n - 1].len = fs_utf8_trim_end(f[n - 1].ptr, f[n - 1].len);
}

/* --strip-hex on F[0..n) (the first SAME as the last stack's): rewritten names go to
 * pl->hex, the frames are pointed at them once the buffer has stopped moving. */
static foldsvg_status strip_hex(fs_pipeline *pl, fs_strref *f, size_t n, size_t same)
{
    FS_FORWARD_IF_ERROR(FS_GROW(pl->hex_spans, pl->hex_cap, n, 64));
    pl->hex.len = same ? pl->hex_spans[same - 1].end : 0;
    int any = pl->hex.len > 0;
    for (size_t i = same; i < n; i++) {
        pl->hex_spans[i] = (struct hex_span){SIZE_MAX, 0, pl->hex.len};
        if (!fs_hex_strippable(f[i].ptr, f[i].len))
            continue;
        size_t at = pl->hex.len;
        FS_FORWARD_IF_ERROR(fs_hex_strip(&pl->hex, f[i].ptr, f[i].len));
        pl->hex_spans[i] = (struct hex_span){at, pl->hex.len - at, pl->hex.len};
        any = 1;
    }
    for (size_t i = 0; any && i < n; i++)
        if (pl->hex_spans[i].off != SIZE_MAX)
            f[i] = (fs_strref){pl->hex.data + pl->hex_spans[i].off, pl->hex_spans[i].len};
    return FOLDSVG_OK;
}

/* --strip-hex, --reverse, the filters and --base on pl->frames[0..*n), of which the first
 * SAME are the last stack's; LINE: the frames are a folded line's text. Sets *DROP to
 * FS_DROP_NONE (the stack goes on from pl->frames[*first]) or to the step that drops it. */
static foldsvg_status transform(fs_pipeline *pl, size_t *n, size_t same, size_t *first,
                                fs_drop *drop, int line)
{
    fs_strref *f = pl->frames;
    *first = 0;
    *drop = FS_DROP_NONE;
    if (*n == 0) {
        f[0] = unknown_frame;
        *n = 1;
    }
    if (pl->o->strip_hex)
        FS_FORWARD_IF_ERROR(strip_hex(pl, f, *n, same));
    if (pl->o->reverse) {
        same = 0;
        for (size_t i = 0, j = *n - 1; i < j; i++, j--) {
            fs_strref t = f[i];
            f[i] = f[j];
            f[j] = t;
        }
        if (line)
            trim_reversed(f, *n);
    }
    if (pl->filter) {
        FS_FORWARD_IF_ERROR(fs_filter_apply(pl->filter, f, n, same, drop));
        if (*drop != FS_DROP_NONE)
            return FOLDSVG_OK;
        if (*n == 0) {
            f[0] = unknown_frame;
            *n = 1;
        }
    }
    if (pl->use_base) {
        /* The deepest base symbol above the leaf starts the stack; a stack without one,
         * or whose match is its outermost frame, is dropped (inferno's rule). */
        size_t i = *n - 1;
        int found = 0;
        while (i-- > 0) {
            if (fs_strlist_has(&pl->o->base, f[i].ptr, f[i].len)) {
                found = 1;
                break;
            }
        }
        if (!found || i == 0)
            *drop = FS_DROP_BASE;
        else
            *first = i;
    }
    return FOLDSVG_OK;
}

/* Whether F is a raw address: "0x" and hex digits. */
static int raw_address(const fs_strref *f)
{
    if (f->len < 3 || f->len > 18 || f->ptr[0] != '0' || f->ptr[1] != 'x')
        return 0;
    for (size_t i = 2; i < f->len; i++)
        if (!isxdigit((unsigned char)f->ptr[i]))
            return 0;
    return 1;
}

static void note_raw(fs_pipeline *pl, const fs_strref *leaf, uint64_t count)
{
    pl->counted += count;
    if (!raw_address(leaf))
        return;
    pl->raw += count;
    if (!pl->raw_name[0])
        snprintf(pl->raw_name, sizeof pl->raw_name, "%.*s", (int)leaf->len, leaf->ptr);
}

/* A word when most of a symbolized input's samples end in raw addresses. */
static void warn_raw(fs_pipeline *pl)
{
    if (!pl->symbolized || pl->raw == 0 || pl->raw * 2 < pl->counted || !pl->to.warn)
        return;
    foldsvg_error w;
    fs_error(&w, FOLDSVG_OK, pl->name,
             "%.0f%% of the samples end in raw addresses such as %s: the profile was not "
             "symbolicated (for samply, `samply load FILE` symbolicates with the binaries at "
             "hand; save it from the profiler, then draw that file)",
             100.0 * (double)pl->raw / (double)pl->counted, pl->raw_name);
    pl->to.warn(pl->to.user, &w);
}

/* The consumer's path, through the window when there is one. WHOLE: L is the input's line
 * as it came; AFTER_TAIL: it does not sort before the last stack held (fs_window_put). */
static foldsvg_status pass(fs_pipeline *pl, const fs_folded_line *l, int whole, int after_tail,
                           foldsvg_error *err)
{
    if (!pl->use_window)
        return pl->to.path(pl->to.user, l, err);
    foldsvg_status st = fs_window_put(&pl->window, l, after_tail, err);
    pl->tail_whole = whole && pl->window.tail_put;
    if (!pl->own_last) /* the window's copy of the last line may go with this put */
        pl->have_bytes = 0;
    return st;
}

/* The consumer's frames, or its path when it takes only paths; with TOKEN, its frames_token. */
static foldsvg_status deliver(fs_pipeline *pl, const fs_strref *f, size_t n, uint64_t count,
                              uint64_t before, int is_diff, uint64_t lineno, uint32_t *token,
                              foldsvg_error *err)
{
    if (token)
        return pl->to.frames_token(pl->to.user, f, n, count, token, err);
    if (pl->to.frames)
        return pl->to.frames(pl->to.user, f, n, count, before, is_diff, lineno, err);
    size_t len = n - 1;
    for (size_t i = 0; i < n; i++)
        len += f[i].len;
    fs_buf_clear(&pl->path);
    if (fs_buf_reserve(&pl->path, len) != FOLDSVG_OK)
        return nomem(pl, lineno, err);
    char *p = pl->path.data;
    for (size_t i = 0; i < n; i++) {
        if (i)
            *p++ = ';';
        if (f[i].len)
            memcpy(p, f[i].ptr, f[i].len);
        p += f[i].len;
    }
    *p = '\0';
    pl->path.len = len;
    fs_folded_line l = {.stack = pl->path.data,
                        .len = pl->path.len,
                        .count = count,
                        .before = before,
                        .is_diff = is_diff,
                        .lineno = lineno};
    return pass(pl, &l, 0, 0, err);
}

/* The stack in pl->frames[0..n) (the first SAME the last stack's), from the transforms on;
 * LINE: from a folded line. TOKEN: NULL, or where the consumer's token goes (set only when
 * no step dropped the stack). */
static foldsvg_status add_stack(fs_pipeline *pl, size_t n, size_t same, uint64_t count,
                                uint64_t before, int is_diff, uint64_t lineno, int line,
                                uint32_t *token, foldsvg_error *err)
{
    size_t first;
    fs_drop drop;
    pl->stacks++;
    foldsvg_status st = transform(pl, &n, same, &first, &drop, line);
    if (st == FOLDSVG_E_LIMIT)
        return fs_error_at_line(err, st, pl->name, lineno, 0, "%s", fs_filter_message(pl->filter));
    if (st != FOLDSVG_OK)
        return fs_error_at_line(err, FOLDSVG_E_NOMEM, pl->name, lineno, 0, "out of memory");
    if (drop != FS_DROP_NONE) {
        note_drop(&pl->drops, drop, pl->name);
        return FOLDSVG_OK;
    }
    if (pl->symbolized)
        note_raw(pl, &pl->frames[n - 1], count);
    return deliver(pl, pl->frames + first, n - first, count, before, is_diff, lineno, token, err);
}

/* Where the frame of S that holds byte AT starts. */
static size_t frame_start(const char *s, size_t at)
{
    return fs_byte_after_last(s, at, ';');
}

/* The start of the first frame of S[from..len) named as the one before it, that frame's ';'
 * lying before DIRTY; DIRTY when there is none. The frames are walked off 64-byte masks of
 * their ';', with the line's end as the last one's. */
static size_t repeat_at(const char *s, size_t from, size_t len, size_t dirty)
{
    size_t a = from, prev = SIZE_MAX; /* the frame's start, the length of the one before */
    for (size_t i = from;; i += 64) {
        size_t n = len - i < 64 ? len - i : 64;
        uint64_t m = fs_byte_mask(s, len, i, ';');
        if (n < 64)
            m |= (uint64_t)1 << n;
        for (; m; m &= m - 1) {
            size_t p = i + fs_ctz64(m);
            if (p - a == prev && memcmp(s + a - prev - 1, s + a, prev) == 0)
                return a;
            if (p >= dirty)
                return dirty;
            prev = p - a;
            a = p + 1;
        }
        if (n < 64)
            return dirty;
    }
}

/* Whether the steps leave every frame of L as it is, L differing from the last line first at
 * AT: its frames before the one that holds AT are the last line's, the rest are screened. */
static int clean_line(fs_pipeline *pl, const fs_folded_line *l, size_t at)
{
    if (l->stack[0] == ';') /* an empty root: maybe a stack of empty names, "[unknown]" */
        return 0;
    size_t from = frame_start(l->stack, at);
    if (from > pl->clean_to)
        return 0;
    if (from > 0 && pl->o->collapse_recursion) /* the frame before too */
        from = frame_start(l->stack, from - 1);
    size_t dirty = fs_filter_screen(pl->filter, l->stack + from, l->len - from);
    dirty = dirty == SIZE_MAX ? l->len + 1 : from + dirty;
    if (pl->o->collapse_recursion) /* a frame named as the one before it */
        dirty = repeat_at(l->stack, from, l->len, dirty);
    pl->clean_to = dirty > l->len ? SIZE_MAX : dirty;
    return dirty > l->len;
}

/* A line with nothing to draw, for the zero-count rule. */
static int zero_line(const fs_folded_line *l)
{
    return l->count == 0 && !(l->is_diff && l->before > 0);
}

static foldsvg_status on_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->direct) /* the common case, per line: straight through */
        return zero_line(l) ? zero_count(pl) : pl->to.path(pl->to.user, l, err);
    if (pl->o->no_sort) {
        if (pl->have_prev && fs_strcmp_bytes(l->stack, l->len, pl->prev.data, pl->prev.len) < 0)
            return fs_unsorted_error(err, pl->name, l->lineno, pl->prev_line);
        fs_buf_clear(&pl->prev);
        if (fs_buf_append(&pl->prev, l->stack, l->len) != FOLDSVG_OK)
            return nomem(pl, 0, err);
        pl->have_prev = 1;
        pl->prev_line = l->lineno;
    }
    if (zero_line(l))
        return zero_count(pl);
    if (!pl->rewrites && pl->to.path)
        return pl->to.path(pl->to.user, l, err);
    /* the last stack held is the last line (tail), before which L does not sort (after) */
    int tail = pl->tail_whole, after = 0;
    pl->tail_whole = 0;
    size_t at = 0; /* where L first differs from the last line */
    if (pl->have_bytes) {
        size_t m = l->len < pl->last_len ? l->len : pl->last_len;
        at = fs_mismatch(l->stack, pl->last_data, m);
        after = at == pl->last_len ||
                (at < l->len && (unsigned char)l->stack[at] > (unsigned char)pl->last_data[at]);
    }
    int clean = pl->screen && clean_line(pl, l, at);
    if (clean && pl->use_window) {
        pl->have_last = 0;
        foldsvg_status st = pass(pl, l, 1, tail && after, err);
        pl->last_data = pl->window.last;
        pl->last_len = l->len;
        pl->have_bytes = st == FOLDSVG_OK;
        pl->own_last = 0;
        return st;
    }
    /* (L's first AT bytes are the last line's: in LAST already when it holds that) */
    pl->last.len = pl->own_last ? at : 0;
    if (fs_buf_append(&pl->last, l->stack + pl->last.len, l->len - pl->last.len) != FOLDSVG_OK) {
        pl->have_bytes = 0;
        return nomem(pl, 0, err);
    }
    pl->last_data = pl->last.data;
    pl->last_len = l->len;
    pl->have_bytes = pl->own_last = 1;
    if (clean) {
        pl->have_last = 0;
        return pass(pl, l, 1, tail && after, err);
    }
    /* the frames that end (their ';' included) before AT are the last line's */
    size_t same = 0;
    while (pl->have_last && same < pl->nlast && pl->ends[same] < at)
        same++;
    size_t start = 0, n = same;
    for (size_t k = 0; k < same; k++) {
        pl->frames[k] = (fs_strref){l->stack + start, pl->ends[k] - start};
        start = pl->ends[k] + 1;
    }
    while (start <= l->len) {
        const char *semi = memchr(l->stack + start, ';', l->len - start);
        size_t end = semi ? (size_t)(semi - l->stack) : l->len;
        if (FS_GROW(pl->frames, pl->frames_cap, n + 1, 64) != FOLDSVG_OK ||
            FS_GROW(pl->ends, pl->ends_cap, n + 1, 64) != FOLDSVG_OK)
            return nomem(pl, 0, err);
        pl->frames[n] = (fs_strref){l->stack + start, end - start};
        pl->ends[n++] = end;
        start = end + 1;
    }
    pl->nlast = n;
    pl->have_last = 1;
    return add_stack(pl, n, same, l->count, l->before, l->is_diff, l->lineno, 1, NULL, err);
}

/* A stack of raw names from a structured input: sanitized, then transformed; TOKEN as for
 * add_stack. */
static foldsvg_status add_raw(fs_pipeline *pl, const fs_strref *frames, size_t n, uint64_t count,
                              uint32_t *token, foldsvg_error *err)
{
    if (count == 0)
        return zero_count(pl);
    if (FS_GROW(pl->frames, pl->frames_cap, n + 1, 64) != FOLDSVG_OK)
        return nomem(pl, 0, err);
    if (fs_sanitize_frames(pl->frames, frames, n, &pl->names, &n) != FOLDSVG_OK)
        return nomem(pl, 0, err);
    pl->have_last = 0;
    return add_stack(pl, n, 0, count, 0, 0, 0, 0, token, err);
}

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    return add_raw((fs_pipeline *)(void *)self, frames, n, count, NULL, err);
}

/* fs_sink.shared: on_stack, sanitizing only the frames the last stack did not have (the
 * filter's and --strip-hex's own memory of its frames spare them again). */
static foldsvg_status on_shared(fs_sink *self, const fs_strref *frames, size_t n, size_t same,
                                uint64_t count, foldsvg_error *err)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->shared_stacks != pl->stacks)
        pl->shared_n = 0;
    if (same > pl->shared_n)
        same = pl->shared_n;
    if (same > pl->scratch_at) /* fs_sanitize_frames empties NAMES */
        same = pl->scratch_at;
    pl->shared_n = same;
    if (count == 0)
        return zero_count(pl);
    if (FS_GROW(pl->clean, pl->clean_cap, n + 1, 64) != FOLDSVG_OK ||
        FS_GROW(pl->frames, pl->frames_cap, n + 1, 64) != FOLDSVG_OK)
        return nomem(pl, 0, err);
    size_t kept;
    if (fs_sanitize_frames(pl->clean + same, frames + same, n - same, &pl->names, &kept) !=
        FOLDSVG_OK)
        return nomem(pl, 0, err);
    pl->scratch_at = SIZE_MAX;
    for (size_t i = same; i < n && pl->names.len && pl->scratch_at == SIZE_MAX; i++)
        if (pl->clean[i].ptr >= pl->names.data && pl->clean[i].ptr < pl->names.data + pl->names.len)
            pl->scratch_at = i;
    int nonempty = kept > 0;
    for (size_t i = 0; i < same && !nonempty; i++)
        nonempty = pl->clean[i].len > 0;
    size_t m = nonempty ? n : 0; /* a stack of empty names is [unknown] */
    memcpy(pl->frames, pl->clean, m * sizeof *pl->frames);
    pl->have_last = 0;
    foldsvg_status st = add_stack(pl, m, m ? same : 0, count, 0, 0, 0, 0, NULL, err);
    pl->shared_n = m; /* ([unknown] is not the empty names the filter saw) */
    pl->shared_stacks = pl->stacks;
    return st;
}

/* fs_sink.keyed: on_stack, the consumer's token for what the steps made of the frames
 * remembered under KEY (a stack a step dropped is not: it goes through them each time, each
 * drop counted). */
static foldsvg_status on_keyed(fs_sink *self, uint64_t key, const fs_strref *frames, size_t n,
                               uint64_t count, foldsvg_error *err)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    uint32_t token = UINT32_MAX, entry; /* no stack's: a node id is below UINT32_MAX - 1 */
    FS_FORWARD_IF_ERROR(add_raw(pl, frames, n, count, &token, err));
    if (token != UINT32_MAX && fs_strmap_put(&pl->keys, &key, sizeof key, token, &entry, NULL))
        return nomem(pl, 0, err);
    return FOLDSVG_OK;
}

static foldsvg_status on_again(fs_sink *self, uint64_t key, uint64_t count, int *known,
                               foldsvg_error *err)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    *known = 0;
    uint32_t entry = fs_strmap_find(&pl->keys, &key, sizeof key);
    if (entry == FS_STRMAP_NONE)
        return FOLDSVG_OK;
    *known = 1;
    if (count == 0)
        return zero_count(pl);
    return pl->to.again(pl->to.user, fs_strmap_value(&pl->keys, entry), count, err);
}

static foldsvg_status on_weight(fs_sink *self, const fs_strref *frames, size_t n,
                                const fs_weight *w, foldsvg_error *err)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    return fs_fracsum_add(&pl->frac, frames, n, w, pl->name, err);
}

static foldsvg_status on_rounded(void *user, const fs_strref *frames, size_t n, uint64_t count,
                                 foldsvg_error *err)
{
    return on_stack(user, frames, n, count, err);
}

static void on_count_name(fs_sink *self, const char *name)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->to.count_name)
        pl->to.count_name(pl->to.user, name);
}

static void on_facts(fs_sink *self, const char *format, const char *product, uint32_t threads,
                     uint64_t rate)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->to.facts)
        pl->to.facts(pl->to.user, format, product, threads, rate);
}

static void on_stats(fs_sink *self, const fs_folded_stats *s)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->to.stats)
        pl->to.stats(pl->to.user, s);
}

static void on_warn(fs_sink *self, const foldsvg_error *w)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->to.warn)
        pl->to.warn(pl->to.user, w);
}

static void on_threads(fs_sink *self, const char *names)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->to.threads)
        pl->to.threads(pl->to.user, names);
}

static void on_say(fs_sink *self, const char *line)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    if (pl->to.say)
        pl->to.say(pl->to.user, line);
}

/* A part of the input read on another thread (fs_sink.fork): the lines of a direct pipeline
 * go to the consumer's part, the stacks dropped counted apart until it is joined. */
typedef struct pipe_part {
    fs_sink sink; /* first: the reader calls back with a pointer to it */
    fs_pipeline *pl;
    void *part;
    fs_drops drops;
} pipe_part;

static foldsvg_status part_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    pipe_part *pp = (pipe_part *)(void *)self;
    if (zero_line(l)) {
        note_drop(&pp->drops, FS_DROP_ZERO, pp->pl->name);
        return FOLDSVG_OK;
    }
    return pp->pl->to.part_path(pp->part, l, err);
}

static fs_sink *on_fork(fs_sink *self)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    pipe_part *pp = calloc(1, sizeof *pp);
    if (!pp)
        return NULL;
    pp->pl = pl;
    pp->sink.line = part_line;
    pp->part = pl->to.fork(pl->to.user);
    if (!pp->part) {
        free(pp);
        return NULL;
    }
    return &pp->sink;
}

static foldsvg_status on_join(fs_sink *self, fs_sink *part, uint64_t lines_before, int *joined,
                              foldsvg_error *err)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    pipe_part *pp = (pipe_part *)(void *)part;
    foldsvg_status st = pl->to.join(pl->to.user, pp->part, lines_before, joined, err);
    if (*joined)
        fs_drops_add(&pl->drops, &pp->drops);
    return st;
}

static void on_drop(fs_sink *self, fs_sink *part)
{
    fs_pipeline *pl = (fs_pipeline *)(void *)self;
    pipe_part *pp = (pipe_part *)(void *)part;
    pl->to.drop(pl->to.user, pp->part);
    free(pp);
}

foldsvg_status fs_pipeline_new(fs_pipeline **out, const fs_stack_opts *o, const fs_consumer *to,
                               foldsvg_error *err)
{
    *out = NULL;
    fs_pipeline *pl = calloc(1, sizeof *pl);
    if (!pl)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    pl->sink = (fs_sink){.stack = on_stack,
                         .shared = on_shared,
                         .count_name = on_count_name,
                         .facts = on_facts,
                         .line = on_line,
                         .stats = on_stats,
                         .weight = on_weight,
                         .warn = on_warn,
                         .threads = on_threads,
                         .say = on_say};
    pl->o = o;
    pl->to = *to;
    fs_strmap_init(&pl->keys, FS_STRMAP_OWNED); /* before anything can fail: freed with PL */
    pl->use_base = o->base.n > 0 && !o->flamechart && !o->no_sort;
    foldsvg_status st = fs_filter_new(&pl->plain, o, err);
    pl->filter = pl->plain;
    if (st == FOLDSVG_OK && !o->strip_rust_hash && !o->keep_rust_hash) {
        fs_stack_opts so = *o;
        so.strip_rust_hash = 1;
        st = fs_filter_new(&pl->sym, &so, err);
    }
    if (st == FOLDSVG_OK && FS_GROW(pl->frames, pl->frames_cap, 64, 64) != FOLDSVG_OK)
        st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st) {
        fs_pipeline_free(pl);
        return st;
    }
    if (to->frames_token && to->again) {
        pl->sink.again = on_again;
        pl->sink.keyed = on_keyed;
    }
    pl->rewrites = o->reverse || pl->use_base || pl->filter || o->strip_hex;
    pl->direct = !pl->rewrites && !o->no_sort && to->path;
    /* (a flame chart keeps the input's order, --no-sort checks it as it comes; reversed
     * stacks are in no order the window could mend) */
    pl->use_window = o->collapse_recursion && !o->reverse && !o->flamechart && !o->no_sort &&
                     !to->frames && to->path;
    fs_window_init(&pl->window, FS_WINDOW_BYTES, to->path, to->user);
    if (pl->direct && to->fork) { /* a part's lines go straight through too */
        pl->sink.fork = on_fork;
        pl->sink.join = on_join;
        pl->sink.drop = on_drop;
    }
    *out = pl;
    return FOLDSVG_OK;
}

void fs_pipeline_free(fs_pipeline *pl)
{
    if (!pl)
        return;
    fs_filter_free(pl->plain);
    fs_filter_free(pl->sym);
    fs_buf_free(&pl->prev);
    free(pl->clean);
    fs_buf_free(&pl->last);
    fs_window_free(&pl->window);
    free(pl->ends);
    fs_buf_free(&pl->names);
    fs_buf_free(&pl->path);
    fs_buf_free(&pl->hex);
    free(pl->hex_spans);
    fs_fracsum_free(&pl->frac);
    fs_strmap_free(&pl->keys);
    free(pl->frames);
    free(pl);
}

const fs_drops *fs_pipeline_drops(const fs_pipeline *pl)
{
    return &pl->drops;
}

void fs_pipeline_reset_drops(fs_pipeline *pl)
{
    memset(&pl->drops, 0, sizeof pl->drops);
}

int fs_pipeline_rewrites(const fs_pipeline *pl)
{
    return pl->rewrites;
}

/* The filters of an input, symbolized (YES) or not, from its first line on. */
static void use_filter(fs_pipeline *pl, int yes)
{
    pl->filter = yes && pl->sym ? pl->sym : pl->plain;
    pl->symbolized = yes;
    pl->have_bytes = pl->have_last = pl->own_last = 0;
    pl->clean_to = SIZE_MAX;
    /* a symbolized input's leaves are looked at (note_raw) */
    pl->screen = pl->filter && !yes && !pl->o->reverse && !pl->use_base && !pl->o->strip_hex &&
                 !pl->to.frames && pl->to.path && fs_filter_screens(pl->filter);
}

fs_sink *fs_pipeline_begin(fs_pipeline *pl, const char *name)
{
    snprintf(pl->name, sizeof pl->name, "%s", name ? name : "");
    pl->have_prev = 0;
    pl->prev_line = 0;
    use_filter(pl, 0);
    fs_window_clear(&pl->window);
    pl->counted = pl->raw = 0;
    pl->raw_name[0] = '\0';
    fs_strmap_clear(&pl->keys); /* a reader's keys name stacks within one input */
    return &pl->sink;
}

void fs_pipeline_symbolized(fs_pipeline *pl, int yes)
{
    use_filter(pl, yes);
}

foldsvg_status fs_pipeline_end(fs_pipeline *pl, foldsvg_error *err)
{
    char why[sizeof err->message];
    warn_raw(pl);
    if (fs_filter_warning(pl->filter, why, sizeof why) && pl->to.warn) {
        foldsvg_error w;
        fs_error(&w, FOLDSVG_OK, pl->name, "%s", why);
        pl->to.warn(pl->to.user, &w);
    }
    FS_FORWARD_IF_ERROR(fs_fracsum_flush(&pl->frac, on_rounded, pl, pl->name, err));
    return fs_window_flush(&pl->window, err);
}
