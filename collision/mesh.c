/* Plane against a mesh's convex hull: the deepest vertex by the support climb, then the
 * vertices around it within the margin (they form a connected patch of the edge graph). A
 * hull resting on a face thus gets a contact at every corner of that face, as a box does;
 * faces with more than 4 corners keep 4 that span the patch. */
#include "alloc.h"
#include <math.h>
#include <string.h>

#include "internal.h"

#define PATCH_MAX 64   /* vertices examined around the deepest one */

/* twice the signed area of (a, b, c) projected along n */
static double area2(const double *a, const double *b, const double *c, const double n[3])
{
    double e1[3], e2[3], x[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = b[i] - a[i];
        e2[i] = c[i] - a[i];
    }
    cs_cross3(x, e1, e2);
    return cs_dot3(x, n);
}

int cs_plane_mesh(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                  double margin, cs_rawcon *out)
{
    (void)opt;
    const cs_hull *h = b->hull;
    double n[3], nl[3], dif[3];
    cs_axis(n, a->mat, 2);
    double d[3] = {-n[0], -n[1], -n[2]};
    cs_mulmtv(nl, b->mat, d); /* local direction into the plane */
    for (int i = 0; i < 3; i++)
        dif[i] = b->pos[i] - a->pos[i];
    double d0 = cs_dot3(dif, n); /* height of the hull origin */
    int i0 = cs_hull_support(h, nl);
    double h0 = -cs_dot3(nl, h->vert + 3 * i0);
    if (d0 + h0 > margin)
        return 0;

    /* breadth-first over the vertices within the margin */
    int seen[PATCH_MAX], in[PATCH_MAX], nseen = 1, nin = 0;
    double dist[PATCH_MAX];
    seen[0] = i0;
    for (int q = 0; q < nseen; q++) {
        int v = seen[q];
        double dv = d0 - cs_dot3(nl, h->vert + 3 * v);
        if (dv > margin)
            continue;
        dist[nin] = dv;
        in[nin++] = v;
        for (int e = h->adjadr[v]; e < h->adjadr[v + 1] && nseen < PATCH_MAX; e++) {
            int w = h->adj[e], dup = 0;
            for (int k = 0; k < nseen && !dup; k++)
                dup = seen[k] == w;
            if (!dup)
                seen[nseen++] = w;
        }
    }

    /* world points */
    double P[PATCH_MAX][3];
    for (int k = 0; k < nin; k++) {
        cs_mulmv(P[k], b->mat, h->vert + 3 * in[k]);
        for (int i = 0; i < 3; i++)
            P[k][i] += b->pos[i];
    }
    int pick[4], np = nin;
    if (nin <= 4) {
        for (int k = 0; k < nin; k++)
            pick[k] = k;
    } else {
        /* the deepest, the farthest from it, the widest triangle, the widest on the
         * other side */
        pick[0] = 0;
        double best = -1;
        for (int k = 1; k < nin; k++) {
            double e[3] = {P[k][0] - P[0][0], P[k][1] - P[0][1], P[k][2] - P[0][2]};
            double l = cs_dot3(e, e) - cs_dot3(e, n) * cs_dot3(e, n);
            if (l > best) {
                best = l;
                pick[1] = k;
            }
        }
        double amax = 0, amin = 0;
        int kmax = -1, kmin = -1;
        for (int k = 1; k < nin; k++) {
            double s = area2(P[0], P[pick[1]], P[k], n);
            if (s > amax) {
                amax = s;
                kmax = k;
            }
            if (s < amin) {
                amin = s;
                kmin = k;
            }
        }
        np = 2;
        if (kmax >= 0)
            pick[np++] = kmax;
        if (kmin >= 0)
            pick[np++] = kmin;
    }
    /* report in hull-vertex order (deterministic, and a box mesh written corner by corner
     * as the box routine walks them gives the box's order) */
    for (int x = 1; x < np; x++) {
        int y = pick[x], z = x;
        while (z > 0 && in[pick[z - 1]] > in[y]) {
            pick[z] = pick[z - 1];
            z--;
        }
        pick[z] = y;
    }
    for (int k = 0; k < np; k++) {
        double p[3];
        int j = pick[k];
        for (int i = 0; i < 3; i++)
            p[i] = P[j][i] - 0.5 * dist[j] * n[i];
        cs_setcon(out + k, n, p, dist[j]);
    }
    return np;
}
