/* The noslip pass (noslip_iterations): soft friction creeps under a load it should hold; the
 * pass holds it, under every solver, and leaves a true slide alone. Scene:
 * tests/oracle/scenes/noslip_incline.xml (a box below its friction threshold, a smaller box
 * above it, a pendulum held by dry joint friction). Measured quantities are printed on stdout
 * ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#ifndef CS_NOSLIP_SCENE
#error "CS_NOSLIP_SCENE must be defined by the build"
#endif

static const double G = 9.81, MU_PUCK = 0.4, TAN_GAMMA = 0.45;

static cs_model *load(int solver, int noslip)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_NOSLIP_SCENE, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    m->opt.solver = solver;
    m->opt.noslip_iterations = noslip;
    return m;
}

/* speed of body b along the slope after t seconds, and the slope acceleration over the last
 * 0.5 s */
static void run(const cs_model *m, cs_data *d, double t, int b, double *speed, double *accel)
{
    int n = (int)lround(t / m->opt.timestep), n0 = n - (int)lround(0.5 / m->opt.timestep);
    double gam = atan(TAN_GAMMA), dir[3] = {0, -cos(gam), -sin(gam)}, v0 = 0;
    int adr = m->jnt_dofadr[m->body_jntadr[b]];
    for (int i = 0; i < n; i++) {
        cs_step(m, d);
        ck_assert(isfinite(d->qvel[adr]));
        if (i + 1 == n0)
            v0 = d->qvel[adr] * dir[0] + d->qvel[adr + 1] * dir[1] + d->qvel[adr + 2] * dir[2];
    }
    *speed = d->qvel[adr] * dir[0] + d->qvel[adr + 1] * dir[1] + d->qvel[adr + 2] * dir[2];
    *accel = (*speed - v0) / 0.5;
}

static void check_solver(int solver, const char *name)
{
    int box, puck, arm;
    double hold[2], slide[2], arm_w[2];
    for (int ns = 0; ns < 2; ns++) {
        cs_model *m = load(solver, ns ? 20 : 0);
        box = cs_name2id_body(m, "box");
        puck = cs_name2id_body(m, "puck");
        arm = cs_name2id_body(m, "arm");
        ck_assert(box > 0 && puck > 0 && arm > 0);
        cs_data *d = cs_make_data(m);
        double a_box;
        run(m, d, 1.5, box, &hold[ns], &a_box);
        /* the puck, in a second run: its speed grows at g (sin - mu cos) */
        double v, a;
        cs_data *d2 = cs_make_data(m);
        run(m, d2, 1.5, puck, &v, &a);
        slide[ns] = a;
        arm_w[ns] = fabs(d->qvel[m->jnt_dofadr[m->body_jntadr[arm]]]);
        printf("report: %s noslip %d: box slope speed %.3g m/s, puck slope accel %.9f m/s^2, "
               "arm speed %.3g rad/s, noslip sweeps %d\n", name, ns ? 20 : 0, hold[ns], a,
               arm_w[ns], d->solver.noslip);
        if (ns) ck_assert_int_gt(d->solver.noslip, 0);
        else ck_assert_int_eq(d->solver.noslip, 0);
        cs_free_data(d2);
        cs_free_data(d);
        cs_free_model(m);
    }
    double want = G * (sin(atan(TAN_GAMMA)) - MU_PUCK * cos(atan(TAN_GAMMA)));
    /* soft friction creeps (the scene's impratio 10: ~0.1 mm/s); the pass holds the box to
     * rounding and the pendulum exactly */
    ck_assert_msg(fabs(hold[0]) > 2e-5, "%s: no creep without the pass (%g)", name, hold[0]);
    ck_assert_msg(fabs(hold[1]) < 1e-6, "%s: the box creeps with the pass (%g)", name, hold[1]);
    ck_assert_msg(arm_w[0] > 1e-6, "%s: the pendulum does not creep without the pass", name);
    ck_assert_msg(arm_w[1] < 1e-12, "%s: the pendulum moves with the pass (%g)", name, arm_w[1]);
    /* a true slide is left alone: the same acceleration as without the pass, near Coulomb's
     * (the soft model's sliding friction on the rocking box is within a few percent of it) */
    ck_assert_msg(fabs(slide[1] - slide[0]) < 1e-6 * want, "%s: slide %g with the pass, %g "
                  "without", name, slide[1], slide[0]);
    ck_assert_msg(fabs(slide[1] - want) < 0.05 * want, "%s: slide %g, Coulomb %g", name,
                  slide[1], want);
}

START_TEST(test_noslip_newton) { check_solver(CS_SOLVER_NEWTON, "Newton"); }
END_TEST
START_TEST(test_noslip_pgs) { check_solver(CS_SOLVER_PGS, "PGS"); }
END_TEST
START_TEST(test_noslip_cg) { check_solver(CS_SOLVER_CG, "CG"); }
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("noslip");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_noslip_newton);
    tcase_add_test(tc, test_noslip_pgs);
    tcase_add_test(tc, test_noslip_cg);
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
