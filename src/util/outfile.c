/* realpath(3) is XSI */
#define _XOPEN_SOURCE 700
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/hash.h"
#include "util/pending.h"
#include "util/reserve.h"

enum { FS_ATOMIC_ATTEMPTS = 100, FS_MAX_LINKS = 40 };

static void atomic_reset(fs_atomic *a)
{
    fs_pending_remove(a->pending); /* before TMP goes: a handler may read it until then */
    a->pending = NULL;
    free(a->target);
    free(a->tmp);
    a->target = a->tmp = NULL;
    a->fd = -1;
}

/* Replaces the trailing XXXXXX of NAME with letters and digits from SEED. */
static void fill_name(char *name, uint64_t seed)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char *x = name + strlen(name) - 6;
    for (int i = 0; i < 6; i++) {
        x[i] = alphabet[seed % (sizeof alphabet - 1)];
        seed /= sizeof alphabet - 1;
    }
}

/* The descriptor N when P is a name in this process's descriptor directory
 * (/proc/self/fd/N, whatever leads there: /dev/fd/N, //dev/fd/N, /proc/PID/fd/N), else -1.
 * /dev/stdout and /dev/stderr, and links to any of these, reach such a name on the way. */
static int descriptor_name(const char *p)
{
    const char *slash = strrchr(p, '/');
    if (!slash || !slash[1])
        return -1;
    long fd = 0;
    for (const char *c = slash + 1; *c; c++) {
        if (*c < '0' || *c > '9' || fd > INT_MAX / 10)
            return -1;
        fd = fd * 10 + (*c - '0');
    }
    size_t dl = slash > p ? (size_t)(slash - p) : 1;
    char *dir = strndup(p, dl);
    char *real = dir ? realpath(dir, NULL) : NULL;
    char want[64];
    snprintf(want, sizeof want, "/proc/%ld/", (long)getpid());
    size_t wl = strlen(want);
    /* /proc/PID/fd, or a thread's /proc/PID/task/TID/fd (one table for all threads) */
    int ok = real && strncmp(real, want, wl) == 0 &&
             (strcmp(real + wl, "fd") == 0 ||
              (strncmp(real + wl, "task/", 5) == 0 && strlen(real + wl) > 8 &&
               strcmp(real + strlen(real) - 3, "/fd") == 0));
    free(real);
    free(dir);
    return ok ? (int)fd : -1;
}

/* The file PATH names once symbolic links are followed, as open(2) follows them: a malloc'd
 * copy (of PATH itself when it is no link). NULL with errno (ELOOP, ENOMEM, readlink's).
 * *NAMED (when not NULL) gets the first descriptor a name on the way is (descriptor_name),
 * or -1. */
static char *follow_links(const char *path, int *named)
{
    char *p = strdup(path);
    if (named)
        *named = -1;
    for (int hops = 0; p; hops++) {
        struct stat sb;
        if (named && *named < 0)
            *named = descriptor_name(p);
        if (lstat(p, &sb) != 0 || !S_ISLNK(sb.st_mode))
            return p; /* a file, or the missing end of a dangling link: what open() makes */
        char *t = NULL;
        ssize_t len = -1;
        int e = ELOOP;
        /* st_size is the link's length on most file systems, 0 on some: grow until it fits */
        for (size_t cap = sb.st_size > 0 ? (size_t)sb.st_size + 1 : 256;
             hops < FS_MAX_LINKS && cap <= (size_t)PATH_MAX * 4; cap *= 2) {
            char *nt = realloc(t, cap);
            if (!nt) {
                e = ENOMEM;
                break;
            }
            t = nt;
            len = readlink(p, t, cap);
            e = errno;
            if (len < 0 || (size_t)len < cap)
                break;
            len = -1;
            e = ENAMETOOLONG;
        }
        if (len < 0) {
            free(t);
            free(p);
            errno = e;
            return NULL;
        }
        t[len] = '\0';
        char *next = t;
        const char *slash = strrchr(p, '/');
        if (t[0] != '/' && slash) { /* relative to the link's own directory */
            size_t dl = (size_t)(slash - p + 1);
            next = malloc(dl + (size_t)len + 1);
            if (next) {
                memcpy(next, p, dl);
                memcpy(next + dl, t, (size_t)len + 1);
            }
            free(t);
        }
        free(p);
        p = next;
    }
    errno = ENOMEM;
    return NULL;
}

int fs_atomic_open(fs_atomic *a, const char *path)
{
    a->fd = -1;
    a->tmp = NULL;
    a->pending = NULL;
    a->target = follow_links(path, NULL);
    if (!a->target) {
        int e = errno;
        atomic_reset(a);
        errno = e;
        return -1;
    }
    path = a->target;
    size_t n = strlen(path);
    a->tmp = malloc(n + 16);
    if (!a->target || !a->tmp) {
        atomic_reset(a);
        errno = ENOMEM;
        return -1;
    }
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    /* Hidden and recognisable. The names vary by time, process and (through the address of
     * A, on this thread's stack or heap) caller; O_EXCL makes a clash a retry, never a
     * clobbered file. */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t seed = fs_mix64((uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^
                             ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)a);
    /* No signal between creating the file and registering it, or a handler would miss it:
     * they wait (this thread only) until it is registered. */
    sigset_t all, old;
    sigfillset(&all);
    int masked = pthread_sigmask(SIG_BLOCK, &all, &old) == 0;
    for (int attempt = 0; attempt < FS_ATOMIC_ATTEMPTS; attempt++) {
        snprintf(a->tmp, n + 16, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
        fill_name(a->tmp, seed);
        a->fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (a->fd >= 0 || errno != EEXIST)
            break;
        seed = fs_mix64(seed + (uint64_t)attempt + 1);
    }
    int e = errno;
    if (a->fd >= 0)
        a->pending = fs_pending_add(a->tmp);
    if (masked)
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (a->fd < 0) {
        atomic_reset(a);
        errno = e;
        return -1;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        /* Not fatal when it fails: the file is still right, only its bits are the
         * umask's. */
        (void)fchmod(a->fd, sb.st_mode & 07777);
    }
    return 0;
}

int fs_atomic_commit(fs_atomic *a)
{
    int bad = 0, e = 0;
    if (a->fd >= 0 && close(a->fd) != 0) {
        bad = 1;
        e = errno;
    }
    a->fd = -1;
    if (!bad && rename(a->tmp, a->target) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad)
        unlink(a->tmp);
    atomic_reset(a);
    errno = e;
    return bad ? -1 : 0;
}

void fs_atomic_abort(fs_atomic *a)
{
    if (a->fd >= 0)
        close(a->fd);
    if (a->tmp)
        unlink(a->tmp);
    atomic_reset(a);
}

static void reset(fs_outfile *o)
{
    free(o->path);
    memset(o, 0, sizeof *o);
    o->atomic.fd = -1;
}

foldsvg_status fs_outfile_open(fs_outfile *o, const char *path, foldsvg_error *err)
{
    memset(o, 0, sizeof *o);
    o->atomic.fd = -1;
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = 1;
        return FOLDSVG_OK;
    }
    o->path = strdup(path);
    if (!o->path)
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory");
    /* A name for a descriptor this process has open is the stream the caller handed us, as
     * "-" is: opening the name again would reach the file behind it and replace (or
     * truncate) it, losing what the shell wrote there before and after us. */
    int named;
    free(follow_links(path, &named));
    if (named >= 0 && fcntl(named, F_GETFD) == -1) {
        reset(o);
        return fs_error(err, FOLDSVG_E_IO, path, "cannot open output: descriptor %d is not open",
                        named);
    }
    if (named >= 0) {
        if (named == 1)
            fflush(stdout); /* what the caller wrote there first stays first */
        int fd = fcntl(named, F_DUPFD_CLOEXEC, 3);
        o->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (!o->f) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            reset(o);
            return fs_error(err, FOLDSVG_E_IO, path, "cannot open output: %s", strerror(e));
        }
        return FOLDSVG_OK;
    }
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        reset(o);
        return fs_error(err, FOLDSVG_E_IO, path, "cannot write output: it is a directory");
    }
    if (exists && !S_ISREG(sb.st_mode)) {
        /* A FIFO, /dev/stdout, a terminal: nothing to rename over, write in place. */
        o->f = fopen(path, "wb");
        if (!o->f) {
            int e = errno;
            reset(o);
            return fs_error(err, FOLDSVG_E_IO, path, "cannot open output: %s", strerror(e));
        }
        return FOLDSVG_OK;
    }
    if (fs_atomic_open(&o->atomic, path) != 0) {
        int e = errno;
        reset(o);
        if (e == ENOMEM)
            return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory");
        return fs_error(err, FOLDSVG_E_IO, path, "cannot create output file: %s%s", strerror(e),
                        e == ENOENT ? " (does the directory exist?)" : "");
    }
    o->f = fdopen(o->atomic.fd, "wb");
    if (!o->f) {
        int e = errno;
        fs_atomic_abort(&o->atomic);
        reset(o);
        return fs_error(err, FOLDSVG_E_IO, path, "cannot open output: %s", strerror(e));
    }
    o->atomic.fd = -1; /* the stream owns it now */
    return FOLDSVG_OK;
}

void fs_outfile_reserve(fs_outfile *o, uint64_t bytes)
{
    if (o->atomic.tmp && !o->reserved && bytes > 0)
        o->reserved = fs_file_reserve(fileno(o->f), 0, bytes) == 0;
}

/* The space reserved past the end of what was written, given back: a size that changes
 * frees the blocks past the new end on every file system (ext4 would also for the same size,
 * tmpfs would not). */
static int unreserve(fs_outfile *o)
{
    off_t end = ftello(o->f);
    int fd = fileno(o->f);
    return end < 0 || ftruncate(fd, end + 1) != 0 || ftruncate(fd, end) != 0 ? -1 : 0;
}

foldsvg_status fs_outfile_commit(fs_outfile *o, foldsvg_error *err)
{
    const char *name = o->is_stdout ? "<stdout>" : o->path;
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    if (!bad && o->reserved)
        bad = unreserve(o) != 0;
    int e = errno ? errno : EIO; /* ferror alone: an earlier write failed, reason unknown */
    if (o->is_stdout) {
        reset(o);
        if (bad)
            return fs_error(err, FOLDSVG_E_IO, name, "write failed: %s", strerror(e));
        return FOLDSVG_OK;
    }
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (o->atomic.tmp) {
        if (bad)
            fs_atomic_abort(&o->atomic);
        else if (fs_atomic_commit(&o->atomic) != 0) {
            bad = 1;
            e = errno;
        }
    }
    foldsvg_status st = FOLDSVG_OK;
    if (bad)
        st = fs_error(err, FOLDSVG_E_IO, name, "write failed: %s", strerror(e));
    reset(o);
    return st;
}

void fs_outfile_abort(fs_outfile *o)
{
    if (o->f && !o->is_stdout)
        fclose(o->f);
    if (o->atomic.tmp)
        fs_atomic_abort(&o->atomic);
    reset(o);
}

/* What writing PATH reaches: *SB when it exists (standard output's file for "-" and for the
 * names of descriptors; the file at the end of its links), else a malloc'd *NAME, the
 * absolute name of the file it would create. -1 when neither can be known. */
static int output_id(const char *path, struct stat *sb, char **name)
{
    *name = NULL;
    if (!path || strcmp(path, "-") == 0)
        return fstat(1, sb) == 0 ? 0 : -1;
    int named;
    char *p = follow_links(path, &named);
    if (!p)
        return -1;
    if (named >= 0 ? fstat(named, sb) == 0 : stat(p, sb) == 0) {
        free(p);
        return 0;
    }
    char *slash = strrchr(p, '/');
    const char *base = slash ? slash + 1 : p;
    if (slash)
        *slash = '\0';
    char *dir = realpath(slash ? (slash == p ? "/" : p) : ".", NULL);
    if (dir && (*name = malloc(strlen(dir) + strlen(base) + 2)) != NULL)
        sprintf(*name, "%s/%s", dir, base);
    free(dir);
    free(p);
    return *name ? 1 : -1;
}

int fs_outfile_same(const char *a, const char *b)
{
    struct stat sa, sb;
    char *na, *nb;
    int ka = output_id(a, &sa, &na), kb = output_id(b, &sb, &nb);
    int same = ka == 0 && kb == 0
                   ? sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode)
               : ka == 1 && kb == 1 ? strcmp(na, nb) == 0
                                    : 0;
    free(na);
    free(nb);
    return same;
}
