/* Mass properties of primitives and their combination (as MuJoCo's compiler does). */
#ifndef CS_INERTIA_H
#define CS_INERTIA_H

/* Volume of a geom (MuJoCo's size meaning), or with shell its surface's area; planes 0. */
double cs_geom_volume(int type, const double size[3], int shell);
/* Radius of the sphere about the geom centre that holds it (planes, meshes: 0). */
double cs_geom_rbound(int type, const double size[3]);
/* Principal inertia about the geom centre in the geom frame, for mass `mass` spread over
 * the volume or, with shell, over the surface. */
void cs_geom_inertia(int type, const double size[3], double mass, int shell, double inertia[3]);

/* A principal inertia (local, in the axes quat) as the six entries xx, yy, zz, xy, xz, yz of
 * the tensor in the outer frame; the parallel-axis term of a mass at offset v, the same way.
 * MuJoCo's compiler's expressions, for its rounding. */
void cs_inertia_global(double global[6], const double local[3], const double quat[4]);
void cs_inertia_offcenter(double res[6], double mass, const double v[3]);

/* Accumulator for a rigid set of masses in one frame. */
typedef struct {
    double mass;
    double mc[3];  /* sum m_i c_i */
    double J[9];   /* sum of inertia tensors about the frame origin */
} cs_mass_acc;

void cs_mass_acc_init(cs_mass_acc *a);
/* add mass with COM `pos`, principal inertia `inertia` about COM in axes `quat`,
 * all expressed in the accumulator's frame */
void cs_mass_acc_add(cs_mass_acc *a, double mass, const double pos[3], const double quat[4],
                     const double inertia[3]);
/* total COM and full inertia tensor about it; returns 0 if mass == 0 */
int cs_mass_acc_result(const cs_mass_acc *a, double com[3], double I[9]);

/* Eigen-decomposition of a symmetric 3x3: values descending, quat of the principal axes. */
void cs_eig3(const double A[9], double eigval[3], double quat[4]);

#endif
