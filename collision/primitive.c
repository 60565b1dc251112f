/* Analytic pair routines: exact distance, normal (geom1 -> geom2) and points.
 * Point sets follow MuJoCo's routines where its behaviour matters (plane-box corners,
 * plane-cylinder triangle, plane-capsule tangent = capsule axis). */
#include <math.h>

#include "internal.h"
#include "minval.h"

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
    nl[k] = (cl[k] > 0) ? -1 : 1; /* from the sphere into the box (MuJoCo's on a tie) */
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

/* ---- capsule : box ----------------------------------------------------------------
 * MuJoCo's contact set (its capsule-box routine), worked in the box's frame with the capsule's
 * axis as the segment P + t H, t in [-1, 1] (P its centre, H its half-axis, |H| = L):
 *  1. The nearest feature: an end of the axis lying over a face of the box (outside it along
 *     at most one box axis) or inside it, by its squared distance to the box; then the
 *     closest pair between the axis and each of the twelve edges, which must beat the best
 *     so far by more than 1e-15.
 *  2. A second point along the axis, chosen from that feature and the axis's lean, where the
 *     capsule stays over the box (below); none when the axis points at or away from a corner,
 *     meets an edge squarely, or has its nearest end inside the box.
 *  3. A sphere of the capsule's radius at each of the one or two axis points, against the box.
 * The set is not the exact nearest-point one: a segment that passes into the box is placed by
 * the feature nearest to it, not by its deepest point. */


/* The nearest feature of step 1. */
typedef struct {
    double d2;   /* its squared distance */
    double t;    /* axis parameter of the point nearest to the box */
    int kind;    /* 0 none, 1 an end over a face or inside, 2 an edge */
    int face;    /* end: the box axis along which it lies outside, -1 inside */
    int edge;    /* edge: its box axis j */
    int corner;  /* edge: bit k set when the edge lies at +S_k; bit j when its nearest point
                    was marked at the edge's + end */
    int at_end;  /* edge: the box-side parameter was marked at an end (a corner) */
    double u;    /* edge: the box-side parameter, -1..1 along the edge */
} cb_near;

/* Closest points of the axis and the edge C + u S_j e_j (C its midpoint), in the order MuJoCo
 * takes them: the two lines' closest pair; the edge side clamped to [-1, 1] (the axis side
 * solved again for it); then the axis side clamped (the edge side solved again and clamped).
 * *mark is 0 or 2 when a clamp put u at the edge's - or + end, 1 otherwise; a mark from the
 * first clamp stays even when the second solve moves u back inside (MuJoCo's bookkeeping,
 * which decides the second point). Returns the squared distance, or -1 when the lines are
 * parallel. */
static double axis_edge(const double P[3], const double H[3], double L, const double S[3], int j,
                        const double C[3], double *t_out, double *u_out, int *mark)
{
    double w[3] = {C[0] - P[0], C[1] - P[1], C[2] - P[2]};
    double uu = S[j] * S[j], ut = -S[j] * H[j], tt = L * L;
    double gu = -S[j] * w[j], gt = cs_dot3(H, w);
    double det = uu * tt - ut * ut;
    if (fabs(det) < CS_MINVAL)
        return -1;
    double inv = 1 / det;
    double u = (tt * gu - ut * gt) * inv, t = (uu * gt - ut * gu) * inv;
    int m = 1;
    if (u > 1 || u < -1) {
        double e = u > 1 ? 1 : -1;
        m = u > 1 ? 2 : 0;
        u = e;
        t = (gt - e * ut) * (1 / tt);
    }
    if (t > 1 || t < -1) {
        double e = t > 1 ? 1 : -1;
        t = e;
        u = (gu - e * ut) * (1 / uu);
        if (u > 1) {
            u = 1;
            m = 2;
        } else if (u < -1) {
            u = -1;
            m = 0;
        }
    }
    double v[3];
    for (int i = 0; i < 3; i++)
        v[i] = w[i] - t * H[i];
    v[j] += S[j] * u;
    *t_out = t;
    *u_out = u;
    *mark = m;
    return cs_dot3(v, v);
}

static cb_near capsule_box_nearest(const double P[3], const double H[3], double L,
                                   const double S[3], double init)
{
    cb_near nb = {init, 0, 0, -1, 0, 0, 0, 0};
    /* the ends, - first: over a face (clamped along one axis at most) or inside */
    for (int e = -1; e <= 1; e += 2) {
        double x[3], dx[3];
        int nout = 0, face = -1;
        for (int i = 0; i < 3; i++) {
            x[i] = P[i] + e * H[i];
            double c = x[i] < -S[i] ? -S[i] : (x[i] > S[i] ? S[i] : x[i]);
            if (c != x[i]) {
                nout++;
                face = i;
            }
            dx[i] = c - x[i];
        }
        if (nout > 1)
            continue;
        double d2 = cs_dot3(dx, dx);
        if (d2 < nb.d2) {
            nb.d2 = d2;
            nb.t = e;
            nb.kind = 1;
            nb.face = face;
        }
    }
    /* the edges: along box axis j, at the corner signs of the other two bits of c */
    for (int j = 0; j < 3; j++)
        for (int c = 0; c < 8; c++) {
            if (c & (1 << j))
                continue;
            double C[3], t, u;
            int mark;
            for (int i = 0; i < 3; i++)
                C[i] = (c & (1 << i)) ? S[i] : -S[i];
            C[j] = 0;
            double d2 = axis_edge(P, H, L, S, j, C, &t, &u, &mark);
            if (d2 < 0 || !(d2 < nb.d2 - CS_MINVAL))
                continue;
            nb.d2 = d2;
            nb.t = t;
            nb.kind = 2;
            nb.edge = j;
            nb.u = u;
            nb.at_end = mark != 1;
            nb.corner = c | (mark == 2 ? 1 << j : 0);
        }
    return nb;
}

/* the smaller of x and y; x when y is not a number below it (an infinite ratio never wins) */
static double cb_min(double x, double y)
{
    return y < x ? y : x;
}

/* Step 2: the axis parameter of the second point, relative to the first, or 0 with *has = 0
 * when there is none. u: the axis's unit direction (H = L u); dir: bit k set when H_k > 0. */
static double capsule_box_second(const cb_near *nb, const double P[3], const double u[3],
                                 const double H[3], const double S[3], int *has)
{
    double ah[3] = {fabs(H[0]), fabs(H[1]), fabs(H[2])};
    int dir = (H[0] > 0) | (H[1] > 0) << 1 | (H[2] > 0) << 2;
    *has = 0;
    if (nb->kind == 2 && nb->at_end) {
        /* a corner: bits of `in` are the box axes along which the axis's + direction turns
         * back from the corner into the box. None or all three: it points at the corner or
         * away from it, no second point. One (k): the + direction leans inwards along k only,
         * two: the - direction along the third only -- mirrored to one with sgn = -1. */
        int in = dir ^ nb->corner;
        if (in == 0 || in == 7)
            return 0;
        double sgn = 1, ahead = 1 - nb->t, behind = 1 + nb->t;
        if (in == 3 || in == 5 || in == 6) {
            sgn = -1;
            in = 7 - in;
            ahead = 1 + nb->t;
            behind = 1 - nb->t;
        }
        int k = in == 1 ? 0 : (in == 2 ? 1 : 2), k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        double d;
        if (u[k] * u[k] > 0.5) {
            /* the axis runs mostly along the edge through the corner in k: forwards, at most
             * to the edge's other corner */
            d = cb_min(ahead, 2 * S[k] / ah[k]);
            *has = 1;
            return sgn * d;
        }
        /* mostly across it: backwards over the face, within the box's width in k1 and k2 */
        d = cb_min(cb_min(behind, 2 * S[k1] / ah[k1]), 2 * S[k2] / ah[k2]);
        *has = 1;
        return -sgn * d;
    }
    if (nb->kind == 2) {
        /* inside an edge along j: the axis must cross it leaning into the box over exactly
         * one of the two faces that meet there (an X seen along the edge); squarely across
         * it (a T) there is no second point */
        int j = nb->edge, in = (dir ^ nb->corner) & (7 - (1 << j));
        if (in != 1 && in != 2 && in != 4)
            return 0;
        int a = (j + 1) % 3, b = (j + 2) % 3;
        /* b: the cross axis along which the capsule's axis has the larger part (the first of
         * the two on a tie keeps the smaller-part role) */
        if (fabs(u[a]) > fabs(u[b]))
            a = b;
        b = 3 - j - a;
        double sgn = (in & (1 << b)) ? 1 : -1;
        double d = sgn > 0 ? 1 - nb->t : 1 + nb->t;
        /* at most across the face's width in b, and along the edge to its end in the
         * direction the axis moves */
        d = cb_min(d, 2 * S[b] / ah[b]);
        double room = (((dir >> j) & 1) == ((in >> b) & 1)) ? 1 - nb->u : 1 + nb->u;
        d = cb_min(d, S[j] * room / ah[j]);
        *has = 1;
        return sgn * d;
    }
    if (nb->face < 0)
        return 0; /* the nearest end lies inside the box */
    /* an end over a face: from it towards the other end, up to the first side plane of the box
     * the axis crosses (the face's own axis aside), at most the whole length */
    double sgn = nb->t < 0 ? 1 : -1, d = 2, x[3];
    for (int i = 0; i < 3; i++)
        x[i] = P[i] - sgn * H[i];
    for (int i = 0; i < 3; i++) {
        if (i == nb->face)
            continue;
        for (int e = -1; e <= 1; e += 2) {
            double q = (e * S[i] - x[i]) / H[i] * sgn;
            if (q > 0 && q < d)
                d = q;
        }
    }
    *has = 1;
    return sgn * d;
}

int cs_capsule_box(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                   double margin, cs_rawcon *out)
{
    (void)opt;
    double r = a->size[0], L = a->size[1], w[3], dif[3], P[3], H[3], ax[3];
    const double *S = b->size;
    for (int i = 0; i < 3; i++)
        dif[i] = a->pos[i] - b->pos[i];
    cs_mulmtv(P, b->mat, dif);
    cs_axis(w, a->mat, 2);
    cs_mulmtv(ax, b->mat, w);
    for (int i = 0; i < 3; i++)
        H[i] = ax[i] * L;
    /* no feature can be farther than this (the first end always beats it) */
    double init = margin + 2 * (r + L + S[0] + S[1] + S[2]);
    cb_near nb = capsule_box_nearest(P, H, L, S, init);
    if (nb.kind == 0)
        return 0;
    int has;
    double dt = capsule_box_second(&nb, P, ax, H, S, &has);
    int n = 0;
    for (int k = 0; k < 1 + has; k++) {
        double t = k ? dt + nb.t : nb.t, x[3], c[3];
        for (int i = 0; i < 3; i++)
            x[i] = P[i] + H[i] * t;
        cs_mulmv(c, b->mat, x);
        for (int i = 0; i < 3; i++)
            c[i] += b->pos[i];
        n += sphere_box_at(c, r, b, margin, out + n, NULL);
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
