/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "crf": binary CRF segmentation over super-pixels, StructBoost
 * spec §4.6.  The data rows are image ids (feature 0, an integer); the
 * images themselves are the files DIR/NNNN.crf written by `boostlab segment
 * prepare` (format below), one per image: its super-pixels (nodes) with
 * their unary potential values F'_k (one per feature group), sizes and
 * foreground-pixel counts and true labels, and its edges with the pairwise
 * potential values v_pq = (exp(-|LUV_p - LUV_q|), shared boundary length).
 *
 * Views (the "input features" of the weak learners, spec §4.6):
 *   0 "unary":    a point per (node p, label l), U_k(l) = -s(l) F'_k(x_p),
 *                 s(l) = 2l - 1 (the spec's reading of eq. 32), point
 *                 2 (node offset + p) + l;
 *   1 "pairwise": a point per edge, the 2 values of v_pq.
 * With Psi = -[sum_p Phi1(U(y_p)); sum_pq Phi2(v_pq) [y_p != y_q]] (the
 * minus on Psi, w >= 0) the scores S of the engine give the energy
 *     E(y) = sum_p S0[point(p, y_p)] + sum_e S1[e] [y_p != y_q],
 * F = -E, and delta psi_i(y) = psi(y_i) - psi(y) has the terms
 *     (unary, point(p, y_p), +1), (unary, point(p, y_i^p), -1)  where y_p != y_i^p,
 *     (pairwise, e, [y_p != y_q] - [y_i^p != y_i^q])             where they differ.
 * StructBoost's pairwise columns are {0,1} stumps (weak.output = 01) with
 * w >= 0, so S1 >= 0 and the energy is submodular: prediction and the
 * loss-augmented argmax (Hamming loss absorbed into the unaries) are exact
 * graph cuts (graphcut.h).  A linear model (the structural SVM) can give
 * S1 < 0 on some edge; those edges are cut at 0 for inference (then not
 * exact) and counted by the metric `nonsubmodular`.
 *
 * Loss: Hamming over super-pixels, the unweighted count (eq. 26).  Metrics
 * are pixel level over the whole part (every pixel of every image): IoU and
 * accuracy of foreground and background and their means; the primary one
 * is iou_error = 1 - mean IoU.
 *
 * File format (text; '#' lines ignored):
 *   crf 1
 *   image ID nodes N edges M groups G
 *   n SIZE FGPIX LABEL F1 .. FG          N lines, nodes 0..N-1
 *   e P Q COLOUR BOUNDARY               M lines, P < Q < N
 * Errors name FILE:LINE and the field.
 */
#include "../common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "graphcut.h"

enum { P_DIR, P_PRED_OUT, P_COUNT };

static const struct bl_param_spec crf_params[] = {
    {"dir", BL_PARAM_STRING, "", 0, 0, NULL,
     "folder of per-image files NNNN.crf (boostlab segment prepare)"},
    {"pred_out", BL_PARAM_STRING, "", 0, 0, NULL,
     "if set, a folder where each evaluation writes the predicted labels NNNN.lab"},
};

struct img {
    unsigned id;
    size_t n, ne;
    size_t off, eoff;       /* first node / edge in the part's views   */
    uint8_t *y;             /* true labels                             */
    double *size, *fg;      /* pixels, foreground pixels per node      */
    uint32_t *ep, *eq;
};

struct crf {
    size_t m, G, maxn, N, E;
    struct img *im;
    float *U, *V;           /* view matrices (feature-major)           */
    struct bl_task_view v[2];
    char *pred_out;
};

/* "task crf: MESSAGE" into err; returns -1. */
static int cerr(char err[BL_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cerr(char err[BL_ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(err, BL_ERR_MAX, "task crf: ");
    vsnprintf(err + n, BL_ERR_MAX - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static void img_free(struct img *I)
{
    free(I->y);
    free(I->size);
    free(I->fg);
    free(I->ep);
    free(I->eq);
}

static void crf_close(void *inst)
{
    struct crf *T = inst;
    if (!T)
        return;
    for (size_t i = 0; i < T->m; i++)
        img_free(&T->im[i]);
    free(T->im);
    free(T->U);
    free(T->V);
    free(T->pred_out);
    free(T);
}

/* Parsed file before the views exist: values kept per image. */
struct raw {
    double *F;              /* n x G */
    double *v;              /* ne x 2 */
};

static int next_line(FILE *f, char **line, size_t *cap, size_t *ln)
{
    for (;;) {
        if (getline(line, cap, f) < 0)
            return 0;
        (*ln)++;
        char *p = *line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p && *p != '#' && *p != '\n' && *p != '\r')
            return 1;
    }
}

static int num(char **p, double *v)
{
    char *e;
    errno = 0;
    *v = strtod(*p, &e);
    if (e == *p || errno == ERANGE || !isfinite(*v))
        return -1;
    *p = e;
    return 0;
}

static int read_img(const char *path, size_t G0, struct img *I, struct raw *R, size_t *G,
                    char err[BL_ERR_MAX])
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cerr(err, "cannot open %s: %s", path, strerror(errno));
    char *line = NULL, *p;
    size_t cap = 0, ln = 0;
    int rc = -1;
    unsigned id;
    size_t n, ne, g;
    int used;
    if (!next_line(f, &line, &cap, &ln) || strncmp(line, "crf 1", 5)) {
        cerr(err, "%s:%zu: expected the header 'crf 1'", path, ln);
        goto out;
    }
    if (!next_line(f, &line, &cap, &ln) ||
        sscanf(line, "image %u nodes %zu edges %zu groups %zu%n", &id, &n, &ne, &g, &used) != 4 ||
        n == 0 || n > 1000000 || ne > 8000000 || g == 0 || g > 10000) {
        cerr(err, "%s:%zu: expected 'image ID nodes N edges M groups G' (N 1..1e6, G 1..1e4)", path,
             ln);
        goto out;
    }
    if (G0 && g != G0) {
        cerr(err, "%s:%zu: field groups: %zu feature groups, but earlier images have %zu", path, ln, g,
             G0);
        goto out;
    }
    *G = g;
    I->id = id, I->n = n, I->ne = ne;
    I->y = malloc(n);
    I->size = malloc(n * sizeof *I->size);
    I->fg = malloc(n * sizeof *I->fg);
    I->ep = malloc((ne + 1) * sizeof *I->ep);
    I->eq = malloc((ne + 1) * sizeof *I->eq);
    R->F = malloc(n * g * sizeof *R->F);
    R->v = malloc((2 * ne + 1) * sizeof *R->v);
    if (!I->y || !I->size || !I->fg || !I->ep || !I->eq || !R->F || !R->v) {
        cerr(err, "%s: out of memory", path);
        goto out;
    }
    for (size_t k = 0; k < n; k++) {
        double s, fgp, lab;
        if (!next_line(f, &line, &cap, &ln) || strncmp(line, "n ", 2)) {
            cerr(err, "%s:%zu: expected node line %zu of %zu ('n SIZE FGPIX LABEL F1..F%zu')", path,
                 ln, k, n, g);
            goto out;
        }
        p = line + 2;
        if (num(&p, &s) < 0 || s < 1) {
            cerr(err, "%s:%zu: field SIZE: expected a pixel count >= 1", path, ln);
            goto out;
        }
        if (num(&p, &fgp) < 0 || fgp < 0 || fgp > s) {
            cerr(err, "%s:%zu: field FGPIX: expected 0..SIZE", path, ln);
            goto out;
        }
        if (num(&p, &lab) < 0 || (lab != 0 && lab != 1)) {
            cerr(err, "%s:%zu: field LABEL: expected 0 or 1", path, ln);
            goto out;
        }
        I->size[k] = s, I->fg[k] = fgp, I->y[k] = (uint8_t)lab;
        for (size_t j = 0; j < g; j++)
            if (num(&p, &R->F[k * g + j]) < 0) {
                cerr(err, "%s:%zu: field F%zu: expected a finite number", path, ln, j + 1);
                goto out;
            }
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p) {
            cerr(err, "%s:%zu: more than %zu potentials on a node line", path, ln, g);
            goto out;
        }
    }
    for (size_t e = 0; e < ne; e++) {
        double a, b;
        if (!next_line(f, &line, &cap, &ln) || strncmp(line, "e ", 2)) {
            cerr(err, "%s:%zu: expected edge line %zu of %zu ('e P Q COLOUR BOUNDARY')", path, ln, e,
                 ne);
            goto out;
        }
        p = line + 2;
        if (num(&p, &a) < 0 || num(&p, &b) < 0 || a < 0 || b <= a || b >= (double)n ||
            a != floor(a) || b != floor(b)) {
            cerr(err, "%s:%zu: fields P, Q: expected node indices P < Q < %zu", path, ln, n);
            goto out;
        }
        I->ep[e] = (uint32_t)a, I->eq[e] = (uint32_t)b;
        if (num(&p, &R->v[2 * e]) < 0 || num(&p, &R->v[2 * e + 1]) < 0 ||
            R->v[2 * e] < 0 || R->v[2 * e + 1] < 0) {
            cerr(err, "%s:%zu: fields COLOUR, BOUNDARY: expected numbers >= 0", path, ln);
            goto out;
        }
    }
    if (next_line(f, &line, &cap, &ln)) {
        cerr(err, "%s:%zu: unexpected line after the %zu edges", path, ln, ne);
        goto out;
    }
    rc = 0;
out:
    free(line);
    fclose(f);
    return rc;
}

/* mkdir -p for pred_out. */
static int mkdirs(const char *dir, char err[BL_ERR_MAX])
{
    char *p = strdup(dir);
    if (!p)
        return cerr(err, "out of memory");
    for (char *q = p + 1;; q++) {
        int end = *q == 0;
        if (*q == '/' || end) {
            *q = 0;
            if (mkdir(p, 0777) < 0 && errno != EEXIST) {
                int rc = cerr(err, "pred_out: cannot create %s: %s", p, strerror(errno));
                free(p);
                return rc;
            }
            if (end)
                break;
            *q = '/';
        }
    }
    free(p);
    return 0;
}

static void *crf_open(const struct bl_host *host, const union bl_value *params,
                      const struct bl_train *data, const char *const *class_names,
                      char err[BL_ERR_MAX])
{
    (void)host, (void)class_names;
    const char *dir = params ? params[P_DIR].s : NULL;
    if (!dir || !dir[0]) {
        cerr(err, "parameter dir is required (a folder written by boostlab segment prepare)");
        return NULL;
    }
    if (data->m == 0 || data->d < 1) {
        cerr(err, "the data rows must hold an image id in their first feature");
        return NULL;
    }
    struct crf *T = calloc(1, sizeof *T);
    struct raw *R = calloc(data->m, sizeof *R);
    if (!T || !R || !(T->im = calloc(data->m, sizeof *T->im))) {
        free(T), free(R);
        cerr(err, "out of memory");
        return NULL;
    }
    T->m = data->m;
    int rc = 0;
    if (params[P_PRED_OUT].s && params[P_PRED_OUT].s[0]) {
        T->pred_out = strdup(params[P_PRED_OUT].s);
        rc = T->pred_out ? mkdirs(T->pred_out, err) : cerr(err, "out of memory");
    }
    for (size_t i = 0; i < data->m && rc == 0; i++) {
        double x = data->X.x[i];
        if (!(x >= 0 && x < 1e9 && x == floor(x))) {
            rc = cerr(err, "row %zu: feature 0 is %g, not an image id (an integer 0..1e9)", i, x);
            break;
        }
        char *path = malloc(strlen(dir) + 32);
        if (!path) {
            rc = cerr(err, "out of memory");
            break;
        }
        sprintf(path, "%s/%04u.crf", dir, (unsigned)x);
        rc = read_img(path, T->G, &T->im[i], &R[i], &T->G, err);
        if (rc == 0 && T->im[i].id != (unsigned)x)
            rc = cerr(err, "%s: holds image %u, not %u", path, T->im[i].id, (unsigned)x);
        free(path);
        if (rc == 0) {
            T->im[i].off = T->N, T->im[i].eoff = T->E;
            T->N += T->im[i].n, T->E += T->im[i].ne;
            if (T->im[i].n > T->maxn)
                T->maxn = T->im[i].n;
        }
    }
    if (rc == 0 && T->E == 0)
        rc = cerr(err, "the part's images have no edge (single super-pixel images?)");
    if (rc == 0) {
        size_t mu = 2 * T->N;
        T->U = malloc(mu * T->G * sizeof *T->U);
        T->V = malloc(2 * T->E * sizeof *T->V);
        if (!T->U || !T->V)
            rc = cerr(err, "out of memory for the views (%zu super-pixels, %zu edges)", T->N, T->E);
        for (size_t i = 0; i < T->m && rc == 0; i++) {
            const struct img *I = &T->im[i];
            for (size_t p = 0; p < I->n; p++)
                for (size_t k = 0; k < T->G; k++) {
                    double F = R[i].F[p * T->G + k];
                    size_t r = 2 * (I->off + p);
                    T->U[k * mu + r] = (float)F;        /* l = 0: s = -1 */
                    T->U[k * mu + r + 1] = (float)-F;   /* l = 1: s = +1 */
                }
            for (size_t e = 0; e < I->ne; e++) {
                T->V[I->eoff + e] = (float)R[i].v[2 * e];
                T->V[T->E + I->eoff + e] = (float)R[i].v[2 * e + 1];
            }
        }
    }
    for (size_t i = 0; i < data->m; i++)
        free(R[i].F), free(R[i].v);
    free(R);
    if (rc < 0) {
        crf_close(T);
        return NULL;
    }
    T->v[0] = (struct bl_task_view){"unary", {2 * T->N, T->G, T->U}, 1};
    T->v[1] = (struct bl_task_view){"pairwise", {T->E, 2, T->V}, 1};
    return T;
}

static size_t crf_examples(const void *inst)
{
    return ((const struct crf *)inst)->m;
}

static size_t crf_label_bytes(const void *inst)
{
    return ((const struct crf *)inst)->maxn;
}

static size_t crf_nviews(const void *inst)
{
    (void)inst;
    return 2;
}

static const struct bl_task_view *crf_view(const void *inst, size_t v)
{
    return v < 2 ? &((const struct crf *)inst)->v[v] : NULL;
}

static void crf_truth(const void *inst, size_t i, void *y)
{
    const struct crf *T = inst;
    memset(y, 0, T->maxn);
    memcpy(y, T->im[i].y, T->im[i].n);
}

static double crf_loss(const void *inst, size_t i, const void *y)
{
    const struct img *I = &((const struct crf *)inst)->im[i];
    const uint8_t *l = y;
    size_t d = 0;
    for (size_t p = 0; p < I->n; p++)
        d += (l[p] != 0) != (I->y[p] != 0);
    return (double)d;
}

static size_t crf_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                       size_t cap)
{
    const struct img *I = &((const struct crf *)inst)->im[i];
    const uint8_t *l = y;
    size_t k = 0;
    for (size_t p = 0; p < I->n; p++) {
        int a = l[p] != 0, b = I->y[p] != 0;
        if (a == b)
            continue;
        size_t r = 2 * (I->off + p);
        if (k + 2 <= cap) {
            t[k] = (struct bl_task_term){0, 0, r + (size_t)a, 1.0};
            t[k + 1] = (struct bl_task_term){0, 0, r + (size_t)b, -1.0};
        }
        k += 2;
    }
    for (size_t e = 0; e < I->ne; e++) {
        int cut = (l[I->ep[e]] != 0) != (l[I->eq[e]] != 0);
        int cut0 = I->y[I->ep[e]] != I->y[I->eq[e]];
        if (cut != cut0) {
            if (k < cap)
                t[k] = (struct bl_task_term){1, 0, I->eoff + e, (double)(cut - cut0)};
            k++;
        }
    }
    return k;
}

/* E(y) of image I at the scores S. */
static double energy(const struct img *I, const double *const *S, const uint8_t *y)
{
    double E = 0.0;
    for (size_t p = 0; p < I->n; p++)
        E += S[0][2 * (I->off + p) + (y[p] != 0)];
    for (size_t e = 0; e < I->ne; e++)
        if ((y[I->ep[e]] != 0) != (y[I->eq[e]] != 0))
            E += S[1][I->eoff + e];
    return E;
}

/* argmin_y E(y) - aug * Delta(y_i, y) by graph cut, negative pairwise
 * scores cut at 0. */
static void infer(const struct crf *T, size_t i, const double *const *S, double aug, uint8_t *y)
{
    const struct img *I = &T->im[i];
    double *d = malloc((2 * I->n + 2 * I->ne + 1) * sizeof *d), *th = d ? d + 2 * I->n : NULL;
    memset(y, 0, T->maxn);
    if (!d)
        abort(); /* out of memory in an inference callback: nothing to return */
    for (size_t p = 0; p < I->n; p++)
        for (int l = 0; l < 2; l++)
            d[2 * p + l] = S[0][2 * (I->off + p) + l] - (l != I->y[p] ? aug : 0.0);
    for (size_t e = 0; e < I->ne; e++) {
        double s = S[1][I->eoff + e];
        th[e] = s > 0.0 ? s : 0.0;
    }
    if (bl_graphcut(I->n, d, I->ne, I->ep, I->eq, th, y) < 0)
        abort();
    free(d);
}

static double crf_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    const struct crf *T = inst;
    const struct img *I = &T->im[i];
    infer(T, i, S, 1.0, ybar);
    double h = crf_loss(inst, i, ybar) - energy(I, S, ybar) + energy(I, S, I->y);
    if (h <= 0.0) { /* the truth is at least as violated: answer it */
        crf_truth(inst, i, ybar);
        return 0.0;
    }
    return h;
}

static void crf_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    infer(inst, i, S, 0.0, y);
}

static void crf_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                             void *y)
{
    const struct crf *T = inst;
    const struct img *I = &T->im[i];
    uint8_t *l = y;
    crf_truth(inst, i, y);
    int any = 0;
    for (size_t p = 0; p < I->n; p++)
        if (rnd(rng) >> 63) {
            l[p] ^= 1;
            any = 1;
        }
    if (!any) {
        size_t p = (size_t)(rnd(rng) % I->n);
        l[p] ^= 1;
    }
}

static void write_pred(const struct crf *T, const struct img *I, const uint8_t *y)
{
    char *path = malloc(strlen(T->pred_out) + 32);
    if (!path)
        return;
    sprintf(path, "%s/%04u.lab", T->pred_out, I->id);
    FILE *f = fopen(path, "w");
    if (f) {
        for (size_t p = 0; p < I->n; p++)
            fputc(y[p] ? '1' : '0', f);
        fputc('\n', f);
        fclose(f);
    }
    free(path);
}

static void crf_evaluate(const void *inst, const double *const *S, const void *pred,
                         double *values)
{
    const struct crf *T = inst;
    double tp = 0, fp = 0, fn = 0, tn = 0, ham = 0;
    size_t neg = 0;
    for (size_t i = 0; i < T->m; i++) {
        const struct img *I = &T->im[i];
        const uint8_t *y = (const uint8_t *)pred + i * T->maxn;
        size_t wrong = 0;
        for (size_t p = 0; p < I->n; p++) {
            if (y[p]) {
                tp += I->fg[p];
                fp += I->size[p] - I->fg[p];
            } else {
                fn += I->fg[p];
                tn += I->size[p] - I->fg[p];
            }
            wrong += (y[p] != 0) != I->y[p];
        }
        ham += (double)wrong / (double)I->n;
        if (T->pred_out)
            write_pred(T, I, y);
    }
    if (S)
        for (size_t e = 0; e < T->E; e++)
            neg += S[1][e] < 0.0;
    double iou_fg = tp + fp + fn > 0 ? tp / (tp + fp + fn) : 1.0;
    double iou_bg = tn + fp + fn > 0 ? tn / (tn + fp + fn) : 1.0;
    double acc_fg = tp + fn > 0 ? tp / (tp + fn) : 1.0;
    double acc_bg = tn + fp > 0 ? tn / (tn + fp) : 1.0;
    values[0] = 1.0 - (iou_fg + iou_bg) / 2;
    values[1] = (iou_fg + iou_bg) / 2;
    values[2] = iou_fg;
    values[3] = iou_bg;
    values[4] = (acc_fg + acc_bg) / 2;
    values[5] = acc_fg;
    values[6] = acc_bg;
    values[7] = ham / (double)T->m;
    values[8] = (double)neg / (double)T->E;
}

static int crf_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    const struct crf *T = inst;
    const uint8_t *l = y;
    size_t n = T->maxn;
    for (size_t p = 0; p + 1 < cap && p < n; p++)
        buf[p] = l[p] ? '1' : '0';
    if (cap)
        buf[n < cap ? n : cap - 1] = 0;
    return (int)n;
}

static const struct bl_task_ops crf_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = crf_open,
    .close = crf_close,
    .examples = crf_examples,
    .label_bytes = crf_label_bytes,
    .nviews = crf_nviews,
    .view = crf_view,
    .truth = crf_truth,
    .loss = crf_loss,
    .dpsi = crf_dpsi,
    .argmax_aug = crf_argmax_aug,
    .predict = crf_predict,
    .random_label = crf_random_label,
    .alternatives = NULL,
    .metrics = "iou_error,iou_mean,iou_fg,iou_bg,acc_mean,acc_fg,acc_bg,hamming,nonsubmodular",
    .evaluate = crf_evaluate,
    .label_is_class = 0,
    .format_label = crf_format_label,
};

static const struct bl_plugin crf_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "crf",
    .doc = "binary CRF segmentation over super-pixels: unary and pairwise potentials as views, "
           "Hamming loss, graph-cut inference (libmaxflow)",
    .params = crf_params,
    .nparams = P_COUNT,
    .ops = &crf_ops,
};

static const struct bl_plugin *const crf_plugins[] = {&crf_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return crf_plugins;
}
