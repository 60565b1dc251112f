/* Dense Cholesky (chol.h): plain, and within an envelope. */
#include "chol.h"

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

/* vectors of two doubles (SSE2): element-wise arithmetic rounds as the scalar one does */
typedef double v2d __attribute__((vector_size(16)));
static inline v2d load2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void store2(double *p, v2d v) { memcpy(p, &v, sizeof v); }

/* t_i = U[j][i] - sum_{k<j} U[k][i] U[k][j] for i in [i0, i0 + 2 V + S), in place: the
 * terms in k order, as cs_i_chol_n takes them. The entries are contiguous in row j and in
 * each row k: V vectors of two and S (0 or 1) single ones, all in one pass over k (V and S
 * fixed at compile time: the sums stay in registers). */
static inline __attribute__((always_inline)) void
upper_cols(int n, double *U, int j, int i0, const int V, const int S)
{
    v2d t[4];
    double *Uj = U + j * n + i0, ts = S ? Uj[2 * V] : 0;
    for (int v = 0; v < V; v++) t[v] = load2(Uj + 2 * v);
    for (int k = 0; k < j; k++) {
        const double *Uk = U + k * n + i0;
        double l = U[k * n + j];
        v2d lv = {l, l};
        for (int v = 0; v < V; v++) t[v] -= load2(Uk + 2 * v) * lv;
        if (S) ts -= Uk[2 * V] * l;
    }
    for (int v = 0; v < V; v++) store2(Uj + 2 * v, t[v]);
    if (S) Uj[2 * V] = ts;
}

/* upper_cols over the last r < 8 entries of row j from i0 */
static void upper_tail(int n, double *U, int j, int i0, int r)
{
    switch (r) {
    case 1: upper_cols(n, U, j, i0, 0, 1); break;
    case 2: upper_cols(n, U, j, i0, 1, 0); break;
    case 3: upper_cols(n, U, j, i0, 1, 1); break;
    case 4: upper_cols(n, U, j, i0, 2, 0); break;
    case 5: upper_cols(n, U, j, i0, 2, 1); break;
    case 6: upper_cols(n, U, j, i0, 3, 0); break;
    case 7: upper_cols(n, U, j, i0, 3, 1); break;
    default: break;
    }
}

int cs_i_chol_upper(int n, double *U)
{
    for (int j = 0; j < n; j++) {
        /* row j from its diagonal: the diagonal's sum of squares is the same sum with i = j */
        double *Uj = U + j * n;
        int i = j;
        for (; i + 8 <= n; i += 8) upper_cols(n, U, j, i, 4, 0);
        upper_tail(n, U, j, i, n - i);
        double s = Uj[j];
        if (!(s > 0) || !isfinite(s)) return -1;
        double d = sqrt(s);
        v2d dv = {d, d};
        Uj[j] = d;
        for (i = j + 1; i + 2 <= n; i += 2) store2(Uj + i, load2(Uj + i) / dv);
        if (i < n) Uj[i] /= d;
    }
    return 0;
}

void cs_i_chol_upper_solve(int n, const double *U, double *x)
{
    /* L y = b by columns: x_i still takes its terms in k order */
    for (int k = 0; k < n; k++) {
        double xk = x[k] / U[k * n + k];
        const double *Uk = U + k * n;
        x[k] = xk;
        int i = k + 1;
        v2d xv = {xk, xk};
        for (; i + 2 <= n; i += 2) store2(x + i, load2(x + i) - load2(Uk + i) * xv);
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
