/* The servo side of actuation, MuJoCo 3.12's (engine_forward.c): setpoints on rotational
 * transmissions taken on the circle, the pid actuator (force kp (qref - l) + kv (vref - v)
 * + ff + ki z, with a slew-limited position setpoint and the integral z of the position
 * error as states) and the DC motor's on-board controller (the same torque-space law
 * driving the motor's voltage, back-EMF compensated), the DC motor's states (with LuGre
 * friction's bristles) and every activation's step. Nothing here allocates. */
#include <limits.h>
#include <math.h>

#include "minval.h"
#include "servo.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { NDYN = 10, NGAIN = 10, NBIAS = 10 };
enum { SERVO = CS_INPUT_POS | CS_INPUT_VEL | CS_INPUT_FF };

static double clip(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* MuJoCo's mju_round: ties away from zero, as an int */
static double round_int(double x)
{
    double k = round(x);
    return k > INT_MAX ? INT_MAX : k < INT_MIN ? INT_MIN : k;
}

double cs_wrap_period(const cs_model *m, int i)
{
    int dyn = m->actuator_dyntype[i];
    int servo = m->actuator_gaintype[i] == CS_GAIN_FIXED && m->actuator_biastype[i] == CS_BIAS_AFFINE &&
                m->actuator_gainprm[NGAIN * i] == -m->actuator_biasprm[NBIAS * i + 1] &&
                (dyn == CS_DYN_NONE || dyn == CS_DYN_INTEGRATOR);
    if (!servo && m->actuator_gaintype[i] != CS_GAIN_PID) return 0;
    const double *g = m->actuator_gear + 6 * i;
    int ty = m->actuator_trntype[i];
    if (ty == CS_TRN_SITE && m->actuator_trnid[2 * i + 1] >= 0 && !g[0] && !g[1] && !g[2])
        return 2 * M_PI * sqrt(g[3] * g[3] + g[4] * g[4] + g[5] * g[5]);
    if ((ty == CS_TRN_JOINT || ty == CS_TRN_JOINTINPARENT) &&
        m->jnt_type[m->actuator_trnid[2 * i]] == CS_JNT_BALL)
        return 2 * M_PI * sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    return 0;
}

double cs_wrap_setpoint(double u, double length, double period)
{
    return u - period * round_int((u - length) / period);
}

/* the block's inputs in the order [pos, vel, ff, voltage], an absent one 0 */
static void unpack(const double *u, int spec, double out[4])
{
    int k = 0;
    out[0] = spec & CS_INPUT_POS ? u[k++] : 0;
    out[1] = spec & CS_INPUT_VEL ? u[k++] : 0;
    out[2] = spec & CS_INPUT_FF ? u[k++] : 0;
    out[3] = spec & CS_INPUT_VOLTAGE ? u[k] : 0;
}

/* setpoint u limited to move at most slew per second from the previous effective one,
 * prev (taken on the circle first when period > 0); its state's rate into *rate */
static double slew_limit(double u, double prev, double slew, double dt, double period,
                         double *rate)
{
    if (period > 0) u = cs_wrap_setpoint(u, prev, period);
    double step = slew * dt, eff = clip(u, prev - step, prev + step);
    *rate = (eff - prev) / dt;
    return eff;
}

/* anti-windup: beyond +-imax (> 0) the integral only moves back */
static double windup(double err, double z, double imax)
{
    if (imax > 0) {
        if (z >= imax) err = fmin(err, 0);
        else if (z <= -imax) err = fmax(err, 0);
    }
    return err;
}

void cs_pid_rates(const cs_model *m, cs_data *d, int i, double *u)
{
    int adr = m->actuator_actadr[i], c0 = m->actuator_ctrladr[i];
    const double *dp = m->actuator_dynprm + NDYN * i;
    double period = cs_wrap_period(m, i);
    if (dp[1] > 0) {
        u[c0] = slew_limit(u[c0], d->act[adr], dp[1], m->opt.timestep, period, d->act_dot + adr);
        adr++;
    }
    if (m->actuator_gainprm[NGAIN * i] > 0) {
        double err = u[c0] - d->actuator_length[m->actuator_outadr[i]];
        if (period > 0) err -= period * round_int(err / period);
        d->act_dot[adr] = windup(err, d->act[adr], dp[0]);
    }
}

/* the DC motor's drive voltage: the controller's torque-space law over the inputs present,
 * made a voltage that compensates back-EMF (R/K torque + K velocity) and clamped to Vmax,
 * plus the raw voltage input */
static double voltage(const double *u, int spec, double len, double vel, double xi,
                      const double *g)
{
    double in[4], v = 0;
    unpack(u, spec, in);
    if (spec & SERVO) {
        double tau = g[4] * (in[0] - len) + g[6] * (in[1] - vel) + g[5] * xi + in[2];
        v = g[0] / g[1] * tau + g[1] * vel;
        if (g[7] > 0) v = clip(v, -g[7], g[7]);
    }
    return v + in[3];
}

cs_dcmotor_slots cs_dcmotor_slots_of(const double *dp, const double *g)
{
    cs_dcmotor_slots s = {-1, -1, -1, -1, 0};
    if (dp[7] > 0) s.slew = s.n++;
    if (g[5] > 0) s.integral = s.n++;
    if (dp[5] > 0) s.bristle = s.n++;
    if (dp[0] > 0) s.current = s.n++;
    return s;
}

double cs_lugre_stribeck(double v, double fc, double fs, double vs)
{
    double r = v / fmax(CS_MINVAL, vs);
    return fc + (fs - fc) * exp(-r * r);
}

void cs_dcmotor_rates(const cs_model *m, cs_data *d, int i, double *u)
{
    int a0 = m->actuator_actadr[i];
    int c0 = m->actuator_ctrladr[i], spec = m->actuator_ctrlspec[i];
    const double *dp = m->actuator_dynprm + NDYN * i, *g = m->actuator_gainprm + NGAIN * i;
    const double *b = m->actuator_biasprm + NBIAS * i;
    double vel = d->actuator_velocity[m->actuator_outadr[i]], R = g[0], K = g[1], te = dp[0];
    cs_dcmotor_slots s = cs_dcmotor_slots_of(dp, g);
    if (s.slew >= 0) /* slew-limited first input */
        u[c0] = slew_limit(u[c0], d->act[a0 + s.slew], dp[7], m->opt.timestep, 0,
                           d->act_dot + a0 + s.slew);
    double xi = 0;
    if (s.integral >= 0) { /* the integral of the position error */
        xi = d->act[a0 + s.integral];
        d->act_dot[a0 + s.integral] = windup(u[c0] - d->actuator_length[m->actuator_outadr[i]], xi, dp[8]);
    }
    double V = voltage(u + c0, spec, d->actuator_length[m->actuator_outadr[i]], vel, xi, g);
    if (s.bristle >= 0) { /* LuGre: dz/dt = v - sigma0 |v| z / g(v) */
        double z = d->act[a0 + s.bristle];
        double a = -dp[5] * fabs(vel) / fmax(CS_MINVAL, cs_lugre_stribeck(vel, b[3], b[4], b[5]));
        d->act_dot[a0 + s.bristle] = a * z + vel;
    }
    if (s.current >= 0) { /* the current: L di/dt = V - K omega - R i */
        int c = a0 + s.current;
        double di = (V / R - K / R * vel - d->act[c]) / te;
        if (dp[1] > 0) di = clip(di, -dp[1], dp[1]); /* (di/dt)max */
        d->act_dot[c] = di;
    }
}

double cs_pid_input_force(const cs_model *m, const cs_data *d, int i, const double *u)
{
    const double *b = m->actuator_biasprm + NBIAS * i, *g = m->actuator_gainprm + NGAIN * i;
    double in[4];
    unpack(u + m->actuator_ctrladr[i], m->actuator_ctrlspec[i], in);
    double qref = in[0], period = cs_wrap_period(m, i);
    if (period > 0) qref = cs_wrap_setpoint(qref, d->actuator_length[m->actuator_outadr[i]], period);
    double f = -b[1] * qref - b[2] * in[1] + in[2];
    int n = m->actuator_actnum[i];
    if (n && g[0] > 0) { /* the integral, the last state */
        int adr = m->actuator_actadr[i] + n - 1;
        double z = m->actuator_actearly[i] ? cs_next_activation(m, d, i, adr, d->act_dot[adr])
                                           : d->act[adr];
        f += g[0] * z;
    }
    return f;
}

void cs_dcmotor_drive(const cs_model *m, const cs_data *d, int i, double *u)
{
    int spec = m->actuator_ctrlspec[i], c0 = m->actuator_ctrladr[i];
    if (spec == CS_INPUT_VOLTAGE || m->actuator_ctrlnum[i] == 0) return;
    const double *dp = m->actuator_dynprm + NDYN * i, *g = m->actuator_gainprm + NGAIN * i;
    double xi = 0;
    if (g[5] > 0) /* the integral's slot: after the slew state, if any */
        xi = d->act[m->actuator_actadr[i] + (dp[7] > 0)];
    u[c0] = voltage(u + c0, spec, d->actuator_length[m->actuator_outadr[i]], d->actuator_velocity[m->actuator_outadr[i]], xi, g);
}

/* activation adr of actuator i after one step at rate act_dot (MuJoCo's
 * mj_nextActivation): Euler, exactly integrated filters (a DC motor's current), a DC
 * motor's integral clamped to Imax; actrange clamps all but a DC motor's states */
double cs_next_activation(const cs_model *m, const cs_data *d, int i, int adr, double act_dot)
{
    int dyn = m->actuator_dyntype[i];
    double act = d->act[adr];
    const double *dp = m->actuator_dynprm + NDYN * i;
    if (dyn == CS_DYN_FILTEREXACT) {
        double tau = fmax(CS_MINVAL, dp[0]);
        act += act_dot * tau * (1 - exp(-m->opt.timestep / tau));
    } else if (dyn == CS_DYN_DCMOTOR) { /* states [slew, integral, bristle, current] */
        int off = adr - m->actuator_actadr[i];
        const double *b = m->actuator_biasprm + NBIAS * i;
        cs_dcmotor_slots s = cs_dcmotor_slots_of(dp, m->actuator_gainprm + NGAIN * i);
        if (off == s.current) {
            double tau = fmax(CS_MINVAL, dp[0]);
            act += act_dot * tau * (1 - exp(-m->opt.timestep / tau));
        } else if (off == s.bristle) { /* exact for the velocity held over the step */
            double v = d->actuator_velocity[m->actuator_outadr[i]], h = m->opt.timestep;
            double a = -dp[5] * fabs(v) / fmax(CS_MINVAL, cs_lugre_stribeck(v, b[3], b[4], b[5]));
            double e = exp(a * h), w = fabs(a) > CS_MINVAL ? (e - 1) / a : h;
            act = e * act + w * v;
        } else {
            act += act_dot * m->opt.timestep;
            if (off == s.integral && dp[8] > 0) act = clip(act, -dp[8], dp[8]);
        }
        return act; /* its states have no actrange */
    } else {
        act += act_dot * m->opt.timestep;
    }
    if (m->actuator_actlimited[i])
        act = clip(act, m->actuator_actrange[2 * i], m->actuator_actrange[2 * i + 1]);
    return act;
}
