/* Fixed tendons, physical facts: length and Jacobian are the coefficients', an actuator on
 * a tendon distributes gear * force by the coefficients, a tendon limit holds the length at
 * its range with the force that balances the load, tendon friction sticks below its bound
 * and slides above it with the closed-form acceleration, a tendon spring balances a load at
 * q = F / (k c^2); a limit over three trees balances them. Every solver method. Measured figures are printed ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

enum { NMETHOD = 4 };
static const char *const METHOD[NMETHOD] = {"newton", "pgs", "cg", "coulomb"};
static void set_method(cs_model *m, int k)
{
    m->opt.contact = k == 3 ? CS_CONTACT_COULOMB : CS_CONTACT_SOFT;
    m->opt.solver = k == 1 ? CS_SOLVER_PGS : k == 2 ? CS_SOLVER_CG : CS_SOLVER_NEWTON;
}

/* two sliders along x (masses 1 and 2 kg, on separate trees), no gravity; TENDON and
 * ACTUATOR are spliced in */
static char *sliders(const char *tendon, const char *actuator)
{
    const char *head =
        "<mujoco><option timestep='0.001' gravity='0 0 0'/><worldbody>"
        "<body><joint name='a' type='slide' axis='1 0 0'/><geom size='0.02' mass='1' "
        "contype='0' conaffinity='0'/></body>"
        "<body pos='0 1 0'><joint name='b' type='slide' axis='1 0 0'/><geom size='0.02' "
        "mass='2' contype='0' conaffinity='0'/></body></worldbody>";
    size_t n = strlen(head) + strlen(tendon) + strlen(actuator) + 64;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%s<tendon>%s</tendon>%s</mujoco>", head, tendon, actuator);
    return s;
}

/* tendon rows of tendon 0 with the given kind: their force summed */
static double tendon_force(const cs_model *m, const cs_data *d, int kind, int *nrow)
{
    double f = 0;
    *nrow = 0;
    for (int i = 0; i < cs_jrow_count(m, d); i++) {
        cs_jrow r;
        cs_jrow_get(m, d, i, &r);
        if (r.kind == kind && r.tendon == 0) {
            f += r.force;
            (*nrow)++;
        }
    }
    return f;
}

/* length 0.5 qa - 2 qb, J = (0.5, -2); a motor (gear 3, ctrl 1.5) on it: generalised force
 * coef * gear * ctrl on each joint, actuator length gear * ten_length. Exact (1e-12). */
START_TEST(test_tendon_actuator)
{
    char *xml = sliders("<fixed name='t'><joint joint='a' coef='0.5'/><joint joint='b' "
                        "coef='-2'/></fixed>",
                        "<actuator><motor tendon='t' gear='3'/></actuator>");
    cs_model *m = load_xml(xml, "tendon_actuator");
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.2;
    d->qpos[1] = -0.1;
    d->qvel[0] = 1;
    d->qvel[1] = 0.5;
    d->ctrl[0] = 1.5;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->ten_length[0], 0.5 * 0.2 - 2 * -0.1, 1e-12);
    ck_assert_double_eq_tol(d->ten_velocity[0], 0.5 * 1 - 2 * 0.5, 1e-12);
    ck_assert_double_eq(d->ten_J[0], 0.5);
    ck_assert_double_eq(d->ten_J[1], -2);
    ck_assert_double_eq_tol(d->actuator_length[0], 3 * d->ten_length[0], 1e-12);
    ck_assert_double_eq_tol(d->qfrc_actuator[0], 0.5 * 3 * 1.5, 1e-12);
    ck_assert_double_eq_tol(d->qfrc_actuator[1], -2 * 3 * 1.5, 1e-12);
    /* no other force: the accelerations are those forces over the masses */
    ck_assert_double_eq_tol(d->qacc[0], 0.5 * 3 * 1.5 / 1, 1e-9);
    ck_assert_double_eq_tol(d->qacc[1], -2 * 3 * 1.5 / 2, 1e-9);
    cs_free_data(d);
    cs_free_model(m);
    free(xml);
}
END_TEST

/* actuatorfrcrange on a tendon bounds the sum of its actuators' forces: two motors pulling
 * with 1.5 and 0.5 (sum 2) on a tendon bounded to [-1, 1] are scaled by 1/2 each, keeping
 * their ratio; the tendon's generalised force is J times the bound. A sum inside the range is
 * left alone; a bound not holding 0 is refused. */
START_TEST(test_tendon_actuator_force_range)
{
    char *xml = sliders("<fixed name='t' actuatorfrcrange='-1 1'><joint joint='a' coef='0.5'/>"
                        "<joint joint='b' coef='-2'/></fixed>",
                        "<actuator><motor tendon='t'/><motor tendon='t'/></actuator>");
    cs_model *m = load_xml(xml, "tendon_actfrc");
    free(xml);
    ck_assert_int_eq(m->tendon_actfrclimited[0], 1);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 1.5;
    d->ctrl[1] = 0.5;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->actuator_force[0], 0.75, 1e-15);
    ck_assert_double_eq_tol(d->actuator_force[1], 0.25, 1e-15);
    ck_assert_double_eq_tol(d->qfrc_actuator[0], 0.5 * 1, 1e-15);
    ck_assert_double_eq_tol(d->qfrc_actuator[1], -2 * 1, 1e-15);
    d->ctrl[0] = 0.5;
    d->ctrl[1] = -0.2;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->actuator_force[0], 0.5, 1e-15);
    ck_assert_double_eq_tol(d->actuator_force[1], -0.2, 1e-15);
    cs_free_data(d);
    cs_free_model(m);
    xml = sliders("<fixed name='t' actuatorfrcrange='0.5 1'><joint joint='a' coef='1'/></fixed>",
                  "");
    char err[512];
    ck_assert_ptr_null(cs_load_xml_string(xml, "bad.xml", NULL, err, sizeof err));
    ck_assert(strstr(err, "actuatorfrcrange") != NULL);
    free(xml);
}
END_TEST

/* length qa + 2 qb limited to [-1, 0.1]; loads 2 N on a and 4 N on b push it past the upper
 * end. At rest the limit's force f balances them through J = -(1, 2): f = 2 N (both
 * components agree: 2 = 1 f, 4 = 2 f). The soft limit sinks in by about
 * a / (K imp) with the default solref (0.02 1): bound 0.01 m; force within 1e-4 relative
 * once settled (3 s, 150 time constants; the methods stop on the cost's improvement, CG's
 * forces are 4e-5 off there). */
START_TEST(test_tendon_limit)
{
    char *xml = sliders("<fixed range='-1 0.1'><joint joint='a' coef='1'/><joint joint='b' "
                        "coef='2'/></fixed>",
                        "");
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(xml, "tendon_limit");
        set_method(m, k);
        ck_assert_int_eq(m->tendon_limited[0], 1); /* autolimits: the range limits it */
        cs_data *d = cs_make_data(m);
        d->qfrc_applied[0] = 2;
        d->qfrc_applied[1] = 4;
        steps(m, d, 3000);
        int n;
        double f = tendon_force(m, d, CS_JROW_TENDON_UPPER, &n);
        printf("report: tendon limit (%s): length %.6f (range end 0.1), force %.9g N (2)\n",
               METHOD[k], d->ten_length[0], f);
        ck_assert_int_eq(n, 1);
        ck_assert_msg(fabs(d->ten_length[0] - 0.1) < 0.01, "%s: length %g", METHOD[k],
                      d->ten_length[0]);
        ck_assert_msg(fabs(f - 2) < 2e-4, "%s: limit force %g", METHOD[k], f);
        cs_free_data(d);
        cs_free_model(m);
    }
    free(xml);
}
END_TEST

/* A limited tendon over three trees (sliders of 1, 2 and 4 kg; a 3 kg slider between them
 * in tree order is not on it), each pushed by 1, 2 and 4 N: at the range end the length
 * stops changing, so the accelerations (F_i - f) / m_i sum to 0 and the one row's force is
 * f = sum(F_i / m_i) / sum(1 / m_i) = 3 / 1.75 N (2e-4 once settled, as the two-tree
 * limit). The slider between them keeps a = F / m = 1 exactly. */
START_TEST(test_tendon_limit_three_trees)
{
    const char *xml =
        "<mujoco><option timestep='0.001' gravity='0 0 0'/><worldbody>"
        "<body><joint name='a' type='slide' axis='1 0 0'/><geom size='0.02' mass='1' "
        "contype='0' conaffinity='0'/></body>"
        "<body pos='0 1 0'><joint name='mid' type='slide' axis='1 0 0'/><geom size='0.02' "
        "mass='3' contype='0' conaffinity='0'/></body>"
        "<body pos='0 2 0'><joint name='b' type='slide' axis='1 0 0'/><geom size='0.02' "
        "mass='2' contype='0' conaffinity='0'/></body>"
        "<body pos='0 3 0'><joint name='c' type='slide' axis='1 0 0'/><geom size='0.02' "
        "mass='4' contype='0' conaffinity='0'/></body></worldbody>"
        "<tendon><fixed range='-1 0.1'><joint joint='a' coef='1'/><joint joint='b' coef='1'/>"
        "<joint joint='c' coef='1'/></fixed></tendon></mujoco>";
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(xml, "tendon_three_trees");
        set_method(m, k);
        ck_assert_int_eq(m->ntree, 4);
        cs_data *d = cs_make_data(m);
        const double F[4] = {1, 3, 2, 4};
        memcpy(d->qfrc_applied, F, sizeof F);
        steps(m, d, 3000);
        int n;
        double f = tendon_force(m, d, CS_JROW_TENDON_UPPER, &n), want = 3 / 1.75;
        printf("report: tendon limit over three trees (%s): length %.6f (range end 0.1), "
               "force %.9g N (%.9g), middle acc %.15g\n",
               METHOD[k], d->ten_length[0], f, want, d->qacc[1]);
        ck_assert_int_eq(n, 1);
        ck_assert_msg(fabs(d->ten_length[0] - 0.1) < 0.01, "%s: length %g", METHOD[k],
                      d->ten_length[0]);
        ck_assert_msg(fabs(f - want) < 2e-4 * want, "%s: limit force %g", METHOD[k], f);
        ck_assert_msg(fabs(d->qacc[1] - 1) < 1e-12, "%s: middle acc %g", METHOD[k], d->qacc[1]);
        double sum = d->qacc[0] + d->qacc[2] + d->qacc[3];
        ck_assert_msg(fabs(sum) < 1e-3, "%s: length acceleration %g", METHOD[k], sum);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* length 2 qa with frictionloss 5: the generalised friction on a is bounded by 2 * 5 =
 * 10 N. A load of 8 N sticks: the row holds f = -4 and, soft, lets the tendon creep at the
 * constant speed where a_ref = -B v gives that force, v = |f| R / B (R = (1 - imp) / imp
 * tendon_invweight0, imp = solimp d0 = 0.9, B = 2 / (dmax timeconst), default solref 0.02),
 * qa's speed v / 2: within 1%, no acceleration; the Coulomb model's hard row: no motion.
 * 12 N slides at (12 - 10) / 1 kg = 2 m/s^2 (2%) with the row at its bound. */
START_TEST(test_tendon_friction)
{
    char *xml = sliders("<fixed frictionloss='5'><joint joint='a' coef='2'/></fixed>", "");
    for (int k = 0; k < NMETHOD; k++) {
        for (int slide = 0; slide < 2; slide++) {
            cs_model *m = load_xml(xml, "tendon_friction");
            set_method(m, k);
            cs_data *d = cs_make_data(m);
            d->qfrc_applied[0] = slide ? 12 : 8;
            steps(m, d, 1000);
            int n;
            double f = tendon_force(m, d, CS_JROW_TENDON_FRICTION, &n);
            printf("report: tendon friction (%s, %s N): qa %.3e m, acc %.6f, row force %.6f\n",
                   METHOD[k], slide ? "12" : "8", d->qpos[0], d->qacc[0], f);
            ck_assert_int_eq(n, 1);
            if (slide) {
                ck_assert_msg(fabs(d->qacc[0] - 2) < 0.04, "%s: acc %g", METHOD[k], d->qacc[0]);
                ck_assert_msg(fabs(f + 5) < 1e-6, "%s: force %g at the bound -5", METHOD[k], f);
            } else {
                double imp = 0.9, R = (1 - imp) / imp * m->tendon_invweight0[0];
                double B = 2 / (0.95 * 0.02), v = k == 3 ? 0 : 4 * R / B / 2;
                printf("report:   creep %.6f m/s, closed form %.6f m/s\n", d->qvel[0], v);
                ck_assert_msg(fabs(d->qvel[0] - v) < 0.01 * v + 1e-9, "%s: creep %g vs %g",
                              METHOD[k], d->qvel[0], v);
                ck_assert_msg(fabs(d->qacc[0]) < 1e-3, "%s: acc %g", METHOD[k], d->qacc[0]);
                ck_assert_msg(fabs(f + 4) < 1e-3, "%s: force %g (-4 holds 8 N)", METHOD[k], f);
            }
            cs_free_data(d);
            cs_free_model(m);
        }
    }
    free(xml);
}
END_TEST

/* a spring on length 0.5 qa (k = 40, springlength 0) and a damper (24: on qa k c^2 = 10,
 * damping 6, ratio 0.95) settle a load of 1 N at qa = F / (k c^2) = 0.1 m (1e-6 after 5 s,
 * 15 time constants). */
START_TEST(test_tendon_spring)
{
    char *xml = sliders("<fixed stiffness='40' damping='24' springlength='0'><joint joint='a' "
                        "coef='0.5'/></fixed>",
                        "");
    cs_model *m = load_xml(xml, "tendon_spring");
    cs_data *d = cs_make_data(m);
    d->qfrc_applied[0] = 1;
    steps(m, d, 5000);
    printf("report: tendon spring: qa %.9f m (0.1)\n", d->qpos[0]);
    ck_assert_double_eq_tol(d->qpos[0], 0.1, 1e-6);
    cs_free_data(d);
    cs_free_model(m);
    free(xml);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tendons");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_tendon_actuator);
    tcase_add_test(tc, test_tendon_actuator_force_range);
    tcase_add_test(tc, test_tendon_limit);
    tcase_add_test(tc, test_tendon_limit_three_trees);
    tcase_add_test(tc, test_tendon_friction);
    tcase_add_test(tc, test_tendon_spring);
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
