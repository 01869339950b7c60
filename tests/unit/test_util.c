/* The one-of-each helpers of src/util and the asset templates: the sticky buffer, checked
 * growth, the UTF-8 decoder and cleaner, string lists, {{holes}}, the atomic output's
 * temporary files (registered for signal handlers, written through symbolic links), the
 * sort of fixed-size records in runs, the spool of values past memory. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render/template.h"
#include "testutil.h"
#include "util/batches.h"
#include "util/buf.h"
#include "util/bytepos.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"
#include "util/outfile.h"
#include "util/pending.h"
#include "util/pool.h"
#include "util/recsort.h"
#include "util/spool.h"
#include "util/strlist.h"
#include "util/u64set.h"
#include "util/utf8.h"

/* One failure sticks: later appends do nothing and say so, until the buffer is freed. */
START_TEST(buf_failure_sticks)
{
    fs_buf b = {0};
    ck_assert_int_eq(fs_buf_puts(&b, "ab"), FOLDSVG_OK);
    ck_assert_int_eq(fs_buf_printf(&b, "%d", 12), FOLDSVG_OK);
    ck_assert_str_eq(fs_buf_str(&b), "ab12");
    ck_assert_int_eq(fs_buf_status(&b), FOLDSVG_OK);
    ck_assert_int_eq(fs_buf_reserve(&b, SIZE_MAX - 1), FOLDSVG_E_NOMEM); /* cannot fit */
    ck_assert_int_eq(fs_buf_puts(&b, "cd"), FOLDSVG_E_NOMEM);
    ck_assert_int_eq(fs_buf_printf(&b, "%s", "ef"), FOLDSVG_E_NOMEM);
    ck_assert_int_eq(fs_buf_status(&b), FOLDSVG_E_NOMEM);
    ck_assert_str_eq(fs_buf_str(&b), "ab12"); /* what was there is left as it was */
    fs_buf_clear(&b);
    ck_assert_int_eq(fs_buf_puts(&b, "x"), FOLDSVG_E_NOMEM); /* clearing keeps the failure */
    fs_buf_free(&b);
    ck_assert_int_eq(fs_buf_puts(&b, "x"), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "x");
    /* a printf longer than the spare room takes the second pass */
    char big[300];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_int_eq(fs_buf_printf(&b, "[%s]", big), FOLDSVG_OK);
    ck_assert_uint_eq(b.len, 1 + 2 + sizeof big - 1);
    fs_buf_free(&b);
}
END_TEST

/* Doubling from the minimum, and no size that overflows. */
START_TEST(grow_doubles_and_checks)
{
    ck_assert_uint_eq(fs_grow_cap(0, 1, 64, 4), 64);
    ck_assert_uint_eq(fs_grow_cap(64, 65, 64, 4), 128);
    ck_assert_uint_eq(fs_grow_cap(64, 1000, 64, 4), 1024);
    ck_assert_uint_eq(fs_grow_cap(64, 10, 64, 4), 64);
    ck_assert_uint_eq(fs_grow_cap(0, SIZE_MAX / 8 + 1, 16, 8), 0); /* n * elem overflows */
    uint64_t *a = NULL;
    size_t cap = 0;
    ck_assert_int_eq(FS_GROW(a, cap, 3, 2), FOLDSVG_OK);
    ck_assert_uint_eq(cap, 4);
    a[3] = 7;
    ck_assert_int_eq(FS_GROW(a, cap, 5, 2), FOLDSVG_OK);
    ck_assert_uint_eq(cap, 8);
    ck_assert_uint_eq(a[3], 7);
    ck_assert_int_eq(FS_GROW(a, cap, SIZE_MAX / 4, 2), FOLDSVG_E_NOMEM);
    ck_assert_uint_eq(cap, 8); /* unchanged on failure */
    ck_assert_int_eq(fs_resize(&a, SIZE_MAX / 2, 8), FOLDSVG_E_NOMEM);
    ck_assert_uint_eq(a[3], 7);
    /* trimming keeps what is used; an empty array is freed; never grows */
    fs_trim(&a, &cap, 5, sizeof *a);
    ck_assert_uint_eq(cap, 5);
    ck_assert_uint_eq(a[3], 7);
    fs_trim(&a, &cap, 9, sizeof *a);
    ck_assert_uint_eq(cap, 5);
    fs_trim(&a, &cap, 0, sizeof *a);
    ck_assert_uint_eq(cap, 0);
    ck_assert_ptr_null(a);
    free(a);
}
END_TEST

static int no_controls(uint32_t cp)
{
    return cp >= 0x20;
}

/* RFC 3629 decoding; one U+FFFD per rejected byte; the writer's own rejections too. */
START_TEST(utf8_decode_and_clean)
{
    uint32_t cp;
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp), 2);
    ck_assert_uint_eq(cp, 0xe9);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xf0\x9f\x94\xa5", 4, &cp), 4);
    ck_assert_uint_eq(cp, 0x1f525);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xc0\x80", 2, &cp), 0); /* overlong */
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xe0\x80\x80", 3, &cp), 0);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0); /* D800 */
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0);
    ck_assert_uint_eq(fs_utf8_decode((const unsigned char *)"\xe2\x82", 2, &cp), 0); /* cut */
    fs_buf b = {0};
    ck_assert_int_eq(fs_utf8_clean(&b,
                                   "a\xe2\x82"
                                   "b\xc3\xa9",
                                   6, NULL),
                     FOLDSVG_OK);
    ck_assert_str_eq(b.data, "a\xef\xbf\xbd\xef\xbf\xbd"
                             "b\xc3\xa9");
    fs_buf_clear(&b);
    ck_assert_int_eq(fs_utf8_clean(&b, "a\tb\x01", 4, no_controls), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "a\xef\xbf\xbd"
                             "b\xef\xbf\xbd");
    fs_buf_free(&b);
    ck_assert_uint_eq(fs_utf8_chars("\xc3\xa9x\xf0\x9f\x94\xa5", 7), 3);
    ck_assert_uint_eq(fs_utf8_prefix("\xc3\xa9x\xf0\x9f\x94\xa5", 7, 2), 3);
}
END_TEST

/* Unicode White_Space trimmed, the indentation eight spaces at a time and the rest one by one */
START_TEST(utf8_trim)
{
    const char *s = "                \t \xc2\xa0 \xe3\x80\x80x y \xe2\x80\xa8";
    size_t n = strlen(s), k = fs_utf8_trim_start(s, n);
    ck_assert_str_eq(s + k, "x y \xe2\x80\xa8");
    ck_assert_uint_eq(fs_utf8_trim_end(s + k, n - k), 3);
    ck_assert_uint_eq(fs_utf8_trim_start("         ", 9), 9);
    ck_assert_uint_eq(fs_utf8_trim_start("        \xc3\xa9", 10), 8);
    ck_assert_uint_eq(fs_utf8_trim_start("       ", 7), 7);
    ck_assert_uint_eq(fs_utf8_trim_start("", 0), 0);
}
END_TEST

START_TEST(strlist_push_copy_has)
{
    fs_strlist a = {0}, b;
    ck_assert_int_eq(fs_strlist_push(&a, "main"), FOLDSVG_OK);
    ck_assert_int_eq(fs_strlist_push(&a, "f"), FOLDSVG_OK);
    ck_assert_int_eq(fs_strlist_copy(&b, &a), FOLDSVG_OK);
    fs_strlist_free(&a);
    ck_assert_uint_eq(b.n, 2);
    ck_assert_int_eq(fs_strlist_has(&b, "main", 4), 1);
    ck_assert_int_eq(fs_strlist_has(&b, "mai", 3), 0);
    ck_assert_int_eq(fs_strlist_has(&b, "f;", 1), 1);
    fs_strlist_free(&b);
    ck_assert_uint_eq(b.n, 0);
}
END_TEST

START_TEST(template_holes_sections_comments)
{
    const char tpl[] =
        "{{! a comment }}#{{p}}-a {x}\n{{#s}}s={{s}};{{/s}}{{#e}}gone{{/e}}end{{nope}}";
    fs_template_var v[] = {{"p", "fg1"}, {"s", "red"}, {"e", ""}};
    fs_buf b = {0};
    ck_assert_int_eq(fs_template_expand(&b, tpl, sizeof tpl - 1, v, 3), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "#fg1-a {x}\ns=red;end");
    fs_buf_clear(&b);
    /* the length counts, not a NUL; a "{{" without its "}}" is text */
    ck_assert_int_eq(fs_template_expand(&b, "a{{p}}b{{c", 10, v, 3), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "afg1b{{c");
    fs_buf_clear(&b);
    ck_assert_int_eq(fs_template_expand(&b, "{{p}}xyz", 5, v, 3), FOLDSVG_OK);
    ck_assert_str_eq(b.data, "fg1");
    fs_buf_free(&b);
}
END_TEST

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* Temporary files register while they exist; the handler's call removes them all (more
 * than a block of slots, so that blocks are added), a commit then fails, and the slots
 * come back for later files. */
START_TEST(pending_outputs_removed)
{
    char dir[] = "/tmp/foldsvg-pending-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    enum { N = 70 };
    static fs_atomic a[N];
    static char path[N][96];
    for (int i = 0; i < N; i++) {
        snprintf(path[i], sizeof path[i], "%s/out%d.svg", dir, i);
        ck_assert_int_eq(fs_atomic_open(&a[i], path[i]), 0);
        ck_assert_ptr_nonnull(a[i].pending);
        ck_assert(exists(a[i].tmp));
    }
    ck_assert_int_eq(foldsvg_remove_pending_outputs(), N);
    ck_assert_int_eq(foldsvg_remove_pending_outputs(), 0);
    for (int i = 0; i < N; i++) {
        ck_assert(!exists(a[i].tmp));
        if (i % 2)
            ck_assert_int_eq(fs_atomic_commit(&a[i]), -1); /* its file is gone */
        else
            fs_atomic_abort(&a[i]);
        ck_assert(!exists(path[i]));
    }
    /* slots are reused; a committed file is no longer pending */
    fs_atomic b;
    ck_assert_int_eq(fs_atomic_open(&b, path[0]), 0);
    ck_assert_int_eq(fs_atomic_commit(&b), 0);
    ck_assert(exists(path[0]));
    ck_assert_int_eq(foldsvg_remove_pending_outputs(), 0);
    ck_assert(exists(path[0]));
    unlink(path[0]);
    rmdir(dir);
}
END_TEST

/* A symbolic link target: the file it names is written, beside itself; the link stays. */
START_TEST(atomic_through_links)
{
    char dir[] = "/tmp/foldsvg-links-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char sub[128], real[160], link[160], chain[160], dangling[160], made[160], loop[160];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    ck_assert_int_eq(mkdir(sub, 0777), 0);
    snprintf(real, sizeof real, "%s/real.txt", sub);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(chain, sizeof chain, "%s/chain.txt", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.txt", dir);
    snprintf(made, sizeof made, "%s/made.txt", sub);
    snprintf(loop, sizeof loop, "%s/loop.txt", dir);
    FILE *f = fopen(real, "w");
    ck_assert_ptr_nonnull(f);
    fputs("old\n", f);
    fclose(f);
    ck_assert_int_eq(symlink("sub/real.txt", link), 0);
    ck_assert_int_eq(symlink(link, chain), 0);
    ck_assert_int_eq(symlink("sub/made.txt", dangling), 0);
    ck_assert_int_eq(symlink("loop.txt", loop), 0);
    const char *targets[] = {link, chain, dangling};
    const char *written[] = {real, real, made};
    for (int i = 0; i < 3; i++) {
        fs_atomic a;
        ck_assert_int_eq(fs_atomic_open(&a, targets[i]), 0);
        ck_assert_str_eq(a.target, written[i]);
        ck_assert(strncmp(a.tmp, sub, strlen(sub)) == 0); /* beside the file */
        ck_assert_int_eq(write(a.fd, "new\n", 4), 4);
        ck_assert_int_eq(fs_atomic_commit(&a), 0);
        struct stat sb;
        ck_assert_int_eq(lstat(targets[i], &sb), 0);
        ck_assert(S_ISLNK(sb.st_mode));
        char *text = fs_test_slurp(written[i], NULL);
        ck_assert_str_eq(text, "new\n");
        free(text);
    }
    fs_atomic a;
    errno = 0;
    ck_assert_int_eq(fs_atomic_open(&a, loop), -1);
    ck_assert_int_eq(errno, ELOOP);
    unlink(loop);
    unlink(dangling);
    unlink(chain);
    unlink(link);
    unlink(made);
    unlink(real);
    rmdir(sub);
    rmdir(dir);
}
END_TEST

/* An output given space ahead (fs_outfile_reserve) ends as long as what was written, with
 * the space past that given back, on /tmp's file system and on the working directory's;
 * standard output and a failed reservation change nothing. */
START_TEST(outfile_reserve_gives_back_the_rest)
{
    char tmpl[2][64] = {"/tmp/foldsvg-reserve-XXXXXX", "foldsvg-reserve-XXXXXX"};
    for (int k = 0; k < 2; k++) {
        char *dir = mkdtemp(tmpl[k]);
        ck_assert_ptr_nonnull(dir);
        char path[128];
        snprintf(path, sizeof path, "%s/out.svg", dir);
        FILE *old = fopen(path, "w"); /* replaced, as most outputs are */
        ck_assert_ptr_nonnull(old);
        fputs("old\n", old);
        fclose(old);
        fs_outfile o;
        foldsvg_error err;
        ck_assert_int_eq(fs_outfile_open(&o, path, &err), FOLDSVG_OK);
        fs_outfile_reserve(&o, (uint64_t)8 << 20);
        for (int i = 0; i < 10000; i++)
            fputs("0123456789", o.f);
        int reserved = o.reserved;
        ck_assert_int_eq(fs_outfile_commit(&o, &err), FOLDSVG_OK);
        struct stat sb;
        ck_assert_int_eq(stat(path, &sb), 0);
        ck_assert_int_eq(sb.st_size, 100000);
        if (reserved) /* the 8 MiB past the 100 KB written are free again */
            ck_assert_int_lt((long long)sb.st_blocks * 512, 1 << 20);
        char *text = fs_test_slurp(path, NULL);
        ck_assert(strncmp(text, "0123456789", 10) == 0 && strlen(text) == 100000);
        free(text);
        unlink(path);
        rmdir(dir);
    }
    fs_outfile o;
    foldsvg_error err;
    ck_assert_int_eq(fs_outfile_open(&o, "-", &err), FOLDSVG_OK);
    fs_outfile_reserve(&o, 1 << 20);
    ck_assert_int_eq(o.reserved, 0);
    ck_assert_int_eq(fs_outfile_commit(&o, &err), FOLDSVG_OK);
}
END_TEST

static size_t plain_mismatch(const char *a, const char *b, size_t m)
{
    size_t i = 0;
    while (i < m && a[i] == b[i])
        i++;
    return i;
}

/* fs_byte_mask and fs_byte_after_last against a byte-at-a-time reference: every string
 * length around the 64-byte step (the last bytes come from the 64 that end the string) and
 * every start in it, sparse and dense positions; each string is its own allocation, so that
 * a read past either end shows under ASan. */
START_TEST(bytemask_matches_a_plain_loop)
{
    enum { MAX = 200 };
    char a[MAX];
    unsigned seed = 11;
    for (int density = 1; density <= 64; density *= 4) {
        for (size_t i = 0; i < sizeof a; i++) {
            seed = seed * 1103515245u + 12345u;
            a[i] = (char)((seed >> 16) % 64u < (unsigned)density ? ';' : 'a' + (seed >> 8) % 3u);
        }
        for (size_t len = 0; len <= MAX; len++) {
            char *s = malloc(len ? len : 1);
            ck_assert_ptr_nonnull(s);
            memcpy(s, a, len);
            for (size_t i = 0; i <= len; i++) {
                uint64_t want = 0;
                for (size_t j = 0; j < 64 && i + j < len; j++)
                    if (s[i + j] == ';')
                        want |= (uint64_t)1 << j;
                ck_assert_uint_eq(fs_byte_mask(s, len, i, ';'), want);
            }
            size_t after = len;
            while (after > 0 && s[after - 1] != ';')
                after--;
            ck_assert_uint_eq(fs_byte_after_last(s, len, ';'), after);
            free(s);
        }
    }
}
END_TEST

/* The SIMD steps against a byte-at-a-time reference: every length and offset around their
 * 16-, 32- and 64-byte steps, sparse and dense positions (more than 8 in a 64-byte step,
 * every byte), a difference in every place, and nothing written past N. */
START_TEST(bytepos_and_mismatch_match_a_plain_loop)
{
    enum { MAX = 300 };
    char a[MAX + 64], b[MAX + 64];
    uint32_t got[MAX + 8], want[MAX];
    unsigned seed = 7;
    for (int density = 1; density <= 64; density *= 2) {
        for (int trial = 0; trial < 3; trial++) {
            for (size_t i = 0; i < sizeof a; i++) {
                seed = seed * 1103515245u + 12345u;
                a[i] =
                    (char)((seed >> 16) % 64u < (unsigned)density ? ';' : 'a' + (seed >> 8) % 3u);
            }
            for (size_t off = 0; off < 4; off++) {
                for (size_t n = 0; n <= MAX; n += 1 + (n > 140) * 3) {
                    size_t k = 0;
                    for (size_t i = 0; i < n; i++)
                        if (a[off + i] == ';')
                            want[k++] = 100 + (uint32_t)i;
                    for (size_t i = 0; i < MAX + 8; i++)
                        got[i] = 0xdeadbeefu;
                    size_t nk = fs_byte_positions(a + off, n, ';', got, 100);
                    ck_assert_uint_eq(nk, k);
                    ck_assert(memcmp(got, want, k * sizeof *got) == 0);
                    size_t untouched = n;
                    while (untouched < MAX + 8 && got[untouched] == 0xdeadbeefu)
                        untouched++;
                    ck_assert_uint_eq(untouched, MAX + 8);
                }
            }
        }
    }
    memset(a, ';', sizeof a);
    ck_assert_uint_eq(fs_byte_positions(a, 200, ';', got, 0), 200);
    ck_assert_uint_eq(got[199], 199);
    ck_assert_uint_eq(got[64], 64);
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (char)('a' + i % 26);
    for (size_t m = 0; m <= MAX; m += 1 + (m > 70) * 6) {
        for (size_t at = 0; at <= m; at++) {
            memcpy(b, a, sizeof b);
            if (at < m)
                b[at] ^= (char)(1 + at % 7);
            ck_assert_uint_eq(fs_mismatch(a, b, m), at);
            /* unaligned, and a second difference later that must not be the one found */
            if (at + 1 < m)
                b[m - 1] ^= 0x40;
            if (m > 0)
                ck_assert_uint_eq(fs_mismatch(a + 1, b + 1, m - 1),
                                  plain_mismatch(a + 1, b + 1, m - 1));
        }
    }
}
END_TEST

/* The signal mask of the thread a task runs on. */
typedef struct mask_task {
    sigset_t seen;
    pthread_t thread;
} mask_task;

static void record_mask(void *arg)
{
    mask_task *m = arg;
    pthread_sigmask(SIG_BLOCK, NULL, &m->seen);
    m->thread = pthread_self();
}

/* A worker of the pool takes no signal (its handlers are the application's, for its
 * threads), and the starting thread's own mask is as it was. The task is left to the worker:
 * the test waits for it to be done before it waits for it. */
START_TEST(pool_workers_block_signals)
{
    sigset_t before, after;
    pthread_sigmask(SIG_BLOCK, NULL, &before);
    fs_pool *p = fs_pool_new(2);
    ck_assert_ptr_nonnull(p);
    mask_task m;
    sigemptyset(&m.seen);
    fs_task t;
    fs_task_start(p, &t, record_mask, &m);
    while (!fs_task_done(p, &t))
        sched_yield();
    fs_task_wait(p, &t);
    ck_assert(!pthread_equal(m.thread, pthread_self()));
    pthread_sigmask(SIG_BLOCK, NULL, &after);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        ck_assert(sigismember(&m.seen, sigs[i]));
        ck_assert_int_eq(sigismember(&after, sigs[i]), sigismember(&before, sigs[i]));
    }
    fs_pool_free(p);
}
END_TEST

static void add_one(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
}

/* A pool of one thread (and no pool) runs a task where it is waited for, on the waiting
 * thread, and one cancelled before that not at all; a pool of four runs every task once. */
START_TEST(pool_runs_each_task_once)
{
    fs_pool *one = fs_pool_new(1);
    fs_pool *pools[] = {one, NULL};
    for (int k = 0; k < 2; k++) {
        atomic_int n;
        atomic_init(&n, 0);
        fs_task a, b;
        fs_task_start(pools[k], &a, add_one, &n);
        fs_task_start(pools[k], &b, add_one, &n);
        ck_assert_int_eq(atomic_load(&n), 0);
        ck_assert_int_eq(fs_task_done(pools[k], &a), 0);
        fs_task_wait(pools[k], &a);
        ck_assert_int_eq(atomic_load(&n), 1);
        ck_assert_int_eq(fs_task_cancel(pools[k], &b), 0);
        ck_assert_int_eq(atomic_load(&n), 1);
        mask_task m;
        fs_task t;
        fs_task_start(pools[k], &t, record_mask, &m);
        fs_task_wait(pools[k], &t);
        ck_assert(pthread_equal(m.thread, pthread_self()));
    }
    fs_pool_free(one);
    fs_pool *four = fs_pool_new(4);
    ck_assert_uint_eq(fs_pool_threads(four), 4);
    enum { N = 500 };
    fs_task *t = calloc(N, sizeof *t);
    atomic_int n;
    atomic_init(&n, 0);
    for (int i = 0; i < N; i++)
        fs_task_start(four, &t[i], add_one, &n);
    for (int i = 0; i < N; i++)
        fs_task_wait(four, &t[i]);
    ck_assert_int_eq(atomic_load(&n), N);
    free(t);
    fs_pool_free(four);
}
END_TEST

/* The numbers 0..N-1 in batches of up to 100 (the last short). */
typedef struct counter {
    int next, n;
} counter;

typedef struct nums {
    int v[100];
    int len;
} nums;

static foldsvg_status fill_nums(void *user, void *batch)
{
    counter *c = user;
    nums *b = batch;
    b->len = 0;
    while (b->len < 100 && c->next < c->n)
        b->v[b->len++] = c->next++;
    return c->next < c->n ? FOLDSVG_OK : FS_STOP;
}

/* Batches come in order whether a worker fills them or the caller does; stopped early, the
 * fill under way is waited for and nothing runs after. */
START_TEST(batches_in_order_on_any_pool)
{
    fs_pool *two = fs_pool_new(2);
    fs_pool *pools[] = {two, NULL};
    for (int k = 0; k < 2; k++) {
        counter c = {0, 12345};
        nums b0, b1;
        fs_batches bs;
        fs_batches_start(&bs, pools[k], fill_nums, &c, &b0, &b1);
        int want = 0;
        for (;;) {
            void *got;
            foldsvg_status st = fs_batches_next(&bs, &got);
            if (!got)
                break;
            const nums *b = got;
            for (int i = 0; i < b->len; i++)
                ck_assert_int_eq(b->v[i], want++);
            if (st == FS_STOP)
                break;
            ck_assert_int_eq(st, FOLDSVG_OK);
        }
        ck_assert_int_eq(want, 12345);
        fs_batches_stop(&bs);
        counter early = {0, 100000};
        fs_batches_start(&bs, pools[k], fill_nums, &early, &b0, &b1);
        void *got;
        ck_assert_int_eq(fs_batches_next(&bs, &got), FOLDSVG_OK);
        fs_batches_stop(&bs);
        ck_assert_int_le(early.next, 200); /* this batch and at most the next */
    }
    fs_pool_free(two);
}
END_TEST

/* The set says new exactly once per value, 0 and values equal in their low bits included,
 * through its growth (against a sorted list of what went in). */
/* Points $TMPDIR where no temporary file can be made; returns what to restore. */
static char *no_tmpdir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *saved = tmp ? strdup(tmp) : NULL;
    setenv("TMPDIR", "/nonexistent/foldsvg-test", 1);
    return saved;
}

static void restore_tmpdir(char *saved)
{
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
}

/* recsort: a record of a key with many ties and its place in the input */
typedef struct rec {
    uint32_t key;
    uint32_t seq;
    char pad[8]; /* records of any size, not a power of two */
} rec;

static int rec_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The condition that failed, as text: checks that can run in a child whose files are capped
 * (full_disk), where the Check framework cannot write its messages. */
#define EXPECT(c)                                                                                  \
    do {                                                                                           \
        if (!(c))                                                                                  \
            return #c;                                                                             \
    } while (0)

/* N records through a sorter of BUDGET bytes: every record comes back once, in order, from
 * memory or from RUNS runs written. NULL, or what failed. */
static const char *recsort_ok(size_t n, size_t budget, size_t runs)
{
    fs_recsort *s = fs_recsort_new(sizeof(rec), budget, rec_cmp);
    unsigned char *seen = calloc(n ? n : 1, 1);
    EXPECT(s && seen);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        rec r = {(uint32_t)(x % 97), (uint32_t)i, "pad4567"};
        EXPECT(fs_recsort_add(s, &r) == FOLDSVG_OK);
    }
    EXPECT(fs_recsort_finish(s) == FOLDSVG_OK);
    EXPECT(fs_recsort_runs(s) == runs);
    rec last = {0, 0, ""};
    size_t got = 0;
    for (;; got++) {
        const void *p;
        EXPECT(fs_recsort_next(s, &p) == FOLDSVG_OK);
        if (!p)
            break;
        const rec *r = p;
        EXPECT(r->seq < n && !seen[r->seq]);
        seen[r->seq] = 1;
        EXPECT(strcmp(r->pad, "pad4567") == 0);
        EXPECT(!got || rec_cmp(&last, r) < 0);
        last = *r;
    }
    EXPECT(got == n);
    const void *p;
    EXPECT(fs_recsort_next(s, &p) == FOLDSVG_OK && !p); /* and stays at its end */
    free(seen);
    fs_recsort_free(s);
    return NULL;
}

/* RUN's result in a child process whose files may not grow past BYTES (a full disk: writes
 * past it fail with EFBIG). NULL, or what failed. */
static const char *full_disk(rlim_t bytes, const char *(*run)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit cap = {bytes, bytes};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &cap) != 0)
            _exit(2);
        const char *why = run();
        if (why)
            fprintf(stderr, "full disk: %s\n", why);
        _exit(why ? 1 : 0);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return "fork";
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? NULL : "a check failed (stderr)";
}

static const char *recsort_full_disk(void)
{
    return recsort_ok(100000, 1 << 14, 5);
}

static void recsort_check(size_t n, size_t budget, size_t runs)
{
    const char *why = recsort_ok(n, budget, runs);
    ck_assert_msg(why == NULL, "%zu records, budget %zu: %s", n, budget, why);
}

START_TEST(recsort_in_memory_and_in_runs)
{
    recsort_check(0, 1 << 20, 0);
    recsort_check(1000, 1 << 20, 0); /* fits: never touches the disk */
    recsort_check(1000, 1000 * sizeof(rec), 0);
    recsort_check(1001, 1000 * sizeof(rec), 2); /* one over: a run of 1000 and one of 1 */
    recsort_check(100000, 1 << 14, 98);         /* 1024 records a run; 16 a run's read buffer */
    recsort_check(50, 1, 4);                    /* the least: 16 records a run */
    char *saved = no_tmpdir(); /* no temporary file can be made: all in memory, no run */
    recsort_check(100000, 1 << 14, 0);
    restore_tmpdir(saved);
    /* a disk full after five runs of 1024: the rest in memory, a run of its own */
    const char *why = full_disk(5 * 1024 * sizeof(rec) + 100, recsort_full_disk);
    ck_assert_msg(why == NULL, "%s", why);
}
END_TEST

/* N values appended in batches of 1 to 1000, read back: all of them, in order, in BLOCKS
 * blocks (those of the file, then the values in memory). NULL, or what failed. */
static const char *spool_ok(size_t n, uint64_t seed, size_t blocks)
{
    fs_spool s;
    fs_spool_init(&s, sizeof(int64_t));
    for (int again = 0; again < 2; again++) { /* and once more, emptied */
        fs_spool_clear(&s);
        uint64_t x = seed;
        for (size_t i = 0; i < n;) {
            int64_t batch[1000];
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t m = 1 + (size_t)(x >> 33) % 1000;
            if (m > n - i)
                m = n - i;
            for (size_t k = 0; k < m; k++)
                batch[k] = (int64_t)(i + k) * 3 - 7;
            EXPECT(fs_spool_add(&s, batch, m) == FOLDSVG_OK);
            i += m;
        }
        EXPECT(fs_spool_count(&s) == n);
        size_t got = 0, nblocks = 0;
        for (;;) {
            const void *v;
            size_t k;
            EXPECT(fs_spool_next(&s, &v, &k) == FOLDSVG_OK);
            if (!k)
                break;
            const int64_t *a = v;
            for (size_t j = 0; j < k; j++)
                EXPECT(a[j] == (int64_t)(got + j) * 3 - 7);
            got += k;
            nblocks++;
        }
        EXPECT(got == n);
        EXPECT(nblocks == blocks);
    }
    fs_spool_free(&s);
    return NULL;
}

static void spool_check(size_t n, uint64_t seed, size_t blocks)
{
    const char *why = spool_ok(n, seed, blocks);
    ck_assert_msg(why == NULL, "%zu values: %s", n, why);
}

static const char *spool_full_disk(void)
{
    return spool_ok(5 * FS_SPOOL_HELD + 17, 7, 3);
}

START_TEST(spool_in_order_past_memory)
{
    spool_check(0, 1, 0);
    spool_check(1000, 2, 1);
    spool_check(FS_SPOOL_HELD, 3, 1);          /* all in memory */
    spool_check(5 * FS_SPOOL_HELD + 17, 4, 6); /* five blocks of the file, 17 in memory */
    char *saved = no_tmpdir();                 /* no temporary file can be made: all in memory */
    spool_check(5 * FS_SPOOL_HELD + 17, 6, 1);
    restore_tmpdir(saved);
    /* a disk full after two blocks: the rest in memory (the second time too) */
    const char *why = full_disk(2 * FS_SPOOL_HELD * sizeof(int64_t) + 100, spool_full_disk);
    ck_assert_msg(why == NULL, "%s", why);
}
END_TEST

START_TEST(u64set_new_once)
{
    fs_u64set s;
    fs_u64set_init(&s);
    enum { N = 20000 };
    uint64_t *vals = malloc(2 * N * sizeof *vals);
    ck_assert_ptr_nonnull(vals);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* every fourth one differs from others only above bit 40 */
        vals[i] = i % 4 == 0 ? (uint64_t)(i / 4) << 40 : x;
        vals[N + i] = vals[i]; /* each again, later */
    }
    size_t added_n = 0;
    for (size_t i = 0; i < 2 * N; i++) {
        int added;
        ck_assert_int_eq(fs_u64set_add(&s, vals[i], &added), FOLDSVG_OK);
        ck_assert_int_eq(added, i < N); /* the first N are distinct (0 is among them once) */
        added_n += (size_t)added;
    }
    ck_assert_uint_eq(fs_u64set_size(&s), N);
    ck_assert_uint_eq(added_n, N);
    ck_assert_int_eq(fs_u64set_add(&s, 0, NULL), FOLDSVG_OK);
    ck_assert_uint_eq(fs_u64set_size(&s), N);
    fs_u64set_free(&s);
    ck_assert_uint_eq(fs_u64set_size(&s), 0);
    free(vals);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, buf_failure_sticks);
    tcase_add_test(tc, grow_doubles_and_checks);
    tcase_add_test(tc, pending_outputs_removed);
    tcase_add_test(tc, atomic_through_links);
    tcase_add_test(tc, outfile_reserve_gives_back_the_rest);
    tcase_add_test(tc, utf8_decode_and_clean);
    tcase_add_test(tc, utf8_trim);
    tcase_add_test(tc, strlist_push_copy_has);
    tcase_add_test(tc, template_holes_sections_comments);
    tcase_add_test(tc, pool_workers_block_signals);
    tcase_add_test(tc, pool_runs_each_task_once);
    tcase_add_test(tc, batches_in_order_on_any_pool);
    tcase_add_test(tc, bytepos_and_mismatch_match_a_plain_loop);
    tcase_add_test(tc, bytemask_matches_a_plain_loop);
    tcase_add_test(tc, u64set_new_once);
    tcase_add_test(tc, recsort_in_memory_and_in_runs);
    tcase_add_test(tc, spool_in_order_past_memory);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
