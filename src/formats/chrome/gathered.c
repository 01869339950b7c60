/* What a trace event, a sample object or a stack frame gathered (formats/chrome/parser.h),
 * handed to the model at its end: a CPU profile's chunk to its profile, thread and process
 * names, a B/E/X event to its thread. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chrome/parser.h"
#include "util/error.h"

int cr_fail_nomem(parser *p)
{
    fs_json_nomem(&p->j);
    return 0;
}

static foldsvg_status spool_failed(cr_doc *d, foldsvg_status st)
{
    if (st == FOLDSVG_E_NOMEM)
        return fs_error(d->err, st, d->file, "out of memory");
    return fs_error(d->err, st, d->file,
                    "cannot read back a CPU profile's samples from a temporary file: %s",
                    strerror(errno));
}

int cr_fail_spool(parser *p, foldsvg_status st)
{
    return cr_failed(p, spool_failed(p->d, st));
}

int cr_failed(parser *p, foldsvg_status st)
{
    if (st == FOLDSVG_OK)
        return 1;
    fs_json_fail(&p->j, st, "%s", p->d->err ? p->d->err->message : "failed");
    return 0;
}

static int is_name(const fs_buf *b, const char *lit)
{
    return b->len == strlen(lit) && memcmp(b->data, lit, b->len) == 0;
}

/* "pid:tid" of the event into P->text. */
static int pidtid(parser *p)
{
    fs_buf_clear(&p->text);
    fs_buf_printf(&p->text, "%s:%s", p->ev.has_pid ? p->ev.pid.data : "",
                  p->ev.has_tid ? p->ev.tid.data : "");
    return fs_buf_status(&p->text) == FOLDSVG_OK ? 1 : cr_fail_nomem(p);
}

foldsvg_status cr_apply(parser *p, chunk *c, cr_profile *pr)
{
    cr_doc *d = p->d;
    for (size_t i = 0; i < c->n; i++) {
        pnode *n = &c->nodes[i];
        if (n->parent_id == INT64_MIN && n->parent != CR_NONE)
            n->parent_id = c->nodes[n->parent].id;
        cr_frame_name(&p->text, n->fn, n->fn_len, n->url, n->url_len, n->has_line, n->line);
        if (fs_buf_status(&p->text))
            return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
        uint32_t name;
        FS_FORWARD_IF_ERROR(cr_intern(d, p->text.data, p->text.len, &name));
        FS_FORWARD_IF_ERROR(cr_profile_node(
            d, pr, n->id, n->parent_id, name,
            cr_node_flags(n->fn ? n->fn : "", n->fn_len, n->url ? n->url : "", n->url_len)));
    }
    for (size_t i = 0; i < c->nkids; i++)
        FS_FORWARD_IF_ERROR(
            cr_profile_child(d, pr, c->nodes[c->kids[2 * i]].id, c->kids[2 * i + 1]));
    /* the samples and deltas a block of each at a time, so that the profile pairs them as
     * they come (it queues the unpaired ones) */
    for (;;) {
        const void *ids, *deltas;
        size_t nids, ndeltas;
        foldsvg_status st = fs_spool_next(&c->ids, &ids, &nids);
        if (st == FOLDSVG_OK)
            st = fs_spool_next(&c->deltas, &deltas, &ndeltas);
        if (st)
            return spool_failed(d, st);
        if (!nids && !ndeltas)
            return FOLDSVG_OK;
        if (nids)
            FS_FORWARD_IF_ERROR(cr_profile_samples(d, pr, ids, nids));
        if (ndeltas)
            FS_FORWARD_IF_ERROR(cr_profile_deltas(d, pr, deltas, ndeltas));
    }
}

int cr_end_event(parser *p)
{
    event *e = &p->ev;
    cr_doc *d = p->d;
    int bex = e->ph == 'B' || e->ph == 'E' || e->ph == 'X';
    if (!e->has_name && !bex)
        return 1;
    int profile = e->has_name && is_name(&e->name, "Profile"),
        chunk_ev = e->has_name && is_name(&e->name, "ProfileChunk"),
        whole = e->has_name && is_name(&e->name, "CpuProfile");
    int meta = e->has_name && e->has_arg_name &&
               (is_name(&e->name, "thread_name") || is_name(&e->name, "process_name"));
    if (!profile && !chunk_ev && !whole && !meta && (!bex || !e->has_ts || d->has_cpu_events))
        return 1; /* nothing read uses it: its pid and tid are not looked at */
    if (!pidtid(p))
        return 0;
    if (profile || chunk_ev || whole) {
        if (!d->has_cpu_events) {
            /* a CPU profile: the trace events are not what is read */
            d->has_cpu_events = 1;
            if (!cr_failed(p, cr_doc_drop_events(d)))
                return 0;
        }
        cr_profile *pr;
        const char *key = e->has_id ? e->id.data : p->text.data;
        if (!cr_failed(p, cr_profile_get(d, key, NULL, 1, &pr)))
            return 0;
        if (!chunk_ev && !pr->declared) {
            pr->declared = 1;
            if (!pr->pidtid && !(pr->pidtid = strdup(p->text.data)))
                return cr_fail_nomem(p);
        }
        return cr_failed(p, cr_apply(p, &p->ev_chunk, pr));
    }
    if (e->has_name && e->has_arg_name && is_name(&e->name, "thread_name"))
        return cr_failed(p, cr_name_thread(d, p->text.data, e->arg_name.data, e->arg_name.len));
    if (e->has_name && e->has_arg_name && e->ph == 'M' && is_name(&e->name, "process_name"))
        return cr_failed(p, cr_name_process(d, e->has_pid ? e->pid.data : "", e->arg_name.data,
                                            e->arg_name.len));
    if ((e->ph != 'B' && e->ph != 'E' && e->ph != 'X') || !e->has_ts || d->has_cpu_events)
        return 1;
    cr_thread *t;
    uint32_t name;
    if (!cr_failed(p, cr_thread_get(d, p->text.data, e->pidn, e->tidn, &t)) ||
        !cr_failed(p, e->has_name && e->name.len ? cr_intern(d, e->name.data, e->name.len, &name)
                                                 : cr_intern(d, "(unnamed)", 9, &name)))
        return 0;
    double dur = e->has_dur ? e->dur : e->has_tdur ? e->tdur : 0;
    return cr_failed(p, cr_thread_event(d, t, e->ph, e->ts, e->ph == 'X' ? dur : -1, name));
}

int cr_end_sample(parser *p)
{
    event *e = &p->ev;
    if (!e->has_sf || !pidtid(p))
        return p->j.ecode == FOLDSVG_OK;
    cr_thread *t;
    if (!cr_failed(p, cr_thread_get(p->d, p->text.data, e->pidn, e->tidn, &t)))
        return 0;
    return cr_failed(p, cr_thread_sample(p->d, t, e->sf.data, e->sf.len, e->has_ts ? e->ts : 0));
}

int cr_end_stackframe(parser *p)
{
    uint32_t name;
    const char *nm = p->has_sf_name ? p->sf_name.data : "";
    size_t len = p->has_sf_name ? p->sf_name.len : 0;
    if (!cr_failed(p, cr_intern(p->d, nm, len, &name)))
        return 0;
    /* speedscope follows parents while they are truthy: 0 ends a stack as no parent does */
    int parent = p->has_sf_parent && !(p->sf_parent.len == 1 && p->sf_parent.data[0] == '0');
    return cr_failed(p, cr_stackframe_set(p->d, p->sfkey.data ? p->sfkey.data : "", p->sfkey.len,
                                          name, parent ? p->sf_parent.data : NULL,
                                          parent ? p->sf_parent.len : 0));
}
