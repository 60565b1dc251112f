/* Integration: MuJoCo's semi-implicit Euler. Velocity first, with joint damping implicit
 * ((M + h D) qacc = qfrc_smooth + qfrc_constraint, unless eulerdamp is off or no dof has
 * damping), then positions with the new velocity, one switch on joint type: quaternions
 * move on the manifold by the local angular velocity. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "solver/mass.h"

static void quat_integrate(double q[4], const double w[3], double h)
{
    /* as MuJoCo's mju_quatIntegrate: normalise, then rotate by exp(h w / 2) */
    cs_normquat(q);
    double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (wn > 0) {
        double r[4];
        cs_axisangle2quat(r, w, wn * h);
        cs_mulquat(q, q, r);
    }
}

void cs_integrate_pos(const cs_model *m, double *qpos, const double *qvel, double h)
{
    for (int j = 0; j < m->njnt; j++) {
        double *q = qpos + m->jnt_qposadr[j];
        const double *v = qvel + m->jnt_dofadr[j];
        switch (m->jnt_type[j]) {
        case CS_JNT_FREE:
            for (int k = 0; k < 3; k++) q[k] += h * v[k];
            quat_integrate(q + 3, v + 3, h);
            break;
        case CS_JNT_BALL: quat_integrate(q, v, h); break;
        default: q[0] += h * v[0];
        }
    }
}

static int implicit_damping(const cs_model *m)
{
    if (m->opt.disableflags & (CS_DSBL_EULERDAMP | CS_DSBL_PASSIVE | CS_DSBL_DAMPER)) return 0;
    for (int i = 0; i < m->nv; i++)
        if (m->dof_damping[i] > 0) return 1;
    return 0;
}

void cs_integrate(const cs_model *m, cs_data *d)
{
    double h = m->opt.timestep;
    int nv = m->nv;
    memcpy(d->qacc_warmstart, d->qacc, (size_t)nv * sizeof *d->qacc);
    if (implicit_damping(m)) {
        memcpy(d->qH, d->qM, (size_t)m->nM * sizeof *d->qH);
        for (int i = 0; i < nv; i++) d->qH[m->dof_Madr[i]] += h * m->dof_damping[i];
        double *a = d->qHDiagInv + nv; /* the rhs and solution live past the pivots */
        for (int i = 0; i < nv; i++) a[i] = d->qfrc_smooth[i] + d->qfrc_constraint[i];
        if (cs_mass_factor(d->massH)) {
            d->warning[CS_WARN_BADQACC]++;
            for (int i = 0; i < nv; i++) d->qvel[i] += h * d->qacc[i];
        } else {
            cs_mass_solve(d->massH, a, 0, nv);
            for (int i = 0; i < nv; i++) d->qvel[i] += h * a[i];
        }
    } else {
        for (int i = 0; i < nv; i++) d->qvel[i] += h * d->qacc[i];
    }
    cs_integrate_pos(m, d->qpos, d->qvel, h);
    d->time += h;
}
