/* OBJ faces of any number of vertices, triangulated as MuJoCo 3.12's OBJ reader
 * (tinyobjloader) does: ears cut from the first vertex on, so that a concave face covers its
 * own area once (a fan from a vertex that does not see the whole face would cover some twice
 * and some outside it). */
#include <check.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "conesim.h"

/* the face's mass with shell inertia (density 1000: 1000 x its area) on a visual-only geom */
static cs_model *load_obj(const char *obj, char *path, size_t n)
{
    snprintf(path, n, "/tmp/cs_objpoly_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(obj, f);
    fclose(f);
    char xml[1024], err[512];
    snprintf(xml, sizeof xml,
             "<mujoco><asset><mesh name='p' file='%s' content_type='model/obj' "
             "inertia='shell'/></asset><worldbody><body><freejoint/><geom size='.1'/>"
             "<geom name='face' type='mesh' mesh='p' contype='0' conaffinity='0'/>"
             "</body></worldbody></mujoco>",
             path);
    cs_model *m = cs_load_xml_string(xml, "poly.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

START_TEST(test_concave_face)
{
    /* an L of area 3, listed from a corner that does not see the notch's far side */
    char path[64];
    cs_model *m = load_obj("v 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nv 0 0 0\nv 2 0 0\n"
                           "f 1 2 3 4 5 6\n",
                           path, sizeof path);
    ck_assert_int_eq(m->mesh_facenum[0], 4);
    int g = cs_name2id_geom(m, "face");
    ck_assert_double_eq_tol(m->geom_mass[g], 3000, 1e-9);
    cs_free_model(m);
    unlink(path);
}
END_TEST

START_TEST(test_many_vertices)
{
    /* a regular 1000-gon of radius 1: its face is one line of some 8000 characters */
    static char obj[1 << 17];
    int n = 1000, k = 0;
    for (int i = 0; i < n; i++)
        k += snprintf(obj + k, sizeof obj - k, "v %.17g %.17g 0\n", cos(2 * M_PI * i / n),
                      sin(2 * M_PI * i / n));
    k += snprintf(obj + k, sizeof obj - k, "f");
    for (int i = 0; i < n; i++) k += snprintf(obj + k, sizeof obj - k, " %d/1/1", i + 1);
    snprintf(obj + k, sizeof obj - k, "\n");
    char path[64];
    cs_model *m = load_obj(obj, path, sizeof path);
    ck_assert_int_eq(m->mesh_facenum[0], n - 2);
    double area = 0.5 * n * sin(2 * M_PI / n);
    /* the vertices are read in single precision, as MuJoCo reads them */
    ck_assert_double_eq_tol(m->geom_mass[cs_name2id_geom(m, "face")], 1000 * area, 1e-3);
    cs_free_model(m);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("obj-polygons");
    TCase *t = tcase_create("obj");
    tcase_add_test(t, test_concave_face);
    tcase_add_test(t, test_many_vertices);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? 1 : 0;
}
