/* MuJoCo's noslip pass: after the method, block Gauss-Seidel over the friction rows alone
 * with A = J M^-1 J^T, i.e. without the regulariser R that lets soft contacts creep. The
 * normal forces (and limits, equality rows) stay as the method left them; dry joint friction
 * is clamped to its bound, a contact's friction solved in its cone at the fixed normal force
 * (elliptic: the fixed-normal QCQP; pyramidal: each pair of opposite edges with their sum
 * kept). A step that would raise the cost is undone, the improvement is scaled as the
 * methods' and the sweeps stop below noslip_tolerance, as MuJoCo's mj_solNoSlip does.
 * The acceleration follows the forces: a = a0 + M^-1 J^T f (MuJoCo's dual finish). */
#include "solver_internal.h"

#include <string.h>

#include "cone.h"
#include "mass.h"

/* The pass keeps a = a_m + L^-1 D^-1/2 v, a_m the method's acceleration and
 * v = Y (f - f_m) with Y = D^-1/2 L^-T J^T (M = L^T D L): then A = J M^-1 J^T = Y^T Y,
 * J a = J a_m + Y^T v, and a force change d moves v by Y d. Y reaches only a contact's
 * chains (no sweep over whole trees, as W = M^-1 J^T would need); a is made at the end. */

/* Y_r . Y_c over the columns where block k's Y is nonzero (rows r and c of block k): the
 * sum over its chains less exact zeros */
static double jw(const cs_solver_ws *w, const cs_efc *e, int k, int r, int c)
{
    const double *Yr = w->Y + e->J_rowadr[r], *Yc = w->Y + e->J_rowadr[c];
    const int *L = w->ycol + e->J_rowadr[e->blk_row[k]];
    int m = w->ycnt[2 * k] + w->ycnt[2 * k + 1];
    double s = 0;
    for (int i = 0; i < m; i++) s += Yr[L[i]] * Yc[L[i]];
    return s;
}

/* block k's list of Y's nonzero columns, per side how many, and what takes a column's
 * position to its dof */
static const int *ycols(const cs_solver_ws *w, const cs_efc *e, int k, int cnt[2], int off[2])
{
    cnt[0] = w->ycnt[2 * k];
    cnt[1] = w->ycnt[2 * k + 1];
    off[0] = e->blk_dofadr[2 * k];
    off[1] = e->blk_dofadr[2 * k + 1] - e->blk_ndof[2 * k];
    return w->ycol + e->J_rowadr[e->blk_row[k]];
}

/* res = J a - aref over rows r0 .. r0 + n - 1 of block k, each row summed in column order */
static void resid_rows(const cs_solver_ws *w, const cs_efc *e, int k, int r0, int n,
                       double *res)
{
    int cnt[2], off[2], nnz = e->J_rownnz[r0];
    const int *L = ycols(w, e, k, cnt, off);
    const double *Y = w->Y + e->J_rowadr[r0];
    double v[CS_MAXROWS] = {0};
    for (int s = 0, i = 0; s < 2; s++)
        for (int end = i + cnt[s]; i < end; i++) {
            int q = L[i];
            double x = w->s0[off[s] + q];
            for (int r = 0; r < n; r++) v[r] += Y[r * nnz + q] * x;
        }
    for (int r = 0; r < n; r++) res[r] = w->rowb[r0 + r] + v[r];
}

/* the force change d of rows r0 .. r0 + n - 1 of block k into v, each entry taking the rows
 * in order (a row without a change: none) */
static void apply_rows(const cs_solver_ws *w, const cs_efc *e, int k, int r0, int n,
                       const double *d)
{
    int cnt[2], off[2], nnz = e->J_rownnz[r0], any = 0;
    for (int r = 0; r < n; r++) any |= d[r] != 0;
    if (!any) return;
    const int *L = ycols(w, e, k, cnt, off);
    const double *Y = w->Y + e->J_rowadr[r0];
    for (int s = 0, i = 0; s < 2; s++)
        for (int end = i + cnt[s]; i < end; i++) {
            int q = L[i];
            double x = w->s0[off[s] + q];
            for (int r = 0; r < n; r++)
                if (d[r] != 0) x += Y[r * nnz + q] * d[r];
            w->s0[off[s] + q] = x;
        }
}

/* The cost change of f over fold, 1/2 d^T A d + d^T res (d = f - fold); a rise beyond 1e-10
 * restores fold and counts as none. */
static double cost_change(int n, const double *A, double *f, const double *fold,
                          const double *res)
{
    double d[CS_MAXROWS], c = 0;
    for (int i = 0; i < n; i++) d[i] = f[i] - fold[i];
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[i * n + j] * d[j];
        c += d[i] * (0.5 * s + res[i]);
    }
    if (c > 1e-10) {
        memcpy(f, fold, (size_t)n * sizeof *f);
        return 0;
    }
    return c;
}

/* A's block over rows r0 .. r0 + n - 1 of block k, its diagonal floored at floor */
static void block_A(const cs_solver_ws *w, const cs_efc *e, int k, int r0, int n, double floor,
                    double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) A[i * n + j] = A[j * n + i] = jw(w, e, k, r0 + i, r0 + j);
    for (int i = 0; i < n; i++) A[i * n + i] = fmax(floor, A[i * n + i]);
}

/* The matrices of block k's subproblems at w->A + Gadr: a dry-friction row's 1 x 1, an
 * elliptic contact's friction rows', a pyramid's 2 x 2 per pair of opposite edges. Y is
 * fixed through the pass, and so are they: made once, before the first sweep. */
static void block_matrices(cs_solver_ws *w, const cs_efc *e, int k)
{
    double *A = w->A + w->Gadr[k];
    int r0 = e->blk_row[k];
    if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) block_A(w, e, k, r0, 1, 1e-15, A);
    else if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC) block_A(w, e, k, r0 + 1, e->blk_dim[k] - 1, 1e-10, A);
    else
        for (int r = r0; r < r0 + e->blk_nrow[k]; r += 2, A += 4) block_A(w, e, k, r, 2, 1e-10, A);
}

/* one dry-friction row: the unconstrained minimiser clamped to +-bound */
static double sweep_friction(cs_solver_ws *w, cs_efc *e, int k)
{
    int r = e->blk_row[k];
    double res = 0, A = w->A[w->Gadr[k]], *f = e->force + r, old = *f;
    double g = e->frictionloss[r];
    resid_rows(w, e, k, r, 1, &res);
    *f -= res / A;
    if (*f < -g) *f = -g;
    if (*f > g) *f = g;
    double d = *f - old;
    if (d != 0) apply_rows(w, e, k, r, 1, &d);
    return -(0.5 * d * d * A + d * res);
}

/* an elliptic contact's friction rows at its fixed normal force */
static double sweep_elliptic(cs_solver_ws *w, cs_efc *e, int k)
{
    int r0 = e->blk_row[k] + 1, n = e->blk_dim[k] - 1;
    double res[CS_MAXROWS] = {0}, b[CS_MAXROWS] = {0};
    double old[CS_MAXROWS] = {0}, *f = e->force + r0, fn = e->force[r0 - 1];
    const double *A = w->A + w->Gadr[k];
    resid_rows(w, e, k, r0, n, res);
    memcpy(old, f, (size_t)n * sizeof *f);
    for (int i = 0; i < n; i++) {
        b[i] = res[i];
        for (int j = 0; j < n; j++) b[i] -= A[i * n + j] * old[j];
    }
    if (fn < 1e-15) memset(f, 0, (size_t)n * sizeof *f);
    else if (cs_qcqp_solve(n, A, b, e->blk_friction + 5 * k, fn, f, NULL) != 0)
        memcpy(f, old, (size_t)n * sizeof *f);
    double c = cost_change(n, A, f, old, res), d[CS_MAXROWS];
    for (int i = 0; i < n; i++) d[i] = f[i] - old[i];
    apply_rows(w, e, k, r0, n, d);
    return -c;
}

/* a pyramid's pairs of opposite edges: their sum (the normal force's share) kept, the split
 * between them the 1-D minimiser within [0, sum] */
static double sweep_pyramid(cs_solver_ws *w, cs_efc *e, int k)
{
    double imp = 0;
    const double *A = w->A + w->Gadr[k];
    for (int r = e->blk_row[k]; r < e->blk_row[k] + e->blk_nrow[k]; r += 2, A += 4) {
        double res[2] = {0, 0}, old[2], *f = e->force + r, b[2];
        resid_rows(w, e, k, r, 2, res);
        old[0] = f[0];
        old[1] = f[1];
        for (int i = 0; i < 2; i++) b[i] = res[i] - A[2 * i] * old[0] - A[2 * i + 1] * old[1];
        double mid = 0.5 * (f[0] + f[1]);
        double K1 = A[0] + A[3] - A[1] - A[2], K0 = mid * (A[0] - A[3]) + b[0] - b[1];
        if (K1 < 1e-15) {
            f[0] = f[1] = mid;
        } else {
            double y = -K0 / K1;
            if (y < -mid) y = -mid;
            if (y > mid) y = mid;
            f[0] = mid + y;
            f[1] = mid - y;
        }
        double c = cost_change(2, A, f, old, res), d[2] = {f[0] - old[0], f[1] - old[1]};
        apply_rows(w, e, k, r, 2, d);
        imp -= c;
    }
    return imp;
}

void cs_i_noslip(cs_solver_ws *w, int isl)
{
    const cs_problem *p = w->p;
    cs_efc *e = p->efc;
    const int *blk = w->isl_blocks + w->isl_block_adr[isl];
    int nb = w->isl_block_num[isl], maxiter = w->o->noslip_iterations;
    /* the acceleration of the method's forces, a_m = a0 + M^-1 J^T f, and at it the
     * residuals of the rows the pass sweeps */
    double *v = w->s0;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) v[q] = 0;
    for (int b = 0; b < nb; b++) cs_i_add_jt(e, blk[b], e->force + e->blk_row[blk[b]], v);
    cs_i_mass_solve(w, p, isl, v);
    CS_FOR_ISLAND_DOFS(w, p, isl, q) w->a[q] = p->a0[q] + v[q];
    for (int b = 0; b < nb; b++)
        if (cs_i_noslip_swept(e, blk[b])) cs_i_resid(e, blk[b], w->a, w->rowb + e->blk_row[blk[b]]);
    CS_FOR_ISLAND_DOFS(w, p, isl, q) v[q] = 0;
    for (int b = 0; b < nb; b++)
        if (cs_i_noslip_swept(e, blk[b])) block_matrices(w, e, blk[b]);
    /* MuJoCo scales by the whole model's dofs here, not the island's */
    double scale = 1 / (p->meaninertia * (w->nv > 1 ? w->nv : 1));
    int it = 0;
    while (it < maxiter) {
        double imp = 0;
        if (it == 0) /* the regulariser's share of the cost, which the pass drops */
            for (int b = 0; b < nb; b++)
                for (int r = e->blk_row[blk[b]]; r < e->blk_row[blk[b]] + e->blk_nrow[blk[b]]; r++)
                    imp += 0.5 * e->force[r] * e->force[r] * e->R[r];
        for (int b = 0; b < nb; b++) /* dry friction first, as MuJoCo orders its rows */
            if (e->blk_kind[blk[b]] == CS_BLOCK_FRICTIONLOSS) imp += sweep_friction(w, e, blk[b]);
        for (int b = 0; b < nb; b++) {
            int k = blk[b];
            if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC && e->blk_dim[k] > 1)
                imp += sweep_elliptic(w, e, k);
            else if (e->blk_kind[k] == CS_BLOCK_PYRAMIDAL)
                imp += sweep_pyramid(w, e, k);
        }
        it++;
        if (imp * scale < w->o->noslip_tolerance) break;
    }
    CS_FOR_ISLAND_DOFS(w, p, isl, q) v[q] *= sqrt(p->M->qLDiagInv[q]);
    for (int t = 0; t < w->isl_tree_num[isl]; t++) { /* a = a_m + L^-1 D^-1/2 v */
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = p->M->tree_dofadr[tr];
        cs_mass_lower_solve(p->M, v, lo, lo + p->M->tree_dofnum[tr]);
    }
    CS_FOR_ISLAND_DOFS(w, p, isl, q) w->a[q] += v[q];
    w->ist[isl].noslip = it;
}
