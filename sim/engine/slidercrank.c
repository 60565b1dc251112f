/* The slider-crank transmission, MuJoCo 3.12's (mj_transmission): a rod of length r joins
 * the crank site c to a slider that runs along the z axis a of the slider site s. With
 * v = c - s the slider's position along a is the root of |v - l a| = r nearest s:
 * l = a.v - sqrt((a.v)^2 + r^2 - v.v); where the rod cannot reach the axis (a negative
 * determinant) l is a.v, as MuJoCo takes it. The moment is dl/dq by the chain rule through
 * v (the two sites' point Jacobians) and a (the slider site's rotation). */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "stages.h"
#include "spatial.h"

double cs_slider_crank(const cs_model *m, const cs_data *d, int i, double *moment,
                       double *scratch)
{
    int nv = m->nv, crank = m->actuator_trnid[2 * i], slider = m->actuator_trnid[2 * i + 1];
    double r = m->actuator_cranklength[i], g = m->actuator_gear[6 * i];
    const double *R = d->site_xmat + 9 * slider, *ps = d->site_xpos + 3 * slider;
    const double *pc = d->site_xpos + 3 * crank;
    double a[3] = {R[2], R[5], R[8]}, v[3];
    for (int k = 0; k < 3; k++) v[k] = pc[k] - ps[k];
    double av = sp_dot3(a, v), det = av * av + r * r - sp_dot3(v, v), len, dlda[3], dldv[3];
    if (det <= 0) { /* out of reach: the projection, with its derivatives */
        len = av;
        memcpy(dlda, v, sizeof dlda);
        memcpy(dldv, a, sizeof dldv);
    } else {
        double sd = sqrt(det);
        len = av - sd;
        for (int k = 0; k < 3; k++) {
            dldv[k] = a[k] * (1 - av / sd) + v[k] / sd;
            dlda[k] = v[k] * (1 - av / sd);
        }
    }
    /* jv = d v / dq (crank point minus slider point), ja = d a / dq = w x a per dof */
    double *jc = scratch, *js = scratch + 3 * (size_t)nv, *jr = scratch + 6 * (size_t)nv;
    cs_jac(m, d, m->site_bodyid[crank], pc, jc, NULL);
    cs_jac(m, d, m->site_bodyid[slider], ps, js, jr);
    for (int j = 0; j < nv; j++) {
        double w[3] = {jr[j], jr[nv + j], jr[2 * (size_t)nv + j]}, da[3], s = 0;
        sp_cross(w, a, da);
        for (int k = 0; k < 3; k++)
            s += dlda[k] * da[k] + dldv[k] * (jc[(size_t)k * nv + j] - js[(size_t)k * nv + j]);
        moment[j] = g * s;
    }
    return g * len;
}
