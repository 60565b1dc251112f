/* The velocity derivative of the smooth forces, D = d (qfrc_actuator + qfrc_passive -
 * qfrc_bias) / d qvel, MuJoCo's mjd_smooth_vel as its implicit integrator takes it: dof
 * dampers, actuators (joint, tendon and dense transmissions), tendon dampers, fluid forces
 * (not symmetrised) and the Coriolis and centrifugal forces of recursive Newton-Euler.
 *
 * The last is differentiated column by column: the bias force is a quadratic form in qvel, and
 * its derivative along dof j is smooth.c's recursion run on tangents (the velocity change a
 * unit qvel[j] makes, and what it makes of cdof's rate, the bias acceleration and the body
 * forces). Only the subtree of j's body moves in that direction, so a column costs that
 * subtree and j's ancestors, as MuJoCo's sparse mjd_rne_vel does. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "poly.h"
#include "spatial.h"
#include "stages.h"

/* D(i, j) += x, for i and j on one chain (one is the other or its ancestor) */
static void add_entry(const cs_model *m, double *lo, double *up, int i, int j, double x)
{
    int li = cs_dof_rowlen(m, i), lj = cs_dof_rowlen(m, j);
    if (li >= lj) lo[m->dof_Madr[i] + li - lj] += x; /* j is i or an ancestor of i */
    else up[m->dof_Madr[j] + lj - li] += x;          /* i is an ancestor of j */
}

/* D -= d qfrc_bias / d qvel. rne_tan per body: the tangents of cvel, the bias acceleration
 * and the body force (6 each), then the body's own inertia (13). Bodies are numbered depth
 * first (conesim.h), so a subtree is B and the bodies after it whose parent is not before B. */
enum { NT = 18 + SP_NINERT };

static void rne_vel(const cs_model *m, cs_data *d, double *lo, double *up)
{
    double *T = d->scratch->rne_tan;
    for (int b = 1; b < m->nbody; b++)
        if (m->body_treeid[b] >= 0) cs_body_cinert(m, d, b, T + NT * b + 18);
    for (int j = 0; j < m->nv; j++) {
        int B = m->dof_bodyid[j], end = B + 1;
        while (end < m->nbody && m->body_parent[end] >= B) end++;
        for (int b = B; b < end; b++) {
            int p = m->body_parent[b];
            double *tv = T + NT * b, *ta = tv + 6, *tf = tv + 12;
            if (b == B) {
                memset(tv, 0, 12 * sizeof *tv);
            } else {
                memcpy(tv, T + NT * p, 12 * sizeof *tv);
            }
            /* as bias_forces: a rotation's cdof rate takes the velocity before its joint's own */
            int dend = m->body_dofadr[b] + m->body_dofnum[b];
            for (int i = m->body_dofadr[b]; i >= 0 && i < dend;) {
                int n = 1;
                switch ((cs_joint_type)m->jnt_type[m->dof_jntid[i]]) {
                case CS_JNT_FREE:
                    if (j >= i && j < i + 3)
                        for (int r = 0; r < 6; r++) tv[r] += d->cdof[6 * j + r];
                    i += 3;
                    /* fall through */
                case CS_JNT_BALL: n = 3; break;
                case CS_JNT_SLIDE:
                case CS_JNT_HINGE: break;
                }
                for (int k = 0; k < n; k++) {
                    double sd[6];
                    sp_cross_motion(tv, d->cdof + 6 * (i + k), sd);
                    for (int r = 0; r < 6; r++) ta[r] += sd[r] * d->qvel[i + k];
                }
                if (j >= i && j < i + n)
                    for (int r = 0; r < 6; r++) tv[r] += d->cdof[6 * j + r];
                i += n;
            }
            if (b == B)
                for (int r = 0; r < 6; r++) ta[r] += d->scratch->cdofdot[6 * j + r];
            /* the tangent of I a + v x* (I v) */
            const double *I = tv + 18, *v = d->cvel + 6 * b;
            double Iv[6], Itv[6], t1[6], t2[6];
            sp_mul_inert(I, ta, tf);
            sp_mul_inert(I, v, Iv);
            sp_mul_inert(I, tv, Itv);
            sp_cross_force(tv, Iv, t1);
            sp_cross_force(v, Itv, t2);
            for (int r = 0; r < 6; r++) tf[r] += t1[r] + t2[r];
        }
        /* the subtree's forces summed towards B; B's ancestors carry B's sum */
        for (int b = end - 1; b > B; b--)
            for (int r = 0; r < 6; r++) T[NT * m->body_parent[b] + 12 + r] += T[NT * b + 12 + r];
        for (int b = B; b < end; b++)
            for (int i = m->body_dofadr[b]; i >= 0 && i < m->body_dofadr[b] + m->body_dofnum[b]; i++)
                add_entry(m, lo, up, i, j, -sp_dot6(d->cdof + 6 * i, T + NT * b + 12));
        for (int i = m->dof_parent[m->body_dofadr[B]]; i >= 0; i = m->dof_parent[i])
            add_entry(m, lo, up, i, j, -sp_dot6(d->cdof + 6 * i, T + NT * B + 12));
    }
}

void cs_smooth_vel(const cs_model *m, cs_data *d, double *lo, double *up)
{
    int nv = m->nv;
    memset(lo, 0, (size_t)m->nM * sizeof *lo);
    memset(up, 0, (size_t)m->nM * sizeof *up);
    if (!(m->opt.disableflags & (CS_DSBL_PASSIVE | CS_DSBL_DAMPER)))
        for (int i = 0; i < nv; i++) {
            double buf[CS_NPOLY];
            const double *p;
            double b = cs_dof_damping(m, i, buf, &p);
            lo[m->dof_Madr[i]] -= cs_poly_dcoef(b, p, d->qvel[i], 1);
        }
    /* joint actuators' diagonal, then the couplings (tendons, dense transmissions): the
     * functions below take -h D, so h = -1 gives D */
    double *diag = d->scratch->qDeriv;
    memset(diag, 0, (size_t)nv * sizeof *diag);
    cs_actuator_vel(m, d, diag);
    for (int i = 0; i < nv; i++) lo[m->dof_Madr[i]] += diag[i];
    cs_tendon_implicit(m, d, -1, lo, up);
    cs_fluid_implicit(m, d, -1, lo, up);
    rne_vel(m, d, lo, up);
}
