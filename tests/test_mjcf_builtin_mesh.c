/* <mesh builtin>: the generated meshes against the solids they approximate. A polyhedron whose
 * vertices lie on a sphere holds the ball of its faces' smallest distance r_in and is held by
 * the ball it is inscribed in: its volume and moments lie between the two balls' (the
 * tessellation bound); cones and frusta of a regular polygon are exact; a supertorus of
 * exponents 1 is a torus, a supersphere of exponents 1 a sphere. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static cs_model *one(const char *mesh)
{
    char xml[1024], err[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><asset><mesh name='m' %s/></asset><worldbody><body><freejoint/>"
             "<geom type='mesh' mesh='m' density='1'/></body></worldbody></mujoco>",
             mesh);
    cs_model *m = cs_load_xml_string(xml, "builtin.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* the smallest distance from the centre c (mesh frame) to a face plane */
static double inradius(const cs_model *m, const double c[3])
{
    const double *v = m->mesh_vert + 3 * m->mesh_vertadr[0];
    const int *f = m->mesh_face + 3 * m->mesh_faceadr[0];
    double r = HUGE_VAL;
    for (int i = 0; i < m->mesh_facenum[0]; i++) {
        const double *a = v + 3 * f[3 * i], *b = v + 3 * f[3 * i + 1], *d = v + 3 * f[3 * i + 2];
        double e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = b[k] - a[k];
            e2[k] = d[k] - a[k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l < 1e-12) continue;
        double dist = fabs(n[0] * (a[0] - c[0]) + n[1] * (a[1] - c[1]) + n[2] * (a[2] - c[2])) / l;
        r = fmin(r, dist);
    }
    return r;
}

START_TEST(sphere_within_tessellation_bound)
{
    double last = 0;
    for (int k = 0; k <= 4; k++) {
        char spec[64];
        snprintf(spec, sizeof spec, "builtin='sphere' params='%d'", k);
        cs_model *m = one(spec);
        /* the icosahedron subdivided: 10 4^k + 2 vertices, 20 4^k triangles */
        ck_assert_int_eq(m->mesh_vertnum[0], 10 * (1 << 2 * k) + 2);
        ck_assert_int_eq(m->mesh_facenum[0], 20 * (1 << 2 * k));
        double c[3] = {0, 0, 0}, r = inradius(m, c), V = m->body_mass[1];
        ck_assert_double_ge(V, 4.0 / 3 * M_PI * r * r * r);
        ck_assert_double_le(V, 4.0 / 3 * M_PI * (1 + 1e-6));
        ck_assert_double_gt(V, last); /* finer is closer */
        last = V;
        for (int j = 0; j < 3; j++) {
            double I = m->body_inertia[3 + j];
            ck_assert_double_ge(I, 0.4 * V * r * r * (1 - 1e-9));
            ck_assert_double_le(I, 0.4 * V * (1 + 1e-6));
            ck_assert_double_eq_tol(I, m->body_inertia[3], 1e-6 * I); /* its symmetry */
        }
        cs_free_model(m);
    }
    ck_assert_double_gt(last, 0.99 * 4.0 / 3 * M_PI);
}
END_TEST

START_TEST(scaled_sphere_is_an_ellipsoid)
{
    cs_model *m = one("builtin='sphere' params='3' scale='.3 .2 .1'");
    double V = m->body_mass[1], full = 4.0 / 3 * M_PI * .3 * .2 * .1;
    ck_assert_double_le(V, full);
    ck_assert_double_ge(V, 0.99 * full);
    /* principal moments of a solid ellipsoid: m (b^2 + c^2) / 5, ... (ascending) */
    const double want[3] = {V * (.3 * .3 + .2 * .2) / 5, V * (.3 * .3 + .1 * .1) / 5,
                            V * (.2 * .2 + .1 * .1) / 5};
    double got[3] = {m->body_inertia[3], m->body_inertia[4], m->body_inertia[5]};
    for (int j = 0; j < 3; j++) {
        int hit = 0;
        for (int i = 0; i < 3; i++) hit |= fabs(got[i] - want[j]) < 0.02 * want[j];
        ck_assert_msg(hit, "moment %g not found", want[j]);
    }
    cs_free_model(m);
}
END_TEST

START_TEST(hemisphere_within_bound)
{
    double lastz = 0;
    for (int k = 0; k <= 10; k += 2) {
        char spec[64];
        snprintf(spec, sizeof spec, "builtin='hemisphere' params='%d'", k);
        cs_model *m = one(spec);
        ck_assert_int_eq(m->mesh_vertnum[0], 2 + 2 * (k + 1) * (k + 2));
        /* the centre of the ball: the flat face's, below the centre of mass by ipos z */
        double z = m->body_ipos[5], c[3] = {0, 0, -z};
        double r = inradius(m, c), V = m->body_mass[1];
        ck_assert_double_ge(V, 2.0 / 3 * M_PI * r * r * r);
        ck_assert_double_le(V, 2.0 / 3 * M_PI * (1 + 1e-6));
        /* the centre of mass approaches the solid's, 3/8 of the radius above the face */
        ck_assert_double_gt(z, lastz);
        ck_assert_double_lt(z, 0.375);
        lastz = z;
        cs_free_model(m);
    }
    ck_assert_double_gt(lastz, 0.37);
}
END_TEST

/* a pyramid (radius 0) or frustum of a regular n-gon of circumradius 1, height 2: exact */
START_TEST(cones_are_exact)
{
    const int n[] = {3, 5, 7, 12};
    const double rad[] = {0, 0.5, 1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
            char spec[64];
            snprintf(spec, sizeof spec, "builtin='cone' params='%d %g'", n[i], rad[j]);
            cs_model *m = one(spec);
            double A = 0.5 * n[i] * sin(2 * M_PI / n[i]), r = rad[j];
            double V = 2.0 / 3 * A * (1 + r + r * r);
            ck_assert_double_eq_tol(m->body_mass[1], V, 1e-6 * V);
            ck_assert_int_eq(m->mesh_vertnum[0], n[i] + (r > 0 ? n[i] : 1));
            cs_free_model(m);
        }
}
END_TEST

START_TEST(superquadrics_of_exponent_one)
{
    /* a supersphere of exponents 1 is a sphere (vertices on it, faces inside) */
    cs_model *m = one("builtin='supersphere' params='40 1 1'");
    double c[3] = {0, 0, 0}, r = inradius(m, c), V = m->body_mass[1];
    ck_assert_int_eq(m->mesh_vertnum[0], 39 * 40 + 2);
    ck_assert_double_ge(V, 4.0 / 3 * M_PI * r * r * r);
    ck_assert_double_le(V, 4.0 / 3 * M_PI * (1 + 1e-6));
    cs_free_model(m);
    /* a supertorus of exponents 1: a torus of radii 1 and a, volume 2 pi^2 a^2, the error of
     * its tessellation falling as the square of the resolution (inertia="exact": the legacy
     * rule, MuJoCo's default, counts the hole's tetrahedra as solid) */
    double err[2];
    const int res[2] = {20, 40};
    for (int i = 0; i < 2; i++) {
        char spec[80];
        snprintf(spec, sizeof spec, "builtin='supertorus' params='%d .3 1 1' inertia='exact'",
                 res[i]);
        m = one(spec);
        ck_assert_int_eq(m->mesh_vertnum[0], res[i] * res[i]);
        double want = 2 * M_PI * M_PI * .3 * .3;
        err[i] = fabs(m->body_mass[1] - want) / want;
        cs_free_model(m);
    }
    ck_assert_double_lt(err[1], 0.01);
    ck_assert_double_lt(err[1], 0.3 * err[0]);
}
END_TEST

/* maxhullvert bounds the hull, and inertia="convex" weighs the hull, not the mesh */
START_TEST(hull_limit_and_convex_inertia)
{
    cs_model *a = one("builtin='sphere' params='2'");
    cs_model *b = one("builtin='sphere' params='2' maxhullvert='20' inertia='convex'");
    ck_assert_int_le(b->mesh_graph[b->mesh_graphadr[0]], 20);
    ck_assert_int_eq(a->mesh_graph[a->mesh_graphadr[0]], a->mesh_vertnum[0]);
    ck_assert_double_lt(b->body_mass[1], a->body_mass[1]);
    cs_free_model(a);
    cs_free_model(b);
}
END_TEST

/* a wedge is points on the unit sphere (its hull is the mesh) */
START_TEST(wedge_points)
{
    cs_model *m = one("builtin='wedge' params='10 6 90 45 0' scale='1 1 1'");
    ck_assert_int_eq(m->mesh_vertnum[0], 60);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf_builtin_mesh");
    TCase *t = tcase_create("builtin");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, sphere_within_tessellation_bound);
    tcase_add_test(t, scaled_sphere_is_an_ellipsoid);
    tcase_add_test(t, hemisphere_within_bound);
    tcase_add_test(t, cones_are_exact);
    tcase_add_test(t, superquadrics_of_exponent_one);
    tcase_add_test(t, hull_limit_and_convex_inertia);
    tcase_add_test(t, wedge_points);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
