/* Geometric primitives shared by collision/, sim/ and render/. Type codes and size
 * meanings are MuJoCo's (mjtGeom, geom/@size), so contact pair order (lower type first)
 * matches MuJoCo's. */
#ifndef CS_GEOM_H
#define CS_GEOM_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CS_GEOM_PLANE = 0,     /* size: half-extents x, y (0 = infinite for drawing), grid spacing */
    CS_GEOM_HFIELD = 1,    /* height field (cs_hfield, collision.h); size: radius x, radius y,
                            * and MuJoCo's box half-height for mass and drawing */
    CS_GEOM_SPHERE = 2,    /* size: radius */
    CS_GEOM_CAPSULE = 3,   /* size: radius, half-length of the cylinder part (along local z) */
    CS_GEOM_ELLIPSOID = 4, /* size: three semi-axes */
    CS_GEOM_CYLINDER = 5,  /* size: radius, half-length (along local z) */
    CS_GEOM_BOX = 6,       /* size: three half-sizes */
    CS_GEOM_MESH = 7,      /* convex hull of a mesh (collision/hull.h); size: half-extents
                            * of its bounding box about the geom origin */
} cs_geom_type;
enum { CS_GEOM_NTYPES = 8 }; /* apart, so that a switch over the types needs no case for it */

/* A geom's world pose: position and rotation matrix (row-major, columns are the
 * local axes in world coordinates, as MuJoCo's xmat). */
typedef struct {
    double pos[3];
    double mat[9];
} cs_pose;

#ifdef __cplusplus
}
#endif

#endif
