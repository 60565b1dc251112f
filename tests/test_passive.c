/* Passive forces set by compile-time rules: gravity compensation (a body's gravcomp share of
 * its weight cancelled at its COM, as passive force or, with actuatorgravcomp, as actuator
 * force inside actuatorfrcrange) and springdamper (stiffness and damping from a time constant
 * and a damping ratio). Each test checks a physical fact with tolerances from the model's
 * numbers. Measured quantities are printed on stdout ("report: ..."). */
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

static const double G = 9.81;

/* A free box (mass 2 kg) with gravcomp GC falls at (1 - GC) g; an arm on a hinge with a
 * compensated tip stays where it is put. */
static char *free_body(double gc)
{
    char *s = malloc(1024);
    ck_assert(s != NULL);
    snprintf(s, 1024,
             "<mujoco><option timestep='0.002'/><worldbody>"
             "<body name='b' pos='0 0 1' gravcomp='%g'><freejoint/>"
             "<geom type='box' size='0.1 0.1 0.1' mass='2' contype='0' conaffinity='0'/>"
             "</body></worldbody></mujoco>", gc);
    return s;
}

START_TEST(test_gravcomp_free_body)
{
    const double gcs[] = {0, 0.5, 1, 1.5};
    for (int k = 0; k < 4; k++) {
        char *xml = free_body(gcs[k]);
        cs_model *m = load_xml(xml, "inline");
        free(xml);
        cs_data *d = cs_make_data(m);
        int n = 250;
        for (int i = 0; i < n; i++) cs_step(m, d);
        double t = n * m->opt.timestep, a = (1 - gcs[k]) * G;
        /* semi-implicit Euler: z drops by a h^2 n (n + 1) / 2 exactly */
        double want = 1 - a * m->opt.timestep * m->opt.timestep * n * (n + 1) / 2;
        printf("report: gravcomp %.1f: vz %.9f (want %.9f), z %.9f (want %.9f)\n", gcs[k],
               d->qvel[2], -a * t, d->qpos[2], want);
        ck_assert_double_eq_tol(d->qvel[2], -a * t, 1e-9);
        ck_assert_double_eq_tol(d->qpos[2], want, 1e-9);
        /* the compensating force is -gc m g on the translation */
        ck_assert_double_eq_tol(d->qfrc_gravcomp[2], gcs[k] * 2 * G, 1e-12);
        ck_assert_double_eq_tol(d->qfrc_passive[2], gcs[k] * 2 * G, 1e-12);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* A horizontal two-link arm (hinges about y) whose links are fully compensated stays still;
 * with actuatorgravcomp the compensation is actuator force, and a shoulder limit of
 * actuatorfrcrange below the holding torque lets it sag. (As in MuJoCo, the actuator route
 * exists only in a model with actuators: an idle motor is there.) */
static const char *ARM =
    "<mujoco><option timestep='0.001'/><worldbody>"
    "<body name='l1' pos='0 0 1' gravcomp='1'>"
    "<joint name='shoulder' type='hinge' axis='0 1 0' ACT/>"
    "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.02' mass='1' contype='0' "
    "conaffinity='0'/>"
    "<body name='l2' pos='0.5 0 0' gravcomp='1'>"
    "<joint name='elbow' type='hinge' axis='0 1 0' actuatorgravcomp='true'/>"
    "<geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.02' mass='0.5' contype='0' "
    "conaffinity='0'/>"
    "</body></body></worldbody>"
    "<actuator><motor joint='shoulder'/></actuator></mujoco>";

static char *arm(const char *shoulder)
{
    size_t n = strlen(ARM) + strlen(shoulder) + 1;
    char *s = malloc(n);
    ck_assert(s != NULL);
    const char *p = strstr(ARM, "ACT");
    snprintf(s, n, "%.*s%s%s", (int)(p - ARM), ARM, shoulder, p + 3);
    return s;
}

START_TEST(test_gravcomp_arm)
{
    /* holding torque at the shoulder: m1 g 0.25 + m2 g (0.5 + 0.2) */
    double hold = (1 * 0.25 + 0.5 * 0.7) * G;
    char *xml = arm("");
    cs_model *m = load_xml(xml, "inline");
    free(xml);
    cs_data *d = cs_make_data(m);
    for (int i = 0; i < 1000; i++) cs_step(m, d);
    printf("report: compensated arm after 1 s: q (%.3g, %.3g), shoulder torque %.9f (want "
           "%.9f)\n", d->qpos[0], d->qpos[1], d->qfrc_gravcomp[0], hold);
    ck_assert(fabs(d->qpos[0]) < 1e-9 && fabs(d->qpos[1]) < 1e-9);
    /* MuJoCo's sign: a hinge about +y turns +x down; the compensation turns it up */
    ck_assert_double_eq_tol(fabs(d->qfrc_gravcomp[0]), hold, 1e-9);
    ck_assert_double_eq_tol(fabs(d->qfrc_gravcomp[1]), 0.5 * 0.2 * G, 1e-9);
    /* the elbow's share is actuator force, the shoulder's passive */
    ck_assert_double_eq_tol(d->qfrc_actuator[1], d->qfrc_gravcomp[1], 1e-15);
    ck_assert_double_eq_tol(d->qfrc_passive[1], 0, 1e-15);
    ck_assert_double_eq_tol(d->qfrc_passive[0], d->qfrc_gravcomp[0], 1e-15);
    cs_free_data(d);
    cs_free_model(m);

    /* the shoulder's compensation through its actuators, clamped to half the holding torque:
     * the arm sags (it falls back to the side, q moves), the elbow stays compensated */
    char opt[128];
    snprintf(opt, sizeof opt, "actuatorgravcomp='true' actuatorfrcrange='%g %g'", -hold / 2,
             hold / 2);
    xml = arm(opt);
    m = load_xml(xml, "inline");
    free(xml);
    d = cs_make_data(m);
    cs_step(m, d);
    printf("report: clamped shoulder: qfrc_actuator %.9f (bound %.9f)\n", d->qfrc_actuator[0],
           hold / 2);
    ck_assert_double_eq_tol(fabs(d->qfrc_actuator[0]), hold / 2, 1e-12);
    for (int i = 0; i < 200; i++) cs_step(m, d);
    printf("report: clamped shoulder after 0.2 s: q %.6f\n", d->qpos[0]);
    ck_assert(fabs(d->qpos[0]) > 0.01);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* gravity disabled: nothing to compensate */
START_TEST(test_gravcomp_off_without_gravity)
{
    char *xml = free_body(1);
    xml = edit(xml, "<option timestep='0.002'/>",
               "<option timestep='0.002'><flag gravity='disable'/></option>");
    cs_model *m = load_xml(xml, "inline");
    free(xml);
    cs_data *d = cs_make_data(m);
    for (int i = 0; i < 10; i++) cs_step(m, d);
    ck_assert_double_eq(d->qfrc_gravcomp[2], 0);
    ck_assert_double_eq(d->qvel[2], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* gravity compensation and a joint spring on the same dof add: a fully compensated slider
 * on a spring at rest at its springref stays there (the spring's force must not replace the
 * compensation), and with half compensation it settles where the spring holds the other
 * half of the weight, x = springref - (1 - gc) m g / k */
START_TEST(test_gravcomp_with_spring)
{
    const double mass = 2, k = 400, ref = 0.05, gcs[] = {1, 0.5};
    for (int c = 0; c < 2; c++) {
        char xml[1024];
        snprintf(xml, sizeof xml,
                 "<mujoco><option timestep='0.002'/><worldbody>"
                 "<body name='b' gravcomp='%g'><joint type='slide' axis='0 0 1' stiffness='%g' "
                 "springref='%g' damping='40'/>"
                 "<geom type='sphere' size='0.05' mass='%g' contype='0' conaffinity='0'/>"
                 "</body></worldbody></mujoco>", gcs[c], k, ref, mass);
        cs_model *m = load_xml(xml, "inline");
        cs_data *d = cs_make_data(m);
        d->qpos[0] = ref;
        for (int i = 0; i < 3000; i++) cs_step(m, d);
        double want = ref - (1 - gcs[c]) * mass * G / k;
        printf("report: gravcomp %g with a spring: rests at %.9f m (want %.9f)\n", gcs[c],
               d->qpos[0], want);
        ck_assert_double_eq_tol(d->qpos[0], want, 1e-6);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* springdamper: a 2 kg slider on a spring-damper with time constant tc and damping ratio
 * zeta oscillates at omega_d = omega_n sqrt(1 - zeta^2) with omega_n = 1 / (tc zeta), and
 * its amplitude decays by exp(-zeta omega_n t): the stiffness and damping are
 * m / (tc zeta)^2 and 2 m / tc. */
START_TEST(test_springdamper)
{
    const double tc = 0.05, zeta = 0.1, mass = 2;
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='0.0001' integrator='RK4' gravity='0 0 0'/><worldbody>"
             "<body name='b'><joint name='s' type='slide' axis='1 0 0' springdamper='%g %g' "
             "stiffness='123' damping='7'/>"
             "<geom type='sphere' size='0.05' mass='%g' contype='0' conaffinity='0'/>"
             "</body></worldbody></mujoco>", tc, zeta, mass);
    cs_model *m = load_xml(xml, "inline");
    double k = mass / (tc * tc * zeta * zeta), b = 2 * mass / tc;
    printf("report: springdamper: stiffness %.9g (want %.9g), damping %.9g (want %.9g)\n",
           m->jnt_stiffness[0], k, m->dof_damping[0], b);
    ck_assert_double_eq_tol(m->jnt_stiffness[0], k, 1e-9 * k);
    ck_assert_double_eq_tol(m->dof_damping[0], b, 1e-9 * b);
    /* released from x0 = 0.1 at rest: successive maxima of x decay by exp(-zeta wn Td) */
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.1;
    double wn = 1 / (tc * zeta), wd = wn * sqrt(1 - zeta * zeta), h = m->opt.timestep;
    double prev = 0.1, tprev = 0, xm1 = d->qpos[0], xm2 = xm1;
    int peaks = 0;
    for (int i = 1; i < 20000 && peaks < 3; i++) {
        cs_step(m, d);
        double x = d->qpos[0];
        if (xm1 > xm2 && xm1 > x && i > 2) {
            double t = (i - 1) * h, ratio = xm1 / prev, period = t - tprev;
            double want_ratio = exp(-zeta * wn * (2 * M_PI / wd));
            printf("report: springdamper peak %d: ratio %.6f (want %.6f), period %.6f s (want "
                   "%.6f)\n", peaks + 1, ratio, want_ratio, period, 2 * M_PI / wd);
            /* the maxima of x sit slightly before the cosine's: the ratio is exact, the
             * period within two steps */
            ck_assert_double_eq_tol(ratio, want_ratio, 1e-3);
            ck_assert_double_eq_tol(period, 2 * M_PI / wd, 2 * h);
            prev = xm1;
            tprev = t;
            peaks++;
        }
        xm2 = xm1;
        xm1 = x;
    }
    ck_assert_int_eq(peaks, 3);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* MuJoCo 3.12's polynomial springs and dampers: stiffness "a b c" gives the force
 * -(a x + b x^2 + c x^3), damping "a b c" -(a v + b v|v| + c v^3); a ball's spring acts along
 * its rotation vector with x its angle; a spatial tendon's outside its dead band. */
START_TEST(test_poly_forces)
{
    const char *xml =
        "<mujoco><compiler angle='radian'/><option gravity='0 0 0'/><worldbody>"
        "<site name='a' pos='0.1 0.5 0.3'/>"
        "<body name='arm'><joint name='h' axis='0 1 0' stiffness='2 3 4' damping='0.5 0.2 0.1' "
        "springref='0.1'/><geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03' mass='1'/>"
        "<site name='tip' pos='0.3 0 0'/></body>"
        "<body name='b' pos='1 0 0'><joint name='b' type='ball' stiffness='1 2 3'/>"
        "<geom type='box' size='0.1 0.05 0.2' mass='0.5'/></body>"
        "</worldbody><tendon><spatial name='t' stiffness='50 40' damping='0.5 -0.3' "
        "springlength='0.3 0.35'><site site='a'/><site site='tip'/></spatial></tendon></mujoco>";
    cs_model *m = load_xml(xml, "inline");
    ck_assert_double_eq(m->jnt_stiffness[0], 2);
    ck_assert_double_eq(m->jnt_stiffnesspoly[1], 4);
    ck_assert_double_eq(m->dof_dampingpoly[0], 0.2);
    ck_assert_double_eq(m->tendon_stiffnesspoly[0], 40);
    ck_assert_double_eq(m->tendon_dampingpoly[0], -0.3);
    cs_data *d = cs_make_data(m);
    double xh = 0.3, vh = -0.7, ang = 0.4; /* hinge at springref + 0.3; ball turned 0.4 rad */
    d->qpos[0] = 0.1 + xh;
    d->qvel[0] = vh;
    d->qpos[1] = cos(ang / 2);
    d->qpos[3] = sin(ang / 2); /* about y */
    cs_forward(m, d);
    /* the tendon: its force along its Jacobian, -(k x + k2 x^2) - (b v + b2 v|v|) */
    double L = d->ten_length[0], v = d->ten_velocity[0], x = L - 0.35;
    ck_assert(x > 0.1 && fabs(d->ten_J[0]) > 0.05 && fabs(v) > 0.05);
    double ft = -(50 * x + 40 * x * x) - (0.5 * v - 0.3 * v * fabs(v));
    double want_h = -(2 * xh + 3 * xh * xh + 4 * xh * xh * xh) -
                    (0.5 * vh + 0.2 * vh * fabs(vh) + 0.1 * vh * vh * vh) + d->ten_J[0] * ft;
    double want_b = -(1 + 2 * ang + 3 * ang * ang) * ang;
    printf("report: polynomial hinge %.12g (want %.12g), ball %.12g (want %.12g)\n",
           d->qfrc_passive[0], want_h, d->qfrc_passive[2], want_b);
    ck_assert_double_eq_tol(d->qfrc_passive[0], want_h, 1e-12);
    ck_assert_double_eq_tol(d->qfrc_passive[1], 0, 1e-12);
    ck_assert_double_eq_tol(d->qfrc_passive[2], want_b, 1e-12);
    ck_assert_double_eq_tol(d->qfrc_passive[3], 0, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* An undamped hinge and slide on polynomial springs keep their energy (RK4): the force and
 * the potential (a x^2/2 + b x^3/3 + c x^4/4) belong together. */
START_TEST(test_poly_energy)
{
    const char *xml =
        "<mujoco><option timestep='0.0005' integrator='RK4' gravity='0 0 0'/><worldbody>"
        "<body><joint type='hinge' axis='0 0 1' stiffness='5 -2 30'/>"
        "<geom type='box' size='0.2 0.05 0.05' mass='1' contype='0' conaffinity='0'/>"
        "<body pos='0.5 0 0'><joint type='slide' axis='0 1 0' stiffness='40 10 200'/>"
        "<geom type='sphere' size='0.05' mass='0.2' contype='0' conaffinity='0'/></body>"
        "</body></worldbody></mujoco>";
    cs_model *m = load_xml(xml, "inline");
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.6;
    d->qpos[1] = -0.1;
    cs_forward(m, d);
    double e0 = cs_energy_kinetic(m, d) + cs_energy_potential(m, d), emax = 0;
    ck_assert(e0 > 0.5);
    for (int i = 0; i < 4000; i++) {
        cs_step(m, d);
        cs_forward(m, d);
        double e = cs_energy_kinetic(m, d) + cs_energy_potential(m, d);
        emax = fmax(emax, fabs(e - e0));
    }
    printf("report: polynomial springs: energy %.9g J, largest drift %.3g J over 2 s\n", e0, emax);
    ck_assert(emax < 1e-7 * e0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_springdamper_bad)
{
    char err[512];
    const char *xml = "<mujoco><worldbody><body><joint type='slide' springdamper='0.1 -1'/>"
                      "<geom type='sphere' size='0.1'/></body></worldbody></mujoco>";
    cs_model *m = cs_load_xml_string(xml, "bad.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    printf("report: %s\n", err);
    ck_assert_ptr_nonnull(strstr(err, "bad.xml:1:"));
    ck_assert_ptr_nonnull(strstr(err, "springdamper"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("passive");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gravcomp_free_body);
    tcase_add_test(tc, test_gravcomp_arm);
    tcase_add_test(tc, test_gravcomp_off_without_gravity);
    tcase_add_test(tc, test_gravcomp_with_spring);
    tcase_add_test(tc, test_springdamper);
    tcase_add_test(tc, test_springdamper_bad);
    tcase_add_test(tc, test_poly_forces);
    tcase_add_test(tc, test_poly_energy);
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
