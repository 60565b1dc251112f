/* Integration, MuJoCo's integrators. Each ends as MuJoCo's mj_advance: activations from
 * their rates, the velocity from an acceleration, positions with the new velocity (one switch
 * on joint type: quaternions move on the manifold by the local angular velocity), time.
 *   Euler: semi-implicit, joint damping implicit ((M + h D) qacc = qfrc_smooth +
 *     qfrc_constraint, unless eulerdamp is off or no dof has damping).
 *   implicitfast: (M - h D) qacc = the same forces, D the velocity derivative of the actuator
 *     and passive forces (diagonal for joint transmissions and dof damping; no Coriolis
 *     term), symmetric; a standalone free body's 6 x 6 block adds its gyroscopic derivative
 *     and is solved apart, as MuJoCo 3.12 does.
 *   RK4: the classical four stages, each a full forward pass. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "history.h"
#include "poly.h"
#include "sleep.h"
#include "solver/mass.h"
#include "stages.h"

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

void cs_integrate_jnt(const cs_model *m, int j, double *qpos, const double *qvel, double h)
{
    double *q = qpos + m->jnt_qposadr[j];
    const double *v = qvel + m->jnt_dofadr[j];
    switch ((cs_joint_type)m->jnt_type[j]) {
    case CS_JNT_FREE:
        for (int k = 0; k < 3; k++) q[k] += h * v[k];
        quat_integrate(q + 3, v + 3, h);
        break;
    case CS_JNT_BALL: quat_integrate(q, v, h); break;
    case CS_JNT_SLIDE:
    case CS_JNT_HINGE: q[0] += h * v[0]; break;
    }
}

void cs_integrate_pos(const cs_model *m, double *qpos, const double *qvel, double h)
{
    for (int j = 0; j < m->njnt; j++) cs_integrate_jnt(m, j, qpos, qvel, h);
}

/* positions of the awake trees only, when some sleep: a sleeping tree's pose stays as it
 * fell asleep, bit for bit */
static void integrate_pos(const cs_model *m, const cs_data *d, double *qpos, const double *qvel,
                          double h)
{
    if (!cs_sleep_filter(m, d)) {
        cs_integrate_pos(m, qpos, qvel, h);
        return;
    }
    for (int t = 0; t < m->ntree; t++) {
        if (!d->tree_awake[t]) continue;
        int b0 = m->tree_bodyadr[t], b1 = b0 + m->tree_bodynum[t];
        for (int b = b0; b < b1; b++)
            for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; j++)
                cs_integrate_jnt(m, j, qpos, qvel, h);
    }
}

/* MuJoCo's mj_advance: the history buffers' samples, activations, islands at rest put to
 * sleep (MuJoCo's mj_sleep), velocity by qacc, positions by qvel (d->qvel when NULL); a
 * sleeping tree keeps qvel 0 */
void cs_advance(const cs_model *m, cs_data *d, const double *act_dot, const double *qacc,
                const double *qvel)
{
    double h = m->opt.timestep;
    cs_history_advance(m, d); /* the samples of the state the step started from */
    cs_advance_act(m, d, act_dot);
    if ((m->opt.enableflags & CS_ENBL_SLEEP) && cs_sleep_trees(m, d)) {
        cs_forward_after_sleep(m, d);
        cs_sleep_update(m, d);
    }
    if (cs_sleep_filter(m, d)) {
        for (int i = 0; i < m->nv; i++)
            if (d->tree_awake[m->dof_treeid[i]]) d->qvel[i] += h * qacc[i];
    } else {
        for (int i = 0; i < m->nv; i++) d->qvel[i] += h * qacc[i];
    }
    integrate_pos(m, d, d->qpos, qvel ? qvel : d->qvel, h);
    d->time += h;
    memcpy(d->qacc_warmstart, d->qacc, (size_t)m->nv * sizeof *d->qacc);
}

static int damped(const cs_model *m)
{
    return !(m->opt.disableflags & (CS_DSBL_PASSIVE | CS_DSBL_DAMPER));
}

static int implicit_damping(const cs_model *m)
{
    if ((m->opt.disableflags & CS_DSBL_EULERDAMP) || !damped(m)) return 0;
    for (int i = 0; i < m->nv; i++)
        if (m->dof_damping[i] > 0 || !cs_poly_zero(m->dof_dampingpoly + CS_NPOLY * i) ||
            m->jnt_actuatorid[m->dof_jntid[i]] != -1)
            return 1;
    return 0;
}

/* qacc from (qH) qacc = qfrc_smooth + qfrc_constraint, qH already in d->scratch->qH; written to
 * d->scratch->qacc_implicit. Returns it, or d->qacc when qH is not positive definite. */
static const double *solve_qH(const cs_model *m, cs_data *d)
{
    int nv = m->nv;
    double *a = d->scratch->qacc_implicit;
    for (int i = 0; i < nv; i++) a[i] = d->qfrc_smooth[i] + d->qfrc_constraint[i];
    if (cs_mass_factor(d->scratch->massH)) {
        d->warning[CS_WARN_BADQACC]++;
        return d->qacc;
    }
    cs_mass_solve(d->scratch->massH, a, 0, nv);
    return a;
}

void cs_integrate_euler(const cs_model *m, cs_data *d)
{
    double h = m->opt.timestep;
    const double *qacc = d->qacc;
    if (implicit_damping(m)) {
        memcpy(d->scratch->qH, d->qM, (size_t)m->nM * sizeof *d->scratch->qH);
        for (int i = 0; i < m->nv; i++) { /* the damper's rate at this qvel */
            double buf[CS_NPOLY];
            const double *p;
            double b = cs_dof_damping(m, i, buf, &p);
            d->scratch->qH[m->dof_Madr[i]] += h * cs_poly_dcoef(b, p, d->qvel[i], 1);
        }
        qacc = solve_qH(m, d);
    }
    cs_advance(m, d, d->act_dot, qacc, NULL);
}

/* ---- implicitfast ------------------------------------------------------------------- */
typedef double m3[9]; /* row-major 3 x 3 */

static void mul3(m3 r, const m3 a, const m3 b)
{
    m3 t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    memcpy(r, t, sizeof t);
}

static void mul3t(m3 r, const m3 a, const m3 b) /* a^T b */
{
    m3 t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
    memcpy(r, t, sizeof t);
}

static void skew(m3 r, const double v[3])
{
    r[0] = 0; r[1] = -v[2]; r[2] = v[1];
    r[3] = v[2]; r[4] = 0; r[5] = -v[0];
    r[6] = -v[1]; r[7] = v[0]; r[8] = 0;
}

/* 1 when body b is a standalone free body: its only joint is free, its tree has those 6
 * dofs and nothing with mass hangs from it (MuJoCo's mj_isFreeBody) */
static int standalone_free(const cs_model *m, int b)
{
    if (m->body_jntnum[b] != 1 || m->jnt_type[m->body_jntadr[b]] != CS_JNT_FREE) return 0;
    int i = m->jnt_dofadr[m->body_jntadr[b]];
    if (m->tree_dofnum[m->dof_treeid[i]] != 6) return 0;
    for (int k = b + 1; k < m->nbody && m->body_rootid[k] == b; k++)
        if (m->body_mass[k] != 0) return 0;
    return 1;
}

/* The velocity derivative of a free body's bias force (qfrc_bias = [f; R^T (s x f + tau)],
 * f = mass w x (w x s) and tau = w x Iw w at the COM, w = R v the world angular velocity,
 * s the COM's offset from the body origin): only its rotational columns are non-zero,
 * [-mass K R; R^T C R] with K = s w^T - (w.s) I + [w x s]x and
 * C = -mass [s]x K + [w]x Iw - [Iw w]x. */
static void free_bias_vel(const cs_model *m, const cs_data *d, int b, const double *v,
                          double B[36])
{
    const double *R = d->xmat + 9 * b, *X = d->ximat + 9 * b, *I = m->body_inertia + 3 * b;
    double mass = m->body_mass[b], s[3], w[3], ws[3], Iww[3];
    for (int k = 0; k < 3; k++) {
        s[k] = d->xipos[3 * b + k] - d->xpos[3 * b + k];
        w[k] = R[3 * k] * v[0] + R[3 * k + 1] * v[1] + R[3 * k + 2] * v[2];
    }
    m3 Iw, K, S, W, T, C, lin, rot;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Iw[3 * i + j] = X[3 * i] * I[0] * X[3 * j] + X[3 * i + 1] * I[1] * X[3 * j + 1] +
                            X[3 * i + 2] * I[2] * X[3 * j + 2];
    ws[0] = w[1] * s[2] - w[2] * s[1];
    ws[1] = w[2] * s[0] - w[0] * s[2];
    ws[2] = w[0] * s[1] - w[1] * s[0];
    for (int k = 0; k < 3; k++) Iww[k] = Iw[3 * k] * w[0] + Iw[3 * k + 1] * w[1] + Iw[3 * k + 2] * w[2];
    double wds = w[0] * s[0] + w[1] * s[1] + w[2] * s[2];
    skew(K, ws);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) K[3 * i + j] += s[i] * w[j] - (i == j ? wds : 0);
    mul3(lin, K, R);
    skew(S, s);
    skew(W, w);
    mul3(C, S, K);
    mul3(T, W, Iw);
    skew(S, Iww);
    for (int k = 0; k < 9; k++) C[k] = -mass * C[k] + T[k] - S[k];
    mul3t(T, R, C);
    mul3(rot, T, R);
    memset(B, 0, 36 * sizeof *B);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            B[6 * r + 3 + c] = -mass * lin[3 * r + c];
            B[6 * (3 + r) + 3 + c] = rot[3 * r + c];
        }
}

/* A x = y by Gaussian elimination with partial pivoting (A overwritten); 0 if singular */
static int solve6(double A[36], double x[6], const double y[6])
{
    double b[6];
    memcpy(b, y, sizeof b);
    for (int k = 0; k < 6; k++) {
        int p = k;
        for (int i = k + 1; i < 6; i++)
            if (fabs(A[6 * i + k]) > fabs(A[6 * p + k])) p = i;
        if (A[6 * p + k] == 0) return 0;
        if (p != k) {
            for (int j = 0; j < 6; j++) {
                double t = A[6 * k + j];
                A[6 * k + j] = A[6 * p + j];
                A[6 * p + j] = t;
            }
            double t = b[k];
            b[k] = b[p];
            b[p] = t;
        }
        for (int i = k + 1; i < 6; i++) {
            double f = A[6 * i + k] / A[6 * k + k];
            for (int j = k; j < 6; j++) A[6 * i + j] -= f * A[6 * k + j];
            b[i] -= f * b[k];
        }
    }
    for (int k = 5; k >= 0; k--) {
        double s = b[k];
        for (int j = k + 1; j < 6; j++) s -= A[6 * k + j] * x[j];
        x[k] = s / A[6 * k + k];
    }
    return 1;
}

void cs_integrate_implicitfast(const cs_model *m, cs_data *d)
{
    double h = m->opt.timestep;
    int nv = m->nv;
    double *D = d->scratch->qDeriv; /* d qfrc_smooth / d qvel: diagonal here */
    memset(D, 0, (size_t)nv * sizeof *D);
    if (damped(m))
        for (int i = 0; i < nv; i++) {
            double buf[CS_NPOLY];
            const double *p;
            double b = cs_dof_damping(m, i, buf, &p);
            D[i] = -cs_poly_dcoef(b, p, d->qvel[i], 1);
        }
    cs_actuator_vel(m, d, D);
    memcpy(d->scratch->qH, d->qM, (size_t)m->nM * sizeof *d->scratch->qH);
    /* a standalone free body's rows stay M here: its block is solved apart below */
    for (int j = 0; j < m->njnt; j++) {
        int o = m->jnt_dofadr[j], n = cs_jnt_nv(m->jnt_type[j]);
        if (m->jnt_type[j] == CS_JNT_FREE && standalone_free(m, m->jnt_bodyid[j])) continue;
        for (int i = o; i < o + n; i++) d->scratch->qH[m->dof_Madr[i]] -= h * D[i];
    }
    cs_tendon_implicit(m, d, h, d->scratch->qH, NULL);
    cs_fluid_implicit(m, d, h, d->scratch->qH, NULL);
    double *a = d->scratch->qacc_implicit;
    const double *qacc = solve_qH(m, d);
    if (qacc == a)
        for (int j = 0; j < m->njnt; j++) {
            int b = m->jnt_bodyid[j];
            if (m->jnt_type[j] != CS_JNT_FREE || !standalone_free(m, b)) continue;
            int o = m->jnt_dofadr[j];
            double A[36], B[36], y[6], x[6];
            for (int r = 0; r < 6; r++) /* row o + r of M holds M(r, r), M(r, r - 1), ... */
                for (int k = 0; k <= r; k++)
                    A[6 * r + (r - k)] = A[6 * (r - k) + r] = d->qM[m->dof_Madr[o + r] + k];
            for (int r = 0; r < 6; r++) A[7 * r] -= h * D[o + r];
            cs_tendon_implicit_free(m, d, h, o, A); /* tendons' and dense actuators' */
            free_bias_vel(m, d, b, d->qvel + o + 3, B);
            for (int k = 0; k < 36; k++) A[k] += h * B[k];
            cs_fluid_implicit_free(m, d, b, o, h, A);
            for (int r = 0; r < 6; r++) y[r] = d->qfrc_smooth[o + r] + d->qfrc_constraint[o + r];
            if (solve6(A, x, y)) memcpy(a + o, x, sizeof x);
        }
    cs_advance(m, d, d->act_dot, qacc, NULL);
}
