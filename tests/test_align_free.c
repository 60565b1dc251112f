/* Free-joint alignment (<freejoint align="true">, <compiler alignfree="true">): the body frame
 * of a free body without children moves onto its inertial frame. Physical facts: the geoms,
 * sites and the centre of mass are where they were, and they move as without the alignment
 * (a body pushed into a tumble in zero gravity, to the integrator's error); only the meaning
 * of qpos changes. Measured
 * figures are printed ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

static cs_model *body(const char *align, const char *compiler)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<mujoco><compiler %s/><option gravity='0 0 0' integrator='RK4' timestep='0.001'/>"
             "<worldbody><body name='b' pos='0.3 -0.2 1' euler='10 20 30'><freejoint %s/>"
             "<geom name='g1' type='capsule' size='0.05' fromto='0 0 0 0.4 0 0'/>"
             "<geom name='g2' type='box' size='0.05 0.1 0.02' pos='0.4 0.1 0' euler='0 0 40'/>"
             "<site name='s' pos='0.1 0.2 0.3'/></body></worldbody>"
             "<keyframe><key qvel='0.1 0 0 1 2 -3'/></keyframe></mujoco>",
             compiler, align);
    return load_xml(xml, "align.xml");
}

START_TEST(test_align_moves_frame_not_physics)
{
    const char *variants[][2] = {{"align='true'", ""}, {"", "alignfree='true'"}};
    cs_model *m0 = body("", "");
    cs_data *d0 = cs_make_data(m0);
    ck_assert(fabs(m0->body_ipos[3]) + fabs(m0->body_ipos[4]) + fabs(m0->body_ipos[5]) > 0.1);
    for (int v = 0; v < 2; v++) {
        cs_model *m = body(variants[v][0], variants[v][1]);
        cs_data *d = cs_make_data(m);
        /* the body frame is the inertial frame */
        for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(m->body_ipos[3 + k], 0, 1e-15);
        ck_assert_double_eq_tol(fabs(m->body_iquat[4]), 1, 1e-15);
        ck_assert_double_eq_tol(m->body_mass[1], m0->body_mass[1], 1e-12);
        /* at rest and after a tumble (the first key's velocities are not used: the bodies'
         * frames differ, so each starts from rest with a push of the same wrench) */
        double err = 0, err0 = 0;
        for (int pass = 0; pass < 2; pass++) {
            int n = pass ? 500 : 0;
            cs_reset(m0, d0);
            cs_reset(m, d);
            for (int i = 0; i < n; i++) {
                /* the same world force and torque at the centre of mass */
                const double w[6] = {0.3, -0.1, 0.2, 0.05, 0.02, -0.04};
                memcpy(d0->xfrc_applied + 6, w, sizeof w);
                memcpy(d->xfrc_applied + 6, w, sizeof w);
                cs_step(m0, d0);
                cs_step(m, d);
            }
            cs_forward(m0, d0);
            cs_forward(m, d);
            for (int g = 0; g < 2; g++)
                for (int k = 0; k < 3; k++) {
                    err = fmax(err, fabs(d->geom_xpose[g].pos[k] - d0->geom_xpose[g].pos[k]));
                    for (int r = 0; r < 3; r++)
                        err = fmax(err, fabs(d->geom_xpose[g].mat[3 * k + r] -
                                             d0->geom_xpose[g].mat[3 * k + r]));
                }
            for (int k = 0; k < 3; k++) {
                err = fmax(err, fabs(d->site_xpos[k] - d0->site_xpos[k]));
                err = fmax(err, fabs(d->xipos[3 + k] - d0->xipos[3 + k]));
                ck_assert_double_eq_tol(d->xpos[3 + k], d->xipos[3 + k], 1e-14);
            }
            if (!pass) err0 = err;
        }
        printf("report: aligned free body (%s%s): geoms, site and centre of mass within %.2g m "
               "of the unaligned body's at rest, %.2g m after 0.5 s\n", variants[v][0],
               variants[v][1], err0, err);
        /* placed exactly; moving, the two frames' coordinates are integrated apart by RK4's
         * own error (h^4: about 1e-9 here) */
        ck_assert(err0 < 1e-14);
        ck_assert(err < 1e-7);
        cs_free_data(d);
        cs_free_model(m);
    }
    cs_free_data(d0);
    cs_free_model(m0);
}
END_TEST

/* align="false" wins over the compiler's alignfree; a body with a child is never aligned */
START_TEST(test_align_exceptions)
{
    cs_model *m = body("align='false'", "alignfree='true'");
    ck_assert(fabs(m->body_ipos[3]) > 0.05);
    cs_free_model(m);
    m = load_xml("<mujoco><compiler alignfree='true'/><worldbody><body><freejoint/>"
                 "<geom size='0.1' pos='0.3 0 0'/><body pos='0 0 0.5'><joint/>"
                 "<geom size='0.1'/></body></body></worldbody></mujoco>", "align2.xml");
    ck_assert(fabs(m->body_ipos[3]) > 0.05);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("align_free");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_align_moves_frame_not_physics);
    tcase_add_test(tc, test_align_exceptions);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
