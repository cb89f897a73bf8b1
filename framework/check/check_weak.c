/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder */
typedef int bl_placeholder_check_weak;
