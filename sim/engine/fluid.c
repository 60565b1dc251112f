/* Fluid forces, MuJoCo's inertia-box model (mj_inertiaBoxFluidModel): each body with mass is
 * the box of its principal inertia, sides b_k. Viscosity mu: a sphere of the mean side d
 * feels -3 pi d mu (v - wind) at its centre of mass and -pi d^3 mu w. Density rho: along each
 * box axis k, with v and w in the box's frame (v relative to the wind), a quadratic drag
 * -rho/2 b_i b_j |v_k| v_k and a torque -rho b_k (b_i^4 + b_j^4) |w_k| w_k / 64.
 * implicitfast takes the derivative of all of them (J^T B J over M's entries; a standalone
 * free body's 6 x 6 block apart, as its integrator solves it); implicit takes it over both
 * triangles of M's pattern. A body with a geom of
 * fluidshape="ellipsoid" takes MuJoCo's ellipsoid model instead (fluid_ellipsoid.c). */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "stages.h"
#include "minval.h"

#define PI 3.14159265358979323846

/* the sides of the box with the body's principal inertia */
static void box_sides(const cs_model *m, int b, double s[3])
{
    const double *I = m->body_inertia + 3 * b;
    double M = m->body_mass[b];
    for (int k = 0; k < 3; k++)
        s[k] = sqrt(fmax(CS_MINVAL, I[(k + 1) % 3] + I[(k + 2) % 3] - I[k]) / M * 6);
}

static int fluid_body(const cs_model *m, int b)
{
    return m->body_treeid[b] >= 0 && m->body_mass[b] >= CS_MINVAL;
}

/* the quadratic coefficients: force and torque along the box axes, times |v_k| v_k */
static void density_coef(double rho, const double s[3], double cf[3], double ct[3])
{
    for (int k = 0; k < 3; k++) {
        double a = s[(k + 1) % 3], c = s[(k + 2) % 3];
        cf[k] = -0.5 * rho * a * c;
        ct[k] = -rho * s[k] * (a * a * a * a + c * c * c * c) / 64;
    }
}

void cs_fluid_passive(const cs_model *m, cs_data *d)
{
    double mu = m->opt.viscosity, rho = m->opt.density;
    if (!(mu > 0) && !(rho > 0)) return;
    int nv = m->nv;
    double *jp = d->scratch->eq_scratch, *jr = jp + 3 * (size_t)nv;
    for (int b = 1; b < m->nbody; b++) {
        if (!fluid_body(m, b)) continue;
        if (cs_fluid_ellipsoid_body(m, b)) {
            cs_fluid_ellipsoid_passive(m, d, b);
            continue;
        }
        double s[3];
        box_sides(m, b, s);
        double D = (s[0] + s[1] + s[2]) / 3, cl = -3 * PI * D * mu, ca = -PI * D * D * D * mu;
        cs_jac(m, d, b, d->xipos + 3 * b, jp, jr);
        double v[3] = {0, 0, 0}, w[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) {
                v[k] += jp[(size_t)k * nv + i] * d->qvel[i];
                w[k] += jr[(size_t)k * nv + i] * d->qvel[i];
            }
        double F[3], T[3];
        for (int k = 0; k < 3; k++) {
            F[k] = mu > 0 ? cl * (v[k] - m->opt.wind[k]) : 0;
            T[k] = mu > 0 ? ca * w[k] : 0;
        }
        if (rho > 0) {
            /* in the box's frame (ximat's columns), then back */
            const double *R = d->ximat + 9 * b;
            double cf[3], ct[3], lv[3], lw[3];
            density_coef(rho, s, cf, ct);
            for (int k = 0; k < 3; k++) {
                lv[k] = lw[k] = 0;
                for (int r = 0; r < 3; r++) {
                    lv[k] += R[3 * r + k] * (v[r] - m->opt.wind[r]);
                    lw[k] += R[3 * r + k] * w[r];
                }
            }
            for (int k = 0; k < 3; k++) {
                double f = cf[k] * fabs(lv[k]) * lv[k], t = ct[k] * fabs(lw[k]) * lw[k];
                for (int r = 0; r < 3; r++) {
                    F[r] += R[3 * r + k] * f;
                    T[r] += R[3 * r + k] * t;
                }
            }
        }
        for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
            for (int k = 0; k < 3; k++)
                d->qfrc_passive[i] += jp[(size_t)k * nv + i] * F[k] + jr[(size_t)k * nv + i] * T[k];
    }
}

/* the inertia box's d force / d velocity, J^T B J with B diagonal in the box's frame: into
 * qH's entries of body b's chain (and, up given, the upper triangle's: up's row i holds the
 * (ancestor, i) entries), or, A6 given, into a standalone free body's 6 x 6 block (dofs
 * o .. o + 5); all take -h times it */
static void box_deriv(const cs_model *m, cs_data *d, int b, double h, double *qH, double *up,
                      double *A6, int o)
{
    double mu = m->opt.viscosity, rho = m->opt.density;
    int nv = m->nv;
    double *jp = d->scratch->eq_scratch, *jr = jp + 3 * (size_t)nv;
    double s[3];
    box_sides(m, b, s);
    double D = (s[0] + s[1] + s[2]) / 3;
    double cl = mu > 0 ? -3 * PI * D * mu : 0, ca = mu > 0 ? -PI * D * D * D * mu : 0;
    cs_jac(m, d, b, d->xipos + 3 * b, jp, jr);
    /* the rows in the box's frame when density acts: B is diagonal there */
    double Bf[3] = {cl, cl, cl}, Bt[3] = {ca, ca, ca};
    if (rho > 0) {
        const double *R = d->ximat + 9 * b;
        double cf[3], ct[3], v[3] = {0, 0, 0}, w[3] = {0, 0, 0};
        density_coef(rho, s, cf, ct);
        cs_fluid_local_rows(m, b, R, jp, jr);
        for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
            for (int k = 0; k < 3; k++) {
                v[k] += jp[(size_t)k * nv + i] * d->qvel[i];
                w[k] += jr[(size_t)k * nv + i] * d->qvel[i];
            }
        for (int k = 0; k < 3; k++) {
            double wl = 0;
            for (int r = 0; r < 3; r++) wl += R[3 * r + k] * m->opt.wind[r];
            /* d/dv of c |v| v is 2 c |v| */
            Bf[k] += 2 * cf[k] * fabs(v[k] - wl);
            Bt[k] += 2 * ct[k] * fabs(w[k]);
        }
    }
#define TERM(i, j)                                                                        \
    (Bf[0] * jp[i] * jp[j] + Bf[1] * jp[nv + (i)] * jp[nv + (j)] +                         \
     Bf[2] * jp[2 * (size_t)nv + (i)] * jp[2 * (size_t)nv + (j)] + Bt[0] * jr[i] * jr[j] + \
     Bt[1] * jr[nv + (i)] * jr[nv + (j)] + Bt[2] * jr[2 * (size_t)nv + (i)] * jr[2 * (size_t)nv + (j)])
    if (A6) {
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) A6[6 * r + c] -= h * TERM(o + r, o + c);
        return;
    }
    /* D(i, j) for j an ancestor of i (or i); without up (implicitfast's qH) MuJoCo's reduced
     * sparsity: a simple body's dofs keep only their diagonal */
    for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
        for (int j = i, k = 0; j >= 0 && !(!up && k && m->body_simple[m->dof_bodyid[i]]);
             j = m->dof_parent[j], k++) {
            qH[m->dof_Madr[i] + k] -= h * TERM(i, j);
            if (up && k) up[m->dof_Madr[i] + k] -= h * TERM(j, i);
        }
#undef TERM
}

static int fluid_on(const cs_model *m)
{
    return (m->opt.viscosity > 0 || m->opt.density > 0) && !(m->opt.disableflags & CS_DSBL_PASSIVE);
}

void cs_fluid_implicit(const cs_model *m, cs_data *d, double h, double *qH, double *up)
{
    if (!fluid_on(m)) return;
    for (int b = 1; b < m->nbody; b++) {
        if (!fluid_body(m, b)) continue;
        /* implicitfast keeps the global matrix symmetric (MuJoCo symmetrises B there);
         * implicit, given both triangles, takes B as it is */
        if (cs_fluid_ellipsoid_body(m, b))
            cs_fluid_ellipsoid_deriv(m, d, b, up == NULL, h, qH, up, NULL, 0);
        else box_deriv(m, d, b, h, qH, up, NULL, 0);
    }
}

void cs_fluid_implicit_free(const cs_model *m, cs_data *d, int b, int o, double h, double A6[36])
{
    if (!fluid_on(m) || !fluid_body(m, b)) return;
    if (cs_fluid_ellipsoid_body(m, b)) cs_fluid_ellipsoid_deriv(m, d, b, 0, h, NULL, NULL, A6, o);
    else box_deriv(m, d, b, h, NULL, NULL, A6, o);
}
