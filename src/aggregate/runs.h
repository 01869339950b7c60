/* Sorted runs of stacks in a temporary file, for sorting more distinct stacks than memory
 * holds. A run is a sequence of records in byte order of their stacks, each stored as the
 * length of the prefix it shares with the record before it plus the rest (sorted stacks
 * share long prefixes, so a run takes a fraction of the text's size). All runs go to one
 * file, one after the other. */
#ifndef FOLDSVG_AGGREGATE_RUNS_H
#define FOLDSVG_AGGREGATE_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/buf.h"

typedef struct fs_runfile {
    int fd;            /* -1 until opened */
    int no_map;        /* readers read the file instead of mapping it (for tests) */
    uint64_t size;     /* bytes in the file, buffered ones included */
    char *buf;         /* the write buffer */
    size_t buf_len;    /* bytes in buf, not yet written */
    uint64_t reserved; /* the file's bytes given disk space ahead (util/reserve.h) */
    int no_reserve;    /* the system would not */
} fs_runfile;

typedef struct fs_run {
    uint64_t off, len; /* bytes of the file */
} fs_run;

typedef struct fs_run_reader {
    const fs_runfile *file;
    uint64_t pos, end; /* the part of the run not yet in view */
    /* the bytes in view, DATA[at..len): a window of the file mapped into memory (MAP), or,
     * where the file cannot be mapped, what was read into BUF */
    const unsigned char *data;
    size_t at, len;
    size_t window; /* bytes mapped or read at once */
    void *map;
    size_t map_len;
    unsigned char *buf;
    /* the current record: its stack is STACK's bytes and then REST's (REST_LEN of them,
     * read in place: REST is NULL when STACK holds it all); SHARED, the bytes it shares
     * with the stack before */
    fs_buf stack;
    const char *rest;
    size_t rest_len;
    size_t shared;
    uint64_t count, before;
    int is_diff;
} fs_run_reader;

/* FOLDSVG_E_IO when no temporary file can be made (errno tells why). */
foldsvg_status fs_runfile_open(fs_runfile *f);
void fs_runfile_close(fs_runfile *f);

/* Starts a run at the end of the file. */
void fs_run_begin(fs_runfile *f, fs_run *r);
/* Appends a record; stacks must come in byte order. SHARED: the bytes STACK shares with the
 * stack put before it in the run (0 for the first): the writer of a run knows it already
 * (the sort, the merge), so the run keeps no copy of the stack before. FOLDSVG_E_IO when
 * the file cannot be written (a full disk). */
foldsvg_status fs_run_put(fs_runfile *f, const char *stack, size_t len, size_t shared,
                          uint64_t count, uint64_t before, int is_diff);
/* Ends the run (its bytes reach the file). */
foldsvg_status fs_run_end(fs_runfile *f, fs_run *r);
/* Drops the run begun last, not ended: the next run starts where it did. */
void fs_run_discard(fs_runfile *f, const fs_run *r);

/* A reader for RUN that maps (or, where the file cannot be mapped, reads) BUFSIZE bytes of
 * it at a time: mapped, the bytes written are read in place, without a copy. */
foldsvg_status fs_run_reader_init(fs_run_reader *r, const fs_runfile *f, fs_run run,
                                  size_t bufsize);
void fs_run_reader_free(fs_run_reader *r);
/* The next record into r->stack and r->rest, r->count...; *DONE set at the run's end.
 * FOLDSVG_E_IO when the file cannot be read or is not what was written. Only the bytes it
 * shares with the next record are copied into STACK (most of a run's bytes are read in
 * place, where they were mapped). */
foldsvg_status fs_run_next(fs_run_reader *r, int *done);
/* Whether the bytes the next record shares with the current one are in view without
 * reading further: then *SHARED (0 at the run's end, where there is none). */
int fs_run_peek_shared(const fs_run_reader *r, uint64_t *shared);
/* The current stack all in r->stack (REST appended). FOLDSVG_E_NOMEM. */
foldsvg_status fs_run_reader_whole(fs_run_reader *r);

#endif
