/* Fuzz target: --diff BEFORE AFTER, a differential test of its two routes. Straight to an
 * output (foldsvg_diff_convert: both sides read at once on two threads, streamed or
 * sorted, merge-joined in step) and through a diff object (foldsvg_diff_read, then
 * foldsvg_diff_write) must write the same folded text and the same SVG, or fail with the
 * same status; a failure is one line and leaves no file behind; the delta tables of a
 * successful read are written.
 *
 * Byte 0: bit 0 "normalize", bit 1 "strip-hex", bits 2-3 "sort-buffer" (default, 1K, 4K,
 * 16K: small ones spill runs), bit 4 gzip-compress BEFORE, bit 5 "minwidth" 0, bits 6-7
 * --top-format (text, markdown, json). Bytes 1-2: the length of BEFORE (little-endian, cut
 * to what is there); the rest after it is AFTER. Each side is written to a file. */
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

static void quiet(void *user, const foldsvg_error *w)
{
    (void)user;
    FUZZ_CHECK(strchr(w->message, '\n') == NULL);
}

static void put(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(len == 0 || fwrite(data, 1, len, f) == len);
    FUZZ_CHECK(fclose(f) == 0);
}

/* The whole file PATH into a new buffer (*LEN). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f);
    FUZZ_CHECK(n >= 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* The entries of DIR, "." and ".." aside. */
static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static void compare(const char *before, const char *after, const char *dir, foldsvg_format format,
                    const foldsvg_options *o)
{
    char a[256], b[256];
    const char *ext = format == FOLDSVG_FORMAT_SVG ? "svg" : "folded";
    snprintf(a, sizeof a, "%s/convert.%s", dir, ext);
    snprintf(b, sizeof b, "%s/object.%s", dir, ext);
    foldsvg_error cerr, derr;
    foldsvg_status cst = foldsvg_diff_convert(before, after, a, format, o, NULL, &cerr);
    foldsvg_diff *d = foldsvg_diff_new();
    FUZZ_CHECK(d != NULL);
    foldsvg_status dst = foldsvg_diff_read(d, before, after, o, &derr);
    if (dst == FOLDSVG_OK) {
        FILE *null = fopen("/dev/null", "wb");
        FUZZ_CHECK(null != NULL);
        FUZZ_CHECK(foldsvg_diff_write_top(d, null, o, NULL) == FOLDSVG_OK);
        fclose(null);
        dst = foldsvg_diff_write(d, b, format, o, &derr);
    }
    foldsvg_diff_free(d);
    if (cst != dst) {
        fprintf(stderr, "%s: convert says %s (%s), the diff object %s (%s)\n", ext,
                foldsvg_status_name(cst), cst ? cerr.message : "", foldsvg_status_name(dst),
                dst ? derr.message : "");
        abort();
    }
    if (cst == FOLDSVG_OK) {
        FUZZ_CHECK(entries(dir) == 2);
        size_t alen, blen;
        char *got = slurp(a, &alen), *want = slurp(b, &blen);
        if (alen != blen || memcmp(got, want, alen) != 0) {
            size_t i = 0;
            while (i < alen && i < blen && got[i] == want[i])
                i++;
            fprintf(stderr, "%s differs at byte %zu (convert %zu bytes, object %zu)\n", ext, i,
                    alen, blen);
            abort();
        }
        free(got);
        free(want);
        FUZZ_CHECK(unlink(a) == 0 && unlink(b) == 0);
    } else {
        FUZZ_CHECK(strchr(cerr.message, '\n') == NULL);
        FUZZ_CHECK(strchr(derr.message, '\n') == NULL);
        FUZZ_CHECK(entries(dir) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint8_t f0 = data[0];
    size_t split = (size_t)data[1] | (size_t)data[2] << 8;
    const uint8_t *body = data + 3;
    size_t blen = size - 3;
    if (split > blen)
        split = blen;

    foldsvg_options *o = foldsvg_options_new();
    FUZZ_CHECK(o != NULL);
    foldsvg_options_set_warning_handler(o, quiet, NULL);
    if (f0 & 1)
        set(o, "normalize", NULL);
    if (f0 & 2)
        set(o, "strip-hex", NULL);
    static const char *const buffers[4] = {NULL, "1K", "4K", "16K"};
    if (buffers[(f0 >> 2) & 3])
        set(o, "sort-buffer", buffers[(f0 >> 2) & 3]);
    if (f0 & 32)
        set(o, "minwidth", "0");
    static const char *const tops[4] = {"text", "markdown", "json", "text"};
    set(o, "top-format", tops[f0 >> 6]);
    FUZZ_CHECK(foldsvg_options_check(o, NULL) == FOLDSVG_OK);

    char dir[] = "/tmp/fuzz-diff.XXXXXX";
    FUZZ_CHECK(mkdtemp(dir) != NULL);
    char before[sizeof dir + 16], after[sizeof dir + 16];
    snprintf(before, sizeof before, "%s/before", dir);
    snprintf(after, sizeof after, "%s/after", dir);
    if (f0 & 16) {
        size_t plen;
        unsigned char *packed = fuzz_gzip(body, split, 6, &plen);
        FUZZ_CHECK(packed != NULL);
        put(before, packed, plen);
        free(packed);
    } else {
        put(before, body, split);
    }
    put(after, body + split, blen - split);

    char outdir[] = "/tmp/fuzz-diff-out.XXXXXX";
    FUZZ_CHECK(mkdtemp(outdir) != NULL);
    compare(before, after, outdir, FOLDSVG_FORMAT_FOLDED, o);
    compare(before, after, outdir, FOLDSVG_FORMAT_SVG, o);

    FUZZ_CHECK(rmdir(outdir) == 0);
    FUZZ_CHECK(unlink(before) == 0 && unlink(after) == 0);
    FUZZ_CHECK(rmdir(dir) == 0);
    foldsvg_options_free(o);
    return 0;
}
