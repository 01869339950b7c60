/* The byte-string hash map: insert-or-find, growth, binary keys, owned and borrowed keys. */
#include "util/strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static uint32_t put(fs_strmap *m, const char *key, size_t len, uint32_t value, int *added)
{
    uint32_t i = FS_STRMAP_NONE;
    ck_assert_int_eq(fs_strmap_put(m, key, len, value, &i, added), FOLDSVG_OK);
    ck_assert_uint_lt(i, fs_strmap_size(m));
    return i;
}

static uint32_t find(const fs_strmap *m, const char *s)
{
    return fs_strmap_find(m, s, strlen(s));
}

/* The value of KEY, which must be mapped. */
static uint32_t value_of(const fs_strmap *m, const void *key, size_t len)
{
    uint32_t i = fs_strmap_find(m, key, len);
    ck_assert_uint_ne(i, FS_STRMAP_NONE);
    return fs_strmap_value(m, i);
}

START_TEST(empty_map)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    ck_assert_uint_eq(fs_strmap_size(&m), 0);
    ck_assert_uint_eq(find(&m, "a"), FS_STRMAP_NONE);
    ck_assert_uint_eq(fs_strmap_find(&m, NULL, 0), FS_STRMAP_NONE);
    fs_strmap_free(&m);
    fs_strmap_free(&m); /* free leaves a usable empty map */
}
END_TEST

START_TEST(insert_or_find)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    int added = -1;
    uint32_t i = put(&m, "main", 4, 7, &added);
    ck_assert_int_eq(added, 1);
    ck_assert_uint_eq(i, 0);
    ck_assert_uint_eq(fs_strmap_value(&m, i), 7);
    ck_assert_uint_eq(fs_strmap_key_len(&m, i), 4);
    ck_assert_mem_eq(fs_strmap_key(&m, i), "main", 5); /* owned keys end in a NUL */

    /* Found again: the first value stays, the caller may change it. */
    ck_assert_uint_eq(put(&m, "main", 4, 9, &added), i);
    ck_assert_int_eq(added, 0);
    ck_assert_uint_eq(fs_strmap_value(&m, i), 7);
    fs_strmap_set_value(&m, i, 11);
    ck_assert_uint_eq(value_of(&m, "main", 4), 11);
    ck_assert_uint_eq(fs_strmap_size(&m), 1);

    /* A prefix, an extension and the empty key are other keys, numbered in order. */
    ck_assert_uint_eq(put(&m, "mai", 3, 1, &added), 1);
    ck_assert_int_eq(added, 1);
    ck_assert_uint_eq(put(&m, "mainx", 5, 2, NULL), 2);
    ck_assert_uint_eq(put(&m, NULL, 0, 3, &added), 3);
    ck_assert_int_eq(added, 1);
    ck_assert_uint_eq(fs_strmap_size(&m), 4);
    ck_assert_uint_eq(value_of(&m, "mai", 3), 1);
    ck_assert_uint_eq(value_of(&m, "mainx", 5), 2);
    ck_assert_uint_eq(value_of(&m, "", 0), 3);
    ck_assert_uint_eq(value_of(&m, NULL, 0), 3);
    ck_assert_uint_eq(find(&m, "ma"), FS_STRMAP_NONE);
    fs_strmap_free(&m);
}
END_TEST

START_TEST(binary_keys)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    /* Keys that differ only after a NUL, or only in their number of NULs. */
    static const char k1[] = {'a', '\0', 'b'};
    static const char k2[] = {'a', '\0', 'c'};
    static const char z1[] = {'\0'};
    static const char z2[] = {'\0', '\0'};
    static const char hi[] = {'\xff', '\x80', '\0', '\x01'};
    put(&m, k1, sizeof k1, 1, NULL);
    put(&m, k2, sizeof k2, 2, NULL);
    put(&m, z1, sizeof z1, 3, NULL);
    put(&m, z2, sizeof z2, 4, NULL);
    put(&m, hi, sizeof hi, 5, NULL);
    put(&m, "a", 1, 6, NULL);
    ck_assert_uint_eq(fs_strmap_size(&m), 6);
    ck_assert_uint_eq(value_of(&m, k1, sizeof k1), 1);
    ck_assert_uint_eq(value_of(&m, k2, sizeof k2), 2);
    ck_assert_uint_eq(value_of(&m, z1, sizeof z1), 3);
    ck_assert_uint_eq(value_of(&m, z2, sizeof z2), 4);
    ck_assert_uint_eq(value_of(&m, hi, sizeof hi), 5);
    ck_assert_uint_eq(value_of(&m, "a", 1), 6);
    ck_assert_uint_eq(fs_strmap_find(&m, k1, 2), FS_STRMAP_NONE);
    ck_assert_uint_eq(fs_strmap_find(&m, "", 0), FS_STRMAP_NONE);
    uint32_t i = fs_strmap_find(&m, hi, sizeof hi);
    ck_assert_uint_eq(fs_strmap_key_len(&m, i), sizeof hi);
    ck_assert_mem_eq(fs_strmap_key(&m, i), hi, sizeof hi);
    fs_strmap_free(&m);
}
END_TEST

static void key_of(char *buf, size_t cap, uint32_t i, size_t *len)
{
    /* Lengths vary, so keys straddle the hash's 8-byte steps. */
    int n = snprintf(buf, cap, "fn_%u::%.*s", i, (int)(i % 13), "abcdefghijklm");
    *len = (size_t)n;
}

START_TEST(growth_keeps_everything)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    enum { N = 100000 };
    char buf[64];
    size_t len;
    for (uint32_t i = 0; i < N; i++) {
        key_of(buf, sizeof buf, i, &len);
        int added = 0;
        /* Entries are numbered in insertion order. */
        ck_assert_uint_eq(put(&m, buf, len, i * 3, &added), i);
        ck_assert_int_eq(added, 1);
        /* The load factor stays at most 1/2 with a power-of-two table. */
        ck_assert_uint_eq((m.mask + 1) & m.mask, 0);
        ck_assert_uint_le((size_t)fs_strmap_size(&m) * 2, m.mask + 1);
    }
    ck_assert_uint_eq(fs_strmap_size(&m), N);
    const char **keys = fs_strmap_key_array(&m);
    const uint32_t *lens = fs_strmap_len_array(&m);
    for (uint32_t i = 0; i < N; i++) {
        key_of(buf, sizeof buf, i, &len);
        uint32_t k = fs_strmap_find(&m, buf, len);
        ck_assert_uint_eq(k, i);
        ck_assert_uint_eq(fs_strmap_value(&m, k), i * 3);
        ck_assert_uint_eq(lens[k], len);
        ck_assert_mem_eq(keys[k], buf, len);
        int added = 1;
        ck_assert_uint_eq(put(&m, buf, len, 0, &added), i);
        ck_assert_int_eq(added, 0);
    }
    ck_assert_uint_eq(fs_strmap_size(&m), N);
    ck_assert_uint_eq(find(&m, "fn_100000::"), FS_STRMAP_NONE);
    fs_strmap_free(&m);
}
END_TEST

/* Iteration visits every key once, whatever order they went in. */
static void check_iteration(const uint32_t *order, uint32_t n)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    char buf[64];
    size_t len;
    for (uint32_t k = 0; k < n; k++) {
        key_of(buf, sizeof buf, order[k], &len);
        put(&m, buf, len, order[k], NULL);
    }
    ck_assert_uint_eq(fs_strmap_size(&m), n);
    unsigned char *seen = calloc(n, 1);
    ck_assert_ptr_nonnull(seen);
    for (uint32_t i = 0; i < fs_strmap_size(&m); i++) {
        uint32_t v = fs_strmap_value(&m, i);
        ck_assert_uint_lt(v, n);
        ck_assert_int_eq(seen[v], 0);
        seen[v] = 1;
        key_of(buf, sizeof buf, v, &len);
        ck_assert_uint_eq(fs_strmap_key_len(&m, i), len);
        ck_assert_mem_eq(fs_strmap_key(&m, i), buf, len);
        ck_assert_uint_eq(fs_strmap_find(&m, buf, len), i);
    }
    free(seen);
    fs_strmap_free(&m);
}

START_TEST(iteration_order_independent)
{
    enum { N = 5000 };
    uint32_t *order = malloc(N * sizeof *order);
    ck_assert_ptr_nonnull(order);
    for (uint32_t i = 0; i < N; i++)
        order[i] = i;
    check_iteration(order, N);
    for (uint32_t i = 0; i < N; i++)
        order[i] = N - 1 - i;
    check_iteration(order, N);
    srand(42);
    for (uint32_t i = N - 1; i > 0; i--) {
        uint32_t j = (uint32_t)rand() % (i + 1);
        uint32_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    check_iteration(order, N);
    free(order);
}
END_TEST

START_TEST(owned_keys_are_copies)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    char buf[16];
    for (int i = 0; i < 100; i++) {
        /* One reused buffer: the map must not keep pointing into it. */
        int n = snprintf(buf, sizeof buf, "name%d", i);
        uint32_t k = put(&m, buf, (size_t)n, (uint32_t)i, NULL);
        ck_assert_ptr_ne(fs_strmap_key(&m, k), buf);
    }
    memset(buf, 'x', sizeof buf);
    for (int i = 0; i < 100; i++) {
        int n = snprintf(buf, sizeof buf, "name%d", i);
        uint32_t k = fs_strmap_find(&m, buf, (size_t)n);
        ck_assert_uint_ne(k, FS_STRMAP_NONE);
        ck_assert_uint_eq(fs_strmap_value(&m, k), (uint32_t)i);
        ck_assert_str_eq(fs_strmap_key(&m, k), buf);
    }
    fs_strmap_free(&m);
}
END_TEST

START_TEST(borrowed_keys_are_not_copied)
{
    static const char text[] = "alpha;beta;gamma;beta;alpha";
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_BORROWED);
    /* Keys that point into one text the caller keeps. */
    size_t start = 0;
    uint32_t next = 0;
    for (size_t i = 0; i <= sizeof text - 1; i++) {
        if (i < sizeof text - 1 && text[i] != ';')
            continue;
        int added;
        uint32_t k = put(&m, text + start, i - start, next, &added);
        if (added) {
            ck_assert_ptr_eq(fs_strmap_key(&m, k), text + start);
            next++;
        } else {
            ck_assert(fs_strmap_key(&m, k) < text + start); /* the first occurrence stays */
        }
        start = i + 1;
    }
    ck_assert_uint_eq(fs_strmap_size(&m), 3);
    ck_assert_uint_eq(value_of(&m, "alpha", 5), 0);
    ck_assert_uint_eq(value_of(&m, "beta", 4), 1);
    ck_assert_uint_eq(value_of(&m, "gamma", 5), 2);
    ck_assert_ptr_eq(fs_strmap_key(&m, find(&m, "gamma")), text + 11);
    /* Nothing was copied into the arena. */
    ck_assert_uint_eq(m.arena.used_total, 0);

    fs_strmap_free(&m);
    ck_assert_int_eq(m.mode, FS_STRMAP_BORROWED);
    put(&m, "again", 5, 1, NULL);
    ck_assert_uint_eq(fs_strmap_size(&m), 1);
    fs_strmap_free(&m);
}
END_TEST

START_TEST(hashed_variants_agree)
{
    /* A key looked up with its hash, then inserted with the same hash, is found either way. */
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    const char *path = "main;run;work";
    size_t len = strlen(path);
    uint64_t h = fs_strmap_hash(path, len);
    ck_assert_uint_eq(fs_strmap_find_hashed(&m, path, len, h), FS_STRMAP_NONE);
    uint32_t i;
    ck_assert_int_eq(fs_strmap_put_hashed(&m, path, len, h, 42, &i, NULL), FOLDSVG_OK);
    ck_assert_uint_eq(fs_strmap_find(&m, path, len), i);
    ck_assert_uint_eq(fs_strmap_find_hashed(&m, path, len, h), i);
    ck_assert_uint_eq(value_of(&m, path, len), 42);
    fs_strmap_free(&m);
}
END_TEST

START_TEST(values_start_at_zero)
{
    /* A map used for ids only never stores a value; the first other value must not lose
     * the zeros before it, nor entries added later. */
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    char buf[32];
    size_t len;
    for (uint32_t i = 0; i < 50; i++) {
        key_of(buf, sizeof buf, i, &len);
        put(&m, buf, len, 0, NULL);
    }
    ck_assert_ptr_null(m.values);
    ck_assert_uint_eq(fs_strmap_value(&m, 49), 0);
    ck_assert_int_eq(fs_strmap_set_value(&m, 3, 0), FOLDSVG_OK);
    ck_assert_ptr_null(m.values);
    ck_assert_int_eq(fs_strmap_set_value(&m, 3, 33), FOLDSVG_OK);
    for (uint32_t i = 50; i < 300; i++) {
        key_of(buf, sizeof buf, i, &len);
        put(&m, buf, len, i, NULL);
    }
    for (uint32_t i = 0; i < 300; i++)
        ck_assert_uint_eq(fs_strmap_value(&m, i), i == 3 ? 33 : i < 50 ? 0 : i);

    /* The first value other than 0 may also come with an insertion. */
    fs_strmap_free(&m);
    put(&m, "a", 1, 0, NULL);
    put(&m, "b", 1, 5, NULL);
    ck_assert_uint_eq(value_of(&m, "a", 1), 0);
    ck_assert_uint_eq(value_of(&m, "b", 1), 5);
    fs_strmap_free(&m);
}
END_TEST

/* A cleared map is empty and fills again from index 0 in the memory it kept; long keys
 * (arena blocks of their own) and values survive the reuse correctly. */
START_TEST(clear_and_refill)
{
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    char big[300000];
    memset(big, 'x', sizeof big);
    for (int round = 0; round < 3; round++) {
        char key[32];
        for (uint32_t i = 0; i < 5000; i++) {
            int n = snprintf(key, sizeof key, "r%d-k%u", round, i);
            uint32_t idx;
            int added;
            ck_assert_int_eq(
                fs_strmap_put(&m, key, (size_t)n, round == 1 ? i + 1 : 0, &idx, &added),
                FOLDSVG_OK);
            ck_assert_int_eq(added, 1);
            ck_assert_uint_eq(idx, i);
        }
        uint32_t idx;
        big[0] = (char)('a' + round);
        ck_assert_int_eq(fs_strmap_put(&m, big, sizeof big, 0, &idx, NULL), FOLDSVG_OK);
        ck_assert_uint_eq(fs_strmap_size(&m), 5001);
        for (uint32_t i = 0; i < 5000; i += 499) {
            int n = snprintf(key, sizeof key, "r%d-k%u", round, i);
            ck_assert_uint_eq(fs_strmap_find(&m, key, (size_t)n), i);
            ck_assert_str_eq(fs_strmap_key(&m, i), key);
            ck_assert_uint_eq(fs_strmap_value(&m, i), round == 1 ? i + 1 : 0);
        }
        ck_assert_uint_eq(fs_strmap_find(&m, big, sizeof big), 5000);
        if (round > 0) { /* the previous round's keys are gone */
            int n = snprintf(key, sizeof key, "r%d-k%u", round - 1, 7u);
            ck_assert_uint_eq(fs_strmap_find(&m, key, (size_t)n), FS_STRMAP_NONE);
        }
        fs_strmap_clear(&m);
        ck_assert_uint_eq(fs_strmap_size(&m), 0);
        ck_assert_uint_eq(fs_strmap_find(&m, "r0-k1", 5), FS_STRMAP_NONE);
    }
    fs_strmap_free(&m);
}
END_TEST

START_TEST(too_long_key)
{
#if SIZE_MAX > UINT32_MAX
    fs_strmap m;
    fs_strmap_init(&m, FS_STRMAP_OWNED);
    uint32_t i = 7;
    /* The length is refused before any byte is read (this does not reach the hash). */
    ck_assert_int_eq(fs_strmap_put_hashed(&m, "x", (size_t)UINT32_MAX + 1, 0, 0, &i, NULL),
                     FOLDSVG_E_LIMIT);
    ck_assert_uint_eq(i, 7);
    put(&m, "x", 1, 0, NULL);
    ck_assert_uint_eq(fs_strmap_find_hashed(&m, "x", (size_t)UINT32_MAX + 1, 0), FS_STRMAP_NONE);
    ck_assert_uint_eq(fs_strmap_size(&m), 1);
    /* The plain variants check before hashing: "x" is one byte, so reading more would be
     * caught by ASan. */
    ck_assert_int_eq(fs_strmap_put(&m, "x", (size_t)UINT32_MAX + 1, 0, &i, NULL), FOLDSVG_E_LIMIT);
    ck_assert_uint_eq(fs_strmap_find(&m, "x", (size_t)UINT32_MAX + 1), FS_STRMAP_NONE);
    fs_strmap_free(&m);
#endif
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("strmap");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, empty_map);
    tcase_add_test(tc, insert_or_find);
    tcase_add_test(tc, binary_keys);
    tcase_add_test(tc, growth_keeps_everything);
    tcase_add_test(tc, iteration_order_independent);
    tcase_add_test(tc, owned_keys_are_copies);
    tcase_add_test(tc, borrowed_keys_are_not_copied);
    tcase_add_test(tc, hashed_variants_agree);
    tcase_add_test(tc, values_start_at_zero);
    tcase_add_test(tc, too_long_key);
    tcase_add_test(tc, clear_and_refill);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fs_test_run(suite());
}
