/* Ray casts and inside tests on geom primitives and triangle meshes (ray.h): MuJoCo's
 * formulas, so that rangefinders and touch zones read what MuJoCo's do. */
#include <math.h>
#include <string.h>

#include "minval.h"
#include "ray.h"


static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize3(double v[3])
{
    double n = sqrt(dot3(v, v));
    if (n < CS_MINVAL) {
        v[0] = 1, v[1] = v[2] = 0;
        return;
    }
    v[0] /= n, v[1] /= n, v[2] /= n;
}

/* local = mat^T v */
static void to_local(const double mat[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = mat[i] * v[0] + mat[3 + i] * v[1] + mat[6 + i] * v[2];
}

static void to_world(const double mat[9], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = mat[3 * i] * v[0] + mat[3 * i + 1] * v[1] + mat[3 * i + 2] * v[2];
    memcpy(out, t, sizeof t);
}

static void ray_map(const cs_pose *p, const double pnt[3], const double vec[3], double lpnt[3],
                    double lvec[3])
{
    double dif[3] = {pnt[0] - p->pos[0], pnt[1] - p->pos[1], pnt[2] - p->pos[2]};
    to_local(p->mat, dif, lpnt);
    to_local(p->mat, vec, lvec);
}

/* a x^2 + 2 b x + c = 0: both roots in x (x[0] <= x[1]); the smallest non-negative, or -1 */
static double quad(double a, double b, double c, double x[2])
{
    double det = b * b - a * c;
    if (det < 0 || a < CS_MINVAL) {
        x[0] = x[1] = -1;
        return -1;
    }
    det = sqrt(det);
    x[0] = (-b - det) / a;
    x[1] = (-b + det) / a;
    return x[0] >= 0 ? x[0] : x[1] >= 0 ? x[1] : -1;
}

static double ray_sphere(const double pos[3], double r2, const double pnt[3], const double vec[3],
                         double normal[3])
{
    double dif[3] = {pnt[0] - pos[0], pnt[1] - pos[1], pnt[2] - pos[2]}, xx[2];
    double x = quad(dot3(vec, vec), dot3(vec, dif), dot3(dif, dif) - r2, xx);
    if (normal && x >= 0) {
        for (int k = 0; k < 3; k++) normal[k] = pnt[k] + x * vec[k] - pos[k];
        normalize3(normal);
    }
    return x;
}

static double ray_plane(const cs_pose *p, const double size[3], const double pnt[3],
                        const double vec[3], double normal[3])
{
    double lp[3], lv[3];
    ray_map(p, pnt, vec, lp, lv);
    if (lv[2] > -CS_MINVAL) return -1; /* only the front face */
    double x = -lp[2] / lv[2];
    if (x < 0) return -1;
    double p0 = lp[0] + x * lv[0], p1 = lp[1] + x * lv[1];
    if ((size[0] <= 0 || fabs(p0) <= size[0]) && (size[1] <= 0 || fabs(p1) <= size[1])) {
        if (normal) normal[0] = p->mat[2], normal[1] = p->mat[5], normal[2] = p->mat[8];
        return x;
    }
    return -1;
}

static double ray_capsule(const cs_pose *p, const double size[3], const double pnt[3],
                          const double vec[3], double normal[3])
{
    double ssz = size[0] + size[1];
    if (ray_sphere(p->pos, ssz * ssz, pnt, vec, NULL) < 0) return -1;
    double lp[3], lv[3], xx[2], x = -1, sol;
    ray_map(p, pnt, vec, lp, lv);
    int type = 0; /* -1 bottom cap, 0 side, 1 top cap */
    double a = lv[0] * lv[0] + lv[1] * lv[1], b = lv[0] * lp[0] + lv[1] * lp[1];
    double c = lp[0] * lp[0] + lp[1] * lp[1] - size[0] * size[0];
    sol = quad(a, b, c, xx);
    if (sol >= 0 && fabs(lp[2] + sol * lv[2]) <= size[1]) x = sol, type = 0;
    for (int side = 1; side >= -1; side -= 2) {
        double ld[3] = {lp[0], lp[1], lp[2] - side * size[1]};
        quad(dot3(lv, lv), dot3(lv, ld), dot3(ld, ld) - size[0] * size[0], xx);
        for (int i = 0; i < 2; i++) {
            double z = lp[2] + xx[i] * lv[2];
            if (xx[i] >= 0 && (side > 0 ? z >= size[1] : z <= -size[1]) && (x < 0 || xx[i] < x))
                x = xx[i], type = side;
        }
    }
    if (normal && x >= 0) {
        normal[0] = lp[0] + lv[0] * x;
        normal[1] = lp[1] + lv[1] * x;
        normal[2] = type == 0 ? 0 : lp[2] + lv[2] * x - size[1] * type;
        normalize3(normal);
        to_world(p->mat, normal, normal);
    }
    return x;
}

static double ray_ellipsoid(const cs_pose *p, const double size[3], const double pnt[3],
                            const double vec[3], double normal[3])
{
    double lp[3], lv[3], xx[2];
    ray_map(p, pnt, vec, lp, lv);
    double s[3] = {1 / (size[0] * size[0]), 1 / (size[1] * size[1]), 1 / (size[2] * size[2])};
    double a = 0, b = 0, c = -1;
    for (int k = 0; k < 3; k++) {
        a += s[k] * lv[k] * lv[k];
        b += s[k] * lv[k] * lp[k];
        c += s[k] * lp[k] * lp[k];
    }
    double x = quad(a, b, c, xx);
    if (normal && x >= 0) {
        for (int k = 0; k < 3; k++) normal[k] = s[k] * (lp[k] + x * lv[k]);
        normalize3(normal);
        to_world(p->mat, normal, normal);
    }
    return x;
}

static double ray_cylinder(const cs_pose *p, const double size[3], const double pnt[3],
                           const double vec[3], double normal[3])
{
    if (ray_sphere(p->pos, size[0] * size[0] + size[1] * size[1], pnt, vec, NULL) < 0) return -1;
    double lp[3], lv[3], xx[2], x = -1, sol;
    ray_map(p, pnt, vec, lp, lv);
    int type = 0;
    if (fabs(lv[2]) > CS_MINVAL)
        for (int side = -1; side <= 1; side += 2) {
            sol = (side * size[1] - lp[2]) / lv[2];
            if (sol < 0) continue;
            double p0 = lp[0] + sol * lv[0], p1 = lp[1] + sol * lv[1];
            if (p0 * p0 + p1 * p1 <= size[0] * size[0] && (x < 0 || sol < x)) x = sol, type = side;
        }
    double a = lv[0] * lv[0] + lv[1] * lv[1], b = lv[0] * lp[0] + lv[1] * lp[1];
    double c = lp[0] * lp[0] + lp[1] * lp[1] - size[0] * size[0];
    sol = quad(a, b, c, xx);
    if (sol >= 0 && fabs(lp[2] + sol * lv[2]) <= size[1] && (x < 0 || sol < x)) x = sol, type = 0;
    if (normal && x >= 0) {
        if (type == 0) {
            normal[0] = lp[0] + lv[0] * x;
            normal[1] = lp[1] + lv[1] * x;
            normal[2] = 0;
            normalize3(normal);
        } else {
            normal[0] = normal[1] = 0;
            normal[2] = type;
        }
        to_world(p->mat, normal, normal);
    }
    return x;
}

static double ray_box(const cs_pose *p, const double size[3], const double pnt[3],
                      const double vec[3], double normal[3])
{
    if (ray_sphere(p->pos, dot3(size, size), pnt, vec, NULL) < 0) return -1;
    static const int FACE[3][2] = {{1, 2}, {0, 2}, {0, 1}};
    double lp[3], lv[3], x = -1;
    ray_map(p, pnt, vec, lp, lv);
    int axis = -1, fside = 0;
    for (int i = 0; i < 3; i++) {
        if (fabs(lv[i]) <= CS_MINVAL) continue;
        for (int side = -1; side <= 1; side += 2) {
            double sol = (side * size[i] - lp[i]) / lv[i];
            if (sol < 0) continue;
            double p0 = lp[FACE[i][0]] + sol * lv[FACE[i][0]];
            double p1 = lp[FACE[i][1]] + sol * lv[FACE[i][1]];
            if (fabs(p0) <= size[FACE[i][0]] && fabs(p1) <= size[FACE[i][1]] && (x < 0 || sol < x))
                x = sol, axis = i, fside = side;
        }
    }
    if (normal && x >= 0) {
        double n[3] = {0, 0, 0};
        n[axis] = fside;
        to_world(p->mat, n, normal);
    }
    return x;
}

double cs_ray_primitive(const cs_pose *pose, int type, const double size[3], const double pnt[3],
                   const double vec[3], double normal[3])
{
    if (normal) normal[0] = normal[1] = normal[2] = 0;
    double x = -1;
    switch (type) {
    case CS_GEOM_PLANE: x = ray_plane(pose, size, pnt, vec, normal); break;
    case CS_GEOM_SPHERE: x = ray_sphere(pose->pos, size[0] * size[0], pnt, vec, normal); break;
    case CS_GEOM_CAPSULE: x = ray_capsule(pose, size, pnt, vec, normal); break;
    case CS_GEOM_ELLIPSOID: x = ray_ellipsoid(pose, size, pnt, vec, normal); break;
    case CS_GEOM_CYLINDER: x = ray_cylinder(pose, size, pnt, vec, normal); break;
    case CS_GEOM_BOX: x = ray_box(pose, size, pnt, vec, normal); break;
    default: break;
    }
    if (x < 0 && normal) normal[0] = normal[1] = normal[2] = 0;
    return x;
}

double cs_ray_mesh(const cs_pose *pose, const double *vert, const int *face, int nface,
                   double rbound, const double pnt[3], const double vec[3], double normal[3])
{
    if (normal) normal[0] = normal[1] = normal[2] = 0;
    if (ray_sphere(pose->pos, rbound * rbound, pnt, vec, NULL) < 0) return -1;
    double lp[3], lv[3], x = -1, best[3] = {0, 0, 0};
    ray_map(pose, pnt, vec, lp, lv);
    for (int f = 0; f < nface; f++) {
        const double *v0 = vert + 3 * face[3 * f], *v1 = vert + 3 * face[3 * f + 1],
                     *v2 = vert + 3 * face[3 * f + 2];
        /* the plane of the triangle, then the hit point's barycentric coordinates */
        double e0[3], e1[3], n[3], w[3];
        for (int k = 0; k < 3; k++) e0[k] = v0[k] - v2[k], e1[k] = v1[k] - v2[k], w[k] = lp[k] - v2[k];
        n[0] = e0[1] * e1[2] - e0[2] * e1[1];
        n[1] = e0[2] * e1[0] - e0[0] * e1[2];
        n[2] = e0[0] * e1[1] - e0[1] * e1[0];
        double den = dot3(lv, n);
        if (fabs(den) < CS_MINVAL) continue;
        double t = -dot3(w, n) / den;
        if (t < 0 || (x >= 0 && t >= x)) continue;
        double q[3] = {w[0] + t * lv[0], w[1] + t * lv[1], w[2] + t * lv[2]};
        double a00 = dot3(e0, e0), a01 = dot3(e0, e1), a11 = dot3(e1, e1);
        double b0 = dot3(q, e0), b1 = dot3(q, e1), det = a00 * a11 - a01 * a01;
        if (fabs(det) < CS_MINVAL) continue;
        double t0 = (a11 * b0 - a01 * b1) / det, t1 = (a00 * b1 - a01 * b0) / det;
        if (t0 < 0 || t1 < 0 || t0 + t1 > 1) continue;
        x = t;
        memcpy(best, n, sizeof best);
    }
    if (normal && x >= 0) {
        normalize3(best);
        to_world(pose->mat, best, normal);
    }
    return x;
}

int cs_inside_geom(const cs_pose *pose, int type, const double size[3], const double point[3])
{
    double v[3] = {point[0] - pose->pos[0], point[1] - pose->pos[1], point[2] - pose->pos[2]}, l[3];
    if (type == CS_GEOM_SPHERE) return dot3(v, v) < size[0] * size[0];
    to_local(pose->mat, v, l);
    switch (type) {
    case CS_GEOM_CAPSULE: {
        double zc = fmin(fmax(l[2], -size[1]), size[1]), dz = l[2] - zc;
        return l[0] * l[0] + l[1] * l[1] + dz * dz < size[0] * size[0];
    }
    case CS_GEOM_ELLIPSOID:
        return l[0] * l[0] / (size[0] * size[0]) + l[1] * l[1] / (size[1] * size[1]) +
                   l[2] * l[2] / (size[2] * size[2]) < 1;
    case CS_GEOM_CYLINDER:
        return fabs(l[2]) < size[1] && l[0] * l[0] + l[1] * l[1] < size[0] * size[0];
    case CS_GEOM_BOX: return fabs(l[0]) < size[0] && fabs(l[1]) < size[1] && fabs(l[2]) < size[2];
    case CS_GEOM_PLANE: return l[2] < 0;
    default: return 0;
    }
}
