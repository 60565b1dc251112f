/* A small fixed pool of worker threads for the islands of a solve. Items are handed out
 * by an atomic counter, so which thread takes which island varies from run to run; the
 * results do not, because islands share nothing and every island is computed the same
 * way on any thread. */
#include "alloc.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "solver_internal.h"

struct cs_pool {
    int nthread;            /* including the caller */
    pthread_t *th;
    struct worker_arg_s *wargs; /* one per worker, owned here: workers never allocate or free */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    long generation;
    int active, stop;
    int n;
    atomic_int next;
    void (*fn)(void *, int, int);
    void *arg;
};

typedef struct worker_arg_s { struct cs_pool *pool; int id; } worker_arg;

static void drain(struct cs_pool *p, int id)
{
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) break;
        p->fn(p->arg, id, i);
    }
}

static void *worker(void *varg)
{
    struct cs_pool *p = ((worker_arg *)varg)->pool;
    int id = ((worker_arg *)varg)->id;
    long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->go, &p->mu);
        if (p->stop) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        drain(p, id);
        pthread_mutex_lock(&p->mu);
        if (--p->active == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

struct cs_pool *cs_pool_create(int nthread)
{
    struct cs_pool *p = cs_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->nthread = nthread < 1 ? 1 : nthread;
    p->th = cs_calloc((size_t)p->nthread, sizeof *p->th);
    p->wargs = cs_calloc((size_t)p->nthread, sizeof *p->wargs);
    if (!p->th || !p->wargs) {
        cs_free(p->th);
        cs_free(p->wargs);
        cs_free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    for (int i = 1; i < p->nthread; i++) {
        worker_arg *a = &p->wargs[i];
        a->pool = p;
        a->id = i;
        if (pthread_create(&p->th[i], NULL, worker, a) != 0) {
            p->nthread = i; /* the system refused a thread: run with those that started */
            break;
        }
    }
    return p;
}

void cs_pool_free(struct cs_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->nthread; i++) pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    cs_free(p->th);
    cs_free(p->wargs);
    cs_free(p);
}

void cs_pool_run(struct cs_pool *p, int n, void (*fn)(void *, int, int), void *arg)
{
    if (p->nthread == 1 || n <= 1) {
        for (int i = 0; i < n; i++) fn(arg, 0, i);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->n = n;
    atomic_store(&p->next, 0);
    p->active = p->nthread - 1;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    drain(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->active > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
