/* Dense Cholesky (chol.h): plain, and within an envelope. */
#include "chol.h"
#include "solver_internal.h" /* CS_VECTOR_CLONES, cs_v2d */

#include <string.h>

/* Column j's entries below the diagonal, four rows at a time: the four share the loads of
 * row j, and each entry subtracts its terms in k order as cs_i_chol_n does (the same bits). */
static void chol_column(int n, double *A, int j, double d)
{
    const double *Aj = A + j * n;
    int i = j + 1;
    for (; i + 4 <= n; i += 4) {
        double *A0 = A + i * n, *A1 = A0 + n, *A2 = A1 + n, *A3 = A2 + n;
        double t0 = A0[j], t1 = A1[j], t2 = A2[j], t3 = A3[j];
        for (int k = 0; k < j; k++) {
            double l = Aj[k];
            t0 -= A0[k] * l;
            t1 -= A1[k] * l;
            t2 -= A2[k] * l;
            t3 -= A3[k] * l;
        }
        A0[j] = t0 / d;
        A1[j] = t1 / d;
        A2[j] = t2 / d;
        A3[j] = t3 / d;
    }
    for (; i < n; i++) {
        double *Ai = A + i * n, t = Ai[j];
        for (int k = 0; k < j; k++) t -= Ai[k] * Aj[k];
        Ai[j] = t / d;
    }
}

int cs_i_chol(int n, double *A)
{
    for (int j = 0; j < n; j++) {
        double s = A[j * n + j];
        for (int k = 0; k < j; k++) s -= A[j * n + k] * A[j * n + k];
        if (!(s > 0) || !isfinite(s)) return -1;
        double d = sqrt(s);
        A[j * n + j] = d;
        chol_column(n, A, j, d);
    }
    return 0;
}

void cs_i_chol_solve(int n, const double *L, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = x[i];
        for (int k = 0; k < i; k++) s -= L[i * n + k] * x[k];
        x[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = x[i];
        for (int k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
        x[i] = s / L[i * n + i];
    }
}

/* vectors of four doubles (element-wise arithmetic rounds as the scalar one does; without
 * AVX a vector of four is two of two), moved through pointers; of two: cs_v2d */
typedef double v4d __attribute__((vector_size(32)));
static inline void ld4(v4d *v, const double *p) { memcpy(v, p, sizeof *v); }
static inline void st4(double *p, const v4d *v) { memcpy(p, v, sizeof *v); }

/* t_i = U[j][i] - sum_{k<j} U[k][i] U[k][j] for i in [i0, i0 + 4 W4 + 2 W2 + S), in place:
 * the terms in k order, as cs_i_chol_n takes them. The entries are contiguous in row j and
 * in each row k: W4 vectors of four, W2 (0 or 1) of two, S (0 or 1) single ones, all in one
 * pass over k (fixed at compile time: the sums stay in registers). */
static inline __attribute__((always_inline)) void
upper_cols(int n, double *U, int j, int i0, const int W4, const int W2, const int S)
{
    v4d t4[4];
    cs_v2d t2 = {0, 0};
    double *Uj = U + j * n + i0, ts = S ? Uj[4 * W4 + 2 * W2] : 0;
    for (int w = 0; w < W4; w++) ld4(t4 + w, Uj + 4 * w);
    if (W2) t2 = cs_i_load2(Uj + 4 * W4);
    for (int k = 0; k < j; k++) {
        const double *Uk = U + k * n + i0;
        double l = U[k * n + j];
        for (int w = 0; w < W4; w++) {
            v4d u, l4 = {l, l, l, l};
            ld4(&u, Uk + 4 * w);
            t4[w] -= u * l4;
        }
        if (W2) {
            cs_v2d l2 = {l, l};
            t2 -= cs_i_load2(Uk + 4 * W4) * l2;
        }
        if (S) ts -= Uk[4 * W4 + 2 * W2] * l;
    }
    for (int w = 0; w < W4; w++) st4(Uj + 4 * w, t4 + w);
    if (W2) cs_i_store2(Uj + 4 * W4, t2);
    if (S) Uj[4 * W4 + 2 * W2] = ts;
}

CS_VECTOR_CLONES int cs_i_chol_upper(int n, double *U)
{
    for (int j = 0; j < n; j++) {
        /* row j from its diagonal: the diagonal's sum of squares is the same sum with i = j */
        double *Uj = U + j * n;
        int i = j;
        for (; i + 16 <= n; i += 16) upper_cols(n, U, j, i, 4, 0, 0);
        if (i + 8 <= n) {
            upper_cols(n, U, j, i, 2, 0, 0);
            i += 8;
        }
        switch (n - i) {
        case 1: upper_cols(n, U, j, i, 0, 0, 1); break;
        case 2: upper_cols(n, U, j, i, 0, 1, 0); break;
        case 3: upper_cols(n, U, j, i, 0, 1, 1); break;
        case 4: upper_cols(n, U, j, i, 1, 0, 0); break;
        case 5: upper_cols(n, U, j, i, 1, 0, 1); break;
        case 6: upper_cols(n, U, j, i, 1, 1, 0); break;
        case 7: upper_cols(n, U, j, i, 1, 1, 1); break;
        default: break;
        }
        double s = Uj[j];
        if (!(s > 0) || !isfinite(s)) return -1;
        double d = sqrt(s);
        v4d d4 = {d, d, d, d};
        Uj[j] = d;
        for (i = j + 1; i + 4 <= n; i += 4) {
            v4d u;
            ld4(&u, Uj + i);
            u /= d4;
            st4(Uj + i, &u);
        }
        for (; i < n; i++) Uj[i] /= d;
    }
    return 0;
}

CS_VECTOR_CLONES void cs_i_chol_upper_solve(int n, const double *U, double *x)
{
    /* L y = b by columns: x_i still takes its terms in k order */
    for (int k = 0; k < n; k++) {
        double xk = x[k] / U[k * n + k];
        const double *Uk = U + k * n;
        x[k] = xk;
        int i = k + 1;
        v4d x4 = {xk, xk, xk, xk};
        for (; i + 4 <= n; i += 4) {
            v4d xi, u;
            ld4(&xi, x + i);
            ld4(&u, Uk + i);
            xi -= u * x4;
            st4(x + i, &xi);
        }
        for (; i < n; i++) x[i] -= Uk[i] * xk;
    }
    for (int i = n - 1; i >= 0; i--) {
        const double *Ui = U + i * n;
        double s = x[i];
        for (int k = i + 1; k < n; k++) s -= Ui[k] * x[k];
        x[i] = s / Ui[i];
    }
}

int cs_i_chol_env(int n, double *A, int *first)
{
    for (int i = 0; i < n; i++) { /* the row's first nonzero: the factor keeps the envelope */
        int f = 0;
        while (f < i && A[i * n + f] == 0) f++;
        first[i] = f;
    }
    return cs_i_chol_env_given(n, A, first);
}

int cs_i_chol_env_given(int n, double *A, const int *first)
{
    for (int i = 0; i < n; i++) {
        double *Li = A + i * n;
        for (int j = first[i]; j <= i; j++) {
            const double *Lj = A + j * n;
            double s = Li[j];
            for (int k = first[i] > first[j] ? first[i] : first[j]; k < j; k++) s -= Li[k] * Lj[k];
            if (j < i) {
                Li[j] = s / Lj[j];
            } else {
                if (!(s > 0)) return -1;
                Li[i] = sqrt(s);
            }
        }
    }
    return 0;
}

void cs_i_chol_env_solve(int n, const double *L, const int *first, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = x[i];
        for (int k = first[i]; k < i; k++) s -= L[i * n + k] * x[k];
        x[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        x[i] /= L[i * n + i];
        for (int k = first[i]; k < i; k++) x[k] -= L[i * n + k] * x[i];
    }
}
