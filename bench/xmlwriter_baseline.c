/* The bound for writing big SVGs: a bare xmlTextWriter loop that writes N frame elements
 * shaped like foldsvg's (<g><title/><rect x y width height fill fg:x fg:w/><text/></g>,
 * same number formats, names of LEN bytes) to a file, with nothing else to do.
 *   cc -O2 bench/xmlwriter_baseline.c $(pkg-config --cflags --libs libxml-2.0) -o xmlw
 *   ./xmlw N OUT.svg [LEN] */
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XC(s) ((const xmlChar *)(s))

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s N OUT.svg [NAME_LEN]\n", argv[0]);
        return 2;
    }
    unsigned long n = strtoul(argv[1], NULL, 10);
    size_t len = argc > 3 ? strtoul(argv[3], NULL, 10) : 40;
    char name[256];
    if (len >= sizeof name)
        len = sizeof name - 1;
    /* the same path as foldsvg's output: a FILE behind an xmlOutputBuffer */
    FILE *f = fopen(argv[2], "wb");
    if (!f)
        return 1;
    xmlTextWriterPtr w = xmlNewTextWriter(xmlOutputBufferCreateFile(f, NULL));
    if (!w)
        return 1;
    xmlTextWriterStartDocument(w, "1.0", NULL, "no");
    xmlTextWriterStartElement(w, XC("svg"));
    xmlTextWriterStartElement(w, XC("svg"));
    char buf[128];
    for (unsigned long i = 0; i < n; i++) {
        memset(name, 'a' + (int)(i % 26), len);
        name[len] = '\0';
        double x = (double)(i % 100000) / 1000.0, wd = 0.0123;
        xmlTextWriterStartElement(w, XC("g"));
        xmlTextWriterStartElement(w, XC("title"));
        snprintf(buf, sizeof buf, " (%lu cycles, %.2f%%)", i % 1000, wd);
        xmlTextWriterWriteString(w, XC(name));
        xmlTextWriterWriteString(w, XC(buf));
        xmlTextWriterEndElement(w);
        xmlTextWriterStartElement(w, XC("rect"));
        snprintf(buf, sizeof buf, "%.4f%%", x);
        xmlTextWriterWriteAttribute(w, XC("x"), XC(buf));
        snprintf(buf, sizeof buf, "%lu", 100 + i % 40 * 16);
        xmlTextWriterWriteAttribute(w, XC("y"), XC(buf));
        snprintf(buf, sizeof buf, "%.4f%%", wd);
        xmlTextWriterWriteAttribute(w, XC("width"), XC(buf));
        xmlTextWriterWriteAttribute(w, XC("height"), XC("15"));
        snprintf(buf, sizeof buf, "rgb(%lu,%lu,%lu)", 200 + i % 55, i % 230, i % 55);
        xmlTextWriterWriteAttribute(w, XC("fill"), XC(buf));
        snprintf(buf, sizeof buf, "%lu", i * 7);
        xmlTextWriterWriteAttribute(w, XC("fg:x"), XC(buf));
        snprintf(buf, sizeof buf, "%lu", i % 1000);
        xmlTextWriterWriteAttribute(w, XC("fg:w"), XC(buf));
        xmlTextWriterEndElement(w);
        xmlTextWriterStartElement(w, XC("text"));
        snprintf(buf, sizeof buf, "%.4f%%", x + 0.25);
        xmlTextWriterWriteAttribute(w, XC("x"), XC(buf));
        snprintf(buf, sizeof buf, "%.2f", 110.5 + (double)(i % 40) * 16);
        xmlTextWriterWriteAttribute(w, XC("y"), XC(buf));
        xmlTextWriterWriteString(w, XC(""));
        xmlTextWriterEndElement(w);
        xmlTextWriterEndElement(w);
    }
    xmlTextWriterEndDocument(w);
    xmlFreeTextWriter(w);
    return fclose(f) == 0 ? 0 : 1;
}
