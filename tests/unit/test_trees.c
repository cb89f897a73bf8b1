/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the tree learners of the LogitBoost family (plugins/weak/
 * trees: aoso-tree, diag-tree, class-trees, abc-trees; spec
 * aoso-logitboost.md §2-4):
 *   - the first iteration's closed form (§2.11) and the pair rules (32), (33);
 *   - every leaf of every learner against its Newton value recomputed here
 *     from the training examples routed to it, and every split against a
 *     brute-force search over its node's examples (exact and binned search);
 *   - invariants: AOSO and ABC outputs sum to zero, kscale, the max_step
 *     clamp, J and node_size, thread-count and search-mode independence,
 *     missing values going left;
 *   - the hypothesis: predict == training outputs, save/load, malformed text;
 *   - ABC's base class (trial losses, worst class), refusals, and a few
 *     boosting iterations with the softmax and klogit losses.
 *
 * Training sets are built by hand with an exact quantized view (bin b of a
 * feature holds exactly the value cut[b]), so binned and exact search see
 * the same candidate splits and a brute force over raw values is the truth
 * for both.  G, H and Hu always come from the real loss plugins.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>


/* ---- training sets --------------------------------------------------------- */

struct prob {
    size_t m, d, k;
    int *y;
    float *x;        /* feature-major raw values                          */
    uint8_t *bins;   /* feature-major                                     */
    uint16_t *nbins;
    float **cut;     /* cut[f][b]: the one value bin b holds (nbins[f])   */
    struct bl_train tr;
};

static struct prob *prob_alloc(size_t m, size_t d, size_t k)
{
    struct prob *P = calloc(1, sizeof *P);
    P->m = m, P->d = d, P->k = k;
    P->y = calloc(m, sizeof *P->y);
    P->x = calloc(m * d, sizeof *P->x);
    P->bins = calloc(m * d, 1);
    P->nbins = calloc(d, sizeof *P->nbins);
    P->cut = calloc(d, sizeof *P->cut);
    P->tr.m = m, P->tr.d = d, P->tr.k = k;
    P->tr.y = P->y;
    P->tr.X = (struct bl_matrix){m, d, P->x};
    P->tr.Q.m = m, P->tr.Q.d = d, P->tr.Q.bins = P->bins, P->tr.Q.nbins = P->nbins;
    P->tr.Q.cut = (const float *const *)P->cut;
    return P;
}

static void free_prob(struct prob *P)
{
    for (size_t f = 0; f < P->d; f++)
        free(P->cut[f]);
    free(P->cut), free(P->nbins), free(P->bins), free(P->x), free(P->y);
    free(P);
}

/* Feature f takes 2..maxval distinct values (1: constant), spread over
 * [-1, 1]; with probability nanfrac a value is missing (NaN, bin 0, so the
 * view is no longer exact).  Labels follow a random linear score of the
 * first features, with 10% label noise: learnable, not separable. */
static struct prob *make_prob(size_t m, size_t d, size_t k, unsigned maxval, double nanfrac,
                              uint64_t seed)
{
    rng_seed(seed);
    struct prob *P = prob_alloc(m, d, k);
    for (size_t f = 0; f < d; f++) {
        unsigned nd = maxval <= 1 ? 1 : 2 + (unsigned)irand(maxval - 1);
        P->nbins[f] = (uint16_t)nd;
        P->cut[f] = malloc(nd * sizeof(float));
        for (unsigned b = 0; b < nd; b++)
            P->cut[f][b] = (float)(-1.0 + 2.0 * ((double)b + 0.1 + 0.8 * urand()) / nd);
        for (size_t i = 0; i < m; i++) {
            size_t b = irand(nd);
            P->bins[f * m + i] = (uint8_t)b;
            P->x[f * m + i] = P->cut[f][b];
            if (nanfrac > 0 && urand() < nanfrac) {
                P->bins[f * m + i] = 0;
                P->x[f * m + i] = NAN;
            }
        }
    }
    double W[16][4];
    for (size_t c = 0; c < k && c < 16; c++)
        for (size_t f = 0; f < 4; f++)
            W[c][f] = urange(-1, 1);
    for (size_t i = 0; i < m; i++) {
        size_t best = 0;
        double bs = -HUGE_VAL;
        for (size_t c = 0; c < k && c < 16; c++) {
            double s = 0.3 * urange(-1, 1);
            for (size_t f = 0; f < d && f < 4; f++) {
                float v = P->x[f * m + i];
                s += W[c][f] * (isnan(v) ? 0.0 : (double)v);
            }
            if (s > bs)
                bs = s, best = c;
        }
        P->y[i] = urand() < 0.1 ? (int)irand(k) : (int)best;
    }
    return P;
}

/* Every feature constant: no split is possible. */
static struct prob *make_const(size_t m, size_t d, size_t k, const int *y)
{
    struct prob *P = prob_alloc(m, d, k);
    for (size_t f = 0; f < d; f++) {
        P->nbins[f] = 1;
        P->cut[f] = malloc(sizeof(float));
        P->cut[f][0] = 0.5f;
        for (size_t i = 0; i < m; i++)
            P->x[f * m + i] = 0.5f;
    }
    memcpy(P->y, y, m * sizeof *y);
    return P;
}

/* ---- losses: G, H, Hu at F ---------------------------------------------- */

struct lossx {
    const struct bl_loss_ops *ops;
    void *self;
};

static struct lossx loss_open(const char *name, int normalize)
{
    char rel[64];
    snprintf(rel, sizeof rel, "plugins/loss/%s", name);
    const struct bl_plugin *p = test_plugin(rel, name);
    union bl_value v[4];
    char err[BL_ERR_MAX] = "";
    cr_assert_leq(p->nparams, 4);
    test_defaults(p, v);
    if (normalize)
        v[test_param_index(p, "normalize")].choice = 1;
    struct lossx L = {p->ops, NULL};
    L.self = L.ops->create(&test_host, v, err);
    cr_assert_not_null(L.self, "%s: %s", name, err);
    return L;
}

static void loss_close(struct lossx L)
{
    L.ops->destroy(L.self);
}

/* What the engine hands a second-order learner at F. */
struct state {
    size_t m, k;
    double *G;     /* -dL/dF, m x k                    */
    double *HH;    /* h (m x k) then u (m x k)         */
    double value;  /* L(F)                             */
};

static struct state state_new(size_t m, size_t k)
{
    struct state S = {m, k, malloc(m * k * sizeof(double)), malloc(2 * m * k * sizeof(double)), 0};
    return S;
}

static void state_free(struct state *S)
{
    free(S->G), free(S->HH);
}

static void state_at(struct state *S, struct lossx L, const int *y, const double *F)
{
    size_t n = S->m * S->k;
    S->value = L.ops->eval(L.self, y, S->m, S->k, F, S->G);
    for (size_t j = 0; j < n; j++)
        S->G[j] = -S->G[j];
    cr_assert_eq(L.ops->hessian(L.self, y, S->m, S->k, F, BL_HESS_DIAG_RANK1, S->HH), 0);
}

static const double *st_H(const struct state *S)
{
    return S->HH;
}

static const double *st_U(const struct state *S)
{
    return S->HH + S->m * S->k;
}

static struct bl_fit_request request(const struct state *S)
{
    struct bl_fit_request q;
    memset(&q, 0, sizeof q);
    q.G = S->G;
    q.c = S->k;
    q.H = st_H(S);
    q.Hu = st_U(S);
    q.seed = 1;
    return q;
}

static double *random_F(size_t m, size_t k, double scale)
{
    double *F = malloc(m * k * sizeof *F);
    for (size_t j = 0; j < m * k; j++)
        F[j] = urange(-scale, scale);
    return F;
}

/* The state of the softmax loss at random F (scale 0: F = 0). */
static struct state softmax_state(const struct prob *P, double scale)
{
    struct lossx L = loss_open("softmax", 0);
    double *F = scale > 0 ? random_F(P->m, P->k, scale) : calloc(P->m * P->k, sizeof(double));
    struct state S = state_new(P->m, P->k);
    state_at(&S, L, P->y, F);
    free(F);
    loss_close(L);
    return S;
}

/* The host's trial_loss, L(F + nu D), recording every value it gave. */
struct trial {
    struct lossx L;
    const int *y;
    size_t m, k;
    const double *F;
    double nu, *Fw;
    double rec[64];
    size_t n;
};

static double trial_cb(void *ctx, const double *D)
{
    struct trial *T = ctx;
    for (size_t j = 0; j < T->m * T->k; j++)
        T->Fw[j] = T->F[j] + T->nu * D[j];
    double v = T->L.ops->eval(T->L.self, T->y, T->m, T->k, T->Fw, NULL);
    if (T->n < 64)
        T->rec[T->n] = v;
    T->n++;
    return v;
}

static void trial_init(struct trial *T, const struct prob *P, const double *F, double nu)
{
    memset(T, 0, sizeof *T);
    T->L = loss_open("softmax", 0);
    T->y = P->y, T->m = P->m, T->k = P->k, T->F = F, T->nu = nu;
    T->Fw = malloc(P->m * P->k * sizeof *T->Fw);
}

static void trial_free(struct trial *T)
{
    loss_close(T->L);
    free(T->Fw);
}

/* ---- learners ---------------------------------------------------------------- */

static const char *const learner_names[] = {"aoso-tree", "diag-tree", "class-trees", "abc-trees"};

struct cfg {
    const struct bl_plugin *p;
    union bl_value v[12];
};

static struct cfg cfg_of(const char *name)
{
    struct cfg c;
    c.p = test_plugin("plugins/weak/trees", name);
    cr_assert_leq(c.p->nparams, 12);
    test_defaults(c.p, c.v);
    return c;
}

static void cfg_int(struct cfg *c, const char *param, long long v)
{
    c->v[test_param_index(c->p, param)].i = v;
}

static void cfg_real(struct cfg *c, const char *param, double v)
{
    c->v[test_param_index(c->p, param)].r = v;
}

static void cfg_bool(struct cfg *c, const char *param, int v)
{
    c->v[test_param_index(c->p, param)].b = v;
}

static int choice_index(const struct cfg *c, const char *param, const char *choice)
{
    const char *s = c->p->params[test_param_index(c->p, param)].choices;
    size_t n = strlen(choice);
    int idx = 0;
    while (s && !(strncmp(s, choice, n) == 0 && (s[n] == '|' || s[n] == 0))) {
        s = strchr(s, '|');
        if (s)
            s++;
        idx++;
    }
    cr_assert_not_null(s, "%s: parameter %s has no choice %s", c->p->name, param, choice);
    return idx;
}

static void cfg_choice(struct cfg *c, const char *param, const char *choice)
{
    c->v[test_param_index(c->p, param)].choice = choice_index(c, param, choice);
}

static int cfg_is(const struct cfg *c, const char *param, const char *choice)
{
    return c->v[test_param_index(c->p, param)].choice == choice_index(c, param, choice);
}

static const struct bl_weak_ops *cops(const struct cfg *c)
{
    return c->p->ops;
}

static void *learner(const struct cfg *c, const struct bl_host *host, const struct bl_train *tr)
{
    char err[BL_ERR_MAX] = "";
    void *L = cops(c)->create(host, c->v, tr, err);
    cr_assert_not_null(L, "create %s: %s", c->p->name, err);
    return L;
}

struct answer {
    int ok;
    const struct bl_weak_ops *ops;
    struct bl_fit_result res;
    double *out;
    char *text;
    char err[BL_ERR_MAX];
};

/* One fit, with the contract checks every answer must pass: out
 * overwritten and finite, outdim k, edge = max(0, <G, out>) exactly, save's
 * snprintf-style length. */
static struct answer fit(const struct cfg *c, void *L, const struct bl_fit_request *q,
                         const struct prob *P)
{
    struct answer A;
    memset(&A, 0, sizeof A);
    A.ops = cops(c);
    size_t m = P->m, k = P->k, n = m * (q->c > k ? q->c : k);
    A.out = malloc(n * sizeof *A.out);
    for (size_t j = 0; j < n; j++)
        A.out[j] = 12345.0; /* must be overwritten */
    A.res.out = A.out;
    A.ok = A.ops->fit(L, q, &A.res, A.err) == 0;
    if (!A.ok)
        return A;
    bl_fit_result_expand(&A.res, m); /* sparse outputs (AOSO): out as the host reads them */
    cr_assert_not_null(A.res.hyp);
    cr_assert_eq(A.res.outdim, k, "%s: outdim %zu", c->p->name, A.res.outdim);
    cr_assert_eq(A.ops->outdim(A.res.hyp), k);
    cr_assert_geq(A.res.trees, 1);
    double e = 0.0;
    for (size_t j = 0; j < m * k; j++) {
        cr_assert(isfinite(A.out[j]) && fabs(A.out[j]) < 1e6, "%s: out[%zu] = %g", c->p->name, j,
                  A.out[j]);
        e += q->G[j] * A.out[j];
    }
    double want = e > 0 ? e : 0;
    /* bit for bit: AOSO's edge takes only the leaf pairs' products, in the
     * order of this dense sum */
    cr_assert(memcmp(&A.res.edge, &want, sizeof want) == 0, "%s: edge %.17g, <G, out> %.17g",
              c->p->name, A.res.edge, e);
    /* predict_add: F + w_r times predict's outputs, bit for bit */
    double *h = malloc(m * k * sizeof *h), *F1 = malloc(m * k * sizeof *F1),
           *F2 = malloc(m * k * sizeof *F2), *w = malloc(k * sizeof *w);
    A.ops->predict(A.res.hyp, &P->tr.X, h);
    for (size_t r = 0; r < k; r++)
        w[r] = 0.1 * (double)(r + 1);
    for (size_t j = 0; j < m * k; j++) {
        F1[j] = F2[j] = 0.5 + 1e-3 * (double)j;
        F1[j] += w[j % k] * h[j];
    }
    cr_assert_not_null(A.ops->predict_add);
    A.ops->predict_add(A.res.hyp, &P->tr.X, w, k, F2);
    cr_assert(memcmp(F1, F2, m * k * sizeof *F1) == 0, "%s: predict_add differs from predict "
              "and add", c->p->name);
    free(h), free(F1), free(F2), free(w);
    int len = A.ops->save(A.res.hyp, NULL, 0);
    cr_assert_gt(len, 0);
    A.text = malloc((size_t)len + 1);
    cr_assert_eq(A.ops->save(A.res.hyp, A.text, (size_t)len + 1), len);
    cr_assert_eq(strlen(A.text), (size_t)len);
    return A;
}

static void drop(struct answer *A)
{
    if (A->ok && A->res.hyp)
        A->ops->free_hyp(A->res.hyp);
    free(A->out);
    free(A->text);
}

/* ---- the saved text, parsed independently of the plugin ----------------- */

struct pent {
    unsigned cls;
    double v;
};

struct pnode {
    int leaf;
    long feat;
    float thr;
    size_t a, b;     /* children                        */
    size_t e0, ne;   /* leaf: entries e[e0 .. e0 + ne)   */
    int mr;          /* split: NaN goes right ("miss=r") */
};

struct ptree {
    size_t nn;
    struct pnode *n;
};

struct pforest {
    size_t k, nt, nent;
    struct ptree *t;
    struct pent *e;
};

static struct pforest parse(const char *text)
{
    struct pforest F;
    memset(&F, 0, sizeof F);
    const char *p = text;
    int n = 0;
    size_t cap = 0;
    cr_assert_eq(sscanf(p, "forest %zu %zu%n", &F.k, &F.nt, &n), 2, "header: %.40s", text);
    p += n;
    F.t = calloc(F.nt ? F.nt : 1, sizeof *F.t);
    for (size_t t = 0; t < F.nt; t++) {
        struct ptree *T = &F.t[t];
        cr_assert_eq(sscanf(p, " tree %zu%n", &T->nn, &n), 1, "tree %zu: %.40s", t, p);
        p += n;
        cr_assert_gt(T->nn, 0);
        T->n = calloc(T->nn, sizeof *T->n);
        for (size_t q = 0; q < T->nn; q++) {
            struct pnode *N = &T->n[q];
            char c = 0;
            cr_assert_eq(sscanf(p, " %c%n", &c, &n), 1);
            p += n;
            if (c == 's') {
                cr_assert_eq(sscanf(p, "%ld %f %zu %zu%n", &N->feat, &N->thr, &N->a, &N->b, &n), 4);
                p += n;
                if (strncmp(p, " miss=r", 7) == 0)
                    N->mr = 1, p += 7;
                cr_assert(N->a > q && N->b > q && N->a < T->nn && N->b < T->nn && N->a != N->b);
                cr_assert(isfinite(N->thr));
                continue;
            }
            cr_assert_eq(c, 'l', "node kind '%c'", c);
            N->leaf = 1;
            cr_assert_eq(sscanf(p, "%zu%n", &N->ne, &n), 1);
            p += n;
            N->e0 = F.nent;
            for (size_t e = 0; e < N->ne; e++) {
                if (F.nent == cap) {
                    cap = cap ? 2 * cap : 64;
                    F.e = realloc(F.e, cap * sizeof *F.e);
                }
                struct pent *E = &F.e[F.nent++];
                cr_assert_eq(sscanf(p, "%u %lf%n", &E->cls, &E->v, &n), 2);
                p += n;
                cr_assert_lt(E->cls, F.k);
            }
        }
    }
    while (*p == ' ')
        p++;
    cr_assert_eq(*p, 0, "trailing text: %.20s", p);
    return F;
}

static void pf_free(struct pforest *F)
{
    for (size_t t = 0; t < F->nt; t++)
        free(F->t[t].n);
    free(F->t), free(F->e);
}

static size_t pf_leaves(const struct ptree *T)
{
    size_t n = 0;
    for (size_t q = 0; q < T->nn; q++)
        n += (size_t)T->n[q].leaf;
    return n;
}

/* Which child of split N example i of X goes to: left iff !(x > thr),
 * NaN right when N->mr. */
static size_t child(const struct pnode *N, const struct bl_matrix *X, size_t i)
{
    float v = X->x[(size_t)N->feat * X->m + i];
    return v > N->thr || (N->mr && isnan(v)) ? N->b : N->a;
}

/* Does example i of X pass through node `node`? */
static int reaches(const struct ptree *T, const struct bl_matrix *X, size_t i, size_t node)
{
    size_t q = 0;
    for (;;) {
        if (q == node)
            return 1;
        const struct pnode *N = &T->n[q];
        if (N->leaf)
            return 0;
        q = child(N, X, i);
    }
}

/* The training examples at node q, in increasing index order. */
static size_t members(const struct ptree *T, const struct prob *P, size_t q, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < P->m; i++)
        if (reaches(T, &P->tr.X, i, q))
            idx[n++] = i;
    return n;
}

static void pf_predict(const struct pforest *F, const struct bl_matrix *X, double *out)
{
    memset(out, 0, X->m * F->k * sizeof *out);
    for (size_t t = 0; t < F->nt; t++)
        for (size_t i = 0; i < X->m; i++) {
            const struct ptree *T = &F->t[t];
            size_t q = 0;
            while (!T->n[q].leaf)
                q = child(&T->n[q], X, i);
            for (size_t e = T->n[q].e0; e < T->n[q].e0 + T->n[q].ne; e++)
                out[i * F->k + F->e[e].cls] += F->e[e].v;
        }
}

/* ---- the reference: pairs, Newton values, split gains -------------------- */

enum kind { K_AOSO, K_DIAG, K_CLASS, K_ABC };

struct setting {
    enum kind kind;
    size_t leaves, node_size;
    double max_step;
    int first_order, fixed_pair, gradient, kscale;
};

static struct setting setting_of(const struct cfg *c)
{
    struct setting s;
    memset(&s, 0, sizeof s);
    const char *nm = c->p->name;
    s.kind = !strcmp(nm, "aoso-tree") ? K_AOSO : !strcmp(nm, "diag-tree") ? K_DIAG
           : !strcmp(nm, "class-trees") ? K_CLASS : K_ABC;
    s.leaves = (size_t)c->v[test_param_index(c->p, "leaves")].i;
    s.node_size = (size_t)c->v[test_param_index(c->p, "node_size")].i;
    s.max_step = c->v[test_param_index(c->p, "max_step")].r;
    if (s.kind == K_AOSO) {
        s.first_order = cfg_is(c, "pair", "first");
        s.fixed_pair = c->v[test_param_index(c->p, "fixed_pair")].b;
    }
    if (s.kind == K_CLASS || s.kind == K_ABC)
        s.gradient = cfg_is(c, "split", "gradient");
    if (s.kind == K_CLASS)
        s.kscale = c->v[test_param_index(c->p, "kscale")].b;
    return s;
}

static double clampv(double v, double lim)
{
    return v > lim ? lim : v < -lim ? -lim : v;
}

/* Rule (33) (or (32)) on examples idx: r = argmax G_r, s = argmax over
 * q != r of (G_r - G_q)^2 / (S_r + S_q + 2 C_rq) (den 0 counts as 1), first
 * index on ties (spec §2.4). */
static void ref_pair(const struct state *S, const size_t *idx, size_t n, int first, int *pr,
                     int *ps)
{
    size_t k = S->k;
    const double *H = st_H(S), *U = st_U(S);
    double *g = calloc(k, sizeof *g), *sh = calloc(k, sizeof *sh), *cc = calloc(k, sizeof *cc);
    for (size_t j = 0; j < n; j++)
        for (size_t q = 0; q < k; q++)
            g[q] += S->G[idx[j] * k + q];
    int r = 0;
    for (size_t q = 1; q < k; q++)
        if (g[q] > g[r])
            r = (int)q;
    for (size_t j = 0; j < n; j++)
        for (size_t q = 0; q < k; q++) {
            sh[q] += H[idx[j] * k + q];
            cc[q] += U[idx[j] * k + (size_t)r] * U[idx[j] * k + q];
        }
    int s = -1;
    double best = -1.0;
    for (size_t q = 0; q < k; q++) {
        if ((int)q == r)
            continue;
        if (first) {
            if (s < 0 || g[q] < g[s])
                s = (int)q;
            continue;
        }
        double num = g[r] - g[q], den = sh[r] + sh[q] + 2.0 * cc[q];
        double sc = num * num / (den == 0.0 ? 1.0 : den);
        if (sc > best)
            best = sc, s = (int)q;
    }
    *pr = r, *ps = s;
    free(g), free(sh), free(cc);
}

/* Per-example Newton statistics (spec §2.1): pair (r, s), or class r alone
 * (s < 0); b = 1 for the first-order (MART) split. */
static void ref_ab(const struct state *S, size_t i, int r, int s, double *a, double *b)
{
    size_t k = S->k;
    const double *G = S->G + i * k, *H = st_H(S) + i * k, *U = st_U(S) + i * k;
    if (s < 0) {
        *a = G[r], *b = H[r];
        return;
    }
    *a = G[r] - G[s];
    *b = H[r] + H[s] + 2.0 * U[r] * U[s];
}

/* A leaf's value A / B over examples idx (B = 0 counts as 1), clamped. */
static double ref_value(const struct state *S, const size_t *idx, size_t n, int r, int s,
                        double max_step)
{
    double A = 0.0, B = 0.0;
    for (size_t j = 0; j < n; j++) {
        double a, b;
        ref_ab(S, idx[j], r, s, &a, &b);
        A += a, B += b;
    }
    return clampv(A / (B == 0.0 ? 1.0 : B), max_step);
}

static double term(double A, double B)
{
    return A * A / (B == 0.0 ? 1.0 : B);
}

/* Gain (30) of a split given the left sums L and totals T over np pairs. */
static double gain_of(const double *L, const double *T, size_t np)
{
    double g = 0.0;
    for (size_t q = 0; q < np; q++)
        g += term(L[2 * q], L[2 * q + 1]) + term(T[2 * q] - L[2 * q], T[2 * q + 1] - L[2 * q + 1]) -
             term(T[2 * q], T[2 * q + 1]);
    return 0.5 * g;
}

/* Which classes tree t of a forest works on: (r, s) for CLASS / ABC (s < 0
 * for one class); AOSO and DIAG choose per node. */
struct treeinfo {
    int cls, base;
};

/* The statistics of node examples idx (n x 2 np) for tree ti of kind st. */
static size_t node_stats(const struct setting *st, const struct state *S, const size_t *idx,
                         size_t n, struct treeinfo ti, int aoso_r, int aoso_s, double *out)
{
    size_t k = S->k, np = st->kind == K_DIAG ? k : 1;
    for (size_t j = 0; j < n; j++) {
        double *o = out + 2 * np * j;
        if (st->kind == K_DIAG) {
            for (size_t q = 0; q < k; q++)
                ref_ab(S, idx[j], (int)q, -1, &o[2 * q], &o[2 * q + 1]);
            continue;
        }
        if (st->kind == K_AOSO)
            ref_ab(S, idx[j], aoso_r, aoso_s, &o[0], &o[1]);
        else
            ref_ab(S, idx[j], ti.cls, ti.base, &o[0], &o[1]);
        if (st->gradient)
            o[1] = 1.0;
    }
    return np;
}

struct vj {
    float v;
    size_t j;
};

static int cmp_vj(const void *a, const void *b)
{
    const struct vj *x = a, *y = b;
    int nx = isnan(x->v), ny = isnan(y->v);
    if (nx != ny)
        return nx ? -1 : 1;
    if (!nx && x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static int same_value(float a, float b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* The best gain over every feature and every boundary between distinct
 * raw values (NaN first, as its own value) of the node's examples, and at
 * each boundary between present values also with NaN on the right. */
static double brute_best(const struct prob *P, const size_t *idx, size_t n, const double *stn,
                         size_t np)
{
    size_t s = 2 * np;
    double *T = calloc(s, sizeof *T), *L = malloc(s * sizeof *L), best = -HUGE_VAL;
    double *M = malloc(s * sizeof *M), *La = malloc(s * sizeof *La);
    struct vj *o = malloc(n * sizeof *o);
    for (size_t j = 0; j < n; j++)
        for (size_t q = 0; q < s; q++)
            T[q] += stn[s * j + q];
    for (size_t f = 0; f < P->d; f++) {
        for (size_t j = 0; j < n; j++)
            o[j] = (struct vj){P->x[f * P->m + idx[j]], j};
        qsort(o, n, sizeof *o, cmp_vj);
        memset(L, 0, s * sizeof *L);
        memset(M, 0, s * sizeof *M);
        for (size_t j = 0; j < n && isnan(o[j].v); j++)
            for (size_t q = 0; q < s; q++)
                M[q] += stn[s * o[j].j + q];
        for (size_t t = 0; t + 1 < n; t++) {
            for (size_t q = 0; q < s; q++)
                L[q] += stn[s * o[t].j + q];
            if (same_value(o[t].v, o[t + 1].v))
                continue;
            double g = gain_of(L, T, np);
            if (g > best)
                best = g;
            if (isnan(o[t].v))
                continue;
            for (size_t q = 0; q < s; q++)
                La[q] = L[q] - M[q];
            g = gain_of(La, T, np);
            if (g > best)
                best = g;
        }
    }
    free(T), free(L), free(o), free(M), free(La);
    return best;
}

/* Everything the saved forest of answer A must satisfy for learner cf on
 * training set P and state S: tree count and shape (at most J leaves,
 * 2 L - 1 nodes, internal nodes hold > node_size examples, no empty leaf),
 * each leaf's classes and Newton value recomputed from the examples routed
 * to it, ops->predict and the parsed forest both reproducing res.out
 * bitwise; with splits, each split's gain within rounding of the brute
 * force best over its node (only valid when the learner's candidates are
 * all boundaries between distinct raw values: exact search, or bins on an
 * exact view without NaN). */
static void check_forest(const struct cfg *cf, const struct prob *P, const struct state *S,
                         const struct answer *A, int splits)
{
    const struct setting sett = setting_of(cf), *st = &sett;
    size_t m = P->m, k = P->k;
    cr_assert(A->ok, "fit failed: %s", A->err);
    struct pforest F = parse(A->text);
    cr_assert_eq(F.k, k);
    size_t want = st->kind == K_CLASS ? k : st->kind == K_ABC ? k - 1 : 1;
    cr_assert_eq(F.nt, want, "%zu trees, want %zu", F.nt, want);
    cr_assert_eq(A->res.trees, F.nt, "res.trees %zu for %zu trees", A->res.trees, F.nt);

    double *po = malloc(m * k * sizeof *po);
    pf_predict(&F, &P->tr.X, po);
    cr_assert_eq(memcmp(po, A->out, m * k * sizeof *po), 0, "parsed forest != res.out");
    A->ops->predict(A->res.hyp, &P->tr.X, po);
    cr_assert_eq(memcmp(po, A->out, m * k * sizeof *po), 0, "predict != res.out");
    free(po);

    size_t *idx = malloc(m * sizeof *idx), *all = malloc(m * sizeof *all);
    for (size_t i = 0; i < m; i++)
        all[i] = i;
    int root_r = -1, root_s = -1, base = -1;
    if (st->kind == K_AOSO && st->fixed_pair)
        ref_pair(S, all, m, st->first_order, &root_r, &root_s);
    double *stn = malloc(m * 2 * k * sizeof *stn), *L = malloc(2 * k * sizeof *L);
    double *T = malloc(2 * k * sizeof *T);
    for (size_t t = 0; t < F.nt; t++) {
        const struct ptree *Tr = &F.t[t];
        size_t nl = pf_leaves(Tr);
        cr_assert_leq(nl, st->leaves, "tree %zu: %zu leaves, J = %zu", t, nl, st->leaves);
        cr_assert_eq(Tr->nn, 2 * nl - 1);
        struct treeinfo ti = {(int)t, -1};
        if (st->kind == K_ABC) {
            const struct pnode *l0 = &Tr->n[0];
            while (!l0->leaf)
                l0 = &Tr->n[l0->a];
            cr_assert_eq(l0->ne, 2);
            if (base < 0)
                base = (int)F.e[l0->e0 + 1].cls;
            ti.base = base;
            ti.cls = (int)t < base ? (int)t : (int)t + 1; /* classes != b in order */
        }
        for (size_t q = 0; q < Tr->nn; q++) {
            const struct pnode *N = &Tr->n[q];
            size_t n = members(Tr, P, q, idx);
            cr_assert_gt(n, 0, "tree %zu node %zu holds no training example", t, q);
            if (!N->leaf) {
                cr_assert_gt(n, st->node_size, "tree %zu node %zu: split with %zu examples", t, q, n);
                cr_assert_lt((size_t)N->feat, P->d);
                if (!splits)
                    continue;
                int r = root_r, s = root_s;
                if (st->kind == K_AOSO && !st->fixed_pair)
                    ref_pair(S, idx, n, st->first_order, &r, &s);
                size_t np = node_stats(st, S, idx, n, ti, r, s, stn);
                memset(L, 0, 2 * np * sizeof *L);
                memset(T, 0, 2 * np * sizeof *T);
                size_t nleft = 0;
                for (size_t j = 0; j < n; j++) {
                    int left = child(N, &P->tr.X, idx[j]) == N->a;
                    nleft += (size_t)left;
                    for (size_t u = 0; u < 2 * np; u++) {
                        T[u] += stn[2 * np * j + u];
                        if (left)
                            L[u] += stn[2 * np * j + u];
                    }
                }
                cr_assert(nleft > 0 && nleft < n, "tree %zu node %zu: an empty child", t, q);
                double g = gain_of(L, T, np), best = brute_best(P, idx, n, stn, np);
                cr_assert(g >= best - 1e-10 * (1 + fabs(best)),
                          "tree %zu node %zu (%zu examples): split gain %.17g, best %.17g", t, q,
                          n, g, best);
                continue;
            }
            const struct pent *E = F.e + N->e0;
            double tol = 1e-12;
            if (st->kind == K_DIAG) {
                cr_assert_eq(N->ne, k);
                for (size_t c = 0; c < k; c++) {
                    double v = ref_value(S, idx, n, (int)c, -1, st->max_step);
                    cr_assert_eq(E[c].cls, c);
                    cr_assert(fabs(E[c].v - v) <= tol * (1 + fabs(v)), "leaf %zu class %zu: %.17g, want %.17g",
                              q, c, E[c].v, v);
                }
            } else if (st->kind == K_CLASS) {
                cr_assert_eq(N->ne, 1);
                double v = ref_value(S, idx, n, ti.cls, -1, st->max_step);
                if (st->kscale)
                    v *= (double)(k - 1) / (double)k;
                cr_assert_eq(E[0].cls, (unsigned)t);
                cr_assert(fabs(E[0].v - v) <= tol * (1 + fabs(v)), "tree %zu leaf %zu: %.17g, want %.17g",
                          t, q, E[0].v, v);
            } else {
                int r = ti.cls, s = ti.base;
                if (st->kind == K_AOSO) {
                    r = root_r, s = root_s;
                    if (!st->fixed_pair)
                        ref_pair(S, idx, n, st->first_order, &r, &s);
                }
                double v = ref_value(S, idx, n, r, s, st->max_step);
                cr_assert_eq(N->ne, 2);
                cr_assert(E[0].cls == (unsigned)r && E[1].cls == (unsigned)s,
                          "tree %zu leaf %zu: pair (%u, %u), want (%d, %d)", t, q, E[0].cls,
                          E[1].cls, r, s);
                cr_assert(fabs(E[0].v - v) <= tol * (1 + fabs(v)), "tree %zu leaf %zu: %.17g, want %.17g",
                          t, q, E[0].v, v);
                cr_assert_eq(E[1].v, -E[0].v);
            }
        }
    }
    free(idx), free(all), free(stn), free(L), free(T);
    pf_free(&F);
}

/* The base class of an ABC answer (the second entry of its first leaf). */
static int abc_base(const struct answer *A)
{
    struct pforest F = parse(A->text);
    const struct pnode *N = &F.t[0].n[0];
    while (!N->leaf)
        N = &F.t[0].n[N->a];
    cr_assert_eq(N->ne, 2);
    int b = (int)F.e[N->e0 + 1].cls;
    pf_free(&F);
    return b;
}

/* ---- descriptors ------------------------------------------------------------ */

Test(trees, descriptors)
{
    const unsigned cm = BL_NEEDS_CLASS_MAJOR; /* not diag-tree: it reads whole rows */
    const unsigned needs[] = {BL_NEEDS_HESSIAN | BL_NEEDS_OFFDIAG | cm, BL_NEEDS_HESSIAN,
                              BL_NEEDS_HESSIAN | cm, BL_NEEDS_HESSIAN | BL_NEEDS_OFFDIAG | cm};
    for (size_t j = 0; j < 4; j++) {
        struct cfg c = cfg_of(learner_names[j]);
        cr_assert_eq(c.p->role, BL_ROLE_WEAK);
        cr_assert_eq(c.p->sdk_version, BL_SDK_VERSION);
        cr_assert(c.p->doc && *c.p->doc);
        unsigned got = ((const struct bl_weak_ops *)c.p->ops)->needs;
        cr_assert_eq(got, needs[j], "%s: needs %u", c.p->name, got);
        /* the authors' defaults (spec §2.6, §2.9) */
        cr_assert_eq(c.v[test_param_index(c.p, "leaves")].i, 20);
        cr_assert_eq(c.v[test_param_index(c.p, "node_size")].i, 1);
        cr_assert_eq(c.v[test_param_index(c.p, "max_step")].r, 5.0);
        cr_assert(cfg_is(&c, "search", "bins"));
        (void)choice_index(&c, "search", "exact");
        const struct bl_weak_ops *o = cops(&c);
        cr_assert(o->create && o->destroy && o->fit && o->outdim && o->predict && o->save &&
                  o->load && o->free_hyp);
    }
    struct cfg a = cfg_of("aoso-tree");
    cr_assert(cfg_is(&a, "pair", "second"));
    (void)choice_index(&a, "pair", "first");
    cr_assert(!a.v[test_param_index(a.p, "fixed_pair")].b);
    struct cfg c = cfg_of("class-trees");
    cr_assert(cfg_is(&c, "split", "newton"));
    (void)choice_index(&c, "split", "gradient");
    cr_assert(c.v[test_param_index(c.p, "kscale")].b);
    struct cfg b = cfg_of("abc-trees");
    cr_assert(cfg_is(&b, "split", "newton"));
    cr_assert(cfg_is(&b, "base", "exhaustive"));
    (void)choice_index(&b, "base", "worst");
}

Test(trees, create_refuses_one_class)
{
    struct prob *P = make_prob(20, 2, 1, 4, 0, 3);
    for (size_t j = 0; j < 4; j++) {
        struct cfg c = cfg_of(learner_names[j]);
        char err[BL_ERR_MAX] = "";
        void *L = cops(&c)->create(&test_host, c.v, &P->tr, err);
        cr_assert_null(L, "%s accepted k = 1", c.p->name);
        cr_assert(strlen(err) > 0);
    }
    free_prob(P);
}

/* ---- AOSO: closed forms and pair rules ------------------------------------- */

static const int closed_labels[10] = {0, 0, 0, 1, 1, 2, 0, 1, 0, 0};

/* At F = 0 with K = 4 (spec §2.11): G = r - 1/4, H = 3/16, Hu = 1/4; one
 * leaf (constant features), pair (0, 3), t* = 4 (6 - 0) / 20 = 1.2. */
static void check_closed_form(const char *pair_rule)
{
    struct prob *P = make_const(10, 2, 4, closed_labels);
    struct state S = softmax_state(P, 0);
    for (size_t i = 0; i < 10; i++)
        for (size_t r = 0; r < 4; r++) {
            size_t j = i * 4 + r;
            cr_assert(fabs(S.G[j] - ((int)r == P->y[i] ? 0.75 : -0.25)) <= 1e-15);
            cr_assert(fabs(st_H(&S)[j] - 3.0 / 16.0) <= 1e-15);
            cr_assert(fabs(st_U(&S)[j] - 0.25) <= 1e-15);
        }
    struct cfg c = cfg_of("aoso-tree");
    cfg_choice(&c, "pair", pair_rule);
    void *L = learner(&c, &test_host, &P->tr);
    struct bl_fit_request q = request(&S);
    struct answer A = fit(&c, L, &q, P);
    cr_assert(A.ok, "%s", A.err);
    cr_assert_eq(A.res.trees, 1);
    cr_assert_eq(A.res.outdim, 4);
    double edge = 0;
    for (size_t i = 0; i < 10; i++) {
        const double want[4] = {1.2, 0, 0, -1.2};
        for (size_t r = 0; r < 4; r++) {
            cr_assert(fabs(A.out[i * 4 + r] - want[r]) <= 1e-14, "%s: out[%zu][%zu] = %.17g",
                      pair_rule, i, r, A.out[i * 4 + r]);
            edge += S.G[i * 4 + r] * A.out[i * 4 + r];
        }
    }
    /* edge = 1.2 (G_0 - G_3) = 1.2 (3.5 + 2.5), twice the reduction 3.6 */
    cr_assert(fabs(A.res.edge - edge) <= 1e-12 && fabs(edge - 7.2) <= 1e-12, "edge %.17g", A.res.edge);
    struct pforest F = parse(A.text);
    cr_assert_eq(F.nt, 1);
    cr_assert_eq(F.t[0].nn, 1, "no split is possible");
    cr_assert_eq(F.t[0].n[0].ne, 2);
    cr_assert_eq(F.e[0].cls, 0);
    cr_assert_eq(F.e[1].cls, 3);
    pf_free(&F);
    check_forest(&c, P, &S, &A, 1);
    drop(&A);
    cops(&c)->destroy(L);
    state_free(&S);
    free_prob(P);
}

Test(aoso, first_iteration_closed_form) { check_closed_form("second"); }

/* Rule (32): s = argmin G, class 3 here as well. */
Test(aoso, first_iteration_pair_rule_first) { check_closed_form("first"); }

/* A node where (32) and (33) disagree: p = (0.488, 0.488, 0.024) for every
 * example, counts (6, 4, 0).  G = (1.12, -0.88, -0.24): (32) takes s = 1,
 * the smallest G; (33) weighs by the pair's curvature and takes s = 2
 * ((G0 - G2)^2 / 2.98 = 0.62 > (G0 - G1)^2 / 9.76 = 0.41). */
Test(aoso, pair_rules_differ)
{
    const int lab[10] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 0};
    struct prob *P = make_const(10, 1, 3, lab);
    double F[30];
    for (size_t i = 0; i < 10; i++)
        F[3 * i] = 0, F[3 * i + 1] = 0, F[3 * i + 2] = -3;
    struct lossx Ls = loss_open("softmax", 0);
    struct state S = state_new(10, 3);
    state_at(&S, Ls, P->y, F);
    loss_close(Ls);
    size_t all[10];
    for (size_t i = 0; i < 10; i++)
        all[i] = i;
    const char *rules[2] = {"second", "first"};
    const int want_s[2] = {2, 1};
    for (int rule = 0; rule < 2; rule++) {
        int r, s;
        ref_pair(&S, all, 10, rule, &r, &s);
        cr_assert(r == 0 && s == want_s[rule], "reference rule %s: (%d, %d)", rules[rule], r, s);
        struct cfg c = cfg_of("aoso-tree");
        cfg_choice(&c, "pair", rules[rule]);
        void *L = learner(&c, &test_host, &P->tr);
        struct bl_fit_request q = request(&S);
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        double t = ref_value(&S, all, 10, 0, want_s[rule], 5.0);
        cr_assert(t > 0);
        for (size_t i = 0; i < 10; i++)
            for (size_t q2 = 0; q2 < 3; q2++) {
                double w = q2 == 0 ? t : (int)q2 == want_s[rule] ? -t : 0.0;
                cr_assert(fabs(A.out[i * 3 + q2] - w) <= 1e-14, "rule %s: out[%zu][%zu] = %g, want %g",
                          rules[rule], i, q2, A.out[i * 3 + q2], w);
            }
        check_forest(&c, P, &S, &A, 1);
        drop(&A);
        cops(&c)->destroy(L);
    }
    state_free(&S);
    free_prob(P);
}

/* fixed_pair = true with a root that is never split (node_size >= m): the
 * one leaf must still get the root's pair (0, 3) and t* = 1.2, exactly
 * what fixed_pair = false gives (one node: same pair by definition). */
Test(aoso, fixed_pair_single_leaf)
{
    struct prob *P = make_prob(10, 2, 4, 5, 0, 9);
    memcpy(P->y, closed_labels, sizeof closed_labels);
    struct state S = softmax_state(P, 0);
    struct bl_fit_request q = request(&S);
    for (int fixed = 0; fixed < 2; fixed++) {
        struct cfg c = cfg_of("aoso-tree");
        cfg_bool(&c, "fixed_pair", fixed);
        cfg_int(&c, "node_size", 10);
        void *L = learner(&c, &test_host, &P->tr);
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        for (size_t i = 0; i < 10; i++) {
            cr_assert(fabs(A.out[i * 4] - 1.2) <= 1e-14 && fabs(A.out[i * 4 + 3] + 1.2) <= 1e-14,
                      "fixed_pair=%d: example %zu gets (%g, %g, %g, %g), want (1.2, 0, 0, -1.2)",
                      fixed, i, A.out[i * 4], A.out[i * 4 + 1], A.out[i * 4 + 2], A.out[i * 4 + 3]);
        }
        cr_assert(A.res.edge > 7.0, "fixed_pair=%d: edge %g", fixed, A.res.edge);
        drop(&A);
        cops(&c)->destroy(L);
    }
    state_free(&S);
    free_prob(P);
}

/* K = 2: the pair is always {0, 1} (binary LogitBoost, spec §2.11). */
Test(aoso, two_classes_pair_is_0_1)
{
    struct prob *P = make_prob(300, 4, 2, 20, 0.05, 13);
    struct state S = softmax_state(P, 1.5);
    struct cfg c = cfg_of("aoso-tree");
    void *L = learner(&c, &test_host, &P->tr);
    struct bl_fit_request q = request(&S);
    struct answer A = fit(&c, L, &q, P);
    cr_assert(A.ok, "%s", A.err);
    struct pforest F = parse(A.text);
    for (size_t e = 0; e < F.nent; e += 2)
        cr_assert(F.e[e].cls + F.e[e + 1].cls == 1 && F.e[e].cls != F.e[e + 1].cls);
    pf_free(&F);
    check_forest(&c, P, &S, &A, 0);
    drop(&A);
    cops(&c)->destroy(L);
    state_free(&S);
    free_prob(P);
}

/* ---- every leaf and split against the reference -------------------------- */

/* One fit of a fresh learner of cfg c on P at state S, scores F (with a
 * trial for ABC exhaustive); the answer must be ok. */
static struct answer fit_fresh(struct cfg *c, const struct prob *P, const struct state *S,
                               const double *F)
{
    void *L = learner(c, &test_host, &P->tr);
    struct trial T;
    trial_init(&T, P, F, 0.1);
    struct bl_fit_request q = request(S);
    q.trial_loss = trial_cb;
    q.trial_ctx = &T;
    struct answer A = fit(c, L, &q, P);
    cr_assert(A.ok, "%s: %s", c->p->name, A.err);
    trial_free(&T);
    cops(c)->destroy(L);
    return A;
}

/* Fit cfg c on P at state S and check. */
static void fit_and_check(struct cfg *c, const struct prob *P, const struct state *S,
                          const double *F, int splits)
{
    struct answer A = fit_fresh(c, P, S, F);
    check_forest(c, P, S, &A, splits);
    drop(&A);
}

/* Random F (so every p differs), J = 8 and 20, both search modes (bins
 * with and without sibling subtraction); on an exact view without NaN and
 * with NaN (exact search only: bins cannot separate NaN from bin 0's
 * value). */
static void check_reference(const char *name, void (*vary)(struct cfg *c, int variant),
                            int nvariants, const char *lossname)
{
    /* data 0: plain; 1: with missing values (exact search only); 2: six
     * features, the fourth constant (one bin), so the histogram passes that
     * take features two at a time meet a group they must split */
    for (int data = 0; data < 3; data++) {
        struct prob *P = make_prob(400, data == 2 ? 6 : 5, 4, 25, data == 1 ? 0.15 : 0.0,
                                   100 + (uint64_t)data);
        if (data == 2) {
            P->nbins[3] = 1;
            for (size_t i = 0; i < P->m; i++) {
                P->bins[3 * P->m + i] = 0;
                P->x[3 * P->m + i] = P->cut[3][0];
            }
        }
        struct lossx Lo = loss_open(lossname, 0);
        double *F = random_F(P->m, P->k, 1.5);
        struct state S = state_new(P->m, P->k);
        state_at(&S, Lo, P->y, F);
        for (int var = 0; var < nvariants; var++)
            for (int J = 8; J <= 20; J += 12)
                for (int mode = data == 1 ? 2 : 0; mode < 3; mode++) {
                    struct cfg c = cfg_of(name); /* mode: bins, bins - subtract, exact */
                    cfg_int(&c, "leaves", J);
                    cfg_choice(&c, "search", mode == 2 ? "exact" : "bins");
                    cfg_bool(&c, "subtract", mode == 0);
                    if (vary)
                        vary(&c, var);
                    fit_and_check(&c, P, &S, F, 1);
                }
        state_free(&S);
        free(F);
        loss_close(Lo);
        free_prob(P);
    }
}

static void vary_aoso(struct cfg *c, int v)
{
    cfg_choice(c, "pair", v & 1 ? "first" : "second");
    cfg_bool(c, "fixed_pair", v >> 1);
}

static void vary_class(struct cfg *c, int v)
{
    cfg_choice(c, "split", v & 1 ? "gradient" : "newton");
    cfg_bool(c, "kscale", !(v >> 1));
}

static void vary_abc(struct cfg *c, int v)
{
    cfg_choice(c, "split", v & 1 ? "gradient" : "newton");
    cfg_choice(c, "base", v >> 1 ? "worst" : "exhaustive");
}

Test(aoso, leaves_and_splits_match_reference) { check_reference("aoso-tree", vary_aoso, 4, "softmax"); }
Test(diag, leaves_and_splits_match_reference_softmax) { check_reference("diag-tree", NULL, 1, "softmax"); }
Test(diag, leaves_and_splits_match_reference_klogit) { check_reference("diag-tree", NULL, 1, "klogit"); }
Test(class, leaves_and_splits_match_reference) { check_reference("class-trees", vary_class, 4, "softmax"); }
Test(abc, leaves_and_splits_match_reference) { check_reference("abc-trees", vary_abc, 4, "softmax"); }

/* ---- invariants ---------------------------------------------------------- */

/* AOSO leaves are (+t, -t) and ABC's base class takes minus the others:
 * every example's outputs sum to 0 (spec §2.11, §4.2). */
Test(trees, outputs_sum_to_zero)
{
    struct prob *P = make_prob(500, 6, 5, 40, 0.05, 21);
    struct state S = softmax_state(P, 2.0);
    const char *names[2] = {"aoso-tree", "abc-trees"};
    for (int j = 0; j < 2; j++)
        for (int rep = 0; rep < 2; rep++) {
            struct cfg c = cfg_of(names[j]);
            if (j == 1)
                cfg_choice(&c, "base", rep ? "worst" : "exhaustive");
            else
                cfg_bool(&c, "fixed_pair", rep);
            double *F = calloc(P->m * P->k, sizeof *F); /* trial at F = 0 is fine */
            struct trial T;
            trial_init(&T, P, F, 0.1);
            void *L = learner(&c, &test_host, &P->tr);
            struct bl_fit_request q = request(&S);
            q.trial_loss = trial_cb, q.trial_ctx = &T;
            struct answer A = fit(&c, L, &q, P);
            cr_assert(A.ok, "%s", A.err);
            double big = 0;
            for (size_t i = 0; i < P->m; i++) {
                double s = 0, a = 0;
                for (size_t r = 0; r < P->k; r++)
                    s += A.out[i * P->k + r], a += fabs(A.out[i * P->k + r]);
                big = a > big ? a : big;
                cr_assert(fabs(s) <= 1e-12 * (1 + a), "%s example %zu: outputs sum to %g", names[j], i, s);
            }
            cr_assert(big > 0.1, "%s: all outputs (nearly) zero", names[j]);
            drop(&A);
            cops(&c)->destroy(L);
            trial_free(&T);
            free(F);
        }
    state_free(&S);
    free_prob(P);
}

/* kscale multiplies every leaf value by (k - 1) / k and changes nothing
 * else (it is applied after the clamp). */
Test(class, kscale_scales_leaves)
{
    struct prob *P = make_prob(400, 5, 5, 30, 0.05, 23);
    struct state S = softmax_state(P, 2.0);
    struct bl_fit_request q = request(&S);
    struct answer A[2];
    for (int ks = 0; ks < 2; ks++) {
        struct cfg c = cfg_of("class-trees");
        cfg_bool(&c, "kscale", ks);
        cfg_real(&c, "max_step", 1.0); /* some leaves clamped */
        void *L = learner(&c, &test_host, &P->tr);
        A[ks] = fit(&c, L, &q, P);
        cr_assert(A[ks].ok, "%s", A[ks].err);
        cops(&c)->destroy(L);
    }
    const double f = 4.0 / 5.0;
    int clamped = 0;
    for (size_t j = 0; j < P->m * P->k; j++) {
        cr_assert(fabs(A[1].out[j] - f * A[0].out[j]) <= 1e-15 * (1 + fabs(A[0].out[j])),
                  "entry %zu: %.17g with kscale, %.17g without", j, A[1].out[j], A[0].out[j]);
        clamped |= fabs(A[0].out[j]) == 1.0;
    }
    cr_assert(clamped, "the test needs clamped leaves");
    cr_assert(fabs(A[1].res.edge - f * A[0].res.edge) <= 1e-12 * A[0].res.edge);
    struct pforest F0 = parse(A[0].text), F1 = parse(A[1].text);
    cr_assert_eq(F0.nt, F1.nt);
    for (size_t t = 0; t < F0.nt; t++) {
        cr_assert_eq(F0.t[t].nn, F1.t[t].nn);
        for (size_t n = 0; n < F0.t[t].nn; n++) {
            cr_assert_eq(F0.t[t].n[n].feat, F1.t[t].n[n].feat);
            cr_assert_eq(F0.t[t].n[n].thr, F1.t[t].n[n].thr);
        }
    }
    pf_free(&F0), pf_free(&F1);
    drop(&A[0]), drop(&A[1]);
    state_free(&S);
    free_prob(P);
}

/* max_step = 0.5: no leaf entry exceeds it, some reach it (so the clamp
 * is exercised); per class for the one-tree learners. */
Test(trees, max_step_clamps_leaves)
{
    struct prob *P = make_prob(300, 5, 4, 60, 0.05, 27);
    struct state S = softmax_state(P, 2.0);
    double *F = calloc(P->m * P->k, sizeof *F);
    for (size_t j = 0; j < 4; j++) {
        struct cfg c = cfg_of(learner_names[j]);
        cfg_real(&c, "max_step", 0.5);
        if (j == 2)
            cfg_bool(&c, "kscale", 0);
        struct trial T;
        trial_init(&T, P, F, 0.1);
        void *L = learner(&c, &test_host, &P->tr);
        struct bl_fit_request q = request(&S);
        q.trial_loss = trial_cb, q.trial_ctx = &T;
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        struct pforest Fo = parse(A.text);
        int at = 0;
        for (size_t e = 0; e < Fo.nent; e++) {
            cr_assert(fabs(Fo.e[e].v) <= 0.5, "%s: leaf entry %g", c.p->name, Fo.e[e].v);
            at |= fabs(Fo.e[e].v) == 0.5;
        }
        cr_assert(at, "%s: no leaf at the clamp", c.p->name);
        if (j != 3) /* ABC's base class sums k - 1 trees */
            for (size_t u = 0; u < P->m * P->k; u++)
                cr_assert(fabs(A.out[u]) <= 0.5, "%s: output %g", c.p->name, A.out[u]);
        pf_free(&Fo);
        drop(&A);
        cops(&c)->destroy(L);
        trial_free(&T);
    }
    free(F);
    state_free(&S);
    free_prob(P);
}

/* 1 to max_th threads: bitwise the same outputs, edge and text, for every
 * learner and the searches modes[0..nmodes) (0: bins with subtraction, 1:
 * bins, 2: exact); refitting the same learner too. */
static void check_threads(size_t m, size_t d, const int *modes, int nmodes, int max_th)
{
    struct prob *P = make_prob(m, d, 5, 64, 0.05, 31);
    double *F = random_F(P->m, P->k, 2.0);
    struct lossx Lo = loss_open("softmax", 0);
    struct state S = state_new(P->m, P->k);
    state_at(&S, Lo, P->y, F);
    loss_close(Lo);
    for (size_t j = 0; j < 4; j++)
        for (int u = 0; u < nmodes; u++) {
            int mode = modes[u];
            struct cfg c = cfg_of(learner_names[j]);
            cfg_choice(&c, "search", mode == 2 ? "exact" : "bins");
            cfg_bool(&c, "subtract", mode == 0);
            struct answer ref;
            memset(&ref, 0, sizeof ref);
            for (int th = 1; th <= max_th; th++) {
                struct bl_host host = test_host;
                host.threads = th;
                void *L = learner(&c, &host, &P->tr);
                for (int rep = 0; rep < 2; rep++) {
                    struct trial T;
                    trial_init(&T, P, F, 0.1);
                    struct bl_fit_request q = request(&S);
                    q.trial_loss = trial_cb, q.trial_ctx = &T;
                    struct answer A = fit(&c, L, &q, P);
                    trial_free(&T);
                    cr_assert(A.ok, "%s", A.err);
                    if (th == 1 && rep == 0) {
                        ref = A;
                        continue;
                    }
                    cr_assert_eq(A.res.edge, ref.res.edge, "%s threads %d: edge %.17g vs %.17g",
                                 c.p->name, th, A.res.edge, ref.res.edge);
                    cr_assert_eq(A.res.trees, ref.res.trees);
                    cr_assert_str_eq(A.text, ref.text, "%s threads %d: trees differ", c.p->name, th);
                    cr_assert_eq(memcmp(A.out, ref.out, P->m * P->k * sizeof *A.out), 0);
                    drop(&A);
                }
                cops(&c)->destroy(L);
            }
            drop(&ref);
        }
    state_free(&S);
    free(F);
    free_prob(P);
}

Test(trees, thread_independent)
{
    static const int modes[] = {0, 1, 2};
    check_threads(3000, 12, modes, 3, 3);
}

/* Nodes above learners.c's TL_PAR_ROWS (4096) examples: their row loops
 * (statistics, leaves, zeroing) run on the threads,
 * the smaller nodes' on one. */
Test(trees, thread_independent_large_nodes)
{
    static const int modes[] = {0, 1};
    check_threads(4500, 4, modes, 2, 2);
}

/* A learner keeps no state between fits: fit(q1), fit(q2), fit(q1) gives
 * the first answer again. */
Test(trees, refit_is_stateless)
{
    struct prob *P = make_prob(400, 5, 4, 30, 0.05, 33);
    struct state S1 = softmax_state(P, 1.0), S2 = softmax_state(P, 3.0);
    double *F = calloc(P->m * P->k, sizeof *F);
    for (size_t j = 0; j < 5; j++) {
        struct cfg c = cfg_of(learner_names[j % 4]);
        if (j == 4)
            cfg_bool(&c, "fixed_pair", 1);
        void *L = learner(&c, &test_host, &P->tr);
        struct trial T;
        trial_init(&T, P, F, 0.1);
        struct bl_fit_request q1 = request(&S1), q2 = request(&S2);
        q1.trial_loss = q2.trial_loss = trial_cb;
        q1.trial_ctx = q2.trial_ctx = &T;
        struct answer A = fit(&c, L, &q1, P), B = fit(&c, L, &q2, P), C = fit(&c, L, &q1, P);
        cr_assert(A.ok && B.ok && C.ok);
        cr_assert_str_eq(A.text, C.text, "%s", c.p->name);
        cr_assert_eq(memcmp(A.out, C.out, P->m * P->k * sizeof *A.out), 0);
        cr_assert_eq(A.res.edge, C.res.edge);
        cr_assert_str_neq(A.text, B.text);
        drop(&A), drop(&B), drop(&C);
        trial_free(&T);
        cops(&c)->destroy(L);
    }
    free(F);
    state_free(&S1), state_free(&S2);
    free_prob(P);
}

/* Sibling subtraction changes sums only in the last bits: on a problem
 * without near ties every learner grows the same trees (features,
 * thresholds, leaf classes) with and without it, and leaf values and
 * outputs agree to rounding.  A wrong histogram (the wrong node's, or a
 * sibling not subtracted) would move splits. */
static void check_subtract(double nanfrac)
{
    struct prob *P = make_prob(3000, 12, 5, 64, nanfrac, 43);
    struct state S = softmax_state(P, 2.0);
    double *F = calloc(P->m * P->k, sizeof *F);
    size_t splits = 0;
    /* AOSO, LogitBoost, MART (first-order split), ABC with the worst base */
    const char *name[] = {"aoso-tree", "class-trees", "class-trees", "abc-trees"};
    for (size_t j = 0; j < 4; j++) {
        struct answer A[2];
        for (int sub = 0; sub < 2; sub++) {
            struct cfg c = cfg_of(name[j]);
            if (j == 2)
                cfg_choice(&c, "split", "gradient");
            if (j == 3)
                cfg_choice(&c, "base", "worst");
            cfg_bool(&c, "subtract", sub);
            A[sub] = fit_fresh(&c, P, &S, F);
        }
        struct pforest F0 = parse(A[0].text), F1 = parse(A[1].text);
        cr_assert_eq(F0.nt, F1.nt);
        for (size_t t = 0; t < F0.nt; t++) {
            cr_assert_eq(F0.t[t].nn, F1.t[t].nn, "%s tree %zu: shapes differ", name[j], t);
            for (size_t q = 0; q < F0.t[t].nn; q++) {
                const struct pnode *a = &F0.t[t].n[q], *b = &F1.t[t].n[q];
                cr_assert_eq(a->leaf, b->leaf);
                if (!a->leaf) {
                    cr_assert(a->feat == b->feat && a->thr == b->thr && a->mr == b->mr,
                              "%s tree %zu node %zu: split differs", name[j], t, q);
                    splits++;
                }
            }
        }
        cr_assert_eq(F0.nent, F1.nent);
        for (size_t e = 0; e < F0.nent; e++)
            cr_assert(F0.e[e].cls == F1.e[e].cls &&
                      fabs(F0.e[e].v - F1.e[e].v) <= 1e-9 * (1 + fabs(F0.e[e].v)));
        for (size_t i = 0; i < P->m * P->k; i++)
            cr_assert(fabs(A[0].out[i] - A[1].out[i]) <= 1e-9 * (1 + fabs(A[0].out[i])));
        pf_free(&F0), pf_free(&F1);
        drop(&A[0]), drop(&A[1]);
    }
    cr_assert_gt(splits, 4 * 19, "the test needs deep trees");
    free(F);
    state_free(&S);
    free_prob(P);
}

Test(trees, subtract_matches_direct) { check_subtract(0); }

/* With missing values the larger child's sums over its missing rows are
 * direct, not subtracted: the same splits and sides. */
Test(trees, subtract_matches_direct_with_nan) { check_subtract(0.1); }

/* Every feature has fewer distinct values than bins and the view is exact:
 * binned and exact search see the same candidate partitions, so the
 * outputs are identical (thresholds differ: cut value vs midpoint), with
 * direct sums (subtraction changes sums in the last bits). */
Test(trees, exact_equals_bins_on_exact_view)
{
    struct prob *P = make_prob(1500, 6, 4, 12, 0, 41);
    struct state S = softmax_state(P, 1.5);
    double *F = calloc(P->m * P->k, sizeof *F);
    for (size_t j = 0; j < 4; j++) {
        struct answer A[2];
        for (int exact = 0; exact < 2; exact++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_choice(&c, "search", exact ? "exact" : "bins");
            cfg_bool(&c, "subtract", 0);
            A[exact] = fit_fresh(&c, P, &S, F);
        }
        cr_assert_eq(memcmp(A[0].out, A[1].out, P->m * P->k * sizeof *A[0].out), 0,
                     "%s: bins and exact disagree", learner_names[j]);
        cr_assert_eq(A[0].res.edge, A[1].res.edge);
        cr_assert_eq(A[0].res.trees, A[1].res.trees);
        struct pforest F0 = parse(A[0].text), F1 = parse(A[1].text);
        for (size_t t = 0; t < F0.nt; t++) {
            cr_assert_eq(F0.t[t].nn, F1.t[t].nn);
            cr_assert_gt(F0.t[t].nn, 1, "the test needs splits");
        }
        cr_assert_eq(F0.nent, F1.nent);
        for (size_t e = 0; e < F0.nent; e++)
            cr_assert(F0.e[e].cls == F1.e[e].cls && F0.e[e].v == F1.e[e].v);
        pf_free(&F0), pf_free(&F1);
        drop(&A[0]), drop(&A[1]);
    }
    free(F);
    state_free(&S);
    free_prob(P);
}

/* Exact search with missing values: a NaN goes left, in training as in
 * predict.  One feature, NaN exactly for class 0: class 0's tree (J = 2)
 * must cut NaN | rest, so the NaN examples' class-0 output is the Newton
 * value over exactly them. */
Test(trees, exact_search_nan_goes_left)
{
    size_t m = 200, k = 3;
    struct prob *P = prob_alloc(m, 1, k);
    rng_seed(43);
    P->nbins[0] = 1;
    P->cut[0] = malloc(sizeof(float));
    P->cut[0][0] = 0;
    size_t nan_idx[200], nn = 0;
    for (size_t i = 0; i < m; i++) {
        if (i % 4 == 1) {
            P->x[i] = NAN, P->y[i] = 0;
            nan_idx[nn++] = i;
        } else {
            P->x[i] = (float)urange(-1, 1), P->y[i] = 1 + (int)irand(2);
        }
    }
    struct state S = softmax_state(P, 0);
    struct cfg c = cfg_of("class-trees");
    cfg_int(&c, "leaves", 2);
    cfg_choice(&c, "search", "exact");
    void *L = learner(&c, &test_host, &P->tr);
    struct bl_fit_request q = request(&S);
    struct answer A = fit(&c, L, &q, P);
    cr_assert(A.ok, "%s", A.err);
    double v = ref_value(&S, nan_idx, nn, 0, -1, 5.0) * 2.0 / 3.0;
    for (size_t j = 0; j < nn; j++)
        cr_assert(fabs(A.out[nan_idx[j] * k] - v) <= 1e-14, "NaN example %zu: %.17g, want %.17g",
                  nan_idx[j], A.out[nan_idx[j] * k], v);
    for (size_t i = 0; i < m; i++)
        if (!isnan(P->x[i]))
            cr_assert(A.out[i * k] < 0, "a non-missing example shares class 0's leaf");
    check_forest(&c, P, &S, &A, 1);
    /* a new missing value follows the training ones */
    float xn[1] = {NAN};
    struct bl_matrix X1 = {1, 1, xn};
    double o[3];
    A.ops->predict(A.res.hyp, &X1, o);
    cr_assert_eq(o[0], A.out[nan_idx[0] * k]);
    drop(&A);
    cops(&c)->destroy(L);
    state_free(&S);
    free_prob(P);
}

/* NaN in several features, both searches, every learner: predict on the
 * training X reproduces res.out bitwise (check_forest), leaves match the
 * reference under "NaN goes left" routing. */
Test(trees, predict_matches_training_outputs_with_nan)
{
    struct prob *P = make_prob(600, 6, 4, 40, 0.2, 45);
    double *F = random_F(P->m, P->k, 1.0);
    struct lossx Lo = loss_open("softmax", 0);
    struct state S = state_new(P->m, P->k);
    state_at(&S, Lo, P->y, F);
    loss_close(Lo);
    for (size_t j = 0; j < 4; j++)
        for (int exact = 0; exact < 2; exact++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_choice(&c, "search", exact ? "exact" : "bins");
            fit_and_check(&c, P, &S, F, exact);
        }
    state_free(&S);
    free(F);
    free_prob(P);
}

/* Exact search between two adjacent floats a < b whose midpoint rounds up
 * to b (a has an odd mantissa, ties go to even): the threshold must stay
 * below b, or b would go left with a and a child would be empty. */
Test(trees, exact_search_adjacent_floats)
{
    size_t m = 40, k = 2;
    const float a = 1.0f + 0x1p-23f, b = nextafterf(a, 2.0f);
    cr_assert_eq((float)(0.5 * ((double)a + (double)b)), b, "the midpoint must round up");
    struct prob *P = prob_alloc(m, 1, k);
    P->nbins[0] = 2;
    P->cut[0] = malloc(2 * sizeof(float));
    P->cut[0][0] = a, P->cut[0][1] = b;
    for (size_t i = 0; i < m; i++) {
        P->y[i] = (int)(i % 2);
        P->x[i] = i % 2 ? b : a;
        P->bins[i] = (uint8_t)(i % 2);
    }
    struct state S = softmax_state(P, 0);
    for (size_t j = 0; j < 3; j++)
        for (int exact = 0; exact < 2; exact++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_choice(&c, "search", exact ? "exact" : "bins");
            void *L = learner(&c, &test_host, &P->tr);
            struct bl_fit_request q = request(&S);
            struct answer A = fit(&c, L, &q, P);
            cr_assert(A.ok, "%s", A.err);
            check_forest(&c, P, &S, &A, 1);
            cr_assert(A.out[0] != A.out[k], "%s exact=%d: a and b share a leaf", c.p->name, exact);
            drop(&A);
            cops(&c)->destroy(L);
        }
    state_free(&S);
    free_prob(P);
}

/* Examples whose Hessian is exactly 0 (p = 0 or 1 in floating point): a
 * zero sum B counts as 1 in split gains and leaf values alike (spec §2.9),
 * never inf or NaN. */
Test(trees, zero_hessian_guard)
{
    struct prob *P = make_prob(400, 4, 3, 30, 0, 57);
    struct state S = softmax_state(P, 1.0);
    size_t mk = P->m * P->k;
    for (size_t i = 0; i < P->m; i++)
        if (P->x[i] < 0) /* feature 0 below 0: a block of saturated examples */
            for (size_t r = 0; r < P->k; r++)
                S.HH[i * P->k + r] = 0.0, S.HH[mk + i * P->k + r] = 0.0;
    double *F = calloc(mk, sizeof *F);
    for (size_t j = 0; j < 4; j++)
        for (int exact = 0; exact < 2; exact++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_choice(&c, "search", exact ? "exact" : "bins");
            cfg_int(&c, "leaves", 6);
            fit_and_check(&c, P, &S, F, 1);
        }
    free(F);
    state_free(&S);
    free_prob(P);
}

/* ---- structure: J and node_size ------------------------------------------ */

/* Plenty of distinct values: every tree has exactly J leaves (best-first
 * stops only when nothing can be split), never more. */
Test(trees, leaves_respected)
{
    struct prob *P = make_prob(1000, 5, 3, 200, 0, 51);
    struct state S = softmax_state(P, 1.0);
    double *F = calloc(P->m * P->k, sizeof *F);
    const int Js[] = {2, 3, 5, 20, 64};
    for (size_t j = 0; j < 4; j++)
        for (size_t a = 0; a < sizeof Js / sizeof Js[0]; a++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_int(&c, "leaves", Js[a]);
            struct trial T;
            trial_init(&T, P, F, 0.1);
            void *L = learner(&c, &test_host, &P->tr);
            struct bl_fit_request q = request(&S);
            q.trial_loss = trial_cb, q.trial_ctx = &T;
            struct answer A = fit(&c, L, &q, P);
            cr_assert(A.ok, "%s", A.err);
            struct pforest Fo = parse(A.text);
            for (size_t t = 0; t < Fo.nt; t++)
                cr_assert_eq(pf_leaves(&Fo.t[t]), (size_t)Js[a], "%s J=%d tree %zu: %zu leaves",
                             c.p->name, Js[a], t, pf_leaves(&Fo.t[t]));
            pf_free(&Fo);
            if (Js[a] <= 5)
                check_forest(&c, P, &S, &A, 0);
            drop(&A);
            cops(&c)->destroy(L);
            trial_free(&T);
        }
    free(F);
    state_free(&S);
    free_prob(P);
}

/* node_size = m: the root is not split (one leaf, the closed-form value);
 * node_size = 60: every split node holds more than 60 examples. */
Test(trees, node_size_respected)
{
    struct prob *P = make_prob(400, 5, 4, 100, 0, 53);
    struct state S = softmax_state(P, 1.0);
    double *F = calloc(P->m * P->k, sizeof *F);
    const long long sizes[] = {400, 1000, 60};
    for (size_t j = 0; j < 4; j++)
        for (size_t a = 0; a < 3; a++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_int(&c, "node_size", sizes[a]);
            struct trial T;
            trial_init(&T, P, F, 0.1);
            void *L = learner(&c, &test_host, &P->tr);
            struct bl_fit_request q = request(&S);
            q.trial_loss = trial_cb, q.trial_ctx = &T;
            struct answer A = fit(&c, L, &q, P);
            cr_assert(A.ok, "%s", A.err);
            struct pforest Fo = parse(A.text);
            for (size_t t = 0; t < Fo.nt; t++) {
                if (sizes[a] >= 400)
                    cr_assert_eq(Fo.t[t].nn, 1, "%s node_size=%lld: the root was split", c.p->name,
                                 sizes[a]);
                else
                    cr_assert_gt(Fo.t[t].nn, 1);
            }
            pf_free(&Fo);
            check_forest(&c, P, &S, &A, 1);
            drop(&A);
            cops(&c)->destroy(L);
            trial_free(&T);
        }
    free(F);
    state_free(&S);
    free_prob(P);
}

/* ---- hypotheses on their own ------------------------------------------------ */

Test(trees, save_load_roundtrip)
{
    struct prob *P = make_prob(500, 6, 4, 50, 0.1, 61);
    struct state S = softmax_state(P, 1.5);
    double *F = calloc(P->m * P->k, sizeof *F);
    /* 7 rows of P as a matrix of their own */
    const size_t rows[7] = {0, 3, 17, 99, 250, 251, 499};
    float x7[7 * 6];
    for (size_t f = 0; f < 6; f++)
        for (size_t r = 0; r < 7; r++)
            x7[f * 7 + r] = P->x[f * P->m + rows[r]];
    struct bl_matrix X7 = {7, 6, x7};
    for (size_t j = 0; j < 4; j++) {
        struct cfg c = cfg_of(learner_names[j]);
        struct trial T;
        trial_init(&T, P, F, 0.1);
        void *L = learner(&c, &test_host, &P->tr);
        struct bl_fit_request q = request(&S);
        q.trial_loss = trial_cb, q.trial_ctx = &T;
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        char err[BL_ERR_MAX] = "";
        void *h = A.ops->load(A.text, P->d, err);
        cr_assert_not_null(h, "%s: load: %s", c.p->name, err);
        cr_assert_eq(A.ops->outdim(h), P->k);
        size_t len = strlen(A.text);
        char *again = malloc(len + 2);
        cr_assert_eq(A.ops->save(h, again, len + 2), (int)len);
        cr_assert_str_eq(again, A.text);
        double *o = malloc(P->m * P->k * sizeof *o), o7[7 * 4];
        A.ops->predict(h, &P->tr.X, o);
        cr_assert_eq(memcmp(o, A.out, P->m * P->k * sizeof *o), 0, "%s: loaded model differs", c.p->name);
        A.ops->predict(h, &X7, o7);
        for (size_t r = 0; r < 7; r++)
            cr_assert_eq(memcmp(o7 + r * 4, A.out + rows[r] * 4, 4 * sizeof *o7), 0);
        /* a trailing newline is fine */
        again[len] = '\n', again[len + 1] = 0;
        void *h2 = A.ops->load(again, P->d, err);
        cr_assert_not_null(h2, "%s", err);
        A.ops->free_hyp(h2);
        free(again), free(o);
        A.ops->free_hyp(h);
        drop(&A);
        cops(&c)->destroy(L);
        trial_free(&T);
    }
    free(F);
    state_free(&S);
    free_prob(P);
}

/* save is snprintf-like: the full length whatever cap, a NUL-terminated
 * prefix within cap. */
Test(trees, save_truncates_like_snprintf)
{
    struct cfg c = cfg_of("aoso-tree");
    char err[BL_ERR_MAX] = "";
    const char *text = "forest 4 1  tree 3 s 1 0.5 1 2 l 2 0 1.5 3 -1.5 l 2 1 0.25 2 -0.25";
    void *h = cops(&c)->load(text, 3, err);
    cr_assert_not_null(h, "%s", err);
    int len = cops(&c)->save(h, NULL, 0);
    cr_assert_eq(len, (int)strlen(text));
    for (size_t cap = 1; cap < (size_t)len + 3; cap += 7) {
        char buf[128];
        memset(buf, 'x', sizeof buf);
        cr_assert_eq(cops(&c)->save(h, buf, cap), len);
        size_t n = cap - 1 < (size_t)len ? cap - 1 : (size_t)len;
        cr_assert_eq(strlen(buf), n, "cap %zu", cap);
        cr_assert_eq(strncmp(buf, text, n), 0);
    }
    cops(&c)->free_hyp(h);
}

/* A hand-written forest predicts what it says: routing left iff
 * !(x > thr), NaN left, entries summed over trees. */
Test(trees, predict_by_hand)
{
    struct cfg c = cfg_of("diag-tree");
    char err[BL_ERR_MAX] = "";
    const char *text = "forest 3 2  tree 3 s 1 0.5 1 2 l 2 0 1 2 -1 l 1 1 4"
                       "  tree 5 s 0 -1 1 2 l 0 s 1 2 3 4 l 1 2 0.25 l 3 0 1 1 2 2 3";
    void *h = cops(&c)->load(text, 2, err);
    cr_assert_not_null(h, "%s", err);
    /* examples (x0, x1) */
    const float ex[5][2] = {{0, 0.5f}, {0, 0.50001f}, {-1, 3}, {NAN, NAN}, {5, 2.5f}};
    const double want[5][3] = {{1, 0, -0.75}, {0, 4, 0.25}, {0, 4, 0}, {1, 0, -1}, {1, 6, 3}};
    float x[10];
    for (size_t i = 0; i < 5; i++)
        x[i] = ex[i][0], x[5 + i] = ex[i][1];
    struct bl_matrix X = {5, 2, x};
    double o[15];
    cops(&c)->predict(h, &X, o);
    for (size_t i = 0; i < 5; i++)
        for (size_t r = 0; r < 3; r++)
            cr_assert_eq(o[i * 3 + r], want[i][r], "example %zu class %zu: %g, want %g", i, r,
                         o[i * 3 + r], want[i][r]);
    cops(&c)->free_hyp(h);
}

/* predict_add on hand-made forests: one class twice in a leaf, and one class
 * in two trees, are summed before the product as predict's outputs are. */
Test(trees, predict_add_by_hand)
{
    struct cfg c = cfg_of("diag-tree");
    const char *texts[] = {"forest 3 1  tree 3 s 0 0 1 2 l 2 0 0.1 0 0.2 l 2 1 0.3 2 -0.7",
                           "forest 3 2  tree 3 s 0 0 1 2 l 1 0 0.1 l 1 1 0.3"
                           "  tree 3 s 1 0 1 2 l 1 0 0.2 l 1 2 0.6",
                           "forest 3 2  tree 1 l 1 0 1.5  tree 1 l 1 1 -2.5"};
    const float x[8] = {-1, 1, 0.5f, NAN, 1, -1, NAN, 2}; /* 4 examples, 2 features */
    struct bl_matrix X = {4, 2, x};
    const double w[3] = {0.3, 0.7, 1.9};
    for (size_t q = 0; q < 3; q++) {
        char err[BL_ERR_MAX] = "";
        void *h = cops(&c)->load(texts[q], 2, err);
        cr_assert_not_null(h, "%s", err);
        double o[12], F1[12], F2[12];
        cops(&c)->predict(h, &X, o);
        for (size_t j = 0; j < 12; j++) {
            F1[j] = F2[j] = 1.0 / 3.0 + (double)j;
            F1[j] += w[j % 3] * o[j];
        }
        cops(&c)->predict_add(h, &X, w, 3, F2);
        for (size_t j = 0; j < 12; j++)
            cr_assert(memcmp(&F1[j], &F2[j], sizeof *F1) == 0, "forest %zu, score %zu: %.17g, "
                      "predict and add %.17g", q, j, F2[j], F1[j]);
        cops(&c)->free_hyp(h);
    }
}

Test(trees, load_refuses_malformed)
{
    /* d = 3, k = 4 */
    const char *bad[] = {
        "", "forest", "forest 4", "forest 4 1", "forest 4 1  tree",
        "forest 4 2  tree 1 l 0",                                        /* a tree short */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 2 0 1.5 3",                     /* truncated entry */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 2 0 1.5 3 -1.5",                /* a node short */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 2 0 1.5 3 -1.5 l 2 1 0.25 2",   /* truncated value */
        "forest 4 1  tree 3 s 1 0.5",                                     /* truncated split */
        "forest 4 1  tree 3 l 1 0 1 s 1 0.5 0 2 l 1 0 2",                 /* child before parent */
        "forest 4 1  tree 3 s 1 0.5 0 2 l 1 0 1 l 1 0 2",                 /* its own child */
        "forest 4 1  tree 3 s 1 0.5 1 3 l 1 0 1 l 1 0 2",                 /* child out of range */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 2 4 1.5 3 -1.5 l 1 1 0.25",     /* class 4 of 4 */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 2 -1 1.5 3 -1.5 l 1 1 0.25",    /* class -1 */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 5 0 1 1 1 2 1 3 1 0 1 l 0",     /* 5 entries, k = 4 */
        "forest 4 1  tree 3 s 3 0.5 1 2 l 1 0 1 l 1 0 2",                 /* feature 3, d = 3 */
        "forest 4 1  tree 3 s -1 0.5 1 2 l 1 0 1 l 1 0 2",                /* feature -1 */
        "forest 4 1  tree 3 s 1 nan 1 2 l 1 0 1 l 1 0 2",                 /* NaN threshold */
        "forest 4 1  tree 3 s 1 inf 1 2 l 1 0 1 l 1 0 2",                 /* infinite threshold */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 1 0 nan l 1 0 2",               /* NaN leaf value */
        "forest 4 1  tree 3 s 1 0.5 1 2 l 1 0 1e999 l 1 0 2",             /* overflowing value */
        "forest 4 1  tree 3 s 1 abc 1 2 l 1 0 1 l 1 0 2",
        "forest 4 1  tree 3 x 1 0.5 1 2 l 1 0 1 l 1 0 2",                 /* unknown node kind */
        "forest 4 1  tree 0",                                             /* empty tree */
        "forest 4 1  tree 1 l 1 0 1 junk",                                /* trailing text */
        "forest 4 1  tree 1 l 1 0 1  tree 1 l 0",                         /* more trees than said */
        "forest 4 1  trees 1 l 1 0 1", "Forest 4 1  tree 1 l 1 0 1",
        "forest 1 0", "forest 0 0", "forest -4 0", "forest 4 -1",
        "forest 4 1  tree 1 l 1 0.5 1",                                   /* fractional class */
        "forest 4 1  tree 1.5 l 1 0 1",
    };
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
        struct cfg c = cfg_of(learner_names[j % 4]);
        char err[BL_ERR_MAX] = "";
        void *h = cops(&c)->load(bad[j], 3, err);
        if (h)
            cops(&c)->free_hyp(h);
        cr_assert_null(h, "accepted \"%s\"", bad[j]);
        cr_assert(strlen(err) > 0, "no message for \"%s\"", bad[j]);
    }
    struct cfg c = cfg_of("abc-trees");
    const char *good[] = {"forest 4 1  tree 3 s 2 0.5 1 2 l 2 0 1.5 3 -1.5 l 2 1 0.25 2 -0.25",
                          "forest 4 0", "forest 2 1  tree 1 l 0",
                          "forest 4 1  tree 1 l 1 3 -2\n"};
    for (size_t j = 0; j < sizeof good / sizeof good[0]; j++) {
        char err[BL_ERR_MAX] = "";
        void *h = cops(&c)->load(good[j], 3, err);
        cr_assert_not_null(h, "refused \"%s\": %s", good[j], err);
        cops(&c)->free_hyp(h);
    }
    char err[BL_ERR_MAX] = "";
    cr_assert_null(cops(&c)->load(good[0], 0, err), "no features");
    cr_assert_null(cops(&c)->load(good[0], 2, err), "feature 2 with d = 2");
}

/* What load accepts, save writes back in a form load accepts again (a
 * model file survives load -> save -> load).  A threshold beyond float
 * range is the corner: read as a double, stored as a float. */
Test(trees, load_save_load_closed)
{
    struct cfg c = cfg_of("aoso-tree");
    const char *texts[] = {"forest 2 1  tree 3 s 0 1e39 1 2 l 2 0 1 1 -1 l 2 1 1 0 -1",
                           "forest 2 1  tree 3 s 0 -1e39 1 2 l 2 0 1 1 -1 l 2 1 1 0 -1",
                           "forest 2 1  tree 3 s 0 1e-50 1 2 l 2 0 1 1 -1 l 2 1 1 0 -1",
                           "forest 2 1  tree 1 l 2 0 1e300 1 -1e300"};
    for (size_t j = 0; j < sizeof texts / sizeof texts[0]; j++) {
        char err[BL_ERR_MAX] = "", buf[256];
        void *h = cops(&c)->load(texts[j], 1, err);
        if (!h)
            continue; /* refusing is fine */
        cops(&c)->save(h, buf, sizeof buf);
        void *h2 = cops(&c)->load(buf, 1, err);
        cr_assert_not_null(h2, "\"%s\" loads, its save \"%s\" does not: %s", texts[j], buf, err);
        cops(&c)->free_hyp(h2);
        cops(&c)->free_hyp(h);
    }
}

/* ---- ABC's base class ------------------------------------------------------ */

/* base = exhaustive tries every class through trial_loss and keeps the one
 * with the lowest loss: res.out's own trial loss is the minimum recorded,
 * the base is its argmin, k - 1 trees. */
Test(abc, exhaustive_keeps_lowest_trial_loss)
{
    for (uint64_t seed = 71; seed < 74; seed++) {
        struct prob *P = make_prob(400, 5, 4 + (size_t)(seed - 71), 30, 0, seed);
        double *F = random_F(P->m, P->k, 1.5);
        struct lossx Lo = loss_open("softmax", 0);
        struct state S = state_new(P->m, P->k);
        state_at(&S, Lo, P->y, F);
        loss_close(Lo);
        struct cfg c = cfg_of("abc-trees");
        void *L = learner(&c, &test_host, &P->tr);
        struct trial T;
        trial_init(&T, P, F, 0.1);
        struct bl_fit_request q = request(&S);
        q.trial_loss = trial_cb, q.trial_ctx = &T;
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        cr_assert_eq(T.n, P->k, "%zu trial losses for k = %zu", T.n, P->k);
        size_t best = 0;
        for (size_t b = 1; b < P->k; b++)
            if (T.rec[b] < T.rec[best])
                best = b;
        double got = trial_cb(&T, A.out);
        cr_assert_eq(got, T.rec[best], "res.out's trial loss %.17g, smallest tried %.17g", got,
                     T.rec[best]);
        cr_assert_eq(abc_base(&A), (int)best);
        cr_assert_eq(A.res.trees, P->k - 1);
        cr_assert(T.rec[best] < S.value, "the kept step lowers the loss");
        check_forest(&c, P, &S, &A, 1);
        drop(&A);
        trial_free(&T);
        cops(&c)->destroy(L);
        state_free(&S);
        free(F);
        free_prob(P);
    }
}

/* The reference worst class: argmax_c sum_{y_i = c} -log p_ic. */
static int ref_worst(const struct prob *P, const double *F)
{
    size_t k = P->k;
    double loss[16] = {0};
    for (size_t i = 0; i < P->m; i++) {
        double mx = -HUGE_VAL, s = 0;
        for (size_t r = 0; r < k; r++)
            mx = F[i * k + r] > mx ? F[i * k + r] : mx;
        for (size_t r = 0; r < k; r++)
            s += exp(F[i * k + r] - mx);
        loss[P->y[i]] += log(s) - (F[i * k + (size_t)P->y[i]] - mx);
    }
    int b = 0;
    for (size_t c = 1; c < k; c++)
        if (loss[c] > loss[b])
            b = (int)c;
    return b;
}

/* base = worst: no trial loss, the worst class as the base. */
Test(abc, worst_picks_worst_class_without_trials)
{
    for (uint64_t seed = 81; seed < 85; seed++) {
        struct prob *P = make_prob(300, 4, 5, 20, 0, seed);
        double *F = random_F(P->m, P->k, 2.5);
        struct lossx Lo = loss_open("softmax", 0);
        struct state S = state_new(P->m, P->k);
        state_at(&S, Lo, P->y, F);
        loss_close(Lo);
        struct cfg c = cfg_of("abc-trees");
        cfg_choice(&c, "base", "worst");
        void *L = learner(&c, &test_host, &P->tr);
        struct trial T;
        trial_init(&T, P, F, 0.1);
        struct bl_fit_request q = request(&S);
        q.trial_loss = trial_cb, q.trial_ctx = &T;
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        cr_assert_eq(T.n, 0, "base = worst called trial_loss %zu times", T.n);
        cr_assert_eq(abc_base(&A), ref_worst(P, F));
        cr_assert_eq(A.res.trees, P->k - 1);
        /* and it needs no trial_loss at all */
        struct bl_fit_request q2 = request(&S);
        struct answer B = fit(&c, L, &q2, P);
        cr_assert(B.ok, "%s", B.err);
        cr_assert_str_eq(A.text, B.text);
        drop(&A), drop(&B);
        trial_free(&T);
        cops(&c)->destroy(L);
        state_free(&S);
        free(F);
        free_prob(P);
    }
}

/* The worst class is a property of the loss, not of its scale: with
 * softmax normalize = examples (G, H / m, Hu / sqrt m; m = 256 so the
 * scaling is exact) every learner must answer exactly as without.  The
 * data make the two readings differ: class 0 has 5 examples at p ~ 4e-7
 * (summed -log p = 73), class 1 has 60 at p = 1/2 (42), so the worst class
 * is 0, while the sums of 1 - p are 5 and 30. */
Test(abc, worst_class_under_normalized_loss)
{
    size_t m = 256, k = 3;
    struct prob *P = make_prob(m, 3, k, 20, 0, 87);
    double *F = malloc(m * k * sizeof *F);
    for (size_t i = 0; i < m; i++) {
        double *Fi = F + i * k;
        if (i < 5)
            P->y[i] = 0, Fi[0] = -14, Fi[1] = 0, Fi[2] = 0;
        else if (i < 65)
            P->y[i] = 1, Fi[0] = 0, Fi[1] = 0, Fi[2] = -30;
        else
            P->y[i] = 2, Fi[0] = 0, Fi[1] = 0, Fi[2] = 5.3;
    }
    cr_assert_eq(ref_worst(P, F), 0);
    struct answer A[2];
    for (int norm = 0; norm < 2; norm++) {
        struct lossx Lo = loss_open("softmax", norm);
        struct state S = state_new(m, k);
        state_at(&S, Lo, P->y, F);
        loss_close(Lo);
        struct cfg c = cfg_of("abc-trees");
        cfg_choice(&c, "base", "worst");
        void *L = learner(&c, &test_host, &P->tr);
        struct bl_fit_request q = request(&S);
        A[norm] = fit(&c, L, &q, P);
        cr_assert(A[norm].ok, "%s", A[norm].err);
        cops(&c)->destroy(L);
        state_free(&S);
    }
    cr_assert_eq(abc_base(&A[0]), 0, "worst class without normalisation");
    cr_assert_eq(abc_base(&A[1]), 0, "normalize = examples: base class %d, the worst is 0",
                 abc_base(&A[1]));
    cr_assert_str_eq(A[0].text, A[1].text);
    drop(&A[0]), drop(&A[1]);
    free(F);
    free_prob(P);
}

/* The other learners are scale-free in the same sense (exact scaling by
 * 1/256): same trees, same outputs. */
Test(trees, normalized_loss_same_answers)
{
    size_t m = 256, k = 4;
    struct prob *P = make_prob(m, 5, k, 30, 0.05, 89);
    double *F = random_F(m, k, 1.5);
    for (size_t j = 0; j < 3; j++) {
        struct answer A[2];
        for (int norm = 0; norm < 2; norm++) {
            struct lossx Lo = loss_open("softmax", norm);
            struct state S = state_new(m, k);
            state_at(&S, Lo, P->y, F);
            loss_close(Lo);
            struct cfg c = cfg_of(learner_names[j]);
            void *L = learner(&c, &test_host, &P->tr);
            struct bl_fit_request q = request(&S);
            A[norm] = fit(&c, L, &q, P);
            cr_assert(A[norm].ok, "%s", A[norm].err);
            cops(&c)->destroy(L);
            state_free(&S);
        }
        cr_assert_str_eq(A[0].text, A[1].text, "%s", learner_names[j]);
        drop(&A[0]), drop(&A[1]);
    }
    free(F);
    free_prob(P);
}

/* ---- diag-tree closed form -------------------------------------------------- */

/* One leaf (constant features): class q gets clamp(sum_i G_iq / sum_i H_iq),
 * a zero Hessian column counting as 1 (spec §2.9's guard). */
Test(diag, single_leaf_closed_form)
{
    const int lab[12] = {0, 1, 2, 0, 1, 1, 0, 2, 2, 2, 2, 1};
    struct prob *P = make_const(12, 2, 3, lab);
    rng_seed(91);
    double *F = random_F(12, 3, 1.0);
    struct lossx Lo = loss_open("klogit", 0);
    struct state S = state_new(12, 3);
    state_at(&S, Lo, P->y, F);
    loss_close(Lo);
    for (size_t i = 0; i < 12; i++) /* class 2: zero curvature */
        S.HH[i * 3 + 2] = 0.0;
    for (int lim = 0; lim < 2; lim++) {
        double ms = lim ? 0.3 : 5.0;
        struct cfg c = cfg_of("diag-tree");
        cfg_real(&c, "max_step", ms);
        void *L = learner(&c, &test_host, &P->tr);
        struct bl_fit_request q = request(&S);
        q.Hu = NULL; /* diag-tree does not need it */
        struct answer A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        for (size_t r = 0; r < 3; r++) {
            double g = 0, h = 0;
            for (size_t i = 0; i < 12; i++)
                g += S.G[i * 3 + r], h += st_H(&S)[i * 3 + r];
            double want = clampv(g / (h == 0 ? 1 : h), ms);
            for (size_t i = 0; i < 12; i++)
                cr_assert(fabs(A.out[i * 3 + r] - want) <= 1e-14 * (1 + fabs(want)),
                          "max_step %g class %zu: %.17g, want %.17g", ms, r, A.out[i * 3 + r], want);
        }
        cr_assert_eq(A.res.trees, 1);
        drop(&A);
        cops(&c)->destroy(L);
    }
    state_free(&S);
    free(F);
    free_prob(P);
}

/* ---- refusals ----------------------------------------------------------------- */

Test(trees, refusals)
{
    struct prob *P = make_prob(100, 3, 4, 10, 0, 93);
    struct state S = softmax_state(P, 1.0);
    double *F = calloc(P->m * P->k, sizeof *F);
    for (size_t j = 0; j < 4; j++) {
        struct cfg c = cfg_of(learner_names[j]);
        int pairs = j == 0 || j == 3;
        void *L = learner(&c, &test_host, &P->tr);
        struct trial T;
        trial_init(&T, P, F, 0.1);
        struct bl_fit_request q = request(&S);
        q.trial_loss = trial_cb, q.trial_ctx = &T;
        /* an output coding's column count */
        for (size_t cc = 1; cc <= 6; cc += 2) {
            struct bl_fit_request r = q;
            r.c = cc;
            struct answer A = fit(&c, L, &r, P);
            cr_assert(!A.ok, "%s accepted c = %zu for k = 4", c.p->name, cc);
            cr_assert(strlen(A.err) > 0);
            drop(&A);
        }
        struct bl_fit_request r = q;
        r.H = NULL;
        struct answer A = fit(&c, L, &r, P);
        cr_assert(!A.ok && strlen(A.err) > 0, "%s fit without H", c.p->name);
        drop(&A);
        r = q;
        r.Hu = NULL;
        A = fit(&c, L, &r, P);
        if (pairs)
            cr_assert(!A.ok && strlen(A.err) > 0, "%s fit without Hu", c.p->name);
        else
            cr_assert(A.ok, "%s needs no Hu: %s", c.p->name, A.err);
        drop(&A);
        /* still fine afterwards */
        A = fit(&c, L, &q, P);
        cr_assert(A.ok, "%s", A.err);
        drop(&A);
        cops(&c)->destroy(L);
        trial_free(&T);
    }
    /* base = exhaustive without the host's trial loss */
    struct cfg c = cfg_of("abc-trees");
    void *L = learner(&c, &test_host, &P->tr);
    struct bl_fit_request q = request(&S);
    struct answer A = fit(&c, L, &q, P);
    cr_assert(!A.ok && strlen(A.err) > 0, "exhaustive base without trial_loss");
    drop(&A);
    cops(&c)->destroy(L);
    free(F);
    state_free(&S);
    free_prob(P);
}

/* ---- boosting without the engine ----------------------------------------- */

/* iters iterations F += nu out with G, H, Hu recomputed each time; the
 * training loss must go down every iteration, and by a fair amount. */
static void boost(struct cfg *c, const char *lossname, int iters, double nu, double frac)
{
    struct prob *P = make_prob(300, 5, 4, 30, 0.05, 97);
    size_t m = P->m, k = P->k;
    struct lossx Lo = loss_open(lossname, 0);
    double *F = calloc(m * k, sizeof *F);
    struct state S = state_new(m, k);
    void *L = learner(c, &test_host, &P->tr);
    state_at(&S, Lo, P->y, F);
    double first = S.value;
    for (int it = 0; it < iters; it++) {
        struct trial T;
        trial_init(&T, P, F, nu);
        struct bl_fit_request q = request(&S);
        q.trial_loss = trial_cb, q.trial_ctx = &T;
        struct answer A = fit(c, L, &q, P);
        cr_assert(A.ok, "%s iteration %d: %s", c->p->name, it, A.err);
        cr_assert_gt(A.res.edge, 0);
        for (size_t j = 0; j < m * k; j++)
            F[j] += nu * A.out[j];
        drop(&A);
        trial_free(&T);
        double before = S.value;
        state_at(&S, Lo, P->y, F);
        cr_assert(S.value < before, "%s iteration %d: loss %.17g -> %.17g", c->p->name, it, before,
                  S.value);
    }
    cr_assert(S.value < frac * first, "%s: loss %g after %d iterations, %g at the start",
              c->p->name, S.value, iters, first);
    cops(c)->destroy(L);
    state_free(&S);
    free(F);
    loss_close(Lo);
    free_prob(P);
}

Test(aoso, boosting_loss_decreases)
{
    struct cfg c = cfg_of("aoso-tree");
    cfg_int(&c, "leaves", 8);
    boost(&c, "softmax", 30, 0.1, 0.8);
    c = cfg_of("aoso-tree");
    cfg_choice(&c, "search", "exact");
    boost(&c, "softmax", 30, 0.1, 0.8);
}

Test(diag, boosting_loss_decreases_klogit)
{
    struct cfg c = cfg_of("diag-tree");
    cfg_int(&c, "leaves", 8);
    boost(&c, "klogit", 30, 0.1, 0.8);
}

Test(class, boosting_loss_decreases)
{
    struct cfg c = cfg_of("class-trees");
    cfg_int(&c, "leaves", 8);
    boost(&c, "softmax", 20, 0.1, 0.8);
    c = cfg_of("class-trees");
    cfg_choice(&c, "split", "gradient");
    boost(&c, "softmax", 20, 0.1, 0.8);
}

Test(abc, boosting_loss_decreases)
{
    struct cfg c = cfg_of("abc-trees");
    cfg_int(&c, "leaves", 8);
    boost(&c, "softmax", 20, 0.1, 0.8);
    c = cfg_of("abc-trees");
    cfg_choice(&c, "base", "worst");
    cfg_choice(&c, "split", "gradient");
    boost(&c, "softmax", 20, 0.1, 0.8);
}

/* ---- missing values: the side that gains --------------------------------- */

/* One feature, x = 1 2 3 4 and NaN in turn; class 1 for x >= 3 and for
 * NaN.  Left (bin 0, with x = 1) the missing rows spoil any single split;
 * sent right of 2.5 they separate the classes.  P: the data; Pl: the same
 * with NaN replaced by 0, below every value, which is the best any tree
 * sending NaN left can do.  Every learner, both searches, one split (J =
 * 2): the split sends NaN right ("miss=r"), the training loss after the
 * step is strictly lower than on Pl, the text loads back to the same text
 * and outputs, and without the field NaN goes left again (older models). */
Test(trees, missing_values_go_to_the_gaining_side)
{
    size_t m = 60, k = 2;
    struct prob *P[2];
    for (int u = 0; u < 2; u++) {
        P[u] = prob_alloc(m, 1, k);
        P[u]->nbins[0] = 4;
        P[u]->cut[0] = malloc(4 * sizeof(float));
        for (unsigned b = 0; b < 4; b++)
            P[u]->cut[0][b] = (float)(b + 1);
        for (size_t i = 0; i < m; i++) {
            unsigned v = (unsigned)(i % 5);
            P[u]->x[i] = v < 4 ? (float)(v + 1) : u == 0 ? NAN : 0.0f;
            P[u]->bins[i] = (uint8_t)(v < 4 ? v : 0);
            P[u]->y[i] = v >= 2;
        }
    }
    struct state S = softmax_state(P[0], 0);
    struct lossx Lo = loss_open("softmax", 0);
    double *F = malloc(m * k * sizeof *F);
    for (size_t j = 0; j < 4; j++)
        for (int exact = 0; exact < 2; exact++) {
            struct cfg c = cfg_of(learner_names[j]);
            cfg_int(&c, "leaves", 2);
            cfg_int(&c, "node_size", 1);
            cfg_choice(&c, "search", exact ? "exact" : "bins");
            if (j == 3) /* exhaustive needs the host's trial loss */
                cfg_choice(&c, "base", "worst");
            struct answer A[2];
            double loss[2];
            for (int u = 0; u < 2; u++) {
                void *L = learner(&c, &test_host, &P[u]->tr);
                struct bl_fit_request q = request(&S);
                A[u] = fit(&c, L, &q, P[u]);
                cr_assert(A[u].ok, "%s: %s", c.p->name, A[u].err);
                cops(&c)->destroy(L);
                for (size_t e = 0; e < m * k; e++)
                    F[e] = A[u].out[e];
                loss[u] = Lo.ops->eval(Lo.self, P[u]->y, m, k, F, NULL);
            }
            const char *nm = c.p->name;
            cr_assert(strstr(A[0].text, "miss=r"), "%s exact %d: %s", nm, exact, A[0].text);
            cr_assert_null(strstr(A[1].text, "miss=r"), "%s: %s", nm, A[1].text);
            cr_assert(loss[0] < loss[1], "%s exact %d: loss %.17g with the side learnt, %.17g left",
                      nm, exact, loss[0], loss[1]);
            check_forest(&c, P[0], &S, &A[0], 1);
            /* the NaN rows share the x >= 3 rows' outputs */
            for (size_t i = 4; i < m; i += 5)
                for (size_t r = 0; r < k; r++)
                    cr_assert_eq(A[0].out[i * k + r], A[0].out[2 * k + r], "%s", nm);
            /* round trip */
            char err[BL_ERR_MAX] = "";
            void *h = A[0].ops->load(A[0].text, 1, err);
            cr_assert_not_null(h, "%s: %s", nm, err);
            int len = A[0].ops->save(h, NULL, 0);
            char *again = malloc((size_t)len + 1);
            A[0].ops->save(h, again, (size_t)len + 1);
            cr_assert_str_eq(again, A[0].text);
            double *o = malloc(m * k * sizeof *o);
            A[0].ops->predict(h, &P[0]->tr.X, o);
            cr_assert_eq(memcmp(o, A[0].out, m * k * sizeof *o), 0, "%s: loaded model", nm);
            A[0].ops->free_hyp(h);
            /* the same text without the field: NaN goes left, with x = 1 */
            char *p;
            while ((p = strstr(again, " miss=r")))
                memmove(p, p + 7, strlen(p + 7) + 1);
            h = A[0].ops->load(again, 1, err);
            cr_assert_not_null(h, "%s: %s", nm, err);
            A[0].ops->predict(h, &P[0]->tr.X, o);
            for (size_t i = 4; i < m; i += 5)
                for (size_t r = 0; r < k; r++)
                    cr_assert_eq(o[i * k + r], A[0].out[0 * k + r], "%s: old text", nm);
            A[0].ops->free_hyp(h);
            free(o), free(again);
            drop(&A[0]), drop(&A[1]);
        }
    free(F);
    loss_close(Lo);
    state_free(&S);
    free_prob(P[0]), free_prob(P[1]);
}

/* A hand-written split with miss=r: NaN right, the rest as without it; a
 * malformed field is refused. */
Test(trees, predict_by_hand_missing_right)
{
    struct cfg c = cfg_of("class-trees");
    char err[BL_ERR_MAX] = "";
    const char *text = "forest 2 1  tree 3 s 0 0.5 1 2 miss=r l 1 0 -1 l 1 0 1";
    void *h = cops(&c)->load(text, 1, err);
    cr_assert_not_null(h, "%s", err);
    float x[3] = {0, 1, NAN};
    struct bl_matrix X = {3, 1, x};
    double o[6];
    cops(&c)->predict(h, &X, o);
    cr_assert(o[0] == -1 && o[2] == 1 && o[4] == 1, "%g %g %g", o[0], o[2], o[4]);
    cops(&c)->free_hyp(h);
    cr_assert_null(cops(&c)->load("forest 2 1  tree 3 s 0 0.5 1 2 miss=x l 1 0 -1 l 1 0 1", 1,
                                  err));
}
