/* Physics of articulated bodies: each test asserts a physical fact (a pendulum's period, energy
 * conservation and dissipation, a limit carrying the load, dry joint friction's stick/slip
 * threshold, a gripper's friction hold, rolling without slip, contacts between links of one
 * tree, MuJoCo's contact filters), with tolerances derived in the comments from the model's
 * numbers, never a number copied from a previous run. Measured quantities are printed on
 * stdout ("report: ..."), visible in the test log. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double G = 9.81;

/* ---- helpers ---------------------------------------------------------------------------- */
static cs_model *load_string(const char *xml, const char *name) { return load_xml(xml, name); }

static int joint_id(const cs_model *m, const char *name)
{
    int j = cs_name2id_joint(m, name);
    ck_assert_msg(j >= 0, "no joint %s", name);
    return j;
}

static int body_id(const cs_model *m, const char *name)
{
    int b = cs_name2id_body(m, name);
    ck_assert_msg(b >= 0, "no body %s", name);
    return b;
}

/* total mechanical energy at the current state (kinematics and M recomputed first) */
static double energy(const cs_model *m, cs_data *d)
{
    cs_forward(m, d);
    return cs_energy_kinetic(m, d) + cs_energy_potential(m, d);
}

static const char *solver_name(int s) { return s == CS_SOLVER_PGS ? "pgs" : "newton"; }

/* ---- pendulum --------------------------------------------------------------------------- */
/* A compound pendulum: a hinge about world y with the body's centre of mass d = 0.3 m below
 * it, mass 1 kg and inertia 0.01 kg m^2 about the COM, so I = 0.01 + m d^2 = 0.1 kg m^2 about
 * the pivot (plus the armature, which adds to the hinge's inertia). No geoms: nothing
 * collides. */
static char *pendulum_xml(double timestep, double damping, double armature, double q0)
{
    char *s = malloc(1024);
    ck_assert(s != NULL);
    snprintf(s, 1024,
             "<mujoco model=\"pendulum\"><option timestep=\"%.17g\"/><worldbody>"
             "<body name=\"p\" pos=\"0 0 1\">"
             "<joint name=\"h\" axis=\"0 1 0\" damping=\"%.17g\" armature=\"%.17g\"/>"
             "<inertial pos=\"0 0 -0.3\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>"
             "</body></worldbody>"
             "<keyframe><key qpos=\"%.17g\"/></keyframe></mujoco>",
             timestep, damping, armature, q0);
    return s;
}

static cs_model *load_pendulum(double timestep, double damping, double armature, double q0)
{
    char *s = pendulum_xml(timestep, damping, armature, q0);
    cs_model *m = load_string(s, "pendulum.xml");
    free(s);
    return m;
}

/* Small-amplitude period 2 pi sqrt(I / (m g d)), measured between upward zero crossings of
 * the angle (linear interpolation within a step) over 5 periods. The amplitude 0.02 rad
 * lengthens the period by theta0^2 / 16 = 2.5e-5 and the semi-implicit Euler step (h = 1 ms,
 * omega h = 5.4e-3) changes the frequency by (omega h)^2 / 24 ~ 1e-6: both far inside 0.5%. */
static double measure_period(const cs_model *m, cs_data *d, int ncross)
{
    double t_first = -1, t_last = -1, qprev = d->qpos[0];
    int n = 0;
    while (n <= ncross) {
        step_checked(m, d);
        double q = d->qpos[0];
        if (qprev < 0 && q >= 0) {
            double t = d->time - m->opt.timestep * q / (q - qprev);
            if (n == 0) t_first = t;
            t_last = t;
            n++;
        }
        qprev = q;
        ck_assert_msg(d->time < 60, "no oscillation");
    }
    return (t_last - t_first) / ncross;
}

START_TEST(test_pendulum_period)
{
    const double I = 0.01 + 1 * 0.3 * 0.3, mgd = 1 * G * 0.3;
    const double armature[2] = {0, 0.05};
    for (int k = 0; k < 2; k++) {
        cs_model *m = load_pendulum(0.001, 0, armature[k], 0.02);
        cs_data *d = cs_make_data(m);
        ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
        double T = measure_period(m, d, 5);
        double Tth = 2 * M_PI * sqrt((I + armature[k]) / mgd);
        printf("report: pendulum armature %g: period %.6f s, 2 pi sqrt(I/(m g d)) = %.6f s (%+.2e)\n",
               armature[k], T, Tth, T / Tth - 1);
        ck_assert_msg(fabs(T / Tth - 1) < 0.005, "period %.6f, expected %.6f", T, Tth);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* Without damping the hinge does no work and gravity is conservative: kinetic + potential
 * energy is constant. The semi-implicit (symplectic) Euler step keeps a nearby energy
 * exactly, so the computed one oscillates without drift; for an oscillator the two differ by
 * a fraction omega h / 2 of the energy. From 1 rad (energy scale E = m g d (1 - cos 1)) with
 * h = 0.1 ms over 3 s the energy must stay within omega h E of its start, omega =
 * sqrt(m g d / I) = 5.42 rad/s: 5.4e-4 E. */
START_TEST(test_pendulum_energy_conserved)
{
    const double h = 1e-4, I = 0.1, mgd = G * 0.3, omega = sqrt(mgd / I);
    cs_model *m = load_pendulum(h, 0, 0, 1.0);
    cs_data *d = cs_make_data(m);
    ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
    double E0 = energy(m, d), Escale = mgd * (1 - cos(1.0)), dev = 0;
    for (int k = 0; k < 30000; k++) {
        step_checked(m, d);
        if (k % 10 == 0) dev = fmax(dev, fabs(energy(m, d) - E0));
    }
    printf("report: undamped pendulum: |E - E0| <= %.3e J over 3 s (bound omega h E = %.3e J)\n",
           dev, omega * h * Escale);
    ck_assert_msg(dev <= omega * h * Escale, "energy drifts by %g J", dev);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* With hinge damping b the energy can only decrease, and for small amplitude it decays as
 * exp(-(b / I) t) on average over whole periods (the damping ratio b / (2 I omega) = 0.046
 * changes that by its square, 0.2%). Checked every 10 steps for the decrease, and after 4
 * periods for the rate, within 2%. */
START_TEST(test_pendulum_energy_dissipated)
{
    const double h = 1e-4, I = 0.1, b = 0.05, mgd = G * 0.3;
    cs_model *m = load_pendulum(h, b, 0, 0.05);
    cs_data *d = cs_make_data(m);
    ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
    /* the potential is m g z of the COM: at rest at the bottom z = 1 - 0.3 = 0.7 m; the
     * oscillation's energy is what lies above that */
    const double Erest = 1 * G * 0.7;
    double E0 = energy(m, d) - Erest, Eprev = E0;
    double omega = sqrt(mgd / I), zeta = b / (2 * I * omega);
    double Td = 2 * M_PI / (omega * sqrt(1 - zeta * zeta)); /* the damped period */
    int n = (int)lround(4 * Td / h), rises = 0;
    for (int k = 1; k <= n; k++) {
        step_checked(m, d);
        if (k % 10 == 0) {
            double E = energy(m, d) - Erest;
            if (E > Eprev) rises++;
            Eprev = E;
        }
    }
    double ratio = (energy(m, d) - Erest) / E0, expect = exp(-b / I * n * h);
    printf("report: damped pendulum: E ratio after 4 periods %.6f, exp(-b t / I) = %.6f; "
           "rises %d\n", ratio, expect, rises);
    ck_assert_int_eq(rises, 0);
    ck_assert_msg(fabs(ratio / expect - 1) < 0.02, "decay %.6f, expected %.6f", ratio, expect);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- a limit that holds ------------------------------------------------------------------ */
/* An arm on a hinge about world y, its COM d = 0.3 m out along +x (mass 1 kg): gravity turns
 * it towards +q, and the range's upper end 0 holds it level. At rest the limit row carries
 * the gravity torque: qfrc_constraint = m g d cos q on the hinge (M qacc = 0). The soft limit
 * settles past the range by |pos| = f (1 - imp) invweight0 dmax^2 tc^2 / imp^2 (MuJoCo's
 * a_ref = -k imp pos at rest, R = (1 - imp) / imp invweight0, k = 1 / (dmax tc)^2), largest
 * at the smallest impedance solimp[0]; the same for a slide joint along world z resting on its
 * lower end, where the limit carries m g. */
static void limit_holds(const char *xml, const char *what, double load, int solver)
{
    cs_model *m = load_string(xml, "limit.xml");
    m->opt.solver = solver;
    cs_data *d = cs_make_data(m);
    steps(m, d, 1000); /* 1 s: the soft limit's time constant is 0.02 s */
    cs_forward(m, d);
    double q = d->qpos[0], f = d->qfrc_constraint[0];
    double bias = d->qfrc_bias[0], Ma = 0;
    cs_mul_M(m, d, &Ma, d->qacc);
    double expect = load * (m->jnt_type[0] == CS_JNT_HINGE ? cos(q) : 1);
    const double *si = m->jnt_solimp, *sr = m->jnt_solref;
    double d0 = si[0], dmax = si[1], tc = sr[0];
    double pos_bound = fabs(f) * (1 - d0) * m->dof_invweight0[0] * dmax * dmax * tc * tc / (d0 * d0);
    double over = m->jnt_type[0] == CS_JNT_HINGE ? q - m->jnt_range[1] : m->jnt_range[0] - q;
    printf("report: %s on its limit (%s): qfrc_constraint %.9f, load %.9f, -qfrc_bias %.9f, "
           "M qacc %.2e, past the range by %.3e (bound %.3e), qvel %.1e\n", what,
           solver_name(solver), f, expect, -bias, Ma, over, pos_bound, d->qvel[0]);
    ck_assert_msg(fabs(fabs(f) / expect - 1) < 1e-6, "limit force %.12g, load %.12g", f, expect);
    ck_assert_msg(fabs(f + d->qfrc_smooth[0]) < 1e-6 * expect, "not in balance");
    ck_assert_msg(fabs(Ma) < 1e-6 * expect, "M qacc = %g", Ma);
    ck_assert_msg(over >= 0 && over <= pos_bound, "past the range by %g (bound %g)", over, pos_bound);
    ck_assert_msg(fabs(d->qvel[0]) < 1e-6, "still moving: %g", d->qvel[0]);
    /* the row itself (cs_jrow_get, the --limits CSV): one limit row on the side it rests on,
     * its force the load (J = -1 on the upper side, +1 on the lower), pos the overshoot */
    cs_jrow r;
    ck_assert_int_eq(cs_jrow_count(m, d), 1);
    ck_assert_int_eq(cs_jrow_get(m, d, 0, &r), 0);
    ck_assert_int_eq(cs_jrow_get(m, d, 1, &r), -1);
    cs_jrow_get(m, d, 0, &r);
    int upper = m->jnt_type[0] == CS_JNT_HINGE;
    ck_assert_int_eq(r.kind, upper ? CS_JROW_UPPER : CS_JROW_LOWER);
    ck_assert_str_eq(cs_jrow_kind_name(r.kind), upper ? "limit_upper" : "limit_lower");
    ck_assert_int_eq(r.joint, 0);
    ck_assert_int_eq(r.dof, 0);
    ck_assert_double_eq_tol(r.force, upper ? -f : f, 1e-12 * expect);
    ck_assert_double_eq_tol(r.pos, -over, 1e-15);
    cs_free_data(d);
    cs_free_model(m);
}

START_TEST(test_limit_holds)
{
    const char *hinge =
        "<mujoco><worldbody><body name=\"arm\" pos=\"0 0 1\">"
        "<joint name=\"h\" axis=\"0 1 0\" range=\"-60 0\"/>"
        "<inertial pos=\"0.3 0 0\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>"
        "</body></worldbody><keyframe><key qpos=\"-0.05\"/></keyframe></mujoco>";
    const char *slide =
        "<mujoco><worldbody><body name=\"block\" pos=\"0 0 1\">"
        "<joint name=\"s\" type=\"slide\" axis=\"0 0 1\" range=\"-0.5 0.5\"/>"
        "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"2\"/>"
        "</body></worldbody><keyframe><key qpos=\"-0.48\"/></keyframe></mujoco>";
    for (int s = 0; s < 2; s++) {
        int solver = s ? CS_SOLVER_PGS : CS_SOLVER_NEWTON;
        limit_holds(hinge, "hinge arm", 1 * G * 0.3, solver);
        limit_holds(slide, "slide block", 2 * G, solver);
    }
}
END_TEST

/* The joint rows in MuJoCo's order: a friction row per dof with frictionloss (the ball's
 * three dofs, then the hinge's), then the limits joint by joint, a hinge whose margin spans
 * its range getting both sides (lower first), the ball's rotation-angle limit; and each row's
 * distance from its limit. */
START_TEST(test_jrow_order)
{
    const char *xml =
        "<mujoco><worldbody><body pos=\"0 0 1\">"
        "<joint name=\"ball\" type=\"ball\" range=\"0 30\" frictionloss=\"0.1\"/>"
        "<geom type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.02\"/>"
        "<body pos=\"0.3 0 0\"><joint name=\"h\" axis=\"0 1 0\" range=\"-10 10\" "
        "margin=\"1\" frictionloss=\"0.2\"/>"
        "<geom type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.02\"/></body>"
        "</body></worldbody>"
        "<keyframe><key qpos=\"0.96126169593831889 0 0.27563735581699916 0 0.05\"/></keyframe>"
        "</mujoco>";
    cs_model *m = load_string(xml, "order.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    cs_forward(m, d);
    ck_assert_int_eq(cs_jrow_count(m, d), 7);
    const int kind[7] = {CS_JROW_FRICTION, CS_JROW_FRICTION, CS_JROW_FRICTION, CS_JROW_FRICTION,
                         CS_JROW_ANGLE, CS_JROW_LOWER, CS_JROW_UPPER};
    const int joint[7] = {0, 0, 0, 1, 0, 1, 1}, dof[7] = {0, 1, 2, 3, 0, 3, 3};
    /* the ball is turned 32 degrees about y, 2 past its limit; the hinge is at 0.05 rad */
    const double deg = M_PI / 180, h = 0.05;
    const double pos[7] = {0, 0, 0, 0, -2 * deg, h + 10 * deg, 10 * deg - h};
    for (int i = 0; i < 7; i++) {
        cs_jrow r;
        ck_assert_int_eq(cs_jrow_get(m, d, i, &r), 0);
        ck_assert_msg(r.kind == kind[i] && r.joint == joint[i] && r.dof == dof[i],
                      "row %d: kind %d joint %d dof %d", i, r.kind, r.joint, r.dof);
        ck_assert_msg(fabs(r.pos - pos[i]) < 1e-12, "row %d: pos %.17g, expected %.17g", i,
                      r.pos, pos[i]);
        if (r.kind == CS_JROW_FRICTION)
            ck_assert(fabs(r.force) <= m->dof_frictionloss[r.dof] * (1 + 1e-12));
        else
            ck_assert(r.force >= 0);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- dry joint friction ------------------------------------------------------------------ */
/* A 1 kg block on a horizontal slide joint with frictionloss F_f = 2 N, pushed by a constant
 * generalized force P (qfrc_applied). Below F_f it sticks: the soft friction row then only
 * creeps, at the steady speed where its force -P equals -B v / R (a_ref = -B v, B = 2 / (dmax
 * tc), R = (1 - imp) / imp invweight0 at pos 0, imp = solimp[0]): v = P R / B. Above F_f the row
 * saturates at F_f and the block accelerates at (P - F_f) / m, exactly. */
START_TEST(test_frictionloss_threshold)
{
    const char *xml =
        "<mujoco><option gravity=\"0 0 -9.81\"/><worldbody><body name=\"block\" pos=\"0 0 1\">"
        "<joint name=\"s\" type=\"slide\" axis=\"1 0 0\" frictionloss=\"2\"/>"
        "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\"/>"
        "</body></worldbody></mujoco>";
    const double Ff = 2, mass = 1;
    for (int s = 0; s < 2; s++) {
        int solver = s ? CS_SOLVER_PGS : CS_SOLVER_NEWTON;
        const double P[4] = {0.5 * Ff, 0.98 * Ff, 1.02 * Ff, 1.5 * Ff};
        for (int k = 0; k < 4; k++) {
            cs_model *m = load_string(xml, "frictionloss.xml");
            m->opt.solver = solver;
            cs_data *d = cs_make_data(m);
            const double *si = m->dof_solimp, *sr = m->dof_solref;
            double imp = si[0], B = 2 / (si[1] * sr[0]);
            double R = (1 - imp) / imp * m->dof_invweight0[0];
            d->qfrc_applied[0] = P[k];
            steps(m, d, 500); /* 1 s: past the row's transient */
            double v1 = d->qvel[0];
            steps(m, d, 500);
            double v2 = d->qvel[0], a = (v2 - v1) / 1.0;
            if (P[k] < Ff) {
                double creep = P[k] * R / B;
                printf("report: frictionloss %s P = %.2f F_f: sticks, creep %.4e m/s "
                       "(soft row's P R / B = %.4e), a %.2e\n",
                       solver_name(solver), P[k] / Ff, v2, creep, a);
                ck_assert_msg(fabs(v2 / creep - 1) < 1e-3, "creep %g, P R / B %g", v2, creep);
                ck_assert_msg(fabs(a) < 1e-6, "accelerates at %g", a);
                /* the friction row carries the push: -P, inside its bound */
                cs_jrow r;
                ck_assert_int_eq(cs_jrow_count(m, d), 1);
                cs_jrow_get(m, d, 0, &r);
                ck_assert_int_eq(r.kind, CS_JROW_FRICTION);
                ck_assert_double_eq_tol(r.force, -P[k], 1e-6 * Ff);
                ck_assert_double_eq(r.pos, 0);
            } else {
                double expect = (P[k] - Ff) / mass;
                printf("report: frictionloss %s P = %.2f F_f: slides, a = %.9f m/s^2 "
                       "((P - F_f) / m = %.9f)\n", solver_name(solver), P[k] / Ff, a, expect);
                ck_assert_msg(fabs(a / expect - 1) < 1e-6, "a %.12g, expected %.12g", a, expect);
                /* sliding: the row sits on its bound, against the motion */
                cs_jrow r;
                cs_jrow_get(m, d, 0, &r);
                ck_assert_int_eq(r.kind, CS_JROW_FRICTION);
                ck_assert_double_eq_tol(r.force, -Ff, 1e-12 * Ff);
                ck_assert_double_eq_tol(r.force, d->qfrc_constraint[0], 1e-12 * Ff);
            }
            cs_free_data(d);
            cs_free_model(m);
        }
    }
}
END_TEST

/* ---- the gripper's friction hold ---------------------------------------------------------- */
/* scenes/gripper_hold.xml: four pads (two per finger, mu = 0.5) squeeze the box with the
 * fingers' spring force F = k (springref - q) each; friction holds the box while
 * m g <= 2 mu F. F is read from the springs while the box is gripped (at rest across the box,
 * the contacts carry exactly the spring's force); the limit mass 2 mu F / g is then bracketed
 * at 1%: 0.99 of it holds (the box only creeps, at the soft contacts' steady speed, well under
 * 5 mm/s, and does not speed up), 1.01 of it slides, accelerating at g - 2 mu F / m
 * (0.1 m/s^2; checked within 20% between 0.3 and 0.8 s, after the soft contacts' transient),
 * and drops out of the gripper. */
typedef struct {
    double F;      /* spring squeeze at t2 */
    double vz, az; /* box vertical velocity at t2, mean acceleration t1..t2 */
    double z;      /* box height at t2 */
} grip_result;

static grip_result gripper_run(double mass, int solver, double t1, double t2)
{
    char *s = read_scene("gripper_hold.xml");
    char to[96];
    snprintf(to, sizeof to, "mass=\"%.17g\" rgba=\"0.9 0.6 0.2 1\"", mass);
    s = edit(s, "mass=\"0.8\" rgba=\"0.9 0.6 0.2 1\"", to);
    cs_model *m = load_string(s, "gripper_hold.xml");
    free(s);
    m->opt.solver = solver;
    cs_data *d = cs_make_data(m);
    int n1 = (int)lround(t1 / m->opt.timestep), n2 = (int)lround(t2 / m->opt.timestep);
    int box = body_id(m, "box"), jl = joint_id(m, "left"), jr = joint_id(m, "right");
    double pos[3], quat[4], vel[3], w[3];
    steps(m, d, n1);
    cs_body_state(m, d, box, pos, quat, vel, w);
    double v1 = vel[2];
    steps(m, d, n2 - n1);
    cs_body_state(m, d, box, pos, quat, vel, w);
    grip_result r = {0, vel[2], (vel[2] - v1) / ((n2 - n1) * m->opt.timestep), pos[2]};
    double Fl = m->jnt_stiffness[jl] * (m->qpos_spring[m->jnt_qposadr[jl]] - d->qpos[m->jnt_qposadr[jl]]);
    double Fr = m->jnt_stiffness[jr] * (m->qpos_spring[m->jnt_qposadr[jr]] - d->qpos[m->jnt_qposadr[jr]]);
    ck_assert_msg(fabs(Fl - Fr) < 1e-6 * fabs(Fl), "fingers squeeze unequally: %g %g", Fl, Fr);
    r.F = 0.5 * (Fl + Fr);
    cs_free_data(d);
    cs_free_model(m);
    return r;
}

START_TEST(test_gripper_threshold)
{
    const double mu = 0.5;
    for (int s = 0; s < 2; s++) {
        int solver = s ? CS_SOLVER_PGS : CS_SOLVER_NEWTON;
        const char *sn = solver_name(solver);
        grip_result r0 = gripper_run(0.8, solver, 0.3, 0.5);
        double mstar = 2 * mu * r0.F / G;
        printf("report: gripper %s: spring squeeze F = %.6f N, limit mass 2 mu F / g = %.6f kg\n",
               sn, r0.F, mstar);
        ck_assert_msg(fabs(r0.vz) < 5e-3, "the 0.8 kg box is not held: vz %g", r0.vz);
        grip_result h = gripper_run(0.99 * mstar, solver, 0.5, 1.5);
        printf("report: gripper %s m = 0.99 limit: F %.6f N, box vz %.3e m/s, az %.3e m/s^2\n",
               sn, h.F, h.vz, h.az);
        ck_assert_msg(fabs(h.F / r0.F - 1) < 1e-3, "squeeze changed: %g vs %g", h.F, r0.F);
        ck_assert_msg(fabs(h.vz) < 5e-3 && fabs(h.az) < 1e-3, "not held: vz %g az %g", h.vz, h.az);
        double m2 = 1.01 * mstar;
        grip_result sl = gripper_run(m2, solver, 0.3, 0.8);
        double expect = -(G - 2 * mu * sl.F / m2);
        printf("report: gripper %s m = 1.01 limit: F %.6f N, box vz %.3e m/s at 0.8 s, "
               "az %.4f m/s^2 (-(g - 2 mu F / m) = %.4f)\n", sn, sl.F, sl.vz, sl.az, expect);
        ck_assert_msg(fabs(sl.F / r0.F - 1) < 1e-3, "squeeze changed: %g vs %g", sl.F, r0.F);
        ck_assert_msg(fabs(sl.az / expect - 1) < 0.2, "az %g, expected %g", sl.az, expect);
        grip_result out = gripper_run(m2, solver, 1.0, 2.0);
        printf("report: gripper %s m = 1.01 limit: box at z = %.3f m after 2 s (held at 0.5 m at the start)\n",
               sn, out.z);
        ck_assert_msg(out.z < 0.4, "the box did not fall out: z %g", out.z);
    }
}
END_TEST

/* ---- rolling without slip ---------------------------------------------------------------- */
/* scenes/cart_incline.xml: once rolling, every wheel contact's tangential speed is the soft
 * contacts' creep only (below 0.1% of the cart's speed), each wheel turns about its axle at
 * v / r (v its centre's speed; the soft contact sinks it by a fraction of a millimetre, which
 * shortens the rolling radius by under 0.5%), and the cart accelerates at
 * g sin(gamma) M / (M + 4 I / r^2) with I = m_w r^2 / 2 (rolling takes no friction work). */
START_TEST(test_wheels_roll)
{
    char *s = read_scene("cart_incline.xml");
    cs_model *m = load_string(s, "cart_incline.xml");
    free(s);
    cs_data *d = cs_make_data(m);
    const double gamma = 10 * M_PI / 180, r = 0.05, mw = 0.2, M = 1 + 4 * mw;
    const double a_th = G * sin(gamma) * M / (M + 4 * 0.5 * mw);
    int cart = body_id(m, "cart");
    const char *wheel[4] = {"wheel_fl", "wheel_fr", "wheel_rl", "wheel_rr"};
    int n = (int)lround(0.5 / m->opt.timestep);
    steps(m, d, n);
    double pos[3], quat[4], vel[3], w[3];
    cs_body_state(m, d, cart, pos, quat, vel, w);
    double v0 = sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
    double slip_rel = 0, spin_rel = 0;
    for (int k = 0; k < 2 * n; k++) {
        step_checked(m, d);
        cs_body_state(m, d, cart, pos, quat, vel, w);
        double v = sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
        ck_assert_int_eq(d->ncon, 8);
        for (int c = 0; c < d->ncon; c++)
            slip_rel = fmax(slip_rel, hypot(d->contact[c].vel[1], d->contact[c].vel[2]) / v);
        for (int i = 0; i < 4; i++) {
            double wp[3], wq[4], wv[3], ww[3];
            cs_body_state(m, d, body_id(m, wheel[i]), wp, wq, wv, ww);
            double vw = sqrt(wv[0] * wv[0] + wv[1] * wv[1] + wv[2] * wv[2]);
            spin_rel = fmax(spin_rel, fabs(ww[1] * r / vw - 1));
        }
    }
    double v1 = sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
    double a = (v1 - v0) / (2 * n * m->opt.timestep);
    printf("report: cart: slip speed <= %.2e of v, |w r / v - 1| <= %.2e, a = %.5f m/s^2 "
           "(g sin M / (M + 4 I / r^2) = %.5f)\n", slip_rel, spin_rel, a, a_th);
    ck_assert_msg(slip_rel < 1e-3, "wheels slip: %g of v", slip_rel);
    ck_assert_msg(spin_rel < 5e-3, "w r / v off by %g", spin_rel);
    ck_assert_msg(fabs(a / a_th - 1) < 0.01, "a %g, expected %g", a, a_th);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- contacts between links of one tree ---------------------------------------------------- */
/* A three-link hinge chain without gravity: link1 hangs from the world at a pivot, link2
 * (which does not collide) rises from link1's end, link3 points back over link1 from link2's
 * top and is swung down onto it. link1 and link3 are not parent and child, so MuJoCo's
 * filters let them collide: a contact in one kinematic tree. Facts: they touch; the normal
 * force is never negative and turns the approach into separation (the closing speed changes
 * sign); they penetrate no deeper than the soft contact lets a closing speed v do (a
 * critically damped soft contact with time constant tc stops within v tc / e, and the
 * impedance's dmax shortens that: bounded here by v tc / 2); and the energy, all kinetic, does
 * not grow (a soft contact only dissipates; the step's own error is a fraction h omega of the
 * energy, under 1e-3 here). */
static const char *FOLD_XML =
    "<mujoco model=\"fold\"><option timestep=\"0.0005\" gravity=\"0 0 0\" cone=\"elliptic\"/>"
    "%s<worldbody>"
    "<body name=\"link1\" pos=\"0 0 1\"><joint name=\"j1\" axis=\"0 1 0\"/>"
    " <geom name=\"link1\" type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.02\" mass=\"1\"/>"
    " <body name=\"link2\" pos=\"0.3 0 0\"><joint name=\"j2\" axis=\"0 1 0\"/>"
    "  <geom name=\"link2\" type=\"capsule\" fromto=\"0 0 0 0 0 0.1\" size=\"0.02\" mass=\"0.3\""
    "   contype=\"0\" conaffinity=\"0\"/>"
    "  <body name=\"link3\" pos=\"0 0 0.1\"><joint name=\"j3\" axis=\"0 1 0\"/>"
    "   <geom name=\"link3\" type=\"capsule\" fromto=\"0 0 0 -0.25 0 0\" size=\"0.02\" mass=\"0.5\"/>"
    "  </body></body></body></worldbody>%s"
    "<keyframe><key qvel=\"0 0 -5\"/></keyframe></mujoco>";

static cs_model *load_fold(const char *before, const char *after)
{
    char xml[4096];
    snprintf(xml, sizeof xml, FOLD_XML, before, after);
    return load_string(xml, "fold.xml");
}

START_TEST(test_self_contact)
{
    for (int s = 0; s < 2; s++) {
        cs_model *m = load_fold("", "");
        m->opt.solver = s ? CS_SOLVER_PGS : CS_SOLVER_NEWTON;
        cs_data *d = cs_make_data(m);
        ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
        int g1 = cs_name2id_geom(m, "link1"), g3 = cs_name2id_geom(m, "link3");
        ck_assert_int_eq(m->body_treeid[m->geom_body[g1]], m->body_treeid[m->geom_body[g3]]);
        double E0 = energy(m, d), Emax = E0, mindist = INFINITY, vclose = 0, vlast = 0, fnmin = 0;
        double tc = 0.02;
        int touched = 0;
        for (int k = 0; k < 1000; k++) {
            step_checked(m, d);
            for (int c = 0; c < d->ncon; c++) {
                const cs_contact *con = &d->contact[c];
                int a = con->geom1, b = con->geom2;
                ck_assert_msg((a == g1 && b == g3) || (a == g3 && b == g1),
                              "unexpected contact %d-%d", a, b);
                if (!touched) vclose = -con->vel[0];
                touched = 1;
                mindist = fmin(mindist, con->dist);
                fnmin = fmin(fnmin, con->force[0]);
                vlast = con->vel[0];
            }
            Emax = fmax(Emax, energy(m, d));
        }
        /* after the contact is gone the links move apart: link3's joint angle velocity has
         * turned from closing (negative) to opening */
        double q3dot = d->qvel[2];
        printf("report: folding chain %s: touched %d, closing speed %.4f m/s, deepest %.3e m "
               "(bound v tc / 2 = %.3e), min f_n %.3e, last vn %.3e, q3dot %.4f, E max/E0 - 1 = %.2e\n",
               solver_name(m->opt.solver), touched, vclose, mindist, 0.5 * vclose * tc, fnmin, vlast,
               q3dot, Emax / E0 - 1);
        ck_assert(touched);
        ck_assert(vclose > 0);
        ck_assert_msg(fnmin >= 0, "pulling contact force %g", fnmin);
        ck_assert_msg(-mindist <= 0.5 * vclose * tc, "penetration %g beyond v tc / 2 = %g",
                      -mindist, 0.5 * vclose * tc);
        ck_assert_msg(vlast > 0 || d->ncon == 0, "not separating");
        ck_assert_msg(q3dot > 0, "link3 still closing: %g", q3dot);
        ck_assert_msg(Emax <= E0 * (1 + 1e-3), "energy grew by %g", Emax / E0 - 1);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* ---- MuJoCo's filters -------------------------------------------------------------------- */
/* Contacts between geoms of a parent and its child body are filtered out by default
 * (filterparent), and kept with <flag filterparent="disable"/>; an <exclude> of two links
 * removes their contacts. In the folding chain, link1 and link2 overlap at their joint and
 * link2 collides here (its contype/conaffinity left at 1): a contact only without the parent
 * filter. link3 is swung onto link1 as above: excluded, they pass through each other. */
static int count_pair(const cs_model *m, const cs_data *d, const char *a, const char *b)
{
    int ga = cs_name2id_geom(m, a), gb = cs_name2id_geom(m, b), n = 0;
    for (int c = 0; c < d->ncon; c++)
        if ((d->contact[c].geom1 == ga && d->contact[c].geom2 == gb) ||
            (d->contact[c].geom1 == gb && d->contact[c].geom2 == ga))
            n++;
    return n;
}

START_TEST(test_filters)
{
    const char *collide2 = "contype=\"0\" conaffinity=\"0\"";
    for (int variant = 0; variant < 3; variant++) {
        char xml[4096];
        const char *before = variant == 1 ? "<option><flag filterparent=\"disable\"/></option>" : "";
        const char *after = variant == 2 ? "<contact><exclude body1=\"link1\" body2=\"link3\"/></contact>" : "";
        snprintf(xml, sizeof xml, FOLD_XML, before, after);
        char *s = strdup(xml);
        ck_assert(s != NULL);
        s = edit(s, collide2, "contype=\"1\" conaffinity=\"1\"");
        cs_model *m = load_string(s, "filters.xml");
        free(s);
        cs_data *d = cs_make_data(m);
        ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
        cs_forward(m, d);
        int parent_child = count_pair(m, d, "link1", "link2") + count_pair(m, d, "link2", "link3");
        int l13 = 0;
        for (int k = 0; k < 400; k++) {
            step_checked(m, d);
            l13 += count_pair(m, d, "link1", "link3");
        }
        printf("report: filters variant %d: parent-child contacts at the start %d, link1-link3 "
               "contact steps %d\n", variant, parent_child, l13);
        if (variant == 1) {
            ck_assert_msg(parent_child > 0, "filterparent disabled: parent and child must collide");
        } else {
            ck_assert_int_eq(parent_child, 0);
        }
        if (variant == 2)
            ck_assert_int_eq(l13, 0);
        else
            ck_assert_int_gt(l13, 0);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* A ball joint limited to range "0 0" (MuJoCo takes it): the limit row holds the rotation
 * angle at 0, so a horizontal arm under gravity stays nearly horizontal (sagging by what the
 * soft limit yields), where the free ball lets it swing down past 1 rad */
START_TEST(test_ball_range_zero)
{
    double angle[2];
    for (int lim = 0; lim < 2; lim++) {
        char xml[1024];
        snprintf(xml, sizeof xml,
                 "<mujoco><worldbody><body pos='0 0 1'><joint type='ball' %s/>"
                 "<geom type='capsule' size='0.03' fromto='0 0 0 0.5 0 0' mass='1'/></body>"
                 "</worldbody></mujoco>", lim ? "limited='true' range='0 0'" : "");
        cs_model *m = load_string(xml, "ball0.xml");
        cs_data *d = cs_make_data(m);
        for (int i = 0; i < 500; i++) cs_step(m, d);
        double v[3], q[4] = {d->qpos[0], d->qpos[1], d->qpos[2], d->qpos[3]};
        cs_normquat(q);
        cs_quat2vel(v, q);
        angle[lim] = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        cs_free_data(d);
        cs_free_model(m);
    }
    printf("report: ball range 0 0: angle after 1 s %.4g rad (unlimited %.4g rad)\n", angle[1],
           angle[0]);
    ck_assert(angle[0] > 1);
    ck_assert(angle[1] < 0.05);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("joints");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pendulum_period);
    tcase_add_test(tc, test_pendulum_energy_conserved);
    tcase_add_test(tc, test_pendulum_energy_dissipated);
    tcase_add_test(tc, test_limit_holds);
    tcase_add_test(tc, test_jrow_order);
    tcase_add_test(tc, test_frictionloss_threshold);
    tcase_add_test(tc, test_gripper_threshold);
    tcase_add_test(tc, test_wheels_roll);
    tcase_add_test(tc, test_self_contact);
    tcase_add_test(tc, test_filters);
    tcase_add_test(tc, test_ball_range_zero);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
