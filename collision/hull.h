/* Convex hulls of point sets (mesh geoms): built once with qhull, then read through a view.
 *
 * A hull is two plain arrays, so that a model can own them without knowing this struct:
 *   graph (ints):  nvert, nface, nfacevert, start[6],
 *                  adjadr[nvert + 1], adj[adjadr[nvert]]       vertex neighbours (edges)
 *                  faceadr[nface + 1], facevert[faceadr[nface]] face polygons, counter-clockwise
 *                                                               seen from outside
 *                  vfadr[nvert + 1], vf[faceadr[nface]]         each vertex's faces
 *                  npoint, nvert, pointid[nvert], mjvert[nvert], mjadr[nvert + 1], mjadj[]
 *                                                               MuJoCo's graph (below)
 *                  npoly, polyadr[npoly + 1], polyvert[], pmapadr[nvert + 1], pmap[]
 *                                                               MuJoCo's polygons (below)
 *   data (doubles): aabb[6] (lo, hi), vert[3 nvert], plane[4 nface] (unit outward normal n,
 *                  offset d: n.x <= d inside), polynormal[3 npoly]
 * Coplanar hull triangles are merged into one polygon per face. start[] holds the extreme
 * vertices along -x, +x, -y, +y, -z, +z: the support function starts at the best of them
 * and climbs the edge graph, so it visits a few dozen vertices even on hulls of thousands. */
#ifndef CS_HULL_H
#define CS_HULL_H

#include <stddef.h>

typedef struct {
    int nvert, nface;
    const double *aabb;     /* 6: lo[3], hi[3] */
    const double *vert;     /* 3 per vertex */
    const double *plane;    /* 4 per face */
    const int *start;       /* 6 */
    const int *adjadr, *adj;
    const int *faceadr, *facevert;
    const int *vfadr, *vf;
    /* MuJoCo's graph of the same hull (its plane-mesh contacts depend on its order):
     * npoint mesh points; pointid[hull vertex] = its point index; mjvert[local id] = the
     * hull vertex of MuJoCo's local id; mjadj[mjadr[k] .. mjadr[k+1]) the local ids of the
     * vertices sharing a triangle with local id k, in MuJoCo's order */
    int npoint;
    const int *pointid, *mjvert, *mjadr, *mjadj;
    /* MuJoCo's seeds of its hill climb: for each of the 27 directions (-1, 0, 1)^3 (x
     * slowest), the local id of the vertex furthest along it, in single precision */
    int extrema[27];
    /* MuJoCo's bounding radius of a mesh geom (mjCGeom::GetRBound): the corner of the box
     * about the origin that holds the vertices */
    double rbound;
    /* MuJoCo's polygons (hull_poly.c), which the multi-point contacts clip: the corners of
     * polygon p at polyvert[polyadr[p] .. polyadr[p+1]) (hull vertices), each vertex's
     * polygons at pmap[pmapadr[v] .. pmapadr[v+1]) in increasing order, unit normals */
    int npoly;
    const int *polyadr, *polyvert, *pmapadr, *pmap;
    const double *polynormal;
} cs_hull;

/* A built hull: malloc'd arrays in the layout above; triangles (3 hull-vertex indices each,
 * counter-clockwise from outside, in the order and with the first corner MuJoCo 3.12's hull
 * graph gives them) for mass properties and drawing. */
typedef struct {
    int *graph;
    int ngraph;
    double *data;
    int ndata;
    int *tri;
    int ntri;
} cs_hull_data;

/* Hull of n points (3 doubles each). maxvert > 3 caps the hull's vertices (MuJoCo's
 * maxhullvert), -1 = all. Returns 0, or -1 with a message in err: fewer than 4 points,
 * all points coplanar (or collinear), qhull failure, out of memory. */
int cs_hull_build(const double *pts, int n, int maxvert, cs_hull_data *out, char *err,
                  size_t errlen);
void cs_hull_data_free(cs_hull_data *h);

/* Move a built hull into another frame: x' = R^T (x - c) (R row-major). */
void cs_hull_transform(cs_hull_data *h, const double c[3], const double R[9]);

/* Give a hull built of some points the places of the same points moved by a map that keeps
 * orientation (pts: 3 doubles per point, indexed as the points the hull was built of): its
 * vertices, faces and graphs stay, its planes and bounds are made again. MuJoCo 3.12 builds a
 * mesh's hull before the mesh's scale and reference frame apply, so its graph's order is the
 * one of the unscaled points. */
void cs_hull_remap(cs_hull_data *h, const double *pts);

/* Round the vertices to single precision, as MuJoCo stores a mesh's (its contacts of
 * meshes placed face to face depend on it), and the face offsets with them. */
void cs_hull_round_float(cs_hull_data *h);

/* Point the view at the arrays (no copy). */
void cs_hull_view(cs_hull *h, const int *graph, const double *data);

/* Index of a vertex maximising d.x (local frame), by climbing the edge graph. */
int cs_hull_support(const cs_hull *h, const double d[3]);
/* The same climb started at vertex `from` as well (< 0: the extreme vertices only). */
int cs_hull_support_from(const cs_hull *h, const double d[3], int from);

/* The same by scanning every vertex (reference for tests). */
int cs_hull_support_brute(const cs_hull *h, const double d[3]);

#endif
