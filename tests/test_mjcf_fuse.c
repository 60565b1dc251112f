/* <compiler fusestatic="true"> as MuJoCo 3.12's compiler (user_model.cc FuseStatic,
 * XMLreference "compiler"): bodies without joints go into their parents unless something
 * names them or a force or torque sensor is on one of their sites; their geoms, sites,
 * cameras and lights follow the parent's own with composed frames, their mass and inertia
 * join the parent's (not the world's). */
#include <check.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <string.h>

#include "conesim.h"

static cs_model *load(const char *xml)
{
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "fuse.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* A (free) holds S1 (static, named), a jointed J and S2 (static, unnamed); S1 holds S3
 * (static) and J2 (jointed); W is a static child of the world. */
static const char *TREE =
    "<mujoco><compiler fusestatic='%s'/><worldbody>"
    "<body name='W' pos='0 0 -1'><geom name='w' type='box' size='1 1 .1'/></body>"
    "<body name='A' pos='0 0 1'><freejoint/><geom name='a1' size='.1'/>"
    "  <body name='S1' pos='.3 0 0'><geom name='s1' size='.05'/>"
    "    <body name='J2' pos='0 .2 0'><joint type='hinge'/><geom name='j2' size='.04'/></body>"
    "    <body name='S3' pos='0 0 .1'><geom name='s3' size='.03'/></body>"
    "  </body>"
    "  <body name='J' pos='-.3 0 0'><joint type='hinge'/><geom name='j' size='.05'/></body>"
    "  <body pos='0 -.3 0'><geom name='s2' size='.02'/></body>"
    "  <geom name='a2' type='box' size='.1 .1 .1' pos='0 0 .2'/>"
    "</body></worldbody></mujoco>";

START_TEST(test_bodies_and_geom_order)
{
    char x[2048];
    snprintf(x, sizeof x, TREE, "true");
    cs_model *m = load(x);
    /* world, A, J2, J */
    ck_assert_int_eq(m->nbody, 4);
    ck_assert_int_eq(cs_name2id_body(m, "S1"), -1);
    ck_assert_int_eq(cs_name2id_body(m, "W"), -1);
    int a = cs_name2id_body(m, "A"), j2 = cs_name2id_body(m, "J2"), j = cs_name2id_body(m, "J");
    ck_assert_int_eq(a, 1);
    ck_assert_int_eq(j2, 2);
    ck_assert_int_eq(j, 3);
    ck_assert_int_eq(m->body_parent[j2], a);
    ck_assert_int_eq(m->body_parent[j], a);
    /* J2's frame composed through S1: (.3, .2, 0) in A */
    ck_assert_double_eq_tol(m->body_pos[3 * j2], .3, 1e-15);
    ck_assert_double_eq_tol(m->body_pos[3 * j2 + 1], .2, 1e-15);
    /* the world's own, then A's own, then the fused bodies' in depth-first order */
    const char *order[] = {"w", "a1", "a2", "s1", "s3", "s2", "j2", "j"};
    ck_assert_int_eq(m->ngeom, 8);
    for (int i = 0; i < 8; i++) ck_assert_str_eq(m->geom_name[i], order[i]);
    ck_assert_int_eq(m->geom_body[cs_name2id_geom(m, "w")], 0);
    ck_assert_int_eq(m->geom_body[cs_name2id_geom(m, "s3")], a);
    ck_assert_int_eq(m->body_geomadr[a], 1);
    ck_assert_int_eq(m->body_geomnum[a], 5);
    /* s3 at S1's (.3, 0, 0) plus S3's (0, 0, .1); w at W's (0, 0, -1) in the world */
    const double *p = m->geom_pos + 3 * cs_name2id_geom(m, "s3");
    ck_assert_double_eq_tol(p[0], .3, 1e-15);
    ck_assert_double_eq_tol(p[2], .1, 1e-15);
    ck_assert_double_eq_tol(m->geom_pos[3 * 0 + 2], -1, 1e-15);
    cs_free_model(m);

    /* MuJoCo's default for MJCF: no fusing */
    snprintf(x, sizeof x, TREE, "false");
    m = load(x);
    ck_assert_int_eq(m->nbody, 8);
    cs_free_model(m);
}
END_TEST

/* parent P: a box (mass m1, half sizes a b c) at its origin; fused child at (d, 0, 0): a
 * sphere (mass m2, radius r). The combined inertia about the common centre in closed form. */
START_TEST(test_mass_and_inertia)
{
    const double a = .2, b = .1, c = .05, r = .1, d = .5;
    const double m1 = 1000 * 8 * a * b * c, m2 = 1000 * 4.0 / 3 * M_PI * r * r * r;
    cs_model *m = load(
        "<mujoco><compiler fusestatic='true'/><worldbody>"
        "<body name='P' pos='0 0 1'><freejoint/><geom type='box' size='.2 .1 .05'/>"
        "<body pos='.5 0 0'><geom size='.1'/></body></body></worldbody></mujoco>");
    ck_assert_int_eq(m->nbody, 2);
    double M = m1 + m2, x = m2 * d / M;
    ck_assert_double_eq_tol(m->body_mass[1], M, 1e-12 * M);
    ck_assert_double_eq_tol(m->body_ipos[3], x, 1e-14);
    ck_assert_double_eq_tol(m->body_ipos[4], 0, 1e-14);
    ck_assert_double_eq_tol(m->body_ipos[5], 0, 1e-14);
    double is = 0.4 * m2 * r * r, off = m1 * x * x + m2 * (d - x) * (d - x);
    double want[3] = {m1 / 3 * (b * b + c * c) + is, m1 / 3 * (a * a + c * c) + is + off,
                      m1 / 3 * (a * a + b * b) + is + off};
    /* principal moments in any order: compare sorted */
    double got[3];
    memcpy(got, m->body_inertia + 3, sizeof got);
    for (int i = 0; i < 3; i++)
        for (int k = i + 1; k < 3; k++) {
            if (got[k] < got[i]) { double t = got[i]; got[i] = got[k]; got[k] = t; }
            if (want[k] < want[i]) { double t = want[i]; want[i] = want[k]; want[k] = t; }
        }
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(got[i], want[i], 1e-12 * want[2]);
    cs_free_model(m);
}
END_TEST

/* A's static children, each kept or not; O, a free body the exclude and the weld name, first
 * (%s) or last (%s) */
static const char *REFS =
    "<mujoco><compiler fusestatic='true'/><worldbody>"
    "<camera name='c' mode='targetbody' target='T'/>%s"
    "<body name='A' pos='0 0 1'><freejoint/><geom size='.1'/>"
    "  <body name='S' pos='.1 0 0'/>"
    "  <body name='E' pos='.2 0 0'><geom size='.01'/></body>"
    "  <body name='Q' pos='.3 0 0'/>"
    "  <body name='T' pos='.4 0 0'/>"
    "  <body name='F' pos='.5 0 0'><site name='fs'/></body>"
    "  <body pos='.6 0 0'><site name='us'/></body>"
    "  <body name='G' pos='0 0 .7' euler='0 0 90'><site name='ts' pos='1 0 0'/></body>"
    "  <body name='B' pos='.8 0 0'><geom size='.01'/></body>"
    "  <body name='K1' pos='.9 0 0'/><body name='K2' pos='1 0 0'/>"
    "  <body name='K3' pos='1.1 0 0'><geom name='k3g' size='.01'/></body>"
    "</body>%s"
    "</worldbody>"
    "<contact><exclude body1='E' body2='O'/></contact>"
    "<equality><weld body1='Q' body2='O' active='false'/></equality>"
    "<sensor><framepos objtype='body' objname='S'/><force site='fs'/><force site='us'/>"
    "<touch site='ts'/></sensor>"
    "<custom><tuple name='t'><element objtype='body' objname='K1' prm='0'/>"
    "<element objtype='geom' objname='k3g' prm='0'/></tuple></custom>"
    "<deformable><skin vertex='0 0 0 1 0 0 0 1 0' face='0 1 2'>"
    "<bone body='K2' bindpos='0 0 0' bindquat='1 0 0 0' vertid='0 1 2' vertweight='1 1 1'/>"
    "</skin></deformable></mujoco>";
#define BODY_O "<body name='O' pos='2 0 1'><freejoint/><geom size='.1'/></body>"

/* what keeps a static body: a sensor, an exclude, an equality between bodies, a camera's
 * target, a tuple's body element, a skin's bone, a force sensor on one of its sites (named
 * bodies); a tuple's element of another type does not; an unnamed body with a force
 * sensor's site goes (MuJoCo asks only of named bodies); a site a sensor reads moves. The
 * bodies kept are those MuJoCo 3.12 keeps for this model (read off it). */
START_TEST(test_references_keep)
{
    char x[4096];
    snprintf(x, sizeof x, REFS, BODY_O, "");
    cs_model *m = load(x);
    /* B as well: K2 (the skin's), named and not yet reached, has its old number past the
     * bodies left once the unnamed body and G are fused (below) */
    const char *kept[] = {"A", "S", "E", "Q", "T", "F", "O", "K1", "K2", "B"};
    for (int i = 0; i < 10; i++) ck_assert_int_ge(cs_name2id_body(m, kept[i]), 0);
    ck_assert_int_eq(cs_name2id_body(m, "G"), -1);
    ck_assert_int_eq(cs_name2id_body(m, "K3"), -1);
    ck_assert_int_eq(m->nbody, 11);
    int a = cs_name2id_body(m, "A");
    int us = cs_name2id(m, "site", "us"), ts = cs_name2id(m, "site", "ts");
    ck_assert_int_eq(m->site_bodyid[us], a);
    ck_assert_int_eq(m->site_bodyid[ts], a);
    /* ts: G's position plus its quarter turn about z applied to (1, 0, 0) */
    ck_assert_double_eq_tol(m->site_pos[3 * ts], 0, 1e-15);
    ck_assert_double_eq_tol(m->site_pos[3 * ts + 1], 1, 1e-15);
    ck_assert_double_eq_tol(m->site_pos[3 * ts + 2], .7, 1e-15);
    ck_assert_int_eq(m->cam_targetbodyid[0], cs_name2id_body(m, "T"));
    cs_free_model(m);
}
END_TEST

/* MuJoCo 3.12's compiler looks names up in a table that keeps a body's number from before
 * any fusing until its pass reaches the body: with O last, once the unnamed body is fused O's
 * old number is past the bodies left, every lookup of O fails, and every named body the pass
 * reaches before O is kept (G, B, K3 with the rest); only the unnamed one goes (as MuJoCo
 * 3.12 does with this model) */
START_TEST(test_references_stale_numbers)
{
    char x[4096];
    snprintf(x, sizeof x, REFS, "", BODY_O);
    cs_model *m = load(x);
    ck_assert_int_eq(m->nbody, 13);
    ck_assert_int_ge(cs_name2id_body(m, "G"), 0);
    ck_assert_int_ge(cs_name2id_body(m, "K3"), 0);
    ck_assert_int_eq(m->site_bodyid[cs_name2id(m, "site", "us")], cs_name2id_body(m, "A"));
    cs_free_model(m);
}
END_TEST

/* mocap bodies stay; without contacts (whose regularization follows the geom's body's
 * invweight, as in MuJoCo) the fused model moves as the unfused one: a pendulum whose rod
 * carries a turned static tip; with a wall in the way the tip's geoms collide from the rod's
 * body */
static const char *PEND =
    "<mujoco><compiler fusestatic='%s'/><worldbody>"
    "<body name='m' mocap='true' pos='0 0 3'><geom size='.1' contype='0' conaffinity='0'/></body>"
    "%s"
    "<body name='rod' pos='0 0 2'><joint name='h' type='hinge' axis='0 1 0' damping='.1'/>"
    "  <geom type='capsule' fromto='0 0 0 0 0 -.5' size='.02'/>"
    "  <body pos='0 0 -.5' euler='0 30 0'><geom name='tipbox' type='box' size='.05 .05 .2'/>"
    "    <body pos='0 0 -.2'><geom size='.06'/></body></body>"
    "</body></worldbody></mujoco>";
static const char *WALL = "<geom type='box' pos='.45 0 1' size='.05 .5 .5'/>";

START_TEST(test_same_motion)
{
    char x[2048];
    cs_model *mm[2];
    cs_data *dd[2];
    for (int k = 0; k < 2; k++) {
        snprintf(x, sizeof x, PEND, k ? "true" : "false", "");
        mm[k] = load(x);
        dd[k] = cs_make_data(mm[k]);
        ck_assert_ptr_nonnull(dd[k]);
        dd[k]->qpos[0] = -1.2;
    }
    ck_assert_int_eq(mm[0]->nbody, 5);
    ck_assert_int_eq(mm[1]->nbody, 3);
    ck_assert_int_eq(mm[1]->nmocap, 1);
    for (int i = 0; i < 2000; i++)
        for (int k = 0; k < 2; k++) cs_step(mm[k], dd[k]);
    ck_assert_double_eq_tol(dd[0]->qpos[0], dd[1]->qpos[0], 1e-12);
    ck_assert_double_eq_tol(dd[0]->qvel[0], dd[1]->qvel[0], 1e-11);
    for (int k = 0; k < 2; k++) {
        cs_free_data(dd[k]);
        cs_free_model(mm[k]);
    }

    snprintf(x, sizeof x, PEND, "true", WALL);
    cs_model *m = load(x);
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    d->qpos[0] = -1.2;
    int rod = cs_name2id_body(m, "rod"), hit = 0;
    ck_assert_int_eq(m->geom_body[cs_name2id_geom(m, "tipbox")], rod);
    for (int i = 0; i < 500; i++) {
        cs_step(m, d);
        for (int c = 0; c < d->ncon; c++)
            hit |= m->geom_body[d->contact[c].geom1] == rod ||
                   m->geom_body[d->contact[c].geom2] == rod;
    }
    ck_assert(hit);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf-fuse");
    TCase *t = tcase_create("fuse");
    tcase_add_test(t, test_bodies_and_geom_order);
    tcase_add_test(t, test_mass_and_inertia);
    tcase_add_test(t, test_references_keep);
    tcase_add_test(t, test_references_stale_numbers);
    tcase_add_test(t, test_same_motion);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? 1 : 0;
}
