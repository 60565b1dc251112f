/* Prepared block solvers (solver/blockqp.h): the elliptic cone QP and the non-negative QP
 * of one contact block. Random problems are built with a known exact solution (KKT
 * conditions are sufficient for these convex problems), so the oracle is independent of
 * any solver; cs_cone_qp and cs_nonneg_qp are compared as well. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockqp.h"
#include "solver.h"

/* ---- deterministic random numbers (fixed seed) ---- */
static unsigned long long rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static double srand1(void) { return 2 * urand() - 1; }
static double logu(double lo, double hi) { return lo * pow(hi / lo, urand()); }

/* Random SPD n x n: scale * Q diag(ev) Q^T with eigenvalues from 1 to cond (the extremes
 * always present, so the condition number is cond). */
static void rand_spd(int n, double *G, double cond, double scale)
{
    double Q[100], ev[10];
    for (int i = 0; i < n * n; i++) Q[i] = srand1();
    for (int j = 0; j < n; j++) { /* Gram-Schmidt on the columns */
        for (int k = 0; k < j; k++) {
            double d = 0;
            for (int i = 0; i < n; i++) d += Q[i * n + j] * Q[i * n + k];
            for (int i = 0; i < n; i++) Q[i * n + j] -= d * Q[i * n + k];
        }
        double s = 0;
        for (int i = 0; i < n; i++) s += Q[i * n + j] * Q[i * n + j];
        for (int i = 0; i < n; i++) Q[i * n + j] /= sqrt(s);
    }
    for (int k = 0; k < n; k++) ev[k] = k == 0 ? 1 : k == n - 1 ? cond : logu(1, cond);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += Q[i * n + k] * ev[k] * Q[j * n + k];
            G[i * n + j] = G[j * n + i] = scale * s;
        }
}

static double cost(int n, const double *G, const double *c, const double *x)
{
    double f = 0;
    for (int i = 0; i < n; i++) {
        f += c[i] * x[i];
        for (int k = 0; k < n; k++) f += 0.5 * x[i] * G[i * n + k] * x[k];
    }
    return f;
}

/* sum |terms| of the cost: the size of its rounding */
static double cost_scale(int n, const double *G, const double *c, const double *x)
{
    double f = 0;
    for (int i = 0; i < n; i++) {
        f += fabs(c[i] * x[i]);
        for (int k = 0; k < n; k++) f += 0.5 * fabs(x[i] * G[i * n + k] * x[k]);
    }
    return f;
}

static double norm(int n, const double *v)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

static double dist(int n, const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

/* ======================================================== elliptic cone ===== */

/* KKT of the cone QP, measured in z = (x0, D^-1 xt) where the cone is round and self-dual:
 * with g = S (G x + c), S = diag(1, D), and sc = ||S G S||_F ||z|| + ||S c||:
 * feasibility (||z_t|| <= z0, relative), dual feasibility (||g_t|| <= g0), complementarity
 * z.g = 0, and on the boundary the multiplier form g = lam (z0, -z_t) with lam >= 0.
 * Returns the worst of the scaled residuals; *feas the relative infeasibility. */
static double cone_kkt(int dim, const double *G, const double *c, const double *mu,
                       const double *x, double *feas)
{
    int r = dim - 1;
    double s[6] = {1}, z[6], g[6], Gf = 0, Sc[6];
    for (int j = 0; j < r; j++) s[1 + j] = mu[j];
    for (int i = 0; i < dim; i++) {
        z[i] = x[i] / s[i];
        Sc[i] = s[i] * c[i];
        double gi = c[i];
        for (int k = 0; k < dim; k++) {
            gi += G[i * dim + k] * x[k];
            Gf += pow(s[i] * G[i * dim + k] * s[k], 2);
        }
        g[i] = s[i] * gi;
    }
    double nz = norm(dim, z), sc = sqrt(Gf) * nz + norm(dim, Sc);
    if (sc == 0) sc = 1;
    double nzt = norm(r, z + 1), ngt = norm(r, g + 1);
    *feas = z[0] > 0 ? fmax(0, nzt - z[0]) / z[0] : (nzt > 0 || z[0] < 0 ? INFINITY : 0);
    double worst = fmax(0, ngt - g[0]) / sc; /* dual feasibility */
    double zg = 0;
    for (int i = 0; i < dim; i++) zg += z[i] * g[i];
    worst = fmax(worst, fabs(zg) / (sc * (nz > 0 ? nz : 1)));
    if (z[0] > 0 && nzt >= z[0] * (1 - 1e-9)) { /* boundary: multiplier form */
        double lam = g[0] / z[0], st = 0;
        worst = fmax(worst, fmax(0, -lam * z[0]) / sc);
        for (int j = 1; j < dim; j++) st += pow(g[j] + lam * z[j], 2);
        worst = fmax(worst, sqrt(st) / sc);
    } else if (z[0] > 0) { /* interior: stationary */
        worst = fmax(worst, norm(dim, g) / sc);
    }
    return worst;
}

/* A random problem with a known minimiser xs (lmin: G's smallest eigenvalue): kind 0 boundary (x on the cone's surface and
 * a multiplier lam > 0), 1 interior, 2 apex (-c inside the polar cone), 3 boundary near the
 * apex (tiny normal), 4 boundary with a vanishing multiplier. c = (multiplier) - G xs. */
static void cone_problem(int dim, int kind, double cond, int wild_mu, double *G, double *c,
                         double *mu, double *xs, double *lmin)
{
    int r = dim - 1;
    *lmin = logu(1e-3, 1e3);
    rand_spd(dim, G, cond, *lmin);
    for (int j = 0; j < r; j++) mu[j] = wild_mu ? logu(1e-5, 1e3) : 0.05 + 1.45 * urand();
    double z[6], w[6], lam = logu(1e-3, 1e3), t = logu(1e-2, 1e2);
    if (kind == 3) t *= 1e-6;
    if (kind == 4) lam *= 1e-9;
    z[0] = t;
    for (int j = 0; j < r; j++) z[1 + j] = srand1();
    double nzt = norm(r, z + 1);
    for (int j = 0; j < r; j++) z[1 + j] *= (kind == 1 ? 0.9 * urand() : 1) * t / nzt;
    if (dim == 1 && kind != 2) z[0] = kind == 1 ? t : 0;
    /* the multiplier w in z-space: boundary lam (z0, -zt); interior 0; apex w0 > ||wt|| */
    for (int i = 0; i < dim; i++) w[i] = kind == 1 ? 0 : lam * (i ? -z[i] : z[0]);
    if (kind == 2) {
        double sw = logu(1e-2, 1e2);
        for (int j = 0; j < r; j++) w[1 + j] = sw * srand1();
        w[0] = norm(r, w + 1) * (1 + logu(1e-3, 1)) + (r ? 0 : sw);
        for (int i = 0; i < dim; i++) z[i] = 0;
    }
    double s[6] = {1};
    for (int j = 0; j < r; j++) s[1 + j] = mu[j];
    for (int i = 0; i < dim; i++) xs[i] = s[i] * z[i];
    for (int i = 0; i < dim; i++) {
        double gx = 0;
        for (int k = 0; k < dim; k++) gx += G[i * dim + k] * xs[k];
        c[i] = w[i] / s[i] - gx; /* S^-1 w = G x + c */
    }
}

typedef struct {
    double kkt, feas, exact, ref, refx, cost, warm;
    int n, kinds[5], maxit_warm;
} cone_stats;

/* One family: every dimension, every kind; returns the worst measures. */
static void cone_family(int dim, double cond_max, int wild_mu, int count, cone_stats *st)
{
    memset(st, 0, sizeof *st);
    for (int t = 0; t < count; t++) {
        int kind = t % 5;
        double cond = logu(1, cond_max), G[36], c[6], mu[5], xs[6], x[6], xr[6], xw[6], lmin;
        cone_problem(dim, kind, cond, wild_mu, G, c, mu, xs, &lmin);
        cs_bqp q;
        ck_assert_int_eq(cs_bqp_prepare(&q, dim, G, mu), 0);
        memset(x, 0, sizeof x);
        ck_assert_int_ge(cs_bqp_solve(&q, c, x), 0);
        st->n++;
        st->kinds[kind]++;
        double feas, kkt = cone_kkt(dim, G, c, mu, x, &feas), nx = norm(dim, xs);
        st->kkt = fmax(st->kkt, kkt);
        st->feas = fmax(st->feas, feas);
        /* against the known minimiser, in units of the problem's sensitivity to rounding:
         * the solution map is Lipschitz with constant 1/lmin in c, and a backward error
         * eps ||G|| in G moves x by eps cond ||x|| */
        double sens = DBL_EPSILON * (norm(dim, c) / lmin + cond * nx);
        double e = dist(dim, x, xs) / sens;
        st->exact = fmax(st->exact, e);
        /* against cs_cone_qp (cold), relative to the solution's size */
        memset(xr, 0, sizeof xr);
        ck_assert_int_ge(cs_cone_qp(dim, G, c, mu, xr), 0);
        double er = dist(dim, x, xr) / (nx > 0 ? nx : 1);
        st->ref = fmax(st->ref, er);
        st->refx = fmax(st->refx, dist(dim, xr, xs) / sens);
        double fc = cost(dim, G, c, x), fr = cost(dim, G, c, xr);
        double fs = cost_scale(dim, G, c, xr) + cost_scale(dim, G, c, x);
        st->cost = fmax(st->cost, (fc - fr) / (fs > 0 ? fs : 1));
        /* warm: from the answer perturbed by 1e-3 relative, and from wrong guesses */
        for (int w = 0; w < 4; w++) {
            for (int i = 0; i < dim; i++) {
                double p = w == 0 ? 1 + 1e-3 * srand1() : w == 1 ? -1 : w == 2 ? 1e3 : 1;
                xw[i] = x[i] * p + (w == 3 ? srand1() * nx : 0);
            }
            int it = cs_bqp_solve(&q, c, xw);
            ck_assert_int_ge(it, 0);
            st->warm = fmax(st->warm, dist(dim, xw, x) / sens);
        }
        memcpy(xw, x, sizeof xw); /* from the answer itself */
        int it = cs_bqp_solve(&q, c, xw);
        if (it > st->maxit_warm) st->maxit_warm = it;
    }
}

static void report(const char *name, int dim, const cone_stats *s)
{
    printf("report: %s dim %d: %d problems (boundary %d, interior %d, apex %d, near apex %d,"
           " weak %d): kkt %.1e feas %.1e exact %.1f eps-units (cone_qp %.1f) vs cone_qp %.1e"
           " cost excess %.1e"
           " warm %.1f eps-units warm-from-answer evals %d\n",
           name, dim, s->n, s->kinds[0], s->kinds[1], s->kinds[2], s->kinds[3], s->kinds[4],
           s->kkt, s->feas, s->exact, s->refx, s->ref, s->cost, s->warm, s->maxit_warm);
    fflush(stdout); /* before a failing assertion ends the forked test */
}

static const int DIMS[4] = {1, 3, 4, 6};

/* Well-conditioned G: agreement with cs_cone_qp to 1e-10 for friction scales of sliding
 * size; with scales 1e-5..1e3 cs_cone_qp is further from the known minimiser than this
 * solver (both reported in eps-units), so it is held to the cost there. */
START_TEST(test_cone_wellcond)
{
    rng_state = 1001 + _i;
    int dim = DIMS[_i];
    for (int wild = 0; wild < 2; wild++) {
        cone_stats s;
        cone_family(dim, 1e2, wild, 1500, &s);
        report(wild ? "cone cond<=1e2 mu 1e-5..1e3" : "cone cond<=1e2 mu 0.05..1.5", dim, &s);
        ck_assert(s.feas <= 1e-12);
        ck_assert(s.kkt <= 1e-12);
        ck_assert(s.exact <= 50);
        if (!wild) ck_assert(s.ref <= 1e-10);
        ck_assert(s.exact <= s.refx + 10);
        ck_assert(s.cost <= 1e-14);
        ck_assert(s.warm <= 50);
        if (dim > 1) ck_assert_int_le(s.maxit_warm, 3);
    }
}
END_TEST

/* Condition 1e6 and friction scales 1e-5..1e3 together: the known minimiser and the KKT
 * conditions are met to rounding times the condition; cs_cone_qp's secant stops earlier
 * there (its error reaches ~1e-6), so it is held to the cost only. */
START_TEST(test_cone_illcond)
{
    rng_state = 2002 + _i;
    int dim = DIMS[_i];
    cone_stats s;
    cone_family(dim, 1e6, 1, 3000, &s);
    report("cone cond<=1e6 mu 1e-5..1e3", dim, &s);
    ck_assert(s.feas <= 1e-12);
    ck_assert(s.kkt <= 1e-12);
    ck_assert(s.exact <= 50);
    ck_assert(s.cost <= 1e-14);
    ck_assert(s.warm <= 50);
}
END_TEST

/* A PGS-like sequence: c drifts by 1e-3 relative, shrinking by 0.7 per sweep, each solve warm
 * from the last;
 * every answer equals the cold solve of the same c, and warm solves stay cheap. */
START_TEST(test_cone_sweeps)
{
    rng_state = 3003;
    int worst_it = 0;
    double worst = 0;
    long evals = 0, solves = 0;
    for (int t = 0; t < 600; t++) {
        int dim = DIMS[1 + t % 3];
        double G[36], c[6], mu[5], xs[6], x[6] = {0}, xc[6], lmin;
        cone_problem(dim, 0, logu(1, 1e4), t % 2, G, c, mu, xs, &lmin);
        cs_bqp q;
        ck_assert_int_eq(cs_bqp_prepare(&q, dim, G, mu), 0);
        for (int sweep = 0; sweep < 30; sweep++) {
            double drift = 1e-3 * pow(0.7, sweep); /* a converging solve's updates shrink */
            for (int i = 0; i < dim; i++) c[i] *= 1 + drift * srand1();
            int it = cs_bqp_solve(&q, c, x);
            ck_assert_int_ge(it, 0);
            memset(xc, 0, sizeof xc);
            ck_assert_int_ge(cs_bqp_solve(&q, c, xc), 0);
            double nx = norm(dim, xc);
            worst = fmax(worst, dist(dim, x, xc) / (nx > 0 ? nx : 1));
            if (sweep > 0) {
                evals += it;
                solves++;
                if (it > worst_it) worst_it = it;
            }
        }
    }
    printf("report: cone sweeps: %ld warm solves, %.2f g' evaluations each, at most %d;"
           " warm vs cold %.1e\n", solves, (double)evals / solves, worst_it, worst);
    fflush(stdout);
    ck_assert(worst <= 1e-9);
    ck_assert((double)evals / solves <= 3);
}
END_TEST

/* G = diag(1, mu^-2): in z the problem is the Euclidean projection of -c' onto the round
 * cone, whose closed form is ((a + ||b||)/2) (1, b/||b||) for -c' = (a, b), |a| < ||b||. */
START_TEST(test_cone_projection)
{
    rng_state = 4004;
    for (int t = 0; t < 400; t++) {
        int dim = DIMS[1 + t % 3], r = dim - 1;
        double G[36] = {0}, c[6], mu[5], x[6] = {0}, p[6], a, b[5];
        G[0] = 1;
        for (int j = 0; j < r; j++) {
            mu[j] = logu(1e-3, 1e2);
            G[(1 + j) * dim + 1 + j] = 1 / (mu[j] * mu[j]);
        }
        a = 2 * srand1();
        for (int j = 0; j < r; j++) b[j] = srand1();
        double nb = norm(r, b);
        for (int j = 0; j < r; j++) c[1 + j] = -b[j] / mu[j]; /* c' = S c = -(a, b) */
        c[0] = -a;
        if (a >= nb) { /* inside */
            p[0] = a;
            for (int j = 0; j < r; j++) p[1 + j] = b[j];
        } else if (a <= -nb) { /* polar: apex */
            memset(p, 0, sizeof p);
        } else {
            double s = 0.5 * (a + nb);
            p[0] = s;
            for (int j = 0; j < r; j++) p[1 + j] = s * b[j] / nb;
        }
        cs_bqp q;
        ck_assert_int_eq(cs_bqp_prepare(&q, dim, G, mu), 0);
        ck_assert_int_ge(cs_bqp_solve(&q, c, x), 0);
        ck_assert_double_eq_tol(x[0], p[0], 1e-14 * (1 + fabs(a)));
        for (int j = 0; j < r; j++)
            ck_assert_double_eq_tol(x[1 + j] / mu[j], p[1 + j], 1e-14 * (1 + nb));
    }
    /* docs/contact-math.md §6's worked QCQP embedded in a block whose normal lands at 1:
     * H = diag(1, 4), b = (-2, -2), mu = (1, 1/2), f_n = 1 -> x = (0.894427191, 0.223606798),
     * lambda = sqrt(5) - 1; a decoupled normal row with g00 = 1 and c0 = lambda - 1 puts the
     * normal's optimum (G x + c)_0 = lambda t at t = 1. */
    double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 4}, mu[2] = {1, 0.5}, lam = sqrt(5) - 1;
    double c[3] = {lam - 1, -2, -2}, x[3] = {0};
    cs_bqp q;
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, G, mu), 0);
    ck_assert_int_ge(cs_bqp_solve(&q, c, x), 1);
    ck_assert_double_eq_tol(x[0], 1, 1e-14);
    ck_assert_double_eq_tol(x[1], 0.894427191, 1e-9);
    ck_assert_double_eq_tol(x[2], 0.223606798, 1e-9);
}
END_TEST

START_TEST(test_cone_bad_input)
{
    double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, mu[2] = {1, 1}, c[3] = {-1, 1, 0}, x[3];
    cs_bqp q;
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, G, mu), 0);
    ck_assert_int_eq(cs_bqp_prepare(&q, 0, G, mu), -1);
    ck_assert_int_eq(cs_bqp_prepare(&q, 7, G, mu), -1);
    double m0[2] = {1, 0}, mn[2] = {1, NAN};
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, G, m0), -1);
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, G, mn), -1);
    double Gi[9] = {1, 0, 0, 0, -1, 0, 0, 0, 1};    /* indefinite friction block */
    double Gs[9] = {1, 1, 0, 1, 1, 0, 0, 0, 1};     /* singular */
    double Gn[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1};     /* PD diagonal, indefinite */
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, Gi, mu), -1);
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, Gs, mu), -1);
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, Gn, mu), -1);
    double G1 = -2;
    ck_assert_int_eq(cs_bqp_prepare(&q, 1, &G1, mu), -1);
    /* a non-finite c is refused; a non-finite warm start is ignored */
    ck_assert_int_eq(cs_bqp_prepare(&q, 3, G, mu), 0);
    double cn[3] = {-1, NAN, 0};
    ck_assert_int_eq(cs_bqp_solve(&q, cn, x), -1);
    x[0] = NAN;
    x[1] = INFINITY;
    x[2] = 0;
    ck_assert_int_ge(cs_bqp_solve(&q, c, x), 0);
    ck_assert_double_eq_tol(x[0], 1, 1e-15); /* projection of (1, -1, 0): (1, -1, 0) */
    ck_assert_double_eq_tol(x[1], -1, 1e-15);
    /* dim 1: max(0, -c/g) */
    G1 = 4;
    ck_assert_int_eq(cs_bqp_prepare(&q, 1, &G1, mu), 0);
    double c1 = -2;
    ck_assert_int_eq(cs_bqp_solve(&q, &c1, x), 0);
    ck_assert_double_eq(x[0], 0.5);
    c1 = 3;
    ck_assert_int_eq(cs_bqp_solve(&q, &c1, x), 0);
    ck_assert_double_eq(x[0], 0);
}
END_TEST

/* ==================================================== non-negative block ===== */

/* Known minimiser: xs with a random zero pattern, multipliers m >= 0 on the zeros
 * (some exactly 0: degenerate), c = m - G xs. */
START_TEST(test_nnqp_random)
{
    rng_state = 5005;
    double worst_kkt = 0, worst_exact = 0, worst_ref = 0, worst_cost = 0, worst_warm = 0;
    int nzero = 0, ndegen = 0, count = 0, maxit_warm = 0;
    for (int t = 0; t < 6000; t++) {
        int n = 1 + t % 10;
        double cond = logu(1, t % 2 ? 1e6 : 1e2), G[100], c[10], xs[10], m[10], x[10], xr[10];
        double lmin = logu(1e-3, 1e3);
        rand_spd(n, G, cond, lmin);
        for (int i = 0; i < n; i++) {
            double u = urand();
            xs[i] = u < 0.4 ? 0 : logu(1e-3, 1e2);
            m[i] = xs[i] > 0 ? 0 : u < 0.05 ? 0 : logu(1e-3, 1e2);
            nzero += xs[i] == 0;
            ndegen += xs[i] == 0 && m[i] == 0;
        }
        for (int i = 0; i < n; i++) {
            c[i] = m[i];
            for (int k = 0; k < n; k++) c[i] -= G[i * n + k] * xs[k];
        }
        cs_nnqp q;
        ck_assert_int_eq(cs_nnqp_prepare(&q, n, G), 0);
        memset(x, 0, sizeof x);
        ck_assert_int_ge(cs_nnqp_solve(&q, c, x), 1);
        count++;
        double nx = norm(n, xs), gn = 0, sc;
        for (int i = 0; i < n * n; i++) gn += G[i] * G[i];
        sc = sqrt(gn) * norm(n, x) + norm(n, c);
        for (int i = 0; i < n; i++) {
            double g = c[i];
            for (int k = 0; k < n; k++) g += G[i * n + k] * x[k];
            ck_assert(x[i] >= 0);
            worst_kkt = fmax(worst_kkt, fmax(-g, 0) / sc);
            worst_kkt = fmax(worst_kkt, fabs(x[i] * g) / (sc * (nx > 0 ? nx : 1)));
            if (x[i] > 0) worst_kkt = fmax(worst_kkt, fabs(g) / sc);
        }
        double sens = DBL_EPSILON * (norm(n, c) / lmin + cond * nx); /* as for the cone */
        worst_exact = fmax(worst_exact, dist(n, x, xs) / sens);
        memset(xr, 0, sizeof xr);
        ck_assert_int_ge(cs_nonneg_qp(n, G, c, xr), 0);
        double er = dist(n, x, xr) / (nx > 0 ? nx : 1);
        if (cond <= 1e2) worst_ref = fmax(worst_ref, er);
        double fs = cost_scale(n, G, c, x) + cost_scale(n, G, c, xr);
        worst_cost = fmax(worst_cost, (cost(n, G, c, x) - cost(n, G, c, xr)) / (fs > 0 ? fs : 1));
        /* warm: perturbed answer, a wrong pattern, garbage */
        for (int w = 0; w < 3; w++) {
            double xw[10];
            for (int i = 0; i < n; i++)
                xw[i] = w == 0 ? x[i] * (1 + 1e-3 * srand1()) : w == 1 ? (x[i] > 0 ? 0 : 1)
                                                                       : (i % 2 ? NAN : -1);
            ck_assert_int_ge(cs_nnqp_solve(&q, c, xw), 1);
            worst_warm = fmax(worst_warm, dist(n, xw, x) / sens);
        }
        double xw[10];
        memcpy(xw, x, sizeof xw);
        int it = cs_nnqp_solve(&q, c, xw);
        if (it > maxit_warm) maxit_warm = it;
    }
    printf("report: nnqp: %d problems (%d zero components, %d degenerate): kkt %.1e"
           " exact %.1f eps-units vs nonneg_qp %.1e cost excess %.1e warm %.1f eps-units"
           " warm-from-answer iterations %d\n",
           count, nzero, ndegen, worst_kkt, worst_exact, worst_ref, worst_cost, worst_warm,
           maxit_warm);
    fflush(stdout);
    ck_assert_int_gt(nzero, 5000);
    ck_assert_int_gt(ndegen, 300);
    ck_assert(worst_kkt <= 1e-12);
    ck_assert(worst_exact <= 50);
    ck_assert(worst_ref <= 1e-10);
    ck_assert(worst_cost <= 1e-14);
    ck_assert(worst_warm <= 50);
    ck_assert_int_eq(maxit_warm, 1); /* the right pattern: one solve, no further change */
}
END_TEST

START_TEST(test_nnqp_bad_input)
{
    double G[4] = {2, 0, 0, 1}, c[2] = {-2, 3}, x[2] = {5, 5};
    cs_nnqp q;
    ck_assert_int_eq(cs_nnqp_prepare(&q, 0, G), -1);
    ck_assert_int_eq(cs_nnqp_prepare(&q, 11, G), -1);
    double Gi[4] = {1, 2, 2, 1};
    ck_assert_int_eq(cs_nnqp_prepare(&q, 2, Gi), -1);
    ck_assert_int_eq(cs_nnqp_prepare(&q, 2, G), 0);
    ck_assert_int_ge(cs_nnqp_solve(&q, c, x), 1);
    ck_assert_double_eq_tol(x[0], 1, 1e-15);
    ck_assert_double_eq(x[1], 0);
    double cn[2] = {INFINITY, 0};
    ck_assert_int_eq(cs_nnqp_solve(&q, cn, x), -1);
}
END_TEST

static Suite *blockqp_suite(void)
{
    Suite *s = suite_create("blockqp");
    TCase *t = tcase_create("cone");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, test_cone_wellcond, 0, 4);
    tcase_add_loop_test(t, test_cone_illcond, 0, 4);
    tcase_add_test(t, test_cone_sweeps);
    tcase_add_test(t, test_cone_projection);
    tcase_add_test(t, test_cone_bad_input);
    suite_add_tcase(s, t);
    t = tcase_create("nonneg");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_nnqp_random);
    tcase_add_test(t, test_nnqp_bad_input);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(blockqp_suite());
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
