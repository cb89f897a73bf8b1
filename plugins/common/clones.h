/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * BL_CLONES: compile a hot function twice, for AVX2 and for the baseline
 * x86-64, the copy picked at load time (GCC's target_clones), so that the
 * plugins run on any x86-64 and use 4-wide vectors where there are some.
 * Only element-wise arithmetic is vectorised this way (no FMA: "avx2" does
 * not enable it), so both copies give the same bits.  Nothing on other
 * machines or compilers.
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

#endif
