/* Ray picking: which geom (or contact) is under the cursor. */
#include <math.h>

#include "render.h"
#include "vec.h"

/* Smallest root t > eps of a t^2 + 2 b t + c = 0, or -1. */
static double quad_root(double a, double b, double c)
{
    const double eps = 1e-9;
    if (!(a > 0))
        return -1;
    double disc = b * b - a * c;
    if (disc < 0)
        return -1;
    double s = sqrt(disc);
    double t0 = (-b - s) / a, t1 = (-b + s) / a;
    if (t0 > eps)
        return t0;
    if (t1 > eps)
        return t1;
    return -1;
}

static double best(double a, double b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    return a < b ? a : b;
}

static double ray_sphere(const double o[3], const double d[3], const double c[3], double r)
{
    double q[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    return quad_root(cs_v3dot(d, d), cs_v3dot(q, d), cs_v3dot(q, q) - r * r);
}

/* Side of the z-aligned cylinder of radius r over |z| <= h. */
static double ray_tube(const double o[3], const double d[3], double r, double h)
{
    double a = d[0] * d[0] + d[1] * d[1];
    double b = o[0] * d[0] + o[1] * d[1];
    double c = o[0] * o[0] + o[1] * o[1] - r * r;
    double disc = b * b - a * c;
    if (!(a > 0) || disc < 0)
        return -1;
    double s = sqrt(disc), t = -1;
    double roots[2] = {(-b - s) / a, (-b + s) / a};
    for (int i = 0; i < 2; i++) {
        double z = o[2] + roots[i] * d[2];
        if (roots[i] > 1e-9 && fabs(z) <= h)
            t = best(t, roots[i]);
    }
    return t;
}

/* Caps z = +-h of radius r. */
static double ray_caps(const double o[3], const double d[3], double r, double h)
{
    double t = -1;
    if (d[2] == 0)
        return -1;
    for (int s = -1; s <= 1; s += 2) {
        double tc = (s * h - o[2]) / d[2];
        double x = o[0] + tc * d[0], y = o[1] + tc * d[1];
        if (tc > 1e-9 && x * x + y * y <= r * r)
            t = best(t, tc);
    }
    return t;
}

static double ray_box(const double o[3], const double d[3], const double hs[3])
{
    double tmin = -INFINITY, tmax = INFINITY;
    for (int i = 0; i < 3; i++) {
        if (d[i] == 0) {
            if (fabs(o[i]) > hs[i])
                return -1;
            continue;
        }
        double t0 = (-hs[i] - o[i]) / d[i], t1 = (hs[i] - o[i]) / d[i];
        if (t0 > t1) {
            double tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        if (t0 > tmin)
            tmin = t0;
        if (t1 < tmax)
            tmax = t1;
    }
    if (tmin > tmax)
        return -1;
    if (tmin > 1e-9)
        return tmin;
    return tmax > 1e-9 ? tmax : -1;
}

double cs_ray_geom(const cs_render_geom *g, const double origin[3], const double dir[3])
{
    double o[3], d[3];
    cs_pose_to_local(&g->pose, origin, o);
    cs_dir_to_local(&g->pose, dir, d);
    const double *s = g->size;
    switch (g->type) {
    case CS_GEOM_PLANE: {
        if (d[2] == 0)
            return -1;
        double t = -o[2] / d[2];
        if (!(t > 1e-9))
            return -1;
        double x = o[0] + t * d[0], y = o[1] + t * d[1];
        if ((s[0] > 0 && fabs(x) > s[0]) || (s[1] > 0 && fabs(y) > s[1]))
            return -1;
        return t;
    }
    case CS_GEOM_SPHERE: {
        double c[3] = {0, 0, 0};
        return ray_sphere(o, d, c, s[0]);
    }
    case CS_GEOM_ELLIPSOID: {
        if (!(s[0] > 0 && s[1] > 0 && s[2] > 0))
            return -1;
        /* Scale to the unit sphere; t is unchanged by the scaling. */
        double os[3], ds[3], c[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) {
            os[i] = o[i] / s[i];
            ds[i] = d[i] / s[i];
        }
        return ray_sphere(os, ds, c, 1);
    }
    case CS_GEOM_CYLINDER:
        return best(ray_tube(o, d, s[0], s[1]), ray_caps(o, d, s[0], s[1]));
    case CS_GEOM_CAPSULE: {
        double top[3] = {0, 0, s[1]}, bot[3] = {0, 0, -s[1]};
        double t = ray_tube(o, d, s[0], s[1]);
        t = best(t, ray_sphere(o, d, top, s[0]));
        return best(t, ray_sphere(o, d, bot, s[0]));
    }
    case CS_GEOM_BOX:
    case CS_GEOM_MESH: /* a mesh's size is its bounding box about the geom origin */
        return ray_box(o, d, s);
    default:
        return -1;
    }
}

int cs_render_pick(const cs_render_scene *s, const double origin[3], const double dir[3],
                   double *t, double hit[3])
{
    int found = -1;
    double tbest = -1;
    for (int i = 0; i < s->ngeom; i++) {
        if (s->geoms[i].body < 0)
            continue;
        double ti = cs_ray_geom(&s->geoms[i], origin, dir);
        if (ti > 0 && (found < 0 || ti < tbest)) {
            found = i;
            tbest = ti;
        }
    }
    if (found >= 0) {
        if (t)
            *t = tbest;
        if (hit)
            for (int i = 0; i < 3; i++)
                hit[i] = origin[i] + tbest * dir[i];
    }
    return found;
}

int cs_render_pick_contact(const cs_render_scene *s, const cs_camera *c, int w, int h,
                           double x, double y, double radius)
{
    int found = -1;
    double dbest = radius * radius;
    for (int i = 0; i < s->ncontact; i++) {
        double px[2];
        if (cs_camera_project(c, w, h, s->contacts[i].pos, px) != 0)
            continue;
        double d2 = (px[0] - x) * (px[0] - x) + (px[1] - y) * (px[1] - y);
        if (d2 <= dbest) {
            dbest = d2;
            found = i;
        }
    }
    return found;
}
