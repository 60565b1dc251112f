/* Mocap bodies: children of the world posed by data between steps (mocap_pos, mocap_quat),
 * static to the dynamics as in MuJoCo. A paddle moved at constant speed pushes a free box
 * along the floor; the pose follows the data at once; reset and keyframes set it; a mocap
 * geom does not collide with the world's geoms. Measured quantities are printed on stdout
 * ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

static const char *XML =
    "<mujoco><option timestep='0.002' cone='elliptic'/><worldbody>"
    "<geom name='floor' type='plane' size='2 2 0.1'/>"
    "<body name='paddle' mocap='true' pos='-0.3 0 0.1'>"
    "<geom name='paddle' type='box' size='0.02 0.2 0.1' rgba='0.8 0.2 0.2 1'/></body>"
    "<body name='box' pos='0 0 0.1'><freejoint/>"
    "<geom name='box' type='box' size='0.1 0.1 0.1' mass='1' friction='0.3'/></body>"
    "</worldbody><keyframe><key name='moved' mpos='0.5 0.5 0.3' mquat='0 0 0 2'/></keyframe>"
    "</mujoco>";

START_TEST(test_mocap_pose_follows_data)
{
    cs_model *m = load_xml(XML, "mocap.xml");
    int p = cs_name2id_body(m, "paddle");
    ck_assert_int_eq(m->nmocap, 1);
    ck_assert_int_eq(m->body_mocapid[p], 0);
    ck_assert_int_eq(m->body_mocapid[cs_name2id_body(m, "box")], -1);
    cs_data *d = cs_make_data(m);
    /* reset: the body's own pose */
    ck_assert_double_eq(d->mocap_pos[0], -0.3);
    ck_assert_double_eq(d->mocap_quat[0], 1);
    d->mocap_pos[1] = 0.7;
    d->mocap_quat[0] = 0; /* a quarter turn about z, not normalised: 2 (0 0 0.7071 0.7071) */
    d->mocap_quat[3] = 1.4142135623730951;
    d->mocap_quat[2] = 1.4142135623730951;
    cs_forward(m, d);
    ck_assert_double_eq(d->xpos[3 * p + 1], 0.7);
    ck_assert_double_eq_tol(d->xquat[4 * p + 3], sqrt(0.5), 1e-15);
    /* its geom follows */
    int g = cs_name2id_geom(m, "paddle");
    ck_assert_double_eq_tol(d->geom_xpose[g].pos[1], 0.7, 1e-15);
    /* a keyframe's mpos and mquat (normalised by the loader) */
    ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
    ck_assert_double_eq(d->xpos[3 * p + 2], 0.3);
    ck_assert_double_eq_tol(d->xquat[4 * p + 3], 1, 1e-15);
    cs_reset(m, d);
    ck_assert_double_eq(d->xpos[3 * p], -0.3);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The paddle, moved at v = 0.2 m/s from 0.18 m behind the box's face, meets the box after
 * 0.9 s and then pushes it: the box's speed approaches v (friction 0.3 m g opposes, the
 * paddle is kinematic: it does not slow down) and the box stays ahead of the paddle. */
START_TEST(test_mocap_pushes)
{
    cs_model *m = load_xml(XML, "mocap.xml");
    cs_data *d = cs_make_data(m);
    int box = cs_name2id_body(m, "box");
    const double v = 0.2;
    double h = m->opt.timestep;
    int n = (int)lround(2.0 / h);
    double x_at_contact = NAN;
    for (int i = 0; i < n; i++) {
        d->mocap_pos[0] = -0.3 + v * (i + 1) * h;
        cs_step(m, d);
        if (isnan(x_at_contact) && d->mocap_pos[0] + 0.02 > d->xpos[3 * box] - 0.1)
            x_at_contact = d->xpos[3 * box];
    }
    double vx = d->qvel[0], gap = (d->xpos[3 * box] - 0.1) - (d->mocap_pos[0] + 0.02);
    printf("report: mocap push: box x %.6f (from %.6f), speed %.6f m/s (paddle %.3f), face gap "
           "%.3g m\n", d->xpos[3 * box], x_at_contact, vx, v, gap);
    ck_assert_double_eq_tol(x_at_contact, 0, 1e-6); /* untouched until then */
    ck_assert_double_eq_tol(vx, v, 0.01 * v);
    ck_assert(gap > -0.01 && gap < 0.005); /* pressed against the paddle (the soft contact
                                              gives some mm), not through it */
    /* pushed 1.1 s at v: 0.22 m, less the contact's give */
    ck_assert_double_eq_tol(d->xpos[3 * box], v * 1.1, 0.01);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* MuJoCo's rule: geoms of two bodies that no dof moves (the world, mocap bodies) never touch
 * (a paddle sunk into the floor makes no contact) */
START_TEST(test_mocap_no_world_contacts)
{
    cs_model *m = load_xml(XML, "mocap.xml");
    cs_data *d = cs_make_data(m);
    d->mocap_pos[0] = 1;
    d->mocap_pos[2] = 0.05; /* 5 cm into the floor */
    cs_forward(m, d);
    int pg = cs_name2id_geom(m, "paddle");
    for (int i = 0; i < d->ncon; i++)
        ck_assert(d->contact[i].geom1 != pg && d->contact[i].geom2 != pg);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A mocap body roots its own weld group for contacts, as in MuJoCo: a body hinged under it
 * does not touch it (the parent filter), unless the filter is disabled; a second mocap body
 * does not touch it either (neither has dofs) */
START_TEST(test_mocap_parent_filter)
{
    const char *xml =
        "<mujoco><option gravity='0 0 0'>%s</option><worldbody>"
        "<body name='hand' mocap='true' pos='0 0 1'><geom name='hand' size='0.1'/>"
        "<body name='finger' pos='0 0 -0.15'><joint axis='0 1 0'/>"
        "<geom name='finger' type='capsule' size='0.03' fromto='0 0 0.1 0 0 -0.2'/></body></body>"
        "<body name='other' mocap='true' pos='0.15 0 1'><geom name='other' size='0.1'/></body>"
        "</worldbody></mujoco>";
    for (int off = 0; off < 2; off++) {
        char buf[1024];
        snprintf(buf, sizeof buf, xml, off ? "<flag filterparent='disable'/>" : "");
        cs_model *m = load_xml(buf, "mocap_parent.xml");
        cs_data *d = cs_make_data(m);
        cs_forward(m, d);
        int h = cs_name2id_geom(m, "hand"), f = cs_name2id_geom(m, "finger");
        int o = cs_name2id_geom(m, "other"), hf = 0, ho = 0;
        for (int i = 0; i < d->ncon; i++) {
            int g1 = d->contact[i].geom1, g2 = d->contact[i].geom2;
            hf += (g1 == h && g2 == f) || (g1 == f && g2 == h);
            ho += (g1 == h && g2 == o) || (g1 == o && g2 == h);
        }
        printf("report: mocap parent filter %s: hand-finger contacts %d, hand-other %d\n",
               off ? "disabled" : "on", hf, ho);
        ck_assert_int_eq(hf > 0, off); /* the finger's capsule reaches 5 cm into the hand */
        ck_assert_int_eq(ho, 0);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mocap");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mocap_pose_follows_data);
    tcase_add_test(tc, test_mocap_pushes);
    tcase_add_test(tc, test_mocap_no_world_contacts);
    tcase_add_test(tc, test_mocap_parent_filter);
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
