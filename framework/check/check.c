/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The check-plugin driver (see check.h): which checks a role gets, running
 * each in a child process (a plugin that crashes, calls exit or loops
 * forever is reported as that check's failure, with the case it was
 * running, and the other checks still run), and the report, one line per
 * check.  Also the helpers the role files share: text buffers, numbers
 * that read back exactly, the random generator and parameter variants.
 */
#include "check.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/rng.h"

/* ---- text ------------------------------------------------------------------ */

static void buf_vprintf(chk_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s)
            return; /* the report is cut short; the verdict still stands */
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    b->len += (size_t)n;
}

/* Raw bytes (they may hold NULs), kept NUL-terminated. */
static void buf_append(chk_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t)
            return;
        b->s = t;
        b->cap = cap;
    }
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void chk_printf(chk_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void chk_clear(chk_buf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = 0;
}

void chk_buf_free(chk_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

const char *chk_str(const chk_buf *b)
{
    return b->s ? b->s : "";
}

void chk_num(chk_buf *b, double x)
{
    if (isnan(x)) {
        chk_printf(b, "nan");
        return;
    }
    if (isinf(x)) {
        chk_printf(b, "%sinf", x < 0 ? "-" : "");
        return;
    }
    char s[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, x);
        if (strtod(s, NULL) == x)
            break;
    }
    chk_printf(b, "%s", s);
}

void chk_vec(chk_buf *b, const char *name, const double *a, size_t n)
{
    chk_printf(b, "%s=[", name);
    for (size_t j = 0; j < n; j++) {
        if (j)
            chk_printf(b, ", ");
        chk_num(b, a[j]);
    }
    chk_printf(b, "]");
}

void chk_mat(chk_buf *b, const char *name, const double *a, size_t rows, size_t cols)
{
    chk_printf(b, "%s=[", name);
    for (size_t i = 0; i < rows; i++) {
        chk_printf(b, "%s[", i ? ", " : "");
        for (size_t j = 0; j < cols; j++) {
            if (j)
                chk_printf(b, ", ");
            chk_num(b, a[i * cols + j]);
        }
        chk_printf(b, "]");
    }
    chk_printf(b, "]");
}

void chk_ivec(chk_buf *b, const char *name, const int *a, size_t n)
{
    chk_printf(b, "%s=[", name);
    for (size_t j = 0; j < n; j++)
        chk_printf(b, "%s%d", j ? ", " : "", a[j]);
    chk_printf(b, "]");
}

/* ---- random numbers ------------------------------------------------------------ */

void chk_rng_seed(chk_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t chk_next(chk_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double chk_unif(chk_rng *r)
{
    return (double)(chk_next(r) >> 11) / 9007199254740992.0;
}

double chk_range(chk_rng *r, double a, double b)
{
    return a + (b - a) * chk_unif(r);
}

size_t chk_below(chk_rng *r, size_t n)
{
    return n <= 1 ? 0 : (size_t)(chk_next(r) % (uint64_t)n);
}

uint64_t chk_seed(const chk_ctx *c, const char *tag, uint64_t n)
{
    return bl_seed_derive(c->seed, tag, n);
}

/* ---- what a check tells the driver ---------------------------------------------- */

/* Frames on the pipe from a child: one type byte, a 4-byte length, the
 * payload.  'c': the case being run (text); 'r': the result (status byte,
 * then detail, input and info, each NUL-terminated). */
static void put_frame(int fd, char type, const char *a, size_t alen, const char *b, size_t blen)
{
    uint32_t len = (uint32_t)(alen + blen);
    char head[5];
    head[0] = type;
    memcpy(head + 1, &len, 4);
    const char *parts[3] = {head, a, b};
    size_t lens[3] = {5, alen, blen};
    for (int q = 0; q < 3; q++) {
        const char *s = parts[q];
        size_t left = lens[q];
        while (left > 0) {
            ssize_t w = write(fd, s, left);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return;
            s += w;
            left -= (size_t)w;
        }
    }
}

void chk_case(chk_ctx *c, const char *fmt, ...)
{
    if (c->progress_fd < 0)
        return;
    char s[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    put_frame(c->progress_fd, 'c', s, strlen(s), NULL, 0);
}

void chk_detail(chk_ctx *c, const char *fmt, ...)
{
    chk_clear(&c->detail);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&c->detail, fmt, ap);
    va_end(ap);
}

/* ---- shrinking and reporting a failing case ----------------------------------- */

void chk_shrink_report(chk_ctx *c, const chk_case_ops *ops, void *state, void *cs,
                       const void *orig, const char *prefix, const char *seen, uint64_t seed,
                       chk_buf *why, chk_buf *more)
{
    chk_buf why0 = {0}, more0 = {0};
    chk_printf(&why0, "%s", chk_str(why));
    chk_printf(&more0, "%s", chk_str(more));
    ops->shrink(c, state, cs);
    chk_clear(why);
    chk_clear(more);
    if (ops->run(state, cs, why, more)) {
        chk_detail(c, "%s%s", prefix, chk_str(why));
        chk_printf(&c->input, "smallest failing input (first seen at %s, seed %#llx):\n", seen,
                   (unsigned long long)seed);
        ops->describe(&c->input, cs);
        chk_printf(&c->input, "%s", chk_str(more));
    } else { /* it did not fail again: show the case as it failed */
        chk_detail(c, "%s%s (the same input passed when run again: the result varies between "
                   "runs)", prefix, chk_str(&why0));
        chk_printf(&c->input, "failing input (seed %#llx):\n", (unsigned long long)seed);
        ops->describe(&c->input, orig);
        chk_printf(&c->input, "%s", chk_str(&more0));
    }
    chk_buf_free(&why0);
    chk_buf_free(&more0);
}

/* ---- parameter variants -------------------------------------------------------- */

static size_t count_choices(const char *choices)
{
    size_t n = 1;
    for (const char *q = choices; q && *q; q++)
        n += *q == '|';
    return n;
}

/* The word of choice j ("a|bb|c", 1 -> "bb"). */
static void choice_word(const char *choices, size_t j, char *out, size_t cap)
{
    const char *q = choices;
    for (size_t t = 0; t < j && q; t++) {
        q = strchr(q, '|');
        if (q)
            q++;
    }
    size_t len = q ? strcspn(q, "|") : 0;
    if (len >= cap)
        len = cap - 1;
    memcpy(out, q ? q : "", len);
    out[len] = 0;
}

static void add_variant(chk_variant **vs, size_t *n, const struct bl_plugin *p,
                        const union bl_value *base, size_t j, union bl_value val,
                        const char *label)
{
    chk_variant *t = realloc(*vs, (*n + 1) * sizeof **vs);
    if (!t)
        return;
    *vs = t;
    chk_variant *v = &t[*n];
    v->v = malloc((p->nparams ? p->nparams : 1) * sizeof *v->v);
    if (!v->v)
        return;
    memcpy(v->v, base, p->nparams * sizeof *v->v);
    v->v[j] = val;
    v->index = *n;
    snprintf(v->label, sizeof v->label, "%s=%s", p->params[j].name, label);
    (*n)++;
}

/* An INT bound as an int64 when it is one exactly. */
static int int_bound(double b, int64_t *out)
{
    if (!isfinite(b) || b < -9.2e18 || b > 9.2e18 || b != floor(b))
        return 0;
    *out = (int64_t)b;
    return 1;
}

size_t chk_variants(const struct bl_plugin *p, const union bl_value *base, chk_variant **out)
{
    chk_variant *vs = NULL;
    size_t n = 0;
    for (size_t j = 0; j < p->nparams; j++) {
        const struct bl_param_spec *s = &p->params[j];
        union bl_value val;
        char label[64];
        switch (s->type) {
        case BL_PARAM_INT: {
            double bounds[2] = {s->min, s->max};
            for (int q = 0; q < 2; q++) {
                int64_t x;
                if (!int_bound(bounds[q], &x) || (q == 1 && s->max == s->min))
                    continue;
                val.i = x;
                snprintf(label, sizeof label, "%lld", (long long)x);
                add_variant(&vs, &n, p, base, j, val, label);
            }
            break;
        }
        case BL_PARAM_REAL: {
            double bounds[2] = {s->min, s->max};
            for (int q = 0; q < 2; q++) {
                if (!isfinite(bounds[q]) || (q == 1 && s->max == s->min))
                    continue;
                val.r = bounds[q];
                snprintf(label, sizeof label, "%.17g", bounds[q]);
                add_variant(&vs, &n, p, base, j, val, label);
            }
            break;
        }
        case BL_PARAM_BOOL:
            for (int q = 0; q < 2; q++) {
                val.b = q;
                add_variant(&vs, &n, p, base, j, val, q ? "true" : "false");
            }
            break;
        case BL_PARAM_CHOICE: {
            size_t nc = count_choices(s->choices);
            for (size_t q = 0; q < nc; q++) {
                val.choice = (int)q;
                choice_word(s->choices, q, label, sizeof label);
                add_variant(&vs, &n, p, base, j, val, label);
            }
            break;
        }
        case BL_PARAM_STRING:
            break;
        }
    }
    *out = vs;
    return n;
}

void chk_variants_free(chk_variant *vs, size_t n)
{
    for (size_t j = 0; j < n; j++)
        free(vs[j].v);
    free(vs);
}

enum chk_status chk_params(chk_ctx *c, chk_variant_fn fn, const char *pass)
{
    chk_variant *vs;
    size_t nv = chk_variants(c->p, c->v, &vs);
    if (nv == 0) {
        chk_variants_free(vs, nv);
        chk_detail(c, "no parameter has a bounded range or choices");
        return CHK_SKIP;
    }
    enum chk_status st = CHK_PASS;
    for (size_t j = 0; j < nv && st == CHK_PASS; j++) {
        char prefix[200];
        snprintf(prefix, sizeof prefix, "with %s: ", vs[j].label);
        st = fn(c, &vs[j], prefix);
    }
    if (st == CHK_PASS) {
        chk_detail(c, "%zu parameter values at bounds or choices: %s (", nv, pass);
        for (size_t j = 0; j < nv; j++)
            chk_printf(&c->detail, "%s%s", j ? ", " : "", vs[j].label);
        chk_printf(&c->detail, ")");
    }
    chk_variants_free(vs, nv);
    return st;
}

/* ---- the driver ---------------------------------------------------------------- */

/* The result of one check, as the parent prints it. */
typedef struct outcome {
    enum chk_status st;
    chk_buf detail, input, info;
} outcome;

static void outcome_free(outcome *r)
{
    chk_buf_free(&r->detail);
    chk_buf_free(&r->input);
    chk_buf_free(&r->info);
}

static void run_here(const chk_def *d, chk_ctx *c, outcome *r)
{
    r->st = d->run(c);
    r->detail = c->detail;
    r->input = c->input;
    r->info = c->info;
    memset(&c->detail, 0, sizeof c->detail);
    memset(&c->input, 0, sizeof c->input);
    memset(&c->info, 0, sizeof c->info);
}

/* Parse the frames a child wrote; returns 1 when a result frame was there. */
static int parse_frames(const char *s, size_t n, outcome *r, chk_buf *last_case)
{
    int got = 0;
    size_t o = 0;
    while (o + 5 <= n) {
        char type = s[o];
        uint32_t len;
        memcpy(&len, s + o + 1, 4);
        if (o + 5 + len > n)
            break;
        const char *pl = s + o + 5;
        if (type == 'c') {
            chk_clear(last_case);
            chk_printf(last_case, "%.*s", (int)len, pl);
        } else if (type == 'r' && len >= 4) {
            r->st = (enum chk_status)pl[0];
            const char *a = pl + 1, *end = pl + len;
            chk_buf *dst[3] = {&r->detail, &r->input, &r->info};
            for (int q = 0; q < 3 && a < end; q++) {
                size_t l = strnlen(a, (size_t)(end - a));
                chk_printf(dst[q], "%.*s", (int)l, a);
                a += l + 1;
            }
            got = 1;
        }
        o += 5 + len;
    }
    return got;
}

/* Run one check in a child process; a crash, an exit or a timeout there is
 * the check's failure. */
static void run_forked(const chk_def *d, chk_ctx *c, const chk_opts *o, outcome *r)
{
    int fds[2];
    fflush(NULL);
    if (pipe(fds) != 0) {
        run_here(d, c, r);
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        run_here(d, c, r);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_DFL);
        c->progress_fd = fds[1];
        if (o->timeout)
            alarm(o->timeout);
        char stc = (char)d->run(c);
        chk_buf pay = {0};
        buf_append(&pay, &stc, 1);
        const chk_buf *parts[3] = {&c->detail, &c->input, &c->info};
        for (int q = 0; q < 3; q++) {
            const char *t = chk_str(parts[q]);
            buf_append(&pay, t, strlen(t) + 1);
        }
        put_frame(fds[1], 'r', pay.s, pay.len, NULL, 0);
        chk_buf_free(&pay);
        chk_buf_free(&c->detail);
        chk_buf_free(&c->input);
        chk_buf_free(&c->info);
        close(fds[1]);
        fflush(NULL);
        _exit(0);
    }
    close(fds[1]);
    chk_buf all = {0};
    char tmp[65536];
    for (;;) {
        ssize_t got = read(fds[0], tmp, sizeof tmp);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        buf_append(&all, tmp, (size_t)got);
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    chk_buf last = {0};
    int got = parse_frames(all.s ? all.s : "", all.len, r, &last);
    chk_buf_free(&all);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        outcome_free(r);
        r->st = CHK_FAIL;
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
            chk_printf(&r->detail, "timed out after %u s", o->timeout);
        else if (WIFSIGNALED(status))
            chk_printf(&r->detail, "the plugin crashed: signal %d (%s)", WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
        else
            chk_printf(&r->detail, "the process exited with status %d in the middle of the "
                       "check (a plugin must never exit)", WEXITSTATUS(status));
        if (last.len)
            chk_printf(&r->input, "while running: %s", chk_str(&last));
    }
    chk_buf_free(&last);
}

static void print_lines(FILE *out, const char *prefix, const char *text)
{
    while (*text) {
        size_t l = strcspn(text, "\n");
        fprintf(out, "%s%.*s\n", prefix, (int)l, text);
        text += l;
        if (*text == '\n')
            text++;
    }
}

size_t chk_plugin(const struct bl_plugin *p, const char *file, const union bl_value *v,
                  const char *note, const chk_opts *o, FILE *out, chk_tally *t)
{
    const chk_def *defs = NULL;
    size_t ndefs = 0;
    const char *role = bl_role_name(p->role);
    fprintf(out, "== %s (%s, SDK %u.%u): %s\n", p->name, role, BL_SDK_MAJOR_OF(p->sdk_version),
            BL_SDK_MINOR_OF(p->sdk_version), file ? file : "?");
    if (note && *note)
        fprintf(out, "   parameters: %s\n", note);
    t->plugins++;
    switch (p->role) {
    case BL_ROLE_LOSS: defs = chk_loss_checks, ndefs = chk_loss_count; break;
    case BL_ROLE_WEAK: defs = chk_weak_checks, ndefs = chk_weak_count; break;
    case BL_ROLE_SOLVER: defs = chk_solver_checks, ndefs = chk_solver_count; break;
    case BL_ROLE_CODING: defs = chk_coding_checks, ndefs = chk_coding_count; break;
    case BL_ROLE_TASK: defs = chk_task_checks, ndefs = chk_task_count; break;
    case BL_ROLE_PROJECTION: defs = chk_projection_checks, ndefs = chk_projection_count; break;
    default:
        fprintf(out, "FAIL %s/role: this host (SDK %d.%d) has no contract for role %d, so there "
                "is nothing to check\n", role, BL_SDK_MAJOR, BL_SDK_MINOR, (int)p->role);
        t->fail++;
        return 1;
    }
    size_t failed = 0;
    for (size_t j = 0; j < ndefs; j++) {
        chk_ctx c;
        memset(&c, 0, sizeof c);
        c.def = &defs[j];
        c.p = p;
        c.v = v;
        c.host = &bl_host_api;
        c.seed = o->seed;
        c.trials = o->trials;
        c.verbose = o->verbose;
        c.progress_fd = -1;
        c.class_names = o->class_names;
        c.nclasses = o->nclasses;
        c.data = o->data;
        outcome r;
        memset(&r, 0, sizeof r);
        double t0 = bl_seconds();
        if (o->fork)
            run_forked(&defs[j], &c, o, &r);
        else
            run_here(&defs[j], &c, &r);
        double dt = bl_seconds() - t0;
        static const char *const word[] = {"PASS", "FAIL", "SKIP"};
        const char *w = (unsigned)r.st <= CHK_SKIP ? word[r.st] : "FAIL";
        fprintf(out, "%s %s/%s: %s", w, role, defs[j].name, chk_str(&r.detail));
        if (o->verbose)
            fprintf(out, " (%.2f s)", dt);
        fputc('\n', out);
        if (r.st == CHK_FAIL || (unsigned)r.st > CHK_SKIP) {
            print_lines(out, "    ", chk_str(&r.input));
            failed++;
            t->fail++;
        } else if (r.st == CHK_SKIP) {
            t->skip++;
        } else {
            t->pass++;
        }
        if (o->verbose)
            print_lines(out, "    note: ", chk_str(&r.info));
        fflush(out);
        outcome_free(&r);
        chk_buf_free(&c.detail);
        chk_buf_free(&c.input);
        chk_buf_free(&c.info);
    }
    return failed;
}
