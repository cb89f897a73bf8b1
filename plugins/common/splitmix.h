/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Seeded randomness for plugins, header-only: splitmix64 (Steele, Lea &
 * Flood 2014; a full-period 64-bit stream, so a plugin's answer depends on
 * the seed it is handed and nothing else), unbiased bounded draws and a
 * Fisher-Yates shuffle.
 */
#ifndef BL_PLUGINS_COMMON_SPLITMIX_H
#define BL_PLUGINS_COMMON_SPLITMIX_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform on 0..n-1 (n >= 1), without modulo bias: draws below
 * 2^64 mod n are rejected. */
static inline uint64_t bounded(uint64_t *s, uint64_t n)
{
    uint64_t lim = -n % n;
    for (;;) {
        uint64_t r = splitmix64(s);
        if (r >= lim)
            return r % n;
    }
}

/* p[0..n) = a uniformly random permutation of 0..n-1. */
static inline void shuffle_index(uint64_t *s, size_t *p, size_t n)
{
    for (size_t r = 0; r < n; r++)
        p[r] = r;
    for (size_t r = n; r > 1; r--) {
        size_t q = (size_t)bounded(s, (uint64_t)r), t = p[r - 1];
        p[r - 1] = p[q];
        p[q] = t;
    }
}

#endif
