/* Orientation servos (MuJoCo 3.12's <orientation>, so3 gain and bias): a ball-jointed body
 * turns to its target and stays, the short way round; the quaternion chart is the rotation
 * vector's (scale and sign of the quaternion do not matter); forcerange bounds the torque's
 * norm and keeps its direction; a site servo turns a free body to its target in the
 * reference site's frame; the integrator variant integrates its controls; three outputs
 * per actuator in the sensors; reset sets a quaternion target to the identity; MuJoCo's
 * refusals. Measured quantities are printed ("report: ..."). */
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

/* boxes on ball joints at x = 0, 1, 2, 3 (no gravity), the actuators given */
static char *balls(const char *actuators, const char *extra)
{
    static const char *const FMT =
        "<mujoco><option timestep='0.002' integrator='implicitfast' gravity='0 0 0'/>"
        "<worldbody>"
        "<body name='b0'><joint name='j0' type='ball'/><geom type='box' size='.07 .09 .05'/>"
        "<site name='s0'/></body>"
        "<body name='b1' pos='1 0 0'><joint name='j1' type='ball'/>"
        "<geom type='box' size='.07 .09 .05'/></body>"
        "<body name='b2' pos='2 0 0'><joint name='j2' type='ball'/>"
        "<geom type='box' size='.07 .09 .05'/></body>"
        "<body name='f' pos='3 0 0'><freejoint/><geom type='box' size='.07 .09 .05'/>"
        "<site name='fs'/></body>"
        "<site name='ref' pos='3 0 0' quat='0.8 0 0.6 0'/><site name='w'/>"
        "</worldbody><actuator>%s</actuator>%s</mujoco>";
    return format_xml(FMT, actuators, extra);
}

static cs_model *load_balls(const char *actuators, const char *extra)
{
    char *x = balls(actuators, extra);
    cs_model *m = load_xml(x, "balls");
    free(x);
    return m;
}

static void refused(const char *actuators, const char *phrase)
{
    char *x = balls(actuators, "");
    load_refused(x, "balls", phrase);
    free(x);
}

/* the angle between two orientations (quaternions) */
static double qdist(const double a[4], const double b[4])
{
    double v[3];
    cs_subquat(v, a, b);
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static const double *ball_quat(const cs_model *m, const cs_data *d, const char *joint)
{
    return d->qpos + m->jnt_qposadr[cs_name2id_joint(m, joint)];
}

/* ---- to the target, the short way ----------------------------------------------------- */
/* a target 4 rad about z (the rotation vector's chart) is the same orientation as -(2 pi -
 * 4) rad: the servo turns the body clockwise to -2.28 rad (overshooting a little: its
 * damping ratio is for the x axis's inertia), never the long way through positive angles,
 * and holds it there */
START_TEST(test_short_way)
{
    cs_model *m = load_balls("<orientation name='o' joint='j0' kp='2' dampratio='1'/>", "");
    ck_assert_int_eq(m->nu, 3);
    ck_assert_int_eq(m->nout, 3);
    cs_data *d = cs_make_data(m);
    d->ctrl[2] = 4;
    double target[4] = {cos(2), 0, 0, sin(2)}, hi = -INFINITY, lo = INFINITY;
    for (int k = 0; k < 5000; k++) {
        step_checked(m, d);
        const double *q = ball_quat(m, d, "j0");
        double th = 2 * atan2(q[3], q[0]); /* the angle about z, in (-2 pi, 2 pi] */
        hi = fmax(hi, th);
        lo = fmin(lo, th);
    }
    double err = qdist(ball_quat(m, d, "j0"), target);
    printf("report: orientation to 4 rad about z: error %.3g rad after 10 s; angle within "
           "[%.4f, %.3g]\n", err, lo, hi);
    ck_assert_double_le(err, 1e-6);
    ck_assert_double_le(hi, 1e-12);                /* never the long way */
    ck_assert_double_gt(lo, -(2 * M_PI - 4) - 0.3); /* a little past the target */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- the quaternion chart is the rotation vector's -------------------------------------- */
/* the same target as a rotation vector (b0), as its quaternion (b1) and as that quaternion
 * scaled by -3 (b2): the three bodies turn alike */
START_TEST(test_quat_chart)
{
    cs_model *m = load_balls("<orientation joint='j0' kp='3' kv='0.3'/>"
                             "<orientation joint='j1' kp='3' kv='0.3' input='quat'/>"
                             "<orientation joint='j2' kp='3' kv='0.3' input='quat'/>", "");
    ck_assert_int_eq(m->nu, 11);
    cs_data *d = cs_make_data(m);
    /* reset: the quaternion targets are the identity */
    ck_assert_double_eq(d->ctrl[3], 1);
    ck_assert_double_eq(d->ctrl[7], 1);
    double v[3] = {0.9, -1.7, 2.1}, th = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double q[4] = {cos(th / 2)};
    for (int k = 0; k < 3; k++) q[k + 1] = v[k] / th * sin(th / 2);
    memcpy(d->ctrl, v, sizeof v);
    memcpy(d->ctrl + 3, q, sizeof q);
    for (int k = 0; k < 4; k++) d->ctrl[7 + k] = -3 * q[k];
    double worst = 0;
    for (int k = 0; k < 3000; k++) {
        step_checked(m, d);
        worst = fmax(worst, qdist(ball_quat(m, d, "j0"), ball_quat(m, d, "j1")));
        worst = fmax(worst, qdist(ball_quat(m, d, "j0"), ball_quat(m, d, "j2")));
    }
    double err = qdist(ball_quat(m, d, "j0"), q);
    printf("report: expmap against quat and -3 quat targets: largest difference %.3g rad; "
           "final error %.3g\n", worst, err);
    ck_assert_double_le(worst, 1e-12);
    ck_assert_double_le(err, 1e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- forcerange bounds the torque's norm, not its components -------------------------- */
START_TEST(test_force_norm)
{
    cs_model *m = load_balls("<orientation name='c' joint='j0' kp='5' kv='1' forcerange='0 0.3'/>"
                             "<orientation name='u' joint='j1' kp='5' kv='1'/>", "");
    cs_data *d = cs_make_data(m);
    double v[3] = {2, -1, 0.5};
    memcpy(d->ctrl, v, sizeof v);
    memcpy(d->ctrl + 3, v, sizeof v);
    cs_forward(m, d);
    const double *fc = d->actuator_force, *fu = d->actuator_force + 3;
    double nc = sqrt(fc[0] * fc[0] + fc[1] * fc[1] + fc[2] * fc[2]);
    double nu = sqrt(fu[0] * fu[0] + fu[1] * fu[1] + fu[2] * fu[2]);
    printf("report: clamped torque norm %.15g (bound 0.3), unclamped %.6g\n", nc, nu);
    ck_assert_double_gt(nu, 0.3);
    ck_assert_double_eq_tol(nc, 0.3, 1e-15);
    for (int k = 0; k < 3; k++) /* the same direction */
        ck_assert_double_eq_tol(fc[k], fu[k] * 0.3 / nu, 1e-15);
    double worst = 0;
    for (int k = 0; k < 2000; k++) {
        step_checked(m, d);
        worst = fmax(worst, sqrt(fc[0] * fc[0] + fc[1] * fc[1] + fc[2] * fc[2]));
    }
    ck_assert_double_le(worst, 0.3 * (1 + 1e-15));
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- a site servo turns a free body in its reference site's frame ----------------------- */
/* the free body's site fs to 1.2 rad about the reference site's x axis: the two sites'
 * relative rotation is the target (MuJoCo forms a site's orientation as site_quat *
 * xquat: with fs's frame the body's and ref on the world, the frames' own) */
START_TEST(test_site_free)
{
    cs_model *m = load_balls("<orientation site='fs' refsite='ref' kp='2' dampratio='1'/>", "");
    ck_assert_int_eq(m->actuator_trntype[0], CS_TRN_SO3);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 1.2;
    steps(m, d, 5000);
    int s = cs_name2id(m, "site", "fs"), r = cs_name2id(m, "site", "ref");
    double qs[4], qr[4], rel[4], want[4] = {cos(0.6), sin(0.6), 0, 0};
    cs_mat2quat(qs, d->site_xmat + 9 * s);
    cs_mat2quat(qr, d->site_xmat + 9 * r);
    double qrc[4] = {qr[0], -qr[1], -qr[2], -qr[3]};
    cs_mulquat(rel, qrc, qs);
    double err = qdist(rel, want);
    printf("report: site servo on a free body: relative rotation error %.3g rad\n", err);
    ck_assert_double_le(err, 1e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- the integrator variant: act integrates the controls -------------------------------- */
/* controls (0.5, 0, 0) rad/s: after 1 s the setpoint is 0.5 rad about x, after 8 s 4 rad,
 * kept as the same rotation within pi: -(2 pi - 4) */
START_TEST(test_integrator)
{
    cs_model *m = load_balls("<general joint='j0' gaintype='so3' biastype='so3' "
                             "dyntype='integrator' gainprm='2' biasprm='0 -2 -0.5'/>", "");
    ck_assert_int_eq(m->na, 3);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 0.5;
    steps(m, d, 500);
    ck_assert_double_eq_tol(d->act[0], 0.5, 1e-12);
    steps(m, d, 3500);
    printf("report: so3 integrator after 8 s at 0.5 rad/s: setpoint %.12g (4 - 2 pi %.12g)\n",
           d->act[0], 4 - 2 * M_PI);
    ck_assert_double_eq_tol(d->act[0], 4 - 2 * M_PI, 1e-9);
    ck_assert_double_eq(d->act[1], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- three values per actuator sensor; names; refusals ---------------------------------- */
START_TEST(test_sensors_names)
{
    cs_model *m = load_balls("<orientation name='o' joint='j0' kp='2'/>"
                             "<orientation name='q' joint='j1' input='quat'/>",
                             "<sensor><actuatorfrc actuator='o'/><actuatorpos actuator='q'/>"
                             "</sensor>");
    ck_assert_int_eq(m->sensor_dim[0], 3);
    ck_assert_int_eq(m->nsensordata, 6);
    char buf[64];
    ck_assert_str_eq(cs_ctrl_label(m, 2, buf, sizeof buf), "o/rz");
    ck_assert_str_eq(cs_ctrl_label(m, 3, buf, sizeof buf), "q/qw");
    ck_assert_int_eq(cs_name2id_ctrl(m, "q/qz"), 6);
    cs_data *d = cs_make_data(m);
    d->ctrl[1] = 0.4;
    cs_forward(m, d);
    for (int k = 0; k < 3; k++) ck_assert_double_eq(d->sensordata[k], d->actuator_force[k]);
    ck_assert_double_eq_tol(d->actuator_force[1], 2 * 0.4, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_refusals)
{
    refused("<orientation site='s0'/>", "so3 site transmission requires refsite");
    refused("<orientation joint='j0' forcerange='-1 1'/>", "lower bound must be 0");
    refused("<orientation joint='j0' input='pos'/>", "an orientation's input is expmap or quat");
    refused("<general joint='j0' gaintype='so3' biastype='so3' dyntype='integrator' "
            "gainprm='1' biasprm='0 -1 0' input='quat'/>", "so3 quat input requires dyntype");
    refused("<general joint='j0' gaintype='so3' biastype='affine'/>",
            "gaintype and biastype must both be 'so3'");
    refused("<general joint='j0' gaintype='so3' biastype='so3' gainprm='2' biasprm='0 -1'/>",
            "so3 requires gainprm[0] == -biasprm[1]");
    refused("<pid joint='j0' input='expmap'/>", "is an orientation's input");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("orientation");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_short_way);
    tcase_add_test(tc, test_quat_chart);
    tcase_add_test(tc, test_force_norm);
    tcase_add_test(tc, test_site_free);
    tcase_add_test(tc, test_integrator);
    tcase_add_test(tc, test_sensors_names);
    tcase_add_test(tc, test_refusals);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
