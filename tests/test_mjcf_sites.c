/* Site poses as MuJoCo 3.12 resolves them: fromto (the middle, z from the second end to the
 * first; capsule, cylinder, box or ellipsoid sites only, no position besides), and a default
 * class's pos and orientation, where an alternative form (euler, axisangle, ...) of the class
 * or its parents wins over any quat, the site's own included (values read off MuJoCo 3.12). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

static const char *XML =
    "<mujoco><default><site pos='0 0 .1' euler='0 90 0'/>"
    "<default class='up'><site pos='0 .2 0' type='capsule'/></default>"
    "<default class='q'><site quat='0 0 1 0'/></default></default>"
    "<worldbody><body pos='0 0 1'><freejoint/><geom size='.1'/>"
    "<site name='s1'/><site name='s2' class='up'/><site name='s3' class='up' quat='0 1 0 0'/>"
    "<site name='s4' pos='1 2 3'/><site name='s5' class='q'/>"
    "<site name='s6' class='q' quat='0 1 0 0'/><site name='s7' class='q' euler='90 0 0'/>"
    "<site name='s8' class='up' axisangle='0 0 1 90'/>"
    "<site name='s9' type='cylinder' fromto='0 0 0 0.2 0 0' pos='0 0 0' size='.01'/>"
    "</body></worldbody></mujoco>";

START_TEST(test_site_poses)
{
    char err[512];
    cs_model *m = cs_load_xml_string(XML, "sites.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->nsite, 9);
    const double h = sqrt(0.5);
    const double pos[9][3] = {{0, 0, .1}, {0, .2, 0}, {0, .2, 0}, {1, 2, 3}, {0, 0, .1},
                              {0, 0, .1}, {0, 0, .1}, {0, .2, 0}, {.1, 0, 0}};
    const double quat[9][4] = {{h, 0, h, 0}, {h, 0, h, 0}, {h, 0, h, 0}, {h, 0, h, 0},
                               {h, 0, h, 0}, {h, 0, h, 0}, {h, h, 0, 0}, {h, 0, 0, h},
                               {h, 0, -h, 0}};
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 4; k++) {
            if (k < 3) ck_assert_double_eq_tol(m->site_pos[3 * i + k], pos[i][k], 1e-15);
            ck_assert_double_eq_tol(m->site_quat[4 * i + k], quat[i][k], 1e-15);
        }
    cs_free_model(m);
}
END_TEST

static void refused(const char *xml, const char *want)
{
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "sites.xml", NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "loaded: %s", xml);
    ck_assert_msg(strstr(err, want) != NULL, "error '%s' lacks '%s'", err, want);
}

START_TEST(test_site_fromto_refused)
{
    /* a sphere site (the default type) has no axis */
    refused("<mujoco><worldbody><site fromto='0 0 0 1 0 0'/></worldbody></mujoco>",
            "sites.xml:1: element <site> attribute 'fromto': fromto requires");
    /* a class's position counts as given */
    refused("<mujoco><default><site pos='0 0 1' type='box'/></default><worldbody>"
            "<site fromto='0 0 0 1 0 0'/></worldbody></mujoco>", "both pos and fromto");
    refused("<mujoco><worldbody><site type='box' fromto='1 0 0 1 0 0'/></worldbody></mujoco>",
            "coincide");
    refused("<mujoco><default><site type='box' fromto='0 0 0 1 0 0'/></default></mujoco>",
            "default class");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf_sites");
    TCase *t = tcase_create("sites");
    tcase_set_timeout(t, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(t, test_site_poses);
    tcase_add_test(t, test_site_fromto_refused);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
