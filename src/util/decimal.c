#include "util/decimal.h"

#include <errno.h>
#include <stdlib.h>

int fs_parse_decimal(const char *s, uint64_t max, uint64_t *out)
{
    /* strtoull alone would take leading space, a sign and wrap negative numbers */
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x > max)
        return -1;
    *out = x;
    return 0;
}
