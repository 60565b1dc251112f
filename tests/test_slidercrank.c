/* Slider-crank transmissions, physical facts: the length is the slider's position on its
 * axis for a rod of the given length from the crank pin (the closed form of an in-line
 * crank, rho cos(theta) - sqrt(r^2 - rho^2 sin^2(theta)), times the gear); out of the rod's
 * reach it is the pin's projection on the axis; the moment is the length's derivative
 * (central differences, with the slider's own frame moving too); the velocity is the
 * length's rate; the generalised force is moment^T force (its power is force times the
 * velocity); a position servo on the slider settles at its target. Measured figures are
 * printed ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

/* a crank of radius 0.3 turning about y at the origin (its pin site), a slider site at the
 * origin whose z axis is world x (on a body that slides along y and turns about z when
 * MOVING), ACT spliced in */
static cs_model *crank_scene(const char *act, int moving, const char *name)
{
    char xml[4096];
    snprintf(xml, sizeof xml,
             "<mujoco><option gravity='0 0 0' timestep='0.001' integrator='implicitfast'/>"
             "<worldbody><body><joint name='crank' type='hinge' axis='0 1 0' damping='0.5'/>"
             "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02' mass='1' contype='0' "
             "conaffinity='0'/><site name='pin' pos='0.3 0 0'/></body>"
             "%s<site name='slide' quat='0.70710678118654752 0 0.70710678118654752 0'/>%s"
             "</worldbody><actuator>%s</actuator></mujoco>",
             moving ? "<body pos='0.1 0 0'><joint type='slide' axis='0 1 0'/><joint "
                      "type='hinge' axis='0 0 1'/><geom size='0.05' mass='1' contype='0' "
                      "conaffinity='0'/>" : "",
             moving ? "</body>" : "", act);
    return load_xml(xml, name);
}

/* the greatest |moment_j - d length / d q_j| (central differences; hinge and slide only) */
static double moment_error(const cs_model *m, cs_data *d, int u)
{
    double q0[8], mo[8], err = 0, h = 1e-6;
    ck_assert_int_le(m->nv, 8);
    memcpy(q0, d->qpos, (size_t)m->nq * sizeof *q0);
    cs_forward(m, d);
    memcpy(mo, d->actuator_moment + (size_t)u * m->nv, (size_t)m->nv * sizeof *mo);
    for (int i = 0; i < m->nv; i++) {
        d->qpos[i] = q0[i] + h;
        cs_forward(m, d);
        double lp = d->actuator_length[u];
        d->qpos[i] = q0[i] - h;
        cs_forward(m, d);
        double lm = d->actuator_length[u];
        d->qpos[i] = q0[i];
        err = fmax(err, fabs(mo[i] - (lp - lm) / (2 * h)));
    }
    cs_forward(m, d);
    return err;
}

/* Rod 0.5, gear 2, at crank angles over a turn: length 2 (rho cos - sqrt(r^2 - rho^2
 * sin^2)) (1e-12); the moment the length's derivative (1e-7). */
START_TEST(test_length_moment)
{
    cs_model *m = crank_scene("<motor cranksite='pin' slidersite='slide' cranklength='0.5' "
                              "gear='2'/>", 0, "slidercrank");
    ck_assert_int_eq(m->actuator_trntype[0], CS_TRN_SLIDERCRANK);
    cs_data *d = cs_make_data(m);
    double worst = 0, worst_m = 0;
    for (int k = 0; k < 12; k++) {
        double th = -3 + 0.5 * k, rho = 0.3, r = 0.5, s = sin(th);
        d->qpos[0] = th;
        cs_forward(m, d);
        double want = 2 * (rho * cos(th) - sqrt(r * r - rho * rho * s * s));
        worst = fmax(worst, fabs(d->actuator_length[0] - want));
        worst_m = fmax(worst_m, moment_error(m, d, 0));
    }
    printf("report: slider-crank: length error %.3g, |moment - dL/dq| %.3g\n", worst, worst_m);
    ck_assert_double_lt(worst, 1e-12);
    ck_assert_double_lt(worst_m, 1e-7);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The slider on a body that slides and turns: the moment takes the slider axis's turning
 * too; it matches the length's derivative over all three dofs (1e-7), in reach and out of
 * it (rod 0.15 against a pin 0.3 from the axis: the length is then a.v, 1e-12). */
START_TEST(test_moving_slider)
{
    cs_model *m = crank_scene("<general cranksite='pin' slidersite='slide' cranklength='0.5'/>"
                              "<general cranksite='pin' slidersite='slide' cranklength='0.05'/>",
                              1, "slidercrank_moving");
    cs_data *d = cs_make_data(m);
    double q[3] = {1.1, 0.05, 0.3};
    memcpy(d->qpos, q, sizeof q);
    double e0 = moment_error(m, d, 0), e1 = moment_error(m, d, 1);
    /* out of reach: the pin's projection on the slider's axis */
    const double *pin = d->site_xpos, *sl = d->site_xpos + 3, *R = d->site_xmat + 9;
    double av = 0;
    for (int k = 0; k < 3; k++) av += R[3 * k + 2] * (pin[k] - sl[k]);
    printf("report: slider-crank moving: |moment - dL/dq| %.3g (in reach), %.3g (out); "
           "out-of-reach length %.15g, projection %.15g\n", e0, e1, d->actuator_length[1], av);
    ck_assert_double_lt(e0, 1e-7);
    ck_assert_double_lt(e1, 1e-7);
    ck_assert_double_eq_tol(d->actuator_length[1], av, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A motor (ctrl 3) at a moving state: velocity = the length's rate (1e-7), generalised
 * force = moment force, so its power qfrc . qvel = force * velocity (1e-12). */
START_TEST(test_force_velocity)
{
    cs_model *m = crank_scene("<motor cranksite='pin' slidersite='slide' cranklength='0.5' "
                              "gear='1.5'/>", 1, "slidercrank_force");
    cs_data *d = cs_make_data(m);
    double q[3] = {0.7, -0.02, 0.2}, v[3] = {1.3, 0.4, -0.6}, h = 1e-6;
    for (int i = 0; i < 3; i++) d->qpos[i] = q[i] + h * v[i];
    cs_forward(m, d);
    double lp = d->actuator_length[0];
    for (int i = 0; i < 3; i++) d->qpos[i] = q[i] - h * v[i];
    cs_forward(m, d);
    double lm = d->actuator_length[0];
    for (int i = 0; i < 3; i++) d->qpos[i] = q[i], d->qvel[i] = v[i];
    d->ctrl[0] = 3;
    cs_forward(m, d);
    double power = 0;
    for (int i = 0; i < 3; i++) power += d->qfrc_actuator[i] * d->qvel[i];
    printf("report: slider-crank: velocity %.12g, length rate %.12g; power %.12g, force x "
           "velocity %.12g\n", d->actuator_velocity[0], (lp - lm) / (2 * h), power,
           d->actuator_force[0] * d->actuator_velocity[0]);
    ck_assert_double_eq_tol(d->actuator_velocity[0], (lp - lm) / (2 * h), 1e-7);
    ck_assert_double_eq_tol(power, 3 * d->actuator_velocity[0], 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A position servo (kp 20, kv 2) on the slider of the fixed-axis crank, target -0.3 (a
 * reachable slider position): the crank turns until the length is the target (1e-6 after
 * 10 s, implicitfast). */
START_TEST(test_servo)
{
    cs_model *m = crank_scene("<position cranksite='pin' slidersite='slide' cranklength='0.5' "
                              "kp='20' kv='2'/>", 0, "slidercrank_servo");
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.5;
    d->ctrl[0] = -0.3;
    steps(m, d, 10000);
    cs_forward(m, d);
    printf("report: slider-crank servo: length %.12g (target -0.3), crank %.6g rad\n",
           d->actuator_length[0], d->qpos[0]);
    ck_assert_double_eq_tol(d->actuator_length[0], -0.3, 1e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("slidercrank");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_length_moment);
    tcase_add_test(tc, test_moving_slider);
    tcase_add_test(tc, test_force_velocity);
    tcase_add_test(tc, test_servo);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
