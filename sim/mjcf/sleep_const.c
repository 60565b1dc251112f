/* The model's constants for sleeping, as MuJoCo 3.12's compiler and mj_setConst make them:
 * each tree's bodies, the trees a tendon spans, each dof's length scale (dof_length) and
 * each tree's sleep policy. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "conesim.h"
#include "data_fields.h"
#include "data_scratch.h"
#include "rowtrees.h"
#include "sleep.h"
#include "stages.h"

static void tendon_trees(cs_model *m)
{
    for (int t = 0; t < m->ntendon; t++) {
        int *id = m->tendon_treeid + 2 * t, n = 0;
        id[0] = id[1] = -1;
        for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++) {
            int tr = cs_wrap_tree(m, w);
            if (tr < 0 || tr == id[0] || tr == id[1]) continue;
            /* more than two: counted, the first two kept (as MuJoCo) */
            if (n < 2) id[n] = tr;
            n++;
        }
        m->tendon_treenum[t] = n;
    }
}

/* MuJoCo's body length scale: the farthest joint anchor (of the body and of its children)
 * and geom bounding sphere from the body's centre of mass at qpos0; at least 1e-5. A
 * rotational dof takes its body's, a translational one 1. */
static int dof_lengths(cs_model *m)
{
    int nb = m->nbody;
    cs_data d;
    struct cs_data_scratch s = {0};
    memset(&d, 0, sizeof d);
    d.scratch = &s;
    d.buffer = cs_calloc(1, cs_data_nbuffer(m));
    double *len = cs_calloc((size_t)nb + 1, sizeof *len);
    if (!d.buffer || !len) {
        cs_free(d.buffer);
        cs_free(len);
        return -1;
    }
    cs_data_place(m, &d, d.buffer);
    memcpy(d.qpos, m->qpos0, (size_t)m->nq * sizeof *d.qpos);
    cs_kinematics(m, &d);
    for (int j = 0; j < m->njnt; j++) {
        int b = m->jnt_bodyid[j];
        const double *a = d.xanchor + 3 * j;
        for (int s = 0; s < 2; s++, b = m->body_parent[b]) {
            const double *c = d.xipos + 3 * b;
            double r = sqrt((a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]) +
                            (a[2] - c[2]) * (a[2] - c[2]));
            if (r > len[b]) len[b] = r;
        }
    }
    len[0] = 0;
    for (int g = 0; g < m->ngeom; g++) {
        int b = m->geom_body[g];
        if (b == 0 || !(m->geom_rbound[g] > 0)) continue;
        const double *c = d.xipos + 3 * b, *p = d.geom_xpose[g].pos;
        double r = m->geom_rbound[g] + sqrt((p[0] - c[0]) * (p[0] - c[0]) +
                                            (p[1] - c[1]) * (p[1] - c[1]) +
                                            (p[2] - c[2]) * (p[2] - c[2]));
        if (r > len[b]) len[b] = r;
    }
    for (int b = 1; b < nb; b++)
        if (len[b] < 1e-5) len[b] = 1e-5;
    for (int i = 0; i < m->nv; i++)
        m->dof_length[i] = cs_dof_rotates(m, i) ? len[m->dof_bodyid[i]] : 1;
    cs_free(d.buffer);
    cs_free(len);
    return 0;
}

/* MuJoCo's automatic policy: a tree with an actuator on it, or joined by a tendon with
 * stiffness or damping to another tree (or by one spanning more than two), never sleeps. */
static int auto_policy(cs_model *m)
{
    int *p = m->tree_sleep_policy;
    for (int i = 0; i < m->nactuator; i++) {
        int id = m->actuator_trnid[2 * i], b = -1;
        switch (m->actuator_trntype[i]) {
        case CS_TRN_JOINT:
        case CS_TRN_JOINTINPARENT: b = m->jnt_bodyid[id]; break;
        case CS_TRN_SITE:
        case CS_TRN_SLIDERCRANK: b = m->site_bodyid[id]; break;
        case CS_TRN_BODY: b = id; break;
        case CS_TRN_SO3: /* a site and its reference, or a ball joint */
            b = m->actuator_trnid[2 * i + 1] >= 0 ? m->site_bodyid[id] : m->jnt_bodyid[id];
            break;
        case CS_TRN_TENDON:
            for (int w = m->tendon_adr[id]; w < m->tendon_adr[id] + m->tendon_num[id]; w++) {
                int t = cs_wrap_tree(m, w);
                if (t >= 0 && p[t] == CS_SLEEP_AUTO) p[t] = CS_SLEEP_AUTO_NEVER;
            }
            continue;
        default: continue;
        }
        int t = b >= 0 ? m->body_treeid[b] : -1;
        if (t >= 0 && p[t] == CS_SLEEP_AUTO) p[t] = CS_SLEEP_AUTO_NEVER;
    }
    for (int k = 0; k < m->ntendon; k++) {
        int n = m->tendon_treenum[k];
        if (n < 2) continue;
        int passive = m->tendon_stiffness[k] != 0 || m->tendon_damping[k] != 0;
        for (int q = 0; q < CS_NPOLY; q++)
            passive |= m->tendon_stiffnesspoly[CS_NPOLY * k + q] != 0 ||
                       m->tendon_dampingpoly[CS_NPOLY * k + q] != 0;
        if (m->tendon_actuatorid[k] != -1) passive = 1; /* an actuator's damping or armature */
        if (n == 2 && !passive) continue;
        for (int w = m->tendon_adr[k]; w < m->tendon_adr[k] + m->tendon_num[k]; w++) {
            int t = cs_wrap_tree(m, w);
            if (t < 0) continue;
            if (p[t] == CS_SLEEP_AUTO) p[t] = CS_SLEEP_AUTO_NEVER;
            else if (p[t] == CS_SLEEP_ALLOWED || p[t] == CS_SLEEP_INIT) return 1 + k;
        }
    }
    for (int t = 0; t < m->ntree; t++)
        if (p[t] == CS_SLEEP_AUTO) p[t] = CS_SLEEP_AUTO_ALLOWED;
    return 0;
}

int cs_model_sleep_const(cs_model *m, const int *body_sleep, int *bad_body, int *bad_tendon)
{
    *bad_body = *bad_tendon = -1;
    for (int t = 0; t < m->ntree; t++) {
        m->tree_bodyadr[t] = -1;
        m->tree_bodynum[t] = 0;
        m->tree_sleep_policy[t] = CS_SLEEP_AUTO;
    }
    for (int b = 1; b < m->nbody; b++) {
        int t = m->body_treeid[b];
        if (t < 0) continue;
        if (m->tree_bodyadr[t] < 0) m->tree_bodyadr[t] = b;
        m->tree_bodynum[t]++;
    }
    /* a policy other than auto only on the first body of a tree (MuJoCo's rule) */
    for (int b = 1; b < m->nbody; b++) {
        if (!body_sleep || body_sleep[b] == CS_SLEEP_AUTO) continue;
        int t = m->body_treeid[b];
        if (t < 0 || m->tree_bodyadr[t] != b) {
            *bad_body = b;
            return 1;
        }
        m->tree_sleep_policy[t] = body_sleep[b];
    }
    tendon_trees(m);
    int k = auto_policy(m);
    if (k) {
        *bad_tendon = k - 1;
        return 1;
    }
    return dof_lengths(m);
}
