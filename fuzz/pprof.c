/* Fuzz target: the pprof reader (profile.proto through protobuf-c), its detection and its
 * listings. Byte 0 chooses the options (sample type, tag roots, thread selection), whether
 * the rest is gzip-compressed here (and cut short), and listing instead of reading. */
#include <string.h>

#include "formats/pprof/pprof.h"
#include "formats/pprof/wire.h"
#include "fuzz.h"
#include "gzip.h"
#include "input/input.h"

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)self;
    (void)err;
    FUZZ_CHECK(count > 0);
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < frames[i].len; j++)
            sum += (unsigned char)frames[i].ptr[j];
    (void)sum;
    return FOLDSVG_OK;
}

static void on_count_name(fs_sink *self, const char *name)
{
    (void)self;
    FUZZ_CHECK(name && name[0]);
}

static void on_thread(void *ud, size_t index, const char *name, const char *process,
                      uint64_t samples, double weight)
{
    (void)samples;
    (void)weight;
    size_t *next = ud;
    FUZZ_CHECK(index == (*next)++);
    FUZZ_CHECK(name && process);
    (void)strlen(name);
}

static void on_type(void *ud, size_t index, const char *type, const char *unit, int64_t total)
{
    (void)total;
    size_t *next = ud;
    FUZZ_CHECK(index == (*next)++);
    (void)strlen(type);
    (void)strlen(unit);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++;
    size--;
    (void)fs_pprof_detect(data, size, 1);
    fs_input_opts fo;
    memset(&fo, 0, sizeof fo);
    static const char *const types[4] = {NULL, "cpu", "0", "samples"};
    fo.pprof.sample_type = types[flags & 3];
    if ((flags & 4) && fs_strlist_push(&fo.pprof.tag_root, "thread_name") != FOLDSVG_OK)
        return 0;
    if ((flags & 8) && fs_strlist_push(&fo.threads, "/./") != FOLDSVG_OK) {
        fs_strlist_free(&fo.pprof.tag_root);
        return 0;
    }
    unsigned char *gz = NULL;
    const uint8_t *in_data = data;
    size_t in_len = size;
    if (flags & 16) {
        gz = fuzz_gzip(data, size, 1, &in_len);
        if (gz) {
            size_t cut = (size_t)(flags >> 6);
            in_len = cut < in_len ? in_len - cut : 0;
            in_data = gz;
        }
    }
    fs_input *in;
    foldsvg_error err;
    if (fs_input_open_mem(&in, in_data, in_len, "fuzz.pb", &err) == FOLDSVG_OK) {
        fs_sink sink;
        memset(&sink, 0, sizeof sink);
        sink.stack = on_stack;
        sink.count_name = on_count_name;
        size_t next = 0;
        foldsvg_status st =
            (flags & 32) ? ((flags & 64) ? fs_pprof_list_sample_types(in, &fo, on_type, &next, &err)
                                         : fs_pprof_list_threads(in, &fo, on_thread, &next, &err))
                         : fs_pprof_read(in, &fo, &sink, &err);
        if (st != FOLDSVG_OK)
            FUZZ_CHECK(strchr(err.message, '\n') == NULL && err.message[0]);
        fs_input_close(in);
    }
    free(gz);
    fs_strlist_free(&fo.pprof.tag_root);
    fs_strlist_free(&fo.threads);
    return 0;
}
