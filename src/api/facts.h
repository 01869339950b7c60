/* What each input of a run was, carried from runs that fold parts of the inputs
 * (--facts-out) to the one run that draws them all (--facts-from), so that the drawing run
 * reports the inputs as if it had read them itself: their facts for the HTML report, the
 * count unit, the skipped-line warnings and the no-data errors (contrib/dask does this).
 *
 * The file is text: a first line "# foldsvg facts 2", then one line per input, in the order
 * read, of 17 tab-separated fields:
 *   NAME FORMAT GZIP PRODUCT THREADS RATE INTERVAL_MS UNIT
 *   HAS_LINES LINES VALID INVALID FIRST_INVALID FRACTIONAL FIRST_FRACTIONAL DRAWN
 *   THREAD_NAMES
 * (UNIT "" when the input named none; HAS_LINES 0 for profiles, which have no lines; DRAWN
 * 1 when the input added stacks; THREAD_NAMES the threads read, as the report names them,
 * "" for inputs without threads). In NAME, FORMAT, PRODUCT, UNIT and THREAD_NAMES a
 * backslash, tab, newline and carriage return are written \\, \t, \n and \r.
 * When the stack pipeline dropped stacks, a last line "# drops" follows, with INPUT,
 * BY_OPTION and, for each step of fs_drop after FS_DROP_NONE, its count, then for the same
 * steps how the option was spelled (escaped as above): the drawing run, which has not the
 * stack options, names them in its "nothing to draw" error as one run would. */
#ifndef FOLDSVG_API_FACTS_H
#define FOLDSVG_API_FACTS_H

#include "api/profile.h"
#include "foldsvg.h"
#include "formats/sink.h"
#include "transform/pipeline.h"
#include "util/buf.h"
#include "util/outfile.h"

/* One input, as recorded and as read back. FACTS->files is not used (NAME is the name). */
typedef struct fs_input_note {
    const char *name;
    const fs_profile_facts *facts;
    const char *unit;             /* "" when the input did not name one */
    const fs_folded_stats *stats; /* NULL when the input has no lines */
    int drawn;
} fs_input_note;

/* Appends N's line to LOG (check fs_buf_status once at the end). */
void fs_facts_append(fs_buf *log, const fs_input_note *n);

/* Writes the header, LOG's lines and the drops D (NULL or none: no line; steps spelled as O
 * spells them, unless D carries a spelling) to PATH's temporary file, flushed, in *OUT: the
 * caller writes the folded output, then commits *OUT (fs_outfile_commit) or aborts it, so
 * that a run leaves both files or neither. */
foldsvg_status fs_facts_write(fs_outfile *out, const char *path, const fs_buf *log,
                              const fs_drops *d, const foldsvg_options *o, foldsvg_error *err);
/* The folded output's status ST, then *FACTS committed or, when ST failed, dropped. */
foldsvg_status fs_facts_end(fs_outfile *facts, foldsvg_status st, foldsvg_error *err);

/* Calls FN for each input PATH lists, in order; the note lives only for the call. The drops
 * it carries are added to *DROPS. Errors name PATH and the line. */
typedef void (*fs_facts_fn)(void *user, const fs_input_note *n);
foldsvg_status fs_facts_read(const char *path, fs_facts_fn fn, void *user, fs_drops *drops,
                             foldsvg_error *err);

/* The usage error for --facts-out without folded output. */
foldsvg_status fs_facts_out_usage(foldsvg_error *err);

#endif
