/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Regression tests for inputs that once crashed or misbehaved a reader
 * (found by the fuzzers in fuzz/): each input stays refused cleanly. */
#include "testutil.h"

Test(regress, placeholder_until_the_first_finding)
{
    cr_assert(1);
}
