/* Dense Cholesky (chol.h): plain, and within an envelope. */
#include "chol.h"

int cs_i_chol(int n, double *A) { return cs_i_chol_n(n, A, 0); }

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
