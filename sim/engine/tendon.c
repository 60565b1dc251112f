/* Tendons, MuJoCo's mj_tendon and the tendon parts of mj_passive and of implicitfast's
 * velocity derivative: a fixed tendon's length is the coefficients' sum over the joints'
 * positions, its Jacobian the coefficients on their dofs; a spatial tendon's the length of
 * its path through its sites, wrapped over spheres and cylinders (wrap.c), each branch
 * after a pulley divided by its divisor; the spring pulls back to the dead band
 * [lengthspring0, lengthspring1], the damper against the tendon's velocity. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "poly.h"
#include "sameframe.h"
#include "stages.h"
#include "minval.h"
#include "wrap.h"

/* a site's world position from its body's frame */
static void site_pos(const cs_model *m, const cs_data *d, int s, double p[3])
{
    double R[9];
    cs_local2global(d, m->site_bodyid[s], m->site_sameframe[s], m->site_pos + 3 * s,
                    m->site_quat + 4 * s, p, R);
}

static double dist3(const double a[3], const double b[3])
{
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
}

double cs_tendon_dir(const double a[3], const double b[3], double u[3])
{
    for (int k = 0; k < 3; k++) u[k] = b[k] - a[k];
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (l < CS_MINVAL) { /* no direction: MuJoCo's normalize takes x */
        u[0] = 1;
        u[1] = u[2] = 0;
    } else {
        for (int q = 0; q < 3; q++) u[q] /= l;
    }
    return l;
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
    /* a spatial tendon: its path cut into straight pieces (site to site, or site to a
     * tangent point, the arc, tangent point to site, sites being the ends of a wrap); a
     * pulley starts a new branch whose length counts 1 / divisor */
    double *j0 = scratch, *j1 = scratch + 3 * (size_t)nv, div = 1;
    for (int j = 0; j + 1 < n;) {
        int w = a0 + j, t1 = m->wrap_type[w + 1];
        if (m->wrap_type[w] == CS_WRAP_PULLEY || t1 == CS_WRAP_PULLEY) {
            if (m->wrap_type[w] == CS_WRAP_PULLEY) div = m->wrap_prm[w];
            j++;
            continue;
        }
        double pt[12], wlen = -1;
        int body[4], s1 = m->wrap_objid[w + 1], g = -1;
        site_pos(m, d, m->wrap_objid[w], pt);
        body[0] = m->site_bodyid[m->wrap_objid[w]];
        if (t1 == CS_WRAP_SPHERE || t1 == CS_WRAP_CYLINDER) {
            g = s1;
            s1 = m->wrap_objid[w + 2];
            int side = (int)lround(m->wrap_prm[w + 1]);
            double x1[3], xs[3];
            site_pos(m, d, s1, x1);
            if (side >= 0) site_pos(m, d, side, xs);
            wlen = cs_wrap(pt + 3, pt, x1, d->geom_xpose[g].pos, d->geom_xpose[g].mat,
                           m->geom_size[3 * g], t1 == CS_WRAP_CYLINDER, side >= 0 ? xs : NULL);
        }
        j += g >= 0 ? 2 : 1;
        int npiece = 1;
        if (wlen < 0) {
            site_pos(m, d, s1, pt + 3);
            body[1] = m->site_bodyid[s1];
            len += dist3(pt, pt + 3) / div;
        } else {
            site_pos(m, d, s1, pt + 9);
            body[1] = body[2] = m->geom_body[g];
            body[3] = m->site_bodyid[s1];
            len += (dist3(pt, pt + 3) + wlen + dist3(pt + 6, pt + 9)) / div;
            npiece = 3;
        }
        /* d|b - a| = u . (v_b - v_a) with u the unit direction: zero between two points of
         * one body (the arc's own change is second order at the tangent points) */
        for (int k = 0; k < npiece; k++) {
            if (body[k] == body[k + 1]) continue;
            const double *a = pt + 3 * k, *b = pt + 3 * k + 3;
            double u[3];
            cs_tendon_dir(a, b, u);
            cs_jac(m, d, body[k], a, j0, NULL);
            cs_jac(m, d, body[k + 1], b, j1, NULL);
            for (int i = 0; i < nv; i++) {
                double s = 0;
                for (int q = 0; q < 3; q++) s += u[q] * (j1[(size_t)q * nv + i] - j0[(size_t)q * nv + i]);
                J[i] += s / div;
            }
        }
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
        d->ten_length[t] = cs_tendon_eval(m, d, t, J, d->scratch->eq_scratch);
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
        double v = d->ten_velocity[t], buf[CS_NPOLY];
        const double *p;
        double b = cs_tendon_damping(m, t, buf, &p);
        f -= v * cs_poly_coef(b, p, v, 1);
    }
    return f;
}

void cs_tendon_passive(const cs_model *m, cs_data *d)
{
    if (m->opt.disableflags & CS_DSBL_PASSIVE) return;
    for (int t = 0; t < m->ntendon; t++) {
        if (m->tendon_stiffness[t] == 0 && m->tendon_damping[t] == 0 &&
            cs_poly_zero(m->tendon_stiffnesspoly + CS_NPOLY * t) &&
            cs_poly_zero(m->tendon_dampingpoly + CS_NPOLY * t) && m->tendon_actuatorid[t] == -1)
            continue;
        double f = tendon_force(m, d, t);
        const double *J = d->ten_J + (size_t)t * m->nv;
        for (int i = 0; i < m->nv; i++) d->qfrc_passive[i] += J[i] * f;
    }
}

/* qH -= h s J^T J for one tendon, over M's entries only (MuJoCo's implicitfast gathers its
 * derivative into M's sparsity: a pair of dofs neither of which is the other's ancestor
 * drops out); up, given, takes the same into the upper triangle (row i: the (ancestor, i)
 * entries). Without up (implicitfast's qH) MuJoCo's reduced sparsity: a simple body's dofs
 * (body_simple) keep only their diagonal. */
static void add_coupling(const cs_model *m, const double *J, double s, double h, double *qH,
                         double *up)
{
    for (int i = 0; i < m->nv; i++) {
        if (J[i] == 0) continue;
        int diag_only = !up && m->body_simple[m->dof_bodyid[i]];
        for (int j = i, k = 0; j >= 0 && !(diag_only && k); j = m->dof_parent[j], k++)
            if (J[j] != 0) {
                qH[m->dof_Madr[i] + k] -= h * s * J[i] * J[j];
                if (up && k) up[m->dof_Madr[i] + k] -= h * s * J[i] * J[j];
            }
    }
}

/* each velocity coupling J^T s J of the implicit integrators: a damped tendon's (s = -its
 * damping's slope), an actuator's on a tendon (its gear^2 times d force / d velocity) or
 * with a dense moment (each output's row) */
typedef void coupling_fn(void *ctx, const double *J, double s);
static void each_coupling(const cs_model *m, const cs_data *d, coupling_fn *fn, void *ctx)
{
    int dis = m->opt.disableflags;
    if (!(dis & (CS_DSBL_PASSIVE | CS_DSBL_DAMPER)))
        for (int t = 0; t < m->ntendon; t++) {
            double buf[CS_NPOLY];
            const double *p;
            double bt = cs_tendon_damping(m, t, buf, &p);
            double b = cs_poly_dcoef(bt, p, d->ten_velocity[t], 1);
            if (b != 0) fn(ctx, d->ten_J + (size_t)t * m->nv, -b);
        }
    if (dis & CS_DSBL_ACTUATION) return;
    for (int i = 0; i < m->nactuator; i++) { /* a slider-crank's moment row carries its gear */
        int ty = m->actuator_trntype[i];
        if (ty != CS_TRN_TENDON && !cs_actuator_dense(m, i)) continue;
        double bv = cs_actuator_dvel(m, d, i), g = m->actuator_gear[6 * i];
        if (bv == 0) continue;
        if (ty == CS_TRN_TENDON)
            fn(ctx, d->ten_J + (size_t)m->actuator_trnid[2 * i] * m->nv, g * g * bv);
        else
            for (int k = 0; k < m->actuator_outnum[i]; k++)
                fn(ctx, d->actuator_moment + (size_t)(m->actuator_outadr[i] + k) * m->nv, bv);
    }
}

typedef struct {
    const cs_model *m;
    double h, *qH, *up, *A;
    int o; /* the free body's first dof (A) */
} coupling_ctx;

static void to_matrix(void *ctx, const double *J, double s)
{
    coupling_ctx *c = ctx;
    add_coupling(c->m, J, s, c->h, c->qH, c->up);
}

static void to_block(void *ctx, const double *J, double s)
{
    coupling_ctx *c = ctx;
    const double *b = J + c->o;
    for (int r = 0; r < 6; r++)
        for (int k = 0; k < 6; k++)
            if (b[r] != 0 && b[k] != 0) c->A[6 * r + k] -= c->h * s * b[r] * b[k];
}

void cs_tendon_implicit(const cs_model *m, const cs_data *d, double h, double *qH, double *up)
{
    coupling_ctx c = {m, h, qH, up, NULL, 0};
    each_coupling(m, d, to_matrix, &c);
}

void cs_tendon_implicit_free(const cs_model *m, const cs_data *d, double h, int o, double A[36])
{
    coupling_ctx c = {m, h, NULL, NULL, A, o};
    each_coupling(m, d, to_block, &c);
}
