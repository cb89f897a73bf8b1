/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab plugins [--format text|markdown] [NAME]`: what is loaded, and
 * one plugin's parameters.  The text form is for people at a terminal; the
 * Markdown form (one section per role, a table of parameters per plugin,
 * built from the descriptors alone) is what docs/reference/plugins.md is
 * generated from by scripts/gen-reference.sh, so it must not depend on
 * where the plugins were loaded from or in which order. */
#include <boostlab/solver.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/params.h"
#include "cli.h"

static const char plugins_help[] =
    "Usage: boostlab plugins [--format text|markdown] [NAME]\n"
    "\n"
    "Without NAME, list every loaded plugin with its role and one-line doc.\n"
    "With NAME, print the plugin's parameters: type and range, default, meaning.\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT    text (default) or markdown: one section per role and a\n"
    "                      table of parameters per plugin (name, type, range or\n"
    "                      choices, default, meaning), as in docs/reference\n"
    "  -h, --help          this text\n";

/* ---- text ---------------------------------------------------------------- */

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

static void list_text(const bl_registry *reg)
{
    printf("%-16s %-7s %s\n", "name", "role", "what it does");
    for (int role = BL_ROLE_LOSS; role <= BL_ROLE_TASK; role++)
        for (size_t j = 0; j < reg->n; j++)
            if ((int)reg->plugin[j]->role == role)
                printf("%-16s %-7s %s\n", reg->plugin[j]->name, bl_role_name(role),
                       reg->plugin[j]->doc);
}

/* ---- Markdown -------------------------------------------------------------- */

/* Section title and SDK header of each role. */
static const char *role_title(int role)
{
    switch (role) {
    case BL_ROLE_LOSS: return "Losses";
    case BL_ROLE_WEAK: return "Weak learners";
    case BL_ROLE_SOLVER: return "Coefficient solvers";
    case BL_ROLE_CODING: return "Output codings";
    case BL_ROLE_PROJECTION: return "Random projections";
    case BL_ROLE_TASK: return "Structured tasks";
    }
    return "Other plugins";
}

static const char *role_header(int role)
{
    switch (role) {
    case BL_ROLE_LOSS: return "boostlab/loss.h";
    case BL_ROLE_WEAK: return "boostlab/weak.h";
    case BL_ROLE_SOLVER: return "boostlab/solver.h";
    case BL_ROLE_CODING: return "boostlab/coding.h";
    }
    return "boostlab/plugin.h";
}

static int is_word(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int is_blank(int c)
{
    return c == 0 || c == ' ';
}

/* Free text, with what Markdown would take for markup escaped and no more,
 * so that the page stays readable as text: '\\', '`' and '|' (table cells)
 * always; '*' and '_' where they could open or close emphasis (not between
 * blanks, '_' not inside a word: sum_ir); '<' where a tag could start; ']'
 * before '(' (a link); and a heading, quote or list mark at the start. */
static void md_text(const char *s)
{
    if (!s)
        return;
    if (*s == '#' || *s == '>' || ((*s == '-' || *s == '+') && s[1] == ' '))
        putchar('\\');
    for (const char *c = s; *c; c++) {
        int prev = c > s ? (unsigned char)c[-1] : 0, next = (unsigned char)c[1];
        int esc = 0;
        switch (*c) {
        case '\\': case '`': case '|': esc = 1; break;
        case '*': esc = !(is_blank(prev) && is_blank(next)); break;
        case '_':
            esc = !(is_word(prev) && is_word(next)) && !(is_blank(prev) && is_blank(next));
            break;
        case '<': esc = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
                        (next && strchr("/!?", next)); break;
        case ']': esc = next == '('; break;
        }
        if (*c == '\n' || *c == '\r' || *c == '\t')
            putchar(' ');
        else if (esc)
            printf("\\%c", *c);
        else
            putchar(*c);
    }
}

/* s as a code span that may stand in a table cell: '|' is escaped (GFM
 * tables split cells before code spans), a value holding backticks gets a
 * longer fence. */
static void md_code(const char *s)
{
    if (!s || !*s) {
        fputs("(empty)", stdout);
        return;
    }
    int ticks = strchr(s, '`') != NULL;
    fputs(ticks ? "`` " : "`", stdout);
    for (const char *c = s; *c; c++) {
        if (*c == '|')
            fputs("\\|", stdout);
        else if (*c == '\n' || *c == '\r' || *c == '\t')
            putchar(' ');
        else
            putchar(*c);
    }
    fputs(ticks ? " ``" : "`", stdout);
}

/* A range bound: integers in full, reals as %.10g, infinities as inf. */
static void bound(double x, int integer, char *buf, size_t cap)
{
    if (isinf(x))
        snprintf(buf, cap, "%sinf", x < 0 ? "-" : "");
    else if (integer && fabs(x) < 1e18)
        snprintf(buf, cap, "%.0f", x);
    else
        snprintf(buf, cap, "%.10g", x);
}

static void md_param_row(const struct bl_param_spec *s)
{
    static const char *const type_name[] = {"?", "integer", "real", "boolean", "choice", "text"};
    int t = s->type >= BL_PARAM_INT && s->type <= BL_PARAM_STRING ? (int)s->type : 0;
    char lo[40], hi[40], range[100];
    fputs("| ", stdout);
    md_code(s->name);
    printf(" | %s | ", type_name[t]);
    switch (s->type) {
    case BL_PARAM_INT:
    case BL_PARAM_REAL:
        bound(s->min, s->type == BL_PARAM_INT, lo, sizeof lo);
        bound(s->max, s->type == BL_PARAM_INT, hi, sizeof hi);
        snprintf(range, sizeof range, "%s%s, %s%s",
                 s->type == BL_PARAM_REAL && isinf(s->min) ? "(" : "[", lo, hi,
                 s->type == BL_PARAM_REAL && isinf(s->max) ? ")" : "]");
        md_code(range);
        break;
    case BL_PARAM_BOOL:
        fputs("`true`, `false`", stdout);
        break;
    case BL_PARAM_CHOICE:
        for (const char *c = s->choices; c && *c;) {
            const char *bar = strchr(c, '|');
            size_t len = bar ? (size_t)(bar - c) : strlen(c);
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1),
                     c);
            md_code(word);
            if (bar)
                fputs(", ", stdout);
            c = bar ? bar + 1 : NULL;
        }
        break;
    default:
        fputs("any text", stdout);
    }
    fputs(" | ", stdout);
    md_code(s->def);
    fputs(" | ", stdout);
    md_text(s->doc);
    fputs(" |\n", stdout);
}

static void md_plugin(const bl_registry *reg, const struct bl_plugin *p)
{
    const char *file = bl_registry_file_of(reg, p);
    const char *base = file ? strrchr(file, '/') : NULL;
    base = base ? base + 1 : file;
    const char *key = bl_role_name(p->role);
    printf("### `%s`\n\n", p->name);
    md_text(p->doc);
    printf("\n\n- role: `%s` (`%s`), plugin SDK %u.%u", key, role_header(p->role),
           p->sdk_version >> 16, p->sdk_version & 0xffff);
    if (base) {
        fputs(", shared object ", stdout);
        md_code(base);
    }
    putchar('\n');
    if (p->role == BL_ROLE_SOLVER)
        printf("- scope: %s\n", ((const struct bl_solver_ops *)p->ops)->scope == BL_SOLVE_ALL
                                    ? "all coefficient rows, each iteration (totally corrective)"
                                    : "the newest coefficient row (stage-wise)");
    if (p->role >= BL_ROLE_LOSS && p->role <= BL_ROLE_CODING) {
        printf("- in an `[algorithm]` section or a recipe: `%s = %s`", key, p->name);
        if (p->nparams)
            printf(", parameters as `%s.NAME = VALUE`", key);
        putchar('\n');
    }
    if (!p->nparams) {
        fputs("\nNo parameters.\n\n", stdout);
        return;
    }
    fputs("\n| parameter | type | range or choices | default | meaning |\n"
          "|---|---|---|---|---|\n", stdout);
    for (size_t j = 0; j < p->nparams; j++)
        md_param_row(&p->params[j]);
    putchar('\n');
}

static int by_name(const void *a, const void *b)
{
    const struct bl_plugin *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

/* The plugins of one role, sorted by name (the load order depends on file
 * names and on the search path, the documentation must not). */
static size_t of_role(const bl_registry *reg, int role, const struct bl_plugin **out)
{
    size_t n = 0;
    for (size_t j = 0; j < reg->n; j++)
        if ((int)reg->plugin[j]->role == role)
            out[n++] = reg->plugin[j];
    qsort(out, n, sizeof *out, by_name);
    return n;
}

static int list_markdown(const bl_registry *reg)
{
    const struct bl_plugin **sel = malloc((reg->n ? reg->n : 1) * sizeof *sel);
    if (!sel)
        return cli_fail("out of memory");
    fputs("| plugin | role | what it does |\n|---|---|---|\n", stdout);
    for (int role = BL_ROLE_LOSS; role <= BL_ROLE_TASK; role++) {
        size_t n = of_role(reg, role, sel);
        for (size_t j = 0; j < n; j++) {
            printf("| [`%s`](#%s) | %s | ", sel[j]->name, sel[j]->name, bl_role_name(role));
            md_text(sel[j]->doc);
            fputs(" |\n", stdout);
        }
    }
    putchar('\n');
    for (int role = BL_ROLE_LOSS; role <= BL_ROLE_TASK; role++) {
        size_t n = of_role(reg, role, sel);
        if (!n)
            continue;
        printf("## %s (`%s`)\n\n", role_title(role), bl_role_name(role));
        for (size_t j = 0; j < n; j++)
            md_plugin(reg, sel[j]);
    }
    free(sel);
    return BL_EXIT_OK;
}

/* ---- command --------------------------------------------------------------- */

int cmd_plugins(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int markdown = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
        switch (o) {
        case 'f':
            if (!strcmp(optarg, "text"))
                markdown = 0;
            else if (!strcmp(optarg, "markdown"))
                markdown = 1;
            else
                return cli_usage("plugins", "--format expects text or markdown");
            break;
        case 'h': fputs(plugins_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("plugins", "an option is missing its value");
        default: return cli_usage("plugins", "unknown option");
        }
    }
    if (argc - optind > 1)
        return cli_usage("plugins", "expected at most one plugin name");
    const char *name = optind < argc ? argv[optind] : NULL;
    bl_registry reg;
    if (cli_registry(&reg))
        return BL_EXIT_FAIL;
    int rc = BL_EXIT_OK;
    if (name) {
        const struct bl_plugin *p = bl_registry_find(&reg, name, 0);
        if (!p) {
            fprintf(stderr, "boostlab: no plugin named '%s' (loaded: %s; %s)\n", name,
                    bl_registry_names(&reg, 0), bl_registry_hint(&reg));
            rc = BL_EXIT_FAIL;
        } else if (markdown) {
            md_plugin(&reg, p);
        } else {
            show(&reg, p);
        }
    } else if (markdown) {
        rc = list_markdown(&reg);
    } else {
        list_text(&reg);
    }
    bl_registry_free(&reg);
    return rc;
}
