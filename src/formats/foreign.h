/* Formats foldsvg does not read, told apart from their first bytes so that such an input is
 * one message naming what it is (and what to do), not "N lines with invalid format" or a
 * JSON reader's complaint: JSON arrays of objects that are not trace events, perf.data
 * recordings, archives and compressions other than gzip, programs, and binary data of any
 * kind.
 *
 * Each is an entry of the registry (formats/registry.c) with FS_FORMAT_FOREIGN: its detect says
 * whether the head is it, its read fails with the message (FOLDSVG_E_PARSE), naming the
 * input and, for binary data, the first byte that is not text. */
#ifndef FOLDSVG_FORMATS_FOREIGN_H
#define FOLDSVG_FORMATS_FOREIGN_H

#include "formats/reader.h"

/* In detection order; each before what it could be taken for (the JSON ones before
 * Firefox-Profiler JSON, binary data before folded text). */
extern const fs_format fs_foreign_magic;  /* perf.data, archives, compressions, programs */
extern const fs_format fs_foreign_json;   /* heap profiles, arrays of objects not events */
extern const fs_format fs_foreign_binary; /* anything else that is not text */
/* SVG and HTML (foldsvg's own output), callgrind, V8 logs, gperftools text profiles ... */
extern const fs_format fs_foreign_text;
/* After folded text: what no reader took (its first stack line invalid, or most lines) */
extern const fs_format fs_foreign_unknown;

#endif
