/* The processed shape of Firefox-Profiler documents (what profiler.firefox.com and samply
 * save): tables as columns, tables shared by the threads (v56+), prefix offsets (v66+),
 * weights or durations beside the stacks. */
#ifndef FOLDSVG_PARSE_FIREFOX_PROCESSED_H
#define FOLDSVG_PARSE_FIREFOX_PROCESSED_H

#include "parse/firefox_res.h"

extern const ff_model ff_processed_model;

#endif
