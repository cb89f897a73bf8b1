/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of CRF segmentation (StructBoost spec §4.6, §9 item 5):
 *   - the crf task plugin on random small images (<= 12 super-pixels)
 *     written as .crf files: prediction and the loss-augmented argmax (graph
 *     cuts through libmaxflow) against brute force over all 2^N labellings
 *     of the energy recomputed here, dpsi against the energy difference,
 *     the Hamming loss, and malformed files refused with FILE:LINE;
 *   - the {0,1} stump (weak.output = 01) that keeps learned pairwise terms
 *     submodular: outputs in {0,1}, equal to (1 + h) / 2 of the +-1 stump,
 *     the edge its score, and its text round trip;
 *   - the scene generator: the same seed gives the same bytes, the mask
 *     matches the composite (foreground pixels are the foreground layer up
 *     to the bounded noise);
 *   - the super-pixel graph: every pixel in one super-pixel, sizes, edges
 *     unique with p < q, boundary lengths equal to a brute-force count.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/loader.h"
#include "plugin/params.h"
#include "testutil.h"
#include "vision/segscene.h"
#include "vision/superpixel.h"

TEST_REGISTRY(reg, load_tree, unload)

TestSuite(crf, .init = load_tree, .fini = unload);

/* ---- a random image as a .crf file ------------------------------------------ */

struct rimg {
    size_t n, ne, G;
    int y[12];
    unsigned ep[66], eq[66];
};

static void write_img(const char *dir, unsigned id, struct rimg *R)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%04u.crf", dir, id);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    R->ne = 0;
    for (size_t p = 0; p < R->n; p++)
        for (size_t q = p + 1; q < R->n; q++)
            if (urand() < 0.4 || q == p + 1) {
                R->ep[R->ne] = (unsigned)p;
                R->eq[R->ne++] = (unsigned)q;
            }
    fprintf(f, "crf 1\nimage %u nodes %zu edges %zu groups %zu\n", id, R->n, R->ne, R->G);
    for (size_t p = 0; p < R->n; p++) {
        R->y[p] = urand() < 0.4;
        int size = 1 + (int)irand(50);
        fprintf(f, "n %d %d %d", size, R->y[p] ? size : 0, R->y[p]);
        for (size_t k = 0; k < R->G; k++)
            fprintf(f, " %.6f", urange(-2, 2));
        fputc('\n', f);
    }
    for (size_t e = 0; e < R->ne; e++)
        fprintf(f, "e %u %u %.6f %d\n", R->ep[e], R->eq[e], urand(), 1 + (int)irand(20));
    fclose(f);
}

static void *open_crf(const char *dir, const float *ids, size_t m, const struct bl_task_ops **ops,
                      char *err)
{
    const struct bl_plugin *p = bl_registry_find(&reg, "crf", BL_ROLE_TASK);
    cr_assert_not_null(p, "task crf not found");
    bl_paramset ps;
    bl_error e;
    cr_assert_eq(bl_paramset_init(&ps, p, &e), 0, "%s", e.msg);
    cr_assert_eq(bl_paramset_set(&ps, "dir", dir, &e), 0, "%s", e.msg);
    static int y[64];
    memset(y, 0, sizeof y);
    struct bl_train tr = {.m = m, .d = 1, .k = 1, .y = y, .X = {m, 1, ids}};
    const char *names[] = {"image"};
    *ops = p->ops;
    err[0] = 0;
    void *inst = (*ops)->open(&test_host, ps.v, &tr, names, err);
    bl_paramset_free(&ps);
    return inst;
}

static char *tmpdir(void)
{
    char *d = strdup("/tmp/bl-crf-XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

static void rmdir_all(char *d)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    cr_assert_eq(system(cmd), 0);
    free(d);
}

/* E(y) from the scores as the task's header defines it. */
static double energy(const struct rimg *R, size_t off, size_t eoff, const double *const *S,
                     unsigned mask)
{
    double E = 0;
    for (size_t p = 0; p < R->n; p++)
        E += S[0][2 * (off + p) + ((mask >> p) & 1)];
    for (size_t e = 0; e < R->ne; e++)
        if (((mask >> R->ep[e]) & 1) != ((mask >> R->eq[e]) & 1))
            E += S[1][eoff + e];
    return E;
}

static unsigned to_mask(const uint8_t *y, size_t n)
{
    unsigned m = 0;
    for (size_t p = 0; p < n; p++)
        m |= (unsigned)(y[p] != 0) << p;
    return m;
}

Test(crf, graph_cut_matches_brute_force)
{
    rng_seed(7);
    char *dir = tmpdir();
    enum { M = 6 };
    struct rimg R[M];
    float ids[M];
    for (unsigned i = 0; i < M; i++) {
        R[i].n = 2 + irand(11); /* 2..12 */
        R[i].G = 3;
        write_img(dir, i * 3 + 1, &R[i]);
        ids[i] = (float)(i * 3 + 1);
    }
    const struct bl_task_ops *ops;
    char err[BL_ERR_MAX];
    void *T = open_crf(dir, ids, M, &ops, err);
    cr_assert_not_null(T, "%s", err);
    cr_assert_eq(ops->nviews(T), 2);
    const struct bl_task_view *vu = ops->view(T, 0), *vp = ops->view(T, 1);
    size_t lb = ops->label_bytes(T);
    double *S0 = calloc(vu->points.m, sizeof *S0), *S1 = calloc(vp->points.m, sizeof *S1);
    const double *S[2] = {S0, S1};
    uint8_t *y = calloc(lb, 1), *t = calloc(lb, 1);
    struct bl_task_term terms[400];
    for (int trial = 0; trial < 40; trial++) {
        for (size_t r = 0; r < vu->points.m; r++)
            S0[r] = urange(-2, 2);
        for (size_t e = 0; e < vp->points.m; e++) /* submodular: >= 0, some exactly 0 */
            S1[e] = urand() < 0.2 ? 0.0 : urange(0, 2);
        size_t off = 0, eoff = 0;
        for (size_t i = 0; i < M; i++) {
            const struct rimg *I = &R[i];
            unsigned truth = 0;
            for (size_t p = 0; p < I->n; p++)
                truth |= (unsigned)I->y[p] << p;
            double best = INFINITY, besta = -INFINITY;
            for (unsigned m = 0; m < (1u << I->n); m++) {
                double E = energy(I, off, eoff, S, m);
                double d = __builtin_popcount(m ^ truth);
                best = fmin(best, E);
                besta = fmax(besta, d - E);
            }
            ops->predict(T, i, S, y);
            cr_assert_float_eq(energy(I, off, eoff, S, to_mask(y, I->n)), best, 1e-9,
                               "prediction not a minimum (image %zu, %zu nodes)", i, I->n);
            double h = ops->argmax_aug(T, i, S, y);
            unsigned ym = to_mask(y, I->n);
            double Et = energy(I, off, eoff, S, truth);
            cr_assert_float_eq(h, besta + Et, 1e-9, "loss-augmented argmax not a maximum");
            cr_assert_float_eq(h, __builtin_popcount(ym ^ truth) - energy(I, off, eoff, S, ym) + Et,
                               1e-9);
            /* Hamming loss and dpsi on a random labelling */
            unsigned rm = (unsigned)irand(1u << I->n);
            for (size_t p = 0; p < I->n; p++)
                t[p] = (rm >> p) & 1;
            cr_assert_float_eq(ops->loss(T, i, t), __builtin_popcount(rm ^ truth), 1e-12);
            size_t nt = ops->dpsi(T, i, t, terms, 400);
            cr_assert(nt <= 400);
            double g = 0; /* F(y) - F(y_i) = -sum coef S */
            for (size_t k = 0; k < nt; k++)
                g -= terms[k].coef * S[terms[k].view][terms[k].point];
            cr_assert_float_eq(g, Et - energy(I, off, eoff, S, rm), 1e-9, "dpsi");
            off += I->n;
            eoff += I->ne;
        }
    }
    /* metrics: the truth scores IoU 1 */
    uint8_t *pred = calloc(M * lb, 1);
    for (size_t i = 0; i < M; i++)
        ops->truth(T, i, pred + i * lb);
    double v[9];
    ops->evaluate(T, S, pred, v);
    cr_assert_float_eq(v[0], 0.0, 1e-12);
    cr_assert_float_eq(v[1], 1.0, 1e-12);
    cr_assert_float_eq(v[8], 0.0, 1e-12); /* no negative pairwise score */
    free(pred);
    free(S0), free(S1), free(y), free(t);
    ops->close(T);
    rmdir_all(dir);
}

static void expect_refused(const char *text, const char *pattern)
{
    char *dir = tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/0000.crf", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    const struct bl_task_ops *ops;
    char err[BL_ERR_MAX];
    float id = 0;
    void *T = open_crf(dir, &id, 1, &ops, err);
    cr_assert_null(T, "accepted: %s", text);
    cr_assert(strstr(err, pattern), "error '%s' lacks '%s'", err, pattern);
    rmdir_all(dir);
}

Test(crf, malformed_files_refused)
{
    expect_refused("crf 2\n", "0000.crf:1: expected the header");
    expect_refused("crf 1\nimage 0 nodes 2 edges 1 groups 1\nn 4 1 1 0.5\nn 4 0 0 x\n"
                   "e 0 1 0.5 2\n", "0000.crf:4: field F1");
    expect_refused("crf 1\nimage 0 nodes 2 edges 1 groups 1\nn 4 5 1 0.5\n", ":3: field FGPIX");
    expect_refused("crf 1\nimage 0 nodes 2 edges 1 groups 1\nn 4 1 1 0.5\nn 4 0 0 1\n"
                   "e 1 0 0.5 2\n", ":5: fields P, Q");
    expect_refused("crf 1\nimage 0 nodes 2 edges 1 groups 1\nn 4 1 1 0.5\nn 4 0 0 1\n",
                   "expected edge line");
    expect_refused("crf 1\nimage 3 nodes 2 edges 1 groups 1\nn 4 1 1 0.5\nn 4 0 0 1\n"
                   "e 0 1 0.5 2\n", "holds image 3, not 0");
}

Test(crf, missing_dir_refused)
{
    const struct bl_task_ops *ops;
    char err[BL_ERR_MAX];
    float id = 5;
    cr_assert_null(open_crf("/nonexistent/dir", &id, 1, &ops, err));
    cr_assert(strstr(err, "/nonexistent/dir/0005.crf"), "%s", err);
    id = 1.5f;
    cr_assert_null(open_crf("/tmp", &id, 1, &ops, err));
    cr_assert(strstr(err, "not an image id"), "%s", err);
}

/* ---- the {0,1} stump --------------------------------------------------------- */

Test(crf, zero_one_stump)
{
    const struct bl_plugin *p = bl_registry_find(&reg, "stump", BL_ROLE_WEAK);
    cr_assert_not_null(p);
    const struct bl_weak_ops *wo = p->ops;
    rng_seed(3);
    enum { m = 200, d = 3 };
    static float x[m * d];
    static uint8_t bins[m * d];
    static float cuts[d][15];
    static uint16_t nb[d];
    const float *cutp[d];
    for (size_t f = 0; f < d; f++) {
        nb[f] = 16;
        for (int b = 0; b < 15; b++)
            cuts[f][b] = (float)(b + 1) / 16.0f;
        cutp[f] = cuts[f];
        for (size_t i = 0; i < m; i++) {
            x[f * m + i] = (float)((irand(16) + 0.5) / 16.0);
            bins[f * m + i] = (uint8_t)(x[f * m + i] * 16);
        }
    }
    int y[m] = {0};
    struct bl_train tr = {m, d, 2, y, {m, d, x}, {m, d, bins, nb, cutp}, NULL, NULL};
    bl_paramset ps[2];
    bl_error e;
    void *L[2];
    char err[BL_ERR_MAX];
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(bl_paramset_init(&ps[k], p, &e), 0, "%s", e.msg);
        if (k)
            cr_assert_eq(bl_paramset_set(&ps[k], "output", "01", &e), 0, "%s", e.msg);
        L[k] = wo->create(&test_host, ps[k].v, &tr, err);
        cr_assert_not_null(L[k], "%s", err);
    }
    double G[m], out[2][m];
    for (int trial = 0; trial < 20; trial++) {
        for (size_t i = 0; i < m; i++)
            G[i] = urange(-1, 1);
        struct bl_fit_result res[2];
        for (int k = 0; k < 2; k++) {
            struct bl_fit_request rq = {.G = G, .c = 1};
            memset(&res[k], 0, sizeof res[k]);
            res[k].out = out[k];
            cr_assert_eq(wo->fit(L[k], &rq, &res[k], err), 0, "%s", err);
        }
        double s = 0, T = 0;
        for (size_t i = 0; i < m; i++)
            T += G[i];
        for (size_t i = 0; i < m; i++) {
            cr_assert(out[1][i] == 0.0 || out[1][i] == 1.0, "output %g", out[1][i]);
            if ((T + res[0].edge) / 2 >= 0) /* else the zero function */
                cr_assert_eq(out[1][i], (1.0 + out[0][i]) / 2.0);
            s += G[i] * out[1][i];
        }
        cr_assert_float_eq(res[1].edge, s, 1e-9);
        cr_assert_float_eq(res[1].edge, fmax(0.0, (T + res[0].edge) / 2), 1e-9);
        char buf[256];
        wo->save(res[1].hyp, buf, sizeof buf);
        cr_assert(strstr(buf, " out=01"), "%s", buf);
        void *h = wo->load(buf, d, err);
        cr_assert_not_null(h, "%s", err);
        double o2[m];
        wo->predict(h, &tr.X, o2);
        for (size_t i = 0; i < m; i++)
            cr_assert_eq(o2[i], out[1][i]);
        wo->free_hyp(h);
        for (int k = 0; k < 2; k++)
            wo->free_hyp(res[k].hyp);
    }
    for (int k = 0; k < 2; k++) {
        wo->destroy(L[k]);
        bl_paramset_free(&ps[k]);
    }
    /* every dual weight negative: no {0,1} stump correlates positively, the
     * zero function (edge 0) is the answer */
    bl_paramset q;
    cr_assert_eq(bl_paramset_init(&q, p, &e), 0);
    cr_assert_eq(bl_paramset_set(&q, "output", "01", &e), 0);
    void *Z = wo->create(&test_host, q.v, &tr, err);
    cr_assert_not_null(Z, "%s", err);
    for (size_t i = 0; i < m; i++)
        G[i] = -urange(0.1, 1);
    struct bl_fit_request rq = {.G = G, .c = 1};
    struct bl_fit_result rz;
    memset(&rz, 0, sizeof rz);
    rz.out = out[1];
    cr_assert_eq(wo->fit(Z, &rq, &rz, err), 0, "%s", err);
    cr_assert_eq(rz.edge, 0.0);
    for (size_t i = 0; i < m; i++)
        cr_assert_eq(out[1][i], 0.0);
    wo->free_hyp(rz.hyp);
    wo->destroy(Z);
    bl_paramset_free(&q);
}

/* ---- scenes and super-pixels -------------------------------------------------- */

static int have_sources(bl_segscene_src *S)
{
    bl_error e;
    return bl_segscene_load(BL_SEGSCENE_SRCDIR, S, &e) == 0;
}

Test(crf, scenes_deterministic_masks_match)
{
    bl_segscene_src S;
    if (!have_sources(&S))
        cr_skip_test("python3-skimage's data images are not installed");
    bl_error e;
    for (int cat = 0; cat < BL_SEGSCENE_NCAT; cat++) {
        bl_image a, am, fg, b, bm, c, cm;
        cr_assert_eq(bl_segscene_render(&S, cat, 5, 3, 96, 72, &a, &am, &fg, &e), 0, "%s", e.msg);
        cr_assert_eq(bl_segscene_render(&S, cat, 5, 3, 96, 72, &b, &bm, NULL, &e), 0);
        cr_assert_eq(bl_segscene_render(&S, cat, 6, 3, 96, 72, &c, &cm, NULL, &e), 0);
        size_t np = 96 * 72, nfg = 0;
        cr_assert_eq(memcmp(a.px, b.px, np * 3), 0, "same seed, different image");
        cr_assert_eq(memcmp(am.px, bm.px, np), 0, "same seed, different mask");
        cr_assert_neq(memcmp(a.px, c.px, np * 3), 0, "different seeds, same image");
        for (size_t p = 0; p < np; p++) {
            cr_assert(am.px[p] == 0 || am.px[p] == 255);
            if (!am.px[p])
                continue;
            nfg++;
            for (int k = 0; k < 3; k++)
                cr_assert(abs((int)a.px[3 * p + k] - (int)fg.px[3 * p + k]) <= BL_SEGSCENE_NOISE,
                          "pixel %zu is not the foreground layer", p);
        }
        cr_assert(nfg > np / 20 && nfg < np * 3 / 4, "foreground share %zu / %zu", nfg, np);
        bl_image *all[] = {&a, &am, &fg, &b, &bm, &c, &cm};
        for (size_t j = 0; j < 7; j++)
            bl_image_free(all[j]);
    }
    bl_segscene_free(&S);
}

Test(crf, superpixel_graph_sane)
{
    bl_segscene_src S;
    if (!have_sources(&S))
        cr_skip_test("python3-skimage's data images are not installed");
    bl_error e;
    bl_image img, mask;
    cr_assert_eq(bl_segscene_render(&S, 1, 1, 0, 120, 90, &img, &mask, NULL, &e), 0);
    bl_spgraph g;
    cr_assert_eq(bl_superpixels(&img, 10, 10.0, 10, &g, &e), 0, "%s", e.msg);
    size_t np = 120 * 90, total = 0;
    cr_assert(g.n > 20 && g.n < 400, "%zu super-pixels", g.n);
    size_t *cnt = calloc(g.n, sizeof *cnt);
    for (size_t p = 0; p < np; p++) {
        cr_assert_lt(g.label[p], g.n);
        cnt[g.label[p]]++;
    }
    for (size_t s = 0; s < g.n; s++) {
        cr_assert_eq(cnt[s], g.size[s]);
        cr_assert_gt(cnt[s], 0);
        total += g.size[s];
    }
    cr_assert_eq(total, np);
    /* boundary lengths by brute force, symmetric in (p, q) */
    double *B = calloc(g.n * g.n, sizeof *B);
    for (int y = 0; y < 90; y++)
        for (int x = 0; x < 120; x++) {
            uint32_t a = g.label[y * 120 + x];
            if (x + 1 < 120 && g.label[y * 120 + x + 1] != a)
                B[a * g.n + g.label[y * 120 + x + 1]] += 1, B[g.label[y * 120 + x + 1] * g.n + a] += 1;
            if (y + 1 < 90 && g.label[(y + 1) * 120 + x] != a)
                B[a * g.n + g.label[(y + 1) * 120 + x]] += 1, B[g.label[(y + 1) * 120 + x] * g.n + a] += 1;
        }
    size_t nonzero = 0;
    for (size_t i = 0; i < g.n * g.n; i++)
        nonzero += B[i] > 0;
    cr_assert_eq(nonzero, 2 * g.ne, "edges %zu, touching pairs %zu", g.ne, nonzero / 2);
    for (size_t k = 0; k < g.ne; k++) {
        cr_assert_lt(g.ep[k], g.eq[k]);
        if (k)
            cr_assert((((uint64_t)g.ep[k - 1] << 32) | g.eq[k - 1]) <
                      (((uint64_t)g.ep[k] << 32) | g.eq[k]));
        cr_assert_eq(g.blen[k], B[g.ep[k] * g.n + g.eq[k]]);
        cr_assert_eq(B[g.ep[k] * g.n + g.eq[k]], B[g.eq[k] * g.n + g.ep[k]]);
    }
    free(B);
    free(cnt);
    bl_spgraph_free(&g);
    bl_image_free(&img);
    bl_image_free(&mask);
    bl_segscene_free(&S);
}
