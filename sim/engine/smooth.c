/* The smooth stage: the mass matrix by composite rigid bodies (with armature), bias forces
 * by recursive Newton-Euler, gravity, applied, passive (spring, damper) and actuator
 * forces (actuator.c), the
 * factor, and the unconstrained acceleration. Spatial quantities of a tree are taken at one
 * reference point, its root body's origin (cdof, cvel: kinematics.c). */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "poly.h"
#include "sleep.h"
#include "solver/mass.h"
#include "spatial.h"
#include "stages.h"

/* per body: crb (13) own then composite inertia; cfrc 12: inertial, applied */
enum { NF = 12 };

static const double *ref_point(const cs_model *m, const cs_data *d, int b)
{
    return d->xpos + 3 * m->body_rootid[b];
}

/* body b's own inertia about its tree's reference point */
void cs_body_cinert(const cs_model *m, const cs_data *d, int b, double I[13])
{
    const double *o = ref_point(m, d, b), *R = d->ximat + 9 * b, *p = m->body_inertia + 3 * b;
    double mass = m->body_mass[b], r[3];
    for (int k = 0; k < 3; k++) r[k] = d->xipos[3 * b + k] - o[k];
    I[0] = mass;
    for (int k = 0; k < 3; k++) I[1 + k] = mass * r[k];
    double r2 = sp_dot3(r, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            I[4 + 3 * i + j] = R[3 * i] * p[0] * R[3 * j] + R[3 * i + 1] * p[1] * R[3 * j + 1] +
                               R[3 * i + 2] * p[2] * R[3 * j + 2] +
                               mass * ((i == j ? r2 : 0) - r[i] * r[j]);
}

/* 1 when a sleeping tree holds body b (aw: the sleep filter's tree_awake, NULL when off).
 * A sleeping tree's pose and velocity do not change, so what the stage would compute for it
 * is what it holds already. */
static int asleep(const cs_model *m, const int *aw, int b)
{
    return aw && m->body_treeid[b] >= 0 && !aw[m->body_treeid[b]];
}

/* every moving body's own inertia into crb */
static void own_inertias(const cs_model *m, cs_data *d, const int *aw)
{
    for (int b = 1; b < m->nbody; b++)
        if (m->body_treeid[b] >= 0 && !asleep(m, aw, b))
            cs_body_cinert(m, d, b, d->scratch->crb + SP_NINERT * b);
}

/* crb from the own inertias to the composites, then the mass matrix's rows. With g, also
 * each dof's gravity force, out of qfrc_bias: the subtree's gravity wrench is its composite
 * inertia times the linear acceleration g, so by the inertia's symmetry its product with
 * cdof is g . (I cdof)'s linear part, the product made for M's row anyway. simple: a simple
 * body's dofs (MuJoCo's dof_simplenum) take the constant diagonal dof_M0 and no couplings,
 * as MuJoCo's mj_crb (dof_M0 itself is made without that) */
static void composite_mass(const cs_model *m, cs_data *d, const int *aw, const double *g,
                           int simple)
{
    double *crb = d->scratch->crb;
    /* composites, leaves first; a static parent ends the tree */
    for (int b = m->nbody - 1; b > 0; b--) {
        int p = m->body_parent[b];
        if (m->body_treeid[b] < 0 || p <= 0 || m->body_treeid[p] < 0 || asleep(m, aw, b)) continue;
        for (int k = 0; k < SP_NINERT; k++) crb[SP_NINERT * p + k] += crb[SP_NINERT * b + k];
    }
    for (int i = 0; i < m->nv; i++) {
        if (aw && !aw[m->dof_treeid[i]]) continue;
        double F[6];
        sp_mul_inert(crb + SP_NINERT * m->dof_bodyid[i], d->cdof + 6 * i, F);
        double *row = d->qM + m->dof_Madr[i];
        int a = 0;
        if (simple && m->body_simple[m->dof_bodyid[i]]) {
            row[a++] = m->dof_M0[i];
            for (int j = m->dof_parent[i]; j >= 0; j = m->dof_parent[j]) row[a++] = 0;
        } else {
            for (int j = i; j >= 0; j = m->dof_parent[j]) row[a++] = sp_dot6(d->cdof + 6 * j, F);
            row[0] += !m->nactuatorid || m->jnt_actuatorid[m->dof_jntid[i]] == -1
                          ? m->dof_armature[i]
                          : m->dof_armature[i] + cs_actuator_armature(m, 0, m->dof_jntid[i]);
        }
        if (g) {
            double gi = g[0] * F[3] + g[1] * F[4] + g[2] * F[5];
            d->qfrc_gravity[i] = gi;
            d->qfrc_bias[i] -= gi;
        }
    }
}

void cs_make_mass(const cs_model *m, cs_data *d)
{
    own_inertias(m, d, NULL);
    composite_mass(m, d, NULL, NULL, 0);
}

/* velocities and the bias force of every body (RNE without gravity) and applied forces,
 * summed over subtrees and projected on the dofs (gravity: composite_mass). crb holds the
 * bodies' own inertias (own_inertias), not yet the composites. */
static void bias_forces(const cs_model *m, cs_data *d, double *cfrc, const int *aw)
{
    /* applied forces only where some moving body has one (xfrc_applied is mostly zero) */
    int applied = 0;
    for (int b = 1; b < m->nbody && !applied; b++)
        if (m->body_treeid[b] >= 0 && !asleep(m, aw, b))
            for (int k = 0; k < 6; k++) applied |= d->xfrc_applied[6 * b + k] != 0;
    int nf = applied ? NF : 6;
    memset(d->cvel, 0, 6 * sizeof *d->cvel);
    memset(d->scratch->cacc, 0, 6 * sizeof *d->scratch->cacc);
    for (int b = 1; b < m->nbody; b++) {
        double *v = d->cvel + 6 * b, *a = d->scratch->cacc + 6 * b, *f = cfrc + NF * b;
        if (m->body_treeid[b] < 0) {
            memset(v, 0, 6 * sizeof *v);
            memset(a, 0, 6 * sizeof *a);
            memset(f, 0, NF * sizeof *f);
            continue;
        }
        if (asleep(m, aw, b)) continue;
        int p = m->body_parent[b];
        memcpy(v, d->cvel + 6 * p, 6 * sizeof *v); /* a static parent's are zero */
        memcpy(a, d->scratch->cacc + 6 * p, 6 * sizeof *a);
        /* cdof's rate is cvel x cdof; a free joint's translations have none, and a ball's
         * (or a free joint's) rotations use the velocity before their own (their own adds
         * w x w = 0 in sum) */
        for (int i = m->body_dofadr[b]; i >= 0 && i < m->body_dofadr[b] + m->body_dofnum[b];) {
            int j = m->dof_jntid[i], n = 1;
            double *sd = d->scratch->cdofdot + 6 * i;
            switch ((cs_joint_type)m->jnt_type[j]) {
            case CS_JNT_FREE:
                memset(sd, 0, 18 * sizeof *sd);
                for (int k = 0; k < 3; k++)
                    for (int r = 0; r < 6; r++) v[r] += d->cdof[6 * (i + k) + r] * d->qvel[i + k];
                i += 3;
                sd += 18;
                /* fall through */
            case CS_JNT_BALL:
                n = 3;
                break;
            case CS_JNT_SLIDE:
            case CS_JNT_HINGE: break;
            }
            for (int k = 0; k < n; k++) sp_cross_motion(v, d->cdof + 6 * (i + k), sd + 6 * k);
            for (int k = 0; k < n; k++)
                for (int r = 0; r < 6; r++) v[r] += d->cdof[6 * (i + k) + r] * d->qvel[i + k];
            i += n;
        }
        for (int i = m->body_dofadr[b]; i >= 0 && i < m->body_dofadr[b] + m->body_dofnum[b]; i++)
            for (int r = 0; r < 6; r++) a[r] += d->scratch->cdofdot[6 * i + r] * d->qvel[i];
        /* f = I a + v x* (I v) */
        const double *I = d->scratch->crb + SP_NINERT * b;
        double Iv[6], t[6];
        sp_mul_inert(I, a, f);
        sp_mul_inert(I, v, Iv);
        sp_cross_force(v, Iv, t);
        for (int r = 0; r < 6; r++) f[r] += t[r];
        if (!applied) continue;
        /* applied: world force at the COM and world torque, about the reference point */
        const double *o = ref_point(m, d, b), *c = d->xipos + 3 * b;
        double r[3] = {c[0] - o[0], c[1] - o[1], c[2] - o[2]}, tq[3];
        const double *F = d->xfrc_applied + 6 * b;
        sp_cross(r, F, tq);
        for (int k = 0; k < 3; k++) {
            f[6 + k] = F[3 + k] + tq[k];
            f[9 + k] = F[k];
        }
    }
    for (int b = m->nbody - 1; b > 0; b--) {
        int p = m->body_parent[b];
        if (m->body_treeid[b] < 0 || p <= 0 || m->body_treeid[p] < 0 || asleep(m, aw, b)) continue;
        for (int k = 0; k < nf; k++) cfrc[NF * p + k] += cfrc[NF * b + k];
    }
    for (int i = 0; i < m->nv; i++) {
        if (aw && !aw[m->dof_treeid[i]]) continue;
        const double *s = d->cdof + 6 * i, *f = cfrc + NF * m->dof_bodyid[i];
        d->qfrc_bias[i] = sp_dot6(s, f);
        d->qfrc_smooth[i] = applied ? d->qfrc_applied[i] + sp_dot6(s, f + 6) : d->qfrc_applied[i];
    }
}

/* Joint j's displacement from its spring's rest pose, one number per dof: hinge and slide
 * q - q_spring; ball the rotation vector from the rest quaternion; free the translation, then
 * that rotation. Returns the count. */
static int spring_stretch(const cs_model *m, const cs_data *d, int j, double dif[6])
{
    int pa = m->jnt_qposadr[j], n = 0;
    const double *q = d->qpos + pa, *q0 = m->qpos_spring + pa;
    double qn[4];
    switch ((cs_joint_type)m->jnt_type[j]) {
    case CS_JNT_FREE:
        for (int r = 0; r < 3; r++) dif[n++] = q[r] - q0[r];
        q += 3;
        q0 += 3;
        /* fall through */
    case CS_JNT_BALL:
        memcpy(qn, q, sizeof qn);
        cs_normquat(qn);
        cs_subquat(dif + n, qn, q0);
        return n + 3;
    case CS_JNT_SLIDE:
    case CS_JNT_HINGE: break;
    }
    dif[0] = q[0] - q0[0];
    return 1;
}

/* the parts of a joint's stretch that share one spring law: a free joint's translation and
 * rotation, a ball's rotation (3 numbers, x their norm), a hinge's or slide's one (x signed) */
static int spring_part(int n) { return n == 1 ? 1 : 3; }

static double spring_x(const double *dif, int len)
{
    return len == 1 ? dif[0] : sqrt(dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2]);
}

/* Gravity compensation: a force -gravcomp m g at each such body's COM, as generalised force
 * over the dofs of its chain (the same spatial projection as gravity's). */
static void gravcomp(const cs_model *m, cs_data *d)
{
    memset(d->qfrc_gravcomp, 0, (size_t)m->nv * sizeof *d->qfrc_gravcomp);
    const double *g = m->opt.gravity;
    if (!m->ngravcomp || (m->opt.disableflags & CS_DSBL_GRAVITY) ||
        (g[0] == 0 && g[1] == 0 && g[2] == 0))
        return;
    for (int b = 1; b < m->nbody; b++) {
        double s = -m->body_mass[b] * m->body_gravcomp[b];
        if (s == 0) continue;
        double F[3] = {s * g[0], s * g[1], s * g[2]};
        cs_add_point_force(m, d, b, d->xipos + 3 * b, F, d->qfrc_gravcomp);
    }
}

/* joint springs (towards qpos_spring) and dampers (explicit here; Euler makes the damping
 * implicit in the step unless eulerdamp is off), gravity compensation, contact adhesion */
static void passive(const cs_model *m, cs_data *d)
{
    memset(d->qfrc_passive, 0, (size_t)m->nv * sizeof *d->qfrc_passive);
    memset(d->qfrc_adhesion, 0, (size_t)m->nv * sizeof *d->qfrc_adhesion);
    int dis = m->opt.disableflags;
    if (m->ngravcomp) memset(d->qfrc_gravcomp, 0, (size_t)m->nv * sizeof *d->qfrc_gravcomp);
    if ((dis & CS_DSBL_PASSIVE) || ((dis & CS_DSBL_SPRING) && (dis & CS_DSBL_DAMPER))) return;
    gravcomp(m, d);
    if (m->ngravcomp)
        for (int i = 0; i < m->nv; i++)
            if (!m->jnt_actgravcomp[m->dof_jntid[i]]) d->qfrc_passive[i] += d->qfrc_gravcomp[i];
    if (!(dis & CS_DSBL_SPRING))
        for (int j = 0; j < m->njnt; j++) {
            double k = m->jnt_stiffness[j], *f = d->qfrc_passive + m->jnt_dofadr[j], dif[6];
            const double *p = m->jnt_stiffnesspoly + CS_NPOLY * j;
            if (k == 0 && cs_poly_zero(p)) continue;
            int n = spring_stretch(m, d, j, dif);
            for (int a = 0, len; a < n; a += len) {
                len = spring_part(n);
                double s = cs_poly_coef(k, p, spring_x(dif + a, len), 0);
                for (int r = a; r < a + len; r++) f[r] -= s * dif[r];
            }
        }
    if (!(dis & CS_DSBL_DAMPER))
        for (int i = 0; i < m->nv; i++) {
            double v = d->qvel[i];
            if (!m->nactuatorid) { /* (a loop without the test vectorises) */
                d->qfrc_passive[i] -= v * cs_poly_coef(m->dof_damping[i], m->dof_dampingpoly + CS_NPOLY * i, v, 1);
                continue;
            }
            double buf[CS_NPOLY];
            const double *p;
            double b = cs_dof_damping(m, i, buf, &p);
            d->qfrc_passive[i] -= v * cs_poly_coef(b, p, v, 1);
        }
    cs_tendon_passive(m, d);
    cs_fluid_passive(m, d);
    cs_adhesion_passive(m, d);
}

void cs_smooth(const cs_model *m, cs_data *d)
{
    /* sleeping trees keep their inertias, bias forces, mass matrix rows and qfrc_smooth
     * (sim/engine/sleep.h) */
    const int *aw = cs_sleep_filter(m, d) ? d->tree_awake : NULL;
    own_inertias(m, d, aw); /* once: the bias forces use them, then the composites */
    bias_forces(m, d, d->scratch->cfrc, aw);
    double g[3] = {0, 0, 0};
    if (!(m->opt.disableflags & CS_DSBL_GRAVITY)) memcpy(g, m->opt.gravity, sizeof g);
    composite_mass(m, d, aw, g, 1);
    if (m->ntendon) {
        cs_tendon_armature(m, d, aw);
        cs_tendon_bias(m, d, aw);
    }
    passive(m, d);
    cs_actuation(m, d);
    for (int i = 0; i < m->nv; i++)
        if (!aw || aw[m->dof_treeid[i]])
            d->qfrc_smooth[i] += d->qfrc_passive[i] - d->qfrc_bias[i] + d->qfrc_actuator[i];
    if (cs_mass_factor(d->scratch->mass)) d->warning[CS_WARN_BADQACC]++; /* not for checked models */
    memcpy(d->qacc_smooth, d->qfrc_smooth, (size_t)m->nv * sizeof *d->qacc_smooth);
    cs_mass_solve(d->scratch->mass, d->qacc_smooth, 0, m->nv);
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
    double e = 0;
    if (!(m->opt.disableflags & CS_DSBL_GRAVITY))
        for (int b = 1; b < m->nbody; b++) /* static bodies too, as MuJoCo's mj_energyPos */
            for (int k = 0; k < 3; k++)
                e -= m->body_mass[b] * m->opt.gravity[k] * d->xipos[3 * b + k];
    if (m->opt.disableflags & (CS_DSBL_PASSIVE | CS_DSBL_SPRING)) return e;
    for (int j = 0; j < m->njnt; j++) {
        double k = m->jnt_stiffness[j], dif[6];
        const double *p = m->jnt_stiffnesspoly + CS_NPOLY * j;
        if (k == 0 && cs_poly_zero(p)) continue;
        int n = spring_stretch(m, d, j, dif);
        for (int a = 0, len; a < n; a += len) {
            len = spring_part(n);
            e += cs_poly_energy(k, p, spring_x(dif + a, len));
        }
    }
    for (int t = 0; t < m->ntendon; t++) { /* tendon springs outside their dead band */
        double len = d->ten_length[t], x = 0;
        const double *ls = m->tendon_lengthspring + 2 * t;
        if (len > ls[1]) x = len - ls[1];
        else if (len < ls[0]) x = len - ls[0];
        e += cs_poly_energy(m->tendon_stiffness[t], m->tendon_stiffnesspoly + CS_NPOLY * t, x);
    }
    return e;
}

void cs_momentum(const cs_model *m, const cs_data *d, int t, double L[3], double p[3])
{
    double M = 0, mc[3] = {0, 0, 0};
    L[0] = L[1] = L[2] = p[0] = p[1] = p[2] = 0;
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_treeid[b] != t) continue;
        M += m->body_mass[b];
        for (int k = 0; k < 3; k++) mc[k] += m->body_mass[b] * d->xipos[3 * b + k];
    }
    if (!(M > 0)) return;
    double C[3] = {mc[0] / M, mc[1] / M, mc[2] / M};
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_treeid[b] != t) continue;
        const double *v = d->cvel + 6 * b, *o = ref_point(m, d, b), *c = d->xipos + 3 * b;
        const double *R = d->ximat + 9 * b, *I = m->body_inertia + 3 * b;
        double r[3] = {c[0] - o[0], c[1] - o[1], c[2] - o[2]}, vc[3], wr[3], wl[3], h[3], rc[3];
        sp_cross(v, r, wr);
        for (int k = 0; k < 3; k++) vc[k] = v[3 + k] + wr[k];
        sp_mulmtv3(R, v, wl);
        for (int k = 0; k < 3; k++) wl[k] *= I[k];
        sp_mulmv3(R, wl, h);
        for (int k = 0; k < 3; k++) rc[k] = c[k] - C[k];
        sp_cross(rc, vc, wr);
        for (int k = 0; k < 3; k++) {
            p[k] += m->body_mass[b] * vc[k];
            L[k] += h[k] + m->body_mass[b] * wr[k];
        }
    }
}
