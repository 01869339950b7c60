/* The xmlTextWriter helpers of every writer of markup (the SVG, the HTML report): calls that
 * cannot fail one by one, with the first failure kept in the writer state and reported once
 * at the end (fs_xmlw_finish). Text and attribute values from the input go through the
 * cleaning variants (render/xmltext.h): the output is always well-formed. */
#ifndef FOLDSVG_RENDER_XMLW_H
#define FOLDSVG_RENDER_XMLW_H

#include <libxml/xmlwriter.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "foldsvg.h"
#include "util/buf.h"
#include "util/error.h"

#define FS_XC(s) ((const xmlChar *)(s))

/* libxml2's error handlers of the calling thread, while they are silenced. */
typedef struct fs_xml_quiet {
    xmlGenericErrorFunc generic;
    void *generic_ctx;
    xmlStructuredErrorFunc structured;
    void *structured_ctx;
} fs_xml_quiet;

/* libxml2 reports a failed write or allocation itself, on stderr ("I/O error : write
 * error"), besides returning the failure; the caller's one line says it all. Its handlers
 * are state of the calling thread, so they are swapped for silent ones from begin to end and
 * put back: the application's own use of libxml2, on this thread or another, is unaffected.
 * Pairs nest. */
void fs_xml_quiet_begin(fs_xml_quiet *q);
void fs_xml_quiet_end(const fs_xml_quiet *q);

typedef struct fs_xmlw {
    xmlTextWriterPtr w;
    xmlOutputBufferPtr out; /* W's output */
    int failed;             /* a writer call failed: the output is broken */
    foldsvg_status st;      /* a failure of ours (out of memory), FOLDSVG_OK while none */
    fs_buf clean;           /* scratch for cleaned text */
    fs_xml_quiet quiet;
} fs_xmlw;

/* A writer over OUT (closed by fs_xmlw_finish, or here on failure: "cannot create the KIND
 * writer"). */
foldsvg_status fs_xmlw_begin(fs_xmlw *x, xmlOutputBufferPtr out, const char *kind,
                             foldsvg_error *err);
/* Flushes, frees the writer (closing OUT) and reports the run: ours first ("out of memory
 * while writing WHAT"), then a failed write ("writing WHAT failed", FOLDSVG_E_IO: the
 * destination refused bytes; the output layer knows why and says it), else a failure of the
 * writer itself, which only allocating can make (FOLDSVG_E_NOMEM). */
foldsvg_status fs_xmlw_finish(fs_xmlw *x, const char *what, foldsvg_error *err);

static inline void fs_xmlw_check(fs_xmlw *x, int rc)
{
    if (rc < 0)
        x->failed = 1;
}

static inline void fs_xmlw_start(fs_xmlw *x, const char *name)
{
    fs_xmlw_check(x, xmlTextWriterStartElement(x->w, FS_XC(name)));
}

/* Ends the element; an empty one as <name/>. */
static inline void fs_xmlw_end(fs_xmlw *x)
{
    fs_xmlw_check(x, xmlTextWriterEndElement(x->w));
}

/* Ends the element always as </name> (HTML reads <div/> as an open tag). */
static inline void fs_xmlw_end_full(fs_xmlw *x)
{
    fs_xmlw_check(x, xmlTextWriterFullEndElement(x->w));
}

/* A value the writer escapes; it must be valid text already (ours, or cleaned). */
static inline void fs_xmlw_attr(fs_xmlw *x, const char *name, const char *value)
{
    fs_xmlw_check(x, xmlTextWriterWriteAttribute(x->w, FS_XC(name), FS_XC(value)));
}

/* A value we formatted from digits and punctuation: nothing to escape, so the writer copies
 * it as it is rather than running its escaper (which allocates a copy per value). */
static inline void fs_xmlw_attr_rawlen(fs_xmlw *x, const char *name, const char *value, size_t n)
{
    fs_xmlw_check(x, xmlTextWriterStartAttribute(x->w, FS_XC(name)));
    fs_xmlw_check(x, xmlTextWriterWriteRawLen(x->w, FS_XC(value), (int)n));
    fs_xmlw_check(x, xmlTextWriterEndAttribute(x->w));
}

static inline void fs_xmlw_attr_raw(fs_xmlw *x, const char *name, const char *value)
{
    fs_xmlw_attr_rawlen(x, name, value, strlen(value));
}

/* Text the writer escapes; it must be valid already. */
static inline void fs_xmlw_text(fs_xmlw *x, const char *s)
{
    fs_xmlw_check(x, xmlTextWriterWriteString(x->w, FS_XC(s)));
}

/* Markup of ours, written as it is. */
static inline void fs_xmlw_raw(fs_xmlw *x, const char *s, size_t n)
{
    if (n > INT_MAX) {
        x->failed = 1;
        return;
    }
    fs_xmlw_check(x, xmlTextWriterWriteRawLen(x->w, FS_XC(s), (int)n));
}

/* Markup a writer of ours wrote already (a part written elsewhere), copied as it is: in one
 * piece to the output's own write function once W's buffer is out (through W it would be
 * copied into that buffer and written 16 kB at a time). */
void fs_xmlw_copy(fs_xmlw *x, const char *s, size_t n);

void fs_xmlw_attrf(fs_xmlw *x, const char *name, const char *fmt, ...) FS_PRINTF(3, 4);
/* S[0..n) cleaned (render/xmltext.h), in the writer's scratch until the next call. */
const char *fs_xmlw_clean(fs_xmlw *x, const char *s, size_t n);
/* Input bytes as text or an attribute value, cleaned. */
void fs_xmlw_text_clean(fs_xmlw *x, const char *s, size_t n);
void fs_xmlw_attr_clean(fs_xmlw *x, const char *name, const char *s, size_t n);

#endif
