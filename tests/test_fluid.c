/* Fluid forces of MuJoCo's inertia-box model against closed forms: terminal velocities under
 * linear (viscosity) and quadratic (density) drag, a spin decaying under the quadratic
 * torque, a body carried at the wind's speed; with the Euler and implicitfast integrators.
 * A box's inertia box is the box itself, so its sides are the geom's. Its ellipsoid model: a
 * sphere's added mass (Lamb's half the displaced fluid), terminal velocity and Magnus
 * force. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* a free box with sides 0.2 x 0.1 x 0.04 m, 800 kg/m^3 (0.64 kg), in a fluid */
static cs_model *box_in(const char *option, const char *integrator)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='0.001' integrator='%s' %s/><worldbody>"
             "<body name='b' pos='0 0 0'><freejoint/>"
             "<geom type='box' size='.1 .05 .02' density='800' contype='0' conaffinity='0'/>"
             "</body></worldbody></mujoco>", integrator, option);
    return load_xml(xml, "fluid.xml");
}

static const double MASS = 800 * 0.2 * 0.1 * 0.04, G = 9.81;
static const char *const INTEGRATORS[] = {"Euler", "implicitfast"};

/* quadratic drag along z (the 0.2 x 0.1 face): m g = rho/2 A v^2 */
START_TEST(test_terminal_velocity_density)
{
    cs_model *m = box_in("density='1.2' gravity='0 0 -9.81'", INTEGRATORS[_i]);
    cs_data *d = cs_make_data(m);
    steps(m, d, 20000);
    double vt = sqrt(2 * MASS * G / (1.2 * 0.2 * 0.1));
    printf("report: %s: falling at %.6g m/s, rho/2 A v^2 = m g gives %.6g\n", INTEGRATORS[_i],
           -d->qvel[2], vt);
    ck_assert_double_eq_tol(-d->qvel[2], vt, 1e-4 * vt);
    /* it falls flat: no rotation, no sideways motion */
    ck_assert_double_lt(fabs(d->qvel[0]) + fabs(d->qvel[1]) + fabs(d->qvel[3]), 1e-9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* linear drag: m g = 3 pi d mu v, d the mean side */
START_TEST(test_terminal_velocity_viscosity)
{
    cs_model *m = box_in("viscosity='0.5' gravity='0 0 -9.81'", INTEGRATORS[_i]);
    cs_data *d = cs_make_data(m);
    steps(m, d, 20000); /* 17 time constants m / (3 pi d mu) */
    double dm = (0.2 + 0.1 + 0.04) / 3, vt = MASS * G / (3 * M_PI * dm * 0.5);
    printf("report: %s: falling at %.6g m/s, 3 pi d mu v = m g gives %.6g\n", INTEGRATORS[_i],
           -d->qvel[2], vt);
    ck_assert_double_eq_tol(-d->qvel[2], vt, 1e-6 * vt);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a spin about z under I w' = -k w^2, k = rho b_z (b_x^4 + b_y^4) / 64: w = w0 / (1 + k w0 t / I) */
START_TEST(test_spin_decay_density)
{
    cs_model *m = box_in("density='1000' gravity='0 0 0'", INTEGRATORS[_i]);
    cs_data *d = cs_make_data(m);
    double w0 = 5, I = MASS * (0.2 * 0.2 + 0.1 * 0.1) / 12;
    double k = 1000 * 0.04 * (pow(0.2, 4) + pow(0.1, 4)) / 64;
    d->qvel[5] = w0;
    steps(m, d, 2000); /* 2 s */
    double want = w0 / (1 + k * w0 * 2 / I);
    printf("report: %s: spin %.6g rad/s after 2 s, closed form %.6g\n", INTEGRATORS[_i],
           d->qvel[5], want);
    ck_assert_double_eq_tol(d->qvel[5], want, 2e-3 * want);
    ck_assert_double_lt(d->qvel[5], 0.5 * w0); /* the drag did act */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* without gravity a body at rest is carried toward the wind: its speed relative to the wind
 * u decays as u0 exp(-t / tau), tau = m / (3 pi d mu), under viscosity, and along each box
 * axis as u0 / (1 + c u0 t / m), c = rho/2 b_i b_j, under density */
START_TEST(test_wind_carries)
{
    const double w[3] = {1, -2, 0.5}, T = 2;
    for (int j = 0; j < 2; j++) {
        cs_model *m = box_in(j ? "density='500' wind='1 -2 0.5' gravity='0 0 0'"
                               : "viscosity='0.2' wind='1 -2 0.5' gravity='0 0 0'",
                             INTEGRATORS[_i]);
        cs_data *d = cs_make_data(m);
        steps(m, d, (int)(T / 0.001));
        const double side[3] = {0.2, 0.1, 0.04};
        double tau = MASS / (3 * M_PI * (0.2 + 0.1 + 0.04) / 3 * 0.2);
        for (int k = 0; k < 3; k++) {
            double c = 0.5 * 500 * side[(k + 1) % 3] * side[(k + 2) % 3];
            double u = j ? w[k] / (1 + c * fabs(w[k]) * T / MASS) : w[k] * exp(-T / tau);
            printf("report: %s %s axis %d: %.6g m/s, closed form %.6g\n", INTEGRATORS[_i],
                   j ? "density" : "viscosity", k, d->qvel[k], w[k] - u);
            ck_assert_double_eq_tol(d->qvel[k], w[k] - u, 2e-3 * fabs(w[k]));
            ck_assert_double_gt(fabs(d->qvel[k]), 0.3 * fabs(w[k])); /* it did move */
        }
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* density in the setter and the option table, refused when negative */
START_TEST(test_density_option)
{
    cs_model *m = box_in("density='1.2'", "Euler");
    ck_assert_double_eq(m->opt.density, 1.2);
    ck_assert_int_eq(cs_set(m, "option.density", 3), 0);
    ck_assert_double_eq(m->opt.density, 3);
    ck_assert_int_ne(cs_set(m, "option.density", -1), 0);
    cs_free_model(m);
    char err[256];
    ck_assert_ptr_null(cs_load_xml_string("<mujoco><option density='-1'/></mujoco>", "neg.xml",
                                          NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "neg.xml:1:") && strstr(err, "density"), "%s", err);
}
END_TEST

/* a sphere of radius 0.05 m, 1 kg, with MuJoCo's ellipsoid model (fluidcoef as given) */
static cs_model *ball_in(const char *option, const char *coef)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='0.001' %s/><worldbody>"
             "<body><freejoint/><geom size='.05' mass='1' fluidshape='ellipsoid' %s "
             "contype='0' conaffinity='0'/></body></worldbody></mujoco>", option, coef);
    return load_xml(xml, "ellipsoid.xml");
}

/* a sphere's added mass is half the fluid it displaces (Lamb): virtual mass V/2 on each
 * axis, and no virtual inertia */
START_TEST(test_sphere_added_mass)
{
    cs_model *m = ball_in("density='1000'", "");
    double V = 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05;
    const double *F = m->geom_fluid;
    ck_assert_double_eq(F[0], 1);
    /* the default coefficients, MuJoCo's: blunt, slender, angular drag, Kutta, Magnus */
    const double coef[5] = {0.5, 0.25, 1.5, 1, 1};
    for (int k = 0; k < 5; k++) ck_assert_double_eq(F[1 + k], coef[k]);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(F[6 + k], V / 2, 1e-6 * V);
        ck_assert_double_eq_tol(F[9 + k], 0, 1e-12 * V);
    }
    cs_free_model(m);
}
END_TEST

/* a falling sphere: m g = 3 pi D mu v + rho v^2 C_blunt pi r^2 (D = 2r) */
START_TEST(test_sphere_terminal_velocity)
{
    cs_model *m = ball_in(_i ? "density='1.2' viscosity='0.01' integrator='implicitfast'"
                             : "density='1.2' viscosity='0.01'", "");
    cs_data *d = cs_make_data(m);
    steps(m, d, 30000);
    double a = 1.2 * 0.5 * M_PI * 0.05 * 0.05, b = 3 * M_PI * 0.1 * 0.01, c = -1 * G;
    double vt = (-b + sqrt(b * b - 4 * a * c)) / (2 * a);
    printf("report: %s: sphere falling at %.6g m/s, drag = m g gives %.6g\n", INTEGRATORS[_i],
           -d->qvel[2], vt);
    ck_assert_double_eq_tol(-d->qvel[2], vt, 1e-4 * vt);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a sphere spinning about z and moving along x: the Magnus force C_M rho V w x v and the
 * added mass's rho V/2 v x w push it sideways, (C_M - 1/2) rho V w v in all (+y for C_M 1,
 * -y without Magnus) */
START_TEST(test_magnus_force)
{
    const char *coef[2] = {"", "fluidcoef='0.5 0.25 1.5 1 0'"};
    const double CM[2] = {1, 0};
    for (int j = 0; j < 2; j++) {
        cs_model *m = ball_in("density='1000' gravity='0 0 0'", coef[j]);
        cs_data *d = cs_make_data(m);
        d->qvel[0] = 2;
        d->qvel[5] = 30;
        cs_forward(m, d);
        double V = 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05;
        double want = (CM[j] - 0.5) * 1000 * V * 30 * 2; /* over m = 1 kg */
        printf("report: Magnus coefficient %g: sideways %.6g m/s^2, closed form %.6g\n", CM[j],
               d->qacc[1], want);
        ck_assert_double_eq_tol(d->qacc[1], want, 1e-4 * fabs(want));
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

START_TEST(test_fluidshape_bad)
{
    char err[256];
    ck_assert_ptr_null(cs_load_xml_string(
        "<mujoco><worldbody><geom size='1' fluidshape='blob'/></worldbody></mujoco>", "b.xml",
        NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "b.xml:1:") && strstr(err, "fluidshape"), "%s", err);
    ck_assert_ptr_null(cs_load_xml_string(
        "<mujoco><worldbody><geom size='1' fluidcoef='1 2 3 4 5 6'/></worldbody></mujoco>",
        "b.xml", NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "fluidcoef"), "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fluid");
    TCase *t = tcase_create("inertia box");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, test_terminal_velocity_density, 0, 2);
    tcase_add_loop_test(t, test_terminal_velocity_viscosity, 0, 2);
    tcase_add_loop_test(t, test_spin_decay_density, 0, 2);
    tcase_add_loop_test(t, test_wind_carries, 0, 2);
    tcase_add_test(t, test_density_option);
    tcase_add_test(t, test_sphere_added_mass);
    tcase_add_loop_test(t, test_sphere_terminal_velocity, 0, 2);
    tcase_add_test(t, test_magnus_force);
    tcase_add_test(t, test_fluidshape_bad);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
