/* Soft (regularised) cone block response (docs/contact-math.md §7): the residual cost
 * l(j) = max over f in K of [-f.j - 1/2 f^T R f], its minus-gradient f and its Hessian. */
#include "cone.h"

#include <math.h>

cs_zone cs_soft_cone(int r, const double *j, double Rn, const double *mu, double kappa, double *f,
                     double *cost, double *hess)
{
    const int d = r + 1;
    double u[CS_MAXFRIC], t2 = 0;
    for (int k = 0; k < r; k++) {
        u[k] = mu[k] > 0 ? mu[k] * j[k + 1] : 0; /* zero scales: fixed at 0, left out */
        t2 += u[k] * u[k];
    }
    const double T = sqrt(t2), jn = j[0];
    if (hess)
        for (int i = 0; i < d * d; i++) hess[i] = 0;

    if (jn >= T) {
        /* top: (j_n, u) is in the dual cone, so f = 0 is the maximiser */
        for (int k = 0; k < d; k++) f[k] = 0;
        *cost = 0;
        return CS_ZONE_TOP;
    }
    if (kappa * jn + Rn * T <= 0) {
        /* bottom: the unconstrained maximiser -R^-1 j lies in the cone */
        f[0] = -jn / Rn;
        double c = jn * jn / Rn;
        for (int k = 0; k < r; k++) {
            double w = mu[k] > 0 ? mu[k] * mu[k] / kappa : 0; /* R_k^-1 */
            f[k + 1] = -w * j[k + 1];
            c += w * j[k + 1] * j[k + 1];
            if (hess) hess[(k + 1) * d + k + 1] = w;
        }
        *cost = 0.5 * c;
        if (hess) hess[0] = 1 / Rn;
        return CS_ZONE_BOTTOM;
    }
    /* middle: on the cone's surface; here T > 0 since -Rn T / kappa < j_n < T */
    const double s = Rn + kappa, fn = (T - jn) / s;
    double g[CS_MAXFRIC]; /* D u / T */
    f[0] = fn;
    for (int k = 0; k < r; k++) {
        g[k] = mu[k] > 0 ? mu[k] * u[k] / T : 0;
        f[k + 1] = -fn * g[k];
    }
    *cost = 0.5 * (T - jn) * fn;
    if (hess) {
        /* (g g^T + (T - j_n) D (I - u u^T / T^2) D / T) / s with g = (-1, D u / T) */
        const double w = (T - jn) / T;
        hess[0] = 1 / s;
        for (int a = 0; a < r; a++) {
            hess[a + 1] = hess[(a + 1) * d] = -g[a] / s;
            for (int e = 0; e < r; e++) {
                double p = (a == e ? mu[a] * mu[a] : 0) - g[a] * g[e]; /* D (I - uu^T/T^2) D */
                hess[(a + 1) * d + e + 1] = (g[a] * g[e] + w * p) / s;
            }
        }
    }
    return CS_ZONE_MIDDLE;
}

cs_zone cs_soft_cone_dir(int r, const double *j, const double *dj, double Rn, const double *mu,
                         double kappa, double *fdj, double *djhdj)
{
    double u[CS_MAXFRIC], t2 = 0;
    for (int k = 0; k < r; k++) {
        u[k] = mu[k] > 0 ? mu[k] * j[k + 1] : 0;
        t2 += u[k] * u[k];
    }
    const double T = sqrt(t2), jn = j[0];
    if (jn >= T) {
        *fdj = *djhdj = 0;
        return CS_ZONE_TOP;
    }
    if (kappa * jn + Rn * T <= 0) {
        double a = -jn / Rn * dj[0], b = dj[0] * dj[0] / Rn;
        for (int k = 0; k < r; k++) {
            double w = mu[k] > 0 ? mu[k] * mu[k] / kappa : 0;
            a -= w * j[k + 1] * dj[k + 1];
            b += w * dj[k + 1] * dj[k + 1];
        }
        *fdj = a;
        *djhdj = b;
        return CS_ZONE_BOTTOM;
    }
    /* middle: f = fn (1, -g), H = (gt gt^T + w D (I - u u^T / T^2) D) / s, gt = (-1, g) */
    const double s = Rn + kappa, fn = (T - jn) / s, w = (T - jn) / T;
    double gd = 0, dd = 0;
    for (int k = 0; k < r; k++) {
        double g = mu[k] > 0 ? mu[k] * u[k] / T : 0;
        gd += g * dj[k + 1];
        dd += mu[k] * mu[k] * dj[k + 1] * dj[k + 1];
    }
    *fdj = fn * (dj[0] - gd);
    *djhdj = ((gd - dj[0]) * (gd - dj[0]) + w * (dd - gd * gd)) / s;
    return CS_ZONE_MIDDLE;
}

int cs_soft_regularizer(int r, double Rn, const double *mu, double impratio, double *R,
                        double *kappa, double *mubar)
{
    double mu1 = 0;
    for (int k = 0; k < r && mu1 == 0; k++)
        if (mu[k] > 0) mu1 = mu[k];
    double kap = mu1 > 0 ? Rn * mu1 * mu1 / impratio : 0;
    if (R) {
        R[0] = Rn;
        for (int k = 0; k < r; k++) R[k + 1] = mu[k] > 0 ? kap / (mu[k] * mu[k]) : 0;
    }
    *kappa = kap;
    *mubar = mu1 > 0 ? mu1 / sqrt(impratio) : 0;
    return mu1 > 0;
}
