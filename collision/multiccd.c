/* Contact points of two polytopes (boxes, mesh hulls) in contact without margin, as MuJoCo
 * 3.12's native multi-point CCD makes them from EPA's closest face: the features of each
 * side at that face (its distinct support vertices: a face, an edge or a corner) offer
 * their face normals; two faces within FACE_TOL of facing each other are clipped (geom2's
 * polygon against the prism of geom1's face, points above geom1's face dropped, at most 4
 * kept: the convex quadrilateral of largest area); else an edge of the side with the lower
 * feature lying along a face of the other (within EDGE_TOL of square to its normal) is
 * clipped against that face. Depths are measured along the clipping face's normal. */
#include <math.h>
#include <string.h>

#include "gjk.h"
#include "minval.h"

#define FACE_TOL 0.996  /* faces within ~5 degrees of facing */
#define EDGE_TOL 0.0888 /* an edge within ~5 degrees of a face's plane */
#define POLY_MAX 1024   /* vertices of a face or clipped polygon */
#define FEAT_MAX 512    /* faces or edges around one vertex */

/* corners of box face k (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z), clockwise seen from outside */
static const signed char box_face[6][4][3] = {
    {{1, 1, 1}, {1, 1, -1}, {1, -1, -1}, {1, -1, 1}},
    {{-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}, {-1, -1, -1}},
    {{-1, 1, -1}, {1, 1, -1}, {1, 1, 1}, {-1, 1, 1}},
    {{-1, -1, 1}, {1, -1, 1}, {1, -1, -1}, {-1, -1, -1}},
    {{-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1}},
    {{1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}}};

static inline double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void sub3(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}

/* mat l (+ pos) */
static void global(double r[3], const double m[9], const double *pos, double x, double y,
                   double z)
{
    r[0] = m[0] * x + m[1] * y + m[2] * z;
    r[1] = m[3] * x + m[4] * y + m[5] * z;
    r[2] = m[6] * x + m[7] * y + m[8] * z;
    if (pos) {
        r[0] += pos[0];
        r[1] += pos[1];
        r[2] += pos[2];
    }
}

/* --- features of a box ------------------------------------------------------------------ */

/* the box face whose normal is within FACE_TOL of n (world) */
static int box_normals_near(double *res, int *ind, const double m[9], const double n[3])
{
    static const double nrm[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                     {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    double l[3];
    l[0] = m[0] * n[0] + m[3] * n[1] + m[6] * n[2];
    l[1] = m[1] * n[0] + m[4] * n[1] + m[7] * n[2];
    l[2] = m[2] * n[0] + m[5] * n[1] + m[8] * n[2];
    double s = 1 / sqrt(dot3(l, l));
    for (int i = 0; i < 3; i++)
        l[i] = s * l[i];
    for (int i = 0; i < 6; i++)
        if (dot3(l, nrm[i]) > FACE_TOL) {
            global(res, m, NULL, nrm[i][0], nrm[i][1], nrm[i][2]);
            ind[0] = i;
            return 1;
        }
    return 0;
}

/* the faces a box offers for a feature of dim corners vi (3: a face, 2: an edge, 1: a
 * corner); dir is the contact direction out of this box, for corners that span no face */
static int box_normals(double *res, int *ind, int dim, const cs_gjk_obj *o, const int vi[3],
                       const double dir[3])
{
    const double *m = o->mat;
    int v1 = vi[0], v2 = vi[1], v3 = vi[2];
    if (dim == 3) {
        int c = 0;
        int x = ((v1 & 1) && (v2 & 1) && (v3 & 1)) - (!(v1 & 1) && !(v2 & 1) && !(v3 & 1));
        int y = ((v1 & 2) && (v2 & 2) && (v3 & 2)) - (!(v1 & 2) && !(v2 & 2) && !(v3 & 2));
        int z = ((v1 & 4) && (v2 & 4) && (v3 & 4)) - (!(v1 & 4) && !(v2 & 4) && !(v3 & 4));
        global(res, m, NULL, x, y, z);
        if (x)
            ind[c++] = 0;
        if (y)
            ind[c++] = 2;
        if (z)
            ind[c++] = 4;
        if (x + y + z == -1)
            ind[0]++;
        return c == 1 ? 1 : box_normals_near(res, ind, m, dir);
    }
    if (dim == 2) {
        int c = 0;
        int x = ((v1 & 1) && (v2 & 1)) - (!(v1 & 1) && !(v2 & 1));
        int y = ((v1 & 2) && (v2 & 2)) - (!(v1 & 2) && !(v2 & 2));
        int z = ((v1 & 4) && (v2 & 4)) - (!(v1 & 4) && !(v2 & 4));
        if (x) {
            global(res, m, NULL, x, 0, 0);
            ind[c++] = x > 0 ? 0 : 1;
        }
        if (y) {
            global(res + 3 * c, m, NULL, 0, y, 0);
            ind[c++] = y > 0 ? 2 : 3;
        }
        if (z) {
            /* the second slot, as MuJoCo 3.12 writes it (a third is never needed) */
            global(res + 3, m, NULL, 0, 0, z);
            ind[c++] = z > 0 ? 4 : 5;
        }
        return c == 2 ? 2 : box_normals_near(res, ind, m, dir);
    }
    if (dim == 1) {
        double x = (v1 & 1) ? 1 : -1, y = (v1 & 2) ? 1 : -1, z = (v1 & 4) ? 1 : -1;
        global(res, m, NULL, x, 0, 0);
        global(res + 3, m, NULL, 0, y, 0);
        global(res + 6, m, NULL, 0, 0, z);
        ind[0] = x > 0 ? 0 : 1;
        ind[1] = y > 0 ? 2 : 3;
        ind[2] = z > 0 ? 4 : 5;
        return 3;
    }
    return 0;
}

/* unit directions of the edges a box feature offers, and their far ends */
static int box_edges(double *res, double *ends, int dim, const cs_gjk_obj *o, const double v[9],
                     int v1i)
{
    const double *m = o->mat, *p = o->pos, *s = o->size;
    if (dim == 2) {
        memcpy(ends, v + 3, 3 * sizeof *ends);
        sub3(res, v + 3, v);
        cs_gjk_normalize(res);
        return 1;
    }
    if (dim == 1) {
        double x = (v1i & 1) ? s[0] : -s[0], y = (v1i & 2) ? s[1] : -s[1],
               z = (v1i & 4) ? s[2] : -s[2];
        global(ends, m, p, -x, y, z);
        global(ends + 3, m, p, x, -y, z);
        global(ends + 6, m, p, x, y, -z);
        for (int k = 0; k < 3; k++) {
            sub3(res + 3 * k, ends + 3 * k, v);
            cs_gjk_normalize(res + 3 * k);
        }
        return 3;
    }
    return 0;
}

static int box_face_poly(double *res, const cs_gjk_obj *o, int f)
{
    for (int i = 0; i < 4; i++)
        global(res + 3 * i, o->mat, o->pos, box_face[f][i][0] * o->size[0],
               box_face[f][i][1] * o->size[1], box_face[f][i][2] * o->size[2]);
    return 4;
}

/* --- features of a mesh ----------------------------------------------------------------- */

/* up to 2 values common to a[na] and b[nb], in a's order */
static int common(int res[2], const int *a, int na, const int *b, int nb)
{
    int c = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (a[i] == b[j]) {
                res[c++] = a[i];
                if (c == 2)
                    return 2;
            }
    return c;
}

static void mesh_face_normal(double r[3], const cs_gjk_obj *o, int f)
{
    const double *n = o->hull->polynormal + 3 * f;
    global(r, o->mat, NULL, n[0], n[1], n[2]);
}

static int mesh_normals(double *res, int *ind, int dim, const cs_gjk_obj *o, const int vi[3])
{
    const cs_hull *h = o->hull;
    const int *f1 = h->pmap + h->pmapadr[vi[0]];
    int n1 = h->pmapadr[vi[0] + 1] - h->pmapadr[vi[0]];
    if (dim == 1) {
        if (n1 > FEAT_MAX)
            n1 = FEAT_MAX;
        for (int i = 0; i < n1; i++) {
            mesh_face_normal(res + 3 * i, o, f1[i]);
            ind[i] = f1[i];
        }
        return n1;
    }
    const int *f2 = h->pmap + h->pmapadr[vi[1]];
    int n2 = h->pmapadr[vi[1] + 1] - h->pmapadr[vi[1]];
    int edge[2], n = common(edge, f1, n1, f2, n2);
    if (n == 0)
        return 0;
    if (dim == 2) {
        for (int i = 0; i < n; i++) {
            mesh_face_normal(res + 3 * i, o, edge[i]);
            ind[i] = edge[i];
        }
        return n;
    }
    const int *f3 = h->pmap + h->pmapadr[vi[2]];
    int n3 = h->pmapadr[vi[2] + 1] - h->pmapadr[vi[2]], face[2];
    if (!common(face, edge, n, f3, n3))
        return 0;
    mesh_face_normal(res, o, face[0]);
    ind[0] = face[0];
    return 1;
}

static int mesh_edges(double *res, double *ends, int dim, const cs_gjk_obj *o, const double v[9],
                      int v1i)
{
    if (dim == 2) {
        memcpy(ends, v + 3, 3 * sizeof *ends);
        sub3(res, v + 3, v);
        cs_gjk_normalize(res);
        return 1;
    }
    if (dim != 1)
        return 0;
    /* each face at the vertex gives the edge to its predecessor around that face */
    const cs_hull *h = o->hull;
    int a = h->pmapadr[v1i], n = h->pmapadr[v1i + 1] - a;
    if (n > FEAT_MAX)
        n = FEAT_MAX;
    for (int i = 0; i < n; i++) {
        int f = h->pmap[a + i], fa = h->polyadr[f], fn = h->polyadr[f + 1] - fa;
        for (int j = 0; j < fn; j++)
            if (h->polyvert[fa + j] == v1i) {
                const double *x = h->vert + 3 * h->polyvert[fa + (j == 0 ? fn - 1 : j - 1)];
                global(ends + 3 * i, o->mat, o->pos, x[0], x[1], x[2]);
                sub3(res + 3 * i, ends + 3 * i, v);
                cs_gjk_normalize(res + 3 * i);
                break;
            }
    }
    return n;
}

/* the world corners of hull face f, reversed (clockwise seen from outside) */
static int mesh_face_poly(double *res, const cs_gjk_obj *o, int f)
{
    const cs_hull *h = o->hull;
    int a = h->polyadr[f], n = h->polyadr[f + 1] - a;
    if (n > POLY_MAX)
        n = POLY_MAX;
    for (int i = n - 1, j = 0; i >= 0; i--, j++) {
        const double *x = h->vert + 3 * h->polyvert[a + i];
        global(res + 3 * j, o->mat, o->pos, x[0], x[1], x[2]);
    }
    return n;
}

/* --- clipping ----------------------------------------------------------------------------- */

static double area4(const double *a, const double *b, const double *c, const double *d)
{
    double ad[3], db[3], bc[3], ca[3], e[3], f[3];
    sub3(ad, d, a);
    sub3(db, b, d);
    sub3(bc, c, b);
    sub3(ca, a, c);
    cs_cross3(e, ad, db);
    cs_cross3(f, bc, ca);
    for (int i = 0; i < 3; i++)
        e[i] += f[i];
    return 0.5 * sqrt(dot3(e, e));
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

/* witnesses of clipped vertex v: on the clipping face's side moved back along dir by the
 * depth, and v itself; returns the signed depth below the face (point p, normal n) */
static double witness(double w1[3], double w2[3], const double v[3], const double p[3],
                      const double n[3], const double dir[3])
{
    double d[3];
    sub3(d, v, p);
    double dist = dot3(d, n), s = -fabs(dist);
    for (int i = 0; i < 3; i++)
        w1[i] = v[i] + s * dir[i];
    memcpy(w2, v, 3 * sizeof *w2);
    return dist;
}

/* Clip polygon (or edge) poly[np] against the prism of convex face f1[n1] (clockwise from
 * outside, normal n); points above the face dropped. Writes r when points remain. */
static void clip(const double *f1, int n1, const double *poly, int np, const double n[3],
                 const double dir[3], cs_gjk_result *r)
{
    if (n1 < 3)
        return;
    double bufa[3 * POLY_MAX], bufb[3 * POLY_MAX], pn[3 * POLY_MAX], pd[POLY_MAX];
    double *cur = bufa, *nxt = bufb;
    if (n1 > POLY_MAX)
        n1 = POLY_MAX;
    /* each edge's outward side plane, square to the face */
    for (int i = 0; i < n1; i++) {
        const double *a = f1 + 3 * i, *b = f1 + 3 * ((i + 1) % n1);
        double c[3], e1[3], e2[3], *q = pn + 3 * i;
        for (int k = 0; k < 3; k++)
            c[k] = a[k] + n[k];
        sub3(e1, b, a);
        sub3(e2, c, a);
        cs_cross3(q, e1, e2);
        cs_gjk_normalize(q);
        pd[i] = dot3(q, a);
    }
    int m = np < POLY_MAX ? np : POLY_MAX;
    memcpy(cur, poly, (size_t)m * 3 * sizeof *cur);
    for (int e = 0; e < n1; e++) {
        const double *a = f1 + 3 * e, *q = pn + 3 * e;
        int k = 0;
        for (int i = 0; i < m && k < POLY_MAX - 2; i++) {
            const double *P = cur + 3 * i, *Q = i < m - 1 ? cur + 3 * (i + 1) : cur;
            double PQ[3], dp[3], dq[3];
            sub3(PQ, Q, P);
            sub3(dp, P, a);
            sub3(dq, Q, a);
            int in1 = dot3(dp, q) > -CS_MINVAL, in2 = dot3(dq, q) > -CS_MINVAL;
            if (!in1 && !in2)
                continue;
            if (in1 && in2) {
                memcpy(nxt + 3 * k++, Q, 3 * sizeof *Q);
                continue;
            }
            double den = dot3(q, PQ);
            if (den != 0) {
                double t = (pd[e] - dot3(q, P)) / den;
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
    int k = 0;
    for (int i = 0; i < m; i++) {
        double d[3];
        sub3(d, cur + 3 * i, f1);
        if (dot3(d, n) <= 0) {
            if (k != i)
                memcpy(cur + 3 * k, cur + 3 * i, 3 * sizeof *cur);
            k++;
        }
    }
    m = k;
    if (m < 1)
        return;
    if (m > 4) {
        int q[4];
        best_quad(cur, m, q);
        for (int i = 0; i < 4; i++)
            r->dist[i] = witness(r->x1 + 3 * i, r->x2 + 3 * i, cur + 3 * q[i], f1, n, dir);
        r->nx = 4;
        return;
    }
    if (np == 2 && m > 2) { /* an edge: its two farthest points */
        int b1 = 0, b2 = 1;
        double best = 0;
        for (int i = 0; i < m; i++)
            for (int j = i + 1; j < m; j++) {
                double d[3];
                sub3(d, cur + 3 * j, cur + 3 * i);
                if (dot3(d, d) > best) {
                    best = dot3(d, d);
                    b1 = i;
                    b2 = j;
                }
            }
        r->dist[0] = witness(r->x1, r->x2, cur + 3 * b1, f1, n, dir);
        r->dist[1] = witness(r->x1 + 3, r->x2 + 3, cur + 3 * b2, f1, n, dir);
        r->nx = 2;
        return;
    }
    for (int i = 0; i < m; i++)
        r->dist[i] = witness(r->x1 + 3 * i, r->x2 + 3 * i, cur + 3 * i, f1, n, dir);
    r->nx = m;
}

/* distinct vertices of a support feature (1, 2 or 3), moved to the front */
static int feature_dim(int vi[3], double v[9])
{
    if (vi[0] == vi[1]) {
        if (vi[0] == vi[2])
            return 1;
        vi[1] = vi[2];
        memcpy(v + 3, v + 6, 3 * sizeof *v);
        return 2;
    }
    return (vi[2] == vi[0] || vi[2] == vi[1]) ? 2 : 3;
}

static int facing(int res[2], const double *a, int na, const double *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (dot3(a + 3 * i, b + 3 * j) < -FACE_TOL) {
                res[0] = i;
                res[1] = j;
                return 1;
            }
    return 0;
}

static int edge_on_face(int res[2], const double *edge, int ne, const double *face, int nf)
{
    for (int i = 0; i < nf; i++)
        for (int j = 0; j < ne; j++)
            if (fabs(dot3(edge + 3 * j, face + 3 * i)) < EDGE_TOL) {
                res[0] = j;
                res[1] = i;
                return 1;
            }
    return 0;
}

static int normals_of(double *n, int *ind, int dim, const cs_gjk_obj *o, const int vi[3],
                      const double dir[3])
{
    if (o->type == CS_GEOM_BOX)
        return box_normals(n, ind, dim, o, vi, dir);
    return mesh_normals(n, ind, dim, o, vi);
}

static int edges_of(double *n, double *ends, int dim, const cs_gjk_obj *o, const double v[9],
                    int v1i)
{
    if (o->type == CS_GEOM_BOX)
        return box_edges(n, ends, dim, o, v, v1i);
    return mesh_edges(n, ends, dim, o, v, v1i);
}

static int face_of(double *poly, const cs_gjk_obj *o, int f)
{
    if (o->type == CS_GEOM_BOX)
        return box_face_poly(poly, o, f);
    return mesh_face_poly(poly, o, f);
}

void cs_multiccd(const cs_gjk_obj *o1, const cs_gjk_obj *o2, const cs_mvert fv[3],
                 cs_gjk_result *r)
{
    if ((o1->type == CS_GEOM_MESH && !o1->hull->npoly) ||
        (o2->type == CS_GEOM_MESH && !o2->hull->npoly))
        return;
    int v1i[3] = {fv[0].i1, fv[1].i1, fv[2].i1}, v2i[3] = {fv[0].i2, fv[1].i2, fv[2].i2};
    double v1[9], v2[9];
    for (int k = 0; k < 3; k++) {
        memcpy(v1 + 3 * k, fv[k].v1, 3 * sizeof *v1);
        memcpy(v2 + 3 * k, fv[k].v2, 3 * sizeof *v2);
    }
    int nf1 = feature_dim(v1i, v1), nf2 = feature_dim(v2i, v2);
    double dir[3], ndir[3];
    sub3(dir, r->x2, r->x1);
    sub3(ndir, r->x1, r->x2);
    double n1[3 * FEAT_MAX], n2[3 * FEAT_MAX], ends[3 * FEAT_MAX];
    int i1[FEAT_MAX], i2[FEAT_MAX];
    int nn1 = normals_of(n1, i1, nf1, o1, v1i, ndir);
    int nn2 = normals_of(n2, i2, nf2, o2, v2i, dir);

    int res[2], edge1 = 0, edge2 = 0;
    if (!facing(res, n1, nn1, n2, nn2)) {
        if (nf1 < 3 && nf1 <= nf2) { /* an edge of geom1 along a face of geom2 */
            nn1 = edges_of(n1, ends, nf1, o1, v1, v1i[0]);
            if (!edge_on_face(res, n1, nn1, n2, nn2))
                return;
            edge1 = 1;
        } else if (nf2 < 3) { /* an edge of geom2 along a face of geom1 */
            nn2 = edges_of(n2, ends, nf2, o2, v2, v2i[0]);
            if (!edge_on_face(res, n2, nn2, n1, nn1))
                return;
            edge2 = 1;
        } else {
            return;
        }
    }
    int i = res[0], j = res[1];
    double f1[3 * POLY_MAX], f2[3 * POLY_MAX];
    int nface1, nface2;
    if (edge1) {
        memcpy(f1, v1, 3 * sizeof *f1);
        memcpy(f1 + 3, ends + 3 * i, 3 * sizeof *f1);
        nface1 = 2;
    } else {
        nface1 = face_of(f1, o1, edge2 ? i1[j] : i1[i]);
    }
    if (edge2) {
        memcpy(f2, v2, 3 * sizeof *f2);
        memcpy(f2 + 3, ends + 3 * i, 3 * sizeof *f2);
        nface2 = 2;
    } else {
        nface2 = face_of(f2, o2, i2[j]);
    }
    double wdir[3];
    if (edge1) {
        /* geom1's edge clipped against geom2's face: the witnesses swap sides */
        for (int k = 0; k < 3; k++)
            wdir[k] = -n2[3 * j + k];
        clip(f2, nface2, f1, nface1, n2 + 3 * j, wdir, r);
        for (int k = 0; k < r->nx; k++)
            for (int q = 0; q < 3; q++) {
                double t = r->x1[3 * k + q];
                r->x1[3 * k + q] = r->x2[3 * k + q];
                r->x2[3 * k + q] = t;
            }
        return;
    }
    if (edge2) {
        for (int k = 0; k < 3; k++)
            wdir[k] = -n1[3 * j + k];
        clip(f1, nface1, f2, nface2, n1 + 3 * j, wdir, r);
        return;
    }
    memcpy(wdir, n2 + 3 * j, sizeof wdir);
    clip(f1, nface1, f2, nface2, n1 + 3 * i, wdir, r);
}
