/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the structured-task plugins (task role,
 * plugins/task/): "binary-task", "auc", "multiclass" and "hierarchy" (tree
 * and flat coding), loaded through the registry from the build tree (which
 * also proves their names clash with no other plugin's).  On small
 * synthetic data and random score matrices S, every example is checked
 * against brute force built from the task's own loss() and dpsi() only:
 * argmax_aug against all of truth + alternatives (hinge and label, ties to
 * the truth), predict against the argmax of F, loss(truth) = 0 and
 * dpsi(truth) without net effect, random labels.  Then the tree loss and
 * Gamma of the 6-leaf taxonomy of spec §9.7, the shipped taxonomies, the
 * taxonomy errors (file, line, culprit), AUC against pair counting with
 * ties, and evaluate from predictions alone (S = NULL).
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "plugin/loader.h"
#include "plugin/params.h"
#include "testutil.h"

/* ---- registry, data, opening ---------------------------------------------- */

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

TestSuite(tasks, .init = load_tree, .fini = unload);

static const char *const cnames[] = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"};

/* m rows, 2 features (feature-major), labels 0..k-1 with every class
 * present (the first k rows), the rest random. */
struct synth {
    struct bl_train tr;
    int y[64];
    float x[128];
};

static void synth_make(struct synth *s, size_t m, size_t k)
{
    cr_assert(m <= 64 && k <= m);
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < m; i++) {
        s->y[i] = i < k ? (int)i : (int)irand(k);
        s->x[i] = (float)urand();
        s->x[m + i] = (float)urand();
    }
    s->tr = (struct bl_train){.m = m, .d = 2, .k = k, .y = s->y, .X = {m, 2, s->x}};
}

/* Opens task `name` with parameters kv (name, value, ..., NULL); NULL with
 * err set when the task refuses. */
static void *open_task(const char *name, const char *const *kv, const struct bl_train *tr,
                       const char *const *names, const struct bl_task_ops **ops, char *err)
{
    const struct bl_plugin *p = bl_registry_find(&reg, name, BL_ROLE_TASK);
    cr_assert_not_null(p, "task %s not found", name);
    cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
    bl_paramset ps;
    bl_error e;
    cr_assert_eq(bl_paramset_init(&ps, p, &e), 0, "%s", e.msg);
    for (; kv && kv[0]; kv += 2)
        cr_assert_eq(bl_paramset_set(&ps, kv[0], kv[1], &e), 0, "%s", e.msg);
    *ops = p->ops;
    err[0] = 0;
    void *inst = (*ops)->open(&test_host, ps.v, tr, names, err);
    bl_paramset_free(&ps);
    if (!inst)
        cr_assert(err[0], "%s refused without a message", name);
    return inst;
}

static void *must_open(const char *name, const char *const *kv, const struct bl_train *tr,
                       const char *const *names, const struct bl_task_ops **ops)
{
    char err[BL_ERR_MAX];
    void *inst = open_task(name, kv, tr, names, ops, err);
    cr_assert_not_null(inst, "%s: %s", name, err);
    return inst;
}

/* Writes text to a fresh file under /tmp; path receives its name. */
static void write_file(char path[64], const char *text)
{
    strcpy(path, "/tmp/bl-taxonomy-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* ---- brute force from loss() and dpsi() ------------------------------------- */

struct scores {
    size_t nv;
    double *S[4];
};

static void scores_random(struct scores *sc, const struct bl_task_ops *o, const void *inst,
                          double scale)
{
    sc->nv = o->nviews(inst);
    cr_assert(sc->nv >= 1 && sc->nv <= 4);
    const struct bl_task_view *v0 = o->view(inst, 0);
    cr_assert_str_eq(v0->name, "x");
    for (size_t v = 0; v < sc->nv; v++) {
        const struct bl_task_view *V = o->view(inst, v);
        size_t n = V->points.m * V->blocks;
        sc->S[v] = malloc((n ? n : 1) * sizeof(double));
        for (size_t j = 0; j < n; j++)
            sc->S[v][j] = urange(-scale, scale);
    }
}

static void scores_free(struct scores *sc)
{
    for (size_t v = 0; v < sc->nv; v++)
        free(sc->S[v]);
}

/* sum_t coef S[view][point, block] of delta psi_i(y) = F(x_i, y_i) - F(x_i, y),
 * asking dpsi first with no room (the contract's "call again" protocol). */
static double dpsi_sum(const struct bl_task_ops *o, const void *inst, size_t i, const void *y,
                       const double *const *S, size_t *nterms)
{
    size_t n = o->dpsi(inst, i, y, NULL, 0);
    struct bl_task_term t[64];
    cr_assert(n <= 64);
    cr_assert_eq(o->dpsi(inst, i, y, t, 64), n);
    double s = 0;
    for (size_t j = 0; j < n; j++) {
        cr_assert(t[j].view < o->nviews(inst));
        const struct bl_task_view *V = o->view(inst, t[j].view);
        cr_assert(t[j].block < V->blocks && t[j].point < V->points.m, "term %zu out of range", j);
        s += t[j].coef * S[t[j].view][t[j].point * V->blocks + t[j].block];
    }
    if (nterms)
        *nterms = n;
    return s;
}

static uint64_t test_rnd(void *state)
{
    uint64_t *s = state;
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* label_order(a, b) < 0 when a is the lower label (labels compared as the
 * task's integer: int8, uint8 or int32). */
static long label_value(const void *y, size_t lb)
{
    if (lb == 1)
        return *(const signed char *)y;
    int32_t v;
    memcpy(&v, y, 4);
    return v;
}

/* Checks every example of an open task against brute force on `rounds`
 * random score sets. */
static void check_brute(const struct bl_task_ops *o, const void *inst, int rounds)
{
    size_t m = o->examples(inst), lb = o->label_bytes(inst);
    cr_assert(m > 0 && lb > 0 && lb <= 16);
    unsigned char yt[16], yb[16], yp[16], cand[16], best[16], pbest[16];
    uint64_t rs = 12345;
    for (int r = 0; r < rounds; r++) {
        struct scores sc;
        scores_random(&sc, o, inst, r == 0 ? 0.3 : 2.0);
        const double *const *S = (const double *const *)sc.S;
        for (size_t i = 0; i < m; i++) {
            /* (c) the truth: no loss, no net dpsi. */
            o->truth(inst, i, yt);
            cr_assert_eq(o->loss(inst, i, yt), 0.0);
            size_t nt;
            cr_assert(fabs(dpsi_sum(o, inst, i, yt, S, &nt)) < 1e-12);
            /* (a) brute force: truth first, then the alternatives in order. */
            double bh = 0, second = -INFINITY;
            memcpy(best, yt, lb);
            /* predict: G(y) = F(x_i, y) - F(x_i, y_i); lowest label on ties. */
            double pg = 0, psecond = -INFINITY;
            memcpy(pbest, yt, lb);
            size_t A = o->alternatives(inst, i, 0, NULL);
            cr_assert(A >= 1);
            for (size_t t = 0; t < A; t++) {
                memset(cand, 0, sizeof cand);
                cr_assert_eq(o->alternatives(inst, i, t, cand), A);
                cr_assert(memcmp(cand, yt, lb) != 0, "alternative %zu is the truth", t);
                double loss = o->loss(inst, i, cand);
                cr_assert(loss > 0, "Delta(y_i, y) = %g for y != y_i", loss);
                double G = -dpsi_sum(o, inst, i, cand, S, NULL);
                double h = loss + G;
                if (h > bh) {
                    second = bh, bh = h;
                    memcpy(best, cand, lb);
                } else if (h > second) {
                    second = h;
                }
                int lower = label_value(cand, lb) < label_value(pbest, lb);
                if (G > pg || (G == pg && lower)) {
                    psecond = pg, pg = G;
                    memcpy(pbest, cand, lb);
                } else if (G > psecond) {
                    psecond = G;
                }
            }
            double h = o->argmax_aug(inst, i, S, yb);
            cr_assert(h >= 0);
            cr_assert(fabs(h - bh) < 1e-9, "example %zu: h = %.17g, brute force %.17g", i, h, bh);
            if (bh - second > 1e-9)
                cr_assert(memcmp(yb, best, lb) == 0, "example %zu: argmax_aug label differs", i);
            /* the hinge returned is the one of the label returned */
            double hy = o->loss(inst, i, yb) - dpsi_sum(o, inst, i, yb, S, NULL);
            cr_assert(fabs(h - hy) < 1e-9, "example %zu: h %.17g but its label gives %.17g", i,
                      h, hy);
            /* (b) prediction */
            o->predict(inst, i, S, yp);
            if (pg - psecond > 1e-9)
                cr_assert(memcmp(yp, pbest, lb) == 0, "example %zu: predict differs (%ld, %ld)",
                          i, label_value(yp, lb), label_value(pbest, lb));
            /* random labels are wrong labels */
            o->random_label(inst, i, test_rnd, &rs, cand);
            cr_assert(memcmp(cand, yt, lb) != 0 && o->loss(inst, i, cand) > 0);
            char buf[64];
            cr_assert(o->format_label(inst, yb, buf, sizeof buf) > 0);
        }
        scores_free(&sc);
    }
}

/* ---- (a)-(c) for every task --------------------------------------------------- */

Test(tasks, binary_against_brute_force)
{
    rng_seed(1);
    struct synth s;
    synth_make(&s, 30, 3);
    const struct bl_task_ops *o;
    const char *kv[] = {"positive", "1", NULL};
    void *inst = must_open("binary-task", kv, &s.tr, cnames, &o);
    cr_assert_eq(o->examples(inst), 30);
    cr_assert_eq(o->view(inst, 0)->points.x, s.x, "view x is the data itself");
    cr_assert_eq(o->view(inst, 0)->blocks, 1);
    for (size_t i = 0; i < 30; i++) {
        signed char y;
        o->truth(inst, i, &y);
        cr_assert_eq(y, s.y[i] == 1 ? 1 : -1);
    }
    check_brute(o, inst, 4);
    o->close(inst);
}

Test(tasks, auc_against_brute_force)
{
    rng_seed(2);
    struct synth s;
    synth_make(&s, 13, 3);
    const struct bl_task_ops *o;
    void *inst = must_open("auc", NULL, &s.tr, cnames, &o);
    size_t P = 0;
    for (size_t i = 0; i < 13; i++)
        P += s.y[i] == 0;
    cr_assert_eq(o->examples(inst), P * (13 - P));
    check_brute(o, inst, 4);
    o->close(inst);
}

Test(tasks, multiclass_against_brute_force)
{
    rng_seed(3);
    struct synth s;
    synth_make(&s, 30, 5);
    const struct bl_task_ops *o;
    void *inst = must_open("multiclass", NULL, &s.tr, cnames, &o);
    cr_assert_eq(o->view(inst, 0)->blocks, 5);
    cr_assert_eq(o->alternatives(inst, 0, 0, NULL), 4);
    cr_assert_eq(o->label_bytes(inst), 4);
    cr_assert(o->label_is_class);
    check_brute(o, inst, 4);
    o->close(inst);
}

/* The 6-leaf taxonomy inferred in spec §4.4: leaves 1-6, internal nodes 7
 * (over 1-3) and 8 (over 4-6), root 9. */
static const char tax6[] = "# spec 4.4 example\n"
                           "r9: g7, g8   # the root\n"
                           "\n"
                           "g7: c1, c2, c3\n"
                           "g8: c4,c5 , c6\n";

Test(tasks, hierarchy_against_brute_force)
{
    rng_seed(4);
    char path[64];
    write_file(path, tax6);
    struct synth s;
    synth_make(&s, 30, 6);
    for (int flat = 0; flat < 2; flat++) {
        const struct bl_task_ops *o;
        const char *kv[] = {"taxonomy", path, "coding", flat ? "flat" : "tree", NULL};
        void *inst = must_open("hierarchy", kv, &s.tr, cnames, &o);
        cr_assert_eq(o->view(inst, 0)->blocks, flat ? 6 : 8);
        check_brute(o, inst, 4);
        o->close(inst);
    }
    /* an unbalanced tree too */
    char path2[64];
    write_file(path2, "top: a, c6\na: b, c1\nb: c2, c3, d\nd: c4, c5\n");
    const struct bl_task_ops *o;
    const char *kv[] = {"taxonomy", path2, NULL};
    void *inst = must_open("hierarchy", kv, &s.tr, cnames, &o);
    check_brute(o, inst, 4);
    int32_t c4 = 3, c6 = 5, c1 = 0;
    for (size_t i = 0; i < 30; i++)
        if (s.y[i] == 4) {
            cr_assert_eq(o->loss(inst, i, &c4), 1.0);
            cr_assert_eq(o->loss(inst, i, &c1), 3.0); /* a: longest way down a-b-d-c4 */
            cr_assert_eq(o->loss(inst, i, &c6), 4.0);
        }
    o->close(inst);
    unlink(path);
    unlink(path2);
}

/* ---- ties --------------------------------------------------------------------- */

Test(tasks, ties_go_to_the_truth_then_the_lowest_label)
{
    rng_seed(5);
    struct synth s;
    synth_make(&s, 8, 4);
    const struct bl_task_ops *o;
    void *inst = must_open("multiclass", NULL, &s.tr, cnames, &o);
    double S0[32] = {0};
    const double *S[] = {S0};
    int32_t yb;
    for (size_t i = 0; i < 8; i++) {
        /* all scores equal: every wrong class has h = 1, the lowest wins */
        cr_assert_eq(o->argmax_aug(inst, i, S, &yb), 1.0);
        cr_assert_eq(yb, s.y[i] == 0 ? 1 : 0);
        o->predict(inst, i, S, &yb);
        cr_assert_eq(yb, 0);
    }
    for (size_t i = 0; i < 8; i++)
        S0[i * 4 + (size_t)s.y[i]] = 1; /* margin exactly 1: h = 0, the truth */
    for (size_t i = 0; i < 8; i++) {
        cr_assert_eq(o->argmax_aug(inst, i, S, &yb), 0.0);
        cr_assert_eq(yb, s.y[i]);
    }
    o->close(inst);

    inst = must_open("binary-task", NULL, &s.tr, cnames, &o);
    double B0[8];
    const double *SB[] = {B0};
    signed char b, t;
    for (size_t i = 0; i < 8; i++) {
        o->truth(inst, i, &t);
        B0[i] = t;
        cr_assert_eq(o->argmax_aug(inst, i, SB, &b), 0.0);
        cr_assert_eq(b, t);
        B0[i] = 0;
        o->predict(inst, i, SB, &b);
        cr_assert_eq(b, 1, "S = 0 predicts +1");
    }
    o->close(inst);

    inst = must_open("auc", NULL, &s.tr, cnames, &o);
    for (size_t j = 0; j < 8; j++)
        B0[j] = s.y[j] == 0 ? 1 : 0;
    unsigned char a;
    for (size_t i = 0; i < o->examples(inst); i++) {
        cr_assert_eq(o->argmax_aug(inst, i, SB, &a), 0.0);
        cr_assert_eq(a, 0);
    }
    o->close(inst);

    /* hierarchy: with S = 0 the largest tree loss wins, lowest class first;
     * a margin of exactly the largest loss leaves the truth */
    char path[64];
    write_file(path, tax6);
    synth_make(&s, 6, 6);
    const char *kv[] = {"taxonomy", path, NULL};
    inst = must_open("hierarchy", kv, &s.tr, cnames, &o);
    double H0[6 * 8] = {0};
    const double *SH[] = {H0};
    for (size_t i = 0; i < 6; i++) {
        cr_assert_eq(o->argmax_aug(inst, i, SH, &yb), 2.0);
        cr_assert_eq(yb, i < 3 ? 3 : 0);
    }
    for (size_t i = 0; i < 6; i++)
        H0[i * 8 + i] = 2;
    for (size_t i = 0; i < 6; i++) {
        cr_assert_eq(o->argmax_aug(inst, i, SH, &yb), 0.0);
        cr_assert_eq(yb, (int32_t)i);
    }
    o->close(inst);
    unlink(path);
}

/* ---- (d) tree loss and Gamma, spec §9.7 --------------------------------------- */

Test(tasks, tree_loss_and_gamma_of_the_spec_example)
{
    rng_seed(6);
    char path[64];
    write_file(path, tax6);
    struct synth s;
    synth_make(&s, 6, 6); /* row i has class i */
    const struct bl_task_ops *o;
    const char *kv[] = {"taxonomy", path, NULL};
    void *inst = must_open("hierarchy", kv, &s.tr, cnames, &o);
    /* Gamma over nodes 1..9 (spec numbering); Gamma(3) as printed in §4.4. */
    static const int gamma3[9] = {0, 0, 1, 0, 0, 0, 1, 0, 1};
    int G[6][9] = {{0}};
    for (int c = 0; c < 6; c++) {
        G[c][c] = 1;
        G[c][c < 3 ? 6 : 7] = 1;
        G[c][8] = 1;
    }
    cr_assert_arr_eq(G[2], gamma3, sizeof gamma3);
    /* block of node: leaves 1-6 are blocks 0-5, then g7, g8 in order of
     * first mention; the root has none. */
    for (size_t i = 0; i < 6; i++)
        for (int32_t c = 0; c < 6; c++) {
            struct bl_task_term t[16];
            size_t n = o->dpsi(inst, i, &c, t, 16);
            double D[8] = {0};
            for (size_t j = 0; j < n; j++) {
                cr_assert_eq(t[j].point, i);
                cr_assert_eq(t[j].view, 0);
                D[t[j].block] += t[j].coef;
            }
            for (size_t z = 0; z < 8; z++)
                cr_assert_eq(D[z], G[i][z] - G[c][z], "dpsi(%zu, %d) at node %zu", i, c, z + 1);
            /* the tree loss */
            double want = (size_t)c == i ? 0 : ((c < 3) == (i < 3) ? 1 : 2);
            cr_assert_eq(o->loss(inst, i, &c), want, "Delta(%zu, %d)", i, c);
        }
    int32_t same = 0, sib = 1, other = 4;
    cr_assert_eq(o->loss(inst, 0, &same), 0.0);
    cr_assert_eq(o->loss(inst, 0, &sib), 1.0);
    cr_assert_eq(o->loss(inst, 0, &other), 2.0);
    o->close(inst);

    /* flat coding: same tree loss as a metric, 0/1 as the training loss */
    const char *kvf[] = {"taxonomy", path, "coding", "flat", NULL};
    inst = must_open("hierarchy", kvf, &s.tr, cnames, &o);
    cr_assert_eq(o->loss(inst, 0, &other), 1.0);
    int32_t pred[6] = {0, 2, 2, 3, 4, 1}; /* right, sibling, right, right, right, other group */
    double val[2];
    o->evaluate(inst, NULL, pred, val);
    cr_assert_float_eq(val[0], 2.0 / 6, 1e-15);
    cr_assert_float_eq(val[1], 3.0 / 6, 1e-15);
    o->close(inst);
    unlink(path);
}

static const char *const fashion[] = {"T-shirt/top", "Trouser", "Pullover", "Dress",
                                      "Coat",        "Sandal",  "Shirt",    "Sneaker",
                                      "Bag",         "Ankle boot"};
static const char *const satimage[] = {"red soil",           "cotton crop",
                                       "grey soil",          "damp grey soil",
                                       "vegetation stubble", "very damp grey soil"};

/* Tree loss between class a (example a of a data set where row i has class
 * i) and class b. */
static double tloss(const struct bl_task_ops *o, void *inst, size_t a, int32_t b)
{
    return o->loss(inst, a, &b);
}

Test(tasks, shipped_taxonomies)
{
    rng_seed(7);
    /* the class files list the names the tests use */
    FILE *f = fopen(BL_SOURCE_DIR "/data/fashion-mnist.classes", "r");
    cr_assert_not_null(f);
    char line[64];
    for (size_t c = 0; c < 10; c++) {
        cr_assert_not_null(fgets(line, sizeof line, f));
        line[strcspn(line, "\n")] = 0;
        cr_assert_str_eq(line, fashion[c]);
    }
    cr_assert_null(fgets(line, sizeof line, f));
    fclose(f);

    struct synth s;
    synth_make(&s, 10, 10);
    const struct bl_task_ops *o;
    const char *kv[] = {"taxonomy", BL_SOURCE_DIR "/data/fashion-mnist.taxonomy", NULL};
    void *inst = must_open("hierarchy", kv, &s.tr, fashion, &o);
    cr_assert_eq(o->view(inst, 0)->blocks, 15); /* 10 leaves + 5 groups */
    cr_assert_eq(tloss(o, inst, 0, 2), 1.0);    /* T-shirt/top, Pullover */
    cr_assert_eq(tloss(o, inst, 5, 9), 1.0);    /* Sandal, Ankle boot */
    cr_assert_eq(tloss(o, inst, 1, 3), 2.0);    /* Trouser, Dress */
    cr_assert_eq(tloss(o, inst, 8, 7), 2.0);    /* Bag, Sneaker */
    char buf[32];
    int32_t c = 9;
    o->format_label(inst, &c, buf, sizeof buf);
    cr_assert_str_eq(buf, "Ankle boot");
    o->close(inst);

    synth_make(&s, 6, 6);
    const char *kv2[] = {"taxonomy", BL_SOURCE_DIR "/data/satimage.taxonomy", NULL};
    inst = must_open("hierarchy", kv2, &s.tr, satimage, &o);
    cr_assert_eq(tloss(o, inst, 2, 3), 1.0); /* grey soil, damp grey soil */
    cr_assert_eq(tloss(o, inst, 0, 2), 2.0); /* red soil, grey soil */
    cr_assert_eq(tloss(o, inst, 1, 4), 1.0); /* cotton crop, vegetation stubble */
    cr_assert_eq(tloss(o, inst, 5, 1), 3.0); /* very damp grey soil, cotton crop */
    o->close(inst);
}

/* ---- (d) taxonomy errors name file, line and culprit ------------------------- */

static void refused_taxonomy(const char *text, int line, const char *culprit, const char *what)
{
    char path[64], err[BL_ERR_MAX], at[96];
    write_file(path, text);
    struct synth s;
    synth_make(&s, 6, 6);
    const struct bl_task_ops *o;
    const char *kv[] = {"taxonomy", path, NULL};
    void *inst = open_task("hierarchy", kv, &s.tr, cnames, &o, err);
    unlink(path);
    cr_assert_null(inst, "accepted:\n%s", text);
    snprintf(at, sizeof at, "%s:%d:", path, line);
    cr_assert(strstr(err, at), "'%s' does not name %s", err, at);
    cr_assert(strstr(err, culprit), "'%s' does not name %s", err, culprit);
    cr_assert(strstr(err, what), "'%s' does not say %s", err, what);
    cr_assert(strncmp(err, "task hierarchy: ", 16) == 0, "%s", err);
}

Test(tasks, taxonomy_errors)
{
    rng_seed(8);
    refused_taxonomy("r: g1, g2\ng1: c1, c2, c3, cX\ng2: c4, c5, c6\n", 2, "'cX'",
                     "unknown class");
    refused_taxonomy("r: g1, g2\ng1: c1, c2, c3\n# the end\ng2: c4, c5\n", 4, "'c6'", "missing");
    refused_taxonomy("r: g1, g2\ng1: c1, c2, c3\ng2: c3, c4, c5, c6\n", 3, "'c3'",
                     "two parents");
    refused_taxonomy("r: g1, g2\ng1: c1, c2, c3, g3\ng2: c4, c5, c6\ng3: g1\n", 4, "'g1'",
                     "two parents");
    refused_taxonomy("r: g1, g2\ng1: c1, c2, c3\ng2: c4, c5, c6\ng3: g4\n\ng4: g3\n", 6, "'g4'",
                     "cycle");
    refused_taxonomy("r: g1, c1, c2\ng1: g1\n", 2, "'g1'", "cycle");
    refused_taxonomy("r: g1, g2\ng1: c1, c2, c1\ng2: c3, c4, c5, c6\n", 2, "'c1'",
                     "listed twice");
    refused_taxonomy("r: g1\ng1: c1, c2, c3\ns: c4, c5, c6\n", 3, "'s'", "two roots");
    refused_taxonomy("r: c1, c2, c3, c4, c5, c6\nc1: x\n", 2, "'c1'", "must be a leaf");
    refused_taxonomy("r: c1, c2, c3, c4, c5, c6\nc7\n", 2, "'c7'", "expected");
    refused_taxonomy("r: c1, c2, , c3, c4, c5, c6\n", 1, "'r'", "empty child");

    char err[BL_ERR_MAX];
    struct synth s;
    synth_make(&s, 6, 6);
    const struct bl_task_ops *o;
    const char *kv[] = {"taxonomy", "/nonexistent/tax.txt", NULL};
    cr_assert_null(open_task("hierarchy", kv, &s.tr, cnames, &o, err));
    cr_assert(strstr(err, "/nonexistent/tax.txt"), "%s", err);
    cr_assert_null(open_task("hierarchy", NULL, &s.tr, cnames, &o, err));
    cr_assert(strstr(err, "taxonomy is required"), "%s", err);
}

/* ---- parameter and data errors ------------------------------------------------ */

Test(tasks, positive_out_of_range_and_empty_sides)
{
    rng_seed(9);
    struct synth s;
    synth_make(&s, 10, 3);
    char err[BL_ERR_MAX];
    const struct bl_task_ops *o;
    const char *kv[] = {"positive", "7", NULL};
    cr_assert_null(open_task("auc", kv, &s.tr, cnames, &o, err));
    cr_assert_str_eq(err, "task auc: positive = 7 but the data has 3 classes");
    cr_assert_null(open_task("binary-task", kv, &s.tr, cnames, &o, err));
    cr_assert_str_eq(err, "task binary-task: positive = 7 but the data has 3 classes");
    for (size_t i = 0; i < 10; i++)
        s.y[i] = 1;
    cr_assert_null(open_task("auc", NULL, &s.tr, cnames, &o, err));
    cr_assert(strstr(err, "no positive example"), "%s", err);
    const char *kv1[] = {"positive", "1", NULL};
    cr_assert_null(open_task("auc", kv1, &s.tr, cnames, &o, err));
    cr_assert(strstr(err, "no negative example"), "%s", err);
}

/* ---- (e) AUC against pair counting -------------------------------------------- */

Test(tasks, auc_counts_pairs_with_ties_as_half)
{
    rng_seed(10);
    for (int round = 0; round < 20; round++) {
        struct synth s;
        size_t m = 20 + irand(40);
        synth_make(&s, m, 3);
        const struct bl_task_ops *o;
        const char *kv[] = {"positive", round % 2 ? "2" : "0", NULL};
        int positive = round % 2 ? 2 : 0;
        void *inst = must_open("auc", kv, &s.tr, cnames, &o);
        double S0[64];
        for (size_t i = 0; i < m; i++) /* few distinct values: many ties */
            S0[i] = round < 10 ? (double)irand(4) : urange(-1, 1);
        double cnt = 0, pairs = 0;
        for (size_t p = 0; p < m; p++)
            for (size_t n = 0; n < m; n++)
                if (s.y[p] == positive && s.y[n] != positive) {
                    pairs++;
                    cnt += S0[p] > S0[n] ? 1 : S0[p] == S0[n] ? 0.5 : 0;
                }
        cr_assert_eq(o->examples(inst), (size_t)pairs);
        const double *S[] = {S0};
        unsigned char *pred = malloc(o->examples(inst));
        memset(pred, 1, o->examples(inst)); /* predictions must not matter */
        double v[2];
        o->evaluate(inst, S, pred, v);
        cr_assert_float_eq(v[1], cnt / pairs, 1e-12, "AUC %g, pairs say %g", v[1], cnt / pairs);
        cr_assert_float_eq(v[0], 1 - cnt / pairs, 1e-12);
        for (size_t i = 0; i < o->examples(inst); i++)
            o->predict(inst, i, S, pred + i);
        double w[2];
        o->evaluate(inst, S, pred, w);
        cr_assert_eq(v[1], w[1]);
        cr_assert_str_eq(o->metrics, "auc_error,auc");
        free(pred);
        o->close(inst);
    }
}

/* ---- (f) evaluate from predictions alone ---------------------------------------- */

Test(tasks, evaluate_from_predictions_alone)
{
    rng_seed(11);
    struct synth s;
    synth_make(&s, 6, 6);
    const struct bl_task_ops *o;
    void *inst = must_open("multiclass", NULL, &s.tr, cnames, &o);
    cr_assert(o->label_is_class);
    cr_assert_str_eq(o->metrics, "error");
    int32_t pred[6] = {0, 1, 0, 0, 4, 5};
    double v[2];
    o->evaluate(inst, NULL, pred, v);
    cr_assert_float_eq(v[0], 2.0 / 6, 1e-15);
    o->close(inst);

    char path[64];
    write_file(path, tax6);
    const char *kv[] = {"taxonomy", path, NULL};
    inst = must_open("hierarchy", kv, &s.tr, cnames, &o);
    cr_assert(o->label_is_class);
    cr_assert_str_eq(o->metrics, "error,tree_loss");
    o->evaluate(inst, NULL, pred, v); /* c3 -> c1: 1, c4 -> c1: 2 */
    cr_assert_float_eq(v[0], 2.0 / 6, 1e-15);
    cr_assert_float_eq(v[1], 3.0 / 6, 1e-15);
    o->close(inst);
    unlink(path);
}
