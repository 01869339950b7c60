#include "formats/json/sniff.h"

#include <string.h>

typedef struct scan {
    const unsigned char *p, *end;
} scan;

static int at_end(const scan *s)
{
    return s->p >= s->end;
}

static void skip_ws(scan *s)
{
    while (!at_end(s) && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* A string at s->p (its '"'); its first bytes into OUT (NUL-terminated, escapes kept).
 * 0 when it does not end in the head. */
static int read_string(scan *s, char *out, size_t cap)
{
    size_t n = 0;
    for (s->p++; !at_end(s); s->p++) {
        unsigned char c = *s->p;
        if (c == '\\') {
            if (++s->p == s->end)
                return 0;
        } else if (c == '"') {
            s->p++;
            out[n] = '\0';
            return 1;
        }
        if (n + 1 < cap)
            out[n++] = (char)c;
    }
    return 0;
}

/* Any value at s->p, nested or not. 0 when it does not end in the head. */
static int skip_value(scan *s)
{
    char ignored[2];
    size_t depth = 0;
    do {
        skip_ws(s);
        if (at_end(s))
            return 0;
        unsigned char c = *s->p;
        if (c == '"') {
            if (!read_string(s, ignored, sizeof ignored))
                return 0;
        } else if (c == '{' || c == '[') {
            depth++;
            s->p++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return 1; /* the end of the enclosing one: no value */
            depth--;
            s->p++;
        } else if (c == ',' || c == ':') {
            s->p++;
        } else {
            while (!at_end(s) && *s->p != ',' && *s->p != '}' && *s->p != ']' && *s->p != ' ' &&
                   *s->p != '\n' && *s->p != '\r' && *s->p != '\t')
                s->p++;
            if (at_end(s))
                return 0;
        }
    } while (depth > 0);
    return 1;
}

/* The object at s->p (its '{'), a top-level "head": a sampling heap profile's root node has
 * a selfSize (V8 writes it before the children), the tree form of a .cpuprofile's a
 * hitCount. */
static fs_json_kind head_keys(scan *s)
{
    if (*s->p != '{')
        return FS_JSON_V8; /* the V8 reader says what is wrong with it */
    s->p++;
    for (;;) {
        skip_ws(s);
        if (at_end(s))
            return FS_JSON_UNSURE;
        if (*s->p == '}')
            return FS_JSON_V8;
        if (*s->p == ',') {
            s->p++;
            continue;
        }
        char key[16];
        if (*s->p != '"')
            return FS_JSON_V8;
        if (!read_string(s, key, sizeof key))
            return FS_JSON_UNSURE;
        if (strcmp(key, "selfSize") == 0)
            return FS_JSON_HEAP;
        if (strcmp(key, "hitCount") == 0 || strcmp(key, "children") == 0)
            return FS_JSON_V8;
        skip_ws(s);
        if (at_end(s))
            return FS_JSON_UNSURE;
        if (*s->p++ != ':')
            return FS_JSON_V8;
        if (!skip_value(s))
            return FS_JSON_UNSURE;
    }
}

/* The keys of the object at s->p (its '{'), as far as the head goes: what they say. */
static fs_json_kind object_keys(scan *s, int top)
{
    s->p++;
    for (;;) {
        skip_ws(s);
        if (at_end(s))
            return FS_JSON_UNSURE;
        if (*s->p == '}')
            return FS_JSON_NONE;
        if (*s->p == ',') {
            s->p++;
            continue;
        }
        char key[32], value[64] = "";
        if (*s->p != '"')
            return FS_JSON_BAD;
        if (!read_string(s, key, sizeof key))
            return FS_JSON_UNSURE;
        skip_ws(s);
        if (at_end(s))
            return FS_JSON_UNSURE;
        if (*s->p++ != ':')
            return FS_JSON_BAD;
        skip_ws(s);
        if (at_end(s))
            return FS_JSON_UNSURE;
        if (top) {
            if (strcmp(key, "traceEvents") == 0)
                return FS_JSON_CHROME;
            if (strcmp(key, "nodes") == 0)
                return FS_JSON_V8;
            if (strcmp(key, "head") == 0)
                return head_keys(s);
            if (strcmp(key, "snapshot") == 0)
                return FS_JSON_SNAPSHOT;
            if (strcmp(key, "activeProfileIndex") == 0)
                return FS_JSON_SPEEDSCOPE;
            /* what Firefox-Profiler JSON has at its top (a wrapped one under "profile") */
            if (strcmp(key, "meta") == 0 || strcmp(key, "threads") == 0 ||
                strcmp(key, "profile") == 0 || strcmp(key, "processes") == 0 ||
                strcmp(key, "libs") == 0)
                return FS_JSON_NONE;
        } else if (strcmp(key, "ph") == 0) {
            return FS_JSON_CHROME;
        }
        if (*s->p == '"') {
            if (!read_string(s, value, sizeof value))
                return FS_JSON_UNSURE;
            if (top && ((strcmp(key, "$schema") == 0 && strstr(value, "speedscope")) ||
                        (strcmp(key, "exporter") == 0 && strncmp(value, "speedscope", 10) == 0)))
                return FS_JSON_SPEEDSCOPE;
        } else if (!skip_value(s)) {
            return FS_JSON_UNSURE;
        }
    }
}

fs_json_kind fs_json_sniff(const unsigned char *head, size_t len, int complete)
{
    scan s = {head, head + len};
    skip_ws(&s);
    fs_json_kind k = FS_JSON_NONE;
    if (at_end(&s)) {
        k = complete ? FS_JSON_NONE : FS_JSON_UNSURE;
    } else if (*s.p == '{') {
        k = object_keys(&s, 1);
        if (k == FS_JSON_BAD || (k == FS_JSON_UNSURE && complete))
            k = FS_JSON_NONE; /* the Firefox-Profiler reader says what is wrong with it */
    } else if (*s.p == '[') {
        /* an array of objects (Chrome writes events so, its closing ']' optional); folded
         * text may start with '[' too ("[unknown];main 1"), never with '[', '{' and a key */
        s.p++;
        skip_ws(&s);
        scan at = s;
        if (!at_end(&at) && *at.p == '{') {
            at.p++;
            skip_ws(&at);
        }
        int objects = !at_end(&s) && *s.p == '{' && !at_end(&at) && *at.p == '"';
        if (objects)
            k = object_keys(&s, 0);
        else if (at_end(&at))
            k = FS_JSON_UNSURE;
        if (objects && k == FS_JSON_NONE)
            k = FS_JSON_ARRAY;
        else if (objects && k == FS_JSON_UNSURE && complete)
            k = FS_JSON_CHROME; /* a first event longer than the head: a trace's, likely */
        else if (k == FS_JSON_BAD || (k == FS_JSON_UNSURE && complete))
            k = FS_JSON_NONE;
    }
    return k;
}
