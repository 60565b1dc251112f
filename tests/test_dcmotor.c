/* DC motors (<dcmotor>, voltage input) against the motor's equations: torque K i with
 * L di/dt = V - K omega - R i (i = (V - K omega) / R without inductance), so the torque falls
 * linearly from K V / R at stall to 0 at the no-load speed V / K, the current rises to V / R
 * with time constant L / R at stall, and a motor against viscous damping b turns at
 * K V / (R b + K^2); the implicit step takes the back-EMF's -K^2 / R as damping. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

static const double K = 0.4, R = 2, V = 6;

START_TEST(test_torque_speed_line)
{
    cs_model *m = load_xml("<mujoco><option gravity='0 0 0'/><worldbody><body>"
                           "<joint name='h' axis='0 0 1'/><geom size='0.1'/></body></worldbody>"
                           "<actuator><dcmotor joint='h' motorconst='0.4' resistance='2'/>"
                           "</actuator></mujoco>", "line");
    ck_assert_int_eq(m->na, 0); /* no inductance: no current state */
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = V;
    const double w[3] = {0, 0.5 * V / K, V / K};
    for (int k = 0; k < 3; k++) {
        d->qvel[0] = w[k];
        cs_forward(m, d);
        ck_assert_double_eq_tol(d->actuator_force[0], K * (V - K * w[k]) / R, 1e-12);
    }
    ck_assert_double_eq_tol(d->actuator_force[0], 0, 1e-12); /* the no-load speed */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a rotor too heavy to move: the current is the exact first-order response (conesim, as
 * MuJoCo, integrates it exactly), and the torque reads the next step's current */
START_TEST(test_current_rise)
{
    cs_model *m = load_xml("<mujoco><option gravity='0 0 0' timestep='0.001'/><worldbody>"
                           "<body><joint name='h' axis='0 0 1'/><geom size='0.1' mass='1e12'/>"
                           "</body></worldbody><actuator><dcmotor joint='h' motorconst='0.4' "
                           "resistance='2' inductance='0.01'/></actuator></mujoco>", "rise");
    ck_assert_int_eq(m->na, 1);
    const double te = 0.01 / R, h = 0.001;
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = V;
    for (int n = 1; n <= 20; n++) {
        cs_step(m, d);
        ck_assert_double_eq_tol(d->act[0], V / R * (1 - exp(-n * h / te)), 1e-9);
    }
    /* the force of the step just taken: K times the current after it */
    ck_assert_double_eq_tol(d->actuator_force[0], K * d->act[0], 1e-9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_terminal_speed)
{
    const double b = 0.05;
    cs_model *m = load_xml("<mujoco><option gravity='0 0 0' timestep='0.002'/><worldbody>"
                           "<body><joint name='h' axis='0 0 1' damping='0.05'/>"
                           "<geom type='capsule' fromto='0 0 0 0.2 0 0' size='0.02'/></body>"
                           "</worldbody><actuator><dcmotor joint='h' motorconst='0.4' "
                           "resistance='2' inductance='0.01'/></actuator></mujoco>", "spin");
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = V;
    steps(m, d, 10000);
    double w = K * V / (R * b + K * K);
    printf("report: DC motor terminal speed %.9f rad/s (expected %.9f)\n", d->qvel[0], w);
    ck_assert_double_eq_tol(d->qvel[0], w, 1e-9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* one implicitfast step of a stateless motor on a slide of mass M: (M + h K^2 / R)(v1 - v0)
 * = h f(v0) */
START_TEST(test_implicit_back_emf)
{
    cs_model *m = load_xml("<mujoco><option gravity='0 0 0' timestep='0.01' "
                           "integrator='implicitfast'/><worldbody><body><joint name='s' "
                           "type='slide'/><geom size='0.1' mass='0.5'/></body></worldbody>"
                           "<actuator><dcmotor joint='s' motorconst='2' resistance='0.5'/>"
                           "</actuator></mujoco>", "implicit");
    cs_data *d = cs_make_data(m);
    const double h = 0.01, M = 0.5, k = 2, r = 0.5, v0 = 0.3, u = 1;
    d->ctrl[0] = u;
    d->qvel[0] = v0;
    cs_step(m, d);
    double f = k * (u - k * v0) / r;
    ck_assert_double_eq_tol(d->qvel[0], v0 + h * f / (M + h * k * k / r), 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* saturation bounds the torque (from a current bound: K i_max), the cogging torque
 * A sin(Np q + phase) comes on top of it; nominal voltage, stall torque and no-load speed
 * give K = vn / w0 and R = K vn / tau0 */
START_TEST(test_saturation_cogging_nominal)
{
    cs_model *m = load_xml("<mujoco><option gravity='0 0 0'/><worldbody><body>"
                           "<joint name='h' axis='0 0 1'/><geom size='0.1'/></body></worldbody>"
                           "<actuator><dcmotor joint='h' nominal='12 3 40' saturation='0 2' "
                           "cogging='0.1 6 0.5'/></actuator></mujoco>", "sat");
    double k = 12.0 / 40, r = k * 12 / 3;
    ck_assert_double_eq_tol(m->actuator_gainprm[1], k, 1e-15);
    ck_assert_double_eq_tol(m->actuator_gainprm[0], r, 1e-15);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 12; /* stall torque 3, bounded at K i_max = 0.6 */
    d->qpos[0] = 0.7;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->actuator_force[0], k * 2 + 0.1 * sin(6 * 0.7 + 0.5), 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dcmotor");
    TCase *tc = tcase_create("dcmotor");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_torque_speed_line);
    tcase_add_test(tc, test_current_rise);
    tcase_add_test(tc, test_terminal_speed);
    tcase_add_test(tc, test_implicit_back_emf);
    tcase_add_test(tc, test_saturation_cogging_nominal);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
