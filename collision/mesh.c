/* Plane against a mesh's convex hull, as MuJoCo 3.12 makes these contacts: the deepest
 * vertex, then the vertices of one neighbour list of MuJoCo's hull graph that lie under the
 * margin, in graph order, skipping any closer than 0.3 of the mesh's bounding radius to the
 * first contact, up to 3 contacts in all.
 *
 * Which list: MuJoCo searches a mesh of fewer than 10 points exhaustively and then reads the
 * neighbour list at the found point's index taken as a graph-local id (for most small meshes
 * another vertex's list: a box mesh flat on a plane gets two or three of its bottom
 * corners); a larger mesh is searched by climbing the graph from its first vertex, and the
 * list is the deepest vertex's own. Both are followed here so that scenes behave as they do
 * in MuJoCo. */
#include <math.h>

#include "internal.h"

#define PLANE_MESH_MAX 3      /* MuJoCo's maxplanemesh */
#define PLANE_MESH_TOL 0.3    /* MuJoCo's tolplanemesh, in bounding radii */
#define HILLCLIMB_MIN 10      /* MuJoCo's mjMESH_HILLCLIMB_MIN: fewer points, exhaustive */

/* the deepest vertex (hull index) along local direction nl, and in *walk the local id whose
 * neighbour list the contacts walk (-1: none) */
static int deepest(const cs_hull *h, const double nl[3], int *walk)
{
    if (h->npoint < HILLCLIMB_MIN) {
        int best = 0;
        double bd = -1e10;
        for (int i = 0; i < h->nvert; i++) { /* hull vertices in point order */
            double v = cs_dot3(nl, h->vert + 3 * i);
            if (v > bd) {
                bd = v;
                best = i;
            }
        }
        int pid = h->pointid[best];
        *walk = pid < h->nvert ? pid : -1;
        return best;
    }
    int ib = 0;
    double t = cs_dot3(nl, h->vert + 3 * h->mjvert[0]);
    for (int change = 1; change;) {
        change = 0;
        int from = ib;
        for (int e = h->mjadr[from]; e < h->mjadr[from + 1]; e++) {
            int k = h->mjadj[e];
            double v = cs_dot3(nl, h->vert + 3 * h->mjvert[k]);
            if (v > t) {
                t = v;
                ib = k;
                change = 1;
            }
        }
    }
    *walk = ib;
    return h->mjvert[ib];
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
    int walk, i0 = deepest(h, nl, &walk);
    double p0[3];
    cs_mulmv(p0, b->mat, h->vert + 3 * i0);
    for (int i = 0; i < 3; i++) {
        p0[i] += b->pos[i];
        dif[i] = p0[i] - a->pos[i];
    }
    double dist0 = cs_dot3(n, dif);
    if (dist0 > margin)
        return 0;
    double first[3];
    for (int i = 0; i < 3; i++)
        first[i] = p0[i] - 0.5 * dist0 * n[i];
    cs_setcon(out, n, first, dist0);
    if (walk < 0)
        return 1;

    /* a vertex v is under the margin when n.(pos + R v - plane) < margin, i.e. its depth
     * along the local inward direction beats the origin's height less the margin */
    for (int i = 0; i < 3; i++)
        dif[i] = b->pos[i] - a->pos[i];
    double threshold = cs_dot3(n, dif) - margin;
    double tol = PLANE_MESH_TOL * cs_shape_rbound(b);
    int cnt = 1;
    for (int e = h->mjadr[walk]; e < h->mjadr[walk + 1] && cnt < PLANE_MESH_MAX; e++) {
        const double *v = h->vert + 3 * h->mjvert[h->mjadj[e]];
        if (!(cs_dot3(nl, v) > threshold))
            continue;
        double p[3], sep[3];
        cs_mulmv(p, b->mat, v);
        for (int i = 0; i < 3; i++) {
            p[i] += b->pos[i];
            sep[i] = p[i] - first[i];
        }
        if (sqrt(cs_dot3(sep, sep)) < tol)
            continue;
        for (int i = 0; i < 3; i++)
            dif[i] = p[i] - a->pos[i];
        double dist = cs_dot3(n, dif);
        for (int i = 0; i < 3; i++)
            p[i] -= 0.5 * dist * n[i];
        cs_setcon(out + cnt++, n, p, dist);
    }
    return cnt;
}
