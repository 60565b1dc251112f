/* Box : box by the separating axis test and face clipping (up to 8 points, as MuJoCo's
 * box-box yields), or one point for an edge-edge contact. */
#include <math.h>

#include "internal.h"

/* Sutherland-Hodgman: keep the part of polygon in (n points) where sgn*(x.u - o) <= h. */
static int clip(const double in[][3], int n, double out[][3], const double u[3], double o,
                double h, double sgn)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *p = in[i], *q = in[(i + 1) % n];
        double dp = sgn * (cs_dot3(p, u) - o) - h, dq = sgn * (cs_dot3(q, u) - o) - h;
        if (dp <= 0) {
            for (int k = 0; k < 3; k++)
                out[m][k] = p[k];
            m++;
        }
        if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
            double t = dp / (dp - dq);
            for (int k = 0; k < 3; k++)
                out[m][k] = p[k] + t * (q[k] - p[k]);
            m++;
        }
    }
    return m;
}

/* radius of a box (axes in mat columns, half-sizes s) projected on unit L */
static double proj_radius(const double *mat, const double *s, const double L[3])
{
    double r = 0, ax[3];
    for (int k = 0; k < 3; k++) {
        cs_axis(ax, mat, k);
        r += s[k] * fabs(cs_dot3(ax, L));
    }
    return r;
}

int cs_box_box(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
               double margin, cs_rawcon *out)
{
    (void)opt;
    double T[3], A[3][3], B[3][3];
    for (int i = 0; i < 3; i++) {
        T[i] = b->pos[i] - a->pos[i];
        cs_axis(A[i], a->mat, i);
        cs_axis(B[i], b->mat, i);
    }
    double scale = 0;
    for (int i = 0; i < 3; i++)
        scale = fmax(scale, fmax(a->size[i], b->size[i]));

    /* face axes: largest separation wins (least penetration) */
    double best = -HUGE_VAL, L[3], bestL[3];
    int bestax = -1;
    for (int k = 0; k < 6; k++) {
        const double *ax = (k < 3) ? A[k] : B[k - 3];
        double sep = fabs(cs_dot3(T, ax)) - proj_radius(a->mat, a->size, ax) -
                     proj_radius(b->mat, b->size, ax);
        if (sep > margin)
            return 0;
        if (sep > best) {
            best = sep;
            bestax = k;
            for (int i = 0; i < 3; i++)
                bestL[i] = ax[i];
        }
    }
    /* edge axes win only when clearly better: faces give the stable manifolds */
    double bestface = best;
    int edge_i = -1, edge_j = -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            cs_cross3(L, A[i], B[j]);
            double len = sqrt(cs_dot3(L, L));
            if (len < 1e-6)
                continue; /* parallel edges: a face axis covers it */
            for (int k = 0; k < 3; k++)
                L[k] /= len;
            double sep = fabs(cs_dot3(T, L)) - proj_radius(a->mat, a->size, L) -
                         proj_radius(b->mat, b->size, L);
            if (sep > margin)
                return 0;
            if (sep > best && sep > bestface + 1e-9 * scale + 0.05 * fabs(bestface)) {
                best = sep;
                edge_i = i;
                edge_j = j;
                for (int k = 0; k < 3; k++)
                    bestL[k] = L[k];
            }
        }
    /* orient the axis from a to b */
    if (cs_dot3(bestL, T) < 0)
        for (int k = 0; k < 3; k++)
            bestL[k] = -bestL[k];

    if (edge_i >= 0) {
        /* the supporting edges of a (along +n) and b (along -n) */
        double ca[3], cb[3], ua[3], ub[3], s, t, pa[3], pb[3], p[3];
        for (int k = 0; k < 3; k++) {
            ca[k] = a->pos[k];
            cb[k] = b->pos[k];
        }
        for (int m = 0; m < 3; m++) {
            if (m != edge_i) {
                double sg = cs_dot3(A[m], bestL) > 0 ? 1 : -1;
                for (int k = 0; k < 3; k++)
                    ca[k] += sg * a->size[m] * A[m][k];
            }
            if (m != edge_j) {
                double sg = cs_dot3(B[m], bestL) > 0 ? -1 : 1;
                for (int k = 0; k < 3; k++)
                    cb[k] += sg * b->size[m] * B[m][k];
            }
        }
        for (int k = 0; k < 3; k++) {
            ua[k] = a->size[edge_i] * A[edge_i][k];
            ub[k] = b->size[edge_j] * B[edge_j][k];
        }
        if (!cs_segseg(ca, ua, cb, ub, &s, &t))
            s = t = 0;
        for (int k = 0; k < 3; k++) {
            pa[k] = ca[k] + s * ua[k];
            pb[k] = cb[k] + t * ub[k];
            p[k] = 0.5 * (pa[k] + pb[k]);
        }
        double d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        double dist = cs_dot3(d, bestL);
        if (dist > margin)
            return 0;
        cs_setcon(out, bestL, p, dist);
        return 1;
    }

    /* face case: reference box R with face normal nr toward the incident box I */
    const cs_shape *R = (bestax < 3) ? a : b, *I = (bestax < 3) ? b : a;
    double (*RA)[3] = (bestax < 3) ? A : B, (*IA)[3] = (bestax < 3) ? B : A;
    int kr = bestax % 3;
    double nr[3];
    for (int k = 0; k < 3; k++)
        nr[k] = (bestax < 3) ? bestL[k] : -bestL[k];
    double fc[3]; /* reference face center */
    double sr = cs_dot3(RA[kr], nr) > 0 ? 1 : -1;
    for (int k = 0; k < 3; k++)
        fc[k] = R->pos[k] + sr * R->size[kr] * RA[kr][k];
    /* incident face: most anti-parallel to nr */
    int ki = 0;
    double bd = -1;
    for (int m = 0; m < 3; m++) {
        double d = fabs(cs_dot3(IA[m], nr));
        if (d > bd) {
            bd = d;
            ki = m;
        }
    }
    double si = cs_dot3(IA[ki], nr) > 0 ? -1 : 1;
    int k1 = (ki + 1) % 3, k2 = (ki + 2) % 3;
    double poly[8][3], tmp[8][3];
    static const int sg[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 3; k++)
            poly[v][k] = I->pos[k] + si * I->size[ki] * IA[ki][k] +
                         sg[v][0] * I->size[k1] * IA[k1][k] + sg[v][1] * I->size[k2] * IA[k2][k];
    int n = 4;
    int r1 = (kr + 1) % 3, r2 = (kr + 2) % 3;
    double o1 = cs_dot3(fc, RA[r1]), o2 = cs_dot3(fc, RA[r2]);
    n = clip((const double(*)[3])poly, n, tmp, RA[r1], o1, R->size[r1], 1);
    n = clip((const double(*)[3])tmp, n, poly, RA[r1], o1, R->size[r1], -1);
    n = clip((const double(*)[3])poly, n, tmp, RA[r2], o2, R->size[r2], 1);
    n = clip((const double(*)[3])tmp, n, poly, RA[r2], o2, R->size[r2], -1);
    int cnt = 0;
    for (int v = 0; v < n && cnt < 8; v++) {
        double d[3], p[3];
        for (int k = 0; k < 3; k++)
            d[k] = poly[v][k] - fc[k];
        double dist = cs_dot3(d, nr);
        if (dist > margin)
            continue;
        for (int k = 0; k < 3; k++)
            p[k] = poly[v][k] - 0.5 * dist * nr[k];
        cs_setcon(out + cnt++, bestL, p, dist);
    }
    return cnt;
}
