#include "formats/folded/folded.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/utf8.h"

enum { FS_READ_BLOCK = 1 << 20 };

/* A count: digits, optionally '.' and more digits; must fit in 64 bits. Returns 0 on
 * success. */
static int parse_count(const char *s, size_t n, uint64_t *out, int *fractional)
{
    size_t i = 0;
    uint64_t v = 0;
    if (n == 0 || s[0] < '0' || s[0] > '9')
        return -1;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    int frac = 0;
    if (i < n) {
        if (s[i] != '.')
            return -1;
        for (i++; i < n; i++) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            if (s[i] != '0')
                frac = 1;
        }
    }
    *out = v;
    if (frac)
        *fractional = 1;
    return 0;
}

/* fs_utf8_trim_start and _end, without the call for the common end: a byte of printable
 * ASCII is no white space and no part of one. */
static inline int plain_ascii(char c)
{
    return (unsigned char)c > 0x20 && (unsigned char)c < 0x7f;
}

static inline size_t trim_start(const char *s, size_t n)
{
    return n > 0 && plain_ascii(s[0]) ? 0 : fs_utf8_trim_start(s, n);
}

static inline size_t trim_end(const char *s, size_t n)
{
    return n > 0 && plain_ascii(s[n - 1]) ? n : fs_utf8_trim_end(s, n);
}

static const char *last_space(const char *s, size_t n)
{
    while (n > 0) {
        if (s[n - 1] == ' ')
            return s + n - 1;
        n--;
    }
    return NULL;
}

int fs_folded_parse_line(const char *line, size_t len, fs_folded_line *out, int *fractional)
{
    /* the line's ends lose Unicode White_Space, as inferno's str::trim */
    size_t lead = trim_start(line, len);
    line += lead;
    len = trim_end(line, len - lead);
    if (len == 0 || (len >= 2 && line[0] == '#' && line[1] == ' '))
        return 0;
    const char *sp = last_space(line, len);
    if (!sp)
        return -1;
    int frac = 0;
    uint64_t count;
    if (parse_count(sp + 1, (size_t)(line + len - sp - 1), &count, &frac) != 0)
        return -1;
    size_t slen = (size_t)(sp - line);
    slen = trim_end(line, slen);
    out->is_diff = 0;
    out->before = 0;
    out->has_hash = 0;
    out->semis = NULL;
    out->nsemis = 0;
    out->shared_with = 0;
    out->next_line = 0;
    /* Differential input: the stack itself ends in " <count>". Only the trailing run of
     * digits and dots is looked at, so ordinary lines cost nothing here. */
    size_t tok = slen;
    while (tok > 0 && ((line[tok - 1] >= '0' && line[tok - 1] <= '9') || line[tok - 1] == '.'))
        tok--;
    const char *sp2 = tok > 0 && tok < slen && line[tok - 1] == ' ' ? line + tok - 1 : NULL;
    uint64_t first;
    int frac2 = 0;
    if (sp2 && parse_count(sp2 + 1, (size_t)(line + slen - sp2 - 1), &first, &frac2) == 0) {
        out->is_diff = 1;
        out->before = first;
        frac |= frac2;
        slen = (size_t)(sp2 - line);
        slen = trim_end(line, slen);
    }
    if (slen == 0)
        return -1;
    out->stack = line;
    out->len = slen;
    out->count = count;
    if (frac)
        *fractional = 1;
    return 1;
}

foldsvg_status fs_folded_take(int r, fs_folded_line *fl, int frac, uint64_t lineno, fs_sink *sink,
                              fs_folded_stats *stats, foldsvg_error *err)
{
    stats->lines++;
    if (r < 0) {
        if (stats->invalid++ == 0)
            stats->first_invalid = lineno;
        return FOLDSVG_OK;
    }
    if (r == 0)
        return FOLDSVG_OK;
    if (frac && stats->fractional++ == 0)
        stats->first_fractional = lineno;
    stats->valid++;
    fl->lineno = lineno;
    return sink->line(sink, fl, err);
}

static foldsvg_status handle_line(const char *line, size_t len, uint64_t lineno, fs_sink *sink,
                                  fs_folded_stats *stats, foldsvg_error *err)
{
    fs_folded_line fl;
    int frac = 0;
    int r = fs_folded_parse_line(line, len, &fl, &frac);
    return fs_folded_take(r, &fl, frac, lineno, sink, stats, err);
}

foldsvg_status fs_folded_read(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                              foldsvg_error *err)
{
    size_t cap = FS_READ_BLOCK;
    char *buf = malloc(cap);
    if (!buf)
        return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
    size_t len = 0;                 /* bytes in buf, starting with an incomplete line */
    uint64_t lineno = stats->lines; /* a part of the input goes on from the part before */
    foldsvg_status st = FOLDSVG_OK;
    for (;;) {
        if (len == cap) {
            /* A line longer than the buffer: grow up to the documented limit. */
            if (cap >= FS_MAX_LINE) {
                st = fs_error_at_line(err, FOLDSVG_E_LIMIT, fs_input_name(in), lineno + 1, 0,
                                      "line longer than %zu bytes; is this a folded-stack "
                                      "file?",
                                      (size_t)FS_MAX_LINE);
                break;
            }
            if (fs_resize(&buf, cap * 2, 1) != FOLDSVG_OK) {
                st = fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
                break;
            }
            cap *= 2;
        }
        size_t got;
        fs_input_note_items(in, lineno);
        st = fs_input_read(in, buf + len, cap - len, &got, err);
        if (st)
            break;
        if (got == 0) {
            /* The end of a file ends its last line. */
            if (len > 0)
                st = handle_line(buf, len, ++lineno, sink, stats, err);
            break;
        }
        size_t scan_from = len;
        len += got;
        size_t start = 0;
        const char *nl;
        while ((nl = memchr(buf + scan_from, '\n', len - scan_from)) != NULL) {
            size_t end = (size_t)(nl - buf);
            st = handle_line(buf + start, end - start, ++lineno, sink, stats, err);
            if (st)
                goto out;
            start = end + 1;
            scan_from = start;
        }
        memmove(buf, buf + start, len - start);
        len -= start;
    }
out:
    free(buf);
    return st;
}

int fs_folded_detect(const unsigned char *head, size_t len, int complete)
{
    /* Folded text when its first stack line is one and most lines of the head are: anything
     * else (another tool's text, a report, an SVG) is not drawn as if it were. A line the
     * head cuts short (past its room) is not judged. */
    const char *p = (const char *)head, *end = p + len;
    uint64_t valid = 0, invalid = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !complete)
            return valid + invalid ? (invalid > valid ? 0 : 1) : -1;
        if (!nl && len >= FS_INPUT_PEEK_MAX)
            break;
        const char *e = nl ? nl : end;
        fs_folded_line l;
        int frac = 0;
        int r = fs_folded_parse_line(p, (size_t)(e - p), &l, &frac);
        if (r < 0 && valid + invalid == 0)
            return 0;
        valid += r > 0;
        invalid += r < 0;
        p = nl ? nl + 1 : end;
    }
    return invalid > valid ? 0 : 1;
}
