/* Batch rollouts (MuJoCo's rollout module): nbatch initial states stepped nstep times each,
 * on nthread threads with one cs_data per thread. Every rollout starts from a reset data
 * (cs_reset: zero warm start, controls, applied forces), so its result depends on its own
 * initial state and controls only, never on the thread count or on which thread ran it. */
#include <pthread.h>
#include <string.h>

#include "conesim.h"

typedef struct {
    const cs_model *m;
    int spec, nbatch, nstep, first, every;
    const double *state0, *ctrl;
    double *out, *sens;
    int oom;
} job;

int cs_rollout_nstate(const cs_model *m) { return cs_state_size(m, CS_STATE_FULLPHYSICS); }

static void *run(void *arg)
{
    job *j = arg;
    const cs_model *m = j->m;
    cs_data *d = cs_make_data(m);
    if (!d) {
        j->oom = 1;
        return NULL;
    }
    size_t ns = (size_t)cs_state_size(m, j->spec), nu = (size_t)m->nu;
    for (int b = j->first; b < j->nbatch; b += j->every) {
        cs_reset(m, d);
        cs_set_state(m, d, j->state0 + (size_t)b * ns, j->spec);
        for (int t = 0; t < j->nstep; t++) {
            if (j->ctrl && nu)
                memcpy(d->ctrl, j->ctrl + ((size_t)b * j->nstep + t) * nu, nu * sizeof *d->ctrl);
            cs_step(m, d);
            cs_get_state(m, d, j->out + ((size_t)b * j->nstep + t) * ns, j->spec);
            if (j->sens && m->nsensordata)
                memcpy(j->sens + ((size_t)b * j->nstep + t) * (size_t)m->nsensordata,
                       d->sensordata, (size_t)m->nsensordata * sizeof *d->sensordata);
        }
    }
    if (d->warning[CS_WARN_NOMEM]) j->oom = 1;
    cs_free_data(d);
    return NULL;
}

int cs_rollout(const cs_model *m, int nbatch, const double *state0, const double *ctrl,
               int nstep, int nthread, double *out)
{
    return cs_rollout_spec(m, CS_STATE_FULLPHYSICS, nbatch, state0, ctrl, nstep, nthread, out);
}

int cs_rollout_spec(const cs_model *m, int spec, int nbatch, const double *state0,
                    const double *ctrl, int nstep, int nthread, double *out)
{
    return cs_rollout_sensors(m, spec, nbatch, state0, ctrl, nstep, nthread, out, NULL);
}

int cs_rollout_sensors(const cs_model *m, int spec, int nbatch, const double *state0,
                       const double *ctrl, int nstep, int nthread, double *out,
                       double *sensordata)
{
    if (!m || cs_state_size(m, spec) < 0 || nbatch < 0 || nstep < 0 ||
        (nbatch && nstep && (!state0 || !out)))
        return -1;
    if (nbatch == 0 || nstep == 0) return 0;
    if (nthread < 1) nthread = 1;
    if (nthread > nbatch) nthread = nbatch;
    if (nthread > 64) nthread = 64;
    job jobs[64];
    pthread_t tid[64];
    int started[64] = {0};
    for (int t = 0; t < nthread; t++) {
        jobs[t] = (job){m, spec, nbatch, nstep, t, nthread, state0, ctrl, out, sensordata, 0};
        /* thread 0 is the caller's own */
        if (t > 0) started[t] = pthread_create(&tid[t], NULL, run, &jobs[t]) == 0;
    }
    run(&jobs[0]);
    int bad = jobs[0].oom;
    for (int t = 1; t < nthread; t++) {
        if (started[t]) {
            pthread_join(tid[t], NULL);
        } else { /* no thread could be made: its share runs here */
            run(&jobs[t]);
        }
        bad |= jobs[t].oom;
    }
    return bad ? -1 : 0;
}
