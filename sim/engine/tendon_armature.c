/* Tendon armature (MuJoCo 3.12's tendon inertia): kinetic energy a v^2 / 2 in the tendon's
 * velocity v = J qvel adds a J^T J to the mass matrix and, J depending on the pose, the bias
 * force a J (Jdot qvel). */
#include <math.h>

#include "conesim.h"
#include "data_scratch.h"
#include "minval.h"
#include "spatial.h"
#include "stages.h"

static int awake_dof(const cs_model *m, const int *aw, int i)
{
    return !aw || aw[m->dof_treeid[i]];
}

void cs_tendon_armature(const cs_model *m, cs_data *d, const int *aw)
{
    int nv = m->nv;
    for (int t = 0; t < m->ntendon; t++) {
        double a = m->tendon_armature[t];
        if (m->tendon_actuatorid[t] != -1) a += cs_actuator_armature(m, 1, t);
        if (a == 0) continue;
        const double *J = d->ten_J + (size_t)t * nv;
        for (int i = 0; i < nv; i++) {
            if (J[i] == 0 || !awake_dof(m, aw, i)) continue;
            double s = a * J[i], *row = d->qM + m->dof_Madr[i];
            int k = 0;
            for (int j = i; j >= 0; j = m->dof_parent[j], k++)
                if (J[j] != 0) row[k] += s * J[j];
        }
    }
}

/* world velocity of point p moving with body b */
static void point_vel(const cs_model *m, const cs_data *d, int b, const double p[3], double v[3])
{
    const double *c = d->cvel + 6 * b, *o = d->xpos + 3 * m->body_rootid[b];
    double r[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]}, wr[3];
    sp_cross(c, r, wr);
    for (int k = 0; k < 3; k++) v[k] = c[3 + k] + wr[k];
}

/* Jdot qvel of a spatial tendon through sites (a fixed tendon's J is constant): per straight
 * piece between sites of different bodies, with u the unit direction of length l,
 * d/dt (u . (v1 - v0)) = u . (a1 - a0) + du/dt . (v1 - v0), du/dt = (I - u u^T)(v1 - v0) / l,
 * a the points' bias accelerations; a branch after a pulley divided by its divisor */
static double tendon_dot(const cs_model *m, const cs_data *d, int t)
{
    int a0 = m->tendon_adr[t], n = m->tendon_num[t];
    if (m->wrap_type[a0] == CS_WRAP_JOINT) return 0;
    double res = 0, div = 1;
    for (int j = 0; j + 1 < n; j++) {
        int w = a0 + j;
        if (m->wrap_type[w] == CS_WRAP_PULLEY || m->wrap_type[w + 1] == CS_WRAP_PULLEY) {
            if (m->wrap_type[w] == CS_WRAP_PULLEY) div = m->wrap_prm[w];
            continue;
        }
        int s0 = m->wrap_objid[w], s1 = m->wrap_objid[w + 1];
        int b0 = m->site_bodyid[s0], b1 = m->site_bodyid[s1];
        if (b0 == b1) continue;
        const double *p0 = d->site_xpos + 3 * s0, *p1 = d->site_xpos + 3 * s1;
        double u[3], l = cs_tendon_dir(p0, p1, u);
        double v0[3], v1[3], acc0[3], acc1[3], ang[3], dv[3];
        point_vel(m, d, b0, p0, v0);
        point_vel(m, d, b1, p1, v1);
        cs_point_bias_acc(m, d, b0, p0, acc0, ang);
        cs_point_bias_acc(m, d, b1, p1, acc1, ang);
        for (int k = 0; k < 3; k++) dv[k] = v1[k] - v0[k];
        double along = u[0] * dv[0] + u[1] * dv[1] + u[2] * dv[2];
        double inv = l > CS_MINVAL ? 1 / l : 0, s = 0;
        for (int k = 0; k < 3; k++)
            s += u[k] * (acc1[k] - acc0[k]) + (dv[k] - along * u[k]) * inv * dv[k];
        res += s / div;
    }
    return res;
}

void cs_tendon_bias(const cs_model *m, cs_data *d, const int *aw)
{
    int nv = m->nv;
    for (int t = 0; t < m->ntendon; t++) {
        double a = m->tendon_armature[t];
        if (m->tendon_actuatorid[t] != -1) a += cs_actuator_armature(m, 1, t);
        if (a == 0) continue;
        double c = a * tendon_dot(m, d, t);
        if (c == 0) continue;
        const double *J = d->ten_J + (size_t)t * nv;
        for (int i = 0; i < nv; i++)
            if (J[i] != 0 && awake_dof(m, aw, i)) d->qfrc_bias[i] += c * J[i];
    }
}
