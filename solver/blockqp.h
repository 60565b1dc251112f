/* Exact local problems of one contact block, split into a per-step preparation (G and the
 * cone fixed) and a cheap per-sweep solve (only the linear term changes).
 * Self-contained: plain double arrays, no allocation, no I/O. */
#ifndef CS_BLOCKQP_H
#define CS_BLOCKQP_H

#define CS_BQP_MAXDIM 6  /* condim 6: the normal and 5 friction components */
#define CS_NNQP_MAXN 10  /* pyramidal condim 6: 10 edges */

/* Elliptic block: minimise 1/2 x^T G x + c^T x over K = { x0 >= ||D^-1 xt|| },
 * x = (x0, xt), D = diag(mu_1..mu_r), dim = 1 + r in 1..6. Everything that depends only on
 * G and mu, in the coordinates z = (x0, D^-1 xt) where K is the round cone:
 * H = D G_tt D = Q diag(ev) Q^T, g0 = D G_t0. */
typedef struct {
    int dim;
    double g00;                          /* G_00 */
    double schur;                        /* g00 - g0^T H^-1 g0 > 0 */
    double ev[CS_BQP_MAXDIM - 1];        /* eigenvalues of H, ascending */
    double v[CS_BQP_MAXDIM - 1];         /* Q^T g0 */
    double dq[(CS_BQP_MAXDIM - 1) * (CS_BQP_MAXDIM - 1)]; /* D Q, row-major r x r */
    double imu2[CS_BQP_MAXDIM - 1];      /* 1 / mu_j^2 */
} cs_bqp;

/* G: dim x dim row-major symmetric (its lower triangle is read), mu: r = dim - 1 positive
 * scales. Returns 0, or -1 if dim is out of range, a scale is not
 * positive and finite, or G is not positive definite. */
int cs_bqp_prepare(cs_bqp *q, int dim, const double *G, const double *mu);

/* Exact minimiser into x (dim entries). On entry x is a warm start (the previous sweep's
 * value; may be infeasible, zero or not finite). Returns the number of evaluations of the
 * normal's derivative g'(t) (fixed-normal QCQP solves): 0 for the closed-form cases
 * (interior minimiser, apex, dim 1), or -1 if c is not finite. */
int cs_bqp_solve(const cs_bqp *q, const double *c, double *x);

/* Pyramidal / frictionless block: minimise 1/2 x^T G x + c^T x over x >= 0, n in 1..10.
 * G and its inverse, packed lower triangles (row i holds columns 0..i). */
typedef struct {
    int n;
    double g[CS_NNQP_MAXN * (CS_NNQP_MAXN + 1) / 2];
    double p[CS_NNQP_MAXN * (CS_NNQP_MAXN + 1) / 2]; /* G^-1 */
} cs_nnqp;

/* G: n x n row-major symmetric (its lower triangle is read). Returns 0, or -1 if n is out
 * of range or G is not positive definite. */
int cs_nnqp_prepare(cs_nnqp *q, int n, const double *G);

/* Exact minimiser into x; on entry x is the warm start (clipped to x >= 0; its zero
 * entries are the first working set). Returns active-set iterations, -1 if c is not finite
 * or the iteration limit is reached (x is then feasible but not optimal). */
int cs_nnqp_solve(const cs_nnqp *q, const double *c, double *x);

#endif
