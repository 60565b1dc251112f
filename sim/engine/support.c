/* What the stages share (MuJoCo's engine_support.c): the Jacobian of a point on a body, the
 * mass matrix's solve and product, the finite check of the state, Jacobian rows turned into a body-aligned frame. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "solver/mass.h"
#include "spatial.h"
#include "stages.h"

void cs_solve_M(const cs_model *m, const cs_data *d, double *x, const double *y)
{
    if (x != y) memcpy(x, y, (size_t)m->nv * sizeof *x);
    cs_mass_solve(d->scratch->mass, x, 0, m->nv);
}

void cs_mul_M(const cs_model *m, const cs_data *d, double *y, const double *x)
{
    cs_mass_mul(d->scratch->mass, y, x, 0, m->nv);
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

/* a body's Jacobian rows (3 x nv each) turned into frame R's axes, over its chain's dofs */
void cs_fluid_local_rows(const cs_model *m, int b, const double R[9], double *jp, double *jr)
{
    int nv = m->nv;
    for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) {
        double p[3], q[3];
        for (int k = 0; k < 3; k++) {
            p[k] = q[k] = 0;
            for (int r = 0; r < 3; r++) {
                p[k] += R[3 * r + k] * jp[(size_t)r * nv + i];
                q[k] += R[3 * r + k] * jr[(size_t)r * nv + i];
            }
        }
        for (int k = 0; k < 3; k++) {
            jp[(size_t)k * nv + i] = p[k];
            jr[(size_t)k * nv + i] = q[k];
        }
    }
}

/* the acceleration of world point p moving with body b when qacc = 0 (the Jacobian's rate
 * times qvel), and the body's angular one: the bias accelerations of the smooth stage (cacc,
 * at the tree's reference point) carried to p, plus w x v_p */
void cs_point_bias_acc(const cs_model *m, const cs_data *d, int b, const double p[3], double ap[3],
                       double ang[3])
{
    const double *v = d->cvel + 6 * b, *a = d->scratch->cacc + 6 * b;
    const double *o = d->xpos + 3 * m->body_rootid[b];
    double r[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]}, wr[3], ar[3], vp[3], wv[3];
    sp_cross(v, r, wr);
    sp_cross(a, r, ar);
    for (int k = 0; k < 3; k++) vp[k] = v[3 + k] + wr[k];
    sp_cross(v, vp, wv);
    for (int k = 0; k < 3; k++) {
        ap[k] = a[3 + k] + ar[k] + wv[k];
        ang[k] = a[k];
    }
}

/* q += J^T F for the world force F at the world point p on body b: each dof of the chain
 * that moves b takes its motion axis against the wrench (p - o) x F, F about the tree's
 * reference point o (cdof's) */
void cs_add_point_force(const cs_model *m, const cs_data *d, int b, const double p[3],
                        const double F[3], double *q)
{
    const double *o = d->xpos + 3 * m->body_rootid[b];
    double r[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]}, w[6];
    sp_cross(r, F, w);
    memcpy(w + 3, F, 3 * sizeof *F);
    for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) q[i] += sp_dot6(d->cdof + 6 * i, w);
}
