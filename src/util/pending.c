#include "util/pending.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* A handler must never wait for a lock: only lock-free atomics will do. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2,
               "signal-safe cleanup needs lock-free atomics");

enum { SLOTS_PER_BLOCK = 32 };

/* A slot's life: FREE -> TAKEN (its owner fills it) -> LIVE -> FREE, or, when a handler
 * removes the file, LIVE -> REMOVING -> REMOVED -> FREE (the owner takes it back). */
enum { FREE, TAKEN, LIVE, REMOVING, REMOVED };

struct fs_pending_slot {
    atomic_int state;
    const char *path;
};

typedef struct block {
    fs_pending_slot slot[SLOTS_PER_BLOCK];
    struct block *_Atomic next;
} block;

static block first;

fs_pending_slot *fs_pending_add(const char *path)
{
    for (block *b = &first;;) {
        for (int i = 0; i < SLOTS_PER_BLOCK; i++) {
            fs_pending_slot *s = &b->slot[i];
            int expected = FREE;
            if (atomic_compare_exchange_strong(&s->state, &expected, TAKEN)) {
                s->path = path;
                atomic_store(&s->state, LIVE); /* the path is seen before the state */
                return s;
            }
        }
        block *next = atomic_load(&b->next);
        if (!next) {
            block *nb = calloc(1, sizeof *nb);
            if (!nb)
                return NULL;
            if (!atomic_compare_exchange_strong(&b->next, &next, nb))
                free(nb); /* another thread appended one: NEXT is it */
            else
                next = nb;
        }
        b = next;
    }
}

void fs_pending_remove(fs_pending_slot *s)
{
    if (!s)
        return;
    for (;;) {
        int expected = LIVE;
        if (atomic_compare_exchange_strong(&s->state, &expected, TAKEN))
            break;
        if (expected == REMOVED && atomic_compare_exchange_strong(&s->state, &expected, TAKEN))
            break;
        /* REMOVING: a handler on another thread is unlinking the file right now (on this
         * thread it would have finished before we run again). */
        sched_yield();
    }
    s->path = NULL;
    atomic_store(&s->state, FREE);
}

int fs_pending_remove_all(void)
{
    int n = 0;
    for (block *b = &first; b; b = atomic_load(&b->next)) {
        for (int i = 0; i < SLOTS_PER_BLOCK; i++) {
            fs_pending_slot *s = &b->slot[i];
            int expected = LIVE;
            if (!atomic_compare_exchange_strong(&s->state, &expected, REMOVING))
                continue;
            if (unlink(s->path) == 0)
                n++;
            atomic_store(&s->state, REMOVED);
        }
    }
    return n;
}
