/* Height fields: physical facts of bodies resting on and sliding down grids given by their
 * elevations (weight carried, resting heights from the grid's geometry, Coulomb's
 * threshold on a ramp), rays against a grid, and the loader's reading of the data. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#define G 9.81
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static cs_model *load(const char *xml)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, "hfield.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    return m;
}

static void run(const cs_model *m, cs_data *d, double t)
{
    while (d->time < t - 1e-12) {
        cs_step(m, d);
        ck_assert_msg(cs_check_finite(m, d) < 0, "diverged at t = %g", d->time);
    }
}

/* the world-frame force the contacts exert on body b (geom2 of its contacts: the field is
 * geom1, of the lower type) */
static void body_force(const cs_model *m, cs_data *d, int b, double F[3])
{
    F[0] = F[1] = F[2] = 0;
    cs_forward(m, d);
    for (int i = 0; i < d->ncon; i++) {
        const cs_contact *c = &d->contact[i];
        int s = m->geom_body[c->geom2] == b ? 1 : m->geom_body[c->geom1] == b ? -1 : 0;
        if (!s) continue;
        double f[6];
        cs_contact_force(m, d, i, f);
        for (int k = 0; k < 3; k++)
            F[k] += s * (c->frame[k] * f[0] + c->frame[3 + k] * f[1] + c->frame[6 + k] * f[2]);
    }
}

/* body_force averaged over n steps (a box on a grid keeps rocking by micrometres: its face
 * meets each prism under it at one point, anywhere in their overlap, as in MuJoCo) */
static void mean_force(const cs_model *m, cs_data *d, int b, int n, double F[3])
{
    double f[3];
    F[0] = F[1] = F[2] = 0;
    for (int k = 0; k < n; k++) {
        cs_step(m, d);
        body_force(m, d, b, f);
        for (int i = 0; i < 3; i++) F[i] += f[i] / n;
    }
}

static const double *body_pos(const cs_model *m, const cs_data *d, const char *name)
{
    int b = cs_name2id(m, "body", name);
    ck_assert_int_ge(b, 0);
    return d->xpos + 3 * b;
}

static double body_speed(const cs_model *m, const cs_data *d, const char *name)
{
    int b = cs_name2id(m, "body", name);
    int j = m->body_jntadr[b], v = m->jnt_dofadr[j];
    double s = 0;
    for (int k = 0; k < 6; k++) s += d->qvel[v + k] * d->qvel[v + k];
    return sqrt(s);
}

/* A sphere and a box at rest on a flat grid (zero elevation: the surface at the geom's
 * z) carry their weight, and sit their radius or half height above it. */
START_TEST(test_flat_rest)
{
    const char *xml =
        "<mujoco><asset><hfield name='flat' nrow='21' ncol='31' size='1.5 1 0.2 0.1'/></asset>"
        "<worldbody><geom type='hfield' hfield='flat' pos='0.1 -0.2 0.3'/>"
        "<body name='ball' pos='0.33 0.07 0.45'><freejoint/><geom type='sphere' size='0.1' mass='1'/></body>"
        "<body name='box' pos='-0.41 -0.37 0.4' euler='0 0 17'><freejoint/>"
        "<geom type='box' size='0.12 0.09 0.05' mass='2'/></body>"
        "</worldbody></mujoco>";
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    run(m, d, 1.5);
    const char *names[2] = {"ball", "box"};
    double mass[2] = {1, 2}, half[2] = {0.1, 0.05};
    for (int i = 0; i < 2; i++) {
        int b = cs_name2id(m, "body", names[i]);
        double F[3];
        mean_force(m, d, b, 250, F);
        double z = body_pos(m, d, names[i])[2];
        printf("report: flat %s: contact force z %.9g N (m g %.9g), height above the grid %.6g "
               "m (%.6g), speed %.3g\n", names[i], F[2], mass[i] * G, z - 0.3, half[i],
               body_speed(m, d, names[i]));
        ck_assert_double_eq_tol(F[2], mass[i] * G, 1e-4 * mass[i] * G);
        ck_assert_double_eq_tol(F[0], 0, 1e-3);
        ck_assert_double_eq_tol(F[1], 0, 1e-3);
        ck_assert_double_eq_tol(z - 0.3, half[i], 2e-3); /* the soft contact's sink */
        ck_assert(body_speed(m, d, names[i]) < 1e-3);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A V-shaped valley (columns 0 at its bottom, rising by 1 a column on both sides) holds
 * a frictionless sphere (sliding in x and z only: free to roll, it would drift along the
 * valley, pushed along y where it crosses the prisms' walls, as in MuJoCo) at its bottom, touching both slopes: its centre r / cos(gamma) above the valley's
 * line, its weight carried by the two tilted contacts. A box on one slope (friction 1 >
 * tan gamma) stays, its weight carried, its centre half its height above the slope along
 * the slope's normal. */
START_TEST(test_sloped_rest)
{
    /* 41 columns over x in [-1, 1]: dx 0.05 (the box covers several cells: one contact per
     * prism); elevation |c - 20| normalised to [0, 1], times size z 0.4: slope 0.4 per metre,
     * gamma = atan(0.4) */
    char *elev = malloc(64 * 1024), row[512] = "";
    ck_assert(elev != NULL);
    elev[0] = 0;
    for (int c = 0; c < 41; c++) {
        char t[16];
        snprintf(t, sizeof t, "%d ", abs(c - 20));
        strcat(row, t);
    }
    for (int r = 0; r < 33; r++) strcat(elev, row);
    char xml[64 * 1024];
    double gam = atan(0.4);
    /* the box on the slope x in [0.2, 0.8]: surface z = 0.4 x; its centre 0.05 + 1e-3 above
     * along the normal, tilted by gamma about -y */
    double bx = 0.5, n[3] = {-sin(gam), 0, cos(gam)}, hz = 0.05;
    double bc[3] = {bx + n[0] * (hz + 1e-3), 0.11, 0.4 * bx + n[2] * (hz + 1e-3)};
    snprintf(xml, sizeof xml,
             "<mujoco><option cone='elliptic'/><asset><hfield name='v' nrow='33' ncol='41' "
             "size='1 0.8 0.4 0.1' elevation='%s'/></asset>"
             "<worldbody><geom type='hfield' hfield='v'/>"
             "<body name='ball' pos='-0.03 -0.13 0.3'><joint type='slide' axis='1 0 0'/>"
             "<joint type='slide' axis='0 0 1'/>"
             "<geom type='sphere' size='0.1' mass='1' condim='1' priority='1'/></body>"
             "<body name='box' pos='%.17g %.17g %.17g' axisangle='0 1 0 %.17g'><freejoint/>"
             "<geom type='box' size='0.08 0.07 0.05' mass='2'/></body>"
             "</worldbody></mujoco>",
             elev, bc[0], bc[1], bc[2], -gam * 180 / M_PI);
    free(elev);
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    run(m, d, 2.5);
    int ball = cs_name2id(m, "body", "ball"), box = cs_name2id(m, "body", "box");
    double F[3];
    body_force(m, d, ball, F);
    const double *p = body_pos(m, d, "ball");
    double zc = 0.1 / cos(gam); /* above the valley's line z = 0 at x = 0 */
    printf("report: valley ball: contact force (%.6g, %.6g, %.9g) N, x %.3g, height %.6g m "
           "(r / cos gamma %.6g)\n", F[0], F[1], F[2], p[0], p[2], zc);
    ck_assert_double_eq_tol(F[2], G, 1e-6 * G);
    ck_assert_double_eq_tol(p[0], 0, 1e-3);
    ck_assert_double_eq_tol(p[2], zc, 3e-3);
    int ntilt = 0;
    for (int i = 0; i < d->ncon; i++)
        if (m->geom_body[d->contact[i].geom2] == ball &&
            fabs(fabs(d->contact[i].frame[0]) - sin(gam)) < 1e-6) /* single precision data */
            ntilt++;
    ck_assert_int_ge(ntilt, 2); /* both slopes, each along its normal */
    mean_force(m, d, box, 250, F);
    const double *q = body_pos(m, d, "box");
    double up = q[0] * n[0] + q[2] * n[2]; /* distance from the slope z = 0.4 x */
    printf("report: slope box: contact force (%.6g, %.6g, %.9g) N, moved %.3g m, %.6g m from "
           "the slope (%.6g)\n", F[0], F[1], F[2], fabs(q[0] - bc[0]), up, hz);
    ck_assert_double_eq_tol(F[2], 2 * G, 1e-4 * 2 * G);
    ck_assert_double_eq_tol(F[0], 0, 1e-3);
    ck_assert_double_eq_tol(up, hz, 3e-3);
    ck_assert(fabs(q[0] - bc[0]) < 3e-3);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A box on a ramp (the grid rising linearly, tan gamma = 0.5) sticks with friction 0.6 and
 * slides with 0.4, accelerating at g (sin gamma - mu cos gamma) under conesim's Coulomb
 * contact model (the soft model's regularised friction lets it slide a little faster). */
static double ramp_slide(double mu, int coulomb, double *accel)
{
    char row[256] = "", elev[4096] = "";
    for (int c = 0; c < 21; c++) {
        char t[16];
        snprintf(t, sizeof t, "%d ", c);
        strcat(row, t);
    }
    for (int r = 0; r < 7; r++) strcat(elev, row);
    double gam = atan(0.5), n[3] = {-sin(gam), 0, cos(gam)}, hz = 0.04, x0 = 0.4;
    /* size x 2, z 2: rises 2 over 4 m; surface z = 0.5 (x + 2) */
    double bc[3] = {x0 + n[0] * hz, 0.05, 0.5 * (x0 + 2) + n[2] * hz};
    char xml[8192];
    snprintf(xml, sizeof xml,
             "<mujoco><option cone='elliptic'/><custom><text name='conesim:contact' data='%s'/>"
             "</custom><asset><hfield name='ramp' nrow='7' ncol='21' "
             "size='2 0.6 2 0.1' elevation='%s'/></asset>"
             "<worldbody><geom type='hfield' hfield='ramp' friction='%g'/>"
             "<body name='box' pos='%.17g %.17g %.17g' axisangle='0 1 0 %.17g'><freejoint/>"
             "<geom type='box' size='0.15 0.1 0.04' mass='1' friction='%g'/></body>"
             "</worldbody></mujoco>",
             coulomb ? "coulomb" : "soft", elev, mu, bc[0], bc[1], bc[2], -gam * 180 / M_PI, mu);
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    run(m, d, 0.2); /* settled into its contacts */
    double s0 = body_pos(m, d, "box")[0] / cos(gam), t0 = d->time;
    int b = cs_name2id(m, "body", "box");
    double v0 = -(d->qvel[m->jnt_dofadr[m->body_jntadr[b]]] * cos(gam) +
                  d->qvel[m->jnt_dofadr[m->body_jntadr[b]] + 2] * sin(gam));
    run(m, d, 0.8);
    double s1 = body_pos(m, d, "box")[0] / cos(gam), t = d->time - t0;
    double down = s0 - s1; /* along the slope, downwards */
    *accel = 2 * (down - v0 * t) / (t * t);
    cs_free_data(d);
    cs_free_model(m);
    return down;
}

START_TEST(test_ramp_friction)
{
    double gam = atan(0.5), a;
    for (int coulomb = 0; coulomb < 2; coulomb++) {
        double stick = ramp_slide(0.6, coulomb, &a);
        printf("report: ramp mu 0.6 > tan gamma 0.5 (%s): moved %.3g m in 0.6 s\n",
               coulomb ? "coulomb" : "soft", stick);
        ck_assert(fabs(stick) < 1e-3);
    }
    double slide = ramp_slide(0.4, 1, &a), want = G * (sin(gam) - 0.4 * cos(gam));
    printf("report: ramp mu 0.4 < tan gamma: slid %.4g m, acceleration %.5g (g (sin - mu cos) "
           "%.5g)\n", slide, a, want);
    ck_assert_double_eq_tol(a, want, 0.01 * want);
}
END_TEST

/* A geom over many cells meets at most 50 prisms (MuJoCo's mjMAXCONPAIR), taken row by row
 * from the grid's low y: a 0.6 m box on 5 cm cells gets its 50 points along one edge. */
START_TEST(test_contact_cap)
{
    const char *xml =
        "<mujoco><asset><hfield name='fine' nrow='41' ncol='41' size='1 1 0.1 0.1'/></asset>"
        "<worldbody><geom type='hfield' hfield='fine'/>"
        "<body name='slab' pos='0.013 0.021 0.049'><freejoint/>"
        "<geom type='box' size='0.3 0.3 0.05'/></body></worldbody></mujoco>";
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    double ymax = -1;
    for (int i = 0; i < d->ncon; i++) ymax = fmax(ymax, d->contact[i].pos[1]);
    printf("report: a slab over %d cells: %d contacts, up to y = %.3g\n", 12 * 12, d->ncon, ymax);
    ck_assert_int_eq(d->ncon, 50);
    ck_assert(ymax < 0.021 - 0.3 + 0.2); /* the first rows under the slab only */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A rangefinder straight down over a ramp reads the surface's height under it, the ray's
 * normal the ramp's; over the grid's edge, the side wall. */
START_TEST(test_ray)
{
    const char *xml =
        "<mujoco><asset><hfield name='ramp' nrow='3' ncol='5' size='1 1 0.5 0.2' "
        "elevation='0 1 2 3 4  0 1 2 3 4  0 1 2 3 4'/></asset>"
        "<worldbody><geom type='hfield' hfield='ramp' pos='0 0 0.1'/>"
        "<body name='probe' pos='0.3 0.2 2' mocap='true'><site name='s' euler='180 0 0'/></body>"
        "</worldbody><sensor><rangefinder site='s'/></sensor></mujoco>";
    cs_model *m = load(xml);
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    /* surface z = 0.1 + 0.5 (x + 1) / 2 at x = 0.3 */
    double want = 2 - (0.1 + 0.25 * 1.3);
    printf("report: rangefinder over the ramp %.12g m (%.12g)\n", d->sensordata[0], want);
    ck_assert_double_eq_tol(d->sensordata[0], want, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The elevation attribute is written top row (largest y) first, stored bottom row first,
 * normalised to [0, 1]; only nrow and ncol give a flat grid of zeros. */
START_TEST(test_data_layout)
{
    const char *xml =
        "<mujoco><asset><hfield name='a' nrow='2' ncol='3' size='1 1 1 1' "
        "elevation='1 2 3  5 6 7'/><hfield name='z' nrow='2' ncol='2' size='1 1 1 1'/></asset>"
        "<worldbody><geom type='hfield' hfield='a'/><geom type='hfield' hfield='z'/>"
        "</worldbody></mujoco>";
    cs_model *m = load(xml);
    ck_assert_int_eq(m->nhfield, 2);
    ck_assert_int_eq(m->nhfielddata, 10);
    const double want[6] = {4.0 / 6, 5.0 / 6, 1, 0, 1.0 / 6, 2.0 / 6};
    for (int i = 0; i < 6; i++)
        ck_assert_double_eq_tol(m->hfield_data[i], want[i], 1e-7); /* single precision */
    for (int i = 6; i < 10; i++) ck_assert(m->hfield_data[i] == 0);
    ck_assert_int_eq(m->geom_dataid[0], 0);
    ck_assert_int_eq(m->geom_dataid[1], 1);
    /* the geom's size: the radii, and the box height MuJoCo takes for its mass */
    ck_assert(m->geom_size[2] == 0.25 + 0.5);
    ck_assert_int_eq(cs_name2id(m, "hfield", "z"), 1);
    cs_free_model(m);
}
END_TEST

/* Files: a colour PNG is its red channel (lodepng's grey, as MuJoCo loads it), its top row
 * the grid's last; MuJoCo's binary format is stored as it is, bottom row first; both then
 * normalised (MuJoCo 3.12.0 reads these two files to the same floats). The PNG's name gives
 * the field's. */
START_TEST(test_data_files)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/hfield/scene.xml", CS_DATA);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    ck_assert_int_eq(m->nhfield, 2);
    ck_assert_int_eq(cs_name2id(m, "hfield", "rgb_3x2"), 0);
    ck_assert_int_eq(m->hfield_nrow[0], 2);
    ck_assert_int_eq(m->hfield_ncol[0], 3);
    /* red: top row 0 100 200, bottom 50 150 250; to [0, 1] over 0 .. 250 */
    const double png[6] = {50 / 250., 150 / 250., 1, 0, 100 / 250., 200 / 250.};
    const double bin[6] = {0, 1 / 6., 2 / 6., 4 / 6., 5 / 6., 1};
    for (int i = 0; i < 6; i++) {
        ck_assert_double_eq_tol(m->hfield_data[m->hfield_adr[0] + i], png[i], 1e-7);
        ck_assert_double_eq_tol(m->hfield_data[m->hfield_adr[1] + i], bin[i], 1e-7);
    }
    cs_free_model(m);
}
END_TEST

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* reports survive a failed check */
    Suite *s = suite_create("hfield");
    TCase *t = tcase_create("hfield");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, test_flat_rest);
    tcase_add_test(t, test_sloped_rest);
    tcase_add_test(t, test_ramp_friction);
    tcase_add_test(t, test_contact_cap);
    tcase_add_test(t, test_ray);
    tcase_add_test(t, test_data_layout);
    tcase_add_test(t, test_data_files);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
