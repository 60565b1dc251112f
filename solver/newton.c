/* Primal Newton on 1/2 (a - a0)^T M (a - a0) + sum_k l_k(J_k a - a_ref_k)
 * (docs/contact-math.md §7), per island. The Hessian M + sum J_k^T H_k J_k is assembled
 * dense over the island's dofs and Cholesky-factored for islands of up to
 * newton_dense_max dofs; larger islands use matrix-free CG preconditioned with the
 * Hessian's per-tree diagonal blocks. Line search: exact, a bracketed safeguarded Newton
 * on the directional derivative; zones are re-classified at every trial point (the
 * curvature of l jumps across zone borders). Stopping as MuJoCo's Newton: scaled
 * improvement or scaled gradient norm < tolerance. */
#include "solver_internal.h"

#include <math.h>
#include <string.h>
#define CG_TOL 3e-2 /* inexact Newton: relative CG residual */




/* island trees as dof ranges */
#define FOR_ISLAND_DOFS(w, p, isl, q)                                                     \
    for (int t_ = 0; t_ < (w)->isl_tree_num[isl]; t_++)                                   \
        for (int q = (p)->M->tree_dofadr[(w)->isl_trees[(w)->isl_tree_adr[isl] + t_]],   \
                 e_ = q + (p)->M->tree_dofnum[(w)->isl_trees[(w)->isl_tree_adr[isl] + t_]]; \
             q < e_; q++)

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

/* For every pair of the block's columns (c1, c2) with map[c1] >= map[c2] >= 0 (a local
 * index; -1 skips): dst[map[c1] * ld + map[c2]] += (J^T Hl J)[c1][c2]. Lower triangle. */
static void add_jthj(const cs_efc *e, int k, const double *Hl, const int *map, double *dst,
                     int ld)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const double *J = e->J + adr;
    double HJ[CS_MAXROWS * 64];
    if (nnz > 64) return; /* a block over two trees larger than 32 dofs each: not assembled */
    for (int r = 0; r < n; r++)
        for (int q = 0; q < nnz; q++) {
            double v = 0;
            for (int c = 0; c < n; c++) v += Hl[r * n + c] * J[c * nnz + q];
            HJ[r * nnz + q] = v;
        }
    for (int q1 = 0; q1 < nnz; q1++) {
        int i = map[q1];
        if (i < 0) continue;
        for (int q2 = 0; q2 < nnz; q2++) {
            int j = map[q2];
            if (j < 0 || j > i) continue;
            double v = 0;
            for (int r = 0; r < n; r++) v += J[r * nnz + q1] * HJ[r * nnz + q2];
            dst[i * ld + j] += v;
        }
    }
}

/* dst (nd x nd, lower triangle) += J_s^T Hl J_s for the columns [c0, c0 + nd) of block k's
 * rows: one side's tree. */
static void add_side_jthj(const cs_efc *e, int k, const double *Hl, int c0, int nd, double *dst)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const double *J = e->J + adr + c0;
    double HJ[CS_MAXROWS * 64];
    if (nd > 64) return;
    for (int r = 0; r < n; r++)
        for (int q = 0; q < nd; q++) {
            double v = 0;
            for (int c = 0; c < n; c++) v += Hl[r * n + c] * J[c * nnz + q];
            HJ[r * nd + q] = v;
        }
    for (int q1 = 0; q1 < nd; q1++)
        for (int q2 = 0; q2 <= q1; q2++) {
            double v = 0;
            for (int r = 0; r < n; r++) v += J[r * nnz + q1] * HJ[r * nd + q2];
            dst[q1 * nd + q2] += v;
        }
}

/* out = (M + sum J^T Hl J) v over the island (dof-indexed vectors); blocks without
 * curvature (top zone: no force) are skipped. */
static void hess_mul(cs_solver_ws *w, const cs_problem *p, int isl, const double *v, double *out)
{
    const cs_efc *e = p->efc;
    cs_i_mass_mul(w, p, isl, out, v);
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], n = e->blk_nrow[k];
        int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
        const int *ci = e->J_colind + adr;
        const double *Hl = w->Hl + w->Gadr[k];
        if (e->blk_zone[k] == CS_ZONE_TOP) continue;
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

/* In place: A (n x n SPD) -> A^-1, through its Cholesky factor. The preconditioner is
 * applied about a dozen times per factor, so a product beats two triangular solves. */
static void invert_spd(int n, double *A)
{
    double L[64 * 64], e[64];
    if (n > 64) return; /* trees this large are not preconditioned (the identity) */
    memcpy(L, A, sizeof(double) * n * n);
    if (cs_i_chol(n, L)) { /* not PD (cannot happen): the identity */
        for (int i = 0; i < n * n; i++) A[i] = i % (n + 1) == 0;
        return;
    }
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) e[i] = i == j;
        cs_i_chol_solve(n, L, e);
        for (int i = 0; i < n; i++) A[i * n + j] = e[i];
    }
}

/* z = P r for a tree's inverted block (identity above 64 dofs) */
static void apply_block(int n, const double *P, const double *r, double *z)
{
    if (n > 64) {
        memcpy(z, r, sizeof(double) * n);
        return;
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += P[i * n + j] * r[j];
        z[i] = s;
    }
}

/* Large islands: solve H x = -g by conjugate gradients, matrix-free, preconditioned with
 * the per-tree diagonal blocks of H (Cholesky-factored). The exact line search that
 * follows makes an inexact direction safe; CG from 0 always yields a descent direction. */
static void pcg(cs_solver_ws *w, const cs_problem *p, int isl, const double *g, double *x)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int nv = w->nv;
    double *r = w->pcg, *z = r + nv, *d = z + nv, *Hd = d + nv;
    /* per-tree blocks: M's, plus each block's J^T Hl J restricted to a side's tree; local
     * index of a dof in its tree goes through w->dof_local */
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        double *P = w->P + w->tree_Padr[tr];
        for (int i = 0; i < nd; i++) {
            w->dof_local[lo + i] = i;
            for (int j = 0; j <= i; j++) P[i * nd + j] = P[j * nd + i] = cs_mass_get(M, lo + i, lo + j);
        }
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        if (e->blk_zone[k] == CS_ZONE_TOP) continue;
        for (int s = 0, c0 = 0; s < 2; s++) { /* a side's columns are its tree's dofs */
            int tr = e->blk_tree[2 * k + s], nd = e->blk_ndof[2 * k + s];
            if (tr >= 0) add_side_jthj(e, k, w->Hl + w->Gadr[k], c0, nd, w->P + w->tree_Padr[tr]);
            c0 += nd;
        }
    }
    for (int t = 0; t < w->isl_tree_num[isl]; t++) { /* the upper triangle from the lower */
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], nd = M->tree_dofnum[tr];
        double *P = w->P + w->tree_Padr[tr];
        for (int i = 0; i < nd; i++)
            for (int j = i + 1; j < nd; j++) P[i * nd + j] = P[j * nd + i];
    }
    double rz = 0, g2 = 0;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        int nd = M->tree_dofnum[tr];
        double *P = w->P + w->tree_Padr[tr];
        invert_spd(nd, P); /* M's block PD plus PSD terms */
        for (int q = lo; q < lo + nd; q++) {
            x[q] = 0;
            r[q] = -g[q];
            z[q] = r[q];
            g2 += g[q] * g[q];
        }
        apply_block(nd, P, r + lo, z + lo);
        for (int q = lo; q < lo + nd; q++) {
            d[q] = z[q];
            rz += r[q] * z[q];
        }
    }
    for (int it = 0; it < w->isl_nv[isl] + 50; it++) {
        hess_mul(w, p, isl, d, Hd);
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
            apply_block(nd, w->P + w->tree_Padr[tr], r + lo, z + lo);
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
        double j[CS_MAXROWS], f[CS_MAXROWS], h[CS_MAXROWS * CS_MAXROWS], l;
        for (int r = 0; r < n; r++) j[r] = jr[r] + alpha * Jd[r];
        cs_efc_soft(e, k, j, f, &l, h);
        for (int r = 0; r < n; r++) {
            s1 -= f[r] * Jd[r];
            double hv = 0;
            for (int c = 0; c < n; c++) hv += h[r * n + c] * Jd[c];
            s2 += Jd[r] * hv;
        }
    }
    *d1 = s1;
    *d2 = s2;
}

static double line_search(cs_solver_ws *w, const cs_problem *p, int isl, double dMr, double dMd)
{
    double d0, h0, lo = 0, hi, a = 1, d1, d2;
    line_eval(w, p, isl, 0, dMr, dMd, &d0, &h0);
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

int cs_i_newton_iterate(cs_solver_ws *w, cs_thread_ws *t, int isl, int max_iter, int first_step)
{
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], nv = w->isl_nv[isl];
    double *a = w->a, *g = w->grad, *dir = w->dir, *Md = w->Mdir, *H = t->H;
    double scale = cs_i_scale(w, p, isl);
    double cost = cs_i_primal(w, p, isl, a);
    int dmax = o->newton_dense_max == 0 ? w->dmax : o->newton_dense_max;
    if (dmax > w->dmax) dmax = w->dmax;
    int dense = nv <= dmax;
    for (int b = 0; b < nbk && dense; b++) /* add_jthj takes rows of up to 64 dofs */
        dense = e->J_rownnz[e->blk_row[w->isl_blocks[badr + b]]] <= 64;
    if (dense) island_order(w, p, isl);
    int iter = 0;
    while (iter < max_iter) {
        /* gradient M (a - a0) - J^T f; block Hessians of the soft-cone costs */
        FOR_ISLAND_DOFS(w, p, isl, q) w->tmp[q] = a[q] - p->a0[q];
        cs_i_mass_mul(w, p, isl, g, w->tmp);
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
            int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
            const int *ci = e->J_colind + adr;
            double f[CS_MAXROWS], l;
            cs_i_resid(e, k, a, w->jres + r0);
            e->blk_zone[k] = cs_efc_soft(e, k, w->jres + r0, f, &l, w->Hl + w->Gadr[k]);
            for (int r = 0; r < e->blk_nrow[k]; r++) {
                const double *J = e->J + adr + r * nnz;
                for (int q = 0; q < nnz; q++) g[ci[q]] -= J[q] * f[r];
            }
        }
        double gn = 0;
        FOR_ISLAND_DOFS(w, p, isl, q) gn += g[q] * g[q];
        /* as MuJoCo: always attempt one Newton step, test the gradient only after it (a
         * warm start that already meets the tolerance would otherwise keep its forces,
         * which lag the optimum by up to the tolerance step after step) */
        if ((iter > 0 || !first_step) && scale * sqrt(gn) < o->tolerance) break;
        if (dense) {
            /* H = M + sum J^T Hl J over the island's dofs (lower triangle), Cholesky */
            memset(H, 0, sizeof(double) * nv * nv);
            for (int tt = 0; tt < w->isl_tree_num[isl]; tt++) {
                int tr = w->isl_trees[w->isl_tree_adr[isl] + tt], lo = p->M->tree_dofadr[tr];
                for (int i = lo; i < lo + p->M->tree_dofnum[tr]; i++)
                    for (int j = lo; j <= i; j++)
                        H[w->dof_local[i] * nv + w->dof_local[j]] = cs_mass_get(p->M, i, j);
            }
            for (int b = 0; b < nbk; b++) {
                int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
                int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0], map[64];
                const int *ci = e->J_colind + adr;
                if (nnz > 64) continue;
                for (int q = 0; q < nnz; q++) map[q] = w->dof_local[ci[q]];
                add_jthj(e, k, w->Hl + w->Gadr[k], map, H, nv);
            }
            if (cs_i_chol_env(nv, H, t->first)) break; /* cannot occur with M PD */
            double *x = t->x;
            FOR_ISLAND_DOFS(w, p, isl, q) x[w->dof_local[q]] = -g[q];
            cs_i_chol_env_solve(nv, H, t->first, x);
            FOR_ISLAND_DOFS(w, p, isl, q) dir[q] = x[w->dof_local[q]];
        } else {
            pcg(w, p, isl, g, dir);
        }
        cs_i_mass_mul(w, p, isl, Md, dir);
        double dMr = 0, dMd = 0;
        FOR_ISLAND_DOFS(w, p, isl, q) {
            dMr += Md[q] * (a[q] - p->a0[q]);
            dMd += Md[q] * dir[q];
        }
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b];
            block_mul(e, k, dir, w->Jd + e->blk_row[k]);
        }
        double alpha = line_search(w, p, isl, dMr, dMd);
        iter++;
        if (alpha == 0) break;
        FOR_ISLAND_DOFS(w, p, isl, q) a[q] += alpha * dir[q];
        double nc = cs_i_primal(w, p, isl, a);
        st->improvement = scale * (cost - nc);
        cost = nc;
        if (st->improvement < o->tolerance) break;
    }
    /* reported forces: the soft-cone forces at the final a */
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
        double l;
        cs_i_resid(e, k, a, w->jres + r0);
        cs_efc_soft(e, k, w->jres + r0, e->force + r0, &l, NULL);
    }
    return iter;
}
