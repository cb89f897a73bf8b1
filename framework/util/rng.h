/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Seed derivation: every random choice (split, repeat, learner) gets its own
 * seed hashed from the experiment seed and a tag, so results do not depend on
 * the order or the number of threads that runs happen on. */
#ifndef BL_UTIL_RNG_H
#define BL_UTIL_RNG_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64 finaliser: a bijective 64-bit mix. */
uint64_t bl_mix64(uint64_t x);

/* Seed for (base, tag, n): e.g. bl_seed_derive(seed, "split:letter", repeat). */
uint64_t bl_seed_derive(uint64_t base, const char *tag, uint64_t n);

/* 64-bit FNV-1a of the n bytes at p.  Stored results are keyed by these
 * hashes (bl_algo_hash, bl_data_hash, bl_job_key): never change it. */
uint64_t bl_hash64(const void *p, size_t n);

#endif
