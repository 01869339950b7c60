#include "render/xmlw.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render/xmltext.h"

foldsvg_status fs_xmlw_begin(fs_xmlw *x, xmlOutputBufferPtr out, const char *kind,
                             foldsvg_error *err)
{
    memset(x, 0, sizeof *x);
    x->w = xmlNewTextWriter(out);
    if (x->w)
        return FOLDSVG_OK;
    xmlOutputBufferClose(out);
    return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the %s writer", kind);
}

foldsvg_status fs_xmlw_finish(fs_xmlw *x, xmlOutputBufferPtr out, const char *what,
                              foldsvg_error *err)
{
    fs_xmlw_check(x, xmlTextWriterFlush(x->w));
    if (out->error)
        x->failed = 1;
    xmlFreeTextWriter(x->w); /* closes OUT as well */
    x->w = NULL;
    fs_buf_free(&x->clean);
    if (x->st)
        return fs_error(err, x->st, NULL, "%s while writing %s", foldsvg_status_name(x->st), what);
    if (x->failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "writing %s failed", what);
    return FOLDSVG_OK;
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
