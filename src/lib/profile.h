/* The object behind the opaque foldsvg_profile. */
#ifndef FOLDSVG_LIB_PROFILE_H
#define FOLDSVG_LIB_PROFILE_H

#include "fold/merge.h"
#include "fold/tree.h"
#include "foldsvg.h"
#include "parse/sink.h"
#include "util/buf.h"

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
    char count_name[64]; /* the unit of the weights read so far */
    fs_buf names;        /* recording: scratch for sanitized names */
    fs_strref *frames;
    size_t frames_cap;
    fs_profile_facts facts; /* for the HTML report */
    /* While nothing drawable has been read, the first input with invalid lines keeps its
     * warning back: if nothing valid follows, that input is the one-line error instead. */
    fs_folded_stats pending;
    char pending_name[1024];
    char last_name[1024]; /* the last input read, named by the no-data error */
};

/* Records one stack of frames (root first), sanitizing names by the Miden rules. */
foldsvg_status fs_profile_record_frames(foldsvg_profile *p, const fs_strref *frames, size_t n,
                                        uint64_t count, uint32_t *leaf);

/* Records the facts of one more input read into P (IN->files is its name; fields of IN left
 * "" or 0 are unknown). */
void fs_profile_note_input(foldsvg_profile *p, const fs_profile_facts *in);

#endif
