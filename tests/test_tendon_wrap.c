/* Spatial tendons wrapped over spheres and cylinders, and pulleys, physical facts: over a
 * sphere the path is the great-circle one (two tangent legs and the arc between, in the
 * plane of the centre and both ends); over a cylinder the unrolled helix (the straight
 * legs and the arc in the cross-section, the height added in quadrature); a sidesite
 * sends the path round its side; a sidesite inside the object gives the shortest path
 * touching the circle; a clear segment stays straight; a pulley divides the length after
 * it; the Jacobian is the derivative of the length (central differences) and the velocity
 * J qvel the length's rate; a spring on a wrapped tendon conserves energy. Measured figures
 * are printed ("report: ..."). */
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

/* a scene of the given bodies and tendon, no gravity, massive enough to be well posed */
static cs_model *scene(const char *world, const char *tendon, const char *name)
{
    char xml[4096];
    snprintf(xml, sizeof xml,
             "<mujoco><option gravity='0 0 0' timestep='0.0005'/><worldbody>%s</worldbody>"
             "<tendon>%s</tendon></mujoco>", world, tendon);
    return load_xml(xml, name);
}

static double tendon_len(const cs_model *m, cs_data *d, int t)
{
    cs_forward(m, d);
    return d->ten_length[t];
}

/* the greatest |J_i - dL/dq_i| over the dofs (central differences of h; hinge and slide
 * dofs only, so qpos and qvel share indices) */
static double jac_error(const cs_model *m, cs_data *d, int t)
{
    double q0[16], err = 0, J[16];
    ck_assert_int_le(m->nq, 16);
    ck_assert_int_eq(m->nq, m->nv);
    memcpy(q0, d->qpos, (size_t)m->nq * sizeof *q0);
    cs_forward(m, d);
    memcpy(J, d->ten_J + (size_t)t * m->nv, (size_t)m->nv * sizeof *J);
    const double h = 1e-6;
    for (int i = 0; i < m->nv; i++) {
        d->qpos[i] = q0[i] + h;
        double lp = tendon_len(m, d, t);
        d->qpos[i] = q0[i] - h;
        double lm = tendon_len(m, d, t);
        d->qpos[i] = q0[i];
        err = fmax(err, fabs(J[i] - (lp - lm) / (2 * h)));
    }
    cs_forward(m, d);
    return err;
}

/* the wrapped length over a circle of radius r of ends at 2D distances d0, d1 from the
 * centre making angle th there: two tangents and the arc left between them */
static double circle_path(double d0, double d1, double th, double r)
{
    return sqrt(d0 * d0 - r * r) + sqrt(d1 * d1 - r * r) + r * (th - acos(r / d0) - acos(r / d1));
}

static double angle(const double a[3], const double b[3])
{
    double c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) /
               sqrt((a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) * (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]));
    return acos(c);
}

/* A unit sphere at the origin (on a body free to slide in x and z), the ends at
 * (-2, 0.3, 0.5) (on an arm turning about y) and (2, -0.2, 0.4) (world): the segment
 * passes 0.45 m from the centre, so the path wraps, with the closed-form great-circle
 * length (1e-12); the Jacobian is the length's derivative (1e-7, differences of 1e-6). */
START_TEST(test_sphere)
{
    cs_model *m = scene(
        "<site name='s1' pos='2 -0.2 0.4'/>"
        "<body><joint type='slide' axis='1 0 0'/><joint type='slide' axis='0 0 1'/>"
        "<geom name='ball' size='1' contype='0' conaffinity='0'/></body>"
        "<body pos='-2 0.3 0'><joint type='hinge' axis='0 1 0'/><geom size='0.05' "
        "contype='0' conaffinity='0' pos='0 0 0.5'/><site name='s0' pos='0 0 0.5'/></body>",
        "<spatial><site site='s0'/><geom geom='ball'/><site site='s1'/></spatial>", "sphere");
    cs_data *d = cs_make_data(m);
    double p0[3] = {-2, 0.3, 0.5}, p1[3] = {2, -0.2, 0.4};
    double d0 = sqrt(4 + 0.09 + 0.25), d1 = sqrt(4 + 0.04 + 0.16);
    double want = circle_path(d0, d1, angle(p0, p1), 1);
    double got = tendon_len(m, d, 0);
    double straight = sqrt(16 + 0.25 + 0.01);
    printf("report: sphere wrap: length %.15g, closed form %.15g (straight %.6g)\n", got, want,
           straight);
    ck_assert_double_eq_tol(got, want, 1e-12);
    ck_assert_double_gt(got, straight);
    /* moved: the sphere 0.1 m up, the arm turned by 0.2 rad */
    d->qpos[1] = 0.1;
    d->qpos[2] = 0.2;
    double err = jac_error(m, d, 0);
    printf("report: sphere wrap: |J - dL/dq| %.3g\n", err);
    ck_assert_double_lt(err, 1e-7);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A cylinder of radius 0.5 along z at the origin, the ends at (-2, 0.2, -0.6) and
 * (1.5, -0.1, 0.9): the path is the helix unrolled, sqrt(Lh^2 + dz^2) with Lh the 2D
 * wrapped length of the cross-section (1e-12). With the cylinder on a body that slides and
 * turns, the Jacobian is the length's derivative (1e-7). */
START_TEST(test_cylinder)
{
    cs_model *m = scene(
        "<site name='s0' pos='-2 0.2 -0.6'/><site name='s1' pos='1.5 -0.1 0.9'/>"
        "<body><joint type='slide' axis='0 1 0'/><joint type='hinge' axis='1 0 0'/>"
        "<joint type='slide' axis='1 0 0'/>"
        "<geom name='can' type='cylinder' size='0.5 1' contype='0' conaffinity='0'/></body>",
        "<spatial><site site='s0'/><geom geom='can'/><site site='s1'/></spatial>", "cylinder");
    cs_data *d = cs_make_data(m);
    double a[3] = {-2, 0.2, 0}, b[3] = {1.5, -0.1, 0};
    double lh = circle_path(sqrt(4.04), sqrt(2.26), angle(a, b), 0.5);
    double want = sqrt(lh * lh + 1.5 * 1.5);
    double got = tendon_len(m, d, 0);
    printf("report: cylinder wrap: length %.15g, closed form %.15g\n", got, want);
    ck_assert_double_eq_tol(got, want, 1e-12);
    d->qpos[0] = 0.05;
    d->qpos[1] = 0.1;
    d->qpos[2] = -0.1;
    double err = jac_error(m, d, 0);
    printf("report: cylinder wrap: |J - dL/dq| %.3g\n", err);
    ck_assert_double_lt(err, 1e-7);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The ends (-2, 0, 0.2) and (2, 0, 0.2) over a unit sphere: without a sidesite the path
 * goes over the top (angle th between the ends); a sidesite below sends it under, the arc
 * 2 pi - th (1e-12 each). A segment that clears the sphere stays straight, unless a
 * sidesite asks for the other side. */
START_TEST(test_sidesite)
{
    const char *world =
        "<site name='s0' pos='-2 0 0.2'/><site name='s1' pos='2 0 0.2'/>"
        "<site name='s2' pos='-2 0 1.5'/><site name='s3' pos='2 0 1.5'/>"
        "<site name='below' pos='0 0 -3'/>"
        "<body><joint type='slide' axis='0 0 1'/><geom name='ball' size='1' contype='0' "
        "conaffinity='0'/></body>";
    cs_model *m = scene(world,
        "<spatial><site site='s0'/><geom geom='ball'/><site site='s1'/></spatial>"
        "<spatial><site site='s0'/><geom geom='ball' sidesite='below'/><site site='s1'/></spatial>"
        "<spatial><site site='s2'/><geom geom='ball'/><site site='s3'/></spatial>"
        "<spatial><site site='s2'/><geom geom='ball' sidesite='below'/><site site='s3'/></spatial>",
        "sidesite");
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    double p0[3] = {-2, 0, 0.2}, p1[3] = {2, 0, 0.2}, q0[3] = {-2, 0, 1.5}, q1[3] = {2, 0, 1.5};
    double dd = sqrt(4.04), th = angle(p0, p1);
    double over = circle_path(dd, dd, th, 1), under = circle_path(dd, dd, 2 * M_PI - th, 1);
    double de = sqrt(4 + 2.25);
    double under2 = circle_path(de, de, 2 * M_PI - angle(q0, q1), 1);
    printf("report: sidesite: over %.15g (closed %.15g), under %.15g (closed %.15g); clear "
           "%.15g, clear with sidesite %.15g (closed %.15g)\n", d->ten_length[0], over,
           d->ten_length[1], under, d->ten_length[2], d->ten_length[3], under2);
    ck_assert_double_eq_tol(d->ten_length[0], over, 1e-12);
    ck_assert_double_eq_tol(d->ten_length[1], under, 1e-12);
    ck_assert_double_eq_tol(d->ten_length[2], 4, 1e-12);
    ck_assert_double_eq_tol(d->ten_length[3], under2, 1e-12);
    d->qpos[0] = 0.1;
    for (int t = 0; t < 4; t++) ck_assert_double_lt(jac_error(m, d, t), 1e-7);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A sidesite inside the sphere: the path touches the sphere once, at the point of the
 * circle where |p0 - q| + |q - p1| is least (a reflection). The length matches that least
 * sum found by a fine search over the circle (1e-9). */
START_TEST(test_inside)
{
    cs_model *m = scene(
        "<site name='s0' pos='-1.5 0 1.2'/><site name='s1' pos='1 0 1.6'/>"
        "<site name='mid' pos='0 0 0'/>"
        "<body><joint type='slide' axis='1 0 0'/><geom name='ball' size='1' contype='0' "
        "conaffinity='0'/></body>",
        "<spatial><site site='s0'/><geom geom='ball' sidesite='mid'/><site site='s1'/></spatial>",
        "inside");
    cs_data *d = cs_make_data(m);
    double got = tendon_len(m, d, 0), best = INFINITY, a0 = 0, step = 2 * M_PI / 1000;
    for (int pass = 0; pass < 4; pass++) { /* search, then refine around the best */
        double c = a0, lo = pass ? c - 2 * step : 0, hi = pass ? c + 2 * step : 2 * M_PI;
        double st = pass ? step / 1000 : step;
        for (double a = lo; a <= hi; a += st) {
            double qx = cos(a), qz = sin(a);
            double l = hypot(-1.5 - qx, 1.2 - qz) + hypot(1 - qx, 1.6 - qz);
            if (l < best) best = l, a0 = a;
        }
        step = st;
    }
    printf("report: inside sidesite: length %.15g, least touching path %.15g\n", got, best);
    ck_assert_double_eq_tol(got, best, 1e-9);
    ck_assert_double_lt(jac_error(m, d, 0), 1e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* s0 -> s1, pulley divisor 2, s2 -> s3: length |s0 s1| + |s2 s3| / 2 (1e-12); the
 * Jacobian carries the same halving (the length's derivative, 1e-8). */
START_TEST(test_pulley)
{
    cs_model *m = scene(
        "<site name='s0' pos='0 0 2'/><site name='s2' pos='1 0 2'/>"
        "<body pos='0 0 1'><joint type='slide' axis='0 0 1'/><geom size='0.1' contype='0' "
        "conaffinity='0'/><site name='s1'/><site name='s3' pos='0.3 0 0'/></body>",
        "<spatial><site site='s0'/><site site='s1'/><pulley divisor='2'/><site site='s2'/>"
        "<site site='s3'/></spatial>", "pulley");
    cs_data *d = cs_make_data(m);
    d->qpos[0] = -0.2;
    double got = tendon_len(m, d, 0), want = 1.2 + hypot(0.7, 1.2) / 2;
    printf("report: pulley: length %.15g, closed form %.15g, J %.15g\n", got, want, d->ten_J[0]);
    ck_assert_double_eq_tol(got, want, 1e-12);
    ck_assert_double_lt(jac_error(m, d, 0), 1e-8);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A 1 kg ball on two slides, held by a spring tendon (k 50) wrapped over a fixed cylinder
 * to a world site: no damping, no gravity, so the energy 1/2 m v^2 + 1/2 k (L - L0)^2 is
 * conserved by the motion (RK4, 2 s: drift within 1e-6 of its size), the spring's force
 * acting through J. */
START_TEST(test_spring_energy)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<mujoco><option gravity='0 0 0' timestep='0.0005' integrator='RK4'/><worldbody>"
             "<site name='a' pos='-1 0.1 0'/><geom name='can' type='cylinder' size='0.3 1' "
             "contype='0' conaffinity='0'/>"
             "<body pos='1 0 0'><joint type='slide' axis='1 0 0'/><joint type='slide' "
             "axis='0 1 0'/><geom size='0.05' mass='1' contype='0' conaffinity='0'/>"
             "<site name='b'/></body></worldbody>"
             "<tendon><spatial stiffness='50' springlength='2.2'><site site='a'/>"
             "<geom geom='can'/><site site='b'/></spatial></tendon></mujoco>");
    cs_model *m = load_xml(xml, "spring_energy");
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.4;
    d->qvel[1] = 0.5;
    cs_forward(m, d);
    double mass = m->body_mass[1];
    double e0 = 0, drift = 0;
    for (int i = 0; i <= 4000; i++) {
        cs_forward(m, d);
        double x = d->ten_length[0] - 2.2, v2 = d->qvel[0] * d->qvel[0] + d->qvel[1] * d->qvel[1];
        double e = 0.5 * mass * v2 + 0.5 * 50 * x * x;
        if (i == 0) e0 = e;
        drift = fmax(drift, fabs(e - e0));
        if (i < 4000) step_checked(m, d);
    }
    printf("report: wrapped spring: energy %.6g J, drift %.3g\n", e0, drift);
    ck_assert_double_gt(e0, 0.1);
    ck_assert_double_lt(drift, 1e-6 * e0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the velocity is the length's rate: (L(t + h) - L(t - h)) / 2h for a motion at qvel */
START_TEST(test_velocity)
{
    cs_model *m = scene(
        "<site name='s1' pos='2 -0.2 0.4'/>"
        "<body><joint type='slide' axis='1 0 0'/><joint type='slide' axis='0 0 1'/>"
        "<geom name='ball' size='1' contype='0' conaffinity='0'/></body>"
        "<body pos='-2 0.3 0'><joint type='hinge' axis='0 1 0'/><geom size='0.05' "
        "contype='0' conaffinity='0' pos='0 0 0.5'/><site name='s0' pos='0 0 0.5'/></body>",
        "<spatial><site site='s0'/><geom geom='ball'/><site site='s1'/></spatial>", "velocity");
    cs_data *d = cs_make_data(m);
    double v[3] = {0.3, -0.2, 0.7}, q[3] = {0.05, 0.1, 0.2}, h = 1e-6;
    for (int i = 0; i < 3; i++) d->qpos[i] = q[i] + h * v[i];
    double lp = tendon_len(m, d, 0);
    for (int i = 0; i < 3; i++) d->qpos[i] = q[i] - h * v[i];
    double lm = tendon_len(m, d, 0);
    for (int i = 0; i < 3; i++) d->qpos[i] = q[i], d->qvel[i] = v[i];
    cs_forward(m, d);
    printf("report: wrapped velocity %.12g, length rate %.12g\n", d->ten_velocity[0],
           (lp - lm) / (2 * h));
    ck_assert_double_eq_tol(d->ten_velocity[0], (lp - lm) / (2 * h), 1e-7);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tendon_wrap");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sphere);
    tcase_add_test(tc, test_cylinder);
    tcase_add_test(tc, test_sidesite);
    tcase_add_test(tc, test_inside);
    tcase_add_test(tc, test_pulley);
    tcase_add_test(tc, test_spring_energy);
    tcase_add_test(tc, test_velocity);
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
