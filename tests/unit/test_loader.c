/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plugin loader: finding the in-tree plugins, and refusing broken ones with
 * a message that names the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <boostlab/loss.h>
#include <boostlab/weak.h>

#include "plugin/loader.h"
#include "plugin/params.h"
#include "testutil.h"

#define FIXTURE(name) BL_BUILD_DIR "/tests/plugins/.libs/" name ".so"

static bl_registry reg;

static void load_tree(void)
{
    bl_error err;
    memset(&reg, 0, sizeof reg);
    cr_assert_eq(bl_registry_load_dir(&reg, BL_BUILD_DIR "/plugins", 1, &err), 0, "%s", err.msg);
}

static void unload(void)
{
    bl_registry_free(&reg);
}

TestSuite(loader, .init = load_tree, .fini = unload);

Test(loader, finds_in_tree_plugins_by_role)
{
    cr_assert_not_null(bl_registry_find(&reg, "margin-exp", BL_ROLE_LOSS));
    cr_assert_not_null(bl_registry_find(&reg, "margin-log", BL_ROLE_LOSS));
    cr_assert_not_null(bl_registry_find(&reg, "stump", BL_ROLE_WEAK));
    cr_assert_not_null(bl_registry_find(&reg, "lbfgsb-row", BL_ROLE_SOLVER));
    cr_assert_not_null(bl_registry_find(&reg, "lbfgsb-tc", BL_ROLE_SOLVER));
    cr_assert_null(bl_registry_find(&reg, "stump", BL_ROLE_LOSS), "role must match");
    const char *f = bl_registry_file_of(&reg, bl_registry_find(&reg, "stump", 0));
    cr_assert(strstr(f, "stump.so"), "file %s", f);
}

Test(loader, loads_a_valid_out_of_tree_plugin)
{
    bl_error err;
    cr_assert_eq(bl_registry_load_file(&reg, FIXTURE("good_loss"), &err), 0, "%s", err.msg);
    const struct bl_plugin *p = bl_registry_find(&reg, "fixture-sq", BL_ROLE_LOSS);
    cr_assert_not_null(p);
    bl_paramset ps;
    cr_assert_eq(bl_paramset_init(&ps, p, &err), 0);
    cr_assert_float_eq(ps.v[0].r, 1.0, 1e-12);
    cr_assert_eq(bl_paramset_set(&ps, "scale", "2.5", &err), 0);
    cr_assert_float_eq(ps.v[0].r, 2.5, 1e-12);
    cr_assert_eq(bl_paramset_set(&ps, "scale", "11", &err), -1);
    cr_assert(strstr(err.msg, "out of range"), "%s", err.msg);
    cr_assert_eq(bl_paramset_set(&ps, "scal", "1", &err), -1);
    cr_assert(strstr(err.msg, "accepted: scale"), "%s", err.msg);
    bl_paramset_free(&ps);
}

static void refused(const char *path, const char *what)
{
    bl_error err;
    size_t before = reg.n;
    cr_assert_eq(bl_registry_load_file(&reg, path, &err), -1, "%s was accepted", path);
    cr_assert(strstr(err.msg, path), "message does not name the file: %s", err.msg);
    cr_assert(strstr(err.msg, what), "expected '%s' in: %s", what, err.msg);
    cr_assert_eq(reg.n, before, "a refused file must add no plugin");
}

Test(loader, refuses_other_sdk_version) { refused(FIXTURE("bad_version"), "built for SDK 3.0"); }
/* A 1.x plugin: named, with the version it has, the one it needs and where
 * the migration is described. */
Test(loader, refuses_sdk1_plugin_pointing_at_the_migration)
{
    char want[256];
    snprintf(want, sizeof want, "plugin fixture-sdk1 was built for SDK 1.7; this boostlab has "
             "SDK 2.%d, whose ops tables differ: port the plugin (docs/sdk.md, \"Migrating a "
             "1.x plugin to 2.0\")", BL_SDK_MINOR);
    refused(FIXTURE("sdk1_loss"), want);
}
Test(loader, refuses_ops_table_without_size)
{
    refused(FIXTURE("no_ops_size"), "plugin fixture-nosize: its ops table gives size 0");
}
/* The registry's ops tables have the host's size, whatever the plugin's. */
Test(loader, registry_tables_have_the_host_size)
{
    const struct bl_plugin *p = bl_registry_find(&reg, "margin-exp", BL_ROLE_LOSS);
    cr_assert_not_null(p);
    cr_assert_eq(((const struct bl_loss_ops *)p->ops)->size, sizeof(struct bl_loss_ops));
    p = bl_registry_find(&reg, "stump", BL_ROLE_WEAK);
    cr_assert_eq(((const struct bl_weak_ops *)p->ops)->size, sizeof(struct bl_weak_ops));
}
Test(loader, refuses_missing_function) { refused(FIXTURE("missing_eval"), "function 'eval'"); }
Test(loader, refuses_duplicate_name) { refused(FIXTURE("dup_name"), "already taken by"); }
Test(loader, refuses_invalid_default) { refused(FIXTURE("bad_default"), "default of parameter rate"); }
Test(loader, refuses_missing_entry_point) { refused(FIXTURE("no_entry"), "no entry point"); }
Test(loader, refuses_non_shared_object)
{
    refused(BL_SOURCE_DIR "/tests/plugins/good_loss.c", "cannot load plugin");
}

Test(params, parse_and_describe)
{
    struct bl_param_spec c = {"mode", BL_PARAM_CHOICE, "a", 0, 0, "a|bb|c", "mode"};
    union bl_value v;
    bl_error err;
    cr_assert_eq(bl_param_parse(&c, "bb", &v, &err), 0);
    cr_assert_eq(v.choice, 1);
    cr_assert_eq(bl_param_parse(&c, "b", &v, &err), -1);
    cr_assert(strstr(err.msg, "one of a|bb|c"), "%s", err.msg);
    struct bl_param_spec i = {"n", BL_PARAM_INT, "1", 1, 10, NULL, "n"};
    cr_assert_eq(bl_param_parse(&i, "1.5", &v, &err), -1);
    cr_assert_eq(bl_param_parse(&i, "0", &v, &err), -1);
    cr_assert_eq(bl_param_parse(&i, "10", &v, &err), 0);
    struct bl_param_spec b = {"on", BL_PARAM_BOOL, "false", 0, 0, NULL, "on"};
    cr_assert_eq(bl_param_parse(&b, "yes", &v, &err), 0);
    cr_assert_eq(v.b, 1);
    cr_assert_eq(bl_param_parse(&b, "maybe", &v, &err), -1);
    struct bl_param_spec r = {"x", BL_PARAM_REAL, "0", 0, HUGE_VAL, NULL, "x"};
    cr_assert_eq(bl_param_parse(&r, "nan", &v, &err), -1);
    cr_assert_eq(bl_param_parse(&r, "1e400", &v, &err), -1);
    cr_assert_eq(bl_param_parse(&r, "inf", &v, &err), 0);
    char buf[64];
    bl_param_describe(&r, buf, sizeof buf);
    cr_assert_str_eq(buf, "real in [0, inf)");
}

/* Who may have written a plugin (bl_plugin_distrust): the user's or root's
 * files, never world-writable ones; folders others can write to only when
 * root's and sticky, like /tmp. */
Test(loader, trusts_only_files_and_folders_no_other_user_can_write)
{
    uid_t me = 1000, other = 1001;
    cr_assert_null(bl_plugin_distrust(me, me, S_IFREG | 0755, 0));
    cr_assert_null(bl_plugin_distrust(me, 0, S_IFREG | 0644, 0));
    cr_assert_null(bl_plugin_distrust(0, 0, S_IFREG | 0755, 0));
    cr_assert_str_eq(bl_plugin_distrust(me, other, S_IFREG | 0755, 0),
                     "it belongs to another user");
    cr_assert_str_eq(bl_plugin_distrust(0, other, S_IFREG | 0755, 0),
                     "it belongs to another user");
    cr_assert_str_eq(bl_plugin_distrust(me, me, S_IFREG | 0757, 0),
                     "it is writable by every user");
    cr_assert_null(bl_plugin_distrust(me, me, S_IFDIR | 0755, 1));
    cr_assert_null(bl_plugin_distrust(me, other, S_IFDIR | 0755, 1));
    cr_assert_null(bl_plugin_distrust(me, 0, S_IFDIR | 01777, 1), "/tmp-like folders are fine");
    cr_assert_str_eq(bl_plugin_distrust(me, 0, S_IFDIR | 0777, 1),
                     "it is writable by every user and not sticky");
    cr_assert_str_eq(bl_plugin_distrust(me, other, S_IFDIR | 01777, 1),
                     "it is writable by every user and not root's");
    cr_assert_str_eq(bl_plugin_distrust(me, me, S_IFDIR | 01777, 1),
                     "it is writable by every user and not root's");
}

/* A folder searched for plugins may hold other shared objects: skipped
 * (with a warning), where a file named on its own is an error. */
Test(loader, skips_non_plugins_in_a_folder)
{
    char dir[] = "/tmp/bl-loader-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp %s %s %s/ && echo junk >%s/junk.so", FIXTURE("good_loss"),
             FIXTURE("no_entry"), dir, dir);
    cr_assert_eq(system(cmd), 0);
    bl_error err;
    bl_registry r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(bl_registry_load_dir(&r, dir, 0, &err), 0, "%s", err.msg);
    cr_assert_not_null(bl_registry_find(&r, "fixture-sq", BL_ROLE_LOSS));
    bl_registry_free(&r);
    snprintf(cmd, sizeof cmd, "cp %s %s/", FIXTURE("bad_version"), dir);
    cr_assert_eq(system(cmd), 0);
    memset(&r, 0, sizeof r);
    cr_assert_eq(bl_registry_load_dir(&r, dir, 0, &err), -1, "a broken plugin was skipped");
    cr_assert(strstr(err.msg, "built for SDK 3.0"), "%s", err.msg);
    bl_registry_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
