/* Tendon armature (inertia a of the tendon's length change: kinetic energy a v^2 / 2 with
 * v = J qvel), physical facts: on a fixed tendon it is the joint's armature a c^2 (a force
 * accelerates the slider by F / (m + a c^2)); on a spatial tendon whose Jacobian changes with
 * the pose, energy is conserved only with the bias force a J (Jdot qvel); and a tendon
 * spring's default rest length is its length at the joints' spring rest pose. Measured
 * figures are printed ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

/* a 2 kg slider pushed by 3 N through a fixed tendon of coefficient c with armature a */
START_TEST(test_fixed_tendon_armature)
{
    const double mass = 2, a = 0.7, c = 1.5, F = 3;
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='0.001' gravity='0 0 0'/><worldbody>"
             "<body><joint name='s' type='slide' axis='1 0 0'/><geom size='0.02' mass='%g' "
             "contype='0' conaffinity='0'/></body></worldbody>"
             "<tendon><fixed armature='%g'><joint joint='s' coef='%g'/></fixed></tendon>"
             "</mujoco>", mass, a, c);
    cs_model *m = load_xml(xml, "inline");
    cs_data *d = cs_make_data(m);
    d->qfrc_applied[0] = F;
    cs_forward(m, d);
    double want = F / (mass + a * c * c);
    printf("report: fixed tendon armature: qacc %.15g (want %.15g), M %.15g\n", d->qacc[0],
           want, d->qM[0]);
    ck_assert_double_eq_tol(d->qacc[0], want, 1e-12 * want);
    ck_assert_double_eq_tol(d->qM[0], mass + a * c * c, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A hinged arm with a second hinge, a spatial tendon from a world site to the tip with
 * armature and a spring (gravity and contacts off): the total energy, kinetic with the
 * tendon's inertia plus the springs', stays constant under RK4 (a small step) while the
 * tendon's Jacobian turns with the arm. */
START_TEST(test_spatial_tendon_armature_energy)
{
    const char *xml =
        "<mujoco><option integrator='RK4' timestep='0.0005' gravity='0 0 0'>"
        "<flag contact='disable'/></option><worldbody><site name='w' pos='0.6 0 -0.2'/>"
        "<body><joint name='h1' axis='0 1 0' stiffness='30'/>"
        "<geom type='capsule' size='0.03' fromto='0 0 0 0 0 -0.5' mass='1'/>"
        "<body pos='0 0 -0.5'><joint name='h2' axis='0 1 0' stiffness='10' springref='20'/>"
        "<geom type='capsule' size='0.03' fromto='0 0 0 -0.4 0 0' mass='0.5'/>"
        "<site name='tip' pos='-0.4 0 0'/></body></body></worldbody>"
        "<tendon><spatial armature='2' stiffness='40'><site site='w'/><site site='tip'/>"
        "</spatial></tendon>"
        "<keyframe><key qpos='0.6 -0.8' qvel='2 -3'/></keyframe></mujoco>";
    cs_model *m = load_xml(xml, "inline");
    ck_assert_double_eq(m->tendon_armature[0], 2);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    cs_forward(m, d);
    double e0 = cs_energy_kinetic(m, d) + cs_energy_potential(m, d), drift = 0, vmax = 0;
    for (int i = 0; i < 4000; i++) {
        cs_step(m, d);
        cs_forward(m, d);
        double e = cs_energy_kinetic(m, d) + cs_energy_potential(m, d);
        if (fabs(e - e0) > drift) drift = fabs(e - e0);
        if (fabs(d->ten_velocity[0]) > vmax) vmax = fabs(d->ten_velocity[0]);
    }
    printf("report: spatial tendon armature: energy %.9g J, largest change %.3g J over 2 s "
           "(tendon speed up to %.3g m/s)\n", e0, drift, vmax);
    ck_assert(vmax > 0.5); /* the tendon's inertia is exercised */
    ck_assert(drift < 1e-6 * e0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* springlength left out: the rest length is the tendon's length at qpos_spring (the joints'
 * springref), not at qpos0; there the tendon's spring pulls with nothing */
START_TEST(test_springlength_at_springref)
{
    const char *xml =
        "<mujoco><compiler angle='radian'/><option gravity='0 0 0'/><worldbody>"
        "<body><joint name='h' axis='0 1 0' springref='0.4'/>"
        "<geom type='capsule' size='0.03' fromto='0 0 0 0 0 -0.5' mass='1'/></body>"
        "</worldbody><tendon><fixed stiffness='50'><joint joint='h' coef='2'/></fixed></tendon>"
        "</mujoco>";
    cs_model *m = load_xml(xml, "inline");
    printf("report: tendon rest length %.15g (want 2 x 0.4)\n", m->tendon_lengthspring[0]);
    ck_assert_double_eq_tol(m->tendon_lengthspring[0], 0.8, 1e-15);
    ck_assert_double_eq_tol(m->tendon_lengthspring[1], 0.8, 1e-15);
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.4;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->qfrc_passive[0], 0, 1e-12);
    d->qpos[0] = 0; /* at qpos0: -k c (c 0 - 0.8) */
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->qfrc_passive[0], 50 * 2 * 0.8, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* armature on a tendon that wraps a geom: its Jacobian's rate is not defined there */
START_TEST(test_armature_wrap_refused)
{
    const char *xml =
        "<mujoco><worldbody><site name='a' pos='-1 0 0'/><geom name='c' type='cylinder' "
        "size='0.1 0.2' contype='0' conaffinity='0'/><body><joint axis='0 1 0'/>"
        "<geom size='0.05' pos='1 0 0'/><site name='b' pos='1 0 0'/></body></worldbody>"
        "<tendon><spatial armature='1'>\n<site site='a'/><geom geom='c'/><site site='b'/>"
        "</spatial></tendon></mujoco>";
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "bad.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    printf("report: %s\n", err);
    ck_assert(strstr(err, "bad.xml:1:") != NULL);
    ck_assert(strstr(err, "armature") != NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tendon_armature");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fixed_tendon_armature);
    tcase_add_test(tc, test_spatial_tendon_armature_energy);
    tcase_add_test(tc, test_springlength_at_springref);
    tcase_add_test(tc, test_armature_wrap_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
