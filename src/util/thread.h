/* Threads of the library: created with every signal blocked, so that the application's
 * handlers run only on its own threads. A handler that removes pending output files
 * (foldsvg_remove_pending_outputs) must not run on a worker while the thread that creates
 * such a file has the signals blocked around its registration (util/outfile.c). */
#ifndef FOLDSVG_UTIL_THREAD_H
#define FOLDSVG_UTIL_THREAD_H

#include <pthread.h>

/* pthread_create's result (0 or an error number). */
int fs_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
