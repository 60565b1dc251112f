/* MuJoCo's implicit integrator (implicit.c, derivative.c) by physical facts: a standalone free
 * body steps as under implicitfast (whose local solve has the same gyroscopic derivative);
 * an undamped pendulum chain keeps its energy better than under Euler and worse than under
 * RK4; a tumbling rigid body taken at a large step keeps its kinetic energy and angular
 * momentum where Euler lets them grow; a damped rotor slows at the rate of the implicit
 * step's closed form. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

static cs_model *from(const char *xml)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, "<test>", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* a damped free body in vacuum; one in a wind with ellipsoid fluid forces (their lift
 * derivative is not symmetric) */
static const char *FREE[2] = {
    "<mujoco><option timestep=\"0.005\"/><worldbody><body pos=\"0.1 -0.2 0.5\" "
    "euler=\"20 -30 40\"><joint type=\"free\" damping=\"0.1\"/><geom type=\"box\" "
    "size=\".1 .2 .3\" mass=\"2\" pos=\".04 -.02 .03\" euler=\"10 20 30\"/></body>"
    "</worldbody></mujoco>",
    "<mujoco><option timestep=\"0.005\" density=\"1.2\" viscosity=\"0.002\" wind=\"1 2 3\"/>"
    "<worldbody><body pos=\"0.1 -0.2 0.5\" euler=\"20 -30 40\"><joint type=\"free\"/>"
    "<geom type=\"ellipsoid\" size=\".1 .2 .3\" mass=\"2\" pos=\".04 -.02 .03\" "
    "fluidshape=\"ellipsoid\"/></body></worldbody></mujoco>"};

START_TEST(test_free_body_as_implicitfast)
{
    cs_model *m = from(FREE[_i]);
    cs_data *a = cs_make_data(m), *b = cs_make_data(m);
    a->qvel[3] = 5;
    a->qvel[4] = -3;
    a->qvel[5] = 2;
    for (int n = 0; n < 50; n++) {
        /* from one state each step: a tumble parts any two trajectories in time */
        memcpy(b->qpos, a->qpos, (size_t)m->nq * sizeof *b->qpos);
        memcpy(b->qvel, a->qvel, (size_t)m->nv * sizeof *b->qvel);
        b->time = a->time;
        m->opt.integrator = CS_INT_IMPLICITFAST;
        cs_step(m, a);
        m->opt.integrator = CS_INT_IMPLICIT;
        cs_step(m, b);
        for (int k = 0; k < m->nv; k++)
            ck_assert_msg(fabs(a->qvel[k] - b->qvel[k]) < 1e-12, "step %d dof %d: %g %g", n, k,
                          a->qvel[k], b->qvel[k]);
    }
    cs_free_data(a);
    cs_free_data(b);
    cs_free_model(m);
}
END_TEST

/* MuJoCo's energy_conserving_pendulum: hinge, sprung slide, ball and hinge, no damping, no
 * constraints, starting at rest with zero energy */
static const char *PENDULUM =
    "<mujoco><option><flag constraint=\"disable\" energy=\"enable\"/></option><worldbody>"
    "<body pos=\"0.15 0 0\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
    "<geom type=\"capsule\" size=\"0.02\" fromto=\"0 0 0 .1 0 0\"/>"
    "<body pos=\"0.1 0 0\"><joint type=\"slide\" axis=\"1 0 0\" stiffness=\"200\"/>"
    "<geom type=\"capsule\" size=\"0.015\" fromto=\"-.1 0 0 .1 0 0\"/>"
    "<body pos=\".1 0 0\"><joint type=\"ball\"/>"
    "<geom type=\"box\" size=\".02\" fromto=\"0 0 0 0 .1 0\"/>"
    "<body pos=\"0 .1 0\"><joint axis=\"1 0 0\"/>"
    "<geom type=\"capsule\" size=\"0.02\" fromto=\"0 0 0 0 .1 0\"/>"
    "</body></body></body></body></worldbody></mujoco>";

static double pendulum_energy(cs_model *m, int integrator)
{
    m->opt.integrator = integrator;
    cs_data *d = cs_make_data(m);
    for (int n = 0; n < 500; n++) cs_step(m, d);
    cs_forward(m, d);
    double e = d->energy[0] + d->energy[1];
    cs_free_data(d);
    return e;
}

START_TEST(test_pendulum_energy)
{
    cs_model *m = from(PENDULUM);
    double euler = pendulum_energy(m, CS_INT_EULER), implicit = pendulum_energy(m, CS_INT_IMPLICIT);
    double rk4 = pendulum_energy(m, CS_INT_RK4);
    ck_assert(euler != 0 && implicit != 0 && rk4 != 0);
    ck_assert(fabs(rk4) < fabs(implicit));
    ck_assert(fabs(implicit) < fabs(euler));
    cs_free_model(m);
}
END_TEST


/* a rigid body of a free box and a plate welded to it (so not a standalone free body: the
 * step's gyroscopic derivative is implicit's alone), no gravity, tumbling about no principal
 * axis at a large step */
static const char *TUMBLE =
    "<mujoco><option timestep=\"0.02\" gravity=\"0 0 0\"/><worldbody><body>"
    "<freejoint/><geom type=\"box\" size=\".3 .1 .05\" mass=\"2\"/>"
    "<body pos=\"0 0.05 0.1\" euler=\"30 10 0\"><geom type=\"box\" size=\".05 .2 .02\" "
    "mass=\"1\"/></body></body></worldbody></mujoco>";

/* the relative drift of the kinetic energy and of |L| (world, about the COM) over 10 s */
static void tumble(cs_model *m, int integrator, double *de, double *dl)
{
    m->opt.integrator = integrator;
    cs_data *d = cs_make_data(m);
    d->qvel[3] = 5;
    d->qvel[4] = -3;
    d->qvel[5] = 2;
    double L0[3], L[3], p[3];
    cs_forward(m, d);
    double e0 = cs_energy_kinetic(m, d);
    cs_momentum(m, d, 0, L0, p);
    *de = -1;
    *dl = 0;
    for (int n = 0; n < 500; n++) {
        cs_step(m, d);
        cs_forward(m, d);
        cs_momentum(m, d, 0, L, p);
        double e = cs_energy_kinetic(m, d), dL = 0;
        for (int k = 0; k < 3; k++) dL += (L[k] - L0[k]) * (L[k] - L0[k]);
        *de = fmax(*de, (e - e0) / e0);
        *dl = fmax(*dl, sqrt(dL / (L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2])));
    }
    cs_free_data(d);
}

START_TEST(test_tumbling_body_keeps_energy_and_momentum)
{
    cs_model *m = from(TUMBLE);
    double ee, le, ei, li, ef, lf;
    tumble(m, CS_INT_EULER, &ee, &le);
    tumble(m, CS_INT_IMPLICIT, &ei, &li);
    tumble(m, CS_INT_IMPLICITFAST, &ef, &lf); /* no standalone body: as Euler here */
    (void)ef;
    (void)lf;
    /* Euler's explicit gyroscopic force pumps energy in; the linearly implicit step's
     * derivative of it never lets the energy rise, and keeps L closer */
    ck_assert_msg(ee > 0.5, "Euler: kinetic energy up by %g", ee);
    ck_assert_msg(ei <= 0, "implicit: kinetic energy up by %g", ei);
    ck_assert_msg(li < 0.5 * le, "|L| drift: implicit %g, Euler %g", li, le);
    cs_free_model(m);
}
END_TEST


/* a rotor on a hinge along its axis (no Coriolis force), damped by the joint and by a
 * velocity servo at rest: the implicit step is v' = v M / (M + h (b + kv)) */
START_TEST(test_damped_rotor_closed_form)
{
    cs_model *m = from("<mujoco><option timestep=\"0.05\" integrator=\"implicit\" "
                       "gravity=\"0 0 0\"/><worldbody><body><joint name=\"r\" axis=\"0 0 1\" "
                       "damping=\"0.3\" armature=\"0.02\"/><geom type=\"cylinder\" "
                       "size=\"0.1 0.05\" mass=\"1\"/></body></worldbody><actuator>"
                       "<velocity joint=\"r\" kv=\"0.7\"/></actuator></mujoco>");
    cs_data *d = cs_make_data(m);
    d->qvel[0] = 3;
    cs_forward(m, d);
    double M = d->qM[0], r = M / (M + 0.05 * (0.3 + 0.7));
    ck_assert_double_eq_tol(M, 0.5 * 1 * 0.01 + 0.02, 1e-12);
    for (int n = 1; n <= 40; n++) {
        cs_step(m, d);
        ck_assert_double_eq_tol(d->qvel[0], 3 * pow(r, n), 1e-12);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("implicit");
    TCase *tc = tcase_create("implicit");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_loop_test(tc, test_free_body_as_implicitfast, 0, 2);
    tcase_add_test(tc, test_pendulum_energy);
    tcase_add_test(tc, test_tumbling_body_keeps_energy_and_momentum);
    tcase_add_test(tc, test_damped_rotor_closed_form);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
