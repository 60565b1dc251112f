/* sim-internal: MuJoCo 3.12's polynomial springs and dampers. A spring's force is
 * -x (k + p0 x + p1 x^2), a damper's -v (b + p0 |v| + p1 v^2) (odd in v, so it always
 * dissipates); the linear coefficient is the model's scalar array, the others its *poly one. */
#ifndef CS_POLY_H
#define CS_POLY_H

#include <math.h>

#include "conesim.h"

/* the bracket: linear + p0 x + p1 x^2 (odd: x taken as |x|) */
static inline double cs_poly_coef(double linear, const double *p, double x, int odd)
{
    if (odd) x = fabs(x);
    return linear + x * (p[0] + x * p[1]);
}

/* d(x bracket)/dx: linear + 2 p0 x + 3 p1 x^2 (odd: |x|), the implicit integrators' rate */
static inline double cs_poly_dcoef(double linear, const double *p, double x, int odd)
{
    if (odd) x = fabs(x);
    return linear + x * (2 * p[0] + 3 * x * p[1]);
}

/* the spring's energy, the integral of x bracket from 0: k x^2/2 + p0 x^3/3 + p1 x^4/4 */
static inline double cs_poly_energy(double linear, const double *p, double x)
{
    return x * x * (0.5 * linear + x * (p[0] / 3 + x * p[1] / 4));
}

static inline int cs_poly_zero(const double *p) { return p[0] == 0 && p[1] == 0; }

#endif
