/* Rays against geoms and points inside zones, as MuJoCo's engine_ray.c (mju_rayGeom,
 * mj_rayMesh) and mju_insideGeom: the ray is pnt + x vec, x >= 0; a hit returns the
 * smallest x and, when normal is given, the outward surface normal there (world frame);
 * no hit returns -1 (normal zero). Geom types and sizes are geom.h's. */
#ifndef CS_RAY_H
#define CS_RAY_H

#include "geom.h"

/* plane (its front face, within its size when that is positive), sphere, capsule,
 * ellipsoid, cylinder, box */
double cs_ray_primitive(const cs_pose *pose, int type, const double size[3], const double pnt[3],
                   const double vec[3], double normal[3]);
/* a triangle mesh in the geom's frame (vert: 3 per vertex, face: 3 vertex indices per
 * triangle), bounded by a sphere of radius rbound about the geom origin; the normal is the
 * triangle's by its winding, as MuJoCo's */
double cs_ray_mesh(const cs_pose *pose, const double *vert, const int *face, int nface,
                   double rbound, const double pnt[3], const double vec[3], double normal[3]);
/* a height field (collision.h's cs_hfield layout: nrow x ncol data in [0, 1], hsize radius
 * x, radius y, elevation z, base z), as MuJoCo's mj_rayHfield: the base box, the grid's
 * triangles and the sides of the box above the base */
double cs_ray_hfield(const cs_pose *pose, int nrow, int ncol, const double hsize[4],
                     const double *data, const double pnt[3], const double vec[3],
                     double normal[3]);
/* 1 when point is strictly inside the zone (sphere, capsule, ellipsoid, cylinder, box; a
 * plane: below it), else 0 */
int cs_inside_geom(const cs_pose *pose, int type, const double size[3], const double point[3]);

#endif
