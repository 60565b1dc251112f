/* Small rotation helpers (MuJoCo's conventions: quaternions w first, matrices row-major). */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "conesim.h"

void cs_quat2mat(double m[9], const double q[4])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = w * w + x * x - y * y - z * z;
    m[1] = 2 * (x * y - w * z);
    m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z);
    m[4] = w * w - x * x + y * y - z * z;
    m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y);
    m[7] = 2 * (y * z + w * x);
    m[8] = w * w - x * x - y * y + z * z;
}

void cs_mulquat(double r[4], const double a[4], const double b[4])
{
    double t[4] = {
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    };
    r[0] = t[0]; r[1] = t[1]; r[2] = t[2]; r[3] = t[3];
}

/* As MuJoCo 3.12's mju_normalize4, to the rounding: a quaternion within 1e-15 of unit length
 * is kept as it is (rescaling it would move it by an ulp, and a box resting exactly on a
 * plane would then start an ulp inside it), a longer or shorter one is multiplied by the
 * inverse norm, a null one (below 1e-15) becomes the identity. */
void cs_normquat(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n < 1e-15) {
        q[0] = 1; q[1] = q[2] = q[3] = 0;
        return;
    }
    if (fabs(n - 1) <= 1e-15) return;
    double inv = 1 / n;
    for (int i = 0; i < 4; i++) q[i] *= inv;
}

/* Shepperd's method: pick the largest diagonal combination for accuracy. */
void cs_mat2quat(double q[4], const double m[9])
{
    double tr = m[0] + m[4] + m[8];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q[0] = 0.25 * s;
        q[1] = (m[7] - m[5]) / s;
        q[2] = (m[2] - m[6]) / s;
        q[3] = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        double s = sqrt(1.0 + m[0] - m[4] - m[8]) * 2;
        q[0] = (m[7] - m[5]) / s;
        q[1] = 0.25 * s;
        q[2] = (m[1] + m[3]) / s;
        q[3] = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        double s = sqrt(1.0 + m[4] - m[0] - m[8]) * 2;
        q[0] = (m[2] - m[6]) / s;
        q[1] = (m[1] + m[3]) / s;
        q[2] = 0.25 * s;
        q[3] = (m[5] + m[7]) / s;
    } else {
        double s = sqrt(1.0 + m[8] - m[0] - m[4]) * 2;
        q[0] = (m[3] - m[1]) / s;
        q[1] = (m[2] + m[6]) / s;
        q[2] = (m[5] + m[7]) / s;
        q[3] = 0.25 * s;
    }
    if (q[0] < 0)
        for (int i = 0; i < 4; i++) q[i] = -q[i];
    cs_normquat(q);
}

void cs_axisangle2quat(double q[4], const double axis[3], double angle)
{
    double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    double s = sin(angle / 2);
    q[0] = cos(angle / 2);
    for (int i = 0; i < 3; i++) q[i + 1] = n > 0 ? axis[i] / n * s : 0;
}

/* Minimal rotation taking local +z to vec (MuJoCo's zaxis/fromto meaning); antiparallel
 * gives the half turn about x, as MuJoCo does. */
void cs_quat_z2vec(double q[4], const double vec[3])
{
    q[0] = 1; q[1] = q[2] = q[3] = 0;
    double n = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);
    if (n < 1e-15) return;
    double v[3] = {vec[0] / n, vec[1] / n, vec[2] / n};
    double axis[3] = {-v[1], v[0], 0}; /* z x v */
    double a = sqrt(axis[0] * axis[0] + axis[1] * axis[1]);
    if (a < 1e-15) {
        if (v[2] < 0) { q[0] = 0; q[1] = 1; }
        return;
    }
    cs_axisangle2quat(q, axis, atan2(a, v[2]));
}

/* rotation vector (axis * angle, angle in [-pi, pi]) of a unit quaternion */
void cs_quat2vel(double v[3], const double q[4])
{
    /* MuJoCo's operations (mju_quat2Vel): the axis scaled by the inverse norm, (1, 0, 0)
     * below 1e-15 */
    double ax[3] = {q[1], q[2], q[3]};
    double s = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    if (s < 1e-15) {
        ax[0] = 1;
        ax[1] = ax[2] = 0;
    } else {
        double inv = 1 / s;
        for (int k = 0; k < 3; k++) ax[k] *= inv;
    }
    double a = 2 * atan2(s, q[0]);
    if (a > M_PI) a -= 2 * M_PI;
    for (int k = 0; k < 3; k++) v[k] = ax[k] * a;
}

/* rotation vector of b^-1 a: the local rotation that takes b to a */
void cs_subquat(double v[3], const double a[4], const double b[4])
{
    double bc[4] = {b[0], -b[1], -b[2], -b[3]}, d[4];
    cs_mulquat(d, bc, a);
    cs_quat2vel(v, d);
}
