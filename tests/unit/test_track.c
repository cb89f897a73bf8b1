/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of visual tracking (StructBoost spec §4.5, §9 items 5 and 8):
 *   - the IoU loss: Delta(y, y) = 0, disjoint boxes -> 1, symmetric;
 *   - task plugin "track": truth, loss = 1 - overlap, dpsi terms, and the
 *     loss-augmented argmax against brute force over each candidate set;
 *   - StructBoost's model API: the learned model scores the training
 *     candidates as the engine did (it picks the best box on separable
 *     candidate sets) and a warm start keeps and extends the model;
 *   - patch features: dimensions, grey values, thread independence;
 *   - the scene generator: byte-identical frames for one seed, other bytes
 *     for another, and the ground-truth box is exactly where the object's
 *     pixels were pasted (skipped when python3-skimage's images are absent);
 *   - candidate sampling: box 0 is the centre box, all within the radius.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "config/experiment.h"
#include "exec/pool.h"
#include "plugin/loader.h"
#include "structured/structured.h"
#include "testutil.h"
#include "vision/patch.h"
#include "vision/track.h"
#include "vision/track_scenes.h"

TEST_REGISTRY(reg, load_tree, unload)
TestSuite(track, .init = load_tree, .fini = unload);

/* ---- the IoU loss -------------------------------------------------------------- */

Test(track, iou_loss)
{
    rng_seed(7);
    bl_box a = {10, 20, 30, 40}, far = {100, 100, 5, 5}, touch = {40, 20, 10, 40};
    cr_assert_float_eq(1 - bl_box_iou(&a, &a), 0.0, 1e-15);
    cr_assert_eq(1 - bl_box_iou(&a, &far), 1.0);
    cr_assert_eq(1 - bl_box_iou(&a, &touch), 1.0, "boxes sharing an edge do not overlap");
    bl_box half = {25, 20, 30, 40}; /* overlap 15 x 40 = 600, union 1800 */
    cr_assert_float_eq(bl_box_iou(&a, &half), 1.0 / 3.0, 1e-12);
    for (int t = 0; t < 1000; t++) {
        bl_box p = {urange(0, 50), urange(0, 50), urange(1, 40), urange(1, 40)};
        bl_box q = {urange(0, 50), urange(0, 50), urange(1, 40), urange(1, 40)};
        double u = bl_box_iou(&p, &q), v = bl_box_iou(&q, &p);
        cr_assert_eq(u, v, "IoU is symmetric");
        cr_assert(u >= 0 && u <= 1);
    }
}

/* ---- the task plugin ---------------------------------------------------------- */

/* Candidate sets: G groups of n boxes, rows shuffled across groups; column
 * 0 group id, 1 overlap (row `truth` of each group 1), 2.. features.  The
 * first feature is the overlap plus noise of half-width `noise` (so a
 * stump on it finds the best box), the others noise. */
typedef struct cset {
    bl_dataset ds;
    size_t G, n;
} cset;

static void cset_make(cset *c, size_t G, size_t n, size_t nf, double noise, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    rng_seed(seed);
    size_t m = G * n, d = 2 + nf;
    c->G = G, c->n = n;
    c->ds.m = m, c->ds.d = d, c->ds.k = 2;
    c->ds.y = calloc(m, sizeof *c->ds.y);
    c->ds.x = calloc(m * d, sizeof *c->ds.x);
    size_t *perm = malloc(m * sizeof *perm);
    for (size_t r = 0; r < m; r++)
        perm[r] = r;
    for (size_t r = m; r > 1; r--) {
        size_t j = irand(r), t = perm[r - 1];
        perm[r - 1] = perm[j], perm[j] = t;
    }
    for (size_t g = 0; g < G; g++)
        for (size_t q = 0; q < n; q++) {
            size_t r = perm[g * n + q];
            double ov = q == 0 ? 1.0 : urange(0, 0.9);
            c->ds.x[r] = (float)(g * 3 + 1); /* any distinct values */
            c->ds.x[m + r] = (float)ov;
            c->ds.x[2 * m + r] = (float)(ov + urange(-noise, noise));
            for (size_t f = 1; f < nf; f++)
                c->ds.x[(2 + f) * m + r] = (float)urand();
        }
    free(perm);
}

static void cset_free(cset *c)
{
    free(c->ds.y);
    free(c->ds.x);
}

static const struct bl_plugin *track_plugin(void)
{
    const struct bl_plugin *p = bl_registry_find(&reg, "track", BL_ROLE_TASK);
    cr_assert_not_null(p, "task plugin track not in the build tree");
    return p;
}

static void *open_task(const struct bl_plugin *p, const bl_dataset *ds)
{
    union bl_value v[4];
    test_defaults(p, v);
    struct bl_train t;
    memset(&t, 0, sizeof t);
    t.m = ds->m, t.d = ds->d, t.k = ds->k, t.y = ds->y;
    t.X = (struct bl_matrix){ds->m, ds->d, ds->x};
    char err[BL_ERR_MAX] = "";
    const struct bl_task_ops *o = p->ops;
    void *inst = o->open(&test_host, v, &t, NULL, err);
    cr_assert_not_null(inst, "open: %s", err);
    return inst;
}

Test(track, task_loss_dpsi_and_argmax_vs_brute_force)
{
    const struct bl_plugin *p = track_plugin();
    const struct bl_task_ops *o = p->ops;
    cset c;
    cset_make(&c, 7, 9, 3, 0.1, 3);
    void *T = open_task(p, &c.ds);
    cr_assert_eq(o->examples(T), 7);
    const struct bl_task_view *v = o->view(T, 0);
    cr_assert_eq(v->points.d, 3, "the view leaves out the group and overlap columns");
    cr_assert_eq(v->points.x, c.ds.x + 2 * c.ds.m, "zero-copy view");
    size_t m = c.ds.m;
    double *S = malloc(m * sizeof *S);
    rng_seed(11);
    for (size_t i = 0; i < 7; i++) {
        int32_t y, y2;
        o->truth(T, i, &y);
        cr_assert_eq(o->loss(T, i, &y), 0.0, "Delta(y_i, y_i) = 0");
        struct bl_task_term tt[2];
        cr_assert_eq(o->dpsi(T, i, &y, tt, 2), 0);
        size_t na = o->alternatives(T, i, 0, NULL);
        cr_assert_eq(na, 8);
        size_t truth_row = 0;
        for (size_t r = 0; r < m; r++)
            if (c.ds.x[r] == (float)(i * 3 + 1) && c.ds.x[m + r] == 1.0f)
                truth_row = r;
        for (size_t a = 0; a < na; a++) {
            o->alternatives(T, i, a, &y2);
            cr_assert_eq(o->dpsi(T, i, &y2, tt, 2), 2);
            cr_assert_eq(tt[0].point, truth_row);
            cr_assert_eq(tt[0].coef, 1.0);
            cr_assert_eq(tt[1].coef, -1.0);
            double ov = c.ds.x[m + tt[1].point];
            cr_assert_float_eq(o->loss(T, i, &y2), 1.0 - ov, 1e-7, "Delta = 1 - overlap");
        }
        for (int trial = 0; trial < 50; trial++) {
            for (size_t r = 0; r < m; r++)
                S[r] = urange(-1, 1) * (trial % 5);
            const double *Sv[1] = {S};
            int32_t yb;
            double h = o->argmax_aug(T, i, Sv, &yb);
            /* brute force over the truth and every alternative */
            double best = 0.0; /* the truth: Delta 0, F - F_truth 0 */
            for (size_t a = 0; a < na; a++) {
                o->alternatives(T, i, a, &y2);
                o->dpsi(T, i, &y2, tt, 2);
                double val = o->loss(T, i, &y2) + S[tt[1].point] - S[tt[0].point];
                if (val > best)
                    best = val;
            }
            cr_assert_float_eq(h, best, 1e-12, "hinge = brute-force maximum");
            double hy = 0.0;
            if (o->dpsi(T, i, &yb, tt, 2))
                hy = o->loss(T, i, &yb) + S[tt[1].point] - S[tt[0].point];
            cr_assert_float_eq(hy, h, 1e-12, "ybar attains the hinge");
        }
    }
    free(S);
    o->close(T);
    cset_free(&c);
}

/* ---- StructBoost's model API ---------------------------------------------------- */

static void sb_algo(bl_algo_spec *a)
{
    bl_error err;
    bl_algo_init(a);
    const char *kv[][2] = {{"method", "structboost"}, {"task", "track"}, {"weak", "stump"},
                           {"weak.criterion", "max"}, {"C", "10"}};
    for (size_t j = 0; j < 5; j++)
        cr_assert_eq(bl_algo_set(a, &reg, kv[j][0], kv[j][1], &err), 0, "%s", err.msg);
}

/* The best-scored candidate of each group. */
static double picked_overlap(const cset *c, const double *S)
{
    size_t m = c->ds.m;
    double sum = 0;
    for (size_t g = 0; g < c->G; g++) {
        double bs = -INFINITY, ov = 0;
        for (size_t r = 0; r < m; r++)
            if (c->ds.x[r] == (float)(g * 3 + 1) && S[r] > bs)
                bs = S[r], ov = c->ds.x[m + r];
        sum += ov;
    }
    return sum / (double)c->G;
}

Test(track, structboost_model_scores_and_warm_start)
{
    bl_set_threads(1);
    bl_algo_spec a;
    sb_algo(&a);
    cset c;
    cset_make(&c, 12, 15, 4, 0.02, 5);
    bl_sb_model mo;
    memset(&mo, 0, sizeof mo);
    mo.wo = a.weak.plugin->ops;
    bl_method_cfg cfg = {&a, 20, 1, NULL, NULL, 64};
    bl_curve cv;
    bl_metrics met;
    memset(&met, 0, sizeof met);
    bl_error err;
    cr_assert_eq(bl_structboost_fit(&cfg, &c.ds, 64, 1, &mo, &cv, &met, &err), 0, "%s", err.msg);
    cr_assert_gt(mo.n, 0);
    for (size_t j = 0; j < mo.n; j++)
        cr_assert_gt(mo.w[j], 0.0, "only columns with w > 0 are kept");
    struct bl_matrix X = {c.ds.m, c.ds.d - 2, c.ds.x + 2 * c.ds.m};
    double *S = malloc(c.ds.m * sizeof *S);
    bl_sb_model_scores(&mo, 0, 0, &X, S);
    /* the engine's own metric at the end equals what the returned model picks */
    cr_assert_eq(strcmp(met.name[1], "mean_overlap"), 0);
    cr_assert_float_eq(picked_overlap(&c, S), met.train[1], 1e-6);
    cr_assert_gt(met.train[1], 0.95, "separable candidate sets: the label box is picked");
    /* the master's working set comes back for a sliding-window warm start */
    cr_assert_gt(mo.ncut, 0);
    cr_assert_eq(mo.cut_m, c.G, "one label per example per cut");
    size_t nin = 0;
    for (size_t k = 0; k < mo.ncut * mo.cut_m; k++)
        nin += mo.cut_in[k] != 0;
    cr_assert_gt(nin, 0);
    bl_curve_free(&cv);
    bl_metrics_free(&met);
    /* warm start on new candidate sets: the old columns come along, and the
     * old cuts rebuilt as if 3 examples had left the front */
    mo.drop = 3;
    size_t n0 = mo.n;
    double w0 = 0;
    for (size_t j = 0; j < mo.n; j++)
        w0 += mo.w[j];
    cset c2;
    cset_make(&c2, 12, 15, 4, 0.02, 6);
    cfg.iterations = 2;
    cr_assert_eq(bl_structboost_fit(&cfg, &c2.ds, 64, 0, &mo, &cv, NULL, &err), 0, "%s", err.msg);
    cr_assert_leq(cv.n, 2, "at most 2 new columns");
    cr_assert_gt(mo.n, 0);
    cr_assert(mo.n <= n0 + 2);
    struct bl_matrix X2 = {c2.ds.m, c2.ds.d - 2, c2.ds.x + 2 * c2.ds.m};
    double *S2 = malloc(c2.ds.m * sizeof *S2);
    bl_sb_model_scores(&mo, 0, 0, &X2, S2);
    cr_assert_gt(picked_overlap(&c2, S2), 0.95, "the warm model still picks the best boxes");
    (void)w0;
    free(S);
    free(S2);
    bl_curve_free(&cv);
    bl_sb_model_free(&mo);
    cset_free(&c);
    cset_free(&c2);
    bl_algo_free(&a);
}

/* ---- features ------------------------------------------------------------------ */

Test(track, patch_feature_dimensions_and_values)
{
    bl_patch_cfg cfg = {32, 16, 8};
    bl_error err;
    cr_assert_eq(bl_patch_check(&cfg, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_patch_dim(&cfg), 16 * 16 + 4 * 4 * 31);
    bl_patch_cfg nohog = {32, 8, 0}, bad = {32, 5, 8};
    cr_assert_eq(bl_patch_dim(&nohog), 64);
    cr_assert_lt(bl_patch_check(&bad, &err), 0, "5 does not divide 32");
    /* a constant frame: grey features equal it, HOG sees no gradient */
    bl_fimage img = {80, 60, malloc(80 * 60 * sizeof(float))};
    for (int j = 0; j < 80 * 60; j++)
        img.px[j] = 0.25f;
    bl_patcher *p = bl_patcher_new(&cfg);
    size_t d = bl_patch_dim(&cfg);
    float *f = malloc(d * sizeof *f);
    bl_box b = {10, 10, 40, 30};
    bl_patch_features(p, &img, &b, f, 1);
    for (size_t j = 0; j < 256; j++)
        cr_assert_float_eq(f[j], 0.25f, 1e-6);
    for (size_t j = 256; j < d; j++)
        cr_assert_float_eq(f[j], 0.0f, 1e-6, "HOG of a flat patch, value %zu", j);
    /* a textured frame: 1 thread and 2 threads give the same matrix */
    rng_seed(9);
    for (int j = 0; j < 80 * 60; j++)
        img.px[j] = (float)urand();
    bl_box boxes[37];
    for (int r = 0; r < 37; r++)
        boxes[r] = (bl_box){urange(0, 40), urange(0, 30), urange(10, 40), urange(10, 30)};
    bl_patcher *pool[2] = {p, bl_patcher_new(&cfg)};
    float *X1 = malloc(37 * d * sizeof *X1), *X2 = malloc(37 * d * sizeof *X2);
    bl_patch_features_all(pool, 1, &img, boxes, 37, X1, 37);
    bl_patch_features_all(pool, 2, &img, boxes, 37, X2, 37);
    cr_assert_eq(memcmp(X1, X2, 37 * d * sizeof *X1), 0);
    bl_patch_features(p, &img, &boxes[5], f, 1);
    for (size_t j = 0; j < d; j++)
        cr_assert_eq(f[j], X1[j * 37 + 5], "feature-major layout");
    free(X1), free(X2), free(f), free(img.px);
    bl_patcher_free(pool[0]);
    bl_patcher_free(pool[1]);
}

Test(track, candidate_sampling)
{
    bl_box b = {100, 80, 40, 30}, c[500], c2[500];
    bl_track_sample(&b, 500, 30, 0, 1.05, 1, 42, c);
    bl_track_sample(&b, 500, 30, 0, 1.05, 1, 42, c2);
    cr_assert_eq(memcmp(c, c2, sizeof c), 0, "seeded");
    cr_assert_eq(memcmp(&c[0], &b, sizeof b), 0, "box 0 is the centre box");
    int scales[3] = {0, 0, 0};
    for (int r = 1; r < 500; r++) {
        double dcx = c[r].x + c[r].w / 2 - 120, dcy = c[r].y + c[r].h / 2 - 95;
        cr_assert_leq(sqrt(dcx * dcx + dcy * dcy), 30 + 1e-9);
        double s = c[r].w / b.w;
        cr_assert_float_eq(c[r].h / b.h, s, 1e-12, "aspect kept");
        scales[fabs(s - 1) < 1e-9 ? 1 : s > 1 ? 2 : 0]++;
    }
    for (int k = 0; k < 3; k++)
        cr_assert_gt(scales[k], 100, "each of the 3 scales drawn");
}

/* ---- the scene generator -------------------------------------------------------- */

static int have_images(void)
{
    return access(BL_SKIMAGE_DATA "/chelsea.png", R_OK) == 0 &&
           access(BL_SKIMAGE_DATA "/astronaut.png", R_OK) == 0;
}

Test(track, scenes_are_deterministic_and_truth_is_the_pasted_object)
{
    if (!have_images())
        cr_skip_test("python3-skimage's images are not installed");
    const bl_scene_def *d = bl_scene_find("cat-astronaut");
    cr_assert_not_null(d);
    bl_scene *s1, *s2, *s3;
    bl_error err;
    cr_assert_eq(bl_scene_open(&s1, d, BL_SKIMAGE_DATA, 5, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_scene_open(&s2, d, BL_SKIMAGE_DATA, 5, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_scene_open(&s3, d, BL_SKIMAGE_DATA, 6, &err), 0, "%s", err.msg);
    size_t bytes = (size_t)BL_SCENE_W * BL_SCENE_H * 3;
    for (int t = 0; t < 60; t += 7) {
        bl_image a, b, c, bare;
        bl_box ga, gb, gc, g0;
        cr_assert_eq(bl_scene_frame(s1, t, 0, &a, &ga, &err), 0, "%s", err.msg);
        cr_assert_eq(bl_scene_frame(s2, t, 0, &b, &gb, &err), 0, "%s", err.msg);
        cr_assert_eq(bl_scene_frame(s3, t, 0, &c, &gc, &err), 0, "%s", err.msg);
        cr_assert_eq(memcmp(a.px, b.px, bytes), 0, "same seed, same bytes (frame %d)", t);
        cr_assert_eq(memcmp(&ga, &gb, sizeof ga), 0);
        cr_assert_neq(memcmp(a.px, c.px, bytes), 0, "another seed, other bytes");
        /* the object's pixels: the frame with it minus the frame without it */
        bl_image_free(&a);
        cr_assert_eq(bl_scene_frame(s1, t, BL_SCENE_NO_OCCLUDER, &a, &ga, &err), 0);
        cr_assert_eq(bl_scene_frame(s1, t, BL_SCENE_NO_OCCLUDER | BL_SCENE_NO_OBJECT, &bare,
                                    &g0, &err), 0);
        cr_assert(ga.w >= 8 && ga.h >= 8 && ga.x >= 0 && ga.y >= 0 &&
                  ga.x + ga.w <= BL_SCENE_W && ga.y + ga.h <= BL_SCENE_H, "inside the frame");
        int x0 = BL_SCENE_W, y0 = BL_SCENE_H, x1 = -1, y1 = -1;
        size_t inside = 0;
        for (int y = 0; y < BL_SCENE_H; y++)
            for (int x = 0; x < BL_SCENE_W; x++) {
                size_t o = ((size_t)y * BL_SCENE_W + x) * 3;
                if (!memcmp(a.px + o, bare.px + o, 3))
                    continue;
                x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
                inside++;
            }
        cr_assert_eq(x0, (int)ga.x, "frame %d: left edge", t);
        cr_assert_eq(y0, (int)ga.y, "frame %d: top edge", t);
        cr_assert_eq(x1, (int)(ga.x + ga.w) - 1, "frame %d: right edge", t);
        cr_assert_eq(y1, (int)(ga.y + ga.h) - 1, "frame %d: bottom edge", t);
        cr_assert_gt((double)inside, 0.9 * ga.w * ga.h, "the object fills its box");
        bl_image_free(&a), bl_image_free(&b), bl_image_free(&c), bl_image_free(&bare);
    }
    bl_scene_close(s1), bl_scene_close(s2), bl_scene_close(s3);
}
