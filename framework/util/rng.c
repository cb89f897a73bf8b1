/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Seed derivation and the FNV-1a hash (see rng.h). */
#include "rng.h"

uint64_t bl_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t bl_hash64(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t j = 0; j < n; j++)
        h = (h ^ b[j]) * 1099511628211ULL;
    return h;
}

uint64_t bl_seed_derive(uint64_t base, const char *tag, uint64_t n)
{
    uint64_t h = bl_mix64(base);
    for (const unsigned char *p = (const unsigned char *)tag; p && *p; p++)
        h = bl_mix64(h ^ *p);
    return bl_mix64(h ^ bl_mix64(n));
}
