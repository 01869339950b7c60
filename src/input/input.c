#include "input/input.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <zlib.h>

#include "input/pipesize.h"
#include "input/utf16.h"
#include "util/error.h"

enum { FS_RAW_CHUNK = 1 << 18, FS_PEEK_MAX = FS_INPUT_PEEK_MAX, FS_UTF16_CHUNK = 1 << 16 };

struct fs_input {
    char name[1024];
    FILE *file;
    int owns_file;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    uint64_t raw_size, raw_consumed;

    int gzip;
    int gz_done; /* the current member ended (Z_STREAM_END) */
    z_stream zs;
    unsigned char *raw; /* compressed bytes waiting for inflate */
    size_t raw_len;

    /* The text layer over the gunzipped bytes, set up by the first bytes (a byte-order
     * mark): a UTF-8 mark is dropped, UTF-16 is decoded to UTF-8. */
    int text_known;
    size_t bom_skip;        /* a UTF-8 mark's bytes, which seeks in the raw file add */
    unsigned char carry[4]; /* bytes looked at for a mark, not one: handed on first */
    int utf32;              /* a UTF-32 mark: 1 little-endian, 2 big: every read fails */
    size_t carry_len, carry_pos;
    int utf16; /* UTF-16 (LE or BE): u16 holds bytes not yet decoded */
    fs_utf16 u16d;
    unsigned char *u16;
    size_t u16_len;
    int u16_eof;

    /* decoded bytes read ahead by fs_input_peek_more, served before anything else */
    unsigned char *ahead;
    size_t ahead_len, ahead_pos;

    uint64_t offset;
    int raw_eof;
    uint64_t limit; /* reads end at this decoded offset (fs_input_set_limit) */

    fs_progress_fn progress;
    void *progress_user;
    /* another part's bytes and items read at the same time, reported with these */
    const _Atomic uint64_t *also_done, *also_items;
    uint64_t shown_done, shown_items; /* reported last in this reading */
    uint64_t items;
    foldsvg_warning_fn warn;
    void *warn_user;
    /* while read on another thread: the warning kept for the caller's (fs_input_hold_warnings) */
    int hold, held;
    foldsvg_error held_warning;

    /* A regular file opened by path (name holds the whole path) can be opened again for a
     * second read; its identity tells whether it changed in between. So can a stream that
     * is a regular file read from BASE, by the path AGAIN (fs_input_set_again). */
    int reopenable;
    struct stat id;
    char again[64];
    uint64_t base;

    FILE *tee;     /* every raw byte read is also written here (see fs_input_open_stream_tee) */
    fs_pool *pool; /* where reading ahead and reading in parts run (fs_input_set_pool) */
    int tee_failed;
};

/* Progress never goes back within a reading: a part read at the same time that is read again
 * (formats/folded/split.c) had its bytes counted already. */
static void report(fs_input *in, uint64_t done, uint64_t items)
{
    if (done < in->shown_done)
        done = in->shown_done;
    if (items < in->shown_items)
        items = in->shown_items;
    in->shown_done = done;
    in->shown_items = items;
    in->progress(in->progress_user, in->name, done, in->raw_size, items);
}

static foldsvg_status io_error(fs_input *in, foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_IO, in->name, "read failed: %s", strerror(errno));
}

/* Reads raw (possibly compressed) bytes. */
static foldsvg_status raw_read(fs_input *in, unsigned char *buf, size_t cap, size_t *got,
                               foldsvg_error *err)
{
    *got = 0;
    if (in->raw_eof)
        return FOLDSVG_OK;
    if (in->mem) {
        size_t n = in->mem_len - in->mem_pos;
        if (n > cap)
            n = cap;
        memcpy(buf, in->mem + in->mem_pos, n);
        in->mem_pos += n;
        *got = n;
    } else {
        size_t n = fread(buf, 1, cap, in->file);
        if (n == 0 && ferror(in->file))
            return io_error(in, err);
        *got = n;
    }
    if (*got == 0)
        in->raw_eof = 1;
    if (in->tee && *got && fwrite(buf, 1, *got, in->tee) != *got)
        in->tee_failed = 1;
    in->raw_consumed += *got;
    if (in->progress && *got && !in->hold) {
        uint64_t done = in->raw_consumed, items = in->items;
        if (in->also_done) {
            done += atomic_load_explicit(in->also_done, memory_order_relaxed);
            items += atomic_load_explicit(in->also_items, memory_order_relaxed);
        }
        report(in, done, items);
    }
    return FOLDSVG_OK;
}

static foldsvg_status setup(fs_input *in, foldsvg_error *err)
{
    /* Sniff the gzip magic from the raw stream; the sniffed bytes stay in in->raw. */
    in->raw = malloc(FS_RAW_CHUNK);
    if (!in->raw)
        return fs_error(err, FOLDSVG_E_NOMEM, in->name, "out of memory");
    size_t got = 0;
    while (in->raw_len < 2) {
        foldsvg_status st = raw_read(in, in->raw + in->raw_len, 2 - in->raw_len, &got, err);
        if (st)
            return st;
        if (got == 0)
            break;
        in->raw_len += got;
    }
    if (in->raw_len == 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
        in->gzip = 1;
        /* 15 + 16: a gzip wrapper only; a zlib or raw deflate stream is not gzip. */
        if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
            return fs_error(err, FOLDSVG_E_NOMEM, in->name, "cannot start gzip decoder");
    }
    return FOLDSVG_OK;
}

static foldsvg_status make(fs_input **out, const char *name, fs_input **in, foldsvg_error *err)
{
    *out = NULL;
    *in = calloc(1, sizeof **in);
    if (!*in)
        return fs_error(err, FOLDSVG_E_NOMEM, name, "out of memory");
    snprintf((*in)->name, sizeof(*in)->name, "%s", name);
    (*in)->limit = UINT64_MAX;
    return FOLDSVG_OK;
}

static foldsvg_status finish_open(fs_input **out, fs_input *in, foldsvg_error *err)
{
    if (in->file) /* a pipe: standard input, a stream given, a FIFO such as bash's <(command) */
        fs_pipe_widen(fileno(in->file));
    foldsvg_status st = setup(in, err);
    if (st) {
        fs_input_close(in);
        return st;
    }
    *out = in;
    return FOLDSVG_OK;
}

/* PATH opened as an input named NAME, whose bytes start at BASE (a regular file then). */
static foldsvg_status open_path(fs_input **out, const char *path, const char *name, uint64_t base,
                                foldsvg_error *err)
{
    fs_input *in;
    foldsvg_status st = make(out, name, &in, err);
    if (st)
        return st;
    in->file = fopen(path, "rb");
    if (!in->file) {
        int e = errno;
        free(in);
        return fs_error(err, FOLDSVG_E_IO, name, "cannot open input: %s", strerror(e));
    }
    in->owns_file = 1;
    struct stat sb;
    if (fstat(fileno(in->file), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            fs_input_close(in);
            return fs_error(err, FOLDSVG_E_IO, name, "cannot read input: it is a directory");
        }
        if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size >= base) {
            in->raw_size = (uint64_t)sb.st_size - base;
            in->reopenable = strlen(path) < sizeof in->name;
            in->id = sb;
        }
    }
    if (base && (!in->reopenable || fseeko(in->file, (off_t)base, SEEK_SET) != 0)) {
        fs_input_close(in);
        return fs_error(err, FOLDSVG_E_IO, name, "cannot read input again");
    }
    in->base = base;
    return finish_open(out, in, err);
}

foldsvg_status fs_input_open_file(fs_input **out, const char *path, foldsvg_error *err)
{
    if (!path || strcmp(path, "-") == 0)
        return fs_input_open_stream(out, stdin, "<stdin>", err);
    return open_path(out, path, path, 0, err);
}

void fs_input_set_again(fs_input *in, const char *path, uint64_t base, const struct stat *id)
{
    if (!path || strlen(path) >= sizeof in->again || !S_ISREG(id->st_mode) ||
        (uint64_t)id->st_size < base || in->raw_consumed > 2 || in->mem)
        return;
    snprintf(in->again, sizeof in->again, "%s", path);
    in->base = base;
    in->id = *id;
    in->raw_size = (uint64_t)id->st_size - base;
    in->reopenable = 1;
}

foldsvg_status fs_input_open_stream(fs_input **out, FILE *f, const char *name, foldsvg_error *err)
{
    fs_input *in;
    foldsvg_status st = make(out, name ? name : "<stream>", &in, err);
    if (st)
        return st;
    in->file = f;
    return finish_open(out, in, err);
}

foldsvg_status fs_input_open_stream_tee(fs_input **out, FILE *f, const char *name, FILE *tee,
                                        foldsvg_error *err)
{
    fs_input *in;
    foldsvg_status st = make(out, name ? name : "<stream>", &in, err);
    if (st)
        return st;
    in->file = f;
    in->tee = tee;
    return finish_open(out, in, err);
}

void fs_input_own_file(fs_input *in)
{
    in->owns_file = 1;
}

void fs_input_untee(fs_input *in)
{
    in->tee = NULL;
}

foldsvg_status fs_input_drain_raw(fs_input *in, foldsvg_error *err)
{
    unsigned char buf[1 << 16];
    size_t got;
    do {
        foldsvg_status st = raw_read(in, buf, sizeof buf, &got, err);
        if (st)
            return st;
    } while (got);
    if (in->tee_failed || (in->tee && fflush(in->tee) != 0))
        return fs_error(err, FOLDSVG_E_IO, in->name,
                        "cannot keep a copy of the input in a temporary file: %s", strerror(errno));
    return FOLDSVG_OK;
}

foldsvg_status fs_input_open_mem(fs_input **out, const void *data, size_t len, const char *name,
                                 foldsvg_error *err)
{
    fs_input *in;
    foldsvg_status st = make(out, name ? name : "<memory>", &in, err);
    if (st)
        return st;
    in->mem = data ? data : (const unsigned char *)"";
    in->mem_len = data ? len : 0;
    in->raw_size = in->mem_len;
    return finish_open(out, in, err);
}

int fs_input_can_split(const fs_input *in)
{
    return in->reopenable && in->text_known && !in->gzip && !in->utf16;
}

void fs_input_set_limit(fs_input *in, uint64_t off)
{
    in->limit = off;
}

int fs_input_can_reopen(const fs_input *in)
{
    return in->mem != NULL || in->reopenable;
}

foldsvg_status fs_input_reopen(const fs_input *in, fs_input **out, foldsvg_error *err)
{
    *out = NULL;
    if (in->mem)
        return fs_input_open_mem(out, in->mem, in->mem_len, in->name, err);
    if (!in->reopenable)
        return fs_error(err, FOLDSVG_E_ARG, in->name, "this input cannot be read twice");
    foldsvg_status st =
        open_path(out, in->again[0] ? in->again : in->name, in->name, in->base, err);
    if (st)
        return st;
    snprintf((*out)->again, sizeof(*out)->again, "%s", in->again);
    const struct stat *a = &(*out)->id, *b = &in->id;
    if (!(*out)->reopenable || a->st_dev != b->st_dev || a->st_ino != b->st_ino ||
        a->st_size != b->st_size || a->st_mtime != b->st_mtime) {
        fs_input_close(*out);
        *out = NULL;
        return fs_error(err, FOLDSVG_E_IO, in->name,
                        "the input changed while it was read (it is read twice in places)");
    }
    return FOLDSVG_OK;
}

void fs_input_close(fs_input *in)
{
    if (!in)
        return;
    if (in->gzip)
        inflateEnd(&in->zs);
    if (in->owns_file && in->file)
        fclose(in->file);
    free(in->raw);
    free(in->ahead);
    free(in->u16);
    free(in);
}

const char *fs_input_name(const fs_input *in)
{
    return in->name;
}

int fs_input_is_gzip(const fs_input *in)
{
    return in->gzip;
}

uint64_t fs_input_offset(const fs_input *in)
{
    return in->offset;
}

uint64_t fs_input_raw_size(const fs_input *in)
{
    return in->raw_size;
}

uint64_t fs_input_raw_consumed(const fs_input *in)
{
    return in->raw_consumed;
}

void fs_input_set_progress(fs_input *in, fs_progress_fn fn, void *user)
{
    in->progress = fn;
    in->progress_user = user;
    in->shown_done = in->shown_items = 0;
    /* a reading starts (an input read again, found unsorted, starts again): 0 bytes, whatever
     * opening it looked at already */
    if (fn)
        fn(user, in->name, 0, in->raw_size, 0);
}

void fs_input_set_warn(fs_input *in, foldsvg_warning_fn fn, void *user)
{
    in->warn = fn;
    in->warn_user = user;
}

void fs_input_set_pool(fs_input *in, fs_pool *pool)
{
    in->pool = pool;
}

fs_pool *fs_input_pool(const fs_input *in)
{
    return in->pool;
}

void fs_input_hold_warnings(fs_input *in)
{
    in->hold = 1;
}

void fs_input_release_warnings(fs_input *in)
{
    in->hold = 0;
    if (in->held && in->warn)
        in->warn(in->warn_user, &in->held_warning);
    in->held = 0;
}

void fs_input_progress_also(fs_input *in, const _Atomic uint64_t *done,
                            const _Atomic uint64_t *items)
{
    in->also_done = done;
    in->also_items = items;
}

void fs_input_give_progress(fs_input *in, uint64_t done, uint64_t items)
{
    if (in->progress)
        report(in, done, items);
}

void fs_input_note_items(fs_input *in, uint64_t items)
{
    in->items = items;
}

/* The last gzip member ended and a zero byte follows (in->raw[0]): the rest of the raw input
 * must be zeros, which end the stream with a warning; anything else there is an error. */
static foldsvg_status zero_padding(fs_input *in, foldsvg_error *err)
{
    uint64_t at = in->raw_consumed - in->raw_len, zeros = 0;
    for (;;) {
        for (size_t i = 0; i < in->raw_len; i++)
            if (in->raw[i] != 0)
                return fs_error(err, FOLDSVG_E_PARSE, in->name,
                                "corrupt gzip data: byte %llu of the file is neither zero "
                                "padding nor a gzip member (after the last member's end)",
                                (unsigned long long)(at + zeros + i));
        zeros += in->raw_len;
        in->raw_len = 0;
        size_t n;
        FS_FORWARD_IF_ERROR(raw_read(in, in->raw, FS_RAW_CHUNK, &n, err));
        if (n == 0)
            break;
        in->raw_len = n;
    }
    if (in->warn) {
        foldsvg_error w;
        fs_error(&w, FOLDSVG_OK, in->name,
                 "%llu zero byte%s after the end of the gzip data ignored (padding, as gzip -d "
                 "ignores it)",
                 (unsigned long long)zeros, zeros == 1 ? "" : "s");
        if (in->hold) {
            in->held_warning = w;
            in->held = 1;
        } else {
            in->warn(in->warn_user, &w);
        }
    }
    return FOLDSVG_OK;
}

/* Undoes gzip into BUF (the bytes as they are when not gzip). */
static foldsvg_status inflate_into(fs_input *in, unsigned char *buf, size_t cap, size_t *got,
                                   foldsvg_error *err)
{
    *got = 0;
    if (!in->gzip) {
        if (in->raw_len) { /* the sniffed magic bytes */
            size_t n = in->raw_len < cap ? in->raw_len : cap;
            memcpy(buf, in->raw, n);
            memmove(in->raw, in->raw + n, in->raw_len - n);
            in->raw_len -= n;
            *got = n;
            return FOLDSVG_OK;
        }
        return raw_read(in, buf, cap, got, err);
    }
    while (*got == 0) {
        if (in->raw_len == 0) {
            size_t n;
            foldsvg_status st = raw_read(in, in->raw, FS_RAW_CHUNK, &n, err);
            if (st)
                return st;
            in->raw_len = n;
            if (n == 0) {
                if (!in->gz_done)
                    return fs_error_at_offset(err, FOLDSVG_E_PARSE, in->name, in->offset,
                                              "truncated gzip stream (the file ends inside "
                                              "compressed data)");
                return FOLDSVG_OK;
            }
        }
        if (in->gz_done && in->raw[0] == 0)
            return zero_padding(in, err); /* *got 0: the end */
        if (in->gz_done) {
            /* Another gzip member follows (concatenated .gz files are one stream). */
            if (inflateReset(&in->zs) != Z_OK)
                return fs_error(err, FOLDSVG_E_PARSE, in->name, "gzip decoder failed");
            in->gz_done = 0;
        }
        in->zs.next_in = in->raw;
        in->zs.avail_in = (uInt)in->raw_len;
        in->zs.next_out = buf;
        in->zs.avail_out = (uInt)(cap > (1u << 30) ? (1u << 30) : cap);
        uInt before_out = in->zs.avail_out;
        int rc = inflate(&in->zs, Z_NO_FLUSH);
        *got = before_out - in->zs.avail_out;
        size_t used = in->raw_len - in->zs.avail_in;
        memmove(in->raw, in->raw + used, in->zs.avail_in);
        in->raw_len = in->zs.avail_in;
        if (rc == Z_STREAM_END) {
            in->gz_done = 1;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            return fs_error_at_offset(err, FOLDSVG_E_PARSE, in->name, in->offset + *got,
                                      "corrupt gzip data: %s",
                                      in->zs.msg ? in->zs.msg : "inflate failed");
        }
        if (in->gz_done && *got == 0 && in->raw_len == 0) {
            size_t n;
            foldsvg_status st = raw_read(in, in->raw, FS_RAW_CHUNK, &n, err);
            if (st)
                return st;
            in->raw_len = n;
            if (n == 0)
                return FOLDSVG_OK;
        }
    }
    return FOLDSVG_OK;
}

/* The first gunzipped bytes: a byte-order mark sets the text layer up. */
static foldsvg_status sniff_text(fs_input *in, foldsvg_error *err)
{
    in->text_known = 1;
    unsigned char b[4]; /* UTF-32's mark is 4 bytes */
    size_t n = 0, got = 0, want = 3;
    foldsvg_status st;
    do {
        st = inflate_into(in, b + n, want - n, &got, err);
        n += got;
        /* a fourth byte only where it may finish UTF-32's mark (the first read after a
         * UTF-8 mark is then whole, as before) */
        if (n == 3 && want == 3 &&
            ((b[0] == 0xFF && b[1] == 0xFE && !b[2]) || (!b[0] && !b[1] && b[2] == 0xFE)))
            want = 4;
    } while (st == FOLDSVG_OK && got && n < want);
    if (st) { /* what came before the failure is still read first */
        memcpy(in->carry, b, n);
        in->carry_len = n;
        return st;
    }
    size_t mark = 0;
    /* FF FE 00 00 would be UTF-16 starting with U+0000, which no profile does */
    if (n == 4 && ((b[0] == 0xFF && b[1] == 0xFE && !b[2] && !b[3]) ||
                   (!b[0] && !b[1] && b[2] == 0xFE && b[3] == 0xFF))) {
        in->utf32 = b[0] ? 1 : 2;
        return FOLDSVG_OK;
    }
    if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
        in->bom_skip = mark = 3;
    } else if (n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
        in->utf16 = 1;
        in->u16d.big_endian = b[0] == 0xFE;
        in->u16 = malloc(FS_UTF16_CHUNK);
        if (!in->u16)
            return fs_error(err, FOLDSVG_E_NOMEM, in->name, "out of memory");
        memcpy(in->u16, b + 2, n - 2);
        in->u16_len = n - 2;
        return FOLDSVG_OK;
    }
    memcpy(in->carry, b + mark, n - mark);
    in->carry_len = n - mark;
    return FOLDSVG_OK;
}

/* UTF-16 decoded into BUF: *GOT is 0 only at the end. */
static foldsvg_status decode_utf16(fs_input *in, unsigned char *buf, size_t cap, size_t *got,
                                   foldsvg_error *err)
{
    *got = 0;
    for (;;) {
        size_t used;
        *got = fs_utf16_to_utf8(&in->u16d, in->u16, in->u16_len, &used, buf, cap, in->u16_eof);
        memmove(in->u16, in->u16 + used, in->u16_len - used);
        in->u16_len -= used;
        if (*got || (in->u16_eof && !fs_utf16_pending(&in->u16d)))
            return FOLDSVG_OK;
        size_t n;
        FS_FORWARD_IF_ERROR(
            inflate_into(in, in->u16 + in->u16_len, FS_UTF16_CHUNK - in->u16_len, &n, err));
        in->u16_len += n;
        in->u16_eof = n == 0;
    }
}

/* Decodes into BUF (gzip, then the text layer), bypassing the read-ahead buffer. */
static foldsvg_status decode(fs_input *in, unsigned char *buf, size_t cap, size_t *got,
                             foldsvg_error *err)
{
    *got = 0;
    if (!in->text_known)
        FS_FORWARD_IF_ERROR(sniff_text(in, err));
    if (in->utf32) /* every time: the format's detection sets aside what a peek meets */
        return fs_error(err, FOLDSVG_E_PARSE, in->name,
                        "this is UTF-32 text (it starts with a UTF-32 %s-endian byte-order mark); "
                        "foldsvg reads UTF-8, and UTF-16 that starts with a byte-order mark",
                        in->utf32 == 1 ? "little" : "big");
    if (in->utf16)
        return decode_utf16(in, buf, cap, got, err);
    if (in->carry_pos < in->carry_len) {
        size_t n = in->carry_len - in->carry_pos;
        n = n < cap ? n : cap;
        memcpy(buf, in->carry + in->carry_pos, n);
        in->carry_pos += n;
        *got = n;
        return FOLDSVG_OK;
    }
    return inflate_into(in, buf, cap, got, err);
}

foldsvg_status fs_input_read(fs_input *in, void *buf, size_t cap, size_t *got, foldsvg_error *err)
{
    *got = 0;
    uint64_t left = in->offset < in->limit ? in->limit - in->offset : 0;
    if (cap > left)
        cap = (size_t)left;
    if (cap == 0)
        return FOLDSVG_OK;
    if (in->ahead_pos < in->ahead_len) {
        size_t n = in->ahead_len - in->ahead_pos;
        if (n > cap)
            n = cap;
        memcpy(buf, in->ahead + in->ahead_pos, n);
        in->ahead_pos += n;
        in->offset += n;
        *got = n;
        return FOLDSVG_OK;
    }
    foldsvg_status st = decode(in, buf, cap, got, err);
    in->offset += *got;
    return st;
}

void fs_input_head(const fs_input *in, const unsigned char **head, size_t *len)
{
    *head = in->ahead ? in->ahead + in->ahead_pos : (const unsigned char *)"";
    *len = in->ahead_len - in->ahead_pos;
}

foldsvg_status fs_input_peek_more(fs_input *in, int *more, foldsvg_error *err)
{
    *more = 0;
    if (!in->ahead) {
        in->ahead = malloc(FS_PEEK_MAX);
        if (!in->ahead)
            return fs_error(err, FOLDSVG_E_NOMEM, in->name, "out of memory");
    }
    if (in->ahead_len == FS_PEEK_MAX)
        return FOLDSVG_OK;
    size_t got;
    foldsvg_status st =
        decode(in, in->ahead + in->ahead_len, FS_PEEK_MAX - in->ahead_len, &got, err);
    if (st)
        return st;
    in->ahead_len += got;
    *more = got > 0;
    return FOLDSVG_OK;
}

foldsvg_status fs_input_seek(fs_input *in, uint64_t off, foldsvg_error *err)
{
    if (off < in->offset)
        return fs_error(err, FOLDSVG_E_ARG, in->name, "cannot seek backwards");
    if (off == in->offset)
        return FOLDSVG_OK;
    if (!in->text_known)
        FS_FORWARD_IF_ERROR(sniff_text(in, err));
    int direct =
        !in->gzip && !in->utf16 && in->ahead_pos >= in->ahead_len && (in->mem || in->reopenable);
    if (direct) {
        /* Not compressed: decoded offsets are raw offsets past a UTF-8 mark (the input was
         * read from its start), so the sniffed bytes are dropped and the position set. */
        uint64_t raw = off + in->bom_skip;
        if (in->mem) {
            in->mem_pos = raw < in->mem_len ? (size_t)raw : in->mem_len;
        } else if (fseeko(in->file, (off_t)(raw + in->base), SEEK_SET) != 0) {
            return io_error(in, err);
        }
        in->raw_len = 0;
        in->raw_eof = 0;
        in->carry_pos = in->carry_len = 0;
        in->offset = off;
        return FOLDSVG_OK;
    }
    /* gzip (or a stream): decode and drop */
    enum { SKIP_CHUNK = 1 << 16 };
    unsigned char *tmp = malloc(SKIP_CHUNK);
    if (!tmp)
        return fs_error(err, FOLDSVG_E_NOMEM, in->name, "out of memory");
    foldsvg_status st = FOLDSVG_OK;
    while (in->offset < off) {
        uint64_t want = off - in->offset;
        size_t got = 0;
        st = fs_input_read(in, tmp, want < SKIP_CHUNK ? (size_t)want : SKIP_CHUNK, &got, err);
        if (st || got == 0)
            break;
    }
    free(tmp);
    return st;
}
