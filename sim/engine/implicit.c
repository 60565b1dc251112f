/* MuJoCo's implicit integrator (mj_implicit): (M - h D) qacc = qfrc_smooth + qfrc_constraint,
 * D the whole velocity derivative of the smooth forces, Coriolis and centrifugal terms
 * included (derivative.c), so M - h D is not symmetric. It is factored as MuJoCo's
 * mju_factorLUSparse does, without pivoting, on M's pattern: eliminating from the last dof
 * up the tree makes no fill-in, M - h D = (U + I) L with U strictly upper and L lower, both
 * on the pattern (the upper triangle laid out as cs_smooth_vel's). */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "minval.h"
#include "stages.h"

/* A = (U + I) L in place: lo holds A's lower triangle and diagonal, then L; up A's upper
 * triangle, then U. 0, or 1 when a pivot is smaller than MuJoCo's mjMINVAL. */
static int factor_lu(const cs_model *m, double *lo, double *up)
{
    const int *adr = m->dof_Madr, *par = m->dof_parent;
    for (int i = m->nv - 1; i >= 0; i--) {
        double *li = lo + adr[i], *ui = up + adr[i], p = li[0];
        int n = cs_dof_rowlen(m, i);
        if (!(fabs(p) >= CS_MINVAL)) return 1;
        /* row a, the k-th ancestor of i: U(a, i) = A(a, i) / A(i, i), and A(a, c) -= A(i, c)
         * U(a, i) for c the l-th ancestor of i (above a, a itself, or between a and i) */
        for (int k = 1, a = par[i]; k < n; k++, a = par[a]) {
            double u = ui[k] /= p;
            if (u == 0) continue;
            for (int l = 1, c = par[i]; l < n; l++, c = par[c]) {
                if (l >= k) lo[adr[a] + l - k] -= li[l] * u;
                else up[adr[c] + k - l] -= li[l] * u;
            }
        }
    }
    return 0;
}

/* x = A^-1 x from factor_lu's factors */
static void solve_lu(const cs_model *m, const double *lo, const double *up, double *x)
{
    const int *adr = m->dof_Madr, *par = m->dof_parent;
    /* (U + I) y = x, by columns from the last: U(a, c) sits in column c's row of up */
    for (int c = m->nv - 1; c >= 0; c--) {
        int n = cs_dof_rowlen(m, c);
        for (int k = 1, a = par[c]; k < n; k++, a = par[a]) x[a] -= up[adr[c] + k] * x[c];
    }
    /* L x = y, by rows from the first */
    for (int i = 0; i < m->nv; i++) {
        int n = cs_dof_rowlen(m, i);
        const double *li = lo + adr[i];
        for (int k = 1, a = par[i]; k < n; k++, a = par[a]) x[i] -= li[k] * x[a];
        x[i] /= li[0];
    }
}

void cs_integrate_implicit(const cs_model *m, cs_data *d)
{
    double h = m->opt.timestep;
    int nv = m->nv, nM = m->nM;
    double *lo = d->scratch->qLU, *up = lo + nM, *a = d->scratch->qacc_implicit;
    cs_smooth_vel(m, d, lo, up);
    for (int k = 0; k < nM; k++) {
        lo[k] = d->qM[k] - h * lo[k];
        up[k] = d->qM[k] - h * up[k]; /* M is symmetric: its upper entries are its lower ones */
    }
    const double *qacc = a;
    if (factor_lu(m, lo, up)) {
        d->warning[CS_WARN_BADQACC]++;
        qacc = d->qacc;
    } else {
        for (int i = 0; i < nv; i++) a[i] = d->qfrc_smooth[i] + d->qfrc_constraint[i];
        solve_lu(m, lo, up, a);
    }
    cs_advance(m, d, d->act_dot, qacc, NULL);
}
