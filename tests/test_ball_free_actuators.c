/* Actuators on ball and free joints, physical facts: a ball's length is its rotation vector
 * dotted with the gear (a turn by a about z: gear_z a), its moment the gear on its three dofs
 * (with jointinparent, the gear turned back into the joint's frame); a free joint's force
 * gear pushes its body along the world direction (a 2 kg box, 3 N: 1.5 m/s^2) and its torque
 * gear turns it (alpha = torque / I). Measured figures are printed ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

START_TEST(test_ball)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0'/><worldbody><body><joint name='b' type='ball'/>"
        "<geom type='box' size='0.1 0.2 0.3' mass='1'/></body></worldbody><actuator>"
        "<motor joint='b' gear='0.5 -1 2'/><motor jointinparent='b' gear='1 0 0'/>"
        "</actuator></mujoco>", "ball");
    cs_data *d = cs_make_data(m);
    double a = 1.2;
    d->qpos[0] = cos(a / 2), d->qpos[3] = sin(a / 2); /* a turn by a about z */
    cs_forward(m, d);
    const double *mo0 = d->actuator_moment, *mo1 = d->actuator_moment + m->nv;
    printf("report: ball: length %.17g (want %.17g), inparent moment (%.9g %.9g %.9g)\n",
           d->actuator_length[0], 2 * a, mo1[0], mo1[1], mo1[2]);
    ck_assert_double_eq_tol(d->actuator_length[0], 2 * a, 1e-14);
    ck_assert_double_eq(mo0[0], 0.5);
    ck_assert_double_eq(mo0[1], -1);
    ck_assert_double_eq(mo0[2], 2);
    /* the parent's x seen from a frame turned by a about z: (cos a, -sin a, 0) */
    ck_assert_double_eq_tol(mo1[0], cos(a), 1e-14);
    ck_assert_double_eq_tol(mo1[1], -sin(a), 1e-14);
    ck_assert_double_eq_tol(mo1[2], 0, 1e-14);
    ck_assert_double_eq_tol(d->actuator_length[1], 0, 1e-14); /* about x: no turn there */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_free)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0'/><worldbody><body euler='0 0 90'><freejoint name='f'/>"
        "<geom type='box' size='0.2 0.1 0.05' mass='2'/></body></worldbody><actuator>"
        "<motor joint='f' gear='0 0 1 0 0 0'/><motor joint='f' gear='0 0 0 0 0 1'/>"
        "</actuator></mujoco>", "free");
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 3;
    d->ctrl[1] = 0.5;
    cs_forward(m, d);
    double I_z = 2.0 / 12 * (0.4 * 0.4 + 0.2 * 0.2);
    printf("report: free: acc z %.17g (want 1.5), alpha z %.17g (want %.17g)\n", d->qacc[2],
           d->qacc[5], 0.5 / I_z);
    ck_assert_double_eq_tol(d->qacc[2], 1.5, 1e-12);
    ck_assert_double_eq_tol(d->qacc[0], 0, 1e-12);
    ck_assert_double_eq_tol(d->qacc[5], 0.5 / I_z, 1e-10);
    ck_assert_double_eq(d->actuator_length[0], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ball_free_actuators");
    TCase *tc = tcase_create("joints");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ball);
    tcase_add_test(tc, test_free);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
