/* The Coulomb-exact contact model (docs/contact-math.md §11): hard velocity-level Signorini
 * on the normal row (with solref's position stabilisation), friction in the cone of the
 * normal force actually developed, maximally dissipative against the end-of-step sliding
 * velocity, with a true stick state; joint limits as Signorini rows and friction loss as
 * exact dry friction. Solved by non-smooth block Gauss-Seidel with an exact local solve of
 * each block's Coulomb problem (the normal's Signorini root, the fixed-normal QCQP of §6 with
 * the friction regularisation at zero inside it).
 *
 * Use: build the rows as usual (elliptic blocks; cs_efc_add_contact, cs_efc_add_joint_row),
 * turn them into Coulomb rows with cs_coulomb_rows (the timestep fixes the velocity
 * targets), then cs_solve with opts.type = CS_METHOD_COULOMB, opts.timestep and
 * opts.coulomb_cone. No I/O. */
#ifndef CS_COULOMB_H
#define CS_COULOMB_H

#include "rows.h"

/* Allowed penetration (m; rad for an angular limit): the stabilisation drives a contact to
 * this depth and a body rests there, so a resting contact never reaches dist = 0, where
 * rounding would make it come and go. */
#define CS_COULOMB_SLOP 1e-6

/* Target velocity of a Signorini row at signed gap p = pos - margin (negative when
 * penetrating): from p + slop >= 0 the row may close the gap down to -slop within the step
 * (speculative, -(p + slop)/h); deeper it pushes out at the rate of the row's solref,
 * -(K/B)(p + slop), K/B at most 1/h. */
double cs_coulomb_target(double p, double K, double B, double h);

/* Rewrite the step's rows for the Coulomb model: R = 0 on every row; a_ref such that
 * J a - a_ref = (v+ - v*)/h with the end-of-step velocity v+ = vel + h J a and the target
 * v* = cs_coulomb_target on contact normals and limits, 0 on friction, spin, rolling and
 * friction-loss rows; a pyramidal block's edges take its normal's target. Which rows to
 * build: elliptic frame rows for block Gauss-Seidel (it solves either friction set on them,
 * opts.coulomb_cone); pyramidal rows for the pyramid under proximal Newton, whose soft
 * problems then have the pyramid as their cone (cs_coulomb_pyramid_rows). */
void cs_coulomb_rows(cs_efc *e, double timestep);

/* 1 when the Coulomb model with friction set `cone` (cs_cone_type) and method (cs_coulomb_method)
 * wants pyramidal rows, 0 for elliptic frame rows. */
int cs_coulomb_pyramid_rows(int cone, int method);

/* One block's Coulomb problem (exposed for tests). G: dim x dim (positive definite), c: the
 * block's residual without its own force (J a - a_ref with f = 0 on this block), mu:
 * the dim - 1 friction coefficients, pyramid: 0 for the ellipsoid ||D^-1 x_t|| <= x_0, 1 for
 * the pyramid sum |x_j|/mu_j <= x_0. Finds x with v = G x + c:
 *   x_0 >= 0, v_0 >= 0, x_0 v_0 = 0 (Signorini);
 *   x_t in the section of radius x_0 and x_t = argmin over it of x_t . v_t (maximum
 *   dissipation), so v_t = 0 when x_t is inside (stick).
 * x in: a warm start (any value). Returns 0 separate, 1 stick, 2 slide, -1 when the
 * normal's root could not be bracketed (x then holds the convex cone's minimiser). */
int cs_coulomb_block(int dim, const double *G, const double *c, const double *mu, int pyramid,
                     double *x);

#endif
