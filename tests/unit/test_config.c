/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "testutil.h"
Test(placeholder_config, nothing) { cr_assert(1); }
