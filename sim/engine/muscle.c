/* MuJoCo's muscle (muscle.h): the length curve is two pairs of half-parabolas meeting at
 * L = 1 and at the midpoints of [lmin, 1] and [1, lmax]; the velocity curve rises from 0
 * at V = -1 to 1 at V = 0 and to fvmax at V = fvmax - 1; lengths are normalised so that
 * lengthrange maps onto range, velocities by L0 vmax. */
#include <math.h>

#include "minval.h"
#include "muscle.h"

static double floor_min(double x) { return x > CS_MINVAL ? x : CS_MINVAL; }

double cs_muscle_fl(double L, double lmin, double lmax)
{
    if (!(L >= lmin && L <= lmax)) return 0;
    double a = 0.5 * (lmin + 1), b = 0.5 * (1 + lmax), x;
    if (L <= a) {
        x = (L - lmin) / floor_min(a - lmin);
        return 0.5 * x * x;
    }
    if (L <= 1) {
        x = (1 - L) / floor_min(1 - a);
        return 1 - 0.5 * x * x;
    }
    if (L <= b) {
        x = (L - 1) / floor_min(b - 1);
        return 1 - 0.5 * x * x;
    }
    x = (lmax - L) / floor_min(lmax - b);
    return 0.5 * x * x;
}

/* the peak force (a negative force means scale / acc0), the optimal length L0 and the
 * normalised length */
static double peak(const double *prm, double acc0)
{
    return prm[2] < 0 ? prm[3] / floor_min(acc0) : prm[2];
}
static double opt_len(const double lr[2], const double *prm)
{
    return (lr[1] - lr[0]) / floor_min(prm[1] - prm[0]);
}

double cs_muscle_gain(double len, double vel, const double lr[2], double acc0, const double *prm)
{
    double L0 = opt_len(lr, prm);
    double L = prm[0] + (len - lr[0]) / floor_min(L0);
    double V = vel / floor_min(L0 * prm[6]);
    double fvmax = prm[8], y = fvmax - 1, fv;
    if (V <= -1) fv = 0;
    else if (V <= 0) fv = (V + 1) * (V + 1);
    else if (V <= y) fv = fvmax - (y - V) * (y - V) / floor_min(y);
    else fv = fvmax;
    return -peak(prm, acc0) * cs_muscle_fl(L, prm[4], prm[5]) * fv;
}

double cs_muscle_gain_dvel(double len, double vel, const double lr[2], double acc0,
                           const double *prm)
{
    double L0 = opt_len(lr, prm);
    double L = prm[0] + (len - lr[0]) / floor_min(L0);
    double s = floor_min(L0 * prm[6]), V = vel / s;
    double y = prm[8] - 1, dfv = 0;
    if (V > -1 && V <= 0) dfv = 2 * V + 2;
    else if (V > 0 && V <= y) dfv = (2 * y - 2 * V) / floor_min(y);
    return -peak(prm, acc0) * cs_muscle_fl(L, prm[4], prm[5]) * dfv / s;
}

double cs_muscle_bias(double len, const double lr[2], double acc0, const double *prm)
{
    double L0 = opt_len(lr, prm);
    double L = prm[0] + (len - lr[0]) / floor_min(L0);
    double b = 0.5 * (1 + prm[5]), f = peak(prm, acc0) * prm[7];
    if (L <= 1) return 0;
    /* half a parabola up to b, then the line that continues it */
    double x = (L - (L <= b ? 1 : b)) / floor_min(b - 1);
    return L <= b ? -f * 0.5 * x * x : -f * (0.5 + x);
}

/* quintic smoothstep on [0, 1] (MuJoCo's mju_sigmoid) */
static double smoothstep(double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    return x * x * x * (3 * x * (2 * x - 5) + 10);
}

double cs_muscle_dyn(double u, double act, const double *prm)
{
    double uc = u < 0 ? 0 : u > 1 ? 1 : u, ac = act < 0 ? 0 : act > 1 ? 1 : act;
    /* time constants that grow (activation) and shrink (deactivation) with the activation,
     * after Millard et al. 2013 */
    double tact = prm[0] * (0.5 + 1.5 * ac), tdeact = prm[1] / (0.5 + 1.5 * ac);
    double du = uc - act, tau;
    if (prm[2] < CS_MINVAL) tau = du > 0 ? tact : tdeact;
    else tau = tdeact + (tact - tdeact) * smoothstep(du / prm[2] + 0.5);
    return du / floor_min(tau);
}
