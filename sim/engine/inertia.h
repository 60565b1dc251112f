/* Mass properties of primitives and their combination (as MuJoCo's compiler does). */
#ifndef CS_INERTIA_H
#define CS_INERTIA_H

/* Volume of a geom (MuJoCo's size meaning); planes 0. */
double cs_geom_volume(int type, const double size[3]);
/* Radius of the sphere about the geom centre that holds it (planes, meshes: 0). */
double cs_geom_rbound(int type, const double size[3]);
/* Principal inertia about the geom centre in the geom frame, for mass `mass`. */
void cs_geom_inertia(int type, const double size[3], double mass, double inertia[3]);

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
