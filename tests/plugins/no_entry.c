/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loader fixture: a shared object without the boostlab entry point. */
int fixture_not_a_plugin(void);
int fixture_not_a_plugin(void)
{
    return 42;
}
