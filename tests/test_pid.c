/* Servo actuators with several controls (MuJoCo 3.12's pid and the DC motor's input
 * signatures): a pid with a zero velocity setpoint is a position servo; slewmax ramps the
 * setpoint at its rate; the integral removes a load's steady error, and imax stops it where
 * the closed form says; the vel and ff inputs; the ranges of each control; a DC motor's
 * controller delivers its torque law exactly (back-EMF compensated) and a motor without
 * inputs brakes by back-EMF alone; LuGre friction holds below its Coulomb level; controls
 * are named and refused as MuJoCo's. Measured quantities are printed ("report: ..."). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "scene_util.h"

static const double G = 9.81;

/* an arm of mass 1 kg and length 0.5 m on a hinge about y at 1 m height (its weight's
 * torque at horizontal: m g l / 2), the actuators given */
static char *arm(const char *actuators, const char *option)
{
    static const char *const FMT =
        "<mujoco><option timestep='0.002' %s/>"
        "<worldbody><body pos='0 0 1'><joint name='j' axis='0 -1 0'/>"
        "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.02' mass='1'/></body>"
        "<body pos='0 2 1'><joint name='j2' axis='0 -1 0'/>"
        "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.02' mass='1'/></body>"
        "</worldbody><actuator>%s</actuator></mujoco>";
    return format_xml(FMT, option, actuators);
}

static cs_model *load_arm(const char *actuators, const char *option)
{
    char *x = arm(actuators, option);
    cs_model *m = load_xml(x, "arm");
    free(x);
    return m;
}

/* the loader's message for a model that must not load */
static void refused(const char *actuators, const char *phrase)
{
    char *x = arm(actuators, "");
    load_refused(x, "arm", phrase);
    free(x);
}

static int ctrl_of(const cs_model *m, const char *name)
{
    int k = cs_name2id_ctrl(m, name);
    ck_assert_msg(k >= 0, "no control %s", name);
    return k;
}

/* the hinge's angle (positive lifts the arm's tip) */
static double angle(const cs_model *m, const cs_data *d, const char *joint)
{
    return d->qpos[m->jnt_qposadr[cs_name2id_joint(m, joint)]];
}

/* ---- a pid with no velocity setpoint is a position servo ---------------------------- */
/* MuJoCo's pid: force kp (qref - l) + kv (vref - v); with vref 0 (or no vel input) this is
 * <position kp kv>'s kp (u - l) - kv v: both arms move alike */
START_TEST(test_pid_is_position)
{
    static const char *const PID[] = {"<pid name='b' joint='j2' kp='30' kv='3'/>",
                                      "<pid name='b' joint='j2' kp='30' kv='3' input='pos'/>"};
    for (int v = 0; v < 2; v++) {
        char acts[256];
        snprintf(acts, sizeof acts, "<position name='a' joint='j' kp='30' kv='3'/>%s", PID[v]);
        cs_model *m = load_arm(acts, "");
        ck_assert_int_eq(m->nactuator, 2);
        ck_assert_int_eq(m->nu, 3 - v);
        cs_data *d = cs_make_data(m);
        d->ctrl[0] = d->ctrl[m->actuator_ctrladr[1]] = 0.6;
        double worst = 0;
        for (int k = 0; k < 1000; k++) {
            step_checked(m, d);
            worst = fmax(worst, fabs(angle(m, d, "j") - angle(m, d, "j2")));
            worst = fmax(worst, fabs(d->actuator_force[0] - d->actuator_force[1]));
        }
        printf("report: pid (%s) against position: largest difference %.3g\n",
               v ? "pos" : "pos vel", worst);
        ck_assert_double_le(worst, 1e-12);
        ck_assert_double_gt(fabs(angle(m, d, "j")), 0.1); /* it moved */
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* ---- slewmax: the effective setpoint ramps at slewmax ------------------------------- */
/* its state is the setpoint in effect, moving at most slewmax * dt a step towards the
 * command: from 0 to 1 at 0.5 / s it is 0.5 t until it gets there at 2 s */
START_TEST(test_pid_slew)
{
    cs_model *m = load_arm("<pid name='p' joint='j' kp='40' kv='4' slewmax='0.5' input='pos'/>",
                           "gravity='0 0 0'");
    ck_assert_int_eq(m->na, 1);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 1;
    double dt = m->opt.timestep, worst = 0;
    for (int k = 1; k <= 1500; k++) {
        double before = d->act[0];
        step_checked(m, d);
        double want = fmin(1, 0.5 * k * dt);
        worst = fmax(worst, fabs(d->act[0] - want));
        ck_assert_double_le(d->act[0] - before, 0.5 * dt * (1 + 1e-12));
    }
    printf("report: slewmax ramp: largest departure from 0.5 t %.3g\n", worst);
    ck_assert_double_le(worst, 1e-12);
    /* the arm follows the ramp, then the step's last part */
    ck_assert_double_lt(angle(m, d, "j"), 1);
    ck_assert_double_gt(angle(m, d, "j"), 0.9);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- ki: no steady error under the weight; imax holds the integral ------------------ */
/* the arm held horizontal (setpoint 0) against its weight's torque T = m g l / 2: kp alone
 * leaves the error T / kp; the integral takes it to 0; with imax the integral stops at imax
 * and the error is (T - ki imax) / kp */
START_TEST(test_pid_integral)
{
    double T = 1 * G * 0.25, kp = 50, ki = 40;
    const char *const ACT[] = {"<pid name='p' joint='j' kp='50' kv='5' input='pos'/>",
                               "<pid name='p' joint='j' kp='50' kv='5' ki='40' input='pos'/>",
                               "<pid name='p' joint='j' kp='50' kv='5' ki='40' imax='0.05' "
                               "input='pos'/>"};
    for (int v = 0; v < 3; v++) {
        cs_model *m = load_arm(ACT[v], "");
        cs_data *d = cs_make_data(m);
        d->ctrl[0] = 0;
        steps(m, d, 10000); /* 20 s */
        /* the weight's torque at the angle: T cos(err) = kp err + ki z */
        double err = -angle(m, d, "j"), z = v ? d->act[0] : 0;
        double want = v == 1 ? 0 : (T * cos(err) - ki * z) / kp;
        printf("report: pid %s: steady error %.6g (closed form %.6g), integral %.6g\n",
               v == 0 ? "kp" : v == 1 ? "kp ki" : "kp ki imax", err, want, z);
        ck_assert_double_le(fabs(err - want), 1e-4 * T / kp);
        if (v == 2) { /* accumulation stopped at imax (within one step's increment) */
            ck_assert_double_ge(z, 0.05);
            ck_assert_double_le(z, 0.05 + m->opt.timestep * err);
            ck_assert_double_gt(err, 0.5 * (T - ki * 0.05) / kp);
        }
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* ---- the vel and ff inputs ----------------------------------------------------------- */
/* input="vel": force kv (vref - v) (no position term but the bias's kp l, kp 0 here): the
 * arm, weightless, spins up to vref; input="ff": the force is ff, clamped to ffrange */
START_TEST(test_pid_vel_ff)
{
    cs_model *m = load_arm("<pid name='v' joint='j' kp='0' kv='3' input='vel'/>"
                           "<pid name='f' joint='j2' kp='0' input='ff' ffrange='-1 1'/>",
                           "gravity='0 0 0'");
    ck_assert_int_eq(m->nu, 2);
    cs_data *d = cs_make_data(m);
    d->ctrl[ctrl_of(m, "v")] = 0.5;
    d->ctrl[ctrl_of(m, "f")] = 3;
    steps(m, d, 2500);
    double w = d->qvel[m->jnt_dofadr[cs_name2id_joint(m, "j")]];
    printf("report: vel input 0.5: velocity %.9f; ff input 3 in [-1, 1]: force %g\n", w,
           d->actuator_force[1]);
    ck_assert_double_le(fabs(w - 0.5), 1e-6);
    ck_assert_double_eq(d->actuator_force[1], 1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- each control its own range ------------------------------------------------------ */
/* posrange (the ctrlrange of pos, limited by ctrllimited), velrange and ffrange (limited
 * when proper): the force at rest is kp clamp(pos) + kv clamp(vel) + clamp(ff) */
START_TEST(test_pid_ranges)
{
    cs_model *m = load_arm("<pid name='p' joint='j' kp='20' kv='2' input='pos vel ff' "
                           "posrange='-0.5 0.5' velrange='-1 1' ffrange='-0.3 0.3' "
                           "ctrllimited='true'/>",
                           "gravity='0 0 0'");
    ck_assert_int_eq(m->nu, 3);
    ck_assert_int_eq(m->actuator_ctrlnum[0], 3);
    for (int k = 0; k < 3; k++) ck_assert_int_eq(m->actuator_ctrllimited[k], 1);
    ck_assert_double_eq(m->actuator_ctrlrange[3], 1);
    ck_assert_double_eq(m->actuator_ctrlrange[5], 0.3);
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = d->ctrl[1] = d->ctrl[2] = 2;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->actuator_force[0], 20 * 0.5 + 2 * 1 + 0.3, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- the DC motor's controller -------------------------------------------------------- */
/* without an inductance the current follows the voltage at once, and the controller's
 * voltage (R/K) tau + K v makes the motor's torque K (V - K v) / R exactly the commanded
 * tau = kp (pos - l) + kd (vel - v) + ki x + ff; Vmax clamps the voltage first; a motor
 * without inputs sees 0 V and brakes with -K^2 v / R */
START_TEST(test_dcmotor_controller)
{
    double K = 0.5, R = 2;
    cs_model *m = load_arm("<dcmotor name='a' joint='j' motorconst='0.5' resistance='2' "
                           "input='pos vel ff' controller='3 0 0.5'/>"
                           "<dcmotor name='b' joint='j2' motorconst='0.5' resistance='2' "
                           "input='none'/>",
                           "gravity='0 0 0'");
    ck_assert_int_eq(m->nu, 3);
    ck_assert_int_eq(m->actuator_ctrlnum[1], 0);
    cs_data *d = cs_make_data(m);
    d->qpos[0] = 0.2;
    d->qvel[0] = -0.7;
    d->qvel[1] = 1.3;
    d->ctrl[ctrl_of(m, "a/pos")] = 0.5;
    d->ctrl[ctrl_of(m, "a/vel")] = 0.1;
    d->ctrl[ctrl_of(m, "a/ff")] = 0.05;
    cs_forward(m, d);
    double tau = 3 * (0.5 - 0.2) + 0.5 * (0.1 + 0.7) + 0.05;
    printf("report: dcmotor controller: force %.15g, torque law %.15g; no inputs: %.15g "
           "(-K^2 v / R %.15g)\n", d->actuator_force[0], tau, d->actuator_force[1],
           -K * K * 1.3 / R);
    ck_assert_double_eq_tol(d->actuator_force[0], tau, 1e-12);
    ck_assert_double_eq_tol(d->actuator_force[1], -K * K * 1.3 / R, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
    /* Vmax 1 V: the voltage R/K tau + K v = 4 * 1.85 - 0.35 clamps to 1 */
    m = load_arm("<dcmotor name='a' joint='j' motorconst='0.5' resistance='2' "
                 "input='pos vel ff' controller='3 0 0.5 0 0 1'/>", "gravity='0 0 0'");
    d = cs_make_data(m);
    d->qpos[0] = 0.2;
    d->qvel[0] = -0.7;
    d->ctrl[0] = 0.5;
    d->ctrl[1] = 0.1;
    d->ctrl[2] = 0.05;
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->actuator_force[0], K * (1 - K * -0.7) / R, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* ---- LuGre friction holds below its Coulomb level ------------------------------------- */
/* a weightless arm on a motor without inputs, LuGre friction (Coulomb 0.05, static 0.08
 * N m): a torque of 0.04 only bends the bristles (0.04 / sigma0 rad), 0.2 turns it */
START_TEST(test_lugre_sticks)
{
    for (int v = 0; v < 2; v++) {
        cs_model *m = load_arm("<dcmotor name='a' joint='j' motorconst='0.001' resistance='2' "
                               "input='none' lugre='1e4 100 0.05 0.08 0.1'/>",
                               "gravity='0 0 0' integrator='implicitfast'");
        ck_assert_int_eq(m->na, 1);
        cs_data *d = cs_make_data(m);
        d->qfrc_applied[0] = v ? 0.2 : 0.04;
        steps(m, d, 1000);
        double q = angle(m, d, "j");
        printf("report: LuGre under %g N m: angle %.3g after 2 s\n", d->qfrc_applied[0], q);
        if (v) ck_assert_double_gt(q, 0.1);
        else ck_assert_double_le(fabs(q), 2 * 0.04 / 1e4);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* ---- controls' names and MuJoCo's refusals --------------------------------------------- */
START_TEST(test_ctrl_names)
{
    cs_model *m = load_arm("<pid name='p' joint='j'/><position joint='j2'/>"
                           "<pid name='q' joint='j2' input='vel ff'/>", "");
    ck_assert_int_eq(m->nactuator, 3);
    ck_assert_int_eq(m->nu, 5);
    char buf[64];
    const char *want[] = {"p/pos", "p/vel", "actuator1", "q/vel", "q/ff"};
    for (int k = 0; k < 5; k++) {
        ck_assert_str_eq(cs_ctrl_label(m, k, buf, sizeof buf), want[k]);
        ck_assert_int_eq(cs_name2id_ctrl(m, want[k]), k);
    }
    ck_assert_int_eq(cs_ctrl_actuator(m, 4), 2);
    ck_assert_int_eq(cs_name2id_ctrl(m, "p"), -1);
    ck_assert_int_eq(cs_name2id_ctrl(m, "4"), 4);
    ck_assert_int_eq(cs_name2id_ctrl(m, "5"), -1);
    ck_assert_str_eq(cs_actuator_input_name(m, 2, 1), "ff");
    ck_assert_ptr_null(cs_actuator_input_name(m, 1, 0));
    cs_free_model(m);
}
END_TEST

START_TEST(test_refusals)
{
    refused("<pid joint='j' ki='1' slewmax='1'/>", "actdim > 1 is only allowed");
    refused("<pid joint='j' input='vel pos'/>", "canonical order");
    refused("<pid joint='j' input='pos pos'/>", "canonical order");
    refused("<pid joint='j' input='vel' ki='1'/>", "pid controller states require the pos input");
    refused("<pid joint='j' input='voltage'/>", "pid inputs are a subset of [pos, vel, ff]");
    refused("<pid joint='j' input='speed'/>", "'speed' is not an input");
    refused("<pid joint='j' slewmax='-1'/>", "slewmax cannot be negative");
    refused("<pid joint='j' nsample='4' delay='0.01'/>", "a delay on an actuator of several");
    refused("<dcmotor joint='j' motorconst='1' resistance='1' input='none' nsample='3'/>",
            "history and delay require an input");
    refused("<dcmotor joint='j' motorconst='1' resistance='1' controller='1'/>",
            "dcmotor controller gains require a controller input");
    refused("<general joint='j' input='pos'/>", "input is only available for so3, pid and dcmotor");
    refused("<general joint='j' dyntype='pid'/>", "dyntype 'pid' requires gaintype 'pid'");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pid");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pid_is_position);
    tcase_add_test(tc, test_pid_slew);
    tcase_add_test(tc, test_pid_integral);
    tcase_add_test(tc, test_pid_vel_ff);
    tcase_add_test(tc, test_pid_ranges);
    tcase_add_test(tc, test_dcmotor_controller);
    tcase_add_test(tc, test_lugre_sticks);
    tcase_add_test(tc, test_ctrl_names);
    tcase_add_test(tc, test_refusals);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
