/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder main */
int main(void) { return 0; }
