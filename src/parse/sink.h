/* What parsers hand their stacks to. Parsers know formats; the sink (src/fold) knows
 * sanitizing, transforms and aggregation. */
#ifndef FOLDSVG_PARSE_SINK_H
#define FOLDSVG_PARSE_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

typedef struct fs_strref {
    const char *ptr; /* not NUL-terminated */
    size_t len;
} fs_strref;

typedef struct fs_sink fs_sink;
struct fs_sink {
    /* One stack of frame names, root first, raw (not yet sanitized), with its weight.
     * N == 0 means an empty/null stack ("[unknown]"). COUNT may be 0 (dropped by the
     * sink). Returns FOLDSVG_OK or an error already written to ERR. */
    foldsvg_status (*stack)(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                            foldsvg_error *err);
    /* The unit of the weights when it is not cycles ("samples", "ms", "bytes"); may be
     * called once per input. NULL-able. */
    void (*count_name)(fs_sink *self, const char *name);
    /* What the input is, for reports: FORMAT ("Gecko v24", "processed v49"), PRODUCT
     * (meta.product, "" when absent), the threads read, and RATE, the weight of one
     * sample when all samples weigh the same (SP1's cycles per sample), else 0.
     * NULL-able; called once per input before the stacks. */
    void (*facts)(fs_sink *self, const char *format, const char *product, uint32_t threads,
                  uint64_t rate);
};

#endif
