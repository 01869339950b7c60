#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t fs_grow_cap(size_t cap, size_t need, size_t min, size_t elem)
{
    size_t max = SIZE_MAX / (elem ? elem : 1);
    if (need > max)
        return 0;
    size_t nc = cap ? cap : (min ? min : 1);
    while (nc < need)
        nc = nc > max / 2 ? max : nc * 2;
    return nc;
}

foldsvg_status fs_resize(void *pptr, size_t n, size_t elem)
{
    if (elem && n > SIZE_MAX / elem)
        return FOLDSVG_E_NOMEM;
    /* PPTR points at a T *; object pointers share one representation on every platform the
     * library builds on, so it is read and written as a void *. */
    void *p;
    memcpy(&p, pptr, sizeof p);
    size_t bytes = n * elem;
    void *np = realloc(p, bytes ? bytes : 1);
    if (!np)
        return FOLDSVG_E_NOMEM;
    memcpy(pptr, &np, sizeof np);
    return FOLDSVG_OK;
}

foldsvg_status fs_grow(void *pptr, size_t *cap, size_t need, size_t elem, size_t min)
{
    if (need <= *cap)
        return FOLDSVG_OK;
    size_t nc = fs_grow_cap(*cap, need, min, elem);
    if (nc == 0 || fs_resize(pptr, nc, elem) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    *cap = nc;
    return FOLDSVG_OK;
}

void fs_trim(void *pptr, size_t *cap, size_t n, size_t elem)
{
    if (n >= *cap)
        return;
    void *p;
    memcpy(&p, pptr, sizeof p);
    if (n == 0) {
        free(p);
        p = NULL;
    } else {
        void *np = realloc(p, n * elem); /* n < *cap: the product was checked when it grew */
        if (!np)
            return;
        p = np;
    }
    memcpy(pptr, &p, sizeof p);
    *cap = n;
}
