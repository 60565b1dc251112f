/* Fixed-normal QCQP of one contact block (docs/contact-math.md §6): the PGS friction update.
 * Inner loop of the solver: stack arrays only, n <= CS_MAXFRIC. */
#include "cone.h"
#include "chol.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#define QCQP_MAXIT 60

/* z = L^-1 v */
static void forward(int m, const double *l, const double *v, double *z)
{
    for (int i = 0; i < m; i++) {
        double s = v[i];
        for (int k = 0; k < i; k++) s -= l[i * m + k] * z[k];
        z[i] = s / l[i * m + i];
    }
}

/* y = -(L L^T)^-1 c, with z = L^-1 c as scratch */
static void solve_neg(int m, const double *l, const double *c, double *z, double *y)
{
    forward(m, l, c, z);
    for (int i = m - 1; i >= 0; i--) {
        double s = -z[i]; /* solve L^T y = -z directly so the sums use the final sign */
        for (int k = i + 1; k < m; k++) s -= l[k * m + i] * y[k];
        y[i] = s / l[i * m + i];
    }
}

static double norm(int m, const double *v)
{
    double s = 0;
    for (int i = 0; i < m; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* L = chol(B + lam I); B is PD and lam >= 0, so this cannot fail in exact arithmetic.
 * 1 done, 0 not positive definite. */
static int factor_shifted(int m, const double *B, double lam, double *L)
{
    for (int i = 0; i < m * m; i++) L[i] = B[i];
    for (int i = 0; i < m; i++) L[i * m + i] += lam;
    return cs_i_chol(m, L) == 0;
}

static void fill_info(int n, const double *H, const double *b, const double *mu, double fn,
                      const double *x, double lam, cs_qcqp_info *info)
{
    double s2 = 0, st2 = 0, b2 = 0, dx2 = 0, hf2 = 0;
    for (int i = 0; i < n; i++) {
        if (!(mu[i] > 0)) continue; /* fixed components carry no stationarity condition */
        double hx = 0;
        for (int k = 0; k < n; k++) {
            hx += H[i * n + k] * x[k];
            if (mu[k] > 0) hf2 += H[i * n + k] * H[i * n + k];
        }
        double q = x[i] / mu[i], dx = lam * q / mu[i];
        double res = hx + b[i] + dx;
        s2 += q * q;
        st2 += res * res;
        b2 += b[i] * b[i];
        dx2 += dx * dx;
    }
    double sn = sqrt(s2);
    info->lambda = lam;
    info->feasibility = fmax(0, sn - fn);
    info->stationarity = sqrt(st2);
    /* normwise backward-error scale: ||H|| ||x|| + ||b|| + lambda ||D^-2 x|| */
    double scale = sqrt(hf2) * norm(n, x) + sqrt(b2) + sqrt(dx2);
    info->stationarity_rel = scale > 0 ? info->stationarity / scale : 0;
    info->complementarity = lam * (s2 - fn * fn);
}

/* The solve; residuals only when `residuals` (the PGS inner loop skips them). */
static int qcqp(int n, const double *H, const double *b, const double *mu, double fn, double *x,
                cs_qcqp_info *info, int residuals)
{
    if (n < 1 || n > CS_MAXFRIC || !(fn >= 0) || !isfinite(fn)) return -2;
    int idx[CS_MAXFRIC], m = 0;
    for (int k = 0; k < n; k++) {
        if (!(mu[k] >= 0) || !isfinite(mu[k])) return -2;
        if (mu[k] > 0) idx[m++] = k;
    }
    double L[CS_MAXFRIC * CS_MAXFRIC], B[CS_MAXFRIC * CS_MAXFRIC];
    double c[CS_MAXFRIC], y[CS_MAXFRIC], z[CS_MAXFRIC];
    if (m < n) {
        /* the free block alone being PD does not make H PD: check the whole of it */
        for (int i = 0; i < n * n; i++) L[i] = H[i];
        if (cs_i_chol(n, L)) return -1;
    }
    /* scale to a ball: B = D H D, c = D b over the free components */
    for (int a = 0; a < m; a++) {
        double da = mu[idx[a]];
        c[a] = da * b[idx[a]];
        for (int e = 0; e < m; e++) B[a * m + e] = da * H[idx[a] * n + idx[e]] * mu[idx[e]];
    }
    if (m > 0 && !factor_shifted(m, B, 0, L)) return -1;

    info->iterations = 0;
    info->active = 0;
    info->unconstrained_norm = 0;
    for (int k = 0; k < CS_MAXFRIC; k++) info->x_unc[k] = 0;
    for (int k = 0; k < n; k++) x[k] = 0;
    if (m == 0) {
        info->lambda = 0;
        if (residuals) fill_info(n, H, b, mu, fn, x, 0, info);
        return 0;
    }
    solve_neg(m, L, c, z, y);
    double ny = norm(m, y);
    info->unconstrained_norm = ny;
    for (int a = 0; a < m; a++) info->x_unc[idx[a]] = mu[idx[a]] * y[a];

    double lam = 0;
    /* an f_n so small that ||D b||/f_n overflows is the apex for every practical purpose */
    if (fn == 0 || !isfinite(norm(m, c) / fn)) {
        /* the apex: x = 0, and no finite multiplier of this form need exist */
        info->active = ny > 0;
    } else if (ny <= fn) {
        for (int a = 0; a < m; a++) x[idx[a]] = mu[idx[a]] * y[a];
    } else {
        /* ||y(lam)|| < ||c|| / lam, so psi(||c||/fn) < 0: the root lies in [0, ||c||/fn) */
        double nc = norm(m, c), lo = 0, hi = nc / fn;
        int it = 0;
        /* ||y(lam)|| >= ||c|| / (lambda_max(B) + lam) and lambda_max <= trace: a start
         * left of the root, so the (monotone from the left) Newton iterates skip the far
         * part of the way when the bound is strongly active */
        double tr = 0;
        for (int a = 0; a < m; a++) tr += B[a * m + a];
        if (nc / fn - tr > 0) {
            lam = nc / fn - tr;
            if (!factor_shifted(m, B, lam, L)) return -1;
            solve_neg(m, L, c, z, y);
            ny = norm(m, y);
        }
        for (;;) {
            if (ny > fn)
                lo = lam;
            else
                hi = lam;
            if (fabs(ny - fn) <= 4 * DBL_EPSILON * fn || it >= QCQP_MAXIT) break;
            /* Newton on 1/||y|| - 1/fn: step = (||y||/||L^-1 y||)^2 (||y|| - fn)/fn,
             * where ||L^-1 y||^2 = y^T (B + lam I)^-1 y = -psi'/2 */
            forward(m, L, y, z);
            double nz = norm(m, z);
            double nl = lam + (ny / nz) * (ny / nz) * (ny - fn) / fn;
            if (!(nl > lo && nl < hi)) nl = 0.5 * (lo + hi); /* guard by the bracket */
            if (fabs(nl - lam) <= 2 * DBL_EPSILON * nl) break; /* no representable progress */
            lam = nl;
            if (!factor_shifted(m, B, lam, L)) return -1;
            solve_neg(m, L, c, z, y);
            ny = norm(m, y);
            it++;
        }
        /* radial scaling onto the ellipsoid removes the remaining radial error */
        double s = fn / ny;
        for (int a = 0; a < m; a++) x[idx[a]] = mu[idx[a]] * (y[a] * s);
        info->active = 1;
        info->iterations = it;
    }
    info->lambda = lam;
    if (residuals) fill_info(n, H, b, mu, fn, x, lam, info);
    return 0;
}

int cs_qcqp_solve(int n, const double *H, const double *b, const double *mu, double fn,
                  double *x, cs_qcqp_info *info)
{
    cs_qcqp_info local;
    /* info == NULL: the caller wants x only; skip the residuals */
    return qcqp(n, H, b, mu, fn, x, info ? info : &local, info != NULL);
}

int cs_qcqp_solve_x(int n, const double *H, const double *b, const double *mu, double fn,
                    double *x, double *lambda)
{
    cs_qcqp_info info;
    int rc = qcqp(n, H, b, mu, fn, x, &info, 0);
    *lambda = rc == 0 ? info.lambda : 0;
    return rc < 0 ? rc : info.active;
}
