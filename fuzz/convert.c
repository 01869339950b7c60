/* Fuzz target: foldsvg_convert against the profile, a differential test. The two ways from
 * folded text to an SVG (the streaming merge, fed directly or through the sorter, and the
 * prefix tree of a profile) must write the same bytes; so must the sorter's folded output
 * and the profile's.
 *
 * Byte 0: bits 0-1 "sort-buffer" (default, 1K, 4K, 16K: small ones spill runs and merge them
 * in rounds), bits 2-3 "minwidth" (0, 0.01, 1, 50), bits 4-5 colors (random, "hash",
 * "deterministic", random), bit 6 "inverted", bit 7 "negate". Byte 1: bit 0 "width" 300,
 * bit 1 "countname" samples, bit 2 "pretty-xml", bit 3 gzip-compress the rest, bits 4-5 cut
 * 0-3 bytes off the compressed end. The rest: the input, written to a temporary file.
 *
 * For SVG and then folded output: foldsvg_convert(file -> a fresh path in a private
 * directory) and foldsvg_profile_read_file + foldsvg_profile_render_mem either both succeed
 * with the same bytes (and the same total) or both fail with the same status; a failed
 * convert leaves no file behind, a successful one only its output. */
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "foldsvg.h"
#include "fuzz.h"
#include "gzip.h"

static void set(foldsvg_options *o, const char *name, const char *value)
{
    FUZZ_CHECK(foldsvg_options_set(o, name, value, NULL) == FOLDSVG_OK);
}

/* The whole file PATH into a new buffer (*LEN), or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The entries of DIR, "." and ".." aside; with NAME, checks that it is the only one. */
static size_t entries(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (name && strcmp(e->d_name, name) != 0)
            fprintf(stderr, "convert left %s/%s behind\n", dir, e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

static void report_mismatch(const char *what, const char *a, size_t alen, const char *b,
                            size_t blen)
{
    size_t m = alen < blen ? alen : blen, i = 0;
    while (i < m && a[i] == b[i])
        i++;
    size_t from = i > 40 ? i - 40 : 0;
    fprintf(stderr, "%s differs at byte %zu (convert %zu bytes, profile %zu)\n", what, i, alen,
            blen);
    fprintf(stderr, "convert: ...%.*s\n", (int)((alen - from) < 120 ? alen - from : 120), a + from);
    fprintf(stderr, "profile: ...%.*s\n", (int)((blen - from) < 120 ? blen - from : 120), b + from);
}

static void compare(const char *input, const char *dir, foldsvg_format format,
                    const foldsvg_options *o)
{
    const char *leaf = format == FOLDSVG_FORMAT_SVG ? "out.svg" : "out.folded";
    char out[256];
    snprintf(out, sizeof out, "%s/%s", dir, leaf);
    const char *inputs[1] = {input};
    foldsvg_convert_stats stats;
    foldsvg_error cerr, perr;
    foldsvg_status cst = foldsvg_convert(inputs, 1, out, format, o, &stats, &cerr);

    foldsvg_profile *p = foldsvg_profile_new();
    FUZZ_CHECK(p != NULL);
    char *ref = NULL;
    size_t reflen = 0;
    foldsvg_status pst = foldsvg_profile_read_file(p, input, o, &perr);
    if (pst == FOLDSVG_OK)
        pst = foldsvg_profile_render_mem(p, format, o, &ref, &reflen, &perr);

    if (cst != pst) {
        fprintf(stderr, "%s: convert says %s (%s), the profile %s (%s)\n", leaf,
                foldsvg_status_name(cst), cst ? cerr.message : "", foldsvg_status_name(pst),
                pst ? perr.message : "");
        abort();
    }
    if (cst == FOLDSVG_OK) {
        FUZZ_CHECK(entries(dir, leaf) == 1);
        size_t len = 0;
        char *got = slurp(out, &len);
        FUZZ_CHECK(got != NULL);
        if (len != reflen || memcmp(got, ref, len) != 0) {
            report_mismatch(leaf, got, len, ref, reflen);
            abort();
        }
        if (stats.total != foldsvg_profile_total(p)) {
            fprintf(stderr, "%s: convert's total %llu, the profile's %llu\n", leaf,
                    (unsigned long long)stats.total, (unsigned long long)foldsvg_profile_total(p));
            abort();
        }
        free(got);
        FUZZ_CHECK(unlink(out) == 0);
    } else {
        FUZZ_CHECK(strchr(cerr.message, '\n') == NULL);
        FUZZ_CHECK(entries(dir, NULL) == 0);
    }
    foldsvg_free(ref);
    foldsvg_profile_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t f0 = data[0], f1 = data[1];
    const uint8_t *body = data + 2;
    size_t blen = size - 2;

    foldsvg_options *o = foldsvg_options_new();
    FUZZ_CHECK(o != NULL);
    static const char *const buffers[4] = {NULL, "1K", "4K", "16K"};
    if (buffers[f0 & 3])
        set(o, "sort-buffer", buffers[f0 & 3]);
    static const char *const minwidths[4] = {"0", "0.01", "1", "50"};
    set(o, "minwidth", minwidths[(f0 >> 2) & 3]);
    if (((f0 >> 4) & 3) == 1)
        set(o, "hash", NULL);
    else if (((f0 >> 4) & 3) == 2)
        set(o, "deterministic", NULL);
    if (f0 & 64)
        set(o, "inverted", NULL);
    if (f0 & 128)
        set(o, "negate", NULL);
    if (f1 & 1)
        set(o, "width", "300");
    if (f1 & 2)
        set(o, "countname", "samples");
    if (f1 & 4)
        set(o, "pretty-xml", NULL);
    FUZZ_CHECK(foldsvg_options_check(o, NULL) == FOLDSVG_OK);

    unsigned char *packed = NULL;
    if (f1 & 8) {
        size_t plen;
        packed = fuzz_gzip(body, blen, 6, &plen);
        FUZZ_CHECK(packed != NULL);
        size_t cut = (f1 >> 4) & 3;
        body = packed;
        blen = plen > cut ? plen - cut : 0;
    }

    char dir[] = "/tmp/fuzz-convert.XXXXXX";
    FUZZ_CHECK(mkdtemp(dir) != NULL);
    char input[sizeof dir + 16];
    snprintf(input, sizeof input, "%s/in", dir);
    FILE *f = fopen(input, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(blen == 0 || fwrite(body, 1, blen, f) == blen);
    FUZZ_CHECK(fclose(f) == 0);
    free(packed);

    /* the input lives in its own directory: convert's outputs go to a sibling one */
    char outdir[] = "/tmp/fuzz-convert-out.XXXXXX";
    FUZZ_CHECK(mkdtemp(outdir) != NULL);
    compare(input, outdir, FOLDSVG_FORMAT_SVG, o);
    compare(input, outdir, FOLDSVG_FORMAT_FOLDED, o);

    FUZZ_CHECK(rmdir(outdir) == 0);
    FUZZ_CHECK(unlink(input) == 0);
    FUZZ_CHECK(rmdir(dir) == 0);
    foldsvg_options_free(o);
    return 0;
}
