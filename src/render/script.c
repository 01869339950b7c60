#include "render/script.h"

#include <stdio.h>

int fs_script_write_root_attributes(xmlTextWriterPtr w, const fs_script_settings *s)
{
    (void)w;
    (void)s;
    return 0;
}

int fs_script_write(xmlTextWriterPtr w, const fs_script_settings *s, int with_code)
{
    (void)with_code;
    char buf[512];
    snprintf(buf, sizeof buf,
             "\nvar foldsvg_settings = {fontsize: %d, fontwidth: %g, xpad: %d, inverted: %s};\n",
             s->fontsize, s->fontwidth, s->xpad, s->inverted ? "true" : "false");
    return xmlTextWriterWriteCDATA(w, (const xmlChar *)buf);
}
