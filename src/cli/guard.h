/* The command line's guards against silent surprises (issue 45): each says, on stderr, what
 * is wrong and what to write instead; each returns nonzero when it said so. None reads or
 * writes a profile. */
#ifndef FOLDSVG_CLI_GUARD_H
#define FOLDSVG_CLI_GUARD_H

/* An unknown option ARG ("--sumary", "-Z"): the message, with the option of the table
 * nearest to it when one is near ("did you mean --summary?"). */
void fs_guard_unknown_option(const char *arg);

/* OPTION ("--title") about to take the next word VALUE as its value: nonzero (reported) when
 * VALUE is one of our options ("-o", "--width=3"), as when a value was left out; the value
 * itself is then written --OPTION=VALUE. LONG_NAME: the option's long name. */
int fs_guard_value(const char *option, const char *long_name, const char *value);

/* OUTPUT named with no --format: nonzero (reported) when its extension is not one foldsvg
 * writes (out.png, out.json): it would otherwise get folded text. */
int fs_guard_output_name(const char *output);

/* Standard output, about to receive FORMAT_NAME ("SVG", "HTML"): nonzero (reported) when it
 * is a terminal, as zstd refuses to write binary to one. */
int fs_guard_terminal_output(const char *format_name);

/* Standard input about to be read as the only input: a hint on stderr when it is a terminal
 * (foldsvg would otherwise wait without a word). QUIET: no hint. */
void fs_guard_terminal_input(int quiet);

#endif
