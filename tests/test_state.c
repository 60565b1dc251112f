/* Copies and state: a copied data (of the model or of a copy of it) steps bit for bit as
 * the original on contact scenes; a data given another's CS_STATE_INTEGRATION state steps
 * as that one; states round-trip by part; rollouts by spec carry the mocap poses. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#if !defined(CS_SCENES) || !defined(CS_BENCH)
#error "CS_SCENES and CS_BENCH (the scenes and bench directories) must be defined by the build"
#endif

static cs_model *load(const char *name)
{
    char err[1024], path[1024];
    snprintf(path, sizeof path, "%s/%s", CS_SCENES, name);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s: %s", name, err);
    return m;
}

static void same(const cs_model *m, const cs_data *a, const cs_data *b, const char *what,
                 int step)
{
    ck_assert_msg(memcmp(a->qpos, b->qpos, (size_t)m->nq * sizeof *a->qpos) == 0,
                  "%s: qpos differs at step %d", what, step);
    ck_assert_msg(memcmp(a->qvel, b->qvel, (size_t)m->nv * sizeof *a->qvel) == 0,
                  "%s: qvel differs at step %d", what, step);
    ck_assert_msg(a->time == b->time && a->ncon == b->ncon, "%s: step %d", what, step);
}

/* controls that move the actuated scenes */
static void drive(const cs_model *m, cs_data *d, int t)
{
    for (int u = 0; u < m->nu; u++) d->ctrl[u] = 0.3 * sin(0.01 * t + u);
}

static const char *const SCENES[] = {"box_stack.xml", "walker.xml", "tendon_gripper.xml",
                                     "mesh_shapes.xml", "gripper_lift.xml"};

START_TEST(test_copies_step_alike)
{
    const char *name = SCENES[_i];
    cs_model *m = load(name);
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    for (int t = 0; t < 50; t++) {
        drive(m, d, t);
        cs_step(m, d);
    }
    cs_model *m2 = cs_copy_model(m);
    ck_assert_ptr_nonnull(m2);
    cs_data *c = cs_copy_data(m, d), *c2 = cs_copy_data(m2, d);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(c2);
    ck_assert_ptr_ne(c->qpos, d->qpos);
    ck_assert_ptr_ne(m2->geom_size, m->geom_size);
    for (int b = 0; b < m->nbody; b++) {
        const char *n1 = cs_id2name(m, "body", b), *n2 = cs_id2name(m2, "body", b);
        ck_assert(n1 == n2 || (n1 && n2 && n1 != n2 && strcmp(n1, n2) == 0));
    }
    for (int t = 50; t < 250; t++) {
        drive(m, d, t), drive(m, c, t), drive(m, c2, t);
        cs_step(m, d);
        cs_step(m, c);
        cs_step(m2, c2);
        same(m, d, c, name, t);
        same(m, d, c2, name, t);
    }
    ck_assert_int_eq(d->warning[CS_WARN_NOMEM], 0);
    /* the copy is the model's own: a change to it leaves the original as it was */
    double mu0 = m->geom_friction[0];
    ck_assert_int_eq(cs_set(m2, "geom.0.friction[0]", mu0 + 1), 0);
    ck_assert_double_eq(m->geom_friction[0], mu0);
    cs_free_data(c2);
    cs_free_model(m2); /* before the others: nothing of m's is shared */
    cs_free_data(c);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_integration_state_steps_alike)
{
    const char *name = SCENES[_i];
    cs_model *m = load(name);
    cs_data *d = cs_make_data(m), *e = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(e);
    for (int t = 0; t < 60; t++) {
        drive(m, d, t);
        cs_step(m, d);
    }
    int n = cs_state_size(m, CS_STATE_INTEGRATION);
    ck_assert_int_eq(n, 1 + m->nq + 3 * m->nv + m->na + m->nu + 6 * m->nbody + m->neq +
                            7 * m->nmocap);
    double *s = calloc((size_t)n, sizeof *s), *s2 = calloc((size_t)n, sizeof *s2);
    ck_assert_int_eq(cs_get_state(m, d, s, CS_STATE_INTEGRATION), 0);
    ck_assert_int_eq(cs_set_state(m, e, s, CS_STATE_INTEGRATION), 0);
    ck_assert_int_eq(cs_get_state(m, e, s2, CS_STATE_INTEGRATION), 0);
    ck_assert(memcmp(s, s2, (size_t)n * sizeof *s) == 0);
    for (int t = 60; t < 200; t++) {
        drive(m, d, t), drive(m, e, t);
        cs_step(m, d);
        cs_step(m, e);
        same(m, d, e, name, t);
    }
    free(s), free(s2);
    cs_free_data(d);
    cs_free_data(e);
    cs_free_model(m);
}
END_TEST

START_TEST(test_state_parts)
{
    cs_model *m = load("walker.xml");
    cs_data *d = cs_make_data(m);
    ck_assert_int_eq(cs_state_size(m, 0), 0);
    ck_assert_int_eq(cs_state_size(m, CS_STATE_TIME), 1);
    ck_assert_int_eq(cs_state_size(m, CS_STATE_FULLPHYSICS), cs_rollout_nstate(m));
    ck_assert_int_eq(cs_state_size(m, 1 << CS_NSTATE), -1);
    ck_assert_int_eq(cs_state_size(m, -1), -1);
    double s[4096];
    ck_assert_int_lt(cs_state_size(m, CS_STATE_INTEGRATION), 4096);
    ck_assert_int_eq(cs_get_state(m, d, s, 1 << CS_NSTATE), -1);
    /* one part at a time lands where it belongs, in MuJoCo's order */
    d->time = 1.5;
    d->qvel[0] = 2;
    d->ctrl[0] = 3;
    int spec = CS_STATE_TIME | CS_STATE_QVEL | CS_STATE_CTRL;
    ck_assert_int_eq(cs_state_size(m, spec), 1 + m->nv + m->nu);
    ck_assert_int_eq(cs_get_state(m, d, s, spec), 0);
    ck_assert(s[0] == 1.5 && s[1] == 2 && s[1 + m->nv] == 3);
    s[1] = -4;
    ck_assert_int_eq(cs_set_state(m, d, s, spec), 0);
    ck_assert_double_eq(d->qvel[0], -4);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a ball resting on a mocap slab: each rollout starts with its own slab height */
static const char *SLAB =
    "<mujoco><worldbody>"
    "<body name=\"slab\" mocap=\"true\" pos=\"0 0 0\"><geom type=\"box\" size=\"1 1 0.05\"/></body>"
    "<body name=\"ball\" pos=\"0 0 0.2\"><freejoint/><geom size=\"0.1\"/></body>"
    "</worldbody></mujoco>";

START_TEST(test_rollout_with_mocap)
{
    char err[512];
    cs_model *m = cs_load_xml_string(SLAB, "slab.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    int spec = CS_STATE_FULLPHYSICS | CS_STATE_MOCAP_POS | CS_STATE_MOCAP_QUAT;
    int ns = cs_state_size(m, spec);
    ck_assert_int_eq(ns, 1 + 7 + 6 + 7);
    enum { NB = 2, NS = 100 };
    double s0[NB * 21], out[NB * NS * 21];
    cs_data *d = cs_make_data(m);
    for (int b = 0; b < NB; b++) {
        cs_get_state(m, d, s0 + b * ns, spec);
        s0[b * ns + 1 + 7 + 6 + 2] = -0.1 * b; /* the slab's height */
    }
    ck_assert_int_eq(cs_rollout_spec(m, spec, NB, s0, NULL, NS, 2, out), 0);
    /* by hand: reset, the state, steps */
    for (int b = 0; b < NB; b++) {
        cs_reset(m, d);
        cs_set_state(m, d, s0 + b * ns, spec);
        double s[21];
        for (int t = 0; t < NS; t++) {
            cs_step(m, d);
            cs_get_state(m, d, s, spec);
            ck_assert(memcmp(s, out + ((size_t)b * NS + t) * ns, sizeof s) == 0);
        }
    }
    /* the lower slab lets the ball fall further */
    double z0 = out[((size_t)0 * NS + NS - 1) * ns + 3], z1 = out[((size_t)1 * NS + NS - 1) * ns + 3];
    ck_assert_double_lt(z1, z0 - 0.05);
    ck_assert_int_eq(cs_rollout_spec(m, 1 << CS_NSTATE, NB, s0, NULL, NS, 1, out), -1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a pile whose contacts outgrow the room a data starts with (the copy must make room), and a
 * model changed to RK4 after its data was made (the copy follows the change as d does) */
START_TEST(test_copy_grown_contacts_and_pending_change)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_BENCH "/mixed_pile_64.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    int start = d->ncon_cap;
    for (int t = 0; t < 150; t++) cs_step(m, d);
    ck_assert_int_gt(d->ncon_cap, start);
    ck_assert_int_eq(cs_set(m, "option.integrator", CS_INT_RK4), 0);
    cs_data *c = cs_copy_data(m, d);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->ncon_cap, d->ncon_cap);
    for (int t = 150; t < 250; t++) {
        cs_step(m, d);
        cs_step(m, c);
        same(m, d, c, "mixed_pile_64 (RK4 from step 150)", t);
    }
    ck_assert_int_eq(d->warning[CS_WARN_NOMEM] + c->warning[CS_WARN_NOMEM], 0);
    cs_free_data(c);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("state");
    TCase *tc = tcase_create("state");
    tcase_set_timeout(tc, 300);
    int n = (int)(sizeof SCENES / sizeof SCENES[0]);
    tcase_add_loop_test(tc, test_copies_step_alike, 0, n);
    tcase_add_loop_test(tc, test_integration_state_steps_alike, 0, n);
    tcase_add_test(tc, test_state_parts);
    tcase_add_test(tc, test_copy_grown_contacts_and_pending_change);
    tcase_add_test(tc, test_rollout_with_mocap);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
