/* Fuzz target: the folded-stack reader. The whole input is one line for
 * fs_folded_parse_line, then a stream (gzip undone) for fs_folded_read; the results must
 * stay inside their buffers and follow the line rules. */
#include <string.h>

#include "formats/folded/folded.h"
#include "fuzz.h"
#include "input/input.h"

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

typedef struct seen {
    fs_sink sink; /* first: the reader passes a pointer to it */
    uint64_t calls, last_line;
    unsigned sum; /* every stack byte is read, so ASan catches a pointer past the buffer */
} seen;

static foldsvg_status on_line(fs_sink *self, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    seen *s = (seen *)(void *)self;
    FUZZ_CHECK(l->len > 0);
    FUZZ_CHECK(l->lineno > s->last_line);
    FUZZ_CHECK(!is_ws((unsigned char)l->stack[0]) && !is_ws((unsigned char)l->stack[l->len - 1]));
    FUZZ_CHECK(memchr(l->stack, '\n', l->len) == NULL);
    for (size_t i = 0; i < l->len; i++)
        s->sum += (unsigned char)l->stack[i];
    s->last_line = l->lineno;
    s->calls++;
    return FOLDSVG_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *line = (const char *)data;
    fs_folded_line fl;
    int frac = 0;
    int r = fs_folded_parse_line(line, size, &fl, &frac);
    FUZZ_CHECK(r >= -1 && r <= 1);
    if (r == 1) {
        FUZZ_CHECK(fl.stack >= line && fl.len > 0 && fl.stack + fl.len <= line + size);
        FUZZ_CHECK(!is_ws((unsigned char)fl.stack[0]));
        FUZZ_CHECK(!is_ws((unsigned char)fl.stack[fl.len - 1]));
    }

    fs_input *in;
    foldsvg_error err;
    if (fs_input_open_mem(&in, data, size, "fuzz", &err) != FOLDSVG_OK)
        return 0;
    seen s;
    memset(&s, 0, sizeof s);
    s.sink.line = on_line;
    fs_folded_stats st;
    memset(&st, 0, sizeof st);
    foldsvg_status rc = fs_folded_read(in, &s.sink, &st, &err);
    if (rc == FOLDSVG_OK) {
        FUZZ_CHECK(st.valid == s.calls);
        FUZZ_CHECK(st.valid + st.invalid <= st.lines);
        FUZZ_CHECK(st.invalid == 0 || (st.first_invalid >= 1 && st.first_invalid <= st.lines));
    } else {
        /* A message that fits on one line and names the input. */
        FUZZ_CHECK(strchr(err.message, '\n') == NULL && strcmp(err.file, "fuzz") == 0);
    }
    fs_input_close(in);
    return 0;
}
