/* cs_rollout: the same states bit for bit for any thread count, and the same as cs_reset,
 * setting the state, the controls and cs_step by hand (gripper_lift: contacts, friction,
 * three position servos). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#ifndef CS_SCENES
#error "CS_SCENES (the scenes directory) must be defined by the build"
#endif

enum { NBATCH = 5, NSTEP = 250 };

static cs_model *load(void)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_SCENES "/gripper_lift.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* initial states around qpos0 and controls that close the fingers and lift, per rollout */
static void inputs(const cs_model *m, double *s0, double *ctrl)
{
    int ns = cs_rollout_nstate(m);
    for (int b = 0; b < NBATCH; b++) {
        double *s = s0 + (size_t)b * ns;
        memset(s, 0, (size_t)ns * sizeof *s);
        s[0] = 0.01 * b;
        memcpy(s + 1, m->qpos0, (size_t)m->nq * sizeof *s);
        s[1 + m->nq] = 0.02 * b; /* a first velocity that differs */
        for (int t = 0; t < NSTEP; t++)
            for (int u = 0; u < m->nu; u++)
                ctrl[((size_t)b * NSTEP + t) * m->nu + u] = 0.001 * t * (1 + u) / (1 + b);
    }
}

START_TEST(test_threads_and_by_hand)
{
    cs_model *m = load();
    int ns = cs_rollout_nstate(m);
    ck_assert_int_eq(ns, 1 + m->nq + m->nv + m->na);
    ck_assert_int_gt(m->nu, 0);
    size_t nout = (size_t)NBATCH * NSTEP * ns;
    double *s0 = malloc((size_t)NBATCH * ns * sizeof *s0);
    double *ctrl = malloc((size_t)NBATCH * NSTEP * m->nu * sizeof *ctrl);
    double *ref = malloc(nout * sizeof *ref), *out = malloc(nout * sizeof *out);
    inputs(m, s0, ctrl);
    ck_assert_int_eq(cs_rollout(m, NBATCH, s0, ctrl, NSTEP, 1, ref), 0);
    const int threads[] = {2, 3, 8};
    for (int k = 0; k < 3; k++) {
        memset(out, 0, nout * sizeof *out);
        ck_assert_int_eq(cs_rollout(m, NBATCH, s0, ctrl, NSTEP, threads[k], out), 0);
        ck_assert_msg(memcmp(out, ref, nout * sizeof *out) == 0, "nthread %d differs", threads[k]);
    }
    /* by hand, on one data reused across the batch */
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    int contacts = 0;
    for (int b = NBATCH - 1; b >= 0; b--) {
        const double *s = s0 + (size_t)b * ns;
        cs_reset(m, d);
        d->time = s[0];
        memcpy(d->qpos, s + 1, (size_t)m->nq * sizeof *s);
        memcpy(d->qvel, s + 1 + m->nq, (size_t)m->nv * sizeof *s);
        memcpy(d->act, s + 1 + m->nq + m->nv, (size_t)m->na * sizeof *s);
        for (int t = 0; t < NSTEP; t++) {
            memcpy(d->ctrl, ctrl + ((size_t)b * NSTEP + t) * m->nu, (size_t)m->nu * sizeof *ctrl);
            cs_step(m, d);
            contacts += d->ncon;
            const double *r = ref + ((size_t)b * NSTEP + t) * ns;
            ck_assert_msg(r[0] == d->time, "rollout %d step %d: time", b, t);
            ck_assert_msg(memcmp(r + 1, d->qpos, (size_t)m->nq * sizeof *r) == 0, "qpos %d %d", b, t);
            ck_assert_msg(memcmp(r + 1 + m->nq, d->qvel, (size_t)m->nv * sizeof *r) == 0,
                          "qvel %d %d", b, t);
        }
    }
    ck_assert_int_gt(contacts, 0); /* the box sat on the floor: contacts were solved */
    /* no controls: they stay 0, and the states differ from the controlled ones */
    ck_assert_int_eq(cs_rollout(m, NBATCH, s0, NULL, NSTEP, 2, out), 0);
    ck_assert(memcmp(out, ref, nout * sizeof *out) != 0);
    cs_free_data(d);
    free(s0);
    free(ctrl);
    free(ref);
    free(out);
    cs_free_model(m);
}
END_TEST

START_TEST(test_arguments)
{
    cs_model *m = load();
    double s[64] = {0}, out[64];
    ck_assert_int_eq(cs_rollout(m, 0, NULL, NULL, 10, 2, NULL), 0);
    ck_assert_int_eq(cs_rollout(m, 1, s, NULL, 0, 2, NULL), 0);
    ck_assert_int_eq(cs_rollout(m, -1, s, NULL, 1, 1, out), -1);
    ck_assert_int_eq(cs_rollout(m, 1, NULL, NULL, 1, 1, out), -1);
    ck_assert_int_eq(cs_rollout(NULL, 1, s, NULL, 1, 1, out), -1);
    ck_assert_str_eq(cs_id2name(m, "joint", 0), "lift");
    ck_assert_str_eq(cs_id2name(m, "joint", 1), "left");
    ck_assert_ptr_null(cs_id2name(m, "joint", 3)); /* the box's free joint has no name */
    ck_assert_str_eq(cs_id2name(m, "body", 0), "world");
    ck_assert_ptr_null(cs_id2name(m, "joint", m->njnt));
    ck_assert_ptr_null(cs_id2name(m, "nothing", 0));
    ck_assert_str_eq(cs_id2name(m, "actuator", 2), "lift");
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rollout");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_threads_and_by_hand);
    tcase_add_test(tc, test_arguments);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
