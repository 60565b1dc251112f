/* The solver's inside, not part of the public API: the driver's workspace and stages, the
 * interface every method implements, and the primitives the methods share.
 *
 * Who calls whom (no cycle): the driver (solver.c) runs the stages and calls the methods
 * through the table (methods.c); a method (pgs.c, newton.c, cg.c) calls only the
 * primitives (kernels.c: block pieces; primal.c: the primal cost, gradient and line search;
 * localqp.c, blockqp.c, mass.c) and never another method. */
#ifndef CS_SOLVER_INTERNAL_H
#define CS_SOLVER_INTERNAL_H

#include "blockqp.h"
#include "solver.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* A hot kernel compiled twice, for AVX2 and for the baseline, the one the processor runs
 * picked at load time. Element-wise vector arithmetic rounds as scalar arithmetic does (no
 * fused multiply-add: C17 contracts nothing, and AVX2 alone does not imply FMA), so both
 * give the same bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CS_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CS_VECTOR_CLONES
#endif

#include "chol.h"

/* ---- the driver's stages (solver.c), in order ----------------------------------------
 * The first runs once per solve on the caller's thread (islands, every workspace grown to
 * the step); the others run per island on the pool's threads, one island per thread at a
 * time. */
typedef enum {
    CS_STAGE_PREPARE,   /* islands; per block W = M^-1 J^T and G = J W + R where needed */
    CS_STAGE_WARMSTART, /* the plan's first method from the previous acceleration */
    CS_STAGE_ITERATE,   /* the first method, then the finishing one if the first asks */
    CS_STAGE_NOSLIP,    /* MuJoCo's noslip pass over the friction rows, when asked */
    CS_STAGE_STORE,     /* forces and zones onto the blocks */
    CS_STAGE_STATS,     /* residual statistics (only with opts.stats) */
    CS_STAGE_COUNT
} cs_solve_stage;

/* What a method needs prepared per block before its warm start. */
enum {
    CS_NEED_W = 1 << 0, /* W = M^-1 J^T, laid out as J (cs_i_apply) */
    CS_NEED_G = 1 << 1, /* G = J W + R, nrow^2 at Gadr (implies W) */
    CS_NEED_Y = 1 << 2  /* Y = D^-1/2 L^-T J^T of the blocks noslip sweeps, laid out as J
                           over the columns cs_i_cols gives (J M^-1 J^T = Y^T Y, M = L^T D L) */
};

/* How an iterate ended. */
typedef enum {
    CS_ITER_CONVERGED, /* the method's stopping rule met the tolerance */
    CS_ITER_LIMIT,     /* the iterations it was given are used up */
    CS_ITER_STALLED,   /* no step decreases the cost any more (rounding) */
    CS_ITER_HANDOFF    /* it asks for the plan's finishing method from its point */
} cs_iter_status;

/* A method: one file, its own workspace. Every hook but iterate may be NULL.
 * - create: its workspace for the driver's model (sizes from w->nv, w->ntree).
 * - reserve: before a solve's islands run, on the caller's thread: grow its per-step
 *   storage to this problem (w->p) and thread count (w->nthread); 0, or -1 out of memory.
 *   Nothing grows once a scene's largest step has been seen.
 * - warm_start: island isl from w->a_warm (not NULL), w->a = a0 on the island's dofs.
 * - iterate: at most max_iter iterations from w->a (and e->force for a dual method); on
 *   return w->a and e->force are the method's result on the island's dofs and blocks
 *   (e->force the soft-cone forces at w->a for a primal method, blk_zone current).
 *   handoff: 1 when called from another method's point (the first step then tests the
 *   gradient before stepping). *iters: iterations taken.
 * - store: the island's forces in the contact frame and its zones (NULL: the driver's, the
 *   zones of the soft response at the final acceleration).
 * - stats: the island's statistics (NULL: the driver's, of the soft problem).
 * - end: after all islands, on the caller's thread (what a method keeps for the next step). */
typedef struct cs_method {
    const char *name;
    int slot;  /* its workspace's index in the driver (its cs_solve_method) */
    int needs; /* CS_NEED_* */
    int lazy;  /* 1: it prepares W and G of the blocks it needs them for itself
                  (cs_i_prepare_block): the prepare stage only reserves their storage */
    void *(*create)(const cs_solver_ws *w);
    void (*destroy)(void *ws);
    int (*reserve)(void *ws, const cs_solver_ws *w);
    void (*warm_start)(void *ws, cs_solver_ws *w, int thread, int isl);
    cs_iter_status (*iterate)(void *ws, cs_solver_ws *w, int thread, int isl, int max_iter,
                              int handoff, int *iters);
    void (*store)(void *ws, cs_solver_ws *w, int isl);
    void (*stats)(void *ws, cs_solver_ws *w, int isl);
    void (*end)(void *ws, cs_solver_ws *w);
} cs_method;

/* A row of the method table (methods.c): the method that runs, and the one that finishes
 * from its point when it hands over (NULL: none). */
typedef struct {
    const cs_method *run;
    const cs_method *finish;
    const cs_method *inner; /* a method the run method solves subproblems with, through
                               cs_i_inner (NULL: none) */
} cs_plan;

extern const cs_plan cs_plans[CS_METHOD_COUNT];
extern const cs_method cs_method_pgs, cs_method_newton, cs_method_cg, cs_method_coulomb,
    cs_method_coulomb_newton;

/* The plan's inner method on island isl from w->a (its iterate hook; *iters: iterations),
 * stopping at tolerance tol. */
cs_iter_status cs_i_inner(cs_solver_ws *w, int thread, int isl, int max_iter, int handoff,
                          double tol, int *iters);
/* W (and G) of the island's blocks as needs asks, where the prepare stage has not made them
 * yet (a method or statistics that need them for some islands only). */
void cs_i_prepare_island(cs_solver_ws *w, int isl, int needs);
/* W (and G) of block k alone, as needs asks (a lazy method's blocks). */
void cs_i_prepare_block(cs_solver_ws *w, int k, int needs);

/* ---- the driver's workspace ---------------------------------------------------------- */
struct cs_solver_ws {
    int nv, ntree;
    /* per dof */
    double *a;                       /* the acceleration being solved */
    double *s0, *s1, *s2, *s3;       /* scratch: s0, s1 for cs_i_primal and the prepare
                                        stage; s2, s3 for the statistics */
    double *sW;                      /* CS_MAXROWS per dof: a block's rows, interleaved, for
                                        W = M^-1 J^T (the prepare stage) */
    int *mark;                       /* per dof, 0 between uses: the prepare stage's marks */
    /* per tree */
    int *uf, *tree_island;           /* union-find parent; island */
    int *tadjadr, *tadj;             /* trees joined by blocks (CSR, built with the islands) */
    /* islands */
    int nisland;
    int *isl_tree_adr, *isl_tree_num, *isl_trees, *isl_nv;
    int *isl_block_adr, *isl_block_num, *isl_blocks;
    int *isl_prep;                   /* per island: the CS_NEED_* its blocks have now */
    cs_island_stats *ist;
    /* per step, grown as needed */
    int cap_block, cap_W, cap_G, cap_Y, cap_rowb, cap_ycnt, cap_A;
    int *Gadr;                       /* per block: offset of its nrow^2 entries (G and any
                                        method's per-block matrices share the layout) */
    int nG;                          /* sum of nrow^2 over the step's blocks */
    double *W;                       /* nnz, CS_NEED_W: M^-1 J^T, laid out as J */
    double *G;                       /* nG, CS_NEED_G: J M^-1 J^T + R (row-major) */
    double *Y;                       /* nnz, CS_NEED_Y: D^-1/2 L^-T J^T, laid out as J */
    double *rowb;                    /* nefc, with Y: noslip's residuals at its start */
    int *ycol;                       /* nnz, with Y: at a swept block's first row's J_rowadr,
                                        the positions where a row of its Y is nonzero,
                                        ascending (side 0's, then side 1's) */
    int *ycnt;                       /* 2 per block, with Y: per side, how many in ycol */
    double *A;                       /* nG, with Y: noslip's matrices Y^T Y of a swept
                                        block's subproblems, at Gadr (made once a pass) */
    int needs;                       /* the storage the solve in progress has (CS_NEED_*) */
    int prep;                        /* what the prepare stage makes for every island */
    /* the methods' own workspaces, by slot (made at the first solve that runs them) */
    void *mws[CS_METHOD_COUNT];
    /* threads */
    int nthread;
    double tol[64];                  /* per thread: the stopping tolerance of the method
                                        iterating there (opts.tolerance, or an inner
                                        method's own, cs_i_inner) */
    struct cs_pool *pool;
    /* the solve in progress (read by the worker threads) */
    const cs_problem *p;
    const cs_solver_opts *o;
    const double *a_warm;
};

/* ---- primitives (kernels.c) ---------------------------------------------------------- */

/* In-place heapsort, ascending (glibc's qsort may allocate, and a step allocates nothing). */
void cs_i_sort_ll(long long *v, int n);
/* j = J a - aref for block k (rows in order). */
void cs_i_resid(const cs_efc *e, int k, const double *a, double *j);
/* u = J v for block k (v dof-indexed). */
void cs_i_block_mul(const cs_efc *e, int k, const double *v, double *u);
/* v += J^T f for block k (v dof-indexed; over the columns that can be nonzero, rows in
 * order). */
void cs_i_add_jt(const cs_efc *e, int k, const double *f, double *v);
/* a += M^-1 J^T d for block k (uses W). */
void cs_i_apply(const cs_solver_ws *w, const cs_efc *e, int k, const double *d, double *a);
/* cs_efc_soft's forces, cost and zone without the Hessian (an elliptic block's in one pass) */
cs_zone cs_i_soft_force(const cs_efc *e, int k, const double *j, double *f, double *cost);

/* an elliptic block's part of it: cs_soft_cone without the Hessian, in terms of u = D j_t
 * and T = |u|; rc: R_n, kappa and the reciprocals 1/R_n, 1/kappa, 1/(R_n + kappa) (an
 * elliptic line record's constants, CS_LINE_ELL_CONST on); N > 0 fixes n at compile time */
static inline __attribute__((always_inline)) cs_zone
cs_i_soft_ell(int n, const double *j, const double *mu, const double *rc, double *f,
              double *cost, const int N)
{
    if (N > 0) n = N;
    double Rn = rc[0], kap = rc[1];
    double u[CS_MAXDIM], t2 = 0;
    for (int i = 1; i < n; i++) {
        u[i] = mu[i - 1] > 0 ? mu[i - 1] * j[i] : 0;
        t2 += u[i] * u[i];
    }
    double T = sqrt(t2), jn = j[0];
    if (jn >= T) { /* top */
        for (int i = 0; i < n; i++) f[i] = 0;
        *cost = 0;
        return CS_ZONE_TOP;
    }
    if (kap * jn + Rn * T <= 0) { /* bottom: f = -R^-1 j, R_i = kappa / mu_i^2 */
        double ik = rc[3];
        f[0] = -jn * rc[2];
        double c = jn * jn * rc[2];
        for (int i = 1; i < n; i++) {
            double wi = mu[i - 1] > 0 ? mu[i - 1] * mu[i - 1] * ik : 0;
            f[i] = -wi * j[i];
            c += wi * j[i] * j[i];
        }
        *cost = 0.5 * c;
        return CS_ZONE_BOTTOM;
    }
    double fn = (T - jn) * rc[4], sc = fn / T; /* middle */
    f[0] = fn;
    for (int i = 1; i < n; i++) f[i] = -sc * (mu[i - 1] > 0 ? mu[i - 1] : 0) * u[i];
    *cost = 0.5 * (T - jn) * fn;
    return CS_ZONE_MIDDLE;
}
/* the noslip pass on an island (noslip.c): row forces and w->a are final on return */
void cs_i_noslip(cs_solver_ws *w, int isl);
/* Exact-size (re)allocation of a per-step array (its capacity is tracked by the caller);
 * 0, or -1 out of memory with *p unchanged. */
int cs_i_resize(void **p, size_t elem, int n);
/* the capacity to grow to when `need` does not fit: half again, plus a little */
int cs_i_more(int need);
/* store stage of a method whose row forces are final: decode each block's force */
void cs_i_store_decode(void *ws, cs_solver_ws *w, int isl);
/* the scale of PGS's improvement: 1 / (meaninertia * max(1, the model's dofs)), on every
 * island as MuJoCo's PGS */
double cs_i_scale(const cs_solver_ws *w, const cs_problem *p, int isl);
/* the scale of Newton's and CG's improvement, gradient and decrement: 1 / the trace of the
 * island's M (MuJoCo 3.12's per-island scale); with islands off, one problem, cs_i_scale
 * (MuJoCo's scale without islands, which 3.3 used always) */
double cs_i_scale_primal(const cs_solver_ws *w, const cs_problem *p, int isl);
/* M x on an island's trees (y, x: dof-indexed) */
void cs_i_mass_mul(const cs_solver_ws *w, const cs_problem *p, int isl, double *y,
                   const double *x);
/* x <- M^-1 x on an island's trees */
void cs_i_mass_solve(const cs_solver_ws *w, const cs_problem *p, int isl, double *x);
/* the primal cost 1/2 (a-a0)^T M (a-a0) + sum l(J a - a_ref) of an island (uses w->s0, s1) */
double cs_i_primal(cs_solver_ws *w, const cs_problem *p, int isl, const double *a);

/* y = A x for a dense n x n block (row-major); free bodies' 6 x 6 unrolled */
static inline void cs_i_dense_mv(int n, const double *A, const double *x, double *y)
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

/* vectors of two doubles (SSE2, in every x86-64) */
typedef double cs_v2d __attribute__((vector_size(16)));
static inline cs_v2d cs_i_load2(const double *p)
{
    cs_v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void cs_i_store2(double *p, cs_v2d v) { memcpy(p, &v, sizeof v); }

/* acc += x'y over n entries in two partial sums (even and odd entries; an odd n's last one
 * goes to the even sum): two chains of additions in place of one, the same sums on every
 * build and thread count */
static inline cs_v2d cs_i_dot2(cs_v2d acc, const double *x, const double *y, int n)
{
    int q = 0;
    for (; q + 1 < n; q += 2) acc += cs_i_load2(x + q) * cs_i_load2(y + q);
    if (q < n) acc[0] += x[q] * y[q];
    return acc;
}

/* y = A x for a symmetric 6 x 6 A, as cs_i_dense_mv (each y_i sums A_ij x_j over j in order,
 * the same bits) but as y = sum_j x_j (row j of A), two entries of y at a time */
static inline void cs_i_sym6_mv(const double *A, const double *x, double *y)
{
    cs_v2d y0 = {0, 0}, y1 = {0, 0}, y2 = {0, 0};
    for (int j = 0; j < 6; j++, A += 6) {
        cs_v2d xj = {x[j], x[j]};
        y0 += xj * cs_i_load2(A);
        y1 += xj * cs_i_load2(A + 2);
        y2 += xj * cs_i_load2(A + 4);
    }
    cs_i_store2(y, y0);
    cs_i_store2(y + 2, y1);
    cs_i_store2(y + 4, y2);
}

/* In place: A (n x n SPD) -> A^-1 from its Cholesky factor (d: n scratch); not PD: the
 * identity. */
void cs_i_invert_spd(int n, double *A, double *d);

/* island trees as dof ranges */
/* A block's columns that can hold nonzeros: side 0's from blk_nzlo to blk_nzdof, then side
 * 1's (its columns start after side 0's blk_ndof); the rest of a row is exactly zero. Fills
 * lo[2], hi[2] (column positions within a row). */
static inline void cs_i_cols(const cs_efc *e, int k, int lo[2], int hi[2])
{
    int nd0 = e->blk_ndof[2 * k];
    lo[0] = e->blk_nzlo[2 * k];
    hi[0] = e->blk_nzdof[2 * k];
    lo[1] = nd0 + e->blk_nzlo[2 * k + 1];
    hi[1] = nd0 + e->blk_nzdof[2 * k + 1];
}

/* A block's columns with a nonzero in any of its rows (J_nzcol, ascending: side 0's, then
 * side 1's) when not blk_nzall (then cs_i_cols' ranges instead): the list; per side, how
 * many (cnt) and what takes a column's position to its dof (off: the sides' columns are
 * their trees' dofs in order). A product over them adds what one over cs_i_cols adds, less
 * exact zeros. */
static inline const int *cs_i_nzcols(const cs_efc *e, int k, int cnt[2], int off[2])
{
    cnt[0] = e->blk_nnzcol[2 * k];
    cnt[1] = e->blk_nnzcol[2 * k + 1];
    off[0] = e->blk_dofadr[2 * k];
    off[1] = e->blk_dofadr[2 * k + 1] - e->blk_ndof[2 * k];
    return e->J_nzcol + e->J_rowadr[e->blk_row[k]];
}

/* STMT for each of block k's columns that can hold a nonzero, Q its position in the block's
 * rows and DOF its dof: cs_i_cols' ranges when blk_nzall, else cs_i_nzcols' list; in
 * ascending order either way, so a sum over them adds the same terms in the same order
 * less exact zeros */
#define CS_FOR_BLOCK_COLS(e, k, Q, DOF, STMT)                                              \
    do {                                                                                   \
        if ((e)->blk_nzall[k]) {                                                           \
            int lo_[2], hi_[2];                                                            \
            const int *ci_ = (e)->J_colind + (e)->J_rowadr[(e)->blk_row[k]];               \
            cs_i_cols((e), (k), lo_, hi_);                                                 \
            for (int s_ = 0; s_ < 2; s_++)                                                 \
                for (int Q = lo_[s_]; Q < hi_[s_]; Q++) {                                  \
                    int DOF = ci_[Q];                                                      \
                    STMT;                                                                  \
                }                                                                          \
        } else {                                                                           \
            int cn_[2], of_[2];                                                            \
            const int *L_ = cs_i_nzcols((e), (k), cn_, of_);                               \
            for (int s_ = 0, i_ = 0; s_ < 2; s_++)                                         \
                for (int e_ = i_ + cn_[s_]; i_ < e_; i_++) {                               \
                    int Q = L_[i_], DOF = of_[s_] + Q;                                     \
                    STMT;                                                                  \
                }                                                                          \
        }                                                                                  \
    } while (0)

/* cs_i_cols from each side's first column: the columns Y = D^-1/2 L^-T J^T can fill (L^-T
 * carries a column's value to its ancestors, which come before it) */
static inline void cs_i_cols_chain(const cs_efc *e, int k, int lo[2], int hi[2])
{
    int nd0 = e->blk_ndof[2 * k];
    lo[0] = 0;
    hi[0] = e->blk_nzdof[2 * k];
    lo[1] = nd0;
    hi[1] = nd0 + e->blk_nzdof[2 * k + 1];
}

/* The blocks the noslip pass sweeps (the others keep the method's forces). */
static inline int cs_i_noslip_swept(const cs_efc *e, int k)
{
    int kind = e->blk_kind[k];
    return kind == CS_BLOCK_FRICTIONLOSS || kind == CS_BLOCK_PYRAMIDAL ||
           (kind == CS_BLOCK_ELLIPTIC && e->blk_dim[k] > 1);
}

#define CS_FOR_ISLAND_DOFS(w, p, isl, q)                                                  \
    for (int t_ = 0; t_ < (w)->isl_tree_num[isl]; t_++)                                   \
        for (int q = (p)->M->tree_dofadr[(w)->isl_trees[(w)->isl_tree_adr[isl] + t_]],   \
                 e_ = q + (p)->M->tree_dofnum[(w)->isl_trees[(w)->isl_tree_adr[isl] + t_]]; \
             q < e_; q++)

/* ---- the primal problem along a line (primal.c: Newton's and CG's) ------------------- */

/* The island's warm start for a primal method: w->a_warm replaces w->a (= a0) if its cost
 * is lower; sets the island's warm_used. */
void cs_i_primal_warm_start(cs_solver_ws *w, int isl);

/* At a: the cost (summed as cs_i_primal does), the gradient g = M (a - a0) - J^T f, the
 * soft-cone forces f into e->force, the zones into blk_zone, the residuals J a - a_ref into
 * jres (row-indexed) and, if Hl is not NULL, each block's soft-cone Hessian at Gadr. d:
 * scratch (dof-indexed). */
double cs_i_primal_eval(cs_solver_ws *w, int isl, const double *a, double *g, double *jres,
                        double *Hl, double *d);

/* The exact line search along dir from a: phi(alpha) = cost(a + alpha dir). jres: J a -
 * a_ref, Jd: J dir (row-indexed); quad: scratch of CS_LINE_QUAD_BLOCK doubles per block
 * (the island's from its first block's position);
 * dMr = dir^T M (a - a0), dMd = dir^T M dir, d0 = phi'(0).
 * A bracketed, safeguarded Newton iteration on phi' from alpha = start (0: from phi's own
 * Newton step at 0), stopped when |phi'| < gtol, at a rounding floor, or after max_eval
 * evaluations of phi' (at least one). Returns alpha (0: no descent along dir). */
#define CS_LINE_QUAD_BLOCK (5 * CS_MAXROWS)
/* an elliptic block's record: CS_LINE_ELL doubles, its constants from CS_LINE_ELL_CONST */
#define CS_LINE_ELL 10
#define CS_LINE_ELL_CONST 5

/* The same in parts, for a method that forms J dir block by block anyway: the island's
 * runs in quad (once per island solve: the blocks' kinds are fixed), then per line the
 * blocks' records in the island's block order (begin, add) and the search (run). */
typedef struct {
    int ne, nr, nf;                     /* elliptic blocks, one-sided rows, friction-loss rows */
    double *ell, *row, *floss;          /* their runs of records */
    double *ell_at, *row_at, *floss_at; /* where the next records go */
    double curv0;                       /* the blocks' part of phi''(0), summed by add */
} cs_line;
void cs_i_line_layout(const cs_solver_ws *w, int isl, double *quad, cs_line *L);
void cs_i_line_begin(cs_line *L);
void cs_i_line_add(const cs_efc *e, int k, const double *jr, const double *jd, cs_line *L);
double cs_i_line_run(const cs_line *L, double dMr, double dMd, double d0, double start,
                     double gtol, int max_eval);
double cs_i_line_search(cs_solver_ws *w, int isl, const double *jres, const double *Jd,
                        double *quad, double dMr, double dMd, double d0, double start,
                        double gtol, int max_eval);
/* MuJoCo's stopping threshold of the line search: |phi'| below
 * tolerance ls_tolerance |dir| / scale, the gradient tolerance scaled to the direction. */
double cs_i_line_gtol(const cs_solver_ws *w, int isl, const double *dir, double scale);


/* worker pool (pool.c): run fn(arg, thread, item) for item in [0, n) on nthread threads */
struct cs_pool *cs_pool_create(int nthread);
void cs_pool_free(struct cs_pool *pool);
void cs_pool_run(struct cs_pool *pool, int n, void (*fn)(void *arg, int thread, int item),
                 void *arg);

#endif
