/* Actuators, controls and integrators: each test asserts a physical fact or MuJoCo's model
 * (the gripper's friction hold/slip threshold 2 mu F = m g under Newton and PGS, the walker
 * standing on its servos, a servo's force and dampratio, control clamping, --ctrl
 * interpolation, keyframe controls, implicitfast's stability under stiff damping), with
 * tolerances derived from the model's numbers. Measured quantities are printed on stdout
 * ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>


#include "conesim.h"
#include "scene_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double G = 9.81;

static cs_model *load_string(const char *xml) { return load_xml(xml, "inline"); }

static int act_id(const cs_model *m, const char *name)
{
    int i = cs_name2id_actuator(m, name);
    ck_assert_msg(i >= 0, "no actuator %s", name);
    return i;
}

static int qadr(const cs_model *m, const char *joint)
{
    int j = cs_name2id_joint(m, joint);
    ck_assert_msg(j >= 0, "no joint %s", joint);
    return m->jnt_qposadr[j];
}

/* ---- the gripper's hold/slip threshold ---------------------------------------------------- */
/* The box (m = 0.5 kg) hangs between four pads pressed by two fingers, each with force F (its
 * position actuator clamped at forcerange +-F: the finger is told to go past the box). It
 * stays when the pads' friction can carry it, 2 mu F >= m g, and slides out otherwise. Start:
 * lifted 25 cm, the fingers at the box, at rest, the box's weight taken up by the friction
 * slowly (below). Held, it then hangs still but for the steady creep of soft contacts (well
 * under 2 mm/s); slipping, it accelerates at g (1 - F / F_c) downwards, from the moment the
 * friction runs out. Its velocity over 1.0 .. 1.3 s tells which, while it is in the air
 * (20% below F_c it is on the floor by then, which counts as slipped). */
static int gripper_holds(double F, int solver, double *vz)
{
    cs_model *m = load_scene("gripper_lift.xml");
    m->opt.solver = solver;
    int L = act_id(m, "left"), R = act_id(m, "right");
    m->actuator_forcerange[2 * L] = m->actuator_forcerange[2 * R] = -F;
    m->actuator_forcerange[2 * L + 1] = m->actuator_forcerange[2 * R + 1] = F;
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    cs_reset_key(m, d, 0); /* ctrl: fingers 0.05 (past the box), lift 0.1 */
    d->qpos[qadr(m, "lift")] = 0.25;
    d->qpos[qadr(m, "left")] = d->qpos[qadr(m, "right")] = 0.03; /* the pads at the box */
    int box = cs_name2id_body(m, "box"), bq = m->jnt_qposadr[m->body_jntadr[box]];
    ck_assert_double_eq(m->body_mass[box], 0.5);
    d->qpos[bq + 2] = 0.28;
    int lift = act_id(m, "lift");
    d->ctrl[lift] = d->act[m->actuator_actadr[lift]] = 0.25; /* the filter at its control */
    cs_forward(m, d);
    /* the pads close while an applied force equal to the box's weight holds it (0.2 s); the
     * force is then let down to zero over 0.3 s, so the friction takes the weight from rest,
     * without a jolt */
    double h = m->opt.timestep, z0 = 0, W = m->body_mass[box] * G;
    int n = (int)lround(1.3 / h), n0 = (int)lround(1.0 / h);
    int r0 = (int)lround(0.2 / h), r1 = (int)lround(0.5 / h);
    for (int k = 0; k < n; k++) {
        d->xfrc_applied[6 * box + 2] = k < r0 ? W : k < r1 ? W * (r1 - k) / (r1 - r0) : 0;
        if (k == n0) z0 = d->qpos[bq + 2];
        cs_step(m, d);
    }
    *vz = (d->qpos[bq + 2] - z0) / (0.3);
    int air = d->qpos[bq + 2] > 0.04;
    cs_free_data(d);
    cs_free_model(m);
    return air && *vz > -2e-3;
}

static void threshold(int solver, const char *name)
{
    const double mass = 0.5, mu = 0.5, Fc = mass * G / (2 * mu); /* 4.905 N */
    double vz;
    /* well inside either side first: the protocol itself must tell hold from slip */
    ck_assert_msg(gripper_holds(1.2 * Fc, solver, &vz), "%s: 1.2 F_c slips (vz %g)", name, vz);
    ck_assert_msg(!gripper_holds(0.8 * Fc, solver, &vz), "%s: 0.8 F_c holds (vz %g)", name, vz);
    double lo = 0.9 * Fc, hi = 1.1 * Fc; /* slips at lo, holds at hi */
    ck_assert(!gripper_holds(lo, solver, &vz));
    ck_assert(gripper_holds(hi, solver, &vz));
    while (hi - lo > 0.002 * Fc) {
        double mid = 0.5 * (lo + hi);
        if (gripper_holds(mid, solver, &vz)) hi = mid;
        else lo = mid;
    }
    double F = 0.5 * (lo + hi);
    printf("report: gripper %s: holds from F = %.4f N, 2 mu F / m g = %.4f\n", name, F,
           2 * mu * F / (mass * G));
    ck_assert_msg(fabs(F / Fc - 1) < 0.01, "%s: threshold %g N vs 2 mu F = m g at %g N", name, F,
                  Fc);
}

START_TEST(test_gripper_threshold_newton) { threshold(CS_SOLVER_NEWTON, "Newton"); }
END_TEST

START_TEST(test_gripper_threshold_pgs) { threshold(CS_SOLVER_PGS, "PGS"); }
END_TEST

/* The keyframe closes the fingers with their 8 N clamp and lifts the box 10 cm: at rest after
 * 2 s, each finger's actuator force is exactly the clamp, the contacts carry 2 x 8 N of
 * normal force, and the box hangs at the lift's height. */
START_TEST(test_gripper_lifts)
{
    cs_model *m = load_scene("gripper_lift.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    int L = act_id(m, "left"), box = cs_name2id_body(m, "box");
    ck_assert_double_eq(d->ctrl[L], 0.05);
    for (int k = 0; k < 1000; k++) cs_step(m, d);
    ck_assert_double_eq_tol(d->actuator_force[L], 8, 1e-12);
    ck_assert_double_eq_tol(d->actuator_force[act_id(m, "right")], 8, 1e-12);
    double fn = 0;
    for (int c = 0; c < d->ncon; c++)
        if (m->geom_body[d->contact[c].geom2] == box || m->geom_body[d->contact[c].geom1] == box)
            fn += d->contact[c].force[0];
    ck_assert_double_eq_tol(fn, 16, 1e-6);
    double lift = d->qpos[qadr(m, "lift")], z = d->xpos[3 * box + 2];
    printf("report: gripper lifts: lift %.5f m, box %.5f m (starts at 0.03)\n", lift, z);
    ck_assert_double_eq_tol(lift, 0.1, 0.01);
    ck_assert_double_gt(z, 0.03 + 0.08);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- the walker ------------------------------------------------------------------------- */
/* Standing on its servos from the keyframe: after it settles (1 s) the torso neither sinks nor
 * drifts over the next 2 s (soft contacts creep by microns: 0.2 mm bounds it), stays level,
 * at the legs' geometry: hip to foot 2 x 0.12 cos 0.5 plus the foot's radius, 0.2306 m, less
 * the knees' servo sag and the feet's contact depth (a few mm). */
START_TEST(test_walker_stands)
{
    cs_model *m = load_scene("walker.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    int t = cs_name2id_body(m, "torso");
    double p1[3] = {0, 0, 0};
    for (int k = 1; k <= 1500; k++) {
        cs_step(m, d);
        if (k == 500) memcpy(p1, d->xpos + 3 * t, sizeof p1);
    }
    const double *p2 = d->xpos + 3 * t;
    double drift = hypot(p2[0] - p1[0], p2[1] - p1[1]), sink = p1[2] - p2[2];
    double tilt = 2 * acos(fmin(1, fabs(d->xquat[4 * t])));
    double stand = 2 * 0.12 * cos(0.5) + 0.02;
    printf("report: walker: height %.5f m (legs %.5f), drift %.3g m and sink %.3g m over 2 s, "
           "tilt %.3g rad\n", p2[2], stand, drift, sink, tilt);
    ck_assert_double_lt(drift, 2e-4);
    ck_assert_double_lt(fabs(sink), 1e-4);
    ck_assert_double_lt(tilt, 0.01);
    ck_assert_double_lt(p2[2], stand);
    ck_assert_double_gt(p2[2], stand - 0.005);
    ck_assert_int_eq(cs_check_finite(m, d), -1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- a servo as MuJoCo defines it -------------------------------------------------------- */
static const char *SERVO =
    "<mujoco><option gravity='0 0 0' integrator='implicitfast'/>"
    "<worldbody><body><joint name='s' type='slide' axis='1 0 0' armature='0.5'/>"
    "<geom type='sphere' size='0.1' mass='2'/></body></worldbody>"
    "<actuator><position name='p' joint='s' kp='8' dampratio='0.5' ctrlrange='-1 1'/>"
    "<motor name='m' joint='s' gear='3' ctrlrange='-1 1' forcerange='-0.5 0.5'/></actuator>"
    "<keyframe><key qpos='0.2' ctrl='0.7 0'/></keyframe></mujoco>";

START_TEST(test_servo_model)
{
    cs_model *m = load_string(SERVO);
    ck_assert_int_eq(m->nu, 2);
    ck_assert_int_eq(m->na, 0);
    /* dampratio: kv = 2 zeta sqrt(kp M0), M0 = mass + armature at qpos0 */
    ck_assert_double_eq_tol(m->dof_M0[0], 2.5, 1e-12);
    ck_assert_double_eq_tol(m->actuator_biasprm[10 * 0 + 2], -2 * 0.5 * sqrt(8 * 2.5), 1e-12);
    ck_assert_double_eq(m->actuator_biasprm[1], -8);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0); /* keyframe controls */
    ck_assert_double_eq(d->ctrl[0], 0.7);
    ck_assert_double_eq_tol(d->actuator_force[0], 8 * (0.7 - 0.2), 1e-12);
    /* controls are clamped where they are used; the motor's force by forcerange, and the
     * joint receives gear x force */
    d->ctrl[0] = 5;
    d->ctrl[1] = -1;
    cs_forward(m, d);
    ck_assert_double_eq(d->ctrl[0], 5); /* the user's value stays */
    ck_assert_double_eq_tol(d->actuator_force[0], 8 * (1 - 0.2), 1e-12);
    ck_assert_double_eq_tol(d->actuator_force[1], -0.5, 1e-12); /* -1 clamped */
    ck_assert_double_eq_tol(d->qfrc_actuator[0], 6.4 - 3 * 0.5, 1e-12);
    ck_assert_double_eq_tol(d->actuator_length[1], 3 * 0.2, 1e-12);
    /* clampctrl off: the control acts as given; actuation off: no force */
    m->opt.disableflags |= CS_DSBL_CLAMPCTRL;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->actuator_force[0], 8 * (5 - 0.2), 1e-12);
    m->opt.disableflags |= CS_DSBL_ACTUATION;
    cs_forward(m, d);
    ck_assert_double_eq(d->qfrc_actuator[0], 0);
    m->opt.disableflags &= ~(CS_DSBL_ACTUATION | CS_DSBL_CLAMPCTRL);
    /* the joint's actuatorfrcrange bounds the actuators' sum on it (here 6.4 - 1.5) */
    ck_assert_int_eq(m->jnt_actfrclimited[0], 0);
    m->jnt_actfrclimited[0] = 1;
    m->jnt_actfrcrange[0] = -2;
    m->jnt_actfrcrange[1] = 2;
    cs_forward(m, d);
    ck_assert_double_eq(d->qfrc_actuator[0], 2);
    ck_assert_double_eq_tol(d->actuator_force[0], 8 * (1 - 0.2), 1e-12); /* each as it was */
    m->jnt_actfrclimited[0] = 0;
    /* a position servo settles on its control (underdamped: zeta 0.5, so it overshoots by
     * exp(-pi zeta / sqrt(1 - zeta^2)) = 16% of the 0.5 m step before it settles) */
    d->ctrl[0] = 0.7;
    d->ctrl[1] = 0;
    double peak = 0;
    for (int k = 0; k < 10000; k++) { /* 20 s: the envelope exp(-zeta w t) is 1e-8 */
        cs_step(m, d);
        peak = fmax(peak, d->qpos[0]);
    }
    double over = (peak - 0.7) / 0.5;
    printf("report: servo: overshoot %.4f (second-order 0.1630), final %.9f\n", over, d->qpos[0]);
    ck_assert_double_eq_tol(d->qpos[0], 0.7, 1e-6);
    ck_assert_double_eq_tol(over, exp(-M_PI * 0.5 / sqrt(0.75)), 0.01);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* Activation dynamics: an integrator's act is the integral of its control, within actrange;
 * a filter's act follows its control with time constant tau (exact for filterexact). */
START_TEST(test_activation_dynamics)
{
    cs_model *m = load_string(
        "<mujoco><option gravity='0 0 0' timestep='0.01'/><worldbody><body>"
        "<joint name='s' type='slide'/><geom size='0.1' mass='1'/></body></worldbody>"
        "<actuator><intvelocity name='iv' joint='s' kp='0' actrange='-0.3 0.3'/>"
        "<general name='f' joint='s' dyntype='filterexact' dynprm='0.2' gainprm='0'/>"
        "<general name='fe' joint='s' dyntype='filter' dynprm='0.2' gainprm='0'/>"
        "</actuator></mujoco>");
    ck_assert_int_eq(m->na, 3);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 0.1;
    d->ctrl[1] = d->ctrl[2] = 1;
    for (int k = 0; k < 100; k++) cs_step(m, d); /* 1 s */
    ck_assert_double_eq_tol(d->act[0], 0.1, 1e-12);
    for (int k = 0; k < 300; k++) cs_step(m, d); /* 4 s: 0.4, clamped at 0.3 */
    ck_assert_double_eq_tol(d->act[0], 0.3, 1e-12);
    ck_assert_double_eq_tol(d->act[1], 1 - exp(-4 / 0.2), 1e-12);
    /* Euler on the filter: (1 - h / tau)^n */
    ck_assert_double_eq_tol(d->act[2], 1 - pow(1 - 0.01 / 0.2, 400), 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A pneumatic cylinder (MuJoCo's <cylinder>: a filter on the pressure, the area as gain, an
 * affine bias) holding a piston against gravity: the pressure m g / A settles the force at
 * m g, the bias's velocity term stops the piston. A diameter wins over an area; a class's
 * values are the starting point. */
START_TEST(test_cylinder_holds_piston)
{
    cs_model *m = load_string(
        "<mujoco><option timestep='0.002'/><default><cylinder area='3' timeconst='0.05'/>"
        "</default><worldbody><body><joint name='z' type='slide' axis='0 0 1'/>"
        "<geom size='0.05' mass='2'/></body></worldbody><actuator>"
        "<cylinder name='c' joint='z' diameter='0.1' bias='0 0 -40'/>"
        "<cylinder name='plain' joint='z' bias='0 0 0'/></actuator></mujoco>");
    int c = act_id(m, "c"), pl = act_id(m, "plain");
    double A = M_PI / 4 * 0.1 * 0.1;
    ck_assert_double_eq_tol(m->actuator_gainprm[10 * c], A, 1e-15);
    ck_assert_double_eq(m->actuator_gainprm[10 * pl], 3); /* the class's area */
    ck_assert_double_eq(m->actuator_dynprm[10 * c], 0.05);
    ck_assert_int_eq(m->na, 2);
    cs_data *d = cs_make_data(m);
    double p = 2 * G / A;
    d->ctrl[c] = p;
    cs_step(m, d); /* Euler on the filter: act = h / tau p after one step */
    ck_assert_double_eq_tol(d->act[m->actuator_actadr[c]], 0.002 / 0.05 * p, 1e-9 * p);
    for (int k = 0; k < 5000; k++) cs_step(m, d); /* 10 s, 200 time constants */
    cs_forward(m, d);
    printf("report: cylinder: force %.12f (m g %.12f), qvel %.3g\n", d->actuator_force[c],
           2 * G, d->qvel[0]);
    ck_assert_double_eq_tol(d->act[m->actuator_actadr[c]], p, 1e-9 * p);
    ck_assert_double_eq_tol(d->actuator_force[c], 2 * G, 1e-8);
    ck_assert_double_lt(fabs(d->qvel[0]), 1e-8);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* MuJoCo 3.12's actuator damping and armature: an actuator with gear g adds g^2 times its
 * damping (and damping polynomial) and armature to its joint's or tendon's, so a joint
 * driven through one moves exactly as the same joint given those values itself; several
 * actuators on one joint add up. Refused on other transmissions. */
START_TEST(test_actuator_damping_armature)
{
    const char *xml[2] = {
        "<mujoco><option timestep='0.002' integrator='INTEG'/><worldbody><body pos='0 0 1'>"
        "<joint name='h' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"
        "<body pos='0.3 0 0'><joint name='k' axis='0 1 0' damping='0.05'/>"
        "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/></body></body></worldbody>"
        "<tendon><fixed name='t'><joint joint='h' coef='1'/><joint joint='k' coef='-0.5'/>"
        "</fixed></tendon><actuator><motor joint='h' gear='2' damping='0.3 0.1 0.05' "
        "armature='0.02'/><motor joint='k' damping='0.1'/><motor joint='k' gear='3' "
        "damping='0.01' armature='0.004'/><motor tendon='t' gear='0.5' damping='0.4' "
        "armature='0.12'/></actuator></mujoco>",
        /* the same values on the joints and the tendon: 4 x (0.3 0.1 0.05), 4 x 0.02;
         * 0.05 + 0.1 + 9 x 0.01, 9 x 0.004; 0.25 x 0.4, 0.25 x 0.12 */
        "<mujoco><option timestep='0.002' integrator='INTEG'/><worldbody><body pos='0 0 1'>"
        "<joint name='h' axis='0 1 0' damping='1.2 0.4 0.2' armature='0.08'/>"
        "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"
        "<body pos='0.3 0 0'><joint name='k' axis='0 1 0' damping='0.24' armature='0.036'/>"
        "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/></body></body></worldbody>"
        "<tendon><fixed name='t' damping='0.1' armature='0.03'><joint joint='h' coef='1'/>"
        "<joint joint='k' coef='-0.5'/></fixed></tendon><actuator><motor joint='h' gear='2'/>"
        "<motor joint='k'/><motor joint='k' gear='3'/><motor tendon='t' gear='0.5'/>"
        "</actuator></mujoco>"};
    static const char *const INTEG[] = {"Euler", "implicitfast", "implicit", "RK4"};
    for (int it = 0; it < 4; it++) {
        cs_model *m[2];
        cs_data *d[2];
        for (int v = 0; v < 2; v++) {
            char *x = edit(strdup(xml[v]), "INTEG", INTEG[it]);
            m[v] = load_string(x);
            free(x);
            d[v] = cs_make_data(m[v]);
            d[v]->qvel[0] = 2;
            d[v]->qvel[1] = -3;
        }
        ck_assert_int_eq(m[0]->jnt_actuatorid[0], 0);
        ck_assert_int_eq(m[0]->jnt_actuatorid[1], -2); /* two actuators */
        ck_assert_int_eq(m[0]->tendon_actuatorid[0], 3);
        ck_assert_int_eq(m[1]->jnt_actuatorid[0], -1);
        for (int i = 0; i < 2; i++) /* the mass at qpos0 takes the armature */
            ck_assert_double_eq_tol(m[0]->dof_M0[i], m[1]->dof_M0[i], 1e-15);
        double worst = 0, start = fabs(d[0]->qvel[0]);
        for (int k = 0; k < 500; k++) {
            for (int v = 0; v < 2; v++) cs_step(m[v], d[v]);
            for (int i = 0; i < 2; i++) worst = fmax(worst, fabs(d[0]->qpos[i] - d[1]->qpos[i]));
        }
        printf("report: actuator damping and armature (%s): largest joint difference %.3g\n",
               INTEG[it], worst);
        ck_assert_double_lt(worst, 1e-12);
        ck_assert_double_lt(fabs(d[0]->qvel[0]), start); /* it damps */
        for (int v = 0; v < 2; v++) {
            cs_free_data(d[v]);
            cs_free_model(m[v]);
        }
    }
    char err[512];
    ck_assert_ptr_null(cs_load_xml_string(
        "<mujoco><worldbody><body><joint/><geom size='0.1'/><site name='s'/></body>"
        "</worldbody><actuator>\n<motor site='s' damping='0.1'/></actuator></mujoco>",
        "bad.xml", NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "bad.xml:2:") && strstr(err, "joint or tendon"), "%s", err);
}
END_TEST

/* MuJoCo 3.12's rotational setpoints: a position servo on a ball joint reads its target as
 * the representative nearest the joint's angle (period 2 pi |gear|), so from -3 rad to a
 * target of +3 rad it turns the short way, through pi, never back through 0; an integrated
 * setpoint is kept within half a period of the length. */
START_TEST(test_ball_servo_short_way)
{
    /* the body starts turned -3 rad about z: quaternion (cos -1.5, 0, 0, sin -1.5) */
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='0.002' gravity='0 0 0'/><worldbody><body>"
             "<joint name='b' type='ball'/><geom type='box' size='0.2 0.05 0.02' mass='1'/>"
             "</body></worldbody><actuator><position joint='b' gear='0 0 1' kp='2' "
             "dampratio='1'/><intvelocity joint='b' gear='0 0 1' kp='0' actrange='-20 20'/>"
             "</actuator><keyframe><key qpos='%.17g 0 0 %.17g' ctrl='3 5'/></keyframe>"
             "</mujoco>", cos(-1.5), sin(-1.5));
    cs_model *m = load_string(xml);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    double smallest = 10;
    for (int k = 0; k < 5000; k++) { /* 10 s */
        cs_forward(m, d);
        double len = d->actuator_length[0]; /* the angle about z, in (-pi, pi] */
        smallest = fmin(smallest, fabs(len));
        cs_step(m, d); /* the integrated setpoint: wrapped about the length the step read */
        ck_assert_double_le(fabs(d->act[0] - len), M_PI + 1e-12);
    }
    cs_forward(m, d);
    printf("report: ball servo: final angle %.9f (target 3), smallest |angle| %.3f\n",
           d->actuator_length[0], smallest);
    ck_assert_double_eq_tol(d->actuator_length[0], 3, 1e-6);
    ck_assert_double_gt(smallest, 2.9); /* the short way: never near 0 */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* implicitfast takes the actuators' velocity gain into the step: a velocity servo with
 * kv h / M = 50 is stable and reaches its target in one step, where explicit Euler (the
 * actuator's damping is not joint damping) multiplies the error by 1 - 50 each step. */
START_TEST(test_implicitfast_stiff_damping)
{
    const char *xml =
        "<mujoco><option gravity='0 0 0' timestep='0.01' integrator='implicitfast'/>"
        "<worldbody><body><joint name='s' type='slide'/><geom size='0.1' mass='1'/></body>"
        "</worldbody><actuator><velocity joint='s' kv='5000'/></actuator></mujoco>";
    cs_model *m = load_string(xml);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 1;
    cs_step(m, d);
    /* (M + h kv) v1 = h kv ctrl: v1 = 50 / 51 */
    ck_assert_double_eq_tol(d->qvel[0], 50.0 / 51, 1e-12);
    for (int k = 0; k < 100; k++) cs_step(m, d);
    ck_assert_double_eq_tol(d->qvel[0], 1, 1e-9);
    cs_free_data(d);
    m->opt.integrator = CS_INT_EULER;
    d = cs_make_data(m);
    d->ctrl[0] = 1;
    for (int k = 0; k < 10; k++) cs_step(m, d);
    ck_assert_double_gt(fabs(d->qvel[0]), 1e6); /* |1 - 50|^10: unstable, as expected */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* RK4 as a fourth-order method: a frictionless pendulum (omega about 4.4 rad/s) at h = 0.01
 * keeps its energy to (h omega)^4 ~ 4e-6 of it per period, where semi-implicit Euler's
 * energy swings by about h omega / 2 ~ 2% of it. */
START_TEST(test_rk4_energy)
{
    const char *xml =
        "<mujoco><option timestep='0.01' integrator='%s'/><worldbody><body pos='0 0 1'>"
        "<joint axis='0 1 0'/><geom type='sphere' size='0.01' pos='0.5 0 0' mass='1'/>"
        "</body></worldbody></mujoco>";
    double err[2];
    const char *integ[2] = {"RK4", "Euler"};
    for (int k = 0; k < 2; k++) {
        char buf[512];
        snprintf(buf, sizeof buf, xml, integ[k]);
        cs_model *m = load_string(buf);
        cs_data *d = cs_make_data(m);
        double e0 = cs_energy_potential(m, d) + cs_energy_kinetic(m, d), worst = 0;
        for (int i = 0; i < 300; i++) {
            cs_step(m, d);
            cs_forward(m, d);
            double e = cs_energy_potential(m, d) + cs_energy_kinetic(m, d);
            worst = fmax(worst, fabs(e - e0));
        }
        err[k] = worst / (1 * G * 0.5); /* relative to the swing's energy m g L */
        cs_free_data(d);
        cs_free_model(m);
    }
    printf("report: pendulum energy error over 3 s: RK4 %.3g, Euler %.3g (of m g L)\n", err[0],
           err[1]);
    ck_assert_double_lt(err[0], 1e-4);
    ck_assert_double_gt(err[1], 1e-3);
}
END_TEST

/* ---- --ctrl and --actuators through the command ------------------------------------------ */
static const char *CONESIM;

static int sh(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* the force of actuator `name` in the row of step `step` of an --actuators CSV */
static double csv_value(const char *path, long step, const char *name, int col)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    double v = NAN;
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "step,time,actuator,ctrl,force\n");
    while (fgets(line, sizeof line, f)) {
        long s;
        char a[64];
        double t, c, fo;
        if (sscanf(line, "%ld,%lf,%63[^,],%lf,%lf", &s, &t, a, &c, &fo) == 5 && s == step &&
            strcmp(a, name) == 0)
            v = col == 0 ? c : fo;
    }
    fclose(f);
    ck_assert_msg(!isnan(v), "no row for step %ld of %s in %s", step, name, path);
    return v;
}

/* A motor (force = ctrl, ctrlrange -1..1) on a slide with gravity off: the recorded control is
 * the schedule's linear interpolation, the force that control clamped to the range. Before
 * the first row the first row's values, after the last the last's. */
/* <option actuatorgroupdisable>, MuJoCo's meaning: an actuator whose group (0..30) is listed
 * exerts no force (actuator_force 0) and its activation holds; the others act as before. Three
 * wheels on vertical hinges (gravity exerts no torque on them), each with a motor of torque 1 on
 * inertia I: the one in the disabled group (2, set through a class) stays at rest, the others
 * turn at 1/I; a disabled integrator's activation stays at its key value. */
START_TEST(test_actuator_group_disable)
{
    const char *xml =
        "<mujoco><option actuatorgroupdisable='2 5'/><default><default class='off'>"
        "<motor group='2'/></default></default><worldbody>"
        "<body><joint name='a' axis='0 0 1'/><geom type='cylinder' size='0.1 0.02' mass='1'/></body>"
        "<body pos='1 0 0'><joint name='b' axis='0 0 1'/><geom type='cylinder' size='0.1 0.02' mass='1'/></body>"
        "<body pos='2 0 0'><joint name='c' axis='0 0 1'/><geom type='cylinder' size='0.1 0.02' mass='1'/></body>"
        "</worldbody><actuator><motor joint='a' group='1'/><motor class='off' joint='b'/>"
        "<intvelocity joint='c' group='5' kp='10' actrange='-1 1'/></actuator>"
        "<keyframe><key act='0.5' ctrl='1 1 1'/></keyframe></mujoco>";
    cs_model *m = load_string(xml);
    ck_assert_int_eq(m->opt.disableactuator, (1 << 2) | (1 << 5));
    ck_assert_int_eq(m->actuator_group[1], 2);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    const double I = 0.5 * 1 * 0.1 * 0.1; /* a disc's inertia about its axis */
    for (int k = 0; k < 100; k++) cs_step(m, d);
    double t = 100 * m->opt.timestep;
    ck_assert_double_eq_tol(d->actuator_force[0], 1, 1e-12);
    ck_assert_double_eq(d->actuator_force[1], 0);
    ck_assert_double_eq(d->actuator_force[2], 0);
    ck_assert_double_eq_tol(d->qvel[0], t / I, 1e-9 * t / I);
    ck_assert_double_eq(d->qvel[1], 0);
    ck_assert_double_eq(d->qvel[2], 0);
    ck_assert_double_eq(d->act[0], 0.5);
    cs_free_data(d);
    cs_free_model(m);
    /* groups outside 0..30 are never disabled; a group list outside 0..30 is refused */
    char err[512];
    ck_assert_ptr_null(cs_load_xml_string("<mujoco><option actuatorgroupdisable='31'/></mujoco>",
                                          "bad.xml", NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "bad.xml:1:") && strstr(err, "0 to 30"), "%s", err);
}
END_TEST

START_TEST(test_ctrl_schedule)
{
    char dir[] = "/tmp/cs_ctrl_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char scene[256], sched[256], out[256], cmd[2048];
    snprintf(scene, sizeof scene, "%s/m.xml", dir);
    snprintf(sched, sizeof sched, "%s/c.csv", dir);
    snprintf(out, sizeof out, "%s/a.csv", dir);
    write_file(scene, "<mujoco><option gravity='0 0 0' timestep='0.01'/><worldbody><body>"
                      "<joint name='s' type='slide'/><geom size='0.1' mass='1'/></body>"
                      "</worldbody><actuator><motor name='push' joint='s' ctrlrange='-1 1'/>"
                      "<motor name='still' joint='s'/></actuator></mujoco>");
    write_file(sched, "# a ramp past the range, then back\ntime,push\n0.1,0\n0.5,2\n"
                      "\n0.9,-0.5\n");
    snprintf(cmd, sizeof cmd, "%s run %s --duration 1.2 --ctrl %s --actuators %s "
             "--set ctrl.still=0.25 --quiet > /dev/null", CONESIM, scene, sched, out);
    ck_assert_int_eq(sh(cmd), 0);
    ck_assert_double_eq(csv_value(out, 0, "push", 0), 0);            /* before the first row */
    ck_assert_double_eq_tol(csv_value(out, 20, "push", 0), 0.5, 1e-12); /* t 0.2: 0.5 */
    ck_assert_double_eq_tol(csv_value(out, 20, "push", 1), 0.5, 1e-12);
    ck_assert_double_eq_tol(csv_value(out, 40, "push", 0), 1.5, 1e-12); /* t 0.4 */
    ck_assert_double_eq_tol(csv_value(out, 40, "push", 1), 1, 1e-12);   /* clamped */
    ck_assert_double_eq_tol(csv_value(out, 70, "push", 0), 0.75, 1e-12); /* t 0.7 */
    ck_assert_double_eq_tol(csv_value(out, 110, "push", 0), -0.5, 1e-12); /* after the last */
    ck_assert_double_eq(csv_value(out, 110, "still", 0), 0.25); /* --set ctrl.NAME */
    ck_assert_double_eq(csv_value(out, 110, "still", 1), 0.25);

    /* an unknown actuator, a time going back, a short row: exit 2 naming the line */
    char err[256];
    snprintf(err, sizeof err, "%s/err.txt", dir);
    const char *bad[][2] = {{"time,push,nope\n0,1,1\n", ":1: no control named 'nope'"},
                            {"time,push\n0,1\n0.5,1\n0.4,1\n", ":4: time 0.4 does not come after"},
                            {"time,push\n0,1\n0.5\n", ":3: expected 2 fields"},
                            {"time,push\n0,x\n", ":2: 'x' is not a finite number"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(sched, bad[i][0]);
        snprintf(cmd, sizeof cmd, "%s run %s --ctrl %s --quiet > /dev/null 2> %s", CONESIM,
                 scene, sched, err);
        ck_assert_int_eq(sh(cmd), 2);
        FILE *f = fopen(err, "r");
        char msg[512] = "";
        ck_assert_ptr_nonnull(fgets(msg, sizeof msg, f));
        fclose(f);
        ck_assert_msg(strstr(msg, bad[i][1]) != NULL, "expected '%s' in '%s'", bad[i][1], msg);
    }
    snprintf(cmd, sizeof cmd, "%s run %s --set ctrl.nope=1 --quiet > /dev/null 2>&1", CONESIM,
             scene);
    ck_assert_int_eq(sh(cmd), 2);

    /* a pid's controls by their names: NAME/pos and NAME/vel in the schedule and --set, one
     * CSV row each with the pid's one force, kp pos + kv vel at rest */
    write_file(scene, "<mujoco><option gravity='0 0 0' timestep='0.01'/><worldbody><body>"
                      "<joint name='s' type='slide'/><geom size='0.1' mass='1'/></body>"
                      "</worldbody><actuator><pid name='p' joint='s' kp='10' kv='2'/>"
                      "</actuator></mujoco>");
    write_file(sched, "time,p/pos\n0,0.3\n");
    snprintf(cmd, sizeof cmd, "%s run %s --steps 1 --ctrl %s --set ctrl.p/vel=0.5 "
             "--actuators %s --quiet > /dev/null", CONESIM, scene, sched, out);
    ck_assert_int_eq(sh(cmd), 0);
    ck_assert_double_eq(csv_value(out, 0, "p/pos", 0), 0.3);
    ck_assert_double_eq(csv_value(out, 0, "p/vel", 0), 0.5);
    ck_assert_double_eq_tol(csv_value(out, 0, "p/pos", 1), 10 * 0.3 + 2 * 0.5, 1e-12);
    ck_assert_double_eq_tol(csv_value(out, 0, "p/vel", 1), 10 * 0.3 + 2 * 0.5, 1e-12);
    snprintf(cmd, sizeof cmd, "%s run %s --set ctrl.p=1 --quiet > /dev/null 2>&1", CONESIM,
             scene);
    ck_assert_int_eq(sh(cmd), 2); /* p has two controls: p/pos and p/vel */
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("actuators");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_gripper_threshold_newton);
    tcase_add_test(tc, test_gripper_threshold_pgs);
    tcase_add_test(tc, test_gripper_lifts);
    tcase_add_test(tc, test_walker_stands);
    tcase_add_test(tc, test_servo_model);
    tcase_add_test(tc, test_activation_dynamics);
    tcase_add_test(tc, test_cylinder_holds_piston);
    tcase_add_test(tc, test_actuator_damping_armature);
    tcase_add_test(tc, test_ball_servo_short_way);
    tcase_add_test(tc, test_implicitfast_stiff_damping);
    tcase_add_test(tc, test_rk4_energy);
    tcase_add_test(tc, test_ctrl_schedule);
    tcase_add_test(tc, test_actuator_group_disable);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    CONESIM = argc > 1 ? argv[1] : "conesim";
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
