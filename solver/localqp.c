/* Small dense problems of one contact block: the fixed-normal QCQP (§6) and the
 * exact local cone QP that PGS needs.
 *
 * Why an exact local solve: MuJoCo's elliptic PGS does one ray/normal step and one
 * fixed-normal QCQP per block per sweep. That split is not an exact minimisation over the
 * curved cone, and a sweep can stop (zero improvement) short of the optimum on sliding
 * contacts. Here the block structure is kept -- "normal first, then the fixed-normal QCQP"
 * -- but nested and converged: the block cost minimised over the friction for a fixed
 * normal t, g(t) = min_{||D^-1 phi|| <= t} q(t, phi), is convex in t (partial minimisation
 * of a jointly convex problem), and by the envelope theorem g'(t) = (G x + c)_0 - lambda t,
 * with lambda the QCQP multiplier. So the exact block minimiser is the root of the
 * monotone g' on t >= 0, found by a bracketed Illinois secant, each evaluation one
 * fixed-normal QCQP solved to machine precision. Two closed-form exits come first: the
 * unconstrained minimiser when it lies in the cone, and the apex when -c lies in the polar
 * cone (c_0 >= ||D c_t||). */
#include "solver_internal.h"

#include <math.h>
#include <string.h>

static double norm(int n, const double *v)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

int cs_fn_qcqp(int n, const double *H, const double *b, const double *mu, double fn, double *x,
               double *lambda)
{
    if (!(fn > 0)) { /* apex: the only feasible point */
        *lambda = 0;
        memset(x, 0, sizeof(double) * n);
        return 0;
    }
    int rc = cs_qcqp_solve_x(n, H, b, mu, fn, x, lambda);
    return rc < 0 ? -1 : rc;
}

/* g'(t) and the minimiser x(t) of the block cost at normal t. */
static int gprime(int dim, const double *G, const double *c, const double *mu, double t,
                  double *x, double *h)
{
    int r = dim - 1;
    double H[25], b[5], lam;
    for (int i = 0; i < r; i++) {
        b[i] = c[1 + i] + G[(1 + i) * dim] * t;
        for (int k = 0; k < r; k++) H[i * r + k] = G[(1 + i) * dim + 1 + k];
    }
    if (cs_fn_qcqp(r, H, b, mu, t, x + 1, &lam) < 0) return -1;
    x[0] = t;
    double s = c[0] - lam * t;
    for (int k = 0; k < dim; k++) s += G[k] * x[k];
    *h = s;
    return 0;
}

static int cone_qp_scaled(int dim, const double *G, const double *c, const double *mu, double t0,
                          double *x);

/* Jacobi-scale first: z = S x, S = diag(sqrt(G_ii)). The cone stays elliptic with
 * mu'_j = mu_j s_j / s_0, and the scaled G has unit diagonal. Without it the spin/roll
 * rows (R_j = kappa/mu_j^2, mu_j ~ 1e-3) give cond(G) ~ 1e5 and the local solution is
 * only accurate to ~1e-10, which stalls PGS at force errors ~1e-5. */
int cs_cone_qp(int dim, const double *G, const double *c, const double *mu, double *x)
{
    double s[6], Gs[36], cs[6], ms[5];
    for (int i = 0; i < dim; i++) {
        if (!(G[i * dim + i] > 0)) return -1;
        s[i] = sqrt(G[i * dim + i]);
    }
    for (int i = 0; i < dim; i++) {
        cs[i] = c[i] / s[i];
        for (int k = 0; k < dim; k++) Gs[i * dim + k] = G[i * dim + k] / (s[i] * s[k]);
    }
    for (int j = 0; j < dim - 1; j++) ms[j] = mu[j] * s[1 + j] / s[0];
    double t0 = x[0] > 0 && isfinite(x[0]) ? x[0] * s[0] : 0; /* normal guess (scaled) */
    int it = cone_qp_scaled(dim, Gs, cs, ms, t0, x);
    if (it >= 0)
        for (int i = 0; i < dim; i++) x[i] /= s[i];
    return it;
}

static int cone_qp_scaled(int dim, const double *G, const double *c, const double *mu, double t0,
                          double *x)
{
    int r = dim - 1;
    double L[36];
    memcpy(L, G, sizeof(double) * dim * dim);
    if (cs_i_chol(dim, L)) return -1;
    for (int i = 0; i < dim; i++) x[i] = -c[i];
    cs_i_chol_solve(dim, L, x);
    double sn = 0, dc = 0;
    for (int j = 0; j < r; j++) {
        sn += (x[1 + j] / mu[j]) * (x[1 + j] / mu[j]);
        dc += (mu[j] * c[1 + j]) * (mu[j] * c[1 + j]);
    }
    if (x[0] >= 0 && sqrt(sn) <= x[0]) return 0; /* unconstrained minimiser is feasible */
    if (c[0] >= sqrt(dc)) {                       /* apex */
        memset(x, 0, sizeof(double) * dim);
        return 0;
    }
    /* bracket the root of h = g'; h(0+) = c_0 - ||D c_t|| < 0 */
    double lo = 0, hlo = c[0] - sqrt(dc), hi, hhi = 0, xt[6];
    int it = 0;
    if (t0 > 0) {
        /* near PGS convergence the block barely moves: bracket tightly around the guess */
        double h, step = 1e-6 * t0;
        if (gprime(dim, G, c, mu, t0, xt, &h)) return -1;
        it++;
        if (h == 0) {
            memcpy(x, xt, sizeof xt);
            return it;
        }
        if (h < 0) {
            lo = t0;
            hlo = h;
            for (hi = t0 + step;; hi = lo + (step *= 10), it++) {
                if (gprime(dim, G, c, mu, hi, xt, &hhi)) return -1;
                if (hhi > 0 || it > 200) break;
                lo = hi;
                hlo = hhi;
            }
        } else {
            hi = t0;
            hhi = h;
            for (double t = t0 - step;; t = hi - (step *= 10), it++) {
                if (t <= 0 || it > 200) break; /* lo stays 0 with h(0+) */
                if (gprime(dim, G, c, mu, t, xt, &h)) return -1;
                if (h < 0) {
                    lo = t;
                    hlo = h;
                    break;
                }
                hi = t;
                hhi = h;
            }
        }
    } else {
        hi = fabs(x[0]);
        if (!(hi > 0)) hi = norm(dim, c) / G[0];
        if (!(hi > 0)) hi = 1;
        for (;; it++) {
            if (gprime(dim, G, c, mu, hi, xt, &hhi)) return -1;
            if (hhi > 0 || it > 200) break;
            lo = hi;
            hlo = hhi;
            hi *= 2;
        }
    }
    memcpy(x, xt, sizeof xt);
    if (hhi <= 0) return it; /* could not bracket (should not occur): best point so far */
    int side = 0;
    for (int k = 0; k < 200; k++, it++) {
        double t = (lo * hhi - hi * hlo) / (hhi - hlo);
        if (!(t > lo && t < hi)) t = 0.5 * (lo + hi);
        double h;
        if (gprime(dim, G, c, mu, t, xt, &h)) return -1;
        memcpy(x, xt, sizeof xt);
        double hs = fabs(c[0]) + fabs(G[0] * t);
        for (int j = 1; j < dim; j++) hs += fabs(G[j] * xt[j]);
        if (fabs(h) <= 1e-15 * hs || hi - lo <= 4e-16 * hi) break;
        if (h > 0) {
            hi = t;
            hhi = h;
            if (side == 1) hlo *= 0.5; /* Illinois: keep the retained end moving */
            side = 1;
        } else {
            lo = t;
            hlo = h;
            if (side == -1) hhi *= 0.5;
            side = -1;
        }
    }
    return it;
}

/* Exact minimiser of 1/2 x^T G x + c^T x over x >= 0 (n <= CS_MAXROWS): primal active
 * set from the feasible start x (finite termination; n is at most 10). Used for pyramidal
 * blocks, whose edge rows are strongly coupled (J_n +- mu J_j): one scalar pass over them
 * leaves opposite edges unbalanced, i.e. a spurious friction force, until many sweeps have
 * passed; solving the block exactly makes a single contact exact in one sweep and cuts
 * the sweeps of coupled scenes (resting box: 205 cold / 4 warm instead of 352 / 12). */
int cs_nonneg_qp(int n, const double *G, const double *c, double *x)
{
    int act[CS_MAXROWS], F[CS_MAXROWS], it;
    double g[CS_MAXROWS], L[CS_MAXROWS * CS_MAXROWS], p[CS_MAXROWS], sc = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] < 0) x[i] = 0;
        act[i] = x[i] == 0;
        sc = fmax(sc, fabs(c[i]));
    }
    for (it = 0; it < 100; it++) {
        for (int i = 0; i < n; i++) {
            g[i] = c[i];
            for (int k = 0; k < n; k++) g[i] += G[i * n + k] * x[k];
        }
        int nf = 0;
        for (int i = 0; i < n; i++)
            if (!act[i]) F[nf++] = i;
        for (int a = 0; a < nf; a++) {
            p[a] = -g[F[a]];
            for (int b = 0; b < nf; b++) L[a * nf + b] = G[F[a] * n + F[b]];
        }
        if (nf && cs_i_chol(nf, L)) return -1;
        if (nf) cs_i_chol_solve(nf, L, p);
        double alpha = 1;
        int blk = -1;
        for (int a = 0; a < nf; a++)
            if (p[a] < 0 && x[F[a]] + p[a] < 0) {
                double t = -x[F[a]] / p[a];
                if (t < alpha) {
                    alpha = t;
                    blk = F[a];
                }
            }
        for (int a = 0; a < nf; a++) x[F[a]] += alpha * p[a];
        if (blk >= 0) {
            x[blk] = 0;
            act[blk] = 1;
            continue;
        }
        /* optimal on the free set: release the most negative multiplier, if any */
        int rel = -1;
        double gmin = -1e-14 * (sc > 0 ? sc : 1);
        for (int i = 0; i < n; i++) {
            if (!act[i]) continue;
            double gi = c[i];
            for (int k = 0; k < n; k++) gi += G[i * n + k] * x[k];
            if (gi < gmin) {
                gmin = gi;
                rel = i;
            }
        }
        if (rel < 0) break;
        act[rel] = 0;
    }
    return it;
}
