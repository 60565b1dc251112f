/* MuJoCo 3.12's mesh polygons of a convex hull (hull_poly.c). */
#ifndef CS_HULL_POLY_H
#define CS_HULL_POLY_H

typedef struct {
    int npoly;
    int *adr;  /* npoly + 1 */
    int *vert; /* polygon p's corners: vert[adr[p] .. adr[p + 1]) */
} cs_hull_polys;

/* The polygons of ntri triangles (3 vertex indices each, in MuJoCo's graph order and corner
 * order) with vertices vert (3 doubles each, the points the graph was built of). 0, or -1 out
 * of memory. */
int cs_hull_polygons(const int *tri, int ntri, const double *vert, cs_hull_polys *out);
void cs_hull_polys_free(cs_hull_polys *p);

/* A polygon's normal from its first three corners, as MuJoCo's compiler makes it. */
void cs_hull_poly_normal(double n[3], const double *a, const double *b, const double *c);

#endif
