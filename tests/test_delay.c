/* History buffers (MuJoCo 3.12's nsample, interp, delay, interval), against closed forms:
 * a motor delayed by n steps on a free slide changes the velocity each step by the control
 * of n steps before over the mass; linear and cubic reads are the line and the Catmull-Rom
 * spline through the samples; an interval sensor is computed at MuJoCo's documented times
 * and holds its value between them; a delayed sensor reports the past value; the buffers
 * are part of the state, are copied with the data and start as MuJoCo's reset leaves them;
 * a step allocates nothing; the loader refuses what MuJoCo's compiler refuses. (MuJoCo's
 * own numbers on a scene with every kind: the oracle-sensors-delay test and python's
 * test_delay.py.) */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"
#include "conesim.h"
#include "scene_util.h"

/* a time step that binary floating point holds exactly, so that step times are exact */
#define DT "0.015625"
static const double H = 0.015625;

/* a 2 kg body on a slide without gravity, a motor on it with a history buffer */
static cs_model *slide(const char *motor, const char *sensors)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='" DT "' gravity='0 0 0'/><worldbody><body>"
             "<joint name='s' type='slide' axis='1 0 0'/><geom size='0.1' mass='2'/>"
             "<site name='p'/></body></worldbody><actuator>%s</actuator><sensor>%s</sensor>"
             "</mujoco>",
             motor, sensors);
    return load_xml(xml, "slide.xml");
}

static double u_of(int k) { return 1 + 0.5 * k - 0.03 * k * k; } /* any sequence */

START_TEST(test_motor_delay)
{
    /* delay = nsample * timestep: the control set n steps before drives the step */
    for (int n = 1; n <= 4; n++) {
        char motor[128];
        snprintf(motor, sizeof motor, "<motor joint='s' nsample='%d' delay='%.17g'/>", n, n * H);
        cs_model *m = slide(motor, "");
        ck_assert_int_eq(m->nhistory, 2 + 2 * n);
        ck_assert_int_eq(m->actuator_history[0], n);
        ck_assert_int_eq(m->actuator_historyadr[0], 0);
        cs_data *d = cs_make_data(m);
        for (int k = 0; k < 60; k++) {
            d->ctrl[0] = u_of(k);
            double v0 = d->qvel[0], u = k >= n ? u_of(k - n) : 0; /* the buffer starts at 0 */
            /* cs_read_ctrl at the step's time gives what the step applies */
            ck_assert_double_eq(cs_read_ctrl(m, d, 0, d->time, -1), u);
            cs_step(m, d);
            ck_assert_double_eq_tol(d->actuator_force[0], u, 1e-15 * (1 + fabs(u)));
            ck_assert_double_eq_tol(d->qvel[0] - v0, u / 2 * H, 1e-14 * (1 + fabs(v0)));
        }
        cs_free_data(d);
        cs_free_model(m);
    }
    /* the delayed control is clamped to ctrlrange when used, not when stored */
    cs_model *m = slide("<motor joint='s' nsample='1' delay='" DT "' ctrlrange='-1 1'/>", "");
    cs_data *d = cs_make_data(m);
    d->ctrl[0] = 5;
    cs_step(m, d);
    d->ctrl[0] = 0;
    cs_step(m, d);
    ck_assert_double_eq(d->actuator_force[0], 1);
    /* one sample: the 0 of the last step, whatever the time */
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, d->time, 0), 0);
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, 0, 1), 0);
    cs_free_data(d);
    cs_free_model(m);
    /* a buffer without delay records and changes nothing */
    m = slide("<motor joint='s' nsample='3'/>", "");
    d = cs_make_data(m);
    for (int k = 0; k < 5; k++) {
        d->ctrl[0] = u_of(k);
        cs_step(m, d);
        ck_assert_double_eq(d->actuator_force[0], u_of(k));
    }
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, 2 * H, 0), u_of(2)); /* stored at 2 H */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the Catmull-Rom spline through p0..p3 (equally spaced) between p1 and p2 at fraction a */
static double catmull_rom(const double p[4], double a)
{
    return 0.5 * (2 * p[1] + (p[2] - p[0]) * a + (2 * p[0] - 5 * p[1] + 4 * p[2] - p[3]) * a * a +
                  (3 * p[1] - p[0] - 3 * p[2] + p[3]) * a * a * a);
}

START_TEST(test_interpolation)
{
    cs_model *m = slide("<motor joint='s' nsample='6' interp='cubic'/>",
                        "<framepos objtype='site' objname='p' nsample='6' interp='linear'/>");
    ck_assert_int_eq(m->actuator_history[1], 2);
    ck_assert_int_eq(m->sensor_history[1], 1);
    ck_assert_int_eq(m->sensor_historyadr[0], 2 + 2 * 6);
    ck_assert_int_eq(m->nhistory, 2 + 2 * 6 + 2 + 6 * 4);
    cs_data *d = cs_make_data(m);
    double t[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, v[6] = {3, -1, 4, 1, -5, 9};
    ck_assert_int_eq(cs_init_ctrl_history(m, d, 0, t, v), 0);
    /* zero-order hold: the latest sample at or before; outside, the nearest end */
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, 0.35, 0), 4);
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, 0.4, 0), 1);
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, 0.05, 1), 3);
    ck_assert_double_eq(cs_read_ctrl(m, d, 0, 0.9, 2), 9);
    /* linear: the line between the two samples */
    ck_assert_double_eq_tol(cs_read_ctrl(m, d, 0, 0.325, 1), 4 + 0.25 * (1 - 4), 1e-14);
    /* cubic (the actuator's own, -1): the Catmull-Rom spline on inner segments */
    for (int s = 1; s <= 3; s++)
        for (double a = 0.1; a < 1; a += 0.2) {
            double want = catmull_rom(v + s - 1, a);
            ck_assert_double_eq_tol(cs_read_ctrl(m, d, 0, t[s] + a * 0.1, -1), want, 1e-13);
        }
    /* ... and slope 0 at the buffer's ends: just past the first sample the value departs
     * from it by O(e^2), where the line's slope would give 40 e */
    double e = 1e-4, near = cs_read_ctrl(m, d, 0, 0.1 + e * 0.1, 2);
    ck_assert_double_lt(fabs(near - 3), 100 * e * e);
    /* Catmull-Rom reproduces a quadratic on inner segments */
    double q[6];
    for (int k = 0; k < 6; k++) q[k] = 2 - 3 * t[k] + 7 * t[k] * t[k];
    cs_init_ctrl_history(m, d, 0, t, q);
    for (double x = 0.21; x < 0.5; x += 0.037)
        ck_assert_double_eq_tol(cs_read_ctrl(m, d, 0, x, 2), 2 - 3 * x + 7 * x * x, 1e-13);
    /* a sensor of 3 values: linear is exact on values linear in time */
    double sv[18];
    for (int k = 0; k < 6; k++)
        for (int j = 0; j < 3; j++) sv[3 * k + j] = (j + 1) * t[k] - j;
    ck_assert_int_eq(cs_init_sensor_history(m, d, 0, t, sv, 0), 0);
    double r[3];
    ck_assert_int_eq(cs_read_sensor(m, d, 0, 0.2718, r, -1), 0);
    for (int j = 0; j < 3; j++) ck_assert_double_eq_tol(r[j], (j + 1) * 0.2718 - j, 1e-14);
    /* times that do not increase are refused; an element without a buffer too */
    double bad[6] = {0.1, 0.2, 0.2, 0.4, 0.5, 0.6};
    ck_assert_int_eq(cs_init_ctrl_history(m, d, 0, bad, v), -1);
    ck_assert_int_eq(cs_init_ctrl_history(m, d, 1, t, v), -1);
    ck_assert_int_eq(cs_read_sensor(m, d, 1, 0, r, 0), -1);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the slide moving at 1 m/s from 0: qpos = time at every step (exact in binary) */
static cs_data *moving(const cs_model *m)
{
    cs_data *d = cs_make_data(m);
    d->qvel[0] = 1;
    return d;
}

/* the sensordata of sensor s as the step from time k H computed it */
static double stepped(const cs_model *m, cs_data *d, int s)
{
    cs_step(m, d);
    return d->sensordata[m->sensor_adr[s]];
}

START_TEST(test_interval)
{
    /* MuJoCo's documented schedules, in steps: period 2.5 steps is computed at 0, 3, 5, 8,
     * 10, 13, ...; with phase -1.5 steps at 1, 4, 6, 9, 11, 14, ... */
    cs_model *m = slide("", "<jointpos joint='s' nsample='3' interval='0.0390625'/>"
                            "<jointpos joint='s' nsample='2' interval='0.0390625 -0.0234375'/>"
                            "<jointpos joint='s'/>");
    const int at0[] = {0, 3, 5, 8, 10, 13, 15, 18}, at1[] = {1, 4, 6, 9, 11, 14, 16, 19};
    cs_data *d = moving(m);
    int last0 = -1, last1 = -1, i0 = 0, i1 = 0;
    for (int k = 0; k < 19; k++) {
        if (at0[i0] == k) last0 = at0[i0++];
        if (at1[i1] == k) last1 = at1[i1++];
        double s0 = stepped(m, d, 0), s1 = d->sensordata[1], s2 = d->sensordata[2];
        ck_assert_double_eq(s2, k * H); /* every step */
        /* held between computations; before the first, the buffer's initial 0 */
        ck_assert_double_eq(s0, last0 < 0 ? 0 : last0 * H);
        ck_assert_double_eq(s1, last1 < 0 ? 0 : last1 * H);
    }
    cs_free_data(d);
    /* reset: an interval sensor's times are its periods before the phase on the step grid
     * (here -7.5, -5, -2.5 steps rounded up), its user slot -period; others the steps before */
    d = cs_make_data(m);
    const double *b = d->history + m->sensor_historyadr[0];
    ck_assert_double_eq(b[0], -0.0390625);
    ck_assert_double_eq(b[1], 2);
    ck_assert_double_eq(b[2], -7 * H);
    ck_assert_double_eq(b[3], -5 * H);
    ck_assert_double_eq(b[4], -2 * H);
    b = d->history + m->sensor_historyadr[1]; /* phase -1.5: -4 and -1.5 steps, rounded up */
    ck_assert_double_eq(b[0], -0.0234375);
    ck_assert_double_eq(b[2], -4 * H);
    ck_assert_double_eq(b[3], -1 * H);
    cs_free_data(d);
    cs_free_model(m);
    /* MuJoCo's own test of ten samples at timestep 1 (engine_sensor_test's SensorInterval) */
    m = load_xml("<mujoco><option timestep='1' gravity='0 0 0'/><worldbody><body>"
                 "<joint name='s' type='slide'/><geom size='0.1'/></body></worldbody><sensor>"
                 "<jointpos joint='s' interval='2.5 0' nsample='10'/>"
                 "<jointpos joint='s' interval='2.5 -1.5' nsample='10'/></sensor></mujoco>",
                 "interval10.xml");
    d = cs_make_data(m);
    const double t0[] = {-25, -22, -20, -17, -15, -12, -10, -7, -5, -2};
    const double t1[] = {-24, -21, -19, -16, -14, -11, -9, -6, -4, -1};
    for (int j = 0; j < 10; j++) {
        ck_assert_double_eq(d->history[m->sensor_historyadr[0] + 2 + j], t0[j]);
        ck_assert_double_eq(d->history[m->sensor_historyadr[1] + 2 + j], t1[j]);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_sensor_delay)
{
    /* a position sensor delayed by 2 steps, one by 1.5 steps read linearly, a velocity one
     * and an actuator force (computed when the step appends them) delayed by 1 step */
    cs_model *m = slide("<motor name='f' joint='s'/>",
                        "<jointpos joint='s' nsample='2' delay='0.03125'/>"
                        "<jointpos joint='s' nsample='3' delay='0.0234375' interp='linear'/>"
                        "<jointvel joint='s' nsample='1' delay='" DT "'/>"
                        "<actuatorfrc actuator='f' nsample='2' delay='" DT "'/>");
    cs_data *d = moving(m);
    enum { N = 40 };
    double qp[N], qv[N];
    for (int k = 0; k < N; k++) {
        d->ctrl[0] = u_of(k);
        qp[k] = d->qpos[0], qv[k] = d->qvel[0]; /* the values at the step's time */
        cs_step(m, d);
        const double *s = d->sensordata;
        /* before the first steps' samples, the buffer's initial 0 */
        ck_assert_double_eq(s[0], k >= 2 ? qp[k - 2] : 0);
        double lin = k >= 2 ? (qp[k - 2] + qp[k - 1]) / 2 : k == 1 ? qp[0] / 2 : 0;
        ck_assert_double_eq_tol(s[1], lin, 1e-15);
        ck_assert_double_eq(s[2], k >= 1 ? qv[k - 1] : 0);
        ck_assert_double_eq(s[3], k >= 1 ? u_of(k - 1) : 0);
    }
    /* cs_read_sensor at other times: the past values (zero-order hold) */
    double r;
    ck_assert_int_eq(cs_read_sensor(m, d, 0, d->time, &r, 0), 0);
    ck_assert_double_eq(r, qp[N - 2]);
    cs_read_sensor(m, d, 0, d->time + H, &r, 0);
    ck_assert_double_eq(r, qp[N - 1]);
    cs_read_sensor(m, d, 0, 0, &r, 0); /* before the buffer: its oldest */
    ck_assert_double_eq(r, qp[N - 2]);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_state_copy_reset)
{
    cs_model *m = load_xml(
        "<mujoco><option timestep='" DT "'/><worldbody><body><joint name='s' type='slide'/>"
        "<geom size='0.1' mass='2'/></body></worldbody><actuator>"
        "<motor joint='s' nsample='3' delay='0.046875'/></actuator><sensor>"
        "<jointpos joint='s' nsample='4' delay='0.03' interp='cubic'/>"
        "<jointvel joint='s' nsample='2' interval='0.04'/></sensor><keyframe>"
        "<key time='3' qpos='0.5' ctrl='7'/></keyframe></mujoco>",
        "state.xml");
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 17; k++) {
        d->ctrl[0] = u_of(k);
        cs_step(m, d);
    }
    int spec = CS_STATE_INTEGRATION, n = cs_state_size(m, spec);
    ck_assert_int_eq(n - cs_state_size(m, spec & ~CS_STATE_HISTORY), m->nhistory);
    double *s = malloc((size_t)n * sizeof *s);
    cs_get_state(m, d, s, spec);
    cs_data *e = cs_make_data(m), *c = cs_copy_data(m, d);
    cs_set_state(m, e, s, spec);
    for (int k = 17; k < 40; k++) {
        d->ctrl[0] = e->ctrl[0] = c->ctrl[0] = u_of(k);
        cs_step(m, d);
        cs_step(m, e);
        cs_step(m, c);
        ck_assert_double_eq(e->qpos[0], d->qpos[0]);
        ck_assert_double_eq(c->qpos[0], d->qpos[0]);
        ck_assert_mem_eq(e->sensordata, d->sensordata, 2 * sizeof(double));
        ck_assert_mem_eq(c->history, d->history, (size_t)m->nhistory * sizeof(double));
    }
    /* without the history part, e keeps its own buffers and parts from d */
    cs_get_state(m, d, s, spec & ~CS_STATE_HISTORY);
    cs_reset(m, e);
    cs_set_state(m, e, s, spec & ~CS_STATE_HISTORY);
    d->ctrl[0] = e->ctrl[0] = 1;
    cs_step(m, d);
    cs_step(m, e);
    ck_assert_double_ne(e->actuator_force[0], d->actuator_force[0]);
    /* reset: values 0 at the steps before 0; a key's time does not move them (MuJoCo's
     * mj_resetDataKeyframe), so the key's control reaches the force 3 steps later */
    ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
    const double *b = d->history + m->actuator_historyadr[0];
    ck_assert_double_eq(b[1], 2);
    for (int j = 0; j < 3; j++) {
        ck_assert_double_eq(b[2 + j], -(3 - j) * H);
        ck_assert_double_eq(b[5 + j], 0);
    }
    for (int k = 0; k < 4; k++) {
        cs_step(m, d);
        ck_assert_double_eq(d->actuator_force[0], k < 3 ? 0 : 7);
    }
    free(s);
    cs_free_data(c);
    cs_free_data(e);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* MuJoCo's docs: a delay may change between steps within the buffer's reach */
START_TEST(test_set_delay)
{
    cs_model *m = slide("<motor name='u' joint='s' nsample='4' delay='0.03125'/>",
                        "<jointpos name='q' joint='s' nsample='4' delay='0.03125'/>");
    cs_data *d = moving(m);
    ck_assert_int_eq(cs_set(m, "actuator.u.delay", 3 * H), 0);
    ck_assert_int_eq(cs_set(m, "sensor.q.delay", 4 * H), 0);
    ck_assert_double_eq(m->actuator_delay[0], 3 * H);
    ck_assert_int_eq(cs_set(m, "sensor.0.delay", -H), -1); /* not negative */
    double qp[20];
    for (int k = 0; k < 20; k++) {
        d->ctrl[0] = u_of(k);
        qp[k] = d->qpos[0];
        cs_step(m, d);
        ck_assert_double_eq(d->actuator_force[0], k >= 3 ? u_of(k - 3) : 0);
        ck_assert_double_eq(d->sensordata[0], k >= 4 ? qp[k - 4] : 0);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_step_allocates_nothing)
{
    cs_model *m = slide("<motor name='f' joint='s' nsample='5' delay='0.05' interp='cubic'/>",
                        "<accelerometer site='p' nsample='4' delay='0.03' interp='cubic'/>"
                        "<jointvel joint='s' nsample='3' interval='0.04 -0.01'/>"
                        "<actuatorfrc actuator='f' nsample='2' delay='0.02' interval='0.03'/>");
    cs_data *d = cs_make_data(m);
    steps(m, d, 3);
    long before = alloc_count;
    for (int k = 0; k < 50; k++) {
        d->ctrl[0] = u_of(k);
        cs_step(m, d);
    }
    ck_assert_int_eq(alloc_count, before);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the loader's message for a model with the given actuator and sensor elements */
static void bad(const char *act, const char *sens, const char *line, const char *want)
{
    char xml[2048], err[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><default><default class='h'><motor nsample='2'/></default>"
             "<default class='d'><motor delay='0.1'/></default></default>\n"
             "<worldbody><body><joint name='s' type='slide'/><geom size='0.1'/>"
             "<site name='p'/></body></worldbody>\n"
             "<actuator>%s</actuator>\n<sensor>%s</sensor></mujoco>",
             act, sens);
    cs_model *m = cs_load_xml_string(xml, "bad.xml", NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "accepted: %s %s", act, sens);
    ck_assert_msg(strstr(err, line) && strstr(err, want), "%s %s: %s", act, sens, err);
}

START_TEST(test_loader_errors)
{
    bad("<motor joint='s' delay='0.1'/>", "", "bad.xml:3:", "without a history buffer");
    bad("<motor joint='s' class='d'/>", "", "bad.xml:3:", "without a history buffer");
    bad("<motor joint='s' nsample='-1'/>", "", "bad.xml:3:", "nsample cannot be negative");
    bad("<motor joint='s' nsample='2' delay='-0.01'/>", "", "bad.xml:3:",
        "delay cannot be negative");
    bad("<motor joint='s' nsample='16777217'/>", "", "bad.xml:3:", "at most 2^24 samples");
    bad("<motor joint='s' nsample='2' interp='spline'/>", "", "bad.xml:3:", "interp");
    bad("<motor joint='s' nsample='1.5'/>", "", "bad.xml:3:", "integer");
    bad("", "<jointpos joint='s' delay='0.1'/>", "bad.xml:4:", "without a history buffer");
    bad("", "<jointpos joint='s' nsample='-2'/>", "bad.xml:4:", "nsample cannot be negative");
    bad("", "<jointpos joint='s' nsample='2' delay='-1'/>", "bad.xml:4:", "cannot be negative");
    bad("", "<jointpos joint='s' nsample='2' interval='-0.1'/>", "bad.xml:4:",
        "negative interval");
    bad("", "<jointpos joint='s' nsample='2' interval='0.1 0.01'/>", "bad.xml:4:",
        "positive phase");
    bad("", "<jointpos joint='s' nsample='2' interval='0.1 -0.1'/>", "bad.xml:4:",
        "phase must be greater than -period");
    bad("", "<user dim='1' nsample='2' delay='0.1'/>", "bad.xml:4:", "cannot be delayed");
    /* a class's buffer with the element's delay; a delay beyond the buffer (MuJoCo reads
     * the oldest sample: allowed); an interval without a buffer (MuJoCo ignores it) */
    char err[1024];
    cs_model *m = cs_load_xml_string(
        "<mujoco><default><default class='h'><motor nsample='2'/></default></default>"
        "<worldbody><body><joint name='s' type='slide'/><geom size='0.1'/></body></worldbody>"
        "<actuator><motor class='h' joint='s' delay='0.1'/></actuator><sensor>"
        "<jointpos joint='s' interval='0.1'/></sensor></mujoco>",
        "good.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->actuator_history[0], 2);
    ck_assert_double_eq(m->actuator_delay[0], 0.1);
    ck_assert_int_eq(m->sensor_historyadr[0], -1);
    ck_assert_double_eq(m->sensor_interval[0], 0.1);
    cs_data *d = cs_make_data(m);
    ck_assert_int_eq(cs_transition_fd(m, d, 1e-6, 0, NULL, NULL), -1); /* as MuJoCo's */
    d->qvel[0] = 1;
    cs_step(m, d);
    cs_step(m, d);
    /* computed every step: the position the last step started from */
    ck_assert_double_eq_tol(d->sensordata[0], d->qpos[0] - d->qvel[0] * 0.002, 1e-15);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("delay");
    TCase *tc = tcase_create("delay");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_motor_delay);
    tcase_add_test(tc, test_interpolation);
    tcase_add_test(tc, test_interval);
    tcase_add_test(tc, test_sensor_delay);
    tcase_add_test(tc, test_state_copy_reset);
    tcase_add_test(tc, test_set_delay);
    tcase_add_test(tc, test_step_allocates_nothing);
    tcase_add_test(tc, test_loader_errors);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
