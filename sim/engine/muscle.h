/* MuJoCo's muscle model (its documentation's "Muscles" section): the active force-length-
 * velocity curve, the passive force and the activation dynamics. prm is gainprm (or
 * biasprm): range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax; lr the actuator's
 * lengthrange; acc0 its |M^-1 moment| at qpos0. */
#ifndef CS_MUSCLE_H
#define CS_MUSCLE_H

/* the normalised active force at normalised length L: 0 outside [lmin, lmax], 1 at L = 1 */
double cs_muscle_fl(double L, double lmin, double lmax);
/* the gain (negative: muscles pull) at the actuator length and velocity */
double cs_muscle_gain(double len, double vel, const double lr[2], double acc0, const double *prm);
/* d gain / d velocity */
double cs_muscle_gain_dvel(double len, double vel, const double lr[2], double acc0,
                           const double *prm);
/* the passive force (negative or 0) */
double cs_muscle_bias(double len, const double lr[2], double acc0, const double *prm);
/* d act / dt for control u and activation act; prm = dynprm: tau_act, tau_deact, tausmooth */
double cs_muscle_dyn(double u, double act, const double *prm);

#endif
