/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `boostlab new ROLE NAME [DIR]`: start an out-of-tree plugin from the
 * template of its role.  The template folder (templates/ROLE: my_ROLE.c and
 * a Makefile) is copied to DIR with the placeholder plugin name "my-ROLE"
 * replaced by NAME and the C prefix "my_ROLE" by NAME with '-' as '_', in
 * the file names as in the text.  It never overwrites: DIR must not exist.
 *
 * Templates come from the source tree when this is the uninstalled program
 * (so edits to templates/ show at once, like the loader's plugins/), else
 * from the installed $(pkgdatadir)/templates, else from share/boostlab/
 * templates beside the program's bin/ (a relocated or staged install);
 * BOOSTLAB_TEMPLATE_DIR overrides them all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "cli.h"

#define NAME_MAX_LEN 64
#define TEMPLATE_MAX_BYTES (1 << 20) /* templates are small text files */

static const char *const new_help =
    "Usage: boostlab new ROLE NAME [DIR]\n"
    "\n"
    "Start a plugin from the template of its role: copy the template folder to\n"
    "DIR (default ./NAME), with NAME as the plugin's name and, '-' written '_',\n"
    "as its source file's name (NAME.c) and C prefix.  The folder holds the\n"
    "plugin's source and a Makefile (GNU make): 'make' builds NAME.so against the\n"
    "headers pkg-config finds (or BOOSTLAB_INCLUDE=INCLUDEDIR), 'make check' runs\n"
    "'boostlab check-plugin' on it.  DIR must not exist: nothing is overwritten.\n"
    "\n"
    "Roles and what their template is:\n"
    "  loss     soft hinge (logistic) multi-class margin loss, with its gradient\n"
    "  weak     one-feature threshold on the quantized view, with save/load\n"
    "  solver   projected gradient descent with backtracking\n"
    "  coding   one-vs-all code\n"
    "  task     ordinal multi-class task for StructBoost: cost |y - y'|, one block\n"
    "           per class, loss-augmented argmax by enumeration\n"
    "\n"
    "NAME starts with a lowercase letter, followed by lowercase letters, digits,\n"
    "'-' or '_' (at most 64 characters), and must not be a loaded plugin's name:\n"
    "experiments refer to plugins by it.\n"
    "\n"
    "Options:\n"
    "  -h, --help   this text\n"
    "\n"
    "Templates are read from BOOSTLAB_TEMPLATE_DIR when it is set, else from the\n"
    "source tree when this boostlab runs from its build tree, else from the\n"
    "installed templates folder (" BL_DATA_DIR "/templates), else from\n"
    "share/boostlab/templates beside the program's bin/ folder.\n";

static const char *const roles[] = {"loss", "weak", "solver", "coding", "task"};

/* ---- arguments ------------------------------------------------------------ */

static int valid_role(const char *role)
{
    for (size_t j = 0; j < sizeof roles / sizeof *roles; j++)
        if (!strcmp(role, roles[j]))
            return 1;
    return 0;
}

/* NULL when NAME is fine, else why not.  The first character is a letter so
 * that NAME also makes a C identifier. */
static const char *name_problem(const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return "it is empty";
    if (n > NAME_MAX_LEN)
        return "it is longer than 64 characters";
    for (const char *p = name; *p; p++) {
        if (*p >= 'A' && *p <= 'Z')
            return "plugin names are lowercase";
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return "use lowercase letters, digits, '-' and '_' only";
    }
    if (!(name[0] >= 'a' && name[0] <= 'z'))
        return "it must start with a letter (it also becomes a C identifier)";
    return NULL;
}

/* ---- where the templates are ------------------------------------------------ */

static char *template_root(int *in_tree)
{
    *in_tree = 0;
    const char *env = getenv("BOOSTLAB_TEMPLATE_DIR");
    if (env && *env)
        return bl_strdup(env);
    char *exe = bl_exe_dir();
    if (exe && !strcmp(exe, BL_BUILD_DIR)) {
        free(exe);
        *in_tree = 1;
        return bl_strdup(BL_SOURCE_DIR "/templates");
    }
    char *root = bl_strdup(BL_DATA_DIR "/templates");
    if (!bl_dir_exists(root) && exe) {
        char *rel = bl_path_join(exe, "../share/boostlab/templates");
        if (bl_dir_exists(rel)) {
            free(root);
            root = rel;
        } else {
            free(rel);
        }
    }
    free(exe);
    return root;
}

/* ---- copying ------------------------------------------------------------------ */

/* Every occurrence of from[j] in s replaced by to[j] (j < n); malloc'ed. */
static char *replace_all(const char *s, const char *const *from, const char *const *to, size_t n)
{
    size_t cap = strlen(s) + 1, len = 0;
    char *out = bl_xmalloc(cap);
    while (*s) {
        size_t j = 0;
        while (j < n && strncmp(s, from[j], strlen(from[j])) != 0)
            j++;
        const char *piece = j < n ? to[j] : s;
        size_t plen = j < n ? strlen(to[j]) : 1;
        if (len + plen + 1 > cap) {
            cap = 2 * (len + plen + 1);
            out = bl_xrealloc(out, cap);
        }
        memcpy(out + len, piece, plen);
        len += plen;
        s += j < n ? strlen(from[j]) : 1;
    }
    out[len] = 0;
    return out;
}

static char *read_text(const char *path, char *why, size_t whylen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whylen, "%s", strerror(errno));
        return NULL;
    }
    char *buf = bl_xmalloc(TEMPLATE_MAX_BYTES + 1);
    size_t n = fread(buf, 1, TEMPLATE_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n > TEMPLATE_MAX_BYTES || memchr(buf, 0, n)) {
        snprintf(why, whylen, "%s", bad ? "read error" : "not a small text file");
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

/* Create path (it must not exist) holding text. */
static int write_new(const char *path, const char *text, char *why, size_t whylen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(why, whylen, "%s", strerror(errno));
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    if (close(fd) < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The template's file names, sorted: regular files only, no dot files and
 * no build products (a template folder someone ran make in). */
static char **template_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name, *dot = strrchr(nm, '.');
        if (nm[0] == '.' || (dot && (!strcmp(dot, ".so") || !strcmp(dot, ".o"))))
            continue;
        char *full = bl_path_join(dir, nm);
        struct stat st;
        int regular = stat(full, &st) == 0 && S_ISREG(st.st_mode);
        free(full);
        if (!regular)
            continue;
        names = bl_xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = bl_strdup(nm);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t j = 0; j < n; j++)
        free(names[j]);
    free(names);
}

/* ---- printing ------------------------------------------------------------------ */

/* s as one shell word: as is when it is plain, else single-quoted;
 * malloc'ed. */
static char *shell_word(const char *s)
{
    static const char plain[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%";
    if (*s && strspn(s, plain) == strlen(s))
        return bl_strdup(s);
    char *q = bl_xmalloc(4 * strlen(s) + 3), *o = q;
    *o++ = '\'';
    for (; *s; s++)
        if (*s == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *s;
        }
    *o++ = '\'';
    *o = 0;
    return q;
}

/* The three steps after `new`: build, check, load (and the INI lines). */
static void print_next(const char *role, const char *name, const char *ident, const char *dir,
                       const char *absdir, int in_tree)
{
    char *qdir = shell_word(dir), *so = bl_xmalloc(strlen(absdir) + strlen(ident) + 8);
    sprintf(so, "%s/%s.so", absdir, ident);
    char *qso = shell_word(so);
    /* the uninstalled boostlab has no .pc for pkg-config: name its headers */
    char *inc = shell_word(BL_SOURCE_DIR "/include");
    char *make = bl_xmalloc(strlen(inc) + 32);
    if (in_tree)
        sprintf(make, "make BOOSTLAB_INCLUDE=%s", inc);
    else
        strcpy(make, "make");
    free(inc);
    size_t len = strlen(qdir) + strlen(qso) + strlen(make) + 2 * strlen(ident) + 64;
    char *build = bl_xmalloc(len), *check = bl_xmalloc(len);
    snprintf(build, len, "cd %s && %s", qdir, make);
    snprintf(check, len, "boostlab check-plugin ./%s.so", ident);
    int w = (int)(strlen(build) > strlen(check) ? strlen(build) : strlen(check));
    printf("\nNext:\n");
    printf("  %-*s   # build %s.so\n", w, build, ident);
    printf("  %-*s   # run the %s contract on random problems\n", w, check, role);
    printf("  export BOOSTLAB_PLUGIN_PATH=%s\n", qso);
    printf("and use it in an experiment's [algorithm] section:\n");
    if (!strcmp(role, "coding"))
        printf("  recipe = adaboost-ecc\n  coding = %s\n  weak.criterion = each   "
               "; a stump per code column\n", name);
    else if (!strcmp(role, "task"))
        printf("  recipe = structboost-stump   ; method = structboost, weak = stump\n"
               "  task = %s\n", name);
    else
        printf("  recipe = mcboost-exp\n  %s = %s\n", role, name);
    free(build);
    free(check);
    free(make);
    free(qso);
    free(so);
    free(qdir);
}

/* ---- the command ----------------------------------------------------------------- */

/* Refuse a NAME some loaded plugin already has: the loader would refuse to
 * load both.  When the plugins cannot be loaded, there is nothing to check. */
static int name_taken(const char *name)
{
    bl_registry reg;
    bl_error err;
    memset(&reg, 0, sizeof reg);
    int taken = 0;
    if (bl_registry_load_std(&reg, &err) == 0) {
        const struct bl_plugin *p = bl_registry_find(&reg, name, 0);
        if (p) {
            fprintf(stderr, "boostlab new: a %s plugin named '%s' already exists (%s); plugin "
                    "names must be unique, since experiments refer to plugins by name\n",
                    bl_role_name(p->role), name, bl_registry_file_of(&reg, p));
            taken = 1;
        }
    }
    bl_registry_free(&reg);
    return taken;
}

int cmd_new(int argc, char **argv)
{
    const char *pos[3];
    int npos = 0;
    for (int j = 1; j < argc; j++) {
        if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h")) {
            fputs(new_help, stdout);
            return BL_EXIT_OK;
        }
        if (!strcmp(argv[j], "--")) {
            for (j++; j < argc; j++)
                if (npos < 3)
                    pos[npos++] = argv[j];
                else
                    return cli_usage("new", "too many arguments (expected ROLE NAME [DIR])");
            break;
        }
        if (argv[j][0] == '-' && argv[j][1]) {
            fprintf(stderr, "boostlab new: unknown option '%s'\nTry 'boostlab new --help'.\n",
                    argv[j]);
            return BL_EXIT_USAGE;
        }
        if (npos == 3)
            return cli_usage("new", "too many arguments (expected ROLE NAME [DIR])");
        pos[npos++] = argv[j];
    }
    if (npos < 2)
        return cli_usage("new", npos ? "missing NAME (expected ROLE NAME [DIR])"
                                     : "missing ROLE and NAME (expected ROLE NAME [DIR])");
    const char *role = pos[0], *name = pos[1];
    if (!valid_role(role)) {
        fprintf(stderr, "boostlab new: unknown role '%s' (roles: loss, weak, solver, coding, "
                "task)\nTry 'boostlab new --help'.\n", role);
        return BL_EXIT_USAGE;
    }
    const char *why = name_problem(name);
    if (why) {
        fprintf(stderr, "boostlab new: '%s' is not a valid plugin name: %s\n"
                "Try 'boostlab new --help'.\n", name, why);
        return BL_EXIT_USAGE;
    }
    if (npos == 3 && !*pos[2])
        return cli_usage("new", "DIR is empty");
    if (name_taken(name))
        return BL_EXIT_USAGE;

    /* identifiers and the placeholders they replace */
    char ident[NAME_MAX_LEN + 1], ph_name[32], ph_ident[32];
    snprintf(ident, sizeof ident, "%s", name);
    for (char *p = ident; *p; p++)
        if (*p == '-')
            *p = '_';
    snprintf(ph_name, sizeof ph_name, "my-%s", role);
    snprintf(ph_ident, sizeof ph_ident, "my_%s", role);
    const char *from[] = {ph_name, ph_ident}, *to[] = {name, ident};

    /* DIR without trailing slashes ("/" stays) */
    char *dir = bl_strdup(npos == 3 ? pos[2] : name);
    for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
        dir[l - 1] = 0;

    int in_tree;
    char *root = template_root(&in_tree);
    char *tdir = bl_path_join(root, role);
    size_t nfiles = 0;
    char **files = template_files(tdir, &nfiles);
    int rc = BL_EXIT_FAIL;
    char msg[256];
    size_t made = 0;
    char **outs = NULL;
    if (!files || !nfiles) {
        fprintf(stderr, "boostlab new: no %s template in %s (set BOOSTLAB_TEMPLATE_DIR to the "
                "folder holding loss/, weak/, solver/, coding/ and task/)\n", role, tdir);
        goto done;
    }
    /* the parent may be created; DIR itself must be new (mkdir is atomic) */
    char *parent = bl_path_dir(dir);
    bl_error err;
    int prc = bl_mkdirs(parent, &err);
    free(parent);
    if (prc < 0) {
        fprintf(stderr, "boostlab new: %s\n", err.msg);
        goto done;
    }
    if (mkdir(dir, 0755) < 0) {
        if (errno == EEXIST)
            fprintf(stderr, "boostlab new: %s already exists; boostlab new never overwrites "
                    "(remove it or name another DIR)\n", dir);
        else
            fprintf(stderr, "boostlab new: cannot create %s: %s\n", dir, strerror(errno));
        goto done;
    }
    outs = bl_xcalloc(nfiles, sizeof *outs);
    for (size_t j = 0; j < nfiles; j++) {
        char *src = bl_path_join(tdir, files[j]);
        char *text = read_text(src, msg, sizeof msg);
        if (!text) {
            fprintf(stderr, "boostlab new: %s: %s\n", src, msg);
            free(src);
            goto undo;
        }
        free(src);
        char *fname = replace_all(files[j], from, to, 2);
        char *body = replace_all(text, from, to, 2);
        free(text);
        outs[made] = bl_path_join(dir, fname);
        free(fname);
        int wrc = write_new(outs[made], body, msg, sizeof msg);
        free(body);
        if (wrc < 0) {
            fprintf(stderr, "boostlab new: cannot write %s: %s\n", outs[made], msg);
            free(outs[made]);
            goto undo;
        }
        made++;
    }
    char *absdir = realpath(dir, NULL);
    printf("Created the %s plugin '%s' in %s (from %s):\n", role, name, dir, tdir);
    for (int pass = 0; pass < 2; pass++) /* the source first, then the rest */
        for (size_t j = 0; j < made; j++) {
            const char *dot = strrchr(outs[j], '.');
            if ((pass == 0) == (dot && !strcmp(dot, ".c")))
                printf("  %s\n", outs[j]);
        }
    print_next(role, name, ident, dir, absdir ? absdir : dir, in_tree);
    free(absdir);
    rc = BL_EXIT_OK;
    goto done;

undo: /* leave nothing half made */
    for (size_t j = 0; j < made; j++)
        unlink(outs[j]);
    rmdir(dir);
done:
    if (outs)
        for (size_t j = 0; j < made; j++)
            free(outs[j]);
    free(outs);
    free_names(files, nfiles);
    free(tdir);
    free(root);
    free(dir);
    return rc;
}
