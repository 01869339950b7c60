/* What the command writes to a terminal: text escaped so that nothing from an input acts on
 * it (foldsvg_terminal_text), and the progress line of long reads, which the next message
 * clears. */
#ifndef FOLDSVG_CLI_TERM_H
#define FOLDSVG_CLI_TERM_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

/* TEXT on F with the bytes a terminal acts on written \xNN. */
void cli_put_escaped(FILE *f, const char *text);
/* "foldsvg: " LINE "\n" on stderr, escaped. */
void cli_say(const char *line);

/* The progress handler (foldsvg_options_set_progress_handler), from cli_progress_start on. */
void cli_progress_start(void);
void cli_on_progress(void *user, const char *input, uint64_t done, uint64_t total, uint64_t lines);
/* Clears the progress line when it is shown. */
void cli_clear_progress(void);
/* Whether the progress line is shown, for a signal handler (which may read nothing else). */
extern volatile sig_atomic_t cli_progress_visible;

#endif
