/* The object behind the opaque foldsvg_profile. */
#ifndef FOLDSVG_API_PROFILE_H
#define FOLDSVG_API_PROFILE_H

#include "aggregate/tree.h"
#include "foldsvg.h"
#include "formats/sink.h"
#include "frames/merge.h"
#include "transform/pipeline.h"
#include "util/buf.h"
#include "util/numfmt.h"

/* What the HTML report tells about the inputs; "" or 0 where not known. Each input read is
 * recorded with fs_profile_note_input, which merges them. */
typedef struct fs_profile_facts {
    char files[512];        /* input names, ", "-separated ("..." when they do not fit) */
    char format[48];        /* "folded", "Gecko v24", "processed v49"; "mixed" when inputs differ */
    int gzip;               /* an input was gzip */
    char product[64];       /* meta.product, e.g. "SP1 ZKVM"; "mixed" when inputs differ */
    uint32_t threads;       /* threads read (after --thread), summed over inputs */
    char thread_names[256]; /* "GeckoMain (0), Worker (3)" ("..." when cut); "" unknown */
    double interval_ms;     /* meta.interval; 0 when unknown or inputs differ */
    uint64_t rate;          /* SP1: cycles per sample (threadCPUDelta); 0 when unknown */
    uint32_t ninputs;
} fs_profile_facts;

struct foldsvg_profile {
    fs_tree tree;
    fs_order_log log; /* input order, kept when read with "flamechart" */
    int has_log;
    char count_name[FS_UNIT_SIZE]; /* the unit of the weights read so far */
    fs_buf names;                  /* recording: scratch for sanitized names */
    fs_strref *frames;
    size_t frames_cap;
    fs_profile_facts facts; /* for the HTML report */
    /* While nothing drawable has been read, the first input with invalid lines keeps its
     * warning back: if nothing valid follows, that input is the one-line error instead. */
    fs_folded_stats pending;
    char pending_name[1024];
    char last_name[1024];  /* the last input read, named by the no-data error */
    fs_drops drops;        /* what the stack pipeline dropped, over all inputs read */
    unsigned formats;      /* the formats read (fs_format_bit), for the input options */
    const char *last_what; /* the last input's format, for messages ("folded text") */
    /* --facts-out: a line per input read (api/facts.h). --facts-from: the inputs its file
     * lists stand for the ones read (folded parts of them): their facts, names and unit. */
    fs_buf facts_log;
    fs_buf carried_names; /* ", "-separated, for the report */
    uint32_t ncarried;
    int carried;       /* the file was read */
    int carried_drawn; /* one of its inputs added stacks */
};

/* Records one stack of frames (root first), sanitizing names by the Miden rules. */
foldsvg_status fs_profile_record_frames(foldsvg_profile *p, const fs_strref *frames, size_t n,
                                        uint64_t count, uint32_t *leaf);

/* What a reader said about its input (the sink's facts callback), into F. */
void fs_profile_facts_set(fs_profile_facts *f, const char *format, const char *product,
                          uint32_t threads, uint64_t rate);

/* The threads F says were read, for a report: "GeckoMain (0)" for one, "2: GeckoMain (0),
 * DOM Worker (3)" for more, the count alone when they have no names. */
void fs_profile_threads_text(const fs_profile_facts *f, char *buf, size_t size);

/* Records the facts of one more input read into P (IN->files is its name; fields of IN left
 * "" or 0 are unknown). */
void fs_profile_note_input(foldsvg_profile *p, const fs_profile_facts *in);

#endif
