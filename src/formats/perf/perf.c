#include "formats/perf/perf.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/line.h"
#include "formats/perf/name.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/numfmt.h"

enum {
    READ_BLOCK = 1 << 20,
    MAX_LINE = 64 << 20,
    MAX_EVENTS = 16, /* distinct events remembered for messages */
};

typedef struct seen_event {
    size_t off, len; /* of its name in reader.seen_names */
    uint64_t records;
} seen_event;

typedef struct reader {
    fs_input *in;
    const fs_perf_opts *o;
    fs_sink *sink;
    foldsvg_error *err;
    fs_perf_name_opts names;
    uint64_t lineno;

    /* the record being read */
    int in_event, skip, cut;
    uint64_t count;
    uint64_t event_line; /* its header's */
    fs_buf root;
    fs_perf_frames frames;
    fs_buf scratch;
    fs_strref *refs;
    size_t refs_cap;

    /* the chosen event: the option's, else the first one named */
    const char *filter;
    size_t filter_len;
    int filter_whole; /* compare the whole event field, not only its name */
    fs_buf first_event;

    seen_event seen[MAX_EVENTS];
    size_t nseen;
    uint64_t unlisted; /* records of events beyond MAX_EVENTS */
    fs_buf seen_names;

    uint64_t kept; /* records of the chosen event */
    int weighted;
    uint64_t malformed, first_malformed;
    const char *malformed_what;
} reader;

static foldsvg_status nomem(reader *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, fs_input_name(r->in), "out of memory");
}

static void note_malformed(reader *r, const char *what)
{
    if (r->malformed++ == 0) {
        r->first_malformed = r->lineno;
        r->malformed_what = what;
    }
}

static int same(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && memcmp(a, b, alen) == 0;
}

/* Counts a record of event NAME for the messages. */
static int note_seen(reader *r, const char *name, size_t len)
{
    for (size_t i = 0; i < r->nseen; i++) {
        if (same(r->seen_names.data + r->seen[i].off, r->seen[i].len, name, len)) {
            r->seen[i].records++;
            return 0;
        }
    }
    if (r->nseen == MAX_EVENTS) {
        r->unlisted++;
        return 0;
    }
    seen_event *e = &r->seen[r->nseen++];
    e->off = r->seen_names.len;
    e->len = len;
    e->records = 1;
    return fs_buf_append(&r->seen_names, name, len);
}

static foldsvg_status emit(reader *r)
{
    size_t n = r->frames.n;
    if (n + 1 > r->refs_cap) {
        size_t cap = r->refs_cap ? r->refs_cap : 128;
        while (cap < n + 1)
            cap *= 2;
        fs_strref *nr = realloc(r->refs, cap * sizeof *nr);
        if (!nr)
            return nomem(r);
        r->refs = nr;
        r->refs_cap = cap;
    }
    /* a stack cut by --skip-after loses its command name too, as inferno's does */
    size_t root = r->cut ? 0 : 1;
    r->refs[0] = (fs_strref){r->root.data, r->root.len};
    const char *names = r->frames.names.data;
    for (size_t i = 0; i < n; i++) {
        size_t leaf_i = n - 1 - i;
        size_t start = leaf_i ? r->frames.ends[leaf_i - 1] : 0;
        r->refs[i + root] = (fs_strref){names + start, r->frames.ends[leaf_i] - start};
    }
    foldsvg_status st = r->sink->stack(r->sink, r->refs, n + root, r->count, r->err);
    if (st == FOLDSVG_E_OVERFLOW) /* the sink knows no lines: the sample that passed is named */
        return fs_error_at_line(r->err, st, fs_input_name(r->in), r->event_line, 0,
                                "the total count passes 2^64-1 with this sample (its period "
                                "%llu); the input's counts are too large",
                                (unsigned long long)r->count);
    return st;
}

/* The end of a record: its stack goes to the sink unless it was filtered or has no
 * frames (inferno drops those). */
static foldsvg_status end_event(reader *r)
{
    foldsvg_status st = FOLDSVG_OK;
    if (r->in_event && !r->skip && r->frames.n > 0)
        st = emit(r);
    r->in_event = 0;
    fs_perf_frames_clear(&r->frames);
    return st;
}

static int event_matches(const reader *r, const fs_perf_event *ev)
{
    if (r->filter_whole)
        return same(ev->event.ptr, ev->event.len, r->filter, r->filter_len);
    return same(ev->event.ptr, ev->base_len, r->filter, r->filter_len);
}

static foldsvg_status add_frame_line(reader *r, const fs_perf_frame_line *fl)
{
    if (fs_perf_add_frames(fl, &r->names, &r->frames, &r->scratch, &r->cut) != 0)
        return nomem(r);
    return FOLDSVG_OK;
}

/* "comm" with spaces as '_', then "-pid" or "-pid/tid" when asked. */
static int set_root(reader *r, const fs_perf_event *ev)
{
    fs_buf *b = &r->root;
    fs_buf_clear(b);
    if (fs_buf_append(b, ev->comm.ptr, ev->comm.len) != 0)
        return -1;
    for (size_t i = 0; i < b->len; i++)
        if (b->data[i] == ' ')
            b->data[i] = '_';
    if (r->o->tid || r->o->pid) {
        fs_buf_append(b, "-", 1);
        fs_buf_append(b, ev->pid.ptr, ev->pid.len);
    }
    if (r->o->tid) {
        fs_buf_append(b, "/", 1);
        fs_buf_append(b, ev->tid.ptr, ev->tid.len);
    }
    return fs_buf_status(b) != FOLDSVG_OK;
}

static foldsvg_status start_event(reader *r, const fs_perf_event *ev)
{
    r->in_event = 1;
    r->event_line = r->lineno;
    r->skip = r->cut = 0;
    fs_perf_frames_clear(&r->frames);
    if (ev->event.ptr) {
        if (note_seen(r, ev->event.ptr, ev->base_len) != 0)
            return nomem(r);
        if (!r->filter) {
            fs_buf_clear(&r->first_event);
            if (fs_buf_append(&r->first_event, ev->event.ptr, ev->base_len) != 0)
                return nomem(r);
            r->filter = r->first_event.data;
            r->filter_len = r->first_event.len;
        } else if (!event_matches(r, ev)) {
            r->skip = 1;
            return FOLDSVG_OK;
        }
    }
    if (ev->period_overflow) {
        note_malformed(r, "its period passes 2^64-1");
        r->skip = 1;
        return FOLDSVG_OK;
    }
    r->kept++;
    r->count = ev->has_period ? ev->period : 1;
    r->weighted |= ev->has_period;
    if (set_root(r, ev) != 0)
        return nomem(r);
    /* inferno tidies Java names when the root starts "java" (java, javaw, java-PID) */
    r->names.java = ev->comm.len >= 4 && memcmp(ev->comm.ptr, "java", 4) == 0;
    /* A sample without a call chain has its one frame on the header line. */
    fs_perf_frame_line fl;
    if (ev->rest.len && fs_perf_parse_frame(ev->rest.ptr, ev->rest.len, &fl)) {
        foldsvg_status st = add_frame_line(r, &fl);
        return st ? st : end_event(r);
    }
    return FOLDSVG_OK;
}

static foldsvg_status on_line(reader *r, const char *line, size_t len)
{
    len = fs_perf_trim_end(line, len);
    if (len > 0 && line[0] == '#')
        return FOLDSVG_OK;
    if (len == 0)
        return end_event(r);
    fs_perf_frame_line fl;
    fs_perf_event ev;
    if (r->in_event) {
        if (fs_perf_parse_frame(line, len, &fl))
            return r->skip || r->cut ? FOLDSVG_OK : add_frame_line(r, &fl);
        /* A record whose blank line is missing ends at the next header (inferno would
         * take the header for a bad frame and merge the two records). */
        if (fs_perf_parse_event(line, len, &ev) && fs_perf_event_is_strict(&ev)) {
            foldsvg_status st = end_event(r);
            return st ? st : start_event(r, &ev);
        }
        if (!r->skip && !r->cut)
            note_malformed(r, "not a stack frame (ADDRESS SYMBOL (MODULE))");
        return FOLDSVG_OK;
    }
    if (!fs_perf_parse_event(line, len, &ev)) {
        note_malformed(r, "not an event header (COMMAND PID/TID ... EVENT:)");
        return FOLDSVG_OK;
    }
    return start_event(r, &ev);
}

static foldsvg_status read_lines(reader *r)
{
    size_t cap = READ_BLOCK, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return nomem(r);
    foldsvg_status st = FOLDSVG_OK;
    for (;;) {
        if (len == cap) {
            if (cap >= MAX_LINE) {
                st = fs_error_at_line(r->err, FOLDSVG_E_LIMIT, fs_input_name(r->in), r->lineno + 1,
                                      0, "line longer than %u bytes", (unsigned)MAX_LINE);
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                st = nomem(r);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got;
        fs_input_note_items(r->in, r->lineno);
        st = fs_input_read(r->in, buf + len, cap - len, &got, r->err);
        if (st)
            break;
        if (got == 0) {
            if (len > 0) {
                r->lineno++;
                st = on_line(r, buf, len);
            }
            break;
        }
        size_t scan = len, start = 0;
        len += got;
        const char *nl;
        while ((nl = memchr(buf + scan, '\n', len - scan)) != NULL) {
            size_t end = (size_t)(nl - buf);
            r->lineno++;
            st = on_line(r, buf + start, end - start);
            if (st)
                goto out;
            start = scan = end + 1;
        }
        memmove(buf, buf + start, len - start);
        len -= start;
    }
out:
    free(buf);
    return st;
}

/* "cycles (12 samples), instructions (3 samples)" */
static void list_seen(const reader *r, fs_buf *b)
{
    for (size_t i = 0; i < r->nseen; i++) {
        fs_buf_printf(b, "%s%.*s (%llu sample%s)", i ? ", " : "", (int)r->seen[i].len,
                      r->seen_names.data + r->seen[i].off, (unsigned long long)r->seen[i].records,
                      r->seen[i].records == 1 ? "" : "s");
    }
    if (r->unlisted)
        fs_buf_printf(b, " and %llu sample%s of other events", (unsigned long long)r->unlisted,
                      r->unlisted == 1 ? "" : "s");
}

static void warn(const reader *r, const foldsvg_error *w)
{
    if (r->sink->warn)
        r->sink->warn(r->sink, w);
}

static foldsvg_status finish(reader *r)
{
    foldsvg_error w;
    const char *name = fs_input_name(r->in);
    if (r->malformed) {
        fs_error_at_line(&w, FOLDSVG_OK, name, r->first_malformed, 0,
                         "ignored %llu malformed line%s of perf script output (the first is "
                         "this one: %s)",
                         (unsigned long long)r->malformed, r->malformed == 1 ? "" : "s",
                         r->malformed_what);
        warn(r, &w);
    }
    int given = r->o->event_filter && r->o->event_filter[0];
    if (r->kept == 0 && given && r->nseen > 0) {
        fs_buf list = {0};
        list_seen(r, &list);
        foldsvg_status st = fs_error(r->err, FOLDSVG_E_NO_DATA, name,
                                     "no samples of event '%s' (--event-filter); the recording "
                                     "has %s",
                                     r->o->event_filter, list.data ? list.data : "none");
        fs_buf_free(&list);
        return st;
    }
    if (!given && (r->nseen > 1 || r->unlisted)) {
        fs_buf list = {0};
        list_seen(r, &list);
        fs_error(&w, FOLDSVG_OK, name,
                 "the recording has %s: only the first, %.*s, is shown (choose with "
                 "--event-filter EVENT)",
                 list.data ? list.data : "several events", (int)r->filter_len, r->filter);
        fs_buf_free(&list);
        warn(r, &w);
    }
    if (r->kept && r->sink->count_name) {
        /* a name cut at a NUL byte (binary junk) may be empty: then samples it is */
        const char *nul = r->filter ? memchr(r->filter, '\0', r->filter_len) : NULL;
        size_t n = nul ? (size_t)(nul - r->filter) : r->filter_len;
        char unit[FS_UNIT_SIZE];
        if (r->weighted && n)
            snprintf(unit, sizeof unit, "%.*s", (int)n, r->filter);
        else
            snprintf(unit, sizeof unit, "samples");
        r->sink->count_name(r->sink, unit);
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_perf_read(fs_input *in, const fs_perf_opts *po, fs_sink *sink, foldsvg_error *err)
{
    static const fs_perf_opts defaults = {0};
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.o = po ? po : &defaults;
    r.sink = sink;
    r.err = err;
    r.names.kernel = r.o->kernel || r.o->all;
    r.names.jit = r.o->jit || r.o->all;
    r.names.addrs = r.o->addrs;
    r.names.skip_after = (const char *const *)r.o->skip_after.v;
    r.names.nskip_after = r.o->skip_after.n;
    if (r.o->event_filter && r.o->event_filter[0]) {
        r.filter = r.o->event_filter;
        r.filter_len = strlen(r.filter);
        r.filter_whole = memchr(r.filter, ':', r.filter_len) != NULL;
    }
    if (sink->facts)
        sink->facts(sink, "perf script", "", 0, 0);
    foldsvg_status st = read_lines(&r);
    if (st == FOLDSVG_OK)
        st = end_event(&r);
    if (st == FOLDSVG_OK)
        st = finish(&r);
    fs_buf_free(&r.root);
    fs_buf_free(&r.scratch);
    fs_buf_free(&r.first_event);
    fs_buf_free(&r.seen_names);
    fs_perf_frames_free(&r.frames);
    free(r.refs);
    return st;
}

int fs_perf_detect(const unsigned char *head, size_t len, int complete)
{
    const char *p = (const char *)head, *end = p + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        if (!nl && !complete)
            return -1; /* judged on the whole line */
        size_t n = fs_perf_trim_end(p, (size_t)(line_end - p));
        if (n > 0 && p[0] != '#') {
            fs_perf_event ev;
            return fs_perf_parse_event(p, n, &ev) && fs_perf_event_is_strict(&ev);
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}
