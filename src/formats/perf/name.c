#include "formats/perf/name.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

void fs_perf_frames_clear(fs_perf_frames *f)
{
    f->names.len = 0;
    f->n = 0;
}

void fs_perf_frames_free(fs_perf_frames *f)
{
    fs_buf_free(&f->names);
    free(f->ends);
    f->ends = NULL;
    f->n = f->cap = 0;
}

static int push_end(fs_perf_frames *f)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        size_t *e = cap > SIZE_MAX / sizeof *e ? NULL : realloc(f->ends, cap * sizeof *e);
        if (!e)
            return -1;
        f->ends = e;
        f->cap = cap;
    }
    f->ends[f->n++] = f->names.len;
    return 0;
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "main+0x1f" -> "main". The digits after the last "+0x" must all be hex, so they are
 * the trailing run of hex digits (the 'x' before them is not one). */
static size_t strip_offset(const char *f, size_t n)
{
    size_t i = n;
    while (i > 0 && is_hex((unsigned char)f[i - 1]))
        i--;
    if (i >= 3 && f[i - 3] == '+' && f[i - 2] == '0' && f[i - 1] == 'x')
        return i - 3;
    return n;
}

/* "$u7b$" -> '{': lower-case hex, a Unicode scalar value, not a control character
 * (rustc-demangle's rule). Returns the code point or -1. */
static long unicode_escape(const char *e, size_t n)
{
    if (n < 2 || e[0] != 'u' || n - 1 > 8)
        return -1;
    uint32_t c = 0;
    for (size_t i = 1; i < n; i++) {
        unsigned char d = (unsigned char)e[i];
        if (d >= '0' && d <= '9')
            c = c * 16 + (uint32_t)(d - '0');
        else if (d >= 'a' && d <= 'f')
            c = c * 16 + (uint32_t)(d - 'a' + 10);
        else
            return -1;
    }
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) || c < 0x20 || (c >= 0x7F && c <= 0x9F))
        return -1;
    return (long)c;
}

static const char *named_escape(const char *e, size_t n)
{
    static const struct {
        const char *code, *text;
    } table[] = {{"SP", "@"}, {"BP", "*"}, {"RF", "&"}, {"LT", "<"},
                 {"GT", ">"}, {"LP", "("}, {"RP", ")"}, {"C", ","}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].code) == n && memcmp(table[i].code, e, n) == 0)
            return table[i].text;
    return NULL;
}

int fs_perf_fix_rust_symbol(const char *sym, size_t n, fs_buf *out)
{
    enum { HASH = 16 };
    /* "...::h" + 16 hex digits at the very end */
    if (n < HASH + 3 || sym[n - HASH - 1] != 'h' || sym[n - HASH - 2] != ':' ||
        sym[n - HASH - 3] != ':')
        return 0;
    for (size_t i = n - HASH; i < n; i++)
        if (!is_hex((unsigned char)sym[i]))
            return 0;
    const char *p = sym, *end = sym + n - HASH - 3;
    fs_buf_clear(out);
    if (fs_buf_reserve(out, (size_t)(end - p)) != 0)
        return -1;
    /* rustc-demangle's legacy loop, minus its "_$" rule (inferno keeps the '_'); an
     * escape it does not know ends the decoding, the rest is copied as it is. */
    while (p < end) {
        if (*p == '.') {
            int two = p + 1 < end && p[1] == '.';
            fs_buf_append(out, two ? "::" : ".", two ? 2 : 1);
            p += two ? 2 : 1;
        } else if (*p == '$') {
            const char *close = memchr(p + 1, '$', (size_t)(end - p - 1));
            if (!close)
                break;
            const char *e = p + 1;
            size_t elen = (size_t)(close - e);
            const char *text = named_escape(e, elen);
            long cp = text ? -1 : unicode_escape(e, elen);
            if (text)
                fs_buf_puts(out, text);
            else if (cp >= 0)
                fs_utf8_encode(out, (uint32_t)cp);
            else
                break;
            p = close + 1;
        } else {
            const char *q = p;
            while (q < end && *q != '$' && *q != '.')
                q++;
            if (q == end)
                break;
            fs_buf_append(out, p, (size_t)(q - p));
            p = q;
        }
    }
    fs_buf_append(out, p, (size_t)(end - p));
    return fs_buf_status(out) ? -1 : 1;
}

static int ends_with(fs_strref s, const char *suffix)
{
    size_t n = strlen(suffix);
    return s.len >= n && memcmp(s.ptr + s.len - n, suffix, n) == 0;
}

static int starts_with(fs_strref s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s.len >= n && memcmp(s.ptr, prefix, n) == 0;
}

static int is_kernel(fs_strref module)
{
    static const char unknown[] = "[unknown]";
    int is_unknown =
        module.len == sizeof unknown - 1 && memcmp(module.ptr, unknown, module.len) == 0;
    return (starts_with(module, "[") || ends_with(module, "vmlinux")) && !is_unknown;
}

static int is_jit(fs_strref module)
{
    if (starts_with(module, "/tmp/perf-") && ends_with(module, ".map"))
        return 1;
    if (!ends_with(module, ".so"))
        return 0;
    static const char jitted[] = "/jitted-";
    for (size_t i = 0; i + sizeof jitted - 1 <= module.len; i++)
        if (memcmp(module.ptr + i, jitted, sizeof jitted - 1) == 0)
            return 1;
    return 0;
}

/* Equal as the output shows them: ';' is written ':'. */
static int same_name(const char *a, size_t n, const char *b)
{
    for (size_t i = 0; i < n; i++, b++) {
        if (!*b)
            return 0;
        char x = a[i] == ';' ? ':' : a[i], y = *b == ';' ? ':' : *b;
        if (x != y)
            return 0;
    }
    return *b == '\0';
}

static int skip_after(const fs_perf_name_opts *o, const char *name, size_t n)
{
    for (size_t i = 0; i < o->nskip_after; i++)
        if (same_name(name, n, o->skip_after[i]))
            return 1;
    return 0;
}

/* One part of a symbol (Java inlining splits "a->b") as a frame at the end of OUT.
 * Returns 1 when it matched skip_after, 0, or -1 when out of memory. */
static int add_part(fs_strref part, int inlined, const fs_perf_frame_line *fl,
                    const fs_perf_name_opts *o, fs_perf_frames *out)
{
    fs_buf *b = &out->names;
    size_t start = b->len;
    static const char unknown[] = "[unknown]";
    if (part.len == sizeof unknown - 1 && memcmp(part.ptr, unknown, part.len) == 0) {
        /* named by the module's file name, or kept "[unknown]" */
        fs_strref m = fl->module;
        int no_module = m.len == part.len && memcmp(m.ptr, unknown, m.len) == 0;
        if (no_module && !o->addrs) {
            fs_buf_append(b, unknown, part.len);
        } else {
            if (no_module) {
                m = (fs_strref){"unknown", 7};
            } else {
                const char *slash = m.ptr + m.len;
                while (slash > m.ptr && slash[-1] != '/')
                    slash--;
                m = (fs_strref){slash, (size_t)(m.ptr + m.len - slash)};
            }
            fs_buf_append(b, "[", 1);
            fs_buf_append(b, m.ptr, m.len);
            if (o->addrs) {
                fs_buf_append(b, " <", 2);
                fs_buf_append(b, fl->pc.ptr, fl->pc.len);
                fs_buf_append(b, ">", 1);
            }
            fs_buf_append(b, "]", 1);
        }
    } else {
        fs_buf_append(b, part.ptr, part.len);
    }
    if (fs_buf_status(b))
        return -1;
    /* The argument list goes, unless the first '(' starts a C++ anonymous namespace or
     * follows a '.' (a Go method: "net/http.(*Client).Do"). */
    char *name = b->data + start;
    size_t n = b->len - start;
    char *paren = memchr(name, '(', n);
    static const char anon[] = "(anonymous namespace)";
    if (paren) {
        size_t at = (size_t)(paren - name);
        int keep = (n - at >= sizeof anon - 1 && memcmp(paren, anon, sizeof anon - 1) == 0) ||
                   (at > 0 && name[at - 1] == '.');
        if (!keep)
            n = at;
    }
    if (o->java && n > 0 && name[0] == 'L' && memchr(name, '/', n)) {
        memmove(name, name + 1, n - 1);
        n--;
    }
    b->len = start + n;
    int matched = skip_after(o, name, n);
    const char *note = NULL;
    if (inlined)
        note = "_[i]";
    else if (o->kernel && is_kernel(fl->module))
        note = "_[k]";
    else if (o->jit && is_jit(fl->module))
        note = "_[j]";
    if ((note && fs_buf_append(b, note, 4) != 0) || push_end(out) != 0)
        return -1;
    return matched;
}

int fs_perf_add_frames(const fs_perf_frame_line *fl, const fs_perf_name_opts *o,
                       fs_perf_frames *out, fs_buf *scratch, int *cut)
{
    *cut = 0;
    const char *f = fl->func.ptr;
    size_t n = strip_offset(f, fl->func.len);
    if (n > 0 && f[0] == '(')
        return 0;
    int r = fs_perf_fix_rust_symbol(f, n, scratch);
    if (r < 0)
        return -1;
    if (r) {
        f = scratch->data;
        n = scratch->len;
    }
    /* The parts of "a->b->c" (c inlined into b into a), the innermost first: the stack
     * is built leaf first. A match of skip_after drops the parts outside it too. */
    const char *dash = memchr(f, '-', n);
    while (dash && (size_t)(dash - f) + 1 < n && dash[1] != '>')
        dash = memchr(dash + 1, '-', n - (size_t)(dash + 1 - f));
    if (!dash || (size_t)(dash - f) + 1 >= n) {
        int m = add_part((fs_strref){f, n}, 0, fl, o, out);
        *cut = m > 0;
        return m < 0 ? -1 : 0;
    }
    size_t end = n;
    for (;;) {
        size_t i = end, start = 0;
        int more = 0;
        while (i >= 2) {
            if (f[i - 2] == '-' && f[i - 1] == '>') {
                start = i;
                more = 1;
                break;
            }
            i--;
        }
        int m = add_part((fs_strref){f + start, end - start}, more, fl, o, out);
        if (m < 0)
            return -1;
        if (m) {
            *cut = 1;
            return 0;
        }
        if (!more)
            return 0;
        end = start - 2;
    }
}
