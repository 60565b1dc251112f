/* Free-body mass matrix and its factor.
 * With r = R c the COM offset in world, the COM velocity is v + R (w x c) = v - R [c]x w, so
 * T = 1/2 m |v - R[c]x w|^2 + 1/2 w^T I w gives
 *   M = [ m E          -m R [c]x        ]
 *       [ m [c]x R^T    I - m [c]x [c]x ].  */
#include <math.h>
#include <string.h>

#include "dynamics.h"

static void skew(const double c[3], double S[9])
{
    S[0] = 0;     S[1] = -c[2]; S[2] = c[1];
    S[3] = c[2];  S[4] = 0;     S[5] = -c[0];
    S[6] = -c[1]; S[7] = c[0];  S[8] = 0;
}

void cs_free_mass6(double m, const double c[3], const double I[9], const double R[9],
                   double M[36])
{
    double S[9], RS[9];
    skew(c, S);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double t = 0;
            for (int k = 0; k < 3; k++) t += R[3 * i + k] * S[3 * k + j];
            RS[3 * i + j] = t;
        }
    memset(M, 0, 36 * sizeof *M);
    for (int i = 0; i < 3; i++) {
        M[6 * i + i] = m;
        for (int j = 0; j < 3; j++) {
            M[6 * i + 3 + j] = -m * RS[3 * i + j];
            M[6 * (3 + j) + i] = -m * RS[3 * i + j];
            double ss = 0;
            for (int k = 0; k < 3; k++) ss += S[3 * i + k] * S[3 * k + j];
            M[6 * (3 + i) + 3 + j] = I[3 * i + j] - m * ss;
        }
    }
}

int cs_chol6(const double M[36], double L[36])
{
    memset(L, 0, 36 * sizeof *L);
    for (int j = 0; j < 6; j++) {
        double d = M[6 * j + j];
        for (int k = 0; k < j; k++) d -= L[6 * j + k] * L[6 * j + k];
        if (!(d > 0)) return 0;
        d = sqrt(d);
        L[6 * j + j] = d;
        for (int i = j + 1; i < 6; i++) {
            double s = M[6 * i + j];
            for (int k = 0; k < j; k++) s -= L[6 * i + k] * L[6 * j + k];
            L[6 * i + j] = s / d;
        }
    }
    return 1;
}

void cs_chol6_solve(const double L[36], double x[6], const double y[6])
{
    double z[6];
    for (int i = 0; i < 6; i++) {
        double s = y[i];
        for (int k = 0; k < i; k++) s -= L[6 * i + k] * z[k];
        z[i] = s / L[6 * i + i];
    }
    for (int i = 5; i >= 0; i--) {
        double s = z[i];
        for (int k = i + 1; k < 6; k++) s -= L[6 * k + i] * x[k];
        x[i] = s / L[6 * i + i];
    }
}

void cs_chol6_inverse(const double L[36], double Minv[36])
{
    for (int j = 0; j < 6; j++) {
        double e[6] = {0}, x[6];
        e[j] = 1;
        cs_chol6_solve(L, x, e);
        for (int i = 0; i < 6; i++) Minv[6 * i + j] = x[i];
    }
    /* symmetrise away rounding so W = M^-1 J^T blocks are exactly symmetric in use */
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++) {
            double a = 0.5 * (Minv[6 * i + j] + Minv[6 * j + i]);
            Minv[6 * i + j] = Minv[6 * j + i] = a;
        }
}
