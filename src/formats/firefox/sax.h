/* The streaming part of the Firefox-Profiler reader: yajl over a text, filling the model
 * (formats/firefox/model.h) as values stream by. */
#ifndef FOLDSVG_FORMATS_FIREFOX_SAX_H
#define FOLDSVG_FORMATS_FIREFOX_SAX_H

#include "foldsvg.h"
#include "formats/firefox/model.h"
#include "input/input.h"

/* Parses the whole of IN into ROOT; sub-profiles kept as JSON strings are queued on Q. */
foldsvg_status ff_parse_input(fs_input *in, ff_profile *root, ff_queue *q, foldsvg_error *err);
/* Parses the JSON text held by the queued sub-profile SUB (then frees the text); FILE names
 * the input in messages. */
foldsvg_status ff_parse_sub(ff_profile *sub, ff_queue *q, const char *file, foldsvg_error *err);

#endif
