/* solver-internal: the dense Cholesky factorisation every part of solver/ uses (small
 * blocks, the block QP, the cone QCQP, Newton's dense Hessian), and its envelope form. */
#ifndef CS_CHOL_H
#define CS_CHOL_H

#include <math.h>

/* cs_i_chol's factorisation, inline; N > 0 fixes n at compile time (a free body's 6 x 6
 * blocks: the unrolled form takes a fraction of the instructions, the same operations in
 * the same order) */
static inline __attribute__((always_inline)) int cs_i_chol_n(int n, double *A, const int N)
{
    if (N > 0) n = N;
    for (int j = 0; j < n; j++) {
        double s = A[j * n + j];
        for (int k = 0; k < j; k++) s -= A[j * n + k] * A[j * n + k];
        if (!(s > 0) || !isfinite(s)) return -1;
        double d = sqrt(s);
        A[j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double t = A[i * n + j];
            for (int k = 0; k < j; k++) t -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = t / d;
        }
    }
    return 0;
}

/* Dense Cholesky A = L L^T in place (lower triangle, row-major n x n); 0 ok, -1 not PD (a
 * pivot not positive or not finite). The solver's one dense Cholesky. */
int cs_i_chol(int n, double *A);
/* Solve L L^T x = b in place with the factor from cs_i_chol. */
void cs_i_chol_solve(int n, const double *L, double *x);

/* cs_i_chol and cs_i_chol_solve on the upper triangle (U = L^T, U[k n + i] = L[i][k]): the
 * same operations in the same order, the same bits; the entries a column step updates lie
 * in a row, so they go several to a vector. */
int cs_i_chol_upper(int n, double *U);
void cs_i_chol_upper_solve(int n, const double *U, double *x);

/* The same for a matrix with an envelope (row i's first nonzero column first[i], set by
 * the factor): work only inside it. An ordering with a small bandwidth keeps it narrow. */
int cs_i_chol_env(int n, double *A, int *first);
/* The same within an envelope the caller knows: row i's entries before first[i] are zero
 * (first[i] at or before the row's first nonzero; entries read as zeros are left zero). */
int cs_i_chol_env_given(int n, double *A, const int *first);
void cs_i_chol_env_solve(int n, const double *L, const int *first, double *x);

#endif
