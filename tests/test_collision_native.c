/* The native convex collider (GJK and EPA as MuJoCo 3.12 runs them) on resting contacts
 * whose answer is known: a capsule lying on a box mesh touches along its whole axis, so the
 * turned-geom search finds both ends of it at one depth; an ellipsoid sunk into a box
 * mesh's face is as deep as it is sunk, to EPA's tolerance; a box mesh standing on an edge
 * on a box gets the two ends of that edge, as deep as the edge is sunk; and with nativeccd
 * disabled (libccd's MPR) the same pairs still meet. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "collision.h"
#include "internal.h"
#include "test_collision_util.h"

typedef struct {
    cs_hull_data d;
    cs_hull h;
} thull;

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

/* rotation about z by yaw, then about the (new) x axis by roll */
static void pose(cs_pose *p, double x, double y, double z, double yaw, double roll)
{
    double c = cos(yaw), s = sin(yaw), cr = cos(roll), sr = sin(roll);
    double m[9] = {c, -s * cr, s * sr, s, c * cr, -c * sr, 0, sr, cr};
    memcpy(p->mat, m, sizeof m);
    p->pos[0] = x;
    p->pos[1] = y;
    p->pos[2] = z;
}

/* a pair with the default options (MuJoCo 3.12's: native collider, multiccd on) */
static int collide(int t1, const double *s1, const cs_hull *h1, const cs_pose *p1, int t2,
                   const double *s2, const cs_hull *h2, const cs_pose *p2, cs_geom_contact *c)
{
    return cs_collide_pair_hull(NULL, t1, s1, h1, p1, t2, s2, h2, p2, 0, c);
}

/* A capsule (radius r, half-length L) lying on a box mesh's top face, its axis level and
 * sunk by h: the first point is as deep as the capsule is sunk, and turning the geoms by a
 * milliradian about the contact's tangents tips the contact to either end of the axis, so
 * the points span the axis's length, all at the first point's depth, normal up. */
START_TEST(capsule_lying_on_mesh)
{
    tc_seed(21);
    const double box[3] = {0.5, 0.4, 0.1};
    thull H;
    box_hull(&H, box);
    for (int trial = 0; trial < 50; trial++) {
        double r = tc_uni(0.02, 0.05), L = tc_uni(0.05, 0.2), h = tc_uni(1e-4, 0.01);
        double cap[3] = {r, L, 0};
        cs_pose a, b;
        pose(&a, 0, 0, 0, 0, 0);
        /* the capsule's axis (local z) laid along a random horizontal direction */
        pose(&b, tc_uni(-0.2, 0.2), tc_uni(-0.15, 0.15), box[2] + r - h, tc_uni(-3, 3),
             0.5 * TC_PI);
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = collide(CS_GEOM_CAPSULE, cap, NULL, &b, CS_GEOM_MESH, box, &H.h, &a, c);
        ck_assert_msg(n >= 2 && n <= 5, "trial %d: %d points", trial, n);
        double span = 0;
        for (int i = 0; i < n; i++) {
            /* the capsule's core is a segment: its distance to the face is exact */
            ck_assert_msg(fabs(c[i].dist + h) < 1e-9, "trial %d: depth %.12g vs %.12g", trial,
                          c[i].dist, -h);
            /* geom1 is the capsule: the normal points from it down into the mesh */
            ck_assert(fabs(c[i].frame[2] + 1) < 1e-6);
            for (int j = 0; j < i; j++) {
                double d[3] = {c[i].pos[0] - c[j].pos[0], c[i].pos[1] - c[j].pos[1],
                               c[i].pos[2] - c[j].pos[2]};
                span = fmax(span, sqrt(cs_dot3(d, d)));
            }
        }
        /* each end is found with the geoms turned by 1e-3 rad about the first point, at most
         * 2L from it: each moves by at most 2e-3 L */
        ck_assert_msg(fabs(span - 2 * L) < 4e-3 * L, "trial %d: points span %g of %g", trial,
                      span, 2 * L);
    }
    cs_hull_data_free(&H.d);
}
END_TEST

/* An ellipsoid sunk by h into a box mesh's top face, its axes turned about z only (so the
 * lowest point is on the vertical through its centre): one point, as deep as it is sunk to
 * EPA's tolerance (its depth never exceeds the true one), normal the face's. */
START_TEST(ellipsoid_sunk_into_mesh)
{
    tc_seed(22);
    const double box[3] = {0.5, 0.4, 0.1};
    thull H;
    box_hull(&H, box);
    cs_collision_options o;
    cs_collision_options_default(&o);
    for (int trial = 0; trial < 100; trial++) {
        double e[3] = {tc_uni(0.03, 0.1), tc_uni(0.03, 0.1), tc_uni(0.03, 0.1)};
        double h = tc_uni(1e-4, 0.01);
        cs_pose a, b;
        pose(&a, 0, 0, 0, 0, 0);
        pose(&b, tc_uni(-0.2, 0.2), tc_uni(-0.15, 0.15), box[2] + e[2] - h, tc_uni(-3, 3), 0);
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = collide(CS_GEOM_ELLIPSOID, e, NULL, &b, CS_GEOM_MESH, box, &H.h, &a, c);
        ck_assert_msg(n == 1, "trial %d: %d points", trial, n);
        ck_assert_msg(c[0].dist >= -h - 1e-12 && c[0].dist < -h + o.ccd_tolerance,
                      "trial %d: depth %.12g vs %.12g", trial, c[0].dist, -h);
        ck_assert(c[0].frame[2] < -1 + 1e-3);
    }
    cs_hull_data_free(&H.d);
}
END_TEST

/* A box mesh balanced on one of its edges on a box's top face (turned about that edge by
 * 45 degrees, sunk by h): the edge lies along the face, so its two ends are the points,
 * each as deep as the edge is sunk, normal the face's. */
START_TEST(mesh_edge_on_box_face)
{
    tc_seed(23);
    const double big[3] = {0.5, 0.5, 0.1}, s[3] = {0.05, 0.05, 0.05};
    thull H;
    box_hull(&H, s);
    for (int trial = 0; trial < 50; trial++) {
        double h = tc_uni(1e-5, 0.005), yaw = tc_uni(-3, 3);
        double x = tc_uni(-0.2, 0.2), y = tc_uni(-0.2, 0.2);
        cs_pose a, b;
        pose(&a, 0, 0, 0, 0, 0);
        /* rolled 45 degrees about its x axis: the lowest edge (along local x) sits at the
         * centre's height less half the face diagonal */
        pose(&b, x, y, big[2] + s[1] * sqrt(2.0) - h, yaw, 0.25 * TC_PI);
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = collide(CS_GEOM_BOX, big, NULL, &a, CS_GEOM_MESH, s, &H.h, &b, c);
        ck_assert_msg(n == 2, "trial %d: %d points", trial, n);
        double d[3];
        for (int i = 0; i < 3; i++)
            d[i] = c[1].pos[i] - c[0].pos[i];
        ck_assert_msg(fabs(sqrt(cs_dot3(d, d)) - 2 * s[0]) < 1e-9, "trial %d: ends %g apart",
                      trial, sqrt(cs_dot3(d, d)));
        for (int q = 0; q < 2; q++) {
            ck_assert_msg(fabs(c[q].dist + h) < 1e-9, "trial %d: depth %.12g vs %.12g", trial,
                          c[q].dist, -h);
            ck_assert(fabs(c[q].frame[2] - 1) < 1e-9);
            ck_assert(fabs(c[q].pos[2] - (big[2] - 0.5 * h)) < 1e-9);
        }
    }
    cs_hull_data_free(&H.d);
}
END_TEST

/* nativeccd disabled: libccd's MPR meets the same sunk ellipsoid, within its tolerance */
START_TEST(mpr_path_still_meets)
{
    const double box[3] = {0.5, 0.4, 0.1}, e[3] = {0.05, 0.04, 0.03};
    thull H;
    box_hull(&H, box);
    cs_collision_options o;
    cs_collision_options_default(&o);
    o.ccd_mpr = 1;
    cs_pose a, b;
    pose(&a, 0, 0, 0, 0, 0);
    pose(&b, 0.1, 0.05, box[2] + e[2] - 0.004, 0.3, 0);
    int hint = -1;
    cs_shape A = {CS_GEOM_ELLIPSOID, e, b.pos, b.mat, NULL, NULL, NULL, 0};
    cs_shape B = {CS_GEOM_MESH, box, a.pos, a.mat, &H.h, &hint, NULL, 0};
    cs_geom_contact c[CS_MAXCONPAIR];
    int n = cs_convex_ccd(&o, &A, &B, 0, c);
    ck_assert_int_ge(n, 1);
    ck_assert(fabs(c[0].dist + 0.004) < o.ccd_tolerance);
    cs_hull_data_free(&H.d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collision-native");
    TCase *tc = tcase_create("native");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, capsule_lying_on_mesh);
    tcase_add_test(tc, ellipsoid_sunk_into_mesh);
    tcase_add_test(tc, mesh_edge_on_box_face);
    tcase_add_test(tc, mpr_path_still_meets);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
