/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Clocks (see clock.h). */
#include "clock.h"

#include <time.h>

static double read_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bl_seconds(void)
{
    return read_clock(CLOCK_MONOTONIC);
}

double bl_unix_time(void)
{
    return read_clock(CLOCK_REALTIME);
}
