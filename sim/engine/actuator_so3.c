/* MuJoCo 3.12's orientation servo (gain and bias so3, transmission mjTRN_SO3): a geodesic
 * PD servo on a ball joint's rotation or a site's relative to a reference site. Its three
 * lengths are the rotation vector (expmap) of that rotation, its three moment rows the
 * angular velocity components in the child (joint or site) frame; its three forces are
 * kp log(q^-1 q_target) + b0 + b2 omega, the target a rotation vector (3 controls, or the
 * integrated setpoint in act) or a quaternion (4 controls, normalised), clamped on their
 * norm by forcerange. Nothing here allocates. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "minval.h"
#include "servo.h"
#include "stages.h"

enum { NGAIN = 10, NBIAS = 10 };

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* the quaternion of rotation vector v (MuJoCo's expmap2Quat: identity below its MINVAL) */
static void expmap_quat(double q[4], const double v[3])
{
    double angle = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (angle < CS_MINVAL) {
        q[0] = 1;
        q[1] = q[2] = q[3] = 0;
        return;
    }
    double axis[3] = {v[0] / angle, v[1] / angle, v[2] / angle}, s = sin(angle * 0.5);
    q[0] = cos(angle * 0.5);
    for (int k = 0; k < 3; k++) q[k + 1] = axis[k] * s;
}

void cs_so3_transmission(const cs_model *m, const cs_data *d, int i, double len[3],
                         double *moment, double *scratch)
{
    int nv = m->nv, j = m->actuator_trnid[2 * i];
    memset(moment, 0, 3 * (size_t)nv * sizeof *moment);
    if (m->actuator_trnid[2 * i + 1] >= 0) {
        cs_site_so3(m, d, i, len, moment, scratch);
        return;
    }
    double q[4]; /* a ball: its quaternion's rotation vector, its dofs one by one */
    memcpy(q, d->qpos + m->jnt_qposadr[j], sizeof q);
    cs_normquat(q);
    cs_quat2vel(len, q);
    for (int k = 0; k < 3; k++) moment[(size_t)k * nv + m->jnt_dofadr[j] + k] = 1;
}

void cs_so3_force(const cs_model *m, cs_data *d, int i, const double *u)
{
    int o = m->actuator_outadr[i], c0 = m->actuator_ctrladr[i];
    double qt[4];
    if (m->actuator_ctrlspec[i] == CS_CHART_QUAT) {
        memcpy(qt, u + c0, sizeof qt);
        cs_normquat(qt); /* the zero quaternion is the identity */
    } else {
        double v[3];
        if (m->actuator_dyntype[i] == CS_DYN_NONE) {
            memcpy(v, u + c0, sizeof v);
        } else { /* the integrated setpoint */
            int a = m->actuator_actadr[i];
            for (int k = 0; k < 3; k++)
                v[k] = m->actuator_actearly[i]
                           ? cs_next_activation(m, d, i, a + k, d->act_dot[a + k])
                           : d->act[a + k];
        }
        expmap_quat(qt, v);
    }
    /* the error rotation from the current orientation to the target, in the child frame */
    double qc[4], e[3];
    expmap_quat(qc, d->actuator_length + o);
    cs_subquat(e, qt, qc);
    double kp = m->actuator_gainprm[NGAIN * i];
    const double *b = m->actuator_biasprm + NBIAS * i;
    for (int k = 0; k < 3; k++)
        d->actuator_force[o + k] = kp * e[k] + b[0] + b[2] * d->actuator_velocity[o + k];
}

void cs_so3_clamp(const cs_model *m, cs_data *d, int i)
{
    double *f = d->actuator_force + m->actuator_outadr[i], hi = m->actuator_forcerange[2 * i + 1];
    double n = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    if (n > hi)
        for (int k = 0; k < 3; k++) f[k] *= hi / n;
}

void cs_so3_reanchor(const cs_model *m, cs_data *d, int i)
{
    double *a = d->act + m->actuator_actadr[i];
    double angle = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (angle > M_PI) { /* the same rotation, its angle in [-pi, pi] */
        double s = (angle - 2 * M_PI * round(angle / (2 * M_PI))) / angle;
        for (int k = 0; k < 3; k++) a[k] *= s;
    }
}
