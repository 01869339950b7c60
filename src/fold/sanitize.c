#include "fold/sanitize.h"

#include <string.h>

int fs_name_needs_sanitize(const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (src[i] == ';' || src[i] == '\n' || src[i] == '\r')
            return 1;
    return 0;
}

int fs_sanitize_name(char *dst, const char *src, size_t n)
{
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == ';') {
            c = ':';
            changed = 1;
        } else if (c == '\n' || c == '\r') {
            c = ' ';
            changed = 1;
        }
        dst[i] = c;
    }
    return changed;
}
