/* Contact solvers over cs_block rows (rows.h): matrix-free dual PGS and primal Newton on
 * MuJoCo's soft-cone problem (cone-math.md §7). Free bodies only: the mass matrix is
 * block-diagonal, one 6x6 block per dynamic body. Contact islands (bodies joined by
 * contacts) are solved independently. Allocation-free after cs_solver_create. */
/* Use from the step (sim/step.c), per step:
 *   1. for each contact with dist < margin - gap: cs_rows_make(&contact, i, &bodies, &opts,
 *      &blocks[n++]) (bodies: xpos, xmat, invweight0, qvel per dynamic body);
 *   2. cs_problem p = {nbody, M (36/body), a0 (6/body), n, blocks, model meaninertia};
 *   3. cs_solve(ws, &p, &solver_opts, have_prev ? a_prev : NULL, a, &stats);
 *      a_prev = a (kept in data: MuJoCo's qacc_warmstart);
 *   4. per contact: blocks[k].force (contact frame, dim entries), .zone, .cvel;
 *      stats and cs_solver_island(ws, i) for the per-step report.
 * ws = cs_solver_create(max bodies, max contacts) once per data. */
#ifndef CS_SOLVER_H
#define CS_SOLVER_H

#include "rows.h"

typedef enum { CS_METHOD_PGS = 0, CS_METHOD_NEWTON = 1 } cs_solve_method;

/* The problem of one step. blocks[] are made by cs_rows_make; the solver writes their
 * f / force / zone / island fields and scratch. */
typedef struct {
    int nbody;
    const double *M;    /* 36 per body, row-major, free-joint coordinates (symmetric PD) */
    const double *a0;   /* 6 per body: unconstrained acceleration */
    int nblock;
    cs_block *blocks;
    double meaninertia; /* stopping-rule scale (MuJoCo stat.meaninertia); <= 0: mean of
                           diag(M) of this problem */
} cs_problem;

typedef struct {
    cs_solve_method type;
    int max_iter;     /* MuJoCo default 100 */
    double tolerance; /* MuJoCo default 1e-8 */
    int exact_block;  /* PGS: 1 = every block's local problem solved exactly (default: cone
                         QP for elliptic, non-negative QP for pyramidal); 0 = MuJoCo's
                         updates (one ray/normal step + one fixed-normal QCQP; one scalar
                         pass over the pyramid edges) */
    int newton_dense_max; /* Newton: islands of up to this many bodies use a dense Cholesky
                             (0: default 32, capped at CS_NEWTON_DENSE_CAP), larger ones CG;
                             < 0: always CG */
    int pgs_pair_group;   /* PGS (with exact_block): 1 (default) = the blocks of one body pair
                             (a box's corners on the ground, a box-on-box manifold) are one
                             Gauss-Seidel block, minimised jointly and exactly; 0 = one
                             contact block at a time */
} cs_solver_opts;

void cs_solver_opts_default(cs_solver_opts *o);

typedef struct {
    int nbody, nblock;
    int iterations;
    int warm_used;          /* 1 if the warm start beat the cold start */
    double improvement;     /* last scaled improvement */
    double primal_cost;     /* 1/2 (a-a0)^T M (a-a0) + sum l(J a - a_ref) at the final a */
    double dual_cost;       /* 1/2 f^T (A+R) f + f^T (J a0 - a_ref) at the final f */
    double feasibility;     /* max cone violation of the reported forces */
    double stationarity;    /* max(|M(a-a0) - J^T f|_inf, max_i |f_i - f_soft(J_i a - aref_i)|) */
    double complementarity; /* sum_i |f_i . (J_i a - aref_i + R_i f_i)| */
} cs_island_stats;

typedef struct {
    int nisland;
    int iterations;      /* max over islands */
    double primal_cost, dual_cost; /* sums */
    double feasibility, stationarity, complementarity; /* max / max / sum */
} cs_solve_stats;

typedef struct cs_solver_ws cs_solver_ws;

/* Largest island (bodies) Newton factors densely; larger ones use preconditioned CG. */
#define CS_NEWTON_DENSE_CAP 64

/* Capacities: bodies, blocks. Newton's dense Hessian takes 36 min(max_body,
 * CS_NEWTON_DENSE_CAP)^2 doubles. Returns NULL on allocation failure. */
cs_solver_ws *cs_solver_create(int max_body, int max_block);
void cs_solver_free(cs_solver_ws *w);

/* Solve. a_warm: previous step's constrained acceleration (6 per body) or NULL (cold start).
 * a_out: constrained acceleration (6 per body; bodies without contacts get a0).
 * Returns 0, or -1 if capacities are exceeded or a mass block is not positive definite. */
int cs_solve(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, const double *a_warm,
             double *a_out, cs_solve_stats *st);

/* Per-island statistics of the last cs_solve (i < st.nisland). */
const cs_island_stats *cs_solver_island(const cs_solver_ws *w, int i);

/* --- small pieces, exposed for tests ------------------------------------------------ */

/* Soft-cone response of one block to residual j (nrow entries): forces f (row space),
 * cost l(j), optional Hessian (nrow x nrow). Elliptic uses R[0], kappa and the physical
 * friction; frictionless/pyramidal rows are independent: f = max(0, -j/R). */
cs_zone cs_block_soft(const cs_block *b, const double *j, double *f, double *cost, double *hess);

/* Exact minimiser of 1/2 x^T G x + c^T x over the elliptic cone
 * {x_0 >= ||D^-1 x_t||}, D = diag(mu), x of size dim = 1 + r (r <= 5), G SPD.
 * Outer: a 1-D convex minimisation over the normal x_0 = t (safeguarded secant on
 * g'(t)); inner: the fixed-normal QCQP at that t. Returns outer iterations, -1 on failure. */
int cs_cone_qp(int dim, const double *G, const double *c, const double *mu, double *x);

/* Exact minimiser of 1/2 x^T G x + c^T x over x >= 0 (n <= CS_MAXROWS, G SPD), from the
 * start x (clipped to x >= 0). Returns active-set iterations, -1 on failure. */
int cs_nonneg_qp(int n, const double *G, const double *c, double *x);

/* Fixed-normal QCQP (§6) with multiplier convention H x + b + lambda D^-2 x = 0; on the
 * boundary the result is scaled exactly onto it. Returns 1 if active, 0 if not, -1 if H is
 * not PD. */
int cs_fn_qcqp(int n, const double *H, const double *b, const double *mu, double fn, double *x,
               double *lambda);

/* Decode a block's row forces into the contact-frame force (dim entries). */
void cs_block_decode(const cs_block *b, const double *f, double *force);

#endif
