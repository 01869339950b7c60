#include "render/palettemap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

typedef struct pm_entry {
    char *name; /* NUL-terminated copy; LEN counts the bytes before it (names may hold NUL) */
    size_t len;
    uint64_t hash;
    fs_rgb rgb;
} pm_entry;

struct fs_palettemap {
    pm_entry *entries;
    size_t n, cap;
    size_t *slots; /* open addressing, linear probing: entry index + 1, 0 = empty */
    size_t nslots; /* a power of two, kept at most half full */
};

static uint64_t name_hash(const char *s, size_t n)
{
    /* FNV-1a with a final mix so that the low bits used for the slot are well spread */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

fs_palettemap *fs_palettemap_new(void)
{
    return calloc(1, sizeof(fs_palettemap));
}

void fs_palettemap_free(fs_palettemap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->entries[i].name);
    free(m->entries);
    free(m->slots);
    free(m);
}

size_t fs_palettemap_size(const fs_palettemap *m)
{
    return m ? m->n : 0;
}

/* The slot holding NAME, or the empty slot where it would go. Needs nslots > 0. */
static size_t find_slot(const fs_palettemap *m, const char *name, size_t len, uint64_t h)
{
    size_t mask = m->nslots - 1;
    size_t i = (size_t)h & mask;
    for (;;) {
        size_t e = m->slots[i];
        if (e == 0)
            return i;
        const pm_entry *en = &m->entries[e - 1];
        if (en->hash == h && en->len == len && memcmp(en->name, name, len) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static int grow_slots(fs_palettemap *m)
{
    size_t nslots = m->nslots ? m->nslots * 2 : 64;
    if (nslots > SIZE_MAX / sizeof(size_t))
        return -1;
    size_t *slots = calloc(nslots, sizeof(size_t));
    if (!slots)
        return -1;
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    for (size_t k = 0; k < m->n; k++) {
        size_t i = (size_t)m->entries[k].hash & (nslots - 1);
        while (slots[i])
            i = (i + 1) & (nslots - 1);
        slots[i] = k + 1;
    }
    return 0;
}

int fs_palettemap_get(const fs_palettemap *m, const char *name, size_t len, fs_rgb *out)
{
    if (!m || m->n == 0 || (!name && len > 0))
        return 0;
    if (!name)
        name = "";
    size_t e = m->slots[find_slot(m, name, len, name_hash(name, len))];
    if (e == 0)
        return 0;
    if (out)
        *out = m->entries[e - 1].rgb;
    return 1;
}

foldsvg_status fs_palettemap_put(fs_palettemap *m, const char *name, size_t len, fs_rgb rgb)
{
    if (!m || (!name && len > 0))
        return FOLDSVG_E_ARG;
    if (!name)
        name = "";
    uint64_t h = name_hash(name, len);
    if (m->nslots) {
        size_t e = m->slots[find_slot(m, name, len, h)];
        if (e) {
            m->entries[e - 1].rgb = rgb;
            return FOLDSVG_OK;
        }
    }
    if ((m->n + 1) * 2 > m->nslots && grow_slots(m) != 0)
        return FOLDSVG_E_NOMEM;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        if (cap > SIZE_MAX / sizeof(pm_entry))
            return FOLDSVG_E_NOMEM;
        pm_entry *entries = realloc(m->entries, cap * sizeof(pm_entry));
        if (!entries)
            return FOLDSVG_E_NOMEM;
        m->entries = entries;
        m->cap = cap;
    }
    if (len == SIZE_MAX)
        return FOLDSVG_E_NOMEM;
    char *copy = malloc(len + 1);
    if (!copy)
        return FOLDSVG_E_NOMEM;
    memcpy(copy, name, len);
    copy[len] = '\0';
    pm_entry *en = &m->entries[m->n];
    en->name = copy;
    en->len = len;
    en->hash = h;
    en->rgb = rgb;
    m->n++;
    m->slots[find_slot(m, name, len, h)] = m->n;
    return FOLDSVG_OK;
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

static int cmp_entries(const void *a, const void *b)
{
    const pm_entry *x = *(const pm_entry *const *)a;
    const pm_entry *y = *(const pm_entry *const *)b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, n);
    if (c != 0)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

static int write_entries(FILE *f, const pm_entry *const *sorted, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const pm_entry *e = sorted[i];
        if (e->len > 0 && fwrite(e->name, 1, e->len, f) != e->len)
            return -1;
        if (fprintf(f, "->rgb(%u,%u,%u)\n", (unsigned)e->rgb.r, (unsigned)e->rgb.g,
                    (unsigned)e->rgb.b) < 0)
            return -1;
    }
    return 0;
}

foldsvg_status fs_palettemap_save(const fs_palettemap *m, const char *path, foldsvg_error *err)
{
    if (!m || !path || !*path)
        return fs_error(err, FOLDSVG_E_ARG, path, "palette map: no map or no path");
    const pm_entry **sorted = malloc((m->n ? m->n : 1) * sizeof *sorted);
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 48);
    if (!sorted || !tmp) {
        free(sorted);
        free(tmp);
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory writing the palette map");
    }
    for (size_t i = 0; i < m->n; i++)
        sorted[i] = &m->entries[i];
    qsort(sorted, m->n, sizeof *sorted, cmp_entries);

    /* O_EXCL with varying names instead of mkstemp: the file is created 0666 & ~umask
     * like a plain open would, without touching the process umask */
    int fd = -1;
    for (unsigned attempt = 0; attempt < 1000 && fd < 0; attempt++) {
        snprintf(tmp, plen + 48, "%s.tmp.%ld.%u", path, (long)getpid(), attempt);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(sorted);
        free(tmp);
        return fs_error(err, FOLDSVG_E_IO, path,
                        "cannot create a temporary file for the palette map: %s", strerror(e));
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        (void)fchmod(fd, st.st_mode & 07777);
    FILE *f = fdopen(fd, "wb");
    int failed = !f;
    int saved = errno;
    if (f) {
        failed = write_entries(f, sorted, m->n) != 0;
        if (failed)
            saved = errno;
        if (fclose(f) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
    } else {
        close(fd);
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed)
        unlink(tmp);
    free(sorted);
    free(tmp);
    if (failed)
        return fs_error(err, FOLDSVG_E_IO, path, "cannot write the palette map: %s",
                        saved ? strerror(saved) : "write error");
    return FOLDSVG_OK;
}
