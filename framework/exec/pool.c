/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The coordinator, the worker loop and the local (forked) transport (see
 * pool.h). */
#include "pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/fsutil.h"

int bl_env_threads(const char **bad)
{
    const char *s = getenv("OMP_NUM_THREADS");
    if (bad)
        *bad = NULL;
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (end == s || (*end && *end != ',') || errno || n < 1 || n > 1024) {
        if (bad)
            *bad = s;
        return 0;
    }
    return (int)n;
}

void bl_set_threads(int n)
{
#ifdef _OPENMP
    if (n > 0)
        omp_set_num_threads(n);
    bl_host_api.threads = omp_get_max_threads();
#else
    (void)n;
    bl_host_api.threads = 1;
#endif
}

/* ---- coordinator -------------------------------------------------------- */

typedef struct {
    long job;          /* index into jobs, -1 = idle */
    long d, rep;       /* data set and repeat of its last job */
    int quit;          /* told to quit (or dead) */
} wstate;

/* Next job for w: the first pending one of w's last (data, repeat), else of
 * its data set, else the first pending one. */
static long pick(const bl_job *jobs, size_t n, const unsigned char *taken, const wstate *w)
{
    long best = -1;
    int score = -1;
    for (size_t j = 0; j < n && score < 2; j++) {
        if (taken[j])
            continue;
        int s = jobs[j].d == (size_t)w->d ? (jobs[j].rep == w->rep ? 2 : 1) : 0;
        if (s > score) {
            score = s;
            best = (long)j;
        }
    }
    return best;
}

int bl_coordinate(bl_transport *t, const bl_experiment *ex, const bl_job *jobs, size_t n,
                  const bl_pool_hooks *h, bl_error *err)
{
    wstate *ws = bl_xcalloc((size_t)t->nworkers, sizeof *ws);
    unsigned char *taken = bl_xcalloc(n ? n : 1, 1);
    for (int w = 0; w < t->nworkers; w++) {
        ws[w].job = -1;
        ws[w].d = ws[w].rep = -1;
    }
    int live = t->nworkers, stop = 0, failed = 0;
    bl_buf b;
    memset(&b, 0, sizeof b);
    bl_error first;
    first.msg[0] = 0;
    while (live > 0) {
        int w, type;
        bl_error e;
        if (t->recv(t, &w, &type, &b, &e) < 0) {
            if (!failed++)
                first = e;
            break; /* the transport itself is broken: nothing more can come */
        }
        wstate *s = &ws[w];
        int give = 0;
        switch (type) {
        case BL_MSG_READY:
            give = 1;
            break;
        case BL_MSG_PROGRESS: {
            uint64_t done, total;
            if (bl_wire_get_progress(&b, &done, &total) == 0 && h->progress)
                h->progress(h->user, w, (size_t)done, (size_t)total);
            break;
        }
        case BL_MSG_RESULT: {
            bl_job j;
            bl_job_out o;
            if (bl_wire_get_result(&b, &j, &o) < 0 || s->job < 0) {
                if (!failed++)
                    bl_errf(&first, "worker %d sent a malformed result", w);
                stop = 1;
            } else {
                if (h->finished(h->user, w, &jobs[s->job], &o, &e) < 0) {
                    if (!failed++)
                        first = e;
                    stop = 1;
                }
                bl_job_out_free(&o);
            }
            s->job = -1;
            give = 1;
            break;
        }
        case BL_MSG_ERROR:
        case BL_MSG_DEAD: {
            char msg[BL_ERRMSG_MAX];
            snprintf(msg, sizeof msg, "%.*s", (int)(b.n < sizeof msg - 1 ? b.n : sizeof msg - 1),
                     (const char *)b.p);
            if (type == BL_MSG_DEAD && s->quit)
                break; /* exited after being told to: normal */
            if (s->job >= 0 && h->failed)
                h->failed(h->user, w, &jobs[s->job], msg);
            if (!failed++) {
                if (s->job >= 0) {
                    char label[600];
                    bl_job_label(ex, &jobs[s->job], label, sizeof label);
                    if (type == BL_MSG_DEAD)
                        bl_errf(&first, "%s: the worker running it died (%s)", label, msg);
                    else
                        bl_errf(&first, "%s", msg);
                } else {
                    bl_errf(&first, "a worker died (%s)", msg);
                }
            }
            stop = 1;
            s->job = -1;
            if (type == BL_MSG_DEAD) {
                s->quit = 1;
                live--;
            } else {
                give = 1;
            }
            break;
        }
        default:
            if (!failed++)
                bl_errf(&first, "worker %d sent an unknown message (%d)", w, type);
            stop = 1;
        }
        if (!give || s->quit)
            continue;
        long j = stop ? -1 : pick(jobs, n, taken, s);
        bl_buf_reset(&b);
        if (j < 0) {
            s->quit = 1;
            live--;
            if (t->send(t, w, BL_MSG_QUIT, NULL, &e) < 0 && !failed++)
                first = e;
            continue;
        }
        taken[j] = 1;
        s->job = j;
        s->d = (long)jobs[j].d;
        s->rep = jobs[j].rep;
        bl_wire_put_job(&b, &jobs[j]);
        if (h->started)
            h->started(h->user, w, &jobs[j]);
        if (t->send(t, w, BL_MSG_JOB, &b, &e) < 0) {
            if (!failed++)
                first = e;
            stop = 1;
        }
    }
    bl_buf_free(&b);
    free(ws);
    free(taken);
    if (failed) {
        *err = first;
        return -1;
    }
    return 0;
}

/* ---- worker ------------------------------------------------------------- */

typedef struct {
    bl_endpoint *e;
    double last;
    bl_buf b;
} wprog;

/* Engine callback: progress at most 5 times a second, so that messages
 * stay negligible next to the work. */
static void on_iter(void *user, size_t done, size_t total)
{
    wprog *p = user;
    double t = bl_seconds();
    if (t - p->last < 0.2 && done < total)
        return;
    p->last = t;
    bl_buf_reset(&p->b);
    bl_wire_put_progress(&p->b, done, total);
    p->e->send(p->e, BL_MSG_PROGRESS, &p->b);
}

int bl_worker_serve(bl_endpoint *e, const bl_experiment *ex)
{
    bl_job_cache cache;
    bl_job_cache_init(&cache);
    wprog p = {e, 0, {0}};
    bl_buf b;
    memset(&b, 0, sizeof b);
    int rc = e->send(e, BL_MSG_READY, NULL);
    while (rc == 0) {
        int type;
        if (e->recv(e, &type, &b) < 0) {
            rc = -1;
            break;
        }
        if (type == BL_MSG_QUIT)
            break;
        bl_job j;
        if (type != BL_MSG_JOB || bl_wire_get_job(&b, &j) < 0 || j.d >= ex->ndata ||
            j.a >= ex->nalgo || j.rep < 0 || j.rep >= bl_data_repeats(ex, j.d)) {
            rc = -1;
            break;
        }
        bl_job_out o;
        bl_error err;
        bl_buf_reset(&b);
        if (bl_job_run(ex, &cache, &j, on_iter, &p, NULL, &o, &err) < 0) {
            bl_buf_put(&b, err.msg, strlen(err.msg));
            rc = e->send(e, BL_MSG_ERROR, &b);
        } else {
            bl_wire_put_result(&b, &j, &o);
            bl_job_out_free(&o);
            rc = e->send(e, BL_MSG_RESULT, &b);
        }
    }
    bl_buf_free(&b);
    bl_buf_free(&p.b);
    bl_job_cache_free(&cache);
    return rc;
}

/* ---- local transport: forked workers over socket pairs ------------------- */

typedef struct {
    int *fd;        /* coordinator's end per worker, -1 once closed */
    pid_t *pid;
    struct pollfd *pf;  /* poll set, one per worker (reused per message) */
} local_ctx;

static int local_send(bl_transport *t, int w, int type, const bl_buf *b, bl_error *err)
{
    local_ctx *c = t->ctx;
    /* a dead worker's socket gives EPIPE, not SIGPIPE (MSG_NOSIGNAL is not
     * available through write(); SIGPIPE is ignored in the coordinator) */
    if (c->fd[w] < 0 || bl_msg_write(c->fd[w], type, b) < 0)
        return bl_errf(err, "cannot send to worker %d: %s", w, strerror(errno));
    return 0;
}

static void dead_reason(pid_t pid, bl_buf *b)
{
    int st = 0;
    char msg[128];
    if (waitpid(pid, &st, 0) < 0)
        snprintf(msg, sizeof msg, "lost: %s", strerror(errno));
    else if (WIFSIGNALED(st))
        snprintf(msg, sizeof msg, "killed by signal %d, %s", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else
        snprintf(msg, sizeof msg, "exit status %d", WEXITSTATUS(st));
    bl_buf_reset(b);
    bl_buf_put(b, msg, strlen(msg));
}

static int local_recv(bl_transport *t, int *w, int *type, bl_buf *b, bl_error *err)
{
    local_ctx *c = t->ctx;
    struct pollfd *pf = c->pf;
    for (;;) {
        for (int k = 0; k < t->nworkers; k++) {
            pf[k].fd = c->fd[k];
            pf[k].events = POLLIN;
            pf[k].revents = 0;
        }
        int r = poll(pf, (nfds_t)t->nworkers, -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return bl_errf(err, "poll: %s", strerror(errno));
        for (int k = 0; k < t->nworkers; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            *w = k;
            int rc = bl_msg_read(c->fd[k], type, b);
            if (rc != 0) {
                /* end of stream (or a torn message): the worker is gone */
                close(c->fd[k]);
                c->fd[k] = -1;
                dead_reason(c->pid[k], b);
                c->pid[k] = -1;
                *type = BL_MSG_DEAD;
            }
            return 0;
        }
    }
}

typedef struct {
    int fd;
} fd_ep;

static int ep_send(bl_endpoint *e, int type, const bl_buf *b)
{
    return bl_msg_write(((fd_ep *)e->ctx)->fd, type, b);
}

static int ep_recv(bl_endpoint *e, int *type, bl_buf *b)
{
    return bl_msg_read(((fd_ep *)e->ctx)->fd, type, b) == 0 ? 0 : -1;
}

int bl_pool_run_local(const bl_experiment *ex, const bl_job *jobs, size_t n, int workers,
                      int threads, const bl_pool_hooks *h, bl_error *err)
{
    if (workers < 1)
        workers = 1;
    local_ctx c;
    c.fd = bl_xmalloc((size_t)workers * sizeof *c.fd);
    c.pid = bl_xmalloc((size_t)workers * sizeof *c.pid);
    c.pf = bl_xmalloc((size_t)workers * sizeof *c.pf);
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    pid_t parent = getpid();
    fflush(NULL); /* buffered output must not be written twice */
    int started = 0, rc = 0;
    for (; started < workers; started++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
            rc = bl_errf(err, "socketpair: %s", strerror(errno));
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            rc = bl_errf(err, "fork: %s", strerror(errno));
            close(sv[0]);
            close(sv[1]);
            break;
        }
        if (pid == 0) {
            /* worker: dies with the coordinator, so a killed run leaves no
             * orphans computing into the void */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(1);
            close(sv[0]);
            for (int k = 0; k < started; k++)
                close(c.fd[k]);
            bl_set_threads(threads);
            fd_ep fe = {sv[1]};
            bl_endpoint e = {ep_send, ep_recv, &fe};
            int wrc = bl_worker_serve(&e, ex);
            _exit(wrc == 0 ? 0 : 1);
        }
        close(sv[1]);
        c.fd[started] = sv[0];
        c.pid[started] = pid;
    }
    if (started > 0) {
        bl_transport t = {started, local_send, local_recv, &c};
        bl_error e2;
        int crc = bl_coordinate(&t, ex, jobs, n, h, &e2);
        if (crc < 0 && rc == 0) {
            rc = -1;
            *err = e2;
        }
    }
    for (int k = 0; k < started; k++) {
        if (c.fd[k] >= 0)
            close(c.fd[k]);
        if (c.pid[k] > 0)
            waitpid(c.pid[k], NULL, 0);
    }
    sigaction(SIGPIPE, &old, NULL);
    free(c.fd);
    free(c.pid);
    free(c.pf);
    return rc;
}
