/* Contact solvers over the constraint rows of a step (rows.h): matrix-free dual PGS and
 * primal Newton on MuJoCo's soft-cone problem (docs/contact-math.md §7, joint rows §10), in generalised
 * coordinates, with the mass matrix as a factored tree operator (mass.h). Contact islands
 * (kinematic trees joined by contacts) are independent problems, solved on several threads
 * with results that do not depend on how many.
 *
 * The solve runs in named stages (solver.c): prepare (islands; per block M^-1 J^T, the
 * block matrix J M^-1 J^T + R and its factors), warm start, sweep (PGS) or iterate
 * (Newton), store (forces and zones onto the blocks), and statistics only when asked.
 *
 * Use, per step: fill a cs_efc with cs_efc_add_contact and cs_efc_add_joint_row, factor the
 * mass matrix (cs_mass_factor), then cs_solve(ws, &problem, &opts, qacc_warmstart or NULL,
 * qacc, &st). ws = cs_solver_create(nv, ntree) once; its per-step storage grows when a step
 * needs more (more rows, or trees larger than any before) and is reused after. A joint row
 * puts its tree into an island as a contact with static geometry does. */
#ifndef CS_SOLVER_H
#define CS_SOLVER_H

#include "mass.h"
#include "rows.h"

/* The methods (solver/methods.c holds their table). */
typedef enum {
    CS_METHOD_PGS = 0,     /* dual block Gauss-Seidel (pgs.c), finished by Newton when asked */
    CS_METHOD_NEWTON = 1,  /* primal Newton (newton.c) */
    CS_METHOD_COULOMB = 2, /* the Coulomb-exact model (coulomb.h): rows from cs_coulomb_rows,
                              non-smooth block Gauss-Seidel; needs timestep, coulomb_cone */
    CS_METHOD_CG = 3,      /* MuJoCo's primal nonlinear conjugate gradients (cg.c) */
    CS_METHOD_COUNT
} cs_solve_method;

/* The Coulomb model's methods (coulomb.h). */
typedef enum {
    CS_COULOMB_AUTO = 0,   /* proximal Newton on islands of more than two blocks with the
                              elliptic cone, block Gauss-Seidel on the others (default) */
    CS_COULOMB_NSGS = 1,   /* block Gauss-Seidel on every island */
    CS_COULOMB_NEWTON = 2  /* proximal Newton on every island (elliptic cone) */
} cs_coulomb_method;

typedef struct {
    const cs_mass *M;   /* factored */
    const double *a0;   /* nv: unconstrained acceleration */
    cs_efc *efc;        /* rows; the solver writes force, blk_force, blk_zone */
    double meaninertia; /* stopping-rule scale (MuJoCo's stat.meaninertia); <= 0: mean of
                           diag(M) */
} cs_problem;

typedef enum {
    CS_PGS_BLOCK_CONTACT = 0, /* one contact block at a time */
    CS_PGS_BLOCK_PAIR = 1     /* all blocks of one pair of trees jointly (default) */
} cs_pgs_blocking;

typedef struct {
    cs_solve_method type;
    int max_iter;     /* MuJoCo default 100 */
    double tolerance; /* MuJoCo default 1e-8 */
    int exact_block;  /* PGS: 1 = each block's local problem solved exactly (default); 0 =
                         MuJoCo's updates (one ray/normal step + one fixed-normal QCQP; one
                         scalar pass over pyramid edges) */
    int blocking;     /* PGS: cs_pgs_blocking */
    int newton_dense_max; /* Newton: islands of up to this many dofs are factored densely
                             (0: default 192, and up to 768 when the factor's envelope is
                             narrow: a stack, a chain), larger ones use preconditioned CG;
                             < 0: CG */
    int newton_tree;  /* Newton: 1 (default): a directly factored island whose Hessian keeps
                         a kinematic tree's pattern (rows on one chain of ancestors: a robot on
                         the floor) is factored on that pattern, sparse; 0: the dense envelope
                         factor always */
    int newton_early; /* Newton: 1 (default, MuJoCo 3.12): no step from a warm start that meets
                         the tolerance (scaled gradient, and the gap 1/2 g'M^-1 g or the Newton
                         decrement 1/2 g'H^-1 g); 0: at least one step (MuJoCo 3.3) */
    int finish_after; /* PGS: after this many sweeps without meeting the tolerance, or when
                         the improvement meets it but the primal gradient does not, PGS hands
                         its point to the Newton finish (0: never) */
    int ls_iterations;   /* Newton's and CG's line search: most evaluations (MuJoCo default
                            50) */
    double ls_tolerance; /* Newton's and CG's line search stops when |phi'| < tolerance
                            ls_tolerance |dir| / scale (MuJoCo default 0.01) */
    int islands;      /* 1: each contact island is its own problem (default); 0: one problem
                         for all blocks (MuJoCo's island flag disabled) */
    int stats;        /* 1: compute the residual statistics of cs_island_stats */
    int noslip_iterations;   /* > 0: after the method, at most this many sweeps of MuJoCo's
                                noslip pass (noslip.c) over the friction rows without their
                                regularisation (not for CS_METHOD_COULOMB) */
    double noslip_tolerance; /* its stopping rule on the scaled improvement (1e-6) */
    /* --- Coulomb-exact model (CS_METHOD_COULOMB, coulomb.h) --- */
    double timestep;  /* the step h: rows are (v+ - v*)/h; the sweeps stop when no block
                         changes its velocities by more than tolerance (m/s) */
    int coulomb_cone; /* cs_cone_type: the friction set, ellipsoid or pyramid */
    int coulomb_method; /* cs_coulomb_method: which method solves an island */
} cs_solver_opts;

void cs_solver_opts_default(cs_solver_opts *o);

typedef struct {
    int ntree, nblock, nv;
    int iterations;         /* all methods' iterations (PGS: sweeps plus finishing steps) */
    int finish;             /* iterations of the finishing method (PGS: Newton steps) */
    int warm_used;          /* 1 if the warm start beat the cold start */
    int newton_dense;       /* Newton steps made: 1 dense factor, 2 CG (0: none) */
    int newton_tree;        /* 1: the dense factor on the Hessian's elimination forest */
    int newton_updated;     /* Newton steps whose tree factor was the previous one updated
                               by rank-one changes (not made anew) */
    int noslip;             /* sweeps of the noslip pass (not in iterations) */
    int outer;              /* the Coulomb model's proximal Newton: its outer iterations
                               (0: the island was solved by block Gauss-Seidel alone) */
    double improvement;     /* last scaled improvement */
    /* with opts.stats only: */
    double primal_cost;     /* 1/2 (a-a0)^T M (a-a0) + sum l(J a - a_ref) at the final a */
    double dual_cost;       /* 1/2 f^T (A+R) f + f^T (J a0 - a_ref) at the final f */
    double feasibility;     /* max cone violation of the reported forces (limits: f < 0;
                               friction-loss rows: |f| beyond the bound) */
    double stationarity;    /* max(|M(a-a0) - J^T f|_inf, max_i |f_i - f_soft(J_i a - aref_i)|) */
    double complementarity; /* sum_i |f_i . (J_i a - aref_i + R_i f_i)| over contact and
                               limit blocks; a friction-loss row adds |g| times the distance
                               of f to the bound g = J a - aref + R f pushes toward */
    /* CS_METHOD_COULOMB reuses the five (docs/contact-math.md §11): primal_cost = contact
     * power sum f.v+ (W), dual_cost = the stabilisation's part sum f.v* (W), feasibility =
     * largest cone violation (N), stationarity = Signorini residual
     * max |min(f_n, (v_n+ - v*)/(h G_nn))| (N), complementarity = maximum-dissipation
     * residual (N, the friction's natural map); all maxima but the powers (sums) */
} cs_island_stats;

typedef struct {
    int nisland;
    int iterations;      /* max over islands */
    double improvement;  /* max over islands */
    double primal_cost, dual_cost; /* sums (opts.stats) */
    double feasibility, stationarity, complementarity; /* max / max / sum (opts.stats) */
} cs_solve_stats;

typedef struct cs_solver_ws cs_solver_ws;

/* Workspace for a model of nv dofs in ntree trees. Returns NULL out of memory. */
cs_solver_ws *cs_solver_create(int nv, int ntree);
void cs_solver_free(cs_solver_ws *w);
/* Threads for the islands (1 = the caller's only; 0 = all cores). Results are the same for
 * every count. Returns the count in use. */
int cs_solver_set_threads(cs_solver_ws *w, int nthread);

/* Solve. a_warm: previous step's constrained acceleration (nv) or NULL (cold start).
 * a_out: constrained acceleration (nv; dofs without contacts get a0).
 * Returns 0, CS_SOLVE_NOMEM when the per-step storage could not grow, or -1 when the
 * problem does not fit the workspace (or a block's side is not a whole tree of M: a
 * contact side's or joint row's dofadr and ndof must be its tree's). */
#define CS_SOLVE_NOMEM (-2)
int cs_solve(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, const double *a_warm,
             double *a_out, cs_solve_stats *st);

/* Per-island statistics of the last cs_solve (i < st.nisland). */
const cs_island_stats *cs_solver_island(const cs_solver_ws *w, int i);

/* --- small pieces, exposed for tests ------------------------------------------------ */

/* Soft response of block k to residual j (nrow entries): forces f (row space), cost l(j),
 * optional Hessian (nrow x nrow), and the zone (cone.h). Elliptic uses R_0, kappa and the
 * physical friction; frictionless, pyramidal and limit rows are independent:
 * f = max(0, -j/R); a friction-loss row (bound F) is MuJoCo's Huber: f = -j/R, l = j^2/(2R)
 * for |j| < R F, else f = -F sign(j), l = F (|j| - R F/2), no curvature. */
cs_zone cs_efc_soft(const cs_efc *e, int k, const double *j, double *f, double *cost,
                    double *hess);

/* Along a direction dj: f.dj and dj^T hess dj of cs_efc_soft at j (line searches). */
cs_zone cs_efc_soft_dir(const cs_efc *e, int k, const double *j, const double *dj, double *fdj,
                        double *djhdj);

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

/* Decode block k's row forces f into the contact-frame force (CS_MAXDIM entries; a joint
 * row's force in entry 0). */
void cs_efc_decode(const cs_efc *e, int k, const double *f, double *force);

#endif
