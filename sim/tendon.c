/* Tendons, MuJoCo's mj_tendon and the tendon parts of mj_passive and of implicitfast's
 * velocity derivative: a fixed tendon's length is the coefficients' sum over the joints'
 * positions, its Jacobian the coefficients on their dofs; a spatial tendon's the length of
 * the straight path through its sites (no wrapping); the spring pulls back to the dead band
 * [lengthspring0, lengthspring1], the damper against the tendon's velocity. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "poly.h"
#include "sameframe.h"
#include "stages.h"
#include "minval.h"

/* a site's world position from its body's frame */
static void site_pos(const cs_model *m, const cs_data *d, int s, double p[3])
{
    double R[9];
    cs_local2global(d, m->site_bodyid[s], m->site_sameframe[s], m->site_pos + 3 * s,
                    m->site_quat + 4 * s, p, R);
}

double cs_tendon_eval(const cs_model *m, const cs_data *d, int t, double *J, double *scratch)
{
    int nv = m->nv, a0 = m->tendon_adr[t], n = m->tendon_num[t];
    double len = 0;
    memset(J, 0, (size_t)nv * sizeof *J);
    if (m->wrap_type[a0] == CS_WRAP_JOINT) {
        for (int w = a0; w < a0 + n; w++) {
            int j = m->wrap_objid[w];
            len += m->wrap_prm[w] * d->qpos[m->jnt_qposadr[j]];
            J[m->jnt_dofadr[j]] += m->wrap_prm[w];
        }
        return len;
    }
    /* straight segments: d|p1 - p0| = u . (v1 - v0), u the unit direction */
    double *j0 = scratch, *j1 = scratch + 3 * (size_t)nv;
    for (int w = a0; w + 1 < a0 + n; w++) {
        int s0 = m->wrap_objid[w], s1 = m->wrap_objid[w + 1];
        double p0[3], p1[3], u[3], l;
        site_pos(m, d, s0, p0);
        site_pos(m, d, s1, p1);
        for (int k = 0; k < 3; k++) u[k] = p1[k] - p0[k];
        l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        len += l;
        if (l < CS_MINVAL) continue; /* no direction: no Jacobian */
        for (int k = 0; k < 3; k++) u[k] /= l;
        cs_jac(m, d, m->site_bodyid[s0], p0, j0, NULL);
        cs_jac(m, d, m->site_bodyid[s1], p1, j1, NULL);
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < nv; i++)
                J[i] += u[k] * (j1[(size_t)k * nv + i] - j0[(size_t)k * nv + i]);
    }
    return len;
}

void cs_tendon(const cs_model *m, cs_data *d)
{
    int nv = m->nv;
    for (int s = 0; s < m->nsite; s++)
        cs_local2global(d, m->site_bodyid[s], m->site_sameframe[s], m->site_pos + 3 * s,
                        m->site_quat + 4 * s, d->site_xpos + 3 * s, d->site_xmat + 9 * s);
    for (int t = 0; t < m->ntendon; t++) {
        double *J = d->ten_J + (size_t)t * nv, vel = 0;
        d->ten_length[t] = cs_tendon_eval(m, d, t, J, d->eq_scratch);
        for (int i = 0; i < nv; i++) vel += J[i] * d->qvel[i];
        d->ten_velocity[t] = vel;
    }
}

/* the tendon's force: spring outside the dead band, damper */
static double tendon_force(const cs_model *m, const cs_data *d, int t)
{
    int dis = m->opt.disableflags;
    double f = 0, len = d->ten_length[t];
    const double *ls = m->tendon_lengthspring + 2 * t;
    if (!(dis & CS_DSBL_SPRING)) {
        double x = len > ls[1] ? len - ls[1] : len < ls[0] ? len - ls[0] : 0;
        f -= x * cs_poly_coef(m->tendon_stiffness[t], m->tendon_stiffnesspoly + CS_NPOLY * t, x, 0);
    }
    if (!(dis & CS_DSBL_DAMPER)) {
        double v = d->ten_velocity[t];
        f -= v * cs_poly_coef(m->tendon_damping[t], m->tendon_dampingpoly + CS_NPOLY * t, v, 1);
    }
    return f;
}

void cs_tendon_passive(const cs_model *m, cs_data *d)
{
    if (m->opt.disableflags & CS_DSBL_PASSIVE) return;
    for (int t = 0; t < m->ntendon; t++) {
        if (m->tendon_stiffness[t] == 0 && m->tendon_damping[t] == 0 &&
            cs_poly_zero(m->tendon_stiffnesspoly + CS_NPOLY * t) &&
            cs_poly_zero(m->tendon_dampingpoly + CS_NPOLY * t))
            continue;
        double f = tendon_force(m, d, t);
        const double *J = d->ten_J + (size_t)t * m->nv;
        for (int i = 0; i < m->nv; i++) d->qfrc_passive[i] += J[i] * f;
    }
}

/* qH -= h s J^T J for one tendon, over M's entries only (MuJoCo's implicitfast gathers its
 * derivative into M's sparsity: a pair of dofs neither of which is the other's ancestor
 * drops out) */
static void add_coupling(const cs_model *m, const cs_data *d, int t, double s, double h,
                         double *qH)
{
    const double *J = d->ten_J + (size_t)t * m->nv;
    for (int i = 0; i < m->nv; i++) {
        if (J[i] == 0) continue;
        for (int j = i, k = 0; j >= 0; j = m->dof_parent[j], k++)
            if (J[j] != 0) qH[m->dof_Madr[i] + k] -= h * s * J[i] * J[j];
    }
}

void cs_tendon_implicit(const cs_model *m, const cs_data *d, double h, double *qH)
{
    int dis = m->opt.disableflags;
    if (!(dis & (CS_DSBL_PASSIVE | CS_DSBL_DAMPER)))
        for (int t = 0; t < m->ntendon; t++) {
            double b = cs_poly_dcoef(m->tendon_damping[t], m->tendon_dampingpoly + CS_NPOLY * t,
                                     d->ten_velocity[t], 1);
            if (b != 0) add_coupling(m, d, t, -b, h, qH);
        }
    if (dis & CS_DSBL_ACTUATION) return;
    for (int i = 0; i < m->nu; i++) {
        if (m->actuator_trntype[i] != CS_TRN_TENDON) continue;
        double bv = cs_actuator_dvel(m, d, i), g = m->actuator_gear[6 * i];
        if (bv != 0) add_coupling(m, d, m->actuator_trnid[2 * i], g * g * bv, h, qH);
    }
}
