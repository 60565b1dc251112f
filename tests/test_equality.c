/* Equality constraints, physical facts under every solver method: a pendulum hung by a
 * connect swings with the period of the rigid pendulum and its anchor holds (violation and
 * force balance m g at rest), a weld holds a body still against gravity with force m g, a
 * joint equality moves two sliders together and carries half the drive to the follower,
 * an inactive or disabled constraint does nothing. Measured figures are printed
 * ("report: ..."). */
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

/* the soft model's three methods (PGS with its pair groups and with one block at a time),
 * then the Coulomb model (hard bilateral rows) */
enum { NMETHOD = 5 };
static const char *const METHOD[NMETHOD] = {"newton", "pgs", "cg", "coulomb", "pgs-block"};
static void set_method(cs_model *m, int k)
{
    m->opt.contact = k == 3 ? CS_CONTACT_COULOMB : CS_CONTACT_SOFT;
    m->opt.solver = k == 1 || k == 4 ? CS_SOLVER_PGS : k == 2 ? CS_SOLVER_CG : CS_SOLVER_NEWTON;
    if (k == 4) m->opt.pgs_blocks = CS_PGS_CONTACT;
}

/* the equality rows' forces of constraint e (rows 0..5) */
static int eq_forces(const cs_model *m, const cs_data *d, int e, double f[6])
{
    int n = 0;
    for (int i = 0; i < cs_jrow_count(m, d); i++) {
        cs_jrow r;
        ck_assert_int_eq(cs_jrow_get(m, d, i, &r), 0);
        if (r.kind == CS_JROW_EQUALITY && r.eq == e) f[n++] = r.force;
    }
    return n;
}

/* A solid sphere (m = 2 kg, radius 0.05) on a free joint, its centre L = 0.8 m below a
 * connect to the world at the origin: a spherical pendulum, started in a plane. */
static const char *PENDULUM =
    "<mujoco><option timestep='0.001' gravity='0 0 -9.81'/>"
    "<worldbody><body name='bob' pos='0 0 -0.8'><freejoint/>"
    "<geom type='sphere' size='0.05' mass='2' contype='0' conaffinity='0'/></body></worldbody>"
    "<equality><connect name='pin' body1='bob' anchor='0 0 0.8' solref='0.005 1'/></equality>"
    "</mujoco>";

/* The period of small swings (theta0 = 0.1) from upward zero crossings of x over 8 s.
 * Rigid physical pendulum: T0 = 2 pi sqrt(I_p / (m g L)), I_p = 2/5 m r^2 + m L^2, with the
 * finite-amplitude factor 1 + theta0^2/16. The soft connect stretches radially by about
 * (g + L w^2 theta0^2) / w_c^2 with w_c = 1 / (timeconst dmax) ~ 210 rad/s: ~2.3e-4 m,
 * a relative length change ~3e-4, so the period moves by ~1.5e-4; the semi-implicit step's
 * phase error (w h)^2 / 24 ~ 5e-7. Tolerance 1e-3 relative: 6x the expected shift. The
 * anchor's violation bound 1 mm: 4x the stretch. */
START_TEST(test_connect_pendulum_period)
{
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(PENDULUM, "pendulum");
        set_method(m, k);
        ck_assert_int_eq(m->opt.eq_jdotv, 1); /* MuJoCo 3.12's rule, the default */
        cs_data *d = cs_make_data(m);
        ck_assert_ptr_nonnull(d);
        double L = 0.8, th = 0.1;
        d->qpos[0] = L * sin(th); /* on the circle about the pivot, the body turned with it */
        d->qpos[2] = -L * cos(th);
        d->qpos[3] = cos(th / 2);
        d->qpos[5] = -sin(th / 2);
        cs_forward(m, d);
        double prev = d->qpos[0], t0 = -1, t1 = -1, viol = 0;
        int crossings = 0;
        while (d->time < 8) {
            step_checked(m, d);
            double x = d->qpos[0];
            if (prev < 0 && x >= 0) {
                double tc = d->time - m->opt.timestep * x / (x - prev);
                if (crossings == 0) t0 = tc;
                t1 = tc;
                crossings++;
            }
            prev = x;
            /* the anchor on the bob is its centre plus R (0 0 L): compare with the origin */
            double R[9];
            cs_quat2mat(R, d->qpos + 3);
            double p[3] = {d->qpos[0] + R[2] * L, d->qpos[1] + R[5] * L, d->qpos[2] + R[8] * L};
            viol = fmax(viol, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        }
        ck_assert_int_ge(crossings, 3);
        double T = (t1 - t0) / (crossings - 1), mass = 2, r = 0.05;
        double Ip = 0.4 * mass * r * r + mass * L * L;
        double T0 = 2 * M_PI * sqrt(Ip / (mass * G * L)) * (1 + th * th / 16);
        printf("report: connect pendulum (%s): period %.6f s, rigid %.6f s (%.2e), anchor "
               "violation %.2e m\n", METHOD[k], T, T0, T / T0 - 1, viol);
        ck_assert_msg(fabs(T / T0 - 1) < 1e-3, "%s: period %g vs %g", METHOD[k], T, T0);
        ck_assert_msg(viol < 1e-3, "%s: anchor violation %g m", METHOD[k], viol);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* Hanging at rest under the pin: the connect's force is the bob's weight, straight up
 * (body1 is the bob: the row force acts on it along +z). Settled from rest, the residual
 * acceleration of a soft row decays with timeconst 0.005 s: after 1 s only the solver's
 * stopping rule remains (it stops on the cost's improvement, 1e-8 scaled: CG's forces are
 * 1e-5 off there), bound 1e-4 relative. */
START_TEST(test_connect_force_balance)
{
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(PENDULUM, "pendulum");
        set_method(m, k);
        cs_data *d = cs_make_data(m);
        steps(m, d, 1000);
        double f[6];
        ck_assert_int_eq(eq_forces(m, d, 0, f), 3);
        double W = 2 * G;
        printf("report: connect at rest (%s): force (%.9g, %.9g, %.9g) N, m g = %g N\n",
               METHOD[k], f[0], f[1], f[2], W);
        ck_assert_msg(fabs(f[2] - W) < 1e-4 * W, "%s: vertical force %g vs %g", METHOD[k], f[2], W);
        ck_assert_msg(fabs(f[0]) < 1e-4 * W && fabs(f[1]) < 1e-4 * W, "%s: sideways force", METHOD[k]);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* A box (3 kg) on a free joint welded to the world where it starts, the weld's point at
 * its centre (anchor, in the world's frame): it stays, and the weld carries its weight:
 * the translational rows' force is m g up, the rotational rows' force 0 (no moment about
 * the centre). At rest a soft row's force f = a_ref / R gives the sag
 * pos = g (1 - imp) / (imp^2 K), K = 1 / (dmax timeconst)^2: imp = 0.9 (solimp d0 near
 * pos 0), dmax 0.95, timeconst 0.005: 2.7e-5 m; bound 1e-4 m, turning 1e-6 rad. */
START_TEST(test_weld_holds)
{
    static const char *XML =
        "<mujoco><option timestep='0.002'/>"
        "<worldbody><body name='box' pos='0.3 0 1'><freejoint/>"
        "<geom type='box' size='0.1 0.2 0.05' mass='3'/></body></worldbody>"
        "<equality><weld body1='box' anchor='0.3 0 1' solref='0.005 1'/></equality></mujoco>";
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(XML, "weld");
        set_method(m, k);
        cs_data *d = cs_make_data(m);
        steps(m, d, 1000);
        double f[6], dx = 0;
        ck_assert_int_eq(eq_forces(m, d, 0, f), 6);
        double p0[3] = {0.3, 0, 1};
        for (int i = 0; i < 3; i++) dx = fmax(dx, fabs(d->qpos[i] - p0[i]));
        double turn = 2 * sqrt(d->qpos[4] * d->qpos[4] + d->qpos[5] * d->qpos[5] +
                               d->qpos[6] * d->qpos[6]);
        double W = 3 * G;
        printf("report: weld (%s): displacement %.2e m, turn %.2e rad, force (%.9g %.9g %.9g | "
               "%.3g %.3g %.3g)\n", METHOD[k], dx, turn, f[0], f[1], f[2], f[3], f[4], f[5]);
        ck_assert_msg(dx < 1e-4 && turn < 1e-6, "%s: moved %g m, %g rad", METHOD[k], dx, turn);
        ck_assert_msg(fabs(f[2] - W) < 1e-4 * W, "%s: weld force %g vs m g %g", METHOD[k], f[2], W);
        for (int i = 3; i < 6; i++) ck_assert_msg(fabs(f[i]) < 1e-4 * W, "%s: torque row", METHOD[k]);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* The site form (MuJoCo's site semantic): a weld between a site on a box (off its centre,
 * turned) and a world site elsewhere pulls the box until the two sites' frames coincide (no
 * gravity, a damped weld: both within 1e-6 after 3 s); a connect between a site 0.1 m above
 * a sphere and a world site holds it hanging with a force m g at that site. */
START_TEST(test_site_form)
{
    static const char *WELD =
        "<mujoco><option timestep='0.002' gravity='0 0 0'/><worldbody>"
        "<site name='w' pos='0.2 -0.1 1' euler='20 -10 35'/>"
        "<body name='box' pos='0 0 0.8'><freejoint/>"
        "<geom type='box' size='0.1 0.2 0.05' mass='3' contype='0' conaffinity='0'/>"
        "<site name='b' pos='0.05 0.1 0' euler='0 30 0'/></body></worldbody>"
        "<equality><weld site1='b' site2='w' solref='0.02 1'/></equality></mujoco>";
    static const char *CONNECT =
        "<mujoco><option timestep='0.001'/><worldbody><site name='top' pos='0 0 1'/>"
        "<body name='bob' pos='0 0 0.9'><freejoint/>"
        "<geom type='sphere' size='0.05' mass='2' contype='0' conaffinity='0'/>"
        "<site name='hook' pos='0 0 0.1'/></body></worldbody>"
        "<equality><connect site1='hook' site2='top' solref='0.005 1'/></equality></mujoco>";
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(WELD, "weld_sites");
        set_method(m, k);
        ck_assert_int_eq(m->eq_objtype[0], CS_OBJ_SITE);
        cs_data *d = cs_make_data(m);
        int b = cs_name2id(m, "site", "b"), w = cs_name2id(m, "site", "w");
        double dx0 = fabs(d->site_xpos[3 * b] - d->site_xpos[3 * w]);
        steps(m, d, 1500);
        double dx = 0, dr = 0;
        for (int i = 0; i < 3; i++) dx = fmax(dx, fabs(d->site_xpos[3 * b + i] - d->site_xpos[3 * w + i]));
        for (int i = 0; i < 9; i++) dr = fmax(dr, fabs(d->site_xmat[9 * b + i] - d->site_xmat[9 * w + i]));
        printf("report: weld by sites (%s): start %.3g m apart, now %.2e m, %.2e in the frames\n",
               METHOD[k], dx0, dx, dr);
        ck_assert(dx0 > 0.1);
        ck_assert_msg(dx < 1e-6 && dr < 1e-6, "%s: sites %g m, %g apart", METHOD[k], dx, dr);
        cs_free_data(d);
        cs_free_model(m);

        m = load_xml(CONNECT, "connect_sites");
        set_method(m, k);
        d = cs_make_data(m);
        steps(m, d, 1000);
        double f[6];
        ck_assert_int_eq(eq_forces(m, d, 0, f), 3);
        double W = 2 * G;
        int hook = cs_name2id(m, "site", "hook");
        ck_assert_msg(fabs(f[2] - W) < 1e-4 * W, "%s: connect force %g vs m g %g", METHOD[k], f[2], W);
        ck_assert_msg(fabs(d->site_xpos[3 * hook + 2] - 1) < 1e-3, "%s: hook at %g", METHOD[k],
                      d->site_xpos[3 * hook + 2]);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* Two sliders of 1 kg each (Panda's fingers: q2 = q1 through polycoef 0 1), a motor of
 * 4 N on the first only, no gravity: they move together (q1 - q2 within 1e-4 m while they
 * travel ~0.5 m), with the common acceleration F / (2 m), so the equality passes F / 2 to
 * the follower (the row force: -F/2 on row J = e1 - e2). Tolerance 2%: the soft row's
 * own lag at the start. */
START_TEST(test_joint_equality_couples)
{
    static const char *XML =
        "<mujoco><option timestep='0.001' gravity='0 0 0'/>"
        "<worldbody>"
        "<body><joint name='f1' type='slide' axis='1 0 0'/><geom size='0.02' mass='1' "
        "contype='0' conaffinity='0'/></body>"
        "<body pos='0 1 0'><joint name='f2' type='slide' axis='1 0 0'/><geom size='0.02' mass='1' "
        "contype='0' conaffinity='0'/></body></worldbody>"
        "<equality><joint joint1='f1' joint2='f2' polycoef='0 1 0 0 0' solref='0.005 1' "
        "solimp='0.95 0.99 0.001'/></equality>"
        "<actuator><motor name='drive' joint='f1'/></actuator></mujoco>";
    for (int k = 0; k < NMETHOD; k++) {
        cs_model *m = load_xml(XML, "fingers");
        set_method(m, k);
        cs_data *d = cs_make_data(m);
        double F = 4;
        d->ctrl[0] = F;
        double gap = 0, f[6] = {0};
        steps(m, d, 500);
        for (int s = 0; s < 500; s++) {
            step_checked(m, d);
            gap = fmax(gap, fabs(d->qpos[0] - d->qpos[1]));
        }
        ck_assert_int_eq(eq_forces(m, d, 0, f), 1);
        double a = d->qacc[1];
        printf("report: joint equality (%s): q1 %.6f q2 %.6f, max gap %.2e m, acc %.6f (F/2m "
               "%.6f), row force %.6f\n", METHOD[k], d->qpos[0], d->qpos[1], gap, a, F / 2, f[0]);
        ck_assert_msg(d->qpos[1] > 0.4, "%s: the follower did not move (%g)", METHOD[k], d->qpos[1]);
        ck_assert_msg(gap < 1e-4, "%s: gap %g", METHOD[k], gap);
        ck_assert_msg(fabs(a - F / 2) < 0.02 * F / 2, "%s: acceleration %g", METHOD[k], a);
        ck_assert_msg(fabs(f[0] + F / 2) < 0.02 * F / 2, "%s: row force %g", METHOD[k], f[0]);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* the largest distance between a connect's two anchors over the first 2 s */
static double connect_drift(cs_model *m, cs_data *d)
{
    const double *dt = m->eq_data;
    int b1 = m->eq_obj1id[0], b2 = m->eq_obj2id[0];
    double worst = 0;
    while (d->time < 2) {
        step_checked(m, d);
        cs_forward(m, d); /* the poses of the state just reached */
        double p1[3], p2[3], r = 0;
        for (int i = 0; i < 3; i++) {
            p1[i] = d->xpos[3 * b1 + i];
            p2[i] = d->xpos[3 * b2 + i];
            for (int k = 0; k < 3; k++) {
                p1[i] += d->xmat[9 * b1 + 3 * i + k] * dt[k];
                p2[i] += d->xmat[9 * b2 + 3 * i + k] * dt[3 + k];
            }
            r += (p1[i] - p2[i]) * (p1[i] - p2[i]);
        }
        worst = fmax(worst, sqrt(r));
    }
    return worst;
}

/* A four-bar linkage (cranks of 0.2 and 0.1 m, a coupler 0.3 m) closed by a connect,
 * falling from rest under gravity */
static const char *FOURBAR =
    "<mujoco><option timestep='0.002'/>"
    "<default><geom contype='0' conaffinity='0' density='500'/></default><worldbody>"
    "<body name='crank1' pos='0 0 1'><joint type='hinge' axis='0 1 0' damping='0.05'/>"
    "<geom type='capsule' fromto='0 0 0 0.2 0 0' size='0.02'/>"
    "<body name='coupler' pos='0.2 0 0'><joint type='hinge' axis='0 1 0'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 0.1' size='0.02'/></body></body>"
    "<body name='crank2' pos='0.4 0 1'><joint type='hinge' axis='0 1 0'/>"
    "<geom type='capsule' fromto='0 0 0 0.1 0 0.1' size='0.02'/></body></worldbody>"
    "<equality><connect body1='coupler' body2='crank2' anchor='0.3 0 0.1'/></equality>"
    "</mujoco>";

/* The rows' reference acceleration with J-dot qvel (MuJoCo 3.12, eq_jdotv=1) asks for
 * the anchors' relative acceleration that keeps them together along curved paths (the
 * centripetal part), so the violation stays below the rule without it (3.3.8,
 * eq_jdotv=0), which lets the anchors drift outward as they move: a pendulum swinging
 * through 1 rad (speed at the bottom ~2.7 m/s) and a four-bar falling through its loop. */
START_TEST(test_jdotv_tighter)
{
    const char *xml[2] = {PENDULUM, FOURBAR}, *name[2] = {"pendulum", "four-bar"};
    for (int s = 0; s < 2; s++) {
        double drift[2];
        for (int rule = 0; rule < 2; rule++) {
            cs_model *m = load_xml(xml[s], name[s]);
            m->opt.eq_jdotv = rule;
            cs_data *d = cs_make_data(m);
            ck_assert_ptr_nonnull(d);
            if (s == 0) { /* on the circle about the pivot, turned with it */
                double L = 0.8, th = 1;
                d->qpos[0] = L * sin(th);
                d->qpos[2] = -L * cos(th);
                d->qpos[3] = cos(th / 2);
                d->qpos[5] = -sin(th / 2);
            }
            drift[rule] = connect_drift(m, d);
            cs_free_data(d);
            cs_free_model(m);
        }
        printf("report: %s connect over 2 s: largest anchor gap %.3e m with J-dot qvel "
               "(eq_jdotv=1), %.3e m without (eq_jdotv=0)\n", name[s], drift[1], drift[0]);
        ck_assert_msg(drift[1] < drift[0], "%s: %g with J-dot qvel, %g without", name[s],
                      drift[1], drift[0]);
    }
}
END_TEST

/* active='false', or the equality flag disabled: no rows, the bob falls freely. */
START_TEST(test_inactive)
{
    char *xml = strdup(PENDULUM);
    xml = edit(xml, "name='pin'", "name='pin' active='false'");
    cs_model *m = load_xml(xml, "inactive");
    cs_data *d = cs_make_data(m);
    steps(m, d, 100);
    ck_assert_int_eq(cs_jrow_count(m, d), 0);
    ck_assert(fabs(d->qvel[2] + G * d->time) < 1e-9);
    d->eq_active[0] = 1; /* switched on: the rows come back */
    cs_forward(m, d);
    ck_assert_int_eq(cs_jrow_count(m, d), 3);
    cs_free_data(d);
    cs_free_model(m);
    free(xml);

    m = load_xml(PENDULUM, "disabled");
    m->opt.disableflags |= CS_DSBL_EQUALITY;
    d = cs_make_data(m);
    steps(m, d, 10);
    ck_assert_int_eq(cs_jrow_count(m, d), 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("equality");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_connect_pendulum_period);
    tcase_add_test(tc, test_connect_force_balance);
    tcase_add_test(tc, test_weld_holds);
    tcase_add_test(tc, test_site_form);
    tcase_add_test(tc, test_joint_equality_couples);
    tcase_add_test(tc, test_inactive);
    tcase_add_test(tc, test_jdotv_tighter);
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
