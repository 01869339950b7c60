/* Temporary files that must not outlive an interrupted run: the hidden files of atomic
 * outputs (util/outfile.c) are registered here while they exist, and a signal handler
 * removes them all with fs_pending_remove_all. The library installs no handler: the
 * application does (the CLI: src/cli/main.c), through foldsvg_remove_pending_outputs.
 *
 * fs_pending_remove_all is async-signal-safe: it reads lock-free atomics and calls
 * unlink(2), nothing else. Registration takes no lock either (a handler may interrupt it):
 * slots live in blocks that are never freed, appended with compare-and-swap, and a slot's
 * path stays valid until its owner has taken the slot back, which waits for a handler
 * removing that very file on another thread. */
#ifndef FOLDSVG_UTIL_PENDING_H
#define FOLDSVG_UTIL_PENDING_H

typedef struct fs_pending_slot fs_pending_slot;

/* Registers PATH, which must stay valid until fs_pending_remove. NULL when out of memory:
 * the file is then not removed on a signal (nothing else changes). */
fs_pending_slot *fs_pending_add(const char *path);
/* Takes the slot back (NULL is fine): the file is renamed or removed by its owner. */
void fs_pending_remove(fs_pending_slot *slot);
/* Removes every registered file; how many. Async-signal-safe. */
int fs_pending_remove_all(void);

#endif
