/* Contact points of two polytopes (boxes, mesh hulls) resting face on something: every
 * vertex of one that lies within the margin of the other's face facing the contact normal
 * and over that face. A hull resting on an edge gets both of the edge's ends; the tilted
 * queries of the support-function path miss the farther end once the edge slopes more
 * than their tilt. */
#include <math.h>

#include "internal.h"

#define PATCH_MAX 64 /* vertices examined around the deepest one */

static const double box_dir[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                     {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};

/* local face plane k: unit outward normal n, offset d (n.x <= d inside) */
static void plane(const cs_shape *s, int k, double n[3], double *d)
{
    if (s->type == CS_GEOM_MESH) {
        const double *p = s->hull->plane + 4 * k;
        n[0] = p[0];
        n[1] = p[1];
        n[2] = p[2];
        *d = p[3];
    } else {
        for (int i = 0; i < 3; i++)
            n[i] = box_dir[k][i];
        *d = s->size[k / 2];
    }
}

static void vertex(const cs_shape *s, int i, double w[3])
{
    double x[3];
    if (s->type == CS_GEOM_MESH) {
        const double *v = s->hull->vert + 3 * i;
        x[0] = v[0];
        x[1] = v[1];
        x[2] = v[2];
    } else {
        for (int k = 0; k < 3; k++)
            x[k] = (i >> k) & 1 ? s->size[k] : -s->size[k];
    }
    cs_mulmv(w, s->mat, x);
    for (int k = 0; k < 3; k++)
        w[k] += s->pos[k];
}

/* the vertices of s next to vertex i (a box's corners differ in one coordinate) */
static int neighbours(const cs_shape *s, int i, int out[], int max)
{
    int n = 0;
    if (s->type == CS_GEOM_MESH) {
        for (int e = s->hull->adjadr[i]; e < s->hull->adjadr[i + 1] && n < max; e++)
            out[n++] = s->hull->adj[e];
    } else {
        for (int k = 0; k < 3 && n < max; k++)
            out[n++] = i ^ (1 << k);
    }
    return n;
}

/* the vertex of s furthest along world direction d */
static int support_vertex(const cs_shape *s, const double d[3])
{
    double dl[3];
    cs_mulmtv(dl, s->mat, d);
    if (s->type == CS_GEOM_MESH)
        return cs_hull_support(s->hull, dl);
    return (dl[0] >= 0) | (dl[1] >= 0) << 1 | (dl[2] >= 0) << 2;
}

/* Is xp (local, in face k's plane) over face k of s? A hull's face by its polygon's edges
 * (counter-clockwise from outside: xp is left of each, within eps), a box's by its other
 * five planes. */
static int over_face(const cs_shape *s, int k, const double nf[3], const double xp[3],
                     double eps)
{
    if (s->type == CS_GEOM_MESH) {
        const cs_hull *h = s->hull;
        int a0 = h->faceadr[k], na = h->faceadr[k + 1] - a0;
        for (int i = 0; i < na; i++) {
            const double *a = h->vert + 3 * h->facevert[a0 + i];
            const double *b = h->vert + 3 * h->facevert[a0 + (i + 1) % na];
            double e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            double r[3] = {xp[0] - a[0], xp[1] - a[1], xp[2] - a[2]}, c[3];
            cs_cross3(c, e, r);
            if (cs_dot3(c, nf) < -eps * sqrt(cs_dot3(e, e))) return 0;
        }
        return 1;
    }
    for (int j = 0; j < 6; j++) {
        double n[3], d;
        plane(s, j, n, &d);
        if (j != k && cs_dot3(n, xp) > d + eps) return 0;
    }
    return 1;
}

/* Vertices of inc within the margin of ref's face whose outward normal is nref (world) and
 * over that face, appended to out[*cnt..max) unless within tol of a point already there.
 * sg = +1 when ref is geom1 (the contact normal is the face normal), -1 when geom2. */
static void face_points(const cs_shape *ref, const cs_shape *inc, const double nref[3], int sg,
                        double margin, double tol, cs_rawcon *out, int *cnt, int max)
{
    double nl[3], best = -2, nf[3] = {0, 0, 0}, df = 0;
    int f = -1;
    cs_mulmtv(nl, ref->mat, nref);
    if (ref->type == CS_GEOM_MESH) {
        /* a face whose normal is (nearly) nl has the support vertex along nl as a corner:
         * only that vertex's faces are candidates (hulls have hundreds of faces) */
        const cs_hull *h = ref->hull;
        int v = cs_hull_support(h, nl);
        for (int x = h->vfadr[v]; x < h->vfadr[v + 1]; x++) {
            const double *p = h->plane + 4 * h->vf[x];
            double c = p[0] * nl[0] + p[1] * nl[1] + p[2] * nl[2];
            if (c > best) {
                best = c;
                f = h->vf[x];
            }
        }
    } else {
        for (int k = 0; k < 6; k++) {
            double c = box_dir[k][0] * nl[0] + box_dir[k][1] * nl[1] + box_dir[k][2] * nl[2];
            if (c > best) {
                best = c;
                f = k;
            }
        }
    }
    if (f >= 0) plane(ref, f, nf, &df);
    /* the contact is on a face of ref only if the normal is that face's (edge and vertex
     * contacts have normals between faces) */
    if (f < 0 || best < 1 - 1e-6)
        return;
    double nw[3], scale = 0, mnf[3] = {-nref[0], -nref[1], -nref[2]};
    cs_mulmv(nw, ref->mat, nf);
    for (int i = 0; i < 3; i++)
        scale = fmax(scale, ref->size[i]);
    double eps = 1e-9 * (scale > 0 ? scale : 1);

    int seen[PATCH_MAX], nseen = 1;
    seen[0] = support_vertex(inc, mnf);
    for (int q = 0; q < nseen && *cnt < max; q++) {
        double w[3], rel[3], x[3];
        vertex(inc, seen[q], w);
        for (int i = 0; i < 3; i++)
            rel[i] = w[i] - ref->pos[i];
        cs_mulmtv(x, ref->mat, rel);
        double dist = cs_dot3(nf, x) - df;
        if (dist > margin)
            continue; /* the vertices within the margin are connected: stop here */
        int nb[PATCH_MAX], nn = neighbours(inc, seen[q], nb, PATCH_MAX);
        for (int e = 0; e < nn && nseen < PATCH_MAX; e++) {
            int dup = 0;
            for (int k = 0; k < nseen && !dup; k++)
                dup = seen[k] == nb[e];
            if (!dup)
                seen[nseen++] = nb[e];
        }
        /* over the face: its projection inside every other face plane */
        double xp[3] = {x[0] - dist * nf[0], x[1] - dist * nf[1], x[2] - dist * nf[2]};
        if (!over_face(ref, f, nf, xp, eps))
            continue;
        double p[3], n[3];
        for (int i = 0; i < 3; i++) {
            p[i] = w[i] - 0.5 * dist * nw[i];
            n[i] = sg * nw[i];
        }
        int dup = 0;
        for (int c = 0; c < *cnt && !dup; c++) {
            double e[3] = {out[c].pos[0] - p[0], out[c].pos[1] - p[1], out[c].pos[2] - p[2]};
            dup = cs_dot3(e, e) < tol * tol;
        }
        if (!dup)
            cs_setcon(out + (*cnt)++, n, p, dist);
    }
}

int cs_polytope_face_points(const cs_shape *a, const cs_shape *b, const double n[3],
                            double margin, double tol, cs_rawcon *out, int cnt, int max)
{
    double mn[3] = {-n[0], -n[1], -n[2]};
    face_points(a, b, n, 1, margin, tol, out, &cnt, max);
    face_points(b, a, mn, -1, margin, tol, out, &cnt, max);
    return cnt;
}
