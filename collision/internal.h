/* Internals shared by the collision sources (not part of the public API). */
#ifndef CS_COLLISION_INTERNAL_H
#define CS_COLLISION_INTERNAL_H

#include "collision.h"

/* A shape at its world pose, as the narrow phase sees it. */
typedef struct {
    int type;
    const double *size;
    const double *pos;
    const double *mat; /* row-major; column k = local axis k in world */
    const cs_hull *hull; /* CS_GEOM_MESH only */
    int *hint;           /* NULL, or the last support vertex found (a mesh's climb starts
                            there: successive queries of one pair ask nearby directions) */
    const double *prism; /* CS_GEOM_HFIELD: one prism of the grid, 6 vertices (the base
                            triangle, then the top one; hfield.c) */
    double inflate;      /* grown by this in every direction (half a height field's margin) */
} cs_shape;

/* Raw point of a pair routine: frame[0..2] normal (geom1 -> geom2), frame[3..5]
 * optional tangent hint (zeros = default rule). */
typedef cs_geom_contact cs_rawcon;

typedef int (*cs_narrow_fn)(const cs_collision_options *opt, const cs_shape *a,
                            const cs_shape *b, double margin, cs_rawcon *out);

/* primitive.c */
int cs_plane_sphere(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                    cs_rawcon *);
int cs_plane_capsule(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                     cs_rawcon *);
int cs_plane_cylinder(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                      cs_rawcon *);
int cs_plane_box(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                 cs_rawcon *);
int cs_plane_ellipsoid(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                       cs_rawcon *);
int cs_sphere_sphere(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                     cs_rawcon *);
int cs_sphere_capsule(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                      cs_rawcon *);
int cs_capsule_capsule(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                       cs_rawcon *);
int cs_sphere_cylinder(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                       cs_rawcon *);
int cs_sphere_box(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                  cs_rawcon *);
int cs_capsule_box(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                   cs_rawcon *);
/* Closest points of segments c1 + s u1, c2 + t u2 with s, t in [-1, 1] (u scaled by
 * the half-lengths). Returns 0 for (near) parallel segments, leaving s, t unset. */
int cs_segseg(const double c1[3], const double u1[3], const double c2[3], const double u2[3],
              double *s, double *t);

/* radius of the sphere about the geom origin that holds the shape (MuJoCo's rbound) */
double cs_shape_rbound(const cs_shape *s);
/* mesh.c: plane against a hull: its deepest vertex and up to two of that vertex's
 * neighbours under the margin (MuJoCo's rule) */
int cs_plane_mesh(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                  cs_rawcon *);
/* ccd.c: one contact of A and B (normal from A to B, the point midway, the signed
 * distance) when their distance is at most margin; 0 otherwise */
int cs_ccd_single(const cs_collision_options *opt, const cs_shape *A, const cs_shape *B,
                  double margin, double n[3], double p[3], double *dist);
/* hfield.c: a height field at pose p1 against convex shape b (world pose); at most
 * CS_MAXCONPAIR points, frames not completed */
int cs_hfield_convex(const cs_collision_options *opt, const cs_hfield *hf, const cs_pose *p1,
                     const cs_shape *b, double margin, cs_rawcon *out);
/* boxbox.c */
int cs_box_box(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
               cs_rawcon *);
/* ccd.c: MuJoCo 3.12's native convex collision (gjk.c, multiccd.c), libccd's MPR when
 * nativeccd is disabled */
int cs_convex_ccd(const cs_collision_options *, const cs_shape *, const cs_shape *, double,
                  cs_rawcon *);
/* ccd.c: GJK distance apart, EPA polished or MPR overlapping, turned-geom extra points: the
 * libccd path and distance queries */
int cs_convex_distance(const cs_collision_options *, const cs_shape *, const cs_shape *,
                       double, cs_rawcon *);
/* point support of a shape in world direction d (not normalised), no margin */
void cs_support(const cs_shape *s, const double d[3], double out[3]);

/* small vector helpers */
/* fmax(x, y) (NaN: the other; equal: y) without libm's out-of-line call */
static inline double cs_fmax(double x, double y) { return (x > y || y != y) ? x : y; }

static inline double cs_dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void cs_cross3(double *r, const double *a, const double *b)
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
           z = a[0] * b[1] - a[1] * b[0];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
/* world = mat * local */
static inline void cs_mulmv(double *r, const double *m, const double *v)
{
    double x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
    double y = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
    double z = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
/* local = mat^T * world */
static inline void cs_mulmtv(double *r, const double *m, const double *v)
{
    double x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2];
    double y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2];
    double z = m[2] * v[0] + m[5] * v[1] + m[8] * v[2];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
/* column k of a row-major rotation (local axis k in world) */
static inline void cs_axis(double *r, const double *m, int k)
{
    r[0] = m[k];
    r[1] = m[3 + k];
    r[2] = m[6 + k];
}
/* fill a raw contact: normal n (unit), point pos, dist; no tangent hint */
static inline void cs_setcon(cs_rawcon *c, const double n[3], const double pos[3], double dist)
{
    for (int i = 0; i < 3; i++) {
        c->frame[i] = n[i];
        c->frame[3 + i] = 0;
        c->pos[i] = pos[i];
    }
    c->dist = dist;
}

#endif
