#include "formats/pprof/wire.h"

#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "input/input.h"

/* How a field is written: a varint (wire type 0), a string or bytes (2), a message (2), or
 * a repeated integer, packed (2) or not (0). */
typedef enum pb_kind { K_NONE, K_VARINT, K_STRING, K_MESSAGE, K_INTS } pb_kind;

typedef enum pb_msg {
    M_PROFILE,
    M_VALUETYPE,
    M_SAMPLE,
    M_LABEL,
    M_MAPPING,
    M_LOCATION,
    M_LINE,
    M_FUNCTION,
    M_N
} pb_msg;

typedef struct pb_field {
    uint8_t kind, child; /* pb_kind; pb_msg of a K_MESSAGE */
    const char *name;
} pb_field;

enum { MAX_FIELD = 15 };

/* profile.proto, field by number. */
static const pb_field schema[M_N][MAX_FIELD + 1] =
    {
        [M_PROFILE] =
            {
                [1] = {K_MESSAGE, M_VALUETYPE, "sample_type"},
                [2] = {K_MESSAGE, M_SAMPLE, "sample"},
                [3] = {K_MESSAGE, M_MAPPING, "mapping"},
                [4] = {K_MESSAGE, M_LOCATION, "location"},
                [5] = {K_MESSAGE, M_FUNCTION, "function"},
                [6] = {K_STRING, 0, "string_table"},
                [7] = {K_VARINT, 0, "drop_frames"},
                [8] = {K_VARINT, 0, "keep_frames"},
                [9] = {K_VARINT, 0, "time_nanos"},
                [10] = {K_VARINT, 0, "duration_nanos"},
                [11] = {K_MESSAGE, M_VALUETYPE, "period_type"},
                [12] = {K_VARINT, 0, "period"},
                [13] = {K_INTS, 0, "comment"},
                [14] = {K_VARINT, 0, "default_sample_type"},
                [15] = {K_VARINT, 0, "doc_url"},
            },
        [M_VALUETYPE] = {[1] = {K_VARINT, 0, "type"}, [2] = {K_VARINT, 0, "unit"}},
        [M_SAMPLE] =
            {
                [1] = {K_INTS, 0, "location_id"},
                [2] = {K_INTS, 0, "value"},
                [3] = {K_MESSAGE, M_LABEL, "label"},
            },
        [M_LABEL] =
            {
                [1] = {K_VARINT, 0, "key"},
                [2] = {K_VARINT, 0, "str"},
                [3] = {K_VARINT, 0, "num"},
                [4] = {K_VARINT, 0, "num_unit"},
            },
        [M_MAPPING] =
            {
                [1] = {K_VARINT, 0, "id"},
                [2] = {K_VARINT, 0, "memory_start"},
                [3] = {K_VARINT, 0, "memory_limit"},
                [4] = {K_VARINT, 0, "file_offset"},
                [5] = {K_VARINT, 0, "filename"},
                [6] = {K_VARINT, 0, "build_id"},
                [7] = {K_VARINT, 0, "has_functions"},
                [8] = {K_VARINT, 0, "has_filenames"},
                [9] = {K_VARINT, 0, "has_line_numbers"},
                [10] = {K_VARINT, 0, "has_inline_frames"},
            },
        [M_LOCATION] =
            {
                [1] = {K_VARINT, 0, "id"},
                [2] = {K_VARINT, 0, "mapping_id"},
                [3] = {K_VARINT, 0, "address"},
                [4] = {K_MESSAGE, M_LINE, "line"},
                [5] = {K_VARINT, 0, "is_folded"},
            },
        [M_LINE] =
            {
                [1] = {K_VARINT, 0, "function_id"},
                [2] = {K_VARINT, 0, "line"},
                [3] = {K_VARINT, 0, "column"},
            },
        [M_FUNCTION] =
            {
                [1] = {K_VARINT, 0, "id"},
                [2] = {K_VARINT, 0, "name"},
                [3] = {K_VARINT, 0, "system_name"},
                [4] = {K_VARINT, 0, "filename"},
                [5] = {K_VARINT, 0, "start_line"},
            },
};

/* A varint at P[*i..len): 1 and *V; 0 cut by LEN; -1 longer than ten bytes. */
static int varint(const unsigned char *p, size_t len, size_t *i, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (*i >= len)
            return 0;
        unsigned char b = p[(*i)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 1;
    }
    return -1;
}

typedef struct walker {
    const unsigned char *p;
    size_t len;
    int strict;
    fs_pb_walk *w;
    /* the path of the field being walked, for messages: message field and element number */
    const char *path[4];
    uint64_t elem[4];
    int depth;
} walker;

static int fail(walker *k, size_t at, int result, const char *why)
{
    fs_pb_walk *w = k->w;
    w->result = result;
    w->offset = at;
    w->why = why;
    size_t n = 0;
    w->where[0] = '\0';
    for (int d = 0; d < k->depth && n < sizeof w->where; d++) {
        int r = snprintf(w->where + n, sizeof w->where - n, "%s%s[%llu]", d ? "." : "", k->path[d],
                         (unsigned long long)k->elem[d]);
        n = r < 0 ? sizeof w->where : n + (size_t)r;
    }
    return 0;
}

/* How many elements of each repeated message field of the current message were seen. */
typedef struct counts {
    uint64_t n[MAX_FIELD + 1];
} counts;

/* Walks the message of type M over [from, to). Returns 1, or 0 after fail(). */
static int walk(walker *k, pb_msg m, size_t from, size_t to)
{
    counts c;
    memset(&c, 0, sizeof c);
    size_t i = from;
    while (i < to) {
        size_t at = i;
        uint64_t key, v;
        int r = varint(k->p, to, &i, &key);
        if (r <= 0)
            return fail(k, at, r == 0 && to == k->len ? -1 : 0,
                        r == 0 ? "a field key cut short" : "a field key longer than ten bytes");
        uint64_t num = key >> 3, wt = key & 7;
        if (num == 0)
            return fail(k, at, 0, "field number 0");
        const pb_field *f = num <= MAX_FIELD ? &schema[m][num] : NULL;
        pb_kind kind = f ? (pb_kind)f->kind : K_NONE;
        if (kind == K_NONE && k->strict)
            return fail(k, at, 0, "a field that profile.proto does not have");
        if (kind == K_NONE)
            k->w->unknown_fields++;
        int ok_wire = kind == K_NONE     ? wt == 0 || wt == 1 || wt == 2 || wt == 5
                      : kind == K_VARINT ? wt == 0
                      : kind == K_INTS   ? wt == 0 || wt == 2
                                         : wt == 2;
        if (!ok_wire)
            return fail(k, at, 0, "a field of the wrong wire type");
        k->w->fields++;
        if (wt == 1 || wt == 5) {
            size_t n = wt == 1 ? 8 : 4;
            if (to - i < n)
                return fail(k, at, to == k->len ? -1 : 0, "a fixed-size value cut short");
            i += n;
            continue;
        }
        r = varint(k->p, to, &i, &v);
        if (r <= 0)
            return fail(k, at, r == 0 && to == k->len ? -1 : 0,
                        r == 0 ? "a value cut short" : "a varint longer than ten bytes");
        if (wt == 0)
            continue;
        if (v > to - i)
            return fail(k, at, to == k->len ? -1 : 0,
                        to == k->len ? "a length past the end of the data"
                                     : "a length past the end of the enclosing message");
        size_t end = i + (size_t)v;
        if (kind == K_MESSAGE && k->depth < 3) {
            k->path[k->depth] = f->name;
            k->elem[k->depth] = c.n[num]++;
            k->depth++;
            int ok = walk(k, (pb_msg)f->child, i, end);
            k->depth--;
            if (!ok)
                return 0;
        } else if (kind == K_INTS) {
            size_t j = i;
            while (j < end) {
                size_t vat = j;
                r = varint(k->p, end, &j, &v);
                if (r <= 0)
                    return fail(k, vat, 0, "a packed integer cut short");
            }
        }
        i = end;
    }
    return 1;
}

void fs_pb_walk_profile(const unsigned char *p, size_t len, int strict, fs_pb_walk *w)
{
    memset(w, 0, sizeof *w);
    walker k = {p, len, strict, w, {NULL}, {0}, 0};
    if (walk(&k, M_PROFILE, 0, len))
        w->result = 1;
}

static int detect_plain(const unsigned char *head, size_t len, int complete);

/* A gzip stream inside the gzip stream that the input layer undid (some agents compress the
 * protobuf twice): whether what its first bytes inflate to starts a Profile. */
static int nested_gzip(const unsigned char *head, size_t len, int complete)
{
    unsigned char out[4096];
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return 0;
    z.next_in = (unsigned char *)(uintptr_t)head;
    z.avail_in = (uInt)(len < UINT32_MAX ? len : UINT32_MAX);
    z.next_out = out;
    z.avail_out = sizeof out;
    int rc = inflate(&z, Z_NO_FLUSH);
    size_t n = sizeof out - z.avail_out;
    inflateEnd(&z);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        return 0;
    if (n == 0)
        return complete ? 0 : -1;
    return detect_plain(out, n, complete || n == sizeof out || rc == Z_STREAM_END);
}

int fs_pprof_detect(const unsigned char *head, size_t len, int complete)
{
    if (len >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8)
        return nested_gzip(head, len, complete);
    return detect_plain(head, len, complete);
}

static int detect_plain(const unsigned char *head, size_t len, int complete)
{
    if (len == 0)
        return complete ? 0 : -1;
    fs_pb_walk w;
    fs_pb_walk_profile(head, len, 1, &w);
    /* a profile that breaks after many sound fields is a corrupt one, which the reader
     * names as such (text and other data break within their first few bytes) */
    if (w.result == 0)
        return w.fields >= 8;
    /* Valid as far as it goes: a few fields are evidence enough (text breaks within its
     * first bytes); a whole input needs two. */
    if (w.result == 1)
        return w.fields >= 2 ? 1 : complete ? 0 : -1;
    if (w.fields >= 3 || (complete && w.fields >= 2))
        return 1;
    /* one field going on past all that detection reads: a long string table or sample */
    if (complete && w.fields == 1 && len >= FS_INPUT_PEEK_MAX)
        return 1;
    return complete ? 0 : -1;
}
