/* Fixed tendons, MuJoCo's mj_tendon and the tendon parts of mj_passive and of implicitfast's
 * velocity derivative: the length is the coefficients' sum over the joints' positions, the
 * Jacobian the coefficients on their dofs (constant), the spring pulls back to the dead band
 * [lengthspring0, lengthspring1], the damper against the tendon's velocity. */
#include <string.h>

#include "conesim.h"
#include "stages.h"

void cs_tendon(const cs_model *m, cs_data *d)
{
    int nv = m->nv;
    for (int t = 0; t < m->ntendon; t++) {
        double *J = d->ten_J + (size_t)t * nv, len = 0, vel = 0;
        memset(J, 0, (size_t)nv * sizeof *J);
        for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++) {
            int j = m->wrap_objid[w], a = m->jnt_dofadr[j];
            double c = m->wrap_prm[w];
            len += c * d->qpos[m->jnt_qposadr[j]];
            J[a] += c;
            vel += c * d->qvel[a];
        }
        d->ten_length[t] = len;
        d->ten_velocity[t] = vel;
    }
}

/* the tendon's force: spring outside the dead band, damper */
static double tendon_force(const cs_model *m, const cs_data *d, int t)
{
    int dis = m->opt.disableflags;
    double f = 0, len = d->ten_length[t];
    const double *ls = m->tendon_lengthspring + 2 * t;
    if (!(dis & CS_DSBL_SPRING) && m->tendon_stiffness[t] != 0) {
        if (len > ls[1]) f += m->tendon_stiffness[t] * (ls[1] - len);
        else if (len < ls[0]) f += m->tendon_stiffness[t] * (ls[0] - len);
    }
    if (!(dis & CS_DSBL_DAMPER)) f -= m->tendon_damping[t] * d->ten_velocity[t];
    return f;
}

void cs_tendon_passive(const cs_model *m, cs_data *d)
{
    if (m->opt.disableflags & CS_DSBL_PASSIVE) return;
    for (int t = 0; t < m->ntendon; t++) {
        if (m->tendon_stiffness[t] == 0 && m->tendon_damping[t] == 0) continue;
        double f = tendon_force(m, d, t);
        for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++)
            d->qfrc_passive[m->jnt_dofadr[m->wrap_objid[w]]] += m->wrap_prm[w] * f;
    }
}

/* qH -= h s J^T J for one tendon, over M's entries only (MuJoCo's implicitfast gathers its
 * derivative into M's sparsity: a pair of dofs neither of which is the other's ancestor
 * drops out) */
static void add_coupling(const cs_model *m, int t, double s, double h, double *qH)
{
    int a0 = m->tendon_adr[t], n = m->tendon_num[t];
    for (int p = a0; p < a0 + n; p++)
        for (int q = a0; q < a0 + n; q++) {
            int i = m->jnt_dofadr[m->wrap_objid[p]], j = m->jnt_dofadr[m->wrap_objid[q]], k = 0;
            int a = i;
            while (a >= 0 && a != j) {
                a = m->dof_parent[a];
                k++;
            }
            if (a != j) continue; /* j is not i's ancestor (nor i) */
            qH[m->dof_Madr[i] + k] -= h * s * m->wrap_prm[p] * m->wrap_prm[q];
        }
}

void cs_tendon_implicit(const cs_model *m, const cs_data *d, double h, double *qH)
{
    int dis = m->opt.disableflags;
    if (!(dis & (CS_DSBL_PASSIVE | CS_DSBL_DAMPER)))
        for (int t = 0; t < m->ntendon; t++)
            if (m->tendon_damping[t] > 0) add_coupling(m, t, -m->tendon_damping[t], h, qH);
    if (dis & CS_DSBL_ACTUATION) return;
    for (int i = 0; i < m->nu; i++) {
        if (m->actuator_trntype[i] != CS_TRN_TENDON) continue;
        double bv = cs_actuator_dvel(m, d, i), g = m->actuator_gear[6 * i];
        if (bv != 0) add_coupling(m, m->actuator_trnid[2 * i], g * g * bv, h, qH);
    }
}
