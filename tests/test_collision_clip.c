/* Multi-point contacts of boxes and meshes as MuJoCo 3.12's native CCD makes them: facing
 * faces clipped against each other (at most 4 points, each as deep as its height under the
 * other face), nothing for surfaces that only touch, one depth for all with a margin, and
 * a stack of mesh cubes placed face to face that keeps its contacts and comes to rest. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collision.h"
#include "conesim.h"
#include "test_collision_util.h"

typedef struct {
    cs_hull_data d;
    cs_hull h;
} thull;

/* a box of half-sizes s as a hull */
static void box_hull(thull *t, const double s[3])
{
    double p[24];
    for (int k = 0; k < 8; k++) {
        p[3 * k] = (k & 1) ? s[0] : -s[0];
        p[3 * k + 1] = (k & 2) ? s[1] : -s[1];
        p[3 * k + 2] = (k & 4) ? s[2] : -s[2];
    }
    char err[200];
    ck_assert_int_eq(cs_hull_build(p, 8, -1, &t->d, err, sizeof err), 0);
    cs_hull_view(&t->h, t->d.graph, t->d.data);
}

static void yaw_pose(cs_pose *p, double x, double y, double z, double yaw)
{
    double c = cos(yaw), s = sin(yaw);
    double m[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
    memcpy(p->mat, m, sizeof m);
    p->pos[0] = x;
    p->pos[1] = y;
    p->pos[2] = z;
}

/* A box mesh resting face down on a larger box's top face, turned about z and shifted so
 * its bottom overhangs the top face or not, sunk by h: the overlap of the two squares is a
 * convex polygon; every point lies on it (its corners when it has at most 4), h deep, with
 * the normal +z. The overlap of an axis-aligned pair is a rectangle: exactly its 4 corners. */
START_TEST(box_on_boxmesh_face_down)
{
    tc_seed(5);
    const double big[3] = {0.5, 0.4, 0.1}, small[3] = {0.2, 0.2, 0.1};
    thull H;
    box_hull(&H, small);
    int rect = 0;
    for (int trial = 0; trial < 400; trial++) {
        int aligned = trial % 2 == 0;
        double yaw = aligned ? 0 : tc_uni(-0.7, 0.7);
        double x = tc_uni(-0.6, 0.6), y = tc_uni(-0.5, 0.5), h = tc_uni(1e-5, 0.01);
        cs_pose a, b;
        yaw_pose(&a, 0, 0, 0, 0);
        yaw_pose(&b, x, y, big[2] + small[2] - h, yaw);
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = cs_collide_pair_hull(NULL, CS_GEOM_BOX, big, NULL, &a, CS_GEOM_MESH, small,
                                     &H.h, &b, 0, c);
        /* no overlap of the squares' footprints (a corner of the small one may still be
         * over the big one: skip the trials that are not clearly in or out) */
        double lo[2] = {x - 0.3, y - 0.3}, hi[2] = {x + 0.3, y + 0.3};
        if (aligned) {
            double ox0 = fmax(lo[0] + 0.1, -big[0]), ox1 = fmin(hi[0] - 0.1, big[0]);
            double oy0 = fmax(lo[1] + 0.1, -big[1]), oy1 = fmin(hi[1] - 0.1, big[1]);
            if (!(ox1 - ox0 > 1e-3 && oy1 - oy0 > 1e-3)) {
                /* a contact only where the footprints overlap */
                ck_assert_msg(n == 0 || (ox1 > ox0 - 1e-9 && oy1 > oy0 - 1e-9),
                              "trial %d: %d contacts without overlap", trial, n);
                continue;
            }
            ck_assert_msg(n == 4, "trial %d: %d contacts for a rectangle of overlap", trial, n);
            double cx[2] = {ox0, ox1}, cy[2] = {oy0, oy1};
            for (int k = 0; k < 4; k++) {
                int found = 0;
                for (int q = 0; q < 4 && !found; q++)
                    found = fabs(c[q].pos[0] - cx[k & 1]) < 1e-9 &&
                            fabs(c[q].pos[1] - cy[k >> 1]) < 1e-9;
                ck_assert_msg(found, "trial %d: corner (%g, %g) of the overlap not a contact",
                              trial, cx[k & 1], cy[k >> 1]);
            }
            rect++;
        }
        for (int q = 0; q < n; q++) {
            ck_assert_msg(fabs(c[q].dist + h) < 1e-9, "trial %d: depth %.12g vs %.12g", trial,
                          c[q].dist, -h);
            ck_assert(fabs(c[q].frame[2] - 1) < 1e-12);
            ck_assert(fabs(c[q].pos[2] - (big[2] - 0.5 * h)) < 1e-9);
            ck_assert(fabs(c[q].pos[0]) <= big[0] + 1e-9 && fabs(c[q].pos[1]) <= big[1] + 1e-9);
        }
        ck_assert_int_le(n, 4);
    }
    ck_assert_int_gt(rect, 100);
    cs_hull_data_free(&H.d);
}
END_TEST

/* Two box meshes side by side, their faces touching exactly: no contact (MuJoCo's native
 * CCD reports overlaps only); sunk into each other by 1e-6: four. */
START_TEST(touching_faces_no_contact)
{
    const double s[3] = {0.05, 0.05, 0.05};
    thull H;
    box_hull(&H, s);
    cs_pose a, b;
    yaw_pose(&a, 0, 0, 0, 0);
    yaw_pose(&b, 0.1, 0, 0, 0);
    cs_geom_contact c[CS_MAXCONPAIR];
    ck_assert_int_eq(cs_collide_pair_hull(NULL, CS_GEOM_MESH, s, &H.h, &a, CS_GEOM_MESH, s,
                                          &H.h, &b, 0, c),
                     0);
    b.pos[0] = 0.1 - 1e-6;
    int n = cs_collide_pair_hull(NULL, CS_GEOM_MESH, s, &H.h, &a, CS_GEOM_MESH, s, &H.h, &b, 0,
                                 c);
    ck_assert_int_eq(n, 4);
    for (int q = 0; q < n; q++) {
        ck_assert(fabs(c[q].dist + 1e-6) < 1e-12);
        ck_assert(fabs(c[q].frame[0] - 1) < 1e-12);
        ck_assert(fabs(fabs(c[q].pos[1]) - 0.05) < 1e-12 && fabs(fabs(c[q].pos[2]) - 0.05) < 1e-12);
    }
    cs_hull_data_free(&H.d);
}
END_TEST

/* With a margin, MuJoCo finds the first point and then others by turning the geoms about
 * it: all carry the first point's depth, and they lie on the bottom face. */
START_TEST(margin_points_share_depth)
{
    const double big[3] = {0.5, 0.5, 0.1}, s[3] = {0.1, 0.1, 0.1};
    thull H;
    box_hull(&H, s);
    cs_pose a, b;
    yaw_pose(&a, 0, 0, 0, 0);
    yaw_pose(&b, 0.05, -0.02, big[2] + s[2] + 0.003, 0.3);
    cs_geom_contact c[CS_MAXCONPAIR];
    int n = cs_collide_pair_hull(NULL, CS_GEOM_BOX, big, NULL, &a, CS_GEOM_MESH, s, &H.h, &b,
                                 0.01, c);
    ck_assert_int_ge(n, 2);
    ck_assert_int_le(n, 5);
    /* the shapes grown by half the margin are smooth: EPA stops within its tolerance */
    cs_collision_options o;
    cs_collision_options_default(&o);
    for (int q = 0; q < n; q++) {
        ck_assert(fabs(c[q].dist - 0.003) < o.ccd_tolerance);
        ck_assert(fabs(c[q].frame[2] - 1) < 1e-6);
    }
    /* beyond the margin: nothing */
    b.pos[2] = big[2] + s[2] + 0.011;
    ck_assert_int_eq(cs_collide_pair_hull(NULL, CS_GEOM_BOX, big, NULL, &a, CS_GEOM_MESH, s,
                                          &H.h, &b, 0.01, c),
                     0);
    cs_hull_data_free(&H.d);
}
END_TEST

/* Nine mesh cubes in a 3 x 3 block placed face to face on a floor, a tenth on top: under
 * gravity every cube keeps its floor (or cube) contacts, nothing diverges, and after 3 s
 * the block is at rest at its stacked heights. */
static const char *stack_xml =
    "<mujoco><option timestep='0.005'/>"
    "<asset><mesh name='c' vertex='-1 -1 -1 1 -1 -1 1 1 -1 1 1 1 1 -1 1 -1 1 -1 -1 1 1 -1 -1 1'"
    " scale='.05 .05 .05'/></asset>"
    "<worldbody><geom type='box' size='1 1 .1' pos='0 0 -.1'/>"
    "%s</worldbody></mujoco>";

START_TEST(mesh_cube_block_rests)
{
    char bodies[4096] = "", xml[8192];
    size_t len = 0;
    for (int i = 0; i < 10; i++) {
        double x = i < 9 ? 0.1 * (i % 3 - 1) : 0, y = i < 9 ? 0.1 * (i / 3 - 1) : 0;
        double z = i < 9 ? 0.05 : 0.15;
        len += (size_t)snprintf(bodies + len, sizeof bodies - len,
                                "<body pos='%g %g %g'><freejoint/><geom type='mesh' mesh='c'/>"
                                "</body>",
                                x, y, z);
    }
    snprintf(xml, sizeof xml, stack_xml, bodies);
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, "block.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    int minfloor = 1 << 30;
    for (int k = 0; k < 600; k++) {
        cs_step(m, d);
        ck_assert_msg(cs_check_finite(m, d) < 0, "diverged at t = %g", d->time);
        /* the floor holds each of the nine bottom cubes at 4 points, the top cube sits on
         * the middle one at 4 */
        int floor = 0, top = 0;
        for (int q = 0; q < d->ncon; q++) {
            int g1 = d->contact[q].geom1, g2 = d->contact[q].geom2;
            floor += g1 == 0 || g2 == 0;
            top += (g1 == 5 && g2 == 10) || (g1 == 10 && g2 == 5);
        }
        if (k > 0) {
            minfloor = floor < minfloor ? floor : minfloor;
            ck_assert_msg(top == 4, "step %d: the top cube has %d contacts", k, top);
        }
    }
    ck_assert_int_eq(minfloor, 36);
    for (int i = 0; i < 10; i++) {
        double z = d->qpos[7 * i + 2], want = i < 9 ? 0.05 : 0.15;
        ck_assert_msg(fabs(z - want) < 2e-3, "cube %d at height %g, not %g", i, z, want);
        for (int k = 0; k < 6; k++)
            ck_assert_msg(fabs(d->qvel[6 * i + k]) < 1e-2, "cube %d still moving", i);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collision-clip");
    TCase *tc = tcase_create("clip");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, box_on_boxmesh_face_down);
    tcase_add_test(tc, touching_faces_no_contact);
    tcase_add_test(tc, margin_points_share_depth);
    tcase_add_test(tc, mesh_cube_block_rests);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
