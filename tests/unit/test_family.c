/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder: being written */
#include "testutil.h"
