/* The primitives every method may use: the soft response of a block (cs_efc_soft and its
 * directional form), residuals and products of a block's rows, the island's mass operator
 * and primal cost. They call nothing of the driver's or the methods'. */
#include "alloc.h"
#include "solver_internal.h"

#include <math.h>
#include <string.h>

void cs_efc_decode(const cs_efc *e, int k, const double *f, double *force)
{
    memset(force, 0, sizeof(double) * CS_MAXDIM);
    const double *fr = e->blk_friction + 5 * k;
    if (e->blk_kind[k] == CS_BLOCK_PYRAMIDAL) {
        /* docs/contact-math.md §5: f_n = sum of edges, phi_j = mu_j (alpha_j+ - alpha_j-) */
        for (int j = 0; j < e->blk_dim[k] - 1; j++) {
            force[0] += f[2 * j] + f[2 * j + 1];
            force[1 + j] = fr[j] * (f[2 * j] - f[2 * j + 1]);
        }
    } else { /* elliptic: the frame components; frictionless and joint rows: one force */
        for (int j = 0; j < e->blk_nrow[k]; j++) force[j] = f[j];
    }
}

/* A friction-loss row's Huber response (MuJoCo's mj_constraintUpdate_impl,
 * mjCNSTR_FRICTION_DOF): quadratic for |j| < R F, linear (force at the bound, no curvature)
 * beyond, the borders going to the linear zones. */
static cs_zone floss_soft(double j, double R, double F, double *f, double *cost, double *curv)
{
    if (j <= -R * F) {
        *f = F;
        *cost = -0.5 * R * F * F - F * j;
        *curv = 0;
        return CS_ZONE_LINEARNEG;
    }
    if (j >= R * F) {
        *f = -F;
        *cost = -0.5 * R * F * F + F * j;
        *curv = 0;
        return CS_ZONE_LINEARPOS;
    }
    *f = -j / R;
    *cost = 0.5 * j * j / R;
    *curv = 1 / R;
    return CS_ZONE_BOTTOM;
}

cs_zone cs_efc_soft(const cs_efc *e, int k, const double *j, double *f, double *cost,
                    double *hess)
{
    int n = e->blk_nrow[k];
    const double *R = e->R + e->blk_row[k];
    if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
        double curv;
        cs_zone z = floss_soft(j[0], R[0], e->frictionloss[e->blk_row[k]], f, cost, &curv);
        if (hess) hess[0] = curv;
        return z;
    }
    if (e->blk_kind[k] == CS_BLOCK_EQUALITY) { /* bilateral: every row quadratic */
        double c = 0;
        if (hess) memset(hess, 0, sizeof(double) * n * n);
        for (int i = 0; i < n; i++) {
            f[i] = -j[i] / R[i];
            c += 0.5 * j[i] * j[i] / R[i];
            if (hess) hess[i * n + i] = 1 / R[i];
        }
        *cost = c;
        return CS_ZONE_BOTTOM;
    }
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) {
        /* frictionless, pyramid edges, limits */
        if (hess) memset(hess, 0, sizeof(double) * n * n);
        /* independent rows: l = j^2/(2R) for j < 0 */
        double c = 0;
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (j[i] < 0) {
                f[i] = -j[i] / R[i];
                c += 0.5 * j[i] * j[i] / R[i];
                if (hess) hess[i * n + i] = 1 / R[i];
                any = 1;
            } else {
                f[i] = 0;
            }
        }
        *cost = c;
        return any ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    }
    /* elliptic: the §7 closed form (R_j = kappa / friction_j^2, as the rows set them) */
    return cs_soft_cone(n - 1, j, R[0], e->blk_friction + 5 * k, e->blk_kappa[k], f, cost, hess);
}

/* In-place heapsort: glibc's qsort may malloc a merge buffer, and a step allocates
 * nothing. */
static void sift(long long *v, int i, int n)
{
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && v[c + 1] > v[c]) c++;
        if (v[i] >= v[c]) return;
        long long t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

void cs_i_sort_ll(long long *v, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--) sift(v, i, n);
    for (int e = n - 1; e > 0; e--) {
        long long t = v[0];
        v[0] = v[e];
        v[e] = t;
        sift(v, 0, e);
    }
}

cs_zone cs_efc_soft_dir(const cs_efc *e, int k, const double *j, const double *dj, double *fdj,
                        double *djhdj)
{
    int n = e->blk_nrow[k];
    const double *R = e->R + e->blk_row[k];
    if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
        double f, c, curv;
        cs_zone z = floss_soft(j[0], R[0], e->frictionloss[e->blk_row[k]], &f, &c, &curv);
        *fdj = f * dj[0];
        *djhdj = curv * dj[0] * dj[0];
        return z;
    }
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) {
        double a = 0, b = 0;
        int eq = e->blk_kind[k] == CS_BLOCK_EQUALITY;
        for (int i = 0; i < n; i++)
            if (eq || j[i] < 0) {
                a -= j[i] / R[i] * dj[i];
                b += dj[i] * dj[i] / R[i];
            }
        *fdj = a;
        *djhdj = b;
        return b > 0 ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    }
    return cs_soft_cone_dir(n - 1, j, dj, R[0], e->blk_friction + 5 * k, e->blk_kappa[k], fdj,
                            djhdj);
}

/* cs_i_resid and cs_i_block_mul gather a block's nonzero columns of a once up to this many
 * columns (more: row by row) */
#define RESID_GATHER 48

/* u_r = -aref_r + J_r x over block k's nonzero columns, each row summed in column order;
 * aref NULL: from zeros. Any number of rows, row by row. */
static void block_rows_any(const cs_efc *e, int k, const double *aref, const double *x,
                           double *u)
{
    int r0 = e->blk_row[k], n = e->blk_nrow[k], nnz = e->J_rownnz[r0], cnt[2], off[2];
    const int *L = cs_i_nzcols(e, k, cnt, off);
    const double *J = e->J + e->J_rowadr[r0];
    int m = cnt[0] + cnt[1];
    if (!e->blk_nzall[k] && m <= RESID_GATHER) { /* listed columns: x gathered once */
        double xl[RESID_GATHER];
        for (int s = 0, i = 0; s < 2; s++)
            for (int end = i + cnt[s]; i < end; i++) xl[i] = x[off[s] + L[i]];
        for (int r = 0; r < n; r++, J += nnz) {
            double v = aref ? -aref[r] : 0;
            for (int i = 0; i < m; i++) v += J[L[i]] * xl[i];
            u[r] = v;
        }
        return;
    }
    for (int r = 0; r < n; r++, J += nnz) {
        double v = aref ? -aref[r] : 0;
        CS_FOR_BLOCK_COLS(e, k, q, d, v += J[q] * x[d]);
        u[r] = v;
    }
}

/* block_rows_any for N = 3 or 4 rows, all in one pass over the columns */
static inline __attribute__((always_inline)) void
block_rows(const cs_efc *e, int k, const double *aref, const double *x, double *u, const int N)
{
    int r0 = e->blk_row[k], nnz = e->J_rownnz[r0], adr = e->J_rowadr[r0];
    const double *J0 = e->J + adr, *J1 = J0 + nnz, *J2 = J1 + nnz, *J3 = N > 3 ? J2 + nnz : J2;
    double v0 = aref ? -aref[0] : 0, v1 = aref ? -aref[1] : 0, v2 = aref ? -aref[2] : 0,
           v3 = N > 3 && aref ? -aref[3] : 0;
    CS_FOR_BLOCK_COLS(e, k, q, d, {
        double xd = x[d];
        v0 += J0[q] * xd;
        v1 += J1[q] * xd;
        v2 += J2[q] * xd;
        if (N > 3) v3 += J3[q] * xd;
    });
    u[0] = v0;
    u[1] = v1;
    u[2] = v2;
    if (N > 3) u[3] = v3;
}

void cs_i_resid(const cs_efc *e, int k, const double *a, double *j)
{
    int n = e->blk_nrow[k];
    const double *aref = e->aref + e->blk_row[k];
    if (n == 3) block_rows(e, k, aref, a, j, 3);
    else if (n == 4) block_rows(e, k, aref, a, j, 4); /* pyramidal condim 3 */
    else block_rows_any(e, k, aref, a, j);
}

void cs_i_block_mul(const cs_efc *e, int k, const double *v, double *u)
{
    int n = e->blk_nrow[k];
    if (n == 3) block_rows(e, k, NULL, v, u, 3);
    else if (n == 4) block_rows(e, k, NULL, v, u, 4);
    else block_rows_any(e, k, NULL, v, u);
}

void cs_i_add_jt(const cs_efc *e, int k, const double *f, double *v)
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    for (int r = 0; r < e->blk_nrow[k]; r++) {
        if (f[r] == 0) continue;
        const double *J = e->J + adr + r * nnz;
        CS_FOR_BLOCK_COLS(e, k, q, d, v[d] += J[q] * f[r]);
    }
}

/* a += W^T d for N rows, none of d zero, in one pass: each entry takes the rows in order (as
 * row after row would), two entries (distinct columns) to a vector */
static inline __attribute__((always_inline)) void
apply_rows(const double *W, const int *ci, int nnz, const double *d, double *a, const int N)
{
    int q = 0;
    for (; q + 1 < nnz; q += 2) {
        cs_v2d x = {a[ci[q]], a[ci[q + 1]]};
        for (int r = 0; r < N; r++) x += cs_i_load2(W + r * nnz + q) * (cs_v2d){d[r], d[r]};
        a[ci[q]] = x[0];
        a[ci[q + 1]] = x[1];
    }
    for (; q < nnz; q++) {
        double x = a[ci[q]];
        for (int r = 0; r < N; r++) x += W[r * nnz + q] * d[r];
        a[ci[q]] = x;
    }
}

void cs_i_apply(const cs_solver_ws *w, const cs_efc *e, int k, const double *d, double *a)
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    int n = e->blk_nrow[k];
    if (n == 4 && d[0] != 0 && d[1] != 0 && d[2] != 0 && d[3] != 0) {
        apply_rows(w->W + adr, ci, nnz, d, a, 4);
        return;
    }
    if (n == 3 && d[0] != 0 && d[1] != 0 && d[2] != 0) {
        apply_rows(w->W + adr, ci, nnz, d, a, 3);
        return;
    }
    for (int r = 0; r < n; r++) {
        if (d[r] == 0) continue;
        const double *W = w->W + adr + r * nnz; /* rows of a block are contiguous */
        for (int q = 0; q < nnz; q++) a[ci[q]] += W[q] * d[r];
    }
}

void cs_i_mass_mul(const cs_solver_ws *w, const cs_problem *p, int isl, double *y,
                   const double *x)
{
    const cs_mass *M = p->M;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr];
        cs_mass_mul(M, y, x, lo, lo + M->tree_dofnum[tr]);
    }
}

void cs_i_mass_solve(const cs_solver_ws *w, const cs_problem *p, int isl, double *x)
{
    const cs_mass *M = p->M;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr];
        cs_mass_solve(M, x, lo, lo + M->tree_dofnum[tr]);
    }
}

double cs_i_primal(cs_solver_ws *w, const cs_problem *p, int isl, const double *a)
{
    const cs_mass *M = p->M;
    double c = 0, *d = w->s0, *Md = w->s1, j[CS_MAXROWS], f[CS_MAXROWS], l;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr], hi = lo + M->tree_dofnum[tr];
        for (int q = lo; q < hi; q++) d[q] = a[q] - p->a0[q];
        cs_mass_mul(M, Md, d, lo, hi);
        for (int q = lo; q < hi; q++) c += 0.5 * d[q] * Md[q];
    }
    const cs_efc *e = p->efc;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        cs_i_resid(e, k, a, j);
        cs_efc_soft(e, k, j, f, &l, NULL);
        c += l;
    }
    return c;
}

double cs_i_scale(const cs_solver_ws *w, const cs_problem *p, int isl)
{
    (void)w;
    (void)isl;
    int nv = p->M->nv; /* the whole model's, as MuJoCo's PGS takes it on every island */
    return 1 / (p->meaninertia * (nv > 1 ? nv : 1));
}

double cs_i_scale_primal(const cs_solver_ws *w, const cs_problem *p, int isl)
{
    if (!w->o->islands) return cs_i_scale(w, p, isl); /* one problem: MuJoCo's global scale */
    double tr = 0;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) tr += p->M->qM[p->M->dof_Madr[q]];
    return tr > 0 ? 1 / tr : cs_i_scale(w, p, isl);
}

/* In place: A (n x n SPD) -> A^-1 = L^-T L^-1 from its Cholesky factor L (d: n scratch).
 * The preconditioner is applied about a dozen times per factor, so a product beats two
 * triangular solves. L and then L^-1 take A's lower triangle; the product's off-diagonal
 * entries go to the upper triangle and its diagonal to d (neither is read again), then are
 * mirrored. */
/* N > 0 fixes n at compile time (a free body's 6 x 6 blocks, inverted once per tree and
 * solve: the unrolled form takes a fraction of the instructions) */
static inline __attribute__((always_inline)) void invert_spd(int n, double *A, double *d,
                                                             const int N)
{
    if (N > 0) n = N;
    if (cs_i_chol_n(n, A, N)) { /* not PD (cannot happen): the identity */
        for (int i = 0; i < n * n; i++) A[i] = i % (n + 1) == 0;
        return;
    }
    for (int j = 0; j < n; j++) { /* L^-1 column by column, over L: column j reads L's
                                     columns >= j (still L's) and its own rows < i */
        A[j * n + j] = 1 / A[j * n + j];
        for (int i = j + 1; i < n; i++) {
            double s = 0;
            for (int k = j; k < i; k++) s -= A[i * n + k] * A[k * n + j];
            A[i * n + j] = s / A[i * n + i];
        }
    }
    for (int i = 0; i < n; i++) /* A^-1 = Li^T Li: entry (i, j) sums over k >= max(i, j) */
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = i; k < n; k++) s += A[k * n + i] * A[k * n + j];
            if (i == j) d[i] = s;
            else A[j * n + i] = s;
        }
    for (int i = 0; i < n; i++) {
        A[i * n + i] = d[i];
        for (int j = 0; j < i; j++) A[i * n + j] = A[j * n + i];
    }
}

void cs_i_invert_spd(int n, double *A, double *d)
{
    if (n == 6) invert_spd(n, A, d, 6);
    else invert_spd(n, A, d, 0);
}

cs_zone cs_i_soft_force(const cs_efc *e, int k, const double *j, double *f, double *cost)
{
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) return cs_efc_soft(e, k, j, f, cost, NULL);
    double Rn = e->R[e->blk_row[k]], kap = e->blk_kappa[k];
    double rc[5] = {Rn, kap, 1 / Rn, kap > 0 ? 1 / kap : 0, 1 / (Rn + kap)};
    return cs_i_soft_ell(e->blk_nrow[k], j, e->blk_friction + 5 * k, rc, f, cost, 0);
}

/* A method's store stage when its row forces are final: each block's force decoded into the
 * contact frame (zones are the method's own) */
void cs_i_store_decode(void *ws, cs_solver_ws *w, int isl)
{
    (void)ws;
    cs_efc *e = w->p->efc;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        cs_efc_decode(e, k, e->force + e->blk_row[k], e->blk_force + CS_MAXDIM * k);
    }
}

int cs_i_resize(void **p, size_t elem, int n)
{
    void *q = cs_realloc(*p, elem * (size_t)(n > 0 ? n : 1));
    if (!q) return -1;
    *p = q;
    return 0;
}

int cs_i_more(int need) { return need + need / 2 + 16; }
