/* The interactive script of the SVG: settings plus our own code (zoom, search, ...). */
#ifndef FOLDSVG_RENDER_SCRIPT_H
#define FOLDSVG_RENDER_SCRIPT_H

#include <libxml/xmlwriter.h>
#include <stdint.h>

typedef struct fs_script_settings {
    const char *id_prefix; /* every element id is "<prefix>-<name>" */
    const char *nametype;  /* "Function:" */
    const char *countname; /* "cycles" */
    int fontsize;
    double fontwidth;
    int xpad; /* 10 */
    int inverted;
    const char *searchcolor; /* "rgb(230,0,230)" */
    int fluid;               /* no --width given: the script makes the graph fluid */
    int width;               /* the static width written on the root */
    int truncate_text_right;
    uint64_t total;    /* total count (fg:w of the root) */
    double factor;     /* --factor, for tooltips the script writes */
    double minwidth;   /* --minwidth (percent), for the frames the views draw */
    const char *theme; /* "light" or "dark" (--theme); NULL: the system's */
    int views;         /* the callers and callees views too (an HTML report's SVGs) */
    int chart;         /* a flame chart: the tooltip says where a frame starts */
} fs_script_settings;

/* Extra attributes of the root <svg> that the script needs (e.g. how it starts). */
int fs_script_write_root_attributes(xmlTextWriterPtr w, const fs_script_settings *s);
/* The text of the <script> element (written as CDATA): the settings, and the code unless
 * WITH_CODE is 0 (--no-javascript). Returns <0 on writer failure. */
int fs_script_write(xmlTextWriterPtr w, const fs_script_settings *s, int with_code);

#endif
