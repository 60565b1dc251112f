/* Helpers shared by the solver's files; not part of the public API. */
#ifndef CS_SOLVER_INTERNAL_H
#define CS_SOLVER_INTERNAL_H

#include "solver.h"

/* Dense Cholesky A = L L^T in place (lower triangle, row-major n x n); 0 ok, -1 not PD. */
int cs_i_chol(int n, double *A);
/* Solve L L^T x = b in place with the factor from cs_i_chol. */
void cs_i_chol_solve(int n, const double *L, double *x);

struct cs_solver_ws {
    int max_body, max_block;
    double *L;                       /* 36 per body: Cholesky of M blocks */
    double *a, *grad, *dir, *Mdir, *tmp; /* 6 per body */
    double *H;                       /* dense island Hessian (Newton) */
    double *P, *pcg;                 /* Newton CG: 36 per body preconditioner, 4 x 6 per body */
    int *parent, *body_island, *body_local;
    int *isl_bodies, *isl_body_adr, *isl_body_num;
    int *isl_blocks, *isl_block_adr, *isl_block_num;
    cs_island_stats *ist;
    long long *gkey; /* PGS pair groups: sort keys (body pair, position), max_block */
    int *gadr;       /* PGS pair groups: start of each group in gkey, max_block + 1 */
    int *gvalid, *gsig; /* PGS pair groups, by position in gkey: a group starting there has
                           a kept Hessian factor / the blocks' Hessian signatures */
    double *gfac;    /* kept factors: 144 doubles per 2 positions (groups have >= 2 blocks) */
    double *gj0, *gf0, *gf1; /* group solve, CS_MAXROWS per position: residuals at the start,
                                forces at the current and the trial point */
    int *gsc0, *gsc1;        /* group solve: Hessian signatures at the current / trial point */
    int nisland;
    double meaninertia;
};

/* a[body] += M^-1 J^T d for a block (uses W). */
void cs_i_apply(const cs_block *b, const double *d, double *a);
/* j = J a - aref for a block. */
void cs_i_resid(const cs_block *b, const double *a, double *j);
/* island cost pieces */
double cs_i_primal(cs_solver_ws *w, const cs_problem *p, int isl, const double *a);
void cs_i_island_stats(cs_solver_ws *w, const cs_problem *p, int isl);
double cs_i_scale(const cs_solver_ws *w, int isl);

void cs_i_pgs(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, int isl,
              const double *a_warm);
void cs_i_newton(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, int isl,
                 const double *a_warm);

#endif
