/* Fluid viscosity, MuJoCo's inertia-box model without density (mj_inertiaBoxFluidModel):
 * each body with mass is a box of its inertia's size, drawn as a sphere of the boxes' mean
 * side d; it feels -3 pi d mu (v - wind) at its centre of mass and -pi d^3 mu w, and
 * implicitfast takes the derivative of both (J^T B J over M's entries). */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "stages.h"

#define MINVAL 1e-15 /* mjMINVAL */
#define PI 3.14159265358979323846

/* the sphere's diameter: the mean side of the box with the body's principal inertia */
static double diameter(const cs_model *m, int b)
{
    const double *I = m->body_inertia + 3 * b;
    double M = m->body_mass[b], s = 0;
    for (int k = 0; k < 3; k++)
        s += sqrt(fmax(MINVAL, I[(k + 1) % 3] + I[(k + 2) % 3] - I[k]) / M * 6);
    return s / 3;
}

static int fluid_body(const cs_model *m, int b)
{
    return m->body_treeid[b] >= 0 && m->body_mass[b] >= MINVAL;
}

void cs_fluid_passive(const cs_model *m, cs_data *d)
{
    double mu = m->opt.viscosity;
    if (!(mu > 0)) return;
    int nv = m->nv;
    double *jp = d->eq_scratch, *jr = jp + 3 * (size_t)nv;
    for (int b = 1; b < m->nbody; b++) {
        if (!fluid_body(m, b)) continue;
        double D = diameter(m, b), cl = -3 * PI * D * mu, ca = -PI * D * D * D * mu;
        cs_jac(m, d, b, d->xipos + 3 * b, jp, jr);
        double v[3] = {0, 0, 0}, w[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) {
                v[k] += jp[(size_t)k * nv + i] * d->qvel[i];
                w[k] += jr[(size_t)k * nv + i] * d->qvel[i];
            }
        double F[3], T[3];
        for (int k = 0; k < 3; k++) {
            F[k] = cl * (v[k] - m->opt.wind[k]);
            T[k] = ca * w[k];
        }
        for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
            for (int k = 0; k < 3; k++)
                d->qfrc_passive[i] += jp[(size_t)k * nv + i] * F[k] + jr[(size_t)k * nv + i] * T[k];
    }
}

void cs_fluid_implicit(const cs_model *m, cs_data *d, double h, double *qH)
{
    double mu = m->opt.viscosity;
    if (!(mu > 0) || (m->opt.disableflags & CS_DSBL_PASSIVE)) return;
    int nv = m->nv;
    double *jp = d->eq_scratch, *jr = jp + 3 * (size_t)nv;
    for (int b = 1; b < m->nbody; b++) {
        if (!fluid_body(m, b)) continue;
        double D = diameter(m, b), cl = -3 * PI * D * mu, ca = -PI * D * D * D * mu;
        cs_jac(m, d, b, d->xipos + 3 * b, jp, jr);
        /* D(i, j) = cl jp_i . jp_j + ca jr_i . jr_j for j an ancestor of i (or i) */
        for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
            for (int j = i, k = 0; j >= 0; j = m->dof_parent[j], k++) {
                double s = 0;
                for (int r = 0; r < 3; r++)
                    s += cl * jp[(size_t)r * nv + i] * jp[(size_t)r * nv + j] +
                         ca * jr[(size_t)r * nv + i] * jr[(size_t)r * nv + j];
                qH[m->dof_Madr[i] + k] -= h * s;
            }
    }
}
