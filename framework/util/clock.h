/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Clocks: seconds on the monotonic clock (durations, progress, timeouts)
 * and Unix time (when a run started and finished, kept in the store). */
#ifndef BL_UTIL_CLOCK_H
#define BL_UTIL_CLOCK_H

/* Monotonic seconds from an arbitrary origin: only differences mean anything. */
double bl_seconds(void);
/* Seconds since the Unix epoch. */
double bl_unix_time(void);

#endif
