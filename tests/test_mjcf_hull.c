/* Convex hulls only where MuJoCo 3.12 builds them (user_model.cc, user_mesh.cc): for a mesh a
 * geom can collide with (contype or conaffinity nonzero, or named by a <pair>) or whose
 * inertia is "convex". A flat mesh only visual geoms use loads without one; a flat mesh that
 * would collide is refused at its <mesh> line, as MuJoCo refuses its coplanar hull. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "conesim.h"

/* a square in the plane z = 0 (two triangles), and a tetrahedron */
#define FLAT(inertia)                                                                     \
    "<mesh name='flat' inertia='" inertia "' vertex='0 0 0  1 0 0  1 1 0  0 1 0' "        \
    "face='0 1 2  0 2 3'/>"
#define TET                                                                               \
    "<mesh name='tet' vertex='0 0 0  1 0 0  0 1 0  0 0 1' face='0 2 1  0 1 3  0 3 2  1 2 3'/>"

static char xml[4096];

/* the flat mesh (shell inertia) on geom `flatgeom` (extra attributes), a tetrahedron visual
 * geom, a falling sphere on a floor; `more` inside <mujoco> after the world */
#define SCENE(inertia)                                                                    \
    "<mujoco><asset>" FLAT(inertia) TET "</asset><worldbody>"                             \
    "<geom name='floor' type='plane' size='5 5 .1'/>"                                     \
    "<body name='b' pos='0 0 .5'><freejoint/><geom name='ball' size='.1'/>"               \
    "<geom name='f' type='mesh' mesh='flat' %s/>"                                         \
    "<geom name='t' type='mesh' mesh='tet' contype='0' conaffinity='0'/>"                 \
    "</body></worldbody>%s</mujoco>"
static const char *scene(const char *flatgeom, const char *more)
{
    snprintf(xml, sizeof xml, SCENE("shell"), flatgeom, more);
    return xml;
}

START_TEST(test_flat_visual_loads)
{
    char err[512];
    cs_model *m = cs_load_xml_string(scene("contype='0' conaffinity='0'", ""), "flat.xml", NULL,
                                     err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->nmesh, 2);
    ck_assert_int_eq(m->nmeshgraph, 0); /* neither mesh collides: no hull at all */
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(m->mesh_graphadr[k], -1);
        cs_mesh_hull h;
        ck_assert_int_eq(cs_mesh_hull_get(m, k, &h), 0);
        ck_assert_int_eq(h.nvert, 0);
        ck_assert_ptr_null(h.vert);
    }
    /* the meshes are still drawn from their faces */
    ck_assert_int_eq(m->mesh_facenum[0], 2);
    ck_assert_int_eq(m->mesh_facenum[1], 4);
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    for (int i = 0; i < 300; i++) cs_step(m, d);
    /* the ball rests on the floor: the hull-less geoms took no part */
    ck_assert_double_eq_tol(d->qpos[2], 0.1, 2e-3);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static void refused(const char *x, const char *what)
{
    char err[512];
    cs_model *m = cs_load_xml_string(x, "flat.xml", NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "loaded: %s", what);
    ck_assert_msg(strncmp(err, "flat.xml:1: element <mesh>", 26) == 0, "%s: %s", what, err);
    ck_assert_msg(strstr(err, "coplanar") != NULL, "%s: %s", what, err);
}

START_TEST(test_flat_colliding_refused)
{
    refused(scene("", ""), "default contype and conaffinity");
    refused(scene("contype='0' conaffinity='2'", ""), "conaffinity only");
    refused(scene("contype='0' conaffinity='0'",
                  "<contact><pair geom1='f' geom2='floor'/></contact>"),
            "named by a pair");
}
END_TEST

START_TEST(test_flat_convex_inertia_refused)
{
    /* convex inertia comes from the hull, whoever uses the mesh */
    snprintf(xml, sizeof xml, SCENE("convex"), "contype='0' conaffinity='0'", "");
    refused(xml, "inertia convex");
}
END_TEST

/* a colliding geom's mesh has its hull; so has a mesh without faces, whoever uses it (the
 * hull gives it its faces) */
START_TEST(test_colliding_mesh_has_hull)
{
    char err[512];
    cs_model *m = cs_load_xml_string(
        "<mujoco><asset>" TET "<mesh name='cloud' vertex='0 0 0  1 0 0  0 1 0  0 0 1'/>"
        "</asset><worldbody><body><freejoint/><geom type='mesh' mesh='tet'/>"
        "<geom type='mesh' mesh='cloud' contype='0' conaffinity='0'/></body></worldbody>"
        "</mujoco>",
        "tet.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->mesh_graphadr[0], 0);
    cs_mesh_hull h;
    ck_assert_int_eq(cs_mesh_hull_get(m, 0, &h), 0);
    ck_assert_int_eq(h.nvert, 4);
    ck_assert_int_eq(h.nface, 4);
    ck_assert_int_ge(m->mesh_graphadr[1], 0);
    ck_assert_int_eq(m->mesh_facenum[1], 4);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf-hull");
    TCase *t = tcase_create("hull");
    tcase_add_test(t, test_flat_visual_loads);
    tcase_add_test(t, test_flat_colliding_refused);
    tcase_add_test(t, test_flat_convex_inertia_refused);
    tcase_add_test(t, test_colliding_mesh_has_hull);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? 1 : 0;
}
