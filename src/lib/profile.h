/* The object behind the opaque foldsvg_profile. */
#ifndef FOLDSVG_LIB_PROFILE_H
#define FOLDSVG_LIB_PROFILE_H

#include "fold/merge.h"
#include "fold/tree.h"
#include "foldsvg.h"

struct foldsvg_profile {
    fs_tree tree;
    fs_order_log log; /* input order, kept when read with "flamechart" */
    int has_log;
    char count_name[16]; /* the unit of the weights read so far */
    char *sanitize_buf;  /* scratch for sanitized names */
    size_t sanitize_cap;
};

/* Records one stack of frames (root first), sanitizing names by the Miden rules. */
foldsvg_status fs_profile_record_frames(foldsvg_profile *p, const fs_strref *frames, size_t n,
                                        uint64_t count, uint32_t *leaf);

#endif
