/* Muscles and the compiler's length ranges, against MuJoCo's definitions (its documentation's
 * muscle model: the force-length curve of half-parabolas through (lmin, 0), ((lmin+1)/2, 1/2),
 * (1, 1), ((1+lmax)/2, 1/2), (lmax, 0); the force-velocity curve (V+1)^2 below 0, rising to
 * fvmax at V = fvmax - 1; the passive force F fpmax (x^2/2, then 1/2 + x) past L = 1; the
 * activation time constants tau (0.5 + 1.5 act) and tau / (0.5 + 1.5 act)), and physical
 * facts: a muscle holding a load where its force equals the weight, the length range of a
 * limited joint, the implicit step with the force-velocity slope. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

/* a slide of mass 2 moved by one muscle: gear 1, lengthrange [0, 0.3] and range [0.75, 1.05]
 * make L0 = 1, so the normalised length is 0.75 + qpos and V = qvel / vmax */
static const char *SLIDE =
    "<mujoco><option gravity='0 0 0' timestep='0.001'/><worldbody><body>"
    "<joint name='s' type='slide'/><geom size='0.1' mass='2'/></body></worldbody>"
    "<actuator><muscle name='m' joint='s' force='100' lengthrange='0 0.3'/></actuator>"
    "</mujoco>";

static double force_at(const cs_model *m, cs_data *d, double act, double q, double v)
{
    d->act[0] = act;
    d->qpos[0] = q;
    d->qvel[0] = v;
    cs_forward(m, d);
    return d->actuator_force[0];
}

START_TEST(test_force_length_velocity)
{
    cs_model *m = load_xml(SLIDE, "slide");
    cs_data *d = cs_make_data(m);
    const double F = 100, a = 0.6, fpmax = 1.3, tol = 1e-12;
    /* optimum length, at rest: the whole force */
    ck_assert_double_eq_tol(force_at(m, d, a, 0.25, 0), -F * a, tol);
    /* the ascending limb's midpoint (lmin + 1) / 2 = 0.75: half; below lmin = 0.5: none */
    ck_assert_double_eq_tol(force_at(m, d, a, 0.0, 0), -F * a * 0.5, tol);
    ck_assert_double_eq_tol(force_at(m, d, a, -0.26, 0), 0, tol);
    /* the descending limb's midpoint (1 + lmax) / 2 = 1.3: half the active force, and the
     * passive force's half-parabola ends there at F fpmax / 2 */
    ck_assert_double_eq_tol(force_at(m, d, a, 0.55, 0), -F * a * 0.5 - F * fpmax * 0.5, tol);
    /* lmax = 1.6: no active force; passive on its line, 1/2 + (1.6 - 1.3) / 0.3 */
    ck_assert_double_eq_tol(force_at(m, d, a, 0.85, 0), -F * fpmax * 1.5, tol);
    /* passive force without activation, as above */
    ck_assert_double_eq_tol(force_at(m, d, 0, 0.55, 0), -F * fpmax * 0.5, tol);
    /* shortening at vmax (V = -1, qvel = -1.5): nothing; at half of it, a quarter */
    ck_assert_double_eq_tol(force_at(m, d, a, 0.25, -1.5), 0, tol);
    ck_assert_double_eq_tol(force_at(m, d, a, 0.25, -0.75), -F * a * 0.25, tol);
    /* lengthening: fvmax = 1.2 from V = fvmax - 1 = 0.2 on, 1.2 - 0.1^2 / 0.2 at V = 0.1 */
    ck_assert_double_eq_tol(force_at(m, d, a, 0.25, 0.3), -F * a * 1.2, tol);
    ck_assert_double_eq_tol(force_at(m, d, a, 0.25, 3.0), -F * a * 1.2, tol);
    ck_assert_double_eq_tol(force_at(m, d, a, 0.25, 0.15), -F * a * 1.15, tol);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* without force, the peak force is scale / acc0, acc0 = |M^-1 moment| at qpos0 = 1 / mass
 * for a slide */
START_TEST(test_force_from_scale)
{
    char *xml = edit(strdup(SLIDE), "force='100'", "scale='300'");
    cs_model *m = load_xml(xml, "slide");
    free(xml);
    ck_assert_double_eq_tol(m->actuator_acc0[0], 0.5, 1e-15);
    cs_data *d = cs_make_data(m);
    ck_assert_double_eq_tol(force_at(m, d, 1, 0.25, 0), -300 * 2.0, 1e-9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* Activation from 0 under control 1: d act / dt = (1 - act) / (t_act (0.5 + 1.5 act)), whose
 * solution reaches act at t_act (-1.5 act - 2 ln(1 - act)); back down under control 0:
 * d act / dt = -act (0.5 + 1.5 act) / t_deact, solved the same way (t_fall). Euler with
 * h = 1e-5 against time constants of 0.05 s and more is within 1e-4 of these. A control
 * above 1 acts as 1 and one below 0 as 0 (the muscle's own clamp), and actrange bounds the
 * activation. */
static double t_rise(double tact, double a) { return tact * (-1.5 * a - 2 * log(1 - a)); }
/* d a / dt = -a (0.5 + 1.5 a) / tdeact: dt = -tdeact da / (a (0.5 + 1.5 a)), and
 * 1 / (a (0.5 + 1.5 a)) = 2 / a - 3 / (0.5 + 1.5 a) */
static double t_fall(double tdeact, double a0, double a)
{
    return tdeact * (2 * log(a0 / a) - 2 * log((0.5 + 1.5 * a0) / (0.5 + 1.5 * a)));
}

START_TEST(test_activation)
{
    char *xml = edit(strdup(SLIDE), "force='100'", "force='0' timeconst='0.1 0.2'");
    xml = edit(xml, "timestep='0.001'", "timestep='0.00001'");
    cs_model *m = load_xml(xml, "slide");
    free(xml);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 1.7; /* acts as 1 */
    double a_half = 0.5, t = t_rise(0.1, a_half);
    int n = (int)lround(t / m->opt.timestep);
    for (int k = 0; k < n; k++) cs_step(m, d);
    printf("report: activation %.9f at t(0.5) = %.6f s\n", d->act[0], t);
    ck_assert_double_eq_tol(d->act[0], a_half, 1e-4);
    /* on to 0.9, then let go: back to 0.3 */
    n = (int)lround((t_rise(0.1, 0.9) - t) / m->opt.timestep);
    for (int k = 0; k < n; k++) cs_step(m, d);
    ck_assert_double_eq_tol(d->act[0], 0.9, 1e-4);
    d->ctrl[0] = -0.5; /* acts as 0 */
    n = (int)lround(t_fall(0.2, 0.9, 0.3) / m->opt.timestep);
    for (int k = 0; k < n; k++) cs_step(m, d);
    ck_assert_double_eq_tol(d->act[0], 0.3, 1e-4);
    cs_free_data(d);
    cs_free_model(m);

    /* a <general> with muscle dynamics and actrange: held at its top */
    m = load_xml("<mujoco><worldbody><body><joint name='s' type='slide'/><geom size='0.1'/>"
                 "</body></worldbody><actuator><general joint='s' dyntype='muscle' "
                 "dynprm='0.01 0.04' gainprm='0' actlimited='true' actrange='0 0.4'/>"
                 "</actuator></mujoco>", "general");
    d = cs_make_data(m);
    d->ctrl[0] = 1;
    for (int k = 0; k < 200; k++) cs_step(m, d);
    ck_assert_double_eq(d->act[0], 0.4);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A mass hanging from a muscle (gear -1: pulling shortens it and lifts the mass) settles
 * where the muscle's force equals its weight. With m g = F act / 2 that is the ascending
 * limb's midpoint L = 0.75, length 0.2 (lengthrange [0.2, 0.5]): z = -0.2; the force rises
 * with the length there, so the rest is stable. */
START_TEST(test_holds_load)
{
    const double F = 100, act = 0.8, g = 9.81, mass = F * act * 0.5 / g;
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='0.002'/><worldbody><body>"
             "<joint name='z' type='slide' axis='0 0 1' damping='20'/>"
             "<geom size='0.05' mass='%.17g'/></body></worldbody><actuator>"
             "<muscle joint='z' gear='-1' force='%g' lengthrange='0.2 0.5'/></actuator>"
             "</mujoco>", mass, F);
    cs_model *m = load_xml(xml, "hang");
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = act;
    steps(m, d, 5000); /* 10 s */
    printf("report: hanging muscle rests at z = %.9f m, force %.6f N\n", d->qpos[0],
           d->actuator_force[0]);
    ck_assert_double_eq_tol(d->qpos[0], -0.2, 1e-6);
    ck_assert_double_lt(fabs(d->qvel[0]), 1e-6);
    ck_assert_double_eq_tol(-d->actuator_force[0], mass * g, 1e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* uselimit: a limited joint's or tendon's range is the length range (MuJoCo copies the
 * target's range); without it the compiler pushes the transmission into the same limits,
 * getting the range to within the soft limits' give; the model's options stay as given */
START_TEST(test_lengthrange)
{
    static const char *XML =
        "<mujoco><compiler><lengthrange uselimit='%s'/></compiler>"
        "<option integrator='RK4' timestep='0.003' gravity='0 1 -3'/>"
        "<worldbody><body><joint name='s' type='slide' range='-0.1 0.25'/>"
        "<geom size='0.05' mass='1'/></body></worldbody>"
        "<actuator><muscle joint='s'/></actuator></mujoco>";
    char xml[1024];
    snprintf(xml, sizeof xml, XML, "true");
    cs_model *m = load_xml(xml, "limit");
    ck_assert_double_eq(m->actuator_lengthrange[0], -0.1);
    ck_assert_double_eq(m->actuator_lengthrange[1], 0.25);
    cs_free_model(m);
    snprintf(xml, sizeof xml, XML, "false");
    m = load_xml(xml, "pushed");
    const double *lr = m->actuator_lengthrange;
    printf("report: simulated length range [%.9f, %.9f] for limits [-0.1, 0.25]\n", lr[0], lr[1]);
    ck_assert_double_lt(lr[0], -0.1);
    ck_assert_double_gt(lr[0], -0.1 - 2e-3);
    ck_assert_double_gt(lr[1], 0.25);
    ck_assert_double_lt(lr[1], 0.25 + 2e-3);
    ck_assert_int_eq(m->opt.integrator, CS_INT_RK4);
    ck_assert_double_eq(m->opt.timestep, 0.003);
    ck_assert_double_eq(m->opt.gravity[2], -3);
    ck_assert_int_eq(m->opt.disableflags, 0);
    cs_free_model(m);
    /* a tendon's limits */
    m = load_xml("<mujoco><compiler><lengthrange uselimit='true'/></compiler><worldbody><body>"
                 "<joint name='s' type='slide'/><geom size='0.05'/></body></worldbody>"
                 "<tendon><fixed name='t' range='-0.3 0.2'><joint joint='s' coef='2'/></fixed>"
                 "</tendon><actuator><muscle tendon='t'/></actuator></mujoco>", "tendon");
    ck_assert_double_eq(m->actuator_lengthrange[0], -0.3);
    ck_assert_double_eq(m->actuator_lengthrange[1], 0.2);
    cs_free_model(m);
    /* mode none: nothing computed, the muscle keeps [0, 0] */
    m = load_xml("<mujoco><compiler><lengthrange mode='none'/></compiler><worldbody><body>"
                 "<joint name='s' type='slide'/><geom size='0.05'/></body></worldbody>"
                 "<actuator><muscle joint='s'/></actuator></mujoco>", "none");
    ck_assert_double_eq(m->actuator_lengthrange[0], 0);
    ck_assert_double_eq(m->actuator_lengthrange[1], 0);
    cs_free_model(m);
}
END_TEST

/* The implicit integrators take the force-velocity slope: one step is (M - h dF/dv)
 * (v1 - v0) = h F(v0), dF/dv measured here by central differences (F is quadratic in v
 * there, so they are exact to rounding) */
START_TEST(test_implicit_slope)
{
    static const char *const INTEG[] = {"implicitfast", "implicit"};
    for (int k = 0; k < 2; k++) {
        char *xml = edit(strdup(SLIDE), "timestep='0.001'", "timestep='0.01'");
        char opt[64];
        snprintf(opt, sizeof opt, "timestep='0.01' integrator='%s'", INTEG[k]);
        xml = edit(xml, "timestep='0.01'", opt);
        cs_model *m = load_xml(xml, INTEG[k]);
        free(xml);
        cs_data *d = cs_make_data(m);
        const double q = 0.2, v = -0.4, dv = 1e-3, act = 0.7;
        double f = force_at(m, d, act, q, v);
        double dfdv = (force_at(m, d, act, q, v + dv) - force_at(m, d, act, q, v - dv)) / (2 * dv);
        ck_assert_double_gt(fabs(dfdv), 10); /* the slope matters at this step */
        d->act[0] = act;
        d->qpos[0] = q;
        d->qvel[0] = v;
        d->ctrl[0] = act; /* act stays (act_dot 0) */
        cs_step(m, d);
        double h = 0.01, M = 2, v1 = v + h * f / (M - h * dfdv);
        ck_assert_double_eq_tol(d->qvel[0], v1, 1e-9);
        ck_assert_double_gt(fabs(d->qvel[0] - (v + h * f / M)), 1e-4); /* Euler would differ */
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("muscle");
    TCase *tc = tcase_create("muscle");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_force_length_velocity);
    tcase_add_test(tc, test_force_from_scale);
    tcase_add_test(tc, test_activation);
    tcase_add_test(tc, test_holds_load);
    tcase_add_test(tc, test_lengthrange);
    tcase_add_test(tc, test_implicit_slope);
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
