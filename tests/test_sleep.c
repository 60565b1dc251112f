/* Sleeping trees (<flag sleep="enable">, MuJoCo 3.12's rules): a stack that settles falls
 * asleep with velocities exactly 0 and then costs no contact solving (no contacts, no rows,
 * no solver iterations) and keeps its pose bit for bit; a body falling onto it wakes it; a
 * user change of qvel, qpos or xfrc_applied wakes it; sleep="never" never sleeps and
 * sleep="init" starts asleep; with the flag off (the default) nothing sleeps and the
 * trajectory is that of the flag on until the first tree sleeps. Agreement with MuJoCo is
 * checked by the oracle (tests/oracle/scenes/sleep_wake.xml). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

/* three boxes stacked on the floor, a sphere high above them falling onto the stack, and a
 * sphere floating at rest (gravity compensated, touching nothing) that may never sleep */
static const char *XML =
    "<mujoco><option timestep='0.002'><flag sleep='%s'/></option><worldbody>"
    "<geom type='plane' size='5 5 0.1'/>"
    "<body name='b1' pos='0 0 0.1'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
    "<body name='b2' pos='0.02 0 0.3'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
    "<body name='b3' pos='-0.02 0 0.5'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
    "<body name='ball' pos='0 0 %s'><freejoint/><geom type='sphere' size='0.05' mass='2'/></body>"
    "<body name='never' pos='2 0 1' sleep='never' gravcomp='1'><freejoint/>"
    "<geom type='sphere' size='0.1'/>"
    "</body></worldbody></mujoco>";

static cs_model *scene(const char *flag, const char *ball_z)
{
    char buf[2048];
    snprintf(buf, sizeof buf, XML, flag, ball_z);
    return load_xml(buf, "sleep.xml");
}

static int tree_of(const cs_model *m, const char *body)
{
    return m->body_treeid[cs_name2id_body(m, body)];
}

static int stack_asleep(const cs_model *m, const cs_data *d)
{
    return !d->tree_awake[tree_of(m, "b1")] && !d->tree_awake[tree_of(m, "b2")] &&
           !d->tree_awake[tree_of(m, "b3")];
}

/* steps until the stack sleeps; fails after n */
static int settle(const cs_model *m, cs_data *d, int n)
{
    for (int i = 0; i < n; i++) {
        step_checked(m, d);
        if (stack_asleep(m, d)) return i + 1;
    }
    ck_abort_msg("the stack did not fall asleep in %d steps", n);
    return -1;
}

START_TEST(test_stack_sleeps_and_costs_nothing)
{
    cs_model *m = scene("enable", "100"); /* the ball far above: falling, awake */
    cs_data *d = cs_make_data(m);
    int n = settle(m, d, 2000);
    printf("report: the stack fell asleep after %d steps\n", n);
    /* velocities and accelerations exactly 0; the never tree and the falling ball awake */
    for (int k = 0; k < 3; k++) {
        const char *b[] = {"b1", "b2", "b3"};
        int t = tree_of(m, b[k]);
        for (int i = m->tree_dofadr[t]; i < m->tree_dofadr[t] + m->tree_dofnum[t]; i++) {
            ck_assert(d->qvel[i] == 0);
        }
    }
    ck_assert_int_eq(d->tree_awake[tree_of(m, "ball")], 1);
    ck_assert_int_eq(d->ntree_awake, 2);
    /* the cycle: each sleeping tree names the next of its island */
    int t1 = tree_of(m, "b1"), t = t1, len = 0;
    do {
        t = d->tree_asleep[t];
        ck_assert(t >= 0);
        len++;
    } while (t != t1 && len < 10);
    ck_assert_int_eq(len, 3);
    /* later steps: no contacts (the stack's with the floor and with itself are not made),
     * no rows, no solver iterations; the pose kept bit for bit */
    double *q = malloc(sizeof(double) * (size_t)m->nq);
    memcpy(q, d->qpos, sizeof(double) * (size_t)m->nq);
    int nq_stack = 21;
    for (int i = 0; i < 200; i++) {
        step_checked(m, d);
        ck_assert_int_eq(d->ncon, 0);
        ck_assert_int_eq(d->nefc, 0);
        ck_assert_int_eq(d->solver.iterations, 0);
    }
    ck_assert_int_eq(memcmp(q, d->qpos, sizeof(double) * (size_t)nq_stack), 0);
    /* the never sphere is at rest but never sleeps */
    ck_assert_int_eq(d->tree_awake[tree_of(m, "never")], 1);
    free(q);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_falling_body_wakes_stack)
{
    cs_model *m = scene("enable", "3");
    cs_data *d = cs_make_data(m);
    settle(m, d, 600); /* the ball meets the stack only after about 0.7 s */
    int tb = tree_of(m, "ball");
    ck_assert_int_eq(d->tree_awake[tb], 1);
    int woke = -1;
    for (int i = 0; i < 1000 && woke < 0; i++) {
        step_checked(m, d);
        if (!stack_asleep(m, d)) woke = i;
    }
    ck_assert_msg(woke >= 0, "the falling ball did not wake the stack");
    /* woken by contact: the whole island at once, and the top box moves under the impact */
    ck_assert_int_eq(d->tree_awake[tree_of(m, "b1")], 1);
    ck_assert_int_eq(d->tree_awake[tree_of(m, "b2")], 1);
    ck_assert_int_eq(d->tree_awake[tree_of(m, "b3")], 1);
    steps(m, d, 5);
    int t3 = tree_of(m, "b3");
    double v = 0;
    for (int i = m->tree_dofadr[t3]; i < m->tree_dofadr[t3] + 6; i++) v += fabs(d->qvel[i]);
    ck_assert(v > 0);
    printf("report: the ball woke the stack %d steps after it slept\n", woke);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a user change: qvel, qpos or an applied force wakes the island at the next step */
START_TEST(test_user_change_wakes)
{
    cs_model *m = scene("enable", "100");
    for (int kind = 0; kind < 3; kind++) {
        cs_data *d = cs_make_data(m);
        settle(m, d, 2000);
        int b3 = cs_name2id_body(m, "b3"), t3 = m->body_treeid[b3];
        int a = m->tree_dofadr[t3];
        if (kind == 0) d->qvel[a] = 0.5;                                  /* a push */
        if (kind == 1) d->qpos[m->jnt_qposadr[m->body_jntadr[b3]] + 2] += 0.2; /* lifted */
        if (kind == 2) d->xfrc_applied[6 * b3 + 0] = 50;                  /* a force */
        step_checked(m, d);
        ck_assert_msg(!stack_asleep(m, d), "change %d did not wake the stack", kind);
        ck_assert_int_eq(d->tree_awake[tree_of(m, "b1")], 1); /* the whole island */
        double v = 0;
        for (int i = a; i < a + 6; i++) v += fabs(d->qvel[i]);
        ck_assert(v > 0);
        cs_free_data(d);
    }
    cs_free_model(m);
}
END_TEST

/* the flag off (MuJoCo's default): nothing ever sleeps, and until the first tree sleeps
 * with it on, the two runs are the same bit for bit */
START_TEST(test_disabled_changes_nothing)
{
    cs_model *on = scene("enable", "3"), *off = scene("disable", "3");
    cs_data *d1 = cs_make_data(on), *d0 = cs_make_data(off);
    int same = 1, steps_same = 0;
    for (int i = 0; i < 1500; i++) {
        step_checked(on, d1);
        step_checked(off, d0);
        ck_assert_int_eq(d0->ntree_awake, off->ntree);
        if (d1->ntree_awake < on->ntree) same = 0;
        if (same) {
            ck_assert_int_eq(memcmp(d1->qpos, d0->qpos, sizeof(double) * (size_t)on->nq), 0);
            ck_assert_int_eq(memcmp(d1->qvel, d0->qvel, sizeof(double) * (size_t)on->nv), 0);
            steps_same++;
        }
    }
    ck_assert_int_gt(steps_same, 10);
    ck_assert_int_eq(same, 0); /* the run with the flag on did sleep */
    cs_free_data(d0);
    cs_free_data(d1);
    cs_free_model(on);
    cs_free_model(off);
}
END_TEST

/* sleep="init": the tree starts asleep and stays put (in the air: nothing wakes it) until
 * touched; a copy of the data keeps the sleep state */
START_TEST(test_init_asleep_and_copy)
{
    cs_model *m = load_xml(
        "<mujoco><option><flag sleep='enable'/></option><worldbody>"
        "<geom type='plane' size='5 5 0.1'/>"
        "<body name='hang' pos='0 0 1' sleep='init'><freejoint/><geom type='box' size='0.1 0.1 0.1'/>"
        "</body><body name='drop' pos='0 0 1.5'><freejoint/><geom type='sphere' size='0.1'/>"
        "</body></worldbody></mujoco>", "init.xml");
    cs_data *d = cs_make_data(m);
    int th = tree_of(m, "hang");
    ck_assert_int_eq(d->tree_awake[th], 0);
    ck_assert_int_eq(m->tree_sleep_policy[th], CS_SLEEP_INIT);
    steps(m, d, 50);
    ck_assert_int_eq(d->tree_awake[th], 0);
    ck_assert(d->qpos[2] == 1);
    cs_data *c = cs_copy_data(m, d);
    ck_assert_int_eq(c->tree_awake[th], 0);
    ck_assert_int_eq(c->ntree_awake, d->ntree_awake);
    cs_free_data(c);
    /* the sphere lands on it and wakes it: then it falls */
    for (int i = 0; i < 400 && !d->tree_awake[th]; i++) step_checked(m, d);
    ck_assert_int_eq(d->tree_awake[th], 1);
    steps(m, d, 50);
    ck_assert(d->qpos[2] < 1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the option and flag through the setter: sleep_tolerance 0 never lets a moving tree sleep
 * before it stops exactly; turning the flag off wakes every tree */
START_TEST(test_flag_off_wakes_all)
{
    cs_model *m = scene("enable", "100");
    cs_data *d = cs_make_data(m);
    settle(m, d, 2000);
    ck_assert_int_eq(cs_set(m, "opt.enableflags", 0), 0);
    step_checked(m, d);
    ck_assert_int_eq(d->ntree_awake, m->ntree);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* two boxes apart on the floor joined by a connect equality are one island: they fall
 * asleep together (a cycle of two) and a push on one wakes both; a third box alone sleeps
 * alone and stays asleep */
START_TEST(test_equality_island)
{
    cs_model *m = load_xml(
        "<mujoco><option><flag sleep='enable'/></option><worldbody>"
        "<geom type='plane' size='5 5 0.1'/>"
        "<body name='a' pos='-0.3 0 0.1'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
        "<body name='b' pos='0.3 0 0.1'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
        "<body name='c' pos='2 0 0.1'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
        "</worldbody><equality><connect body1='a' body2='b' anchor='0.3 0 0'/></equality>"
        "</mujoco>", "eq.xml");
    cs_data *d = cs_make_data(m);
    int ta = tree_of(m, "a"), tb = tree_of(m, "b"), tc = tree_of(m, "c");
    int i = 0;
    for (; i < 3000 && d->ntree_awake > 0; i++) step_checked(m, d);
    ck_assert_int_eq(d->ntree_awake, 0);
    ck_assert_int_eq(d->tree_asleep[ta], tb); /* the island's cycle */
    ck_assert_int_eq(d->tree_asleep[tb], ta);
    ck_assert_int_eq(d->tree_asleep[tc], tc); /* alone */
    d->qvel[m->tree_dofadr[tb] + 2] = 0.3;    /* b thrown up */
    step_checked(m, d);
    ck_assert_int_eq(d->tree_awake[ta], 1);
    ck_assert_int_eq(d->tree_awake[tb], 1);
    ck_assert_int_eq(d->tree_awake[tc], 0);
    printf("report: the connected pair fell asleep after %d steps\n", i);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sleep");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stack_sleeps_and_costs_nothing);
    tcase_add_test(tc, test_falling_body_wakes_stack);
    tcase_add_test(tc, test_user_change_wakes);
    tcase_add_test(tc, test_disabled_changes_nothing);
    tcase_add_test(tc, test_init_asleep_and_copy);
    tcase_add_test(tc, test_flag_off_wakes_all);
    tcase_add_test(tc, test_equality_island);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
