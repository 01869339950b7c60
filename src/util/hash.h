/* A fast non-cryptographic hash for interning; inputs are trusted not to be adversarial
 * beyond what open addressing with a good mix tolerates. */
#ifndef FOLDSVG_UTIL_HASH_H
#define FOLDSVG_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t fs_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t fs_hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ fs_mix64(w)) * 0x9e3779b97f4a7c15ULL;
        h = (h << 29) | (h >> 35);
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h ^= fs_mix64(w + n);
    return fs_mix64(h);
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 fs_u128_;

/* The 128-bit product of A and B folded to 64 bits (wyhash's "mum"). */
static inline uint64_t fs_mum_(uint64_t a, uint64_t b)
{
    fs_u128_ r = (fs_u128_)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t fs_read64_(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* The same quality for keys of any length, faster on long ones (whole stacks of hundreds of
 * bytes): wyhash's scheme, one 64x64->128-bit multiply for 16 bytes, three lanes so that the
 * multiplies overlap. Its values are not fs_hash_bytes's: for in-memory tables only, where
 * nothing outlives the process. */
static inline uint64_t fs_hash_fast(const void *data, size_t n)
{
    if (n < 64)
        return fs_hash_bytes(data, n);
    const unsigned char *p = data;
    const uint64_t s0 = 0xa0761d6478bd642fULL, s1 = 0xe7037ed1a0b428dbULL,
                   s2 = 0x8ebc6af09c88c6e3ULL, s3 = 0x589965cc75374cc3ULL;
    uint64_t a = s0 ^ n, b = a, c = a;
    size_t left = n;
    while (left > 48) {
        a = fs_mum_(fs_read64_(p) ^ s1, fs_read64_(p + 8) ^ a);
        b = fs_mum_(fs_read64_(p + 16) ^ s2, fs_read64_(p + 24) ^ b);
        c = fs_mum_(fs_read64_(p + 32) ^ s3, fs_read64_(p + 40) ^ c);
        p += 48;
        left -= 48;
    }
    a ^= b ^ c;
    while (left > 16) {
        a = fs_mum_(fs_read64_(p) ^ s1, fs_read64_(p + 8) ^ a);
        p += 16;
        left -= 16;
    }
    /* the last 16 bytes of the key (N >= 64: they lie within it, maybe read twice) */
    const unsigned char *end = (const unsigned char *)data + n;
    return fs_mum_(s1 ^ n, fs_mum_(fs_read64_(end - 16) ^ s1, fs_read64_(end - 8) ^ a));
}
#else
static inline uint64_t fs_hash_round_(uint64_t acc, const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    acc += w * 0xc2b2ae3d27d4eb4fULL;
    acc = (acc << 31) | (acc >> 33);
    return acc * 0x9e3779b185ebca87ULL;
}

/* The same quality for keys of any length, faster on long ones: four independent lanes of 8
 * bytes (xxHash64's round), so the multiplies of one lane overlap those of the others. Its
 * values are not fs_hash_bytes's: for in-memory tables only. */
static inline uint64_t fs_hash_fast(const void *data, size_t n)
{
    if (n < 64)
        return fs_hash_bytes(data, n);
    const unsigned char *p = data;
    uint64_t a = 0x60ea27eeadc0b5d6ULL, b = 0xc2b2ae3d27d4eb4fULL, c = 0, d = 0x61c8864e7a143579ULL;
    size_t len = n;
    while (n >= 32) {
        a = fs_hash_round_(a, p);
        b = fs_hash_round_(b, p + 8);
        c = fs_hash_round_(c, p + 16);
        d = fs_hash_round_(d, p + 24);
        p += 32;
        n -= 32;
    }
    uint64_t h = fs_mix64(a) ^ fs_mix64(b + 1) ^ fs_mix64(c + 2) ^ fs_mix64(d + 3);
    return fs_mix64(h ^ fs_hash_bytes(p, n) ^ len);
}
#endif

#endif
