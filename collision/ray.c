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

/* all (when given): the hit of each face (-x, +x, -y, +y, -z, +z) within its rectangle, -1
 * where none, as MuJoCo's ray_box */
static double ray_box_all(const cs_pose *p, const double size[3], const double pnt[3],
                          const double vec[3], double normal[3], double all[6])
{
    if (all)
        for (int i = 0; i < 6; i++) all[i] = -1;
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
            if (fabs(p0) <= size[FACE[i][0]] && fabs(p1) <= size[FACE[i][1]]) {
                if (x < 0 || sol < x) x = sol, axis = i, fside = side;
                if (all) all[2 * i + (side + 1) / 2] = sol;
            }
        }
    }
    if (normal && x >= 0) {
        double n[3] = {0, 0, 0};
        n[axis] = fside;
        to_world(p->mat, n, normal);
    }
    return x;
}

static double ray_box(const cs_pose *p, const double size[3], const double pnt[3],
                      const double vec[3], double normal[3])
{
    return ray_box_all(p, size, pnt, vec, normal, NULL);
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

/* MuJoCo's ray_triangle: the triangle v (local frame) against the local ray, tested in the
 * plane normal to it (basis b0, b1); the distance, -1 when missed; n the unit normal by the
 * winding */
static double ray_triangle(const double v[3][3], const double lp[3], const double lv[3],
                           const double b0[3], const double b1[3], double n[3])
{
    double dif[3][3], pl[3][2];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) dif[i][j] = v[i][j] - lp[j];
        pl[i][0] = dot3(b0, dif[i]);
        pl[i][1] = dot3(b1, dif[i]);
    }
    for (int k = 0; k < 2; k++)
        if ((pl[0][k] > 0 && pl[1][k] > 0 && pl[2][k] > 0) ||
            (pl[0][k] < 0 && pl[1][k] < 0 && pl[2][k] < 0))
            return -1;
    double A[4] = {pl[0][0] - pl[2][0], pl[1][0] - pl[2][0], pl[0][1] - pl[2][1],
                   pl[1][1] - pl[2][1]};
    double b[2] = {-pl[2][0], -pl[2][1]};
    double det = A[0] * A[3] - A[1] * A[2];
    if (fabs(det) < CS_MINVAL) return -1;
    double t0 = (A[3] * b[0] - A[1] * b[1]) / det, t1 = (-A[2] * b[0] + A[0] * b[1]) / det;
    if (t0 < 0 || t1 < 0 || t0 + t1 > 1) return -1;
    double e0[3], e1[3], w[3];
    for (int k = 0; k < 3; k++) e0[k] = v[0][k] - v[2][k], e1[k] = v[1][k] - v[2][k], w[k] = lp[k] - v[2][k];
    n[0] = e0[1] * e1[2] - e0[2] * e1[1];
    n[1] = e0[2] * e1[0] - e0[0] * e1[2];
    n[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double den = dot3(lv, n);
    if (fabs(den) < CS_MINVAL) return -1;
    double x = -dot3(w, n) / den;
    normalize3(n);
    return x;
}

double cs_ray_hfield(const cs_pose *pose, int nrow, int ncol, const double hsize[4],
                     const double *data, const double pnt[3], const double vec[3],
                     double normal[3])
{
    if (normal) normal[0] = normal[1] = normal[2] = 0;
    const double *R = pose->mat, *s = hsize;
    /* the base below the surface and the box of the elevations above it */
    cs_pose base = *pose, top = *pose;
    for (int i = 0; i < 3; i++) {
        base.pos[i] -= R[3 * i + 2] * s[3] * 0.5;
        top.pos[i] += R[3 * i + 2] * s[2] * 0.5;
    }
    double bsize[3] = {s[0], s[1], s[3] * 0.5}, tsize[3] = {s[0], s[1], s[2] * 0.5};
    double nbase[3], all[6];
    double x = ray_box_all(&base, bsize, pnt, vec, normal ? nbase : NULL, NULL);
    double xtop = ray_box_all(&top, tsize, pnt, vec, NULL, all);
    if (xtop < 0) {
        if (normal && x >= 0) memcpy(normal, nbase, sizeof nbase);
        return x;
    }
    double lp[3], lv[3];
    ray_map(pose, pnt, vec, lp, lv);
    /* a basis of the plane normal to the ray */
    double b0[3] = {1, 1, 1}, b1[3];
    if (fabs(lv[0]) >= fabs(lv[1]) && fabs(lv[0]) >= fabs(lv[2]))
        b0[0] = 0;
    else if (fabs(lv[1]) >= fabs(lv[2]))
        b0[1] = 0;
    else
        b0[2] = 0;
    double f = dot3(lv, b0) / dot3(lv, lv);
    for (int i = 0; i < 3; i++) b1[i] = b0[i] - f * lv[i];
    normalize3(b1);
    b0[0] = b1[1] * lv[2] - b1[2] * lv[1];
    b0[1] = b1[2] * lv[0] - b1[0] * lv[2];
    b0[2] = b1[0] * lv[1] - b1[1] * lv[0];
    normalize3(b0);
    /* the part of the ray inside the top box, its cells (one more each side) */
    double seg[2] = {0, xtop};
    for (int i = 0; i < 6; i++)
        if (all[i] > seg[1]) seg[0] = xtop, seg[1] = all[i];
    double dx = 2 * s[0] / (ncol - 1), dy = 2 * s[1] / (nrow - 1), SX[2], SY[2];
    for (int i = 0; i < 2; i++) {
        SX[i] = (lp[0] + seg[i] * lv[0] + s[0]) / dx;
        SY[i] = (lp[1] + seg[i] * lv[1] + s[1]) / dy;
    }
    int cmin = (int)fmax(0, floor(fmin(SX[0], SX[1])) - 1);
    int cmax = (int)fmin(ncol - 1, ceil(fmax(SX[0], SX[1])) + 1);
    int rmin = (int)fmax(0, floor(fmin(SY[0], SY[1])) - 1);
    int rmax = (int)fmin(nrow - 1, ceil(fmax(SY[0], SY[1])) + 1);
    double nl[3] = {0, 0, 0}, nt[3];
    if (normal && x >= 0) to_local(R, nbase, nl);
    for (int r = rmin; r < rmax; r++)
        for (int c = cmin; c < cmax; c++) {
            /* the cell's two triangles, wound so that their normals point up */
            double z00 = data[r * ncol + c] * s[2], z01 = data[r * ncol + c + 1] * s[2];
            double z11 = data[(r + 1) * ncol + c + 1] * s[2], z10 = data[(r + 1) * ncol + c] * s[2];
            double x0 = dx * c - s[0], x1 = dx * (c + 1) - s[0];
            double y0 = dy * r - s[1], y1 = dy * (r + 1) - s[1];
            const double va[3][3] = {{x0, y0, z00}, {x1, y0, z01}, {x1, y1, z11}};
            const double vb[3][3] = {{x0, y0, z00}, {x1, y1, z11}, {x0, y1, z10}};
            double sol = ray_triangle(va, lp, lv, b0, b1, nt);
            if (sol >= 0 && (x < 0 || sol < x)) x = sol, memcpy(nl, nt, sizeof nt);
            sol = ray_triangle(vb, lp, lv, b0, b1, nt);
            if (sol >= 0 && (x < 0 || sol < x)) x = sol, memcpy(nl, nt, sizeof nt);
        }
    /* the top box's sides, where the ray passes below the field's edge */
    for (int i = 0; i < 4; i++) {
        if (!(all[i] >= 0 && (all[i] < x || x < 0))) continue;
        double z = (lp[2] + all[i] * lv[2]) / s[2], y, y0, z0, z1;
        if (i < 2) {
            y = (lp[1] + all[i] * lv[1] + s[1]) / dy;
            y0 = fmax(0, fmin(nrow - 2, floor(y)));
            int col = i == 1 ? ncol - 1 : 0;
            z0 = data[(int)round(y0) * ncol + col];
            z1 = data[(int)round(y0 + 1) * ncol + col];
        } else {
            y = (lp[0] + all[i] * lv[0] + s[0]) / dx;
            y0 = fmax(0, fmin(ncol - 2, floor(y)));
            int row0 = i == 3 ? (nrow - 1) * ncol : 0;
            z0 = data[(int)round(y0) + row0];
            z1 = data[(int)round(y0 + 1) + row0];
        }
        if (z < z0 * (y0 + 1 - y) + z1 * (y - y0)) {
            x = all[i];
            nl[0] = nl[1] = nl[2] = 0;
            nl[i / 2] = i % 2 ? 1 : -1;
        }
    }
    if (normal && x >= 0) to_world(R, nl, normal);
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
