/* The --facts-out / --facts-from file (api/facts.h): written whole or not at all, read
 * strictly (a line that is not one of ours is an error, not a guess). */
#include "api/facts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/diag.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/outfile.h"

static const char header[] = "# foldsvg facts 2\n"; /* its first line */
static const char drops_tag[] = "# drops\t";

enum { NFIELDS = 17 };

static void put_escaped(fs_buf *b, const char *s)
{
    for (; *s; s++) {
        const char *esc = *s == '\\'   ? "\\\\"
                          : *s == '\t' ? "\\t"
                          : *s == '\n' ? "\\n"
                          : *s == '\r' ? "\\r"
                                       : NULL;
        if (esc)
            fs_buf_puts(b, esc);
        else
            fs_buf_append(b, s, 1);
    }
}

/* A text field and the tab after it. */
static void put_text(fs_buf *b, const char *s)
{
    put_escaped(b, s);
    fs_buf_append(b, "\t", 1);
}

void fs_facts_append(fs_buf *log, const fs_input_note *n)
{
    static const fs_folded_stats none;
    const fs_profile_facts *f = n->facts;
    const fs_folded_stats *s = n->stats ? n->stats : &none;
    put_text(log, n->name);
    put_text(log, f->format);
    fs_buf_printf(log, "%d\t", f->gzip ? 1 : 0);
    put_text(log, f->product);
    fs_buf_printf(log, "%lu\t%llu\t%.17g\t", (unsigned long)f->threads, (unsigned long long)f->rate,
                  f->interval_ms);
    put_text(log, n->unit);
    fs_buf_printf(log, "%d\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%d\t", n->stats ? 1 : 0,
                  (unsigned long long)s->lines, (unsigned long long)s->valid,
                  (unsigned long long)s->invalid, (unsigned long long)s->first_invalid,
                  (unsigned long long)s->fractional, (unsigned long long)s->first_fractional,
                  n->drawn ? 1 : 0);
    put_escaped(log, f->thread_names);
    fs_buf_append(log, "\n", 1);
}

/* The "# drops" line (api/facts.h). */
static void put_drops(fs_buf *b, const fs_drops *d, const foldsvg_options *o)
{
    fs_drops named = *d;
    fs_drops_name_steps(&named, o);
    fs_buf_puts(b, drops_tag);
    put_text(b, named.input);
    fs_buf_printf(b, "%d", named.by_option ? 1 : 0);
    for (int i = FS_DROP_NONE + 1; i < FS_DROP_N; i++)
        fs_buf_printf(b, "\t%llu", (unsigned long long)named.n[i]);
    for (int i = FS_DROP_NONE + 1; i < FS_DROP_N; i++) {
        fs_buf_append(b, "\t", 1);
        put_escaped(b, named.what[i]);
    }
    fs_buf_append(b, "\n", 1);
}

static int has_drops(const fs_drops *d)
{
    for (int i = FS_DROP_NONE + 1; i < FS_DROP_N; i++)
        if (d->n[i])
            return 1;
    return 0;
}

foldsvg_status fs_facts_write(fs_outfile *out, const char *path, const fs_buf *log,
                              const fs_drops *d, const foldsvg_options *o, foldsvg_error *err)
{
    fs_buf tail = {0};
    if (d && has_drops(d))
        put_drops(&tail, d, o);
    if (fs_buf_status(log) || fs_buf_status(&tail)) {
        fs_buf_free(&tail);
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory recording the input facts");
    }
    foldsvg_status st = fs_outfile_open(out, path, err);
    if (st) {
        fs_buf_free(&tail);
        return st;
    }
    errno = 0;
    int bad = fputs(header, out->f) == EOF ||
              fwrite(fs_buf_str(log), 1, log->len, out->f) != log->len ||
              fwrite(fs_buf_str(&tail), 1, tail.len, out->f) != tail.len || fflush(out->f) != 0;
    int e = errno;
    fs_buf_free(&tail);
    if (bad) {
        fs_outfile_abort(out);
        return fs_error(err, FOLDSVG_E_IO, path, "write failed: %s", strerror(e ? e : EIO));
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_facts_end(fs_outfile *facts, foldsvg_status st, foldsvg_error *err)
{
    if (st) {
        fs_outfile_abort(facts);
        return st;
    }
    return fs_outfile_commit(facts, err);
}

foldsvg_status fs_facts_out_usage(foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL,
                    "--facts-out is for a part of a run, whose output is folded text: write "
                    "-o NAME.folded (or --format folded)");
}

/* Undoes put_text's escapes in place; -1 for a backslash before anything else. */
static int unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        if (*r == '\\')
            *w++ = '\\';
        else if (*r == 't')
            *w++ = '\t';
        else if (*r == 'n')
            *w++ = '\n';
        else if (*r == 'r')
            *w++ = '\r';
        else
            return -1;
    }
    *w = '\0';
    return 0;
}

/* A "# drops" line (after its tag), split in place, added to *D. */
static int parse_drops(char *line, fs_drops *d)
{
    enum { N = 2 + 2 * (FS_DROP_N - 1) };
    char *field[N];
    size_t k = 0;
    for (char *p = line; k < N; k++) {
        field[k] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = '\0';
    }
    if (k + 1 != N || unescape(field[0]))
        return -1;
    fs_drops got;
    memset(&got, 0, sizeof got);
    uint64_t by;
    if (fs_parse_decimal(field[1], 1, &by) != 0)
        return -1;
    snprintf(got.input, sizeof got.input, "%s", field[0]);
    got.by_option = (int)by;
    for (int i = FS_DROP_NONE + 1; i < FS_DROP_N; i++) {
        char *w = field[2 + (FS_DROP_N - 1) + (i - 1)];
        if (fs_parse_decimal(field[2 + (i - 1)], UINT64_MAX, &got.n[i]) != 0 || unescape(w))
            return -1;
        snprintf(got.what[i], sizeof got.what[i], "%s", w);
    }
    fs_drops_add(d, &got);
    return 0;
}

/* One input line, split in place. */
static int parse_line(char *line, fs_profile_facts *f, fs_folded_stats *s, fs_input_note *n)
{
    char *field[NFIELDS];
    size_t k = 0;
    for (char *p = line; k < NFIELDS; k++) {
        field[k] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = '\0';
    }
    if (k + 1 != NFIELDS || unescape(field[0]) || unescape(field[1]) || unescape(field[3]) ||
        unescape(field[7]) || unescape(field[16]))
        return -1;
    uint64_t v[NFIELDS];
    static const int numeric[] = {2, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++)
        if (fs_parse_decimal(field[numeric[i]], numeric[i] == 4 ? UINT32_MAX : UINT64_MAX,
                             &v[numeric[i]]) != 0)
            return -1;
    char *end;
    errno = 0;
    double interval = strtod(field[6], &end);
    if (errno || end == field[6] || *end || v[2] > 1 || v[8] > 1 || v[15] > 1)
        return -1;
    memset(f, 0, sizeof *f);
    snprintf(f->format, sizeof f->format, "%s", field[1]);
    f->gzip = (int)v[2];
    snprintf(f->product, sizeof f->product, "%s", field[3]);
    f->threads = (uint32_t)v[4];
    snprintf(f->thread_names, sizeof f->thread_names, "%s", field[16]);
    f->rate = v[5];
    f->interval_ms = interval;
    *s = (fs_folded_stats){v[9], v[10], v[11], v[12], v[13], v[14]};
    *n = (fs_input_note){field[0], f, field[7], v[8] ? s : NULL, (int)v[15]};
    return 0;
}

/* The longest line --facts-out writes is a few KiB (names of at most 1 KiB, each byte
 * escaped to at most two): a line longer than this is not one of ours, and is not read into
 * memory without end (a device such as /dev/zero has no end). */
enum { FACTS_LINE_MAX = 64 * 1024 };

/* The next line of IN into BUF (FACTS_LINE_MAX + 1 bytes), its newline dropped and a NUL
 * after it: its length, -1 at the end of the file, -2 when it is longer than FACTS_LINE_MAX
 * or holds a NUL, -3 when it ends without a newline, -4 for a read error. */
static long read_line(FILE *in, char *buf)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n == FACTS_LINE_MAX || c == '\0')
            return -2;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    if (c == '\n')
        return (long)n;
    if (ferror(in))
        return -4;
    return n ? -3 : -1;
}

foldsvg_status fs_facts_read(const char *path, fs_facts_fn fn, void *user, fs_drops *drops,
                             foldsvg_error *err)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return fs_error(err, FOLDSVG_E_IO, path, "cannot open the --facts-from file: %s",
                        strerror(errno));
    char *line = malloc(FACTS_LINE_MAX + 1);
    if (!line) {
        fclose(in);
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory reading the --facts-from file");
    }
    uint64_t lineno = 0;
    foldsvg_status st = FOLDSVG_OK;
    long got;
    errno = 0;
    while (st == FOLDSVG_OK && (got = read_line(in, line)) != -1) {
        lineno++;
        if (got == -4) {
            st = fs_error_at_line(err, FOLDSVG_E_IO, path, lineno, 0,
                                  "cannot read the --facts-from file: %s",
                                  errno ? strerror(errno) : "read error");
            break;
        }
        if (got == -2) {
            st = fs_error_at_line(err, FOLDSVG_E_PARSE, path, lineno, 0,
                                  "not a line of a facts file (longer than %d KiB, or a NUL "
                                  "byte; --facts-out writes lines of a few KiB)",
                                  FACTS_LINE_MAX / 1024);
            break;
        }
        if (lineno == 1) {
            if (got < 0 || strcmp(line, "# foldsvg facts 2") != 0)
                st = fs_error_at_line(err, FOLDSVG_E_PARSE, path, 1, 0,
                                      "not a facts file of this foldsvg (the first line should "
                                      "be '# foldsvg facts 2'; --facts-out writes it)");
            continue;
        }
        fs_profile_facts f;
        fs_folded_stats s;
        fs_input_note n;
        int is_drops = got >= 0 && strncmp(line, drops_tag, sizeof drops_tag - 1) == 0;
        if (got < 0 || (is_drops ? parse_drops(line + sizeof drops_tag - 1, drops)
                                 : parse_line(line, &f, &s, &n)) != 0)
            st = fs_error_at_line(err, FOLDSVG_E_PARSE, path, lineno, 0,
                                  "not a line of a facts file (17 tab-separated fields, as "
                                  "--facts-out writes them)");
        else if (!is_drops)
            fn(user, &n);
    }
    if (st == FOLDSVG_OK && lineno == 0)
        st = fs_error(err, FOLDSVG_E_PARSE, path,
                      "the --facts-from file is empty (--facts-out writes a first line '# "
                      "foldsvg facts 2')");
    free(line);
    fclose(in);
    return st;
}
