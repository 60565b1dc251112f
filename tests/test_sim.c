/* sim/: free-body dynamics against physical facts, mass properties against closed forms,
 * orientation forms, defaults and classes. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static cs_model *load(const char *xml)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, "test.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    return m;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* ---- frames taken as the body's or the inertial frame (MuJoCo's sameframe) ------------- */

/* A geom or site posed within 1e-6 of its body's inertial frame sits exactly on that frame
 * (MuJoCo 3.12 copies it); 2e-6 away it keeps its own pose. */
START_TEST(test_sameframe_within_1e6)
{
    cs_model *m = load(
        "<mujoco><worldbody><body pos='0.1 0.2 0.3' euler='10 20 30'><freejoint/>"
        "<inertial pos='0.01 0.02 0.03' quat='0.7 0.1 0.2 0.3' mass='1' diaginertia='1 2 3'/>"
        "<geom name='near' type='box' size='.1 .2 .3' pos='0.0100004 0.02 0.03'"
        " quat='0.7000005 0.1 0.2 0.3'/>"
        "<geom name='far' type='box' size='.1 .2 .3' pos='0.01 0.02 0.03'"
        " quat='0.70001 0.1 0.2 0.3'/>"
        "<geom name='rot' type='box' size='.1 .2 .3' pos='0.5 0 0'/>"
        "<geom name='irot' type='box' size='.1 .2 .3' pos='0.2 0 0' quat='0.7 0.1 0.2 0.3'/>"
        "<site name='s' pos='0.0100004 0.02 0.03' quat='0.7 0.1 0.2 0.3'/>"
        "</body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    d->qvel[3] = 1.3, d->qvel[4] = -0.4, d->qvel[5] = 0.7;
    for (int k = 0; k < 5; k++) cs_step(m, d);
    int near = cs_name2id_geom(m, "near"), far = cs_name2id_geom(m, "far");
    int rot = cs_name2id_geom(m, "rot"), irot = cs_name2id_geom(m, "irot");
    ck_assert_int_eq(m->geom_sameframe[near], 2);
    ck_assert_int_eq(m->geom_sameframe[far], 0); /* same position, rotation 1e-5 off */
    ck_assert_int_eq(m->geom_sameframe[rot], 3);
    ck_assert_int_eq(m->geom_sameframe[irot], 4);
    ck_assert_int_eq(m->site_sameframe[0], 2);
    ck_assert_int_eq(m->body_sameframe[1], 0);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq(d->geom_xpose[near].pos[k], d->xipos[3 + k]);
        ck_assert_double_eq(d->site_xpos[k], d->xipos[3 + k]);
    }
    for (int k = 0; k < 9; k++) {
        ck_assert_double_eq(d->geom_xpose[near].mat[k], d->ximat[9 + k]);
        ck_assert_double_eq(d->geom_xpose[rot].mat[k], d->xmat[9 + k]);
        ck_assert_double_eq(d->geom_xpose[irot].mat[k], d->ximat[9 + k]);
        ck_assert_double_eq(d->site_xmat[k], d->ximat[9 + k]);
    }
    /* "far" is rotated off the inertial frame: its own orientation, not ximat */
    double off = 0;
    for (int k = 0; k < 9; k++) off = fmax(off, fabs(d->geom_xpose[far].mat[k] - d->ximat[9 + k]));
    ck_assert(off > 1e-6 && off < 1e-4);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- free fall ------------------------------------------------------------------------- */
START_TEST(test_free_fall)
{
    /* COM offset from the body frame: the fall must still be a pure translation */
    cs_model *m = load("<mujoco><option timestep='0.002'/><worldbody><body pos='0 0 10'>"
                       "<freejoint/><inertial pos='0.1 -0.2 0.05' mass='2' diaginertia='0.1 0.2 0.25'/>"
                       "</body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    double v0[3] = {1, -0.5, 3};
    memcpy(d->qvel, v0, sizeof v0);
    double h = m->opt.timestep, g = -9.81;
    int n = 500;
    for (int k = 0; k < n; k++) cs_step(m, d);
    double t = n * h;
    /* semi-implicit Euler exactly: v_n = v0 + n h g, z_n = z0 + n h v0 + h^2 g n(n+1)/2 */
    ck_assert_double_eq_tol(d->qvel[2], v0[2] + g * t, 1e-11);
    ck_assert_double_eq_tol(d->qpos[2], 10 + v0[2] * t + h * h * g * n * (n + 1) / 2.0, 1e-10);
    ck_assert_double_eq_tol(d->qpos[0], v0[0] * t, 1e-11);
    ck_assert_double_eq_tol(d->qpos[1], v0[1] * t, 1e-11);
    /* against the continuous closed form: the scheme's O(h) offset h g t / 2 */
    double zc = 10 + v0[2] * t + 0.5 * g * t * t;
    ck_assert_double_eq_tol(d->qpos[2] - zc, 0.5 * h * g * t, 1e-10);
    /* no rotation */
    for (int k = 3; k < 6; k++) ck_assert_double_eq_tol(d->qvel[k], 0, 1e-13);
    ck_assert_double_eq_tol(d->qpos[3], 1, 1e-13);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- mass matrix against kinetic energy --------------------------------------------- */
START_TEST(test_mass_matrix_energy)
{
    cs_model *m = load("<mujoco><worldbody><body pos='0 0 1' euler='10 20 30'><freejoint/>"
                       "<inertial pos='0.3 -0.1 0.2' euler='5 -15 40' mass='3' diaginertia='0.2 0.3 0.4'/>"
                       "</body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    double v[6] = {0.3, -1.2, 0.7, 2.0, -0.4, 1.1};
    memcpy(d->qvel, v, sizeof v);
    cs_forward(m, d);
    /* independent: T = 1/2 m |v_com|^2 + 1/2 w_world^T I_world w_world */
    double *R = d->xmat + 9, *Ri = d->ximat + 9, w[3], r[3], vc[3];
    for (int i = 0; i < 3; i++) w[i] = R[3 * i] * v[3] + R[3 * i + 1] * v[4] + R[3 * i + 2] * v[5];
    for (int i = 0; i < 3; i++) r[i] = d->xipos[3 + i] - d->xpos[3 + i];
    vc[0] = v[0] + w[1] * r[2] - w[2] * r[1];
    vc[1] = v[1] + w[2] * r[0] - w[0] * r[2];
    vc[2] = v[2] + w[0] * r[1] - w[1] * r[0];
    double wl[3]; /* w in the principal frame */
    for (int i = 0; i < 3; i++) wl[i] = Ri[i] * w[0] + Ri[3 + i] * w[1] + Ri[6 + i] * w[2];
    double T = 0.5 * 3 * dot3(vc, vc) + 0.5 * (0.2 * wl[0] * wl[0] + 0.3 * wl[1] * wl[1] + 0.4 * wl[2] * wl[2]);
    ck_assert_double_eq_tol(cs_energy_kinetic(m, d), T, 1e-12);
    /* M M^-1 = E, M^-1 through the factor the step keeps */
    ck_assert_int_eq(m->nv, 6);
    for (int j = 0; j < 6; j++) {
        double e[6] = {0}, x[6];
        e[j] = 1;
        cs_solve_M(m, d, x, e);
        double y[6];
        cs_mul_M(m, d, y, x);
        for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(y[i], i == j, 1e-12);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A simple body (inertial frame = body frame, a root): its mass matrix is the constant
 * diagonal (m, m, m, I1, I2, I3) with no couplings, at any orientation (MuJoCo keeps it as
 * dof_M0); simple="false" makes the general product, the same physics */
START_TEST(test_simple_body_mass_matrix)
{
    const char *xml[2] = {
        "<mujoco><worldbody><body pos='0 0 1' euler='10 20 30'><freejoint/>"
        "<geom type='box' size='.1 .2 .3' mass='3'/></body></worldbody></mujoco>",
        "<mujoco><worldbody><body pos='0 0 1' euler='10 20 30' simple='false'><freejoint/>"
        "<geom type='box' size='.1 .2 .3' mass='3'/></body></worldbody></mujoco>"};
    /* a box of half sizes a, b, c: I1 = m (b^2 + c^2) / 3, ... */
    double I[3] = {3.0 * (0.2 * 0.2 + 0.3 * 0.3) / 3, 3.0 * (0.1 * 0.1 + 0.3 * 0.3) / 3,
                   3.0 * (0.1 * 0.1 + 0.2 * 0.2) / 3};
    double q[2][7];
    for (int k = 0; k < 2; k++) {
        cs_model *m = load(xml[k]);
        ck_assert_int_eq(m->body_simple[1], k == 0);
        cs_data *d = cs_make_data(m);
        double v[6] = {0.3, -1.2, 0.7, 2.0, -0.4, 1.1};
        memcpy(d->qvel, v, sizeof v);
        for (int s = 0; s < 200; s++) cs_step(m, d); /* tumbled to another orientation */
        cs_forward(m, d);
        for (int i = 0; i < 6; i++) {
            const double *row = d->qM + m->dof_Madr[i];
            double want = i < 3 ? 3 : I[i - 3];
            ck_assert_double_eq_tol(row[0], want, 1e-12 * want);
            for (int a = 1; a <= i; a++) {
                if (k == 0) ck_assert(row[a] == 0);
                else ck_assert_double_eq_tol(row[a], 0, 1e-12);
            }
        }
        memcpy(q[k], d->qpos, sizeof q[k]);
        cs_free_data(d);
        cs_free_model(m);
    }
    for (int i = 0; i < 7; i++) ck_assert_double_eq_tol(q[0][i], q[1][i], 1e-10);
}
END_TEST

/* A force through the COM accelerates it at F/m with no rotation; a pure torque leaves the
 * COM at rest, even with the COM offset from the body frame. */
START_TEST(test_applied_force)
{
    cs_model *m = load("<mujoco><option gravity='0 0 0'/><worldbody><body euler='30 0 0'><freejoint/>"
                       "<inertial pos='0.3 0.1 -0.2' mass='2' diaginertia='0.2 0.3 0.4'/>"
                       "</body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    double F[3] = {1, 2, -3};
    memcpy(d->xfrc_applied + 6, F, sizeof F);
    cs_forward(m, d);
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(d->qacc[k], F[k] / 2, 1e-12);
    for (int k = 3; k < 6; k++) ck_assert_double_eq_tol(d->qacc[k], 0, 1e-12);
    memset(d->xfrc_applied, 0, 12 * sizeof(double));
    d->xfrc_applied[6 + 5] = 1.5; /* world torque about z */
    cs_forward(m, d);
    /* COM acceleration a_origin + alpha x r (w = 0) must vanish */
    double *R = d->xmat + 9, al[3], r[3];
    for (int i = 0; i < 3; i++) al[i] = R[3 * i] * d->qacc[3] + R[3 * i + 1] * d->qacc[4] + R[3 * i + 2] * d->qacc[5];
    for (int i = 0; i < 3; i++) r[i] = d->xipos[3 + i] - d->xpos[3 + i];
    double ac[3] = {d->qacc[0] + al[1] * r[2] - al[2] * r[1], d->qacc[1] + al[2] * r[0] - al[0] * r[2],
                    d->qacc[2] + al[0] * r[1] - al[1] * r[0]};
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(ac[k], 0, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- torque-free rotation: conservation and convergence order -------------------------- */
static void spin_errors(double h, double *eL, double *eE, double *ep)
{
    char xml[512];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='%.17g' gravity='0 0 0'/><worldbody><body><freejoint/>"
             "<inertial pos='0.1 0.05 -0.02' mass='1.5' diaginertia='1 2 3'/></body></worldbody>"
             "</mujoco>", h);
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    double v[6] = {0.2, 0, -0.1, 1.0, 0.3, 0.6};
    memcpy(d->qvel, v, sizeof v);
    cs_forward(m, d);
    double L0[3], p0[3], L[3], p[3];
    cs_momentum(m, d, 0, L0, p0);
    double E0 = cs_energy_kinetic(m, d);
    int n = (int)llround(2.0 / h);
    for (int k = 0; k < n; k++) cs_step(m, d);
    cs_forward(m, d);
    cs_momentum(m, d, 0, L, p);
    double dl[3] = {L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]};
    double dp[3] = {p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]};
    *eL = sqrt(dot3(dl, dl) / dot3(L0, L0));
    *eE = fabs(cs_energy_kinetic(m, d) - E0) / E0;
    *ep = sqrt(dot3(dp, dp) / dot3(p0, p0));
    cs_free_data(d);
    cs_free_model(m);
}

START_TEST(test_spin_conservation_order)
{
    double hs[3] = {4e-3, 2e-3, 1e-3}, eL[3], eE[3], ep[3];
    for (int i = 0; i < 3; i++) spin_errors(hs[i], &eL[i], &eE[i], &ep[i]);
    for (int i = 0; i < 3; i++)
        printf("spin: h %g  |dL|/|L| %.3e  |dE|/E %.3e  |dp|/|p| %.3e\n", hs[i], eL[i], eE[i], ep[i]);
    for (int i = 0; i < 2; i++) {
        double oL = log2(eL[i] / eL[i + 1]), oE = log2(eE[i] / eE[i + 1]);
        printf("spin: observed order  L %.3f  E %.3f\n", oL, oE);
        /* semi-implicit Euler is first order */
        ck_assert_msg(oL > 0.8 && oL < 1.3, "momentum order %g", oL);
        ck_assert_msg(oE > 0.8 && oE < 1.3, "energy order %g", oE);
    }
    ck_assert(eL[2] < 2e-2 && eE[2] < 2e-2);
    /* with the COM offset the linear momentum changes only with the rotation error */
    ck_assert(ep[2] < ep[0]);
}
END_TEST

/* ---- Dzhanibekov: rotation about the intermediate axis flips; the major axis is stable ---- */
static double min_axis_alignment(int axis, double h, double T)
{
    char xml[512];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='%g' gravity='0 0 0'/><worldbody><body><freejoint/>"
             "<inertial pos='0 0 0' mass='1' diaginertia='1 2 3'/></body></worldbody></mujoco>", h);
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    double w[3] = {0.01, 0.01, 0.01};
    w[axis] = 5;
    memcpy(d->qvel + 3, w, sizeof w);
    cs_forward(m, d);
    double minc = 1;
    int n = (int)llround(T / h);
    for (int k = 0; k < n; k++) {
        cs_step(m, d);
        cs_kinematics(m, d);
        double c = d->xmat[9 + 3 * axis + axis]; /* body axis . world axis (same at t=0) */
        if (c < minc) minc = c;
    }
    cs_free_data(d);
    cs_free_model(m);
    return minc;
}

START_TEST(test_dzhanibekov)
{
    double inter = min_axis_alignment(1, 1e-3, 6);
    double major = min_axis_alignment(2, 1e-3, 6);
    printf("dzhanibekov: min alignment intermediate %.4f, major %.6f\n", inter, major);
    ck_assert_msg(inter < -0.9, "intermediate axis did not flip (min %g)", inter);
    ck_assert_msg(major > 0.999, "major axis not stable (min %g)", major);
}
END_TEST

/* ---- mass properties ------------------------------------------------------------------- */
static void one_geom(const char *geom, double *mass, double I[3])
{
    char xml[512];
    snprintf(xml, sizeof xml, "<mujoco><worldbody><body><freejoint/>%s</body></worldbody></mujoco>", geom);
    cs_model *m = load(xml);
    *mass = m->body_mass[1];
    memcpy(I, m->body_inertia + 3, 3 * sizeof *I);
    cs_free_model(m);
}

static void sort3(double *v)
{
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (v[j] > v[i]) { double t = v[i]; v[i] = v[j]; v[j] = t; }
}

static void check_I(const double *got, double a, double b, double c)
{
    double e[3] = {a, b, c};
    sort3(e);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(got[i], e[i], 1e-12 * (1 + e[0]));
}

START_TEST(test_primitive_inertia)
{
    double m, I[3], rho = 1000;
    one_geom("<geom type='sphere' size='0.1'/>", &m, I);
    double ms = rho * 4.0 / 3.0 * M_PI * 1e-3;
    ck_assert_double_eq_tol(m, ms, 1e-12);
    check_I(I, 0.4 * ms * 0.01, 0.4 * ms * 0.01, 0.4 * ms * 0.01);

    one_geom("<geom type='box' size='0.1 0.2 0.3'/>", &m, I);
    double mb = rho * 0.2 * 0.4 * 0.6; /* full edges a, b, c */
    ck_assert_double_eq_tol(m, mb, 1e-12);
    check_I(I, mb * (0.16 + 0.36) / 12, mb * (0.04 + 0.36) / 12, mb * (0.04 + 0.16) / 12);

    one_geom("<geom type='cylinder' size='0.1 0.3'/>", &m, I);
    double mc = rho * M_PI * 0.01 * 0.6;
    ck_assert_double_eq_tol(m, mc, 1e-12);
    check_I(I, mc * (3 * 0.01 + 0.36) / 12, mc * (3 * 0.01 + 0.36) / 12, mc * 0.01 / 2);

    one_geom("<geom type='ellipsoid' size='0.1 0.2 0.3'/>", &m, I);
    double me = rho * 4.0 / 3.0 * M_PI * 0.1 * 0.2 * 0.3;
    ck_assert_double_eq_tol(m, me, 1e-12);
    check_I(I, me * (0.04 + 0.09) / 5, me * (0.01 + 0.09) / 5, me * (0.01 + 0.04) / 5);

    /* capsule: cylinder + two hemispheres, each with its COM 3r/8 from the flat face */
    one_geom("<geom type='capsule' size='0.1 0.2' density='500'/>", &m, I);
    double r = 0.1, hh = 0.2, mcy = 500 * M_PI * r * r * 2 * hh, mhe = 500 * 2.0 / 3.0 * M_PI * r * r * r;
    ck_assert_double_eq_tol(m, mcy + 2 * mhe, 1e-12);
    double Ihe_com = 0.4 * mhe * r * r - mhe * pow(3 * r / 8, 2);
    double Ixx = mcy * (3 * r * r + 4 * hh * hh) / 12 + 2 * (Ihe_com + mhe * pow(hh + 3 * r / 8, 2));
    double Izz = mcy * r * r / 2 + 2 * 0.4 * mhe * r * r;
    check_I(I, Ixx, Ixx, Izz);

    /* mass attribute wins over density */
    one_geom("<geom type='sphere' size='0.2' mass='3' density='7'/>", &m, I);
    ck_assert_double_eq_tol(m, 3, 1e-14);
    check_I(I, 0.4 * 3 * 0.04, 0.4 * 3 * 0.04, 0.4 * 3 * 0.04);
}
END_TEST

/* shellinertia: the mass spread over the surface, checked plate by plate and shell by shell
 * (a thin spherical shell: 2/3 m r^2 about a diameter; a plate: m (a^2 + b^2)/12 about its
 * normal; parallel axes for the offsets) */
START_TEST(test_shell_inertia)
{
    double m, I[3], rho = 1000, r = 0.1;
    one_geom("<geom type='sphere' size='0.1' shellinertia='true'/>", &m, I);
    double ms = rho * 4 * M_PI * r * r;
    ck_assert_double_eq_tol(m, ms, 1e-12);
    check_I(I, 2 * ms * r * r / 3, 2 * ms * r * r / 3, 2 * ms * r * r / 3);

    /* box 0.2 x 0.4 x 0.6: two plates per axis */
    one_geom("<geom type='box' size='0.1 0.2 0.3' shellinertia='true'/>", &m, I);
    double l[3] = {0.2, 0.4, 0.6}, Ib[3] = {0, 0, 0}, mt = 0;
    for (int n = 0; n < 3; n++) { /* the plates normal to axis n, at +-l[n]/2 */
        int a = (n + 1) % 3, b = (n + 2) % 3;
        double mp = rho * l[a] * l[b];
        mt += 2 * mp;
        Ib[n] += 2 * mp * (l[a] * l[a] + l[b] * l[b]) / 12;
        Ib[a] += 2 * mp * (l[b] * l[b] / 12 + l[n] * l[n] / 4);
        Ib[b] += 2 * mp * (l[a] * l[a] / 12 + l[n] * l[n] / 4);
    }
    ck_assert_double_eq_tol(m, mt, 1e-12);
    check_I(I, Ib[0], Ib[1], Ib[2]);

    /* cylinder r 0.1, height 0.6: the side as a tube, two disks at +-0.3 */
    one_geom("<geom type='cylinder' size='0.1 0.3' shellinertia='true'/>", &m, I);
    double h = 0.6, mside = rho * 2 * M_PI * r * h, mdisk = rho * M_PI * r * r;
    ck_assert_double_eq_tol(m, mside + 2 * mdisk, 1e-12);
    double Ix = mside * (r * r / 2 + h * h / 12) + 2 * mdisk * (r * r / 4 + h * h / 4);
    check_I(I, Ix, Ix, mside * r * r + 2 * mdisk * r * r / 2);

    /* capsule r 0.1, cylinder 0.4: a tube and two hemispherical shells, each with its centre
     * r/2 from its flat face */
    one_geom("<geom type='capsule' size='0.1 0.2' shellinertia='true'/>", &m, I);
    double hh = 0.2, mt2 = rho * 2 * M_PI * r * 2 * hh, mh = rho * 2 * M_PI * r * r;
    ck_assert_double_eq_tol(m, mt2 + 2 * mh, 1e-12);
    double Ih = 2 * mh * r * r / 3 - mh * r * r / 4 + mh * pow(hh + r / 2, 2);
    double Icx = mt2 * (r * r / 2 + 4 * hh * hh / 12) + 2 * Ih;
    check_I(I, Icx, Icx, mt2 * r * r + 2 * 2 * mh * r * r / 3);

    /* an ellipsoid with equal axes is a sphere's shell (the area and the thin layer are
     * approximations) */
    one_geom("<geom type='ellipsoid' size='0.1 0.1 0.1' shellinertia='true' mass='2'/>", &m, I);
    ck_assert_double_eq_tol(m, 2, 1e-14);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(I[i], 2 * 2 * r * r / 3, 1e-5 * 2 * r * r);

    /* a mesh's shell is its asset's (inertia="shell"), not the geom's */
    char err[512];
    cs_model *bad = cs_load_xml_string(
        "<mujoco><asset><mesh name='t' vertex='0 0 0 1 0 0 0 1 0 0 0 1'/></asset>\n"
        "<worldbody><body><freejoint/><geom type='mesh' mesh='t' shellinertia='true'/>"
        "</body></worldbody></mujoco>", "shell.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(bad);
    ck_assert_msg(strstr(err, "shell.xml:2:") && strstr(err, "mesh asset"), "%s", err);
}
END_TEST

/* a geom that weighs nothing takes no part: the body is the other geom's frame, bit for bit */
START_TEST(test_massless_geom_ignored)
{
    cs_model *m = load("<mujoco><worldbody><body><freejoint/>"
                       "<geom type='box' size='0.1 0.2 0.3' pos='0.1 0.2 0.3' euler='10 20 30'/>"
                       "<geom type='sphere' size='0.05' pos='-1 0 0' density='0'/>"
                       "</body></worldbody></mujoco>");
    ck_assert_double_eq(m->body_ipos[3], m->geom_pos[0]);
    ck_assert_double_eq(m->body_ipos[5], m->geom_pos[2]);
    for (int k = 0; k < 4; k++) ck_assert_double_eq(m->body_iquat[4 + k], m->geom_quat[k]);
    cs_free_model(m);
    /* a fixed body whose geoms all weigh nothing has no mass, as in MuJoCo */
    m = load("<mujoco><worldbody><body><geom type='box' size='1 1 .1' density='0'/>"
             "<geom type='box' size='1 1 .1' pos='0 0 1' density='0'/></body></worldbody></mujoco>");
    ck_assert_double_eq(m->body_mass[1], 0);
    cs_free_model(m);
}
END_TEST

START_TEST(test_compound_body)
{
    cs_model *m = load("<mujoco><worldbody><body pos='1 2 3'><freejoint/>"
                       "<geom type='sphere' size='0.1' pos='0.5 0 0' mass='1'/>"
                       "<geom type='sphere' size='0.1' pos='-0.5 0 0' mass='3'/>"
                       "<geom type='box' size='0.1 0.1 0.1' pos='0 0 0' mass='0'/>"
                       "</body></worldbody></mujoco>");
    ck_assert_double_eq_tol(m->body_mass[1], 4, 1e-14);
    ck_assert_double_eq_tol(m->body_ipos[3], -0.25, 1e-14);
    ck_assert_double_eq_tol(m->body_ipos[4], 0, 1e-14);
    double Iax = 0.4 * 4 * 0.01, Iperp = Iax + 1 * 0.75 * 0.75 + 3 * 0.25 * 0.25;
    check_I(m->body_inertia + 3, Iperp, Iperp, Iax);
    /* the smallest moment's principal axis is the body x axis */
    double R[9];
    cs_quat2mat(R, m->body_iquat + 4);
    ck_assert_double_eq_tol(fabs(R[2]), 1, 1e-12); /* column 2: the smallest moment */
    cs_data *d0 = cs_make_data(m);
    ck_assert_double_eq_tol(d0->qM[m->dof_Madr[0]], 4, 1e-14); /* translational mass */
    cs_free_data(d0);
    /* invweight0: 1/m and the mean of the inverse principal moments (docs/contact-math.md §8) */
    ck_assert_double_eq_tol(m->body_invweight0[2], 0.25, 1e-12);
    ck_assert_double_eq_tol(m->body_invweight0[3], (2 / Iperp + 1 / Iax) / 3, 1e-9);
    cs_free_model(m);
}
END_TEST

/* M(i, j), j an ancestor of i or i itself, from the stored lower triangle */
static double cs_mass_get_entry(const cs_model *m, const cs_data *d, int i, int j)
{
    int a = m->dof_Madr[i];
    for (int k = i; k >= 0; k = m->dof_parent[k], a++)
        if (k == j) return d->qM[a];
    return 0;
}

/* a jointless child welded to a free body moves with it and adds to its inertia */
START_TEST(test_welded_child)
{
    cs_model *m = load("<mujoco><option gravity='0 0 0'/><worldbody><body name='a'><freejoint/>"
                       "<geom type='sphere' size='0.1' mass='1'/>"
                       "<body name='b' pos='1 0 0'><geom type='sphere' size='0.1' mass='1'/></body>"
                       "</body></worldbody></mujoco>");
    ck_assert_int_eq(m->njnt, 1);
    ck_assert_int_eq(m->nv, 6);
    ck_assert_int_eq(m->body_weldid[2], 1);
    cs_data *d = cs_make_data(m);
    /* the free body's translational mass is the composite's; its coupling to the rotation
     * about z holds the composite COM offset: M(1, 5) = m * c_x */
    ck_assert_double_eq_tol(d->qM[m->dof_Madr[0]], 2, 1e-14);
    ck_assert_double_eq_tol(cs_mass_get_entry(m, d, 5, 1), 2 * 0.5, 1e-14);
    d->qvel[5] = 2; /* spin about local z */
    for (int k = 0; k < 100; k++) cs_step(m, d);
    cs_kinematics(m, d);
    /* the origin starts at rest, so the composite COM moves at w x r = (0, 1, 0) for ever;
     * semi-implicit Euler integrates the origin, not the COM, so the COM carries an O(h)
     * error (as in MuJoCo): allow a few h * |v| * t */
    double t = d->time;
    ck_assert_double_eq_tol((d->xipos[3] + d->xipos[6]) / 2, 0.5, 5 * 0.002 * t);
    ck_assert_double_eq_tol((d->xipos[4] + d->xipos[7]) / 2, t, 5 * 0.002 * t);
    double dx = d->xpos[6] - d->xpos[3], dy = d->xpos[7] - d->xpos[4];
    ck_assert_double_eq_tol(sqrt(dx * dx + dy * dy), 1, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- orientation forms ----------------------------------------------------------------- */
START_TEST(test_orientation_forms)
{
    /* the 120 degree turn about (1,1,1): x->y, y->z, z->x; quat (1,1,1,1)/2 */
    static const char *forms[] = {
        "<compiler/><worldbody><body quat='1 1 1 1'/></worldbody>",
        "<compiler/><worldbody><body axisangle='1 1 1 120'/></worldbody>",
        "<compiler angle='radian'/><worldbody><body axisangle='1 1 1 2.0943951023931953'/></worldbody>",
        "<compiler/><worldbody><body euler='90 90 0'/></worldbody>",
        "<compiler eulerseq='XYZ'/><worldbody><body euler='90 0 90'/></worldbody>",
        "<compiler eulerseq='zyx'/><worldbody><body euler='90 0 90'/></worldbody>",
        "<compiler/><worldbody><body xyaxes='0 2 0 0 1 1'/></worldbody>",
        "<compiler/><worldbody><body><geom type='box' size='1 1 1' xyaxes='0 1 0 0 0 1'/></body></worldbody>",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char xml[512];
        snprintf(xml, sizeof xml, "<mujoco>%s</mujoco>", forms[i]);
        cs_model *m = load(xml);
        const double *q = strstr(forms[i], "geom") ? m->geom_quat : m->body_quat + 4;
        double s = q[0] < 0 ? -1 : 1;
        for (int k = 0; k < 4; k++)
            ck_assert_msg(fabs(s * q[k] - 0.5) < 1e-12, "form %zu: q[%d] = %.17g", i, k, q[k]);
        cs_free_model(m);
    }
    /* zaxis: the minimal rotation taking z to x, a quarter turn about y */
    cs_model *m = load("<mujoco><worldbody><body zaxis='2 0 0'/></worldbody></mujoco>");
    ck_assert_double_eq_tol(m->body_quat[4], sqrt(0.5), 1e-12);
    ck_assert_double_eq_tol(m->body_quat[6], sqrt(0.5), 1e-12);
    cs_free_model(m);
    /* fromto: midpoint, z along the segment, half-length */
    m = load("<mujoco><worldbody><body><geom type='capsule' size='0.1' fromto='0 0 0 1 0 0'/>"
             "<geom type='box' size='0.1 0.2' fromto='0 0 0 0 0 -2'/></body></worldbody></mujoco>");
    double R[9];
    cs_quat2mat(R, m->geom_quat);
    ck_assert_double_eq_tol(R[2], -1, 1e-12); /* z from the second end to the first: -x */
    ck_assert_double_eq_tol(m->geom_pos[0], 0.5, 1e-14);
    ck_assert_double_eq_tol(m->geom_size[1], 0.5, 1e-14);
    cs_quat2mat(R, m->geom_quat + 4);
    ck_assert_double_eq_tol(R[8], 1, 1e-12);
    /* box/ellipsoid fromto: sizes (r, r, half-length) */
    ck_assert_double_eq_tol(m->geom_size[4], 0.1, 1e-14);
    ck_assert_double_eq_tol(m->geom_size[5], 1, 1e-14);
    cs_free_model(m);
    /* nested static bodies compose frames */
    m = load("<mujoco><worldbody><body pos='1 0 0' euler='0 0 90'><body pos='1 0 0' euler='0 0 90'>"
             "<geom name='g' size='0.1'/></body></body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    ck_assert_double_eq_tol(d->geom_xpose[0].pos[0], 1, 1e-12);
    ck_assert_double_eq_tol(d->geom_xpose[0].pos[1], 1, 1e-12);
    ck_assert_double_eq_tol(d->geom_xpose[0].mat[0], -1, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- defaults and classes ---------------------------------------------------------------- */
START_TEST(test_mujoco_defaults)
{
    cs_model *m = load("<mujoco><worldbody><geom type='plane' size='1 1 1'/></worldbody></mujoco>");
    const cs_option *o = &m->opt;
    ck_assert_double_eq(o->timestep, 0.002);
    ck_assert_double_eq(o->gravity[2], -9.81);
    ck_assert_int_eq(o->cone, CS_CONE_PYRAMIDAL);
    ck_assert_int_eq(o->solver, CS_SOLVER_NEWTON);
    ck_assert_int_eq(o->iterations, 100);
    ck_assert_double_eq(o->tolerance, 1e-8);
    ck_assert_double_eq(o->impratio, 1);
    ck_assert_int_eq(o->disableflags, 0);
    ck_assert_int_eq(m->geom_condim[0], 3);
    ck_assert_int_eq(m->geom_contype[0], 1);
    ck_assert_int_eq(m->geom_conaffinity[0], 1);
    ck_assert_int_eq(m->geom_priority[0], 0);
    double fr[3] = {1, 0.005, 0.0001}, si[5] = {0.9, 0.95, 0.001, 0.5, 2};
    for (int k = 0; k < 3; k++) ck_assert_double_eq(m->geom_friction[k], fr[k]);
    for (int k = 0; k < 5; k++) ck_assert_double_eq(m->geom_solimp[k], si[k]);
    ck_assert_double_eq(m->geom_solref[0], 0.02);
    ck_assert_double_eq(m->geom_solref[1], 1);
    ck_assert_double_eq(m->geom_solmix[0], 1);
    ck_assert_double_eq(m->geom_margin[0], 0);
    ck_assert_double_eq(m->geom_gap[0], 0);
    cs_free_model(m);
}
END_TEST

START_TEST(test_classes)
{
    cs_model *m = load(
        "<mujoco><default><geom friction='0.7' condim='4'/><pair friction='0.3'/>"
        "  <default class='a'><geom solref='0.05 2' margin='0.01'/>"
        "    <default class='b'><geom friction='0.2 0.02' priority='2'/></default></default>"
        "  <default class='c'><geom condim='6'/></default></default>"
        "<worldbody><geom name='w' type='plane' size='1 1 1'/>"
        "<body childclass='b'><geom name='g1' size='0.1'/><geom name='g2' class='c' size='0.1'/>"
        "  <body><geom name='g3' size='0.1' margin='0.5'/></body></body></worldbody>"
        "<contact><pair geom1='w' geom2='g1'/><pair class='a' geom1='w' geom2='g2' friction='0.4 0.5'/></contact>"
        "</mujoco>");
    int g1 = cs_name2id_geom(m, "g1"), g2 = cs_name2id_geom(m, "g2"), g3 = cs_name2id_geom(m, "g3");
    /* main: friction 0.7 (others MuJoCo's), condim 4 */
    ck_assert_double_eq(m->geom_friction[0], 0.7);
    ck_assert_double_eq(m->geom_friction[1], 0.005);
    ck_assert_int_eq(m->geom_condim[0], 4);
    /* b inherits a and main, overrides friction's first two */
    ck_assert_double_eq(m->geom_friction[3 * g1], 0.2);
    ck_assert_double_eq(m->geom_friction[3 * g1 + 1], 0.02);
    ck_assert_double_eq(m->geom_friction[3 * g1 + 2], 0.0001);
    ck_assert_double_eq(m->geom_solref[2 * g1], 0.05);
    ck_assert_double_eq(m->geom_margin[g1], 0.01);
    ck_assert_int_eq(m->geom_priority[g1], 2);
    ck_assert_int_eq(m->geom_condim[g1], 4);
    /* explicit class beats childclass: c has main's values plus condim 6 */
    ck_assert_int_eq(m->geom_condim[g2], 6);
    ck_assert_double_eq(m->geom_friction[3 * g2], 0.7);
    ck_assert_double_eq(m->geom_margin[g2], 0);
    /* childclass reaches nested bodies; attributes beat classes */
    ck_assert_int_eq(m->geom_priority[g3], 2);
    ck_assert_double_eq(m->geom_margin[g3], 0.5);
    /* pairs: main pair default, then class + own attributes */
    ck_assert_double_eq(m->pair_friction[0], 0.3);
    ck_assert_double_eq(m->pair_friction[1], 1);
    ck_assert_double_eq(m->pair_friction[5], 0.4);
    ck_assert_double_eq(m->pair_friction[6], 0.5);
    ck_assert_double_eq(m->pair_friction[7], 0.005);
    ck_assert_int_eq(m->pair_condim[0], 3);
    cs_free_model(m);
}
END_TEST

/* ---- data: two datas share a model; keyframes ------------------------------------------ */
START_TEST(test_shared_model_and_key)
{
    cs_model *m = load("<mujoco><worldbody><body name='b' pos='0 0 1'><freejoint/>"
                       "<geom type='box' size='0.1 0.2 0.3'/></body></worldbody>"
                       "<keyframe><key qpos='1 2 3 2 0 0 0' qvel='0 0 1 1 2 3' time='0.5'/></keyframe></mujoco>");
    cs_data *a = cs_make_data(m), *b = cs_make_data(m);
    ck_assert_int_eq(cs_reset_key(m, a, 0), 0);
    ck_assert_int_eq(cs_reset_key(m, b, 0), 0);
    ck_assert_int_eq(cs_reset_key(m, b, 1), -1);
    ck_assert_double_eq(a->qpos[3], 1); /* key quaternion normalised */
    ck_assert_double_eq(a->time, 0.5);
    for (int k = 0; k < 50; k++) {
        cs_step(m, a);
        cs_step(m, b);
    }
    ck_assert_mem_eq(a->qpos, b->qpos, 7 * sizeof(double));
    ck_assert_mem_eq(a->qvel, b->qvel, 6 * sizeof(double));
    cs_reset(m, a);
    ck_assert_double_eq(a->qpos[2], 1);
    ck_assert_double_eq(a->qvel[2], 0);
    cs_free_data(a);
    cs_free_data(b);
    cs_free_model(m);
}
END_TEST

START_TEST(test_traj_csv)
{
    cs_model *m = load("<mujoco><worldbody><body name='ball' pos='0 0 1'><freejoint/><geom size='0.1'/></body>"
                       "<body pos='1 0 1'><freejoint/><geom size='0.1'/></body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cs_traj_header(f);
    cs_traj_rows(f, m, d, 0, 0.0);
    cs_step(m, d);
    cs_traj_rows(f, m, d, 1, m->opt.timestep);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
                                      "0,0,ball,0,0,1,1,0,0,0,0,0,0,0,0,0\n0,0,body2,1,0,1,"));
    ck_assert_ptr_nonnull(strstr(buf, "\n1,0.002,ball,0,0,0.99996076"));
    /* %.17g round trip */
    char *z = strstr(buf, "\n1,0.002,ball,0,0,") + strlen("\n1,0.002,ball,0,0,");
    ck_assert_double_eq(strtod(z, NULL), d->qpos[2]);
    free(buf);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The step allocates nothing: count every malloc/calloc/realloc made while stepping. The
 * counting wrappers interpose glibc's allocator (not under ASan, which owns malloc). */
#if !defined(__SANITIZE_ADDRESS__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static volatile int count_allocs = 0;
static volatile long nallocs = 0;
void *malloc(size_t n)
{
    if (count_allocs) nallocs++;
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b)
{
    if (count_allocs) nallocs++;
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n)
{
    if (count_allocs) nallocs++;
    return __libc_realloc(p, n);
}
#define CS_COUNTING_ALLOCS 1
#endif

START_TEST(test_step_allocates_nothing)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/everything.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
#ifdef CS_COUNTING_ALLOCS
    /* the counter sees allocations: the loader makes many */
    count_allocs = 1;
    cs_model *m2 = cs_load_xml(CS_TEST_DATA "/good/everything.xml", NULL, err, sizeof err);
    count_allocs = 0;
    ck_assert_int_gt(nallocs, 10);
    cs_free_model(m2);
    nallocs = 0;
    count_allocs = 1;
    for (int k = 0; k < 200; k++) cs_step(m, d);
    /* the implicit integrator's derivative and factors too, over the same steps */
    m->opt.integrator = CS_INT_IMPLICIT;
    cs_reset_key(m, d, 0);
    for (int k = 0; k < 200; k++) cs_step(m, d);
    count_allocs = 0;
    ck_assert_int_eq(nallocs, 0);
#else
    for (int k = 0; k < 200; k++) cs_step(m, d);
    m->opt.integrator = CS_INT_IMPLICIT;
    cs_reset_key(m, d, 0);
    for (int k = 0; k < 200; k++) cs_step(m, d);
#endif
    ck_assert_int_eq(cs_check_finite(m, d), -1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The point Jacobian predicts how a point fixed to the body moves (finite difference of the
 * kinematics over one tiny integration step), and reproduces invweight0. */
START_TEST(test_jac_point)
{
    cs_model *m = load("<mujoco><option gravity='0 0 0' timestep='1e-7'/><worldbody><body pos='0.3 -0.2 1' euler='20 -40 70'>"
                       "<freejoint/><inertial pos='0.2 0.1 -0.1' mass='2' diaginertia='0.3 0.4 0.5'/>"
                       "</body></worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    double v[6] = {0.5, -0.3, 0.2, 1.5, -2.0, 0.7};
    memcpy(d->qvel, v, sizeof v);
    cs_forward(m, d);
    double p[3] = {0.7, 0.1, 1.3}, jp[18], jr[18];
    cs_jac(m, d, 1, p, jp, jr);
    double vp[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 6; j++) vp[i] += jp[6 * i + j] * v[j];
    /* the same material point after one step */
    double R0[9], x0[3], loc[3];
    memcpy(R0, d->xmat + 9, sizeof R0);
    memcpy(x0, d->xpos + 3, sizeof x0);
    for (int i = 0; i < 3; i++)
        loc[i] = R0[i] * (p[0] - x0[0]) + R0[3 + i] * (p[1] - x0[1]) + R0[6 + i] * (p[2] - x0[2]);
    cs_step(m, d);
    cs_kinematics(m, d);
    double h = m->opt.timestep;
    for (int i = 0; i < 3; i++) {
        double pn = d->xpos[3 + i];
        for (int k = 0; k < 3; k++) pn += d->xmat[9 + 3 * i + k] * loc[k];
        ck_assert_double_eq_tol((pn - p[i]) / h, vp[i], 1e-5);
    }
    /* invweight0 = mean diagonal of J M^-1 J^T at the COM */
    cs_reset(m, d);
    cs_jac(m, d, 1, d->xipos + 3, jp, jr);
    double tr = 0, rr = 0;
    for (int i = 0; i < 3; i++) {
        double x[6];
        cs_solve_M(m, d, x, jp + 6 * i);
        for (int j = 0; j < 6; j++) tr += jp[6 * i + j] * x[j];
        cs_solve_M(m, d, x, jr + 6 * i);
        for (int j = 0; j < 6; j++) rr += jr[6 * i + j] * x[j];
    }
    ck_assert_double_eq_tol(tr / 3, m->body_invweight0[2], 1e-12);
    ck_assert_double_eq_tol(rr / 3, m->body_invweight0[3], 1e-9);
    ck_assert_double_eq_tol(m->body_invweight0[2], 0.5, 1e-12);
    ck_assert_double_eq_tol(m->body_invweight0[3], (1 / 0.3 + 1 / 0.4 + 1 / 0.5) / 3, 1e-9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_option_set)
{
    cs_model *m = load("<mujoco><worldbody/></mujoco>");
    char err[256];
    cs_option *o = &m->opt;
    ck_assert_int_eq(cs_option_set(o, "option.impratio", "10", err, sizeof err), 0);
    ck_assert_double_eq(o->impratio, 10);
    ck_assert_int_eq(cs_option_set(o, "timestep", "0.001", err, sizeof err), 0);
    ck_assert_double_eq(o->timestep, 0.001);
    ck_assert_int_eq(cs_option_set(o, "cone", "elliptic", err, sizeof err), 0);
    ck_assert_int_eq(o->cone, CS_CONE_ELLIPTIC);
    ck_assert_int_eq(cs_option_set(o, "solver", "pgs", err, sizeof err), 0);
    ck_assert_int_eq(o->solver, CS_SOLVER_PGS);
    ck_assert_int_eq(cs_option_set(o, "iterations", "250", err, sizeof err), 0);
    ck_assert_int_eq(o->iterations, 250);
    ck_assert_int_eq(cs_option_set(o, "option.gravity", "0 0 -1", err, sizeof err), 0);
    ck_assert_double_eq(o->gravity[2], -1);
    ck_assert_int_eq(cs_option_set(o, "option.flag.contact", "disable", err, sizeof err), 0);
    ck_assert(o->disableflags & CS_DSBL_CONTACT);
    ck_assert_int_eq(cs_option_set(o, "option.flag.contact", "enable", err, sizeof err), 0);
    ck_assert(!(o->disableflags & CS_DSBL_CONTACT));
    ck_assert_int_eq(cs_option_set(o, "timestep", "0", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "must be positive"));
    ck_assert_int_eq(cs_option_set(o, "gravity", "0 0", err, sizeof err), -1);
    ck_assert_int_eq(cs_option_set(o, "iterations", "2.5", err, sizeof err), -1);
    ck_assert_int_eq(cs_option_set(o, "solver", "CG", err, sizeof err), 0);
    ck_assert_int_eq(o->solver, CS_SOLVER_CG);
    ck_assert_int_eq(cs_option_set(o, "solver", "newton", err, sizeof err), 0);
    ck_assert_int_eq(cs_option_set(o, "solver", "jacobi", err, sizeof err), -1);
    /* conesim's own PGS finish, by its name and its older one; the loader's defaults are
     * the solver's */
    ck_assert_int_eq(o->pgs_finish, 5);
    ck_assert_int_eq(o->ls_iterations, 50);
    ck_assert_double_eq(o->ls_tolerance, 0.01);
    ck_assert_int_eq(cs_option_set(o, "pgs_finish", "0", err, sizeof err), 0);
    ck_assert_int_eq(o->pgs_finish, 0);
    ck_assert_int_eq(cs_option_set(o, "pgs_polish", "7", err, sizeof err), 0);
    ck_assert_int_eq(o->pgs_finish, 7);
    /* Newton's warm-start rule: MuJoCo 3.12's by default, 3.3's at 0, nothing else */
    ck_assert_int_eq(o->newton_early, 1);
    ck_assert_int_eq(cs_option_set(o, "newton_early", "0", err, sizeof err), 0);
    ck_assert_int_eq(o->newton_early, 0);
    ck_assert_int_eq(cs_option_set(o, "newton_early", "2", err, sizeof err), -1);
    ck_assert_int_eq(o->newton_early, 0);
    ck_assert_int_eq(cs_option_set(o, "nonsense", "1", err, sizeof err), -1);
    ck_assert_double_eq(o->timestep, 0.001); /* failed sets change nothing */
    cs_free_model(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sim");
    TCase *t = tcase_create("sim");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_free_fall);
    tcase_add_test(t, test_mass_matrix_energy);
    tcase_add_test(t, test_simple_body_mass_matrix);
    tcase_add_test(t, test_applied_force);
    tcase_add_test(t, test_spin_conservation_order);
    tcase_add_test(t, test_dzhanibekov);
    tcase_add_test(t, test_primitive_inertia);
    tcase_add_test(t, test_shell_inertia);
    tcase_add_test(t, test_massless_geom_ignored);
    tcase_add_test(t, test_compound_body);
    tcase_add_test(t, test_welded_child);
    tcase_add_test(t, test_sameframe_within_1e6);
    tcase_add_test(t, test_orientation_forms);
    tcase_add_test(t, test_mujoco_defaults);
    tcase_add_test(t, test_classes);
    tcase_add_test(t, test_shared_model_and_key);
    tcase_add_test(t, test_traj_csv);
    tcase_add_test(t, test_step_allocates_nothing);
    tcase_add_test(t, test_jac_point);
    tcase_add_test(t, test_option_set);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
