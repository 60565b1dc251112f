/* Inverse dynamics (cs_inverse), the step's derivatives by finite differences
 * (cs_transition_fd) and the frame Jacobians, against closed forms and the forward: a
 * damped spring driven by a motor and a filtered actuator, a ball at rest on a plane. The
 * implicit integrator's velocity derivative of the smooth forces against central
 * differences of qfrc_smooth. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "stages.h"

static cs_model *from(const char *xml)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, "<test>", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* m = 2 kg on a slide, spring k = 4, damper b = 0.5, a motor (gear 1) and a filter actuator
 * (tau 0.2, gain 3), Euler with implicit damping, h = 0.01 */
static const char *SPRING =
    "<mujoco><option timestep=\"0.01\" gravity=\"0 0 0\"/><worldbody><body>"
    "<joint name=\"s\" type=\"slide\" axis=\"1 0 0\" stiffness=\"4\" damping=\"0.5\"/>"
    "<geom size=\"0.1\" mass=\"2\"/></body></worldbody><actuator><motor joint=\"s\"/>"
    "<general joint=\"s\" dyntype=\"filter\" dynprm=\"0.2\" gainprm=\"3\"/></actuator>"
    "</mujoco>";

START_TEST(test_transition_fd_closed_form)
{
    cs_model *m = from(SPRING);
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.1;
    d->qvel[0] = 0.2;
    d->act[0] = 0.3;
    d->ctrl[0] = 0.5;
    d->ctrl[1] = 0.7;
    double A[9], B[6];
    ck_assert_int_eq(cs_transition_fd(m, d, 1e-6, _i, A, B), 0);
    /* v' = v + h (-k q - b v' ... ) : (m + h b) v' = m v + h (-k q + g act + u) */
    double h = 0.01, k = 4, b = 0.5, mass = 2, g = 3, tau = 0.2, den = mass + h * b;
    double dvq = -h * k / den, dvv = mass / den, dva = h * g / den;
    double A_[9] = {1 + h * dvq, h * dvv, h * dva, dvq, dvv, dva, 0, 0, 1 - h / tau};
    double B_[6] = {h * h / den, 0, h / den, 0, 0, h / tau};
    for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(A[i], A_[i], 1e-8);
    for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(B[i], B_[i], 1e-8);
    ck_assert(d->qpos[0] == 0.1 && d->qvel[0] == 0.2 && d->act[0] == 0.3 && d->time == 0);
    ck_assert_int_eq(cs_transition_fd(m, d, 0, 0, A, B), -1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_inverse_recovers_applied_forces)
{
    cs_model *m = from(SPRING);
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.1;
    d->qvel[0] = -0.4;
    d->act[0] = 0.3;
    d->ctrl[0] = 0.5;
    d->qfrc_applied[0] = 1.25;
    cs_forward(m, d);
    char err[256];
    ck_assert_int_eq(cs_inverse(m, d, err, sizeof err), 0);
    /* the motor 0.5 and the filter's 3 x act 0.9 */
    ck_assert_double_eq_tol(d->qfrc_inverse[0], 1.25 + 0.5 + 0.9, 1e-10);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_inverse_contact_forces_are_the_forwards)
{
    cs_model *m = from("<mujoco><option solver=\"Newton\" cone=\"elliptic\"/><worldbody>"
                       "<geom type=\"plane\" size=\"1 1 0.1\"/><body pos=\"0 0 0.1\">"
                       "<freejoint/><geom type=\"sphere\" size=\"0.1\" mass=\"2\"/></body>"
                       "</worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    for (int i = 0; i < 300; i++) cs_step(m, d);
    cs_forward(m, d);
    ck_assert_int_eq(d->ncon, 1);
    double f[6], g[6];
    cs_contact_force(m, d, 0, f);
    ck_assert_double_eq_tol(f[0], 2 * 9.81, 1e-6); /* at rest: the weight */
    char err[256];
    ck_assert_int_eq(cs_inverse(m, d, err, sizeof err), 0);
    cs_contact_force(m, d, 0, g);
    for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(g[i], f[i], 1e-10);
    for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(d->qfrc_inverse[i], 0, 1e-8);
    cs_model *c = from("<mujoco><worldbody><body>"
                       "<freejoint/><geom size=\"0.1\"/></body></worldbody></mujoco>");
    ck_assert_int_eq(cs_option_set(&c->opt, "contact", "coulomb", err, sizeof err), 0);
    cs_data *e = cs_make_data(c);
    ck_assert_int_eq(cs_inverse(c, e, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "Coulomb") != NULL, "%s", err);
    cs_free_data(e);
    cs_free_model(c);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_site_jacobian)
{
    cs_model *m = from("<mujoco><worldbody><body pos=\"0 0 1\"><joint type=\"hinge\" "
                       "axis=\"0 1 0\"/><geom size=\"0.1\"/><site pos=\"0.5 0 0\"/></body>"
                       "</worldbody></mujoco>");
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.3;
    cs_forward(m, d);
    double jp[3], jr[3];
    cs_jac_site(m, d, 0, jp, jr);
    /* about +y: the site at r = 0.5 (cos q, 0, -sin q) moves at y x r */
    ck_assert_double_eq_tol(jp[0], -0.5 * sin(0.3), 1e-12);
    ck_assert_double_eq_tol(jp[1], 0, 1e-12);
    ck_assert_double_eq_tol(jp[2], -0.5 * cos(0.3), 1e-12);
    ck_assert(jr[0] == 0 && jr[1] == 1 && jr[2] == 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST


/* a free base carrying a hinge - ball - slide chain and a hinge branch: dof, tendon and
 * actuator damping, velocity servos on a joint and on the tendon, fluid forces of both
 * models (an inertia box, an ellipsoid) in a wind */
static const char *TREE =
    "<mujoco><option density=\"1.2\" viscosity=\"0.02\" wind=\"0.3 -0.2 0.1\"/><worldbody>"
    "<body pos=\"0 0 1\"><freejoint/><geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"3\"/>"
    "<body pos=\"0.2 0 0\"><joint name=\"h1\" axis=\"0 1 0\" damping=\"0.3\"/>"
    "<geom type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.04\" mass=\"1\"/>"
    "<body pos=\"0.3 0 0\"><joint type=\"ball\" damping=\"0.1\"/>"
    "<geom type=\"ellipsoid\" size=\"0.1 0.05 0.03\" pos=\"0.1 0.02 0\" mass=\"0.5\" "
    "fluidshape=\"ellipsoid\"/>"
    "<body pos=\"0.2 0 0\"><joint name=\"s1\" type=\"slide\" axis=\"1 0.2 0\" damping=\"0.2\"/>"
    "<geom size=\"0.05\" mass=\"0.3\"/></body></body></body>"
    "<body pos=\"-0.2 0 0\"><joint axis=\"1 0 0\"/>"
    "<geom type=\"box\" size=\"0.1 0.05 0.02\" pos=\"-0.1 0 0.03\" mass=\"0.7\"/></body>"
    "</body></worldbody><tendon><fixed name=\"t\" damping=\"0.4\"><joint joint=\"h1\" "
    "coef=\"1\"/><joint joint=\"s1\" coef=\"0.5\"/></fixed></tendon><actuator>"
    "<velocity joint=\"h1\" kv=\"2\"/><velocity tendon=\"t\" kv=\"1.5\"/></actuator></mujoco>";

/* 1 when dofs i and j are on one chain (one is the other or its ancestor) */
static int chained(const cs_model *m, int i, int j)
{
    for (int a = i; a >= 0; a = m->dof_parent[a])
        if (a == j) return 1;
    for (int a = j; a >= 0; a = m->dof_parent[a])
        if (a == i) return 1;
    return 0;
}

START_TEST(test_smooth_vel_is_the_force_derivative)
{
    cs_model *m = from(TREE);
    cs_data *d = cs_make_data(m);
    int nv = m->nv, nM = m->nM;
    ck_assert_int_eq(nv, 12);
    static const double q[] = {0.1, -0.2, 1.1, 0.9, 0.2, -0.3, 0.25, 0.4, 0.8, 0.3, -0.4, 0.33,
                               0.05, -0.6};
    memcpy(d->qpos, q, sizeof q);
    for (int i = 0; i < nv; i++) d->qvel[i] = (i % 2 ? -1 : 1) * (0.5 + 0.7 * i); /* a fast spin */
    cs_forward(m, d);
    double *lo = calloc((size_t)nM, sizeof *lo), *up = calloc((size_t)nM, sizeof *up);
    double *D = calloc((size_t)nv * nv, sizeof *D);
    cs_smooth_vel(m, d, lo, up);
    for (int i = 0; i < nv; i++) /* the dense D from its two triangles */
        for (int j = i, k = 0; j >= 0; j = m->dof_parent[j], k++) {
            D[nv * i + j] = lo[m->dof_Madr[i] + k];
            if (k) D[nv * j + i] = up[m->dof_Madr[i] + k];
        }
    double *fp = calloc((size_t)nv, sizeof *fp), *fm = calloc((size_t)nv, sizeof *fm), eps = 1e-6;
    double worst = 0, scale = 0;
    for (int j = 0; j < nv; j++) {
        double v = d->qvel[j];
        d->qvel[j] = v + eps;
        cs_forward(m, d);
        memcpy(fp, d->qfrc_smooth, (size_t)nv * sizeof *fp);
        d->qvel[j] = v - eps;
        cs_forward(m, d);
        memcpy(fm, d->qfrc_smooth, (size_t)nv * sizeof *fm);
        d->qvel[j] = v;
        for (int i = 0; i < nv; i++) {
            double fd = (fp[i] - fm[i]) / (2 * eps);
            scale = fmax(scale, fabs(fd));
            /* dofs on two branches: no force of one depends on the other's velocity here */
            double err = fabs((chained(m, i, j) ? D[nv * i + j] : 0) - fd);
            worst = fmax(worst, err);
            ck_assert_msg(err < 1e-6 * (1 + fabs(fd)), "D(%d, %d) = %g, differences %g", i, j,
                          D[nv * i + j], fd);
        }
    }
    ck_assert(scale > 1); /* the Coriolis terms are large at this speed */
    /* not symmetric: the gyroscopic terms are skew */
    double skew = 0;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < i; j++) skew = fmax(skew, fabs(D[nv * i + j] - D[nv * j + i]));
    ck_assert(skew > 0.1);
    free(fp);
    free(fm);
    free(D);
    free(lo);
    free(up);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("derivatives");
    TCase *tc = tcase_create("derivatives");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_loop_test(tc, test_transition_fd_closed_form, 0, 2);
    tcase_add_test(tc, test_inverse_recovers_applied_forces);
    tcase_add_test(tc, test_inverse_contact_forces_are_the_forwards);
    tcase_add_test(tc, test_site_jacobian);
    tcase_add_test(tc, test_smooth_vel_is_the_force_derivative);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
