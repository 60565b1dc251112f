/* The step as stages (docs/design.md): kinematics.c, collide.c, smooth.c, constraint.c,
 * integrate.c. Each stage reads the model and reads/writes data only, and allocates
 * nothing. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "solver/mass.h"
#include "sensor.h"
#include "setter.h"
#include "sleep.h"
#include "stages.h"

/* what follows the collision stage: smooth, constraint and sensors. A sleeping tree keeps
 * its acceleration (MuJoCo's sleep filter computes only the awake trees'). */
static void velocity_stages(const cs_model *m, cs_data *d, int sensors)
{
    cs_smooth(m, d);
    if (m->opt.enableflags & CS_ENBL_ENERGY) { /* MuJoCo's mj_energyPos and mj_energyVel */
        d->energy[0] = cs_energy_potential(m, d);
        d->energy[1] = cs_energy_kinetic(m, d);
    } else {
        d->energy[0] = d->energy[1] = 0;
    }
    int sf = cs_sleep_filter(m, d);
    if (sf) cs_sleep_qacc(m, d, 0);
    cs_constraint(m, d);
    if (sf) cs_sleep_qacc(m, d, 1);
    if (!sensors) return;
    /* all three after the constraint stage, where conesim makes the limit rows the
     * position sensors read (MuJoCo makes them with its position stage) */
    cs_sensor_pos(m, d);
    cs_sensor_vel(m, d);
    cs_sensor_acc(m, d);
}

/* trees just put to sleep (velocities 0): what depends on velocity made again, before the
 * sleep arrays follow (MuJoCo's mj_forwardSkip from the velocity stage in mj_advance) */
void cs_forward_after_sleep(const cs_model *m, cs_data *d) { velocity_stages(m, d, 1); }

/* the forward pass, with the sensors or without (RK4's inner stages: MuJoCo's
 * mj_forwardSkip with skipsensor) */
static void forward(const cs_model *m, cs_data *d, int sensors)
{
    if (d->nchange != m->nchange) cs_data_sync(m, d); /* cs_set since the last step */
    /* sleeping trees: woken by the user's changes, by a limited tendon, by contact with an
     * awake body (the contacts then made again with the woken trees) and by an equality,
     * at MuJoCo's points of the pass (sim/sleep.h): a moved tree is seen by its new pose
     * after kinematics */
    int sleep = (m->opt.enableflags & CS_ENBL_SLEEP) || d->ntree_awake < m->ntree;
    cs_kinematics(m, d);
    if (sleep) cs_wake_user(m, d);
    cs_tendon(m, d);
    if (sleep) cs_wake_tendon(m, d);
    cs_collide(m, d);
    if (sleep && cs_wake_contact(m, d)) cs_collide(m, d);
    if (sleep) cs_wake_equality(m, d);
    velocity_stages(m, d, sensors);
}

void cs_forward(const cs_model *m, cs_data *d) { forward(m, d, 1); }

void cs_forward_nosensor(const cs_model *m, cs_data *d) { forward(m, d, 0); }

void cs_step(const cs_model *m, cs_data *d)
{
    cs_forward(m, d);
    cs_integrate(m, d);
}

void cs_solve_M(const cs_model *m, const cs_data *d, double *x, const double *y)
{
    if (x != y) memcpy(x, y, (size_t)m->nv * sizeof *x);
    cs_mass_solve(d->mass, x, 0, m->nv);
}

void cs_mul_M(const cs_model *m, const cs_data *d, double *y, const double *x)
{
    cs_mass_mul(d->mass, y, x, 0, m->nv);
}

int cs_check_finite(const cs_model *m, const cs_data *d)
{
    for (int j = 0; j < m->njnt; j++) {
        int t = m->jnt_type[j];
        for (int k = 0; k < cs_jnt_nq(t); k++)
            if (!isfinite(d->qpos[m->jnt_qposadr[j] + k])) return m->jnt_bodyid[j];
        for (int k = 0; k < cs_jnt_nv(t); k++)
            if (!isfinite(d->qvel[m->jnt_dofadr[j] + k])) return m->jnt_bodyid[j];
    }
    return -1;
}

/* point velocity of a rotation dof: axis x (p - anchor); of a translation: axis */
void cs_jac(const cs_model *m, const cs_data *d, int body, const double p[3], double *jacp,
            double *jacr)
{
    int nv = m->nv;
    if (jacp) memset(jacp, 0, 3 * (size_t)nv * sizeof *jacp);
    if (jacr) memset(jacr, 0, 3 * (size_t)nv * sizeof *jacr);
    for (int i = m->body_lastdof[body]; i >= 0; i = m->dof_parent[i]) {
        const double *ax = d->dof_xaxis + 3 * i, *an = d->dof_xanchor + 3 * i;
        if (cs_dof_rotates(m, i)) {
            double r[3] = {p[0] - an[0], p[1] - an[1], p[2] - an[2]};
            if (jacp) {
                jacp[i] = ax[1] * r[2] - ax[2] * r[1];
                jacp[nv + i] = ax[2] * r[0] - ax[0] * r[2];
                jacp[2 * nv + i] = ax[0] * r[1] - ax[1] * r[0];
            }
            if (jacr)
                for (int k = 0; k < 3; k++) jacr[k * nv + i] = ax[k];
        } else if (jacp) {
            for (int k = 0; k < 3; k++) jacp[k * nv + i] = ax[k];
        }
    }
}
