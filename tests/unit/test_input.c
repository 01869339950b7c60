/* The input's text layer (input/input.h over input/utf16.h): a UTF-8 byte-order mark is
 * dropped, UTF-16 with a mark is decoded to UTF-8 whatever the read sizes, unpaired
 * surrogates become U+FFFD, and offsets and seeks count the text handed out. */
#define _GNU_SOURCE /* F_GETPIPE_SZ */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "input/ahead.h"
#include "input/input.h"
#include "input/pipesize.h"
#include "input/utf16.h"
#include "testutil.h"

/* Everything IN decodes to, read CHUNK bytes at a time, into OUT (NUL-terminated). */
static size_t read_all(fs_input *in, size_t chunk, char *out, size_t cap)
{
    size_t len = 0, got;
    foldsvg_error err;
    do {
        ck_assert_uint_lt(len + chunk, cap);
        ck_assert_int_eq(fs_input_read(in, out + len, chunk, &got, &err), FOLDSVG_OK);
        len += got;
    } while (got);
    out[len] = '\0';
    return len;
}

static size_t decode_mem(const void *data, size_t n, size_t chunk, char *out, size_t cap)
{
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_mem(&in, data, n, "mem", &err), FOLDSVG_OK);
    size_t len = read_all(in, chunk, out, cap);
    ck_assert_uint_eq(fs_input_offset(in), len);
    fs_input_close(in);
    return len;
}

START_TEST(utf8_mark_dropped)
{
    char out[64];
    static const char bom[] = "\xef\xbb\xbf"
                              "a;b 1\n";
    for (size_t chunk = 1; chunk < 8; chunk++) {
        ck_assert_uint_eq(decode_mem(bom, sizeof bom - 1, chunk, out, sizeof out), 6);
        ck_assert_str_eq(out, "a;b 1\n");
    }
    /* only at the start; the start of a mark alone is text */
    static const char mid[] = "a\xef\xbb\xbf";
    ck_assert_uint_eq(decode_mem(mid, sizeof mid - 1, 3, out, sizeof out), 4);
    ck_assert_str_eq(out, mid);
    ck_assert_uint_eq(decode_mem("\xef\xbb", 2, 1, out, sizeof out), 2);
    ck_assert_uint_eq(decode_mem("", 0, 1, out, sizeof out), 0);
    ck_assert_uint_eq(decode_mem("x", 1, 1, out, sizeof out), 1);
    ck_assert_str_eq(out, "x");
}
END_TEST

/* "é", U+1F600 (a surrogate pair), "\n" in UTF-16 LE and BE, read 1 to 9 bytes at a time. */
START_TEST(utf16_decoded)
{
    static const unsigned char le[] = {0xff, 0xfe, 0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde, 0x0a, 0x00};
    static const unsigned char be[] = {0xfe, 0xff, 0x00, 0xe9, 0xd8, 0x3d, 0xde, 0x00, 0x00, 0x0a};
    char out[64];
    for (size_t chunk = 1; chunk < 10; chunk++) {
        ck_assert_uint_eq(decode_mem(le, sizeof le, chunk, out, sizeof out), 7);
        ck_assert_str_eq(out, "\xc3\xa9\xf0\x9f\x98\x80\n");
        ck_assert_uint_eq(decode_mem(be, sizeof be, chunk, out, sizeof out), 7);
        ck_assert_str_eq(out, "\xc3\xa9\xf0\x9f\x98\x80\n");
    }
    /* a mark alone is an empty text */
    ck_assert_uint_eq(decode_mem(le, 2, 1, out, sizeof out), 0);
}
END_TEST

START_TEST(utf16_bad_surrogates_replaced)
{
    char out[64];
    /* a lone low surrogate, a high one followed by a letter, a high one at the end, and an
     * odd last byte: each one U+FFFD; the letter stays */
    static const unsigned char le[] = {0xff, 0xfe, 0x00, 0xdc, 0x00, 0xd8,
                                       'a',  0x00, 0x00, 0xd8, 'b'};
    for (size_t chunk = 1; chunk < 6; chunk++) {
        decode_mem(le, sizeof le, chunk, out, sizeof out);
        ck_assert_str_eq(out, "\xef\xbf\xbd\xef\xbf\xbd"
                              "a\xef\xbf\xbd\xef\xbf\xbd");
    }
    /* the decoder alone: output that does not fit waits */
    fs_utf16 d = {0};
    unsigned char o[8];
    size_t used;
    static const unsigned char e[] = {0xe9, 0x00, 'x', 0x00};
    ck_assert_uint_eq(fs_utf16_to_utf8(&d, e, sizeof e, &used, o, 1, 1), 1);
    ck_assert(fs_utf16_pending(&d));
    ck_assert_uint_eq(fs_utf16_to_utf8(&d, e + used, sizeof e - used, &used, o + 1, 7, 1), 2);
    ck_assert(memcmp(o, "\xc3\xa9x", 3) == 0);
}
END_TEST

/* A file opened by path: the mark dropped, offsets and seeks past it, and its second
 * reading the same; the same through gzip. */
START_TEST(seek_past_utf8_mark)
{
    char path[] = "/tmp/foldsvg-input-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    fputs("\xef\xbb\xbf"
          "0123456789",
          f);
    fclose(f);
    for (int gz = 0; gz < 2; gz++) {
        if (gz) {
            gzFile g = gzopen(path, "wb");
            gzputs(g, "\xef\xbb\xbf"
                      "0123456789");
            gzclose(g);
        }
        fs_input *in, *again;
        foldsvg_error err;
        ck_assert_int_eq(fs_input_open_file(&in, path, &err), FOLDSVG_OK);
        char out[16];
        size_t got;
        ck_assert_int_eq(fs_input_read(in, out, 2, &got, &err), FOLDSVG_OK);
        ck_assert(got == 2 && memcmp(out, "01", 2) == 0);
        ck_assert_int_eq(fs_input_reopen(in, &again, &err), FOLDSVG_OK);
        ck_assert_int_eq(fs_input_seek(again, 7, &err), FOLDSVG_OK);
        ck_assert_uint_eq(fs_input_offset(again), 7);
        ck_assert_uint_eq(read_all(again, 4, out, sizeof out), 3);
        ck_assert_str_eq(out, "789");
        fs_input_close(again);
        fs_input_close(in);
    }
    unlink(path);
}
END_TEST

/* DATA[0..n) as one gzip member into OUT (room for CAP bytes); its length. */
static size_t gzip_of(const unsigned char *data, size_t n, unsigned char *out, size_t cap)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    /* a gzip wrapper: deflateInit2 with 16 + 15 */
    ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (unsigned char *)(uintptr_t)data;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t len = zs.total_out;
    deflateEnd(&zs);
    return len;
}

/* Read ahead on a second thread: the same bytes in order, whatever the block size; a
 * corrupt gzip stream's error after the bytes before it, and again on a later call. */
START_TEST(read_ahead_same_bytes_then_errors)
{
    enum { N = 100000 };
    unsigned char *data = malloc(N), *z = malloc(N + 1024), *back = malloc(N + 1);
    ck_assert(data && z && back);
    for (size_t i = 0; i < N; i++)
        data[i] = (unsigned char)('a' + (i * 7 + i / 13) % 26);
    size_t zlen = gzip_of(data, N, z, N + 1024);
    static const size_t blocks[] = {1, 1000, 1 << 20};
    for (int gz = 0; gz < 3; gz++) {
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            fs_input *in;
            foldsvg_error err;
            /* plain, gzip, and gzip cut short (its end missing) */
            size_t n = gz == 0 ? N : gz == 1 ? zlen : zlen / 2;
            ck_assert_int_eq(fs_input_open_mem(&in, gz ? z : data, n, "mem", &err), FOLDSVG_OK);
            fs_ahead *a = fs_ahead_start(in, blocks[b], NULL);
            ck_assert_ptr_nonnull(a);
            size_t len = 0, got;
            const unsigned char *p;
            foldsvg_status st;
            while ((st = fs_ahead_next(a, &p, &got, NULL, &err)) == FOLDSVG_OK && got) {
                ck_assert_uint_le(len + got, N);
                memcpy(back + len, p, got);
                len += got;
            }
            if (gz < 2) {
                ck_assert_int_eq(st, FOLDSVG_OK);
                ck_assert_uint_eq(len, N);
            } else {
                ck_assert_int_ne(st, FOLDSVG_OK);
                ck_assert_uint_lt(len, N);
                ck_assert_int_eq(fs_ahead_next(a, &p, &got, NULL, &err), st);
                /* every byte inflated before the error came first, as plain reads of the block's
                 * size give them */
                fs_input *plain;
                ck_assert_int_eq(fs_input_open_mem(&plain, z, n, "mem", &err), FOLDSVG_OK);
                unsigned char *scratch = malloc(blocks[b]);
                ck_assert_ptr_nonnull(scratch);
                size_t before = 0, g;
                for (foldsvg_status ps = FOLDSVG_OK; ps == FOLDSVG_OK;) {
                    g = 0;
                    ps = fs_input_read(plain, scratch, blocks[b], &g, &err);
                    before += g;
                    if (!g)
                        break;
                }
                fs_input_close(plain);
                free(scratch);
                ck_assert_uint_gt(before, 0);
                ck_assert_uint_eq(len, before);
            }
            ck_assert(memcmp(back, data, len) == 0);
            fs_ahead_stop(a);
            fs_input_close(in);
        }
    }
    /* stopped early: the thread ends */
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, data, N, "mem", NULL), FOLDSVG_OK);
    fs_ahead *a = fs_ahead_start(in, 10, NULL);
    const unsigned char *p;
    size_t got;
    ck_assert_int_eq(fs_ahead_next(a, &p, &got, NULL, NULL), FOLDSVG_OK);
    ck_assert(got > 0 && got <= 10 && memcmp(p, data, got) == 0);
    fs_ahead_stop(a);
    fs_input_close(in);
    free(data);
    free(z);
    free(back);
}
END_TEST

typedef struct seen_warning {
    pthread_t thread;
    int n;
    char msg[sizeof(((foldsvg_error *)0)->message)];
} seen_warning;

static void on_warning(void *user, const foldsvg_error *w)
{
    seen_warning *s = user;
    s->thread = pthread_self();
    s->n++;
    snprintf(s->msg, sizeof s->msg, "%s", w->message);
}

typedef struct seen_progress {
    pthread_t thread;
    int calls, other_thread, backwards;
    uint64_t done;
} seen_progress;

static void on_progress(void *user, const char *name, uint64_t done, uint64_t total, uint64_t items)
{
    (void)name;
    (void)total;
    (void)items;
    seen_progress *s = user;
    s->calls++;
    s->other_thread |= !pthread_equal(s->thread, pthread_self());
    s->backwards |= done < s->done;
    s->done = done;
}

/* The handlers are the caller's: a warning the reading thread comes upon (zero padding after
 * a gzip stream) reaches it on the caller's thread, once, when the reading stops; progress
 * comes on the caller's thread as it takes the blocks, never going back. */
START_TEST(read_ahead_warns_on_the_callers_thread)
{
    enum { N = 50000, PAD = 3000 };
    unsigned char *data = malloc(N), *z = malloc(N + 1024 + PAD);
    ck_assert(data && z);
    for (size_t i = 0; i < N; i++)
        data[i] = (unsigned char)('a' + (i * 11 + i / 7) % 26);
    size_t zlen = gzip_of(data, N, z, N + 1024);
    memset(z + zlen, 0, PAD);
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, z, zlen + PAD, "mem", NULL), FOLDSVG_OK);
    seen_warning seen = {0};
    fs_input_set_warn(in, on_warning, &seen);
    seen_progress prog = {.thread = pthread_self()};
    fs_input_set_progress(in, on_progress, &prog);
    fs_ahead *a = fs_ahead_start(in, 1000, NULL);
    ck_assert_ptr_nonnull(a);
    const unsigned char *p;
    size_t got, len = 0;
    while (fs_ahead_next(a, &p, &got, NULL, NULL) == FOLDSVG_OK && got)
        len += got;
    ck_assert_uint_eq(len, N);
    fs_ahead_stop(a);
    ck_assert_int_eq(seen.n, 1);
    ck_assert(pthread_equal(seen.thread, pthread_self()));
    ck_assert_ptr_nonnull(strstr(seen.msg, "3000 zero bytes"));
    ck_assert_int_eq(prog.other_thread, 0);
    ck_assert_int_eq(prog.backwards, 0);
    ck_assert_int_gt(prog.calls, N / 1000); /* the start, then each block taken */
    ck_assert_uint_gt(prog.done, 0);
    ck_assert_uint_le(prog.done, zlen + PAD);
    fs_input_close(in);
    free(data);
    free(z);
}
END_TEST

#if defined(F_GETPIPE_SZ)
/* The buffer a pipe read from should have by now: FS_PIPE_WANT, or the system's limit when
 * that is lower (never less than it had). */
static int pipe_expected(int had)
{
    long max = 0;
    FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");
    if (f) {
        if (fscanf(f, "%ld", &max) != 1)
            max = 0;
        fclose(f);
    }
    long want = max > 0 && max < FS_PIPE_WANT ? max : FS_PIPE_WANT;
    return want > had ? (int)want : had;
}

/* A pipe given to the input as a stream, or named (a FIFO, as bash's <(command) is), gets
 * the larger buffer, and what was already in it is read intact; a regular file is no pipe. */
START_TEST(pipe_widened)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    int had = fcntl(p[1], F_GETPIPE_SZ);
    ck_assert_int_gt(had, 0);
    static const char text[] = "a;b 1\nc 2\n";
    ck_assert_int_eq(write(p[1], text, sizeof text - 1), (int)(sizeof text - 1));
    close(p[1]);
    FILE *rf = fdopen(p[0], "rb");
    ck_assert_ptr_nonnull(rf);
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_stream(&in, rf, "pipe", &err), FOLDSVG_OK);
    ck_assert_int_ge(fcntl(p[0], F_GETPIPE_SZ), pipe_expected(had));
    char out[64];
    ck_assert_uint_eq(read_all(in, 4, out, sizeof out), sizeof text - 1);
    ck_assert_str_eq(out, text);
    fs_input_close(in);
    fclose(rf);

    char dir[] = "/tmp/foldsvg-fifo-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    /* a writer, so that opening it to read does not wait, and bytes for the first read */
    int w = open(path, O_RDWR);
    ck_assert_int_ge(w, 0);
    had = fcntl(w, F_GETPIPE_SZ);
    ck_assert_int_eq(write(w, text, sizeof text - 1), (int)(sizeof text - 1));
    ck_assert_int_eq(fs_input_open_file(&in, path, &err), FOLDSVG_OK);
    ck_assert_int_ge(fcntl(w, F_GETPIPE_SZ), pipe_expected(had));
    fs_input_close(in);
    close(w);
    unlink(path);
    rmdir(dir);

    FILE *reg = tmpfile();
    ck_assert_ptr_nonnull(reg);
    ck_assert_uint_eq(fs_pipe_widen(fileno(reg)), 0);
    fclose(reg);
    ck_assert_uint_eq(fs_pipe_widen(-1), 0);
}
END_TEST
#endif

int main(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc,
                      30); /* blocks of one byte handed over 100,000 times, on a loaded machine */
    tcase_add_test(tc, utf8_mark_dropped);
    tcase_add_test(tc, utf16_decoded);
    tcase_add_test(tc, utf16_bad_surrogates_replaced);
    tcase_add_test(tc, seek_past_utf8_mark);
    tcase_add_test(tc, read_ahead_same_bytes_then_errors);
    tcase_add_test(tc, read_ahead_warns_on_the_callers_thread);
#if defined(F_GETPIPE_SZ)
    tcase_add_test(tc, pipe_widened);
#endif
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
