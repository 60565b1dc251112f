/* GJK and EPA as MuJoCo 3.12's native convex collider computes them (see gjk.h). The
 * distance sub-algorithm is the signed-volume one (Montanari et al. 2017); when only the
 * contact matters GJK hands its tetrahedron to a simplex-walking intersection test; EPA
 * grows a polytope from GJK's simplex with a face map, adjacency and a recursive horizon.
 * Every buffer is on the stack: the polytope holds a bounded number of iterations. */
#include <float.h>
#include <string.h>

#include "gjk.h"
#include "minval.h"

#define MINVAL CS_MINVAL
#define MINVAL2 (CS_MINVAL * CS_MINVAL)
#define MAXVAL2 (1e10 * 1e10)
#define MAXLIMIT DBL_MAX
#define HILLCLIMB_MIN 10 /* fewer mesh points: every vertex searched */

/* the polytope holds this many EPA iterations at most (ccd_iterations above it are capped
 * here only: GJK still runs them) */
#define EPA_ITMAX 128
#define EPA_MAXV (5 + EPA_ITMAX)
#define EPA_MAXF (6 * EPA_ITMAX)

/* --- vector helpers in MuJoCo's rounding order ------------------------------------------ */

static inline void sub3(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}
static inline void add3(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
}
static inline double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double norm3(const double a[3]) { return sqrt(dot3(a, a)); }
static inline void scl3(double r[3], const double a[3], double s)
{
    r[0] = s * a[0], r[1] = s * a[1], r[2] = s * a[2];
}
static inline void cross3(double r[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
           z = a[0] * b[1] - a[1] * b[0];
    r[0] = x, r[1] = y, r[2] = z;
}
static inline double det3(const double a[3], const double b[3], const double c[3])
{
    return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
           a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* res = sum coef[i] v[i] over n (0..4) vectors */
static void lincomb(double r[3], const double *c, int n, const double *v1, const double *v2,
                    const double *v3, const double *v4)
{
    switch (n) {
    case 1:
        for (int i = 0; i < 3; i++)
            r[i] = c[0] * v1[i];
        break;
    case 2:
        for (int i = 0; i < 3; i++)
            r[i] = c[0] * v1[i] + c[1] * v2[i];
        break;
    case 3:
        for (int i = 0; i < 3; i++)
            r[i] = c[0] * v1[i] + c[1] * v2[i] + c[2] * v3[i];
        break;
    case 4:
        for (int i = 0; i < 3; i++)
            r[i] = c[0] * v1[i] + c[1] * v2[i] + c[2] * v3[i] + c[3] * v4[i];
        break;
    default:
        r[0] = r[1] = r[2] = 0;
    }
}

/* --- support functions ------------------------------------------------------------------ */

void cs_gjk_obj_init(cs_gjk_obj *o, const cs_shape *s, double margin)
{
    o->type = s->type;
    o->size = s->size;
    o->hull = s->hull;
    o->prism = s->prism;
    memcpy(o->pos, s->pos, sizeof o->pos);
    memcpy(o->mat, s->mat, sizeof o->mat);
    o->margin = margin;
    o->core = 0;
    o->vindex = -1;
    o->lindex = -1;
}

/* world = mat local + pos */
static inline void to_global(double r[3], const double m[9], const double l[3],
                             const double p[3])
{
    r[0] = m[0] * l[0] + m[1] * l[1] + m[2] * l[2];
    r[1] = m[3] * l[0] + m[4] * l[1] + m[5] * l[2];
    r[2] = m[6] * l[0] + m[7] * l[1] + m[8] * l[2];
    r[0] += p[0];
    r[1] += p[1];
    r[2] += p[2];
}

static inline void to_local(double r[3], const double m[9], const double d[3])
{
    r[0] = m[0] * d[0] + m[3] * d[1] + m[6] * d[2];
    r[1] = m[1] * d[0] + m[4] * d[1] + m[7] * d[2];
    r[2] = m[2] * d[0] + m[5] * d[1] + m[8] * d[2];
}

static int mesh_support(cs_gjk_obj *o, const double ld[3])
{
    const cs_hull *h = o->hull;
    if (h->npoint < HILLCLIMB_MIN) {
        /* every vertex, ties to the cached one, then to the first */
        int imax = 0;
        double max = -FLT_MAX;
        if (o->vindex >= 0) {
            imax = o->vindex;
            max = dot3(ld, h->vert + 3 * imax);
        }
        for (int i = 0; i < h->nvert; i++) {
            double v = dot3(ld, h->vert + 3 * i);
            if (v > max) {
                max = v;
                imax = i;
            }
        }
        return imax;
    }
    /* hill climb on MuJoCo's graph from the better of the cached vertex and the seed of
     * the direction's cell of a 3x3x3 grid */
    int cx = (ld[0] > 0.4) - (ld[0] < -0.4) + 1;
    int cy = (ld[1] > 0.4) - (ld[1] < -0.4) + 1;
    int cz = (ld[2] > 0.4) - (ld[2] < -0.4) + 1;
    int seed = h->extrema[cx * 9 + cy * 3 + cz], imax = seed;
    if (o->lindex >= 0) {
        double cd = dot3(ld, h->vert + 3 * h->mjvert[o->lindex]);
        double sd = dot3(ld, h->vert + 3 * h->mjvert[seed]);
        imax = sd > cd ? seed : o->lindex;
    }
    double max = dot3(ld, h->vert + 3 * h->mjvert[imax]);
    for (int prev = -1; imax != prev;) {
        prev = imax;
        for (int e = h->mjadr[prev]; e < h->mjadr[prev + 1]; e++) {
            int k = h->mjadj[e];
            double v = dot3(ld, h->vert + 3 * h->mjvert[k]);
            if (v > max) {
                max = v;
                imax = k;
            }
        }
    }
    o->lindex = imax;
    return h->mjvert[imax];
}

/* support point of o along unit world direction d (no margin) */
static void shape_support(cs_gjk_obj *o, const double d[3], double r[3])
{
    const double *m = o->mat, *p = o->pos, *s = o->size;
    double ld[3], ls[3];
    if (o->core == 1) {
        memcpy(r, p, 3 * sizeof *r);
        return;
    }
    if (o->core == 2) {
        double dt = m[2] * d[0] + m[5] * d[1] + m[8] * d[2];
        double sc = dt >= 0 ? s[1] : -s[1];
        r[0] = m[2] * sc + p[0];
        r[1] = m[5] * sc + p[1];
        r[2] = m[8] * sc + p[2];
        return;
    }
    switch (o->type) {
    case CS_GEOM_HFIELD: {
        /* the best of the base triangle downwards, of the top one upwards */
        const double *q = o->prism;
        int i0 = d[2] < 0 ? 0 : 3, ib = i0;
        double best = dot3(q + 3 * i0, d);
        for (int i = 1; i < 3; i++) {
            double t = dot3(q + 3 * (i0 + i), d);
            if (t > best) {
                ib = i0 + i;
                best = t;
            }
        }
        memcpy(r, q + 3 * ib, 3 * sizeof *r);
        return;
    }
    case CS_GEOM_SPHERE:
        for (int i = 0; i < 3; i++)
            r[i] = s[0] * d[i] + p[i];
        return;
    case CS_GEOM_CAPSULE:
        to_local(ld, m, d);
        for (int i = 0; i < 3; i++)
            ls[i] = ld[i] * s[0];
        ls[2] += ld[2] >= 0 ? s[1] : -s[1];
        break;
    case CS_GEOM_ELLIPSOID: {
        to_local(ld, m, d);
        for (int i = 0; i < 3; i++)
            ls[i] = ld[i] * s[i];
        double n2 = ls[0] * ls[0] + ls[1] * ls[1] + ls[2] * ls[2];
        if (n2 < MINVAL2) {
            r[0] = m[0] * s[0] + p[0];
            r[1] = m[3] * s[0] + p[1];
            r[2] = m[6] * s[0] + p[2];
            return;
        }
        double inv = 1 / sqrt(n2);
        for (int i = 0; i < 3; i++)
            ls[i] *= inv * s[i];
        break;
    }
    case CS_GEOM_CYLINDER: {
        to_local(ld, m, d);
        double n2 = ld[0] * ld[0] + ld[1] * ld[1];
        double sc = n2 >= MINVAL2 ? s[0] / sqrt(n2) : 0;
        ls[0] = sc * ld[0];
        ls[1] = sc * ld[1];
        ls[2] = ld[2] >= 0 ? s[1] : -s[1];
        break;
    }
    case CS_GEOM_MESH: {
        to_local(ld, m, d);
        int i = mesh_support(o, ld);
        o->vindex = i;
        memcpy(ls, o->hull->vert + 3 * i, sizeof ls);
        break;
    }
    default: /* box */
        to_local(ld, m, d);
        for (int i = 0; i < 3; i++)
            ls[i] = ld[i] >= 0 ? s[i] : -s[i];
        o->vindex = (ls[0] > 0) | (ls[1] > 0) << 1 | (ls[2] > 0) << 2;
        break;
    }
    to_global(r, m, ls, p);
}

void cs_gjk_support(cs_gjk_obj *o, const double d[3], double r[3]) { shape_support(o, d, r); }

/* support of obj1 - obj2 along dir (unit), each grown by half the margin */
static void support(cs_mvert *v, cs_gjk_obj *o1, cs_gjk_obj *o2, const double dir[3],
                    const double ndir[3])
{
    shape_support(o1, dir, v->v1);
    if (o1->margin > 0) {
        double h = 0.5 * o1->margin;
        for (int i = 0; i < 3; i++)
            v->v1[i] += dir[i] * h;
    }
    shape_support(o2, ndir, v->v2);
    if (o2->margin > 0) {
        double h = 0.5 * o2->margin;
        for (int i = 0; i < 3; i++)
            v->v2[i] += ndir[i] * h;
    }
    sub3(v->v, v->v1, v->v2);
    v->i1 = o1->vindex;
    v->i2 = o2->vindex;
}

/* GJK's support towards -x (x of norm xn) */
static void gjk_support(cs_mvert *v, cs_gjk_obj *o1, cs_gjk_obj *o2, const double x[3],
                        double xn)
{
    double dir[3], ndir[3];
    scl3(ndir, x, 1 / xn);
    scl3(dir, ndir, -1);
    support(v, o1, o2, dir, ndir);
}

static inline int is_polytope(int t)
{
    return t == CS_GEOM_MESH || t == CS_GEOM_BOX || t == CS_GEOM_HFIELD;
}

/* both shapes polytopes without margin: GJK and EPA end exactly, no tolerance needed */
static int discrete(const cs_gjk_obj *o1, const cs_gjk_obj *o2)
{
    if (o1->margin != 0 || o2->margin != 0)
        return 0;
    return is_polytope(o1->type) && is_polytope(o2->type);
}

/* --- the signed-volume distance sub-algorithm ------------------------------------------- */

/* projection of the origin on the plane of v1 v2 v3 (1: degenerate triangle) */
static int project_plane(double r[3], const double v1[3], const double v2[3],
                         const double v3[3])
{
    double d21[3], d31[3], d32[3], n[3], nv, nn;
    sub3(d21, v2, v1);
    sub3(d31, v3, v1);
    sub3(d32, v3, v2);
    /* three ways to the normal: the first whose projection is non-zero */
    cross3(n, d32, d21);
    nv = dot3(n, v2);
    nn = dot3(n, n);
    if (nn == 0)
        return 1;
    if (nv != 0 && nn > MINVAL) {
        scl3(r, n, nv / nn);
        return 0;
    }
    cross3(n, d21, d31);
    nv = dot3(n, v1);
    nn = dot3(n, n);
    if (nn == 0)
        return 1;
    if (nv != 0 && nn > MINVAL) {
        scl3(r, n, nv / nn);
        return 0;
    }
    cross3(n, d31, d32);
    nv = dot3(n, v3);
    nn = dot3(n, n);
    scl3(r, n, nv / nn);
    return 0;
}

static void project_line(double r[3], const double v1[3], const double v2[3])
{
    double d[3];
    sub3(d, v2, v1);
    double s = -(dot3(v2, d) / dot3(d, d));
    for (int i = 0; i < 3; i++)
        r[i] = v2[i] + s * d[i];
}

static inline int same_sign(double a, double b)
{
    if (a > 0 && b > 0)
        return 1;
    if (a < 0 && b < 0)
        return -1;
    return 0;
}

static void s1d(double lam[2], const double s1[3], const double s2[3])
{
    double p[3];
    project_line(p, s1, s2);
    /* the axis of the segment's largest extent */
    double mu = s1[0] - s2[0], mumax = mu;
    int k = 0;
    mu = s1[1] - s2[1];
    if (fabs(mu) >= fabs(mumax)) {
        mumax = mu;
        k = 1;
    }
    mu = s1[2] - s2[2];
    if (fabs(mu) >= fabs(mumax)) {
        mumax = mu;
        k = 2;
    }
    double c1 = p[k] - s2[k], c2 = s1[k] - p[k];
    int in = same_sign(mumax, c1) && same_sign(mumax, c2);
    lam[0] = in ? c1 / mumax : 0;
    lam[1] = in ? c2 / mumax : 1;
}

/* signed areas of (p, a, b) in the 2D coordinates x, y */
static inline double area2(const double p[3], const double a[3], const double b[3], int x, int y)
{
    return p[x] * a[y] + p[y] * b[x] + a[x] * b[y] - p[x] * b[y] - p[y] * a[x] - b[x] * a[y];
}

/* the minors of the triangle's homogeneous matrix; picks the projection plane of the
 * largest, returns it */
static double tri_minor(const double s1[3], const double s2[3], const double s3[3], int *x,
                        int *y)
{
    double m14 = s2[1] * s3[2] - s2[2] * s3[1] - s1[1] * s3[2] + s1[2] * s3[1] + s1[1] * s2[2] -
                 s1[2] * s2[1];
    double m24 = s2[0] * s3[2] - s2[2] * s3[0] - s1[0] * s3[2] + s1[2] * s3[0] + s1[0] * s2[2] -
                 s1[2] * s2[0];
    double m34 = s2[0] * s3[1] - s2[1] * s3[0] - s1[0] * s3[1] + s1[1] * s3[0] + s1[0] * s2[1] -
                 s1[1] * s2[0];
    double a1 = fabs(m14), a2 = fabs(m24), a3 = fabs(m34);
    if (a1 >= a2 && a1 >= a3) {
        *x = 1, *y = 2;
        return m14;
    }
    if (a2 >= a3) {
        *x = 0, *y = 2;
        return m24;
    }
    *x = 0, *y = 1;
    return m34;
}

static void s2d(double lam[3], const double s1[3], const double s2[3], const double s3[3])
{
    double p[3];
    if (project_plane(p, s1, s2, s3)) {
        s1d(lam, s1, s2);
        lam[2] = 0;
        return;
    }
    int x, y;
    double mmax = tri_minor(s1, s2, s3, &x, &y);
    double c31 = area2(p, s2, s3, x, y), c32 = area2(p, s3, s1, x, y),
           c33 = area2(p, s1, s2, x, y);
    int k1 = same_sign(mmax, c31), k2 = same_sign(mmax, c32), k3 = same_sign(mmax, c33);
    if (k1 && k2 && k3) {
        lam[0] = c31 / mmax;
        lam[1] = c32 / mmax;
        lam[2] = c33 / mmax;
        return;
    }
    /* the nearest of the edges the origin's projection lies beyond */
    double dmin = MAXLIMIT;
    if (!k1) {
        double l[2], q[3];
        s1d(l, s2, s3);
        lincomb(q, l, 2, s2, s3, NULL, NULL);
        lam[0] = 0, lam[1] = l[0], lam[2] = l[1];
        dmin = dot3(q, q);
    }
    if (!k2) {
        double l[2], q[3];
        s1d(l, s1, s3);
        lincomb(q, l, 2, s1, s3, NULL, NULL);
        double d = dot3(q, q);
        if (d < dmin) {
            lam[0] = l[0], lam[1] = 0, lam[2] = l[1];
            dmin = d;
        }
    }
    if (!k3) {
        double l[2], q[3];
        s1d(l, s1, s2);
        lincomb(q, l, 2, s1, s2, NULL, NULL);
        double d = dot3(q, q);
        if (d < dmin) {
            lam[0] = l[0], lam[1] = l[1], lam[2] = 0;
        }
    }
}

static void s3d(double lam[4], const double s1[3], const double s2[3], const double s3[3],
                const double s4[3])
{
    double c41 = -det3(s2, s3, s4), c42 = det3(s1, s3, s4), c43 = -det3(s1, s2, s4),
           c44 = det3(s1, s2, s3);
    double mdet = c41 + c42 + c43 + c44;
    int k1 = same_sign(mdet, c41), k2 = same_sign(mdet, c42), k3 = same_sign(mdet, c43),
        k4 = same_sign(mdet, c44);
    if (k1 && k2 && k3 && k4) {
        lam[0] = c41 / mdet;
        lam[1] = c42 / mdet;
        lam[2] = c43 / mdet;
        lam[3] = c44 / mdet;
        return;
    }
    double dmin = MAXLIMIT;
    const double *tri[4][3] = {{s2, s3, s4}, {s1, s3, s4}, {s1, s2, s4}, {s1, s2, s3}};
    int out[4] = {!k1, !k2, !k3, !k4};
    for (int f = 0; f < 4; f++) {
        if (!out[f])
            continue;
        double l[3], q[3];
        s2d(l, tri[f][0], tri[f][1], tri[f][2]);
        lincomb(q, l, 3, tri[f][0], tri[f][1], tri[f][2], NULL);
        double d = dot3(q, q);
        /* the first candidate is taken as it is */
        if (d < dmin || dmin == MAXLIMIT) {
            for (int i = 0, j = 0; i < 4; i++)
                lam[i] = i == f ? 0 : l[j++];
            dmin = d;
        }
    }
}

static void subdistance(double lam[4], int n, const cs_mvert s[4])
{
    lam[0] = lam[1] = lam[2] = lam[3] = 0;
    switch (n) {
    case 4:
        s3d(lam, s[0].v, s[1].v, s[2].v, s[3].v);
        break;
    case 3:
        s2d(lam, s[0].v, s[1].v, s[2].v);
        break;
    case 2:
        s1d(lam, s[0].v, s[1].v);
        break;
    default:
        lam[0] = 1;
    }
}

/* --- GJK --------------------------------------------------------------------------------- */

typedef struct {
    int iterations;
    double tolerance, cutoff;
    int separated;
    double dist;
    double x1[3], x2[3];
    cs_mvert simplex[4];
    int nsimplex;
    int k; /* iterations used */
} gjk_state;

/* unit normal and signed distance of the plane through v1 v2 v3 (DBL_MAX: degenerate) */
static double signed_distance(double n[3], const cs_mvert *v1, const cs_mvert *v2,
                              const cs_mvert *v3)
{
    double d1[3], d2[3];
    sub3(d1, v3->v, v1->v);
    sub3(d2, v2->v, v1->v);
    cross3(n, d1, d2);
    double n2 = dot3(n, n);
    if (n2 > MINVAL2 && n2 < MAXVAL2) {
        scl3(n, n, 1 / sqrt(n2));
        return dot3(n, v1->v);
    }
    return MAXLIMIT;
}

/* From GJK's tetrahedron, walk towards the origin: 1 it is inside (the tetrahedron is
 * left in st), 0 it is outside, -1 undecided. */
static int gjk_intersect(gjk_state *st, cs_gjk_obj *o1, cs_gjk_obj *o2)
{
    cs_mvert s[4] = {st->simplex[0], st->simplex[1], st->simplex[2], st->simplex[3]};
    int id[4] = {0, 1, 2, 3};
    int k = st->k;
    for (; k < st->iterations; k++) {
        double d[4], nrm[12];
        d[0] = signed_distance(nrm + 0, s + id[2], s + id[1], s + id[3]);
        d[1] = signed_distance(nrm + 3, s + id[0], s + id[2], s + id[3]);
        d[2] = signed_distance(nrm + 6, s + id[1], s + id[0], s + id[3]);
        d[3] = signed_distance(nrm + 9, s + id[0], s + id[1], s + id[2]);
        if (!d[3] || !d[2] || !d[1] || !d[0]) {
            st->k = k;
            return -1;
        }
        int i = d[0] < d[1] ? 0 : 1, j = d[2] < d[3] ? 2 : 3, f = d[i] < d[j] ? i : j;
        if (d[f] > 0) {
            st->nsimplex = 4;
            for (int q = 0; q < 4; q++)
                st->simplex[q] = s[id[q]];
            st->k = k;
            return 1;
        }
        /* replace the vertex opposite the face nearest the origin */
        double *nf = nrm + 3 * f, nd[3] = {-nf[0], -nf[1], -nf[2]};
        support(s + id[f], o1, o2, nf, nd);
        if (dot3(nf, s[id[f]].v) < 0) {
            st->nsimplex = 0;
            st->k = k;
            return 0;
        }
        /* keep the orientation */
        i = (f + 1) & 3;
        j = (f + 2) & 3;
        int t = id[i];
        id[i] = id[j];
        id[j] = t;
    }
    st->k = k;
    return -1;
}

static void gjk(gjk_state *st, cs_gjk_obj *o1, cs_gjk_obj *o2)
{
    int get_dist = st->cutoff > 0, backup = !get_dist;
    cs_mvert *simplex = st->simplex;
    int n = 0, k = 0;
    double x[3], lam[4] = {0, 0, 0, 0};
    double cutoff2 = st->cutoff * st->cutoff, tol2 = st->tolerance * st->tolerance;
    int disc = discrete(o1, o2);
    double eps = disc ? 0 : 0.5 * tol2, minnorm = disc ? MINVAL : st->tolerance;
    st->separated = 0;
    sub3(x, st->x1, st->x2);
    double xn = norm3(x), xnprev = 0;
    for (; k < st->iterations; k++) {
        if (xn < minnorm || fabs(xnprev - xn) < MINVAL)
            break;
        gjk_support(simplex + n, o1, o2, x, xn);
        const double *sk = simplex[n].v;
        /* Frank-Wolfe duality gap */
        double diff[3];
        sub3(diff, x, sk);
        if (dot3(x, diff) < eps)
            break;
        if (!get_dist) {
            if (dot3(x, sk) > 0) { /* a separating plane */
                st->separated = 1;
                st->k = k;
                st->nsimplex = 0;
                st->dist = MAXLIMIT;
                return;
            }
        } else if (st->cutoff < MAXLIMIT) {
            double vs = dot3(x, sk);
            if (vs > 0 && vs * vs >= cutoff2 * (xn * xn)) {
                st->separated = 1;
                st->k = k;
                st->nsimplex = 0;
                st->dist = MAXLIMIT;
                return;
            }
        }
        if (n == 3 && backup) {
            st->k = k;
            int ret = gjk_intersect(st, o1, o2);
            if (ret != -1) {
                st->separated = ret == 0;
                st->dist = ret > 0 ? 0 : MAXLIMIT;
                st->nsimplex = ret > 0 ? 4 : 0;
                return;
            }
            k = st->k;
            backup = 0;
        }
        subdistance(lam, n + 1, simplex);
        n = 0;
        for (int i = 0; i < 4; i++) {
            if (!lam[i])
                continue;
            simplex[n] = simplex[i];
            lam[n++] = lam[i];
        }
        if (n < 1) { /* not expected */
            st->k = k;
            st->nsimplex = 0;
            st->dist = MAXLIMIT;
            st->separated = 1;
            return;
        }
        lincomb(x, lam, n, simplex[0].v, simplex[1].v, simplex[2].v, simplex[3].v);
        xnprev = xn;
        xn = norm3(x);
        if (n == 4)
            break;
    }
    if (n > 0) {
        lincomb(st->x1, lam, n, simplex[0].v1, simplex[1].v1, simplex[2].v1, simplex[3].v1);
        lincomb(st->x2, lam, n, simplex[0].v2, simplex[1].v2, simplex[2].v2, simplex[3].v2);
    }
    /* stopped early: a last test for a separating plane */
    if (xn > 0) {
        cs_mvert t;
        gjk_support(&t, o1, o2, x, xn);
        if (dot3(x, t.v) > 0)
            st->separated = 1;
    }
    if (n == 4 && !st->separated)
        xn = 0;
    st->k = k;
    st->nsimplex = n;
    st->dist = xn;
}

/* --- EPA --------------------------------------------------------------------------------- */

typedef struct {
    int v[3];   /* vertices */
    int adj[3]; /* neighbour across edge (v0 v1), (v1 v2), (v2 v0) */
    double p[3];  /* the origin's projection on the face (its outward normal) */
    double dist2; /* |p|^2 */
    int index;    /* slot in the map; -1 not in it; -2 deleted */
} epa_face;

typedef struct {
    cs_mvert vert[EPA_MAXV];
    int nvert;
    epa_face face[EPA_MAXF];
    int nface, maxface;
    double center[3];
    int map[EPA_MAXF]; /* faces that can still be the nearest */
    int nmap;
    int hface[EPA_MAXF], hedge[EPA_MAXF]; /* the horizon: face and its edge */
    int nhorizon;
    const double *w;
} polytope;

static int add_vertex(polytope *pt, const cs_mvert *v)
{
    pt->vert[pt->nvert] = *v;
    return pt->nvert++;
}

static int epa_support(polytope *pt, cs_gjk_obj *o1, cs_gjk_obj *o2, const double d[3],
                       double dn)
{
    double dir[3] = {1, 0, 0}, ndir[3] = {-1, 0, 0};
    if (dn > MINVAL) {
        for (int i = 0; i < 3; i++)
            dir[i] = d[i] / dn;
        scl3(ndir, dir, -1);
    }
    int n = pt->nvert++;
    support(pt->vert + n, o1, o2, dir, ndir);
    return n;
}

/* a face of vertices a b c with its neighbours; returns its squared distance (0 when the
 * plane is degenerate) */
static double attach_face(polytope *pt, int a, int b, int c, int n1, int n2, int n3)
{
    epa_face *f = pt->face + pt->nface++;
    f->v[0] = a, f->v[1] = b, f->v[2] = c;
    f->adj[0] = n1, f->adj[1] = n2, f->adj[2] = n3;
    if (project_plane(f->p, pt->vert[c].v, pt->vert[b].v, pt->vert[a].v))
        return 0;
    double out[3];
    sub3(out, pt->vert[a].v, pt->center);
    if (dot3(f->p, out) < 0)
        scl3(f->p, f->p, -1);
    f->dist2 = dot3(f->p, f->p);
    f->index = -1;
    return f->dist2;
}

static void delete_face(polytope *pt, int fi)
{
    epa_face *f = pt->face + fi;
    if (f->index >= 0) {
        pt->map[f->index] = pt->map[--pt->nmap];
        pt->face[pt->map[f->index]].index = f->index;
    }
    f->index = -2;
}

static void map_all(polytope *pt, int n)
{
    for (int i = 0; i < n; i++) {
        pt->map[i] = i;
        pt->face[i].index = i;
    }
    pt->nmap = n;
}

static inline int edge_of(const epa_face *f, int v)
{
    if (f->v[0] == v)
        return 0;
    if (f->v[1] == v)
        return 1;
    return 2;
}

static void add_edge(polytope *pt, int fi, int e)
{
    pt->hface[pt->nhorizon] = fi;
    pt->hedge[pt->nhorizon++] = e;
}

/* delete face fi if w sees it and recurse into its other two neighbours; 1 if deleted */
static int horizon_rec(polytope *pt, int fi, int e)
{
    epa_face *f = pt->face + fi;
    if (!(dot3(f->p, pt->w) - f->dist2 > MINVAL))
        return 0;
    int v[3] = {f->v[0], f->v[1], f->v[2]};
    delete_face(pt, fi);
    for (int k = 1; k < 3; k++) {
        int i = (e + k) % 3, ai = f->adj[i];
        epa_face *af = pt->face + ai;
        if (af->index > -2) {
            int ae = edge_of(af, v[(i + 1) % 3]);
            if (!horizon_rec(pt, ai, ae))
                add_edge(pt, ai, ae);
        }
    }
    return 1;
}

static void horizon(polytope *pt, int fi)
{
    epa_face *f = pt->face + fi;
    delete_face(pt, fi);
    int v[3] = {f->v[0], f->v[1], f->v[2]};
    static const int next[3] = {1, 2, 0};
    for (int i = 0; i < 3; i++) {
        int ai = f->adj[i];
        epa_face *af = pt->face + ai;
        int ae = edge_of(af, v[next[i]]);
        if ((i == 0 || af->index > -2) && !horizon_rec(pt, ai, ae))
            add_edge(pt, ai, ae);
    }
}

/* affine coordinates of p on triangle v1 v2 v3 */
static void tri_coord(double lam[3], const double v1[3], const double v2[3], const double v3[3],
                      const double p[3])
{
    int x, y;
    double mmax = tri_minor(v1, v2, v3, &x, &y);
    lam[0] = area2(p, v2, v3, x, y) / mmax;
    lam[1] = area2(p, v3, v1, x, y) / mmax;
    lam[2] = area2(p, v1, v2, x, y) / mmax;
}

static int tri_point(const double v1[3], const double v2[3], const double v3[3],
                     const double p[3])
{
    double lam[3];
    tri_coord(lam, v1, v2, v3, p);
    if (lam[0] < 0 || lam[1] < 0 || lam[2] < 0)
        return 0;
    double pr[3], d[3];
    for (int i = 0; i < 3; i++)
        pr[i] = v1[i] * lam[0] + v2[i] * lam[1] + v3[i] * lam[2];
    sub3(d, pr, p);
    return norm3(d) < MINVAL;
}

/* the origin and p3 on the same side of the plane p0 p1 p2 */
static int same_side(const double p0[3], const double p1[3], const double p2[3],
                     const double p3[3])
{
    double d1[3], d2[3], d3[3], d4[3], n[3];
    sub3(d1, p1, p0);
    sub3(d2, p2, p0);
    cross3(n, d1, d2);
    sub3(d3, p3, p0);
    double a = dot3(n, d3);
    scl3(d4, p0, -1);
    double b = dot3(n, d4);
    return (a > 0 && b > 0) || (a < 0 && b < 0);
}

static int tetra_holds_origin(const double p0[3], const double p1[3], const double p2[3],
                              const double p3[3])
{
    return same_side(p0, p1, p2, p3) && same_side(p1, p2, p3, p0) &&
           same_side(p2, p3, p0, p1) && same_side(p3, p0, p1, p2);
}

/* rotation by 120 degrees about axis */
static void rot120(double R[9], const double axis[3])
{
    double n = norm3(axis), u1 = axis[0] / n, u2 = axis[1] / n, u3 = axis[2] / n;
    const double s = 0.86602540378, c = -0.5;
    R[0] = c + u1 * u1 * (1 - c);
    R[1] = u1 * u2 * (1 - c) - u3 * s;
    R[2] = u1 * u3 * (1 - c) + u2 * s;
    R[3] = u2 * u1 * (1 - c) + u3 * s;
    R[4] = c + u2 * u2 * (1 - c);
    R[5] = u2 * u3 * (1 - c) - u1 * s;
    R[6] = u1 * u3 * (1 - c) - u2 * s;
    R[7] = u2 * u3 * (1 - c) + u1 * s;
    R[8] = c + u3 * u3 * (1 - c);
}

static int ray_triangle(const double v1[3], const double v2[3], const double v3[3],
                        const double v4[3], const double v5[3])
{
    double d12[3], d13[3], d14[3], d15[3];
    sub3(d12, v2, v1);
    sub3(d13, v3, v1);
    sub3(d14, v4, v1);
    sub3(d15, v5, v1);
    double a = det3(d13, d14, d12), b = det3(d14, d15, d12), c = det3(d15, d13, d12);
    if (a >= 0 && b >= 0 && c >= 0)
        return 1;
    if (a <= 0 && b <= 0 && c <= 0)
        return -1;
    return 0;
}

static int polytope3(polytope *pt, gjk_state *st, cs_gjk_obj *o1, cs_gjk_obj *o2);

static void reset_to_triangle(polytope *pt, gjk_state *st, int a, int b, int c)
{
    st->nsimplex = 3;
    cs_mvert t[3] = {pt->vert[a], pt->vert[b], pt->vert[c]};
    memcpy(st->simplex, t, sizeof t);
    pt->nface = pt->nvert = pt->nmap = 0;
}

/* hexahedron about a segment: three supports 120 degrees apart around it (0: ready) */
static int polytope2(polytope *pt, gjk_state *st, cs_gjk_obj *o1, cs_gjk_obj *o2)
{
    const double *v1 = st->simplex[0].v, *v2 = st->simplex[1].v;
    add3(pt->center, v1, v2);
    scl3(pt->center, pt->center, 0.5);
    double diff[3];
    sub3(diff, v2, v1);
    double value = MAXLIMIT;
    int ix = 0;
    for (int i = 0; i < 3; i++)
        if (fabs(diff[i]) < value) {
            value = fabs(diff[i]);
            ix = i;
        }
    double e[3] = {0, 0, 0}, d1[3], d2[3], d3[3], R[9];
    e[ix] = 1;
    cross3(d1, e, diff);
    rot120(R, diff);
    cs_mulmv(d2, R, d1);
    cs_mulmv(d3, R, d2);
    int a = add_vertex(pt, st->simplex + 0), b = add_vertex(pt, st->simplex + 1);
    int c = epa_support(pt, o1, o2, d1, norm3(d1));
    int d = epa_support(pt, o1, o2, d2, norm3(d2));
    int f = epa_support(pt, o1, o2, d3, norm3(d3));
    static const int fv[6][3] = {{0, 2, 3}, {0, 4, 2}, {0, 3, 4}, {1, 3, 2}, {1, 2, 4}, {1, 4, 3}};
    static const int fa[6][3] = {{1, 3, 2}, {2, 4, 0}, {0, 5, 1}, {5, 0, 4}, {3, 1, 5}, {4, 2, 3}};
    int idx[5] = {a, b, c, d, f};
    for (int q = 0; q < 6; q++) {
        int x = idx[fv[q][0]], y = idx[fv[q][1]], z = idx[fv[q][2]];
        if (attach_face(pt, x, y, z, fa[q][0], fa[q][1], fa[q][2]) < MINVAL2) {
            reset_to_triangle(pt, st, x, y, z);
            return polytope3(pt, st, o1, o2);
        }
    }
    if (!ray_triangle(v1, v2, pt->vert[c].v, pt->vert[d].v, pt->vert[f].v))
        return 1;
    map_all(pt, 6);
    return 0;
}

/* hexahedron about a triangle: the supports along both its normals */
static int polytope3(polytope *pt, gjk_state *st, cs_gjk_obj *o1, cs_gjk_obj *o2)
{
    /* the simplex may be the polytope's own vertices (from polytope2 or 4): copy first */
    cs_mvert s[3] = {st->simplex[0], st->simplex[1], st->simplex[2]};
    const double *v1 = s[0].v, *v2 = s[1].v, *v3 = s[2].v;
    add3(pt->center, v1, v2);
    add3(pt->center, pt->center, v3);
    scl3(pt->center, pt->center, 1.0 / 3.0);
    double d1[3], d2[3], n[3], nn[3];
    sub3(d1, v2, v1);
    sub3(d2, v3, v1);
    cross3(n, d1, d2);
    double nl = norm3(n);
    if (nl < MINVAL)
        return 1;
    scl3(nn, n, -1);
    int a = add_vertex(pt, s + 0), b = add_vertex(pt, s + 1), c = add_vertex(pt, s + 2);
    int e = epa_support(pt, o1, o2, nn, nl);
    int d = epa_support(pt, o1, o2, n, nl);
    const double *v4 = pt->vert[d].v, *v5 = pt->vert[e].v;
    if (tri_point(v1, v2, v3, v4) || tri_point(v1, v2, v3, v5))
        return 1;
    if (st->dist > 10 * MINVAL && !tetra_holds_origin(v1, v2, v3, v4) &&
        !tetra_holds_origin(v1, v2, v3, v5))
        return 1;
    static const int fv[6][3] = {{3, 0, 1}, {3, 2, 0}, {3, 1, 2}, {4, 1, 0}, {4, 0, 2}, {4, 2, 1}};
    static const int fa[6][3] = {{1, 3, 2}, {2, 4, 0}, {0, 5, 1}, {5, 0, 4}, {3, 1, 5}, {4, 2, 3}};
    int idx[5] = {a, b, c, d, e};
    for (int q = 0; q < 6; q++)
        if (attach_face(pt, idx[fv[q][0]], idx[fv[q][1]], idx[fv[q][2]], fa[q][0], fa[q][1],
                        fa[q][2]) < MINVAL2)
            return 1;
    map_all(pt, 6);
    return 0;
}

static int polytope4(polytope *pt, gjk_state *st, cs_gjk_obj *o1, cs_gjk_obj *o2)
{
    int a = add_vertex(pt, st->simplex + 0), b = add_vertex(pt, st->simplex + 1);
    int c = add_vertex(pt, st->simplex + 2), d = add_vertex(pt, st->simplex + 3);
    add3(pt->center, pt->vert[a].v, pt->vert[b].v);
    add3(pt->center, pt->center, pt->vert[c].v);
    add3(pt->center, pt->center, pt->vert[d].v);
    scl3(pt->center, pt->center, 0.25);
    /* the origin on a face: continue from that triangle */
    const int fv[4][3] = {{a, b, c}, {a, d, b}, {a, c, d}, {d, c, b}};
    static const int fa[4][3] = {{1, 3, 2}, {2, 3, 0}, {0, 3, 1}, {2, 0, 1}};
    for (int q = 0; q < 4; q++)
        if (attach_face(pt, fv[q][0], fv[q][1], fv[q][2], fa[q][0], fa[q][1], fa[q][2]) <
            MINVAL2) {
            reset_to_triangle(pt, st, fv[q][0], fv[q][1], fv[q][2]);
            return polytope3(pt, st, o1, o2);
        }
    if (!tetra_holds_origin(pt->vert[a].v, pt->vert[b].v, pt->vert[c].v, pt->vert[d].v))
        return 1;
    map_all(pt, 4);
    return 0;
}

/* the polytope's face nearest the origin, its witnesses in x1, x2 (-1: none) */
static int epa(gjk_state *st, polytope *pt, cs_gjk_obj *o1, cs_gjk_obj *o2, double *dist)
{
    double upper = MAXLIMIT, upper2 = MAXLIMIT, lower2;
    int face = -1, pface;
    int disc = discrete(o1, o2);
    /* polytopes end in finitely many steps: a tiny tolerance only guards the bounds */
    double tol = disc ? MINVAL : st->tolerance;
    int kmax = st->iterations < EPA_ITMAX ? st->iterations : EPA_ITMAX;
    for (int k = 0; k < kmax; k++) {
        pface = face;
        lower2 = MAXLIMIT;
        for (int i = 0; i < pt->nmap; i++)
            if (pt->face[pt->map[i]].dist2 < lower2) {
                face = pt->map[i];
                lower2 = pt->face[face].dist2;
            }
        if (lower2 > upper2 || face < 0) {
            face = pface;
            break;
        }
        if (lower2 <= 0) /* the origin on a face's plane */
            break;
        double lower = sqrt(lower2);
        epa_face *f = pt->face + face;
        int wi = epa_support(pt, o1, o2, f->p, lower);
        const cs_mvert *w = pt->vert + wi;
        double up = dot3(f->p, w->v) / lower;
        if (up < upper) {
            upper = up;
            upper2 = upper * upper;
        }
        if (upper - lower < tol) {
            if (k == 0 && upper < lower - 1e-10) /* no overlap after all */
                face = -1;
            break;
        }
        if (disc) { /* a support point found before: nothing more to gain */
            int i = 0, nv = pt->nvert - 1;
            for (; i < nv; i++)
                if (w->i1 == pt->vert[i].i1 && w->i2 == pt->vert[i].i2)
                    break;
            if (i != nv)
                break;
        }
        pt->w = w->v;
        pt->nhorizon = 0;
        horizon(pt, face);
        if (pt->nhorizon < 3) {
            face = -1;
            break;
        }
        int nf = pt->nface, ne = pt->nhorizon;
        if (ne > pt->maxface - pt->nface || pt->nvert >= EPA_MAXV)
            break; /* out of room: keep the nearest face so far */
        for (int i = 0; i < ne; i++) {
            int cur = nf + i, prev = i == 0 ? nf + ne - 1 : cur - 1, next = nf + (i + 1) % ne;
            int hi = pt->hface[i], he = pt->hedge[i];
            epa_face *hf = pt->face + hi;
            int a = hf->v[he], b = hf->v[(he + 1) % 3];
            hf->adj[he] = cur;
            double d2 = attach_face(pt, wi, b, a, prev, hi, next);
            if (d2 == 0) {
                face = -1;
                break;
            }
            if (d2 >= lower2 && d2 <= upper2) {
                int m = pt->nmap++;
                pt->map[m] = pt->nface - 1;
                pt->face[pt->nface - 1].index = m;
            }
        }
        pt->nhorizon = 0;
        if (!pt->nmap || face < 0)
            break;
    }
    if (face < 0) {
        *dist = 0;
        return -1;
    }
    /* witnesses: the origin's projection in the face's affine coordinates */
    const epa_face *f = pt->face + face;
    const cs_mvert *a = pt->vert + f->v[0], *b = pt->vert + f->v[1], *c = pt->vert + f->v[2];
    double lam[3];
    tri_coord(lam, a->v, b->v, c->v, f->p);
    lincomb(st->x1, lam, 3, a->v1, b->v1, c->v1, NULL);
    lincomb(st->x2, lam, 3, a->v2, b->v2, c->v2, NULL);
    *dist = -sqrt(f->dist2);
    return face;
}

/* move the witnesses of shrunk shapes (a sphere's centre, a capsule's axis) out by the
 * radii */
static void inflate(gjk_state *st, double r1, double r2)
{
    double n[3];
    sub3(n, st->x2, st->x1);
    cs_gjk_normalize(n);
    if (r1)
        for (int i = 0; i < 3; i++)
            st->x1[i] += r1 * n[i];
    if (r2)
        for (int i = 0; i < 3; i++)
            st->x2[i] -= r2 * n[i];
    st->dist -= r1 + r2;
}

/* where GJK starts: the geom's origin, a prism's centroid */
static void centre(double c[3], const cs_gjk_obj *o)
{
    if (o->type != CS_GEOM_HFIELD) {
        memcpy(c, o->pos, 3 * sizeof *c);
        return;
    }
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 3; i++)
            c[i] += o->prism[3 * k + i];
    scl3(c, c, 1.0 / 6.0);
}

double cs_gjk_collide(const cs_gjk_config *cfg, cs_gjk_obj *o1, cs_gjk_obj *o2,
                      cs_gjk_result *r)
{
    gjk_state st;
    st.iterations = cfg->iterations;
    st.tolerance = cfg->tolerance;
    st.cutoff = 0;
    st.k = 0;
    st.nsimplex = 0;
    centre(st.x1, o1);
    centre(st.x2, o2);
    r->nx = 0;

    /* a sphere is its centre and a capsule its axis, grown by the radius: while those
     * cores stay apart, their distance gives the contact exactly */
    int round1 = o1->type == CS_GEOM_SPHERE || o1->type == CS_GEOM_CAPSULE;
    int round2 = o2->type == CS_GEOM_SPHERE || o2->type == CS_GEOM_CAPSULE;
    if (round1 || round2) {
        double m1 = o1->margin, m2 = o2->margin, full1 = 0, full2 = 0;
        if (round1) {
            full1 = o1->size[0] + 0.5 * m1;
            o1->core = o1->type == CS_GEOM_SPHERE ? 1 : 2;
            o1->margin = 0;
        }
        if (round2) {
            full2 = o2->size[0] + 0.5 * m2;
            o2->core = o2->type == CS_GEOM_SPHERE ? 1 : 2;
            o2->margin = 0;
        }
        st.cutoff = full1 + full2;
        gjk(&st, o1, o2);
        st.cutoff = 0;
        o1->margin = m1;
        o2->margin = m2;
        o1->core = o2->core = 0;
        if (st.dist > st.tolerance) {
            inflate(&st, full1, full2);
            if (st.dist > 0)
                return MAXLIMIT;
            r->nx = 1;
            r->dist[0] = st.dist;
            memcpy(r->x1, st.x1, sizeof st.x1);
            memcpy(r->x2, st.x2, sizeof st.x2);
            return st.dist;
        }
        /* the cores overlap: start again on the whole shapes */
        st.k = 0;
        centre(st.x1, o1);
        centre(st.x2, o2);
    }
    gjk(&st, o1, o2);
    if (!(st.dist <= cfg->tolerance && st.nsimplex > 1 && !st.separated))
        return st.dist; /* apart, or touching at a point: no penetration */

    st.dist = 0; /* taken as touching until EPA measures the overlap */
    polytope pt;
    pt.nface = pt.nmap = pt.nvert = pt.nhorizon = 0;
    pt.maxface = 6 * (cfg->iterations < EPA_ITMAX ? cfg->iterations : EPA_ITMAX);
    int ret;
    if (st.nsimplex == 2)
        ret = polytope2(&pt, &st, o1, o2);
    else if (st.nsimplex == 3)
        ret = polytope3(&pt, &st, o1, o2);
    else
        ret = polytope4(&pt, &st, o1, o2);
    if (ret)
        return 0;
    double dist;
    int face = epa(&st, &pt, o1, o2, &dist);
    if (face < 0)
        return 0;
    r->nx = 1;
    r->dist[0] = dist;
    memcpy(r->x1, st.x1, sizeof st.x1);
    memcpy(r->x2, st.x2, sizeof st.x2);
    if (cfg->maxcon > 1) {
        const epa_face *f = pt.face + face;
        cs_mvert fv[3] = {pt.vert[f->v[0]], pt.vert[f->v[1]], pt.vert[f->v[2]]};
        cs_multiccd(o1, o2, fv, r);
    }
    double mind = r->dist[0];
    for (int i = 1; i < r->nx; i++)
        if (r->dist[i] < mind)
            mind = r->dist[i];
    return mind;
}
