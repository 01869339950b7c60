/* What kind of JSON an input's first bytes begin, for detection (formats/registry.h): other
 * profilers' JSON told apart from Firefox-Profiler JSON by the keys its first objects have,
 * as far as the head goes (the first key that says wins; the others are skipped). */
#ifndef FOLDSVG_FORMATS_JSON_SNIFF_H
#define FOLDSVG_FORMATS_JSON_SNIFF_H

#include <stddef.h>

typedef enum fs_json_kind {
    FS_JSON_UNSURE = -1, /* the head ends before it says */
    FS_JSON_NONE,        /* not JSON, or JSON that no other profiler writes (Firefox-Profiler's) */
    FS_JSON_CHROME,      /* trace events: a top-level traceEvents, or objects with a "ph" */
    FS_JSON_V8,          /* a .cpuprofile: a top-level nodes (or head, the tree form) */
    FS_JSON_SPEEDSCOPE,  /* speedscope's file format: its $schema or exporter */
    FS_JSON_ARRAY,       /* an array of objects that says nothing more */
    FS_JSON_HEAP,        /* a V8 sampling heap profile: a top-level head with selfSize */
    FS_JSON_SNAPSHOT,    /* a V8 heap snapshot: a top-level snapshot */
    FS_JSON_BAD          /* not JSON after all */
} fs_json_kind;

fs_json_kind fs_json_sniff(const unsigned char *head, size_t len, int complete);

#endif
