/* Small 3-vector helpers shared by render/ sources (internal). */
#ifndef CS_RENDER_VEC_H
#define CS_RENDER_VEC_H

#include <math.h>

#define CS_PI 3.14159265358979323846

static inline double cs_v3dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void cs_v3cross(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0]};
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}

static inline double cs_v3norm(const double a[3])
{
    return sqrt(cs_v3dot(a, a));
}

static inline void cs_v3normalize(double a[3])
{
    double n = cs_v3norm(a);
    if (n > 0) {
        a[0] /= n;
        a[1] /= n;
        a[2] /= n;
    }
}

/* world = mat * local (mat row-major, columns are the local axes). */
static inline void cs_pose_to_world(const cs_pose *p, const double l[3], double w[3])
{
    const double *m = p->mat;
    double r[3] = {m[0] * l[0] + m[1] * l[1] + m[2] * l[2] + p->pos[0],
                   m[3] * l[0] + m[4] * l[1] + m[5] * l[2] + p->pos[1],
                   m[6] * l[0] + m[7] * l[1] + m[8] * l[2] + p->pos[2]};
    w[0] = r[0];
    w[1] = r[1];
    w[2] = r[2];
}

static inline void cs_pose_to_local(const cs_pose *p, const double w[3], double l[3])
{
    const double *m = p->mat;
    double d[3] = {w[0] - p->pos[0], w[1] - p->pos[1], w[2] - p->pos[2]};
    l[0] = m[0] * d[0] + m[3] * d[1] + m[6] * d[2];
    l[1] = m[1] * d[0] + m[4] * d[1] + m[7] * d[2];
    l[2] = m[2] * d[0] + m[5] * d[1] + m[8] * d[2];
}

/* Rotates a direction into the local frame (no translation). */
static inline void cs_dir_to_local(const cs_pose *p, const double w[3], double l[3])
{
    const double *m = p->mat;
    l[0] = m[0] * w[0] + m[3] * w[1] + m[6] * w[2];
    l[1] = m[1] * w[0] + m[4] * w[1] + m[7] * w[2];
    l[2] = m[2] * w[0] + m[5] * w[1] + m[8] * w[2];
}

#endif
