/* Tendon wrapping around spheres and cylinders, MuJoCo 3.12's geometry (mju_wrap): the
 * problem is reduced to a circle in a plane (the plane through the sphere's centre and both
 * end points; a cylinder's cross-section), solved there for two tangent points, and lifted
 * back (a cylinder's path climbs along z in proportion to the length covered). */
#include <math.h>
#include <stddef.h>

#include "wrap.h"
#include "minval.h"
#include "spatial.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* a 2D vector made unit length; a null one becomes (1, 0), as MuJoCo's normalize */
static void unit2(double v[2])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1]);
    if (n < CS_MINVAL) {
        v[0] = 1;
        v[1] = 0;
    } else {
        v[0] /= n;
        v[1] /= n;
    }
}

/* the 3D counterpart; returns the norm before */
static double unit3(double v[3])
{
    double n = sqrt(sp_dot3(v, v));
    if (n < CS_MINVAL) {
        v[0] = 1;
        v[1] = v[2] = 0;
    } else {
        for (int k = 0; k < 3; k++) v[k] /= n;
    }
    return n;
}

/* whether the 2D segments a0-a1 and b0-b1 cross: a tangent solution whose two legs cross
 * is not a wrap (the path would pass through the circle) */
static int segments_cross(const double a0[2], const double a1[2], const double b0[2],
                          const double b1[2])
{
    double det = (b1[1] - b0[1]) * (a1[0] - a0[0]) - (b1[0] - b0[0]) * (a1[1] - a0[1]);
    if (fabs(det) < CS_MINVAL) return 0;
    double s = ((b1[0] - b0[0]) * (a0[1] - b0[1]) - (b1[1] - b0[1]) * (a0[0] - b0[0])) / det;
    double t = ((a1[0] - a0[0]) * (a0[1] - b0[1]) - (a1[1] - a0[1]) * (a0[0] - b0[0])) / det;
    return s >= 0 && s <= 1 && t >= 0 && t <= 1;
}

/* the arc from p0 to p1 on the circle; the solution index (its turning sense) says which of
 * the two arcs the path takes, the short one or the long one */
static double arc_length(const double p0[2], const double p1[2], int ind, double radius)
{
    double u[2] = {p0[0], p0[1]}, v[2] = {p1[0], p1[1]};
    unit2(u);
    unit2(v);
    double c = u[0] * v[0] + u[1] * v[1];
    double ang = acos(c > 1 ? 1 : c < -1 ? -1 : c);
    double cross = p0[1] * p1[0] - p0[0] * p1[1];
    if ((cross > 0 && ind) || (cross < 0 && !ind)) ang = 2 * M_PI - ang;
    return radius * ang;
}

/* Wrap of the 2D segment end[0..1] -> end[2..3] around the circle of this radius at the
 * origin: the tangent points in pnt, the arc's length returned, -1 when the segment misses
 * the circle (on the side point's side, when one is given: then the path goes round that
 * side even where the segment clears the circle on the other). */
static double wrap_circle(double pnt[4], const double end[4], const double *side,
                          double radius)
{
    double sq0 = end[0] * end[0] + end[1] * end[1], sq1 = end[2] * end[2] + end[3] * end[3];
    double sqr = radius * radius;
    if (sq0 < sqr || sq1 < sqr || radius < CS_MINVAL) return -1; /* an end inside */
    double dif[2] = {end[2] - end[0], end[3] - end[1]};
    double dd = dif[0] * dif[0] + dif[1] * dif[1];
    if (dd < CS_MINVAL) return -1;
    /* the segment's point nearest the centre: clear of the circle (and not on the side
     * point's side) means a straight path */
    double a = -(dif[0] * end[0] + dif[1] * end[1]) / dd;
    a = a < 0 ? 0 : a > 1 ? 1 : a;
    double near[2] = {a * dif[0] + end[0], a * dif[1] + end[1]};
    if (near[0] * near[0] + near[1] * near[1] > sqr &&
        (!side || side[0] * near[0] + side[1] * near[1] >= 0))
        return -1;
    /* two candidate pairs of tangent points, one per turning sense */
    double r0 = sqrt(sq0 - sqr), r1 = sqrt(sq1 - sqr);
    double sol[2][4], good[2];
    for (int i = 0; i < 2; i++) {
        double sg = i == 0 ? 1 : -1;
        sol[i][0] = (end[0] * sqr + sg * radius * end[1] * r0) / sq0;
        sol[i][1] = (end[1] * sqr - sg * radius * end[0] * r0) / sq0;
        sol[i][2] = (end[2] * sqr - sg * radius * end[3] * r1) / sq1;
        sol[i][3] = (end[3] * sqr + sg * radius * end[2] * r1) / sq1;
        double t[2];
        if (side) { /* nearest the side point's direction */
            t[0] = sol[i][0] + sol[i][2];
            t[1] = sol[i][1] + sol[i][3];
            unit2(t);
            good[i] = t[0] * side[0] + t[1] * side[1];
        } else { /* the tangent points closest together: the shorter arc */
            t[0] = sol[i][0] - sol[i][2];
            t[1] = sol[i][1] - sol[i][3];
            good[i] = -(t[0] * t[0] + t[1] * t[1]);
        }
        if (segments_cross(end, sol[i], end + 2, sol[i] + 2)) good[i] = -10000;
    }
    int i = good[0] > good[1] ? 0 : 1;
    for (int k = 0; k < 4; k++) pnt[k] = sol[i][k];
    if (segments_cross(end, pnt, end + 2, pnt + 2)) return -1;
    return arc_length(sol[i], sol[i] + 2, i, radius);
}

/* Wrap from the inside (a side point within the object): the path from end0 to end1 that
 * touches the circle once, at the point where the two legs make equal angles with the
 * radius (a reflection), found by Newton's method on asin(A z) + asin(B z) - 2 asin(z) + G
 * = 0. Both tangent points are that one point; returns 0, or -1 when the segment itself
 * crosses the circle or an end is inside it. */
static double wrap_inside(double pnt[4], const double end[4], double radius)
{
    double len0 = sqrt(end[0] * end[0] + end[1] * end[1]);
    double len1 = sqrt(end[2] * end[2] + end[3] * end[3]);
    double dif[2] = {end[2] - end[0], end[3] - end[1]};
    double dd = dif[0] * dif[0] + dif[1] * dif[1];
    if (len0 <= radius || len1 <= radius || radius < CS_MINVAL || len0 < CS_MINVAL ||
        len1 < CS_MINVAL)
        return -1;
    if (dd > CS_MINVAL) {
        double a = -(dif[0] * end[0] + dif[1] * end[1]) / dd;
        if (a > 0 && a < 1) {
            double t[2] = {end[0] + a * dif[0], end[1] + a * dif[1]};
            if (sqrt(t[0] * t[0] + t[1] * t[1]) <= radius) return -1;
        }
    }
    /* fallback where the iteration fails: the direction of the ends' midpoint */
    pnt[0] = 0.5 * (end[0] + end[2]);
    pnt[1] = 0.5 * (end[1] + end[3]);
    unit2(pnt);
    pnt[0] *= radius;
    pnt[1] *= radius;
    pnt[2] = pnt[0];
    pnt[3] = pnt[1];
    double A = radius / len0, B = radius / len1;
    double cosG = (len0 * len0 + len1 * len1 - dd) / (2 * len0 * len1);
    if (cosG < -1 + CS_MINVAL) return -1;
    if (cosG > 1 - CS_MINVAL) return 0;
    double G = acos(cosG), z = 1 - 1e-7;
    double f = asin(A * z) + asin(B * z) - 2 * asin(z) + G;
    if (f > 0) return 0;
    int it;
    for (it = 0; it < 20 && fabs(f) > 1e-6; it++) {
        double df = A / fmax(CS_MINVAL, sqrt(1 - z * z * A * A)) +
                    B / fmax(CS_MINVAL, sqrt(1 - z * z * B * B)) -
                    2 / fmax(CS_MINVAL, sqrt(1 - z * z));
        if (df > -CS_MINVAL) return 0;
        double z1 = z - f / df;
        if (z1 > z) return 0;
        z = z1;
        f = asin(A * z) + asin(B * z) - 2 * asin(z) + G;
        if (f > 1e-6) return 0;
    }
    if (it >= 20) return 0;
    /* the contact point: rotated from the end on the positive turning side */
    double v[2], ang;
    if (end[0] * end[3] - end[1] * end[2] > 0) {
        v[0] = end[0], v[1] = end[1];
        ang = asin(z) - asin(A * z);
    } else {
        v[0] = end[2], v[1] = end[3];
        ang = asin(z) - asin(B * z);
    }
    unit2(v);
    pnt[0] = radius * (cos(ang) * v[0] - sin(ang) * v[1]);
    pnt[1] = radius * (sin(ang) * v[0] + cos(ang) * v[1]);
    pnt[2] = pnt[0];
    pnt[3] = pnt[1];
    return 0;
}

double cs_wrap(double wpnt[6], const double x0[3], const double x1[3], const double xpos[3],
               const double xmat[9], double radius, int cylinder, const double *side)
{
    /* the ends in the object's frame */
    double p[2][3], t[3];
    for (int k = 0; k < 3; k++) t[k] = x0[k] - xpos[k];
    sp_mulmtv3(xmat, t, p[0]);
    for (int k = 0; k < 3; k++) t[k] = x1[k] - xpos[k];
    sp_mulmtv3(xmat, t, p[1]);
    if (sqrt(sp_dot3(p[0], p[0])) < CS_MINVAL || sqrt(sp_dot3(p[1], p[1])) < CS_MINVAL)
        return -1;
    /* the plane of the circle: a sphere's through its centre and both ends (any plane
     * through p0 when they are aligned with the centre), a cylinder's cross-section */
    double ax[2][3] = {{1, 0, 0}, {0, 1, 0}};
    if (!cylinder) {
        double nrm[3];
        for (int k = 0; k < 3; k++) ax[0][k] = p[0][k];
        unit3(ax[0]);
        sp_cross(p[0], p[1], nrm);
        if (unit3(nrm) < CS_MINVAL) {
            int i = 0; /* the largest component of ax0 stays out of the second guess */
            if (fabs(ax[0][1]) > fabs(ax[0][0]) && fabs(ax[0][1]) > fabs(ax[0][2])) i = 1;
            if (fabs(ax[0][2]) > fabs(ax[0][0]) && fabs(ax[0][2]) > fabs(ax[0][1])) i = 2;
            ax[1][0] = ax[1][1] = ax[1][2] = 1;
            ax[1][i] = 0;
            sp_cross(ax[0], ax[1], nrm);
            unit3(nrm);
        }
        sp_cross(nrm, ax[0], ax[1]);
        unit3(ax[1]);
    }
    double e[4] = {sp_dot3(p[0], ax[0]), sp_dot3(p[0], ax[1]), sp_dot3(p[1], ax[0]),
                   sp_dot3(p[1], ax[1])};
    double s[3] = {0, 0, 0}, sd[2];
    if (side) { /* the side point projected the same way, scaled onto the circle */
        for (int k = 0; k < 3; k++) t[k] = side[k] - xpos[k];
        sp_mulmtv3(xmat, t, s);
        sd[0] = sp_dot3(s, ax[0]);
        sd[1] = sp_dot3(s, ax[1]);
        unit2(sd);
        sd[0] *= radius;
        sd[1] *= radius;
    }
    double pnt[4], wlen;
    if (side && sqrt(sp_dot3(s, s)) < radius) wlen = wrap_inside(pnt, e, radius);
    else wlen = wrap_circle(pnt, e, side ? sd : NULL, radius);
    if (wlen < 0) return -1;
    double res[6];
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) res[3 * i + k] = ax[0][k] * pnt[2 * i] + ax[1][k] * pnt[2 * i + 1];
    if (cylinder) { /* a helix: height shared out over the straight legs and the arc */
        double L0 = sqrt((p[0][0] - res[0]) * (p[0][0] - res[0]) +
                         (p[0][1] - res[1]) * (p[0][1] - res[1]));
        double L1 = sqrt((p[1][0] - res[3]) * (p[1][0] - res[3]) +
                         (p[1][1] - res[4]) * (p[1][1] - res[4]));
        double tot = L0 + wlen + L1;
        res[2] = p[0][2] + (p[1][2] - p[0][2]) * L0 / tot;
        res[5] = p[0][2] + (p[1][2] - p[0][2]) * (L0 + wlen) / tot;
        double h = fabs(res[5] - res[2]);
        wlen = sqrt(wlen * wlen + h * h);
    }
    for (int i = 0; i < 2; i++) {
        sp_mulmv3(xmat, res + 3 * i, wpnt + 3 * i);
        for (int k = 0; k < 3; k++) wpnt[3 * i + k] += xpos[k];
    }
    return wlen;
}
