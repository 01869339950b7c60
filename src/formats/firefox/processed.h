/* The processed shape of Firefox-Profiler documents (what profiler.firefox.com and samply
 * save): tables as columns, tables shared by the threads (v56+), prefix offsets (v66+),
 * weights or durations beside the stacks. */
#ifndef FOLDSVG_FORMATS_FIREFOX_PROCESSED_H
#define FOLDSVG_FORMATS_FIREFOX_PROCESSED_H

#include "formats/firefox/resolve.h"

extern const ff_model ff_processed_model;

#endif
