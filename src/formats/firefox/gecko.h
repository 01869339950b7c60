/* The Gecko shape of Firefox-Profiler documents (what Firefox's profiler and SP1 write):
 * tables as {schema, data}, threads in sub-profiles (processes[], or JSON strings in older
 * versions), SP1's cycles in threadCPUDelta. */
#ifndef FOLDSVG_FORMATS_FIREFOX_GECKO_H
#define FOLDSVG_FORMATS_FIREFOX_GECKO_H

#include "formats/firefox/resolve.h"

extern const ff_model ff_gecko_model;

#endif
