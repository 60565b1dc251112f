/* MuJoCo 3.12's adhesion, by the physics it must give: a ball held under a ceiling while its
 * weight is below the adhesion and falling when above; the friction budget on an incline
 * mu (m g cos + adhesion); the resting penetration unchanged by adhesion; a magnet pulled
 * from the gap band; <adhesion> actuators pulling a body onto what it touches. Every solver
 * and cone of the soft model. The Coulomb model refuses adhesion. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"
#include "conesim.h"

static const char *const CONE[] = {"elliptic", "pyramidal"};
static const char *const SOLVER[] = {"newton", "pgs", "cg"};

static cs_model *load(const char *xml, int cone, int solver)
{
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "adhesion.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(cs_option_set(&m->opt, "cone", CONE[cone], err, sizeof err), 0);
    ck_assert_int_eq(cs_option_set(&m->opt, "solver", SOLVER[solver], err, sizeof err), 0);
    return m;
}

/* the summed net normal force of the contacts of geom g (as geom1 or geom2) */
static double net_normal(const cs_model *m, const cs_data *d, int g)
{
    double fn = 0;
    for (int i = 0; i < d->ncon; i++) {
        if (d->contact[i].geom1 != g && d->contact[i].geom2 != g) continue;
        double f[6];
        cs_contact_force(m, d, i, f);
        fn += f[0];
    }
    return fn;
}

/* A ball under a ceiling, touching it: adhesion 3 (ceiling) + 2 (ball) = 5 N, one contact;
 * the ceiling's gap keeps the contact while it pulls (the ball then rests a little below
 * it). m g = 3.92 N stays, with a net normal force of -m g; m g = 5.89 N falls. */
static const char *CEILING =
    "<mujoco><option timestep='0.002'/><worldbody>"
    "<geom name='ceiling' type='box' pos='0 0 1' size='0.4 0.4 0.05' adhesion='3' gap='0.01'/>"
    "<body name='ball' pos='0 0 0.8505'><freejoint/>"
    "<geom name='ball' type='sphere' size='0.1' mass='MASS' adhesion='2'/></body>"
    "</worldbody></mujoco>";

static char *with_mass(const char *mass)
{
    static char buf[1024];
    const char *p = strstr(CEILING, "MASS");
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - CEILING), CEILING, mass, p + 4);
    return buf;
}

START_TEST(test_hang_and_fall)
{
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++) {
            cs_model *m = load(with_mass("0.4"), c, k);
            cs_data *d = cs_make_data(m);
            for (int i = 0; i < 500; i++) cs_step(m, d);
            double z = d->qpos[2], mg = 0.4 * 9.81, fn = net_normal(m, d, 1);
            printf("report: ball 0.4 kg under a 5 N adhesive ceiling (%s, %s): z %.6g, vz %.3g, "
                   "net normal %.6g N (-m g %.6g)\n", CONE[c], SOLVER[k], z, d->qvel[2], fn, -mg);
            ck_assert_msg(fabs(z - 0.85) < 0.01 && fabs(d->qvel[2]) < 1e-3, "%s %s: z %g",
                          CONE[c], SOLVER[k], z);
            ck_assert_msg(fabs(fn + mg) < 1e-3 * mg, "%s %s: fn %g", CONE[c], SOLVER[k], fn);
            cs_free_data(d);
            cs_free_model(m);
            m = load(with_mass("0.6"), c, k);
            d = cs_make_data(m);
            for (int i = 0; i < 250; i++) cs_step(m, d);
            printf("report: ball 0.6 kg under it: z %.6g after 0.5 s\n", d->qpos[2]);
            ck_assert_msg(d->qpos[2] < 0.8, "%s %s: z %g", CONE[c], SOLVER[k], d->qpos[2]);
            cs_free_data(d);
            cs_free_model(m);
        }
}
END_TEST

/* A 1 kg ball on two slide joints (it cannot roll: one contact) on a floor, gravity tilted by
 * 30 degrees, mu 0.4: without adhesion it slides (m g sin 4.905 N > mu m g cos 3.398 N);
 * with adhesion a the friction budget is mu (m g cos + a), which holds it from
 * a = 3.767 N on: a = 3.5 (4.798 N) slides, a = 4.0 (4.998 N) holds. (Sliding, the soft
 * contact lifts the ball off now and then, MuJoCo's too, so the distance slid is not the
 * Coulomb one.) */
static const char *INCLINE =
    "<mujoco><option timestep='0.002' gravity='4.905 0 -8.495709211'/><worldbody>"
    "<geom name='floor' type='plane' size='5 5 0.1' friction='0.4'/>"
    "<body name='ball' pos='0 0 0.1'><joint type='slide' axis='1 0 0'/>"
    "<joint type='slide' axis='0 0 1'/>"
    "<geom name='ball' type='sphere' size='0.1' mass='1' friction='0.4'/>"
    "</body></worldbody></mujoco>";

START_TEST(test_incline_budget)
{
    static const double A[3] = {0, 3.5, 4.0};
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++) {
                cs_model *m = load(INCLINE, c, k);
                ck_assert_int_eq(cs_set(m, "geom.ball.adhesion", A[j]), 0);
                cs_data *d = cs_make_data(m);
                for (int i = 0; i < 200; i++) cs_step(m, d);
                double x0 = d->qpos[0];
                for (int i = 0; i < 500; i++) cs_step(m, d);
                double dx = d->qpos[0] - x0;
                printf("report: incline, adhesion %g (%s, %s): %.4g m in 1 s\n", A[j], CONE[c],
                       SOLVER[k], dx);
                if (j < 2)
                    ck_assert_msg(dx > 0.1, "%s %s a %g: dx %g", CONE[c], SOLVER[k], A[j], dx);
                else /* held: only the soft friction's creep (pyramids the most, near their limit) */
                    ck_assert_msg(fabs(dx) < 0.02, "%s %s a %g: dx %g", CONE[c], SOLVER[k], A[j], dx);
                cs_free_data(d);
                cs_free_model(m);
            }
}
END_TEST

/* A ball resting on a floor: the same penetration and net normal force (m g) with adhesion
 * 20 N as without (the rows' reference is raised by R adhesion: without it the attraction
 * would press the ball deeper). */
static const char *REST =
    "<mujoco><option timestep='0.002'/><worldbody>"
    "<geom name='floor' type='plane' size='5 5 0.1'/>"
    "<body name='ball' pos='0 0 0.1'><freejoint/>"
    "<geom name='ball' type='sphere' size='0.1' mass='1'/></body></worldbody></mujoco>";

START_TEST(test_rest_penetration)
{
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++) {
            double dist[2], fn[2];
            for (int j = 0; j < 2; j++) {
                cs_model *m = load(REST, c, k);
                ck_assert_int_eq(cs_set(m, "geom.ball.adhesion", j ? 20 : 0), 0);
                cs_data *d = cs_make_data(m);
                for (int i = 0; i < 500; i++) cs_step(m, d);
                ck_assert_int_eq(d->ncon, 1);
                dist[j] = d->contact[0].dist;
                fn[j] = net_normal(m, d, 1);
                ck_assert(d->contact[0].adhesion == (j ? 20 : 0));
                cs_free_data(d);
                cs_free_model(m);
            }
            printf("report: resting ball (%s, %s): penetration %.9g m without, %.9g m with 20 N "
                   "adhesion; net normal %.6g, %.6g N\n", CONE[c], SOLVER[k], -dist[0], -dist[1],
                   fn[0], fn[1]);
            ck_assert(dist[0] < 0);
            /* equal to the solvers' tolerance; without the raised reference the 20 N would press
             * it about twice as deep */
            ck_assert_msg(fabs(dist[1] - dist[0]) < 1e-4 * fabs(dist[0]), "%g %g", dist[0], dist[1]);
            ck_assert(fabs(fn[0] - 9.81) < 1e-3 && fabs(fn[1] - 9.81) < 1e-3);
        }
}
END_TEST

/* A magnet: a 0.2 kg sphere 13 cm below a plate, with a 20 cm gap and adhesion 5 N, is in
 * contact from the start (a normal row alone, no force but the pull: net -5 N) and is pulled
 * up onto the plate; the same sphere without adhesion has its contact out of the solver and
 * falls. */
static const char *MAGNET =
    "<mujoco><option timestep='0.002'/><worldbody>"
    "<geom name='plate' type='box' pos='0 0 0.5' size='0.3 0.3 0.02'/>"
    "<body name='magnet' pos='0 0 0.3'><freejoint/>"
    "<geom name='magnet' type='sphere' size='0.05' mass='0.2' gap='0.2' adhesion='5'/></body>"
    "</worldbody></mujoco>";

START_TEST(test_magnet)
{
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++) {
            cs_model *m = load(MAGNET, c, k);
            cs_data *d = cs_make_data(m);
            cs_forward(m, d);
            ck_assert_int_eq(d->ncon, 1);
            const cs_contact *con = d->contact;
            ck_assert(con->dist > 0.12 && !con->exclude && con->dim == 1 && con->efc_address >= 0);
            ck_assert_msg(fabs(con->force[0] + 5) < 1e-9, "in the gap: fn %g", con->force[0]);
            for (int i = 0; i < 500; i++) cs_step(m, d);
            printf("report: magnet (%s, %s): z %.6g (plate's underside 0.48, touching at 0.43)\n",
                   CONE[c], SOLVER[k], d->qpos[2]);
            ck_assert_msg(fabs(d->qpos[2] - 0.43) < 0.002, "%s %s: z %g", CONE[c], SOLVER[k], d->qpos[2]);
            cs_free_data(d);
            ck_assert_int_eq(cs_set(m, "geom.magnet.adhesion", 0), 0);
            d = cs_make_data(m);
            cs_forward(m, d);
            ck_assert(d->ncon == 1 && d->contact[0].exclude && d->contact[0].efc_address < 0);
            for (int i = 0; i < 250; i++) cs_step(m, d);
            ck_assert(d->qpos[2] < 0.0);
            cs_free_data(d);
            cs_free_model(m);
        }
}
END_TEST

/* <adhesion>: a box on a floor gets minus the average normal Jacobian of its contacts as its
 * actuator moment, so a positive force presses it onto the floor (4 corner contacts: the
 * average is the box's own z); a ball hanging 1 cm above a floor in its gap band has a
 * contact in the moment but none in the solver, and is pulled down by gain * ctrl. */
static const char *SUCTION =
    "<mujoco><option timestep='0.002' gravity='0 0 0'/><worldbody>"
    "<geom name='floor' type='plane' size='5 5 0.1'/>"
    "<body name='box' pos='0 0 0.0999'><freejoint/>"
    "<geom name='box' type='box' size='0.1 0.1 0.1' mass='1'/></body>"
    "<body name='ball' pos='1 0 0.11'><freejoint/>"
    "<geom name='ball' type='sphere' size='0.1' mass='1' gap='0.02'/></body>"
    "</worldbody><actuator>"
    "<adhesion name='grip' body='box' ctrlrange='0 1' gain='20'/>"
    "<adhesion name='pull' body='ball' ctrlrange='0 1' gain='3'/>"
    "</actuator></mujoco>";

START_TEST(test_adhesion_actuator)
{
    cs_model *m = load(SUCTION, 0, 0);
    ck_assert_int_eq(m->actuator_trntype[0], CS_TRN_BODY);
    ck_assert_int_eq(m->actuator_ctrllimited[0], 1);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = d->ctrl[1] = 1;
    cs_forward(m, d);
    int nv = m->nv, nbox = 0;
    for (int i = 0; i < d->ncon; i++) nbox += d->contact[i].geom2 == 1;
    ck_assert_int_eq(nbox, 4);
    const double *mo = d->actuator_moment;
    printf("report: box moment (%g %g %g %g %g %g), qfrc_actuator z %g\n", mo[0], mo[1], mo[2],
           mo[3], mo[4], mo[5], d->qfrc_actuator[2]);
    ck_assert(fabs(mo[2] + 1) < 1e-12 && fabs(mo[0]) < 1e-12 && fabs(mo[1]) < 1e-12);
    for (int q = 3; q < 6; q++) ck_assert(fabs(mo[q]) < 1e-12); /* corners symmetric */
    ck_assert(fabs(d->qfrc_actuator[2] + 20) < 1e-9);
    ck_assert_double_eq(d->actuator_length[0], 0);
    /* the ball: one contact in the gap band, outside the solver, in the moment */
    const double *mb = d->actuator_moment + (size_t)nv;
    ck_assert(fabs(mb[8] + 1) < 1e-12);
    for (int i = 0; i < 150; i++) cs_step(m, d);
    printf("report: ball pulled by 3 N from 1 cm: z %.6g\n", d->qpos[9]);
    ck_assert(d->qpos[9] < 0.1001); /* pulled onto the floor */
    cs_free_data(d);
    /* without control: no force */
    d = cs_make_data(m);
    cs_forward(m, d);
    ck_assert(d->qfrc_actuator[2] == 0 && d->qfrc_actuator[8] == 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The adhesion actuators' scene and the magnet, with every solver: once their contacts have
 * closed, steps allocate nothing, and the state is the same to the bit on 1 and 3 threads. */
START_TEST(test_no_alloc_threads)
{
    const char *const XML[2] = {SUCTION, MAGNET};
    for (int x = 0; x < 2; x++)
        for (int k = 0; k < 3; k++) {
            double q[2][16];
            for (int t = 0; t < 2; t++) {
                cs_model *m = load(XML[x], 0, k);
                char err[128];
                ck_assert_int_eq(cs_option_set(&m->opt, "threads", t ? "3" : "1", err, sizeof err), 0);
                cs_data *d = cs_make_data(m);
                for (int i = 0; i < m->nu; i++) d->ctrl[i] = 1;
                /* the pulled ball and the magnet close their gaps: their rows grow once */
                for (int i = 0; i < 300; i++) cs_step(m, d);
                long before = alloc_count;
                for (int i = 0; i < 100; i++) cs_step(m, d);
                ck_assert_msg(alloc_count == before, "%s: %ld allocations", SOLVER[k],
                              alloc_count - before);
                ck_assert_int_le(m->nq, 16);
                memcpy(q[t], d->qpos, sizeof(double) * (size_t)m->nq);
                if (t) ck_assert(memcmp(q[0], q[1], sizeof(double) * (size_t)m->nq) == 0);
                cs_free_data(d);
                cs_free_model(m);
            }
        }
}
END_TEST

/* The Coulomb model refuses adhesion: in the file, by option, by setting adhesion. */
START_TEST(test_coulomb_refused)
{
    static const char *XML =
        "<mujoco><custom><text name='conesim:contact' data='coulomb'/></custom><worldbody>"
        "<geom name='floor' type='plane' size='1 1 1' adhesion='1'/></worldbody></mujoco>";
    char err[512];
    cs_model *m = cs_load_xml_string(XML, "c.xml", NULL, err, sizeof err);
    ck_assert(m == NULL);
    ck_assert_msg(strstr(err, "c.xml:1:") && strstr(err, "adhesion"), "%s", err);
    m = load(REST, 0, 0);
    ck_assert_int_eq(cs_set(m, "geom.ball.adhesion", 1), 0);
    ck_assert(cs_set_text(m, "contact", "coulomb", err, sizeof err) != 0);
    ck_assert_msg(strstr(err, "Coulomb") != NULL, "%s", err);
    ck_assert_int_eq(m->opt.contact, CS_CONTACT_SOFT);
    ck_assert_int_eq(cs_set(m, "geom.ball.adhesion", 0), 0);
    ck_assert_int_eq(cs_set_text(m, "contact", "coulomb", err, sizeof err), 0);
    ck_assert(cs_set(m, "geom.ball.adhesion", 1) != 0);
    ck_assert(m->geom_adhesion[1] == 0);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("adhesion");
    TCase *tc = tcase_create("adhesion");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hang_and_fall);
    tcase_add_test(tc, test_incline_budget);
    tcase_add_test(tc, test_rest_penetration);
    tcase_add_test(tc, test_magnet);
    tcase_add_test(tc, test_adhesion_actuator);
    tcase_add_test(tc, test_no_alloc_threads);
    tcase_add_test(tc, test_coulomb_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
