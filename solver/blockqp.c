/* Exact local problems of one contact block for the PGS sweep (docs/contact-math.md §6, §7).
 *
 * Elliptic block. Within one solve G and mu are fixed while c changes every sweep, so all
 * factorisation is done once (cs_bqp_prepare) and a solve is O(r) per iteration.
 * In z = (t, y) = (x0, D^-1 xt) the cone is round, ||y|| <= t, and the problem reads
 *   minimise 1/2 z^T [g00 g0^T; g0 H] z + c0 t + (D c_t)^T y,   H = D G_tt D, g0 = D G_t0.
 * The structure is the chapter's: the normal first, then the fixed-normal QCQP (§6) on the
 * friction components. For a fixed normal t the QCQP's multiplier lam solves the secular
 * equation ||y(lam)|| = t, y(lam) = -(H + lam I)^-1 w(t), w(t) = D c_t + t g0; with
 * H = Q diag(ev) Q^T (closed form 2x2 and 3x3/5x5 by cyclic Jacobi, once per step) and
 * w = u + t v in eigen-coordinates this is a scalar equation in lam costing O(r) per
 * evaluation, solved by Newton on 1/||y(lam)|| - 1/t (concave and increasing, so Newton
 * from the left is monotone: Moré-Sorensen) inside the bracket
 * [||w||/t - ev_max, ||w||/t - ev_min]. The outer cost g(t) = min over the ball is convex
 * (partial minimisation of a jointly convex problem) with, by the envelope theorem,
 *   g'(t)  = g00 t + c0 + g0^T y - lam t,
 *   g''(t) = g00 - C + (B^2 + 2 t B + E) / A,
 * A = sum y_k^2 d_k, B = sum v_k y_k d_k, C = sum v_k^2 d_k, E = sum ev_k y_k^2 d_k,
 * d_k = 1/(ev_k + lam) (implicit differentiation of the secular equation, rearranged so no
 * term grows like lam when t -> 0). Safeguarded Newton on g' with the bracket
 * [0 (g'(0+) = c0 - ||D c_t||), +inf) finds the normal; dlam/dt = -(t + B)/A predicts the
 * next multiplier, so each outer step usually costs one or two secular iterations. Where
 * the ball's constraint is inactive (an interval of t) g' is linear with slope schur and
 * its slope jumps at the interval's ends; an evaluation there moves once to the end on the
 * root's side, so a root just past an end (stick-slip transitions) costs no extra steps.
 * The closed-form cases come first: the apex when -c is in the polar cone (c0 >= ||D c_t||) and
 * the unconstrained minimiser when it lies in the cone. A warm start supplies t and, from
 * the previous friction and the new c, lam.
 *
 * Non-negative block (pyramidal and frictionless rows): primal active set from the warm
 * start's zero pattern. Each working-set subproblem is solved by whichever system is
 * smaller: G_FF on the free set, or the Schur form on the active set with the prepared
 * inverse P = G^-1 (G_FF^-1 = P_FF - P_FA P_AA^-1 P_AF) and one step of refinement with G,
 * since the inverse alone is not backward stable. A converged sweep is one small solve. */
#include "blockqp.h"
#include "chol.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define EPS DBL_EPSILON
#define OUTER_MAXIT 100
#define SECULAR_MAXIT 60
#define NNQP_MAXIT 100

/* Cyclic Jacobi on the symmetric r x r matrix a (destroyed: its diagonal ends as the
 * eigenvalues), V's columns the eigenvectors. A rotation is skipped when |a_pq| is below
 * rounding relative to sqrt(a_pp a_qq): for a PD matrix that keeps the small eigenvalues
 * accurate relative to themselves. One rotation settles the 2x2 case. */
static void jacobi(int r, double *a, double *V)
{
    for (int i = 0; i < r * r; i++) V[i] = 0;
    for (int i = 0; i < r; i++) V[i * r + i] = 1;
    for (int sweep = 0; sweep < 50; sweep++) {
        int rotated = 0;
        for (int p = 0; p < r; p++)
            for (int q = p + 1; q < r; q++) {
                double apq = a[p * r + q];
                if (fabs(apq) <= 0.5 * EPS * sqrt(fabs(a[p * r + p] * a[q * r + q]))) {
                    a[p * r + q] = a[q * r + p] = 0;
                    continue;
                }
                rotated = 1;
                double th = (a[q * r + q] - a[p * r + p]) / (2 * apq);
                double t = fabs(th) > 1e100 ? 0.5 / fabs(th) : 1 / (fabs(th) + sqrt(th * th + 1));
                if (th < 0) t = -t;
                double cs = 1 / sqrt(t * t + 1), sn = t * cs;
                a[p * r + p] -= t * apq;
                a[q * r + q] += t * apq;
                a[p * r + q] = a[q * r + p] = 0;
                for (int k = 0; k < r; k++) {
                    if (k != p && k != q) {
                        double akp = a[k * r + p], akq = a[k * r + q];
                        a[k * r + p] = a[p * r + k] = cs * akp - sn * akq;
                        a[k * r + q] = a[q * r + k] = sn * akp + cs * akq;
                    }
                    double vkp = V[k * r + p], vkq = V[k * r + q];
                    V[k * r + p] = cs * vkp - sn * vkq;
                    V[k * r + q] = sn * vkp + cs * vkq;
                }
            }
        if (!rotated) break;
    }
}

int cs_bqp_prepare(cs_bqp *q, int dim, const double *G, const double *mu)
{
    if (dim < 1 || dim > CS_BQP_MAXDIM) return -1;
    int r = dim - 1;
    for (int j = 0; j < r; j++)
        if (!(mu[j] > 0) || !isfinite(mu[j])) return -1;
    /* Cholesky with the normal last: the positive-definiteness test, and its last pivot
     * squared is the Schur complement g00 - g0^T H^-1 g0 (the same in z as in x) */
    double L[CS_BQP_MAXDIM * CS_BQP_MAXDIM];
    for (int i = 0; i < dim; i++)
        for (int k = 0; k <= i; k++) {
            int gi = (i + 1) % dim, gk = (k + 1) % dim; /* friction rows first */
            L[i * dim + k] = gi >= gk ? G[gi * dim + gk] : G[gk * dim + gi];
        }
    if (cs_i_chol(dim, L)) return -1;
    memset(q, 0, sizeof *q);
    q->dim = dim;
    q->g00 = G[0];
    q->schur = L[dim * dim - 1] * L[dim * dim - 1];
    if (r == 0) return 0;
    double H[25], V[25], g0[5];
    for (int i = 0; i < r; i++) {
        g0[i] = mu[i] * G[(1 + i) * dim];
        q->imu2[i] = 1 / (mu[i] * mu[i]);
        for (int k = 0; k <= i; k++)
            H[i * r + k] = H[k * r + i] = mu[i] * G[(1 + i) * dim + 1 + k] * mu[k];
    }
    jacobi(r, H, V);
    int ord[5];
    for (int k = 0; k < r; k++) ord[k] = k;
    for (int a = 1; a < r; a++) /* ascending eigenvalues: ev[0] and ev[r-1] bound the root */
        for (int b = a; b > 0 && H[ord[b] * r + ord[b]] < H[ord[b - 1] * r + ord[b - 1]]; b--) {
            int tmp = ord[b];
            ord[b] = ord[b - 1];
            ord[b - 1] = tmp;
        }
    for (int k = 0; k < r; k++) {
        int o = ord[k];
        q->ev[k] = H[o * r + o];
        if (!(q->ev[k] > 0)) return -1;
        double s = 0;
        for (int i = 0; i < r; i++) {
            s += V[i * r + o] * g0[i];
            q->dq[i * r + k] = mu[i] * V[i * r + o];
        }
        q->v[k] = s;
    }
    return 0;
}

/* The fixed-normal QCQP at normal t in eigen-coordinates: w = u + t v, nw = ||w||.
 * lam0 is the multiplier guess (< 0: none). Writes y (on the sphere ||y|| = t when active)
 * and d_k = 1/(ev_k + lam); returns lam. *it counts the secular iterations. */
static double secular(int r, const double *ev, const double *w, double nw, double t, double lam0,
                      double *y, double *d, int *it)
{
    double lo = fmax(0, nw / t - ev[r - 1]), hi = nw / t - ev[0];
    double lam = lam0 >= lo ? (lam0 <= hi ? lam0 : hi) : lo; /* no guess (< 0, NaN): lo */
    if (!(hi > 0)) lam = 0; /* ||H^-1 w|| <= ||w|| / ev_min <= t: inactive */
    double n = 0;
    for (int k = 0; k < SECULAR_MAXIT; k++) {
        double n2 = 0, s3 = 0;
        for (int j = 0; j < r; j++) {
            d[j] = 1 / (ev[j] + lam);
            y[j] = -w[j] * d[j];
            n2 += y[j] * y[j];
            s3 += y[j] * y[j] * d[j];
        }
        (*it)++;
        n = sqrt(n2);
        if (n <= t && lam == 0) return 0; /* the ball's constraint is not active */
        if (n > t)
            lo = lam;
        else
            hi = lam;
        if (fabs(n - t) <= 4 * EPS * t) break;
        /* Newton on 1/||y|| - 1/t */
        double nl = lam + (n - t) * n2 / (t * s3);
        if (!(nl >= lo && nl <= hi)) nl = n < t ? lo : 0.5 * (lo + hi);
        if (fabs(nl - lam) <= 2 * EPS * lam) break;
        lam = nl;
    }
    double s = t / n; /* radial scaling puts y exactly on the sphere */
    for (int j = 0; j < r; j++) y[j] *= s;
    return lam;
}

/* The end of the interval of normals t at which the friction's unconstrained minimiser
 * y0(t) = p + t q, p = -u/ev, q = -v/ev, lies in the ball ||y0|| <= t (a convex condition,
 * so the set is an interval): the roots of (||q||^2 - 1) t^2 + 2 p.q t + ||p||^2. The
 * upper end when `up`, else the lower; -1 if there is none (or rounding hides it). */
static double inactive_end(int r, const double *ev, const double *u, const double *v, double t,
                           int up)
{
    double qq = 0, pq = 0, pp = 0;
    for (int k = 0; k < r; k++) {
        double pk = -u[k] / ev[k], qk = -v[k] / ev[k];
        qq += qk * qk;
        pq += pk * qk;
        pp += pk * pk;
    }
    double a = qq - 1, b = 2 * pq, disc = b * b - 4 * a * pp, root[2];
    if (!(disc >= 0)) return -1;
    double m = -0.5 * (b + copysign(sqrt(disc), b)); /* no cancellation */
    root[0] = a != 0 ? m / a : -1;
    root[1] = m != 0 ? pp / m : -1;
    double best = -1;
    for (int i = 0; i < 2; i++) {
        double x = root[i];
        if (!(x > 0) || !isfinite(x)) continue;
        if (up ? x >= t * (1 - 1e-12) && (best < 0 || x < best)
               : x <= t * (1 + 1e-12) && x > best)
            best = x;
    }
    return best;
}

/* back from eigen-coordinates: x = (t, D Q y) */
static void to_x(int r, const double *dq, double t, const double *y, double *x)
{
    x[0] = t;
    for (int i = 0; i < r; i++) {
        double s = 0;
        for (int k = 0; k < r; k++) s += dq[i * r + k] * y[k];
        x[1 + i] = s;
    }
}

int cs_bqp_solve(const cs_bqp *q, const double *c, double *x)
{
    int dim = q->dim, r = dim - 1;
    for (int i = 0; i < dim; i++)
        if (!isfinite(c[i])) return -1;
    double c0 = c[0];
    if (r == 0) {
        x[0] = c0 < 0 ? -c0 / q->g00 : 0;
        return 0;
    }
    const double *ev = q->ev, *v = q->v, *dq = q->dq;
    double u[5], y[5], d[5], w[5], nu2 = 0;
    for (int k = 0; k < r; k++) {
        double s = 0;
        for (int i = 0; i < r; i++) s += dq[i * r + k] * c[1 + i];
        u[k] = s;
        nu2 += s * s;
    }
    double nu = sqrt(nu2);
    if (c0 >= nu) { /* -c in the polar cone: the apex */
        for (int i = 0; i < dim; i++) x[i] = 0;
        return 0;
    }
    double a = c0, ny2 = 0;
    for (int k = 0; k < r; k++) a -= v[k] * u[k] / ev[k];
    double tu = -a / q->schur;
    for (int k = 0; k < r; k++) {
        y[k] = -(u[k] + tu * v[k]) / ev[k];
        ny2 += y[k] * y[k];
    }
    if (tu > 0 && ny2 <= tu * tu) { /* the unconstrained minimiser is in the cone */
        to_x(r, dq, tu, y, x);
        return 0;
    }

    double t = x[0], lam = -1;
    int warm = t > 0 && isfinite(t);
    for (int i = 1; i < dim && warm; i++) warm = isfinite(x[i]);
    if (warm) {
        /* multiplier guess from the friction rows of the KKT system at the old friction:
         * (ev_k + lam) y_k = -w_k in the least-squares sense */
        double n2 = 0, num = 0;
        for (int k = 0; k < r; k++) {
            double s = 0;
            for (int i = 0; i < r; i++) s += dq[i * r + k] * q->imu2[i] * x[1 + i];
            n2 += s * s;
            num += (u[k] + t * v[k] + ev[k] * s) * s;
        }
        if (n2 > 0) lam = -num / n2;
    } else {
        /* the better of two boundary rays, each minimised over its length: towards the
         * unconstrained minimiser's friction, and along -D c_t (the apex's way out) */
        double ny = sqrt(ny2), best = 0;
        t = 0;
        for (int ray = 0; ray < 2; ray++) {
            double cd = c0, dgd = q->g00;
            for (int k = 0; k < r; k++) {
                double yk = ray ? -u[k] / nu : (ny > 0 ? y[k] / ny : 0);
                cd += u[k] * yk;
                dgd += (2 * v[k] + ev[k] * yk) * yk;
            }
            if (cd < 0 && dgd > 0 && -cd * cd / dgd < best) {
                best = -cd * cd / dgd;
                t = -cd / dgd;
            }
        }
        if (!(t > 0)) t = (nu - c0) / q->g00;
    }
    double lo = 0, hi = INFINITY, wlo = c0 - nu, whi = 0; /* g'(0+) = c0 - ||D c_t|| */
    int nev = 0, nsec = 0, side = 0, jumped = 0;
    for (;;) {
        double nw2 = 0;
        for (int k = 0; k < r; k++) {
            w[k] = u[k] + t * v[k];
            nw2 += w[k] * w[k];
        }
        lam = secular(r, ev, w, sqrt(nw2), t, lam, y, d, &nsec);
        nev++;
        if (lam == 0 && !jumped) {
            /* Inside the interval of t where the ball's constraint is inactive g' is
             * linear, with slope schur, and the slope jumps at the interval's ends, so
             * Newton from here overshoots a root just past an end. Move to the end on the
             * root's side (once), onto the active branch with its one-sided slope. */
            double h0 = q->g00 * t + c0, he = q->g00 * t + c0, ye[5], n2 = 0;
            for (int k = 0; k < r; k++) h0 += v[k] * y[k];
            double te = inactive_end(r, ev, u, v, t, h0 < 0);
            if (te > 0 && te != t) {
                for (int k = 0; k < r; k++) {
                    ye[k] = -(u[k] + te * v[k]) * d[k];
                    n2 += ye[k] * ye[k];
                }
                double s = n2 > 0 ? te / sqrt(n2) : 1;
                he = q->g00 * te + c0;
                for (int k = 0; k < r; k++) he += v[k] * (ye[k] *= s);
                if ((he < 0) == (h0 < 0)) { /* the root is beyond the end indeed */
                    t = te;
                    for (int k = 0; k < r; k++) y[k] = ye[k];
                    jumped = 1;
                }
            }
        }
        double vy = 0, hw = 0, A = 0, B = 0, C = 0, E = 0;
        for (int k = 0; k < r; k++) {
            vy += v[k] * y[k];
            hw += fabs(v[k]) * (fabs(u[k]) + t * fabs(v[k])) * d[k];
            A += y[k] * y[k] * d[k];
            B += v[k] * y[k] * d[k];
            C += v[k] * v[k] * d[k];
            E += ev[k] * y[k] * y[k] * d[k];
        }
        double h = q->g00 * t + c0 + vy - lam * t;
        /* on the sphere (lam >= 0) the implicit derivative; strictly inside, schur */
        double n2 = 0;
        for (int k = 0; k < r; k++) n2 += y[k] * y[k];
        int onsphere = lam > 0 || fabs(sqrt(n2) - t) <= 8 * EPS * t;
        double hp = onsphere && A > 0 ? q->g00 - C + (B * B + 2 * t * B + E) / A : q->schur;
        double dl = onsphere && A > 0 ? -(t + B) / A : 0;
        if (h < 0) {
            lo = t;
            wlo = h;
            if (side < 0) whi *= 0.5; /* Illinois: the same end moved twice */
            side = -1;
        } else {
            hi = t;
            whi = h;
            if (side > 0) wlo *= 0.5;
            side = 1;
        }
        /* h's rounding: each term's size, and w = u + t v's error carried through y */
        if (fabs(h) <= 4 * EPS * (fabs(c0) + q->g00 * t + hw + lam * t) || nev >= OUTER_MAXIT ||
            hi - lo <= 2 * EPS * lo)
            break;
        double dt = -h / hp, tn = t + dt;
        if (fabs(dt) <= 2 * EPS * t) break; /* no representable Newton progress */
        if (!(tn > lo && tn < hi)) {
            if (isinf(hi))
                tn = 2 * t;
            else {
                tn = lo - wlo * (hi - lo) / (whi - wlo); /* secant of the bracket */
                if (!(tn > lo && tn < hi)) tn = 0.5 * (lo + hi);
            }
        }
        if (fabs(tn - t) <= 2 * EPS * t) break;
        lam = lam + dl * (tn - t);
        t = tn;
    }
    to_x(r, dq, t, y, x);
    return nev;
}

/* ---- non-negative block ---- */

#define PK(i, j) ((i) * ((i) + 1) / 2 + (j)) /* packed lower triangle, i >= j */

static double sym(const double *a, int i, int j)
{
    return i >= j ? a[PK(i, j)] : a[PK(j, i)];
}

int cs_nnqp_prepare(cs_nnqp *q, int n, const double *G)
{
    if (n < 1 || n > CS_NNQP_MAXN) return -1;
    double L[CS_NNQP_MAXN * CS_NNQP_MAXN], Li[CS_NNQP_MAXN * CS_NNQP_MAXN];
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= i; k++) L[i * n + k] = G[i * n + k];
    if (cs_i_chol(n, L)) return -1;
    memset(q, 0, sizeof *q);
    q->n = n;
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= i; k++) q->g[PK(i, k)] = G[i * n + k];
    /* G^-1 = L^-T L^-1 from the lower-triangular inverse */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i < j) {
                Li[i * n + j] = 0;
                continue;
            }
            double s = i == j ? 1 : 0;
            for (int k = j; k < i; k++) s -= L[i * n + k] * Li[k * n + j];
            Li[i * n + j] = s / L[i * n + i];
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = i; k < n; k++) s += Li[k * n + i] * Li[k * n + j];
            q->p[PK(i, j)] = s;
        }
    return 0;
}

/* d = G_FF^-1 rhs from the inverse P = G^-1: G_FF^-1 = P_FF - P_FA P_AA^-1 P_AF, with
 * M = chol(P_AA). */
static void pschur_solve(const double *p, int n, const int *F, int nf, const int *A, int na,
                         const double *M, const double *rhs, double *d)
{
    double e[CS_NNQP_MAXN], m[CS_NNQP_MAXN];
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int f = 0; f < nf; f++) s += sym(p, i, F[f]) * rhs[f];
        e[i] = s;
    }
    for (int a = 0; a < na; a++) m[a] = e[A[a]];
    if (na) cs_i_chol_solve(na, M, m);
    for (int f = 0; f < nf; f++) {
        double s = e[F[f]];
        for (int a = 0; a < na; a++) s -= sym(p, F[f], A[a]) * m[a];
        d[f] = s;
    }
}

int cs_nnqp_solve(const cs_nnqp *q, const double *c, double *x)
{
    int n = q->n;
    double sc = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(c[i])) return -1;
        sc = fmax(sc, fabs(c[i]));
    }
    double tol = 1e-14 * (sc > 0 ? sc : 1); /* multipliers above -tol count as >= 0 */
    int act[CS_NNQP_MAXN];
    for (int i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(x[i])) x[i] = 0;
        act[i] = x[i] == 0;
    }
    double M[CS_NNQP_MAXN * CS_NNQP_MAXN], rhs[CS_NNQP_MAXN], dx[CS_NNQP_MAXN];
    double xs[CS_NNQP_MAXN], lm[CS_NNQP_MAXN];
    int F[CS_NNQP_MAXN], A[CS_NNQP_MAXN];
    for (int it = 1; it <= NNQP_MAXIT; it++) {
        int nf = 0, na = 0;
        for (int i = 0; i < n; i++) {
            if (act[i])
                A[na++] = i;
            else
                F[nf++] = i;
        }
        int schur = na <= nf; /* the smaller system */
        if (schur) {
            for (int a = 0; a < na; a++)
                for (int b = 0; b <= a; b++) M[a * na + b] = sym(q->p, A[a], A[b]);
            if (na && cs_i_chol(na, M)) return -1;
            for (int f = 0; f < nf; f++) rhs[f] = -c[F[f]];
            pschur_solve(q->p, n, F, nf, A, na, M, rhs, xs);
            /* the inverse is not backward stable: one step of refinement with G restores
             * a residual at rounding level (cond(G) up to ~1e8) */
            for (int f = 0; f < nf; f++) {
                double s = c[F[f]];
                for (int e = 0; e < nf; e++) s += sym(q->g, F[f], F[e]) * xs[e];
                rhs[f] = -s;
            }
            pschur_solve(q->p, n, F, nf, A, na, M, rhs, dx);
            for (int f = 0; f < nf; f++) xs[f] += dx[f];
        } else {
            for (int f = 0; f < nf; f++) {
                xs[f] = -c[F[f]];
                for (int e = 0; e <= f; e++) M[f * nf + e] = sym(q->g, F[f], F[e]);
            }
            if (cs_i_chol(nf, M)) return -1;
            cs_i_chol_solve(nf, M, xs);
        }
        /* step from the feasible x towards the working-set minimiser */
        double alpha = 1;
        int blk = -1;
        for (int f = 0; f < nf; f++)
            if (xs[f] < 0) {
                double s = x[F[f]] / (x[F[f]] - xs[f]);
                if (s <= alpha) { /* s may round to 1 for a tiny negative xs */
                    alpha = s;
                    blk = F[f];
                }
            }
        if (blk >= 0) {
            for (int f = 0; f < nf; f++) x[F[f]] = fmax(0, x[F[f]] + alpha * (xs[f] - x[F[f]]));
            x[blk] = 0;
            act[blk] = 1;
            continue;
        }
        for (int f = 0; f < nf; f++) x[F[f]] = xs[f];
        for (int a = 0; a < na; a++) {
            double s = c[A[a]];
            for (int f = 0; f < nf; f++) s += sym(q->g, A[a], F[f]) * xs[f];
            lm[a] = s;
        }
        /* optimal on the working set: release the most negative multiplier, if any */
        int rel = -1;
        double lmin = -tol;
        for (int a = 0; a < na; a++)
            if (lm[a] < lmin) {
                lmin = lm[a];
                rel = A[a];
            }
        if (rel < 0) return it;
        act[rel] = 0;
    }
    return -1;
}
