/* The step as stages (docs/design.md). Each stage reads the model and reads/writes data only,
 * and allocates nothing. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "dynamics.h"
#include "solver/mass.h"

static void mulmv3(const double R[9], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
    memcpy(out, t, sizeof t);
}

static void mulmtv3(const double R[9], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
    memcpy(out, t, sizeof t);
}

static void mulmm3(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            T[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    memcpy(C, T, sizeof T);
}

static void cross(const double a[3], const double b[3], double c[3])
{
    double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(c, t, sizeof t);
}

void cs_kinematics(const cs_model *m, cs_data *d)
{
    d->xquat[0] = 1;
    d->xmat[0] = d->xmat[4] = d->xmat[8] = 1;
    d->ximat[0] = d->ximat[4] = d->ximat[8] = 1;
    for (int b = 1; b < m->nbody; b++) {
        double *xp = d->xpos + 3 * b, *xq = d->xquat + 4 * b, *xm = d->xmat + 9 * b;
        int f = m->body_free[b];
        if (f >= 0) {
            memcpy(xp, d->qpos + 7 * f, 3 * sizeof *xp);
            memcpy(xq, d->qpos + 7 * f + 3, 4 * sizeof *xq);
            cs_normquat(xq);
        } else {
            int p = m->body_parent[b];
            mulmv3(d->xmat + 9 * p, m->body_pos + 3 * b, xp);
            for (int k = 0; k < 3; k++) xp[k] += d->xpos[3 * p + k];
            cs_mulquat(xq, d->xquat + 4 * p, m->body_quat + 4 * b);
            cs_normquat(xq);
        }
        cs_quat2mat(xm, xq);
        mulmv3(xm, m->body_ipos + 3 * b, d->xipos + 3 * b);
        for (int k = 0; k < 3; k++) d->xipos[3 * b + k] += xp[k];
        double Ri[9];
        cs_quat2mat(Ri, m->body_iquat + 4 * b);
        mulmm3(xm, Ri, d->ximat + 9 * b);
    }
    /* dof axes: a free joint's translations along the world axes, its rotations about the
     * body's local axes through the body origin */
    for (int i = 0; i < m->nv; i++) {
        int b = m->dof_bodyid[i], k = (i - m->tree_dofadr[m->dof_treeid[i]]) % 3;
        double *ax = d->dof_xaxis + 3 * i, *an = d->dof_xanchor + 3 * i;
        for (int j = 0; j < 3; j++) {
            ax[j] = m->dof_rot[i] ? d->xmat[9 * b + 3 * j + k] : (j == k);
            an[j] = d->xpos[3 * b + j];
        }
    }
    for (int g = 0; g < m->ngeom; g++) {
        int b = m->geom_body[g];
        cs_pose *p = &d->geom_xpose[g];
        mulmv3(d->xmat + 9 * b, m->geom_pos + 3 * g, p->pos);
        for (int k = 0; k < 3; k++) p->pos[k] += d->xpos[3 * b + k];
        double Rg[9];
        cs_quat2mat(Rg, m->geom_quat + 4 * g);
        mulmm3(d->xmat + 9 * b, Rg, p->mat);
    }
}

/* cs_collide lives in collide.c, cs_constraint in constraint.c. */

void cs_smooth(const cs_model *m, cs_data *d)
{
    double g[3] = {0, 0, 0};
    if (!(m->opt.disableflags & CS_DSBL_GRAVITY)) memcpy(g, m->opt.gravity, sizeof g);
    for (int f = 0; f < m->nfree; f++) {
        int b = m->free_body[f];
        const double *R = d->xmat + 9 * b, *c = m->free_com + 3 * f, *I = m->free_inertia + 9 * f;
        double mass = m->free_mass[f];
        double M[36];
        cs_free_mass6(mass, c, I, R, M);
        for (int i = 0; i < 6; i++) /* row i: M(i,i), M(i,i-1), ..., M(i,0) */
            for (int j = 0; j <= i; j++) d->qM[m->dof_Madr[6 * f + i] + j] = M[6 * i + i - j];

        const double *w = d->qvel + 6 * f + 3;
        double wc[3], wwc[3], Iw[3], t[3], bias[6];
        cross(w, c, wc);
        cross(w, wc, wwc);
        mulmv3(R, wwc, bias);
        for (int k = 0; k < 3; k++) bias[k] *= mass;
        mulmv3(I, w, Iw);
        cross(w, Iw, bias + 3);
        cross(c, wwc, t);
        for (int k = 0; k < 3; k++) bias[3 + k] += mass * t[k];

        /* gravity acts at the composite COM */
        double Fg[3] = {mass * g[0], mass * g[1], mass * g[2]}, Fl[3], qg[6];
        memcpy(qg, Fg, sizeof Fg);
        mulmtv3(R, Fg, Fl);
        cross(c, Fl, qg + 3);

        /* applied forces of every body welded to this one, at its COM */
        double qx[6] = {0};
        /* free joints sit on children of the world, so b's welded bodies are its subtree:
         * contiguous in body order from b */
        for (int k = b; k < m->nbody && m->body_weldid[k] == b; k++) {
            const double *F = d->xfrc_applied + 6 * k, *tau = F + 3;
            double r[3], rf[3], tw[3], tl[3];
            for (int j = 0; j < 3; j++) r[j] = d->xipos[3 * k + j] - d->xpos[3 * b + j];
            cross(r, F, rf);
            for (int j = 0; j < 3; j++) tw[j] = tau[j] + rf[j];
            mulmtv3(R, tw, tl);
            for (int j = 0; j < 3; j++) {
                qx[j] += F[j];
                qx[3 + j] += tl[j];
            }
        }
        for (int k = 0; k < 6; k++) {
            d->qfrc_gravity[6 * f + k] = qg[k];
            d->qfrc_bias[6 * f + k] = bias[k] - qg[k];
            d->qfrc_smooth[6 * f + k] = d->qfrc_applied[6 * f + k] + qx[k] - d->qfrc_bias[6 * f + k];
        }
    }
    if (cs_mass_factor(d->mass)) d->warning[CS_WARN_BADQACC]++; /* not for checked models */
    memcpy(d->qacc_smooth, d->qfrc_smooth, (size_t)m->nv * sizeof *d->qacc_smooth);
    cs_mass_solve(d->mass, d->qacc_smooth, 0, m->nv);
}

void cs_forward(const cs_model *m, cs_data *d)
{
    cs_kinematics(m, d);
    cs_collide(m, d);
    cs_smooth(m, d);
    cs_constraint(m, d);
}

/* MuJoCo's semi-implicit Euler: velocity first, then position with the new velocity;
 * the quaternion moves on the manifold by the local angular velocity. */
void cs_integrate(const cs_model *m, cs_data *d)
{
    double h = m->opt.timestep;
    memcpy(d->qacc_warmstart, d->qacc, (size_t)m->nv * sizeof *d->qacc);
    for (int i = 0; i < m->nv; i++) d->qvel[i] += h * d->qacc[i];
    for (int f = 0; f < m->nfree; f++) {
        double *q = d->qpos + 7 * f;
        const double *v = d->qvel + 6 * f;
        for (int k = 0; k < 3; k++) q[k] += h * v[k];
        /* as MuJoCo's mju_quatIntegrate: normalise, then rotate by exp(h w_local / 2) */
        cs_normquat(q + 3);
        double wn = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
        if (wn > 0) {
            double r[4];
            cs_axisangle2quat(r, v + 3, wn * h);
            cs_mulquat(q + 3, q + 3, r);
        }
    }
    d->time += h;
}

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

double cs_energy_kinetic(const cs_model *m, const cs_data *d)
{
    /* 1/2 v^T M v from the stored lower triangle */
    double e = 0;
    for (int i = 0; i < m->nv; i++) {
        int a = m->dof_Madr[i];
        e += 0.5 * d->qM[a] * d->qvel[i] * d->qvel[i];
        a++;
        for (int j = m->dof_parent[i]; j >= 0; j = m->dof_parent[j], a++)
            e += d->qM[a] * d->qvel[i] * d->qvel[j];
    }
    return e;
}

double cs_energy_potential(const cs_model *m, const cs_data *d)
{
    if (m->opt.disableflags & CS_DSBL_GRAVITY) return 0;
    double e = 0;
    for (int b = 1; b < m->nbody; b++) {
        if (!m->body_weldid[b]) continue;
        for (int k = 0; k < 3; k++) e -= m->body_mass[b] * m->opt.gravity[k] * d->xipos[3 * b + k];
    }
    return e;
}

void cs_momentum(const cs_model *m, const cs_data *d, int f, double L[3], double p[3])
{
    int b = m->free_body[f];
    const double *R = d->xmat + 9 * b, *c = m->free_com + 3 * f, *v = d->qvel + 6 * f;
    double wc[3], vc[3], Iw[3];
    cross(v + 3, c, wc);
    mulmv3(R, wc, vc);
    for (int k = 0; k < 3; k++) p[k] = m->free_mass[f] * (v[k] + vc[k]);
    mulmv3(m->free_inertia + 9 * f, v + 3, Iw);
    mulmv3(R, Iw, L);
}

int cs_check_finite(const cs_model *m, const cs_data *d)
{
    for (int f = 0; f < m->nfree; f++) {
        for (int k = 0; k < 7; k++)
            if (!isfinite(d->qpos[7 * f + k])) return f;
        for (int k = 0; k < 6; k++)
            if (!isfinite(d->qvel[6 * f + k])) return f;
    }
    return -1;
}

/* v_p = v + w_world x (p - x) = v - [p - x]x R w_local ; w_world = R w_local */
int cs_jac_point(const cs_model *m, const cs_data *d, int body, const double point[3],
                 double jacp[18], double jacr[18])
{
    memset(jacp, 0, 18 * sizeof *jacp);
    memset(jacr, 0, 18 * sizeof *jacr);
    int w = m->body_weldid[body];
    if (!w) return -1;
    const double *R = d->xmat + 9 * w, *x = d->xpos + 3 * w;
    double r[3] = {point[0] - x[0], point[1] - x[1], point[2] - x[2]};
    double S[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
    for (int i = 0; i < 3; i++) {
        jacp[6 * i + i] = 1;
        for (int j = 0; j < 3; j++) {
            double t = 0;
            for (int k = 0; k < 3; k++) t += S[3 * i + k] * R[3 * k + j];
            jacp[6 * i + 3 + j] = -t;
            jacr[6 * i + 3 + j] = R[3 * i + j];
        }
    }
    return m->body_free[w];
}
