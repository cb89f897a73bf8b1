/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder: being written */
typedef int bl_placeholder_quantize;
