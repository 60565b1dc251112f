/* Site transmissions, physical facts: without a reference site the actuator is a wrench at
 * the site in the site's frame (a free body's acceleration is force / mass along the site's
 * axis, its angular acceleration I^-1 (r x F)); with one, the length is the site's position
 * in the reference frame dotted with the translational gear (closed form; the moment its
 * derivative by central differences), and the rotation between the frames dotted with the
 * rotational gear (about a common axis: the angle between them). Measured figures are printed ("report: ..."). */
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

/* a 2 kg box (0.2 0.1 0.05 half sizes) floating without gravity, a site 0.1 m off its
 * centre along y turned 90 degrees about y (its z axis is world x), pushed along the
 * site's z by 3 N */
START_TEST(test_wrench_at_site)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0'/><worldbody><body><freejoint/>"
        "<geom type='box' size='0.2 0.1 0.05' mass='2'/>"
        "<site name='s' pos='0 0.1 0' euler='0 90 0'/></body></worldbody>"
        "<actuator><motor site='s' gear='0 0 1 0 0 0'/></actuator></mujoco>", "wrench");
    ck_assert_int_eq(m->actuator_trntype[0], CS_TRN_SITE);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 3;
    cs_forward(m, d);
    /* the force is 3 N along world x (the site's z), applied at (0, 0.1, 0): the torque
     * about the centre is r x F = (0, 0.1, 0) x (3, 0, 0) = (0, 0, -0.3) */
    double I_z = 2.0 / 12 * (0.4 * 0.4 + 0.2 * 0.2);
    printf("report: wrench at a site: acc (%.9g %.9g %.9g), alpha_z %.9g (want 1.5, %.9g)\n",
           d->qacc[0], d->qacc[1], d->qacc[2], d->qacc[5], -0.3 / I_z);
    ck_assert_double_eq_tol(d->qacc[0], 1.5, 1e-12);
    ck_assert_double_eq_tol(d->qacc[1], 0, 1e-12);
    ck_assert_double_eq_tol(d->qacc[2], 0, 1e-12);
    ck_assert_double_eq_tol(d->qacc[5], -0.3 / I_z, 1e-10);
    ck_assert_double_eq(d->actuator_length[0], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* an arm of three hinges (z, y, x) carrying a site, the reference site fixed in the world
 * and turned; gear 0.5 along the reference frame's x: the length is 0.5 times the tip's x
 * in the reference frame, the moment its derivative */
START_TEST(test_reference_site)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0'/><worldbody>"
        "<site name='ref' pos='0.1 -0.2 0.3' euler='0 0 30'/>"
        "<body><joint type='hinge' axis='0 0 1'/><geom size='0.05' mass='1'/>"
        "<body pos='0.3 0 0'><joint type='hinge' axis='0 1 0'/><geom size='0.05'/>"
        "<body pos='0.3 0 0'><joint type='hinge' axis='1 0 0'/><geom size='0.05'/>"
        "<site name='tip' pos='0.1 0.05 0' euler='10 20 30'/></body></body></body>"
        "</worldbody><actuator><motor site='tip' refsite='ref' gear='0.5 0 0 0 0 0'/>"
        "</actuator></mujoco>", "refsite");
    cs_data *d = cs_make_data(m);
    int tip = cs_name2id(m, "site", "tip"), ref = cs_name2id(m, "site", "ref");
    double worst_len = 0, worst_mo = 0;
    for (int k = 0; k < 6; k++) {
        for (int i = 0; i < 3; i++) d->qpos[i] = 0.3 * sin(1.7 * k + i);
        cs_forward(m, d);
        const double *R = d->site_xmat + 9 * ref;
        double v[3];
        for (int c = 0; c < 3; c++) v[c] = d->site_xpos[3 * tip + c] - d->site_xpos[3 * ref + c];
        double want = 0.5 * (R[0] * v[0] + R[3] * v[1] + R[6] * v[2]);
        worst_len = fmax(worst_len, fabs(d->actuator_length[0] - want));
        double q0[3], mo[3], h = 1e-6;
        memcpy(q0, d->qpos, sizeof q0);
        memcpy(mo, d->actuator_moment, sizeof mo);
        for (int i = 0; i < 3; i++) {
            d->qpos[i] = q0[i] + h;
            cs_forward(m, d);
            double lp = d->actuator_length[0];
            d->qpos[i] = q0[i] - h;
            cs_forward(m, d);
            double lm = d->actuator_length[0];
            d->qpos[i] = q0[i];
            worst_mo = fmax(worst_mo, fabs(mo[i] - (lp - lm) / (2 * h)));
        }
    }
    printf("report: reference site: length error %.3g, |moment - dL/dq| %.3g\n", worst_len,
           worst_mo);
    ck_assert_double_lt(worst_len, 1e-14);
    ck_assert_double_lt(worst_mo, 1e-8);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a rotational gear about a common axis: a site on a z hinge, the reference site turned 30
 * degrees about z; the rotation between them is q - 30 degrees about z, so the length is
 * 2 (q - pi/6) and the moment 2, for every q within half a turn of the reference */
START_TEST(test_reference_rotation)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0'/><worldbody><site name='ref' euler='0 0 30'/>"
        "<body><joint type='hinge' axis='0 0 1'/><geom size='0.05' mass='1'/>"
        "<site name='tip' pos='0.2 0 0'/></body></worldbody>"
        "<actuator><motor site='tip' refsite='ref' gear='0 0 0 0 0 2'/></actuator></mujoco>",
        "refrot");
    cs_data *d = cs_make_data(m);
    double worst = 0;
    for (int k = 0; k < 9; k++) {
        double q = -2 + 0.5 * k;
        d->qpos[0] = q;
        cs_forward(m, d);
        worst = fmax(worst, fabs(d->actuator_length[0] - 2 * (q - M_PI / 6)));
        worst = fmax(worst, fabs(d->actuator_moment[0] - 2));
    }
    printf("report: rotation about a common axis: error %.3g\n", worst);
    ck_assert_double_lt(worst, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* dampratio through a site (MuJoCo's set0: the reflected inertia from the moment at qpos0):
 * a 2 kg slider driven along its axis by a position servo on a site with dampratio 1 is
 * critically damped: x(t) = x1 (1 - (1 + w t) e^(-w t)), w = sqrt(kp / m), no overshoot */
START_TEST(test_site_dampratio)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0' timestep='0.0002' integrator='implicitfast'/>"
        "<worldbody><site name='ref'/><body><joint type='slide' axis='1 0 0'/>"
        "<geom size='0.05' mass='2' contype='0' conaffinity='0'/><site name='s'/></body>"
        "</worldbody><actuator><position site='s' refsite='ref' gear='1 0 0 0 0 0' kp='50' "
        "dampratio='1'/></actuator></mujoco>", "site_dampratio");
    ck_assert_double_eq_tol(m->actuator_biasprm[2], -2 * sqrt(50 * 2.0), 1e-12);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 0.1;
    double w = 5, worst = 0, peak = 0;
    for (int k = 1; k <= 10000; k++) {
        cs_step(m, d);
        double t = d->time, want = 0.1 * (1 - (1 + w * t) * exp(-w * t));
        worst = fmax(worst, fabs(d->qpos[0] - want));
        peak = fmax(peak, d->qpos[0]);
    }
    printf("report: critically damped site servo: |x - closed form| %.3g m, peak %.9g m\n",
           worst, peak);
    ck_assert_double_lt(worst, 1e-4);
    ck_assert_double_le(peak, 0.1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("site_transmission");
    TCase *tc = tcase_create("site");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_wrench_at_site);
    tcase_add_test(tc, test_reference_site);
    tcase_add_test(tc, test_reference_rotation);
    tcase_add_test(tc, test_site_dampratio);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
