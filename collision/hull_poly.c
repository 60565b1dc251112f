/* MuJoCo 3.12's mesh polygons (mjCMesh::MakePolygons), which its multi-point convex contacts
 * clip: the hull's triangles grouped by their normal's direction rounded to 0.01 rad in
 * azimuth and polar angle (so nearly coplanar triangles of a curved mesh join one polygon),
 * each group's connected pieces traced into paths, a polygon's normal made from its first
 * three corners. */
#include "alloc.h"
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <string.h>

#include "hull_poly.h"

#define ANGLE_TOL 0.01
/* rounded angles: theta in [-315, 315], phi in [0, 315] */
#define NTHETA 631
#define THETA0 315
#define NPHI 316

typedef struct {
    int *ea, *eb, *isl; /* boundary edges (a -> b) and the piece each belongs to */
    int n, cap, npiece;
} group;

static int push_edge(group *g, int a, int b, int piece)
{
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 8;
        int *ea = cs_realloc(g->ea, (size_t)cap * sizeof *ea);
        if (!ea) return -1;
        g->ea = ea;
        int *eb = cs_realloc(g->eb, (size_t)cap * sizeof *eb);
        if (!eb) return -1;
        g->eb = eb;
        int *isl = cs_realloc(g->isl, (size_t)cap * sizeof *isl);
        if (!isl) return -1;
        g->isl = isl;
        g->cap = cap;
    }
    g->ea[g->n] = a;
    g->eb[g->n] = b;
    g->isl[g->n++] = piece;
    return 0;
}

static void erase_edge(group *g, int i)
{
    size_t k = (size_t)(g->n - i - 1);
    memmove(g->ea + i, g->ea + i + 1, k * sizeof *g->ea);
    memmove(g->eb + i, g->eb + i + 1, k * sizeof *g->eb);
    memmove(g->isl + i, g->isl + i + 1, k * sizeof *g->isl);
    g->n--;
}

/* the edge b -> a of edge a -> b, if present: its piece (joined with *piece), removed */
static int take_reverse(group *g, int a, int b, int *piece)
{
    for (int i = 0; i < g->n; i++) {
        if (g->ea[i] != b || g->eb[i] != a) continue;
        int p2 = g->isl[i];
        if (*piece < 0) {
            *piece = p2;
        } else if (p2 != *piece) { /* two pieces join: the smaller number stays */
            g->npiece--;
            int lo = *piece < p2 ? *piece : p2, hi = *piece < p2 ? p2 : *piece;
            for (int k = 0; k < g->n; k++)
                g->isl[k] = g->isl[k] == hi ? lo : g->isl[k] > hi ? g->isl[k] - 1 : g->isl[k];
            *piece = lo;
        }
        erase_edge(g, i);
        return 1;
    }
    return 0;
}

static int insert_face(group *g, const int t[3])
{
    int piece = -1, add[3];
    for (int e = 0; e < 3; e++) add[e] = !take_reverse(g, t[e], t[(e + 1) % 3], &piece);
    if (piece < 0) piece = g->npiece++;
    for (int e = 0; e < 3; e++)
        if (add[e] && push_edge(g, t[e], t[(e + 1) % 3], piece)) return -1;
    return 0;
}

/* the rounded normal angles of triangle (a, b, c); 0 for a degenerate one */
static int polygon_key(const double *a, const double *b, const double *c, int key[2])
{
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l < 1e-15) return 0;
    /* + 0.0: a negative zero would turn atan2 by a half turn */
    for (int k = 0; k < 3; k++) n[k] = n[k] / l + 0.0;
    if (fabs(n[2]) > 1.0 - 1e-7) {
        key[0] = 0;
        key[1] = n[2] < 0 ? (int)round(M_PI / ANGLE_TOL) : 0;
        return 1;
    }
    key[0] = (int)round(atan2(n[1], n[0]) / ANGLE_TOL);
    key[1] = (int)round(acos(n[2]) / ANGLE_TOL);
    return 1;
}

/* the paths of g's pieces, as MuJoCo traces them, appended to out (-1 ends each path) */
static int trace(const group *g, int *out, int n)
{
    if (g->n == 3) {
        for (int e = 0; e < 3; e++) out[n++] = g->ea[e];
        out[n++] = -1;
        return n;
    }
    for (int p = 0; p < g->npiece; p++) {
        int start = n, j = 0;
        while (j < g->n && g->isl[j] != p) j++;
        if (j == g->n) continue;
        out[n++] = g->ea[j];
        out[n++] = g->eb[j];
        int next = g->eb[j], closed = 0;
        for (int l = 0; l < g->n && !closed; l++) {
            for (int k = 1; k < g->n; k++) { /* from 1, as MuJoCo's loop */
                if (g->isl[k] != p || g->ea[k] != next) continue;
                next = g->eb[k];
                if (next == out[start]) closed = 1;
                else out[n++] = next;
                break;
            }
        }
        if (closed && n - start >= 3) out[n++] = -1;
        else n = start; /* an open or short trace makes no polygon */
    }
    return n;
}

int cs_hull_polygons(const int *tri, int ntri, const double *vert, cs_hull_polys *out)
{
    memset(out, 0, sizeof *out);
    int *slot = cs_malloc((size_t)NTHETA * NPHI * sizeof *slot);
    group *gr = cs_calloc((size_t)ntri + 1, sizeof *gr);
    int ng = 0, rc = -1, *paths = NULL;
    if (!slot || !gr) goto done;
    for (int i = 0; i < NTHETA * NPHI; i++) slot[i] = -1;
    for (int f = 0; f < ntri; f++) {
        const int *t = tri + 3 * f;
        int key[2];
        if (!polygon_key(vert + 3 * t[0], vert + 3 * t[1], vert + 3 * t[2], key)) continue;
        int s = (key[0] + THETA0) * NPHI + key[1];
        if (slot[s] < 0) { /* a new group: the triangle's edges as its boundary */
            slot[s] = ng++;
            for (int e = 0; e < 3; e++)
                if (push_edge(gr + slot[s], t[e], t[(e + 1) % 3], 0)) goto done;
            gr[slot[s]].npiece = 1;
        } else if (insert_face(gr + slot[s], t)) {
            goto done;
        }
    }
    int cap = 0;
    for (int k = 0; k < ng; k++) cap += 2 * gr[k].n + 2;
    paths = cs_malloc((size_t)(cap + 1) * sizeof *paths);
    if (!paths) goto done;
    int n = 0;
    for (int k = 0; k < ng; k++) n = trace(gr + k, paths, n);
    int npoly = 0, nvert = 0;
    for (int i = 0; i < n; i++) {
        if (paths[i] < 0) npoly++;
        else nvert++;
    }
    out->adr = cs_malloc((size_t)(npoly + 1) * sizeof *out->adr);
    out->vert = cs_malloc((size_t)(nvert + 1) * sizeof *out->vert);
    if (!out->adr || !out->vert) goto done;
    out->npoly = 0;
    out->adr[0] = 0;
    for (int i = 0, m = 0; i < n; i++) {
        if (paths[i] < 0) out->adr[++out->npoly] = m;
        else out->vert[m++] = paths[i];
    }
    rc = 0;
done:
    for (int k = 0; k < ng; k++) {
        cs_free(gr[k].ea);
        cs_free(gr[k].eb);
        cs_free(gr[k].isl);
    }
    cs_free(gr);
    cs_free(slot);
    cs_free(paths);
    if (rc) cs_hull_polys_free(out);
    return rc;
}

void cs_hull_polys_free(cs_hull_polys *p)
{
    cs_free(p->adr);
    cs_free(p->vert);
    memset(p, 0, sizeof *p);
}

void cs_hull_poly_normal(double n[3], const double *a, const double *b, const double *c)
{
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l < 1e-14) { /* MuJoCo's choice for corners in a line */
        n[0] = 1, n[1] = n[2] = 0;
        return;
    }
    n[0] /= l, n[1] /= l, n[2] /= l;
}
