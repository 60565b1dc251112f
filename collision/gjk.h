/* Native convex collision as MuJoCo 3.12 computes it (its default, nativeccd): GJK on the
 * support functions, EPA from GJK's simplex when the shapes overlap, and for two polytopes
 * the faces at EPA's closest face clipped against each other (multiccd.c). Every rounding
 * step follows MuJoCo's order so that depth, normal and points agree to the last bits. */
#ifndef CS_GJK_H
#define CS_GJK_H

#include <math.h>

#include "internal.h"

/* most points one call returns (MuJoCo keeps at most 4 of a clipped polygon) */
#define CS_GJK_MAXPT 8

/* A point of the Minkowski difference obj1 - obj2 with the two support points it came
 * from and their vertex indices (box corner bits, mesh hull vertex; -1 for smooth shapes). */
typedef struct {
    double v[3], v1[3], v2[3];
    int i1, i2;
} cs_mvert;

/* A shape as GJK queries it: its own copy of the pose (multi-point turns it), the pair's
 * margin (each side grows by half), and the support cache. */
typedef struct {
    int type;
    const double *size;
    const cs_hull *hull;
    const double *prism; /* height-field prism: 6 vertices (base, then top), own frame */
    double pos[3], mat[9];
    double margin;
    int core;      /* 0: the shape; 1: a sphere's centre; 2: a capsule's axis segment */
    int vindex;    /* last support vertex (boxes: corner bits; meshes: hull vertex) */
    int lindex;    /* meshes climbed on the hull graph: the last local id */
} cs_gjk_obj;

typedef struct {
    int iterations;   /* GJK's and EPA's iteration cap (<option ccd_iterations>) */
    double tolerance; /* <option ccd_tolerance> */
    int maxcon;       /* 1: one contact; more: polytope multi-point allowed */
} cs_gjk_config;

typedef struct {
    int nx;                            /* number of witness pairs */
    double dist[CS_GJK_MAXPT];         /* signed distance of each pair (< 0: overlap) */
    double x1[3 * CS_GJK_MAXPT], x2[3 * CS_GJK_MAXPT]; /* witness points on obj1, obj2 */
} cs_gjk_result;

void cs_gjk_obj_init(cs_gjk_obj *o, const cs_shape *s, double margin);

/* o's support point along unit direction d, without margin (updates o's support cache) */
void cs_gjk_support(cs_gjk_obj *o, const double d[3], double r[3]);

/* Contact of obj1 and obj2: returns the least distance found (< 0: penetration; the
 * witnesses in r), or >= 0 for no contact. */
double cs_gjk_collide(const cs_gjk_config *cfg, cs_gjk_obj *o1, cs_gjk_obj *o2,
                      cs_gjk_result *r);

/* multiccd.c: the points of two polytopes in contact from EPA's closest face (its three
 * vertices' support points and indices), as MuJoCo's multi-point; writes r when it finds
 * a matching face pair or edge and face, else leaves r as it is. */
void cs_multiccd(const cs_gjk_obj *o1, const cs_gjk_obj *o2, const cs_mvert face[3],
                 cs_gjk_result *r);

/* small helpers shared with multiccd.c, in MuJoCo's rounding */
static inline double cs_gjk_normalize(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n < 1e-15) {
        v[0] = 1;
        v[1] = v[2] = 0;
    } else {
        double inv = 1 / n;
        v[0] *= inv;
        v[1] *= inv;
        v[2] *= inv;
    }
    return n;
}

#endif
