/* Analytic pair routines: exact distance, normal (geom1 -> geom2) and points.
 * Point sets follow MuJoCo's routines where its behaviour matters (plane-box corners,
 * plane-cylinder triangle, plane-capsule tangent = capsule axis). */
#include <math.h>

#include "internal.h"

#define CS_EPS 1e-15

/* plane (a) : sphere at center c, radius r. */
static int plane_sphere_at(const cs_shape *a, const double c[3], double r, double margin,
                           cs_rawcon *out)
{
    double n[3], dif[3], pos[3];
    cs_axis(n, a->mat, 2);
    for (int i = 0; i < 3; i++)
        dif[i] = c[i] - a->pos[i];
    double cdist = cs_dot3(dif, n);
    if (cdist > margin + r)
        return 0;
    double dist = cdist - r;
    for (int i = 0; i < 3; i++)
        pos[i] = c[i] - n[i] * (r + 0.5 * dist);
    cs_setcon(out, n, pos, dist);
    return 1;
}

int cs_plane_sphere(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                    double margin, cs_rawcon *out)
{
    (void)opt;
    return plane_sphere_at(a, b->pos, b->size[0], margin, out);
}

int cs_plane_capsule(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                     double margin, cs_rawcon *out)
{
    (void)opt;
    double ax[3], e[3];
    int n = 0;
    cs_axis(ax, b->mat, 2);
    for (int s = 1; s >= -1; s -= 2) {
        for (int i = 0; i < 3; i++)
            e[i] = b->pos[i] + s * b->size[1] * ax[i];
        if (plane_sphere_at(a, e, b->size[0], margin, out + n)) {
            /* MuJoCo aligns the first tangent with the capsule axis */
            for (int i = 0; i < 3; i++)
                out[n].frame[3 + i] = ax[i];
            n++;
        }
    }
    return n;
}

/* MuJoCo's point set: the deepest rim point of the near cap, the rim point of the far
 * cap on the same side, and two more rim points of the near cap at +-120 degrees (so a
 * flat cylinder rests on a triangle). */
int cs_plane_cylinder(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                      double margin, cs_rawcon *out)
{
    (void)opt;
    double n[3], ax[3], v[3], v1[3], dif[3];
    double r = b->size[0], h = b->size[1];
    int cnt = 0;
    cs_axis(n, a->mat, 2);
    cs_axis(ax, b->mat, 2);
    double prj = cs_dot3(n, ax);
    if (prj > 0) { /* make the axis point toward the plane */
        for (int i = 0; i < 3; i++)
            ax[i] = -ax[i];
        prj = -prj;
    }
    for (int i = 0; i < 3; i++)
        dif[i] = b->pos[i] - a->pos[i];
    double d0 = cs_dot3(dif, n);
    /* radial direction toward the plane: -n without its axis component */
    for (int i = 0; i < 3; i++)
        v[i] = ax[i] * prj - n[i];
    double len = sqrt(cs_dot3(v, v));
    if (len >= 1e-12) {
        for (int i = 0; i < 3; i++)
            v[i] *= r / len;
    } else { /* cap parallel to the plane: any radius, MuJoCo takes local x */
        cs_axis(v, b->mat, 0);
        for (int i = 0; i < 3; i++)
            v[i] *= r;
    }
    double pv = cs_dot3(v, n);
    double pa = prj * h;
    double dist = d0 + pa + pv, p[3];
    if (dist > margin)
        return 0;
    for (int i = 0; i < 3; i++)
        p[i] = b->pos[i] + v[i] + h * ax[i] - 0.5 * dist * n[i];
    cs_setcon(out + cnt++, n, p, dist);
    dist = d0 - pa + pv;
    if (dist <= margin) {
        for (int i = 0; i < 3; i++)
            p[i] = b->pos[i] + v[i] - h * ax[i] - 0.5 * dist * n[i];
        cs_setcon(out + cnt++, n, p, dist);
    }
    dist = d0 + pa - 0.5 * pv;
    if (dist <= margin) {
        cs_cross3(v1, v, ax);
        double l1 = sqrt(cs_dot3(v1, v1));
        for (int i = 0; i < 3; i++)
            v1[i] *= r * sqrt(3.0) / 2 / l1;
        for (int s = 1; s >= -1; s -= 2) {
            for (int i = 0; i < 3; i++)
                p[i] = b->pos[i] + s * v1[i] - 0.5 * v[i] + h * ax[i] - 0.5 * dist * n[i];
            cs_setcon(out + cnt++, n, p, dist);
        }
    }
    return cnt;
}

/* MuJoCo's point set: corners in index order (bit k = +size along local k) that lie on
 * the plane's side of the center and within the margin, at most 4. */
int cs_plane_box(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                 double margin, cs_rawcon *out)
{
    (void)opt;
    double n[3], dif[3], loc[3], cor[3], p[3];
    int cnt = 0;
    cs_axis(n, a->mat, 2);
    for (int i = 0; i < 3; i++)
        dif[i] = b->pos[i] - a->pos[i];
    double d0 = cs_dot3(dif, n);
    for (int k = 0; k < 8; k++) {
        loc[0] = (k & 1) ? b->size[0] : -b->size[0];
        loc[1] = (k & 2) ? b->size[1] : -b->size[1];
        loc[2] = (k & 4) ? b->size[2] : -b->size[2];
        cs_mulmv(cor, b->mat, loc);
        double ld = cs_dot3(n, cor);
        if (d0 + ld > margin || ld > 0)
            continue;
        double dist = d0 + ld;
        for (int i = 0; i < 3; i++)
            p[i] = b->pos[i] + cor[i] - 0.5 * dist * n[i];
        cs_setcon(out + cnt, n, p, dist);
        if (++cnt >= 4)
            break;
    }
    return cnt;
}

/* The ellipsoid's support point in -n is exact: x = S^2 d / |S d| in local coordinates. */
int cs_plane_ellipsoid(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                       double margin, cs_rawcon *out)
{
    (void)opt;
    double n[3], d[3], dl[3], x[3], q[3], p[3];
    cs_axis(n, a->mat, 2);
    for (int i = 0; i < 3; i++)
        d[i] = -n[i];
    cs_mulmtv(dl, b->mat, d);
    double sd = 0;
    for (int i = 0; i < 3; i++)
        sd += b->size[i] * b->size[i] * dl[i] * dl[i];
    sd = sqrt(sd);
    for (int i = 0; i < 3; i++)
        x[i] = b->size[i] * b->size[i] * dl[i] / sd;
    cs_mulmv(q, b->mat, x);
    for (int i = 0; i < 3; i++)
        q[i] += b->pos[i] - a->pos[i];
    double dist = cs_dot3(q, n);
    if (dist > margin)
        return 0;
    for (int i = 0; i < 3; i++)
        p[i] = q[i] + a->pos[i] - 0.5 * dist * n[i];
    cs_setcon(out, n, p, dist);
    return 1;
}

/* sphere (c1, r1, z axis z1) : sphere (c2, r2, z2) */
static int sphere_sphere_at(const double c1[3], double r1, const double *mat1,
                            const double c2[3], double r2, const double *mat2, double margin,
                            cs_rawcon *out)
{
    double n[3], p[3];
    for (int i = 0; i < 3; i++)
        n[i] = c2[i] - c1[i];
    double len = sqrt(cs_dot3(n, n));
    if (len - r1 - r2 > margin)
        return 0;
    if (len < CS_EPS) {
        /* coincident centers: MuJoCo's choice, cross of the z axes, else world x */
        double z1[3], z2[3];
        cs_axis(z1, mat1, 2);
        cs_axis(z2, mat2, 2);
        cs_cross3(n, z1, z2);
        len = sqrt(cs_dot3(n, n));
        if (len < CS_EPS) {
            n[0] = 1;
            n[1] = n[2] = 0;
            len = 1;
        }
        for (int i = 0; i < 3; i++)
            n[i] /= len;
        len = 0;
    } else {
        for (int i = 0; i < 3; i++)
            n[i] /= len;
    }
    double dist = len - r1 - r2;
    for (int i = 0; i < 3; i++)
        p[i] = c1[i] + n[i] * (r1 + 0.5 * dist);
    cs_setcon(out, n, p, dist);
    return 1;
}

int cs_sphere_sphere(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                     double margin, cs_rawcon *out)
{
    (void)opt;
    return sphere_sphere_at(a->pos, a->size[0], a->mat, b->pos, b->size[0], b->mat, margin,
                            out);
}

static double clamp1(double x)
{
    return x > 1 ? 1 : (x < -1 ? -1 : x);
}

int cs_sphere_capsule(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                      double margin, cs_rawcon *out)
{
    (void)opt;
    double ax[3], v[3], q[3];
    cs_axis(ax, b->mat, 2);
    for (int i = 0; i < 3; i++)
        v[i] = a->pos[i] - b->pos[i];
    double t = b->size[1] > 0 ? clamp1(cs_dot3(ax, v) / b->size[1]) : 0;
    for (int i = 0; i < 3; i++)
        q[i] = b->pos[i] + t * b->size[1] * ax[i];
    return sphere_sphere_at(a->pos, a->size[0], a->mat, q, b->size[0], b->mat, margin, out);
}

/* Closest points of segments c1 + s u1 and c2 + t u2, s, t in [-1, 1] (u scaled by the
 * half-lengths). Returns 0 for (near) parallel segments, leaving s, t unset. */
int cs_segseg(const double c1[3], const double u1[3], const double c2[3],
                  const double u2[3], double *s, double *t)
{
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = c1[i] - c2[i];
    double a = cs_dot3(u1, u1), b = cs_dot3(u1, u2), c = cs_dot3(u2, u2);
    double e = cs_dot3(u1, d), f = cs_dot3(u2, d);
    double det = a * c - b * b;
    if (a < CS_EPS && c < CS_EPS) {
        *s = *t = 0;
        return 1;
    }
    if (a < CS_EPS) {
        *s = 0;
        *t = clamp1(f / c);
        return 1;
    }
    if (c < CS_EPS) {
        *t = 0;
        *s = clamp1(-e / a);
        return 1;
    }
    if (det <= 1e-12 * a * c)
        return 0;
    /* unconstrained minimiser, then clamp one and re-solve the other (convex in s, t) */
    double ss = clamp1((b * f - c * e) / det);
    double tt = (b * ss + f) / c;
    if (tt < -1 || tt > 1) {
        tt = clamp1(tt);
        ss = clamp1((b * tt - e) / a);
    }
    *s = ss;
    *t = tt;
    return 1;
}

int cs_capsule_capsule(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                       double margin, cs_rawcon *out)
{
    (void)opt;
    double u1[3], u2[3], p1[3], p2[3], s, t;
    cs_axis(u1, a->mat, 2);
    cs_axis(u2, b->mat, 2);
    for (int i = 0; i < 3; i++) {
        u1[i] *= a->size[1];
        u2[i] *= b->size[1];
    }
    if (cs_segseg(a->pos, u1, b->pos, u2, &s, &t)) {
        for (int i = 0; i < 3; i++) {
            p1[i] = a->pos[i] + s * u1[i];
            p2[i] = b->pos[i] + t * u2[i];
        }
        return sphere_sphere_at(p1, a->size[0], a->mat, p2, b->size[0], b->mat, margin, out);
    }
    /* parallel: the two ends of the overlap of segment 2 projected on segment 1
     * (or the nearest ends when they do not overlap), so a capsule lying along
     * another does not rock */
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = b->pos[i] - a->pos[i];
    double aa = cs_dot3(u1, u1), bb = cs_dot3(u1, u2);
    double m = cs_dot3(u1, d) / aa, w = fabs(bb) / aa; /* seg2 spans s in [m-w, m+w] */
    double lo = fmax(-1, m - w), hi = fmin(1, m + w);
    double sv[2];
    int ns;
    if (lo <= hi) {
        sv[0] = lo;
        sv[1] = hi;
        ns = (hi - lo > 1e-12) ? 2 : 1;
    } else {
        sv[0] = (m > 0) ? 1 : -1;
        ns = 1;
    }
    int n = 0;
    for (int k = 0; k < ns; k++) {
        for (int i = 0; i < 3; i++)
            p1[i] = a->pos[i] + sv[k] * u1[i];
        double v[3];
        for (int i = 0; i < 3; i++)
            v[i] = p1[i] - b->pos[i];
        double tt = clamp1(cs_dot3(u2, v) / cs_dot3(u2, u2));
        for (int i = 0; i < 3; i++)
            p2[i] = b->pos[i] + tt * u2[i];
        n += sphere_sphere_at(p1, a->size[0], a->mat, p2, b->size[0], b->mat, margin, out + n);
    }
    return n;
}

/* sphere (center c, radius r) : box b. Exact, including a center inside the box
 * (depth = the center's distance to the nearest face plus r). Sets *face to the box-local
 * axis k of the face the contact is on (-1 for an edge or corner). */
static int sphere_box_at(const double c[3], double r, const cs_shape *b, double margin,
                         cs_rawcon *out, int *face)
{
    double dif[3], cl[3], q[3], n[3], nl[3], p[3], pl[3];
    const double *s = b->size;
    for (int i = 0; i < 3; i++)
        dif[i] = c[i] - b->pos[i];
    cs_mulmtv(cl, b->mat, dif);
    int nclamp = 0, kc = -1;
    for (int i = 0; i < 3; i++) {
        q[i] = cl[i];
        if (q[i] > s[i]) {
            q[i] = s[i];
            nclamp++;
            kc = i;
        } else if (q[i] < -s[i]) {
            q[i] = -s[i];
            nclamp++;
            kc = i;
        }
    }
    double v[3] = {q[0] - cl[0], q[1] - cl[1], q[2] - cl[2]};
    double d = sqrt(cs_dot3(v, v));
    if (nclamp > 0 && d > CS_EPS) {
        if (d - r > margin)
            return 0;
        for (int i = 0; i < 3; i++) {
            nl[i] = v[i] / d;
            pl[i] = 0.5 * (q[i] + cl[i] + nl[i] * r);
        }
        if (face)
            *face = (nclamp == 1) ? kc : -1;
        cs_mulmv(n, b->mat, nl);
        cs_mulmv(p, b->mat, pl);
        for (int i = 0; i < 3; i++)
            p[i] += b->pos[i];
        cs_setcon(out, n, p, d - r);
        return 1;
    }
    /* center inside (or on) the box: push out through the nearest face */
    int k = 0;
    double best = s[0] - fabs(cl[0]);
    for (int i = 1; i < 3; i++) {
        double g = s[i] - fabs(cl[i]);
        if (g < best) {
            best = g;
            k = i;
        }
    }
    nl[0] = nl[1] = nl[2] = 0;
    nl[k] = (cl[k] >= 0) ? -1 : 1; /* from the sphere into the box */
    double dist = -(best + r);
    if (dist > margin)
        return 0;
    for (int i = 0; i < 3; i++)
        pl[i] = cl[i] + nl[i] * 0.5 * (r - best);
    if (face)
        *face = k;
    cs_mulmv(n, b->mat, nl);
    cs_mulmv(p, b->mat, pl);
    for (int i = 0; i < 3; i++)
        p[i] += b->pos[i];
    cs_setcon(out, n, p, dist);
    return 1;
}

int cs_sphere_box(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                  double margin, cs_rawcon *out)
{
    (void)opt;
    return sphere_box_at(a->pos, a->size[0], b, margin, out, NULL);
}

/* g(t) = max_i |P_i + t D_i| - s_i: the box's signed distance where negative */
static double box_inner(const double P[3], const double D[3], const double s[3], double t)
{
    double g = -HUGE_VAL;
    for (int i = 0; i < 3; i++)
        g = fmax(g, fabs(P[i] + t * D[i]) - s[i]);
    return g;
}

/* Parameter t in [-1, 1] of the point of segment P + t D (box-local) nearest to, or
 * deepest inside, the box with half-sizes s. */
static double segment_box_param(const double P[3], const double D[3], const double s[3])
{
    /* Inside: g is convex piecewise linear; its minimum is at a breakpoint. */
    double cand[32];
    int nc = 0;
    cand[nc++] = -1;
    cand[nc++] = 1;
    for (int i = 0; i < 3; i++)
        if (fabs(D[i]) > CS_EPS)
            cand[nc++] = -P[i] / D[i];
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            for (int si = -1; si <= 1; si += 2)
                for (int sj = -1; sj <= 1; sj += 2) {
                    double den = si * D[i] - sj * D[j];
                    if (fabs(den) > CS_EPS)
                        cand[nc++] = (s[i] - s[j] - si * P[i] + sj * P[j]) / den;
                }
    double tb = 0, gb = HUGE_VAL;
    for (int k = 0; k < nc; k++) {
        double t = clamp1(cand[k]);
        double g = box_inner(P, D, s, t);
        if (g < gb) {
            gb = g;
            tb = t;
        }
    }
    if (gb < 0)
        return tb;
    /* Outside: the nearest feature pair is an end point against the box or the
     * segment against one of the 12 edges (a face-interior nearest point on the
     * segment's interior means the segment is parallel to it: an end does as well). */
    double best = HUGE_VAL;
    for (int e = -1; e <= 1; e += 2) {
        double d2 = 0;
        for (int i = 0; i < 3; i++) {
            double x = P[i] + e * D[i];
            double o = fabs(x) - s[i];
            if (o > 0)
                d2 += o * o;
        }
        if (d2 < best) {
            best = d2;
            tb = e;
        }
    }
    for (int j = 0; j < 3; j++) {
        for (int c = 0; c < 4; c++) {
            double ec[3], eu[3] = {0, 0, 0};
            int i1 = (j + 1) % 3, i2 = (j + 2) % 3;
            ec[j] = 0;
            ec[i1] = (c & 1) ? s[i1] : -s[i1];
            ec[i2] = (c & 2) ? s[i2] : -s[i2];
            eu[j] = s[j];
            double sp, te;
            if (!cs_segseg(P, D, ec, eu, &sp, &te))
                continue; /* parallel to this edge: ends or other edges cover it */
            double d2 = 0;
            for (int i = 0; i < 3; i++) {
                double x = P[i] + sp * D[i] - ec[i] - te * eu[i];
                d2 += x * x;
            }
            if (d2 < best) {
                best = d2;
                tb = sp;
            }
        }
    }
    return tb;
}

/* Capsule : box. The nearest (or deepest) point of the axis gives the first contact;
 * when it lies on a face, the two ends of the part of the axis over that face give more,
 * so a capsule lying on a box does not rock. */
int cs_capsule_box(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                   double margin, cs_rawcon *out)
{
    (void)opt;
    double ax[3], dif[3], P[3], D[3], c[3];
    double r = a->size[0], h = a->size[1];
    cs_axis(ax, a->mat, 2);
    for (int i = 0; i < 3; i++) {
        dif[i] = a->pos[i] - b->pos[i];
        ax[i] *= h;
    }
    cs_mulmtv(P, b->mat, dif);
    cs_mulmtv(D, b->mat, ax);
    double t0 = segment_box_param(P, D, b->size);
    for (int i = 0; i < 3; i++)
        c[i] = a->pos[i] + t0 * ax[i];
    int face = -1;
    int n = sphere_box_at(c, r, b, margin, out, &face);
    if (!n || face < 0 || h <= 0)
        return n;
    /* part of the axis over face `face`: |P_i + t D_i| <= s_i for the two other axes */
    double lo = -1, hi = 1;
    for (int i = 0; i < 3; i++) {
        if (i == face)
            continue;
        if (fabs(D[i]) < CS_EPS) {
            if (fabs(P[i]) > b->size[i])
                return n;
            continue;
        }
        double t1 = (-b->size[i] - P[i]) / D[i], t2 = (b->size[i] - P[i]) / D[i];
        if (t1 > t2) {
            double tmp = t1;
            t1 = t2;
            t2 = tmp;
        }
        lo = fmax(lo, t1);
        hi = fmin(hi, t2);
    }
    if (lo > hi)
        return n;
    double tv[2] = {lo, hi};
    double tol = 1e-9;
    for (int k = 0; k < 2; k++) {
        if (fabs(tv[k] - t0) <= tol || (k == 1 && hi - lo <= tol))
            continue;
        for (int i = 0; i < 3; i++)
            c[i] = a->pos[i] + tv[k] * ax[i];
        int f2 = -1;
        if (sphere_box_at(c, r, b, margin, out + n, &f2)) {
            if (f2 == face)
                n++;
        }
    }
    return n;
}

/* Sphere : cylinder, exact: the nearest cylinder point when the center is outside, else
 * out through the nearer of the caps and the side (as MuJoCo's sphere-cylinder). */
int cs_sphere_cylinder(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                       double margin, cs_rawcon *out)
{
    (void)opt;
    double ax[3], v[3], rad[3], n[3], p[3];
    double R = a->size[0], r = b->size[0], h = b->size[1];
    cs_axis(ax, b->mat, 2);
    for (int i = 0; i < 3; i++)
        v[i] = a->pos[i] - b->pos[i];
    double x = cs_dot3(v, ax);
    for (int i = 0; i < 3; i++)
        rad[i] = v[i] - x * ax[i];
    double rho = sqrt(cs_dot3(rad, rad));
    double u[3]; /* radial unit direction (cylinder local x when on the axis) */
    if (rho > CS_EPS)
        for (int i = 0; i < 3; i++)
            u[i] = rad[i] / rho;
    else
        cs_axis(u, b->mat, 0);
    if (fabs(x) <= h && rho <= r) {
        double dcap = h - fabs(x), dside = r - rho, depth;
        if (dcap <= dside) {
            double sg = x >= 0 ? -1 : 1;
            for (int i = 0; i < 3; i++)
                n[i] = sg * ax[i];
            depth = dcap;
        } else {
            for (int i = 0; i < 3; i++)
                n[i] = -u[i];
            depth = dside;
        }
        double dist = -(depth + R);
        if (dist > margin)
            return 0;
        for (int i = 0; i < 3; i++)
            p[i] = a->pos[i] + n[i] * 0.5 * (R - depth);
        cs_setcon(out, n, p, dist);
        return 1;
    }
    double xc = x > h ? h : (x < -h ? -h : x), rc = rho > r ? r : rho, q[3];
    for (int i = 0; i < 3; i++)
        q[i] = b->pos[i] + xc * ax[i] + rc * u[i];
    for (int i = 0; i < 3; i++)
        n[i] = q[i] - a->pos[i];
    double d = sqrt(cs_dot3(n, n));
    if (d - R > margin)
        return 0;
    for (int i = 0; i < 3; i++) {
        n[i] /= d;
        p[i] = 0.5 * (q[i] + a->pos[i] + n[i] * R);
    }
    cs_setcon(out, n, p, d - R);
    return 1;
}
