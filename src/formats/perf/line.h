/* The two kinds of line in `perf script` output, split into their parts the way
 * inferno-collapse-perf splits them:
 *
 *   comm pid/tid [cpu] time: period event:    (an event header; most fields optional)
 *           7f1e2162ad6f StealTask::do_it+0x1f (/usr/lib/libjvm.so)    (a stack frame)
 *
 * Lines are given without their newline; nothing is copied (the parts point into the
 * line). */
#ifndef FOLDSVG_FORMATS_PERF_LINE_H
#define FOLDSVG_FORMATS_PERF_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/sink.h"

typedef struct fs_perf_event {
    fs_strref comm; /* trimmed; may be empty */
    fs_strref pid;  /* "?" when perf printed only the thread id */
    fs_strref tid;
    fs_strref event; /* the event as printed, without its last ':' ("cycles:u"); empty
                        when the line has no event field */
    size_t base_len; /* the event's name: event up to its first ':' ("cycles") */
    uint64_t period; /* 0 unless has_period */
    int has_period, has_time;
    int period_overflow; /* a period past 2^64-1 (has_period is 0 then) */
    fs_strref rest;      /* what follows the event field, trimmed: a one-frame stack, a
                            tracepoint's fields, or nothing */
} fs_perf_event;

/* Returns 1 when LINE holds an event header (a word of digits, optionally pid/tid,
 * after a command name: inferno's test), else 0. */
int fs_perf_parse_event(const char *line, size_t len, fs_perf_event *ev);

typedef struct fs_perf_frame_line {
    fs_strref pc;     /* the address as printed (hex) */
    fs_strref func;   /* symbol, possibly with +0x offset; " " when perf printed none */
    fs_strref module; /* inside the parentheses: "[kernel.kallsyms]", "/usr/lib/x.so" */
} fs_perf_frame_line;

/* Returns 1 when LINE is a stack frame "PC FUNC (MODULE)" (leading whitespace allowed),
 * else 0. */
int fs_perf_parse_frame(const char *line, size_t len, fs_perf_frame_line *fl);

/* Whether an event header looks like perf wrote it, beyond inferno's loose test: it has an
 * event field followed by nothing, a stack frame or (after a time stamp) a tracepoint's
 * fields, or a time stamp and nothing else. Folded text never passes. */
int fs_perf_event_is_strict(const fs_perf_event *ev);

/* The length of LINE[0..len) without trailing whitespace. */
size_t fs_perf_trim_end(const char *line, size_t len);

#endif
