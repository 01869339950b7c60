#include "render/palettemap.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/outfile.h"
#include "util/strmap.h"

struct fs_palettemap {
    fs_strmap names; /* name -> color packed by pack() */
};

static uint32_t pack(fs_rgb c)
{
    return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

static fs_rgb unpack(uint32_t v)
{
    fs_rgb c = {(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    return c;
}

fs_palettemap *fs_palettemap_new(void)
{
    fs_palettemap *m = malloc(sizeof *m);
    if (m)
        fs_strmap_init(&m->names, FS_STRMAP_OWNED);
    return m;
}

void fs_palettemap_free(fs_palettemap *m)
{
    if (!m)
        return;
    fs_strmap_free(&m->names);
    free(m);
}

size_t fs_palettemap_size(const fs_palettemap *m)
{
    return m ? fs_strmap_size(&m->names) : 0;
}

int fs_palettemap_get(const fs_palettemap *m, const char *name, size_t len, fs_rgb *out)
{
    if (!m || (!name && len > 0))
        return 0;
    uint32_t i = fs_strmap_find(&m->names, name, len);
    if (i == FS_STRMAP_NONE)
        return 0;
    if (out)
        *out = unpack(fs_strmap_value(&m->names, i));
    return 1;
}

foldsvg_status fs_palettemap_put(fs_palettemap *m, const char *name, size_t len, fs_rgb rgb)
{
    if (!m || (!name && len > 0))
        return FOLDSVG_E_ARG;
    uint32_t i;
    foldsvg_status st = fs_strmap_put(&m->names, name, len, pack(rgb), &i, NULL);
    if (st != FOLDSVG_OK)
        return st == FOLDSVG_E_LIMIT ? FOLDSVG_E_NOMEM : st;
    /* A later line for the same name wins. */
    return fs_strmap_set_value(&m->names, i, pack(rgb));
}

/* ---- parsing ------------------------------------------------------------------------- */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static void trim(const char **s, size_t *n)
{
    while (*n > 0 && is_space(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_space((*s)[*n - 1]))
        (*n)--;
}

/* Rust's u8::from_str: an optional '+', then one or more decimal digits, at most 255. */
static int parse_u8(const char *s, size_t n, uint8_t *out)
{
    trim(&s, &n);
    if (n > 0 && s[0] == '+') {
        s++;
        n--;
    }
    if (n == 0)
        return -1;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (unsigned)(s[i] - '0');
        if (v > 255)
            return -1;
    }
    *out = (uint8_t)v;
    return 0;
}

static const char *memchr_c(const char *s, size_t n, char c)
{
    return memchr(s, c, n);
}

static int parse_rgb(const char *s, size_t n, fs_rgb *out)
{
    trim(&s, &n);
    if (n < 5 || memcmp(s, "rgb(", 4) != 0 || s[n - 1] != ')')
        return -1;
    s += 4;
    n -= 5;
    const char *c1 = memchr_c(s, n, ',');
    if (!c1)
        return -1;
    const char *rest = c1 + 1;
    size_t rn = n - (size_t)(rest - s);
    const char *c2 = memchr_c(rest, rn, ',');
    if (!c2)
        return -1;
    if (parse_u8(s, (size_t)(c1 - s), &out->r) != 0 ||
        parse_u8(rest, (size_t)(c2 - rest), &out->g) != 0 ||
        parse_u8(c2 + 1, rn - (size_t)(c2 + 1 - rest), &out->b) != 0)
        return -1;
    return 0;
}

/* One line without its terminator: 1 and the parts when it is `NAME->rgb(...)`. */
static int parse_line(const char *s, size_t n, size_t *name_len, fs_rgb *rgb)
{
    size_t arrow = n, count = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] == '-' && s[i + 1] == '>') {
            if (count++ == 0)
                arrow = i;
            i++;
        }
    }
    if (count != 1)
        return 0;
    if (parse_rgb(s + arrow + 2, n - arrow - 2, rgb) != 0)
        return 0;
    *name_len = arrow;
    return 1;
}

static foldsvg_status add_line(fs_palettemap *m, const char *s, size_t n)
{
    if (n > 0 && s[n - 1] == '\n')
        n--;
    if (n > 0 && s[n - 1] == '\r')
        n--;
    size_t name_len;
    fs_rgb rgb;
    if (!parse_line(s, n, &name_len, &rgb))
        return FOLDSVG_OK;
    return fs_palettemap_put(m, s, name_len, rgb);
}

foldsvg_status fs_palettemap_parse(fs_palettemap *m, const char *data, size_t len,
                                   foldsvg_error *err)
{
    if (!m || (!data && len > 0))
        return fs_error(err, FOLDSVG_E_ARG, NULL, "palette map: no map or no data");
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr_c(data + start, len - start, '\n');
        size_t end = nl ? (size_t)(nl - data) + 1 : len;
        if (add_line(m, data + start, end - start) != FOLDSVG_OK)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory reading a palette map");
        start = end;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_palettemap_load(fs_palettemap *m, const char *path, foldsvg_error *err)
{
    if (!m || !path)
        return fs_error(err, FOLDSVG_E_ARG, path, "palette map: no map or no path");
    FILE *f = fopen(path, "rb");
    if (!f) {
        /* the first --cp run starts the map */
        if (errno == ENOENT)
            return FOLDSVG_OK;
        return fs_error(err, FOLDSVG_E_IO, path, "cannot open the palette map: %s",
                        strerror(errno));
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    foldsvg_status st = FOLDSVG_OK;
    uint64_t lineno = 0;
    errno = 0;
    while ((got = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (add_line(m, line, (size_t)got) != FOLDSVG_OK) {
            st = fs_error_at_line(err, FOLDSVG_E_NOMEM, path, lineno, 0,
                                  "out of memory reading the palette map");
            break;
        }
    }
    if (st == FOLDSVG_OK && ferror(f))
        st = fs_error(err, FOLDSVG_E_IO, path, "cannot read the palette map: %s",
                      errno ? strerror(errno) : "read error");
    free(line);
    fclose(f);
    return st;
}

/* ---- saving -------------------------------------------------------------------------- */

/* One entry to save: sorted by name on its own, as qsort passes no map to compare with. */
typedef struct pm_entry {
    const char *name;
    uint32_t len;
    fs_rgb rgb;
} pm_entry;

static int cmp_entries(const void *a, const void *b)
{
    const pm_entry *x = a, *y = b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    if (c != 0)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

static foldsvg_status write_entries(FILE *f, const pm_entry *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const pm_entry *e = &items[i];
        if (e->len > 0 && fwrite(e->name, 1, e->len, f) != e->len)
            return FOLDSVG_E_IO;
        if (fprintf(f, "->rgb(%u,%u,%u)\n", (unsigned)e->rgb.r, (unsigned)e->rgb.g,
                    (unsigned)e->rgb.b) < 0)
            return FOLDSVG_E_IO;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_palettemap_save(const fs_palettemap *m, const char *path, foldsvg_error *err)
{
    if (!m || !path || !*path)
        return fs_error(err, FOLDSVG_E_ARG, path, "palette map: no map or no path");
    size_t n = fs_strmap_size(&m->names);
    pm_entry *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory writing the palette map");
    for (size_t i = 0; i < n; i++)
        sorted[i] = (pm_entry){fs_strmap_key(&m->names, (uint32_t)i),
                               fs_strmap_key_len(&m->names, (uint32_t)i),
                               unpack(fs_strmap_value(&m->names, (uint32_t)i))};
    qsort(sorted, n, sizeof *sorted, cmp_entries);

    fs_atomic a;
    if (fs_atomic_open(&a, path) != 0) {
        int e = errno;
        free(sorted);
        return fs_error(err, FOLDSVG_E_IO, path,
                        "cannot create a temporary file for the palette map: %s", strerror(e));
    }
    FILE *f = fdopen(a.fd, "wb");
    int failed = !f;
    int saved = errno;
    if (f) {
        a.fd = -1; /* the stream owns it */
        failed = write_entries(f, sorted, n) != FOLDSVG_OK;
        if (failed)
            saved = errno;
        if (fclose(f) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
    }
    if (failed)
        fs_atomic_abort(&a);
    else if (fs_atomic_commit(&a) != 0) {
        failed = 1;
        saved = errno;
    }
    free(sorted);
    if (failed)
        return fs_error(err, FOLDSVG_E_IO, path, "cannot write the palette map: %s",
                        saved ? strerror(saved) : "write error");
    return FOLDSVG_OK;
}
