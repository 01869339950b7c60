/* What the command writes to a terminal: text escaped so that nothing from an input acts on
 * it, and the progress line of long reads. */
#include "cli/term.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "foldsvg.h"

/* TEXT on F with the bytes a terminal acts on written \xNN (foldsvg_terminal_text): nothing
 * an input or an argument holds reaches the terminal raw, nor splits a line. */
void cli_put_escaped(FILE *f, const char *text)
{
    char small[512];
    size_t n = foldsvg_terminal_text(small, sizeof small, text);
    char *big = n < sizeof small ? NULL : malloc(n + 1);
    if (big)
        foldsvg_terminal_text(big, n + 1, text);
    fputs(big ? big : small, f);
    free(big);
}

/* "foldsvg: " LINE "\n" on stderr, escaped. */
void cli_say(const char *line)
{
    fputs("foldsvg: ", stderr);
    cli_put_escaped(stderr, line);
    fputc('\n', stderr);
}

/* Progress on a terminal: after a second, at most five updates a second, on one line
 * that the next message or the end clears. Each reading of an input has its own rate; an
 * input read again (found unsorted on the way, each side of --normalize) says so at once,
 * since its bytes start from zero again. The two sides of --diff are read at once, their
 * updates interleaved (never at the same time: the library serialises them). */
typedef struct reading {
    char input[256]; /* as the library named it */
    uint64_t done;
    struct timespec start;
    int again;
} reading;

typedef struct progress_state {
    struct timespec start, last;
    int shown;
    reading readings[4]; /* the latest inputs' */
    unsigned next;       /* the slot the next new input takes */
} progress_state;

static progress_state progress;
volatile sig_atomic_t cli_progress_visible;

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

void cli_clear_progress(void)
{
    if (progress.shown) {
        fputs("\r\033[K", stderr);
        progress.shown = 0;
        cli_progress_visible = 0;
    }
}

static void human_bytes(uint64_t n, char *buf, size_t size)
{
    if (n >= (uint64_t)1 << 30)
        snprintf(buf, size, "%.1f GB", (double)n / 1e9);
    else
        snprintf(buf, size, "%.0f MB", (double)n / 1e6);
}

/* INPUT's reading, now at DONE bytes; *AGAIN set when that starts a new reading of an input
 * read before: the library reports 0 bytes as a reading starts. (Only that: an input named
 * twice, as in --diff x x, has two readings whose updates interleave.) */
static reading *follow_reading(const char *input, uint64_t done, int *again)
{
    enum { N = sizeof progress.readings / sizeof progress.readings[0] };
    reading *r = NULL;
    for (unsigned i = 0; i < N && !r; i++)
        if (strncmp(progress.readings[i].input, input, sizeof r->input - 1) == 0)
            r = &progress.readings[i];
    *again = r && done == 0 && r->done > 0;
    if (!r) {
        r = &progress.readings[progress.next++ % N];
        snprintf(r->input, sizeof r->input, "%s", input);
        r->again = 0;
        r->done = 0;
    }
    if (!r->done || *again)
        clock_gettime(CLOCK_MONOTONIC, &r->start);
    r->again |= *again;
    r->done = done;
    return r;
}

void cli_on_progress(void *user, const char *input, uint64_t done, uint64_t total, uint64_t lines)
{
    (void)user;
    int again;
    reading *r = follow_reading(input, done, &again);
    if (seconds_since(&progress.start) < 1.0 ||
        (progress.shown && !again && seconds_since(&progress.last) < 0.2))
        return;
    clock_gettime(CLOCK_MONOTONIC, &progress.last);
    char d[32], t[64] = "", rate[32] = "";
    human_bytes(done, d, sizeof d);
    if (total) {
        char tt[24];
        human_bytes(total, tt, sizeof tt);
        snprintf(t, sizeof t, " of %s (%.0f%%)", tt, 100.0 * (double)done / (double)total);
    }
    double elapsed = seconds_since(&r->start);
    if (elapsed >= 0.1)
        snprintf(rate, sizeof rate, ", %.0f MB/s", (double)done / 1e6 / elapsed);
    fputs("\r\033[Kfoldsvg: ", stderr);
    cli_put_escaped(stderr, input);
    fprintf(stderr, "%s: %s%s%s", r->again ? " (read again)" : "", d, t, rate);
    if (lines)
        fprintf(stderr, ", %llu lines", (unsigned long long)lines);
    progress.shown = 1;
    cli_progress_visible = 1;
}

void cli_progress_start(void)
{
    clock_gettime(CLOCK_MONOTONIC, &progress.start);
}
