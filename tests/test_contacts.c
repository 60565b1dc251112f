/* Contacts through the whole pipeline (sim -> collision -> solver): every geom type pair
 * conesim collides, full manifolds of resting boxes, frames, and the contact CSV. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "solver/rows.h"

static const char *const TYPES[] = {"sphere", "capsule", "ellipsoid", "cylinder", "box"};
#define NTYPES 5

static cs_model *load_file(const char *path)
{
    char err[1024];
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    return m;
}

static const char *gname(const cs_model *m, int g) { return m->geom_name[g] ? m->geom_name[g] : "?"; }

/* contacts whose geoms are named a and b (in this order) */
static int find(const cs_data *d, const cs_model *m, const char *a, const char *b, int *first,
                double *mindist)
{
    int n = 0;
    *mindist = INFINITY;
    for (int i = 0; i < d->ncon; i++) {
        const cs_contact *c = &d->contact[i];
        if (strcmp(gname(m, c->geom1), a) || strcmp(gname(m, c->geom2), b)) continue;
        if (!n) *first = i;
        if (c->dist < *mindist) *mindist = c->dist;
        n++;
    }
    return n;
}

static void check_frame(const double *F)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = F[3 * i] * F[3 * j] + F[3 * i + 1] * F[3 * j + 1] + F[3 * i + 2] * F[3 * j + 2];
            ck_assert_double_eq_tol(s, i == j, 1e-12);
        }
    /* right-handed: n x t1 = t2 */
    double c[3] = {F[1] * F[5] - F[2] * F[4], F[2] * F[3] - F[0] * F[5], F[0] * F[4] - F[1] * F[3]};
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(c[k], F[6 + k], 1e-12);
}

/* all_pairs.xml: each pair overlaps by 0.01 m along +z, static geom first */
START_TEST(test_every_pair_type)
{
    cs_model *m = load_file(CS_TEST_DATA "/good/all_pairs.xml");
    /* room for EPA to reach its tolerance on two curved surfaces (the default 35 iterations
     * stop it short there, as in MuJoCo) */
    m->opt.ccd_iterations = 100;
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    char a[64], b[64];
    int npairs = 0;
    for (int i = 0; i < NTYPES; i++) {
        /* plane pairs */
        snprintf(b, sizeof b, "p_%s", TYPES[i]);
        int first;
        double mind;
        int n = find(d, m, "plane", b, &first, &mind);
        ck_assert_msg(n >= 1, "no contact plane-%s", TYPES[i]);
        ck_assert_msg(fabs(mind + 0.01) < 1e-9, "plane-%s depth %.17g", TYPES[i], mind);
        npairs++;
        for (int j = i; j < NTYPES; j++) {
            snprintf(a, sizeof a, "s_%s_%s", TYPES[i], TYPES[j]);
            snprintf(b, sizeof b, "f_%s_%s", TYPES[i], TYPES[j]);
            n = find(d, m, a, b, &first, &mind);
            ck_assert_msg(n >= 1, "no contact %s-%s", TYPES[i], TYPES[j]);
            /* support-function pairs (GJK/EPA) are accurate to ccd_tolerance, analytic ones
             * exact */
            ck_assert_msg(fabs(mind + 0.01) < 1e-6, "%s-%s depth %.17g", TYPES[i], TYPES[j], mind);
            const double *nrm = d->contact[first].frame;
            /* EPA's normal where both surfaces are curved is good to about the square root of
             * its tolerance over their curvature (a few milliradians here); elsewhere exact */
            int epa = (!strcmp(TYPES[i], "ellipsoid") || !strcmp(TYPES[j], "ellipsoid") ||
                       !strcmp(TYPES[i], "cylinder") || !strcmp(TYPES[j], "cylinder")) &&
                      strcmp(TYPES[i], "sphere");
            ck_assert_msg(nrm[2] > 1 - (epa ? 1e-5 : 1e-9), "%s-%s normal z %.17g", TYPES[i],
                          TYPES[j], nrm[2]);
            npairs++;
        }
    }
    ck_assert_int_eq(npairs, 20);
    for (int i = 0; i < d->ncon; i++) {
        check_frame(d->contact[i].frame);
        /* overlapping pairs all enter the solver and push apart */
        ck_assert_int_eq(d->contact[i].exclude, 0);
        ck_assert(d->contact[i].force[0] > 0);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* Resting flat faces give full manifolds: a single deepest point would make them rock. */
START_TEST(test_flat_manifolds)
{
    cs_model *m = load_file(CS_TEST_DATA "/good/all_pairs.xml");
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    int first;
    double mind;
    ck_assert_int_eq(find(d, m, "plane", "p_box", &first, &mind), 4);
    ck_assert_int_ge(find(d, m, "plane", "p_cylinder", &first, &mind), 3);
    ck_assert_int_ge(find(d, m, "s_box_box", "f_box_box", &first, &mind), 4);
    ck_assert_int_ge(find(d, m, "s_cylinder_box", "f_cylinder_box", &first, &mind), 3);
    ck_assert_int_ge(find(d, m, "s_cylinder_cylinder", "f_cylinder_cylinder", &first, &mind), 3);
    cs_free_data(d);
    cs_free_model(m);

    /* the seed's stack: each box-box interface and the floor get 4 corner points */
    m = load_file(CS_SCENES "/box_stack.xml");
    d = cs_make_data(m);
    for (int k = 0; k < 50; k++) cs_step(m, d);
    ck_assert_int_eq(find(d, m, "floor", "box1", &first, &mind), 4);
    ck_assert_int_ge(find(d, m, "box1", "box2", &first, &mind), 4);
    ck_assert_int_ge(find(d, m, "box2", "box3", &first, &mind), 4);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* Margin and gap (MuJoCo 3.12): detected within margin + gap, solved only within the margin. */
START_TEST(test_margin_gap)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(
        "<mujoco><worldbody><geom name='floor' type='plane' size='1 1 1' margin='0.01' gap='0.01'/>"
        "<body name='a' pos='0 0 0.115'><freejoint/><geom name='a' size='0.1'/></body>"
        "<body name='b' pos='1 0 0.105'><freejoint/><geom name='b' size='0.1'/></body>"
        "<body name='c' pos='2 0 0.125'><freejoint/><geom name='c' size='0.1'/></body>"
        "</worldbody></mujoco>", "margin.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    int first;
    double mind;
    /* a: dist 0.015 < margin + gap 0.02 but > margin 0.01: detected, kept out */
    ck_assert_int_eq(find(d, m, "floor", "a", &first, &mind), 1);
    ck_assert_int_eq(d->contact[first].exclude, 1);
    ck_assert_int_eq(d->contact[first].zone, CS_CZONE_NONE);
    ck_assert_double_eq(d->contact[first].force[0], 0);
    /* b: dist 0.005 < 0.01: in the solver */
    ck_assert_int_eq(find(d, m, "floor", "b", &first, &mind), 1);
    ck_assert_int_eq(d->contact[first].exclude, 0);
    /* c: dist 0.025 beyond margin + gap: no contact */
    ck_assert_int_eq(find(d, m, "floor", "c", &first, &mind), 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* MuJoCo's impedance of solimp (d0, dmax, width, mid, power) at depth x below the margin */
static double impedance_at(const double si[5], double x)
{
    double r = x / si[2], y;
    if (r >= 1) return si[1];
    if (r <= si[3]) y = pow(r, si[4]) / pow(si[3], si[4] - 1);
    else y = 1 - pow(1 - r, si[4]) / pow(1 - si[3], si[4] - 1);
    return si[0] + y * (si[1] - si[0]);
}

/* Resting depth below the margin of a frictionless body on a plane, from MuJoCo's soft
 * contact: at rest (v = 0, a = 0) the row's force f = m g must equal aref / R with
 * aref = K imp x and R = (1 - imp)/imp / m (diagApprox = 1/m for a row through the centre of
 * mass), so g (1 - imp) = K imp^2 x; K = 1/(dmax^2 timeconst^2 dampratio^2). */
static double rest_depth(double g, const double solref[2], const double si[5])
{
    double K = 1 / (si[1] * si[1] * solref[0] * solref[0] * solref[1] * solref[1]);
    double lo = 0, hi = 0.1;
    for (int it = 0; it < 200; it++) {
        double x = 0.5 * (lo + hi), imp = impedance_at(si, x);
        if (K * imp * imp * x - g * (1 - imp) > 0) hi = x; else lo = x;
    }
    return 0.5 * (lo + hi);
}

/* MuJoCo 3.12 sums the two geoms' margins (and gaps): a sphere with margin 0.01 on a plane
 * with margin 0.01 rests on a contact whose margin is 0.02, at the soft contact's depth below
 * that margin; with 0.03 on the sphere, 0.04. (The larger of the two would give 0.01 and 0.03.)
 * Against MuJoCo 3.12.0 itself the first rests at 0.119632818157 m, as here. */
START_TEST(test_margin_sum_rest)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(
        "<mujoco><worldbody>"
        "<geom name='floor' type='plane' size='5 5 1' margin='0.01' condim='1'/>"
        "<body name='a' pos='0 0 0.2'><freejoint/><geom name='a' size='0.1' margin='0.01' condim='1'/></body>"
        "<body name='b' pos='1 0 0.2'><freejoint/><geom name='b' size='0.1' margin='0.03' condim='1'/></body>"
        "<body name='c' pos='2 0 0.2'><freejoint/>"
        "<geom name='c' size='0.1' margin='-0.015' gap='0.02' condim='1'/></body>"
        "</worldbody></mujoco>", "margin_sum.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 1500; k++) cs_step(m, d); /* 3 s: at rest */
    const double sr[2] = {0.02, 1}, si[5] = {0.9, 0.95, 0.001, 0.5, 2};
    double x = rest_depth(9.81, sr, si);
    /* c: a negative margin (MuJoCo 3.12: a shrunk surface) sums to 0.01 - 0.015 = -0.005, so
     * the sphere rests that much deeper than at margin 0 */
    const char *name[3] = {"a", "b", "c"};
    const double want_margin[3] = {0.02, 0.04, -0.005};
    for (int i = 0; i < 3; i++) {
        int first;
        double mind;
        ck_assert_int_eq(find(d, m, "floor", name[i], &first, &mind), 1);
        ck_assert_double_eq_tol(d->contact[first].margin, want_margin[i], 1e-15);
        ck_assert_int_eq(d->contact[first].exclude, 0);
        double z = d->qpos[7 * i + 2];
        printf("sphere %s: centre %.9f m, MuJoCo's rule %.9f m (depth %.3g below margin %g)\n",
               name[i], z, 0.1 + want_margin[i] - x, x, want_margin[i]);
        ck_assert_double_eq_tol(z, 0.1 + want_margin[i] - x, 1e-7);
        ck_assert_double_eq_tol(d->qvel[6 * i + 2], 0, 1e-7);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A contact whose normal no dof can move (Gymnasium's point: x and y slides and a z hinge, here
 * sunk 1 cm into the floor) still pushes, as MuJoCo's soft rows do: with J_n = 0 the row's
 * A is 0, so its force is aref / R = K imp depth / ((1 - imp)/imp diagApprox), diagApprox the
 * body's translational invweight0 (imp = dmax = 0.95 beyond the width 0.001). Gymnasium's
 * own pose, sphere touching at distance 0 with margin 0, is kept out by the margin in MuJoCo
 * 3.12 as here (dist >= margin). */
START_TEST(test_normal_without_dofs)
{
    char err[1024];
    const char *fmt =
        "<mujoco><worldbody><geom name='floor' type='plane' size='40 40 40'/>"
        "<body name='torso'><geom name='ball' pos='0 0 %s' size='0.5' condim='1' density='100'/>"
        "<joint name='x' type='slide' axis='1 0 0'/><joint name='y' type='slide' axis='0 1 0'/>"
        "<joint name='rot' axis='0 0 1'/></body></worldbody>"
        "<keyframe><key qvel='1 0.5 0'/></keyframe></mujoco>";
    char xml[1024];
    snprintf(xml, sizeof xml, fmt, "0.49");
    cs_model *m = cs_load_xml_string(xml, "point.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    cs_forward(m, d);
    ck_assert_int_eq(d->ncon, 1);
    const cs_contact *c = &d->contact[0];
    ck_assert_int_ge(c->efc_address, 0);
    double K = 1 / (0.95 * 0.95 * 0.02 * 0.02), imp = 0.95;
    double R = (1 - imp) / imp * m->body_invweight0[2];
    double want = K * imp * 0.01 / R;
    printf("normal force without dofs along it: %.12g N, MuJoCo's rule %.12g N\n", c->force[0], want);
    ck_assert_double_eq_tol(c->force[0], want, 1e-9 * want);
    cs_free_data(d);
    cs_free_model(m);
    snprintf(xml, sizeof xml, fmt, "0.5");
    m = cs_load_xml_string(xml, "point.xml", NULL, err, sizeof err);
    d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    for (int k = 0; k < 1000; k++) cs_step(m, d);
    ck_assert_int_eq(d->ncon, 1);
    ck_assert_int_eq(d->contact[0].exclude, 1);
    ck_assert_double_eq_tol(d->qpos[0], 1000 * m->opt.timestep, 1e-12); /* slides freely */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The contact CSV: header, one row per contact, 25 fields, zone words, names in pair order. */
START_TEST(test_contact_csv)
{
    cs_model *m = load_file(CS_SCENES "/ball_roll.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    /* the ball starts touching and bounces off at steps 8-9; at step 12 it is back */
    for (int k = 0; k < 12; k++) cs_step(m, d);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cs_contact_header(f);
    cs_contact_rows(f, m, d, 10, 0.02);
    fclose(f);
    const char *hdr = "step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,f5,"
                      "vn,v1,v2,v3,v4,v5,zone\n";
    ck_assert(strncmp(buf, hdr, strlen(hdr)) == 0);
    ck_assert_int_eq(d->ncon, 1);
    int rows = 0;
    for (char *line = strchr(buf, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        int commas = 0;
        for (char *p = line; *p != '\n'; p++) commas += *p == ',';
        ck_assert_int_eq(commas, 24);
        ck_assert(strncmp(line, "10,0.02,floor,ball,6,", 21) == 0);
        char *zone = strrchr(line, ',');
        *strchr(zone, '\n') = 0;
        ck_assert_msg(!strcmp(zone, ",middle") || !strcmp(zone, ",bottom") || !strcmp(zone, ",top"),
                      "zone %s", zone);
        *strchr(zone, 0) = '\n';
        rows++;
    }
    ck_assert_int_eq(rows, d->ncon);
    free(buf);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* The solver CSV: one row per island; at a Newton solution strong duality holds (primal +
 * dual optimum = 0, docs/contact-math.md §7) and the forces lie in their cones. */
START_TEST(test_solver_csv)
{
    cs_model *m = load_file(CS_SCENES "/box_stack.xml");
    cs_data *d = cs_make_data(m);
    d->solver_stats = 1; /* the residual columns are computed only when asked */
    for (int k = 0; k < 20; k++) cs_step(m, d);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cs_solver_header(f);
    cs_solver_rows(f, m, d, 20, 0.5);
    fclose(f);
    ck_assert_int_eq(d->solver.nisland, 1); /* the stack is one island */
    char *row = strchr(buf, '\n') + 1;
    ck_assert(strncmp(row, "20,0.5,0,3,", 11) == 0);
    double v[14];
    char *p = row;
    for (int i = 0; i < 14; i++) {
        v[i] = strtod(p, &p);
        if (*p == ',') p++;
    }
    ck_assert_int_eq((int)v[4], d->efc->nblock);
    double primal = v[9], dual = v[10];
    ck_assert(primal > 0);
    ck_assert_msg(fabs(primal + dual) <= 1e-9 * fabs(primal), "primal %g dual %g", primal, dual);
    ck_assert(v[11] <= 1e-12); /* cone feasibility */
    ck_assert_ptr_null(strchr(strchr(row, '\n') + 1, '\n'));
    free(buf);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* pgs_blocks=pair reaches Newton's optimum on the sliding, spinning box in fewer sweeps than
 * one-contact blocks (both are exact block Gauss-Seidel on the same convex dual). */
static double run_box(const char *solver, const char *blocks, double *mean_it)
{
    cs_model *m = load_file(CS_SCENES "/aniso_box_condim3.xml");
    char err[256];
    ck_assert_int_eq(cs_option_set(&m->opt, "solver", solver, err, sizeof err), 0);
    ck_assert_int_eq(cs_option_set(&m->opt, "pgs_blocks", blocks, err, sizeof err), 0);
    ck_assert_int_eq(cs_option_set(&m->opt, "iterations", "1000", err, sizeof err), 0);
    ck_assert_int_eq(cs_option_set(&m->opt, "tolerance", "1e-14", err, sizeof err), 0);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    long it = 0;
    for (int k = 0; k < 150; k++) {
        cs_step(m, d);
        it += d->solver.iterations;
    }
    *mean_it = it / 150.0;
    double x = d->qpos[0] + d->qpos[1];
    cs_free_data(d);
    cs_free_model(m);
    return x;
}

START_TEST(test_pgs_blocks)
{
    double itn, itc, itp;
    double xn = run_box("newton", "contact", &itn);
    double xc = run_box("pgs", "contact", &itc);
    double xp = run_box("pgs", "pair", &itp);
    ck_assert_msg(fabs(xc - xn) < 1e-6, "contact blocks %.17g vs Newton %.17g", xc, xn);
    ck_assert_msg(fabs(xp - xn) < 1e-6, "pair blocks %.17g vs Newton %.17g", xp, xn);
    ck_assert_msg(itp < itc, "pair blocks %g sweeps, contact blocks %g", itp, itc);
    char err[256];
    cs_option o = {0};
    ck_assert_int_ne(cs_option_set(&o, "pgs_blocks", "body", err, sizeof err), 0);
}
END_TEST

/* A cube on a static turntable (geom 0, surface turning at 2 rad/s about its file frame's
 * z through its origin) is carried around that origin at w r after 3 s, held by friction
 * (the soft friction rows hold the centripetal 1.2 N with a small outward creep);
 * moved: the compiled geom must have left the file's origin (its mesh's frame) */
static void turntable_carries(const char *xml, const char *what, int moved)
{
    char err[256];
    cs_model *m = cs_load_xml_string(xml, "turntable.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    if (moved) ck_assert(fabs(m->geom_pos[0]) + fabs(m->geom_pos[1]) > 0.1);
    cs_data *d = cs_make_data(m);
    for (int i = 0; i < 1500; i++) cs_step(m, d);
    double x = d->qpos[0], y = d->qpos[1], r = hypot(x, y);
    double vt = (x * d->qvel[1] - y * d->qvel[0]) / r, vr = (x * d->qvel[0] + y * d->qvel[1]) / r;
    printf("report: box on a 2 rad/s %s: r %.4g m, tangential %.4g m/s (w r %.4g), "
           "radial %.3g m/s, spin %.4g rad/s\n", what, r, vt, 2 * r, vr, d->qvel[5]);
    ck_assert_msg(fabs(vt - 2 * r) < 0.01 * 2 * r, "%s: tangential %g vs %g", what, vt, 2 * r);
    ck_assert(fabs(vr) < 0.05 && r > 0.29 && r < 0.4 && fabs(d->qvel[5] - 2) < 0.02);
    cs_free_data(d);
    cs_free_model(m);
}

/* A moving surface (geom surfacevel, MuJoCo 3.12): a box resting on a static belt whose
 * surface runs at 0.5 m/s along x is carried at the belt's speed (friction drives the slip to
 * 0), in every cone and solver; on a static disc whose surface turns at 2 rad/s a small
 * box at radius 0.3 m is carried around at w r = 0.6 m/s (friction 1 holds it: w^2 r =
 * 1.2 m/s^2 < mu g), and turns with the surface; the same on a mesh slab whose compiled frame
 * is not the file's. */
START_TEST(test_surface_velocity)
{
    static const char *BELT =
        "<mujoco><option timestep='0.002'/><worldbody>"
        "<geom name='belt' type='box' size='2 0.3 0.1' surfacevel='0.5 0 0 0 0 0'/>"
        "<body name='box' pos='0 0 0.2'><freejoint/><geom type='box' size='0.1 0.1 0.1' mass='1'/>"
        "</body></worldbody></mujoco>";
    static const char *const CONE[] = {"elliptic", "pyramidal"};
    static const char *const SOLVER[] = {"newton", "pgs", "cg"};
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++) {
            char err[256];
            cs_model *m = cs_load_xml_string(BELT, "belt.xml", NULL, err, sizeof err);
            ck_assert_msg(m != NULL, "%s", err);
            ck_assert_int_eq(cs_option_set(&m->opt, "cone", CONE[c], err, sizeof err), 0);
            ck_assert_int_eq(cs_option_set(&m->opt, "solver", SOLVER[k], err, sizeof err), 0);
            cs_data *d = cs_make_data(m);
            for (int i = 0; i < 1000; i++) cs_step(m, d);
            printf("report: box on a 0.5 m/s belt (%s, %s): v = (%.6g, %.3g, %.3g)\n", CONE[c],
                   SOLVER[k], d->qvel[0], d->qvel[1], d->qvel[2]);
            ck_assert_msg(fabs(d->qvel[0] - 0.5) < 1e-3, "%s %s: vx %g", CONE[c], SOLVER[k], d->qvel[0]);
            ck_assert(fabs(d->qvel[1]) < 1e-6 && fabs(d->qvel[2]) < 1e-3);
            ck_assert(d->qpos[0] > 0.3); /* carried, not only sliding in place */
            cs_free_data(d);
            cs_free_model(m);
        }
    /* a turntable: the box follows the surface around the axis at w r */
    static const char *DISC =
        "<mujoco><option timestep='0.002'/><worldbody>"
        "<geom name='disc' type='cylinder' size='1 0.05' surfacevel='0 0 0 0 0 2'/>"
        "<body name='cube' pos='0.3 0 0.1'><freejoint/><geom type='box' size='0.05 0.05 0.05' mass='1'/>"
        "</body></worldbody></mujoco>";
    turntable_carries(DISC, "turntable", 0);
    /* the same turntable as a mesh slab whose vertices sit off the geom's origin and turned
     * 30 degrees: the compiled geom takes the mesh's own frame, yet the surface still turns
     * about the geom frame the file gives (its origin, its z), so the cube circles the
     * origin at w r as on the disc */
    static const char *SLAB =
        "<mujoco><option timestep='0.002'/><asset><mesh name='slab' vertex='"
        "0.7660254 1.1196152 -0.05  1.3660254 0.0803848 -0.05  -0.9660254 0.1196152 -0.05  "
        "-0.3660254 -0.9196152 -0.05  0.7660254 1.1196152 0.05  1.3660254 0.0803848 0.05  "
        "-0.9660254 0.1196152 0.05  -0.3660254 -0.9196152 0.05'/></asset><worldbody>"
        "<geom name='slab' type='mesh' mesh='slab' surfacevel='0 0 0 0 0 2'/>"
        "<body name='cube' pos='0.3 0 0.1'><freejoint/><geom type='box' size='0.05 0.05 0.05' mass='1'/>"
        "</body></worldbody></mujoco>";
    turntable_carries(SLAB, "mesh turntable", 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contacts");
    TCase *tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_pair_type);
    tcase_add_test(tc, test_flat_manifolds);
    tcase_add_test(tc, test_margin_gap);
    tcase_add_test(tc, test_margin_sum_rest);
    tcase_add_test(tc, test_normal_without_dofs);
    tcase_add_test(tc, test_contact_csv);
    tcase_add_test(tc, test_solver_csv);
    tcase_add_test(tc, test_pgs_blocks);
    tcase_add_test(tc, test_surface_velocity);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
