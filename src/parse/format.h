/* The readers' settings. */
#ifndef FOLDSVG_PARSE_FORMAT_H
#define FOLDSVG_PARSE_FORMAT_H

/* What the input options say (rows of stage "input" in src/lib/options.c write here). */
typedef struct fs_input_opts {
    long thread;        /* --thread N; -1: every thread, merged */
    int weight_samples; /* --weight samples: each sample weighs 1 */
} fs_input_opts;

#endif
