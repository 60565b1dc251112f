/* MuJoCo 3.12's actuator damping and armature: an actuator on a joint or a tendon adds its
 * damping (with its polynomial) and armature, times gear[0]^2, to its target's wherever
 * the target's are read (passive forces, the mass matrix, the implicit integrators'
 * derivatives), as MuJoCo's mj_actuatorDamping and mj_actuatorArmature. */
#include "stages.h"

void cs_actuator_targets(cs_model *m)
{
    m->nactuatorid = 0;
    for (int j = 0; j < m->njnt; j++) m->jnt_actuatorid[j] = -1;
    for (int t = 0; t < m->ntendon; t++) m->tendon_actuatorid[t] = -1;
    for (int i = 0; i < m->nactuator; i++) {
        const double *p = m->actuator_dampingpoly + CS_NPOLY * i;
        int any = m->actuator_damping[i] != 0 || m->actuator_armature[i] != 0;
        for (int k = 0; k < CS_NPOLY; k++) any = any || p[k] != 0;
        if (!any) continue;
        int tr = m->actuator_trntype[i], id = m->actuator_trnid[2 * i];
        int *slot = tr == CS_TRN_JOINT || tr == CS_TRN_JOINTINPARENT ? m->jnt_actuatorid + id
                    : tr == CS_TRN_TENDON                             ? m->tendon_actuatorid + id
                                                                      : NULL;
        if (!slot) continue;
        m->nactuatorid += *slot == -1;
        *slot = *slot == -1 ? i : -2; /* several: every actuator's share is summed */
    }
}

/* 1 when actuator i acts on the target (a joint, or with tendon a tendon) */
static int targets(const cs_model *m, int i, int tendon, int id)
{
    int tr = m->actuator_trntype[i];
    if (m->actuator_trnid[2 * i] != id) return 0;
    return tendon ? tr == CS_TRN_TENDON : tr == CS_TRN_JOINT || tr == CS_TRN_JOINTINPARENT;
}

static double gear2(const cs_model *m, int i)
{
    double g = m->actuator_gear[6 * i];
    return g * g;
}

double cs_actuator_damping(const cs_model *m, int tendon, int id, double poly[CS_NPOLY])
{
    int a = tendon ? m->tendon_actuatorid[id] : m->jnt_actuatorid[id];
    if (a == -1) return 0;
    double damping = 0;
    for (int i = a >= 0 ? a : 0; i < (a >= 0 ? a + 1 : m->nactuator); i++) {
        if (a < 0 && !targets(m, i, tendon, id)) continue;
        double g2 = gear2(m, i);
        damping += m->actuator_damping[i] * g2;
        for (int k = 0; k < CS_NPOLY; k++) poly[k] += m->actuator_dampingpoly[CS_NPOLY * i + k] * g2;
    }
    return damping;
}

double cs_actuator_armature(const cs_model *m, int tendon, int id)
{
    int a = tendon ? m->tendon_actuatorid[id] : m->jnt_actuatorid[id];
    if (a == -1) return 0;
    double armature = 0;
    for (int i = a >= 0 ? a : 0; i < (a >= 0 ? a + 1 : m->nactuator); i++)
        if (a >= 0 || targets(m, i, tendon, id)) armature += m->actuator_armature[i] * gear2(m, i);
    return armature;
}
