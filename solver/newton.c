/* Primal Newton on 1/2 (a - a0)^T M (a - a0) + sum_k l_k(J_k a - a_ref_k)
 * (docs/contact-math.md §7), per island. The Hessian M + sum J_k^T H_k J_k is assembled
 * dense over the island's dofs and Cholesky-factored for islands of up to
 * newton_dense_max dofs; larger islands use matrix-free CG preconditioned with the
 * Hessian's per-tree diagonal blocks. Line search: exact (primal.c), a bracketed
 * safeguarded Newton on the directional derivative; zones are re-classified at every trial
 * point (the curvature of l jumps across zone borders). Stopping as MuJoCo's Newton:
 * scaled improvement or scaled gradient norm < tolerance; newton_early (MuJoCo 3.12): the
 * scaled Newton decrement < tolerance after a step, and at the warm start scaled gradient and
 * scaled gap or decrement < tolerance. */
#include "solver_internal.h"
#include "alloc.h"

#include <math.h>
#include <string.h>

/* Inexact Newton for large islands: CG stops at this relative residual. Enough, since the
 * exact line search makes any descent direction safe and the outer gradient and
 * improvement tests decide convergence; a direction within 3% of Newton's keeps its fast
 * local convergence. */
#define CG_TOL 3e-2
/* CG's iteration cap beyond the island's dofs (exact arithmetic needs at most nv) */
#define CG_EXTRA_ITER 50
/* Islands of up to DENSE_MAX dofs are factored densely (newton_dense_max = 0): at most
 * nv^3/6 = 1.2 Mflop a factor, and DENSE_MAX^2 doubles (288 KiB) of storage a thread. */
#define DENSE_MAX 192
/* Larger islands are factored densely too when their breadth-first numbering keeps the
 * factor's envelope narrow (a stack, a chain, a row of bodies): the factor then costs less
 * than the CG iterations would, which on a tall stack are many. Up to NARROW_MAX dofs (the
 * dense storage is NARROW_MAX^2 doubles a thread, 4.5 MiB). */
#define NARROW_MAX 768
/* narrow(): the envelope factor is chosen when it costs at most NARROW_CG_PRODUCTS CG
 * products over the tree and pair blocks (about what a CG solve to CG_TOL takes); a
 * product's flops are counted as its dense blocks' entries plus CG_VECTOR_FLOPS per dof
 * for the vector updates of an iteration, the factor's as half the squared width of each
 * row's envelope plus clearing the nv^2 / 2 storage */
#define NARROW_CG_PRODUCTS 15
#define CG_VECTOR_FLOPS 10.0

/* per thread: the dense Hessian and the curvature scratch */
typedef struct {
    double *H;   /* dense island Hessian, cap^2 */
    double *x;   /* island-local vector, cap */
    int *first;  /* the dense factor's envelope, cap */
    int *tree;   /* the tree factor's forest: parent, depth and row start per local dof,
                    3 (cap + 1) (its rows live in H) */
    int cap;     /* dofs the four hold: dmax, grown for narrow islands */
    double *scr; /* a block's Hl J (CS_MAXROWS x two trees' dofs) with its nonzero columns
                    (ints, after them), and a tree's preconditioner inversion;
                    2 (CS_MAXROWS + 1) maxtd */
    int eval_isl;     /* the island whose warm start left its evaluation at a (cost, gradient,
                         residuals, forces, zones, Hl) for the first iteration; -1 none */
    double eval_cost; /* its cost */
} nthread;

typedef struct {
    int nv, ntree;
    int dmax;                 /* dense limit in dofs (DENSE_MAX, or nv when smaller) */
    int maxtd;                /* the largest tree's dofs the thread scratch holds */
    /* per dof */
    double *grad, *dir, *Mdir, *d, *pcg; /* pcg: 4 nv */
    int *dof_local;
    /* per tree */
    int *mark, *queue, *tree_Padr; /* island_order's marks and queue; preconditioner block */
    int *tpar, *toff;         /* tree_plan's estimate: a tree's parent tree, dofs above it */
    double *P;                /* CG: per-tree dense blocks (preconditioner) */
    double *Hd;               /* CG: the Hessian's per-tree diagonal blocks, as P */
    /* per step: per row, per block */
    int cap_efc, cap_G, cap_block, cap_off;
    double *jres, *Jd;        /* per row: J a - a_ref, J dir */
    double *Hl;               /* per block nrow^2 at Gadr: the soft-cone Hessians */
    double *Hf;               /* as Hl: the curvature the tree factor holds (0 where a block
                                 had none when it was made) */
    double *quad;             /* the line search's data, CS_LINE_QUAD_BLOCK a block */
    size_t cap_quad;
    /* CG: the Hessian's off-diagonal blocks, one per pair of trees that rows join
     * (blocks in island order by position, as isl_blocks) */
    int *hp_ord;              /* per position: the island's two-tree blocks, sorted by pair */
    int *hp_tree;             /* 2 per pair (by position of its first block): trees */
    int *hp_blk;              /* per pair: position range of its blocks in hp_ord */
    int *hp_adr;              /* per block: offset of its pair's block in Hoff, or -1 */
    long long *hp_key;        /* per position: sort keys */
    int *offadr;              /* per block: room in Hoff (nd0 nd1 each, in block order) */
    int *coladr, *colnum;     /* tree factor, per block: its nonzero columns' room in cols
                                 (2 (nd0 + nd1): positions, then local dofs) and count */
    int *cols;
    int cap_cols;
    double *Hoff;
    /* threads */
    int nthread;
    nthread *th;
} newton_ws;

/* Zones where a block's cost has curvature (top: none; a friction-loss row's linear zones:
 * none). */
static int curved(int zone) { return zone == CS_ZONE_BOTTOM || zone == CS_ZONE_MIDDLE; }

/* The curvature J^T Hl J of block k by its sides (side s: the columns [c_s, c_s + nd_s) of
 * the block's rows, c_0 = 0, c_1 = nd_0): each side's lower triangle is added at D[s] (row
 * stride ld[s]; NULL: left out), and, if X is given, the cross block with the rows of side xs
 * and the columns of the other at X (row stride ldx). Each entry sums over the rows in
 * order. HJ: n x nnz scratch (the thread's, sized by the largest tree). N, ND0, ND1 >= 0 fix
 * the sizes at compile time. */
static inline __attribute__((always_inline)) void
block_curvature(const double *J, int nnz, int n, const double *Hl, const int *ndv,
                const int *nzv, double *const *D, const int *ld, double *X, int ldx, int xs,
                double *HJ, const int N, const int ND0, const int ND1)
{
    if (N > 0) n = N;
    int nd[2] = {ND0 >= 0 ? ND0 : ndv[0], ND1 >= 0 ? ND1 : ndv[1]};
    /* the columns past a side's last nonzero (nz) add exact zeros: left out */
    int nz[2] = {ND0 >= 0 ? ND0 : nzv[0], ND1 >= 0 ? ND1 : nzv[1]};
    if (ND0 >= 0 && ND1 >= 0) nnz = ND0 + ND1;
    for (int s = 0, c0 = 0; s < 2; c0 += nd[s], s++)
        for (int r = 0; r < n; r++)
            for (int q = c0; q < c0 + nz[s]; q++) {
                double v = 0;
                for (int c = 0; c < n; c++) v += Hl[r * n + c] * J[c * nnz + q];
                HJ[r * nnz + q] = v;
            }
    if (N == 3) { /* the same sums, j innermost over contiguous HJ (vectorisable) */
        for (int s = 0, c0 = 0; s < 2; c0 += nd[s], s++) {
            if (!D[s]) continue;
            const double *H0 = HJ + c0, *H1 = HJ + nnz + c0, *H2 = HJ + 2 * nnz + c0;
            for (int i = 0; i < nz[s]; i++) {
                double *restrict row = D[s] + (size_t)i * ld[s];
                double a0 = J[c0 + i], a1 = J[nnz + c0 + i], a2 = J[2 * nnz + c0 + i];
                for (int j = 0; j <= i; j++) row[j] += a0 * H0[j] + a1 * H1[j] + a2 * H2[j];
            }
        }
        if (!X || nd[0] == 0 || nd[1] == 0) return;
        int cr = xs ? nd[0] : 0, cc = xs ? 0 : nd[0];
        const double *H0 = HJ + cc, *H1 = HJ + nnz + cc, *H2 = HJ + 2 * nnz + cc;
        for (int i = 0; i < nz[xs]; i++) {
            double *restrict row = X + (size_t)i * ldx;
            double a0 = J[cr + i], a1 = J[nnz + cr + i], a2 = J[2 * nnz + cr + i];
            for (int j = 0; j < nz[1 - xs]; j++) row[j] += a0 * H0[j] + a1 * H1[j] + a2 * H2[j];
        }
        return;
    }
    for (int s = 0, c0 = 0; s < 2; c0 += nd[s], s++) {
        if (!D[s]) continue;
        for (int i = 0; i < nz[s]; i++) {
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
    for (int i = 0; i < nz[xs]; i++) {
        double *row = X + (size_t)i * ldx;
        for (int j = 0; j < nz[1 - xs]; j++) {
            double v = 0;
            for (int r = 0; r < n; r++) v += J[r * nnz + cr + i] * HJ[r * nnz + cc + j];
            row[j] += v;
        }
    }
}

/* block_curvature over the block's nonzero columns only (idx: per side, ascending, cnt of
 * them): a row on a long chain or a branched tree (a foot's contact on a humanoid, a joint
 * limit) touches few of the tree's dofs. The same sums in the same order as the dense
 * instances; the columns left out would add exact zeros. */
static void sparse_curvature(const double *J, int nnz, int n, const double *Hl, const int *nd,
                             const int *const *idx, const int *cnt, double *const *D,
                             const int *ld, double *X, int ldx, int xs, double *HJ)
{
    for (int s = 0, c0 = 0; s < 2; c0 += nd[s], s++)
        for (int r = 0; r < n; r++)
            for (int a = 0; a < cnt[s]; a++) {
                int q = c0 + idx[s][a];
                double v = 0;
                for (int c = 0; c < n; c++) v += Hl[r * n + c] * J[c * nnz + q];
                HJ[r * nnz + q] = v;
            }
    for (int s = 0, c0 = 0; s < 2; c0 += nd[s], s++) {
        if (!D[s]) continue;
        for (int a = 0; a < cnt[s]; a++) {
            int i = idx[s][a];
            double *row = D[s] + (size_t)i * ld[s];
            for (int b = 0; b <= a; b++) {
                int j = idx[s][b];
                double v = 0;
                for (int r = 0; r < n; r++) v += J[r * nnz + c0 + i] * HJ[r * nnz + c0 + j];
                row[j] += v;
            }
        }
    }
    if (!X || nd[0] == 0 || nd[1] == 0) return;
    int cr = xs ? nd[0] : 0, cc = xs ? 0 : nd[0];
    for (int a = 0; a < cnt[xs]; a++) {
        int i = idx[xs][a];
        double *row = X + (size_t)i * ldx;
        for (int b = 0; b < cnt[1 - xs]; b++) {
            int j = idx[1 - xs][b];
            double v = 0;
            for (int r = 0; r < n; r++) v += J[r * nnz + cr + i] * HJ[r * nnz + cc + j];
            row[j] += v;
        }
    }
}

/* block_curvature for condim-3 rows on free bodies (two, or one and the world: nd1 6 or
 * 0), two columns at a time: the same sums in the same order. A side's rows are made whole
 * and their lower parts added. */
static inline __attribute__((always_inline)) void
curvature3_free(const double *J, const double *Hl, int nd1, double *const *D, const int *ld,
                double *X, int ldx, int xs, double *HJ)
{
    const int nnz = 6 + nd1;
    for (int r = 0; r < 3; r++) {
        cs_v2d h0 = {Hl[3 * r], Hl[3 * r]}, h1 = {Hl[3 * r + 1], Hl[3 * r + 1]};
        cs_v2d h2 = {Hl[3 * r + 2], Hl[3 * r + 2]};
        for (int q = 0; q < nnz; q += 2) {
            cs_v2d v = {0, 0};
            v += h0 * cs_i_load2(J + q);
            v += h1 * cs_i_load2(J + nnz + q);
            v += h2 * cs_i_load2(J + 2 * nnz + q);
            cs_i_store2(HJ + r * nnz + q, v);
        }
    }
    for (int s = 0; s < (nd1 ? 2 : 1); s++) {
        if (!D[s]) continue;
        int c0 = 6 * s;
        const double *H0 = HJ + c0, *H1 = HJ + nnz + c0, *H2 = HJ + 2 * nnz + c0;
        for (int i = 0; i < 6; i++) {
            cs_v2d a0 = {J[c0 + i], J[c0 + i]}, a1 = {J[nnz + c0 + i], J[nnz + c0 + i]};
            cs_v2d a2 = {J[2 * nnz + c0 + i], J[2 * nnz + c0 + i]};
            double t[6], *row = D[s] + (size_t)i * ld[s];
            for (int j = 0; j < 6; j += 2)
                cs_i_store2(t + j, a0 * cs_i_load2(H0 + j) + a1 * cs_i_load2(H1 + j) +
                                       a2 * cs_i_load2(H2 + j));
            for (int j = 0; j <= i; j++) row[j] += t[j];
        }
    }
    if (!X || nd1 == 0) return;
    int cr = xs ? 6 : 0, cc = xs ? 0 : 6;
    const double *H0 = HJ + cc, *H1 = HJ + nnz + cc, *H2 = HJ + 2 * nnz + cc;
    for (int i = 0; i < 6; i++) {
        cs_v2d a0 = {J[cr + i], J[cr + i]}, a1 = {J[nnz + cr + i], J[nnz + cr + i]};
        cs_v2d a2 = {J[2 * nnz + cr + i], J[2 * nnz + cr + i]};
        double *row = X + (size_t)i * ldx;
        for (int j = 0; j < 6; j += 2)
            cs_i_store2(row + j, cs_i_load2(row + j) + (a0 * cs_i_load2(H0 + j) +
                                                        a1 * cs_i_load2(H1 + j) +
                                                        a2 * cs_i_load2(H2 + j)));
    }
}

/* block_curvature for block k, with the common shapes' sizes fixed (condim 3 between free
 * bodies, or a free body and the world); any other shape, any width, takes the general
 * instance, or the sparse one when at most half of its columns are nonzero. HJ: the
 * thread's scratch, (CS_MAXROWS + 1) x the block's columns. */
CS_VECTOR_CLONES static void add_curvature(const cs_efc *e, int k, const double *Hl, double *const *D,
                          const int *ld, double *X, int ldx, int xs, double *HJ)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], nnz = e->J_rownnz[r0];
    const double *J = e->J + e->J_rowadr[r0];
    const int nd[2] = {e->blk_ndof[2 * k], e->blk_ndof[2 * k + 1]};
    const int nz[2] = {e->blk_nzdof[2 * k], e->blk_nzdof[2 * k + 1]};
    int whole = nz[0] == nd[0] && nz[1] == nd[1];
    if (nz[0] + nz[1] > 12) {
        int *col = (int *)(HJ + (size_t)CS_MAXROWS * nnz), cnt[2] = {0, 0};
        const int *idx[2] = {col, col + nz[0]};
        int half = (nz[0] + nz[1]) / 2, dense = 0; /* more than half nonzero: stop looking */
        for (int s = 0, c0 = 0; s < 2 && !dense; c0 += nd[s], s++)
            for (int q = 0; q < nz[s] && !dense; q++) {
                int any = 0;
                for (int r = 0; r < n && !any; r++) any = J[r * nnz + c0 + q] != 0;
                if (any) col[(s ? nz[0] : 0) + cnt[s]++] = q;
                dense = cnt[0] + cnt[1] > half;
            }
        if (!dense) {
            sparse_curvature(J, nnz, n, Hl, nd, idx, cnt, D, ld, X, ldx, xs, HJ);
            return;
        }
    }
    if (n == 3 && whole && nd[0] == 6 && (nd[1] == 6 || nd[1] == 0))
        curvature3_free(J, Hl, nd[1], D, ld, X, ldx, xs, HJ);
    else if (n == 3)
        block_curvature(J, nnz, n, Hl, nd, nz, D, ld, X, ldx, xs, HJ, 3, -1, -1);
    else
        block_curvature(J, nnz, n, Hl, nd, nz, D, ld, X, ldx, xs, HJ, 0, -1, -1);
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
static int build_pairs(newton_ws *nw, cs_solver_ws *w, const cs_problem *p, int isl, int *nwide)
{
    const cs_efc *e = p->efc;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], ntree = p->M->ntree;
    const int *blocks = w->isl_blocks + badr;
    int *ord = nw->hp_ord + badr, n = 0, nfree = 0;
    for (int b = 0; b < nbk; b++) { /* the two-tree blocks */
        int k = blocks[b];
        nw->hp_adr[k] = -1;
        if (e->blk_tree[2 * k] >= 0 && e->blk_tree[2 * k + 1] >= 0) ord[n++] = b;
    }
    /* sorted by (pair, position); were the keys to overflow, every block is left out of
     * the assembly instead (row by row: right, only slower) */
    long long *key = nw->hp_key + badr;
    if ((double)ntree * ntree * nbk >= 9e18) {
        for (int i = 0; i < n; i++) nw->hp_adr[blocks[ord[i]]] = -2;
        nfree += n;
        n = 0;
    }
    for (int i = 0; i < n; i++) key[i] = pair_key(e, blocks[ord[i]], ntree) * nbk + ord[i];
    cs_i_sort_ll(key, n);
    for (int i = 0; i < n; i++) ord[i] = (int)(key[i] % nbk);
    for (int b = 0, i = n; b < nbk; b++)
        if (nw->hp_adr[blocks[b]] == -2) ord[i++] = b;
    *nwide = nfree;
    int np = 0, *tree = nw->hp_tree + 2 * badr, *rng = nw->hp_blk + badr + isl;
    for (int i = 0; i < n; i++) {
        int k = blocks[ord[i]];
        long long key = pair_key(e, k, ntree);
        if (i == 0 || key != pair_key(e, blocks[ord[i - 1]], ntree)) {
            rng[np] = i;
            tree[2 * np] = (int)(key / ntree);
            tree[2 * np + 1] = (int)(key % ntree);
            nw->hp_adr[k] = nw->offadr[k]; /* the pair's block: room of its first block */
            np++;
        } else {
            nw->hp_adr[k] = nw->hp_adr[blocks[ord[i - 1]]];
        }
    }
    rng[np] = n;
    return np;
}

/* Hd (lower triangles) and Hoff from M and the blocks' current Hl (zones without curvature:
 * nothing). */
static void assemble_blocks(newton_ws *nw, cs_solver_ws *w, nthread *th, const cs_problem *p, int isl,
                            int np)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl];
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        double *Hd = nw->Hd + nw->tree_Padr[tr];
        for (int i = 0; i < nd; i++) {
            nw->dof_local[lo + i] = i;
            cs_mass_row(M, lo + i, lo, Hd + i * nd);
        }
    }
    const int *tree = nw->hp_tree + 2 * badr;
    for (int i = 0; i < np; i++) {
        int adr = nw->hp_adr[w->isl_blocks[badr + nw->hp_ord[badr + nw->hp_blk[badr + isl + i]]]];
        memset(nw->Hoff + adr, 0,
               sizeof(double) * M->tree_dofnum[tree[2 * i]] * M->tree_dofnum[tree[2 * i + 1]]);
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b];
        if (!curved(e->blk_zone[k]) || nw->hp_adr[k] == -2) continue;
        /* each side into its tree's block; the cross term, rows of the pair's first tree
         * (side 0's unless the sides came the other way), into the pair's block */
        double *D[2];
        int ld[2];
        for (int s = 0; s < 2; s++) {
            int tr = e->blk_tree[2 * k + s];
            D[s] = tr >= 0 ? nw->Hd + nw->tree_Padr[tr] : NULL;
            ld[s] = e->blk_ndof[2 * k + s];
        }
        int xs = e->blk_tree[2 * k] > e->blk_tree[2 * k + 1];
        double *X = nw->hp_adr[k] >= 0 ? nw->Hoff + nw->hp_adr[k] : NULL;
        add_curvature(e, k, nw->Hl + w->Gadr[k], D, ld, X, ld[1 - xs], xs, th->scr);
    }
    for (int t = 0; t < w->isl_tree_num[isl]; t++) { /* the upper triangles */
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], nd = M->tree_dofnum[tr];
        double *Hd = nw->Hd + nw->tree_Padr[tr];
        for (int i = 0; i < nd; i++)
            for (int j = i + 1; j < nd; j++) Hd[i * nd + j] = Hd[j * nd + i];
    }
}

/* out = H v over the island from the assembled blocks; z given: first v = z + be v (CG's
 * next direction, made tree by tree with the diagonal blocks' products) */
static void hess_mul_blocks(const newton_ws *nw, const cs_solver_ws *w, const cs_problem *p, int isl, int np,
                            int nwide, double *v, const double *z, double be, double *out)
{
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl];
    cs_v2d bb = {be, be};
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        if (z && nd == 6) {
            for (int q = lo; q < lo + 6; q += 2)
                cs_i_store2(v + q, cs_i_load2(z + q) + bb * cs_i_load2(v + q));
        } else if (z) {
            for (int q = lo; q < lo + nd; q++) v[q] = z[q] + be * v[q];
        }
        if (nd == 6) cs_i_sym6_mv(nw->Hd + nw->tree_Padr[tr], v + lo, out + lo); /* symmetric */
        else cs_i_dense_mv(nd, nw->Hd + nw->tree_Padr[tr], v + lo, out + lo);
    }
    const int *tree = nw->hp_tree + 2 * badr;
    for (int i = 0; i < np; i++) {
        int ta = tree[2 * i], tb = tree[2 * i + 1];
        int la = M->tree_dofadr[ta], na = M->tree_dofnum[ta];
        int lb = M->tree_dofadr[tb], nb = M->tree_dofnum[tb];
        const double *O = nw->Hoff + nw->hp_adr[w->isl_blocks[badr + nw->hp_ord[badr + nw->hp_blk[badr + isl + i]]]];
        const double *va = v + la, *vb = v + lb;
        double *ya = out + la, *yb = out + lb;
        if (na == 6 && nb == 6) { /* two free bodies; yb by O's rows, two entries at a time */
            cs_v2d y0 = cs_i_load2(yb), y1 = cs_i_load2(yb + 2), y2 = cs_i_load2(yb + 4);
            for (int r = 0; r < 6; r++) {
                const double *o = O + 6 * r;
                cs_v2d x = {va[r], va[r]};
                ya[r] += o[0] * vb[0] + o[1] * vb[1] + o[2] * vb[2] + o[3] * vb[3] +
                         o[4] * vb[4] + o[5] * vb[5];
                y0 += cs_i_load2(o) * x;
                y1 += cs_i_load2(o + 2) * x;
                y2 += cs_i_load2(o + 4) * x;
            }
            cs_i_store2(yb, y0);
            cs_i_store2(yb + 2, y1);
            cs_i_store2(yb + 4, y2);
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
    int n2 = nw->hp_blk[badr + isl + np];
    for (int i = n2; i < n2 + nwide; i++) {
        int k = w->isl_blocks[badr + nw->hp_ord[badr + i]], n = e->blk_nrow[k];
        if (!curved(e->blk_zone[k])) continue;
        int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
        const int *ci = e->J_colind + adr;
        const double *Hl = nw->Hl + w->Gadr[k];
        double u[CS_MAXROWS], hu[CS_MAXROWS];
        cs_i_block_mul(e, k, v, u);
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

/* z = P r for a tree's preconditioner block P (symmetric) */
static inline __attribute__((always_inline)) void precond(int nd, const double *P, const double *r,
                                                          double *z)
{
    if (nd == 6) cs_i_sym6_mv(P, r, z);
    else cs_i_dense_mv(nd, P, r, z);
}

/* CG's start on a tree's dofs (ND > 0: nd fixed): x = 0, r = -g, z = d = P r; acc += (g'g,
 * r'z) */
static inline __attribute__((always_inline)) void
pcg_start_tree(int nd, const double *P, const double *g, double *x, double *r, double *z,
               double *d, cs_v2d *acc, const int ND)
{
    if (ND > 0) nd = ND;
    for (int q = 0; q < nd; q++) {
        x[q] = 0;
        r[q] = -g[q];
    }
    acc[0] = cs_i_dot2(acc[0], g, g, nd);
    precond(nd, P, r, z);
    memcpy(d, z, sizeof(double) * (size_t)nd);
    acc[1] = cs_i_dot2(acc[1], r, z, nd);
}

/* CG's step on a tree's dofs: x += al d, r -= al Hd, z = P r; acc += (r'r, r'z) */
static inline __attribute__((always_inline)) void
pcg_step_tree(int nd, const double *P, double al, const double *d, const double *Hd, double *x,
              double *r, double *z, cs_v2d *acc, const int ND)
{
    if (ND > 0) nd = ND;
    cs_v2d aa = {al, al};
    int q = 0;
    for (; q + 1 < nd; q += 2) {
        cs_i_store2(x + q, cs_i_load2(x + q) + aa * cs_i_load2(d + q));
        cs_i_store2(r + q, cs_i_load2(r + q) - aa * cs_i_load2(Hd + q));
    }
    for (; q < nd; q++) {
        x[q] += al * d[q];
        r[q] -= al * Hd[q];
    }
    acc[0] = cs_i_dot2(acc[0], r, r, nd);
    precond(nd, P, r, z);
    acc[1] = cs_i_dot2(acc[1], r, z, nd);
}

/* Large islands: solve H x = -g by conjugate gradients, matrix-free, preconditioned with
 * the per-tree diagonal blocks of H (Cholesky-factored). The exact line search that
 * follows makes an inexact direction safe; CG from 0 always yields a descent direction.
 * Dot products in two partial sums (cs_i_dot2) per tree. */
static void pcg(newton_ws *nw, cs_solver_ws *w, nthread *th, const cs_problem *p, int isl, int np,
                int nwide, const double *g, double *x)
{
    const cs_mass *M = p->M;
    int nv = w->nv;
    double *r = nw->pcg, *z = r + nv, *d = z + nv, *Hd = d + nv;
    /* the preconditioner: the inverted diagonal blocks */
    assemble_blocks(nw, w, th, p, isl, np);
    cs_v2d acc[2] = {{0, 0}, {0, 0}};
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        double *P = nw->P + nw->tree_Padr[tr];
        memcpy(P, nw->Hd + nw->tree_Padr[tr], sizeof(double) * nd * nd);
        cs_i_invert_spd(nd, P, th->scr); /* M's block PD plus PSD terms */
        if (nd == 6) pcg_start_tree(nd, P, g + lo, x + lo, r + lo, z + lo, d + lo, acc, 6);
        else pcg_start_tree(nd, P, g + lo, x + lo, r + lo, z + lo, d + lo, acc, 0);
    }
    double g2 = acc[0][0] + acc[0][1], rz = acc[1][0] + acc[1][1], be = 0;
    for (int it = 0; it < w->isl_nv[isl] + CG_EXTRA_ITER; it++) {
        hess_mul_blocks(nw, w, p, isl, np, nwide, d, it > 0 ? z : NULL, be, Hd);
        cs_v2d dHd2 = {0, 0};
        for (int t = 0; t < w->isl_tree_num[isl]; t++) {
            int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
            dHd2 = cs_i_dot2(dHd2, d + lo, Hd + lo, M->tree_dofnum[tr]);
        }
        double dHd = dHd2[0] + dHd2[1];
        if (!(dHd > 0)) break;
        double al = rz / dHd;
        acc[0] = acc[1] = (cs_v2d){0, 0};
        for (int t = 0; t < w->isl_tree_num[isl]; t++) {
            int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
            int nd = M->tree_dofnum[tr];
            const double *P = nw->P + nw->tree_Padr[tr];
            if (nd == 6) pcg_step_tree(nd, P, al, d + lo, Hd + lo, x + lo, r + lo, z + lo, acc, 6);
            else pcg_step_tree(nd, P, al, d + lo, Hd + lo, x + lo, r + lo, z + lo, acc, 0);
        }
        double r2 = acc[0][0] + acc[0][1], rzn = acc[1][0] + acc[1][1];
        /* inexact Newton: a relative residual of CG_TOL is enough, since the exact line search
         * and the outer gradient/improvement tests decide convergence */
        if (r2 <= CG_TOL * CG_TOL * g2) break;
        be = rzn / rz; /* the next direction d = z + be d: made in the next product */
        rz = rzn;
    }
}

/* Island-local dof numbers for the dense Hessian: trees in breadth-first order over the
 * trees they touch through contacts (a chain or a heap of bodies then has a narrow band,
 * and the factor works only inside its envelope). */
static void island_order(newton_ws *nw, cs_solver_ws *w, const cs_problem *p, int isl)
{
    const cs_mass *M = p->M;
    int adr = w->isl_tree_adr[isl], num = w->isl_tree_num[isl], n = 0, head = 0, tail = 0;
    int *queue = nw->queue;
    for (int i = 0; i < num; i++) nw->mark[w->isl_trees[adr + i]] = 0; /* not yet queued */
    for (int i = 0; i < num; i++) {
        int r = w->isl_trees[adr + i];
        if (nw->mark[r]) continue;
        nw->mark[r] = 1;
        queue[adr + tail++] = r;
        while (head < tail) {
            int t = queue[adr + head++];
            for (int q = M->tree_dofadr[t]; q < M->tree_dofadr[t] + M->tree_dofnum[t]; q++)
                nw->dof_local[q] = n++;
            for (int a = w->tadjadr[t]; a < w->tadjadr[t + 1]; a++) {
                int u = w->tadj[a];
                if (!nw->mark[u]) {
                    nw->mark[u] = 1;
                    queue[adr + tail++] = u;
                }
            }
        }
    }
}

/* After island_order: is the envelope factor (plus clearing the dense storage) cheaper than
 * about 15 CG products over the tree and pair blocks? Each tree's rows start at the
 * smallest local dof that any of its blocks reaches. Uses nw->mark for the island's trees. */
static int narrow(newton_ws *nw, cs_solver_ws *w, const cs_problem *p, int isl)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int adr = w->isl_tree_adr[isl], nt = w->isl_tree_num[isl], nv = w->isl_nv[isl];
    int badr = w->isl_block_adr[isl];
    for (int i = 0; i < nt; i++) {
        int tr = w->isl_trees[adr + i];
        nw->mark[tr] = nw->dof_local[M->tree_dofadr[tr]];
    }
    double cg = CG_VECTOR_FLOPS * nv;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b], t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 < 0 || t1 < 0) continue;
        /* the later tree's rows reach back to the earlier tree's first dof */
        int s0 = nw->dof_local[M->tree_dofadr[t0]], s1 = nw->dof_local[M->tree_dofadr[t1]];
        int m = s0 < s1 ? s0 : s1;
        if (m < nw->mark[t0]) nw->mark[t0] = m;
        if (m < nw->mark[t1]) nw->mark[t1] = m;
        cg += 2.0 * e->blk_ndof[2 * k] * e->blk_ndof[2 * k + 1]; /* the pair block, both ways */
    }
    double fac = 0.5 * (double)nv * nv;
    for (int i = 0; i < nt; i++) {
        int tr = w->isl_trees[adr + i], s = nw->dof_local[M->tree_dofadr[tr]];
        cg += (double)M->tree_dofnum[tr] * M->tree_dofnum[tr];
        for (int q = 0; q < M->tree_dofnum[tr]; q++) {
            double wd = s + q - nw->mark[tr] + 1;
            fac += 0.5 * wd * wd;
        }
    }
    return fac <= NARROW_CG_PRODUCTS * cg;
}

/* After island_order: the dense Hessian's envelope from the island's structure, every local
 * row's first column that M or any block can fill (a tree's rows start at its first dof, or
 * at the first dof of an earlier tree a block joins it to), whatever the zones: the factor
 * then neither scans for it nor clears what lies before it. Uses nw->mark for the island's
 * trees. */
static void envelope(newton_ws *nw, cs_solver_ws *w, const cs_problem *p, int isl, int *first)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int adr = w->isl_tree_adr[isl], nt = w->isl_tree_num[isl];
    int badr = w->isl_block_adr[isl];
    for (int i = 0; i < nt; i++) {
        int tr = w->isl_trees[adr + i];
        nw->mark[tr] = nw->dof_local[M->tree_dofadr[tr]];
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b], t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 < 0 || t1 < 0) continue;
        int s0 = nw->dof_local[M->tree_dofadr[t0]], s1 = nw->dof_local[M->tree_dofadr[t1]];
        int m = s0 < s1 ? s0 : s1;
        if (m < nw->mark[t0]) nw->mark[t0] = m;
        if (m < nw->mark[t1]) nw->mark[t1] = m;
    }
    for (int i = 0; i < nt; i++) {
        int tr = w->isl_trees[adr + i];
        for (int q = M->tree_dofadr[tr]; q < M->tree_dofadr[tr] + M->tree_dofnum[tr]; q++)
            first[nw->dof_local[q]] = nw->mark[tr];
    }
}


/* ---- the tree factor ----------------------------------------------------------------------
 * H = M + sum J^T Hl J factored as L^T D L (cs_forest_factor, as M is) from the island's
 * last local dof to its first, on the pattern of a forest over the local dofs: each dof's
 * row holds the dof and its ancestors, so eliminating it touches only them. M needs each
 * dof's tree parent among its ancestors; a block's nonzero columns (a clique of H) need to
 * lie on one chain. The smallest such forest is H's elimination tree: for a robot whose
 * rows each touch one chain of its links (a foot on the floor, a joint limit), its
 * kinematic tree, and the factor costs what M's does; rows that join two trees hang the
 * later tree under the earlier one's dof (a box under a comb's fingers). Chosen per island
 * when it costs less than the dense envelope (a tower's stack keeps the envelope). */

/* block k's columns with a nonzero in any of its rows, each side's ascending, side 0's
 * first, into loc; their counts per side into cnt */
static void scan_cols(const cs_efc *e, int k, int *loc, int cnt[2])
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], nnz = e->J_rownnz[r0];
    const double *J = e->J + e->J_rowadr[r0];
    cnt[0] = cnt[1] = 0;
    for (int s = 0, c0 = 0; s < 2; c0 += e->blk_ndof[2 * k + s], s++) {
        int *at = loc + cnt[0]; /* side 0's all come first */
        for (int q = c0 + e->blk_nzlo[2 * k + s]; q < c0 + e->blk_nzdof[2 * k + s]; q++) {
            int any = 0;
            for (int r = 0; r < n && !any; r++) any = J[r * nnz + q] != 0;
            if (any) at[cnt[s]++] = q;
        }
    }
}

/* block k's nonzero columns (in any of its rows): their positions in its rows (pos) and
 * their island-local dofs (loc), by descending local dof; returns their count. pos, loc:
 * room for the block's columns each. */
static int block_cols(const cs_efc *e, int k, const int *dof_local, int *pos, int *loc)
{
    int cnt[2], off[2], nd0 = e->blk_ndof[2 * k];
    const int *col = cs_i_nzcols(e, k, cnt, off);
    if (e->blk_nzall[k]) /* no list: the ranges scanned */
        scan_cols(e, k, loc, cnt);
    else
        for (int a = 0; a < cnt[0] + cnt[1]; a++) loc[a] = col[a]; /* each side's, ascending */
    int m0 = nd0 ? dof_local[e->blk_dofadr[2 * k]] : 0;
    int m1 = e->blk_ndof[2 * k + 1] ? dof_local[e->blk_dofadr[2 * k + 1]] - nd0 : 0;
    int i = cnt[0] - 1, j = cnt[0] + cnt[1] - 1, c = 0; /* merged, descending */
    while (i >= 0 || j >= cnt[0]) {
        int l0 = i >= 0 ? m0 + loc[i] : -1, l1 = j >= cnt[0] ? m1 + loc[j] : -1;
        pos[c++] = l0 > l1 ? loc[i--] : loc[j--];
    }
    for (int a = 0; a < c; a++) loc[a] = pos[a] < nd0 ? m0 + pos[a] : m1 + pos[a];
    return c;
}

/* the thread scratch's room for a list of a block's columns: past the room of its Hl J
 * (rows by two trees' columns) */
static int *tree_ints(const newton_ws *nw, nthread *t)
{
    return (int *)(t->scr + (size_t)CS_MAXROWS * 2 * nw->maxtd);
}

/* the forest's arrays in t->tree: parent, depth, row start (stride cap + 1) */
static void tree_arrays(nthread *t, int **par, int **dep, int **adr)
{
    *par = t->tree;
    *dep = t->tree + t->cap + 1;
    *adr = t->tree + 2 * ((size_t)t->cap + 1);
}

/* After island_order and envelope (t->first): the island's forest, and whether factoring
 * on it costs less than the envelope (the factors' costs: the rows' squared widths). */
static int tree_plan(newton_ws *nw, cs_solver_ws *w, const cs_problem *p, int isl, nthread *t)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int nv = w->isl_nv[isl], badr = w->isl_block_adr[isl], *par, *dep, *adr;
    int tadr = w->isl_tree_adr[isl], nt = w->isl_tree_num[isl];
    tree_arrays(t, &par, &dep, &adr);
    /* first an estimate from the trees alone, without looking at the blocks' columns: a
     * block joining two trees hangs the later tree under the earlier one's deepest dof
     * (trees in island order: island_order's queue); at least that costly: the envelope */
    int *tpar = nw->tpar, *toff = nw->toff;
    double fe = 0, est = 0;
    for (int i = 0; i < nt; i++) { /* the trees' own forests (a parent before its child) */
        int tr = nw->queue[tadr + i], lo = M->tree_dofadr[tr], l0 = nw->dof_local[lo];
        int deepest = 0;
        for (int q = 0; q < M->tree_dofnum[tr]; q++) {
            int pq = M->dof_parent[lo + q], x = l0 + q;
            par[x] = pq >= 0 ? pq - lo + l0 : -1;
            dep[x] = pq >= 0 ? dep[par[x]] + 1 : 1;
            if (dep[x] > deepest) deepest = dep[x];
            double wd = x + 1 - t->first[x];
            fe += wd * wd;
        }
        tpar[tr] = -1;
        toff[tr] = deepest; /* for now */
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b], u = e->blk_tree[2 * k], v = e->blk_tree[2 * k + 1];
        if (u < 0 || v < 0) continue;
        if (nw->dof_local[M->tree_dofadr[u]] < nw->dof_local[M->tree_dofadr[v]]) {
            int x = u; u = v; v = x;
        }
        for (;;) { /* v onto u's chain of trees, as the dofs below */
            int x = u, sv = nw->dof_local[M->tree_dofadr[v]];
            while (tpar[x] >= 0 && nw->dof_local[M->tree_dofadr[tpar[x]]] > sv) x = tpar[x];
            int y = tpar[x];
            if (y == v) break;
            tpar[x] = v;
            if (y < 0) break;
            u = v;
            v = y;
        }
    }
    for (int i = 0; i < nt; i++) { /* toff: the dofs above the tree's root */
        int tr = nw->queue[tadr + i], lo = M->tree_dofadr[tr], l0 = nw->dof_local[lo];
        int deepest = toff[tr];
        toff[tr] = tpar[tr] >= 0 ? nw->mark[tpar[tr]] : 0;
        nw->mark[tr] = toff[tr] + deepest; /* the depth of its deepest dof */
        for (int q = 0; q < M->tree_dofnum[tr]; q++) {
            double d = toff[tr] + dep[l0 + q];
            est += d * d;
        }
    }
    if (est >= fe) return 0;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b], *pos = nw->cols + nw->coladr[k];
        int *loc = pos + e->blk_ndof[2 * k] + e->blk_ndof[2 * k + 1];
        int c = nw->colnum[k] = block_cols(e, k, nw->dof_local, pos, loc);
        for (int a = 0; a + 1 < c; a++) { /* loc[a + 1] onto loc[a]'s chain of ancestors */
            int u = loc[a], v = loc[a + 1];
            for (;;) { /* u > v: up u's chain to v's place; a chain already past it (y < v)
                          goes on above v */
                int x = u;
                while (par[x] > v) x = par[x];
                int y = par[x];
                if (y == v) break;
                par[x] = v;
                if (y < 0) break;
                u = v;
                v = y;
            }
        }
    }
    double ft = 0;
    int total = 0;
    for (int x = 0; x < nv; x++) { /* a parent precedes its children */
        dep[x] = par[x] < 0 ? 1 : dep[par[x]] + 1;
        adr[x] = total;
        total += dep[x];
        ft += (double)dep[x] * dep[x];
    }
    adr[nv] = total;
    return ft < fe;
}

/* the forest's rows (row x: H(x, x), then x's entries with its ancestors upwards) += J^T Hl J
 * of block k */
CS_VECTOR_CLONES static void tree_curvature(const newton_ws *nw, nthread *t, const cs_efc *e, int k,
                           const double *Hl, double *T, const int *adr, const int *dep)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], nnz = e->J_rownnz[r0];
    const double *J = e->J + e->J_rowadr[r0];
    const int *pos = nw->cols + nw->coladr[k];
    const int *loc = pos + e->blk_ndof[2 * k] + e->blk_ndof[2 * k + 1];
    int c = nw->colnum[k], *dl = tree_ints(nw, t);
    double *HJ = t->scr; /* n x c: Hl J over the nonzero columns */
    int chain = 1; /* the columns a run of one chain: their entries in a row are consecutive */
    for (int a = 0; a < c; a++) {
        dl[a] = dep[loc[a]];
        if (a > 0 && dl[a] != dl[a - 1] - 1) chain = 0;
    }
    /* column b (b >= a) is column a's dof or an ancestor of it: row a's entry dl[a] - dl[b] */
    if (n == 3) {
        double *H0 = HJ, *H1 = HJ + c, *H2 = HJ + 2 * c;
        const double *J0 = J, *J1 = J + nnz, *J2 = J + 2 * nnz;
        for (int a = 0; a < c; a++) {
            double j0 = J0[pos[a]], j1 = J1[pos[a]], j2 = J2[pos[a]];
            H0[a] = Hl[0] * j0 + Hl[1] * j1 + Hl[2] * j2;
            H1[a] = Hl[3] * j0 + Hl[4] * j1 + Hl[5] * j2;
            H2[a] = Hl[6] * j0 + Hl[7] * j1 + Hl[8] * j2;
        }
        int a0 = 0;
        if (chain) /* two rows a pass, as below */
            for (; a0 + 1 < c; a0 += 2) {
                double *restrict ra = T + adr[loc[a0]] - a0, *restrict rb = T + adr[loc[a0 + 1]] - a0 - 1;
                double a_0 = J0[pos[a0]], a_1 = J1[pos[a0]], a_2 = J2[pos[a0]];
                double b_0 = J0[pos[a0 + 1]], b_1 = J1[pos[a0 + 1]], b_2 = J2[pos[a0 + 1]];
                ra[a0] += a_0 * H0[a0] + a_1 * H1[a0] + a_2 * H2[a0];
                for (int b = a0 + 1; b < c; b++) {
                    double h0 = H0[b], h1 = H1[b], h2 = H2[b];
                    ra[b] += a_0 * h0 + a_1 * h1 + a_2 * h2;
                    rb[b] += b_0 * h0 + b_1 * h1 + b_2 * h2;
                }
            }
        for (int a = a0; a < c; a++) {
            double j0 = J0[pos[a]], j1 = J1[pos[a]], j2 = J2[pos[a]];
            if (chain) {
                double *restrict row = T + adr[loc[a]] - a;
                for (int b = a; b < c; b++) row[b] += j0 * H0[b] + j1 * H1[b] + j2 * H2[b];
            } else {
                double *row = T + adr[loc[a]] + dl[a];
                for (int b = a; b < c; b++) row[-dl[b]] += j0 * H0[b] + j1 * H1[b] + j2 * H2[b];
            }
        }
        return;
    }
    if (e->blk_kind[k] == CS_BLOCK_PYRAMIDAL) { /* independent rows: Hl is diagonal (the
                                                    products left out are exact zeros) */
        for (int r = 0; r < n; r++)
            for (int a = 0; a < c; a++) HJ[r * c + a] = Hl[r * n + r] * J[r * nnz + pos[a]];
    } else {
        for (int r = 0; r < n; r++)
            for (int a = 0; a < c; a++) {
                double v = 0;
                for (int q = 0; q < n; q++) v += Hl[r * n + q] * J[q * nnz + pos[a]];
                HJ[r * c + a] = v;
            }
    }
    int a0 = 0;
    if (chain) /* two rows of T a pass: they share the loads of Hl J (the same sums) */
        for (; a0 + 1 < c; a0 += 2) {
            double *restrict ra = T + adr[loc[a0]] - a0, *restrict rb = T + adr[loc[a0 + 1]] - a0 - 1;
            for (int r = 0; r < n; r++) {
                double ja = J[r * nnz + pos[a0]], jb = J[r * nnz + pos[a0 + 1]];
                const double *Hr = HJ + r * c;
                ra[a0] += ja * Hr[a0];
                for (int b = a0 + 1; b < c; b++) {
                    double h = Hr[b];
                    ra[b] += ja * h;
                    rb[b] += jb * h;
                }
            }
        }
    for (int a = a0; a < c; a++) {
        if (chain) { /* row by row, over consecutive entries */
            double *restrict row = T + adr[loc[a]] - a;
            for (int r = 0; r < n; r++) {
                double jr = J[r * nnz + pos[a]];
                const double *Hr = HJ + r * c;
                for (int b = a; b < c; b++) row[b] += jr * Hr[b];
            }
            continue;
        }
        double *row = T + adr[loc[a]] + dl[a];
        for (int b = a; b < c; b++) {
            double v = 0;
            for (int r = 0; r < n; r++) v += J[r * nnz + pos[a]] * HJ[r * c + b];
            row[-dl[b]] += v;
        }
    }
}

/* H on the forest's rows (in t->H) from M and the curved blocks' Hl */
static void tree_assemble(const newton_ws *nw, cs_solver_ws *w, const cs_problem *p, int isl,
                          nthread *t)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int nv = w->isl_nv[isl], badr = w->isl_block_adr[isl], *par, *dep, *adr;
    tree_arrays(t, &par, &dep, &adr);
    double *T = t->H;
    memset(T, 0, sizeof(double) * (size_t)adr[nv]);
    CS_FOR_ISLAND_DOFS(w, p, isl, i) { /* M's row: i's ancestors in its tree, all in i's row */
        int li = nw->dof_local[i], a = M->dof_Madr[i];
        double *row = T + adr[li] + dep[li];
        for (int j = i; j >= 0; j = M->dof_parent[j], a++) row[-dep[nw->dof_local[j]]] = M->qM[a];
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[badr + b], n2 = e->blk_nrow[k] * e->blk_nrow[k];
        const double *Hl = nw->Hl + w->Gadr[k];
        double *Hf = nw->Hf + w->Gadr[k];
        if (curved(e->blk_zone[k])) {
            tree_curvature(nw, t, e, k, Hl, T, adr, dep);
            memcpy(Hf, Hl, sizeof(double) * (size_t)n2);
        } else {
            memset(Hf, 0, sizeof(double) * (size_t)n2);
        }
    }
}

/* The factor (t->H on the forest's rows, dinv) of H + sigma x x^T, x = row r of block k
 * over its nonzero columns, by the rank-one update of an L^T D L factor: up the chain from
 * the block's deepest column, each dof's pivot and its entries with its ancestors. 0 when a
 * pivot would lose its accuracy (a downdate near singular): the caller factors anew. */
static int tree_rank_one(const newton_ws *nw, nthread *t, const cs_efc *e, int k, int r,
                         double sigma, const int *par, const int *adr, double *dinv)
{
    double *T = t->H, *x = t->x; /* x: zero on the island's local dofs, left so */
    const int *pos = nw->cols + nw->coladr[k];
    const int *loc = pos + e->blk_ndof[2 * k] + e->blk_ndof[2 * k + 1];
    int c = nw->colnum[k], r0 = e->blk_row[k];
    if (c == 0) return 1;
    const double *J = e->J + e->J_rowadr[r0] + (size_t)r * e->J_rownnz[r0];
    for (int a = 0; a < c; a++) x[loc[a]] = J[pos[a]];
    int ok = 1;
    for (int q = loc[0]; q >= 0; q = par[q]) {
        double pq = x[q];
        x[q] = 0;
        if (pq == 0 || !ok) continue;
        double d = T[adr[q]], dn = d + sigma * pq * pq;
        if (!(dn > 1e-10 * d)) {
            ok = 0; /* x still to be cleared up the chain */
            continue;
        }
        double beta = sigma * pq / dn;
        sigma *= d / dn;
        T[adr[q]] = dn;
        dinv[q] = 1 / dn;
        int a = adr[q] + 1;
        for (int i = par[q]; i >= 0; i = par[i], a++) {
            x[i] -= pq * T[a];
            T[a] += beta * x[i];
        }
    }
    return ok;
}

/* The factor of the previous iteration brought to the blocks' present curvature, as
 * MuJoCo's Newton does between its iterations: rows whose zone changed are added or
 * removed by rank-one updates. Only where every changed block's curvature is diagonal
 * (pyramid edges, single rows): an elliptic cone's changes with the point, which its
 * factor is made anew for. 0: the caller assembles and factors. */
static int tree_update(const newton_ws *nw, const cs_solver_ws *w, const cs_problem *p, int isl,
                       nthread *t, const int *par, const int *adr, double *dinv)
{
    const cs_efc *e = p->efc;
    int badr = w->isl_block_adr[isl];
    memset(t->x, 0, sizeof(double) * (size_t)w->isl_nv[isl]); /* tree_rank_one's */
    for (int pass = 0; pass < 2; pass++) /* first: can it; then: do it */
        for (int b = 0; b < w->isl_block_num[isl]; b++) {
            int k = w->isl_blocks[badr + b], n = e->blk_nrow[k];
            const double *Hl = nw->Hl + w->Gadr[k];
            double *Hf = nw->Hf + w->Gadr[k];
            int on = curved(e->blk_zone[k]);
            /* a block of independent rows has a diagonal Hl, and Hf copies it: off the
             * diagonal both hold zeros */
            int diag = e->blk_kind[k] != CS_BLOCK_ELLIPTIC;
            for (int i = 0; i < n; i++)
                for (int j = diag ? i : 0; j < (diag ? i + 1 : n); j++) {
                    double h = on ? Hl[i * n + j] : 0;
                    if (h == Hf[i * n + j]) continue;
                    if (i != j) return 0;
                    if (pass == 0) continue;
                    if (!tree_rank_one(nw, t, e, k, i, h - Hf[i * n + i], par, adr, dinv))
                        return 0;
                    Hf[i * n + i] = h;
                }
        }
    return 1;
}

/* The thread's dense storage for n dofs; -1 (CG then) if it cannot grow. */
static int grow_dense(nthread *t, int n)
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
    int *tr = cs_realloc(t->tree, sizeof(int) * 3 * ((size_t)n + 1));
    if (!tr) return -1;
    t->tree = tr;
    t->cap = n;
    return 0;
}

static cs_iter_status newton_iterate(void *ws, cs_solver_ws *w, int thread, int isl,
                                     int max_iter, int handoff, int *iters)
{
    newton_ws *nw = ws;
    nthread *t = &nw->th[thread];
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], nv = w->isl_nv[isl];
    double *a = w->a, *g = nw->grad, *dir = nw->dir, *Md = nw->Mdir, *H;
    double scale = cs_i_scale_primal(w, p, isl), cost = 0, tol = w->tol[thread];
    int dmax = o->newton_dense_max == 0 ? nw->dmax : o->newton_dense_max;
    if (dmax > nw->dmax) dmax = nw->dmax;
    int dense = nv <= dmax, narrow_ok = o->newton_dense_max == 0 && nv <= NARROW_MAX;
    int np = 0, nwide = 0;
    if (dense || narrow_ok) island_order(nw, w, p, isl);
    if (!dense && narrow_ok && narrow(nw, w, p, isl) && grow_dense(t, nv) == 0) dense = 1;
    if (!dense) np = build_pairs(nw, w, p, isl, &nwide);
    H = t->H; /* after any growth */
    if (dense) envelope(nw, w, p, isl, t->first);
    int tree = dense && o->newton_tree && tree_plan(nw, w, p, isl, t);
    st->newton_dense = dense ? 1 : 2;
    st->newton_tree = tree;
    int iter = 0, at_a = 0; /* at_a: e->force holds the soft-cone forces at a */
    cs_iter_status status = CS_ITER_LIMIT;
    while (iter < max_iter) {
        /* at a: the cost, the gradient M (a - a0) - J^T f, the forces and the block
         * Hessians of the soft-cone costs */
        double c;
        if (iter == 0 && !handoff && t->eval_isl == isl) c = t->eval_cost; /* the warm start's */
        else c = cs_i_primal_eval(w, isl, a, g, nw->jres, nw->Hl, nw->d);
        at_a = 1;
        if (iter > 0) {
            st->improvement = scale * (cost - c);
            if (st->improvement < tol) {
                status = CS_ITER_CONVERGED;
                break;
            }
        }
        cost = c;
        double gn = 0;
        CS_FOR_ISLAND_DOFS(w, p, isl, q) gn += g[q] * g[q];
        /* from another method's point or after a step, the gradient alone stops. At the
         * warm start it does not: the gradient bounds the cost's error only loosely on stiff
         * rows. newton_early (MuJoCo 3.12): the warm start stops when its gradient and its
         * gap 1/2 g'M^-1 g (a bound on the cost's error) meet the tolerance, or its gradient
         * and the Newton decrement 1/2 g'H^-1 g below. Otherwise (MuJoCo up to 3.3) one
         * step always: the warm start's forces lag the optimum by up to the tolerance */
        if ((iter > 0 || handoff) && scale * sqrt(gn) < tol) {
            status = CS_ITER_CONVERGED;
            break;
        }
        int warm_test = o->newton_early && iter == 0 && !handoff && scale * sqrt(gn) < tol;
        if (warm_test) {
            double gMg = 0;
            CS_FOR_ISLAND_DOFS(w, p, isl, q) Md[q] = g[q];
            cs_i_mass_solve(w, p, isl, Md);
            CS_FOR_ISLAND_DOFS(w, p, isl, q) gMg += g[q] * Md[q];
            if (fmax(0, 0.5 * scale * gMg) < tol) {
                status = CS_ITER_CONVERGED;
                break;
            }
        }
        if (tree) {
            int *par, *dep, *adr;
            tree_arrays(t, &par, &dep, &adr);
            /* 1 / D after the forest's rows: they fill adr[nv] <= nv (nv + 1) / 2 of H's
             * cap^2 + 1 entries, which leaves nv */
            double *dinv = H + adr[nv];
            double *x = t->x;
            if (iter > 0 && tree_update(nw, w, p, isl, t, par, adr, dinv)) {
                st->newton_updated++;
            } else {
                tree_assemble(nw, w, p, isl, t);
                if (cs_forest_factor(nv, H, par, adr, adr[nv], dinv)) { /* not with M PD */
                    status = CS_ITER_STALLED;
                    break;
                }
            }
            CS_FOR_ISLAND_DOFS(w, p, isl, q) x[nw->dof_local[q]] = -g[q];
            cs_forest_solve(H, par, adr, dinv, x, 0, nv);
            CS_FOR_ISLAND_DOFS(w, p, isl, q) dir[q] = x[nw->dof_local[q]];
        } else if (dense) {
            /* H = M + sum J^T Hl J over the island's dofs (lower triangle), Cholesky */
            for (int i = 0; i < nv; i++) /* the factor reads the envelope only */
                memset(H + (size_t)i * nv + t->first[i], 0,
                       sizeof(double) * (size_t)(i + 1 - t->first[i]));
            for (int tt = 0; tt < w->isl_tree_num[isl]; tt++) {
                int tr = w->isl_trees[w->isl_tree_adr[isl] + tt], lo = p->M->tree_dofadr[tr];
                for (int i = lo; i < lo + p->M->tree_dofnum[tr]; i++) /* (a tree's dofs are
                                                                       consecutive here) */
                    cs_mass_row(p->M, i, lo, H + (size_t)nw->dof_local[i] * nv + nw->dof_local[lo]);
            }
            for (int b = 0; b < nbk; b++) {
                int k = w->isl_blocks[badr + b];
                if (curved(e->blk_zone[k]))
                    add_jthj(e, k, nw->Hl + w->Gadr[k], nw->dof_local, H, nv, t->scr);
            }
            if (cs_i_chol_env_given(nv, H, t->first)) { /* cannot occur with M PD */
                status = CS_ITER_STALLED;
                break;
            }
            double *x = t->x;
            CS_FOR_ISLAND_DOFS(w, p, isl, q) x[nw->dof_local[q]] = -g[q];
            cs_i_chol_env_solve(nv, H, t->first, x);
            CS_FOR_ISLAND_DOFS(w, p, isl, q) dir[q] = x[nw->dof_local[q]];
        } else {
            pcg(nw, w, t, p, isl, np, nwide, g, dir);
        }
        /* the Newton decrement, the quadratic model's predicted improvement of the next
         * step: below the tolerance, the point is converged (MuJoCo 3.12, after every step;
         * at the warm start only with the gradient test above). After a step only from an
         * exact direction: CG's, within CG_TOL, can understate it */
        if (warm_test || (o->newton_early && iter > 0 && (dense || tree))) {
            double gd = 0; /* -g'H^-1 g: twice the decrement, negated */
            CS_FOR_ISLAND_DOFS(w, p, isl, q) gd += g[q] * dir[q];
            if (fmax(0, -0.5 * scale * gd) < tol) {
                status = CS_ITER_CONVERGED;
                break;
            }
        }
        cs_i_mass_mul(w, p, isl, Md, dir);
        double dMr = 0, dMd = 0, d0 = 0;
        CS_FOR_ISLAND_DOFS(w, p, isl, q) {
            dMr += Md[q] * (a[q] - p->a0[q]);
            dMd += Md[q] * dir[q];
            d0 += g[q] * dir[q];
        }
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b];
            cs_i_block_mul(e, k, dir, nw->Jd + e->blk_row[k]);
        }
        /* from the Newton step itself, alpha = 1 */
        double alpha = cs_i_line_search(w, isl, nw->jres, nw->Jd, nw->quad, dMr, dMd, d0, 1,
                                        cs_i_line_gtol(w, isl, dir, scale), o->ls_iterations);
        iter++;
        if (alpha == 0) {
            status = CS_ITER_STALLED;
            break;
        }
        CS_FOR_ISLAND_DOFS(w, p, isl, q) a[q] += alpha * dir[q];
        at_a = 0;
    }
    if (!at_a) { /* stopped by the iteration limit: the cost, forces and zones at the final a */
        double nc = cs_i_primal(w, p, isl, a);
        if (iter > 0) st->improvement = scale * (cost - nc);
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
            double l;
            cs_i_resid(e, k, a, nw->jres + r0);
            e->blk_zone[k] = cs_efc_soft(e, k, nw->jres + r0, e->force + r0, &l, NULL);
        }
    }
    t->eval_isl = -1;
    *iters = iter;
    return status;
}

/* The soft-constraint part of the cost at a, as cs_i_primal sums it: at a = a0 the Gauss
 * term is exactly +0, so this is cs_i_primal's cost there bit for bit */
static double soft_cost(const cs_solver_ws *w, const cs_problem *p, int isl, const double *a)
{
    const cs_efc *e = p->efc;
    double c = 0, j[CS_MAXROWS], f[CS_MAXROWS], l;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        cs_i_resid(e, k, a, j);
        cs_efc_soft(e, k, j, f, &l, NULL);
        c += l;
    }
    return c;
}

/* Convexity bounds the cost at a0 from the warm point's evaluation: with d = a_warm - a0,
 * the Gauss term G = d'M d / 2 and the gradient g, the soft costs' tangent planes give
 * cost(a0) >= cost(a_warm) + G - g'd. G needs no product with M: a block's cost is
 * -f.j / 2 in every zone but a friction-loss row's linear one (there F |j| - R F^2 / 2,
 * at most -f.j), so G >= cost(a_warm) + sum s f.j with s = 1/2 (friction loss: 1), an
 * equality without friction loss. When the bound clears rounding (WARM_MARGIN, relative to
 * the terms summed, is orders above it) the warm start wins without the cost at a0, as it
 * would with it. */
#define WARM_MARGIN 1e-6

/* cs_i_primal_warm_start, with the warm point evaluated as the first iteration evaluates it
 * (the same cost, summed in the same order), which that iteration then takes over when the
 * warm start wins */
static void newton_warm_start(void *ws, cs_solver_ws *w, int thread, int isl)
{
    newton_ws *nw = ws;
    nthread *t = &nw->th[thread];
    const cs_problem *p = w->p;
    const cs_efc *e = p->efc;
    double *a = w->a, *g = nw->grad;
    double cw = cs_i_primal_eval(w, isl, w->a_warm, g, nw->jres, nw->Hl, nw->d);
    double fj = 0, gd = 0, gda = 0;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        double s = e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS ? 1 : 0.5;
        for (int r = e->blk_row[k]; r < e->blk_row[k] + e->blk_nrow[k]; r++)
            fj += s * e->force[r] * nw->jres[r];
    }
    CS_FOR_ISLAND_DOFS(w, p, isl, q) {
        double v = g[q] * (w->a_warm[q] - p->a0[q]);
        gd += v;
        gda += fabs(v);
    }
    int win = cw + fj - gd > WARM_MARGIN * (fabs(cw) + fabs(fj) + gda);
    if (!win) win = cw < soft_cost(w, p, isl, a); /* a = a0 here */
    t->eval_isl = -1;
    if (win) {
        CS_FOR_ISLAND_DOFS(w, p, isl, q) a[q] = w->a_warm[q];
        w->ist[isl].warm_used = 1;
        t->eval_isl = isl;
        t->eval_cost = cw;
    }
}

/* ---- workspace ------------------------------------------------------------------------ */

/* a thread's per-block scratch for trees of up to maxtd dofs */
static double *thread_scratch(double *old, int maxtd)
{
    /* Hl J over two trees' columns, then their nonzero columns' indices (add_curvature,
     * tree_curvature) */
    return cs_realloc(old, sizeof(double) * (2 * (CS_MAXROWS + 1) * (size_t)(maxtd > 0 ? maxtd : 1)));
}

static void free_threads(newton_ws *nw)
{
    if (nw->th)
        for (int i = 0; i < nw->nthread; i++) {
            cs_free(nw->th[i].H);
            cs_free(nw->th[i].x);
            cs_free(nw->th[i].first);
            cs_free(nw->th[i].tree);
            cs_free(nw->th[i].scr);
        }
    cs_free(nw->th);
    nw->th = NULL;
    nw->nthread = 0;
}

static int make_threads(newton_ws *nw, int n)
{
    nw->th = cs_calloc((size_t)n, sizeof *nw->th);
    if (!nw->th) return -1;
    nw->nthread = n;
    size_t d = (size_t)nw->dmax;
    for (int i = 0; i < n; i++) {
        nthread *t = &nw->th[i];
        t->H = cs_malloc(sizeof(double) * (d * d + 1));
        t->x = cs_malloc(sizeof(double) * (d + 1));
        t->first = cs_malloc(sizeof(int) * (d + 1));
        t->tree = cs_malloc(sizeof(int) * 3 * (d + 1));
        t->cap = nw->dmax;
        t->scr = thread_scratch(NULL, nw->maxtd);
        t->eval_isl = -1;
        if (!t->H || !t->x || !t->first || !t->tree || !t->scr) {
            free_threads(nw);
            return -1;
        }
    }
    return 0;
}

static void newton_destroy(void *ws)
{
    newton_ws *nw = ws;
    if (!nw) return;
    free_threads(nw);
    void *arr[] = {nw->grad, nw->dir, nw->Mdir, nw->d, nw->pcg, nw->dof_local, nw->mark,
                   nw->queue, nw->tree_Padr, nw->P, nw->Hd, nw->jres, nw->Jd, nw->Hl, nw->Hf,
                   nw->hp_ord, nw->hp_tree, nw->hp_blk, nw->hp_adr, nw->hp_key, nw->offadr,
                   nw->Hoff, nw->quad, nw->coladr, nw->colnum, nw->cols, nw->tpar, nw->toff};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) cs_free(arr[i]);
    cs_free(nw);
}

static void *newton_create(const cs_solver_ws *w)
{
    newton_ws *nw = cs_calloc(1, sizeof *nw);
    if (!nw) return NULL;
    size_t n = (size_t)(w->nv > 0 ? w->nv : 1), nt = (size_t)(w->ntree > 0 ? w->ntree : 1);
    nw->nv = w->nv;
    nw->ntree = w->ntree;
    nw->dmax = DENSE_MAX < w->nv ? DENSE_MAX : (w->nv > 0 ? w->nv : 1);
    int ok = (nw->grad = cs_malloc(sizeof(double) * n)) && (nw->dir = cs_malloc(sizeof(double) * n)) &&
             (nw->Mdir = cs_malloc(sizeof(double) * n)) && (nw->d = cs_malloc(sizeof(double) * n)) &&
             (nw->pcg = cs_malloc(sizeof(double) * 4 * n)) &&
             (nw->dof_local = cs_malloc(sizeof(int) * n)) && (nw->mark = cs_malloc(sizeof(int) * nt)) &&
             (nw->queue = cs_malloc(sizeof(int) * nt)) &&
             (nw->tpar = cs_malloc(sizeof(int) * nt)) && (nw->toff = cs_malloc(sizeof(int) * nt)) &&
             (nw->tree_Padr = cs_calloc(nt + 1, sizeof(int)));
    if (!ok) {
        newton_destroy(nw);
        return NULL;
    }
    return nw;
}

static int newton_reserve(void *ws, const cs_solver_ws *w)
{
    newton_ws *nw = ws;
    const cs_mass *M = w->p->M;
    const cs_efc *e = w->p->efc;
    /* the threads' scratch, sized by the largest tree */
    int maxtd = 0;
    for (int t = 0; t < M->ntree; t++)
        if (M->tree_dofnum[t] > maxtd) maxtd = M->tree_dofnum[t];
    if (nw->nthread != w->nthread) {
        free_threads(nw);
        if (maxtd > nw->maxtd) nw->maxtd = maxtd;
        if (make_threads(nw, w->nthread)) return -1;
    }
    if (maxtd > nw->maxtd) {
        for (int i = 0; i < nw->nthread; i++) {
            double *s = thread_scratch(nw->th[i].scr, maxtd);
            if (!s) return -1;
            nw->th[i].scr = s;
        }
        nw->maxtd = maxtd;
    }
    /* CG's per-tree preconditioner blocks, laid out for this forest */
    int nP = 0;
    for (int t = 0; t < M->ntree; t++) nP += M->tree_dofnum[t] * M->tree_dofnum[t];
    if (!nw->P || !nw->Hd || nP != nw->tree_Padr[M->ntree]) {
        if (cs_i_resize((void **)&nw->P, sizeof(double), nP + 1) ||
            cs_i_resize((void **)&nw->Hd, sizeof(double), nP + 1))
            return -1;
        for (int t = 0, a = 0; t < M->ntree; t++) {
            nw->tree_Padr[t] = a;
            a += M->tree_dofnum[t] * M->tree_dofnum[t];
        }
        nw->tree_Padr[M->ntree] = nP;
    }
    int nb = e->nblock, noff = 0;
    for (int k = 0; k < nb; k++)
        noff += e->blk_ndof[2 * k] * e->blk_ndof[2 * k + 1]; /* two-tree curvature blocks */
    if (w->nG > nw->cap_G) {
        int c = cs_i_more(w->nG);
        if (cs_i_resize((void **)&nw->Hl, sizeof(double), c) ||
            cs_i_resize((void **)&nw->Hf, sizeof(double), c))
            return -1;
        nw->cap_G = c;
    }
    if (e->nefc > nw->cap_efc) {
        int c = cs_i_more(e->nefc);
        if (cs_i_resize((void **)&nw->jres, sizeof(double), c) ||
            cs_i_resize((void **)&nw->Jd, sizeof(double), c))
            return -1;
        nw->cap_efc = c;
    }
    if (noff > nw->cap_off || !nw->Hoff) {
        int c = cs_i_more(noff);
        if (cs_i_resize((void **)&nw->Hoff, sizeof(double), c)) return -1;
        nw->cap_off = c;
    }
    if (nb > nw->cap_block) {
        int c = cs_i_more(nb);
        size_t si = sizeof(int);
        if (cs_i_resize((void **)&nw->hp_ord, si, c) ||
            cs_i_resize((void **)&nw->hp_tree, si, 2 * c) ||
            cs_i_resize((void **)&nw->hp_blk, si, 2 * c + 1) ||
            cs_i_resize((void **)&nw->hp_adr, si, c) ||
            cs_i_resize((void **)&nw->hp_key, sizeof(long long), c) ||
            cs_i_resize((void **)&nw->offadr, si, c) ||
            cs_i_resize((void **)&nw->coladr, si, c) || cs_i_resize((void **)&nw->colnum, si, c))
            return -1;
        nw->cap_block = c;
    }
    if (CS_LINE_QUAD_BLOCK * (size_t)nb > nw->cap_quad) {
        size_t c = CS_LINE_QUAD_BLOCK * (size_t)cs_i_more(nb);
        if (cs_i_resize((void **)&nw->quad, sizeof(double) * CS_LINE_QUAD_BLOCK, cs_i_more(nb)))
            return -1;
        nw->cap_quad = c;
    }
    int ncol = 0;
    for (int k = 0, o = 0; k < nb; k++) {
        nw->offadr[k] = o;
        o += e->blk_ndof[2 * k] * e->blk_ndof[2 * k + 1];
        nw->coladr[k] = ncol;
        ncol += 2 * (e->blk_ndof[2 * k] + e->blk_ndof[2 * k + 1]);
    }
    if (ncol > nw->cap_cols || !nw->cols) {
        int c = cs_i_more(ncol);
        if (cs_i_resize((void **)&nw->cols, sizeof(int), c)) return -1;
        nw->cap_cols = c;
    }
    return 0;
}

const cs_method cs_method_newton = {
    .name = "Newton",
    .slot = CS_METHOD_NEWTON,
    .needs = 0, /* works from J: no W, no G */
    .create = newton_create,
    .destroy = newton_destroy,
    .reserve = newton_reserve,
    .warm_start = newton_warm_start,
    .iterate = newton_iterate,
    .store = cs_i_store_decode, /* the iterations end with the forces and zones at the final a */
};
