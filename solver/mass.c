/* Sparse tree factorisation of the mass matrix (mass.h). For M = L^T D L with L unit lower
 * triangular and nonzero only where the tree puts it, elimination from the leaves up
 * creates no fill: eliminating dof k only touches k's ancestors, which are all in k's row. */
#include "mass.h"
#include "solver_internal.h" /* CS_VECTOR_CLONES, CS_MAXROWS */

CS_VECTOR_CLONES int cs_forest_factor(int n, double *q, const int *par, const int *adr, int nq,
                                       double *dinv)
{
    for (int k = n - 1; k >= 0; k--) {
        int kk = adr[k];
        double D = q[kk];
        if (!(D > 0)) return -1;
        /* rest: k's ancestors, the entries of its row after kk (rows one after another: no
         * walk up the parents to count them) */
        int ki = kk + 1, rest = (k + 1 < n ? adr[k + 1] : nq) - ki;
        for (int i = par[k]; i >= 0; i = par[i], ki++, rest--) {
            if (q[ki] == 0) /* l = 0 changes nothing (a simple body's rows) */
                continue;
            double l = q[ki] / D;
            /* row i from its diagonal up holds i's ancestors, the tail of k's row from ki:
             * rest entries, a plain loop (no walk up the parents in it) */
            double *qi = q + adr[i];
            const double *qk = q + ki;
            for (int o = 0; o < rest; o++) qi[o] -= l * qk[o];
            q[ki] = l;
        }
    }
    for (int i = 0; i < n; i++) dinv[i] = 1 / q[adr[i]];
    return 0;
}

void cs_forest_solve(const double *q, const int *par, const int *adr, const double *dinv,
                     double *x, int lo, int hi)
{
    for (int k = hi - 1; k >= lo; k--) { /* L^-T */
        double xk = x[k];
        if (xk == 0) continue;
        int a = adr[k] + 1;
        for (int i = par[k]; i >= 0; i = par[i], a++) x[i] -= q[a] * xk;
    }
    for (int k = lo; k < hi; k++) x[k] *= dinv[k];
    for (int k = lo; k < hi; k++) { /* L^-1 */
        int a = adr[k] + 1;
        double s = x[k];
        for (int i = par[k]; i >= 0; i = par[i], a++) s -= q[a] * x[i];
        x[k] = s;
    }
}

/* cs_forest_solve on n right-hand sides interleaved (x[k * n + r]); N > 0 fixes n at
 * compile time. Each side sees cs_forest_solve's operations in its order (the same bits);
 * the diagonal and L^-1 passes walk each dof's ancestors once for all sides. */
static inline __attribute__((always_inline)) void
forest_solve_rows(const double *q, const int *par, const int *adr, const double *dinv, double *x,
                  int n, int lo, int hi, const int N)
{
    if (N > 0) n = N;
    for (int k = hi - 1; k >= lo; k--) { /* L^-T; each side skips its zeros, as one does */
        double xk[CS_MAXROWS];
        int any = 0, all = 1;
        for (int r = 0; r < n; r++) {
            xk[r] = x[k * n + r];
            any |= xk[r] != 0;
            all &= xk[r] != 0;
        }
        if (!any) continue;
        int a = adr[k] + 1;
        if ((N == 3 || N == 4) && all) { /* no side to skip: the first two a vector */
            cs_v2d x01 = cs_i_load2(xk);
            for (int i = par[k]; i >= 0; i = par[i], a++) {
                double *xi = x + (size_t)i * N;
                cs_i_store2(xi, cs_i_load2(xi) - (cs_v2d){q[a], q[a]} * x01);
                xi[2] -= q[a] * xk[2];
                if (N == 4) xi[3] -= q[a] * xk[3];
            }
            continue;
        }
        for (int i = par[k]; i >= 0; i = par[i], a++)
            for (int r = 0; r < n; r++)
                if (xk[r] != 0) x[i * n + r] -= q[a] * xk[r];
    }
    for (int k = lo; k < hi; k++)
        for (int r = 0; r < n; r++) x[k * n + r] *= dinv[k];
    for (int k = lo; k < hi; k++) { /* L^-1 */
        int a = adr[k] + 1;
        if (N == 3 || N == 4) { /* the first two sides a vector, each in the same order */
            double *xk = x + (size_t)k * N;
            cs_v2d s01 = cs_i_load2(xk);
            double s2 = xk[2], s3 = N == 4 ? xk[3] : 0;
            for (int i = par[k]; i >= 0; i = par[i], a++) {
                const double *xi = x + (size_t)i * N;
                s01 -= (cs_v2d){q[a], q[a]} * cs_i_load2(xi);
                s2 -= q[a] * xi[2];
                if (N == 4) s3 -= q[a] * xi[3];
            }
            cs_i_store2(xk, s01);
            xk[2] = s2;
            if (N == 4) xk[3] = s3;
            continue;
        }
        double s[CS_MAXROWS];
        for (int r = 0; r < n; r++) s[r] = x[k * n + r];
        for (int i = par[k]; i >= 0; i = par[i], a++)
            for (int r = 0; r < n; r++) s[r] -= q[a] * x[i * n + r];
        for (int r = 0; r < n; r++) x[k * n + r] = s[r];
    }
}

void cs_mass_solve_rows(const cs_mass *M, double *x, int n, int lo, int hi)
{
    const double *q = M->qLD, *dinv = M->qLDiagInv;
    const int *par = M->dof_parent, *adr = M->dof_Madr;
    if (n == 4) forest_solve_rows(q, par, adr, dinv, x, n, lo, hi, 4); /* pyramidal condim 3 */
    else if (n == 3) forest_solve_rows(q, par, adr, dinv, x, n, lo, hi, 3); /* elliptic */
    else if (n == 1) forest_solve_rows(q, par, adr, dinv, x, n, lo, hi, 1);
    else forest_solve_rows(q, par, adr, dinv, x, n, lo, hi, 0);
}

/* the L^-T pass of forest_solve_rows alone; N > 0 fixes n at compile time */
static inline __attribute__((always_inline)) void
forest_half_rows(const double *q, const int *par, const int *adr, double *x, int n, int lo,
                 int hi, const int N)
{
    if (N > 0) n = N;
    for (int k = hi - 1; k >= lo; k--) {
        double xk[CS_MAXROWS];
        int any = 0;
        for (int r = 0; r < n; r++) any |= (xk[r] = x[k * n + r]) != 0;
        if (!any) continue;
        int a = adr[k] + 1;
        for (int i = par[k]; i >= 0; i = par[i], a++)
            for (int r = 0; r < n; r++) x[i * n + r] -= q[a] * xk[r];
    }
}

void cs_mass_half_solve_rows(const cs_mass *M, double *x, int n, int lo, int hi)
{
    const double *q = M->qLD;
    const int *par = M->dof_parent, *adr = M->dof_Madr;
    if (n == 4) forest_half_rows(q, par, adr, x, n, lo, hi, 4);
    else if (n == 2) forest_half_rows(q, par, adr, x, n, lo, hi, 2);
    else if (n == 1) forest_half_rows(q, par, adr, x, n, lo, hi, 1);
    else forest_half_rows(q, par, adr, x, n, lo, hi, 0);
}

/* forest_half_rows over the dofs off + col[i] alone, from the last; N > 0 fixes n */
static inline __attribute__((always_inline)) void
forest_half_cols(const double *q, const int *par, const int *adr, double *x, int n,
                 const int *col, int m, int off, const int N)
{
    if (N > 0) n = N;
    for (int c = m - 1; c >= 0; c--) {
        int k = off + col[c];
        double xk[CS_MAXROWS];
        int any = 0;
        for (int r = 0; r < n; r++) any |= (xk[r] = x[k * n + r]) != 0;
        if (!any) continue;
        int a = adr[k] + 1;
        if (N == 4) { /* two sides a vector: each element's product and difference as above */
            cs_v2d x0 = cs_i_load2(xk), x1 = cs_i_load2(xk + 2);
            for (int i = par[k]; i >= 0; i = par[i], a++) {
                cs_v2d l = {q[a], q[a]};
                double *xi = x + 4 * (size_t)i;
                cs_i_store2(xi, cs_i_load2(xi) - l * x0);
                cs_i_store2(xi + 2, cs_i_load2(xi + 2) - l * x1);
            }
            continue;
        }
        for (int i = par[k]; i >= 0; i = par[i], a++)
            for (int r = 0; r < n; r++) x[i * n + r] -= q[a] * xk[r];
    }
}

CS_VECTOR_CLONES void cs_mass_half_solve_cols(const cs_mass *M, double *x, int n, const int *col,
                                              int m, int off)
{
    const double *q = M->qLD;
    const int *par = M->dof_parent, *adr = M->dof_Madr;
    if (n == 4) forest_half_cols(q, par, adr, x, n, col, m, off, 4);
    else if (n == 2) forest_half_cols(q, par, adr, x, n, col, m, off, 2);
    else if (n == 1) forest_half_cols(q, par, adr, x, n, col, m, off, 1);
    else forest_half_cols(q, par, adr, x, n, col, m, off, 0);
}

void cs_mass_lower_solve(const cs_mass *M, double *x, int lo, int hi)
{
    const double *q = M->qLD;
    const int *par = M->dof_parent, *adr = M->dof_Madr;
    for (int k = lo; k < hi; k++) {
        int a = adr[k] + 1;
        double s = x[k];
        for (int i = par[k]; i >= 0; i = par[i], a++) s -= q[a] * x[i];
        x[k] = s;
    }
}

int cs_mass_factor(cs_mass *M)
{
    for (int a = 0; a < M->nM; a++) M->qLD[a] = M->qM[a];
    return cs_forest_factor(M->nv, M->qLD, M->dof_parent, M->dof_Madr, M->nM, M->qLDiagInv);
}

void cs_mass_solve(const cs_mass *M, double *x, int lo, int hi)
{
    cs_forest_solve(M->qLD, M->dof_parent, M->dof_Madr, M->qLDiagInv, x, lo, hi);
}

void cs_mass_mul(const cs_mass *M, double *y, const double *x, int lo, int hi)
{
    const double *q = M->qM;
    for (int i = lo; i < hi; i++) y[i] = 0;
    for (int i = lo; i < hi; i++) {
        int a = M->dof_Madr[i];
        double s = q[a] * x[i];
        a++;
        for (int j = M->dof_parent[i]; j >= 0; j = M->dof_parent[j], a++) {
            s += q[a] * x[j];
            y[j] += q[a] * x[i];
        }
        y[i] += s;
    }
}

void cs_mass_row(const cs_mass *M, int i, int lo, double *row)
{
    for (int j = lo; j <= i; j++) row[j - lo] = 0;
    int a = M->dof_Madr[i];
    for (int k = i; k >= lo; k = M->dof_parent[k], a++) row[k - lo] = M->qM[a];
}

double cs_mass_get(const cs_mass *M, int i, int j)
{
    if (j > i) { int t = i; i = j; j = t; }
    int a = M->dof_Madr[i];
    for (int k = i; k >= 0; k = M->dof_parent[k], a++)
        if (k == j) return M->qM[a];
    return 0;
}
