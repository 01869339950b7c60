/* Reading into a profile: the TREE engine of a run (api/run.h), and an open input as the
 * entry points in src/api read it. */
#ifndef FOLDSVG_API_READ_H
#define FOLDSVG_API_READ_H

#include "api/run.h"
#include "foldsvg.h"
#include "input/input.h"

/* TREE: every source of R read into P, as foldsvg_profile_read_file reads one. */
foldsvg_status fs_run_tree(fs_run *r, foldsvg_profile *p, foldsvg_error *err);

/* Reads an open input into P (what foldsvg_profile_read_* do after opening it). */
foldsvg_status fs_profile_read_input(foldsvg_profile *p, fs_input *in, const foldsvg_options *o,
                                     foldsvg_error *err);

#endif
