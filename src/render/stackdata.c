#include "render/stackdata.h"

#include <stdlib.h>
#include <string.h>

#include "render/annotation.h"
#include "render/jsonstr.h"
#include "render/numfmt.h"
#include "render/xmltext.h"

/* A tree name as shown: its cleaned bytes (at OFF in one buffer, then at P) and its id. */
typedef struct shown_name {
    const char *p;
    size_t off, len;
    uint32_t id;
} shown_name;

static int same_bytes(const shown_name *x, const shown_name *y)
{
    return x->len == y->len && (x->len == 0 || memcmp(x->p, y->p, x->len) == 0);
}

static int shown_cmp(const void *a, const void *b)
{
    const shown_name *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->p, y->p, n) : 0;
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* NAMES and COLORS; INDEX[id] gets each tree name's place in them. */
static foldsvg_status write_names(fs_buf *out, const fs_tree *t, const fs_svg_opts *o,
                                  uint32_t *index)
{
    fs_buf text = {0};
    shown_name *v = malloc((t->nnames ? t->nnames : 1) * sizeof *v);
    if (!v)
        return FOLDSVG_E_NOMEM;
    for (uint32_t i = 0; i < t->nnames; i++) {
        const char *p = t->name_ptr[i];
        size_t n = fs_deannotated_len(p, t->name_len[i]);
        v[i].off = text.len;
        fs_xml_clean(&text, p, n);
        v[i].len = text.len - v[i].off;
        v[i].id = i;
    }
    foldsvg_status st = fs_buf_status(&text);
    if (st == FOLDSVG_OK) {
        for (uint32_t i = 0; i < t->nnames; i++)
            v[i].p = fs_buf_str(&text) + v[i].off;
        qsort(v, t->nnames, sizeof *v, shown_cmp);
        fs_buf colors = {0};
        uint32_t k = 0;
        fs_buf_puts(out, "\"names\":[");
        for (uint32_t i = 0; i < t->nnames; i++) {
            if (i == 0 || !same_bytes(&v[i], &v[i - 1])) {
                if (i)
                    fs_buf_puts(out, ",");
                fs_json_string(out, v[i].p, v[i].len);
                uint32_t id = v[i].id;
                fs_rgb c = fs_svg_name_rgb(o, NULL, t->name_ptr[id], t->name_len[id]);
                fs_buf_printf(&colors, "%02x%02x%02x", c.r, c.g, c.b);
                k++;
            }
            index[v[i].id] = k - 1;
        }
        fs_buf_puts(out, "],\"colors\":\"");
        fs_buf_append(out, fs_buf_str(&colors), colors.len);
        fs_buf_puts(out, "\"");
        st = fs_buf_status(&colors);
        fs_buf_free(&colors);
    }
    fs_buf_free(&text);
    free(v);
    return st ? st : fs_buf_status(out);
}

static void put_number(fs_buf *out, uint64_t v, int comma)
{
    char num[24];
    size_t n = fs_fmt_u64(num, v);
    if (comma)
        num[n++] = ',';
    fs_buf_append(out, num, n);
}

/* NODES: an iterative pre-order walk, skipping the subtrees whose SUB is 0. */
static void write_nodes(fs_buf *out, const fs_tree *t, const uint64_t *sub, const uint32_t *index)
{
    fs_buf_puts(out, ",\"nodes\":[");
    int first = 1;
    uint32_t v = t->nnodes > 1 ? t->nodes[0].first_child : FS_NONE;
    uint64_t depth = 1;
    while (v != FS_NONE) {
        const fs_node *nd = &t->nodes[v];
        if (sub[v]) {
            if (!first)
                fs_buf_puts(out, ",");
            first = 0;
            put_number(out, depth, 1);
            put_number(out, index[nd->name], 1);
            put_number(out, nd->count, 0);
            if (nd->first_child != FS_NONE) {
                v = nd->first_child;
                depth++;
                continue;
            }
        }
        /* the next sibling, of this node or of the nearest ancestor that has one */
        while (v != FS_NONE && t->nodes[v].next_sibling == FS_NONE) {
            v = t->nodes[v].parent;
            depth--;
            if (v == 0)
                v = FS_NONE;
        }
        if (v != FS_NONE)
            v = t->nodes[v].next_sibling;
    }
    fs_buf_puts(out, "]");
}

foldsvg_status fs_stackdata_json(fs_buf *out, const fs_tree *t, const fs_svg_opts *o)
{
    uint32_t nn = t->nnodes;
    uint64_t *sub = calloc(nn ? nn : 1, sizeof *sub);
    uint32_t *index = calloc(t->nnames ? t->nnames : 1, sizeof *index);
    foldsvg_status st = FOLDSVG_E_NOMEM;
    if (sub && index) {
        /* a node comes after its parent: one backward pass sums every subtree */
        for (uint32_t i = nn; i-- > 1;) {
            sub[i] += t->nodes[i].count;
            sub[t->nodes[i].parent] += sub[i];
        }
        fs_buf_puts(out, "{\"total\":");
        put_number(out, t->total, 1);
        st = write_names(out, t, o, index);
        if (st == FOLDSVG_OK) {
            write_nodes(out, t, sub, index);
            fs_buf_puts(out, "}");
            st = fs_buf_status(out);
        }
    }
    free(sub);
    free(index);
    return st;
}
