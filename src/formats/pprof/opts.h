/* What the pprof options say (formats/pprof/pprof.h reads them; fs_input_opts holds them). */
#ifndef FOLDSVG_FORMATS_PPROF_OPTS_H
#define FOLDSVG_FORMATS_PPROF_OPTS_H

#include "util/strlist.h"

typedef struct fs_pprof_opts {
    const char *sample_type; /* --sample-type: a type's name or index; NULL: the default */
    fs_strlist tag_root;     /* --tag-root KEY, in order */
} fs_pprof_opts;

#endif
