/* Cone membership, capacity, maximum dissipation and pyramid encodings
 * (docs/contact-math.md §2, §3, §5). */
#include "cone.h"

#include <math.h>

const char *cs_zone_name(cs_zone z)
{
    switch (z) {
    case CS_ZONE_TOP: return "top";
    case CS_ZONE_BOTTOM: return "bottom";
    case CS_ZONE_MIDDLE: return "middle";
    case CS_ZONE_LINEARNEG: return "linearneg";
    case CS_ZONE_LINEARPOS: return "linearpos";
    }
    return "?";
}

const char *cs_cone_where_name(cs_cone_where w)
{
    switch (w) {
    case CS_CONE_INSIDE: return "inside";
    case CS_CONE_BOUNDARY: return "boundary";
    case CS_CONE_OUTSIDE: return "outside";
    }
    return "?";
}

void cs_cone_classify(int r, const double *mu, double fn, const double *phi, double tol,
                      cs_cone_check *out)
{
    double s2 = 0;
    int zero_viol = 0, all_zero = 1;
    for (int k = 0; k < r; k++) {
        if (phi[k] != 0) all_zero = 0;
        if (mu[k] > 0) {
            double q = phi[k] / mu[k];
            s2 += q * q;
        } else if (phi[k] != 0) {
            zero_viol = 1;
        }
    }
    out->scaled_norm = sqrt(s2);
    out->zero_mu_violated = zero_viol;
    out->signed_dist = out->scaled_norm - fn;
    /* the radius is infinite (undefined) at the apex and off a zero-scale axis */
    out->radius_defined = fn > 0 && !zero_viol;
    out->radius = fn > 0 ? out->scaled_norm / fn : 0;
    if (fn < 0 || zero_viol)
        out->where = CS_CONE_OUTSIDE;
    else if (fn == 0)
        out->where = all_zero ? CS_CONE_BOUNDARY : CS_CONE_OUTSIDE;
    else if (fabs(out->radius - 1) <= tol)
        out->where = CS_CONE_BOUNDARY;
    else
        out->where = out->radius < 1 ? CS_CONE_INSIDE : CS_CONE_OUTSIDE;
}

double cs_cone_capacity(double fn, double mu1, double mu2, double alpha)
{
    /* cos(pi/2) is 6e-17, not 0: round such components so that a zero scale's section
     * (a segment along the other axis) is still found along that axis */
    double d[2] = {cos(alpha), sin(alpha)}, mu[2] = {mu1, mu2};
    for (int k = 0; k < 2; k++)
        if (fabs(d[k]) <= 1e-15) d[k] = 0;
    return cs_cone_capacity_dir(2, mu, fn, d);
}

double cs_cone_capacity_dir(int r, const double *mu, double fn, const double *dir)
{
    double n2 = 0, s2 = 0;
    int blocked = 0; /* a zero-scale component of dir leaves no room at all */
    for (int k = 0; k < r; k++) {
        if (dir[k] == 0) continue;
        n2 += dir[k] * dir[k];
        if (mu[k] > 0) {
            double q = dir[k] / mu[k];
            s2 += q * q;
        } else {
            blocked = 1;
        }
    }
    if (n2 == 0) return -1;
    return blocked ? 0 : fn * sqrt(n2 / s2);
}

int cs_cone_slide(int r, const double *mu, double fn, const double *v, double *f, double *power)
{
    double s2 = 0;
    for (int k = 0; k < r; k++) {
        double q = mu[k] * v[k];
        s2 += q * q;
    }
    double dv = sqrt(s2);
    if (!(dv > 0)) {
        for (int k = 0; k < r; k++) f[k] = 0;
        *power = 0;
        return 0;
    }
    for (int k = 0; k < r; k++) f[k] = -fn * mu[k] * mu[k] * v[k] / dv;
    *power = -fn * dv; /* = f.v, in closed form */
    return 1;
}

void cs_pyramid_decode(int r, const double *mu, const double *alpha, double *fn, double *phi)
{
    double s = 0;
    for (int k = 0; k < 2 * r; k++) s += alpha[k];
    *fn = s;
    for (int k = 0; k < r; k++) phi[k] = mu[k] * (alpha[2 * k] - alpha[2 * k + 1]);
}

int cs_pyramid_encode_full(int r, const double *mu, double fn, const double *phi, double *alpha)
{
    double used = 0;
    int ok = fn >= 0;
    for (int k = 0; k < r; k++) {
        if (mu[k] > 0)
            used += fabs(phi[k]) / mu[k];
        else if (phi[k] != 0)
            ok = 0;
    }
    double s = fn - used;
    if (s < 0 && s >= -1e-14 * (fabs(fn) + used)) s = 0; /* on a face up to rounding */
    if (s < 0) ok = 0;
    double share = r > 0 ? s / (2 * r) : 0;
    for (int k = 0; k < r; k++) {
        double q = mu[k] > 0 ? phi[k] / mu[k] : 0;
        alpha[2 * k] = fmax(q, 0) + share;
        alpha[2 * k + 1] = fmax(-q, 0) + share;
    }
    return ok;
}

void cs_pyramid_encode_mujoco(int r, const double *mu, double fn, const double *phi, double *alpha)
{
    if (r < 1) return;
    double a = fn / r;
    for (int k = 0; k < r; k++) {
        double b = mu[k] > 0 ? fmin(a, phi[k] / mu[k]) : 0;
        alpha[2 * k] = 0.5 * (a + b);
        alpha[2 * k + 1] = 0.5 * (a - b);
    }
}
