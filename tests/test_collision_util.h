/* Helpers shared by the collision test files: a fixed-seed RNG, random rotations,
 * poses, and independent reference computations. */
#ifndef TEST_COLLISION_UTIL_H
#define TEST_COLLISION_UTIL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "collision.h"

#define TC_PI 3.14159265358979323846

static uint64_t tc_state = 0x9e3779b97f4a7c15ull;
static inline void tc_seed(uint64_t s)
{
    tc_state = s ? s : 1;
}
static inline double tc_rand(void) /* [0, 1) */
{
    tc_state ^= tc_state << 13;
    tc_state ^= tc_state >> 7;
    tc_state ^= tc_state << 17;
    return (double)(tc_state >> 11) / 9007199254740992.0;
}
static inline double tc_uni(double a, double b)
{
    return a + (b - a) * tc_rand();
}
static inline double tc_gauss(void)
{
    double u = tc_rand() + 1e-300, v = tc_rand();
    return sqrt(-2 * log(u)) * cos(2 * TC_PI * v);
}

static inline void tc_quat2mat(const double q[4], double m[9])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = 1 - 2 * (y * y + z * z);
    m[1] = 2 * (x * y - w * z);
    m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z);
    m[4] = 1 - 2 * (x * x + z * z);
    m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y);
    m[7] = 2 * (y * z + w * x);
    m[8] = 1 - 2 * (x * x + y * y);
}
static inline void tc_randrot(double m[9])
{
    double q[4], n = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = tc_gauss();
        n += q[i] * q[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
    tc_quat2mat(q, m);
}
/* rotation about unit axis u by angle th */
static inline void tc_axisangle(const double u[3], double th, double m[9])
{
    double s = sin(th / 2), q[4] = {cos(th / 2), u[0] * s, u[1] * s, u[2] * s};
    tc_quat2mat(q, m);
}
static inline void tc_ident(double m[9])
{
    memset(m, 0, 9 * sizeof(double));
    m[0] = m[4] = m[8] = 1;
}
static inline void tc_matmul(const double a[9], const double b[9], double r[9])
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    memcpy(r, t, sizeof t);
}
static inline void tc_pose(cs_pose *p, double x, double y, double z, const double *mat)
{
    p->pos[0] = x;
    p->pos[1] = y;
    p->pos[2] = z;
    if (mat)
        memcpy(p->mat, mat, sizeof p->mat);
    else
        tc_ident(p->mat);
}
static inline void tc_col(const double m[9], int k, double v[3])
{
    v[0] = m[k];
    v[1] = m[3 + k];
    v[2] = m[6 + k];
}
static inline double tc_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void tc_cross(const double *a, const double *b, double *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
static inline double tc_norm(const double *a)
{
    return sqrt(tc_dot(a, a));
}
static inline double tc_dist3(const double *a, const double *b)
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return tc_norm(d);
}

/* signed distance from world point x to a box (exact, both signs) */
static inline double tc_box_sdf(const double s[3], const cs_pose *p, const double x[3])
{
    double d[3] = {x[0] - p->pos[0], x[1] - p->pos[1], x[2] - p->pos[2]}, l[3];
    for (int k = 0; k < 3; k++)
        l[k] = p->mat[k] * d[0] + p->mat[3 + k] * d[1] + p->mat[6 + k] * d[2];
    double o = 0, in = -HUGE_VAL;
    for (int k = 0; k < 3; k++) {
        double q = fabs(l[k]) - s[k];
        if (q > 0)
            o += q * q;
        in = fmax(in, q);
    }
    return in > 0 ? sqrt(o) : in;
}

/* min of a convex function of t on [-1, 1] by golden-section search */
typedef double (*tc_fn)(double t, const void *ctx);
static inline double tc_minimize(tc_fn f, const void *ctx, double *targ)
{
    double a = -1, b = 1, g = (sqrt(5.0) - 1) / 2;
    double x1 = b - g * (b - a), x2 = a + g * (b - a), f1 = f(x1, ctx), f2 = f(x2, ctx);
    for (int it = 0; it < 120; it++) {
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(x1, ctx);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(x2, ctx);
        }
    }
    double t = 0.5 * (a + b), ft = f(t, ctx);
    double fe1 = f(-1, ctx), fe2 = f(1, ctx);
    if (fe1 < ft) {
        ft = fe1;
        t = -1;
    }
    if (fe2 < ft) {
        ft = fe2;
        t = 1;
    }
    if (targ)
        *targ = t;
    return ft;
}

/* check a frame is orthonormal and right-handed */
static inline double tc_frame_error(const double f[9])
{
    double e = 0, c[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            e = fmax(e, fabs(tc_dot(f + 3 * i, f + 3 * j) - (i == j)));
    tc_cross(f, f + 3, c);
    for (int i = 0; i < 3; i++)
        e = fmax(e, fabs(c[i] - f[6 + i]));
    return e;
}

#endif
