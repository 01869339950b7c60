/* The one way arrays grow: capacities double (starting from MIN) until NEED fits, and every
 * count and byte size is checked for overflow, so no caller multiplies sizes by hand. */
#ifndef FOLDSVG_UTIL_GROW_H
#define FOLDSVG_UTIL_GROW_H

#include <stddef.h>

#include "foldsvg.h"

/* The capacity after CAP (0: none yet) that holds NEED elements of ELEM bytes: CAP (or MIN)
 * doubled as often as needed; CAP itself when it already holds NEED. 0 when that many
 * elements would not fit in memory's size_t. */
size_t fs_grow_cap(size_t cap, size_t need, size_t min, size_t elem);

/* Reallocates the array *PPTR (PPTR is the address of a T *, passed as void *) to N elements
 * of ELEM bytes. FOLDSVG_E_NOMEM (the array untouched) when N * ELEM overflows or memory is
 * out. For arrays that grow together (parallel arrays sharing one capacity). */
foldsvg_status fs_resize(void *pptr, size_t n, size_t elem);

/* Makes the array *PPTR of *CAP elements hold at least NEED: fs_grow_cap, then fs_resize.
 * Nothing changes on failure (FOLDSVG_E_NOMEM). */
foldsvg_status fs_grow(void *pptr, size_t *cap, size_t need, size_t elem, size_t min);

/* Gives back the unused capacity of an array that is complete (it will not grow again, or
 * seldom): *CAP becomes N; an empty array is freed (*PPTR NULL). Cannot fail: when the
 * allocator will not shrink it, the array stays as it was. Readers that keep many small
 * tables (one set per profile thread) call it when a table is done, so that what stays
 * follows the data, not the doubling. */
void fs_trim(void *pptr, size_t *cap, size_t n, size_t elem);

/* fs_grow for an array variable ARR (any element type) and its size_t capacity CAP. The
 * common case, room enough, costs a comparison and no call: it sits on per-line paths. NEED
 * is evaluated twice. */
#define FS_GROW(arr, cap, need, min)                                                               \
    ((need) <= (cap) ? FOLDSVG_OK : fs_grow(&(arr), &(cap), (need), sizeof *(arr), (min)))

#endif
