/* Convex hull construction (qhull, reentrant library, triangulated output as MuJoCo asks
 * for it: "Qt"), merged into polygon faces, with the vertex graph for the support climb. */
#include "alloc.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "hull.h"
#include "hull_poly.h"

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(double *r, const double *a, const double *b)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

void cs_hull_data_free(cs_hull_data *h)
{
    if (!h)
        return;
    cs_free(h->graph);
    cs_free(h->data);
    cs_free(h->tri);
    memset(h, 0, sizeof *h);
}

void cs_hull_view(cs_hull *h, const int *g, const double *d)
{
    h->nvert = g[0];
    h->nface = g[1];
    h->start = g + 3;
    h->adjadr = g + 9;
    h->adj = h->adjadr + h->nvert + 1;
    h->faceadr = h->adj + h->adjadr[h->nvert];
    h->facevert = h->faceadr + h->nface + 1;
    h->vfadr = h->facevert + h->faceadr[h->nface];
    h->vf = h->vfadr + h->nvert + 1;
    const int *mj = h->vf + h->faceadr[h->nface];
    h->npoint = mj[0];
    h->pointid = mj + 2;
    h->mjvert = h->pointid + h->nvert;
    h->mjadr = h->mjvert + h->nvert;
    h->mjadj = h->mjadr + h->nvert + 1;
    const int *pg = h->mjadj + h->mjadr[h->nvert];
    h->npoly = pg[0];
    h->polyadr = pg + 1;
    h->polyvert = h->polyadr + h->npoly + 1;
    h->pmapadr = h->polyvert + h->polyadr[h->npoly];
    h->pmap = h->pmapadr + h->nvert + 1;
    h->aabb = d;
    h->vert = d + 6;
    h->plane = h->vert + 3 * h->nvert;
    h->polynormal = h->plane + 4 * h->nface;
    double ext[3] = {0, 0, 0};
    for (int i = 0; i < h->nvert; i++)
        for (int k = 0; k < 3; k++) ext[k] = fmax(ext[k], fabs(h->vert[3 * i + k]));
    h->rbound = sqrt(ext[0] * ext[0] + ext[1] * ext[1] + ext[2] * ext[2]);
    float best[27];
    for (int k = 0; k < 27; k++) {
        best[k] = -FLT_MAX;
        h->extrema[k] = 0;
    }
    for (int l = 0; l < h->nvert; l++) {
        const double *v = h->vert + 3 * h->mjvert[l];
        float x = (float)v[0], y = (float)v[1], z = (float)v[2];
        int k = 0;
        for (int cx = -1; cx <= 1; cx++)
            for (int cy = -1; cy <= 1; cy++)
                for (int cz = -1; cz <= 1; cz++, k++) {
                    float dot = x * (float)cx + y * (float)cy + z * (float)cz;
                    if (dot > best[k]) {
                        best[k] = dot;
                        h->extrema[k] = l;
                    }
                }
    }
}

int cs_hull_support_brute(const cs_hull *h, const double d[3])
{
    int best = 0;
    double bd = dot3(h->vert, d);
    for (int i = 1; i < h->nvert; i++) {
        double v = dot3(h->vert + 3 * i, d);
        if (v > bd) {
            bd = v;
            best = i;
        }
    }
    return best;
}

int cs_hull_support(const cs_hull *h, const double d[3]) { return cs_hull_support_from(h, d, -1); }

int cs_hull_support_from(const cs_hull *h, const double d[3], int from)
{
    int best = from >= 0 && from < h->nvert ? from : h->start[0];
    double bd = dot3(h->vert + 3 * best, d);
    for (int k = 0; k < 6; k++) {
        double v = dot3(h->vert + 3 * h->start[k], d);
        if (v > bd) {
            bd = v;
            best = h->start[k];
        }
    }
    /* steepest ascent over the edges: on a convex polytope a vertex no neighbour beats is
     * a global maximum */
    for (;;) {
        int next = -1;
        for (int e = h->adjadr[best]; e < h->adjadr[best + 1]; e++) {
            int j = h->adj[e];
            double v = dot3(h->vert + 3 * j, d);
            if (v > bd) {
                bd = v;
                next = j;
            }
        }
        if (next < 0)
            return best;
        best = next;
    }
}

/* extreme vertices along the axes and the bounding box, from the vertices */
static void finish_bounds(int *g, double *d)
{
    int nv = g[0];
    const double *v = d + 6;
    for (int k = 0; k < 3; k++) {
        int lo = 0, hi = 0;
        for (int i = 1; i < nv; i++) {
            if (v[3 * i + k] < v[3 * lo + k])
                lo = i;
            if (v[3 * i + k] > v[3 * hi + k])
                hi = i;
        }
        g[3 + 2 * k] = lo;
        g[4 + 2 * k] = hi;
        d[k] = v[3 * lo + k];
        d[3 + k] = v[3 * hi + k];
    }
}

/* the polygons' normals from their first three corners where the vertices are now (MuJoCo
 * makes them once the mesh sits in its own frame, before the vertices become floats) */
static void poly_normals(int *g, double *d)
{
    cs_hull view;
    cs_hull_view(&view, g, d);
    double *pn = (double *)view.polynormal;
    for (int p = 0; p < view.npoly; p++) {
        const int *c = view.polyvert + view.polyadr[p];
        cs_hull_poly_normal(pn + 3 * p, view.vert + 3 * c[0], view.vert + 3 * c[1],
                            view.vert + 3 * c[2]);
    }
}

void cs_hull_transform(cs_hull_data *h, const double c[3], const double R[9])
{
    int nv = h->graph[0], nf = h->graph[1];
    double *v = h->data + 6, *pl = v + 3 * nv;
    for (int i = 0; i < nv; i++) {
        double x[3] = {v[3 * i] - c[0], v[3 * i + 1] - c[1], v[3 * i + 2] - c[2]};
        for (int k = 0; k < 3; k++)
            v[3 * i + k] = R[k] * x[0] + R[3 + k] * x[1] + R[6 + k] * x[2];
    }
    for (int f = 0; f < nf; f++) {
        double *p = pl + 4 * f, n[3];
        p[3] -= dot3(p, c);
        for (int k = 0; k < 3; k++)
            n[k] = R[k] * p[0] + R[3 + k] * p[1] + R[6 + k] * p[2];
        memcpy(p, n, sizeof n);
    }
    poly_normals(h->graph, h->data);
    finish_bounds(h->graph, h->data);
}

void cs_hull_remap(cs_hull_data *h, const double *pts)
{
    int nv = h->graph[0], nf = h->graph[1];
    cs_hull view;
    cs_hull_view(&view, h->graph, h->data);
    double *v = h->data + 6, *pl = v + 3 * nv;
    for (int i = 0; i < nv; i++)
        memcpy(v + 3 * i, pts + 3 * (size_t)view.pointid[i], 3 * sizeof *v);
    /* each face's normal from its moved polygon (Newell's sum: counter-clockwise stays so),
     * its offset through the outermost corner */
    for (int f = 0; f < nf; f++) {
        const int *fv = view.facevert + view.faceadr[f];
        int cnt = view.faceadr[f + 1] - view.faceadr[f];
        double n[3] = {0, 0, 0}, d = -HUGE_VAL;
        for (int x = 0; x < cnt; x++) {
            const double *a = v + 3 * fv[x], *b = v + 3 * fv[(x + 1) % cnt];
            n[0] += (a[1] - b[1]) * (a[2] + b[2]);
            n[1] += (a[2] - b[2]) * (a[0] + b[0]);
            n[2] += (a[0] - b[0]) * (a[1] + b[1]);
        }
        double l = sqrt(dot3(n, n));
        if (!(l > 0))
            continue; /* a face the map flattened keeps its old plane */
        for (int k = 0; k < 3; k++)
            n[k] /= l;
        for (int x = 0; x < cnt; x++)
            d = fmax(d, dot3(n, v + 3 * fv[x]));
        memcpy(pl + 4 * f, n, sizeof n);
        pl[4 * f + 3] = d;
    }
    poly_normals(h->graph, h->data);
    finish_bounds(h->graph, h->data);
}

void cs_hull_round_float(cs_hull_data *h)
{
    int nv = h->graph[0], nf = h->graph[1];
    cs_hull view;
    cs_hull_view(&view, h->graph, h->data);
    double *v = h->data + 6, *pl = v + 3 * nv;
    for (int i = 0; i < 3 * nv; i++)
        v[i] = (float)v[i];
    /* each face's offset through its rounded corners (the outermost: the hull holds them) */
    const int *faceadr = view.faceadr, *facevert = view.facevert;
    for (int f = 0; f < nf; f++) {
        double *p = pl + 4 * f, d = -HUGE_VAL;
        for (int k = faceadr[f]; k < faceadr[f + 1]; k++)
            d = fmax(d, dot3(p, v + 3 * facevert[k]));
        if (faceadr[f + 1] > faceadr[f])
            p[3] = d;
    }
    finish_bounds(h->graph, h->data);
}

static int cmp_int2(const void *a, const void *b)
{
    const int *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* largest tetrahedron volume test: 0 when the points span 3-d */
static const char *degenerate(const double *p, int n)
{
    if (n < 4)
        return "a mesh needs at least 4 vertices";
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = p[k];
    for (int i = 1; i < n; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], p[3 * i + k]);
            hi[k] = fmax(hi[k], p[3 * i + k]);
        }
    double ext = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    if (!(ext > 0) || !isfinite(ext))
        return "the mesh vertices coincide (or are not finite)";
    int a = 0, b = 0, c = -1;
    double best = 0;
    for (int i = 1; i < n; i++) {
        double e[3] = {p[3 * i] - p[0], p[3 * i + 1] - p[1], p[3 * i + 2] - p[2]};
        if (dot3(e, e) > best) {
            best = dot3(e, e);
            b = i;
        }
    }
    double u[3] = {p[3 * b] - p[3 * a], p[3 * b + 1] - p[3 * a + 1], p[3 * b + 2] - p[3 * a + 2]};
    best = 0;
    double nrm[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        double e[3] = {p[3 * i] - p[3 * a], p[3 * i + 1] - p[3 * a + 1], p[3 * i + 2] - p[3 * a + 2]},
               x[3];
        cross3(x, u, e);
        if (dot3(x, x) > best) {
            best = dot3(x, x);
            c = i;
            memcpy(nrm, x, sizeof x);
        }
    }
    if (c < 0 || sqrt(best) <= 1e-12 * ext * ext)
        return "the mesh vertices are collinear: the hull has no volume";
    double ln = sqrt(dot3(nrm, nrm)), far = 0;
    for (int i = 0; i < n; i++) {
        double e[3] = {p[3 * i] - p[3 * a], p[3 * i + 1] - p[3 * a + 1], p[3 * i + 2] - p[3 * a + 2]};
        far = fmax(far, fabs(dot3(e, nrm)) / ln);
    }
    if (far <= 1e-9 * ext)
        return "the mesh vertices are coplanar: the hull has no volume";
    return NULL;
}

/* each vertex's polygons, in increasing order, from n polygons' corner lists (a counting
 * sort by vertex): vlist[vadr[v] .. vadr[v + 1]); mark: nv ints of scratch */
static void vertex_lists(const int *adr, const int *vert, int n, int nv, int *vadr, int *vlist,
                         int *mark)
{
    for (int i = 0; i <= nv; i++)
        vadr[i] = 0;
    for (int x = 0; x < adr[n]; x++)
        vadr[vert[x] + 1]++;
    for (int i = 0; i < nv; i++)
        vadr[i + 1] += vadr[i];
    for (int i = 0; i < nv; i++)
        mark[i] = vadr[i];
    for (int p = 0; p < n; p++)
        for (int x = adr[p]; x < adr[p + 1]; x++)
            vlist[mark[vert[x]]++] = p;
}

/* Coplanar triangles grouped into faces: triangle k joins the face of the first j < k whose
 * plane is k's (unit normals within 1e-10 in dot product, offsets within 1e-10 ext), else
 * starts a face. Candidates come from the triangles sorted by their normal's x, within the
 * window such normals' x can differ by (|p - q|^2 = 2 - 2 p.q < 2e-10), so that the answer
 * is the all-pairs search's without its n^2 work. Returns the face count, -1 out of memory. */
static int cmp_by_key(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

static int group_faces(const double *tnorm, int ntri, double ext, int *group)
{
    double *key = cs_malloc((size_t)(ntri ? ntri : 1) * 2 * sizeof *key);
    int *pos = cs_malloc((size_t)(ntri ? ntri : 1) * sizeof *pos);
    if (!key || !pos) {
        cs_free(key);
        cs_free(pos);
        return -1;
    }
    for (int k = 0; k < ntri; k++) {
        key[2 * k] = tnorm[4 * k];
        key[2 * k + 1] = k;
    }
    qsort(key, (size_t)ntri, 2 * sizeof *key, cmp_by_key);
    for (int i = 0; i < ntri; i++)
        pos[(int)key[2 * i + 1]] = i;
    const double win = 1.5e-5, otol = 1e-10 * (ext > 0 ? ext : 1);
    int nface = 0;
    for (int k = 0; k < ntri; k++) {
        const double *p = tnorm + 4 * k;
        int best = -1;
        for (int dir = -1; dir <= 1; dir += 2)
            for (int i = pos[k] + dir; i >= 0 && i < ntri && fabs(key[2 * i] - p[0]) <= win;
                 i += dir) {
                int j = (int)key[2 * i + 1];
                if (j >= k || (best >= 0 && j >= best))
                    continue;
                const double *q = tnorm + 4 * j;
                if (dot3(p, q) > 1 - 1e-10 && fabs(p[3] - q[3]) <= otol)
                    best = j;
            }
        group[k] = best >= 0 ? group[best] : nface++;
    }
    cs_free(key);
    cs_free(pos);
    return nface;
}

int cs_hull_build(const double *pts, int n, int maxvert, cs_hull_data *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *why = degenerate(pts, n);
    if (why) {
        set_err(err, errlen, why);
        return -1;
    }
    double *copy = cs_malloc((size_t)n * 3 * sizeof *copy);
    char *errbuf = NULL;
    size_t errsz = 0;
    FILE *ef = open_memstream(&errbuf, &errsz);
    int *map = NULL, *tri = NULL, *edges = NULL, *group = NULL, *gv = NULL, *mjg = NULL;
    double *tnorm = NULL, *ang = NULL;
    int *mjt = NULL; /* triangle corners in MuJoCo's graph order */
    cs_hull_polys polys = {0, NULL, NULL};
    int rc = -1, ntri = 0;
    if (!copy || !ef) {
        set_err(err, errlen, "out of memory");
        cs_free(copy);
        if (ef)
            fclose(ef);
        cs_free(errbuf);
        return -1;
    }
    memcpy(copy, pts, (size_t)n * 3 * sizeof *copy);
    char flags[64] = "qhull Qt";
    if (maxvert > 3)
        snprintf(flags, sizeof flags, "qhull Qt Q9 TA%d", maxvert - 4);
    qhT qh_qh;
    qhT *qh = &qh_qh;
    qh_zero(qh, ef);
    int exitcode = qh_new_qhull(qh, 3, n, copy, False, flags, NULL, ef);
    fflush(ef);
    if (exitcode) {
        char msg[200];
        const char *q = errbuf && errsz ? errbuf : "unknown error";
        /* qhull's first line says what went wrong */
        int l = 0;
        while (q[l] && q[l] != '\n' && l < 150)
            l++;
        snprintf(msg, sizeof msg, "qhull failed: %.*s", l, q);
        set_err(err, errlen, msg);
        goto done;
    }
    /* hull vertices in input order (deterministic, and a box mesh keeps its corner order) */
    map = cs_malloc((size_t)n * sizeof *map);
    if (!map)
        goto oom;
    for (int i = 0; i < n; i++)
        map[i] = -1;
    vertexT *vertex, **vertexp;
    facetT *facet;
    FORALLvertices map[qh_pointid(qh, vertex->point)] = 0;
    int nv = 0;
    for (int i = 0; i < n; i++)
        if (map[i] == 0)
            map[i] = nv++;
    int nfacet = 0;
    FORALLfacets nfacet++;
    /* MuJoCo's own hull graph, which its plane-mesh contacts walk: vertices in qhull's order
     * (local ids), each with the vertices it shares a triangle with, in the order of its
     * triangles and their corners */
    int nmjg = 2 + 3 * nv + 1 + 3 * nfacet;
    mjg = cs_malloc((size_t)nmjg * sizeof *mjg);
    if (!mjg)
        goto oom;
    {
        qh_vertexneighbors(qh);
        int *loc2hull = mjg + 2 + nv, *adr = loc2hull + nv, *lst = adr + nv + 1;
        int nloc = 0, nl = 0;
        mjg[0] = n;
        mjg[1] = nv;
        for (int i = 0; i < n; i++)
            if (map[i] >= 0)
                mjg[2 + map[i]] = i;
        /* local ids first (the neighbour lists hold local ids), kept in adr meanwhile */
        FORALLvertices {
            int h0 = map[qh_pointid(qh, vertex->point)];
            loc2hull[nloc] = h0;
            adr[h0] = nloc++;
        }
        int *hull2loc = cs_malloc((size_t)nv * sizeof *hull2loc);
        if (!hull2loc)
            goto oom;
        memcpy(hull2loc, adr, (size_t)nv * sizeof *hull2loc);
        nloc = 0;
        FORALLvertices {
            int self = nloc;
            adr[nloc++] = nl;
            int start = nl;
            facetT *nb, **nbp;
            FOREACHsetelement_(facetT, vertex->neighbors, nb) {
                vertexT *v1, **v1p;
                FOREACHsetelement_(vertexT, nb->vertices, v1) {
                    int l1 = hull2loc[map[qh_pointid(qh, v1->point)]], dup = l1 == self;
                    for (int j = start; j < nl && !dup; j++)
                        dup = lst[j] == l1;
                    if (!dup && nl < 3 * nfacet)
                        lst[nl++] = l1;
                }
            }
        }
        adr[nloc] = nl;
        cs_free(hull2loc);
        nmjg = 2 + 3 * nv + 1 + nl;
    }
    tri = cs_malloc((size_t)nfacet * 3 * sizeof *tri);
    tnorm = cs_malloc((size_t)nfacet * 4 * sizeof *tnorm);
    mjt = cs_malloc((size_t)nfacet * 3 * sizeof *mjt);
    edges = cs_malloc((size_t)nfacet * 6 * sizeof *edges);
    if (!tri || !tnorm || !edges || !mjt)
        goto oom;
    int nedge = 0;
    FORALLfacets {
        int k = 0, t[3] = {0, 0, 0};
        FOREACHvertex_(facet->vertices) {
            if (k < 3)
                t[k] = map[qh_pointid(qh, vertex->point)];
            k++;
        }
        if (k != 3)
            continue; /* Qt makes every facet a triangle */
        for (int e = 0; e < 3; e++) {
            int x = t[e], y = t[(e + 1) % 3];
            edges[2 * nedge] = x < y ? x : y;
            edges[2 * nedge + 1] = x < y ? y : x;
            nedge++;
        }
        memcpy(tri + 3 * ntri, t, sizeof t);
        /* MuJoCo swaps the first two corners of a facet qhull orients the other way */
        mjt[3 * ntri] = t[facet->toporient ? 1 : 0];
        mjt[3 * ntri + 1] = t[facet->toporient ? 0 : 1];
        mjt[3 * ntri + 2] = t[2];
        for (int i = 0; i < 3; i++)
            tnorm[4 * ntri + i] = facet->normal[i];
        tnorm[4 * ntri + 3] = -facet->offset;
        ntri++;
    }
    /* vertex coordinates by hull index */
    int nvmax = nv;
    double *vx = cs_malloc((size_t)nvmax * 3 * sizeof *vx);
    if (!vx)
        goto oom;
    for (int i = 0; i < n; i++)
        if (map[i] >= 0)
            memcpy(vx + 3 * map[i], pts + 3 * i, 3 * sizeof *vx);
    /* MuJoCo's polygons, of all of its graph's triangles (degenerate ones included: its own
     * test leaves them out) */
    if (cs_hull_polygons(mjt, ntri, vx, &polys)) {
        cs_free(vx);
        goto oom;
    }
    /* orient triangles outward; drop degenerate ones from the triangle list (their edges
     * stay in the graph: they lie on the hull) */
    int nt = 0;
    double ext = 0;
    for (int i = 0; i < 3 * nv; i++)
        ext = fmax(ext, fabs(vx[i]));
    for (int k = 0; k < ntri; k++) {
        int *t = tri + 3 * k;
        double e1[3], e2[3], c[3];
        for (int i = 0; i < 3; i++) {
            e1[i] = vx[3 * t[1] + i] - vx[3 * t[0] + i];
            e2[i] = vx[3 * t[2] + i] - vx[3 * t[0] + i];
        }
        cross3(c, e1, e2);
        double s = dot3(c, tnorm + 4 * k);
        if (s < 0) {
            int x = t[1];
            t[1] = t[2];
            t[2] = x;
        }
        if (!(sqrt(dot3(c, c)) > 1e-14 * ext * ext))
            continue;
        memmove(tri + 3 * nt, t, 3 * sizeof *t);
        memmove(mjt + 3 * nt, mjt + 3 * k, 3 * sizeof *mjt);
        memmove(tnorm + 4 * nt, tnorm + 4 * k, 4 * sizeof *tnorm);
        nt++;
    }
    ntri = nt;
    /* unique edges -> adjacency */
    qsort(edges, (size_t)nedge, 2 * sizeof *edges, cmp_int2);
    int ne = 0;
    for (int k = 0; k < nedge; k++)
        if (k == 0 || cmp_int2(edges + 2 * k, edges + 2 * (ne - 1)) != 0) {
            edges[2 * ne] = edges[2 * k];
            edges[2 * ne + 1] = edges[2 * k + 1];
            ne++;
        }
    /* faces: coplanar triangles grouped (qhull gives the triangles of one merged facet the
     * same plane) */
    group = cs_malloc((size_t)(ntri ? 2 * ntri : 1) * sizeof *group); /* then each face's */
    gv = cs_malloc((size_t)(ntri ? 3 * ntri : 1) * sizeof *gv);
    ang = cs_malloc((size_t)(ntri ? 3 * ntri : 1) * sizeof *ang);
    if (!group || !gv || !ang) {
        cs_free(vx);
        goto oom;
    }
    int nface = group_faces(tnorm, ntri, ext, group);
    if (nface < 0) {
        cs_free(vx);
        goto oom;
    }
    /* sizes */
    int nfv = 0;
    int *fcount = cs_calloc((size_t)nface + 1, sizeof *fcount);
    int *mark = cs_malloc((size_t)nv * sizeof *mark);
    if (!fcount || !mark) {
        cs_free(fcount);
        cs_free(mark);
        cs_free(vx);
        goto oom;
    }
    for (int i = 0; i < nv; i++)
        mark[i] = -1;
    /* per face: its distinct vertices (a pass per face keeps it simple; hulls are built once) */
    int npv = polys.adr[polys.npoly];
    int ngraph = 9 + (nv + 1) + 2 * ne + (nface + 1) + 3 * ntri + (nv + 1) + 3 * ntri + nmjg +
                 1 + (polys.npoly + 1) + npv + (nv + 1) + npv;
    int ndata = 6 + 3 * nv + 4 * nface + 3 * polys.npoly;
    int *g = cs_malloc((size_t)ngraph * sizeof *g);
    double *d = cs_malloc((size_t)ndata * sizeof *d);
    if (!g || !d) {
        cs_free(g);
        cs_free(d);
        cs_free(fcount);
        cs_free(mark);
        cs_free(vx);
        goto oom;
    }
    g[0] = nv;
    g[1] = nface;
    int *adjadr = g + 9, *adj = adjadr + nv + 1;
    for (int i = 0; i <= nv; i++)
        adjadr[i] = 0;
    for (int k = 0; k < ne; k++) {
        adjadr[edges[2 * k] + 1]++;
        adjadr[edges[2 * k + 1] + 1]++;
    }
    for (int i = 0; i < nv; i++)
        adjadr[i + 1] += adjadr[i];
    {
        int *cur = cs_malloc((size_t)nv * sizeof *cur);
        if (!cur) {
            cs_free(g);
            cs_free(d);
            cs_free(fcount);
            cs_free(mark);
            cs_free(vx);
            goto oom;
        }
        for (int i = 0; i < nv; i++)
            cur[i] = adjadr[i];
        for (int k = 0; k < ne; k++) { /* edges are sorted: each list comes out sorted */
            int a = edges[2 * k], b = edges[2 * k + 1];
            adj[cur[a]++] = b;
        }
        for (int k = 0; k < ne; k++) {
            int a = edges[2 * k], b = edges[2 * k + 1];
            adj[cur[b]++] = a;
        }
        cs_free(cur);
        /* the second pass appended smaller neighbours after larger ones: sort each list */
        for (int i = 0; i < nv; i++) {
            int *l = adj + adjadr[i], m = adjadr[i + 1] - adjadr[i];
            for (int x = 1; x < m; x++) {
                int y = l[x], z = x;
                while (z > 0 && l[z - 1] > y) {
                    l[z] = l[z - 1];
                    z--;
                }
                l[z] = y;
            }
        }
    }
    int *faceadr = adj + adjadr[nv], *facevert = faceadr + nface + 1;
    double *vert = d + 6, *plane = vert + 3 * nv;
    memcpy(vert, vx, (size_t)nv * 3 * sizeof *vert);
    /* each face's triangles in increasing order (fcount: the offsets) */
    int *ftri = group + ntri;
    for (int k = 0; k < ntri; k++)
        fcount[group[k] + 1]++;
    for (int f = 0; f < nface; f++)
        fcount[f + 1] += fcount[f];
    for (int k = 0; k < ntri; k++)
        ftri[fcount[group[k]]++] = k;
    for (int f = nface; f > 0; f--)
        fcount[f] = fcount[f - 1];
    fcount[0] = 0;
    for (int f = 0; f < nface; f++) {
        faceadr[f] = nfv;
        int cnt = 0, first = -1;
        for (int x = fcount[f]; x < fcount[f + 1]; x++) {
            int k = ftri[x];
            if (first < 0)
                first = k;
            for (int e = 0; e < 3; e++) {
                int v = tri[3 * k + e];
                if (mark[v] != f) {
                    mark[v] = f;
                    gv[cnt++] = v;
                }
            }
        }
        const double *pn = tnorm + 4 * first;
        /* the plane through the face's vertices, with the face's own normal */
        double nn[3] = {pn[0], pn[1], pn[2]}, off = -HUGE_VAL, ctr[3] = {0, 0, 0};
        double l = sqrt(dot3(nn, nn));
        for (int i = 0; i < 3; i++)
            nn[i] /= l;
        for (int x = 0; x < cnt; x++)
            for (int i = 0; i < 3; i++)
                ctr[i] += vx[3 * gv[x] + i] / cnt;
        for (int x = 0; x < cnt; x++)
            off = fmax(off, dot3(nn, vx + 3 * gv[x]));
        memcpy(plane + 4 * f, nn, sizeof nn);
        plane[4 * f + 3] = off;
        /* counter-clockwise about the normal: sort by angle in the face plane */
        double u[3] = {vx[3 * gv[0]] - ctr[0], vx[3 * gv[0] + 1] - ctr[1], vx[3 * gv[0] + 2] - ctr[2]};
        double w[3];
        cross3(w, nn, u);
        for (int x = 0; x < cnt; x++) {
            double e[3] = {vx[3 * gv[x]] - ctr[0], vx[3 * gv[x] + 1] - ctr[1],
                           vx[3 * gv[x] + 2] - ctr[2]};
            ang[x] = atan2(dot3(e, w), dot3(e, u));
        }
        for (int x = 1; x < cnt; x++) {
            double a = ang[x];
            int v = gv[x], z = x;
            while (z > 0 && ang[z - 1] > a) {
                ang[z] = ang[z - 1];
                gv[z] = gv[z - 1];
                z--;
            }
            ang[z] = a;
            gv[z] = v;
        }
        memcpy(facevert + nfv, gv, (size_t)cnt * sizeof *gv);
        nfv += cnt;
    }
    faceadr[nface] = nfv;
    g[2] = nfv;
    int *vfadr = facevert + nfv, *vf = vfadr + nv + 1;
    vertex_lists(faceadr, facevert, nface, nv, vfadr, vf, mark);
    memcpy(vf + nfv, mjg, (size_t)nmjg * sizeof *mjg);
    {
        /* the polygons, and each vertex's polygons in increasing order */
        int *pg = vf + nfv + nmjg, np = polys.npoly;
        int *padr = pg + 1, *pvert = padr + np + 1, *mapadr = pvert + npv, *pmap = mapadr + nv + 1;
        pg[0] = np;
        memcpy(padr, polys.adr, (size_t)(np + 1) * sizeof *padr);
        memcpy(pvert, polys.vert, (size_t)npv * sizeof *pvert);
        vertex_lists(padr, pvert, np, nv, mapadr, pmap, mark);
        out->ngraph = (int)(pmap + npv - g);
    }
    out->graph = g;
    out->data = d;
    out->ndata = ndata;
    /* the triangles handed on (a faceless mesh's faces, convex inertia) in MuJoCo's order
     * and corner order: its sums over them then round as MuJoCo's */
    out->ntri = ntri;
    out->tri = mjt;
    mjt = NULL;
    finish_bounds(g, d);
    poly_normals(g, d);
    cs_free(fcount);
    cs_free(mark);
    cs_free(vx);
    rc = 0;
    goto done;
oom:
    set_err(err, errlen, "out of memory");
done : {
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
}
    fclose(ef);
    cs_free(errbuf);
    cs_free(copy);
    cs_free(map);
    cs_free(mjg);
    cs_free(tri);
    cs_free(tnorm);
    cs_free(mjt);
    cs_free(edges);
    cs_free(group);
    cs_free(gv);
    cs_free(ang);
    cs_hull_polys_free(&polys);
    return rc;
}
