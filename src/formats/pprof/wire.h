/* pprof's protobuf at the level of its wire format, without unpacking it: each message of
 * profile.proto walked field by field against the schema (field numbers and wire types),
 * nested messages included. Detection asks it whether an input's first bytes are a Profile
 * message as far as they go, in any field order (Go writes time_nanos or period_type before
 * the samples, others the string table first); the reader asks it where a protobuf that
 * protobuf-c refused breaks, to name the byte offset and what is wrong there. */
#ifndef FOLDSVG_FORMATS_PPROF_WIRE_H
#define FOLDSVG_FORMATS_PPROF_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* What a walk found. */
typedef struct fs_pb_walk {
    int result;         /* 1: valid to its end; 0: invalid at OFFSET; -1: cut at OFFSET */
    size_t offset;      /* where it broke (the field's key) */
    const char *why;    /* what is wrong there (static text) */
    char where[96];     /* the field that broke, as a path ("sample[3].location_id") */
    uint64_t fields;    /* fields walked, nested ones included */
    int unknown_fields; /* fields the schema does not name (allowed when not STRICT) */
} fs_pb_walk;

/* Walks P[0..len) as a Profile message. STRICT: a field the schema does not know is an
 * error (detection: text and other binary data break on it within a few bytes). */
void fs_pb_walk_profile(const unsigned char *p, size_t len, int strict, fs_pb_walk *w);

/* Whether HEAD[0..len) (an input's first decoded bytes; COMPLETE: all of them, or as many as
 * detection reads) starts a Profile message: 1, 0, or -1 when more bytes would tell. */
int fs_pprof_detect(const unsigned char *head, size_t len, int complete);

#endif
