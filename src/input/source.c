#include "input/source.h"

#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/tmpfile.h"

/* A path that opens standard input's file anew, with an offset of its own (for reading it in
 * parts at once): NULL where there is none. */
static const char *stdin_again_path(void)
{
#if defined(__linux__)
    return "/proc/self/fd/0";
#else
    return NULL;
#endif
}

void fs_source_init(fs_source *s, const char *path, int dup)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->is_stdin = !path || strcmp(path, "-") == 0;
    s->dup = s->is_stdin && dup;
    snprintf(s->name, sizeof s->name, "%s", s->is_stdin ? "<stdin>" : path);
    struct stat sb;
    if (s->is_stdin && !s->dup)
        s->stdin_file = fstat(fileno(stdin), &s->id) == 0 && S_ISREG(s->id.st_mode) &&
                        (s->start = ftello(stdin)) >= 0;
    s->known = (s->is_stdin ? fstat(fileno(stdin), &sb) : stat(path, &sb)) == 0;
    if (s->known) {
        s->dev = sb.st_dev;
        s->ino = sb.st_ino;
        s->regular = S_ISREG(sb.st_mode);
    }
    if (s->is_stdin)
        s->once = !s->stdin_file;
    else
        s->once = s->known && (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode) || S_ISSOCK(sb.st_mode));
}

int fs_source_same_stream(const fs_source *a, const fs_source *b)
{
    return a->known && b->known && !a->regular && !b->regular && a->dev == b->dev &&
           a->ino == b->ino;
}

void fs_source_free(fs_source *s)
{
    fs_input_close(s->held);
    if (s->copy)
        fclose(s->copy);
    s->held = NULL;
    s->copy = NULL;
}

int fs_source_again(const fs_source *s)
{
    return !s->once || s->copy;
}

/* Standard input back at its start for another reading: FOLDSVG_E_IO when the file's size
 * or time changed since it was first looked at, or it cannot seek. */
static foldsvg_status rewind_stdin(const fs_source *s, foldsvg_error *err)
{
    struct stat now;
    clearerr(stdin);
    if (fstat(fileno(stdin), &now) != 0 || now.st_size != s->id.st_size ||
        now.st_mtime != s->id.st_mtime)
        return fs_error(err, FOLDSVG_E_IO, s->name,
                        "the input changed while it was read (it is read twice in places)");
    if (fseeko(stdin, s->start, SEEK_SET) != 0)
        return fs_error(err, FOLDSVG_E_IO, s->name, "cannot read standard input again: %s",
                        strerror(errno));
    return FOLDSVG_OK;
}

/* A reading from the start, by the kind of input (the first one of a source read once). */
static foldsvg_status open_reading(fs_source *s, int copy, fs_input **in, foldsvg_error *err)
{
    if (s->readings > 0 && s->once) {
        if (!s->copy)
            return fs_error(err, FOLDSVG_E_IO, s->name,
                            "the input has to be read twice and no temporary file could be made "
                            "for it (set TMPDIR)");
        rewind(s->copy);
        return fs_input_open_stream(in, s->copy, s->name, err);
    }
    if (s->stdin_file) {
        FS_FORWARD_IF_ERROR(rewind_stdin(s, err));
        FS_FORWARD_IF_ERROR(fs_input_open_stream(in, stdin, s->name, err));
        /* opened again by another path, it can be read in two halves at once */
        fs_input_set_again(*in, stdin_again_path(), (uint64_t)s->start, &s->id);
        return FOLDSVG_OK;
    }
    if (!s->is_stdin && !s->once)
        return fs_input_open_file(in, s->path, err);
    FILE *f = stdin;
    if (!s->is_stdin && !(f = fopen(s->path, "rb")))
        return fs_error(err, FOLDSVG_E_IO, s->name, "cannot open input: %s", strerror(errno));
    if (copy && !s->dup)
        s->copy = fs_tmpfile(); /* NULL: none could be made; it is read once */
    s->copying = s->copy != NULL;
    foldsvg_status st = s->copying ? fs_input_open_stream_tee(in, f, s->name, s->copy, err)
                                   : fs_input_open_stream(in, f, s->name, err);
    if (f != stdin) /* (the input reads through F; it is closed with S's first reading) */
        fs_input_own_file(*in);
    return st;
}

foldsvg_status fs_source_look(fs_source *s, int copy, fs_input **in, foldsvg_error *err)
{
    if (!s->held) {
        FS_FORWARD_IF_ERROR(open_reading(s, copy, &s->held, err));
        s->readings = 1;
    }
    *in = s->held;
    return FOLDSVG_OK;
}

foldsvg_status fs_source_open(fs_source *s, int once, fs_input **in, foldsvg_error *err)
{
    if (s->held) {
        *in = s->held;
        s->held = NULL;
    } else {
        FS_FORWARD_IF_ERROR(open_reading(s, !once, in, err));
        s->readings++;
    }
    if (once && s->copying) { /* no reading comes after this one: no copy */
        fs_input_untee(*in);
        s->copying = 0;
        fclose(s->copy);
        s->copy = NULL;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_source_close(fs_source *s, fs_input *in, foldsvg_error *err)
{
    foldsvg_status st = FOLDSVG_OK;
    if (s->copying) {
        st = fs_input_drain_raw(in, err); /* the copy must hold all of it */
        s->copying = 0;
    }
    fs_input_close(in);
    return st;
}
