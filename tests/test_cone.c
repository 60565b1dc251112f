/* solver/cone: the worked numbers of docs/contact-math.md §2-§7 and random-property checks
 * (fixed seeds) of membership, maximum dissipation, pyramid encodings, the fixed-normal
 * QCQP and the soft-cone response. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cone.h"

#define NEAR(a, b, tol)                                                                        \
    do {                                                                                       \
        double na_ = (a), nb_ = (b), nt_ = (tol);                                              \
        ck_assert_msg(fabs(na_ - nb_) <= nt_, "%s = %.17g, expected %.17g (tol %g)", #a, na_, \
                      nb_, nt_);                                                               \
    } while (0)

static const double PI = 3.14159265358979323846;

/* splitmix64: a small fixed-seed generator, identical on every platform */
typedef struct {
    uint64_t s;
} rng;
static uint64_t next_u64(rng *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double unif(rng *g, double a, double b)
{
    return a + (b - a) * ((double)(next_u64(g) >> 11) * 0x1.0p-53);
}
static double gauss(rng *g)
{
    double u = unif(g, 1e-300, 1), v = unif(g, 0, 1);
    return sqrt(-2 * log(u)) * cos(2 * PI * v);
}
/* friction scales spanning spin/roll lengths to sliding coefficients, some exactly 0 */
static double rand_mu(rng *g, double pzero)
{
    if (unif(g, 0, 1) < pzero) return 0;
    return pow(10, unif(g, -2.3, 0.3));
}
static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}
static double nrm(int n, const double *a) { return sqrt(dot(n, a, a)); }
static double scaled_norm(int r, const double *mu, const double *phi)
{
    double s = 0;
    for (int k = 0; k < r; k++)
        if (mu[k] > 0) s += (phi[k] / mu[k]) * (phi[k] / mu[k]);
    return sqrt(s);
}
/* a random point of the section ||D^-1 phi|| <= fn (zero scales give 0); on the
 * boundary when boundary != 0 */
static void rand_in_cone(rng *g, int r, const double *mu, double fn, int boundary, double *phi)
{
    double y[CS_MAXFRIC];
    int m = 0;
    for (int k = 0; k < r; k++) {
        y[k] = mu[k] > 0 ? gauss(g) : 0;
        m += mu[k] > 0;
    }
    double ny = nrm(r, y);
    double rad = boundary ? 1 : pow(unif(g, 0, 1), 1.0 / (m > 0 ? m : 1));
    for (int k = 0; k < r; k++) phi[k] = ny > 0 ? mu[k] * fn * rad * y[k] / ny : 0;
}

/* ---------------------------------------------------------------- §2 cones */

START_TEST(iso_worked)
{
    /* f_n = 20 N, mu = 0.5: |f_t| <= 10 N; (6, 8) on the boundary, (10, 10) outside */
    const double mu[2] = {0.5, 0.5};
    cs_cone_check c;
    cs_cone_classify(2, mu, 20, (double[]){6, 8}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    NEAR(c.radius, 1, 1e-15);
    NEAR(c.signed_dist, 0, 1e-12);
    ck_assert(c.radius_defined);
    cs_cone_classify(2, mu, 20, (double[]){10, 10}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    NEAR(c.radius, sqrt(2), 1e-15);
    ck_assert(c.signed_dist > 0);
    cs_cone_classify(2, mu, 20, (double[]){3, 4}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    ck_assert(c.signed_dist < 0);
    for (int i = 0; i < 16; i++) {
        double a = i * PI / 8;
        NEAR(cs_cone_capacity(20, 0.5, 0.5, a), 10, 1e-12);
        NEAR(cs_cone_capacity_dir(2, mu, 20, (double[]){cos(a), sin(a)}), 10, 1e-12);
    }
}
END_TEST

START_TEST(aniso_worked)
{
    /* f_n = 20, mu = (0.8, 0.4): semi-axes 16 and 8; (9.6, 6.4) on the boundary, (16, 8) at 2 */
    const double mu[2] = {0.8, 0.4};
    NEAR(cs_cone_capacity(20, 0.8, 0.4, 0), 16, 1e-12);
    NEAR(cs_cone_capacity(20, 0.8, 0.4, PI / 2), 8, 1e-12);
    NEAR(cs_cone_capacity(20, 0.8, 0.4, PI), 16, 1e-12);
    cs_cone_check c;
    cs_cone_classify(2, mu, 20, (double[]){9.6, 6.4}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    NEAR((9.6 / 16) * (9.6 / 16), 0.36, 1e-15);
    NEAR((6.4 / 8) * (6.4 / 8), 0.64, 1e-15);
    NEAR(c.radius, 1, 1e-15);
    cs_cone_classify(2, mu, 20, (double[]){16, 8}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    NEAR(c.radius * c.radius, 2, 1e-14);
    /* halving f_n halves both semi-axes */
    NEAR(cs_cone_capacity(10, 0.8, 0.4, 0), 8, 1e-12);
    NEAR(cs_cone_capacity(10, 0.8, 0.4, PI / 2), 4, 1e-12);
    cs_cone_classify(2, mu, 10, (double[]){4.8, 3.2}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    /* l_max(alpha) lands on the ellipse in every direction */
    for (int i = 0; i < 64; i++) {
        double a = i * 2 * PI / 64, l = cs_cone_capacity(20, 0.8, 0.4, a);
        double p[2] = {l * cos(a), l * sin(a)};
        cs_cone_classify(2, mu, 20, p, 1e-9, &c);
        NEAR(c.radius, 1, 1e-14);
        NEAR(cs_cone_capacity_dir(2, mu, 20, p), l, 1e-12);
    }
}
END_TEST

START_TEST(boundary_tolerance)
{
    const double mu[2] = {0.8, 0.4};
    cs_cone_check c;
    cs_cone_classify(2, mu, 20, (double[]){9.6 * (1 + 5e-10), 6.4 * (1 + 5e-10)}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    cs_cone_classify(2, mu, 20, (double[]){9.6 * (1 + 2e-9), 6.4 * (1 + 2e-9)}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    cs_cone_classify(2, mu, 20, (double[]){9.6 * (1 - 2e-9), 6.4 * (1 - 2e-9)}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
}
END_TEST

START_TEST(degenerate_cones)
{
    cs_cone_check c;
    /* a zero scale forces that component to 0 */
    const double mu[2] = {0.8, 0};
    cs_cone_classify(2, mu, 20, (double[]){8, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    NEAR(c.radius, 0.5, 1e-15);
    cs_cone_classify(2, mu, 20, (double[]){0, 1e-3}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    ck_assert(c.zero_mu_violated);
    ck_assert(!c.radius_defined);
    NEAR(cs_cone_capacity(20, 0.8, 0, PI / 2), 0, 0);
    NEAR(cs_cone_capacity(20, 0.8, 0, 0), 16, 1e-12);
    NEAR(cs_cone_capacity(20, 0.8, 0, 0.3), 0, 0);
    NEAR(cs_cone_capacity_dir(2, mu, 20, (double[]){0, 1}), 0, 0);
    NEAR(cs_cone_capacity_dir(2, mu, 20, (double[]){0, 0}), -1, 0);
    /* all scales zero: the normal ray */
    const double mu0[2] = {0, 0};
    cs_cone_classify(2, mu0, 20, (double[]){0, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    NEAR(c.radius, 0, 0);
    cs_cone_classify(2, mu0, 20, (double[]){1e-9, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    NEAR(cs_cone_capacity(20, 0, 0, 0.3), 0, 0);
    /* f_n = 0 leaves only f = 0; the radius is undefined */
    cs_cone_classify(2, (double[]){0.5, 0.5}, 0, (double[]){0, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    ck_assert(!c.radius_defined);
    cs_cone_classify(2, (double[]){0.5, 0.5}, 0, (double[]){1e-12, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    /* f_n < 0 pulls: never allowed */
    cs_cone_classify(2, (double[]){0.5, 0.5}, -1, (double[]){0, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    /* condim 1: the normal alone */
    cs_cone_classify(0, NULL, 5, NULL, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    cs_cone_classify(0, NULL, 0, NULL, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
}
END_TEST

START_TEST(unified_cone_condim46)
{
    /* §4: one ellipsoid for sliding, spin and rolling: torque leaves less room for sliding */
    const double mu[5] = {0.8, 0.4, 0.02, 0.005, 0.005};
    cs_cone_check c;
    cs_cone_classify(5, mu, 20, (double[]){16, 0, 0, 0, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    cs_cone_classify(5, mu, 20, (double[]){16, 0, 0.2, 0, 0}, 1e-9, &c); /* ts/mus = 10 */
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    NEAR(c.scaled_norm, sqrt(400 + 100), 1e-12);
    /* with spin torque 0.2 N m the sliding room along t1 is 0.8 sqrt(20^2 - 10^2) */
    double room = 0.8 * sqrt(300);
    cs_cone_classify(5, mu, 20, (double[]){room, 0, 0.2, 0, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    cs_cone_classify(3, mu, 20, (double[]){room, 0, 0.2}, 1e-9, &c); /* condim 4 */
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    /* the condim-6 sum of squares */
    double phi[5] = {4, 2, 0.1, 0.02, 0.03};
    cs_cone_classify(5, mu, 20, phi, 1e-9, &c);
    NEAR(c.scaled_norm * c.scaled_norm, 25 + 25 + 25 + 16 + 36, 1e-11);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
}
END_TEST

START_TEST(equilibrium_and_incline)
{
    /* a 2 kg sphere at rest on a plane: f_n = m g = 19.62 N and zero friction is allowed */
    const double m = 2, g = 9.81, mu[2] = {0.5, 0.5};
    NEAR(m * g, 19.62, 1e-12);
    cs_cone_check c;
    cs_cone_classify(2, mu, m * g, (double[]){0, 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    /* block on an incline: at rest iff tan(gamma) <= mu, normal m g cos, demand m g sin */
    for (int i = 0; i < 157; i++) {
        double gam = i * 0.01;
        double fn = m * g * cos(gam), need[2] = {m * g * sin(gam), 0};
        cs_cone_classify(2, mu, fn, need, 1e-9, &c);
        ck_assert_int_eq(c.where != CS_CONE_OUTSIDE, tan(gam) <= 0.5);
    }
    double gc = atan(0.5);
    cs_cone_classify(2, mu, m * g * cos(gc), (double[]){m * g * sin(gc), 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_BOUNDARY);
    /* separate coefficients: mu_s = 0.6 holds at tan(gamma) = 0.55; once sliding,
     * the kinetic force is mu_k m g cos(gamma) with mu_k = 0.4 */
    double gam = atan(0.55), fn = m * g * cos(gam);
    cs_cone_classify(2, (double[]){0.6, 0.6}, fn, (double[]){m * g * sin(gam), 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    cs_cone_classify(2, (double[]){0.4, 0.4}, fn, (double[]){m * g * sin(gam), 0}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_OUTSIDE);
    double f[2], p;
    ck_assert_int_eq(cs_cone_slide(2, (double[]){0.4, 0.4}, fn, (double[]){-1, 0}, f, &p), 1);
    NEAR(f[0], 0.4 * fn, 1e-12);
    NEAR(f[1], 0, 0);
}
END_TEST

START_TEST(classify_random)
{
    rng g = {20261201};
    for (int it = 0; it < 4000; it++) {
        int r = 1 + (int)(next_u64(&g) % 5);
        double mu[5], phi[5], fn = unif(&g, 0, 5);
        for (int k = 0; k < r; k++) mu[k] = rand_mu(&g, 0.1);
        int kind = it % 3; /* inside, boundary, scaled outside */
        rand_in_cone(&g, r, mu, fn, kind != 0, phi);
        double sc = kind == 2 ? unif(&g, 1.001, 3) : 1;
        for (int k = 0; k < r; k++) phi[k] *= sc;
        cs_cone_check c;
        cs_cone_classify(r, mu, fn, phi, 1e-9, &c);
        NEAR(c.scaled_norm, scaled_norm(r, mu, phi), 1e-12 * (1 + fn));
        int any = 0;
        for (int k = 0; k < r; k++) any |= phi[k] != 0;
        if (!any) {
            ck_assert_int_eq(c.where, CS_CONE_INSIDE);
            continue;
        }
        ck_assert_int_eq(c.where, kind == 0 ? CS_CONE_INSIDE
                                  : kind == 1 ? CS_CONE_BOUNDARY : CS_CONE_OUTSIDE);
    }
}
END_TEST

START_TEST(cone_convex)
{
    /* the cone is convex, degenerate cases too: mixtures of members are members */
    rng g = {1618};
    for (int it = 0; it < 3000; it++) {
        int r = 1 + (int)(next_u64(&g) % 5);
        double mu[5], pa[5], pb[5], pc[5];
        for (int k = 0; k < r; k++) mu[k] = rand_mu(&g, 0.25);
        double fa = unif(&g, 0, 1) < 0.1 ? 0 : unif(&g, 0, 3);
        double fb = unif(&g, 0, 1) < 0.1 ? 0 : unif(&g, 0, 3);
        rand_in_cone(&g, r, mu, fa, it & 1, pa);
        rand_in_cone(&g, r, mu, fb, it & 2, pb);
        double t = unif(&g, 0, 1), fc = t * fa + (1 - t) * fb;
        for (int k = 0; k < r; k++) pc[k] = t * pa[k] + (1 - t) * pb[k];
        cs_cone_check c;
        cs_cone_classify(r, mu, fc, pc, 1e-9, &c);
        ck_assert(!c.zero_mu_violated);
        ck_assert(c.scaled_norm <= fc * (1 + 1e-12));
        ck_assert_int_ne(c.where, CS_CONE_OUTSIDE);
    }
}
END_TEST

/* ------------------------------------------------------- §3 max dissipation */

START_TEST(slide_worked)
{
    const double mu[2] = {0.8, 0.4}, v[2] = {1, 1};
    double f[2], p;
    ck_assert_int_eq(cs_cone_slide(2, mu, 20, v, f, &p), 1);
    NEAR(hypot(0.8 * v[0], 0.4 * v[1]), 0.894427191, 5e-10);
    NEAR(f[0], -14.310835056, 1e-9);
    NEAR(f[1], -3.577708764, 1e-9);
    NEAR(p, -17.888543820, 1e-9);
    NEAR(dot(2, f, v), p, 1e-12);
    /* on the ellipse: 0.8 + 0.2 = 1 */
    NEAR((f[0] / 16) * (f[0] / 16), 0.8, 1e-12);
    NEAR((f[1] / 8) * (f[1] / 8), 0.2, 1e-12);
    /* f_t* points at -165.96 deg while -v_t points at -135 deg */
    NEAR(atan2(f[1], f[0]) * 180 / PI, -165.96, 5e-3);
    NEAR(atan2(-v[1], -v[0]) * 180 / PI, -135, 1e-12);
}
END_TEST

START_TEST(slide_isotropic_and_rest)
{
    const double mu[2] = {0.5, 0.5};
    double f[2], p;
    ck_assert_int_eq(cs_cone_slide(2, mu, 20, (double[]){3, -4}, f, &p), 1);
    /* -mu f_n v/||v||, power -mu f_n ||v|| */
    NEAR(f[0], -10 * 0.6, 1e-12);
    NEAR(f[1], 10 * 0.8, 1e-12);
    NEAR(p, -10 * 5, 1e-12);
    /* no unique direction at rest */
    ck_assert_int_eq(cs_cone_slide(2, mu, 20, (double[]){0, 0}, f, &p), 0);
    NEAR(f[0], 0, 0);
    NEAR(f[1], 0, 0);
    NEAR(p, 0, 0);
    /* D v = 0 with v != 0: sliding along a zero-scale axis is free */
    ck_assert_int_eq(cs_cone_slide(2, (double[]){0.5, 0}, 20, (double[]){0, 2}, f, &p), 0);
    NEAR(p, 0, 0);
}
END_TEST

START_TEST(slide_random_max_dissipation)
{
    /* the max-dissipation force is in the cone, dissipates, and no sampled feasible
     * force dissipates more */
    rng g = {424242};
    for (int it = 0; it < 3000; it++) {
        int r = 1 + (int)(next_u64(&g) % 5);
        double mu[5], v[5], f[5], p, fn = unif(&g, 0.01, 10);
        for (int k = 0; k < r; k++) {
            mu[k] = rand_mu(&g, 0.1);
            v[k] = gauss(&g);
        }
        if (!cs_cone_slide(r, mu, fn, v, f, &p)) continue;
        NEAR(dot(r, f, v), p, 1e-12 * fabs(p) + 1e-300);
        ck_assert(p < 0);
        NEAR(scaled_norm(r, mu, f), fn, 1e-12 * fn);
        for (int k = 0; k < r; k++)
            if (mu[k] == 0) NEAR(f[k], 0, 0);
        for (int s = 0; s < 20; s++) {
            double q[5];
            rand_in_cone(&g, r, mu, fn, s & 1, q);
            ck_assert(dot(r, q, v) >= p - 1e-12 * fabs(p));
        }
    }
}
END_TEST

/* --------------------------------------------------------------- §5 pyramid */

START_TEST(pyramid_worked)
{
    const double mu[2] = {1, 1};
    double a[4], fn, phi[2];
    /* (0.8, 0) lies inside the diamond, yet MuJoCo's encoding clips it to (0.5, 0) */
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, 1, (double[]){0.8, 0}, a), 1);
    cs_pyramid_encode_mujoco(2, mu, 1, (double[]){0.8, 0}, a);
    for (int k = 0; k < 4; k++) ck_assert(a[k] >= 0);
    cs_pyramid_decode(2, mu, a, &fn, phi);
    NEAR(fn, 1, 1e-15);
    NEAR(phi[0], 0.5, 1e-15);
    NEAR(phi[1], 0, 1e-15);
    /* (-0.8, 0): a negative first edge coefficient */
    cs_pyramid_encode_mujoco(2, mu, 1, (double[]){-0.8, 0}, a);
    NEAR(a[0], -0.15, 1e-15);
    cs_pyramid_decode(2, mu, a, &fn, phi);
    NEAR(fn, 1, 1e-15);
    NEAR(phi[0], -0.8, 1e-15);
    /* the full-domain encoding represents both exactly with non-negative edges */
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        ck_assert_int_eq(cs_pyramid_encode_full(2, mu, 1, (double[]){0.8 * sgn, 0}, a), 1);
        for (int k = 0; k < 4; k++) ck_assert(a[k] >= 0);
        cs_pyramid_decode(2, mu, a, &fn, phi);
        NEAR(fn, 1, 1e-15);
        NEAR(phi[0], 0.8 * sgn, 1e-15);
        NEAR(phi[1], 0, 1e-15);
    }
    /* decode: f_n sums all 2r edges, phi_j = mu_j (alpha_j+ - alpha_j-) */
    cs_pyramid_decode(2, (double[]){0.5, 2}, (double[]){0.1, 0.2, 0.3, 0.05}, &fn, phi);
    NEAR(fn, 0.65, 1e-15);
    NEAR(phi[0], -0.05, 1e-15);
    NEAR(phi[1], 0.5, 1e-15);
}
END_TEST

START_TEST(pyramid_diamond)
{
    /* mu1 = mu2: same radius as the disk along the axes, 1/sqrt(2) of it on the diagonals */
    const double mu[2] = {0.5, 0.5}, fn = 20;
    double a[4];
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, fn, (double[]){10, 0}, a), 1);
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, fn, (double[]){10 * (1 + 1e-9), 0}, a), 0);
    double d = 10 / sqrt(2) / sqrt(2); /* components of the diagonal point at radius 10/sqrt2 */
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, fn, (double[]){d, d}, a), 1);
    NEAR(hypot(d, d), 10 / sqrt(2), 1e-12);
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, fn, (double[]){d * 1.000001, d}, a), 0);
    /* outside the diamond but inside the disk */
    cs_cone_check c;
    cs_cone_classify(2, mu, fn, (double[]){6, 6}, 1e-9, &c);
    ck_assert_int_eq(c.where, CS_CONE_INSIDE);
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, fn, (double[]){6, 6}, a), 0);
    /* zero scale: representable only with that component 0 */
    ck_assert_int_eq(cs_pyramid_encode_full(2, (double[]){0.5, 0}, fn, (double[]){5, 0}, a), 1);
    ck_assert_int_eq(cs_pyramid_encode_full(2, (double[]){0.5, 0}, fn, (double[]){5, 1}, a), 0);
    ck_assert_int_eq(cs_pyramid_encode_full(2, mu, -1, (double[]){0, 0}, a), 0);
}
END_TEST

START_TEST(pyramid_full_roundtrip_random)
{
    /* the full-domain encoding round-trips on the whole pyramid: interior, faces, edges,
     * the apex; all coefficients non-negative */
    rng g = {777};
    for (int it = 0; it < 5000; it++) {
        int r = 1 + (int)(next_u64(&g) % 5);
        double mu[5], alpha[10], fn, phi[5];
        for (int k = 0; k < r; k++) mu[k] = rand_mu(&g, 0.1);
        /* a random non-negative edge vector, with some exact zeros (faces and edges) */
        for (int k = 0; k < 2 * r; k++) alpha[k] = unif(&g, 0, 1) < 0.3 ? 0 : unif(&g, 0, 2);
        if (it % 7 == 0)
            for (int k = 0; k < 2 * r; k++) alpha[k] = 0;
        cs_pyramid_decode(r, mu, alpha, &fn, phi);
        if (it % 3 == 1) {
            /* a point on the pyramid's faces: no slack */
            double used = 0;
            for (int k = 0; k < r; k++)
                if (mu[k] > 0) used += fabs(phi[k]) / mu[k];
            fn = used;
        }
        double a2[10], fn2, phi2[5];
        ck_assert_int_eq(cs_pyramid_encode_full(r, mu, fn, phi, a2), 1);
        for (int k = 0; k < 2 * r; k++) ck_assert(a2[k] >= 0);
        cs_pyramid_decode(r, mu, a2, &fn2, phi2);
        NEAR(fn2, fn, 1e-13 * (1 + fn));
        for (int k = 0; k < r; k++) NEAR(phi2[k], phi[k], 1e-13 * (1 + fabs(phi[k])));
        /* MuJoCo's encoding is exact when every |phi_j/mu_j| <= f_n/r */
        int exact = 1;
        for (int k = 0; k < r; k++)
            if (mu[k] > 0 && fabs(phi[k] / mu[k]) > fn / r) exact = 0;
        cs_pyramid_encode_mujoco(r, mu, fn, phi, a2);
        cs_pyramid_decode(r, mu, a2, &fn2, phi2);
        NEAR(fn2, fn, 1e-13 * (1 + fn));
        if (exact) {
            for (int k = 0; k < 2 * r; k++) ck_assert(a2[k] >= -1e-15 * (1 + fn));
            for (int k = 0; k < r; k++) NEAR(phi2[k], phi[k], 1e-13 * (1 + fabs(phi[k])));
        }
    }
}
END_TEST

/* ------------------------------------------------------------------ §6 QCQP */

static double qobj(int n, const double *H, const double *b, const double *x)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        s += b[i] * x[i];
        for (int k = 0; k < n; k++) s += 0.5 * x[i] * H[i * n + k] * x[k];
    }
    return s;
}

START_TEST(qcqp_worked)
{
    const double H[4] = {1, 0, 0, 4}, b[2] = {-2, -2}, mu[2] = {1, 0.5};
    double x[2];
    cs_qcqp_info in;
    ck_assert_int_eq(cs_qcqp_solve(2, H, b, mu, 1, x, &in), 0);
    /* unconstrained (2, 0.5) is outside: ||D^-1 x|| = sqrt 5 */
    NEAR(in.x_unc[0], 2, 1e-15);
    NEAR(in.x_unc[1], 0.5, 1e-15);
    NEAR(in.unconstrained_norm, sqrt(5), 1e-15);
    ck_assert(in.active);
    NEAR(in.lambda, 1.2360679775, 1e-10);
    NEAR(in.lambda, sqrt(5) - 1, 1e-14);
    NEAR(x[0], 0.894427191, 5e-10);
    NEAR(x[1], 0.223606798, 5e-10);
    NEAR(x[0], 2 / sqrt(5), 1e-15);
    NEAR(x[1], 0.5 / sqrt(5), 1e-15);
    ck_assert(in.feasibility <= 1e-15);
    ck_assert(in.stationarity <= 1e-14);
    ck_assert(fabs(in.complementarity) <= 1e-14);
    ck_assert(in.iterations >= 1 && in.iterations <= 10);
}
END_TEST

START_TEST(qcqp_special_cases)
{
    double x[3] = {9, 9, 9};
    cs_qcqp_info in;
    /* inactive: the unconstrained minimiser is inside */
    ck_assert_int_eq(cs_qcqp_solve(2, (double[]){1, 0, 0, 4}, (double[]){-2, -2},
                                   (double[]){1, 0.5}, 3, x, &in), 0);
    ck_assert(!in.active);
    NEAR(in.lambda, 0, 0);
    ck_assert_int_eq(in.iterations, 0);
    NEAR(x[0], 2, 1e-15);
    NEAR(x[1], 0.5, 1e-15);
    /* mu_2 = 0 fixes x_2 = 0; 1-D rest: min x^2 - 4x s.t. |x| <= 1 gives x = 1, lambda = 2 */
    const double H[4] = {2, 1, 1, 3};
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){-4, 1}, (double[]){1, 0}, 1, x, &in), 0);
    NEAR(x[0], 1, 1e-14);
    NEAR(x[1], 0, 0);
    NEAR(in.lambda, 2, 1e-13);
    ck_assert(in.active);
    /* f_n = 0: the apex */
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){-4, 1}, (double[]){1, 1}, 0, x, &in), 0);
    NEAR(x[0], 0, 0);
    NEAR(x[1], 0, 0);
    ck_assert(in.active);
    NEAR(in.lambda, 0, 0);
    NEAR(in.feasibility, 0, 0);
    /* all scales zero */
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){-4, 1}, (double[]){0, 0}, 1, x, &in), 0);
    NEAR(x[0], 0, 0);
    NEAR(x[1], 0, 0);
    ck_assert(!in.active);
    /* not positive definite: refused, x untouched */
    x[0] = 7;
    ck_assert_int_eq(cs_qcqp_solve(2, (double[]){1, 2, 2, 1}, (double[]){1, 1}, (double[]){1, 1},
                                   1, x, &in), -1);
    NEAR(x[0], 7, 0);
    /* indefinite in the fixed block still refused */
    ck_assert_int_eq(cs_qcqp_solve(2, (double[]){1, 0, 0, -1}, (double[]){1, 1},
                                   (double[]){1, 0}, 1, x, &in), -1);
    ck_assert_int_eq(cs_qcqp_solve(2, (double[]){0, 0, 0, 0}, (double[]){1, 1}, (double[]){1, 1},
                                   1, x, &in), -1);
    /* an f_n so small that ||D b||/f_n overflows: the apex, not a failure */
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){-4e10, 1}, (double[]){1, 1}, 1e-310, x, &in), 0);
    NEAR(x[0], 0, 0);
    x[0] = 7;
    /* bad arguments */
    ck_assert_int_eq(cs_qcqp_solve(0, H, (double[]){1}, (double[]){1}, 1, x, &in), -2);
    ck_assert_int_eq(cs_qcqp_solve(6, H, (double[]){1}, (double[]){1}, 1, x, &in), -2);
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){1, 1}, (double[]){1, 1}, -1, x, &in), -2);
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){1, 1}, (double[]){1, -1}, 1, x, &in), -2);
    ck_assert_int_eq(cs_qcqp_solve(2, H, (double[]){1, 1}, (double[]){1, NAN}, 1, x, &in), -2);
    NEAR(x[0], 7, 0);
}
END_TEST

/* Independent reference: bisection on psi with Gaussian elimination (partial pivoting),
 * the teaching program's method, on the free components. */
static void ref_solve(int m, const double *A, const double *rhs, double *out)
{
    double a[CS_MAXFRIC][CS_MAXFRIC + 1];
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < m; k++) a[i][k] = A[i * m + k];
        a[i][m] = rhs[i];
    }
    for (int c = 0; c < m; c++) {
        int p = c;
        for (int i = c + 1; i < m; i++)
            if (fabs(a[i][c]) > fabs(a[p][c])) p = i;
        for (int k = 0; k <= m; k++) {
            double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        for (int i = c + 1; i < m; i++) {
            double f = a[i][c] / a[c][c];
            for (int k = c; k <= m; k++) a[i][k] -= f * a[c][k];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        double s = a[i][m];
        for (int k = i + 1; k < m; k++) s -= a[i][k] * out[k];
        out[i] = s / a[i][i];
    }
}
static double ref_qcqp(int n, const double *H, const double *b, const double *mu, double fn,
                       double *x)
{
    int idx[5], m = 0;
    for (int k = 0; k < n; k++)
        if (mu[k] > 0) idx[m++] = k;
    double B[25], c[5], A[25], y[5];
    for (int a = 0; a < m; a++) {
        c[a] = -mu[idx[a]] * b[idx[a]];
        for (int e = 0; e < m; e++) B[a * m + e] = mu[idx[a]] * H[idx[a] * n + idx[e]] * mu[idx[e]];
    }
    for (int k = 0; k < n; k++) x[k] = 0;
    if (m == 0 || fn == 0) return 0;
    ref_solve(m, B, c, y);
    double lam = 0;
    if (nrm(m, y) > fn) {
        double lo = 0, hi = nrm(m, c) / fn;
        for (int it = 0; it < 100; it++) { /* 2^-100 of the bracket: far below the tolerance */
            lam = 0.5 * (lo + hi);
            memcpy(A, B, sizeof A);
            for (int a = 0; a < m; a++) A[a * m + a] += lam;
            ref_solve(m, A, c, y);
            if (dot(m, y, y) > fn * fn)
                lo = lam;
            else
                hi = lam;
        }
    }
    for (int a = 0; a < m; a++) x[idx[a]] = mu[idx[a]] * y[a];
    return lam;
}

/* a random symmetric positive definite matrix with condition up to about 1e4 */
static void rand_spd(rng *g, int n, double *H)
{
    double A[25];
    for (int i = 0; i < n * n; i++) A[i] = gauss(g);
    double sc = pow(10, unif(g, -2, 2)), shift = pow(10, unif(g, -3, 0));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double s = i == k ? shift : 0;
            for (int l = 0; l < n; l++) s += A[i * n + l] * A[k * n + l];
            H[i * n + k] = sc * s;
        }
}

START_TEST(qcqp_random_properties)
{
    rng g = {31415926};
    int nactive = 0, maxit = 0, total = 0;
    const int dims[5] = {2, 3, 5, 1, 4};
    for (int it = 0; it < 6000; it++) {
        int n = dims[it % 5];
        double H[25], b[5], mu[5], x[5], xr[5];
        rand_spd(&g, n, H);
        double bs = pow(10, unif(&g, -2, 2));
        for (int k = 0; k < n; k++) {
            b[k] = bs * gauss(&g);
            mu[k] = rand_mu(&g, 0.08);
        }
        double fn = unif(&g, 0, 1) < 0.03 ? 0 : pow(10, unif(&g, -2, 1));
        cs_qcqp_info in;
        ck_assert_int_eq(cs_qcqp_solve(n, H, b, mu, fn, x, &in), 0);
        total++;
        nactive += in.active;
        if (in.iterations > maxit) maxit = in.iterations;
        double sn = scaled_norm(n, mu, x);
        /* feasible, zero scales fixed, lambda >= 0 */
        ck_assert_msg(sn <= fn * (1 + 4e-16 * 8), "infeasible %.17g > %.17g", sn, fn);
        for (int k = 0; k < n; k++)
            if (mu[k] == 0) NEAR(x[k], 0, 0);
        ck_assert(in.lambda >= 0);
        ck_assert(in.iterations <= 30);
        if (fn > 0) {
            /* stationarity over the free comps, recomputed here, relative */
            double st2 = 0, hf2 = 0, b2 = 0, d2 = 0;
            for (int i = 0; i < n; i++) {
                if (mu[i] == 0) continue;
                double hx = 0;
                for (int k = 0; k < n; k++) {
                    hx += H[i * n + k] * x[k];
                    if (mu[k] > 0) hf2 += H[i * n + k] * H[i * n + k];
                }
                double dx = in.lambda * x[i] / (mu[i] * mu[i]);
                st2 += (hx + b[i] + dx) * (hx + b[i] + dx);
                b2 += b[i] * b[i];
                d2 += dx * dx;
            }
            double scale = sqrt(hf2) * nrm(n, x) + sqrt(b2) + sqrt(d2);
            ck_assert_msg(sqrt(st2) <= 1e-10 * scale, "stationarity %g rel (n %d, it %d)",
                          sqrt(st2) / scale, n, it);
            ck_assert(in.stationarity_rel <= 1e-10);
            NEAR(in.stationarity, sqrt(st2), 1e-12 * scale);
            /* complementarity, relative to lambda fn^2 */
            ck_assert(fabs(in.lambda * (sn * sn - fn * fn)) <= 1e-12 * in.lambda * fn * fn);
            ck_assert(fabs(in.complementarity) <= 1e-12 * in.lambda * fn * fn);
            ck_assert_int_eq(in.active, in.lambda > 0);
        }
        /* info == NULL gives the same x */
        double xn[5];
        ck_assert_int_eq(cs_qcqp_solve(n, H, b, mu, fn, xn, NULL), 0);
        for (int k = 0; k < n; k++) NEAR(xn[k], x[k], 0);
        /* agrees with an independent bisection solve */
        double lr = ref_qcqp(n, H, b, mu, fn, xr);
        double xs = nrm(n, xr) + 1e-300;
        for (int k = 0; k < n; k++) NEAR(x[k], xr[k], 1e-7 * xs);
        if (fn > 0) NEAR(in.lambda, lr, 1e-7 * (lr + 1e-12 * sqrt(dot(n, H, H))));
        /* sampled feasible points never beat it */
        double best = qobj(n, H, b, x);
        for (int s = 0; s < 16; s++) {
            double q[5];
            rand_in_cone(&g, n, mu, fn, s & 1, q);
            double oq = qobj(n, H, b, q);
            ck_assert_msg(oq >= best - 1e-12 * (fabs(best) + fabs(oq)), "%.17g < %.17g", oq, best);
        }
    }
    /* the mix exercises both branches */
    ck_assert(nactive > total / 4 && nactive < total * 9 / 10);
    ck_assert(maxit >= 2);
}
END_TEST

/* --------------------------------------------------------------- §7 soft cone */

START_TEST(soft_worked)
{
    /* R_n = 1, kappa = 1, along T = 1 (mu = 1, j_t = (1, 0)): borders at j_n = 1 and -1 */
    const double mu[2] = {1, 1};
    double f[3], cost, j[3] = {0, 1, 0};
    j[0] = 1;
    ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL), CS_ZONE_TOP);
    j[0] = 1 - 1e-9;
    ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL), CS_ZONE_MIDDLE);
    j[0] = -1 + 1e-9;
    ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL), CS_ZONE_MIDDLE);
    j[0] = -1 - 1e-9;
    ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL), CS_ZONE_BOTTOM);
    /* in between f_n = (1 - j_n)/2 */
    for (int i = 1; i < 20; i++) {
        j[0] = -1 + i * 0.1;
        ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL), CS_ZONE_MIDDLE);
        NEAR(f[0], (1 - j[0]) / 2, 1e-15);
        NEAR(cost, (1 - j[0]) * (1 - j[0]) / 4, 1e-15);
    }
    /* below -1 f_n = -j_n */
    for (int i = 1; i < 20; i++) {
        j[0] = -1 - i * 0.1;
        ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL), CS_ZONE_BOTTOM);
        NEAR(f[0], -j[0], 1e-15);
    }
    /* both give 1 at j_n = -1; the slope changes from -1/2 to -1 */
    j[0] = -1;
    cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL);
    NEAR(f[0], 1, 1e-15);
    double h = 1e-6, fa[3], fb[3];
    j[0] = -1 + h;
    ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, fa, &cost, NULL), CS_ZONE_MIDDLE);
    NEAR((fa[0] - f[0]) / h, -0.5, 1e-9);
    j[0] = -1 - h;
    ck_assert_int_eq(cs_soft_cone(2, j, 1, mu, 1, fb, &cost, NULL), CS_ZONE_BOTTOM);
    NEAR((f[0] - fb[0]) / h, -1, 1e-9);
    /* above the top border nothing acts */
    j[0] = 2;
    cs_soft_cone(2, j, 1, mu, 1, f, &cost, NULL);
    NEAR(f[0], 0, 0);
    NEAR(cost, 0, 0);
}
END_TEST

START_TEST(soft_zone_table)
{
    /* the three rows of §7's table, anisotropic scales, MuJoCo's regulariser shape */
    const double mu[2] = {0.8, 0.4}, Rn = 0.5, eta = 2;
    double R[3], kappa, mubar;
    ck_assert_int_eq(cs_soft_regularizer(2, Rn, mu, eta, R, &kappa, &mubar), 1);
    NEAR(R[1], Rn / eta, 1e-15);
    NEAR(kappa, Rn * 0.64 / eta, 1e-15);
    NEAR(mubar, 0.8 / sqrt(eta), 1e-15);
    NEAR(mubar, sqrt(kappa / Rn), 1e-15);
    NEAR(R[1] * mu[0] * mu[0], kappa, 1e-15);
    NEAR(R[2] * mu[1] * mu[1], kappa, 1e-15);
    double j[3] = {0.1, 0.3, -0.5}, f[3], cost, Hs[9];
    double u1 = 0.8 * 0.3, u2 = 0.4 * -0.5, T = hypot(u1, u2);
    /* middle */
    ck_assert_int_eq(cs_soft_cone(2, j, Rn, mu, kappa, f, &cost, Hs), CS_ZONE_MIDDLE);
    double fn = (T - j[0]) / (Rn + kappa);
    NEAR(f[0], fn, 1e-15);
    NEAR(f[1], -fn * 0.64 * 0.3 / T, 1e-15);
    NEAR(f[2], -fn * 0.16 * -0.5 / T, 1e-15);
    NEAR(cost, (T - j[0]) * (T - j[0]) / (2 * (Rn + kappa)), 1e-15);
    /* the source-style scaled form classifies alike: N = mubar j_n */
    double N = mubar * j[0];
    ck_assert(!(N >= mubar * T) && !(mubar * N + T <= 0));
    /* bottom */
    j[0] = -2;
    ck_assert_int_eq(cs_soft_cone(2, j, Rn, mu, kappa, f, &cost, Hs), CS_ZONE_BOTTOM);
    NEAR(f[0], 2 / Rn, 1e-15);
    NEAR(f[1], -0.3 / R[1], 1e-14);
    NEAR(f[2], 0.5 / R[2], 1e-14);
    NEAR(cost, 0.5 * (4 / Rn + 0.09 / R[1] + 0.25 / R[2]), 1e-13);
    NEAR(Hs[0], 1 / Rn, 1e-15);
    NEAR(Hs[4], 1 / R[1], 1e-13);
    NEAR(Hs[8], 1 / R[2], 1e-13);
    N = mubar * j[0];
    ck_assert(mubar * N + T <= 0);
    /* top */
    j[0] = T + 1e-12;
    ck_assert_int_eq(cs_soft_cone(2, j, Rn, mu, kappa, f, &cost, Hs), CS_ZONE_TOP);
    for (int k = 0; k < 9; k++) NEAR(Hs[k], 0, 0);
}
END_TEST

START_TEST(soft_condim1_and_zero_mu)
{
    double f[3], cost, h[9];
    /* condim 1: f_n = max(0, -j_n/Rn), cost j_n^2/(2 Rn) below 0 */
    ck_assert_int_eq(cs_soft_cone(0, (double[]){-3}, 2, NULL, 1, f, &cost, h), CS_ZONE_BOTTOM);
    NEAR(f[0], 1.5, 1e-15);
    NEAR(cost, 2.25, 1e-15);
    NEAR(h[0], 0.5, 1e-15);
    ck_assert_int_eq(cs_soft_cone(0, (double[]){0}, 2, NULL, 1, f, &cost, h), CS_ZONE_TOP);
    ck_assert_int_eq(cs_soft_cone(0, (double[]){1}, 2, NULL, 1, f, &cost, h), CS_ZONE_TOP);
    NEAR(f[0], 0, 0);
    NEAR(cost, 0, 0);
    NEAR(h[0], 0, 0);
    /* kappa unused at condim 1 */
    cs_soft_cone(0, (double[]){-3}, 2, NULL, 0, f, &cost, h);
    NEAR(f[0], 1.5, 1e-15);
    /* a zero scale: that friction component stays 0 and its residual does not matter */
    const double mu[2] = {0.5, 0};
    double fa[3], ca;
    cs_zone za = cs_soft_cone(2, (double[]){-0.1, 0.4, 3}, 1, mu, 0.25, fa, &ca, NULL);
    cs_zone zb = cs_soft_cone(2, (double[]){-0.1, 0.4, -7}, 1, mu, 0.25, f, &cost, h);
    ck_assert_int_eq(za, zb);
    NEAR(fa[2], 0, 0);
    NEAR(f[2], 0, 0);
    NEAR(ca, cost, 0);
    for (int k = 0; k < 3; k++) NEAR(fa[k], f[k], 0);
    for (int k = 0; k < 3; k++) NEAR(h[2 * 3 + k], 0, 0);
    /* and equals the condim-... problem without that component */
    double f1[2], c1;
    cs_zone z1 = cs_soft_cone(1, (double[]){-0.1, 0.4}, 1, mu, 0.25, f1, &c1, NULL);
    ck_assert_int_eq(z1, za);
    NEAR(c1, ca, 1e-15);
    NEAR(f1[0], fa[0], 1e-15);
    NEAR(f1[1], fa[1], 1e-15);
    /* all scales zero: the normal alone */
    cs_soft_cone(2, (double[]){-3, 5, 5}, 2, (double[]){0, 0}, 1, f, &cost, h);
    NEAR(f[0], 1.5, 1e-15);
    NEAR(f[1], 0, 0);
    NEAR(cost, 2.25, 1e-15);
}
END_TEST

/* random soft-cone instance; r in {0, 2, 3, 5} with the odd r now and then */
typedef struct {
    int r;
    double mu[5], Rn, kappa, j[6];
} soft_case;
static void rand_soft(rng *g, soft_case *s)
{
    static const int rs[6] = {2, 3, 5, 0, 1, 4};
    s->r = rs[next_u64(g) % 6];
    for (int k = 0; k < s->r; k++) s->mu[k] = unif(g, 0, 1) < 0.1 ? 0 : pow(10, unif(g, -1.5, 0.3));
    s->Rn = pow(10, unif(g, -1, 1));
    double eta = pow(10, unif(g, -0.5, 1.5)), mubar;
    if (!cs_soft_regularizer(s->r, s->Rn, s->mu, eta, NULL, &s->kappa, &mubar))
        s->kappa = s->Rn; /* any positive value: unused without friction */
    for (int k = 0; k <= s->r; k++) s->j[k] = gauss(g);
}
static cs_zone soft_eval(const soft_case *s, const double *j, double *f, double *c, double *h)
{
    return cs_soft_cone(s->r, j, s->Rn, s->mu, s->kappa, f, c, h);
}
static double soft_T(const soft_case *s, const double *j)
{
    double t = 0;
    for (int k = 0; k < s->r; k++) t += s->mu[k] * j[k + 1] * s->mu[k] * j[k + 1];
    return sqrt(t);
}

START_TEST(soft_gradient_fd)
{
    /* f = -grad l everywhere (l is C^1 across the borders) */
    rng g = {99};
    for (int it = 0; it < 4000; it++) {
        soft_case s;
        rand_soft(&g, &s);
        int d = s.r + 1;
        double f[6], c, jp[6], fp[6], cp, cm;
        soft_eval(&s, s.j, f, &c, NULL);
        double fs = nrm(d, f) + nrm(d, s.j) / fmin(s.Rn, s.kappa) + 1;
        for (int k = 0; k < d; k++) {
            const double h = 1e-6;
            memcpy(jp, s.j, sizeof jp);
            jp[k] += h;
            soft_eval(&s, jp, fp, &cp, NULL);
            jp[k] -= 2 * h;
            soft_eval(&s, jp, fp, &cm, NULL);
            NEAR((cp - cm) / (2 * h), -f[k], 1e-6 * fs);
        }
    }
}
END_TEST

START_TEST(soft_hessian_fd)
{
    /* Hessian == Jacobian of -f where smooth; symmetric and positive semi-definite */
    rng g = {12345};
    int checked = 0, zones[3] = {0, 0, 0};
    for (int it = 0; it < 4000; it++) {
        soft_case s;
        rand_soft(&g, &s);
        int d = s.r + 1;
        double f[6], c, H[36], jp[6], fp[6], fm[6], cp;
        cs_zone z = soft_eval(&s, s.j, f, &c, H);
        double T = soft_T(&s, s.j);
        /* away from the borders (and from the tangential apex, where the curvature turns fast) */
        double scale = 1 + fabs(s.j[0]) + T;
        if (fabs(s.j[0] - T) < 1e-3 * scale || fabs(s.kappa * s.j[0] + s.Rn * T) < 1e-3 * scale * (s.kappa + s.Rn))
            continue;
        if (s.r > 0 && T < 1e-3) continue;
        checked++;
        zones[z]++;
        double hs = 0;
        for (int k = 0; k < d * d; k++) hs = fmax(hs, fabs(H[k]));
        for (int k = 0; k < d; k++) {
            const double h = 1e-7 * scale;
            memcpy(jp, s.j, sizeof jp);
            jp[k] += h;
            ck_assert_int_eq(soft_eval(&s, jp, fp, &cp, NULL), z);
            jp[k] -= 2 * h;
            ck_assert_int_eq(soft_eval(&s, jp, fm, &cp, NULL), z);
            for (int i = 0; i < d; i++) NEAR(-(fp[i] - fm[i]) / (2 * h), H[i * d + k], 1e-5 * (1 + hs));
        }
        for (int a = 0; a < d; a++)
            for (int e = 0; e < d; e++) NEAR(H[a * d + e], H[e * d + a], 1e-14 * (1 + hs));
        for (int t = 0; t < 4; t++) {
            double w[6], q = 0;
            for (int k = 0; k < d; k++) w[k] = gauss(&g);
            for (int a = 0; a < d; a++)
                for (int e = 0; e < d; e++) q += w[a] * H[a * d + e] * w[e];
            ck_assert(q >= -1e-12 * hs * dot(d, w, w));
        }
    }
    ck_assert(checked > 2000);
    ck_assert(zones[0] > 100 && zones[1] > 100 && zones[2] > 100);
}
END_TEST

START_TEST(soft_directional)
{
    /* the line-search form equals the full response contracted with the direction */
    rng g = {777};
    int zones[3] = {0, 0, 0};
    for (int it = 0; it < 4000; it++) {
        soft_case s;
        rand_soft(&g, &s);
        int d = s.r + 1;
        double f[6], c, H[36], dj[6], fd, dhd, want_fd = 0, want_dhd = 0, mag = 0;
        for (int k = 0; k < d; k++) dj[k] = gauss(&g);
        cs_zone z = soft_eval(&s, s.j, f, &c, H);
        ck_assert_int_eq(cs_soft_cone_dir(s.r, s.j, dj, s.Rn, s.mu, s.kappa, &fd, &dhd), z);
        zones[z]++;
        for (int a = 0; a < d; a++) {
            want_fd += f[a] * dj[a];
            mag += fabs(f[a] * dj[a]);
            for (int e = 0; e < d; e++) want_dhd += dj[a] * H[a * d + e] * dj[e];
        }
        double hs = 0;
        for (int k = 0; k < d * d; k++) hs = fmax(hs, fabs(H[k]));
        NEAR(fd, want_fd, 1e-12 * (1 + mag));
        NEAR(dhd, want_dhd, 1e-12 * (1 + hs * dot(d, dj, dj)));
        ck_assert(dhd >= 0);
    }
    ck_assert(zones[0] > 100 && zones[1] > 100 && zones[2] > 100);
}
END_TEST

START_TEST(soft_continuity)
{
    /* force and cost are continuous across both zone borders */
    rng g = {2718};
    for (int it = 0; it < 3000; it++) {
        soft_case s;
        rand_soft(&g, &s);
        if (s.r == 0) s.r = 2, s.mu[0] = 0.7, s.mu[1] = 0.3, s.j[1] = 0.4, s.j[2] = -0.2;
        int d = s.r + 1;
        double T = soft_T(&s, s.j);
        if (T < 1e-6) continue;
        double border[2] = {T, -s.Rn * T / s.kappa};
        cs_zone above[2] = {CS_ZONE_TOP, CS_ZONE_MIDDLE}, below[2] = {CS_ZONE_MIDDLE, CS_ZONE_BOTTOM};
        for (int b = 0; b < 2; b++) {
            double eps = 1e-9 * (1 + fabs(border[b])), jp[6], fp[6], fm[6], cp, cm;
            memcpy(jp, s.j, sizeof jp);
            jp[0] = border[b] + eps;
            ck_assert_int_eq(soft_eval(&s, jp, fp, &cp, NULL), above[b]);
            jp[0] = border[b] - eps;
            ck_assert_int_eq(soft_eval(&s, jp, fm, &cm, NULL), below[b]);
            double L = 2 / fmin(s.Rn, s.kappa) * (1 + T); /* a Lipschitz bound of f */
            for (int k = 0; k < d; k++) NEAR(fp[k], fm[k], 4 * eps * L + 1e-15);
            NEAR(cp, cm, 4 * eps * L * (nrm(d, fp) + 1));
        }
    }
}
END_TEST

/* a random point of the soft cone K (f_n >= 0, ||D^-1 f_t|| <= f_n) */
static void rand_in_K(rng *g, const soft_case *s, double fmax, double *f)
{
    f[0] = unif(g, 0, 1) < 0.05 ? 0 : unif(g, 0, fmax);
    rand_in_cone(g, s->r, s->mu, f[0], next_u64(g) & 1, f + 1);
}
static double dual_obj(const soft_case *s, const double *f, const double *j)
{
    /* -f.j - 1/2 f^T R f with R = diag(Rn, kappa/mu_j^2) on the positive scales */
    double v = -f[0] * j[0] - 0.5 * s->Rn * f[0] * f[0];
    for (int k = 0; k < s->r; k++)
        if (s->mu[k] > 0) v += -f[k + 1] * j[k + 1] - 0.5 * s->kappa / (s->mu[k] * s->mu[k]) * f[k + 1] * f[k + 1];
    return v;
}

START_TEST(soft_cost_is_max_over_cone)
{
    /* l(j) = max over f in K of [-f.j - 1/2 f^T R f]: the returned f is in K and attains
     * l, and no sampled f in K exceeds it */
    rng g = {8080};
    for (int it = 0; it < 3000; it++) {
        soft_case s;
        rand_soft(&g, &s);
        int d = s.r + 1;
        double f[6], c;
        soft_eval(&s, s.j, f, &c, NULL);
        ck_assert(f[0] >= 0);
        ck_assert(scaled_norm(s.r, s.mu, f + 1) <= f[0] * (1 + 1e-14) + 1e-300);
        for (int k = 0; k < s.r; k++)
            if (s.mu[k] == 0) NEAR(f[k + 1], 0, 0);
        double scale = fabs(c) + nrm(d, f) * nrm(d, s.j) + 1e-300;
        NEAR(dual_obj(&s, f, s.j), c, 1e-13 * scale);
        double fmax = 2 * (f[0] + nrm(d, s.j) / s.Rn) + 0.1;
        for (int t = 0; t < 24; t++) {
            double q[6];
            rand_in_K(&g, &s, fmax, q);
            ck_assert(dual_obj(&s, q, s.j) <= c + 1e-13 * scale);
        }
    }
}
END_TEST

START_TEST(soft_strong_duality)
{
    /* one contact on a point mass (3 dof): primal min over a of
     * 1/2 (a - a0)^T M (a - a0) + l(J a - a_ref) by Newton with the cost's Hessian, and the
     * dual 1/2 f^T (A + R) f + f^T (J a0 - a_ref) at f = -grad l: the sum is 0 and M a = M a0 + J^T f */
    rng g = {5150};
    for (int it = 0; it < 300; it++) {
        soft_case s;
        rand_soft(&g, &s);
        s.r = 2;
        s.mu[0] = pow(10, unif(&g, -1, 0.2));
        s.mu[1] = pow(10, unif(&g, -1, 0.2));
        double mubar;
        cs_soft_regularizer(2, s.Rn, s.mu, pow(10, unif(&g, -0.5, 1)), NULL, &s.kappa, &mubar);
        double m = pow(10, unif(&g, -1, 1)), a0[3], aref[3], J[9];
        for (int k = 0; k < 3; k++) {
            a0[k] = 5 * gauss(&g);
            aref[k] = 5 * gauss(&g);
        }
        /* J: a random rotation (the contact frame) */
        double q[4] = {gauss(&g), gauss(&g), gauss(&g), gauss(&g)}, qn = nrm(4, q);
        for (int k = 0; k < 4; k++) q[k] /= qn;
        double w = q[0], x = q[1], y = q[2], z = q[3];
        double Rm[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
        memcpy(J, Rm, sizeof J);
        double a[3];
        memcpy(a, a0, sizeof a);
        double jr[3], f[3], l, Hl[9];
        double P = 0;
        for (int nit = 0; nit < 100; nit++) {
            for (int i = 0; i < 3; i++) jr[i] = dot(3, J + 3 * i, a) - aref[i];
            soft_eval(&s, jr, f, &l, Hl);
            double grad[3], Hm[9];
            P = l;
            for (int i = 0; i < 3; i++) {
                P += 0.5 * m * (a[i] - a0[i]) * (a[i] - a0[i]);
                grad[i] = m * (a[i] - a0[i]);
                for (int k = 0; k < 3; k++) grad[i] -= J[k * 3 + i] * f[k];
            }
            if (nrm(3, grad) <= 1e-13 * (m * nrm(3, a0) + nrm(3, f) + 1)) break;
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++) {
                    double v = i == k ? m : 0;
                    for (int p = 0; p < 3; p++)
                        for (int r2 = 0; r2 < 3; r2++) v += J[p * 3 + i] * Hl[p * 3 + r2] * J[r2 * 3 + k];
                    Hm[i * 3 + k] = v;
                }
            double step[3], ng[3] = {-grad[0], -grad[1], -grad[2]};
            ref_solve(3, Hm, ng, step);
            /* backtracking: the zone changes along the step, so re-evaluate; once the
             * predicted decrease is below the cost's rounding, take the full step */
            double t = 1;
            int resolvable = -dot(3, grad, step) > 1e-12 * (fabs(P) + 1);
            for (int ls = 0; resolvable && ls < 60; ls++, t *= 0.5) {
                double an[3], jn[3], fn2[3], ln;
                for (int i = 0; i < 3; i++) an[i] = a[i] + t * step[i];
                for (int i = 0; i < 3; i++) jn[i] = dot(3, J + 3 * i, an) - aref[i];
                soft_eval(&s, jn, fn2, &ln, NULL);
                double Pn = ln;
                for (int i = 0; i < 3; i++) Pn += 0.5 * m * (an[i] - a0[i]) * (an[i] - a0[i]);
                if (Pn <= P + 1e-4 * t * dot(3, grad, step)) break;
            }
            for (int i = 0; i < 3; i++) a[i] += t * step[i];
        }
        /* Newton's law at the optimum: M a = M a0 + J^T f */
        for (int i = 0; i < 3; i++) jr[i] = dot(3, J + 3 * i, a) - aref[i];
        soft_eval(&s, jr, f, &l, NULL);
        double fs = m * nrm(3, a0) + nrm(3, f) + 1;
        for (int i = 0; i < 3; i++) {
            double jtf = 0;
            for (int k = 0; k < 3; k++) jtf += J[k * 3 + i] * f[k];
            NEAR(m * a[i], m * a0[i] + jtf, 1e-10 * fs);
        }
        /* dual at f: A = J M^-1 J^T = I/m (J orthogonal), R = diag(Rn, kappa/mu^2) */
        double Ja0[3], D = 0;
        for (int i = 0; i < 3; i++) Ja0[i] = dot(3, J + 3 * i, a0);
        for (int i = 0; i < 3; i++) {
            double Ri = i == 0 ? s.Rn : s.kappa / (s.mu[i - 1] * s.mu[i - 1]);
            D += 0.5 * (1 / m + Ri) * f[i] * f[i] + f[i] * (Ja0[i] - aref[i]);
        }
        NEAR(P + D, 0, 1e-9 * (fabs(P) + fabs(D) + 1));
    }
}
END_TEST

static Suite *cone_suite(void)
{
    Suite *s = suite_create("cone");
    TCase *t = tcase_create("cones");
    tcase_add_test(t, iso_worked);
    tcase_add_test(t, aniso_worked);
    tcase_add_test(t, boundary_tolerance);
    tcase_add_test(t, degenerate_cones);
    tcase_add_test(t, unified_cone_condim46);
    tcase_add_test(t, equilibrium_and_incline);
    tcase_add_test(t, classify_random);
    tcase_add_test(t, cone_convex);
    suite_add_tcase(s, t);
    t = tcase_create("dissipation");
    tcase_add_test(t, slide_worked);
    tcase_add_test(t, slide_isotropic_and_rest);
    tcase_add_test(t, slide_random_max_dissipation);
    suite_add_tcase(s, t);
    t = tcase_create("pyramid");
    tcase_add_test(t, pyramid_worked);
    tcase_add_test(t, pyramid_diamond);
    tcase_add_test(t, pyramid_full_roundtrip_random);
    suite_add_tcase(s, t);
    t = tcase_create("qcqp");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, qcqp_worked);
    tcase_add_test(t, qcqp_special_cases);
    tcase_add_test(t, qcqp_random_properties);
    suite_add_tcase(s, t);
    t = tcase_create("soft");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, soft_worked);
    tcase_add_test(t, soft_zone_table);
    tcase_add_test(t, soft_condim1_and_zero_mu);
    tcase_add_test(t, soft_gradient_fd);
    tcase_add_test(t, soft_hessian_fd);
    tcase_add_test(t, soft_directional);
    tcase_add_test(t, soft_continuity);
    tcase_add_test(t, soft_cost_is_max_over_cone);
    tcase_add_test(t, soft_strong_duality);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cone_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
