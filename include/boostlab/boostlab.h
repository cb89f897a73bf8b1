/* SPDX-License-Identifier: GPL-3.0-or-later */
/* boostlab plugin SDK, everything at once.  See docs/sdk.md for a tour. */
#ifndef BOOSTLAB_BOOSTLAB_H
#define BOOSTLAB_BOOSTLAB_H
#include "plugin.h"
#include "data.h"
#include "loss.h"
#include "weak.h"
#include "solver.h"
#include "coding.h"
#include "task.h"
#include "projection.h"
#endif
