#include "render/stackdata.h"

#include <stdlib.h>
#include <string.h>

#include "aggregate/tree.h"
#include "analysis/annotation.h"
#include "render/jsonstr.h"
#include "render/xmltext.h"
#include "util/numfmt.h"

/* A tree name as shown: its cleaned bytes (at OFF in one buffer, then at P), its id and its
 * own bytes (RAW). */
typedef struct shown_name {
    const char *p, *raw;
    size_t off, len, rawlen;
    uint32_t id;
} shown_name;

static int same_bytes(const shown_name *x, const shown_name *y)
{
    return x->len == y->len && (x->len == 0 || memcmp(x->p, y->p, x->len) == 0);
}

static int bytes_cmp(const char *x, size_t nx, const char *y, size_t ny)
{
    size_t n = nx < ny ? nx : ny;
    int c = n ? memcmp(x, y, n) : 0;
    if (c)
        return c;
    return nx < ny ? -1 : nx > ny;
}

/* By the name shown, then by the name read (distinct: the tree interns them), so that the
 * order depends on the names alone, never on the order the stacks came in. */
static int shown_cmp(const void *a, const void *b)
{
    const shown_name *x = a, *y = b;
    int c = bytes_cmp(x->p, x->len, y->p, y->len);
    return c ? c : bytes_cmp(x->raw, x->rawlen, y->raw, y->rawlen);
}

/* NAMES and COLORS; INDEX[id] gets each tree name's place in them, RANK[id] its place among
 * the tree's names in that order. */
static foldsvg_status write_names(fs_buf *out, const fs_tree *t, const fs_svg_opts *o,
                                  uint32_t *index, uint32_t *rank)
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
        v[i].raw = p;
        v[i].rawlen = t->name_len[i];
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
            rank[v[i].id] = i;
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

static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* NODES: an iterative pre-order walk, each node's children in name order (RANK; the
 * insertion order would make the bytes depend on the input's order), the subtrees whose SUB
 * is 0 left out. KIDS[START[v]..START[v + 1]) are v's children, as (rank << 32 | node). */
static foldsvg_status write_nodes(fs_buf *out, const fs_tree *t, const uint64_t *sub,
                                  const uint32_t *index, const uint32_t *rank)
{
    uint32_t nn = t->nnodes;
    uint32_t *start = calloc((size_t)nn + 2, sizeof *start);
    uint64_t *kids = malloc((nn ? nn : 1) * sizeof *kids);
    uint32_t *at = malloc((nn ? nn : 1) * sizeof *at);   /* per depth: the next kid */
    uint32_t *end = malloc((nn ? nn : 1) * sizeof *end); /* per depth: past its kids */
    foldsvg_status st = FOLDSVG_E_NOMEM;
    if (start && kids && at && end) {
        for (uint32_t v = 1; v < nn; v++)
            if (sub[v])
                start[t->nodes[v].parent + 2]++;
        for (uint32_t v = 0; v < nn; v++)
            start[v + 2] += start[v + 1];
        for (uint32_t v = 1; v < nn; v++)
            if (sub[v])
                kids[start[t->nodes[v].parent + 1]++] = (uint64_t)rank[t->nodes[v].name] << 32 | v;
        for (uint32_t v = 0; v < nn; v++)
            if (start[v + 1] - start[v] > 1)
                qsort(kids + start[v], start[v + 1] - start[v], sizeof *kids, key_cmp);
        fs_buf_puts(out, ",\"nodes\":[");
        size_t depth = 0;
        if (nn) {
            at[0] = start[0];
            end[0] = start[1];
            depth = 1;
        }
        int first = 1;
        while (depth > 0) {
            if (at[depth - 1] == end[depth - 1]) {
                depth--;
                continue;
            }
            uint32_t v = (uint32_t)kids[at[depth - 1]++];
            if (!first)
                fs_buf_puts(out, ",");
            first = 0;
            put_number(out, depth, 1);
            put_number(out, index[t->nodes[v].name], 1);
            put_number(out, t->nodes[v].count, 0);
            at[depth] = start[v];
            end[depth] = start[v + 1];
            depth++;
        }
        fs_buf_puts(out, "]");
        st = fs_buf_status(out);
    }
    free(start);
    free(kids);
    free(at);
    free(end);
    return st;
}

foldsvg_status fs_stackdata_json(fs_buf *out, const fs_tree *t, const fs_svg_opts *o)
{
    uint32_t nn = t->nnodes;
    uint64_t *sub = malloc((size_t)(nn ? nn : 1) * sizeof *sub);
    uint32_t *index = calloc(t->nnames ? t->nnames : 1, sizeof *index);
    uint32_t *rank = calloc(t->nnames ? t->nnames : 1, sizeof *rank);
    foldsvg_status st = FOLDSVG_E_NOMEM;
    if (sub && index && rank) {
        fs_tree_subtree_sums(t, NULL, sub);
        fs_buf_puts(out, "{\"total\":");
        put_number(out, t->total, 1);
        st = write_names(out, t, o, index, rank);
        if (st == FOLDSVG_OK)
            st = write_nodes(out, t, sub, index, rank);
        if (st == FOLDSVG_OK) {
            fs_buf_puts(out, "}");
            st = fs_buf_status(out);
        }
    }
    free(sub);
    free(index);
    free(rank);
    return st;
}
