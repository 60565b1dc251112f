/* Tendon wrapping geometry, MuJoCo 3.12's (mju_wrap): the shortest path from x0 to x1 around
 * a sphere or an infinite cylinder, as two tangent points and the arc between them. Pure
 * functions of their arguments. */
#ifndef CS_WRAP_H
#define CS_WRAP_H

/* The wrap of the segment x0 -> x1 around the sphere (cylinder = 0) or the cylinder along
 * its z axis (cylinder = 1) of the given radius whose frame is (xpos, xmat). side: a point
 * (a sidesite's position) selecting the side to pass on, or NULL for the shorter side; a
 * side point inside the object asks for the path through it (wrap_inside). Returns the
 * arc's length with the tangent points in wpnt (x0's first, world frame), or -1 when the
 * straight segment does not touch the object (wpnt is then undefined). */
double cs_wrap(double wpnt[6], const double x0[3], const double x1[3], const double xpos[3],
               const double xmat[9], double radius, int cylinder, const double *side);

#endif
