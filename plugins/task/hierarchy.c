/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "hierarchy": hierarchical multi-class classification with the
 * tree loss, StructBoost spec §4.4, formulation A (tensor form).
 *
 * The taxonomy is data, read from the text file named by `taxonomy`: '#'
 * starts a comment (to the end of the line), blank lines are skipped, and
 * every other line reads `PARENT: CHILD, CHILD, ...` (names trimmed; a
 * parent may have several lines).  Its leaves are exactly the data's
 * classes, matched by name; internal names are free text (no ',' ':' '#').
 * Exactly one root, every node at most one parent, no cycles, every class
 * a leaf exactly once: each violation is refused naming file, line and
 * culprit.  Gamma_z(y) = 1 when node z is y or an ancestor of y.
 *
 * coding = tree: one block per node except the root (the root's column is
 * in every Gamma and cancels in delta psi), psi = phi(x) Gamma_z(y), Delta
 * = tree loss = height of the lowest common ancestor, height(node) = the
 * longest downward path to a leaf (leaves 0; spec's suggested reading for
 * unbalanced trees).  Blocks 0..k-1 are the leaves in class order, then
 * the internal nodes in order of first mention.  delta psi_i(y) is +1 on
 * the nodes above y_i but not y and -1 on those above y but not y_i (the
 * common ancestors cancel), so argmax_aug uses the same difference.
 * coding = flat: StructBoost-flat, k one-hot blocks and the 0/1 loss, as
 * "multiclass", but in this file so its tree loss is measured too.
 * Metrics "error,tree_loss" in both codings; labels are int32 class
 * indices (label_is_class), so other algorithms' predictions can be
 * scored, pred alone.
 */
#include "common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>

enum { P_TAXONOMY, P_CODING, P_COUNT };
enum { CODING_TREE, CODING_FLAT };

static const struct bl_param_spec hier_params[] = {
    {"taxonomy", BL_PARAM_STRING, "", 0, 0, NULL,
     "taxonomy file: lines 'PARENT: CHILD, CHILD, ...' whose leaves are the class names"},
    {"coding", BL_PARAM_CHOICE, "tree", 0, 0, "tree|flat",
     "tree: a block per non-root node and the tree loss; flat: one-hot, 0/1 loss"},
};

struct hier {
    size_t m, k;
    const int *y;
    size_t maxlen;   /* longest path                                    */
    uint32_t *path;  /* path of class c: blocks path[c*maxlen ..], root side first */
    size_t *plen;
    double *delta;   /* k x k training loss (tree loss or 0/1)          */
    double *tree;    /* k x k tree loss, for the metric                 */
    double worst;    /* the root's height, the largest tree loss        */
    char **names;
    struct bl_task_view x;
};

/* ---- the taxonomy file ------------------------------------------------ */

struct tnode {
    char *name;
    long parent;       /* -1: none (yet)                      */
    size_t line;       /* where it is listed under its parent */
    size_t first_line; /* where it is first named             */
    int has_children;
};

struct tax {
    const char *file;
    size_t n, cap;
    struct tnode *v;
};

static void tax_free(struct tax *t)
{
    for (size_t j = 0; j < t->n; j++)
        free(t->v[j].name);
    free(t->v);
}

static long tax_find(const struct tax *t, const char *name)
{
    for (size_t j = 0; j < t->n; j++)
        if (!strcmp(t->v[j].name, name))
            return (long)j;
    return -1;
}

static long tax_node(struct tax *t, const char *name, size_t line)
{
    long j = tax_find(t, name);
    if (j >= 0)
        return j;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        struct tnode *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v, t->cap = cap;
    }
    char *s = strdup(name);
    if (!s)
        return -1;
    t->v[t->n] = (struct tnode){.name = s, .parent = -1, .first_line = line};
    return (long)t->n++;
}

/* s trimmed in place of surrounding white space. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = 0;
    return s;
}

static long class_of(const char *const *classes, size_t k, const char *name)
{
    for (size_t c = 0; c < k; c++)
        if (classes[c] && !strcmp(classes[c], name))
            return (long)c;
    return -1;
}

/* err = "task hierarchy: " + message; returns -1. */
static int herr(char err[BL_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int herr(char err[BL_ERR_MAX], const char *fmt, ...)
{
    int n = snprintf(err, BL_ERR_MAX, "task hierarchy: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, BL_ERR_MAX - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

#define TERR(...) herr(err, __VA_ARGS__)

/* One line `PARENT: CHILD, ...` (comment and blanks already gone). */
static int tax_line(struct tax *t, char *s, size_t line, const char *const *classes, size_t k,
                    char err[BL_ERR_MAX])
{
    const char *f = t->file;
    char *colon = strchr(s, ':');
    if (!colon)
        return TERR("%s:%zu: expected 'PARENT: CHILD, CHILD, ...', got '%.80s'", f, line, s);
    *colon = 0;
    char *pname = trim(s), *rest = trim(colon + 1);
    if (!*pname)
        return TERR("%s:%zu: no parent name before ':'", f, line);
    if (!*rest)
        return TERR("%s:%zu: '%s' lists no children", f, line, pname);
    if (class_of(classes, k, pname) >= 0)
        return TERR("%s:%zu: '%s' is a class of the data, so it must be a leaf, but it is "
                    "given children", f, line, pname);
    long p = tax_node(t, pname, line);
    if (p < 0)
        return TERR("out of memory");
    t->v[p].has_children = 1;
    for (char *tok = rest;;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = 0;
        char *cname = trim(tok);
        if (!*cname)
            return TERR("%s:%zu: empty child name under '%s'", f, line, t->v[p].name);
        if (!strcmp(cname, t->v[p].name))
            return TERR("%s:%zu: cycle: '%s' is listed as its own child", f, line, cname);
        long c = tax_node(t, cname, line);
        if (c < 0)
            return TERR("out of memory");
        struct tnode *C = &t->v[c];
        if (C->parent == p)
            return TERR("%s:%zu: '%s' is listed twice under '%s' (also on line %zu)", f, line,
                        cname, t->v[p].name, C->line);
        if (C->parent >= 0)
            return TERR("%s:%zu: '%s' has two parents: '%s' (line %zu) and '%s'", f, line, cname,
                        t->v[C->parent].name, C->line, t->v[p].name);
        C->parent = p;
        C->line = line;
        if (!comma)
            break;
        tok = comma + 1;
    }
    return 0;
}

/* Whole-tree checks: no cycle, one root, leaves = classes. leaf[c] gets the
 * node of class c.  `last` is the number of lines read. */
static int tax_check(const struct tax *t, size_t last, const char *const *classes, size_t k,
                     long *leaf, char err[BL_ERR_MAX])
{
    const char *f = t->file;
    if (t->n == 0)
        return TERR("%s:%zu: no 'PARENT: CHILD, ...' line in the taxonomy", f, last);
    for (size_t j = 0; j < t->n; j++) {
        /* Every node has at most one parent, so the parent chain either
         * ends at a root within n steps or is caught in a cycle. */
        long u = (long)j;
        for (size_t s = 0; s < t->n && u >= 0; s++)
            u = t->v[u].parent;
        if (u < 0)
            continue;
        /* Report the edge read last: the line that closed the cycle. */
        for (long w = t->v[u].parent; w != u; w = t->v[w].parent)
            if (t->v[w].line > t->v[u].line)
                u = w;
        char msg[BL_ERR_MAX];
        size_t len = 0;
        long w = u;
        do {
            len += (size_t)snprintf(msg + len, len < sizeof msg ? sizeof msg - len : 0,
                                    "'%s' under ", t->v[w].name);
            w = t->v[w].parent;
        } while (w != u && len < sizeof msg);
        return TERR("%s:%zu: cycle: %.300s'%s'", f, t->v[u].line, msg, t->v[u].name);
    }
    long root = -1;
    for (size_t j = 0; j < t->n; j++)
        if (t->v[j].parent < 0) {
            if (root >= 0)
                return TERR("%s:%zu: two roots, '%s' (line %zu) and '%s': every node but one "
                            "needs a parent", f, t->v[j].first_line, t->v[root].name,
                            t->v[root].first_line, t->v[j].name);
            root = (long)j;
        }
    for (size_t j = 0; j < t->n; j++)
        if (!t->v[j].has_children && class_of(classes, k, t->v[j].name) < 0)
            return TERR("%s:%zu: unknown class '%s': a leaf of the taxonomy must be a class of "
                        "the data", f, t->v[j].line, t->v[j].name);
    for (size_t c = 0; c < k; c++) {
        leaf[c] = tax_find(t, classes[c]);
        if (leaf[c] < 0)
            return TERR("%s:%zu: class '%s' (index %zu) is missing: every class must be a leaf "
                        "of the taxonomy%s", f, last, classes[c], c,
                        strpbrk(classes[c], ",:#") ? " (and names with ',', ':' or '#' cannot be)"
                                                   : "");
    }
    return 0;
}

static int tax_read(struct tax *t, const char *path, const char *const *classes, size_t k,
                    long *leaf, char err[BL_ERR_MAX])
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return TERR("cannot open taxonomy file %s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0, line = 0;
    int rc = 0;
    while (rc == 0 && getline(&buf, &cap, fp) >= 0) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *s = trim(buf);
        if (*s)
            rc = tax_line(t, s, line, classes, k, err);
    }
    if (rc == 0 && ferror(fp))
        rc = TERR("%s:%zu: read error: %s", path, line, strerror(errno));
    free(buf);
    fclose(fp);
    return rc < 0 ? rc : tax_check(t, line, classes, k, leaf, err);
}

/* ---- open: paths, losses ----------------------------------------------- */

static void *hier_open(const struct bl_host *host, const union bl_value *params,
                       const struct bl_train *data, const char *const *class_names,
                       char err[BL_ERR_MAX])
{
    (void)host;
    const char *file = params[P_TAXONOMY].s;
    size_t k = data->k;
    if (!file || !*file) {
        TERR("parameter taxonomy is required (the path of a taxonomy file)");
        return NULL;
    }
    if (k < 2 || k > INT32_MAX) {
        TERR("needs 2..%d classes (the data has %zu)", INT32_MAX, k);
        return NULL;
    }
    if (!class_names) {
        TERR("needs the class names (the taxonomy's leaves are matched by name)");
        return NULL;
    }
    for (size_t c = 0; c < k; c++) {
        if (!class_names[c]) {
            TERR("class %zu has no name", c);
            return NULL;
        }
        long d = class_of(class_names, c, class_names[c]);
        if (d >= 0) {
            TERR("classes %ld and %zu have the same name '%s'", d, c, class_names[c]);
            return NULL;
        }
    }
    if (tk_check_labels("hierarchy", data, err) < 0)
        return NULL;

    struct tax t = {.file = file};
    struct hier *T = calloc(1, sizeof *T);
    long *leaf = calloc(k, sizeof *leaf);
    size_t *depth = NULL, *height = NULL;
    long *block = NULL;
    if (!T || !leaf)
        goto oom;
    if (tax_read(&t, file, class_names, k, leaf, err) < 0)
        goto fail;
    size_t n = t.n;
    depth = calloc(n, sizeof *depth);
    height = calloc(n, sizeof *height);
    block = malloc(n * sizeof *block);
    if (!depth || !height || !block)
        goto oom;
    /* Heights: the longest way down to a leaf (every leaf is a class). */
    for (size_t c = 0; c < k; c++) {
        size_t d = 0;
        for (long v = t.v[leaf[c]].parent; v >= 0; v = t.v[v].parent)
            if (height[v] < ++d)
                height[v] = d;
        depth[leaf[c]] = d;
    }
    int tree = params[P_CODING].choice == CODING_TREE;
    size_t B = k;
    for (size_t j = 0; j < n; j++)
        block[j] = -1;
    for (size_t c = 0; c < k; c++)
        block[leaf[c]] = (long)c;
    for (size_t j = 0; j < n; j++)
        if (block[j] < 0 && t.v[j].parent >= 0)
            block[j] = tree ? (long)B++ : -1; /* the root keeps -1 */
    size_t maxlen = 1;
    for (size_t c = 0; c < k; c++)
        if (depth[leaf[c]] > maxlen)
            maxlen = depth[leaf[c]];
    if (!tree)
        maxlen = 1;
    T->path = malloc(k * maxlen * sizeof *T->path);
    T->plen = malloc(k * sizeof *T->plen);
    T->delta = malloc(k * k * sizeof *T->delta);
    T->tree = malloc(k * k * sizeof *T->tree);
    T->names = tk_copy_names(class_names, k);
    if (!T->path || !T->plen || !T->delta || !T->tree || !T->names)
        goto oom;
    for (size_t c = 0; c < k; c++) {
        /* Root side first, root left out (depth[leaf] nodes). */
        size_t len = tree ? depth[leaf[c]] : 1, l = len;
        if (tree)
            for (long v = leaf[c]; t.v[v].parent >= 0; v = t.v[v].parent)
                T->path[c * maxlen + --l] = (uint32_t)block[v];
        else
            T->path[c * maxlen] = (uint32_t)c;
        T->plen[c] = len;
    }
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) {
            long u = leaf[a], v = leaf[b];
            size_t du = depth[u], dv = depth[v];
            for (; du > dv; du--)
                u = t.v[u].parent;
            for (; dv > du; dv--)
                v = t.v[v].parent;
            while (u != v)
                u = t.v[u].parent, v = t.v[v].parent;
            T->tree[a * k + b] = (double)height[u];
            T->delta[a * k + b] = tree ? T->tree[a * k + b] : (double)(a != b);
        }
    T->m = data->m;
    T->k = k;
    T->y = data->y;
    T->maxlen = maxlen;
    for (size_t j = 0; j < n; j++)
        if (t.v[j].parent < 0)
            T->worst = (double)height[j];
    tk_x_view(&T->x, data, B);
    goto done;
oom:
    TERR("out of memory");
fail:
    if (T) {
        free(T->path), free(T->plen), free(T->delta), free(T->tree);
        tk_free_names(T->names, k);
        free(T);
    }
    T = NULL;
done:
    free(leaf), free(depth), free(height), free(block);
    tax_free(&t);
    return T;
}

static void hier_close(void *inst)
{
    struct hier *T = inst;
    if (!T)
        return;
    free(T->path), free(T->plen), free(T->delta), free(T->tree);
    tk_free_names(T->names, T->k);
    free(T);
}

/* ---- the task ---------------------------------------------------------- */

static size_t hier_examples(const void *inst)
{
    return ((const struct hier *)inst)->m;
}

static size_t hier_label_bytes(const void *inst)
{
    (void)inst;
    return sizeof(int32_t);
}

static size_t hier_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *hier_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct hier *)inst)->x : NULL;
}

static void hier_truth(const void *inst, size_t i, void *y)
{
    tk_put_i32(y, ((const struct hier *)inst)->y[i]);
}

static double hier_loss(const void *inst, size_t i, const void *y)
{
    const struct hier *T = inst;
    return T->delta[(size_t)T->y[i] * T->k + (size_t)tk_get_i32(y)];
}

/* Length of the common (root-side) part of the paths of classes a and b. */
static size_t common_len(const struct hier *T, size_t a, size_t b)
{
    const uint32_t *pa = T->path + a * T->maxlen, *pb = T->path + b * T->maxlen;
    size_t l = 0;
    while (l < T->plen[a] && l < T->plen[b] && pa[l] == pb[l])
        l++;
    return l;
}

static size_t hier_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                        size_t cap)
{
    const struct hier *T = inst;
    size_t a = (size_t)T->y[i], b = (size_t)tk_get_i32(y), l = common_len(T, a, b);
    size_t n = (T->plen[a] - l) + (T->plen[b] - l);
    if (n > cap)
        return n;
    size_t j = 0;
    for (size_t q = l; q < T->plen[a]; q++)
        t[j++] = (struct bl_task_term){.view = 0, .block = T->path[a * T->maxlen + q], .point = i,
                                       .coef = 1};
    for (size_t q = l; q < T->plen[b]; q++)
        t[j++] = (struct bl_task_term){.view = 0, .block = T->path[b * T->maxlen + q], .point = i,
                                       .coef = -1};
    return n;
}

/* Sum of the scores of row i on the path of class c from position l on. */
static double path_sum(const struct hier *T, const double *Si, size_t c, size_t l)
{
    double s = 0;
    for (size_t q = l; q < T->plen[c]; q++)
        s += Si[T->path[c * T->maxlen + q]];
    return s;
}

/* F(x_i, c) - F(x_i, y_i) over the nodes not shared (the rest cancels,
 * exactly as in delta psi). */
static double hier_gap(const struct hier *T, const double *Si, size_t c, size_t yi)
{
    size_t l = common_len(T, yi, c);
    return path_sum(T, Si, c, l) - path_sum(T, Si, yi, l);
}

static double hier_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    const struct hier *T = inst;
    const double *Si = S[0] + i * T->x.blocks;
    size_t yi = (size_t)T->y[i], best = yi;
    double bestv = 0; /* the truth's Delta + F - F(y_i) */
    for (size_t c = 0; c < T->k; c++) {
        if (c == yi)
            continue;
        double v = T->delta[yi * T->k + c] + hier_gap(T, Si, c, yi);
        if (v > bestv)
            best = c, bestv = v;
    }
    tk_put_i32(ybar, (int32_t)best);
    return bestv;
}

static int32_t hier_argmax(const struct hier *T, size_t i, const double *S0)
{
    const double *Si = S0 + i * T->x.blocks;
    size_t best = 0;
    double bestF = path_sum(T, Si, 0, 0);
    for (size_t c = 1; c < T->k; c++) {
        double F = path_sum(T, Si, c, 0);
        if (F > bestF)
            best = c, bestF = F;
    }
    return (int32_t)best;
}

static void hier_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    tk_put_i32(y, hier_argmax(inst, i, S[0]));
}

static void hier_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                              void *y)
{
    const struct hier *T = inst;
    tk_put_i32(y, tk_random_other(T->k, T->y[i], rnd, rng));
}

static size_t hier_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    const struct hier *T = inst;
    if (y)
        tk_put_i32(y, tk_other_class(t, T->y[i]));
    return T->k - 1;
}

/* "error" and "tree_loss" of pred (of the argmax of S when pred is NULL). */
static void hier_evaluate(const void *inst, const double *const *S, const void *pred,
                          double *values)
{
    const struct hier *T = inst;
    const unsigned char *p = pred;
    if (!p && !S) {
        values[0] = values[1] = NAN;
        return;
    }
    size_t wrong = 0;
    double tl = 0;
    for (size_t i = 0; i < T->m; i++) {
        int32_t c = p ? tk_get_i32(p + i * sizeof(int32_t)) : hier_argmax(T, i, S[0]);
        if (c < 0 || (size_t)c >= T->k) { /* not a class: wrong, the root's loss */
            wrong++;
            tl += T->worst;
            continue;
        }
        wrong += c != T->y[i];
        tl += T->tree[(size_t)T->y[i] * T->k + (size_t)c];
    }
    values[0] = (double)wrong / (double)T->m;
    values[1] = tl / (double)T->m;
}

static int hier_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    const struct hier *T = inst;
    return tk_format_class(T->names, T->k, tk_get_i32(y), buf, cap);
}

static const struct bl_task_ops hier_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = hier_open,
    .close = hier_close,
    .examples = hier_examples,
    .label_bytes = hier_label_bytes,
    .nviews = hier_nviews,
    .view = hier_view,
    .truth = hier_truth,
    .loss = hier_loss,
    .dpsi = hier_dpsi,
    .argmax_aug = hier_argmax_aug,
    .predict = hier_predict,
    .random_label = hier_random_label,
    .alternatives = hier_alternatives,
    .metrics = "error,tree_loss",
    .evaluate = hier_evaluate,
    .label_is_class = 1,
    .format_label = hier_format_label,
};

static const struct bl_plugin hier_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "hierarchy",
    .doc = "hierarchical classification over a taxonomy file, tree loss (StructBoost-tree/-flat)",
    .params = hier_params,
    .nparams = P_COUNT,
    .ops = &hier_ops,
};

static const struct bl_plugin *const hier_plugins[] = {&hier_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return hier_plugins;
}
