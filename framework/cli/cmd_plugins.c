/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab plugins [NAME]`: what is loaded, and one plugin's parameters. */
#include <boostlab/solver.h>
#include <stdio.h>
#include <string.h>

#include "../plugin/params.h"
#include "cli.h"

static void show(const bl_registry *reg, const struct bl_plugin *p)
{
    printf("%s (%s)\n  %s\n  file: %s\n  SDK %u.%u\n", p->name, bl_role_name(p->role), p->doc,
           bl_registry_file_of(reg, p), p->sdk_version >> 16, p->sdk_version & 0xffff);
    if (p->role == BL_ROLE_SOLVER)
        printf("  scope: %s\n", ((const struct bl_solver_ops *)p->ops)->scope == BL_SOLVE_ALL
                                    ? "all coefficient rows (totally corrective)"
                                    : "newest coefficient row (stage-wise)");
    if (!p->nparams) {
        printf("\n  no parameters\n");
        return;
    }
    printf("\n  %-14s %-30s %-10s %s\n", "parameter", "type", "default", "meaning");
    for (size_t j = 0; j < p->nparams; j++) {
        char type[128];
        bl_param_describe(&p->params[j], type, sizeof type);
        printf("  %-14s %-30s %-10s %s\n", p->params[j].name, type, p->params[j].def,
               p->params[j].doc);
    }
}

int cmd_plugins(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("Usage: boostlab plugins [NAME]\n\n"
             "Without NAME, list every loaded plugin with its role and one-line doc.\n"
             "With NAME, print the plugin's parameters: type and range, default, meaning.");
        return BL_EXIT_OK;
    }
    if (argc > 2)
        return cli_usage("plugins", "expected at most one plugin name");
    bl_registry reg;
    if (cli_registry(&reg))
        return BL_EXIT_FAIL;
    int rc = BL_EXIT_OK;
    if (argc == 2) {
        const struct bl_plugin *p = bl_registry_find(&reg, argv[1], 0);
        if (!p) {
            fprintf(stderr, "boostlab: no plugin named '%s' (loaded: %s)\n", argv[1],
                    bl_registry_names(&reg, 0));
            rc = BL_EXIT_FAIL;
        } else {
            show(&reg, p);
        }
    } else {
        printf("%-16s %-7s %s\n", "name", "role", "what it does");
        for (int role = BL_ROLE_LOSS; role <= BL_ROLE_TASK; role++)
            for (size_t j = 0; j < reg.n; j++)
                if ((int)reg.plugin[j]->role == role)
                    printf("%-16s %-7s %s\n", reg.plugin[j]->name, bl_role_name(role),
                           reg.plugin[j]->doc);
    }
    bl_registry_free(&reg);
    return rc;
}
