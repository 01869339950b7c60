/* Fuzz target: the stack filters and transforms (--strip, --include, --exclude, --focus,
 * --collapse-recursion, --strip-rust-hash, --reverse, --base) through the public API.
 * Input: byte 0 = flag bits, then up to 8 header lines "K PATTERN" (K: s strip, i include,
 * e exclude, f focus, b base) ended by an empty line, then the profile (folded text, JSON or
 * gzip of either). Bad patterns are usage errors and end the run. */
#include <string.h>

#include "foldsvg.h"
#include "fuzz.h"

static int on_stack(void *user, const char *path, size_t len, uint64_t count, uint64_t before,
                    int has_before)
{
    (void)before;
    (void)has_before;
    (void)count;
    unsigned *sum = user;
    FUZZ_CHECK(len > 0 && path != NULL);
    for (size_t i = 0; i < len; i++)
        *sum += (unsigned char)path[i];
    return 0;
}

static const char *option_for(char k)
{
    switch (k) {
    case 's':
        return "strip";
    case 'i':
        return "include";
    case 'e':
        return "exclude";
    case 'f':
        return "focus";
    case 'b':
        return "base";
    default:
        return NULL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    foldsvg_options *o = foldsvg_options_new();
    if (!o)
        return 0;
    int ok = 1;
    if (flags & 1)
        ok &= foldsvg_options_set(o, "reverse", NULL, NULL) == FOLDSVG_OK;
    if (flags & 2)
        ok &= foldsvg_options_set(o, "collapse-recursion", NULL, NULL) == FOLDSVG_OK;
    if (flags & 4)
        ok &= foldsvg_options_set(o, "strip-rust-hash", NULL, NULL) == FOLDSVG_OK;
    /* Header lines only when the flag says so, so plain profiles are fuzzed unchanged too. */
    if (flags & 8) {
        for (int i = 0; i < 8 && p < end; i++) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *le = nl ? nl : end;
            if (le == p) { /* the empty line ends the header */
                p = le + 1;
                break;
            }
            const char *name = option_for(*p);
            if (name && le - p >= 2) {
                size_t n = (size_t)(le - p - 2);
                char *v = malloc(n + 1);
                if (!v)
                    break;
                memcpy(v, p + 2, n);
                v[n] = '\0';
                if (foldsvg_options_set(o, name, v, NULL) != FOLDSVG_OK)
                    ok = 0;
                free(v);
            }
            p = nl ? nl + 1 : end;
        }
    }
    if (ok && foldsvg_options_check(o, NULL) == FOLDSVG_OK) {
        foldsvg_profile *prof = foldsvg_profile_new();
        foldsvg_error err;
        if (prof && foldsvg_profile_read_buffer(prof, p, (size_t)(end - p), "fuzz", o, &err) ==
                        FOLDSVG_OK) {
            unsigned sum = 0;
            FUZZ_CHECK(foldsvg_profile_foreach(prof, on_stack, &sum) == FOLDSVG_OK);
            char *out = NULL;
            size_t len = 0;
            foldsvg_status st =
                foldsvg_profile_render_mem(prof, FOLDSVG_FORMAT_FOLDED, o, &out, &len, &err);
            if (st == FOLDSVG_OK) {
                FUZZ_CHECK(out != NULL && out[len] == '\0');
                FUZZ_CHECK(len == 0 || out[len - 1] == '\n');
            }
            foldsvg_free(out);
        } else if (prof) {
            FUZZ_CHECK(strchr(err.message, '\n') == NULL);
        }
        foldsvg_profile_free(prof);
    }
    foldsvg_options_free(o);
    return 0;
}
