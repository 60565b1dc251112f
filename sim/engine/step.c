/* The step as stages (docs/design.md): kinematics.c, collide.c, smooth.c, constraint.c,
 * integrate.c. Each stage reads the model and reads/writes data only, and allocates
 * nothing. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "solver/mass.h"
#include "sensor.h"
#include "setter.h"
#include "sleep.h"
#include "stages.h"

/* the forward pass, with the sensors or without (RK4's inner stages: MuJoCo's
 * mj_forwardSkip with skipsensor) */
static void forward(const cs_model *m, cs_data *d, int sensors)
{
    if (d->nchange != m->nchange) cs_data_sync(m, d); /* cs_set since the last step */
    /* sleeping trees: woken by the user's changes, by a limited tendon, by contact with an
     * awake body (the contacts then made again with the woken trees) and by an equality,
     * at MuJoCo's points of the pass (sim/engine/sleep.h): a moved tree is seen by its new
     * pose after kinematics */
    int sleep = (m->opt.enableflags & CS_ENBL_SLEEP) || d->ntree_awake < m->ntree;
    cs_kinematics(m, d);
    if (sleep) cs_wake_user(m, d);
    cs_camlight(m, d);
    cs_tendon(m, d);
    if (sleep) cs_wake_tendon(m, d);
    cs_collide(m, d);
    if (sleep && cs_wake_contact(m, d)) cs_collide(m, d);
    if (sleep) cs_wake_equality(m, d);
    cs_forward_velocity(m, d, sensors);
}

void cs_forward(const cs_model *m, cs_data *d) { forward(m, d, 1); }

void cs_forward_nosensor(const cs_model *m, cs_data *d) { forward(m, d, 0); }

/* ---- RK4 ------------------------------------------------------------------------------- */
static void rk4(const cs_model *m, cs_data *d)
{
    static const double A[9] = {0.5, 0, 0, 0, 0.5, 0, 0, 0, 1};
    static const double B[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    static const double C[3] = {0.5, 0.5, 1};
    int nq = m->nq, nv = m->nv, na = m->na, nx = nq + nv + na, nf = nv + na;
    double h = m->opt.timestep, t0 = d->time;
    double *X[4], *F[4], *dX = d->scratch->rk4 + 4 * (size_t)(nx + nf);
    for (int i = 0; i < 4; i++) {
        X[i] = d->scratch->rk4 + (size_t)i * nx;
        F[i] = d->scratch->rk4 + 4 * (size_t)nx + (size_t)i * nf;
    }
    /* stage 0: the forward pass of this step was already made */
    memcpy(X[0], d->qpos, (size_t)nq * sizeof(double));
    memcpy(X[0] + nq, d->qvel, (size_t)nv * sizeof(double));
    memcpy(X[0] + nq + nv, d->act, (size_t)na * sizeof(double));
    memcpy(F[0], d->qacc, (size_t)nv * sizeof(double));
    memcpy(F[0] + nv, d->act_dot, (size_t)na * sizeof(double));
    for (int i = 1; i < 4; i++) {
        memset(dX, 0, (size_t)(2 * nv + na) * sizeof *dX);
        for (int j = 0; j < i; j++) {
            double a = A[3 * (i - 1) + j];
            for (int k = 0; k < nv; k++) dX[k] += a * X[j][nq + k];
            for (int k = 0; k < nf; k++) dX[nv + k] += a * F[j][k];
        }
        memcpy(X[i], X[0], (size_t)nx * sizeof(double));
        cs_integrate_pos(m, X[i], dX, h);
        for (int k = 0; k < nf; k++) X[i][nq + k] += h * dX[nv + k];
        memcpy(d->qpos, X[i], (size_t)nq * sizeof(double));
        memcpy(d->qvel, X[i] + nq, (size_t)nv * sizeof(double));
        memcpy(d->act, X[i] + nq + nv, (size_t)na * sizeof(double));
        d->time = t0 + C[i - 1] * h;
        forward(m, d, 0);
        memcpy(F[i], d->qacc, (size_t)nv * sizeof(double));
        memcpy(F[i] + nv, d->act_dot, (size_t)na * sizeof(double));
    }
    memset(dX, 0, (size_t)(2 * nv + na) * sizeof *dX);
    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < nv; k++) dX[k] += B[j] * X[j][nq + k];
        for (int k = 0; k < nf; k++) dX[nv + k] += B[j] * F[j][k];
    }
    d->time = t0;
    memcpy(d->qpos, X[0], (size_t)nq * sizeof(double));
    memcpy(d->qvel, X[0] + nq, (size_t)nv * sizeof(double));
    memcpy(d->act, X[0] + nq + nv, (size_t)na * sizeof(double));
    cs_advance(m, d, dX + 2 * nv, dX + nv, dX);
}

/* the integrators (integrate.c); RK4 is here because its stages run the forward pass */
void cs_integrate(const cs_model *m, cs_data *d)
{
    switch ((cs_integrator)m->opt.integrator) {
    case CS_INT_IMPLICITFAST: cs_integrate_implicitfast(m, d); break;
    case CS_INT_RK4: rk4(m, d); break; /* cs_make_data made the stages' room */
    case CS_INT_IMPLICIT: cs_integrate_implicit(m, d); break;
    case CS_INT_EULER: cs_integrate_euler(m, d); break;
    }
}

void cs_step(const cs_model *m, cs_data *d)
{
    cs_forward(m, d);
    cs_integrate(m, d);
}
