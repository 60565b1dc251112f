/* Contact points of two polytopes (boxes, mesh hulls) in contact without margin, as MuJoCo
 * 3.12's native multi-point CCD makes them: from the contact normal, find a face of each
 * that are within mjFACE_TOL of facing each other, and clip geom2's face polygon against
 * the prism of geom1's face (points above geom1's face dropped, at most 4 kept: the convex
 * quadrilateral of largest area); else an edge at the contact lying along a face of the
 * other (within mjEDGE_TOL of perpendicular to its normal), clipped against that face.
 * Depths are measured along the clipping face's normal, points sit midway. */
#include <math.h>
#include <string.h>

#include "minval.h"
#include "internal.h"

#define FACE_TOL 0.996  /* MuJoCo's mjFACE_TOL: faces within ~5 degrees of facing */
#define EDGE_TOL 0.0888 /* mjEDGE_TOL: an edge within ~5 degrees of a face's plane */
#define POLY_MAX 1024   /* vertices of a face or clipped polygon (a 1000-gon face: ~130 KB of stack) */
#define FEAT_MAX 512    /* faces or edges around one vertex (a 500-gon cone's apex has 500) */

/* corners of box face k (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z), clockwise seen from outside
 * (the clipping face's edges then have outward planes on the left) */
static const signed char box_face[6][4][3] = {
    {{1, 1, 1}, {1, 1, -1}, {1, -1, -1}, {1, -1, 1}},
    {{-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}, {-1, -1, -1}},
    {{-1, 1, -1}, {1, 1, -1}, {1, 1, 1}, {-1, 1, 1}},
    {{-1, -1, 1}, {1, -1, 1}, {1, -1, -1}, {-1, -1, -1}},
    {{-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1}},
    {{1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}}};

static void to_world(const cs_shape *s, const double x[3], double w[3])
{
    cs_mulmv(w, s->mat, x);
    for (int k = 0; k < 3; k++)
        w[k] += s->pos[k];
}

static void vertex(const cs_shape *s, int i, double w[3])
{
    double x[3];
    if (s->type == CS_GEOM_MESH) {
        memcpy(x, s->hull->vert + 3 * i, sizeof x);
    } else {
        for (int k = 0; k < 3; k++)
            x[k] = (i >> k) & 1 ? s->size[k] : -s->size[k];
    }
    to_world(s, x, w);
}

/* world outward normal of face f */
static void face_normal(const cs_shape *s, int f, double n[3])
{
    double x[3] = {0, 0, 0};
    if (s->type == CS_GEOM_MESH)
        memcpy(x, s->hull->plane + 4 * f, sizeof x);
    else
        x[f / 2] = f & 1 ? -1 : 1;
    cs_mulmv(n, s->mat, x);
}

/* world corners of face f, clockwise from outside; returns their number */
static int face_poly(const cs_shape *s, int f, double *out, int max)
{
    if (s->type != CS_GEOM_MESH) {
        for (int i = 0; i < 4; i++) {
            double x[3];
            for (int k = 0; k < 3; k++)
                x[k] = box_face[f][i][k] * s->size[k];
            to_world(s, x, out + 3 * i);
        }
        return 4;
    }
    const cs_hull *h = s->hull;
    int a = h->faceadr[f], n = h->faceadr[f + 1] - a;
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) /* the hull's polygons are counter-clockwise: reversed */
        vertex(s, h->facevert[a + n - 1 - i], out + 3 * i);
    return n;
}

/* the vertex of s furthest along world direction d */
static int support_vertex(const cs_shape *s, const double d[3])
{
    double dl[3];
    cs_mulmtv(dl, s->mat, d);
    if (s->type == CS_GEOM_MESH)
        return cs_hull_support_from(s->hull, dl, s->hint ? *s->hint : -1);
    return (dl[0] >= 0) | (dl[1] >= 0) << 1 | (dl[2] >= 0) << 2;
}

/* faces having vertex v as a corner */
static int vertex_faces(const cs_shape *s, int v, int *out)
{
    if (s->type != CS_GEOM_MESH) {
        out[0] = v & 1 ? 0 : 1;
        out[1] = v & 2 ? 2 : 3;
        out[2] = v & 4 ? 4 : 5;
        return 3;
    }
    const cs_hull *h = s->hull;
    int n = 0;
    for (int x = h->vfadr[v]; x < h->vfadr[v + 1] && n < FEAT_MAX; x++)
        out[n++] = h->vf[x];
    return n;
}

/* the other ends of the edges at vertex v (world) */
static int vertex_edges(const cs_shape *s, int v, double *ends)
{
    int n = 0;
    if (s->type != CS_GEOM_MESH) {
        for (int k = 0; k < 3; k++)
            vertex(s, v ^ (1 << k), ends + 3 * n++);
        return n;
    }
    /* each face at v holds one edge ending at v as its predecessor: every edge once */
    const cs_hull *h = s->hull;
    for (int x = h->vfadr[v]; x < h->vfadr[v + 1] && n < FEAT_MAX; x++) {
        int f = h->vf[x], a = h->faceadr[f], m = h->faceadr[f + 1] - a;
        for (int j = 0; j < m; j++)
            if (h->facevert[a + j] == v) {
                vertex(s, h->facevert[a + (j + 1) % m], ends + 3 * n++);
                break;
            }
    }
    return n;
}

static double area4(const double *a, const double *b, const double *c, const double *d)
{
    double ad[3], db[3], bc[3], ca[3], e[3], f[3];
    for (int i = 0; i < 3; i++) {
        ad[i] = d[i] - a[i];
        db[i] = b[i] - d[i];
        bc[i] = c[i] - b[i];
        ca[i] = a[i] - c[i];
    }
    cs_cross3(e, ad, db);
    cs_cross3(f, bc, ca);
    for (int i = 0; i < 3; i++)
        e[i] += f[i];
    return 0.5 * sqrt(cs_dot3(e, e));
}

/* the convex quadrilateral of largest area on a convex polygon's vertices (indices), by
 * advancing the corners around the polygon while the area grows */
static void best_quad(const double *p, int n, int q[4])
{
#define AREA(i, j, k, l) area4(p + 3 * (i), p + 3 * (j), p + 3 * (k), p + 3 * (l))
    int a = 0, b = 1, c = 2, d = 3;
    q[0] = a, q[1] = b, q[2] = c, q[3] = d;
    double m = AREA(a, b, c, d), mn;
    for (; a < n; a++) {
        while ((mn = AREA(a, b, c, (d + 1) % n)) > m) {
            m = mn;
            d = (d + 1) % n;
            q[0] = a, q[1] = b, q[2] = c, q[3] = d;
            while ((mn = AREA(a, b, (c + 1) % n, d)) > m) {
                m = mn;
                c = (c + 1) % n;
                q[0] = a, q[1] = b, q[2] = c, q[3] = d;
            }
            while ((mn = AREA(a, (b + 1) % n, c, d)) > m) {
                m = mn;
                b = (b + 1) % n;
                q[0] = a, q[1] = b, q[2] = c, q[3] = d;
            }
        }
        if (b == a) {
            b = (b + 1) % n;
            if (c == b) {
                c = (c + 1) % n;
                if (d == c)
                    d = (d + 1) % n;
            }
        }
    }
#undef AREA
}

/* one point v of the clipped polygon: its depth below the clipping face (point f0, normal
 * nf), the witness on the other side moved back along dir; the contact normal runs from
 * geom1's witness to geom2's (sg: +1 when v is on geom2, -1 when on geom1) */
static void emit(cs_rawcon *c, const double v[3], const double f0[3], const double nf[3],
                 const double dir[3], int sg)
{
    double d[3] = {v[0] - f0[0], v[1] - f0[1], v[2] - f0[2]};
    double dist = cs_dot3(d, nf), ad = fabs(dist), n[3], p[3];
    double x1[3], x2[3];
    for (int i = 0; i < 3; i++) {
        double w = v[i] - dir[i] * ad; /* on the clipping face's side */
        x1[i] = sg > 0 ? w : v[i];
        x2[i] = sg > 0 ? v[i] : w;
        p[i] = 0.5 * (x1[i] + x2[i]);
        n[i] = x1[i] - x2[i];
    }
    /* MuJoCo's normal is geom1's witness minus geom2's, normalised: (1, 0, 0) when they
     * coincide (touching exactly; such a contact is outside the solver anyway) */
    double l = sqrt(cs_dot3(n, n));
    if (l < CS_MINVAL) {
        n[0] = 1;
        n[1] = n[2] = 0;
    } else {
        for (int i = 0; i < 3; i++)
            n[i] /= l;
    }
    cs_setcon(c, n, p, dist);
}

/* Clip polygon (or edge) poly[np] against the prism of convex face f1[n1] (clockwise from
 * outside, normal nf); points above the face dropped. Writes contacts to out. */
static int clip(const double *f1, int n1, const double *poly, int np, const double nf[3],
                const double dir[3], int sg, cs_rawcon *out)
{
    if (n1 < 3)
        return 0;
    double bufa[3 * POLY_MAX], bufb[3 * POLY_MAX], pn[3 * POLY_MAX], pd[POLY_MAX];
    double *cur = bufa, *nxt = bufb;
    if (n1 > POLY_MAX)
        n1 = POLY_MAX;
    for (int i = 0; i < n1; i++) {
        const double *a = f1 + 3 * i, *b = f1 + 3 * ((i + 1) % n1);
        double e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, *q = pn + 3 * i;
        cs_cross3(q, e, nf);
        double l = sqrt(cs_dot3(q, q));
        if (l > 0)
            for (int k = 0; k < 3; k++)
                q[k] /= l;
        pd[i] = cs_dot3(q, a);
    }
    int m = np < POLY_MAX ? np : POLY_MAX;
    memcpy(cur, poly, (size_t)m * 3 * sizeof *cur);
    for (int e = 0; e < n1; e++) {
        const double *a = f1 + 3 * e, *q = pn + 3 * e;
        int k = 0;
        for (int i = 0; i < m && k < POLY_MAX - 2; i++) {
            const double *P = cur + 3 * i, *Q = cur + 3 * ((i + 1) % m);
            double PQ[3] = {Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]};
            double dp[3] = {P[0] - a[0], P[1] - a[1], P[2] - a[2]};
            double dq[3] = {Q[0] - a[0], Q[1] - a[1], Q[2] - a[2]};
            int in1 = cs_dot3(dp, q) > -CS_MINVAL, in2 = cs_dot3(dq, q) > -CS_MINVAL;
            if (!in1 && !in2)
                continue;
            if (in1 && in2) {
                memcpy(nxt + 3 * k++, Q, 3 * sizeof *Q);
                continue;
            }
            double den = cs_dot3(q, PQ);
            if (den != 0) {
                double t = (pd[e] - cs_dot3(q, P)) / den;
                if (t >= 0 && t <= 1) {
                    for (int j = 0; j < 3; j++)
                        nxt[3 * k + j] = P[j] + t * PQ[j];
                    k++;
                }
            }
            if (in2)
                memcpy(nxt + 3 * k++, Q, 3 * sizeof *Q);
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
        m = k;
    }
    /* drop the points above the clipping face */
    int k = 0;
    for (int i = 0; i < m; i++) {
        double d[3] = {cur[3 * i] - f1[0], cur[3 * i + 1] - f1[1], cur[3 * i + 2] - f1[2]};
        if (cs_dot3(d, nf) <= 0) {
            if (k != i)
                memcpy(cur + 3 * k, cur + 3 * i, 3 * sizeof *cur);
            k++;
        }
    }
    m = k;
    if (m < 1)
        return 0;
    if (m > 4) {
        int q[4];
        best_quad(cur, m, q);
        for (int i = 0; i < 4; i++)
            emit(out + i, cur + 3 * q[i], f1, nf, dir, sg);
        return 4;
    }
    if (np == 2 && m > 2) { /* an edge: its two farthest points */
        int b1 = 0, b2 = 1;
        double best = 0;
        for (int i = 0; i < m; i++)
            for (int j = i + 1; j < m; j++) {
                double d[3] = {cur[3 * j] - cur[3 * i], cur[3 * j + 1] - cur[3 * i + 1],
                               cur[3 * j + 2] - cur[3 * i + 2]};
                if (cs_dot3(d, d) > best) {
                    best = cs_dot3(d, d);
                    b1 = i;
                    b2 = j;
                }
            }
        emit(out, cur + 3 * b1, f1, nf, dir, sg);
        emit(out + 1, cur + 3 * b2, f1, nf, dir, sg);
        return 2;
    }
    for (int i = 0; i < m; i++)
        emit(out + i, cur + 3 * i, f1, nf, dir, sg);
    return m;
}

/* The feature of s touching along world direction d at support vertex v, as the faces it
 * offers for clipping (MuJoCo takes them from the vertices of its final EPA face): a face
 * whose normal is d (returns 3), else an edge at v square to d (its two faces, returns 2),
 * else all the faces at the corner v (returns 1). */
static int feature(const cs_shape *s, int v, const double d[3], int *f, double *fn, int *nf,
                   double end[3])
{
    int all[FEAT_MAX], n = vertex_faces(s, v, all);
    double an[3 * FEAT_MAX];
    for (int i = 0; i < n; i++) {
        face_normal(s, all[i], an + 3 * i);
        if (cs_dot3(an + 3 * i, d) > 1 - 5e-13) {
            f[0] = all[i];
            memcpy(fn, an + 3 * i, 3 * sizeof *fn);
            *nf = 1;
            return 3;
        }
    }
    double ends[3 * FEAT_MAX], v0[3];
    int ne = vertex_edges(s, v, ends);
    vertex(s, v, v0);
    for (int j = 0; j < ne; j++) {
        double e[3] = {ends[3 * j] - v0[0], ends[3 * j + 1] - v0[1], ends[3 * j + 2] - v0[2]};
        if (!(fabs(cs_dot3(e, d)) < 1e-6 * sqrt(cs_dot3(e, e))))
            continue;
        /* the faces at v whose plane holds the edge: the two beside it */
        int k = 0;
        double l = sqrt(cs_dot3(e, e));
        for (int i = 0; i < n; i++)
            if (fabs(cs_dot3(an + 3 * i, e)) < 1e-9 * l) {
                f[k] = all[i];
                memcpy(fn + 3 * k, an + 3 * i, 3 * sizeof *fn);
                k++;
            }
        if (k > 0) {
            *nf = k;
            memcpy(end, ends + 3 * j, 3 * sizeof *end);
            return 2;
        }
    }
    memcpy(f, all, (size_t)n * sizeof *f);
    memcpy(fn, an, (size_t)n * 3 * sizeof *fn);
    *nf = n;
    return 1;
}

int cs_polytope_clip(const cs_shape *a, const cs_shape *b, const double n[3], cs_rawcon *out)
{
    double mn[3] = {-n[0], -n[1], -n[2]};
    int va = support_vertex(a, n), vb = support_vertex(b, mn);
    int fa[FEAT_MAX], fb[FEAT_MAX], nfa, nfb;
    double na[3 * FEAT_MAX], nb[3 * FEAT_MAX];
    double enda[3], endb[3];
    int da = feature(a, va, n, fa, na, &nfa, enda), db = feature(b, vb, mn, fb, nb, &nfb, endb);

    /* two faces facing each other */
    int bi = -1, bj = -1;
    double best = -HUGE_VAL;
    for (int i = 0; i < nfa; i++)
        for (int j = 0; j < nfb; j++) {
            double c = cs_dot3(na + 3 * i, n) - cs_dot3(nb + 3 * j, n);
            if (cs_dot3(na + 3 * i, nb + 3 * j) < -FACE_TOL && c > best) {
                best = c;
                bi = i;
                bj = j;
            }
        }
    double f1[3 * POLY_MAX], f2[3 * POLY_MAX];
    if (bi >= 0) {
        int n1 = face_poly(a, fa[bi], f1, POLY_MAX), n2 = face_poly(b, fb[bj], f2, POLY_MAX);
        return clip(f1, n1, f2, n2, na + 3 * bi, nb + 3 * bj, 1, out);
    }

    /* an edge of the side touching with an edge or corner, along a face of the other */
    const cs_shape *e = NULL;
    int ve = 0, nff = 0, *ff = NULL, sg = 0, de = 0;
    const double *fn = NULL, *end = NULL;
    if (da < 3 && da <= db) {
        e = a, ve = va, ff = fb, nff = nfb, fn = nb, sg = -1, de = da, end = enda;
    } else if (db < 3) {
        e = b, ve = vb, ff = fa, nff = nfa, fn = na, sg = 1, de = db, end = endb;
    } else {
        return 0;
    }
    double ends[3 * FEAT_MAX];
    /* an edge feature offers that edge, a corner all its edges */
    int ne = de == 2 ? 1 : vertex_edges(e, ve, ends);
    if (de == 2)
        memcpy(ends, end, 3 * sizeof *ends);
    double v0[3];
    vertex(e, ve, v0);
    for (int i = 0; i < nff; i++)
        for (int j = 0; j < ne; j++) {
            double d[3] = {ends[3 * j] - v0[0], ends[3 * j + 1] - v0[1], ends[3 * j + 2] - v0[2]};
            double l = sqrt(cs_dot3(d, d));
            if (!(l > 0) || fabs(cs_dot3(d, fn + 3 * i)) >= EDGE_TOL * l)
                continue;
            const cs_shape *fs = sg < 0 ? b : a;
            double edge[6], dir[3];
            memcpy(edge, v0, sizeof v0);
            memcpy(edge + 3, ends + 3 * j, 3 * sizeof *ends);
            int nf = face_poly(fs, ff[i], f1, POLY_MAX);
            for (int k = 0; k < 3; k++)
                dir[k] = -fn[3 * i + k];
            /* the edge's points are on its own side: geom1 when the edge is a's */
            return clip(f1, nf, edge, 2, fn + 3 * i, dir, sg, out);
        }
    return 0;
}
