/* MuJoCo's CG (engine_solver.c, mj_solCG): primal nonlinear conjugate gradients on
 * 1/2 (a - a0)^T M (a - a0) + sum_k l_k(J_k a - a_ref_k) (docs/contact-math.md §7), the
 * cost Newton minimises, per island. Preconditioned by M^-1 (the smooth stage's factor,
 * per tree): the search starts along -M^-1 g and the directions are Polak-Ribiere's with
 * restarts, beta = max(0, g^T M^-1 (g - g_old) / g_old^T M^-1 g_old). Each step is the
 * exact line search Newton uses (primal.c), from the Newton step of the cost along the
 * direction. No Hessian is formed or factored: an iteration costs a pass over the rows
 * and a solve with M's factor, where Newton's also assembles and factors H.
 *
 * Stopping as MuJoCo's: before the first step when the gap 1/2 g^T M^-1 g (which bounds the
 * cost above its minimum, the cost being strongly convex in the M norm) is below the
 * tolerance (scaled), after a step when the scaled improvement is positive and below it or
 * the scaled gradient norm is. */
#include "solver_internal.h"
#include "alloc.h"
#include "minval.h"

#include <math.h>
#include <string.h>

/* Trees of up to DENSE_TREE dofs (a free body: 6) keep M and M^-1 as dense blocks for the
 * solve: a dense 6 x 6 product is cheaper than walking the tree's sparse rows, and each
 * block serves every iteration of the step. Larger trees (long chains) use the sparse
 * operator, whose work grows with the tree's depth rather than its square. */
#define DENSE_TREE 12
/* The point's products kept along the steps drift by rounding; every REFRESH iterations
 * they are formed anew from a (a long solve run to a tight tolerance otherwise stalls at
 * the drift, ~1e-8 relative after 2000 steps; the bench piles need under 100) */
#define REFRESH 50

typedef struct {
    int nv;
    double *g, *Mg, *y, *s, *Ms;            /* per dof; y: scratch for M^-1 g */
    double *d, *Md;                         /* a - a0 and M (a - a0), kept along the steps */
    int cap_efc;
    size_t cap_quad;
    double *jres, *Jd;                      /* per row: J a - a_ref (kept along the steps),
                                               J s */
    double *quad;                           /* the line search's data, CS_LINE_QUAD_BLOCK a block */
    int *jres_at_a;                         /* per island: 1 when the warm start left
                                               J a - a_ref in jres */
    int *tree_adr;                          /* per tree: its blocks' offset in Mt and Mi, or
                                               -1 (sparse) */
    double *Mt, *Mi;                        /* dense M and M^-1 of the small trees */
    int nMt;
} cg_ws;

/* the island's small trees' dense M and M^-1 (M fixed for the step) */
static void dense_blocks(cg_ws *cw, const cs_solver_ws *w, int isl)
{
    const cs_mass *M = w->p->M;
    double scr[DENSE_TREE];
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], o = cw->tree_adr[tr];
        if (o < 0) continue;
        int lo = M->tree_dofadr[tr], nd = M->tree_dofnum[tr];
        double *A = cw->Mt + o, *B = cw->Mi + o;
        for (int i = 0; i < nd; i++)
            for (int j = 0; j <= i; j++)
                A[i * nd + j] = A[j * nd + i] = cs_mass_get(M, lo + i, lo + j);
        memcpy(B, A, sizeof(double) * (size_t)(nd * nd));
        cs_i_invert_spd(nd, B, scr);
    }
}

/* y = M x (inv = 0) or M^-1 x (inv = 1) on tree tr's dofs [lo, lo + nd); y and x differ */
static inline __attribute__((always_inline)) void tree_op(const cg_ws *cw, const cs_mass *M,
                                                          int tr, int lo, int nd, int inv,
                                                          double *y, const double *x)
{
    int o = cw->tree_adr[tr];
    if (o >= 0 && nd == 6) {
        cs_i_sym6_mv((inv ? cw->Mi : cw->Mt) + o, x + lo, y + lo);
    } else if (o >= 0) {
        cs_i_dense_mv(nd, (inv ? cw->Mi : cw->Mt) + o, x + lo, y + lo);
    } else if (inv) {
        memcpy(y + lo, x + lo, sizeof(double) * (size_t)nd);
        cs_mass_solve(M, y, lo, lo + nd);
    } else {
        cs_mass_mul(M, y, x, lo, lo + nd);
    }
}

/* the island's trees: tr, its first dof lo and its dofs nd */
#define FOR_TREES(w, M, isl, tr, lo, nd)                                                   \
    for (int t_ = 0, tr, lo, nd; t_ < (w)->isl_tree_num[isl] &&                             \
                                 (tr = (w)->isl_trees[(w)->isl_tree_adr[isl] + t_],          \
                                 lo = (M)->tree_dofadr[tr], nd = (M)->tree_dofnum[tr], 1);  \
         t_++)

/* The iteration's passes over one tree's dofs [lo, lo + nd); ND > 0 fixes nd at compile time
 * (free bodies). Their dot products keep two partial sums, of a tree's even and of its odd
 * dofs (each in the island's dof order; an odd tree's last dof goes to the even sum), added
 * at the end: the same for every thread count and build, and two independent chains of
 * additions in place of one. */

static inline double sum2(cs_v2d a) { return a[0] + a[1]; }

/* y = b y + x (b = 0: y not read), the pairs of dofs explicit (the vectors may alias as far
 * as the compiler knows) */
static inline __attribute__((always_inline)) void scale_add(double *y, double b, const double *x,
                                                            double xs, int nd)
{
    cs_v2d bb = {b, b}, xx = {xs, xs};
    int q = 0;
    if (b == 0) {
        for (; q + 1 < nd; q += 2) cs_i_store2(y + q, xx * cs_i_load2(x + q));
        if (q < nd) y[q] = xs * x[q];
    } else {
        for (; q + 1 < nd; q += 2) cs_i_store2(y + q, xx * cs_i_load2(x + q) + bb * cs_i_load2(y + q));
        if (q < nd) y[q] = xs * x[q] + b * y[q];
    }
}

/* y += alpha x */
static inline __attribute__((always_inline)) void axpy(double *y, double alpha, const double *x,
                                                       int nd)
{
    cs_v2d aa = {alpha, alpha};
    int q = 0;
    for (; q + 1 < nd; q += 2) cs_i_store2(y + q, cs_i_load2(y + q) + aa * cs_i_load2(x + q));
    if (q < nd) y[q] += alpha * x[q];
}

/* s = -M^-1 g + beta s, Ms = M s; acc += (s'M d, s'M s, g's, s's) */
static inline __attribute__((always_inline)) void
direction_tree(cg_ws *cw, const cs_mass *M, int tr, int lo, int nd, double beta, cs_v2d *acc,
               const int ND)
{
    if (ND > 0) nd = ND;
    double *s = cw->s + lo, *Ms = cw->Ms + lo;
    const double *Mg = cw->Mg + lo, *Md = cw->Md + lo, *g = cw->g + lo;
    scale_add(s, beta, Mg, -1, nd); /* beta = 0: s holds the last island's, or nothing yet */
    tree_op(cw, M, tr, lo, nd, 0, cw->Ms, cw->s);
    acc[0] = cs_i_dot2(acc[0], s, Md, nd);
    acc[1] = cs_i_dot2(acc[1], Ms, s, nd);
    acc[2] = cs_i_dot2(acc[2], g, s, nd);
    acc[3] = cs_i_dot2(acc[3], s, s, nd);
}

/* a and d = a - a0 step by alpha s, Md by alpha Ms (fresh: d and Md formed anew), g = Md;
 * *acc += d'M d (the cost is half of it) */
static inline __attribute__((always_inline)) void
step_tree(cg_ws *cw, const cs_mass *M, const double *a0, double *a, int tr, int lo, int nd,
          double alpha, int fresh, cs_v2d *acc, const int ND)
{
    if (ND > 0) nd = ND;
    double *d = cw->d + lo, *Md = cw->Md + lo, *g = cw->g + lo, *al = a + lo;
    const double *s = cw->s + lo, *Ms = cw->Ms + lo;
    axpy(al, alpha, s, nd);
    axpy(d, alpha, s, nd);
    axpy(Md, alpha, Ms, nd);
    if (fresh) {
        for (int q = 0; q < nd; q++) d[q] = al[q] - a0[lo + q];
        tree_op(cw, M, tr, lo, nd, 0, cw->Md, cw->d);
    }
    memcpy(g, Md, sizeof(double) * (size_t)nd);
    *acc = cs_i_dot2(*acc, d, Md, nd);
}

/* Mg = M^-1 g; acc += (g'g, g'(Mg - Mg_old), g'Mg) */
static inline __attribute__((always_inline)) void
gradient_tree(cg_ws *cw, const cs_mass *M, int tr, int lo, int nd, cs_v2d *acc, const int ND)
{
    if (ND > 0) nd = ND;
    tree_op(cw, M, tr, lo, nd, 1, cw->y, cw->g);
    const double *g = cw->g + lo, *y = cw->y + lo;
    double *Mg = cw->Mg + lo;
    cs_v2d a0 = acc[0], a1 = acc[1], a2 = acc[2];
    int q = 0;
    for (; q + 1 < nd; q += 2) {
        cs_v2d gq = cs_i_load2(g + q), yq = cs_i_load2(y + q);
        a0 += gq * gq;
        a1 += gq * (yq - cs_i_load2(Mg + q));
        a2 += gq * yq;
        memcpy(Mg + q, &yq, sizeof yq);
    }
    if (q < nd) {
        a0[0] += g[q] * g[q];
        a1[0] += g[q] * (y[q] - Mg[q]);
        a2[0] += g[q] * y[q];
        Mg[q] = y[q];
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
}

/* u = J v (v gathered once) and g -= J^T f for one block's rows (n x nnz, row-major, columns
 * ci); N, NNZ > 0 fix the sizes at compile time for the common shapes, and condim 3 with an
 * even NNZ takes the columns two at a time (vectors of two doubles: SSE2, in every x86-64) */

/* 1 when the NNZ columns ci are runs of 6 consecutive dofs (free bodies' columns) */
static inline int runs6(const int *ci, int NNZ)
{
    int ok = 1;
    for (int q = 0; q < NNZ; q += 6) ok &= ci[q + 5] - ci[q] == 5;
    return ok;
}

static inline __attribute__((always_inline)) void
jmul(const double *J, const int *ci, int n, int nnz, const double *v, double *u, const int N,
     const int NNZ)
{
    if (N > 0) n = N;
    if (NNZ > 0) nnz = NNZ;
    double vl[2 * DENSE_TREE];
    if (N == 3 && NNZ > 0 && NNZ % 6 == 0 && runs6(ci, NNZ))
        for (int q = 0; q < NNZ; q += 6) memcpy(vl + q, v + ci[q], 6 * sizeof(double));
    else
        for (int q = 0; q < nnz; q++) vl[q] = v[ci[q]];
    if (N == 3 && NNZ > 0 && NNZ % 2 == 0) { /* the three rows at once */
        cs_v2d s0 = {0, 0}, s1 = {0, 0}, s2 = {0, 0};
        for (int q = 0; q < NNZ; q += 2) {
            cs_v2d x = cs_i_load2(vl + q);
            s0 += cs_i_load2(J + q) * x;
            s1 += cs_i_load2(J + NNZ + q) * x;
            s2 += cs_i_load2(J + 2 * NNZ + q) * x;
        }
        u[0] = s0[0] + s0[1];
        u[1] = s1[0] + s1[1];
        u[2] = s2[0] + s2[1];
        return;
    }
    for (int r = 0; r < n; r++, J += nnz) {
        double sum = 0;
        for (int q = 0; q < nnz; q++) sum += J[q] * vl[q];
        u[r] = sum;
    }
}

static inline __attribute__((always_inline)) void
jtmul(const double *J, const int *ci, int n, int nnz, const double *f, double *g, const int N,
      const int NNZ)
{
    if (N > 0) n = N;
    if (NNZ > 0) nnz = NNZ;
    if (N == 3 && NNZ > 0 && NNZ % 2 == 0) {
        cs_v2d f0 = {f[0], f[0]}, f1 = {f[1], f[1]}, f2 = {f[2], f[2]};
        if (NNZ % 6 == 0 && runs6(ci, NNZ)) { /* whole bodies: g's entries in pairs */
            for (int q = 0; q < NNZ; q += 2) {
                cs_v2d sum = cs_i_load2(J + q) * f0 + cs_i_load2(J + NNZ + q) * f1 + cs_i_load2(J + 2 * NNZ + q) * f2;
                double *gq = g + ci[q - q % 6] + q % 6;
                cs_v2d gv = cs_i_load2(gq) - sum;
                memcpy(gq, &gv, sizeof gv);
            }
            return;
        }
        for (int q = 0; q < NNZ; q += 2) {
            cs_v2d sum = cs_i_load2(J + q) * f0 + cs_i_load2(J + NNZ + q) * f1 + cs_i_load2(J + 2 * NNZ + q) * f2;
            g[ci[q]] -= sum[0];
            g[ci[q + 1]] -= sum[1];
        }
        return;
    }
    for (int q = 0; q < nnz; q++) {
        double sum = 0;
        for (int r = 0; r < n; r++) sum += J[r * nnz + q] * f[r];
        g[ci[q]] -= sum;
    }
}

/* u = J v for block k (v dof-indexed) */
static void block_mul(const cs_efc *e, int k, const double *v, double *u)
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0], n = e->blk_nrow[k];
    const int *ci = e->J_colind + adr;
    const double *J = e->J + adr;
    if (n == 3 && nnz == 6) jmul(J, ci, n, nnz, v, u, 3, 6);
    else if (n == 3 && nnz == 12) jmul(J, ci, n, nnz, v, u, 3, 12);
    else if (nnz <= 2 * DENSE_TREE) jmul(J, ci, n, nnz, v, u, 0, 0);
    else cs_i_block_mul(e, k, v, u); /* sides of large trees */
}

/* g -= J^T f over columns lo .. hi of n rows (N > 0: n fixed at compile time); two columns
 * to a vector, each column's sum in the same order as one at a time */
static inline __attribute__((always_inline)) void
tmul_cols(const double *J, const int *ci, int nnz, const double *f, double *g, int lo, int hi,
          const int N)
{
    int q = lo;
    for (; q + 1 < hi; q += 2) {
        cs_v2d sum = {0, 0};
        for (int r = 0; r < N; r++) sum += cs_i_load2(J + r * nnz + q) * (cs_v2d){f[r], f[r]};
        g[ci[q]] -= sum[0];
        g[ci[q + 1]] -= sum[1];
    }
    for (; q < hi; q++) {
        double sum = 0;
        for (int r = 0; r < N; r++) sum += J[r * nnz + q] * f[r];
        g[ci[q]] -= sum;
    }
}

/* g -= J^T f for block k */
static void block_tmul(const cs_efc *e, int k, const double *f, double *g)
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0], n = e->blk_nrow[k];
    const int *ci = e->J_colind + adr;
    const double *J = e->J + adr;
    if (n == 3 && nnz == 6) {
        jtmul(J, ci, n, nnz, f, g, 3, 6);
    } else if (n == 3 && nnz == 12) {
        jtmul(J, ci, n, nnz, f, g, 3, 12);
    } else { /* the columns that can be nonzero (the rest would subtract exact zeros) */
        int lo[2], hi[2];
        cs_i_cols(e, k, lo, hi);
        for (int h = 0; h < 2; h++) {
            if (n == 3) tmul_cols(J, ci, nnz, f, g, lo[h], hi[h], 3);
            else tmul_cols(J, ci, nnz, f, g, lo[h], hi[h], n);
        }
    }
}

/* At the current point (d = a - a0, Md = M d, jres = J a - a_ref), the blocks' part: the
 * soft-cone forces into e->force, the zones, g -= J^T f; returns the blocks' cost. As
 * MuJoCo's CG, the point's products are updated along each step (a += alpha s: Md += alpha
 * M s, jres += alpha J s) rather than formed anew: an iteration then makes one product
 * with M, one solve with its factor and one pass over J each way. alpha != 0: jres is
 * moved by alpha Jd first. */
static double blocks_eval(cg_ws *cw, const cs_solver_ws *w, int isl, double alpha,
                          const cs_line *L)
{
    cs_efc *e = w->p->efc;
    double c = 0, *g = cw->g;
    const double *rc = L->ell + CS_LINE_ELL_CONST; /* the elliptic blocks' constants, in order */
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k], n = e->blk_nrow[k];
        double *f = e->force + r0, *j = cw->jres + r0, l;
        const double *jd = cw->Jd + r0;
        if (alpha != 0 && n == 3) {
            j[0] += alpha * jd[0];
            j[1] += alpha * jd[1];
            j[2] += alpha * jd[2];
        } else if (alpha != 0) {
            for (int r = 0; r < n; r++) j[r] += alpha * jd[r];
        }
        cs_zone z;
        if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) {
            z = cs_efc_soft(e, k, j, f, &l, NULL);
        } else {
            const double *mu = e->blk_friction + 5 * k;
            z = n == 3 ? cs_i_soft_ell(n, j, mu, rc, f, &l, 3) : cs_i_soft_ell(n, j, mu, rc, f, &l, 0);
            rc += CS_LINE_ELL;
        }
        e->blk_zone[k] = z;
        if (z == CS_ZONE_TOP) continue;
        c += l;
        block_tmul(e, k, f, g);
    }
    return c;
}

static cs_iter_status cg_iterate(void *ws, cs_solver_ws *w, int thread, int isl, int max_iter,
                                 int handoff, int *iters)
{
    (void)thread;
    (void)handoff;
    cg_ws *cw = ws;
    const cs_problem *p = w->p;
    const cs_mass *M = p->M;
    const cs_solver_opts *o = w->o;
    cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    double *a = w->a, *g = cw->g, *Mg = cw->Mg, *s = cw->s;
    double *d = cw->d, *Md = cw->Md;
    double scale = cs_i_scale_primal(w, p, isl);
    dense_blocks(cw, w, isl);
    cs_line L;
    cs_i_line_layout(w, isl, cw->quad, &L);
    /* the start: d, M d, J a - a_ref, cost, gradient, M^-1 g */
    cs_v2d dMd2 = {0, 0}, gMg2 = {0, 0}; /* d'M d, g'M^-1 g, summed as in the iterations */
    FOR_TREES(w, M, isl, tr, lo, nd) {
        for (int q = lo; q < lo + nd; q++) d[q] = a[q] - p->a0[q];
        tree_op(cw, M, tr, lo, nd, 0, Md, d);
        memcpy(g + lo, Md + lo, sizeof(double) * (size_t)nd);
        dMd2 = cs_i_dot2(dMd2, d + lo, Md + lo, nd);
    }
    double cost = 0.5 * sum2(dMd2);
    if (!cw->jres_at_a[isl]) /* the warm start made them */
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b];
            cs_i_resid(e, k, a, cw->jres + e->blk_row[k]);
        }
    cw->jres_at_a[isl] = 0;
    cost += blocks_eval(cw, w, isl, 0, &L);
    FOR_TREES(w, M, isl, tr, lo, nd) {
        tree_op(cw, M, tr, lo, nd, 1, Mg, g);
        gMg2 = cs_i_dot2(gMg2, g + lo, Mg + lo, nd);
    }
    double gMg = sum2(gMg2);
    *iters = 0;
    if (fmax(0, 0.5 * scale * gMg) < o->tolerance) return CS_ITER_CONVERGED;
    int iter = 0;
    double beta = 0; /* the first direction: -M^-1 g */
    cs_iter_status status = CS_ITER_LIMIT;
    while (iter < max_iter) {
        /* the direction, its M product and the line's scalars */
        cs_v2d dots[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}}; /* s'M d, s'M s, g's, s's */
        FOR_TREES(w, M, isl, tr, lo, nd) {
            if (nd == 6) direction_tree(cw, M, tr, lo, nd, beta, dots, 6);
            else direction_tree(cw, M, tr, lo, nd, beta, dots, 0);
        }
        double dMr = sum2(dots[0]), dMd = sum2(dots[1]), d0 = sum2(dots[2]), sn = sum2(dots[3]);
        cs_i_line_begin(&L);
        for (int b = 0; b < nbk; b++) { /* J s, and the block's data along the line */
            int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
            block_mul(e, k, s, cw->Jd + r0);
            cs_i_line_add(e, k, cw->jres + r0, cw->Jd + r0, &L);
        }
        /* from the Newton step of the cost along s (CG's s has no natural length) */
        double gtol = o->tolerance * o->ls_tolerance * sqrt(sn) / scale;
        double alpha = cs_i_line_run(&L, dMr, dMd, d0, 0, gtol, o->ls_iterations);
        if (alpha == 0) {
            status = CS_ITER_STALLED;
            break;
        }
        /* the step, and the cost and gradient there */
        dMd2 = (cs_v2d){0, 0};
        int fresh = (iter + 1) % REFRESH == 0;
        FOR_TREES(w, M, isl, tr, lo, nd) {
            if (nd == 6) step_tree(cw, M, p->a0, a, tr, lo, nd, alpha, fresh, &dMd2, 6);
            else step_tree(cw, M, p->a0, a, tr, lo, nd, alpha, fresh, &dMd2, 0);
        }
        if (fresh)
            for (int b = 0; b < nbk; b++) {
                int k = w->isl_blocks[badr + b];
                cs_i_resid(e, k, a, cw->jres + e->blk_row[k]);
            }
        double c = 0.5 * sum2(dMd2) + blocks_eval(cw, w, isl, fresh ? 0 : alpha, &L);
        double den = gMg;
        cs_v2d gr[3] = {{0, 0}, {0, 0}, {0, 0}}; /* g'g, g'(M^-1 g - M^-1 g_old), g'M^-1 g */
        FOR_TREES(w, M, isl, tr, lo, nd) {
            if (nd == 6) gradient_tree(cw, M, tr, lo, nd, gr, 6);
            else gradient_tree(cw, M, tr, lo, nd, gr, 0);
        }
        double gn = sum2(gr[0]), num = sum2(gr[1]);
        gMg = sum2(gr[2]);
        st->improvement = scale * (cost - c);
        cost = c;
        iter++;
        if ((st->improvement > 0 && st->improvement < o->tolerance) ||
            scale * sqrt(gn) < o->tolerance) {
            status = CS_ITER_CONVERGED;
            break;
        }
        /* Polak-Ribiere, restarted (beta = 0) where it turns negative */
        beta = fmax(0, num / fmax(CS_MINVAL, den));
    }
    *iters = iter;
    return status;
}

/* the blocks' soft cost at residuals j (row-indexed, the island's blocks); f: scratch */
static double blocks_cost(const cs_solver_ws *w, int isl, const double *j)
{
    const cs_efc *e = w->p->efc;
    double c = 0, f[CS_MAXROWS], l;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        cs_i_soft_force(e, k, j + e->blk_row[k], f, &l);
        c += l;
    }
    return c;
}

/* As Newton's: the warm acceleration replaces a0 if its primal cost is lower. The residuals
 * of the one kept stay in jres for the first iteration. */
static void cg_warm_start(void *ws, cs_solver_ws *w, int thread, int isl)
{
    (void)thread;
    cg_ws *cw = ws;
    const cs_problem *p = w->p;
    const cs_efc *e = p->efc;
    const double *aw = w->a_warm;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    for (int b = 0; b < nbk; b++) { /* J a0 - a_ref into Jd, J a_warm - a_ref into jres */
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
        cs_i_resid(e, k, p->a0, cw->Jd + r0);
        cs_i_resid(e, k, aw, cw->jres + r0);
    }
    double c0 = blocks_cost(w, isl, cw->Jd), cwarm = 0;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) cw->d[q] = aw[q] - p->a0[q];
    cs_i_mass_mul(w, p, isl, cw->Md, cw->d);
    CS_FOR_ISLAND_DOFS(w, p, isl, q) cwarm += 0.5 * cw->d[q] * cw->Md[q];
    cwarm += blocks_cost(w, isl, cw->jres);
    if (cwarm < c0) {
        CS_FOR_ISLAND_DOFS(w, p, isl, q) w->a[q] = aw[q];
        w->ist[isl].warm_used = 1;
    } else {
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
            memcpy(cw->jres + r0, cw->Jd + r0, sizeof(double) * (size_t)e->blk_nrow[k]);
        }
    }
    cw->jres_at_a[isl] = 1;
}

static void cg_destroy(void *ws)
{
    cg_ws *cw = ws;
    if (!cw) return;
    void *arr[] = {cw->g, cw->Mg, cw->y, cw->s, cw->Ms, cw->d, cw->Md, cw->jres,
                   cw->Jd, cw->quad, cw->tree_adr, cw->Mt, cw->Mi, cw->jres_at_a};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) cs_free(arr[i]);
    cs_free(cw);
}

static void *cg_create(const cs_solver_ws *w)
{
    cg_ws *cw = cs_calloc(1, sizeof *cw);
    if (!cw) return NULL;
    size_t n = sizeof(double) * (size_t)(w->nv > 0 ? w->nv : 1);
    cw->nv = w->nv;
    if (!(cw->g = cs_malloc(n)) || !(cw->Mg = cs_malloc(n)) || !(cw->y = cs_malloc(n)) ||
        !(cw->s = cs_malloc(n)) || !(cw->Ms = cs_malloc(n)) ||
        !(cw->d = cs_malloc(n)) || !(cw->Md = cs_malloc(n)) ||
        !(cw->tree_adr = cs_malloc(sizeof(int) * (size_t)(w->ntree > 0 ? w->ntree : 1))) ||
        !(cw->jres_at_a = cs_calloc((size_t)(w->ntree > 0 ? w->ntree : 1), sizeof(int)))) {
        cg_destroy(cw);
        return NULL;
    }
    return cw;
}

static int cg_reserve(void *ws, const cs_solver_ws *w)
{
    cg_ws *cw = ws;
    const cs_mass *M = w->p->M;
    int nefc = w->p->efc->nefc, nb = w->p->efc->nblock, nMt = 0;
    for (int t = 0; t < M->ntree; t++) { /* the small trees' dense blocks */
        int nd = M->tree_dofnum[t];
        cw->tree_adr[t] = nd <= DENSE_TREE ? nMt : -1;
        if (nd <= DENSE_TREE) nMt += nd * nd;
    }
    if (nMt > cw->nMt || !cw->Mt) {
        if (cs_i_resize((void **)&cw->Mt, sizeof(double), nMt + 1) ||
            cs_i_resize((void **)&cw->Mi, sizeof(double), nMt + 1))
            return -1;
        cw->nMt = nMt;
    }
    if (CS_LINE_QUAD_BLOCK * (size_t)nb > cw->cap_quad) {
        size_t c = CS_LINE_QUAD_BLOCK * (size_t)cs_i_more(nb);
        if (cs_i_resize((void **)&cw->quad, sizeof(double) * CS_LINE_QUAD_BLOCK, cs_i_more(nb)))
            return -1;
        cw->cap_quad = c;
    }
    if (nefc <= cw->cap_efc) return 0;
    int c = cs_i_more(nefc);
    if (cs_i_resize((void **)&cw->jres, sizeof(double), c) ||
        cs_i_resize((void **)&cw->Jd, sizeof(double), c))
        return -1;
    cw->cap_efc = c;
    return 0;
}

const cs_method cs_method_cg = {
    .name = "CG",
    .slot = CS_METHOD_CG,
    .needs = 0, /* works from J and M's factor */
    .create = cg_create,
    .destroy = cg_destroy,
    .reserve = cg_reserve,
    .warm_start = cg_warm_start,
    .iterate = cg_iterate,
    .store = cs_i_store_decode,
};
