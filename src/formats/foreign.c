#include "formats/foreign.h"

#include <string.h>

#include "formats/folded/folded.h"
#include "formats/json/sniff.h"
#include "util/error.h"
#include "util/utf8.h"

/* What to say instead, after "which foldsvg does not read". */
static const char reads[] =
    "(it reads folded stacks, perf script output, Firefox-Profiler JSON, pprof, Chrome and V8 "
    "profiles, trace events, speedscope JSON, DTrace stacks, macOS sample reports, VTune and "
    "Visual Studio CSV, GHC .prof and xctrace XML, plain or gzip)";

/* What a foreign format's read looks at: the head read ahead when it was detected. */
static const unsigned char *head_of(fs_input *in, size_t *len)
{
    const unsigned char *head;
    fs_input_head(in, &head, len);
    return head;
}

/* ---- magic numbers ------------------------------------------------------------------------ */

static const struct {
    const char *magic;
    size_t len;
    const char *what;
} magics[] = {
    {"PERFILE2", 8,
     "a perf.data recording (binary); foldsvg reads the text perf script prints from it: "
     "perf script -i FILE | foldsvg"},
    {"2ELIFREP", 8,
     "a perf.data recording (binary); foldsvg reads the text perf script prints from it: "
     "perf script -i FILE | foldsvg"},
    {"\xfd"
     "7zXZ\0",
     6, "xz-compressed data; decompress it first (foldsvg undoes gzip only)"},
    {"\x28\xb5\x2f\xfd", 4, "zstd-compressed data; decompress it first (foldsvg undoes gzip only)"},
    /* '?': the block size digit; then a block's magic, or the end of an empty stream */
    {"BZh?1AY&SY", 10, "bzip2-compressed data; decompress it first (foldsvg undoes gzip only)"},
    {"BZh?\x17\x72\x45\x38\x50\x90", 10,
     "bzip2-compressed data; decompress it first (foldsvg undoes gzip only)"},
    {"\x04\x22\x4d\x18", 4, "lz4-compressed data; decompress it first (foldsvg undoes gzip only)"},
    {"PK\x03\x04", 4, "a zip archive; extract the profile from it first"},
    {"7z\xbc\xaf\x27\x1c", 6, "a 7z archive; extract the profile from it first"},
    {"\x7f"
     "ELF",
     4, "an ELF file (a program or a library), not a profile"},
    {"FLR\0", 4,
     "a Java Flight Recorder recording (JFR, binary); fold its samples with async-profiler's "
     "converter first: jfrconv --cpu -o collapsed FILE.jfr out.folded"},
    {"bplist00", 8,
     "a binary property list (a part of an Instruments .trace bundle?); export the Time "
     "Profiler table: xctrace export --input X.trace --xpath "
     "'/trace-toc/run[@number=\"1\"]/data/table[@schema=\"time-profile\"]' > out.xml"},
};

/* Whether HEAD[0..n) matches MAGIC['s first N bytes ('?' a digit 1-9). */
static int matches(const unsigned char *head, const char *magic, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (magic[i] == '?' ? head[i] < '1' || head[i] > '9' : head[i] != (unsigned char)magic[i])
            return 0;
    return 1;
}

/* The entry of MAGICS that HEAD starts with, or -1; -2: too few bytes yet to tell. */
static int find_magic(const unsigned char *head, size_t len, int complete)
{
    int unsure = 0;
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        size_t n = magics[i].len < len ? magics[i].len : len;
        if (!matches(head, magics[i].magic, n))
            continue;
        if (n == magics[i].len)
            return (int)i;
        unsure = 1;
    }
    return unsure && !complete ? -2 : -1;
}

static int magic_detect(const unsigned char *head, size_t len, int complete)
{
    int k = find_magic(head, len, complete);
    return k >= 0 ? 1 : k == -2 ? -1 : 0;
}

static foldsvg_status magic_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                 foldsvg_error *err)
{
    (void)opts;
    (void)sink;
    size_t len;
    const unsigned char *head = head_of(in, &len);
    int k = find_magic(head, len, 1);
    return fs_error(err, FOLDSVG_E_PARSE, fs_input_name(in), "this is %s",
                    k >= 0 ? magics[k].what : "a format foldsvg does not read");
}

const fs_format fs_foreign_magic = {
    "magic", "a file foldsvg does not read", FS_FORMAT_FOREIGN, magic_detect, magic_read, NULL,
    NULL,
};

/* ---- other JSON ----------------------------------------------------------------------- */

/* JSON that says what it is but holds no time (V8's heap profiles), or an array of objects
 * none of which says what it is (Chrome trace events are read as such, formats/chrome/chrome.h):
 * not a Firefox-Profiler profile either. */
static int json_detect(const unsigned char *head, size_t len, int complete)
{
    fs_json_kind k = fs_json_sniff(head, len, complete);
    return k == FS_JSON_UNSURE ? -1
                               : k == FS_JSON_ARRAY || k == FS_JSON_HEAP || k == FS_JSON_SNAPSHOT;
}

static foldsvg_status json_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                foldsvg_error *err)
{
    (void)opts;
    (void)sink;
    size_t len;
    const unsigned char *head = head_of(in, &len);
    fs_json_kind k = fs_json_sniff(head, len, 1);
    const char *what =
        k == FS_JSON_HEAP ? "a V8 sampling heap profile (.heapprofile JSON: allocations, not time)"
        : k == FS_JSON_SNAPSHOT
            ? "a V8 heap snapshot (.heapsnapshot: objects in memory, no stacks)"
            : "a JSON array of objects that are not trace events (none has a \"ph\")";
    return fs_error(err, FOLDSVG_E_PARSE, fs_input_name(in),
                    "this is %s, which foldsvg does not "
                    "read %s",
                    what, reads);
}

const fs_format fs_foreign_json = {
    "json", "another profiler's JSON", FS_FORMAT_FOREIGN, json_detect, json_read, NULL, NULL,
};

/* ---- binary data ------------------------------------------------------------------------ */

enum { TEXT_WINDOW = 4096 };

typedef struct text_look {
    size_t n, bad, first_bad, nul_even, nul_odd;
} text_look;

/* What the first TEXT_WINDOW bytes of HEAD are: bytes that no text has (NUL, control
 * characters other than tab, newlines, form feed and escape, bytes that start no UTF-8
 * sequence) and where the NULs are. */
static text_look look(const unsigned char *head, size_t len)
{
    text_look t = {len < TEXT_WINDOW ? len : TEXT_WINDOW, 0, SIZE_MAX, 0, 0};
    for (size_t i = 0; i < t.n;) {
        unsigned char c = head[i];
        size_t k = 1;
        int bad = 0;
        if (c < 0x80) {
            bad = (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' &&
                   c != 0x1b) ||
                  c == 0x7f;
            if (c == 0)
                *(i % 2 ? &t.nul_odd : &t.nul_even) += 1;
        } else {
            uint32_t cp;
            k = fs_utf8_decode(head + i, len - i, &cp);
            if (k == 0) {
                if (len - i < 4 && len == t.n)
                    break; /* a sequence cut by the head's end */
                k = 1;
                bad = 1;
            }
        }
        if (bad && t.bad++ == 0)
            t.first_bad = i;
        i += k;
    }
    return t;
}

/* Whether a line of the first TEXT_WINDOW bytes is a valid folded line. */
static int has_folded_line(const unsigned char *head, size_t len, int complete)
{
    size_t n = len < TEXT_WINDOW ? len : TEXT_WINDOW;
    const char *p = (const char *)head, *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !(complete && n == len))
            return 0; /* a line cut by the window is not judged */
        const char *e = nl ? nl : end;
        fs_folded_line l;
        int frac = 0;
        if (fs_folded_parse_line(p, (size_t)(e - p), &l, &frac) > 0)
            return 1;
        p = e + 1;
    }
    return 0;
}

static int binary_detect(const unsigned char *head, size_t len, int complete)
{
    if (len < TEXT_WINDOW && !complete)
        return -1;
    text_look t = look(head, len);
    /* Text with odd bytes (hostile names, Latin-1) is still text, and a short file of
     * hostile names is folded text as long as a line of it is valid. */
    return t.n > 0 && t.bad * 4 > t.n && !has_folded_line(head, len, complete);
}

static foldsvg_status binary_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                  foldsvg_error *err)
{
    (void)opts;
    (void)sink;
    size_t len;
    const unsigned char *head = head_of(in, &len);
    text_look t = look(head, len);
    size_t pairs = t.n / 2;
    /* ASCII in UTF-16: every other byte NUL, the others not */
    if (pairs && ((t.nul_odd * 10 >= pairs * 9 && t.nul_even * 10 <= pairs) ||
                  (t.nul_even * 10 >= pairs * 9 && t.nul_odd * 10 <= pairs)))
        return fs_error(err, FOLDSVG_E_PARSE, fs_input_name(in),
                        "this looks like UTF-16 text without a byte-order mark; foldsvg reads "
                        "UTF-8, and UTF-16 that starts with a byte-order mark");
    return fs_error_at_offset(err, FOLDSVG_E_PARSE, fs_input_name(in), t.first_bad,
                              "binary data (byte 0x%02x here), not text, which foldsvg does not "
                              "read %s",
                              head[t.first_bad], reads);
}

const fs_format fs_foreign_binary = {
    "binary", "binary data", FS_FORMAT_FOREIGN, binary_detect, binary_read, NULL, NULL,
};

/* ---- text of other kinds ------------------------------------------------------------------ */

/* Where W is in P[0..N), or NULL. */
static const char *find_word(const char *p, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(p + i, w, k) == 0)
            return p + i;
    return NULL;
}

/* Whether P[0..N) starts with W (lower case), in any case. */
static int starts_nocase(const char *p, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = p[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return 1;
}

/* What text that is not a profile foldsvg reads looks like, from its first lines, and what to
 * do with it; NULL when it cannot tell. */
static const char *text_kind(const unsigned char *head, size_t len)
{
    const char *p = (const char *)head, *end = p + len;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    size_t n = (size_t)(end - p);
    const char *nl = memchr(p, '\n', n);
    size_t first = nl ? (size_t)(nl - p) : n;
#define STARTS(w) (n >= sizeof(w) - 1 && memcmp(p, w, sizeof(w) - 1) == 0)
#define HAS(w) (find_word(p, n, w) != NULL)
    if (STARTS("<svg") || (STARTS("<?xml") && HAS("<svg")))
        return HAS("foldsvg") || HAS("Flame Graph") || HAS("flamegraph")
                   ? "an SVG flamegraph (foldsvg's or inferno's output), not a profile; did you "
                     "mean -o FILE.svg? (every name without -o is an input)"
                   : "an SVG image, not a profile; did you mean -o FILE.svg? (every name "
                     "without -o is an input)";
    if (starts_nocase(p, n, "<!doctype html") || starts_nocase(p, n, "<html"))
        return HAS("foldsvg")
                   ? "foldsvg's own HTML report, not a profile; did you mean -o FILE.html? "
                     "(every name without -o is an input)"
                   : "an HTML page, not a profile; did you mean -o FILE.html? (every name "
                     "without -o is an input)";
    if (STARTS("<?xml") && HAS("<trace-toc"))
        return "an Instruments trace's table of contents (xctrace export --toc); export the "
               "Time Profiler table instead: xctrace export --input X.trace --xpath "
               "'/trace-toc/run[@number=\"1\"]/data/table[@schema=\"time-profile\"]'";
    if (STARTS("# callgrind format") || (STARTS("version:") && HAS("\nfn=")) ||
        ((STARTS("events:") || HAS("\nevents:")) && HAS("\nfn=")))
        return "a callgrind profile (costs per function and call edge, not stacks), which "
               "foldsvg does not read; record stacks instead (perf record -g, then perf script "
               "| foldsvg)";
    if (STARTS("v8-version,") || STARTS("shared-library,") || STARTS("code-creation,"))
        return "a V8 log (node --prof), which foldsvg does not read; node --cpu-prof writes a "
               ".cpuprofile instead, which the Firefox Profiler imports";
    static const char *const gperf[] = {"--- contention:",
                                        "--- heapz",
                                        "--- heap",
                                        "--- symbol",
                                        "--- threadz",
                                        "--- growthz",
                                        "heap profile:",
                                        "heap_v2/",
                                        "goroutine profile:",
                                        "threadcreate profile:",
                                        "%%% "};
    for (size_t i = 0; i < sizeof gperf / sizeof gperf[0]; i++)
        if (first >= strlen(gperf[i]) && memcmp(p, gperf[i], strlen(gperf[i])) == 0)
            return "a gperftools or legacy Go text profile (pprof's old format), which foldsvg "
                   "does not read; convert it to pprof's protobuf: pprof -proto PROGRAM FILE > "
                   "profile.pb.gz";
#undef STARTS
#undef HAS
    return NULL;
}

static int text_detect(const unsigned char *head, size_t len, int complete)
{
    if (!complete && len < 4096)
        return -1;
    return text_kind(head, len) != NULL;
}

static foldsvg_status text_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                foldsvg_error *err)
{
    (void)opts;
    (void)sink;
    size_t len;
    const unsigned char *head = head_of(in, &len);
    return fs_error(err, FOLDSVG_E_PARSE, fs_input_name(in), "this is %s", text_kind(head, len));
}

const fs_format fs_foreign_text = {
    "text", "text of another kind", FS_FORMAT_FOREIGN, text_detect, text_read, NULL, NULL,
};

/* ---- anything else ------------------------------------------------------------------------ */

static int unknown_detect(const unsigned char *head, size_t len, int complete)
{
    (void)head;
    (void)len;
    (void)complete;
    return 1;
}

/* The first line that is neither blank nor a comment, where folded text would have its first
 * stack: its number (1-based) and bytes. */
static uint64_t first_line(const unsigned char *head, size_t len, const char **line, size_t *n)
{
    const char *p = (const char *)head, *end = p + len;
    for (uint64_t no = 1; p < end; no++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        fs_folded_line l;
        int frac = 0;
        if (fs_folded_parse_line(p, (size_t)(e - p), &l, &frac) != 0) {
            *line = p;
            *n = (size_t)(e - p);
            return no;
        }
        p = nl ? nl + 1 : end;
    }
    *line = "";
    *n = 0;
    return 1;
}

static foldsvg_status unknown_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                   foldsvg_error *err)
{
    (void)opts;
    (void)sink;
    size_t len;
    const unsigned char *head = head_of(in, &len);
    const char *line;
    size_t n;
    uint64_t no = first_line(head, len, &line, &n);
    fs_folded_line l;
    int frac = 0;
    if (fs_folded_parse_line(line, n, &l, &frac) > 0)
        return fs_error(err, FOLDSVG_E_PARSE, fs_input_name(in),
                        "not a profile foldsvg reads: most of its first lines are not stacks "
                        "(frame;frame;... COUNT) %s",
                        reads);
    return fs_error_at_line(err, FOLDSVG_E_PARSE, fs_input_name(in), no, 0,
                            "not a profile foldsvg reads: this line (\"%.*s%s\") is not a stack "
                            "(frame;frame;... COUNT) %s",
                            (int)(n > 60 ? 60 : n), line, n > 60 ? "..." : "", reads);
}

const fs_format fs_foreign_unknown = {
    "unknown", "text that is not a profile", FS_FORMAT_FOREIGN, unknown_detect, unknown_read, NULL,
    NULL,
};
