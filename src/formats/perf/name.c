#include "formats/perf/name.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"

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

int fs_perf_fix_rust_symbol(const char *sym, size_t n, fs_buf *out)
{
    return fs_rust_fix(sym, n, out);
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

/* inferno's rule: "[kernel.kallsyms]" and other names in brackets (but "[unknown]"), a kernel
 * module (*.ko), vmlinux and vmlinux-VERSION, wherever they lie. */
static int is_kernel(fs_strref module)
{
    static const char unknown[] = "[unknown]";
    if (module.len == sizeof unknown - 1 && memcmp(module.ptr, unknown, module.len) == 0)
        return 0;
    if (starts_with(module, "[") || ends_with(module, ".ko") || ends_with(module, "vmlinux"))
        return 1;
    const char *base = module.ptr + module.len;
    while (base > module.ptr && base[-1] != '/')
        base--;
    fs_strref b = {base, (size_t)(module.ptr + module.len - base)};
    return starts_with(b, "vmlinux-");
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

/* inferno compares the symbol as perf printed it, its offset cut and its Rust name finished,
 * before any other change: "do_work" matches "do_work+0x1f", not "do_work(int)". */
static int skip_after(const fs_perf_name_opts *o, const char *name, size_t n)
{
    for (size_t i = 0; i < o->nskip_after; i++)
        if (strlen(o->skip_after[i]) == n && memcmp(o->skip_after[i], name, n) == 0)
            return 1;
    return 0;
}

/* inferno's tidy_generic: the argument list goes, the first '(' outside <>, {} and [] (so
 * "std::function<void (int)>::operator()" and "{lambda(int)#1}" keep theirs), unless it
 * follows a '.' (a Go method: "net/http.(*Client).Do") or starts "(anonymous namespace)".
 * NAME[n] is NUL (it lies in an fs_buf). */
static size_t tidy_generic(const char *name, size_t n)
{
    static const char anon[] = "(anonymous namespace)";
    /* Most names have no bracket before their first '(', or none at all: strcspn finds
     * that in one fast pass and the loop below is left for the others (and for names
     * holding a NUL byte, where strcspn stops short). */
    size_t first = strcspn(name, "<>{}[]()");
    if (first == n)
        return n;
    if (name[first] == '(' && !(first > 0 && name[first - 1] == '.') &&
        !(n - first >= sizeof anon - 1 && memcmp(name + first, anon, sizeof anon - 1) == 0))
        return first;
    long depth = 0;
    size_t after_dot = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        switch (name[i]) {
        case '<':
        case '{':
        case '[':
            depth++;
            break;
        case '>':
        case '}':
        case ']':
        case ')':
            depth--;
            break;
        case '(':
            if (depth == 0 && after_dot != i &&
                !(n - i >= sizeof anon - 1 && memcmp(name + i, anon, sizeof anon - 1) == 0))
                return i;
            depth++;
            break;
        case '.':
            after_dot = i + 1;
            break;
        default:
            break;
        }
    }
    return n;
}

static int contains(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, w, k) == 0)
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
    char *name = b->data + start;
    size_t n = tidy_generic(name, b->len - start);
    if (o->java && n > 0 && name[0] == 'L' && memchr(name, '/', n)) {
        memmove(name, name + 1, n - 1);
        n--;
    }
    b->len = start + n;
    const char *note = NULL;
    if (inlined)
        note = contains(name, n, "_[i]") ? NULL : "_[i]";
    else if (o->kernel && is_kernel(fl->module))
        note = "_[k]";
    else if (o->jit && is_jit(fl->module) && !contains(name, n, "_[j]"))
        note = "_[j]";
    if ((note && fs_buf_append(b, note, 4) != 0) || push_end(out) != 0)
        return -1;
    return 0;
}

/* Whether "->" occurs in F[0..n): '-' is rare in symbols, so memchr skips most of them. */
static int has_arrow(const char *f, size_t n)
{
    const char *end = f + n, *dash = f;
    while ((dash = memchr(dash, '-', (size_t)(end - dash))) != NULL && dash + 1 < end) {
        if (dash[1] == '>')
            return 1;
        dash++;
    }
    return 0;
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
    *cut = skip_after(o, f, n);
    if (!has_arrow(f, n))
        return add_part((fs_strref){f, n}, 0, fl, o, out) < 0 ? -1 : 0;
    /* The parts of "a->b->c" (c inlined into b into a), the innermost first: the stack
     * is built leaf first. */
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
        if (add_part((fs_strref){f + start, end - start}, more, fl, o, out) < 0)
            return -1;
        if (!more)
            return 0;
        end = start - 2;
    }
}
