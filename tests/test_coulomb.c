/* The Coulomb-exact contact model (docs/contact-math.md §11): every test asserts a physical
 * fact or a closed form (Signorini, Coulomb's cone and maximum dissipation, the incline's
 * threshold and acceleration, stopping distances, the point-mass ODE of anisotropic
 * friction, rolling and spinning thresholds of the unified cone, dry joint friction), with
 * tolerances derived in the comments. Measured figures are printed as "report:" lines. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "scene_util.h"
#include "solver/coulomb.h"
#include "solver/solver.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double G = 9.81;
static const double DEG = M_PI / 180;

static cs_model *load_string(const char *xml) { return load_xml(xml, "inline"); }

static void set_opt(cs_model *m, const char *name, const char *value)
{
    char err[256];
    ck_assert_msg(cs_option_set(&m->opt, name, value, err, sizeof err) == 0, "%s", err);
}

/* gravity tilted by gamma about world x: a slope of angle gamma falling towards +y */
static void tilt(cs_model *m, double gamma)
{
    m->opt.gravity[0] = 0;
    m->opt.gravity[1] = G * sin(gamma);
    m->opt.gravity[2] = -G * cos(gamma);
}

static void step_ok(const cs_model *m, cs_data *d)
{
    cs_step(m, d);
    ck_assert_msg(cs_check_finite(m, d) < 0, "diverged");
}

static double dist3(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* ---- the local problem --------------------------------------------------------------- */

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / (double)0x1000000;
}

/* Random blocks (dims 3, 4, 6; both cones): the solution satisfies Signorini (x_0 >= 0,
 * v_0 >= 0, x_0 v_0 = 0), lies in the cone, and its friction is maximally dissipative:
 * x_t . v_t equals the smallest value over the section, -x_0 ||D v_t|| (ellipsoid) or
 * -x_0 max_j mu_j |v_tj| (pyramid: the support function of the cross-polytope); stick
 * (inside) means v = 0. Tolerances: 1e-9 relative to the data's scale (the solves run to
 * rounding). */
START_TEST(test_local_ncp)
{
    unsigned seed = 7;
    int dims[3] = {3, 4, 6}, count[3] = {0, 0, 0};
    for (int trial = 0; trial < 3000; trial++) {
        int dim = dims[trial % 3], r = dim - 1, pyr = (trial / 3) % 2;
        double A[36], Gm[36], c[6], mu[5], x[6] = {0};
        for (int i = 0; i < dim * dim; i++) A[i] = 2 * urand(&seed) - 1;
        for (int i = 0; i < dim; i++)
            for (int j = 0; j < dim; j++) {
                double s = i == j ? 0.2 : 0;
                for (int k = 0; k < dim; k++) s += A[i * dim + k] * A[j * dim + k];
                Gm[i * dim + j] = s;
            }
        for (int i = 0; i < dim; i++) c[i] = 4 * urand(&seed) - 2;
        c[0] = -fabs(c[0]) * (trial % 7 ? 1 : -1);
        for (int j = 0; j < r; j++) mu[j] = 0.05 + 1.2 * urand(&seed);
        int rc = cs_coulomb_block(dim, Gm, c, mu, pyr, x);
        ck_assert_int_ge(rc, 0);
        double v[6], scale = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = c[i];
            for (int j = 0; j < dim; j++) v[i] += Gm[i * dim + j] * x[j];
            scale = fmax(scale, fabs(c[i]));
        }
        double tol = 1e-9 * (scale + 1);
        ck_assert(x[0] >= 0);
        ck_assert_msg(v[0] >= -tol, "v0 %g", v[0]);
        ck_assert_msg(fabs(x[0] * v[0]) <= tol * (x[0] + 1), "complementarity %g", x[0] * v[0]);
        double s = 0, dv = 0, xv = 0;
        for (int j = 0; j < r; j++) {
            s += pyr ? fabs(x[1 + j]) / mu[j] : (x[1 + j] / mu[j]) * (x[1 + j] / mu[j]);
            dv = pyr ? fmax(dv, mu[j] * fabs(v[1 + j])) : dv + mu[j] * mu[j] * v[1 + j] * v[1 + j];
            xv += x[1 + j] * v[1 + j];
        }
        if (!pyr) {
            s = sqrt(s);
            dv = sqrt(dv);
        }
        ck_assert_msg(s <= x[0] * (1 + 1e-9) + 1e-12, "outside the cone: %g > %g", s, x[0]);
        ck_assert_msg(fabs(xv + x[0] * dv) <= tol * (x[0] + 1),
                      "not maximally dissipative: x.v %g, min %g", xv, -x[0] * dv);
        if (rc == 1)
            for (int i = 0; i < dim; i++) ck_assert_msg(fabs(v[i]) <= tol, "stick v %g", v[i]);
        count[rc]++;
    }
    /* all three cases were met */
    ck_assert(count[0] > 100 && count[1] > 100 && count[2] > 100);
}
END_TEST

/* ---- loading and options ------------------------------------------------------------- */

START_TEST(test_model_choice)
{
    const char *base = "<mujoco><worldbody><geom type='plane' size='1 1 0.1'/></worldbody>%s</mujoco>";
    char xml[1024];
    snprintf(xml, sizeof xml, base, "");
    cs_model *m = load_string(xml);
    ck_assert_int_eq(m->opt.contact, CS_CONTACT_SOFT); /* MuJoCo's meaning by default */
    set_opt(m, "contact", "coulomb");
    ck_assert_int_eq(m->opt.contact, CS_CONTACT_COULOMB);
    char err[256];
    ck_assert_int_ne(cs_option_set(&m->opt, "contact", "hard", err, sizeof err), 0);
    cs_free_model(m);
    snprintf(xml, sizeof xml, base,
             "<custom><numeric name='x' data='1'/><text name='conesim:contact' data='coulomb'/></custom>");
    m = load_string(xml);
    ck_assert_int_eq(m->opt.contact, CS_CONTACT_COULOMB);
    cs_free_model(m);
    snprintf(xml, sizeof xml, base, "<custom><text name='other' data='coulomb'/></custom>");
    m = load_string(xml);
    ck_assert_int_eq(m->opt.contact, CS_CONTACT_SOFT);
    cs_free_model(m);
    snprintf(xml, sizeof xml, base, "<custom><text name='conesim:contact' data='hard'/></custom>");
    ck_assert_ptr_null(cs_load_xml_string(xml, "inline", NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "conesim:contact"));
}
END_TEST

/* ---- creep and the threshold --------------------------------------------------------- */

/* Below the Coulomb threshold (tan(gamma) = 0.9 mu, mu = 0.5) the box must not move: over
 * 2 s after 1 s of settling it moves less than 2 um (under 1 um/s), with impratio 1 and 10
 * (the Coulomb model has no regulariser, so impratio changes nothing) and both cones (along
 * an axis the pyramid's section is as wide as the disk). */
START_TEST(test_no_creep)
{
    double imp[2] = {1, 10};
    for (int cone = 0; cone < 2; cone++)
        for (int i = 0; i < 2; i++) {
            cs_model *m = load_scene("coulomb_block.xml");
            m->opt.impratio = imp[i];
            set_opt(m, "cone", cone ? "pyramidal" : "elliptic");
            tilt(m, atan(0.9 * 0.5));
            cs_data *d = cs_make_data(m);
            for (int k = 0; k < 500; k++) step_ok(m, d);
            double p0[3] = {d->qpos[0], d->qpos[1], d->qpos[2]};
            for (int k = 0; k < 1000; k++) step_ok(m, d);
            double v = dist3(p0, d->qpos) / 2;
            printf("report: creep at tan(gamma) = 0.45, impratio %g, %s: %.3g m/s\n", imp[i],
                   cone ? "pyramidal" : "elliptic", v);
            ck_assert_msg(v < 1e-6, "creep %g m/s", v);
            cs_free_data(d);
            cs_free_model(m);
        }
}
END_TEST

/* displacement of the block in 0.5 s at slope gamma */
static double slide_after(double gamma, const char *cone)
{
    cs_model *m = load_scene("coulomb_block.xml");
    set_opt(m, "cone", cone);
    tilt(m, gamma);
    cs_data *d = cs_make_data(m);
    double p0[3] = {d->qpos[0], d->qpos[1], d->qpos[2]};
    for (int k = 0; k < 250; k++) step_ok(m, d);
    double s = dist3(p0, d->qpos);
    cs_free_data(d);
    cs_free_model(m);
    return s;
}

/* Bisection on gamma for stick (moves < 1e-5 m in 0.5 s) vs slide: at 0.01 degree above
 * atan(mu) Coulomb's acceleration g (sin - mu cos) is about 1.9e-3 m/s^2, 2.4e-4 m in 0.5 s,
 * so the criterion separates the two well inside 0.01 degree; the transition must be
 * within 0.1 degree of atan(0.5) = 26.565 degrees. */
START_TEST(test_threshold_sweep)
{
    double lo = atan(0.5) - 2 * DEG, hi = atan(0.5) + 2 * DEG;
    ck_assert(slide_after(lo, "elliptic") < 1e-5);
    ck_assert(slide_after(hi, "elliptic") > 1e-5);
    for (int i = 0; i < 10; i++) {
        double mid = 0.5 * (lo + hi);
        if (slide_after(mid, "elliptic") > 1e-5) hi = mid;
        else lo = mid;
    }
    double g = 0.5 * (lo + hi);
    printf("report: stick/slide transition at %.4f deg (atan(0.5) = %.4f deg)\n", g / DEG,
           atan(0.5) / DEG);
    ck_assert_msg(fabs(g - atan(0.5)) < 0.1 * DEG, "transition at %g deg", g / DEG);
}
END_TEST

/* ---- the 33 degree incline ----------------------------------------------------------- */

/* The cube slides with Coulomb's acceleration a = g (sin 33 - 0.6 cos 33): displacement
 * a t^2/2 within 0.5 % at t = 1 and 2 s (semi-implicit Euler gives a h^2 n (n+1)/2, 1/n =
 * 0.2 % at 1 s above the continuous value); all four corners in contact in every step;
 * the cube neither lifts (its height along the slope's normal changes by < 0.05 mm) nor
 * turns. */
START_TEST(test_incline_33)
{
    cs_model *m = load_scene("coulomb_incline.xml");
    ck_assert_int_eq(m->opt.contact, CS_CONTACT_COULOMB);
    cs_data *d = cs_make_data(m);
    double g33 = 33 * DEG, a = G * (sin(g33) - 0.6 * cos(g33));
    double n[3] = {0, -sin(g33), cos(g33)}, p0[3] = {d->qpos[0], d->qpos[1], d->qpos[2]};
    double lift = 0, wmax = 0;
    int fewer = 0;
    for (int k = 1; k <= 1000; k++) {
        step_ok(m, d);
        int active = 0;
        for (int c = 0; c < d->ncon; c++) active += d->contact[c].force[0] > 0;
        fewer += active < 4;
        double h = 0;
        for (int i = 0; i < 3; i++) h += n[i] * (d->qpos[i] - p0[i]);
        lift = fmax(lift, fabs(h));
        wmax = fmax(wmax, sqrt(d->qvel[3] * d->qvel[3] + d->qvel[4] * d->qvel[4] + d->qvel[5] * d->qvel[5]));
        if (k == 500 || k == 1000) {
            double t = k * m->opt.timestep, s = dist3(p0, d->qpos), want = 0.5 * a * t * t;
            printf("report: incline 33: t %g s displacement %.6f m, Coulomb %.6f m (%.3f %%)\n",
                   t, s, want, 100 * (s / want - 1));
            ck_assert_msg(fabs(s / want - 1) < 0.005, "displacement %g vs %g", s, want);
        }
    }
    printf("report: incline 33: steps with fewer than 4 loaded contacts %d, lift %.3g m, "
           "max angular speed %.3g rad/s\n", fewer, lift, wmax);
    ck_assert_int_eq(fewer, 0);
    ck_assert(lift < 5e-5);
    ck_assert(wmax < 1e-3);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- the cube launched at 6 m/s ------------------------------------------------------ */

/* Stopping distance v^2/(2 mu g) = 3.6697 m within 1 % (the discrete one differs by about
 * v h / 2 = 6 mm, 0.16 %), at rest after v/(mu g) = 1.22 s; lift < 0.1 mm, pitch rate
 * < 0.05 rad/s, and stopped means stopped (true stick: no creep afterwards). */
START_TEST(test_cube_6ms)
{
    cs_model *m = load_scene("coulomb_cube_slide.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    double p0[3] = {d->qpos[0], d->qpos[1], d->qpos[2]}, lift = 0, wmax = 0;
    for (int k = 0; k < 1000; k++) {
        step_ok(m, d);
        lift = fmax(lift, fabs(d->qpos[2] - p0[2]));
        wmax = fmax(wmax, sqrt(d->qvel[3] * d->qvel[3] + d->qvel[4] * d->qvel[4]));
    }
    double s = d->qpos[0] - p0[0], want = 36 / (2 * 0.5 * G);
    double at2[3] = {d->qpos[0], d->qpos[1], d->qpos[2]};
    for (int k = 0; k < 500; k++) step_ok(m, d);
    printf("report: cube 6 m/s: stops after %.5f m (v^2/(2 mu g) = %.5f m, %.3f %%), lift %.3g "
           "m, pitch rate %.3g rad/s, moved %.3g m in the 1 s after\n", s, want,
           100 * (s / want - 1), lift, wmax, dist3(at2, d->qpos));
    ck_assert(fabs(s / want - 1) < 0.01);
    ck_assert(lift < 1e-4);
    ck_assert(wmax < 0.05);
    ck_assert(dist3(at2, d->qpos) < 1e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- the anisotropic puck ------------------------------------------------------------ */

/* The ideal: a point mass with dv/dt = -g D^2 v / ||D v||, D = diag(mu_x, mu_y) =
 * diag(0.3, 0.9) (docs/contact-math.md §3), integrated here by RK4 at 1 us until the speed
 * is gone. The puck must stop at that time and place within 1 %. */
static void puck_ode(const double *s, double *ds)
{
    double mx = 0.3, my = 0.9, n = sqrt(mx * mx * s[2] * s[2] + my * my * s[3] * s[3]);
    ds[0] = s[2];
    ds[1] = s[3];
    ds[2] = n > 0 ? -G * mx * mx * s[2] / n : 0;
    ds[3] = n > 0 ? -G * my * my * s[3] / n : 0;
}

START_TEST(test_puck)
{
    double s[4] = {0, 0, 0.8, 1.6}, t = 0, h = 1e-6;
    while (1) {
        double k1[4], k2[4], k3[4], k4[4], tmp[4];
        puck_ode(s, k1);
        /* the deceleration is at least 0.3 g: stop when a step would reverse the speed */
        if (sqrt(s[2] * s[2] + s[3] * s[3]) < 0.3 * G * h) break;
        for (int i = 0; i < 4; i++) tmp[i] = s[i] + 0.5 * h * k1[i];
        puck_ode(tmp, k2);
        for (int i = 0; i < 4; i++) tmp[i] = s[i] + 0.5 * h * k2[i];
        puck_ode(tmp, k3);
        for (int i = 0; i < 4; i++) tmp[i] = s[i] + h * k3[i];
        puck_ode(tmp, k4);
        for (int i = 0; i < 4; i++) s[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += h;
    }
    cs_model *m = load_scene("coulomb_puck.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    double tstop = -1;
    for (int k = 1; k <= 500; k++) {
        step_ok(m, d);
        if (tstop < 0 && fabs(d->qvel[0]) + fabs(d->qvel[1]) < 1e-9) tstop = k * m->opt.timestep;
    }
    printf("report: puck: ideal stop %.4f s at (%.4f, %.4f) m; simulated %.4f s at (%.4f, %.4f) m\n",
           t, s[0], s[1], tstop, d->qpos[0], d->qpos[1]);
    ck_assert(fabs(tstop / t - 1) < 0.01);
    ck_assert(fabs(d->qpos[0] / s[0] - 1) < 0.01);
    ck_assert(fabs(d->qpos[1] / s[1] - 1) < 0.01);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- energy -------------------------------------------------------------------------- */

/* The contact power sum f.v+ at the end-of-step velocities (the solver log's primal_cost in
 * this model) is never positive: Signorini makes f_n v_n+ = f_n v* (0 for a contact at its
 * resting depth, as every contact of these scenes from the start) and maximum dissipation
 * makes f_t.v_t+ <= 0. Bound: the sweeps stop when no velocity changes by more than the
 * tolerance (1e-8 m/s), so the normal part is at most sum f_n * 1e-8 W (per step, times a
 * margin of 10). A dropped cube lands 4 mm deep after a 1 cm fall: there the stabilisation
 * does positive work f_n v* while it pushes out; the power without it, sum f.(v+ - v*), is
 * never positive either. */
static void power_check(const char *scene, int key, double drop, int iterations)
{
    cs_model *m = load_scene(scene);
    if (iterations) m->opt.iterations = iterations;
    cs_data *d = cs_make_data(m);
    if (key) cs_reset_key(m, d, 0);
    d->qpos[2] += drop;
    d->solver_stats = 1;
    double pmax = -INFINITY, stabwork = 0;
    for (int k = 0; k < 1500; k++) {
        step_ok(m, d);
        double fn = 0;
        for (int c = 0; c < d->ncon; c++) fn += fabs(d->contact[c].force[0]);
        double bound = 10 * fn * m->opt.tolerance + 1e-12;
        double p = d->solver.cost, pstab = d->solver.dual_cost;
        if (drop == 0) ck_assert_msg(p <= bound, "%s step %d: power %g W", scene, k, p);
        ck_assert_msg(p - pstab <= bound, "%s step %d: power less stabilisation %g W", scene, k,
                      p - pstab);
        pmax = fmax(pmax, p);
        stabwork += pstab * m->opt.timestep;
    }
    printf("report: %s%s: largest contact power %.3g W; stabilisation work %.3g J\n", scene,
           drop > 0 ? " dropped" : "", pmax, stabwork);
    cs_free_data(d);
    cs_free_model(m);
}

START_TEST(test_power)
{
    power_check("coulomb_incline.xml", 0, 0, 0);
    power_check("coulomb_cube_slide.xml", 1, 0, 0);
    power_check("coulomb_puck.xml", 1, 0, 0);
    /* the stack's first steps stop at the default 100 sweeps short of the tolerance (the
     * bound assumes converged sweeps; there the power reaches a few 1e-4 W): 1000 sweeps */
    power_check("coulomb_stack.xml", 0, 0, 1000);
    power_check("coulomb_block.xml", 0, 0.01, 0);
}
END_TEST

/* A resting stack of five boxes: between 0.5 s and 10.5 s no box moves by 1 um or more
 * (the soft model settles and creeps); the floor carries 5 m g. */
START_TEST(test_stack_rest)
{
    cs_model *m = load_scene("coulomb_stack.xml");
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 250; k++) step_ok(m, d);
    double p0[15];
    for (int b = 0; b < 5; b++) memcpy(p0 + 3 * b, d->qpos + 7 * b, 3 * sizeof(double));
    for (int k = 0; k < 5000; k++) step_ok(m, d);
    double drift = 0, floor = 0;
    for (int b = 0; b < 5; b++) drift = fmax(drift, dist3(p0 + 3 * b, d->qpos + 7 * b));
    for (int c = 0; c < d->ncon; c++)
        if (d->contact[c].geom1 == 0 || d->contact[c].geom2 == 0) floor += d->contact[c].force[0];
    printf("report: stack: largest drift over 10 s %.3g m; floor load %.6f N\n", drift, floor);
    ck_assert(drift < 1e-6);
    ck_assert(fabs(floor - 5 * G) < 1e-6 * 5 * G);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- spin and rolling stick (condim 4 and 6) ---------------------------------------- */

static const char *BALL =
    "<mujoco><option timestep='0.002' cone='%s'/>"
    "<custom><text name='conesim:contact' data='coulomb'/></custom>"
    "<worldbody><geom name='floor' type='plane' size='5 5 0.1' friction='1 0.02 0.02'/>"
    "<body name='ball' pos='0 0 0.099999'><freejoint/>"
    "<geom type='sphere' size='0.1' mass='1' condim='%d' friction='1 0.02 0.02'/></body>"
    "</worldbody></mujoco>";

static cs_model *ball(const char *cone, int condim)
{
    char xml[1024];
    snprintf(xml, sizeof xml, BALL, cone, condim);
    return load_string(xml);
}

/* Spin (condim 4): a torque tau about the normal is held while |tau| <= mu_spin m g (one
 * contact, no sliding force needed); beyond it the ball spins up at (tau - mu_spin m g)/I,
 * I = 0.4 m r^2. At 0.9 of the bound: no rotation; at 1.1: that acceleration to 1 %. */
START_TEST(test_spin_stick)
{
    double lim = 0.02 * G, I = 0.4 * 0.01;
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < 2; i++) {
            cs_model *m = ball(c ? "pyramidal" : "elliptic", 4);
            cs_data *d = cs_make_data(m);
            double tau = (i ? 1.1 : 0.9) * lim;
            for (int k = 0; k < 500; k++) {
                d->xfrc_applied[6 + 5] = tau;
                step_ok(m, d);
            }
            double w = d->qvel[5];
            if (i == 0) ck_assert_msg(fabs(w) < 1e-9, "spins at %g", w);
            else ck_assert_msg(fabs(w / ((tau - lim) / I * 1.0) - 1) < 0.01, "w %g", w);
            printf("report: spin %s tau %.2f of the bound: w %.4g rad/s after 1 s\n",
                   c ? "pyramidal" : "elliptic", i ? 1.1 : 0.9, w);
            cs_free_data(d);
            cs_free_model(m);
        }
    }
}
END_TEST

/* Rolling (condim 6) on a slope gamma: held when friction m g sin and rolling torque
 * m g sin r fit the cone of m g cos: elliptic tan(gamma) <= 1/sqrt(1/mu^2 + r^2/mu_r^2)
 * (= 0.196 with mu = 1, r = 0.1, mu_r = 0.02), pyramidal tan(gamma) <= 1/(1/mu + r/mu_r)
 * (= 1/6). At 0.9 of the bound it stays (< 1 um in 1 s); at 1.1 it rolls away (> 1 mm). */
START_TEST(test_roll_stick)
{
    for (int c = 0; c < 2; c++) {
        double bound = c ? 1 / (1 + 0.1 / 0.02) : 1 / sqrt(1 + 25.0);
        for (int i = 0; i < 2; i++) {
            cs_model *m = ball(c ? "pyramidal" : "elliptic", 6);
            tilt(m, atan((i ? 1.1 : 0.9) * bound));
            cs_data *d = cs_make_data(m);
            double p0[3] = {d->qpos[0], d->qpos[1], d->qpos[2]};
            for (int k = 0; k < 500; k++) step_ok(m, d);
            double s = dist3(p0, d->qpos);
            printf("report: rolling %s at %.1f of the bound: moved %.3g m in 1 s\n",
                   c ? "pyramidal" : "elliptic", i ? 1.1 : 0.9, s);
            if (i == 0) ck_assert(s < 1e-6);
            else ck_assert(s > 1e-3);
            cs_free_data(d);
            cs_free_model(m);
        }
    }
}
END_TEST

/* ---- joints: limits and dry friction, an articulated body in contact --------------- */

static const char *SLIDER =
    "<mujoco><option timestep='0.002' gravity='0 0 0'/>"
    "<custom><text name='conesim:contact' data='coulomb'/></custom>"
    "<worldbody><body name='b'><joint name='s' type='slide' axis='1 0 0' range='-0.5 0.3' "
    "frictionloss='3'/><geom type='box' size='0.1 0.1 0.1' mass='2' contype='0' "
    "conaffinity='0'/></body></worldbody></mujoco>";

/* A 2 kg slider with dry friction F = 3 N: pushed by 2.5 N it does not move at all; pushed
 * by 5 N it accelerates at (5 - 3)/2 = 1 m/s^2 exactly, then stops at the limit 0.3 m and
 * stays there (within the allowed depth 1e-6 plus one step's approach), not penetrating
 * further under the push. */
START_TEST(test_joint_rows)
{
    cs_model *m = load_string(SLIDER);
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 500; k++) {
        d->qfrc_applied[0] = 2.5;
        step_ok(m, d);
    }
    ck_assert_msg(fabs(d->qpos[0]) < 1e-12 && fabs(d->qvel[0]) < 1e-12, "moved %g", d->qpos[0]);
    for (int k = 1; k <= 200; k++) {
        d->qfrc_applied[0] = 5;
        step_ok(m, d);
        if (k == 200) ck_assert_msg(fabs(d->qvel[0] - 0.4) < 1e-9, "v %g", d->qvel[0]);
    }
    double qmax = 0;
    for (int k = 0; k < 1000; k++) {
        d->qfrc_applied[0] = 5;
        step_ok(m, d);
        qmax = fmax(qmax, d->qpos[0]);
    }
    printf("report: slider: final %.9f m (limit 0.3), deepest %.3g m past it, speed %.3g\n",
           d->qpos[0], qmax - 0.3, d->qvel[0]);
    ck_assert(fabs(d->qpos[0] - 0.3) < 2e-6);
    ck_assert(fabs(d->qvel[0]) < 1e-9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static const char *ARM =
    "<mujoco><option timestep='0.002'/>"
    "<custom><text name='conesim:contact' data='coulomb'/></custom>"
    "<worldbody><geom name='floor' type='plane' size='5 5 0.1' friction='0.8 0.005 0.0001'/>"
    "<body name='l1' pos='0 0 0.3'><joint name='j1' type='hinge' axis='0 1 0'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02' mass='1'/>"
    "<body name='l2' pos='0.3 0 0'><joint name='j2' type='hinge' axis='0 1 0'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 -0.3' size='0.02' mass='1'/></body></body>"
    "</worldbody></mujoco>";

/* A two-link arm hanging from a fixed pivot with its tip on the floor (a kinematic tree
 * with a rank-deficient contact block: 2 dofs, 3 rows): it falls until the tip rests, then
 * stays still (friction holds the tip: 0.8 is ample for this pose) with the tip's
 * penetration at the allowed depth, not growing. */
START_TEST(test_articulated_contact)
{
    cs_model *m = load_string(ARM);
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 1000; k++) step_ok(m, d);
    double q0[2] = {d->qpos[0], d->qpos[1]}, dmin = 0;
    for (int k = 0; k < 1500; k++) {
        step_ok(m, d);
        for (int c = 0; c < d->ncon; c++) dmin = fmin(dmin, d->contact[c].dist);
    }
    double dq = fabs(d->qpos[0] - q0[0]) + fabs(d->qpos[1] - q0[1]);
    printf("report: arm: joint motion over 3 s at rest %.3g rad, deepest contact %.3g m, "
           "contacts %d\n", dq, dmin, d->ncon);
    ck_assert_int_ge(d->ncon, 1);
    ck_assert(dq < 1e-6);
    ck_assert(dmin > -2e-6);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST


/* ---- towers: a stack of hard contacts as tall as it gets ---------------------------- */

/* n boxes of half-sizes (hx, hx, hz) face to face on the floor, the Coulomb model */
static cs_model *stack_of(int n, double hx, double hz, const char *cone, const char *method)
{
    size_t cap = 512 + 160 * (size_t)n;
    char *xml = malloc(cap), *p = xml;
    ck_assert(xml != NULL);
    p += sprintf(p, "<mujoco><option timestep='0.002' cone='%s'/>"
                    "<custom><text name='conesim:contact' data='coulomb'/></custom>"
                    "<worldbody><geom name='floor' type='plane' size='0 0 0.1'/>", cone);
    for (int k = 0; k < n; k++)
        p += sprintf(p, "<body name='box%d' pos='0 0 %.6g'><freejoint/>"
                        "<geom type='box' size='%.6g %.6g %.6g'/></body>", k, hz + 2 * hz * k,
                     hx, hx, hz);
    sprintf(p, "</worldbody></mujoco>");
    cs_model *m = load_string(xml);
    free(xml);
    if (method) set_opt(m, "coulomb_solver", method);
    return m;
}

/* n cubes of half-size 0.05 (1 kg) */
static cs_model *tower(int n, const char *cone, const char *method)
{
    return stack_of(n, 0.05, 0.05, cone, method);
}

/* the largest Coulomb residual (m/s) and the steps at the iteration limit over k steps;
 * the most proximal iterations an island took in one step */
static void run_steps(const cs_model *m, cs_data *d, int k, double *worst, int *atlimit,
                      double *iters, int *outer)
{
    for (int i = 0; i < k; i++) {
        step_ok(m, d);
        *worst = fmax(*worst, d->solver.improvement);
        *atlimit += d->solver.at_limit;
        *iters += d->solver.iterations;
        for (int s = 0; s < d->solver.nisland; s++) {
            const cs_island_stats *is = cs_solver_island(d->scratch->solver_ws, s);
            if (is->outer > *outer) *outer = is->outer;
        }
    }
}

/* A tower of 20 boxes stands (the top box moves less than 0.1 mm from 0.5 s, when the
 * boxes that started a rounding error apart have landed, to 5 s), every step converged
 * (residual within the tolerance, no step at the limit), and the contact forces are
 * statics: the floor carries 20 m g and the normal forces of all interfaces sum to
 * (1 + 2 + ... + 20) m g, to the residual's share. Solved by proximal Newton (the
 * island has 80 contacts). */
START_TEST(test_tower_stands)
{
    const char *cone = _i ? "pyramidal" : "elliptic";
    cs_model *m = tower(20, cone, NULL);
    cs_data *d = cs_make_data(m);
    double worst = 0, iters = 0, mg = m->body_mass[1] * G;
    int atlimit = 0, outer = 0;
    run_steps(m, d, 250, &worst, &atlimit, &iters, &outer);
    double top[3];
    memcpy(top, d->qpos + 7 * 19, sizeof top);
    run_steps(m, d, 2250, &worst, &atlimit, &iters, &outer);
    double moved = dist3(top, d->qpos + 7 * 19), floor = 0, all = 0;
    for (int c = 0; c < d->ncon; c++) {
        all += d->contact[c].force[0];
        if (d->contact[c].geom1 == 0 || d->contact[c].geom2 == 0) floor += d->contact[c].force[0];
    }
    printf("report: tower_20 (%s): top box moved %.3g m from 0.5 s to 5 s; worst residual %.3g m/s; "
           "%d steps at the limit; %.2f iterations a step; floor %.6f N (20 m g %.6f), all "
           "%.6f N (210 m g %.6f)\n", cone, moved, worst, atlimit, iters / 2500, floor, 20 * mg, all,
           210 * mg);
    ck_assert(moved < 1e-4);
    ck_assert_int_eq(atlimit, 0);
    ck_assert(worst <= m->opt.tolerance);
    ck_assert_int_gt(outer, 0); /* proximal Newton ran */
    ck_assert(fabs(floor - 20 * mg) < 1e-6 * 20 * mg);
    ck_assert(fabs(all - 210 * mg) < 1e-6 * 210 * mg);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* Iterations against the height of a stack: towers of 5, 10, 20 and 40 boxes over 1 s.
 * Block Gauss-Seidel carries a force one contact further per sweep, so its sweeps grow at
 * least linearly with the height (8x from 5 to 40 boxes) and reach the limit; proximal
 * Newton's stay nearly flat: no step at the limit, and the tallest tower's mean within 3x
 * the shortest's. */
START_TEST(test_tower_iterations_flat)
{
    static const int N[4] = {5, 10, 20, 40};
    double mean[4];
    for (int i = 0; i < 4; i++) {
        cs_model *m = tower(N[i], "elliptic", NULL);
        cs_data *d = cs_make_data(m);
        double worst = 0, iters = 0;
        int atlimit = 0, outer = 0;
        run_steps(m, d, 500, &worst, &atlimit, &iters, &outer);
        mean[i] = iters / 500;
        printf("report: tower of %d: %.2f iterations a step, %d at the limit, worst residual "
               "%.3g m/s\n", N[i], mean[i], atlimit, worst);
        ck_assert_int_eq(atlimit, 0);
        ck_assert(worst <= m->opt.tolerance);
        cs_free_data(d);
        cs_free_model(m);
    }
    ck_assert(mean[3] < 3 * mean[0]);
}
END_TEST

/* A stack sliding as one: 4 plates (0.3 x 0.3 x 0.04 m: too wide to tip) on a slope
 * (gravity tilted 40 degrees), mu = 0.7 everywhere. The bottom box slides with a = g (sin - mu cos); the boxes above need
 * m_above (g sin - a) = mu N_above of friction to follow, which is exactly their cone's
 * bound, so they ride along: every box reaches v = a t (semi-implicit Euler: exactly, after
 * the first steps' landing), within 1 %. Proximal Newton, every step converged; block
 * Gauss-Seidel, for comparison, hits its limit here (reported). */
START_TEST(test_sliding_tower)
{
    const char *cone = _i ? "pyramidal" : "elliptic";
    for (int mth = 0; mth < 2; mth++) {
        cs_model *m = stack_of(4, 0.15, 0.02, cone, mth ? "nsgs" : NULL);
        for (int g = 0; g < m->ngeom; g++) m->geom_friction[3 * g] = 0.7;
        tilt(m, 40 * DEG);
        cs_data *d = cs_make_data(m);
        double worst = 0, iters = 0, a = G * (sin(40 * DEG) - 0.7 * cos(40 * DEG));
        int atlimit = 0, outer = 0;
        run_steps(m, d, 250, &worst, &atlimit, &iters, &outer);
        double err = 0;
        for (int b = 0; b < 4; b++) err = fmax(err, fabs(d->qvel[6 * b + 1] / (a * d->time) - 1));
        printf("report: sliding tower (%s), %s: velocities within %.3g of a t (a = %.4f m/s^2); %d "
               "steps at the limit, worst residual %.3g m/s, %.2f iterations a step\n",
               cone, mth ? "block Gauss-Seidel" : "proximal Newton", err, a, atlimit, worst,
               iters / 250);
        if (!mth) {
            ck_assert(err < 0.01);
            ck_assert_int_eq(atlimit, 0);
            ck_assert(worst <= m->opt.tolerance);
            ck_assert_int_gt(outer, 0);
        } else {
            ck_assert_int_eq(outer, 0); /* Gauss-Seidel alone */
        }
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coulomb");
    TCase *tc = tcase_create("coulomb");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_local_ncp);
    tcase_add_test(tc, test_model_choice);
    tcase_add_test(tc, test_no_creep);
    tcase_add_test(tc, test_threshold_sweep);
    tcase_add_test(tc, test_incline_33);
    tcase_add_test(tc, test_cube_6ms);
    tcase_add_test(tc, test_puck);
    tcase_add_test(tc, test_power);
    tcase_add_test(tc, test_stack_rest);
    tcase_add_test(tc, test_spin_stick);
    tcase_add_test(tc, test_roll_stick);
    tcase_add_test(tc, test_joint_rows);
    tcase_add_test(tc, test_articulated_contact);
    tcase_add_loop_test(tc, test_tower_stands, 0, 2);
    tcase_add_test(tc, test_tower_iterations_flat);
    tcase_add_loop_test(tc, test_sliding_tower, 0, 2);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
