/* actuator_acc0 and the compiler's actuator length ranges (lengthrange.h), as MuJoCo's set0
 * and mj_setLengthRange make them. A range is simulated by pushing the transmission with
 * the force whose unconstrained acceleration has norm accel, one side and then the other,
 * from qpos0 with the velocity decaying, and taking the extreme length seen in the last
 * interval: the model's joint and tendon limits and equalities stop it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data_scratch.h"
#include "lengthrange.h"
#include "minval.h"
#include "solver/mass.h"
#include "stages.h"


void cs_lropt_default(cs_lropt *o)
{
    *o = (cs_lropt){.mode = CS_LRMODE_MUSCLE, .useexisting = 1, .uselimit = 0, .accel = 20,
                    .maxforce = 0, .timeconst = 1, .timestep = 0.01, .inttotal = 10,
                    .interval = 2, .tolrange = 0.05};
}

static double norm(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

int cs_model_acc0(cs_model *m)
{
    int nv = m->nv;
    memset(m->actuator_acc0, 0, (size_t)m->nactuator * sizeof *m->actuator_acc0);
    if (!m->nactuator || !nv) return 0;
    cs_data *d = cs_make_data(m); /* at qpos0: moments and M's factor */
    if (!d) return -1;
    double *x = d->scratch->qDeriv; /* nv of scratch not used by a forward pass's results */
    for (int i = 0; i < m->nactuator; i++) {
        /* its first output's (the muscles that use it have one) */
        memcpy(x, d->actuator_moment + (size_t)m->actuator_outadr[i] * nv,
               (size_t)nv * sizeof *x);
        cs_mass_solve(d->scratch->mass, x, 0, nv);
        m->actuator_acc0[i] = norm(x, nv);
    }
    cs_free_data(d);
    return 0;
}

static int selected(const cs_model *m, const cs_lropt *o, int i)
{
    int muscle = m->actuator_gaintype[i] == CS_GAIN_MUSCLE || m->actuator_biastype[i] == CS_BIAS_MUSCLE;
    int user = m->actuator_gaintype[i] == CS_GAIN_USER || m->actuator_biastype[i] == CS_BIAS_USER;
    switch (o->mode) {
    case CS_LRMODE_NONE: return 0;
    case CS_LRMODE_MUSCLE: return muscle;
    case CS_LRMODE_MUSCLEUSER: return muscle || user;
    default: return 1;
    }
}

static int bad_state(const cs_model *m, const cs_data *d)
{
    for (int i = 0; i < m->nq; i++)
        if (!(fabs(d->qpos[i]) <= 1e10)) return 1;
    for (int i = 0; i < m->nv; i++)
        if (!(fabs(d->qvel[i]) <= 1e10) || !(fabs(d->qacc[i]) <= 1e10)) return 1;
    return 0;
}

/* one step pushing actuator i to side (0 shorter, 1 longer); its length before the step */
static double push(const cs_model *m, cs_data *d, int i, int side, const cs_lropt *o)
{
    int nv = m->nv;
    double decay = exp(-m->opt.timestep / fmax(0.01, o->timeconst));
    for (int k = 0; k < nv; k++) d->qvel[k] *= decay;
    cs_forward(m, d);
    const double *mo = d->actuator_moment + (size_t)m->actuator_outadr[i] * nv;
    double *f = d->qfrc_applied, *x = d->scratch->qDeriv;
    memcpy(x, mo, (size_t)nv * sizeof *x);
    cs_mass_solve(d->scratch->mass, x, 0, nv);
    double s = (2 * side - 1) * o->accel / fmax(CS_MINVAL, norm(x, nv));
    for (int k = 0; k < nv; k++) f[k] = s * mo[k];
    double n = norm(f, nv);
    if (o->maxforce > 0 && n > o->maxforce)
        for (int k = 0; k < nv; k++) f[k] *= o->maxforce / fmax(CS_MINVAL, n);
    cs_step(m, d);
    return d->actuator_length[m->actuator_outadr[i]];
}

static int simulate(cs_model *m, cs_data *d, int i, const cs_lropt *o, char *err, size_t errsz)
{
    double lo[2] = {0, 0}, hi[2] = {0, 0}, *lr = m->actuator_lengthrange + 2 * i;
    for (int side = 0; side < 2; side++) {
        cs_reset(m, d);
        int seen = 0;
        while (d->time < o->inttotal) {
            double len = push(m, d, i, side, o);
            if (bad_state(m, d)) {
                snprintf(err, errsz, "the length range simulation is unstable (see "
                                     "<compiler><lengthrange>)");
                return 1;
            }
            if (d->time > o->inttotal - o->interval) {
                if (len < lo[side] || !seen) lo[side] = len;
                if (len > hi[side] || !seen) hi[side] = len;
                seen = 1;
            }
        }
        lr[side] = side == 0 ? lo[0] : hi[1];
    }
    double dif = lr[1] - lr[0];
    if (dif <= 0) {
        snprintf(err, errsz, "the computed length range (%g, %g) is empty", lr[0], lr[1]);
        return 1;
    }
    for (int side = 0; side < 2; side++)
        if (hi[side] - lo[side] > o->tolrange * dif) {
            snprintf(err, errsz, "the length range computation did not converge: the length "
                     "still moved over (%g, %g) on the %s side, range (%g, %g) (see "
                     "<compiler><lengthrange>)", lo[side], hi[side], side ? "long" : "short",
                     lr[0], lr[1]);
            return 1;
        }
    return 0;
}

int cs_model_lengthrange(cs_model *m, const cs_lropt *o, char *err, size_t errsz)
{
    cs_option save = m->opt;
    cs_data *d = NULL;
    int rc = 0;
    for (int i = 0; i < m->nactuator && !rc; i++) {
        double *lr = m->actuator_lengthrange + 2 * i;
        if (!selected(m, o, i) || (o->useexisting && lr[0] < lr[1])) continue;
        /* MuJoCo 3.12 looks the limit up at actuator_trnid[i], not [2 i]: the first
         * actuator's own target, a later one's some other actuator's (kept, for the same
         * ranges; an id past the joints or tendons counts as unlimited) */
        int j = m->actuator_trnid[i], ty = m->actuator_trntype[i];
        if (o->uselimit && (ty == CS_TRN_JOINT || ty == CS_TRN_JOINTINPARENT) && j >= 0 &&
            j < m->njnt && m->jnt_limited[j]) {
            memcpy(lr, m->jnt_range + 2 * j, 2 * sizeof *lr);
            continue;
        }
        if (o->uselimit && ty == CS_TRN_TENDON && j >= 0 && j < m->ntendon && m->tendon_limited[j]) {
            memcpy(lr, m->tendon_range + 2 * j, 2 * sizeof *lr);
            continue;
        }
        if (!d) {
            /* MuJoCo's setting for the simulation: only the constraints act (no contacts,
             * friction loss, springs, dampers, gravity or actuators); a model stepped by RK4
             * is stepped by Euler, as MuJoCo's two-part step does */
            m->opt.disableflags = CS_DSBL_FRICTIONLOSS | CS_DSBL_CONTACT | CS_DSBL_SPRING |
                                  CS_DSBL_DAMPER | CS_DSBL_GRAVITY | CS_DSBL_ACTUATION;
            if (o->timestep > 0) m->opt.timestep = o->timestep;
            if (m->opt.integrator == CS_INT_RK4) m->opt.integrator = CS_INT_EULER;
            d = cs_make_data(m);
            if (!d) {
                rc = -1;
                break;
            }
        }
        if (simulate(m, d, i, o, err, errsz)) rc = 1 + i;
    }
    if (d) cs_free_data(d);
    m->opt = save;
    return rc;
}
