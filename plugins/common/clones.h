/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * BL_CLONES: compile a hot function twice, for AVX2 and for the baseline
 * x86-64, the copy picked at load time (GCC's target_clones), so that the
 * plugins run on any x86-64 and use 4-wide vectors where there are some.
 * Only element-wise arithmetic is vectorised this way (no FMA: "avx2" does
 * not enable it), so both copies give the same bits.  Nothing on other
 * machines or compilers.  BL_VEC_SELECTS (below) lets such loops have
 * selects.
 */
#ifndef BL_COMMON_CLONES_H
#define BL_COMMON_CLONES_H

#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones) && !defined(__clang__)
#define BL_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef BL_CLONES
#define BL_CLONES
#endif

/* BL_VEC_SELECTS: let GCC compute both arms of a floating-point select
 * and blend them, so that a loop with such selects vectorises (under the
 * default -ftrapping-math it keeps them as branches: the arm not taken
 * might raise an exception flag).  The arithmetic is the same IEEE
 * operations, so the same bits; only the flags may differ, which nothing
 * reads. */
#if defined(__GNUC__) && !defined(__clang__)
#define BL_VEC_SELECTS __attribute__((optimize("no-trapping-math")))
#else
#define BL_VEC_SELECTS
#endif

#endif
