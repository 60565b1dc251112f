/* Actuation, MuJoCo's model: joint transmissions (length gear * qpos, moment gear),
 * tendon transmissions (length gear * ten_length, moment gear * ten_J), slider-cranks
 * (slidercrank.c) and body transmissions (adhesion.c), the
 * controls clamped to ctrlrange, activation dynamics (integrator, filter, exact filter,
 * muscle; pid and DC motor states in actuator_servo.c), force = gain * (ctrl or act) + bias
 * clamped to forcerange (gain and bias fixed, affine or a muscle's, muscle.c; a pid's and a
 * DC motor's controller, actuator_servo.c), and qfrc_actuator. Also the activations'
 * step and the velocity derivative the implicitfast integrator needs. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "stages.h"
#include "minval.h"
#include "muscle.h"
#include "servo.h"

enum { NDYN = 10, NGAIN = 10, NBIAS = 10 };

static double clip(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* the joint's dof and the scalar gear of a (hinge or slide) transmission */
static int act_dof(const cs_model *m, int i) { return m->jnt_dofadr[m->actuator_trnid[2 * i]]; }

/* MuJoCo's mj_actuatorDisabled: the bit of its group (0..30) in opt.disableactuator */
static int disabled(const cs_model *m, int i)
{
    int g = m->actuator_group[i];
    return g >= 0 && g <= 30 && ((unsigned)m->opt.disableactuator >> g & 1u);
}

int cs_actuator_dense(const cs_model *m, int i)
{
    int ty = m->actuator_trntype[i];
    if (ty == CS_TRN_SLIDERCRANK || ty == CS_TRN_SITE || ty == CS_TRN_JOINTINPARENT ||
        ty == CS_TRN_BODY || ty == CS_TRN_SO3)
        return 1;
    if (ty != CS_TRN_JOINT) return 0;
    int t = m->jnt_type[m->actuator_trnid[2 * i]];
    return t == CS_JNT_BALL || t == CS_JNT_FREE;
}

/* a ball's or free joint's transmission, MuJoCo's: a ball's length is the rotation vector
 * of its quaternion dotted with the gear (in the parent's frame with jointinparent: the gear
 * turned back by the joint's rotation), its moment that gear on the three dofs; a free
 * joint's length is 0, its moment the force gear on the translations and the torque gear
 * (turned the same way) on the rotations */
static double joint_3d(const cs_model *m, const cs_data *d, int i, double *mo)
{
    int j = m->actuator_trnid[2 * i], adr = m->jnt_dofadr[j], qa = m->jnt_qposadr[j];
    int ball = m->jnt_type[j] == CS_JNT_BALL;
    const double *gear = m->actuator_gear + 6 * i, *g = ball ? gear : gear + 3;
    double q[4], ga[3];
    memcpy(q, d->qpos + qa + (ball ? 0 : 3), sizeof q);
    cs_normquat(q);
    if (m->actuator_trntype[i] == CS_TRN_JOINTINPARENT) { /* g turned by q^-1 */
        double nq[4] = {q[0], -q[1], -q[2], -q[3]}, R[9];
        cs_quat2mat(R, nq);
        for (int k = 0; k < 3; k++) ga[k] = R[3 * k] * g[0] + R[3 * k + 1] * g[1] + R[3 * k + 2] * g[2];
    } else {
        memcpy(ga, g, sizeof ga);
    }
    memset(mo, 0, (size_t)m->nv * sizeof *mo);
    if (!ball) {
        for (int k = 0; k < 3; k++) {
            mo[adr + k] = gear[k];
            mo[adr + 3 + k] = ga[k];
        }
        return 0;
    }
    double axis[3];
    cs_quat2vel(axis, q);
    for (int k = 0; k < 3; k++) mo[adr + k] = ga[k];
    return axis[0] * ga[0] + axis[1] * ga[1] + axis[2] * ga[2];
}

double cs_transmission_dense(const cs_model *m, const cs_data *d, int i, double *mo,
                             double *scratch)
{
    switch (m->actuator_trntype[i]) {
    case CS_TRN_SO3: { /* its first row (the three are cs_so3_transmission's) */
        double len[3], *rows = scratch + 6 * (size_t)m->nv;
        cs_so3_transmission(m, d, i, len, rows, scratch);
        memcpy(mo, rows, (size_t)m->nv * sizeof *mo);
        return len[0];
    }
    case CS_TRN_SLIDERCRANK: return cs_slider_crank(m, d, i, mo, scratch);
    case CS_TRN_SITE: return cs_site_transmission(m, d, i, mo, scratch);
    case CS_TRN_BODY: return cs_body_transmission(m, d, i, mo);
    default: return joint_3d(m, d, i, mo);
    }
}

/* a tendon's actuatorfrcrange bounds the sum of the forces of the actuators pulling on it:
 * a sum outside it scales each of them by bound / sum (before their own forcerange, as
 * MuJoCo) */
static void tendon_force_range(const cs_model *m, cs_data *d)
{
    int any = 0;
    for (int t = 0; t < m->ntendon && !any; t++) any = m->tendon_actfrclimited[t];
    if (!any) return;
    double *sum = d->scratch->tendon_actfrc;
    memset(sum, 0, (size_t)m->ntendon * sizeof *sum);
    for (int i = 0; i < m->nactuator; i++) {
        int t = m->actuator_trnid[2 * i];
        if (m->actuator_trntype[i] == CS_TRN_TENDON && m->tendon_actfrclimited[t])
            sum[t] += d->actuator_force[m->actuator_outadr[i]];
    }
    for (int i = 0; i < m->nactuator; i++) {
        int t = m->actuator_trnid[2 * i];
        if (m->actuator_trntype[i] != CS_TRN_TENDON || !m->tendon_actfrclimited[t] || sum[t] == 0)
            continue;
        const double *r = m->tendon_actfrcrange + 2 * t;
        double *f = d->actuator_force + m->actuator_outadr[i];
        if (sum[t] < r[0]) *f *= r[0] / sum[t];
        else if (sum[t] > r[1]) *f *= r[1] / sum[t];
    }
}

void cs_actuation(const cs_model *m, cs_data *d)
{
    int nact = m->nactuator, nu = m->nu;
    memset(d->qfrc_actuator, 0, (size_t)m->nv * sizeof *d->qfrc_actuator);
    /* transmission: lengths, moments and velocities (computed also when actuation is
     * off) */
    int nv = m->nv;
    for (int i = 0; i < nact; i++) {
        int j = m->actuator_trnid[2 * i], o = m->actuator_outadr[i];
        double g = m->actuator_gear[6 * i], *mo = d->actuator_moment + (size_t)o * nv;
        double *len = d->actuator_length + o, *vel = d->actuator_velocity + o;
        if (m->actuator_trntype[i] == CS_TRN_TENDON) {
            const double *J = d->ten_J + (size_t)j * nv;
            for (int q = 0; q < nv; q++) mo[q] = g * J[q];
            *len = g * d->ten_length[j];
            *vel = g * d->ten_velocity[j];
        } else if (m->actuator_trntype[i] == CS_TRN_SO3) {
            cs_so3_transmission(m, d, i, len, mo, d->scratch->eq_scratch);
            for (int k = 0; k < 3; k++) {
                double v = 0;
                for (int q = 0; q < nv; q++) v += mo[(size_t)k * nv + q] * d->qvel[q];
                vel[k] = v;
            }
        } else if (cs_actuator_dense(m, i)) {
            *len = cs_transmission_dense(m, d, i, mo, d->scratch->eq_scratch);
            double v = 0;
            for (int q = 0; q < nv; q++) v += mo[q] * d->qvel[q];
            *vel = v;
        } else {
            memset(mo, 0, (size_t)nv * sizeof *mo);
            mo[m->jnt_dofadr[j]] = g;
            *len = g * d->qpos[m->jnt_qposadr[j]];
            *vel = g * d->qvel[m->jnt_dofadr[j]];
        }
    }
    memset(d->actuator_force, 0, (size_t)m->nout * sizeof *d->actuator_force);
    if (!nact || (m->opt.disableflags & CS_DSBL_ACTUATION)) {
        memset(d->act_dot, 0, (size_t)m->na * sizeof *d->act_dot);
        return;
    }
    /* the controls as used: clamped (a copy: d->ctrl stays as the user set it); a control
     * that is not finite zeroes them all, as MuJoCo does */
    int bad = 0;
    double *u = d->scratch->ctrl_used;
    for (int i = 0; i < nact; i++) {
        int c0 = m->actuator_ctrladr[i];
        /* a delayed actuator's control from its history buffer, at this step's time (one
         * control: the loader refuses delays on larger blocks) */
        if (m->actuator_delay[i] != 0)
            u[c0] = cs_read_ctrl(m, d, i, d->time, m->actuator_history[2 * i + 1]);
        else
            memcpy(u + c0, d->ctrl + c0, (size_t)m->actuator_ctrlnum[i] * sizeof *u);
    }
    for (int k = 0; k < nu; k++) {
        if (!(m->opt.disableflags & CS_DSBL_CLAMPCTRL) && m->actuator_ctrllimited[k])
            u[k] = clip(u[k], m->actuator_ctrlrange[2 * k], m->actuator_ctrlrange[2 * k + 1]);
        if (!isfinite(u[k])) bad = 1;
    }
    if (bad) {
        d->warning[CS_WARN_BADCTRL]++;
        memset(u, 0, (size_t)nu * sizeof *u);
    }
    /* activation rates */
    for (int i = 0; i < nact; i++) {
        int a = m->actuator_actadr[i];
        if (a < 0) continue;
        const double *dp = m->actuator_dynprm + NDYN * i;
        double ui = m->actuator_ctrlnum[i] ? u[m->actuator_ctrladr[i]] : 0;
        switch (m->actuator_dyntype[i]) {
        case CS_DYN_INTEGRATOR: /* one state per control (an orientation's three) */
            for (int k = 0; k < m->actuator_ctrlnum[i]; k++)
                d->act_dot[a + k] = u[m->actuator_ctrladr[i] + k];
            break;
        case CS_DYN_MUSCLE: d->act_dot[a] = cs_muscle_dyn(ui, d->act[a], dp); break;
        case CS_DYN_DCMOTOR: cs_dcmotor_rates(m, d, i, u); break;
        case CS_DYN_PID: cs_pid_rates(m, d, i, u); break;
        default: d->act_dot[a] = (ui - d->act[a]) / fmax(CS_MINVAL, dp[0]); /* filters */
        }
    }
    /* force = gain * (control or activation) + bias */
    for (int i = 0; i < nact; i++) {
        if (disabled(m, i)) continue; /* no force */
        if (m->actuator_gaintype[i] == CS_GAIN_SO3) {
            cs_so3_force(m, d, i, u);
            continue;
        }
        int o = m->actuator_outadr[i];
        const double *gp = m->actuator_gainprm + NGAIN * i, *bp = m->actuator_biasprm + NBIAS * i;
        double len = d->actuator_length[o], vel = d->actuator_velocity[o];
        const double *lr = m->actuator_lengthrange + 2 * i;
        double gain = gp[0], bias = 0;
        if (m->actuator_gaintype[i] == CS_GAIN_AFFINE) gain += gp[1] * len + gp[2] * vel;
        else if (m->actuator_gaintype[i] == CS_GAIN_MUSCLE)
            gain = cs_muscle_gain(len, vel, lr, m->actuator_acc0[i], gp);
        else if (m->actuator_gaintype[i] == CS_GAIN_DCMOTOR) { /* on the current, or the voltage
                                                               (a controller's drive) */
            gain = m->actuator_dynprm[NDYN * i] > 0 ? gp[1] : gp[1] / fmax(CS_MINVAL, gp[0]);
            cs_dcmotor_drive(m, d, i, u);
        } else if (m->actuator_gaintype[i] == CS_GAIN_PID) {
            gain = 0;
        }
        int n = m->actuator_actnum[i], a = m->actuator_actadr[i] + n - 1; /* the last state */
        double in = m->actuator_ctrlnum[i] ? u[m->actuator_ctrladr[i]] : 0;
        /* a DC motor without a current state reads its control (or drive) */
        int dc_input = m->actuator_gaintype[i] == CS_GAIN_DCMOTOR && m->actuator_dynprm[NDYN * i] <= 0;
        if (n && !dc_input && m->actuator_gaintype[i] != CS_GAIN_PID)
            in = m->actuator_actearly[i] ? cs_next_activation(m, d, i, a, d->act_dot[a])
                                         : d->act[a];
        double period = cs_wrap_period(m, i);
        if (period > 0 && m->actuator_gaintype[i] != CS_GAIN_PID)
            in = cs_wrap_setpoint(in, len, period);
        if (m->actuator_biastype[i] == CS_BIAS_AFFINE) bias = bp[0] + bp[1] * len + bp[2] * vel;
        else if (m->actuator_biastype[i] == CS_BIAS_MUSCLE)
            bias = cs_muscle_bias(len, lr, m->actuator_acc0[i], bp);
        else if (m->actuator_biastype[i] == CS_BIAS_DCMOTOR && m->actuator_dynprm[NDYN * i] <= 0)
            bias = -gain * gp[1] * vel; /* back-EMF (a current state has it in its rate) */
        if (m->actuator_gaintype[i] == CS_GAIN_PID) /* its inputs' terms, then the affine bias */
            d->actuator_force[o] = cs_pid_input_force(m, d, i, u) + bias;
        else
            d->actuator_force[o] = gain * in + bias;
    }
    tendon_force_range(m, d);
    for (int i = 0; i < nact; i++) {
        if (disabled(m, i)) continue;
        if (m->actuator_gaintype[i] == CS_GAIN_SO3) { /* on the torque's norm */
            if (m->actuator_forcelimited[i]) cs_so3_clamp(m, d, i);
            continue;
        }
        int o = m->actuator_outadr[i];
        double f = d->actuator_force[o];
        const double *bp = m->actuator_biasprm + NBIAS * i;
        if (m->actuator_forcelimited[i])
            f = clip(f, m->actuator_forcerange[2 * i], m->actuator_forcerange[2 * i + 1]);
        if (m->actuator_biastype[i] == CS_BIAS_DCMOTOR && bp[0] != 0) /* cogging, past the bound */
            f += bp[0] * sin(bp[1] * d->actuator_length[o] + bp[2]);
        const double *dp = m->actuator_dynprm + NDYN * i;
        if (m->actuator_biastype[i] == CS_BIAS_DCMOTOR && dp[5] > 0) { /* LuGre, past it too */
            cs_dcmotor_slots s = cs_dcmotor_slots_of(dp, m->actuator_gainprm + NGAIN * i);
            int z = m->actuator_actadr[i] + s.bristle;
            f -= dp[5] * d->act[z] + dp[6] * d->act_dot[z];
        }
        d->actuator_force[o] = f;
    }
    for (int i = 0; i < nact; i++) {
        int o = m->actuator_outadr[i];
        double gf = m->actuator_gear[6 * i] * d->actuator_force[o];
        if (m->actuator_trntype[i] == CS_TRN_TENDON) { /* moment gear ten_J */
            const double *J = d->ten_J + (size_t)m->actuator_trnid[2 * i] * m->nv;
            for (int q = 0; q < m->nv; q++) d->qfrc_actuator[q] += J[q] * gf;
        } else if (cs_actuator_dense(m, i)) { /* gear in the moment (each output's row) */
            for (int k = o; k < o + m->actuator_outnum[i]; k++) {
                const double *mo = d->actuator_moment + (size_t)k * m->nv;
                for (int q = 0; q < m->nv; q++) d->qfrc_actuator[q] += mo[q] * d->actuator_force[k];
            }
        } else {
            d->qfrc_actuator[act_dof(m, i)] += gf;
        }
    }
    /* gravity compensation routed through the joint's actuators, inside their bounds */
    if (m->ngravcomp)
        for (int i = 0; i < m->nv; i++)
            if (m->jnt_actgravcomp[m->dof_jntid[i]]) d->qfrc_actuator[i] += d->qfrc_gravcomp[i];
    /* a joint's actuatorfrcrange bounds the actuators' total force on it */
    for (int j = 0; j < m->njnt; j++)
        if (m->jnt_actfrclimited[j]) {
            double *f = d->qfrc_actuator + m->jnt_dofadr[j];
            *f = clip(*f, m->jnt_actfrcrange[2 * j], m->jnt_actfrcrange[2 * j + 1]);
        }
}

void cs_advance_act(const cs_model *m, cs_data *d, const double *act_dot)
{
    if (!m->na || (m->opt.disableflags & CS_DSBL_ACTUATION)) return;
    for (int i = 0; i < m->nactuator; i++) {
        int a = m->actuator_actadr[i];
        /* a disabled actuator's activations hold (MuJoCo steps them with a zero rate) */
        for (int k = a; k >= 0 && k < a + m->actuator_actnum[i]; k++)
            d->act[k] = cs_next_activation(m, d, i, k, disabled(m, i) ? 0 : act_dot[k]);
    }
    /* an integrated setpoint on a rotational transmission is kept as the representative
     * nearest the length (MuJoCo 3.12's projection after the actrange clamp) */
    for (int i = 0; i < m->nactuator; i++) {
        if (m->actuator_dyntype[i] != CS_DYN_INTEGRATOR) continue;
        double period = cs_wrap_period(m, i);
        int a = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
        if (period > 0)
            d->act[a] = cs_wrap_setpoint(d->act[a], d->actuator_length[m->actuator_outadr[i]],
                                         period);
        else if (m->actuator_gaintype[i] == CS_GAIN_SO3)
            cs_so3_reanchor(m, d, i);
    }
}

double cs_actuator_dvel(const cs_model *m, const cs_data *d, int i)
{
    if (disabled(m, i)) return 0;
    int o = m->actuator_outadr[i];
    const double *fo = d->actuator_force + o;
    /* a force held at its limit does not change with the velocity (an orientation's at its
     * norm's: still varying sideways, left out as MuJoCo leaves it) */
    if (m->actuator_forcelimited[i] && m->actuator_gaintype[i] == CS_GAIN_SO3) {
        if (sqrt(fo[0] * fo[0] + fo[1] * fo[1] + fo[2] * fo[2]) >= m->actuator_forcerange[2 * i + 1])
            return 0;
    } else if (m->actuator_forcelimited[i]) {
        if (fo[0] <= m->actuator_forcerange[2 * i] || fo[0] >= m->actuator_forcerange[2 * i + 1])
            return 0;
    }
    /* an affine bias's kv, an orientation's (on each of its outputs) */
    double bv = m->actuator_biastype[i] == CS_BIAS_AFFINE || m->actuator_biastype[i] == CS_BIAS_SO3
                    ? m->actuator_biasprm[NBIAS * i + 2]
                    : 0;
    const double *g = m->actuator_gainprm + NGAIN * i;
    double te = m->actuator_dynprm[NDYN * i], R = fmax(CS_MINVAL, g[0]), K = g[1];
    if (m->actuator_biastype[i] == CS_BIAS_DCMOTOR && te <= 0) bv -= K * K / R; /* back-EMF */
    if (m->actuator_gaintype[i] == CS_GAIN_DCMOTOR) {
        /* a controller's voltage moves with the velocity by -kd R/K (its damping) + K (the
         * back-EMF compensation); its Vmax clamp is not followed, as MuJoCo's */
        double dV = m->actuator_ctrlspec[i] & (CS_INPUT_POS | CS_INPUT_VEL | CS_INPUT_FF)
                        ? -g[6] * R / K + K
                        : 0;
        if (te > 0) /* through the next current */
            bv += K * (dV - K) * (1 - exp(-m->opt.timestep / te)) / R;
        else if (dV != 0)
            bv += K * dV / R;
        if (m->actuator_dynprm[NDYN * i + 6] > 0) /* LuGre's sigma1 dz/dt, z's own rate aside */
            bv -= m->actuator_dynprm[NDYN * i + 6];
    }
    double gv = 0;
    if (m->actuator_gaintype[i] == CS_GAIN_AFFINE)
        gv = m->actuator_gainprm[NGAIN * i + 2];
    else if (m->actuator_gaintype[i] == CS_GAIN_MUSCLE) /* the force-velocity curve's slope */
        gv = cs_muscle_gain_dvel(d->actuator_length[o], d->actuator_velocity[o],
                                 m->actuator_lengthrange + 2 * i, m->actuator_acc0[i],
                                 m->actuator_gainprm + NGAIN * i);
    if (gv != 0) {
        int a = m->actuator_actadr[i] + m->actuator_actnum[i] - 1;
        /* MuJoCo's: the control as set, not clamped */
        double in = m->actuator_ctrlnum[i] ? d->ctrl[m->actuator_ctrladr[i]] : 0;
        if (m->actuator_actnum[i])
            in = m->actuator_actearly[i] ? cs_next_activation(m, d, i, a, d->act_dot[a])
                                         : d->act[a];
        bv += gv * in;
    }
    return bv;
}

void cs_actuator_vel(const cs_model *m, const cs_data *d, double *out)
{
    if (m->opt.disableflags & CS_DSBL_ACTUATION) return;
    for (int i = 0; i < m->nactuator; i++) {
        if (m->actuator_trntype[i] != CS_TRN_JOINT || cs_actuator_dense(m, i))
            continue; /* cs_tendon_implicit */
        double g = m->actuator_gear[6 * i];
        out[act_dof(m, i)] += g * g * cs_actuator_dvel(m, d, i);
    }
}
