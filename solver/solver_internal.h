/* Helpers shared by the solver's files; not part of the public API. */
#ifndef CS_SOLVER_INTERNAL_H
#define CS_SOLVER_INTERNAL_H

#include "blockqp.h"
#include "solver.h"

/* Dense Cholesky A = L L^T in place (lower triangle, row-major n x n); 0 ok, -1 not PD. */
int cs_i_chol(int n, double *A);
/* Solve L L^T x = b in place with the factor from cs_i_chol. */
void cs_i_chol_solve(int n, const double *L, double *x);

/* The same for a matrix with an envelope (row i's first nonzero column first[i], set by
 * the factor): work only inside it. An ordering with a small bandwidth keeps it narrow. */
int cs_i_chol_env(int n, double *A, int *first);
void cs_i_chol_env_solve(int n, const double *L, const int *first, double *x);

/* PGS pair groups: the largest group (two trees) solved jointly, in dofs */
#define CS_GMAXD 24
/* kept group factors: CS_GFAC doubles per block position, so a group of nb blocks keeps
 * its factor when nd^2 <= nb CS_GFAC (every pair of free bodies: 144 <= 2 72) */
#define CS_GFAC 72

/* Scratch of one thread (islands are solved one per thread at a time). */
typedef struct {
    double *H;      /* Newton: dense island Hessian, cap^2 */
    double *x;      /* Newton: island-local vector, cap */
    int *first;     /* Newton: the dense factor's envelope, cap */
    int cap;        /* dofs the three hold: dmax, grown for narrow islands */
    double *scr;    /* Newton: a block's Hl J (CS_MAXROWS x two trees' dofs) and a tree's
                       preconditioner inversion; 2 CS_MAXROWS maxtd */
} cs_thread_ws;

struct cs_solver_ws {
    int nv, ntree;
    int dmax;                        /* Newton dense limit in dofs */
    int maxtd;                       /* the largest tree's dofs the thread scratch holds
                                        (grown by cs_solve to the model's trees) */
    /* per dof */
    double *a, *grad, *dir, *Mdir, *tmp, *pcg; /* pcg: 4 nv */
    int *dof_local;
    /* per tree */
    int *uf, *tree_island, *tree_Padr; /* union-find parent; island; preconditioner block */
    int *tadjadr, *tadj, *tnext;     /* trees joined by blocks (CSR, built with the islands);
                                        a breadth-first order of each island's trees */
    double *P;                       /* Newton CG: per-tree dense blocks (preconditioner) */
    double *Hd;                      /* Newton CG: the Hessian's per-tree diagonal blocks, as P */
    /* islands */
    int nisland;
    int *isl_tree_adr, *isl_tree_num, *isl_trees, *isl_nv;
    int *isl_block_adr, *isl_block_num, *isl_blocks;
    cs_island_stats *ist;
    /* per step, grown as needed: per row (J's layout), per block */
    int cap_nnz, cap_efc, cap_block, cap_G;
    double *W;          /* nnz: M^-1 J^T, laid out as J */
    double *G, *Hl;     /* per block nrow^2 at Gadr: J M^-1 J^T + R (row-major); Newton's
                           block Hessians */
    int *Gadr;
    cs_bqp *bqp;        /* per elliptic block: G's factors for the exact block solve */
    int *bqp_ok;        /* 1 where bqp was prepared */
    double *jres, *Jd, *fold; /* per row */
    /* PGS pair groups, by position in the island's block list (isl_blocks order) */
    int *gord, *gadr, *gvalid, *gsig, *gsc0, *gsc1;
    long long *gkey;
    double *gfac, *gj0, *gf0, *gf1;
    /* Newton CG: the Hessian's off-diagonal blocks, one per pair of trees that rows join
     * (blocks in island order by position, as isl_blocks) */
    int *hp_ord;        /* per position: the island's two-tree blocks, sorted by pair */
    int *hp_tree;       /* 2 per pair (by position of its first block): trees, first < second */
    int *hp_blk;        /* per pair: position range of its blocks in hp_ord */
    int *hp_adr;        /* per block: offset of its pair's block in Hoff, or -1 */
    long long *hp_key;  /* per position: sort keys */
    int *offadr;        /* per block: room in Hoff (nd0 nd1 each, in block order) */
    double *Hoff;
    int cap_off;
    /* threads */
    int nthread;
    cs_thread_ws *tws;
    struct cs_pool *pool;
    /* the solve in progress (read by the worker threads) */
    const cs_problem *p;
    const cs_solver_opts *o;
    const double *a_warm;
    struct cs_coulomb_ws *cw;        /* CS_METHOD_COULOMB's state (coulomb.c), NULL until used */
};

/* In-place heapsort, ascending (glibc's qsort may allocate, and a step allocates nothing). */
void cs_i_sort_ll(long long *v, int n);

/* j = J a - aref for block k (rows in order). */
void cs_i_resid(const cs_efc *e, int k, const double *a, double *j);
/* a += M^-1 J^T d for block k (uses W). */
void cs_i_apply(const cs_solver_ws *w, const cs_efc *e, int k, const double *d, double *a);
/* island cost pieces */
double cs_i_primal(cs_solver_ws *w, const cs_problem *p, int isl, const double *a);
double cs_i_scale(const cs_solver_ws *w, const cs_problem *p, int isl);
/* M x on an island's trees (y, x: dof-indexed) */
void cs_i_mass_mul(const cs_solver_ws *w, const cs_problem *p, int isl, double *y,
                   const double *x);

void cs_i_pgs(cs_solver_ws *w, cs_thread_ws *t, int isl);
void cs_i_newton(cs_solver_ws *w, cs_thread_ws *t, int isl);
/* Newton iterations from the island's current w->a, at most max_iter; first_step: take one
 * step before testing the gradient. Leaves the soft-cone forces at the final a in
 * e->force. Returns the iterations taken. */
int cs_i_newton_iterate(cs_solver_ws *w, cs_thread_ws *t, int isl, int max_iter, int first_step);

/* CS_METHOD_COULOMB (coulomb.c): begin (serial, before the islands: per-step storage),
 * the island's sweeps (W, G and the forces' warm start included), its statistics, end
 * (serial, after: keeps the forces for the next step's warm start), free. */
int cs_i_coulomb_begin(cs_solver_ws *w, const cs_efc *e);
void cs_i_coulomb(cs_solver_ws *w, cs_thread_ws *t, int isl);
void cs_i_coulomb_stats(cs_solver_ws *w, const cs_problem *p, int isl);
void cs_i_coulomb_end(cs_solver_ws *w, const cs_efc *e);
void cs_i_coulomb_free(cs_solver_ws *w);

/* worker pool (pool.c): run fn(arg, thread, item) for item in [0, n) on nthread threads */
struct cs_pool *cs_pool_create(int nthread);
void cs_pool_free(struct cs_pool *pool);
void cs_pool_run(struct cs_pool *pool, int n, void (*fn)(void *arg, int thread, int item),
                 void *arg);

#endif
