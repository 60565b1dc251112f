/* The step's core on piles: no allocation once the storage has grown to what the scene
 * needs, results that do not depend on the thread count, the contact-force accessor, and
 * the default PGS keeping a stack standing and meeting Newton's optimum. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#include "alloc_count.h"

static cs_model *load(const char *path, const char *solver, int threads)
{
    char err[1024];
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    if (solver && strcmp(solver, "coulomb") == 0) /* the Coulomb model's solver */
        ck_assert_int_eq(cs_option_set(&m->opt, "contact", solver, err, sizeof err), 0);
    else if (solver)
        ck_assert_int_eq(cs_option_set(&m->opt, "solver", solver, err, sizeof err), 0);
    char t[16];
    snprintf(t, sizeof t, "%d", threads);
    ck_assert_int_eq(cs_option_set(&m->opt, "threads", t, err, sizeof err), 0);
    return m;
}

/* A pile that has formed, started afresh from its state: the first steps grow the
 * storage to the pile's contacts and rows; after them, steps allocate nothing. (The
 * Coulomb model: a pyramid of 55 boxes, which rests converged; its pile of spheres keeps
 * finding new contacts, the rows' storage growing to them.) */
static void pile_no_alloc(const char *solver)
{
    int coulomb = strcmp(solver, "coulomb") == 0;
    cs_model *m = load(coulomb ? CS_BENCH "/pyramid_55.xml" : CS_BENCH "/spheres_bin_64.xml",
                       solver, 2);
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 400; k++) cs_step(m, d); /* the spheres fall and settle */
    ck_assert_int_gt(d->ncon, 64);
    cs_data *d2 = cs_make_data(m);
    memcpy(d2->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
    memcpy(d2->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
    for (int k = 0; k < 10; k++) cs_step(m, d2);
    long before = alloc_count;
    for (int k = 0; k < 100; k++) cs_step(m, d2);
    ck_assert_msg(alloc_count == before, "%s: %ld allocations in 100 steps of a formed pile", solver,
                  alloc_count - before);
    ck_assert_int_gt(d2->ncon, 64);
    /* and the counter does see the library's allocations, so the zero means something */
    cs_data *d3 = cs_make_data(m);
    ck_assert_int_gt(alloc_count, before);
    cs_free_data(d3);
    cs_free_data(d2);
    cs_free_data(d);
    cs_free_model(m);
}

START_TEST(test_pile_no_alloc_pgs) { pile_no_alloc("pgs"); }
END_TEST
START_TEST(test_pile_no_alloc_newton) { pile_no_alloc("newton"); }
END_TEST
START_TEST(test_pile_no_alloc_cg) { pile_no_alloc("cg"); }
END_TEST
START_TEST(test_pile_no_alloc_coulomb) { pile_no_alloc("coulomb"); }
END_TEST

/* Islands are solved on several threads; the state must not depend on how many. */
START_TEST(test_threads_identical)
{
    const char *solvers[4] = {"pgs", "newton", "cg", "coulomb"};
    for (int s = 0; s < 4; s++) {
        double *q[3], *f[3];
        int ncon[3];
        for (int t = 0; t < 3; t++) {
            cs_model *m = load(CS_BENCH "/spheres_bin_64.xml", solvers[s], t + 1);
            cs_data *d = cs_make_data(m);
            /* (the Coulomb model's pile runs many iterations a step: fewer steps) */
            for (int k = 0; k < (s == 3 ? 150 : 250); k++) cs_step(m, d);
            q[t] = malloc(sizeof(double) * (size_t)(m->nq + m->nv));
            memcpy(q[t], d->qpos, sizeof(double) * (size_t)m->nq);
            memcpy(q[t] + m->nq, d->qvel, sizeof(double) * (size_t)m->nv);
            ncon[t] = d->ncon;
            f[t] = malloc(sizeof(double) * 6 * (size_t)(d->ncon + 1));
            for (int i = 0; i < d->ncon; i++) cs_contact_force(m, d, i, f[t] + 6 * i);
            if (t == 2) {
                ck_assert_int_gt(d->solver.nisland, 1); /* several islands to share out */
                for (int t2 = 0; t2 < 2; t2++) {
                    ck_assert_int_eq(ncon[t2], ncon[2]);
                    ck_assert(memcmp(q[t2], q[2], sizeof(double) * (size_t)(m->nq + m->nv)) == 0);
                    ck_assert(memcmp(f[t2], f[2], sizeof(double) * 6 * (size_t)ncon[2]) == 0);
                }
            }
            cs_free_data(d);
            cs_free_model(m);
        }
        for (int t = 0; t < 3; t++) {
            free(q[t]);
            free(f[t]);
        }
    }
}
END_TEST

/* cs_contact_force: the contact-frame force in condim order; the normal forces of a
 * resting stack carry its weight. */
START_TEST(test_contact_force)
{
    cs_model *m = load(CS_SCENES "/box_stack.xml", NULL, 1);
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 200; k++) cs_step(m, d);
    double fn = 0, mass = 0, f[6];
    for (int i = 0; i < d->ncon; i++) {
        cs_contact_force(m, d, i, f);
        ck_assert(memcmp(f, d->contact[i].force, sizeof f) == 0);
        for (int j = d->contact[i].dim; j < 6; j++) ck_assert(f[j] == 0);
        const double *n = d->contact[i].frame;
        if (m->body_treeid[m->geom_body[d->contact[i].geom1]] < 0) fn += f[0] * n[2];
    }
    for (int b = 1; b < m->nbody; b++) mass += m->body_mass[b];
    ck_assert_double_eq_tol(fn, mass * 9.81, 1e-6 * mass * 9.81);
    cs_contact_force(m, d, -1, f);
    for (int j = 0; j < 6; j++) ck_assert(f[j] == 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* Boxes of half-size 0.05 and 1 kg, nx x nx to a layer, resting on each other and on the
 * floor (geom 0), with `size` (a <size> element or "") before the world. */
static cs_model *stacked_boxes(int nx, int layers, const char *size)
{
    char xml[16384], err[1024];
    int k = snprintf(xml, sizeof xml, "<mujoco>%s<worldbody>"
                     "<geom type=\"plane\" size=\"2 2 0.1\"/>", size);
    for (int l = 0; l < layers; l++)
        for (int i = 0; i < nx; i++)
            for (int j = 0; j < nx; j++)
                k += snprintf(xml + k, sizeof xml - (size_t)k,
                              "<body pos=\"%g %g %g\"><freejoint/><geom type=\"box\" "
                              "size=\"0.05 0.05 0.05\" mass=\"1\"/></body>",
                              0.1 * (i - (nx - 1) / 2.0), 0.1 * (j - (nx - 1) / 2.0),
                              0.05 + 0.1 * l);
    k += snprintf(xml + k, sizeof xml - (size_t)k, "</worldbody></mujoco>");
    ck_assert_int_lt(k, (int)sizeof xml);
    cs_model *m = cs_load_xml_string(xml, "stacked.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* Without <size nconmax> the contact arrays grow to what a step finds: 3 layers of 3x3
 * boxes make more contacts than the 100 + 8 per geom that conesim once kept, none is
 * dropped, the bottom layer rests at its half-size (within 1 mm) and the floor carries
 * the whole weight; once the largest step has been seen, steps allocate nothing. */
START_TEST(test_stacked_boxes_grow)
{
    const char *sizes[2] = {"", "<size memory=\"100M\"/>"};
    for (int v = 0; v < 2; v++) {
        cs_model *m = stacked_boxes(3, 3, sizes[v]);
        cs_data *d = cs_make_data(m);
        int maxcon = 0;
        double low = 1, high = 0;
        long before = 0;
        for (int k = 0; k < 500; k++) {
            if (k == 20) before = alloc_count;
            cs_step(m, d);
            if (d->ncon > maxcon) maxcon = d->ncon;
            for (int b = 1; b <= 9; b++) {
                low = fmin(low, d->xpos[3 * b + 2]);
                high = fmax(high, d->xpos[3 * b + 2]);
            }
        }
        long allocs = alloc_count - before; /* (before check's assertions, which allocate) */
        ck_assert_msg(allocs == 0, "%ld allocations after the largest step", allocs);
        ck_assert_msg(maxcon > 100 + 8 * m->ngeom, "%d contacts at most", maxcon);
        ck_assert_int_eq(d->warning[CS_WARN_CONTACTFULL], 0);
        ck_assert_int_eq(d->warning[CS_WARN_NOMEM], 0);
        ck_assert_msg(low > 0.049 && high < 0.051, "bottom layer between %g and %g", low, high);
        double fn = 0, f[6];
        for (int i = 0; i < d->ncon; i++)
            if (d->contact[i].geom1 == 0 || d->contact[i].geom2 == 0) {
                cs_contact_force(m, d, i, f);
                fn += f[0] * fabs(d->contact[i].frame[2]);
            }
        ck_assert_double_eq_tol(fn, 27 * 9.81, 1e-3 * 27 * 9.81);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* An explicit <size nconmax> stays a hard cap: the contacts beyond it are dropped and
 * counted; so is a <size memory> too small for the scene's contacts. */
START_TEST(test_stacked_boxes_cap)
{
    const char *sizes[2] = {"<size nconmax=\"100\"/>", "<size memory=\"64K\"/>"};
    for (int v = 0; v < 2; v++) {
        cs_model *m = stacked_boxes(3, 3, sizes[v]);
        if (v == 0) ck_assert_int_eq(m->nconmax, 100);
        ck_assert_int_lt(m->nconmax, 200);
        cs_data *d = cs_make_data(m);
        cs_step(m, d);
        ck_assert_int_eq(d->ncon, m->nconmax);
        ck_assert_int_gt(d->warning[CS_WARN_CONTACTFULL], 0);
        ck_assert_int_eq(d->warning[CS_WARN_NOMEM], 0);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* A tower of 10 boxes under the default PGS (pair blocks, Newton finish): it stands, as
 * under Newton and CG, and all three put the top box at the same height. */
START_TEST(test_tower_default_pgs)
{
    double top[3][3];
    const char *solvers[3] = {"pgs", "newton", "cg"};
    for (int s = 0; s < 3; s++) {
        cs_model *m = load(CS_BENCH "/tower_10.xml", solvers[s], 1);
        cs_data *d = cs_make_data(m);
        int b = cs_name2id_body(m, "box9");
        ck_assert_int_gt(b, 0);
        double z0 = d->xpos[3 * b + 2];
        long atlimit = 0;
        for (int k = 0; k < 500; k++) {
            cs_step(m, d);
            atlimit += d->solver.at_limit;
        }
        memcpy(top[s], d->xpos + 3 * b, sizeof top[s]);
        ck_assert_msg(hypot(top[s][0], top[s][1]) < 1e-3, "%s: top box moved %g m sideways",
                      solvers[s], hypot(top[s][0], top[s][1]));
        ck_assert(fabs(top[s][2] - z0) < 0.01); /* settles by the contacts' softness only */
        ck_assert_int_eq(atlimit, 0);
        cs_free_data(d);
        cs_free_model(m);
    }
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(top[0][k], top[1][k], 1e-6);
        ck_assert_double_eq_tol(top[2][k], top[1][k], 1e-6);
    }
}
END_TEST

/* MuJoCo's stat.meaninertia scales the solvers' stopping rules (1 / (meaninertia nv)): the
 * box stack under PGS takes as many sweeps with meaninertia given as the mean of diag(M) at
 * qpos0 (the rule when it is not given) as without it, and fewer with a meaninertia a
 * million times larger (the same improvement then counts as a million times smaller). */
START_TEST(test_meaninertia)
{
    int it[3];
    for (int v = 0; v < 3; v++) {
        cs_model *m = load(CS_SCENES "/box_stack.xml", "pgs", 1);
        double mi = 0;
        for (int i = 0; i < m->nv; i++) mi += m->dof_M0[i] / m->nv;
        m->opt.meaninertia = v == 0 ? 0 : v == 1 ? mi : 1e6 * mi;
        cs_data *d = cs_make_data(m);
        it[v] = 0;
        for (int k = 0; k < 200; k++) {
            cs_step(m, d);
            it[v] += d->solver.iterations;
        }
        cs_free_data(d);
        cs_free_model(m);
    }
    printf("PGS sweeps over 200 steps: %d (qpos0 rule), %d (given the same), %d (x 1e6)\n", it[0],
           it[1], it[2]);
    ck_assert_int_eq(it[0], it[1]);
    ck_assert_int_lt(it[2], it[0]);
    /* <statistic meaninertia> sets it */
    char err[256];
    cs_model *m = cs_load_xml_string("<mujoco><statistic meaninertia='2.5'/><worldbody/></mujoco>",
                                     "stat.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_double_eq(m->opt.meaninertia, 2.5);
    cs_free_model(m);
}
END_TEST

/* <flag override="enable">: the o_ parameters replace every contact's own. The slide scene's
 * box (friction 0.5 on a slope with tan = 0.55) slides; with o_friction 1 it sticks (but for
 * the soft model's creep), o_friction is floored at mjMINMU as in MuJoCo's mj_assignFriction,
 * and o_margin sets the contacts' margin. */
START_TEST(test_override)
{
    double y[2];
    for (int ov = 0; ov < 2; ov++) {
        cs_model *m = load(CS_SCENES "/incline_slide.xml", "newton", 1);
        char err[256];
        if (ov) {
            ck_assert_int_eq(cs_option_set(&m->opt, "flag.override", "enable", err, sizeof err), 0);
            ck_assert_int_eq(cs_option_set(&m->opt, "o_friction", "1 1 0 0.0001 0.0001", err, sizeof err), 0);
            ck_assert_int_eq(cs_option_set(&m->opt, "o_margin", "0.003", err, sizeof err), 0);
        }
        cs_data *d = cs_make_data(m);
        int b = cs_name2id_body(m, "box");
        for (int k = 0; k < 100; k++) cs_step(m, d); /* lands and settles */
        double y0 = d->xpos[3 * b + 1];
        for (int k = 0; k < 250; k++) cs_step(m, d);
        y[ov] = d->xpos[3 * b + 1] - y0; /* then 0.5 s */
        ck_assert_int_gt(d->ncon, 0);
        for (int i = 0; i < d->ncon; i++) {
            ck_assert_double_eq(d->contact[i].friction[0], ov ? 1 : 0.5);
            /* an override's 0 is floored as every friction coefficient (MuJoCo's mjMINMU) */
            if (ov) ck_assert_double_eq(d->contact[i].friction[2], 1e-5);
            ck_assert_double_eq(d->contact[i].margin, ov ? 0.003 : 0);
        }
        cs_free_data(d);
        cs_free_model(m);
    }
    ck_assert_msg(fabs(y[0]) > 0.02, "without override the box slides (%g m)", y[0]);
    /* sticking, up to the soft contacts' creep (about 1 mm/s here) */
    ck_assert_msg(fabs(y[1]) < 1e-3 && fabs(y[1]) < 0.1 * fabs(y[0]),
                  "with o_friction 1 it sticks (%g m against %g)", y[1], y[0]);
}
END_TEST

/* MuJoCo 3.12's island flag: disabled, all contacts make one problem (one island), whose
 * solution is the islands' to the tolerance. Both runs stop on improvement and gradient
 * (newton_early=0): the decrement test, taken on the islands' exact Newton steps and not on
 * the one problem's CG ones, stops them at different points within the tolerance, which this
 * bin's 150 steps amplify to 1e-3 m */
START_TEST(test_flag_island)
{
    static double q[2][7 * 64];
    for (int off = 0; off < 2; off++) {
        cs_model *m = load(CS_BENCH "/spheres_bin_64.xml", "newton", 1);
        char err[256];
        ck_assert_int_eq(cs_option_set(&m->opt, "flag.island", off ? "disable" : "enable", err,
                                       sizeof err), 0);
        m->opt.newton_early = 0;
        cs_data *d = cs_make_data(m);
        int several = 0;
        for (int k = 0; k < 150; k++) {
            cs_step(m, d);
            if (off) ck_assert_int_le(d->solver.nisland, 1);
            else several |= d->solver.nisland > 1;
        }
        if (!off) ck_assert(several);
        ck_assert_int_le(m->nq, 7 * 64);
        memcpy(q[off], d->qpos, sizeof(double) * (size_t)m->nq);
        double dmax = 0;
        for (int i = 0; i < m->nq; i++) dmax = fmax(dmax, fabs(q[off][i] - q[0][i]));
        printf("report: island flag %s: largest qpos difference %.3g\n", off ? "off" : "on", dmax);
        fflush(stdout);
        for (int i = 0; i < m->nq; i++) ck_assert_double_eq_tol(q[off][i], q[0][i], 1e-6);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* the energy flag: d->energy is the potential and kinetic energy at the forward stage's
 * state (MuJoCo's order), 0 without the flag */
START_TEST(test_flag_energy)
{
    cs_model *m = load(CS_BENCH "/tower_10.xml", "newton", 1);
    cs_data *d = cs_make_data(m);
    d->qvel[2] = 0.5;
    cs_forward(m, d);
    ck_assert(d->energy[0] == 0 && d->energy[1] == 0);
    m->opt.enableflags |= CS_ENBL_ENERGY;
    cs_forward(m, d);
    ck_assert_double_eq(d->energy[0], cs_energy_potential(m, d));
    ck_assert_double_eq(d->energy[1], cs_energy_kinetic(m, d));
    ck_assert_double_gt(d->energy[1], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* MuJoCo 3.12's multiccd flag (on by default): a support-function pair resting flat gets
 * several points; disabled, one (the STL prism on the floor of mesh_pedestal). Its
 * nativeccd flag disabled: libccd's MPR for overlapping pairs, other contacts. */
START_TEST(test_flag_multiccd)
{
    long n[3] = {0, 0, 0};
    for (int off = 0; off < 3; off++) {
        cs_model *m = load(CS_SCENES "/mesh_pedestal.xml", NULL, 1);
        char err[256];
        if (off)
            ck_assert_int_eq(cs_option_set(&m->opt, off == 1 ? "flag.multiccd" : "flag.nativeccd",
                                           "disable", err, sizeof err), 0);
        cs_data *d = cs_make_data(m);
        for (int k = 0; k < 100; k++) {
            cs_step(m, d);
            n[off] += d->ncon;
        }
        cs_free_data(d);
        cs_free_model(m);
    }
    ck_assert_int_lt(n[1], n[0]);
    ck_assert_int_ne(n[2], n[0]);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 240);
    tcase_add_test(t, test_pile_no_alloc_pgs);
    tcase_add_test(t, test_pile_no_alloc_newton);
    tcase_add_test(t, test_pile_no_alloc_cg);
    tcase_add_test(t, test_pile_no_alloc_coulomb);
    tcase_add_test(t, test_threads_identical);
    tcase_add_test(t, test_contact_force);
    tcase_add_test(t, test_stacked_boxes_grow);
    tcase_add_test(t, test_stacked_boxes_cap);
    tcase_add_test(t, test_tower_default_pgs);
    tcase_add_test(t, test_override);
    tcase_add_test(t, test_meaninertia);
    tcase_add_test(t, test_flag_island);
    tcase_add_test(t, test_flag_energy);
    tcase_add_test(t, test_flag_multiccd);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(core_suite());
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
