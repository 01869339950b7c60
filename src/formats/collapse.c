#include "formats/collapse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/folded/folded.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/utf8.h"

enum { READ_BLOCK = 1 << 16, MAX_LINE = 64 << 20 };

/* ---- lines ---------------------------------------------------------------------------- */

void fs_lines_init(fs_lines *l, fs_input *in)
{
    memset(l, 0, sizeof *l);
    l->in = in;
}

void fs_lines_free(fs_lines *l)
{
    free(l->buf);
    fs_buf_free(&l->lossy);
    l->buf = NULL;
}

foldsvg_status fs_lines_next(fs_lines *l, const char **line, size_t *len, int *got,
                             foldsvg_error *err)
{
    *got = 0;
    for (;;) {
        char *nl = l->scan < l->len ? memchr(l->buf + l->scan, '\n', l->len - l->scan) : NULL;
        size_t end;
        if (nl) {
            end = (size_t)(nl - l->buf);
        } else if (l->eof) {
            if (l->start == l->len)
                return FOLDSVG_OK;
            end = l->len;
        } else {
            /* keep the line begun, read more after it */
            if (l->start > 0) {
                memmove(l->buf, l->buf + l->start, l->len - l->start);
                l->len -= l->start;
                l->start = 0;
            }
            l->scan = l->len;
            if (l->len == l->cap) {
                if (l->cap >= MAX_LINE)
                    return fs_error_at_line(err, FOLDSVG_E_LIMIT, fs_input_name(l->in),
                                            l->lineno + 1, 0, "line longer than %u bytes",
                                            (unsigned)MAX_LINE);
                size_t cap = l->cap ? l->cap * 2 : READ_BLOCK;
                char *b = realloc(l->buf, cap);
                if (!b)
                    return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(l->in), "out of memory");
                l->buf = b;
                l->cap = cap;
            }
            size_t n;
            fs_input_note_items(l->in, l->lineno);
            FS_FORWARD_IF_ERROR(fs_input_read(l->in, l->buf + l->len, l->cap - l->len, &n, err));
            if (n == 0)
                l->eof = 1;
            l->len += n;
            continue;
        }
        size_t n = end - l->start;
        const char *s = fs_lossy(l->buf + l->start, &n, &l->lossy);
        if (!s)
            return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(l->in), "out of memory");
        l->start = l->scan = nl ? end + 1 : l->len;
        l->lineno++;
        *line = s;
        *len = n;
        *got = 1;
        return FOLDSVG_OK;
    }
}

/* ---- Rust's ways ---------------------------------------------------------------------- */

/* The length of the well-formed sequence at S (N > 0 bytes), or minus the length of the
 * maximal ill-formed subsequence there (what one U+FFFD replaces). */
static long utf8_at(const unsigned char *s, size_t n)
{
    unsigned char b = s[0];
    if (b < 0x80)
        return 1;
    size_t width;
    unsigned char lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf)
        width = 2;
    else if (b >= 0xe0 && b <= 0xef)
        width = 3;
    else if (b >= 0xf0 && b <= 0xf4)
        width = 4;
    else
        return -1;
    if (b == 0xe0)
        lo = 0xa0;
    else if (b == 0xed)
        hi = 0x9f;
    else if (b == 0xf0)
        lo = 0x90;
    else if (b == 0xf4)
        hi = 0x8f;
    for (size_t i = 1; i < width; i++) {
        if (i == n)
            return -(long)i;
        unsigned char c = s[i];
        if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xbf))
            return -(long)i;
    }
    return (long)width;
}

const char *fs_lossy(const char *s, size_t *n, fs_buf *out)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, len = *n;
    /* ASCII, eight bytes a step */
    for (uint64_t w; i + 8 <= len; i += 8) {
        memcpy(&w, u + i, 8);
        if (w & 0x8080808080808080u)
            break;
    }
    while (i < len && u[i] < 0x80)
        i++;
    for (size_t j = i; j < len;) {
        long k = utf8_at(u + j, len - j);
        if (k < 0)
            goto replace;
        j += (size_t)k;
    }
    return s;
replace:
    fs_buf_clear(out);
    for (size_t j = 0; j < len;) {
        long k = utf8_at(u + j, len - j);
        if (k > 0)
            fs_buf_append(out, u + j, (size_t)k);
        else
            fs_buf_append(out, FS_UTF8_REPLACEMENT, 3);
        j += (size_t)(k > 0 ? k : -k);
    }
    if (fs_buf_status(out) != FOLDSVG_OK)
        return NULL;
    *n = out->len;
    return out->data ? out->data : "";
}

void fs_rtrim_start(const char **s, size_t *n)
{
    size_t k = fs_utf8_trim_start(*s, *n);
    *s += k;
    *n -= k;
}

void fs_rtrim_end(const char **s, size_t *n)
{
    *n = fs_utf8_trim_end(*s, *n);
}

void fs_rtrim(const char **s, size_t *n)
{
    fs_rtrim_start(s, n);
    fs_rtrim_end(s, n);
}

int fs_rust_u64(const char *s, size_t n, uint64_t *v)
{
    size_t i = 0;
    if (n > 0 && s[0] == '+')
        i = 1;
    if (i == n)
        return 0;
    uint64_t x = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *v = x;
    return 1;
}

static int word_is(const char *s, size_t n, const char *w)
{
    if (strlen(w) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return 1;
}

int fs_rust_f64(const char *s, size_t n, double *v)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
        neg = s[i] == '-';
        i++;
    }
    const char *w = s + i;
    size_t wn = n - i;
    if (word_is(w, wn, "inf") || word_is(w, wn, "infinity")) {
        *v = neg ? -HUGE_VAL : HUGE_VAL;
        return 1;
    }
    if (word_is(w, wn, "nan")) {
        *v = (double)NAN;
        return 1;
    }
    size_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t e = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            e++;
        }
        if (e == 0)
            return 0;
    }
    if (i != n)
        return 0;
    char small[64];
    char *copy = n < sizeof small ? small : malloc(n + 1);
    if (!copy)
        return 0;
    memcpy(copy, s, n);
    copy[n] = '\0';
    *v = strtod(copy, NULL);
    if (copy != small)
        free(copy);
    return 1;
}

uint64_t fs_rust_as_u64(double d)
{
    if (!(d > 0))
        return 0; /* NaN, zero and negatives */
    if (d >= 18446744073709551616.0)
        return UINT64_MAX;
    return (uint64_t)d;
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int starts(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0;
}

int fs_rust_fix(const char *sym, size_t n, fs_buf *out)
{
    enum { HASH = 17 }; /* 'h' and 16 hex digits */
    if (n < HASH || sym[n - HASH] != 'h')
        return 0;
    for (size_t i = n - HASH + 1; i < n; i++)
        if (!is_hex((unsigned char)sym[i]))
            return 0;
    const char *p = sym, *end = sym + n - HASH;
    if (end - p >= 2 && end[-1] == ':' && end[-2] == ':')
        end -= 2;
    if (starts(p, end, "_$"))
        p++;
    static const struct {
        const char *code, *text;
    } esc[] = {
        {"$SP$", "@"},  {"$BP$", "*"},  {"$RF$", "&"},  {"$LT$", "<"},  {"$GT$", ">"},
        {"$LP$", "("},  {"$RP$", ")"},  {"$C$", ","},   {"$u7e$", "~"}, {"$u20$", " "},
        {"$u27$", "'"}, {"$u3d$", "="}, {"$u5b$", "["}, {"$u5d$", "]"}, {"$u7b$", "{"},
        {"$u7d$", "}"}, {"$u3b$", ";"}, {"$u2b$", "+"}, {"$u21$", "!"}, {"$u22$", "\""},
    };
    fs_buf_clear(out);
    if (fs_buf_reserve(out, (size_t)(end - p)) != FOLDSVG_OK)
        return -1;
    while (p < end) {
        if (*p == '.') {
            int two = p + 1 < end && p[1] == '.';
            fs_buf_append(out, two ? "::" : ".", two ? 2 : 1);
            p += two ? 2 : 1;
        } else if (*p == '$') {
            size_t k = 0;
            while (k < sizeof esc / sizeof esc[0] && !starts(p, end, esc[k].code))
                k++;
            if (k == sizeof esc / sizeof esc[0]) {
                fs_buf_append(out, p, (size_t)(end - p));
                break;
            }
            fs_buf_puts(out, esc[k].text);
            p += strlen(esc[k].code);
        } else {
            const char *q = p;
            while (q < end && *q != '$' && *q != '.')
                q++;
            fs_buf_append(out, p, (size_t)(q - p));
            p = q;
        }
    }
    if (fs_buf_status(out) != FOLDSVG_OK)
        return -1;
    if (!out->data && fs_buf_append(out, "", 0) != FOLDSVG_OK)
        return -1;
    return 1;
}

/* ---- stacks --------------------------------------------------------------------------- */

foldsvg_status fs_collapse_emit(fs_sink *sink, const char *stack, size_t len, uint64_t count,
                                uint64_t lineno, fs_buf *scratch, foldsvg_error *err)
{
    fs_buf_clear(scratch);
    fs_buf_append(scratch, stack, len);
    fs_buf_printf(scratch, " %llu", (unsigned long long)count);
    if (fs_buf_status(scratch) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_folded_line fl;
    int frac = 0;
    if (fs_folded_parse_line(scratch->data, scratch->len, &fl, &frac) <= 0)
        return FOLDSVG_OK;
    fl.lineno = lineno;
    return sink->line(sink, &fl, err);
}

void fs_stack_table_init(fs_stack_table *t)
{
    memset(t, 0, sizeof *t);
    fs_strmap_init(&t->map, FS_STRMAP_OWNED);
}

void fs_stack_table_free(fs_stack_table *t)
{
    fs_strmap_free(&t->map);
    free(t->counts);
    free(t->lines);
    t->counts = t->lines = NULL;
    t->cap = 0;
}

foldsvg_status fs_stack_table_put(fs_stack_table *t, const char *stack, size_t len, uint64_t count,
                                  int replace, uint64_t lineno)
{
    uint32_t i;
    int added;
    FS_FORWARD_IF_ERROR(fs_strmap_put(&t->map, stack, len, 0, &i, &added));
    if (added) {
        if (i >= t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 256;
            uint64_t *c = realloc(t->counts, cap * sizeof *c);
            if (!c)
                return FOLDSVG_E_NOMEM;
            t->counts = c;
            uint64_t *l = realloc(t->lines, cap * sizeof *l);
            if (!l)
                return FOLDSVG_E_NOMEM;
            t->lines = l;
            t->cap = cap;
        }
        t->counts[i] = 0;
    }
    /* inferno's sums wrap past 2^64 - 1 only in a release build; here they stop there */
    if (replace)
        t->counts[i] = count;
    else
        t->counts[i] = count > UINT64_MAX - t->counts[i] ? UINT64_MAX : t->counts[i] + count;
    t->lines[i] = lineno;
    return FOLDSVG_OK;
}

foldsvg_status fs_stack_table_emit(const fs_stack_table *t, fs_sink *sink, fs_buf *scratch,
                                   foldsvg_error *err)
{
    for (uint32_t i = 0; i < fs_strmap_size(&t->map); i++)
        FS_FORWARD_IF_ERROR(fs_collapse_emit(sink, fs_strmap_key(&t->map, i),
                                             fs_strmap_key_len(&t->map, i), t->counts[i],
                                             t->lines[i], scratch, err));
    return FOLDSVG_OK;
}

void fs_collapse_facts(fs_sink *sink, const char *format, const char *unit)
{
    if (sink->facts)
        sink->facts(sink, format, "", 0, 0);
    if (unit && sink->count_name)
        sink->count_name(sink, unit);
}
