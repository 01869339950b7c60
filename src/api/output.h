/* Drawing outputs to where they go: a stream, a growing buffer or a file (atomically), with
 * the --cp palette map saved once the output is in place. A job draws into an fs_out; the
 * three destinations run any job. src/api/write.c (the public entry points, which pick the
 * format) and src/api/report.c (whose sections hold SVGs) share this. */
#ifndef FOLDSVG_API_OUTPUT_H
#define FOLDSVG_API_OUTPUT_H

#include <libxml/xmlIO.h>
#include <stdio.h>

#include "foldsvg.h"
#include "render/palettemap.h"
#include "render/svg.h"
#include "util/buf.h"
#include "util/outfile.h"

/* Where drawn bytes go: a stream or a growing buffer. FAILED sticks after a failed write;
 * ERRNUM is why (errno; ENOMEM for the buffer). */
typedef struct fs_out {
    FILE *f;
    fs_buf *mem;
    int failed;
    int errnum;
    fs_outfile *file;      /* F's, when it is a file fs_output_file opened (fs_outfile_reserve) */
    struct z_stream_s *gz; /* the bytes go to F through gzip: a file named *.gz */
} fs_out;

/* The one message for a job that failed writing into OUT: when OUT refused bytes, "write
 * failed: REASON" (or out of memory) naming NAME, whatever the layers above said; else ERR
 * as it is, given NAME when it names no file. ST is the job's status; returns the final
 * one. */
foldsvg_status fs_out_failure(const fs_out *out, foldsvg_status st, const char *name,
                              foldsvg_error *err);

/* Appends DATA[0..n) to OUT: FOLDSVG_E_IO once a write failed (sticky). */
foldsvg_status fs_out_write(fs_out *out, const char *data, size_t n);

/* A libxml2 output over OUT (NULL when out of memory). */
xmlOutputBufferPtr fs_out_xml(fs_out *out);

/* A job: draws into OUT; *PMAP gets the --cp map to save once the output is in place. */
typedef foldsvg_status (*fs_output_fn)(const void *job, fs_out *out, fs_palettemap **pmap,
                                       foldsvg_error *err);

foldsvg_status fs_output_stream(fs_output_fn fn, const void *job, const foldsvg_options *o, FILE *f,
                                foldsvg_error *err);
/* Into a new buffer (*OUT, *LEN; NUL-terminated; free with free()). */
foldsvg_status fs_output_mem(fs_output_fn fn, const void *job, const foldsvg_options *o, char **out,
                             size_t *len, foldsvg_error *err);
/* Into PATH: a temporary file renamed on success ("-" is standard output). A PATH that ends
 * in ".gz" is written through gzip (deterministic bytes: no name, no time in its header), so
 * that a baseline kept in a repository is small and reads back as it was. */
foldsvg_status fs_output_file(fs_output_fn fn, const void *job, const foldsvg_options *o,
                              const char *path, foldsvg_error *err);

/* What makes drawing P in FORMAT fail before anything is written. */
foldsvg_status fs_output_precheck(const foldsvg_profile *p, foldsvg_format format,
                                  const foldsvg_options *o, foldsvg_error *err);

/* The job of drawing a profile as SVG or folded text. */
typedef struct fs_profile_job {
    const foldsvg_profile *p;
    foldsvg_format format; /* FOLDSVG_FORMAT_SVG or FOLDSVG_FORMAT_FOLDED */
    const foldsvg_options *o;
} fs_profile_job;
foldsvg_status fs_output_profile(const void *job, fs_out *out, fs_palettemap **pmap,
                                 foldsvg_error *err);

/* The job of drawing frames already merged (fs_svg_input.frames) as SVG. */
typedef struct fs_frames_job {
    const fs_svg_input *in;
    const foldsvg_options *o;
} fs_frames_job;
foldsvg_status fs_output_frames(const void *job, fs_out *out, fs_palettemap **pmap,
                                foldsvg_error *err);

/* The job of writing folded text from a producer: PRODUCE calls LINE (with LINE_USER) once
 * per distinct stack, in order; a non-zero return from LINE means the output failed: stop
 * (FS_STOP). */
typedef foldsvg_status (*fs_folded_producer)(void *user, foldsvg_stack_fn line, void *line_user);
typedef struct fs_folded_job {
    fs_folded_producer produce;
    void *user;
} fs_folded_job;
foldsvg_status fs_output_folded(const void *job, fs_out *out, fs_palettemap **pmap,
                                foldsvg_error *err);

#endif
