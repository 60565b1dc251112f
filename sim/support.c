/* What the stages share (MuJoCo's engine_support.c): the Jacobian of a point on a body, the
 * mass matrix's solve and product, the finite check of the state. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "solver/mass.h"
#include "stages.h"

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
