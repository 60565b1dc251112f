/* Narrow phase for the pairs without an analytic routine, on support functions.
 * cs_convex_ccd (below) is MuJoCo 3.12's native convex collider: GJK and EPA as it computes
 * them (gjk.c), the points of two polytopes from EPA's closest face (multiccd.c), other
 * pairs' extra points by turning the geoms. The older path kept here serves libccd's MPR
 * (nativeccd disabled), height-field prisms and distance queries: separated shapes by GJK
 * distance, overlapping ones by EPA from GJK's simplex with its normal polished by a local
 * search for the least overlap, or by MPR. */
#include <math.h>
#include <string.h>

#include <ccd/ccd.h>

#include "gjk.h"
#include "internal.h"

typedef struct {
    int type;
    const double *size;
    const cs_hull *hull;
    double pos[3];
    double mat[9];
    double inflate; /* margin / 2 */
    int *hint;
    const double *prism;
} ccd_obj;

static void local_support(int type, const double *s, const cs_hull *h, int *hint,
                          const double *prism, const double d[3], double x[3])
{
    double len;
    switch ((cs_geom_type)type) {
    case CS_GEOM_HFIELD: {
        /* a prism: the best of the top triangle upwards, of the base downwards (the same
         * vertex as the best of all six; ties to the first, as MuJoCo's) */
        int i0 = d[2] < 0 ? 0 : 3, best = i0;
        double bv = cs_dot3(prism + 3 * i0, d);
        for (int i = i0 + 1; i < i0 + 3; i++) {
            double v = cs_dot3(prism + 3 * i, d);
            if (v > bv) {
                bv = v;
                best = i;
            }
        }
        memcpy(x, prism + 3 * best, 3 * sizeof *x);
        break;
    }
    case CS_GEOM_MESH: {
        int i = cs_hull_support_from(h, d, hint ? *hint : -1);
        if (hint) *hint = i;
        const double *v = h->vert + 3 * i;
        x[0] = v[0];
        x[1] = v[1];
        x[2] = v[2];
        break;
    }
    case CS_GEOM_SPHERE:
        len = sqrt(cs_dot3(d, d));
        for (int i = 0; i < 3; i++)
            x[i] = len > 0 ? s[0] * d[i] / len : 0;
        break;
    case CS_GEOM_CAPSULE:
        len = sqrt(cs_dot3(d, d));
        for (int i = 0; i < 3; i++)
            x[i] = len > 0 ? s[0] * d[i] / len : 0;
        x[2] += d[2] >= 0 ? s[1] : -s[1];
        break;
    case CS_GEOM_ELLIPSOID: {
        double sd[3] = {s[0] * d[0], s[1] * d[1], s[2] * d[2]};
        len = sqrt(cs_dot3(sd, sd));
        for (int i = 0; i < 3; i++)
            x[i] = len > 0 ? s[i] * sd[i] / len : 0;
        break;
    }
    case CS_GEOM_CYLINDER: {
        double rho = sqrt(d[0] * d[0] + d[1] * d[1]);
        x[0] = rho > 0 ? s[0] * d[0] / rho : 0;
        x[1] = rho > 0 ? s[0] * d[1] / rho : 0;
        x[2] = d[2] >= 0 ? s[1] : -s[1];
        break;
    }
    case CS_GEOM_BOX:
    case CS_GEOM_PLANE:  /* never a support shape: planes collide by their own pairs */
        for (int i = 0; i < 3; i++)
            x[i] = d[i] >= 0 ? s[i] : -s[i];
        break;
    }
}

void cs_support(const cs_shape *sh, const double d[3], double out[3])
{
    double dl[3], xl[3];
    cs_mulmtv(dl, sh->mat, d);
    local_support(sh->type, sh->size, sh->hull, sh->hint, sh->prism, dl, xl);
    cs_mulmv(out, sh->mat, xl);
    double len = sh->inflate > 0 ? sqrt(cs_dot3(d, d)) : 0;
    for (int i = 0; i < 3; i++)
        out[i] += sh->pos[i] + (len > 0 ? sh->inflate * d[i] / len : 0);
}

static void obj_support(const void *o, const ccd_vec3_t *dir, ccd_vec3_t *v)
{
    const ccd_obj *ob = o;
    double d[3] = {dir->v[0], dir->v[1], dir->v[2]}, dl[3], xl[3], x[3];
    cs_mulmtv(dl, ob->mat, d);
    local_support(ob->type, ob->size, ob->hull, ob->hint, ob->prism, dl, xl);
    cs_mulmv(x, ob->mat, xl);
    double len = sqrt(cs_dot3(d, d));
    for (int i = 0; i < 3; i++)
        v->v[i] = x[i] + ob->pos[i] + (len > 0 ? ob->inflate * d[i] / len : 0);
}

static void obj_center(const void *o, ccd_vec3_t *c)
{
    const ccd_obj *ob = o;
    for (int i = 0; i < 3; i++)
        c->v[i] = ob->pos[i];
    if (ob->type == CS_GEOM_HFIELD) { /* a prism: its centroid, as MuJoCo's */
        double m[3] = {0, 0, 0}, w[3];
        for (int k = 0; k < 6; k++)
            for (int i = 0; i < 3; i++)
                m[i] += ob->prism[3 * k + i] / 6;
        cs_mulmv(w, ob->mat, m);
        for (int i = 0; i < 3; i++)
            c->v[i] += w[i];
    }
}

static void make_obj(ccd_obj *o, const cs_shape *s, double inflate)
{
    o->type = s->type;
    o->size = s->size;
    o->hull = s->hull;
    o->hint = s->hint;
    o->prism = s->prism;
    memcpy(o->pos, s->pos, sizeof o->pos);
    memcpy(o->mat, s->mat, sizeof o->mat);
    o->inflate = inflate + s->inflate;
}

/* --- GJK distance (separated shapes) ---------------------------------------------- */

/* support of D = B - A in direction d, with the two parts */
typedef struct {
    double w[3], a[3], b[3];
} sv;

static void support_d(const cs_shape *A, const cs_shape *B, const double d[3], sv *o)
{
    double nd[3] = {-d[0], -d[1], -d[2]};
    cs_support(B, d, o->b);
    cs_support(A, nd, o->a);
    for (int i = 0; i < 3; i++)
        o->w[i] = o->b[i] - o->a[i];
}

/* Closest point to the origin of the simplex s[0..n): the best of all faces whose
 * affine projection has positive barycentric coordinates (n <= 4: at most 15 subsets).
 * Keeps that face in s, returns its size; lam receives the coordinates. */
static int closest_simplex(sv *s, int n, double lam[4], double v[3])
{
    double best = HUGE_VAL, bl[4] = {0};
    int bmask = 0;
    for (int mask = 1; mask < (1 << n); mask++) {
        int idx[4], m = 0;
        for (int i = 0; i < n; i++)
            if (mask & (1 << i))
                idx[m++] = i;
        /* minimise |p0 + E mu|^2: (E^T E) mu = -E^T p0 */
        const double *p0 = s[idx[0]].w;
        double E[3][3], G[3][3], r[3], mu[3] = {0, 0, 0};
        for (int j = 1; j < m; j++)
            for (int k = 0; k < 3; k++)
                E[j - 1][k] = s[idx[j]].w[k] - p0[k];
        int q = m - 1, ok = 1;
        for (int i = 0; i < q; i++) {
            r[i] = -cs_dot3(E[i], p0);
            for (int j = 0; j < q; j++)
                G[i][j] = cs_dot3(E[i], E[j]);
        }
        if (q == 1) {
            ok = G[0][0] > 1e-300;
            if (ok)
                mu[0] = r[0] / G[0][0];
        } else if (q == 2) {
            double det = G[0][0] * G[1][1] - G[0][1] * G[1][0];
            ok = fabs(det) > 1e-24 * G[0][0] * G[1][1];
            if (ok) {
                mu[0] = (r[0] * G[1][1] - G[0][1] * r[1]) / det;
                mu[1] = (G[0][0] * r[1] - G[1][0] * r[0]) / det;
            }
        } else if (q == 3) {
            double c0[3], det;
            cs_cross3(c0, G[1], G[2]);
            det = cs_dot3(G[0], c0);
            ok = fabs(det) > 1e-30 * G[0][0] * G[1][1] * G[2][2];
            if (ok) {
                /* Cramer's rule (G symmetric) */
                double M[3][3];
                for (int col = 0; col < 3; col++) {
                    memcpy(M, G, sizeof M);
                    for (int row = 0; row < 3; row++)
                        M[row][col] = r[row];
                    double cc[3];
                    cs_cross3(cc, M[1], M[2]);
                    mu[col] = cs_dot3(M[0], cc) / det;
                }
            }
        }
        if (!ok)
            continue;
        double l0 = 1, lm[4];
        for (int j = 0; j < q; j++)
            l0 -= mu[j];
        lm[0] = l0;
        for (int j = 0; j < q; j++)
            lm[j + 1] = mu[j];
        int pos = 1;
        for (int j = 0; j < m; j++)
            if (!(lm[j] > 0))
                pos = 0;
        if (!pos)
            continue;
        double x[3];
        for (int k = 0; k < 3; k++) {
            x[k] = p0[k];
            for (int j = 0; j < q; j++)
                x[k] += mu[j] * E[j][k];
        }
        double d2 = cs_dot3(x, x);
        if (d2 < best) {
            best = d2;
            bmask = mask;
            for (int j = 0; j < m; j++)
                bl[j] = lm[j];
            memcpy(v, x, 3 * sizeof(double));
        }
    }
    if (!bmask)
        return 0; /* numerically nothing valid: leave s as it is */
    int m = 0;
    sv tmp[4];
    for (int i = 0; i < n; i++)
        if (bmask & (1 << i))
            tmp[m++] = s[i];
    memcpy(s, tmp, (size_t)m * sizeof *s);
    memcpy(lam, bl, sizeof bl);
    return m;
}

static int tet_contains_origin(const sv s[4]);

/* Distance between A and B by GJK; 0 when they intersect (or touch within tol).
 * pa, pb: the closest points. Once the distance is known to exceed stop (a support plane
 * separates them by more), *far is set and the lower bound returned, pa and pb unset: a
 * pair beyond the margin needs no exact distance (smooth shapes converge slowly). */
static double gjk_distance(const cs_shape *A, const cs_shape *B, double tol, double stop,
                           double pa[3], double pb[3], sv s[4], int *encl, int *ns, int *far)
{
    *encl = 0;
    *ns = 1;
    *far = 0;
    double v[3], lam[4] = {1, 0, 0, 0};
    for (int i = 0; i < 3; i++)
        v[i] = B->pos[i] - A->pos[i];
    if (cs_dot3(v, v) < 1e-300)
        v[0] = 1;
    support_d(A, B, v, &s[0]);
    memcpy(v, s[0].w, sizeof v);
    int n = 1;
    for (int it = 0; it < 100; it++) {
        double vv = cs_dot3(v, v);
        if (vv < tol * tol)
            return 0;
        double d[3] = {-v[0], -v[1], -v[2]};
        sv w;
        support_d(A, B, d, &w);
        /* |v| - (v.w)/|v| bounds the error of the distance */
        double vw = cs_dot3(v, w.w), nv = sqrt(vv);
        if (vw > stop * nv) {
            *far = 1;
            return vw / nv;
        }
        if (vv - vw <= tol * nv)
            break;
        int dup = 0;
        for (int i = 0; i < n; i++)
            if (s[i].w[0] == w.w[0] && s[i].w[1] == w.w[1] && s[i].w[2] == w.w[2])
                dup = 1;
        if (dup)
            break;
        s[n++] = w;
        int n4 = n;
        *ns = n;
        sv keep[4];
        double vold[3] = {v[0], v[1], v[2]};
        memcpy(keep, s, (size_t)n * sizeof *s);
        n = closest_simplex(s, n, lam, v);
        /* a support beyond the origin (vw < 0) that the simplex cannot take in: a sliver
         * tetrahedron around the origin, lost to rounding (faces touching flat, overlapping
         * by far less than their size). Overlapping: hand EPA the tetrahedron. */
        if (n4 == 4 && n == 3 && vw < 0 && v[0] == vold[0] && v[1] == vold[1] &&
            v[2] == vold[2]) {
            memcpy(s, keep, sizeof keep);
            *ns = 4;
            *encl = tet_contains_origin(s);
            return 0;
        }
        if (n == 0) {
            /* no face projects with positive weights: the origin is inside the
             * tetrahedron (closest_simplex left s untouched only if n4 == 4) */
            *encl = n4 == 4;
            return 0;
        }
        *ns = n;
        if (n == 4) {
            *encl = 1;
            return 0;
        }
    }
    for (int k = 0; k < 3; k++) {
        pa[k] = pb[k] = 0;
        for (int i = 0; i < n; i++) {
            pa[k] += lam[i] * s[i].a[k];
            pb[k] += lam[i] * s[i].b[k];
        }
    }
    double d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
    return sqrt(cs_dot3(d, d));
}


/* --- EPA (overlapping shapes) ------------------------------------------------------ */

#define EPA_MAXV 128
#define EPA_MAXF 256

typedef struct {
    int v[3];
    double n[3], d;
    int alive;
} epa_face;

static int epa_setface(epa_face *f, const sv *V, int a, int b, int c)
{
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = V[b].w[i] - V[a].w[i];
        e2[i] = V[c].w[i] - V[a].w[i];
    }
    cs_cross3(n, e1, e2);
    double l = sqrt(cs_dot3(n, n));
    if (!(l > 1e-300))
        return 0;
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    for (int i = 0; i < 3; i++)
        f->n[i] = n[i] / l;
    f->d = cs_dot3(f->n, V[a].w);
    f->alive = 1;
    return 1;
}

/* Expanding polytope from GJK's tetrahedron around the origin (in D = B - A): the face
 * of D nearest the origin gives the penetration depth, the normal (-face normal, from A
 * to B) and the two deepest points. Fixed buffers, no allocation. 0 on failure. */
static int epa(const cs_shape *A, const cs_shape *B, const sv tet[4], double tol, double n[3],
               double *depth, double pa[3], double pb[3])
{
    sv V[EPA_MAXV];
    epa_face F[EPA_MAXF];
    int nv = 4, nf = 0;
    memcpy(V, tet, 4 * sizeof *V);
    static const int init[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
    for (int k = 0; k < 4; k++) {
        int a = init[k][0], b = init[k][1], c = init[k][2], o = init[k][3];
        if (!epa_setface(&F[nf], V, a, b, c))
            return 0;
        double e[3];
        for (int i = 0; i < 3; i++)
            e[i] = V[o].w[i] - V[a].w[i];
        if (cs_dot3(F[nf].n, e) > 0) /* orient away from the opposite vertex */
            epa_setface(&F[nf], V, a, c, b);
        if (F[nf].d < -tol)
            return 0;
        nf++;
    }
    int best = -1;
    for (int it = 0; it < 100; it++) {
        best = -1;
        for (int k = 0; k < nf; k++)
            if (F[k].alive && (best < 0 || F[k].d < F[best].d))
                best = k;
        if (best < 0)
            return 0;
        sv w;
        support_d(A, B, F[best].n, &w);
        if (cs_dot3(F[best].n, w.w) - F[best].d <= tol || nv == EPA_MAXV)
            break;
        /* the faces w sees, and their unshared edges (the horizon) */
        int vis[EPA_MAXF], nvis = 0, ndead = 0;
        int edges[3 * EPA_MAXF][2], ne = 0;
        for (int k = 0; k < nf; k++) {
            if (!F[k].alive) {
                ndead++;
                continue;
            }
            double d[3];
            for (int i = 0; i < 3; i++)
                d[i] = w.w[i] - V[F[k].v[0]].w[i];
            /* a tolerance keeps faces coplanar with w (flat patches) */
            if (cs_dot3(F[k].n, d) <= 0.5 * tol && k != best)
                continue;
            vis[nvis++] = k;
            for (int e = 0; e < 3; e++) {
                int a = F[k].v[e], b = F[k].v[(e + 1) % 3], found = -1;
                for (int q = 0; q < ne; q++)
                    if (edges[q][0] == b && edges[q][1] == a)
                        found = q;
                if (found >= 0) {
                    ne--;
                    edges[found][0] = edges[ne][0];
                    edges[found][1] = edges[ne][1];
                } else {
                    edges[ne][0] = a;
                    edges[ne][1] = b;
                    ne++;
                }
            }
        }
        if (ne > (EPA_MAXF - nf) + ndead + nvis)
            break; /* out of room: keep the closed polytope we have */
        V[nv] = w;
        for (int q = 0; q < nvis; q++)
            F[vis[q]].alive = 0;
        nv++;
        for (int q = 0; q < ne; q++) {
            int slot = -1;
            for (int k = 0; k < nf; k++)
                if (!F[k].alive) {
                    slot = k;
                    break;
                }
            if (slot < 0)
                slot = nf++;
            if (!epa_setface(&F[slot], V, edges[q][0], edges[q][1], nv - 1))
                return 0; /* degenerate: a hole would follow, let the caller fall back */
        }
    }

    best = -1;
    for (int k = 0; k < nf; k++)
        if (F[k].alive && (best < 0 || F[k].d < F[best].d))
            best = k;
    if (best < 0)
        return 0;
    const epa_face *f = &F[best];
    /* barycentric coordinates of the origin's projection d n on the face */
    double p[3], e0[3], e1[3], e2[3];
    for (int i = 0; i < 3; i++) {
        p[i] = f->d * f->n[i];
        e0[i] = V[f->v[1]].w[i] - V[f->v[0]].w[i];
        e1[i] = V[f->v[2]].w[i] - V[f->v[0]].w[i];
        e2[i] = p[i] - V[f->v[0]].w[i];
    }
    double d00 = cs_dot3(e0, e0), d01 = cs_dot3(e0, e1), d11 = cs_dot3(e1, e1);
    double d20 = cs_dot3(e2, e0), d21 = cs_dot3(e2, e1), den = d00 * d11 - d01 * d01;
    if (!(fabs(den) > 0))
        return 0;
    double l1 = (d11 * d20 - d01 * d21) / den, l2 = (d00 * d21 - d01 * d20) / den;
    double l0 = 1 - l1 - l2;
    for (int i = 0; i < 3; i++) {
        pa[i] = l0 * V[f->v[0]].a[i] + l1 * V[f->v[1]].a[i] + l2 * V[f->v[2]].a[i];
        pb[i] = l0 * V[f->v[0]].b[i] + l1 * V[f->v[1]].b[i] + l2 * V[f->v[2]].b[i];
        n[i] = -f->n[i];
    }
    *depth = f->d;
    return 1;
}

/* overlap along unit n: min over B - A of n.x (negative = penetration along n) */
static double sep_along(const cs_shape *A, const cs_shape *B, const double n[3], double *sa,
                        double *sb)
{
    double nn[3] = {-n[0], -n[1], -n[2]}, a[3], b[3];
    cs_support(A, n, a);
    cs_support(B, nn, b);
    *sa = cs_dot3(n, a);
    *sb = cs_dot3(n, b);
    return *sb - *sa;
}


/* Local polish of a penetration normal: pattern search on the unit sphere for the
 * largest (least negative) overlap sep(n); then p is moved midway between the two support
 * planes along n. Returns the overlap (= signed distance along n). */
static double refine(const cs_shape *A, const cs_shape *B, double n[3], double p[3])
{
    double sa, sb, best = sep_along(A, B, n, &sa, &sb);
    double fr[9] = {n[0], n[1], n[2], 0, 0, 0, 0, 0, 0};
    /* EPA's normal is exact where the contact is a flat face (a kink of sep): then no
     * direction improves even at the finest step; otherwise start at EPA's error,
     * about sqrt(1e-6) */
    double step = 1e-7;
    for (int it = 0; it < 100 && step > 0.9e-7; it++) {
        cs_make_frame(fr);
        int improved = 0;
        for (int k = 0; k < 4 && !improved; k++) {
            const double *t = fr + 3 * (1 + (k >> 1));
            double sg = (k & 1) ? -step : step, m[3];
            for (int i = 0; i < 3; i++)
                m[i] = fr[i] + sg * t[i];
            double ml = sqrt(cs_dot3(m, m));
            for (int i = 0; i < 3; i++)
                m[i] /= ml;
            double a2, b2, sp = sep_along(A, B, m, &a2, &b2);
            if (sp > best) {
                best = sp;
                for (int i = 0; i < 3; i++)
                    fr[i] = m[i];
                fr[3] = fr[4] = fr[5] = 0;
                improved = 1;
            }
        }
        if (it == 0 && improved)
            step = 1e-3;
        else if (!improved)
            step *= 0.5;
    }
    for (int i = 0; i < 3; i++)
        n[i] = fr[i];
    sep_along(A, B, n, &sa, &sb);
    double shift = 0.5 * (sa + sb) - cs_dot3(n, p);
    for (int i = 0; i < 3; i++)
        p[i] += shift * n[i];
    return sb - sa;
}

/* EPA stops when the support gains less than this over the nearest face: the depth is
 * then within it, the normal within about its square root (polished afterwards) */
static double tol_epa_scale(double scale)
{
    return 1e-3 * (scale > 0 ? scale : 1);
}

/* origin strictly inside the tetrahedron s[0..4)? */
static int tet_contains_origin(const sv s[4])
{
    static const int f[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
    for (int k = 0; k < 4; k++) {
        double e1[3], e2[3], nn[3], o[3];
        const double *a = s[f[k][0]].w, *b = s[f[k][1]].w, *c = s[f[k][2]].w, *d = s[f[k][3]].w;
        for (int i = 0; i < 3; i++) {
            e1[i] = b[i] - a[i];
            e2[i] = c[i] - a[i];
            o[i] = d[i] - a[i];
        }
        cs_cross3(nn, e1, e2);
        double side_d = cs_dot3(nn, o), side_0 = -cs_dot3(nn, a);
        /* inside or on the boundary (GJK often ends with the origin on a face or edge);
         * EPA only needs the closed tetrahedron to hold it. A flat one is useless. */
        if (!(fabs(side_d) > 1e-12 * (cs_dot3(nn, nn) > 0 ? sqrt(cs_dot3(nn, nn)) : 1)) ||
            side_d * side_0 < -1e-12 * side_d * side_d)
            return 0;
    }
    return 1;
}

/* GJK stopped on a face, edge or vertex through the origin (touching, or flat patches
 * in contact): grow its simplex into a tetrahedron around the origin for EPA. */
static int blow_up(const cs_shape *A, const cs_shape *B, sv s[4], int n)
{
    static const double ax[6][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    sv best[4];
    for (int tries = 0; n < 4 && tries < 12; tries++) {
        double d[3];
        if (n == 3) {
            double e1[3], e2[3];
            for (int i = 0; i < 3; i++) {
                e1[i] = s[1].w[i] - s[0].w[i];
                e2[i] = s[2].w[i] - s[0].w[i];
            }
            cs_cross3(d, e1, e2);
            /* try both sides: keep the apex that encloses the origin */
            for (int sg = 1; sg >= -1; sg -= 2) {
                double dd[3] = {sg * d[0], sg * d[1], sg * d[2]};
                memcpy(best, s, 3 * sizeof *s);
                support_d(A, B, dd, &best[3]);
                if (tet_contains_origin(best)) {
                    memcpy(s, best, 4 * sizeof *s);
                    return 1;
                }
            }
            return 0;
        }
        if (n == 2) {
            double e[3] = {s[1].w[0] - s[0].w[0], s[1].w[1] - s[0].w[1], s[1].w[2] - s[0].w[2]};
            cs_cross3(d, e, ax[tries % 3]);
        } else {
            memcpy(d, ax[tries % 6], sizeof d);
        }
        if (cs_dot3(d, d) < 1e-300)
            continue;
        sv w;
        support_d(A, B, d, &w);
        int dup = 0;
        for (int i = 0; i < n; i++) {
            double e[3] = {w.w[0] - s[i].w[0], w.w[1] - s[i].w[1], w.w[2] - s[i].w[2]};
            if (cs_dot3(e, e) < 1e-24)
                dup = 1;
        }
        if (n == 2 && !dup) { /* reject a point on the segment's line */
            double e[3], f[3], c[3];
            for (int i = 0; i < 3; i++) {
                e[i] = s[1].w[i] - s[0].w[i];
                f[i] = w.w[i] - s[0].w[i];
            }
            cs_cross3(c, e, f);
            if (cs_dot3(c, c) < 1e-24 * cs_dot3(e, e) * cs_dot3(f, f))
                dup = 1;
        }
        if (!dup)
            s[n++] = w;
    }
    if (n == 4 && tet_contains_origin(s))
        return 1;
    /* the origin deep inside but on a GJK edge or face by symmetry: supports in four
     * tetrahedral directions (a few fixed turns of them) usually enclose it */
    static const double tdir[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    for (int turn = 0; turn < 3; turn++) {
        double c = cos(0.5 * turn), sn = sin(0.5 * turn);
        for (int k = 0; k < 4; k++) {
            double d[3] = {c * tdir[k][0] - sn * tdir[k][1], sn * tdir[k][0] + c * tdir[k][1],
                           tdir[k][2]};
            if (turn == 2) { /* also turn about x */
                double y = d[1], z = d[2];
                d[1] = c * y - sn * z;
                d[2] = sn * y + c * z;
            }
            support_d(A, B, d, &s[k]);
        }
        if (tet_contains_origin(s))
            return 1;
    }
    return 0;
}

static int strictly_convex(int t)
{
    return t == CS_GEOM_SPHERE || t == CS_GEOM_ELLIPSOID;
}

/* A strictly convex shape touches along n at one point, its support point: the contact
 * lies there, moved half the distance towards the other surface. EPA's witness points are
 * blends of support points, inside such a shape and off that point sideways (by about the
 * square root of its tolerance), which would give the contact force a spurious lever arm. */
static void place_on_support(const cs_shape *A, const cs_shape *B, const double n[3],
                             double dist, double p[3])
{
    double x[3];
    if (strictly_convex(B->type)) {
        double nn[3] = {-n[0], -n[1], -n[2]};
        cs_support(B, nn, x);
        for (int i = 0; i < 3; i++)
            p[i] = x[i] - 0.5 * dist * n[i];
    } else if (strictly_convex(A->type)) {
        cs_support(A, n, x);
        for (int i = 0; i < 3; i++)
            p[i] = x[i] + 0.5 * dist * n[i];
    }
}

static int single_contact_raw(const cs_collision_options *opt, const cs_shape *A,
                              const cs_shape *B, double margin, int polish, double n[3],
                              double p[3], double *dist);
static double gjk_distance(const cs_shape *A, const cs_shape *B, double tol, double stop,
                           double pa[3], double pb[3], sv s[4], int *encl, int *ns, int *far);
static double sep_along(const cs_shape *A, const cs_shape *B, const double n[3], double *sa,
                        double *sb);

/* A sphere is its centre grown by its radius, a capsule its segment: while the cores stay
 * apart (penetration less than the radii), GJK's distance between the cores gives the
 * exact normal and depth. EPA on the grown shapes only reaches them to its tolerance, and
 * the polish of its normal stalls where the overlap has a ridge (a sphere on a hull's
 * edge). Returns -1 when the cores touch. */
static int core_contact(const cs_shape *A, const cs_shape *B, double margin, double n[3],
                        double p[3], double *dist)
{
    double ra = 0, rb = 0, sa[3], sb[3];
    cs_shape ca = *A, cb = *B;
    if (A->type == CS_GEOM_SPHERE || A->type == CS_GEOM_CAPSULE) {
        ra = A->size[0];
        memcpy(sa, A->size, sizeof sa);
        sa[0] = 0;
        ca.size = sa;
    }
    if (B->type == CS_GEOM_SPHERE || B->type == CS_GEOM_CAPSULE) {
        rb = B->size[0];
        memcpy(sb, B->size, sizeof sb);
        sb[0] = 0;
        cb.size = sb;
    }
    double scale = 0;
    for (int i = 0; i < 3; i++)
        scale = fmax(scale, fmax(A->size[i], B->size[i]));
    double tol = 1e-10 * (scale > 0 ? scale : 1);
    double pa[3], pb[3];
    sv simplex[4];
    int encl, ns, far;
    double d = gjk_distance(&ca, &cb, tol, margin + ra + rb + tol, pa, pb, simplex, &encl, &ns,
                            &far);
    if (far)
        return 0;
    if (!(d > tol))
        return -1;
    for (int i = 0; i < 3; i++)
        n[i] = (pb[i] - pa[i]) / d;
    /* the distance as the gap between the support planes along n: consistent with n
     * (GJK's |pb - pa| is within its tolerance above it) */
    double sa_, sb_;
    *dist = sep_along(A, B, n, &sa_, &sb_);
    if (*dist > margin)
        return 0;
    for (int i = 0; i < 3; i++)
        p[i] = 0.5 * (pa[i] + ra * n[i] + pb[i] - rb * n[i]);
    double shift = 0.5 * (sa_ + sb_) - cs_dot3(n, p);
    for (int i = 0; i < 3; i++)
        p[i] += shift * n[i];
    return 1;
}

/* One contact between A and B: through the cores of spheres and capsules when they stay
 * apart, else single_contact_raw; the point on the support point of a strictly convex
 * side. */
static int single_contact(const cs_collision_options *opt, const cs_shape *A, const cs_shape *B,
                          double margin, int polish, double n[3], double p[3], double *dist)
{
    int r = -1;
    if (A->type == CS_GEOM_SPHERE || A->type == CS_GEOM_CAPSULE ||
        B->type == CS_GEOM_SPHERE || B->type == CS_GEOM_CAPSULE)
        r = core_contact(A, B, margin, n, p, dist);
    if (r < 0)
        r = single_contact_raw(opt, A, B, margin, polish, n, p, dist);
    if (r)
        place_on_support(A, B, n, *dist, p);
    return r;
}

int cs_ccd_single(const cs_collision_options *opt, const cs_shape *A, const cs_shape *B,
                  double margin, double n[3], double p[3], double *dist)
{
    return single_contact(opt, A, B, margin, 1, n, p, dist);
}

/* One contact between A and B: GJK distance when apart, MPR when overlapping, its normal
 * then refined to the direction of least overlap (MPR's portal normal can be degrees off
 * on curved patches; the refinement makes depth and normal consistent with the supports). */
static int single_contact_raw(const cs_collision_options *opt, const cs_shape *A,
                              const cs_shape *B, double margin, int polish, double n[3],
                              double p[3], double *dist)
{
    double scale = 0;
    for (int i = 0; i < 3; i++)
        scale = fmax(scale, fmax(A->size[i], B->size[i]));
    double tol = 1e-10 * (scale > 0 ? scale : 1);
    double pa[3], pb[3];
    sv simplex[4];
    int encl, ns, far;
    double d = gjk_distance(A, B, tol, margin + tol, pa, pb, simplex, &encl, &ns, &far);
    if (far)
        return 0;
    if (d > tol) {
        if (d > margin)
            return 0;
        for (int i = 0; i < 3; i++) {
            n[i] = (pb[i] - pa[i]) / d;
            p[i] = 0.5 * (pa[i] + pb[i]);
        }
        *dist = d;
        return 1;
    }
    double depth_e;
    if (!encl && !opt->ccd_mpr)
        encl = blow_up(A, B, simplex, ns);
    if (encl && !opt->ccd_mpr && epa(A, B, simplex, 1e-3 * tol_epa_scale(scale), n, &depth_e, pa, pb)) {
        for (int i = 0; i < 3; i++)
            p[i] = 0.5 * (pa[i] + pb[i]);
        /* EPA's face normal on a curved patch is off by ~sqrt(tolerance): polish it
         * (not needed for the tilted queries of multi-point, which only want the rim) */
        *dist = polish ? refine(A, B, n, p) : -depth_e;
        return *dist <= margin;
    }
    /* touching or degenerate simplex: libccd's MPR, then refine its normal */
    ccd_obj o1, o2;
    make_obj(&o1, A, 0);
    make_obj(&o2, B, 0);
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = obj_support;
    ccd.support2 = obj_support;
    ccd.center1 = obj_center;
    ccd.center2 = obj_center;
    ccd.max_iterations = (unsigned long)(opt->ccd_iterations > 0 ? opt->ccd_iterations : 50);
    ccd.mpr_tolerance = opt->ccd_tolerance > 0 ? opt->ccd_tolerance : 1e-6;
    ccd_real_t depth;
    ccd_vec3_t dir, pos;
    if (ccdMPRPenetration(&o1, &o2, &ccd, &depth, &dir, &pos) != 0) {
        /* touching exactly: GJK said 0 but MPR sees no overlap; use GJK's points */
        double e[3] = {B->pos[0] - A->pos[0], B->pos[1] - A->pos[1], B->pos[2] - A->pos[2]};
        double l = sqrt(cs_dot3(e, e));
        if (!(l > 0))
            return 0;
        for (int i = 0; i < 3; i++) {
            n[i] = e[i] / l;
            p[i] = 0.5 * (pa[i] + pb[i]);
        }
        *dist = 0;
        return 0 <= margin;
    }
    double len = sqrt(dir.v[0] * dir.v[0] + dir.v[1] * dir.v[1] + dir.v[2] * dir.v[2]);
    if (!(len > 0))
        return 0;
    for (int i = 0; i < 3; i++) {
        n[i] = dir.v[i] / len;
        p[i] = pos.v[i];
    }
    if (polish) {
        *dist = refine(A, B, n, p);
    } else {
        *dist = -depth;
    }
    return *dist <= margin;
}

/* rotation matrix about unit axis u by angle th, applied on the left: R * m */
static void rotate(double out[9], const double u[3], double th, const double m[9])
{
    double c = cos(th), s = sin(th), C = 1 - c, R[9];
    R[0] = c + u[0] * u[0] * C;
    R[1] = u[0] * u[1] * C - u[2] * s;
    R[2] = u[0] * u[2] * C + u[1] * s;
    R[3] = u[1] * u[0] * C + u[2] * s;
    R[4] = c + u[1] * u[1] * C;
    R[5] = u[1] * u[2] * C - u[0] * s;
    R[6] = u[2] * u[0] * C - u[1] * s;
    R[7] = u[2] * u[1] * C + u[0] * s;
    R[8] = c + u[2] * u[2] * C;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = R[3 * i] * m[j] + R[3 * i + 1] * m[3 + j] + R[3 * i + 2] * m[6 + j];
}

double cs_shape_rbound(const cs_shape *s)
{
    const double *z = s->size;
    switch (s->type) {
    case CS_GEOM_SPHERE:
        return z[0];
    case CS_GEOM_CAPSULE:
        return z[0] + z[1];
    case CS_GEOM_CYLINDER:
        return sqrt(z[0] * z[0] + z[1] * z[1]);
    case CS_GEOM_ELLIPSOID:
        return fmax(z[0], fmax(z[1], z[2]));
    case CS_GEOM_MESH:
        return s->hull->rbound;
    default:
        return sqrt(cs_dot3(z, z));
    }
}

/* rotate a shape's frame by R about point o: mat = R mat, pos = o + R (pos - o) */
static void rotate_about(const double R[9], const double o[3], const cs_shape *s, double mat[9],
                         double pos[3])
{
    double rel[3], rr[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            mat[3 * i + j] = R[3 * i] * s->mat[j] + R[3 * i + 1] * s->mat[3 + j] +
                             R[3 * i + 2] * s->mat[6 + j];
    for (int i = 0; i < 3; i++)
        rel[i] = s->pos[i] - o[i];
    cs_mulmv(rr, R, rel);
    for (int i = 0; i < 3; i++)
        pos[i] = o[i] + rr[i];
}

/* Contacts of convex pairs from GJK distance, EPA polished to the least overlap, or libccd's
 * MPR (nativeccd disabled): one contact when the surfaces are closer than the margin
 * (strictly), and for pairs without a sphere or ellipsoid the contact searched again with
 * geom1 turned by 1e-3 rad about each tangent (both signs) through the first point and
 * geom2 turned back; each new point farther than 1e-3 of the smaller bounding radius from
 * the others is kept, with the first point's depth. Distance queries (which want the exact
 * gap of separated shapes) use it too. */
int cs_convex_distance(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                       double margin, cs_rawcon *out)
{
    double n[3], p[3], dist;
    if (!single_contact(opt, a, b, margin, 1, n, p, &dist) || !(dist < margin))
        return 0;
    cs_setcon(out, n, p, dist);
    if (!opt->multiccd)
        return 1;
    if (a->type == CS_GEOM_SPHERE || a->type == CS_GEOM_ELLIPSOID ||
        b->type == CS_GEOM_SPHERE || b->type == CS_GEOM_ELLIPSOID)
        return 1;

    const double angle = 1e-3;
    const double tol = 1e-3 * fmin(cs_shape_rbound(a), cs_shape_rbound(b));
    double fr[9] = {n[0], n[1], n[2], 0, 0, 0, 0, 0, 0};
    cs_make_frame(fr);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    int cnt = 1;
    for (int k = 0; k < 4; k++) {
        const double *u = fr + 3 * (1 + (k >> 1));
        double th = (k & 1) ? angle : -angle;
        double R[9], Rt[9], ma[9], pa[3], mb[9], pb[3];
        rotate(R, u, th, I);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                Rt[3 * i + j] = R[3 * j + i];
        rotate_about(R, out[0].pos, a, ma, pa);
        rotate_about(Rt, out[0].pos, b, mb, pb);
        cs_shape ar = {a->type, a->size, pa, ma, a->hull, a->hint, a->prism, a->inflate};
        cs_shape br = {b->type, b->size, pb, mb, b->hull, b->hint, b->prism, b->inflate};
        double nk[3], pk[3], dk;
        if (!single_contact(opt, &ar, &br, margin, 1, nk, pk, &dk) || !(dk < margin))
            continue;
        int dup = 0;
        for (int c = 0; c < cnt && !dup; c++) {
            double e[3] = {out[c].pos[0] - pk[0], out[c].pos[1] - pk[1], out[c].pos[2] - pk[2]};
            dup = sqrt(cs_dot3(e, e)) <= tol;
        }
        if (!dup)
            cs_setcon(out + cnt++, nk, pk, out[0].dist);
    }
    return cnt;
}

/* --- MuJoCo 3.12's native convex collision ------------------------------------------------ */

/* contacts from one native query of o1 and o2 (MuJoCo's point midway between the witnesses,
 * normal from geom2's witness to geom1's: the overlap's direction) */
static int native_contacts(const cs_collision_options *opt, cs_gjk_obj *o1, cs_gjk_obj *o2,
                           double margin, int maxcon, cs_rawcon *out)
{
    cs_gjk_config cfg = {opt->ccd_iterations, opt->ccd_tolerance, maxcon};
    cs_gjk_result r;
    if (!(cs_gjk_collide(&cfg, o1, o2, &r) < 0))
        return 0;
    for (int i = 0; i < r.nx; i++) {
        double n[3], p[3];
        for (int k = 0; k < 3; k++) {
            p[k] = (r.x1[3 * i + k] + r.x2[3 * i + k]) * 0.5;
            n[k] = r.x1[3 * i + k] - r.x2[3 * i + k];
        }
        cs_gjk_normalize(n);
        cs_setcon(out + i, n, p, margin + r.dist[i]);
    }
    return r.nx;
}

/* a contact frame completed from its normal f[0..2], in MuJoCo's rounding */
static void frame_from_normal(double f[9])
{
    cs_gjk_normalize(f);
    f[3] = f[5] = 0;
    f[4] = 1;
    if (!(f[1] < 0.5 && f[1] > -0.5)) {
        f[4] = 0;
        f[5] = 1;
    }
    double d = f[0] * f[3] + f[1] * f[4] + f[2] * f[5];
    for (int i = 0; i < 3; i++)
        f[3 + i] -= f[i] * d;
    cs_gjk_normalize(f + 3);
    cs_cross3(f + 6, f, f + 3);
}

/* rotation by angle about unit axis u, through its quaternion as MuJoCo computes it */
static void axis_angle_mat(double R[9], const double u[3], double angle)
{
    double s = sin(angle * 0.5), q[4] = {cos(angle * 0.5), u[0] * s, u[1] * s, u[2] * s};
    double q00 = q[0] * q[0], q01 = q[0] * q[1], q02 = q[0] * q[2], q03 = q[0] * q[3];
    double q11 = q[1] * q[1], q12 = q[1] * q[2], q13 = q[1] * q[3];
    double q22 = q[2] * q[2], q23 = q[2] * q[3], q33 = q[3] * q[3];
    R[0] = q00 + q11 - q22 - q33;
    R[4] = q00 - q11 + q22 - q33;
    R[8] = q00 - q11 - q22 + q33;
    R[1] = 2 * (q12 - q03);
    R[2] = 2 * (q13 + q02);
    R[3] = 2 * (q12 + q03);
    R[5] = 2 * (q23 - q01);
    R[6] = 2 * (q13 - q02);
    R[7] = 2 * (q23 + q01);
}

/* turn o's frame by R about point c */
static void turn_about(cs_gjk_obj *o, const double R[9], const double c[3])
{
    double m[9], rel[3], v[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[3 * i + j] = R[3 * i] * o->mat[j] + R[3 * i + 1] * o->mat[3 + j] +
                           R[3 * i + 2] * o->mat[6 + j];
    memcpy(o->mat, m, sizeof m);
    for (int i = 0; i < 3; i++)
        rel[i] = c[i] - o->pos[i];
    cs_mulmv(v, R, rel);
    for (int i = 0; i < 3; i++)
        v[i] -= rel[i];
    for (int i = 0; i < 3; i++)
        o->pos[i] -= v[i];
}

/* MuJoCo 3.12's contacts for convex pairs (native CCD, its default):
 * - one contact by GJK and EPA when the surfaces, each grown by half the margin, overlap
 *   (strictly: touching exactly is no contact);
 * - boxes and meshes without margin: the faces (or an edge and a face) at EPA's closest
 *   face, clipped against each other, at most 4 points (multiccd.c);
 * - other pairs without a sphere or ellipsoid (and boxes and meshes with a margin): the
 *   contact searched again with geom1 turned by 1e-3 rad about each tangent (both signs)
 *   through the first point and geom2 turned back; each new point farther than 1e-3 of
 *   the smaller bounding radius from the others is kept, with the first point's depth.
 * nativeccd disabled: libccd's MPR in its place (cs_convex_distance). */
int cs_convex_ccd(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                  double margin, cs_rawcon *out)
{
    if (opt->ccd_mpr)
        return cs_convex_distance(opt, a, b, margin, out);
    cs_gjk_obj o1, o2;
    cs_gjk_obj_init(&o1, a, margin);
    cs_gjk_obj_init(&o2, b, margin);
    int poly = (a->type == CS_GEOM_BOX || a->type == CS_GEOM_MESH) &&
               (b->type == CS_GEOM_BOX || b->type == CS_GEOM_MESH);
    int maxcon = margin > 0 ? 1 : poly && opt->multiccd ? 4 : 1;
    int ncon = native_contacts(opt, &o1, &o2, margin, maxcon, out);
    if (maxcon > 1 || ncon != 1 || !opt->multiccd || a->type == CS_GEOM_SPHERE ||
        a->type == CS_GEOM_ELLIPSOID || b->type == CS_GEOM_SPHERE ||
        b->type == CS_GEOM_ELLIPSOID)
        return ncon;

    const double angle = 1e-3;
    const double tol = 1e-3 * fmin(cs_shape_rbound(a), cs_shape_rbound(b));
    double fr[9] = {out[0].frame[0], out[0].frame[1], out[0].frame[2]};
    frame_from_normal(fr);
    double c[3];
    memcpy(c, out[0].pos, sizeof c);
    for (int ax = 0; ax < 2; ax++)
        for (int sg = 0; sg < 2; sg++) {
            double R[9], Rt[9];
            axis_angle_mat(R, fr + 3 + 3 * ax, sg ? angle : -angle);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    Rt[3 * i + j] = R[3 * j + i];
            turn_about(&o1, R, c);
            turn_about(&o2, Rt, c);
            /* the supports' caches carry over, as they do in MuJoCo */
            int n = native_contacts(opt, &o1, &o2, margin, 1, out + ncon);
            if (n) {
                int distinct = 1;
                for (int k = 0; k < ncon && distinct; k++) {
                    double e[3] = {out[k].pos[0] - out[ncon].pos[0],
                                   out[k].pos[1] - out[ncon].pos[1],
                                   out[k].pos[2] - out[ncon].pos[2]};
                    distinct = !(sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) <= tol);
                }
                if (distinct) {
                    out[ncon].dist = out[0].dist;
                    ncon++;
                }
            }
            memcpy(o1.pos, a->pos, sizeof o1.pos);
            memcpy(o1.mat, a->mat, sizeof o1.mat);
            memcpy(o2.pos, b->pos, sizeof o2.pos);
            memcpy(o2.mat, b->mat, sizeof o2.mat);
        }
    return ncon;
}
