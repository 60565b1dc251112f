/* Small vector, rotation and spatial-vector helpers for the stages (internal to sim/).
 * Spatial motion vectors are (angular, linear at a reference point); forces (torque about
 * that point, force). Matrices are row-major. */
#ifndef CS_SPATIAL_H
#define CS_SPATIAL_H

#include <string.h>

static inline void sp_mulmv3(const double R[9], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
    memcpy(out, t, sizeof t);
}

static inline void sp_mulmtv3(const double R[9], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
    memcpy(out, t, sizeof t);
}

static inline void sp_mulmm3(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            T[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    memcpy(C, T, sizeof T);
}

static inline void sp_cross(const double a[3], const double b[3], double c[3])
{
    double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(c, t, sizeof t);
}

static inline double sp_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double sp_dot6(const double a[6], const double b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* motion x motion: (w1, v1) x (w2, v2) = (w1 x w2, w1 x v2 + v1 x w2) */
static inline void sp_cross_motion(const double a[6], const double b[6], double out[6])
{
    double t[6], u[3];
    sp_cross(a, b, t);
    sp_cross(a, b + 3, t + 3);
    sp_cross(a + 3, b, u);
    t[3] += u[0]; t[4] += u[1]; t[5] += u[2];
    memcpy(out, t, sizeof t);
}

/* motion x* force: (w, v) x* (n, f) = (w x n + v x f, w x f) */
static inline void sp_cross_force(const double a[6], const double b[6], double out[6])
{
    double t[6], u[3];
    sp_cross(a, b, t);
    sp_cross(a + 3, b + 3, u);
    t[0] += u[0]; t[1] += u[1]; t[2] += u[2];
    sp_cross(a, b + 3, t + 3);
    memcpy(out, t, sizeof t);
}

/* Body inertia about a reference point o, as 13 numbers: mass, m r (3, r = COM - o), and
 * the rotational inertia about o (9). Composite inertias add entry by entry. */
enum { SP_NINERT = 13 };

/* force = I (w, v): (I_o w + m r x v, m v - m r x w) */
static inline void sp_mul_inert(const double I[SP_NINERT], const double s[6], double out[6])
{
    double t[6], u[3];
    sp_mulmv3(I + 4, s, t);
    sp_cross(I + 1, s + 3, u);
    t[0] += u[0]; t[1] += u[1]; t[2] += u[2];
    sp_cross(I + 1, s, u);
    for (int k = 0; k < 3; k++) t[3 + k] = I[0] * s[3 + k] - u[k];
    memcpy(out, t, sizeof t);
}

#endif
