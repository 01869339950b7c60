#include "analysis/findings.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotation.h"
#include "analysis/delta.h"
#include "analysis/deltatables.h"
#include "analysis/findrule.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/regex.h"

const char *const fs_rule_ids[] = {"callees",           "bottleneck", "memory-copy", "precompile",
                                   "software-fallback", "setup",      NULL};

/* ---- the rules ----------------------------------------------------------------------------- */

/* A Rust legacy hash may end any name (unless --strip-rust-hash took it). */
#define END "(?:::h[0-9a-f]{16})?$"
#define SYSCALL(s) "(?:^|::)syscall_" s

/* Wording: {fn} the function, {value} its measure with the unit, {share} the measure's share
 * of the total, {self} and {selfvalue} its self time, {related} the callees, callers or
 * syscalls named (each with its ratio of the value, or its change), {family}, {syscall},
 * {base} the callers' time, {ratio} self / base; {?}...{/} only when the finding is flagged;
 * `code` is code. Numbers first, advice second. */
static const rule_row rules[] = {
    {FS_RULE_CALLEES, 20, .self_max = 2, .related_min = 10, .pass_through = 66, .max = 5,
     .say = "{fn}: {share} inclusive ({value}), {self} self; callees {related} of it: drill in",
     .say_change = "{fn}: inclusive {value}, self {selfvalue}; in callees {related}: drill in"},
    {FS_RULE_BOTTLENECK, 5, .spine = 90, .max = 5, .general = 1,
     .say = "{fn}: {share} self ({value}): its own code; make it cheaper or call it less",
     .say_change = "{fn}: self {value} ({share} of the total): the change is in its own code"},
    {FS_RULE_MEMORY_COPY, 1,
     "(?:^|::)_*(?:GI_+)?(?:aeabi_)?mem(?:cpy|move|set)(?:_chk|_[a-z0-9_]+)?(?:@plt)?" END,
     .hint = "mem", .gate = G_SELF, .related_cover = 80, .max = 6,
     .say = "{fn}: {share} self ({value}); callers {related}: the call site is the real cost",
     .say_change = "{fn}: self {value}; callers {related}: the call site is the real cost"},
    {FS_RULE_PRECOMPILE, 50, SYSCALL("[a-z0-9_]+") END,
     SYSCALL("(?:halt|write|read|hint_[a-z_]*|commit[a-z_]*|enter_unconstrained|"
             "exit_unconstrained|verify_sp1_proof)") END,
     .hint = "syscall_", .max = 12,
     .say = "{fn}: {value} ({share}); callers {related}{?}; self {selfvalue} is {ratio} of its "
            "callers' {base}: a precompile's own time should be small{/}",
     .say_change = "{fn}: {value}; callers {related}"},
#define FALLBACK(fam, hint_, re, sys, shown)                                                       \
    {                                                                                              \
        FS_RULE_SOFTWARE_FALLBACK, 5, re, "syscall_", hint_, G_NONE, fam, sys, shown,              \
            .max = 8,                                                                              \
            .say = "{family} in software: {share} inclusive ({value}), most in {fn}; precompiles " \
                   "{syscall}: {related}; is the patched crate in use? check `cargo tree`",        \
            .say_change = "{family} in software: inclusive {value}, most in {fn}; precompiles "    \
                          "{syscall}: {related}; is the patched crate in use? check `cargo tree`"  \
    }
    FALLBACK("keccak", "keccak|p1600", "keccakf|keccak_?f1600|keccak_?p1600|(?:^|::)p1600\\b",
             SYSCALL("keccak_permute") END, "syscall_keccak_permute"),
    FALLBACK("sha256", "sha2|compress256",
             "(?:sha256|sha2).*(?:compress|soft|transform|process_block)|compress256",
             SYSCALL("sha256_(?:extend|compress)") END, "syscall_sha256_*"),
    FALLBACK("secp256k1", "k256|secp256k1",
             "(?:k256|secp256k1).*(?:field|scalar|arithmetic|projective|affine|point|invert|sqrt)",
             SYSCALL("secp256k1_[a-z_]+") END, "syscall_secp256k1_*"),
    FALLBACK("secp256r1", "p256|secp256r1",
             "(?:p256|secp256r1).*(?:field|scalar|arithmetic|projective|affine)",
             SYSCALL("secp256r1_[a-z_]+") END, "syscall_secp256r1_*"),
    FALLBACK("bn254", "bn", "bn254|substrate_bn|(?:^|[^a-z0-9_])bn::(?:fields|groups|arith)",
             SYSCALL("bn254_[a-z0-9_]+") END, "syscall_bn254_*"),
    FALLBACK("bls12-381", "bls12", "bls12_?381", SYSCALL("bls12381_[a-z0-9_]+") END,
             "syscall_bls12381_*"),
    FALLBACK("ed25519", "25519", "curve25519_dalek|ed25519", SYSCALL("ed_(?:add|decompress)") END,
             "syscall_ed_*"),
#undef FALLBACK
    {FS_RULE_SETUP, 10,
     "(?:^|::|\\.|_)(?:new|init|initialize|reset|default|clone|with_capacity)(?:_[a-z0-9_]*)?"
     "(?:<[^>]*>)?" END
     "|(?:^|::)(?:__rust_(?:alloc|alloc_zeroed|realloc)|__r[dg]l_(?:alloc|alloc_zeroed|realloc)|"
     "malloc|calloc|realloc|posix_memalign|aligned_alloc|sys_alloc_aligned|alloc|alloc_zeroed|"
     "allocate|allocate_in|grow_amortized|grow_one|reserve|reserve_for_push|try_reserve)" END,
     .gate = G_INCL, .spine = 90, .max = 5,
     .say = "{fn}: {share} inclusive ({value}): construction or initialization; build it once "
            "and reuse it",
     .say_change = "{fn}: inclusive {value}: construction or initialization"},
};

#define NRULES (sizeof rules / sizeof rules[0])
/* rows_of keeps a rule's bit at R and its family's syscall bit at R + 16 */
_Static_assert(NRULES <= 16, "rows_of has room for 16 rules");
#undef END
#undef SYSCALL

double fs_rule_threshold(const fs_thresholds *th, int rule)
{
    if (th && rule >= 0 && rule < FS_RULE_COUNT && (th->set & (1u << rule)))
        return th->pct[rule];
    for (size_t i = 0; i < NRULES; i++)
        if (rules[i].rule == rule)
            return rules[i].threshold;
    return 0;
}

const char *fs_finding_family(const fs_finding *f)
{
    const char *fam = ((const rule_row *)f->row)->family;
    return fam ? fam : "";
}

const char *fs_finding_rule(const fs_finding *f)
{
    return fs_rule_ids[f->rule];
}

/* ---- values -------------------------------------------------------------------------------- */

/* BEFORE's COUNT as it is compared: per iteration, scaled (--normalize). */
static long double before_value(const fs_findings *fs, uint64_t count)
{
    long double b = fs_delta_scaled(count, fs->per_before);
    return fs->scale > 0 ? b * fs->scale : b;
}

long double fs_finding_value(const fs_findings *fs, const fs_finding_item *it)
{
    long double a = fs_delta_scaled(it->after, fs->per_after);
    return fs->diff ? a - before_value(fs, it->before) : a;
}

static long double base_total(const fs_findings *fs)
{
    long double b = fs->diff ? before_value(fs, fs->total_before) : 0;
    return b > 0 ? b : fs_delta_scaled(fs->total_after, fs->per_after);
}

double fs_finding_share(const fs_findings *fs, const fs_finding_item *it)
{
    long double t = base_total(fs);
    return t > 0 ? (double)(100.0L * fs_finding_value(fs, it) / t) : 0.0;
}

/* |A| as a percent of |B| (0 when B is 0). */
static double ratio(long double a, long double b)
{
    return b != 0 ? (double)(100.0L * fabsl(a) / fabsl(b)) : 0.0;
}

/* ---- the computation ----------------------------------------------------------------------- */

enum { NO_SLOT = UINT32_MAX };

/* A candidate: a name that passed its rule's test on the names' sums and waits for the walk
 * (its callees, callers, family time). */
typedef struct cand {
    size_t row;
    uint32_t name;
    fs_finding_item base; /* precompile: callers' time; software-fallback: the family's */
    uint32_t related[FS_FINDING_RELATED];
    fs_finding_item rel[FS_FINDING_RELATED];
    size_t nrel;
    int drop;
} cand;

/* What one node gives a candidate: REL (a callee or a caller) and counts. */
typedef struct contrib {
    uint32_t cand, rel;
    uint64_t before, after;
} contrib;

typedef struct engine {
    const fs_tree *t;
    fs_findings *out;
    const fs_thresholds *th;
    uint64_t *self_b, *incl_b, *self_a, *incl_a; /* per name */
    uint64_t *sub_b, *sub_a;                     /* per node */
    uint32_t *rows_of;                           /* per name: the rows whose MATCH it passes */
    uint32_t *slot; /* per name, 3 arrays: callees, memory-copy, precompile candidates */
    cand *cands;
    size_t ncands, cands_cap;
    contrib *contribs;
    size_t ncontribs, contribs_cap;
    fs_finding_item fam[NRULES]; /* software-fallback rows: the family's union time */
} engine;

static fs_finding_item item(const engine *e, uint32_t name, const uint64_t *b, const uint64_t *a)
{
    return (fs_finding_item){e->t->name_ptr[name], e->t->name_len[name], b[name], a[name]};
}

static double share_of(const engine *e, fs_finding_item it)
{
    return fs_finding_share(e->out, &it);
}

static long double value_of(const engine *e, fs_finding_item it)
{
    return fs_finding_value(e->out, &it);
}

/* Whether S[0..n) holds W[0..wn) (memmem is not C11). */
static int contains(const char *s, size_t n, const char *w, size_t wn)
{
    for (const char *p = s, *end = s + n; wn && (size_t)(end - p) >= wn;) {
        p = memchr(p, w[0], (size_t)(end - p) - wn + 1);
        if (!p)
            return 0;
        if (memcmp(p, w, wn) == 0)
            return 1;
        p++;
    }
    return 0;
}

/* Whether LOWER[0..n) (a name in lowercase) holds one of the '|'-separated WORDS. */
static int holds(const char *lower, size_t n, const char *words)
{
    while (*words) {
        size_t w = strcspn(words, "|");
        if (contains(lower, n, words, w))
            return 1;
        words += w + (words[w] == '|');
    }
    return 0;
}

/* Which rows match each sampled name, for the names a row's hint and gate let through (most
 * names meet no pattern: a name is lowercased once and its hints looked up in it). */
static foldsvg_status match_names(engine *e, foldsvg_error *err)
{
    const fs_tree *t = e->t;
    pcre2_code *code[NRULES][3];
    memset(code, 0, sizeof code);
    double min[NRULES];
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    foldsvg_status st = md ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    for (size_t r = 0; r < NRULES && st == FOLDSVG_OK; r++) {
        const char *pat[3] = {rules[r].match, rules[r].unless, rules[r].syscall};
        min[r] = fs_rule_threshold(e->th, rules[r].rule);
        for (int k = 0; k < 3 && st == FOLDSVG_OK; k++)
            if (pat[k])
                st = fs_regex_compile_jit(&code[r][k], fs_rule_ids[rules[r].rule], pat[k],
                                          PCRE2_CASELESS, err);
    }
    fs_buf lower = {0};
    for (uint32_t i = 1; i < t->nnames && st == FOLDSVG_OK; i++) {
        if (!e->incl_a[i] && !e->incl_b[i])
            continue;
        const char *name = t->name_ptr[i];
        size_t n = fs_deannotated_len(name, t->name_len[i]);
        fs_buf_clear(&lower);
        fs_buf_append(&lower, name, n);
        if ((st = fs_buf_status(&lower)) != FOLDSVG_OK)
            break;
        for (size_t k = 0; k < n; k++)
            lower.data[k] = (char)tolower((unsigned char)lower.data[k]);
        double self = fabs(share_of(e, item(e, i, e->self_b, e->self_a)));
        double incl = fabs(share_of(e, item(e, i, e->incl_b, e->incl_a)));
        int syscall = holds(lower.data, n, "syscall_");
        for (size_t r = 0; r < NRULES && st == FOLDSVG_OK; r++) {
            const rule_row *row = &rules[r];
            if (!row->match || (row->gate == G_SELF && self < min[r]) ||
                (row->gate == G_INCL && incl < min[r]))
                continue;
            int m = !row->hint || holds(lower.data, n, row->hint)
                        ? fs_regex_match(code[r][0], name, n, md, NULL)
                        : 0;
            if (m > 0 && code[r][1])
                m = fs_regex_match(code[r][1], name, n, md, NULL) > 0 ? 0 : m;
            if (m > 0)
                e->rows_of[i] |= 1u << r;
            /* a family's syscalls: marked with the row's bit in the upper half */
            if (m == 0 && code[r][2] && syscall &&
                fs_regex_match(code[r][2], name, n, md, NULL) > 0)
                e->rows_of[i] |= 1u << (r + 16);
            if (m < 0)
                st = FOLDSVG_E_NOMEM;
        }
    }
    fs_buf_free(&lower);
    for (size_t r = 0; r < NRULES; r++)
        for (int k = 0; k < 3; k++)
            pcre2_code_free(code[r][k]);
    pcre2_match_data_free(md);
    return st;
}

static foldsvg_status add_cand(engine *e, size_t row, uint32_t name, int kind)
{
    if (FS_GROW(e->cands, e->cands_cap, e->ncands + 1, 16) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    e->cands[e->ncands] = (cand){.row = row, .name = name};
    if (kind >= 0)
        e->slot[(size_t)kind * e->t->nnames + name] = (uint32_t)e->ncands;
    e->ncands++;
    return FOLDSVG_OK;
}

enum { K_CALLEES, K_COPY, K_PRECOMPILE };

/* The tests on the names' sums; rules that need the tree become candidates. */
static foldsvg_status pick(engine *e)
{
    const fs_tree *t = e->t;
    for (size_t r = 0; r < NRULES; r++) {
        const rule_row *row = &rules[r];
        double min = fs_rule_threshold(e->th, row->rule);
        if (row->rule == FS_RULE_SOFTWARE_FALLBACK) {
            FS_FORWARD_IF_ERROR(add_cand(e, r, 0, -1)); /* decided after the walk */
            continue;
        }
        for (uint32_t i = 1; i < t->nnames; i++) {
            if ((!e->incl_a[i] && !e->incl_b[i]) || (row->match && !(e->rows_of[i] & (1u << r))))
                continue;
            double self = fabs(share_of(e, item(e, i, e->self_b, e->self_a)));
            double incl = fabs(share_of(e, item(e, i, e->incl_b, e->incl_a)));
            int kind = -1, take = 0;
            switch (row->rule) {
            case FS_RULE_CALLEES:
                take = incl >= min && self < row->self_max;
                kind = K_CALLEES;
                break;
            case FS_RULE_BOTTLENECK:
                take = self >= min && self > 0 && incl < row->spine;
                break;
            case FS_RULE_MEMORY_COPY:
                take = self >= min && self > 0;
                kind = K_COPY;
                break;
            case FS_RULE_PRECOMPILE:
                take = 1; /* every syscall seen, with its cycles */
                kind = K_PRECOMPILE;
                break;
            case FS_RULE_SETUP:
                take = incl >= min && incl > 0 && incl < row->spine;
                break;
            }
            if (take)
                FS_FORWARD_IF_ERROR(add_cand(e, r, i, kind));
        }
    }
    return FOLDSVG_OK;
}

static foldsvg_status give(engine *e, uint32_t c, uint32_t rel, uint64_t b, uint64_t a)
{
    if (c == NO_SLOT || (!a && !b))
        return FOLDSVG_OK;
    if (FS_GROW(e->contribs, e->contribs_cap, e->ncontribs + 1, 256) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    e->contribs[e->ncontribs++] = (contrib){c, rel, b, a};
    return FOLDSVG_OK;
}

/* One depth-first walk: callees at the outermost run of each callees candidate, callers of
 * copies and syscalls, and the union time of each fallback family (a stack once however many
 * of its routines it holds). */
static foldsvg_status walk(engine *e)
{
    const fs_tree *t = e->t;
    uint32_t nn = t->nnames;
    uint32_t *onpath = calloc(nn ? nn : 1, sizeof *onpath);
    uint32_t *run = NULL; /* per depth: how many frames of the same name end there */
    size_t run_cap = 0;
    uint32_t famdepth[NRULES] = {0};
    foldsvg_status st = onpath ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    uint32_t n = st == FOLDSVG_OK && t->nnodes > 1 ? t->nodes[0].first_child : FS_NONE;
    size_t d = 0;
    /* a single profile reads no first counts, even where the tree has them */
    const uint64_t *own_b = e->out->diff ? t->before : NULL, *sa = e->sub_a;
    /* outside a diff BEFORE is all zeros: not read, so its pages are never touched */
    const uint64_t *sbv = e->out->diff ? e->sub_b : NULL;
#define SB(i) (sbv ? sbv[i] : 0)
    uint32_t fam_rows = 0;
    for (size_t r = 0; r < NRULES; r++)
        if (rules[r].rule == FS_RULE_SOFTWARE_FALLBACK)
            fam_rows |= 1u << r;
    while (n != FS_NONE && st == FOLDSVG_OK) {
        const fs_node *nd = &t->nodes[n];
        uint32_t name = nd->name, p = nd->parent, pname = t->nodes[p].name;
        if (FS_GROW(run, run_cap, d + 1, 64) != FOLDSVG_OK) {
            st = FOLDSVG_E_NOMEM;
            break;
        }
        run[d] = d > 0 && pname == name ? run[d - 1] + 1 : 1;
        if (d > 0) {
            uint32_t c = e->slot[(size_t)K_CALLEES * nn + pname];
            if (c != NO_SLOT && name != pname && onpath[pname] == run[d - 1])
                st = give(e, c, name, SB(n), sa[n]);
            c = e->slot[(size_t)K_COPY * nn + name];
            if (st == FOLDSVG_OK)
                st = give(e, c, pname, own_b ? own_b[n] : 0, nd->count);
            c = e->slot[(size_t)K_PRECOMPILE * nn + name];
            if (st == FOLDSVG_OK && c != NO_SLOT && onpath[name] == 0 && pname != name) {
                st = give(e, c, pname, SB(n), sa[n]);
                e->cands[c].base.before += SB(p);
                e->cands[c].base.after += sa[p];
            }
        }
        uint32_t bits = e->rows_of[name] & fam_rows;
        for (size_t r = 0; bits && r < NRULES; r++) {
            if (!(bits & (1u << r)))
                continue;
            if (famdepth[r]++ == 0) {
                e->fam[r].before += SB(n);
                e->fam[r].after += sa[n];
            }
        }
        onpath[name]++;
        if (nd->first_child != FS_NONE && (sa[n] || SB(n))) {
            n = nd->first_child;
            d++;
            continue;
        }
        for (;;) {
            uint32_t left = t->nodes[n].name;
            onpath[left]--;
            uint32_t left_bits = e->rows_of[left] & fam_rows;
            for (size_t r = 0; left_bits && r < NRULES; r++)
                if (left_bits & (1u << r))
                    famdepth[r]--;
            if (t->nodes[n].next_sibling != FS_NONE) {
                n = t->nodes[n].next_sibling;
                break;
            }
            n = t->nodes[n].parent;
            if (n == 0) {
                n = FS_NONE;
                break;
            }
            d--;
        }
    }
#undef SB
    free(onpath);
    free(run);
    return st;
}

static int name_cmp(const fs_finding_item *x, const fs_finding_item *y)
{
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->name, y->name, n) : 0;
    return c ? c : (x->len < y->len ? -1 : x->len > y->len);
}

/* Whether X goes before Y in a ranking by |value|, ties by name. */
static int ranks_before(const engine *e, fs_finding_item x, fs_finding_item y)
{
    long double vx = fabsl(value_of(e, x)), vy = fabsl(value_of(e, y));
    return vx != vy ? vx > vy : name_cmp(&x, &y) < 0;
}

/* Keeps REL among C's heaviest related items. */
static void offer(const engine *e, cand *c, uint32_t name, fs_finding_item rel)
{
    size_t k = c->nrel;
    while (k > 0 && ranks_before(e, rel, c->rel[k - 1]))
        k--;
    if (k >= FS_FINDING_RELATED)
        return;
    size_t last = c->nrel < FS_FINDING_RELATED ? c->nrel : FS_FINDING_RELATED - 1;
    for (size_t i = last; i > k; i--) {
        c->rel[i] = c->rel[i - 1];
        c->related[i] = c->related[i - 1];
    }
    c->rel[k] = rel;
    c->related[k] = name;
    if (c->nrel < FS_FINDING_RELATED)
        c->nrel++;
}

/* The contributions summed per (candidate, related name), each candidate's heaviest kept: a
 * counting sort by candidate, then per candidate one dense sum per name (STAMP says which
 * candidate last wrote a name's sum), so the cost stays linear in the contributions. */
static foldsvg_status gather(engine *e)
{
    size_t nc = e->ncands, nn = e->t->nnames ? e->t->nnames : 1;
    size_t *start = calloc(nc + 1, sizeof *start);
    uint32_t *order = malloc((e->ncontribs ? e->ncontribs : 1) * sizeof *order);
    uint32_t *stamp = calloc(nn, sizeof *stamp), *used = malloc(nn * sizeof *used);
    uint64_t *acc = malloc(2 * nn * sizeof *acc);
    foldsvg_status st = start && order && stamp && used && acc ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    for (size_t i = 0; st == FOLDSVG_OK && i < e->ncontribs; i++)
        start[e->contribs[i].cand + 1]++;
    for (size_t c = 0; st == FOLDSVG_OK && c < nc; c++)
        start[c + 1] += start[c];
    for (size_t i = 0; st == FOLDSVG_OK && i < e->ncontribs; i++)
        order[start[e->contribs[i].cand]++] = (uint32_t)i;
    /* START[c] is now the end of candidate c's run, and the start of c + 1's */
    for (size_t c = 0, from = 0; st == FOLDSVG_OK && c < nc; from = start[c++]) {
        size_t nused = 0;
        for (size_t k = from; k < start[c]; k++) {
            const contrib *x = &e->contribs[order[k]];
            if (stamp[x->rel] != c + 1) {
                stamp[x->rel] = (uint32_t)(c + 1);
                acc[2 * x->rel] = acc[2 * x->rel + 1] = 0;
                used[nused++] = x->rel;
            }
            acc[2 * x->rel] += x->before;
            acc[2 * x->rel + 1] += x->after;
        }
        for (size_t k = 0; k < nused; k++) {
            uint32_t r = used[k];
            fs_finding_item rel = {e->t->name_ptr[r], e->t->name_len[r], acc[2 * r],
                                   acc[2 * r + 1]};
            offer(e, &e->cands[c], r, rel);
        }
    }
    free(start);
    free(order);
    free(stamp);
    free(used);
    free(acc);
    return st;
}

/* The finding of candidate C, or 0 when the rule's second tests drop it. */
static int finish(engine *e, cand *c, fs_finding *f)
{
    const rule_row *row = &rules[c->row];
    memset(f, 0, sizeof *f);
    f->rule = row->rule;
    f->row = row;
    uint32_t i = c->name;
    switch (row->rule) {
    case FS_RULE_CALLEES: {
        f->fn = item(e, i, e->incl_b, e->incl_a);
        f->self = item(e, i, e->self_b, e->self_a);
        long double v = value_of(e, f->fn);
        size_t k = 0;
        while (k < c->nrel && ratio(value_of(e, c->rel[k]), v) >= row->related_min)
            k++;
        if (k == 0)
            return 0; /* spread over many callees: nothing to drill into */
        if (ratio(value_of(e, c->rel[0]), v) >= row->pass_through &&
            e->slot[(size_t)K_CALLEES * e->t->nnames + c->related[0]] != NO_SLOT)
            return 0; /* a pass-through: its callee's finding says it */
        c->nrel = k;
        break;
    }
    case FS_RULE_BOTTLENECK:
        f->fn = item(e, i, e->self_b, e->self_a);
        break;
    case FS_RULE_MEMORY_COPY: {
        f->fn = item(e, i, e->self_b, e->self_a);
        long double v = value_of(e, f->fn), sum = 0;
        size_t k = 0;
        while (k < c->nrel && ratio(sum, v) < row->related_cover)
            sum += value_of(e, c->rel[k++]);
        c->nrel = k;
        break;
    }
    case FS_RULE_PRECOMPILE:
        f->fn = item(e, i, e->incl_b, e->incl_a);
        f->self = item(e, i, e->self_b, e->self_a);
        f->base = c->base;
        f->flagged = !e->out->diff && f->base.after &&
                     ratio(value_of(e, f->self), value_of(e, f->base)) >=
                         fs_rule_threshold(e->th, row->rule);
        break;
    case FS_RULE_SOFTWARE_FALLBACK: {
        size_t r = c->row;
        fs_finding_item fam = e->fam[r];
        long double v = value_of(e, fam);
        /* in a diff, routines that grew: a fallback explains a slowdown (a speedup from a
         * precompile shows as the syscall's precompile finding) */
        if (fabs(share_of(e, fam)) < fs_rule_threshold(e->th, row->rule) || v <= 0)
            return 0;
        uint64_t sys = 0;
        int best = -1;
        c->nrel = 0;
        for (uint32_t k = 1; k < e->t->nnames; k++) {
            uint32_t bits = e->rows_of[k];
            const uint64_t *side = e->incl_a;
            if (bits & (1u << (r + 16))) {
                sys += side[k];
                offer(e, c, k, item(e, k, e->incl_b, e->incl_a));
            } else if ((bits & (1u << r)) && (best < 0 || side[k] > side[best])) {
                best = (int)k;
            }
        }
        /* a family whose precompile ran is not computed in software for want of the
         * patched crate: what is left of it in software is not this finding's to explain */
        if (best < 0 || sys > 0)
            return 0;
        f->fn = fam;
        f->fn.name = e->t->name_ptr[best];
        f->fn.len = e->t->name_len[best];
        break;
    }
    case FS_RULE_SETUP:
        f->fn = item(e, i, e->incl_b, e->incl_a);
        break;
    }
    f->nrelated = c->nrel;
    memcpy(f->related, c->rel, c->nrel * sizeof *c->rel);
    return 1;
}

static int finding_cmp_ctx(const engine *e, const fs_finding *x, const fs_finding *y)
{
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    if (ranks_before(e, x->fn, y->fn))
        return -1;
    return ranks_before(e, y->fn, x->fn) ? 1 : 0;
}

/* qsort has no context: the findings are few, so an insertion sort does. */
static void sort_findings(const engine *e, fs_finding *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        fs_finding x = v[i];
        size_t k = i;
        while (k > 0 && finding_cmp_ctx(e, &x, &v[k - 1]) < 0) {
            v[k] = v[k - 1];
            k--;
        }
        v[k] = x;
    }
}

static foldsvg_status own_name(fs_findings *fs, fs_finding_item *it)
{
    if (!it->name)
        return FOLDSVG_OK;
    char *copy = fs_arena_strndup(&fs->names, it->name, it->len);
    if (!copy)
        return FOLDSVG_E_NOMEM;
    it->name = copy;
    return FOLDSVG_OK;
}

static foldsvg_status collect(engine *e)
{
    fs_findings *fs = e->out;
    fs->v = calloc(e->ncands ? e->ncands : 1, sizeof *fs->v);
    if (!fs->v)
        return FOLDSVG_E_NOMEM;
    for (size_t i = 0; i < e->ncands; i++)
        fs->n += finish(e, &e->cands[i], &fs->v[fs->n]);
    /* a general rule's finding says less than another rule's on the same function */
    size_t kept = 0;
    for (size_t i = 0; i < fs->n; i++) {
        int said = 0;
        for (size_t k = 0; k < fs->n && ((const rule_row *)fs->v[i].row)->general && !said; k++)
            said = !((const rule_row *)fs->v[k].row)->general &&
                   name_cmp(&fs->v[k].fn, &fs->v[i].fn) == 0;
        if (!said)
            fs->v[kept++] = fs->v[i];
    }
    fs->n = kept;
    sort_findings(e, fs->v, fs->n);
    /* each rule's first MAX (the heaviest) */
    kept = 0;
    size_t run = 0;
    for (size_t i = 0; i < fs->n; i++) {
        run = i > 0 && fs->v[i].rule == fs->v[i - 1].rule ? run + 1 : 0;
        if (run < ((const rule_row *)fs->v[i].row)->max)
            fs->v[kept++] = fs->v[i];
    }
    fs->n = kept;
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < fs->n && st == FOLDSVG_OK; i++) {
        fs_finding *f = &fs->v[i];
        st = own_name(fs, &f->fn);
        f->self.name = f->base.name = NULL;
        for (size_t k = 0; k < f->nrelated && st == FOLDSVG_OK; k++)
            st = own_name(fs, &f->related[k]);
    }
    return st;
}

static foldsvg_status compute(const fs_tree *t, int diff, long double scale, uint64_t per_before,
                              uint64_t per_after, const fs_thresholds *th, const uint64_t *self,
                              const uint64_t *incl, fs_findings *out);

foldsvg_status fs_findings_compute(const fs_tree *t, int diff, uint64_t per_before,
                                   uint64_t per_after, const fs_thresholds *th, fs_findings *out)
{
    return compute(t, diff, 0, per_before, per_after, th, NULL, NULL, out);
}

foldsvg_status fs_findings_compute_scaled(const fs_tree *t, long double scale, uint64_t per_before,
                                          uint64_t per_after, const fs_thresholds *th,
                                          fs_findings *out)
{
    return compute(t, 1, scale, per_before, per_after, th, NULL, NULL, out);
}

foldsvg_status fs_findings_from_sums(const fs_tree *t, int diff, uint64_t per_before,
                                     uint64_t per_after, const fs_thresholds *th,
                                     const uint64_t *self, const uint64_t *incl, fs_findings *out)
{
    return compute(t, diff, 0, per_before, per_after, th, self, incl, out);
}

static foldsvg_status compute(const fs_tree *t, int diff, long double scale, uint64_t per_before,
                              uint64_t per_after, const fs_thresholds *th, const uint64_t *self,
                              const uint64_t *incl, fs_findings *out)
{
    memset(out, 0, sizeof *out);
    fs_arena_init(&out->names);
    out->diff = diff && t->before;
    out->scale = out->diff && scale != 1 ? scale : 0;
    out->total_before = out->diff ? t->total_before : 0;
    out->total_after = t->total;
    out->per_before = per_before > 1 ? per_before : 1;
    out->per_after = per_after > 1 ? per_after : 1;
    engine e;
    memset(&e, 0, sizeof e);
    e.t = t;
    e.out = out;
    e.th = th;
    size_t nn = t->nnames ? t->nnames : 1, nodes = t->nnodes ? t->nnodes : 1;
    uint64_t *sums = calloc(4 * nn + (diff ? 2 : 1) * nodes, sizeof *sums);
    e.rows_of = calloc(nn, sizeof *e.rows_of);
    e.slot = malloc(3 * nn * sizeof *e.slot);
    foldsvg_status st = sums && e.rows_of && e.slot ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    if (st == FOLDSVG_OK) {
        e.self_b = sums;
        e.incl_b = sums + nn;
        e.self_a = sums + 2 * nn;
        e.incl_a = sums + 3 * nn;
        e.sub_a = sums + 4 * nn;
        e.sub_b = diff ? e.sub_a + nodes : NULL;
        memset(e.slot, 0xff, 3 * nn * sizeof *e.slot);
        if (self && incl) {
            memcpy(e.self_a, self, (size_t)t->nnames * sizeof *self);
            memcpy(e.incl_a, incl, (size_t)t->nnames * sizeof *incl);
        } else {
            st = fs_tree_function_sums(t, NULL, e.self_a, e.incl_a);
        }
    }
    if (st == FOLDSVG_OK && out->diff)
        st = fs_tree_function_sums(t, t->before, e.self_b, e.incl_b);
    if (st == FOLDSVG_OK) {
        fs_tree_subtree_sums(t, NULL, e.sub_a);
        if (out->diff)
            fs_tree_subtree_sums(t, t->before, e.sub_b);
        /* outside a diff the BEFORE side stays zero, and so does every first count */
        st = match_names(&e, NULL);
    }
    if (st == FOLDSVG_OK)
        st = pick(&e);
    if (st == FOLDSVG_OK)
        st = walk(&e);
    if (st == FOLDSVG_OK)
        st = gather(&e);
    if (st == FOLDSVG_OK)
        st = collect(&e);
    free(sums);
    free(e.rows_of);
    free(e.slot);
    free(e.cands);
    free(e.contribs);
    if (st)
        fs_findings_free(out);
    return st;
}

void fs_findings_free(fs_findings *f)
{
    free(f->v);
    f->v = NULL;
    f->n = 0;
    fs_arena_free(&f->names);
}
