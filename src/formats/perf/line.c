#include "formats/perf/line.h"

#include <string.h>

/* ASCII whitespace as Rust's trim functions see it (inferno trims lines and fields). */
static int is_ws(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r'); /* \t \n \v \f \r */
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

size_t fs_perf_trim_end(const char *line, size_t len)
{
    while (len > 0 && is_ws((unsigned char)line[len - 1]))
        len--;
    return len;
}

static fs_strref trim(const char *p, size_t n)
{
    while (n > 0 && is_ws((unsigned char)*p)) {
        p++;
        n--;
    }
    return (fs_strref){p, fs_perf_trim_end(p, n)};
}

static int all_digits(const char *p, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_digit((unsigned char)p[i]))
            return 0;
    return 1;
}

/* "[003]" */
static int is_cpu(const char *p, size_t n)
{
    return n >= 3 && p[0] == '[' && p[n - 1] == ']' && all_digits(p + 1, n - 2);
}

/* "6544038.708352:" (or a time without fraction) */
static int is_time(const char *p, size_t n)
{
    if (n < 2 || p[n - 1] != ':')
        return 0;
    size_t i = 0;
    while (i < n - 1 && is_digit((unsigned char)p[i]))
        i++;
    if (i == 0)
        return 0;
    if (i < n - 1 && p[i] == '.') {
        size_t j = ++i;
        while (i < n - 1 && is_digit((unsigned char)p[i]))
            i++;
        if (i == j)
            return 0;
    }
    return i == n - 1;
}

/* The next whitespace-separated token of [*p, end), or a zero-length one at the end. */
static fs_strref next_token(const char **p, const char *end)
{
    const char *s = *p;
    while (s < end && is_ws((unsigned char)*s))
        s++;
    const char *e = s;
    while (e < end && !is_ws((unsigned char)*e))
        e++;
    *p = e;
    return (fs_strref){s, (size_t)(e - s)};
}

static uint64_t parse_u64(const char *p, size_t n, int *overflow)
{
    uint64_t v = 0;
    *overflow = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (v > (UINT64_MAX - d) / 10) {
            *overflow = 1;
            return 0;
        }
        v = v * 10 + d;
    }
    return v;
}

/* The fields after the thread id: [cpu] time: period event: rest. Which of them perf
 * prints depends on `perf script -F`; their order does not. */
static void parse_fields(const char *p, const char *end, fs_perf_event *ev)
{
    const char *cur = p;
    fs_strref t = next_token(&cur, end);
    if (is_cpu(t.ptr, t.len))
        t = next_token(&cur, end);
    if (is_time(t.ptr, t.len)) {
        ev->has_time = 1;
        t = next_token(&cur, end);
    }
    const char *before_period = t.ptr;
    fs_strref period = {NULL, 0};
    if (all_digits(t.ptr, t.len)) {
        period = t;
        t = next_token(&cur, end);
    }
    if (t.len >= 2 && t.ptr[t.len - 1] == ':') {
        ev->event = (fs_strref){t.ptr, t.len - 1};
        const char *colon = memchr(t.ptr, ':', t.len);
        ev->base_len = (size_t)(colon - t.ptr);
        if (period.ptr) {
            int over;
            ev->period = parse_u64(period.ptr, period.len, &over);
            ev->has_period = !over;
            ev->period_overflow = over;
        }
        ev->rest = trim(cur, (size_t)(end - cur));
    } else {
        /* No event field: what follows the time stamp is the rest. */
        const char *r = period.ptr ? before_period : t.ptr;
        ev->rest = trim(r, (size_t)(end - r));
    }
}

int fs_perf_parse_event(const char *line, size_t len, fs_perf_event *ev)
{
    memset(ev, 0, sizeof *ev);
    /* inferno's event_line_parts: the first word of digits (or digits/digits) that ends
     * in a space and follows a space is the thread id (or pid/tid); before it is the
     * command name, which may hold spaces. */
    size_t word_start = 0, slash = 0;
    int digits = 0, last_space = 0, has_slash = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == ' ') {
            if (digits && !last_space) {
                ev->comm = trim(line, word_start - 1);
                if (has_slash) {
                    ev->pid = (fs_strref){line + word_start, slash - word_start};
                    ev->tid = (fs_strref){line + slash + 1, i - slash - 1};
                } else {
                    ev->pid = (fs_strref){"?", 1};
                    ev->tid = (fs_strref){line + word_start, i - word_start};
                }
                parse_fields(line + i + 1, line + len, ev);
                return 1;
            }
            word_start = i + 1;
            digits = 1;
        } else if (c == '/') {
            if (digits) {
                slash = i;
                has_slash = 1;
            }
        } else if (!is_digit(c)) {
            digits = 0;
            has_slash = 0;
        }
        last_space = c == ' ';
    }
    return 0;
}

int fs_perf_parse_frame(const char *line, size_t len, fs_perf_frame_line *fl)
{
    fs_strref s = trim(line, len);
    const char *sp = memchr(s.ptr, ' ', s.len);
    if (!sp)
        return 0;
    fl->pc = (fs_strref){s.ptr, fs_perf_trim_end(s.ptr, (size_t)(sp - s.ptr))};
    const char *rest = sp + 1, *end = s.ptr + s.len;
    /* the last space, found forward: a symbol has few spaces, a module path many bytes */
    const char *last_sp = sp, *q;
    while ((q = memchr(last_sp + 1, ' ', (size_t)(end - last_sp - 1))) != NULL)
        last_sp = q;
    const char *last = last_sp + 1;
    if (last == rest)
        return 0; /* no space: a module alone is not a frame */
    size_t mlen = (size_t)(end - last);
    if (mlen < 2 || last[0] != '(' || last[mlen - 1] != ')')
        return 0;
    fl->module = (fs_strref){last + 1, mlen - 2};
    fl->func = trim(rest, (size_t)(last - 1 - rest));
    if (fl->func.len == 0)
        fl->func = (fs_strref){" ", 1}; /* "7f1e2215d058  (/lib/libc.so)": as the Perl */
    return 1;
}

int fs_perf_event_is_strict(const fs_perf_event *ev)
{
    if (ev->event.len == 0)
        return ev->has_time && ev->rest.len == 0;
    if (ev->rest.len == 0 || ev->has_time)
        return 1;
    fs_perf_frame_line fl;
    return fs_perf_parse_frame(ev->rest.ptr, ev->rest.len, &fl);
}
