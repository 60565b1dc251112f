/* The inverse weights at the reference pose (MuJoCo's set0), and M's diagonal there (dof_M0): per body, the mean diagonal of
 * J M^-1 J^T for the Jacobian of its centre of mass (translation, rotation); per joint, the
 * mean diagonal of M^-1 over its dofs. They scale the regularisation R of contact and joint
 * rows (docs/contact-math.md §8). MuJoCo's shortcut for simple slide-only bodies (1/mass) is
 * kept so the numbers agree. */
#include <string.h>

#include "alloc.h"
#include "conesim.h"
#include "data_fields.h"
#include "data_scratch.h"
#include "solver/mass.h"
#include "spatial.h"
#include "stages.h"
#include "minval.h"


int cs_model_invweight0(cs_model *m)
{
    int nv = m->nv, nb = m->nbody;
    /* a data's arrays without its contexts: kinematics and the mass matrix at qpos0 */
    cs_data d;
    struct cs_data_scratch s = {0};
    memset(&d, 0, sizeof d);
    d.scratch = &s;
    d.buffer = cs_calloc(1, cs_data_nbuffer(m));
    cs_data_place(m, &d, d.buffer);
    double *jac = cs_calloc(12 * (size_t)nv + 1, sizeof *jac);
    double *x = cs_calloc((size_t)nv + 1, sizeof *x);
    if (!d.buffer || !jac || !x) {
        cs_free(d.buffer);
        cs_free(jac);
        cs_free(x);
        return -1;
    }
    cs_mass M = {nv, m->nM, m->ntree, m->dof_parent, m->dof_Madr, m->dof_treeid,
                 m->tree_dofadr, m->tree_dofnum, d.qM, d.qLD, d.qLDiagInv};
    memcpy(d.qpos, m->qpos0, (size_t)m->nq * sizeof *d.qpos);
    cs_kinematics(m, &d);
    cs_make_mass(m, &d);
    /* MuJoCo's dof_M0: the diagonal of M at qpos0 (before the factor overwrites nothing:
     * the factor has its own storage) */
    for (int i = 0; i < nv; i++) m->dof_M0[i] = d.qM[m->dof_Madr[i]];
    /* the inverse weights see the tendons' armature (dof_M0 does not, as in MuJoCo) */
    if (m->ntendon) {
        for (int t = 0; t < m->ntendon; t++)
            cs_tendon_eval(m, &d, t, d.ten_J + (size_t)t * nv, jac);
        cs_tendon_armature(m, &d, NULL);
    }
    int rc = 0;
    if (cs_mass_factor(&M)) {
        for (int k = nv - 1; k >= 0 && !rc; k--)
            if (!(d.qLD[m->dof_Madr[k]] > 0)) rc = k + 1;
        if (!rc) rc = 1;
        goto done;
    }
    /* diag(J M^-1 J^T) for row r of J: x = M^-1 J_r^T, then J_r . x */
    for (int b = 0; b < nb; b++) {
        double *w = m->body_invweight0 + 2 * b;
        w[0] = w[1] = 0;
        if (b == 0 || m->body_weldid[b] == 0) continue;
        if (m->body_simple[b] == 2) {
            w[0] = 1 / (m->body_mass[b] > CS_MINVAL ? m->body_mass[b] : CS_MINVAL);
            continue;
        }
        cs_jac(m, &d, b, d.xipos + 3 * b, jac, jac + 3 * (size_t)nv);
        for (int r = 0; r < 6; r++) {
            const double *J = jac + (size_t)r * nv;
            memcpy(x, J, (size_t)nv * sizeof *x);
            cs_mass_solve(&M, x, 0, nv);
            double s = 0;
            for (int i = 0; i < nv; i++) s += J[i] * x[i];
            w[r / 3] += s / 3;
        }
    }
    for (int j = 0; j < m->njnt; j++) {
        int a = m->jnt_dofadr[j], b = m->jnt_bodyid[j], n = cs_jnt_nv(m->jnt_type[j]);
        if (m->body_simple[b] == 2) {
            m->dof_invweight0[a] = 1 / (m->body_mass[b] > CS_MINVAL ? m->body_mass[b] : CS_MINVAL);
            continue;
        }
        double diag[6];
        for (int k = 0; k < n; k++) {
            memset(x, 0, (size_t)nv * sizeof *x);
            x[a + k] = 1;
            cs_mass_solve(&M, x, 0, nv);
            diag[k] = x[a + k];
        }
        /* a free joint: translations and rotations averaged apart; a ball: its three */
        for (int g = 0; g < n; g += 3) {
            int len = n - g < 3 ? n - g : 3;
            double s = 0;
            for (int k = 0; k < len; k++) s += diag[g + k];
            for (int k = 0; k < len; k++) m->dof_invweight0[a + g + k] = s / len;
        }
    }
    /* tendons: length and J M^-1 J^T at qpos0 */
    for (int t = 0; t < m->ntendon; t++) {
        double len = cs_tendon_eval(m, &d, t, jac, jac + nv);
        memcpy(x, jac, (size_t)nv * sizeof *x);
        cs_mass_solve(&M, x, 0, nv);
        double s = 0;
        for (int i = 0; i < nv; i++) s += jac[i] * x[i];
        m->tendon_invweight0[t] = s;
        m->tendon_length0[t] = len;
    }
    /* equality constraints: the second anchor of a connect, the relative pose of a weld
     * without relpose, from the bodies' frames at qpos0 (MuJoCo's set0) */
    for (int e = 0; e < m->neq; e++) {
        if (m->eq_objtype[e] == CS_OBJ_SITE) continue; /* the sites' frames: nothing to set */
        double *dt = m->eq_data + CS_NEQDATA * e, w[3], p[3];
        int b1 = m->eq_obj1id[e], b2 = m->eq_obj2id[e];
        const double *x1 = d.xpos + 3 * b1, *R1 = d.xmat + 9 * b1;
        const double *x2 = d.xpos + 3 * b2, *R2 = d.xmat + 9 * b2;
        if (m->eq_type[e] == CS_EQ_CONNECT) { /* anchor (body1) in body2's frame */
            sp_mulmv3(R1, dt, w);
            for (int k = 0; k < 3; k++) p[k] = x1[k] + w[k] - x2[k];
            sp_mulmtv3(R2, p, dt + 3);
        } else if (m->eq_type[e] == CS_EQ_WELD && dt[6] == 0 && dt[7] == 0 && dt[8] == 0 &&
                   dt[9] == 0) { /* anchor (body2) in body1's frame, q1^-1 q2 */
            sp_mulmv3(R2, dt, w);
            for (int k = 0; k < 3; k++) p[k] = x2[k] + w[k] - x1[k];
            sp_mulmtv3(R1, p, dt + 3);
            const double *q1 = d.xquat + 4 * b1;
            double n1[4] = {q1[0], -q1[1], -q1[2], -q1[3]};
            cs_mulquat(dt + 6, n1, d.xquat + 4 * b2);
        }
    }
    /* a springlength of -1 is the tendon's length at the springs' rest pose, qpos_spring
     * (MuJoCo's setSpring) */
    memcpy(d.qpos, m->qpos_spring, (size_t)m->nq * sizeof *d.qpos);
    cs_kinematics(m, &d);
    for (int t = 0; t < m->ntendon; t++) {
        double *ls = m->tendon_lengthspring + 2 * t;
        if (ls[0] == -1 && ls[1] == -1) ls[0] = ls[1] = cs_tendon_eval(m, &d, t, jac, jac + nv);
    }
done:
    cs_free(d.buffer);
    cs_free(jac);
    cs_free(x);
    return rc;
}

int cs_actuator_moment0(const cs_model *m, int i, double *moment)
{
    int nv = m->nv;
    cs_data d;
    struct cs_data_scratch s = {0};
    memset(&d, 0, sizeof d);
    d.scratch = &s;
    d.buffer = cs_calloc(1, cs_data_nbuffer(m));
    if (!d.buffer) return -1;
    cs_data_place(m, &d, d.buffer);
    memcpy(d.qpos, m->qpos0, (size_t)m->nq * sizeof *d.qpos);
    if (m->nmocap) { /* a scratch data's mocap bodies sit at the model's pose */
        d.mocap_pos = NULL;
        d.mocap_quat = NULL;
    }
    cs_kinematics(m, &d);
    cs_tendon(m, &d); /* sites' frames and the tendons' Jacobians */
    double g = m->actuator_gear[6 * i];
    switch (m->actuator_trntype[i]) {
    case CS_TRN_TENDON: {
        const double *J = d.ten_J + (size_t)m->actuator_trnid[2 * i] * nv;
        for (int q = 0; q < nv; q++) moment[q] = g * J[q];
        break;
    }
    default:
        if (cs_actuator_dense(m, i)) {
            cs_transmission_dense(m, &d, i, moment, d.scratch->eq_scratch);
        } else {
            memset(moment, 0, (size_t)nv * sizeof *moment);
            moment[m->jnt_dofadr[m->actuator_trnid[2 * i]]] = g;
        }
    }
    cs_free(d.buffer);
    return 0;
}
