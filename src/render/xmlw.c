#include "render/xmlw.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render/xmltext.h"

static void silent_generic(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void silent_structured(void *ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
}

void fs_xml_quiet_begin(fs_xml_quiet *q)
{
    q->generic = xmlGenericError;
    q->generic_ctx = xmlGenericErrorContext;
    q->structured = xmlStructuredError;
    q->structured_ctx = xmlStructuredErrorContext;
    xmlSetGenericErrorFunc(NULL, silent_generic);
    xmlSetStructuredErrorFunc(NULL, silent_structured);
}

void fs_xml_quiet_end(const fs_xml_quiet *q)
{
    xmlSetGenericErrorFunc(q->generic_ctx, q->generic);
    xmlSetStructuredErrorFunc(q->structured_ctx, q->structured);
}

foldsvg_status fs_xmlw_begin(fs_xmlw *x, xmlOutputBufferPtr out, const char *kind,
                             foldsvg_error *err)
{
    memset(x, 0, sizeof *x);
    fs_xml_quiet_begin(&x->quiet);
    x->w = xmlNewTextWriter(out);
    x->out = out;
    if (x->w)
        return FOLDSVG_OK;
    xmlOutputBufferClose(out);
    fs_xml_quiet_end(&x->quiet);
    return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the %s writer", kind);
}

foldsvg_status fs_xmlw_finish(fs_xmlw *x, const char *what, foldsvg_error *err)
{
    xmlOutputBufferPtr out = x->out;
    fs_xmlw_check(x, xmlTextWriterFlush(x->w));
    /* a refused write is XML_IO_WRITE, or XML_IO_FLUSH when a flush made it */
    int io = out->error == XML_IO_WRITE || out->error == XML_IO_FLUSH;
    int nomem = out->error == XML_ERR_NO_MEMORY;
    if (out->error)
        x->failed = 1;
    xmlFreeTextWriter(x->w); /* closes OUT as well (a last flush) */
    x->w = NULL;
    fs_xml_quiet_end(&x->quiet);
    fs_buf_free(&x->clean);
    if (x->st)
        return fs_error(err, x->st, NULL, "%s while writing %s", foldsvg_status_name(x->st), what);
    if (x->failed && (nomem || !io))
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory while writing %s", what);
    if (x->failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "writing %s failed", what);
    return FOLDSVG_OK;
}

void fs_xmlw_copy(fs_xmlw *x, const char *s, size_t n)
{
    xmlOutputBufferPtr out = x->out;
    if (!s) /* nothing was written there */
        s = "";
    fs_xmlw_raw(x, s, 0); /* the state the bytes follow: an open start tag closed */
    if (out->encoder || !out->writecallback || n > INT_MAX) {
        fs_xmlw_raw(x, s, n);
        return;
    }
    fs_xmlw_check(x, xmlTextWriterFlush(x->w));
    if (x->failed || out->error || n == 0)
        return;
    if (out->writecallback(out->context, s, (int)n) < 0) {
        out->error = XML_IO_WRITE; /* as xmlOutputBufferWrite records it */
        x->failed = 1;
    }
}

void fs_xmlw_attrf(fs_xmlw *x, const char *name, const char *fmt, ...)
{
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fs_xmlw_attr(x, name, buf);
}

const char *fs_xmlw_clean(fs_xmlw *x, const char *s, size_t n)
{
    fs_buf_clear(&x->clean);
    if (fs_xml_clean(&x->clean, s, n) != FOLDSVG_OK) {
        x->st = FOLDSVG_E_NOMEM;
        return "";
    }
    return fs_buf_str(&x->clean);
}

void fs_xmlw_text_clean(fs_xmlw *x, const char *s, size_t n)
{
    fs_xmlw_text(x, fs_xmlw_clean(x, s, n));
}

void fs_xmlw_attr_clean(fs_xmlw *x, const char *name, const char *s, size_t n)
{
    fs_xmlw_attr(x, name, fs_xmlw_clean(x, s, n));
}
