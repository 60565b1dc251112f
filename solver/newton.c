/* Primal Newton on 1/2 (a - a0)^T M (a - a0) + sum_k l_k(J_k a - a_ref_k)
 * (docs/contact-math.md §7), per island. The Hessian M + sum J_k^T H_k J_k is assembled
 * dense over the island's dofs and Cholesky-factored for islands of up to
 * newton_dense_max dofs; larger islands use matrix-free CG preconditioned with the
 * Hessian's per-tree diagonal blocks. Line search: exact, a bracketed safeguarded Newton
 * on the directional derivative; zones are re-classified at every trial point (the
 * curvature of l jumps across zone borders). Stopping as MuJoCo's Newton: scaled
 * improvement or scaled gradient norm < tolerance. */
#include "solver_internal.h"
#include "alloc.h"

#include <math.h>
#include <string.h>
#define CG_TOL 3e-2 /* inexact Newton: relative CG residual */




/* island trees as dof ranges */
#define FOR_ISLAND_DOFS(w, p, isl, q)                                                     \
    for (int t_ = 0; t_ < (w)->isl_tree_num[isl]; t_++)                                   \
        for (int q = (p)->M->tree_dofadr[(w)->isl_trees[(w)->isl_tree_adr[isl] + t_]],   \
                 e_ = q + (p)->M->tree_dofnum[(w)->isl_trees[(w)->isl_tree_adr[isl] + t_]]; \
             q < e_; q++)

/* Zones where a block's cost has curvature (top: none; a friction-loss row's linear zones:
 * none). */
static int curved(int zone) { return zone == CS_ZONE_BOTTOM || zone == CS_ZONE_MIDDLE; }

/* u = J v for block k (v dof-indexed). */
static void block_mul(const cs_efc *e, int k, const double *v, double *u)
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    for (int r = 0; r < e->blk_nrow[k]; r++) {
        const double *J = e->J + adr + r * nnz;
        double s = 0;
        for (int q = 0; q < nnz; q++) s += J[q] * v[ci[q]];
        u[r] = s;
    }
}

/* The curvature J^T Hl J of block k by its sides (side s: the columns [c_s, c_s + nd_s) of
 * the block's rows, c_0 = 0, c_1 = nd_0): each side's lower triangle is added at D[s] (row
 * stride ld[s]; NULL: left out), and, if X is given, the cross block with the rows of side xs
 * and the columns of the other at X (row stride ldx). Each entry sums over the rows in
 * order. HJ: n x nnz scratch (the thread's, sized by the largest tree). N, ND0, ND1 >= 0 fix
 * the sizes at compile time. */
static inline __attribute__((always_inline)) void
block_curvature(const double *J, int nnz, int n, const double *Hl, const int *ndv,
                double *const *D, const int *ld, double *X, int ldx, int xs, double *HJ,
                const int N, const int ND0, const int ND1)
{
    if (N > 0) n = N;
    int nd[2] = {ND0 >= 0 ? ND0 : ndv[0], ND1 >= 0 ? ND1 : ndv[1]};
    if (ND0 >= 0 && ND1 >= 0) nnz = ND0 + ND1;
    for (int r = 0; r < n; r++)
        for (int q = 0; q < nnz; q++) {
            double v = 0;
            for (int c = 0; c < n; c++) v += Hl[r * n + c] * J[c * nnz + q];
            HJ[r * nnz + q] = v;
        }
    for (int s = 0, c0 = 0; s < 2; c0 += nd[s], s++) {
        if (!D[s]) continue;
        for (int i = 0; i < nd[s]; i++) {
            double *row = D[s] + (size_t)i * ld[s];
            for (int j = 0; j <= i; j++) {
                double v = 0;
                for (int r = 0; r < n; r++) v += J[r * nnz + c0 + i] * HJ[r * nnz + c0 + j];
                row[j] += v;
            }
        }
    }
    if (!X || nd[0] == 0 || nd[1] == 0) return;
    int cr = xs ? nd[0] : 0, cc = xs ? 0 : nd[0];
    for (int i = 0; i < nd[xs]; i++) {
        double *row = X + (size_t)i * ldx;
        for (int j = 0; j < nd[1 - xs]; j++) {
            double v = 0;
            for (int r = 0; r < n; r++) v += J[r * nnz + cr + i] * HJ[r * nnz + cc + j];
            row[j] += v;
        }
    }
}

/* block_curvature for block k, with the common shapes' sizes fixed (condim 3 between free
 * bodies, or a free body and the world); any other shape, any width, takes the general
 * instance. */
static void add_curvature(const cs_efc *e, int k, const double *Hl, double *const *D,
                          const int *ld, double *X, int ldx, int xs, double *HJ)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], nnz = e->J_rownnz[r0];
    const double *J = e->J + e->J_rowadr[r0];
    const int nd[2] = {e->blk_ndof[2 * k], e->blk_ndof[2 * k + 1]};
    if (n == 3 && nd[0] == 6 && nd[1] == 6)
        block_curvature(J, nnz, n, Hl, nd, D, ld, X, ldx, xs, HJ, 3, 6, 6);
    else if (n == 3 && nd[0] == 6 && nd[1] == 0)
        block_curvature(J, nnz, n, Hl, nd, D, ld, X, ldx, xs, HJ, 3, 6, 0);
    else if (n == 3)
        block_curvature(J, nnz, n, Hl, nd, D, ld, X, ldx, xs, HJ, 3, -1, -1);
    else
        block_curvature(J, nnz, n, Hl, nd, D, ld, X, ldx, xs, HJ, 0, -1, -1);
}

/* dense island Hessian (ld x ld, lower triangle) += J^T Hl J of block k; a side's dofs are
 * numbered consecutively in the island (island_order), from dof_local of its first dof */
static void add_jthj(const cs_efc *e, int k, const double *Hl, const int *dof_local, double *dst,
                     int ld, double *HJ)
{
    int m[2];
    double *D[2];
    for (int s = 0; s < 2; s++) {
        int has = e->blk_ndof[2 * k + s] > 0;
        m[s] = has ? dof_local[e->blk_dofadr[2 * k + s]] : 0;
        D[s] = has ? dst + (size_t)m[s] * ld + m[s] : NULL;
    }
    int late = m[1] > m[0]; /* the cross block below the diagonal: the later side's rows */
    const int lds[2] = {ld, ld};
    add_curvature(e, k, Hl, D, lds, dst + (size_t)m[late] * ld + m[1 - late], ld, late, HJ);
}

/* y = A x for a dense n x n block (row-major); free bodies' 6 x 6 unrolled */
static inline void dense_mv(int n, const double *A, const double *x, double *y)
{
    if (n == 6) {
        for (int i = 0; i < 6; i++) {
            const double *a = A + 6 * i;
            y[i] = a[0] * x[0] + a[1] * x[1] + a[2] * x[2] + a[3] * x[3] + a[4] * x[4] + a[5] * x[5];
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
        y[i] = s;
    }
}

/* In place: A (n x n SPD) -> A^-1 = L^-T L^-1 from its Cholesky factor L (d: n scratch).
 * The preconditioner is applied about a dozen times per factor, so a product beats two
 * triangular solves. L and then L^-1 take A's lower triangle; the product's off-diagonal
 * entries go to the upper triangle and its diagonal to d (neither is read again), then are
 * mirrored. */
static void invert_spd(int n, double *A, double *d)
{
    if (cs_i_chol(n, A)) { /* not PD (cannot happen): the identity */
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

/* ---- the island Hessian by trees, for CG ------------------------------------------------
 * H = M + sum_k J_k^T Hl_k J_k couples two trees only where a block joins them, so it is
 * kept as dense per-tree diagonal blocks (Hd) and one dense block per joined pair of trees
 * (Hoff: the rows of the pair's first tree, the columns of its second). Assembled once per
 * Newton step, when the zones fix Hl; every CG product is then a few small dense products
 * instead of a pass over all rows (a box resting on a box: its 4 contacts make one block). */

/* pair key of a two-tree block: (first tree, second tree), first < second */
static long long pair_key(const cs_efc *e, int k, int ntree)
{
    int t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
    if (t0 > t1) { int t = t0; t0 = t1; t1 = t; }
    return (long long)t0 * ntree + t1;
}

/* The island's pairs of trees: fills hp_ord, hp_tree, hp_blk (at the island's positions)
 * and hp_adr (per block); returns the number of pairs, and in *nwide the number of blocks
 * left out of the assembly (hp_adr -2, listed in hp_ord after the pairs' blocks: only when
 * the sort keys would overflow). */
static int build_pairs(cs_solver_ws *w, const cs_problem *p, int isl, int *nwide)
{
    const cs_efc *e = p->efc;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], ntree = p->M->ntree;
    const int *blocks = w->isl_blocks + badr;
    int *ord = w->hp_ord + badr, n = 0, nfree = 0;
    for (int b = 0; b < nbk; b++) { /* the two-tree blocks */
        int k = blocks[b];
        w->hp_adr[k] = -1;
        if (e->blk_tree[2 * k] >= 0 && e->blk_tree[2 * k + 1] >= 0) ord[n++] = b;
    }
    /* sorted by (pair, position); were the keys to overflow, every block is left out of
     * the assembly instead (row by row: right, only slower) */
    long long *key = w->hp_key + badr;
    if ((double)ntree * ntree * nbk >= 9e18) {
        for (int i = 0; i < n; i++) w->hp_adr[blocks[ord[i]]] = -2;
        nfree += n;
        n = 0;
    }
    for (int i = 0; i < n; i++) key[i] = pair_key(e, blocks[ord[i]], ntree) * nbk + ord[i];
    cs_i_sort_ll(key, n);
    for (int i = 0; i < n; i++) ord[i] = (int)(key[i] % nbk);
    for (int b = 0, i = n; b < nbk; b++)
        if (w->hp_adr[blocks[b]] == -2) ord[i++] = b;
    *nwide = nfree;
    int np = 0, *tree = w->hp_tree + 2 * badr, *rng = w->hp_blk + badr + isl;
    for (int i = 0; i < n; i++) {
        int k = blocks[ord[i]];
        long long key = pair_key(e, k, ntree);
        if (i == 0 || key != pair_key(e, blocks[ord[i - 1]], ntree)) {
            rng[np] = i;
            tree[2 * np] = (int)(key / ntree);
            tree[2 * np + 1] = (int)(key % ntree);
            w->hp_adr[k] = w->offadr[k]; /* the pair's block: room of its first block */
            np++;
        } else {
            w->hp_adr[k] = w->hp_adr[blocks[ord[i - 1]]];
        }
    }
    rng[np] = n;
    return np;
}

/* Hd (lower triangles) and Hoff from M and the blocks' current Hl (zones without curvature:
 * nothing). */
static void assemble_blocks(cs_solver_ws *w, cs_thread_ws *th, const cs_problem *p, int isl,
                            int np)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl];
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        double *Hd = w->Hd + w->tree_Padr[tr];
        for (int i = 0; i < nd; i++) {
            w->dof_local[lo + i] = i;
            for (int j = 0; j <= i; j++) Hd[i * nd + j] = cs_mass_get(M, lo + i, lo + j);
        }
    }
    const int *tree = w->hp_tree + 2 * badr;
    for (int i = 0; i < np; i++) {
        int adr = w->hp_adr[w->isl_blocks[badr + w->hp_ord[badr + w->hp_blk[badr + isl + i]]]];
        memset(w->Hoff + adr, 0,
               sizeof(double) * M->tree_dofnum[tree[2 * i]] * M->tree_dofnum[tree[2 * i + 1]]);
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b];
        if (!curved(e->blk_zone[k]) || w->hp_adr[k] == -2) continue;
        /* each side into its tree's block; the cross term, rows of the pair's first tree
         * (side 0's unless the sides came the other way), into the pair's block */
        double *D[2];
        int ld[2];
        for (int s = 0; s < 2; s++) {
            int tr = e->blk_tree[2 * k + s];
            D[s] = tr >= 0 ? w->Hd + w->tree_Padr[tr] : NULL;
            ld[s] = e->blk_ndof[2 * k + s];
        }
        int xs = e->blk_tree[2 * k] > e->blk_tree[2 * k + 1];
        double *X = w->hp_adr[k] >= 0 ? w->Hoff + w->hp_adr[k] : NULL;
        add_curvature(e, k, w->Hl + w->Gadr[k], D, ld, X, ld[1 - xs], xs, th->scr);
    }
    for (int t = 0; t < w->isl_tree_num[isl]; t++) { /* the upper triangles */
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], nd = M->tree_dofnum[tr];
        double *Hd = w->Hd + w->tree_Padr[tr];
        for (int i = 0; i < nd; i++)
            for (int j = i + 1; j < nd; j++) Hd[i * nd + j] = Hd[j * nd + i];
    }
}

/* out = H v over the island from the assembled blocks */
static void hess_mul_blocks(const cs_solver_ws *w, const cs_problem *p, int isl, int np,
                            int nwide, const double *v, double *out)
{
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl];
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        dense_mv(nd, w->Hd + w->tree_Padr[tr], v + lo, out + lo);
    }
    const int *tree = w->hp_tree + 2 * badr;
    for (int i = 0; i < np; i++) {
        int ta = tree[2 * i], tb = tree[2 * i + 1];
        int la = M->tree_dofadr[ta], na = M->tree_dofnum[ta];
        int lb = M->tree_dofadr[tb], nb = M->tree_dofnum[tb];
        const double *O = w->Hoff + w->hp_adr[w->isl_blocks[badr + w->hp_ord[badr + w->hp_blk[badr + isl + i]]]];
        const double *va = v + la, *vb = v + lb;
        double *ya = out + la, *yb = out + lb;
        if (na == 6 && nb == 6) { /* two free bodies */
            double y0 = yb[0], y1 = yb[1], y2 = yb[2], y3 = yb[3], y4 = yb[4], y5 = yb[5];
            for (int r = 0; r < 6; r++) {
                const double *o = O + 6 * r;
                double x = va[r];
                ya[r] += o[0] * vb[0] + o[1] * vb[1] + o[2] * vb[2] + o[3] * vb[3] +
                         o[4] * vb[4] + o[5] * vb[5];
                y0 += o[0] * x;
                y1 += o[1] * x;
                y2 += o[2] * x;
                y3 += o[3] * x;
                y4 += o[4] * x;
                y5 += o[5] * x;
            }
            yb[0] = y0, yb[1] = y1, yb[2] = y2, yb[3] = y3, yb[4] = y4, yb[5] = y5;
            continue;
        }
        for (int r = 0; r < na; r++) {
            double s = 0, x = va[r];
            for (int c = 0; c < nb; c++) {
                s += O[r * nb + c] * vb[c];
                yb[c] += O[r * nb + c] * x;
            }
            ya[r] += s;
        }
    }
    const cs_efc *e = p->efc;
    int n2 = w->hp_blk[badr + isl + np];
    for (int i = n2; i < n2 + nwide; i++) {
        int k = w->isl_blocks[badr + w->hp_ord[badr + i]], n = e->blk_nrow[k];
        if (!curved(e->blk_zone[k])) continue;
        int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
        const int *ci = e->J_colind + adr;
        const double *Hl = w->Hl + w->Gadr[k];
        double u[CS_MAXROWS], hu[CS_MAXROWS];
        block_mul(e, k, v, u);
        for (int r = 0; r < n; r++) {
            hu[r] = 0;
            for (int c = 0; c < n; c++) hu[r] += Hl[r * n + c] * u[c];
        }
        for (int r = 0; r < n; r++) {
            const double *J = e->J + adr + r * nnz;
            for (int q = 0; q < nnz; q++) out[ci[q]] += J[q] * hu[r];
        }
    }
}

/* Large islands: solve H x = -g by conjugate gradients, matrix-free, preconditioned with
 * the per-tree diagonal blocks of H (Cholesky-factored). The exact line search that
 * follows makes an inexact direction safe; CG from 0 always yields a descent direction. */
static void pcg(cs_solver_ws *w, cs_thread_ws *th, const cs_problem *p, int isl, int np,
                int nwide, const double *g, double *x)
{
    const cs_mass *M = p->M;
    int nv = w->nv;
    double *r = w->pcg, *z = r + nv, *d = z + nv, *Hd = d + nv;
    /* the preconditioner: the inverted diagonal blocks */
    assemble_blocks(w, th, p, isl, np);
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], nd = M->tree_dofnum[tr];
        memcpy(w->P + w->tree_Padr[tr], w->Hd + w->tree_Padr[tr], sizeof(double) * nd * nd);
    }
    double rz = 0, g2 = 0;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        double *P = w->P + w->tree_Padr[tr];
        invert_spd(nd, P, th->scr); /* M's block PD plus PSD terms */
        for (int q = lo; q < lo + nd; q++) {
            x[q] = 0;
            r[q] = -g[q];
            z[q] = r[q];
            g2 += g[q] * g[q];
        }
        dense_mv(nd, P, r + lo, z + lo);
        for (int q = lo; q < lo + nd; q++) {
            d[q] = z[q];
            rz += r[q] * z[q];
        }
    }
    for (int it = 0; it < w->isl_nv[isl] + 50; it++) {
        hess_mul_blocks(w, p, isl, np, nwide, d, Hd);
        double dHd = 0, r2 = 0, rzn = 0;
        FOR_ISLAND_DOFS(w, p, isl, q) dHd += d[q] * Hd[q];
        if (!(dHd > 0)) break;
        double al = rz / dHd;
        for (int t = 0; t < w->isl_tree_num[isl]; t++) {
            int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
            int nd = M->tree_dofnum[tr];
            for (int q = lo; q < lo + nd; q++) {
                x[q] += al * d[q];
                r[q] -= al * Hd[q];
                r2 += r[q] * r[q];
                z[q] = r[q];
            }
            dense_mv(nd, w->P + w->tree_Padr[tr], r + lo, z + lo);
            for (int q = lo; q < lo + nd; q++) rzn += r[q] * z[q];
        }
        /* inexact Newton: a relative residual of CG_TOL is enough, since the exact line search
         * and the outer gradient/improvement tests decide convergence */
        if (r2 <= CG_TOL * CG_TOL * g2) break;
        double be = rzn / rz;
        rz = rzn;
        FOR_ISLAND_DOFS(w, p, isl, q) d[q] = z[q] + be * d[q];
    }
}

/* phi'(alpha), phi''(alpha) along dir: uses w->jres (j at alpha = 0) and w->Jd. */
static void line_eval(cs_solver_ws *w, const cs_problem *p, int isl, double alpha, double dMr,
                      double dMd, double *d1, double *d2)
{
    const cs_efc *e = p->efc;
    double s1 = dMr + alpha * dMd, s2 = dMd;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], n = e->blk_nrow[k], r0 = e->blk_row[k];
        const double *jr = w->jres + r0, *Jd = w->Jd + r0;
        double j[CS_MAXROWS], fd, dhd;
        for (int r = 0; r < n; r++) j[r] = jr[r] + alpha * Jd[r];
        cs_efc_soft_dir(e, k, j, Jd, &fd, &dhd);
        s1 -= fd;
        s2 += dhd;
    }
    *d1 = s1;
    *d2 = s2;
}

/* d0: phi'(0) = g . dir, from the gradient at hand */
static double line_search(cs_solver_ws *w, const cs_problem *p, int isl, double dMr, double dMd,
                          double d0)
{
    double lo = 0, hi, a = 1, d1, d2;
    if (!(d0 < 0)) return 0;
    line_eval(w, p, isl, 1, dMr, dMd, &d1, &d2);
    if (d1 <= 0) {
        lo = 1;
        hi = 2;
        for (int k = 0; k < 60; k++) {
            double e1, e2;
            line_eval(w, p, isl, hi, dMr, dMd, &e1, &e2);
            if (e1 > 0) break;
            lo = hi;
            a = hi;
            d1 = e1;
            d2 = e2;
            hi *= 2;
        }
    } else {
        hi = 1;
    }
    for (int k = 0; k < 60; k++) {
        if (fabs(d1) <= 1e-14 * fabs(d0) || hi - lo <= 1e-15 * hi) break;
        double an = d2 > 0 ? a - d1 / d2 : 0.5 * (lo + hi);
        if (!(an > lo && an < hi)) an = 0.5 * (lo + hi);
        a = an;
        line_eval(w, p, isl, a, dMr, dMd, &d1, &d2);
        if (d1 > 0) hi = a; else lo = a;
    }
    return a;
}

void cs_i_newton(cs_solver_ws *w, cs_thread_ws *t, int isl)
{
    const cs_problem *p = w->p;
    cs_island_stats *st = &w->ist[isl];
    double *a = w->a;
    if (w->a_warm) { /* keep the warm acceleration if its primal cost beats a0's */
        double c0 = cs_i_primal(w, p, isl, a), cw = cs_i_primal(w, p, isl, w->a_warm);
        if (cw < c0) {
            FOR_ISLAND_DOFS(w, p, isl, q) a[q] = w->a_warm[q];
            st->warm_used = 1;
        }
    }
    st->iterations = cs_i_newton_iterate(w, t, isl, w->o->max_iter, 1);
}

/* Island-local dof numbers for the dense Hessian: trees in breadth-first order over the
 * trees they touch through contacts (a chain or a heap of bodies then has a narrow band,
 * and the factor works only inside its envelope). */
static void island_order(cs_solver_ws *w, const cs_problem *p, int isl)
{
    const cs_mass *M = p->M;
    int adr = w->isl_tree_adr[isl], num = w->isl_tree_num[isl], n = 0, head = 0, tail = 0;
    int *queue = w->tnext;
    for (int i = 0; i < num; i++) w->uf[w->isl_trees[adr + i]] = 0; /* not yet queued */
    for (int i = 0; i < num; i++) {
        int r = w->isl_trees[adr + i];
        if (w->uf[r]) continue;
        w->uf[r] = 1;
        queue[adr + tail++] = r;
        while (head < tail) {
            int t = queue[adr + head++];
            for (int q = M->tree_dofadr[t]; q < M->tree_dofadr[t] + M->tree_dofnum[t]; q++)
                w->dof_local[q] = n++;
            for (int a = w->tadjadr[t]; a < w->tadjadr[t + 1]; a++) {
                int u = w->tadj[a];
                if (!w->uf[u]) {
                    w->uf[u] = 1;
                    queue[adr + tail++] = u;
                }
            }
        }
    }
}

/* Larger islands are factored densely too when their breadth-first numbering keeps the
 * factor's envelope narrow (a stack, a chain, a row of bodies): the factor then costs less
 * than the CG iterations would, which on a tall stack are many. Up to NARROW_MAX dofs (the
 * dense storage is NARROW_MAX^2 doubles a thread). */
#define NARROW_MAX 768

/* After island_order: is the envelope factor (plus clearing the dense storage) cheaper than
 * about 15 CG products over the tree and pair blocks? Each tree's rows start at the
 * smallest local dof that any of its blocks reaches. Uses w->uf for the island's trees. */
static int narrow(cs_solver_ws *w, const cs_problem *p, int isl)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int adr = w->isl_tree_adr[isl], nt = w->isl_tree_num[isl], nv = w->isl_nv[isl];
    int badr = w->isl_block_adr[isl];
    for (int i = 0; i < nt; i++) {
        int tr = w->isl_trees[adr + i];
        w->uf[tr] = w->dof_local[M->tree_dofadr[tr]];
    }
    double cg = 10.0 * nv;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b], t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 < 0 || t1 < 0) continue;
        /* the later tree's rows reach back to the earlier tree's first dof */
        int s0 = w->dof_local[M->tree_dofadr[t0]], s1 = w->dof_local[M->tree_dofadr[t1]];
        int m = s0 < s1 ? s0 : s1;
        if (m < w->uf[t0]) w->uf[t0] = m;
        if (m < w->uf[t1]) w->uf[t1] = m;
        cg += 2.0 * e->blk_ndof[2 * k] * e->blk_ndof[2 * k + 1];
    }
    double fac = 0.5 * (double)nv * nv;
    for (int i = 0; i < nt; i++) {
        int tr = w->isl_trees[adr + i], s = w->dof_local[M->tree_dofadr[tr]];
        cg += (double)M->tree_dofnum[tr] * M->tree_dofnum[tr];
        for (int q = 0; q < M->tree_dofnum[tr]; q++) {
            double wd = s + q - w->uf[tr] + 1;
            fac += 0.5 * wd * wd;
        }
    }
    return fac <= 15 * cg;
}

/* The thread's dense storage for n dofs; -1 (CG then) if it cannot grow. */
static int grow_dense(cs_thread_ws *t, int n)
{
    if (n <= t->cap) return 0;
    double *H = cs_realloc(t->H, sizeof(double) * ((size_t)n * n + 1));
    if (!H) return -1;
    t->H = H;
    double *x = cs_realloc(t->x, sizeof(double) * ((size_t)n + 1));
    if (!x) return -1;
    t->x = x;
    int *f = cs_realloc(t->first, sizeof(int) * ((size_t)n + 1));
    if (!f) return -1;
    t->first = f;
    t->cap = n;
    return 0;
}

int cs_i_newton_iterate(cs_solver_ws *w, cs_thread_ws *t, int isl, int max_iter, int first_step)
{
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], nv = w->isl_nv[isl];
    double *a = w->a, *g = w->grad, *dir = w->dir, *Md = w->Mdir, *H;
    double scale = cs_i_scale(w, p, isl), cost = 0;
    int dmax = o->newton_dense_max == 0 ? w->dmax : o->newton_dense_max;
    if (dmax > w->dmax) dmax = w->dmax;
    int dense = nv <= dmax, narrow_ok = o->newton_dense_max == 0 && nv <= NARROW_MAX;
    int np = 0, nwide = 0;
    if (dense || narrow_ok) island_order(w, p, isl);
    if (!dense && narrow_ok && narrow(w, p, isl) && grow_dense(t, nv) == 0) dense = 1;
    if (!dense) np = build_pairs(w, p, isl, &nwide);
    H = t->H; /* after any growth */
    st->newton_dense = dense ? 1 : 2;
    int iter = 0, at_a = 0; /* at_a: e->force holds the soft-cone forces at a */
    while (iter < max_iter) {
        /* at a: the cost (summed as cs_i_primal does), the gradient M (a - a0) - J^T f, the
         * forces and the block Hessians of the soft-cone costs */
        double c = 0;
        FOR_ISLAND_DOFS(w, p, isl, q) w->tmp[q] = a[q] - p->a0[q];
        cs_i_mass_mul(w, p, isl, g, w->tmp);
        FOR_ISLAND_DOFS(w, p, isl, q) c += 0.5 * w->tmp[q] * g[q];
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
            int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
            const int *ci = e->J_colind + adr;
            double *f = e->force + r0, l;
            cs_i_resid(e, k, a, w->jres + r0);
            e->blk_zone[k] = cs_efc_soft(e, k, w->jres + r0, f, &l, w->Hl + w->Gadr[k]);
            c += l;
            for (int r = 0; r < e->blk_nrow[k]; r++) {
                const double *J = e->J + adr + r * nnz;
                for (int q = 0; q < nnz; q++) g[ci[q]] -= J[q] * f[r];
            }
        }
        at_a = 1;
        if (iter > 0) {
            st->improvement = scale * (cost - c);
            if (st->improvement < o->tolerance) break;
        }
        cost = c;
        double gn = 0;
        FOR_ISLAND_DOFS(w, p, isl, q) gn += g[q] * g[q];
        /* as MuJoCo: always attempt one Newton step, test the gradient only after it (a
         * warm start that already meets the tolerance would otherwise keep its forces,
         * which lag the optimum by up to the tolerance step after step) */
        if ((iter > 0 || !first_step) && scale * sqrt(gn) < o->tolerance) break;
        if (dense) {
            /* H = M + sum J^T Hl J over the island's dofs (lower triangle), Cholesky */
            for (int i = 0; i < nv; i++) /* the factor reads the lower triangle only */
                memset(H + (size_t)i * nv, 0, sizeof(double) * (size_t)(i + 1));
            for (int tt = 0; tt < w->isl_tree_num[isl]; tt++) {
                int tr = w->isl_trees[w->isl_tree_adr[isl] + tt], lo = p->M->tree_dofadr[tr];
                for (int i = lo; i < lo + p->M->tree_dofnum[tr]; i++)
                    for (int j = lo; j <= i; j++)
                        H[w->dof_local[i] * nv + w->dof_local[j]] = cs_mass_get(p->M, i, j);
            }
            for (int b = 0; b < nbk; b++) {
                int k = w->isl_blocks[badr + b];
                if (curved(e->blk_zone[k]))
                    add_jthj(e, k, w->Hl + w->Gadr[k], w->dof_local, H, nv, t->scr);
            }
            if (cs_i_chol_env(nv, H, t->first)) break; /* cannot occur with M PD */
            double *x = t->x;
            FOR_ISLAND_DOFS(w, p, isl, q) x[w->dof_local[q]] = -g[q];
            cs_i_chol_env_solve(nv, H, t->first, x);
            FOR_ISLAND_DOFS(w, p, isl, q) dir[q] = x[w->dof_local[q]];
        } else {
            pcg(w, t, p, isl, np, nwide, g, dir);
        }
        cs_i_mass_mul(w, p, isl, Md, dir);
        double dMr = 0, dMd = 0, d0 = 0;
        FOR_ISLAND_DOFS(w, p, isl, q) {
            dMr += Md[q] * (a[q] - p->a0[q]);
            dMd += Md[q] * dir[q];
            d0 += g[q] * dir[q];
        }
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b];
            block_mul(e, k, dir, w->Jd + e->blk_row[k]);
        }
        double alpha = line_search(w, p, isl, dMr, dMd, d0);
        iter++;
        if (alpha == 0) break;
        FOR_ISLAND_DOFS(w, p, isl, q) a[q] += alpha * dir[q];
        at_a = 0;
    }
    if (!at_a) { /* stopped by the iteration limit: the cost and forces at the final a */
        double nc = cs_i_primal(w, p, isl, a);
        if (iter > 0) st->improvement = scale * (cost - nc);
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
            double l;
            cs_i_resid(e, k, a, w->jres + r0);
            cs_efc_soft(e, k, w->jres + r0, e->force + r0, &l, NULL);
        }
    }
    return iter;
}
