/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder */
#include "cli.h"
int cmd_check(int argc, char **argv) { (void)argc; (void)argv; return BL_EXIT_FAIL; }
