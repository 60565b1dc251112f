/* Free-body dynamics in MuJoCo's free-joint coordinates (internal to sim/). */
#ifndef CS_DYNAMICS_H
#define CS_DYNAMICS_H

/* 6x6 mass matrix, coordinates (v: world velocity of the body origin, w: local angular
 * velocity), for mass m, COM c and inertia I (about c) in the body frame, orientation R. */
void cs_free_mass6(double m, const double c[3], const double I[9], const double R[9],
                   double M[36]);
/* Cholesky M = L L^T; returns 0 when M is not positive definite. */
int cs_chol6(const double M[36], double L[36]);
void cs_chol6_solve(const double L[36], double x[6], const double y[6]);
void cs_chol6_inverse(const double L[36], double Minv[36]);

#endif
