/* Dense Cholesky (chol.h): plain, and within an envelope. */
#include "chol.h"

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
