/* A byte stream over a file, standard input or memory that undoes gzip transparently
 * (detected by its magic bytes, never by name) and counts decoded bytes for messages. */
#ifndef FOLDSVG_INPUT_INPUT_H
#define FOLDSVG_INPUT_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "foldsvg.h"
#include "util/pool.h"

/* How far formats are told apart from the first bytes (formats/registry.h). */
#define FS_INPUT_PEEK_MAX (1 << 16)

typedef struct fs_input fs_input;

/* PATH NULL or "-" is standard input (named "<stdin>" in messages). */
foldsvg_status fs_input_open_file(fs_input **out, const char *path, foldsvg_error *err);
/* IN is not closed by fs_input_close. */
foldsvg_status fs_input_open_stream(fs_input **out, FILE *in, const char *name, foldsvg_error *err);
/* The same, also writing every raw byte read from IN to TEE (not closed here): an input
 * that cannot be read twice can then be read again from TEE. */
foldsvg_status fs_input_open_stream_tee(fs_input **out, FILE *in, const char *name, FILE *tee,
                                        foldsvg_error *err);
/* The stream IN reads is closed with IN. */
void fs_input_own_file(fs_input *in);
/* Stops copying to the tee. */
void fs_input_untee(fs_input *in);
/* Reads the rest of the raw input (so that a tee holds all of it). */
foldsvg_status fs_input_drain_raw(fs_input *in, foldsvg_error *err);
/* DATA must outlive the input. */
foldsvg_status fs_input_open_mem(fs_input **out, const void *data, size_t len, const char *name,
                                 foldsvg_error *err);
void fs_input_close(fs_input *in);

/* Second reads (the JSON reader pairs arrays that lie apart): whether IN can be opened
 * again from its start (a regular file opened by path, or memory; not standard input or a
 * pipe), and a new, independent input over the same bytes. A file that changed since IN
 * was opened (identity, size or time) is an error. */
int fs_input_can_reopen(const fs_input *in);
foldsvg_status fs_input_reopen(const fs_input *in, fs_input **out, foldsvg_error *err);
/* IN, a stream not read from but for its first bytes (standard input), is the regular file
 * ID from byte BASE on, which PATH opens again (/proc/self/fd/0): it can then be reopened and
 * read in parts as a file opened by path can. Nothing changes when it cannot be. */
void fs_input_set_again(fs_input *in, const char *path, uint64_t base, const struct stat *id);
/* Whether IN can be read in parts, each from an input of its own (fs_input_reopen, then
 * fs_input_seek): a file opened by path, neither gzip nor UTF-16 (known once read from). */
int fs_input_can_split(const fs_input *in);
/* Reads end at decoded offset OFF, as at the input's end (UINT64_MAX, as opened: none). */
void fs_input_set_limit(fs_input *in, uint64_t off);
/* Moves forward to decoded offset OFF: a seek when not compressed, else decoding. Past
 * the end, the next read returns nothing. */
foldsvg_status fs_input_seek(fs_input *in, uint64_t off, foldsvg_error *err);

/* The name used in messages. */
const char *fs_input_name(const fs_input *in);
/* Whether the raw stream was gzip. */
int fs_input_is_gzip(const fs_input *in);

/* Reading ahead, for telling formats apart: the decoded bytes read ahead so far (which
 * reads still return first), and one more decoding step into them, up to
 * FS_INPUT_PEEK_MAX bytes in all: *MORE is 0 when nothing was added (the input's end, or the
 * limit). Consumes nothing. */
void fs_input_head(const fs_input *in, const unsigned char **head, size_t *len);
foldsvg_status fs_input_peek_more(fs_input *in, int *more, foldsvg_error *err);

/* Copies up to CAP decoded bytes into BUF; *GOT = 0 at the end. Errors (read failure,
 * corrupt or truncated gzip) name the input and the decoded byte offset. */
foldsvg_status fs_input_read(fs_input *in, void *buf, size_t cap, size_t *got, foldsvg_error *err);

/* Decoded bytes handed out so far. */
uint64_t fs_input_offset(const fs_input *in);
/* Size of the raw input when known (a regular file or memory), else 0; and raw bytes
 * consumed so far (for progress). */
uint64_t fs_input_raw_size(const fs_input *in);
uint64_t fs_input_raw_consumed(const fs_input *in);

/* The pool (util/pool.h) the input's readers run their tasks on (reading ahead, reading in
 * parts); NULL, the default: none, everything on the calling thread. Not owned. */
void fs_input_set_pool(fs_input *in, fs_pool *pool);
fs_pool *fs_input_pool(const fs_input *in);

/* Progress: FN is called after every raw read with the raw bytes read so far, the raw size
 * (0 when unknown) and the items (lines) a reader reported with fs_input_note_items. */
typedef void (*fs_progress_fn)(void *user, const char *name, uint64_t done, uint64_t total,
                               uint64_t items);
void fs_input_set_progress(fs_input *in, fs_progress_fn fn, void *user);
/* Warnings about the stream itself go to FN (none by default): zero bytes padding a gzip
 * stream after its last member (tape and block devices write them) are skipped, as gzip -d
 * skips them, with a warning. Any other byte there is corrupt data (an error). */
void fs_input_set_warn(fs_input *in, foldsvg_warning_fn fn, void *user);
/* A warning or progress handler is the caller's: it must not run on a thread reading ahead.
 * Between these two calls a warning is kept (made on any thread), and given to the handler by
 * the release, which the thread that set the handler makes once the reads are over; reads
 * report no progress, which the caller's thread gives as it takes what was read
 * (fs_input_give_progress, DONE a fs_input_raw_consumed of the reading thread's). */
void fs_input_hold_warnings(fs_input *in);
void fs_input_release_warnings(fs_input *in);
void fs_input_give_progress(fs_input *in, uint64_t done, uint64_t items);
/* Another part of IN read at the same time on another thread (formats/folded/split.c): its bytes
 * and items, kept up to date there, are added to what IN's reads report (NULL: none). */
void fs_input_progress_also(fs_input *in, const _Atomic uint64_t *done,
                            const _Atomic uint64_t *items);
void fs_input_note_items(fs_input *in, uint64_t items);

#endif
