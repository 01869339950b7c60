/* The findings' rules on small trees whose numbers are worked out by hand: each rule fires
 * where it should, with the numbers and related functions it should name, and a flat profile
 * makes none fire. */
#include "analysis/findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static fs_tree tree;
static fs_findings found;

static void add(const char *path, uint64_t count)
{
    ck_assert_int_eq(fs_tree_add_path(&tree, path, strlen(path), count, 0, 0, NULL), FOLDSVG_OK);
}

static void add_diff(const char *path, uint64_t before, uint64_t after)
{
    ck_assert_int_eq(fs_tree_add_path(&tree, path, strlen(path), after, before, 1, NULL),
                     FOLDSVG_OK);
}

static void setup(void)
{
    ck_assert_int_eq(fs_tree_init(&tree), FOLDSVG_OK);
    memset(&found, 0, sizeof found);
}

static void teardown(void)
{
    fs_findings_free(&found);
    fs_tree_free(&tree);
}

static void compute(int diff, const fs_thresholds *th)
{
    ck_assert_int_eq(fs_findings_compute(&tree, diff, 0, 0, th, &found), FOLDSVG_OK);
}

static int is(const fs_finding_item *it, const char *name)
{
    return it->len == strlen(name) && memcmp(it->name, name, it->len) == 0;
}

/* The finding of RULE about NAME, or NULL. */
static const fs_finding *find(int rule, const char *name)
{
    for (size_t i = 0; i < found.n; i++)
        if (found.v[i].rule == rule && is(&found.v[i].fn, name))
            return &found.v[i];
    return NULL;
}

static size_t count_rule(int rule)
{
    size_t n = 0;
    for (size_t i = 0; i < found.n; i++)
        n += found.v[i].rule == rule;
    return n;
}

static char *detail(const fs_finding *f)
{
    fs_buf b = {0};
    ck_assert_int_eq(fs_finding_detail(&found, f, "cycles", &b), FOLDSVG_OK);
    return b.data;
}

START_TEST(callees_names_the_heaviest_and_skips_pass_throughs)
{
    /* main passes everything to run (a pass-through); run spreads over a, b, c */
    add("main;run;a;x", 500);
    add("main;run;b", 300);
    add("main;run;c", 150);
    add("main;run", 10);
    add("main;run;d", 40);
    compute(0, NULL);
    ck_assert_ptr_null(find(FS_RULE_CALLEES, "main"));
    const fs_finding *f = find(FS_RULE_CALLEES, "run");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->fn.after, 1000);
    ck_assert_uint_eq(f->self.after, 10);
    /* a 50%, b 30%, c 15% of run; d (4%) is under the 10% a callee needs */
    ck_assert_uint_eq(f->nrelated, 3);
    ck_assert(is(&f->related[0], "a") && f->related[0].after == 500);
    ck_assert(is(&f->related[1], "b") && f->related[1].after == 300);
    ck_assert(is(&f->related[2], "c") && f->related[2].after == 150);
    char *d = detail(f);
    ck_assert_str_eq(d, "run: 100.0% inclusive (1,000 cycles), 1.0% self; callees a 50.0%, "
                        "b 30.0%, c 15.0% of it: drill in");
    free(d);
    /* a holds 50% inclusive and no self time, all of it in x, which is no callees candidate
     * (a bottleneck): a is named, with x */
    f = find(FS_RULE_CALLEES, "a");
    ck_assert_ptr_nonnull(f);
    ck_assert(f->nrelated == 1 && is(&f->related[0], "x"));
    ck_assert_ptr_nonnull(find(FS_RULE_BOTTLENECK, "x"));
}
END_TEST

START_TEST(callees_of_recursion_count_once)
{
    /* f calls itself, then g: g's time is f's callee time once, not once per level */
    add("f;f;f;g", 600);
    add("f;h", 400);
    compute(0, NULL);
    const fs_finding *f = find(FS_RULE_CALLEES, "f");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->nrelated, 2);
    ck_assert(is(&f->related[0], "g") && f->related[0].after == 600);
    ck_assert(is(&f->related[1], "h") && f->related[1].after == 400);
}
END_TEST

START_TEST(bottleneck_and_its_threshold)
{
    add("main;hot", 60);
    add("main;warm", 4);
    add("main;rest", 36);
    compute(0, NULL);
    const fs_finding *f = find(FS_RULE_BOTTLENECK, "hot");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->fn.after, 60);
    ck_assert_double_eq_tol(fs_finding_share(&found, &f->fn), 60.0, 1e-9);
    ck_assert_ptr_null(find(FS_RULE_BOTTLENECK, "warm")); /* 4% < 5% */
    fs_findings_free(&found);
    fs_thresholds th = {.set = 1u << FS_RULE_BOTTLENECK};
    th.pct[FS_RULE_BOTTLENECK] = 3;
    compute(0, &th);
    ck_assert_ptr_nonnull(find(FS_RULE_BOTTLENECK, "warm"));
}
END_TEST

START_TEST(memory_copy_names_its_callers)
{
    add("main;parse;memcpy", 30);
    add("main;clone;__memcpy_chk", 20);
    add("main;load;memcpy", 60);
    add("main;other;memcpy", 10);
    add("main;work", 870);
    add("main;cmp;memcmp", 100); /* not a copy */
    compute(0, NULL);
    const fs_finding *f = find(FS_RULE_MEMORY_COPY, "memcpy");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->fn.after, 100);
    /* load 60% then parse 30%: 90% covered, other (10%) is not named */
    ck_assert_uint_eq(f->nrelated, 2);
    ck_assert(is(&f->related[0], "load") && f->related[0].after == 60);
    ck_assert(is(&f->related[1], "parse") && f->related[1].after == 30);
    ck_assert_ptr_nonnull(find(FS_RULE_MEMORY_COPY, "__memcpy_chk"));
    ck_assert_ptr_null(find(FS_RULE_MEMORY_COPY, "memcmp"));
    /* the copy is said once, by its own rule, not again as a bottleneck */
    ck_assert_ptr_null(find(FS_RULE_BOTTLENECK, "memcpy"));
    ck_assert_ptr_nonnull(find(FS_RULE_BOTTLENECK, "memcmp"));
}
END_TEST

START_TEST(precompiles_with_their_cycles)
{
    add("main;keccak256;syscall_keccak_permute", 10);
    add("main;keccak256", 90);
    add("main;ecrecover;sp1_lib::syscall_secp256k1_add", 80);
    add("main;ecrecover", 20);
    add("main;io;syscall_hint_read", 50); /* not a precompile */
    add("main;work", 750);
    compute(0, NULL);
    const fs_finding *k = find(FS_RULE_PRECOMPILE, "syscall_keccak_permute");
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(k->fn.after, 10);
    ck_assert_uint_eq(k->nrelated, 1);
    ck_assert(is(&k->related[0], "keccak256"));
    ck_assert(!k->flagged); /* 10 of its callers' 100 */
    const fs_finding *s = find(FS_RULE_PRECOMPILE, "sp1_lib::syscall_secp256k1_add");
    ck_assert_ptr_nonnull(s);
    ck_assert(s->flagged); /* 80 of 100: its own time should be small */
    ck_assert_uint_eq(s->base.after, 100);
    char *d = detail(s);
    ck_assert_ptr_nonnull(strstr(d, "self 80 cycles is 80.0% of its callers' 100 cycles"));
    free(d);
    ck_assert_ptr_null(find(FS_RULE_PRECOMPILE, "syscall_hint_read"));
}
END_TEST

START_TEST(software_fallback_when_the_syscall_is_missing)
{
    add("main;keccak256;tiny_keccak::keccakf", 400);
    add("main;keccak256;tiny_keccak::keccakf;core::ptr::read", 100);
    add("main;work", 500);
    compute(0, NULL);
    const fs_finding *f = NULL;
    for (size_t i = 0; i < found.n; i++)
        if (found.v[i].rule == FS_RULE_SOFTWARE_FALLBACK)
            f = &found.v[i];
    ck_assert_ptr_nonnull(f);
    ck_assert(is(&f->fn, "tiny_keccak::keccakf"));
    ck_assert_uint_eq(f->fn.after, 500);
    ck_assert_uint_eq(f->nrelated, 0);
    char *d = detail(f);
    ck_assert_str_eq(d, "keccak in software: 50.0% inclusive (500 cycles), most in "
                        "tiny_keccak::keccakf; precompiles `syscall_keccak_permute`: none seen; "
                        "is the patched crate in use? check `cargo tree`");
    free(d);
}
END_TEST

START_TEST(no_fallback_when_the_precompile_does_the_work)
{
    /* the patched crate: keccakf is a thin wrapper around the syscall */
    add("main;keccak256;tiny_keccak::keccakf;syscall_keccak_permute", 300);
    add("main;keccak256;tiny_keccak::keccakf", 20);
    add("main;work", 680);
    compute(0, NULL);
    ck_assert_uint_eq(count_rule(FS_RULE_SOFTWARE_FALLBACK), 0);
    ck_assert_ptr_nonnull(find(FS_RULE_PRECOMPILE, "syscall_keccak_permute"));
}
END_TEST

START_TEST(no_fallback_claimed_for_a_family_whose_precompile_ran)
{
    /* secp256k1 mostly in software, but its precompile was seen: the crate is patched, so
     * "is the patched crate in use?" would contradict the precompile listed beside it */
    add("main;verify;k256::arithmetic::field::FieldElement::mul", 600);
    add("main;verify;k256::arithmetic::field::FieldElement::mul;syscall_secp256k1_double", 10);
    add("main;work", 390);
    compute(0, NULL);
    ck_assert_uint_eq(count_rule(FS_RULE_SOFTWARE_FALLBACK), 0);
    ck_assert_ptr_nonnull(find(FS_RULE_PRECOMPILE, "syscall_secp256k1_double"));
}
END_TEST

START_TEST(no_setup_advice_on_the_root_path)
{
    /* a construction-named frame that holds the whole program (a runtime's entry, a
     * mis-symbolized frame) gets no "build it once and reuse it" */
    add("alloc::raw_vec::RawVec<T>::grow_one;main;loop;step", 900);
    add("alloc::raw_vec::RawVec<T>::grow_one;main;loop;State::new", 100);
    compute(0, NULL);
    ck_assert_ptr_null(find(FS_RULE_SETUP, "alloc::raw_vec::RawVec<T>::grow_one"));
    ck_assert_ptr_nonnull(find(FS_RULE_SETUP, "State::new"));
}
END_TEST

START_TEST(a_chain_of_callees_is_one_finding)
{
    /* main -> run -> exec -> verify, each level passing 80% on: the deepest level speaks */
    add("main;run;exec;verify;a", 320);
    add("main;run;exec;verify;b", 192);
    add("main;run;exec;verify;c", 128);
    add("main;run;exec;other", 160);
    add("main;run;idle", 200);
    compute(0, NULL);
    ck_assert_uint_eq(count_rule(FS_RULE_CALLEES), 1);
    ck_assert_ptr_nonnull(find(FS_RULE_CALLEES, "verify"));
}
END_TEST

START_TEST(setup_churn)
{
    add("main;loop;alloc::vec::Vec<T>::clone;memcpy", 100);
    add("main;loop;<Foo as core::default::Default>::default", 5);
    add("main;loop;State::new::h0123456789abcdef;__rust_alloc", 150);
    add("main;loop;renew", 300); /* not construction */
    add("main;loop;step", 445);
    compute(0, NULL);
    ck_assert_ptr_nonnull(find(FS_RULE_SETUP, "alloc::vec::Vec<T>::clone"));
    ck_assert_ptr_nonnull(find(FS_RULE_SETUP, "State::new::h0123456789abcdef"));
    ck_assert_ptr_nonnull(find(FS_RULE_SETUP, "__rust_alloc"));
    ck_assert_ptr_null(find(FS_RULE_SETUP, "renew"));
    ck_assert_ptr_null(find(FS_RULE_SETUP, "<Foo as core::default::Default>::default")); /* 0.5% */
}
END_TEST

START_TEST(a_flat_profile_has_no_findings)
{
    char path[64];
    for (int i = 0; i < 40; i++) {
        snprintf(path, sizeof path, "main;work_%02d", i);
        add(path, 25);
    }
    compute(0, NULL);
    ck_assert_uint_eq(found.n, 0);
}
END_TEST

START_TEST(rules_in_order_then_heaviest_first)
{
    add("main;a", 10);
    add("main;b", 30);
    add("main;c;memcpy", 20);
    add("main;d", 40);
    compute(0, NULL);
    for (size_t i = 1; i < found.n; i++) {
        ck_assert_int_le(found.v[i - 1].rule, found.v[i].rule);
        if (found.v[i - 1].rule == found.v[i].rule)
            ck_assert(fs_finding_value(&found, &found.v[i - 1].fn) >=
                      fs_finding_value(&found, &found.v[i].fn));
    }
    ck_assert(is(&found.v[0].fn, "main") && found.v[0].rule == FS_RULE_CALLEES);
}
END_TEST

START_TEST(diff_explains_the_change)
{
    /* the patched keccak dropped: keccakf appears, the syscall goes */
    add_diff("main;keccak256;syscall_keccak_permute", 50, 0);
    add_diff("main;keccak256;tiny_keccak::keccakf", 0, 1800);
    add_diff("main;alu", 2000, 2000);
    add_diff("main;parse;memcpy", 300, 900);
    compute(1, NULL);
    ck_assert(found.diff);
    const fs_finding *f = NULL;
    for (size_t i = 0; i < found.n; i++)
        if (found.v[i].rule == FS_RULE_SOFTWARE_FALLBACK)
            f = &found.v[i];
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->fn.before, 0);
    ck_assert_uint_eq(f->fn.after, 1800);
    /* shares of BEFORE's total: +1,800 of 2,350 */
    ck_assert_double_eq_tol(fs_finding_share(&found, &f->fn), 100.0 * 1800 / 2350, 1e-9);
    const fs_finding *m = find(FS_RULE_MEMORY_COPY, "memcpy");
    ck_assert_ptr_nonnull(m);
    ck_assert(fs_finding_value(&found, &m->fn) == 600);
    char *d = detail(m);
    ck_assert_str_eq(d, "memcpy: self +600 cycles (+200.00%); callers parse +600: the call site "
                        "is the real cost");
    free(d);
    /* alu did not change: nothing to say about it */
    ck_assert_ptr_null(find(FS_RULE_BOTTLENECK, "alu"));
    ck_assert_ptr_nonnull(find(FS_RULE_PRECOMPILE, "syscall_keccak_permute"));
}
END_TEST

START_TEST(thresholds_default_and_set)
{
    ck_assert_double_eq(fs_rule_threshold(NULL, FS_RULE_CALLEES), 20);
    ck_assert_double_eq(fs_rule_threshold(NULL, FS_RULE_SETUP), 10);
    fs_thresholds th = {.set = 1u << FS_RULE_SETUP};
    th.pct[FS_RULE_SETUP] = 2.5;
    ck_assert_double_eq(fs_rule_threshold(&th, FS_RULE_SETUP), 2.5);
    ck_assert_str_eq(fs_rule_ids[FS_RULE_SOFTWARE_FALLBACK], "software-fallback");
    ck_assert_ptr_null(fs_rule_ids[FS_RULE_COUNT]);
    /* --help says the defaults: the table's */
    foldsvg_option_desc d;
    size_t i = 0;
    while (foldsvg_option_info(i, &d) == FOLDSVG_OK && strcmp(d.name, "summary-threshold") != 0)
        i++;
    ck_assert_str_eq(d.name, "summary-threshold");
    for (int r = 0; r < FS_RULE_COUNT; r++) {
        char said[64];
        snprintf(said, sizeof said, "%s=%g", fs_rule_ids[r], fs_rule_threshold(NULL, r));
        ck_assert_msg(strstr(d.help, said), "--help does not say %s", said);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("findings");
    TCase *tc = tcase_create("findings");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, callees_names_the_heaviest_and_skips_pass_throughs);
    tcase_add_test(tc, callees_of_recursion_count_once);
    tcase_add_test(tc, bottleneck_and_its_threshold);
    tcase_add_test(tc, memory_copy_names_its_callers);
    tcase_add_test(tc, precompiles_with_their_cycles);
    tcase_add_test(tc, software_fallback_when_the_syscall_is_missing);
    tcase_add_test(tc, no_fallback_when_the_precompile_does_the_work);
    tcase_add_test(tc, setup_churn);
    tcase_add_test(tc, a_flat_profile_has_no_findings);
    tcase_add_test(tc, rules_in_order_then_heaviest_first);
    tcase_add_test(tc, diff_explains_the_change);
    tcase_add_test(tc, thresholds_default_and_set);
    tcase_add_test(tc, no_fallback_claimed_for_a_family_whose_precompile_ran);
    tcase_add_test(tc, no_setup_advice_on_the_root_path);
    tcase_add_test(tc, a_chain_of_callees_is_one_finding);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
