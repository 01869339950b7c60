/* The Chrome reader's sample arrays parsed ahead (formats/chrome/split.h): with the job on
 * every block, the values it may take are taken, those it must leave are not, and the stacks
 * and weights are those the parse makes of every value itself. */
#include <stdio.h>
#include <string.h>

#include "formats/chrome/chrome.h"
#include "formats/chrome/split.h"
#include "formats/reader.h"
#include "input/input.h"
#include "testutil.h"

/* A sink that writes each stack as "a;b weight\n". */
typedef struct rec {
    fs_sink sink; /* first: the reader passes a pointer to it */
    char out[2048];
    size_t len;
} rec;

static void put(rec *r, const fs_strref *frames, size_t n, double w)
{
    for (size_t i = 0; i < n; i++)
        r->len += (size_t)snprintf(r->out + r->len, sizeof r->out - r->len, "%s%.*s", i ? ";" : "",
                                   (int)frames[i].len, frames[i].ptr);
    r->len += (size_t)snprintf(r->out + r->len, sizeof r->out - r->len, " %.17g\n", w);
    ck_assert_uint_lt(r->len, sizeof r->out);
}

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)err;
    put((rec *)(void *)self, frames, n, (double)count);
    return FOLDSVG_OK;
}

static foldsvg_status on_weight(fs_sink *self, const fs_strref *frames, size_t n,
                                const fs_weight *w, foldsvg_error *err)
{
    (void)err;
    put((rec *)(void *)self, frames, n, (double)w->whole + w->hi + w->lo);
    return FOLDSVG_OK;
}

/* TEXT read with the split in MODE (cr_split_mode) into R; the values it took. */
static uint64_t read_mode(const char *text, int mode, rec *r)
{
    memset(r, 0, sizeof *r);
    r->sink.stack = on_stack;
    r->sink.weight = on_weight;
    fs_input_opts opts;
    memset(&opts, 0, sizeof opts);
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_mem(&in, text, strlen(text), "t.json", &err), FOLDSVG_OK);
    cr_split_mode(mode);
    uint64_t before = cr_split_taken();
    ck_assert_msg(fs_chrome_read(in, &opts, &r->sink, &err) == FOLDSVG_OK, "%s", err.message);
    uint64_t took = cr_split_taken() - before;
    cr_split_mode(0);
    fs_input_close(in);
    ck_assert_uint_gt(r->len, 0);
    return took;
}

START_TEST(taken_as_the_parse_would_read_them)
{
    static const char trace[] =
        "{\"traceEvents\":[\n"
        "{\"name\":\"Profile\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":1,"
        "\"args\":{\"data\":{\"startTime\":1}}},\n"
        /* samples: 3,2,3,3 taken (the first is yajl's, the last has no comma after it);
         * deltas: -2,7 (1.5 is no integer: yajl reads the rest) */
        "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":2,"
        "\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":"
        "{\"functionName\":\"(root)\"}},{\"id\":2,\"callFrame\":{\"functionName\":\"a\"},"
        "\"parent\":1},{\"id\":3,\"callFrame\":{\"functionName\":\"b\"},\"parent\":2}],"
        "\"samples\":[2,3,2,3,3,2]},\"timeDeltas\":[5,-2,7,1.5,3,4]}}},\n"
        /* one value, none: nothing to take */
        "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":3,"
        "\"args\":{\"data\":{\"cpuProfile\":{\"samples\":[3]},\"timeDeltas\":[9]}}},\n"
        "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":4,"
        "\"args\":{\"data\":{\"cpuProfile\":{\"samples\":[]},\"timeDeltas\":[]}}},\n"
        /* samples: a string first: none; deltas: 2,3,4 (then 19 digits) */
        "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":5,"
        "\"args\":{\"data\":{\"cpuProfile\":{\"samples\":[\"x\",2,3, 2,3]},"
        "\"timeDeltas\":[1e2,2,3,4,1234567890123456789]}}},\n"
        /* samples: 2 (an id has no minus sign); deltas: -0,3,-4 */
        "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":6,"
        "\"args\":{\"data\":{\"cpuProfile\":{\"samples\":[2,2,-3,3,2]},"
        "\"timeDeltas\":[0,-0,3,-4,5]}}},\n"
        /* not a CPU profile's arrays: none */
        "{\"name\":\"X\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":7,\"dur\":3,"
        "\"args\":{\"samples\":[1,2,3],\"timeDeltas\":[4,5,6]}}\n"
        "]}";
    rec alone, ahead;
    ck_assert_uint_eq(read_mode(trace, 1, &alone), 0);
    ck_assert_uint_eq(read_mode(trace, 2, &ahead), 4 + 2 + 3 + 1 + 3);
    ck_assert_str_eq(ahead.out, alone.out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chrome");
    TCase *tc = tcase_create("split");
    tcase_add_test(tc, taken_as_the_parse_would_read_them);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
