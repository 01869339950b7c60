/* An input as a run reads it, once or more: the one place that knows how each kind of input is
 * read again. A file is opened again by its name; standard input that is a regular file (`<
 * in.folded`) is read again from where it started; anything else that can be read only once
 * (a pipe, a FIFO, a device) is copied to a temporary file as it is first read, when a second
 * reading may come, and read again from the copy. */
#ifndef FOLDSVG_INPUT_SOURCE_H
#define FOLDSVG_INPUT_SOURCE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "foldsvg.h"
#include "input/input.h"

typedef struct fs_source {
    const char *path; /* as given; NULL or "-": standard input */
    char name[1024];  /* for messages: the path, or "<stdin>" */
    int is_stdin;
    int once; /* it can be read only once as it is (a pipe, a FIFO, a device) */
    int dup;  /* standard input named again: it is read from where the first left it */
    /* standard input that is a regular file, at START: read again from there */
    int stdin_file;
    off_t start;
    struct stat id;
    /* what PATH opens (followed through links, /dev/stdin and /proc/self/fd/N too), when it
     * could be looked at: one stream named twice is told by it */
    int known;
    dev_t dev;
    ino_t ino;
    int regular;
    /* ONCE: the copy made as it is first read (NULL: none could be made, or none wanted),
     * whole once the first reading ended (a reading that stops early reads the rest into it) */
    FILE *copy;
    fs_input *held;    /* opened by fs_source_look, not read yet */
    unsigned readings; /* begun */
    int copying;       /* the reading under way fills COPY */
} fs_source;

/* S for PATH (not copied: it must outlive S). DUP: an earlier source is standard input too. */
void fs_source_init(fs_source *s, const char *path, int dup);
void fs_source_free(fs_source *s);

/* Whether A and B open one pipe, FIFO, device or socket, however they are spelled ("-",
 * /dev/stdin, /proc/self/fd/0, a FIFO named twice): two readings of it would split its
 * bytes between them. A regular file (or one that could not be looked at) is never one. */
int fs_source_same_stream(const fs_source *a, const fs_source *b);

/* Opens S for its first reading, to look at before it is read (its size, gzip, its first
 * bytes: input/input.h), and holds it for fs_source_open. With COPY (a second reading may
 * come), a source that can be read only once is copied as it is read, from its first byte,
 * when a temporary file can be made; a copy that turns out not to be needed is dropped by
 * fs_source_open(ONCE). FOLDSVG_E_IO naming the input when it cannot be opened. */
foldsvg_status fs_source_look(fs_source *s, int copy, fs_input **in, foldsvg_error *err);

/* Whether S can be read again from its start: a file, standard input that is a regular file,
 * or a copy being made (or made) of it. */
int fs_source_again(const fs_source *s);

/* The next reading of S from its start (the held one first). With ONCE the copy of S, when
 * one is being made, stops: no reading comes after this one. */
foldsvg_status fs_source_open(fs_source *s, int once, fs_input **in, foldsvg_error *err);
/* Ends a reading: one that stopped early is read to its end into the copy, when one is being
 * made (a later reading then has all of it). */
foldsvg_status fs_source_close(fs_source *s, fs_input *in, foldsvg_error *err);

#endif
