/* A data made for a model and reset to the reference pose or a key, with the forward pass run
 * so that every derived quantity (poses, contacts, forces, sensors) is consistent with the
 * state the user reads. */
#include <string.h>

#include "conesim.h"
#include "data_fields.h"
#include "history.h"
#include "sleep.h"
#include "stages.h"
#include "solver/solver.h"

cs_data *cs_make_data(const cs_model *m)
{
    cs_data *d = cs_data_alloc(m);
    if (!d) return NULL;
    cs_reset(m, d);
    if (d->warning[CS_WARN_NOMEM]) { /* the first collision could not grow its arrays */
        cs_free_data(d);
        return NULL;
    }
    return d;
}

/* all awake; with sleep on, the trees that start asleep (sleep="init") put to sleep after a
 * forward pass, as MuJoCo's reset does (the loader refuses init trees that could not) */
static void sleep_reset(const cs_model *m, cs_data *d)
{
    cs_sleep_wake_all(m, d);
    if (!(m->opt.enableflags & CS_ENBL_SLEEP)) return;
    int ninit = 0;
    for (int t = 0; t < m->ntree; t++) ninit += m->tree_sleep_policy[t] == CS_SLEEP_INIT;
    if (!ninit) return;
    cs_forward(m, d);
    for (int t = 0; t < m->ntree; t++)
        d->tree_asleep[t] = m->tree_sleep_policy[t] == CS_SLEEP_INIT ? -1 : CS_TREE_AWAKE;
    /* ready now: the ones whose islands hold no other tree fall asleep (MuJoCo's mj_sleep
     * at reset) */
    cs_sleep_trees(m, d);
    memset(d->qacc_warmstart, 0, (size_t)m->nv * sizeof *d->qacc_warmstart);
    cs_sleep_update(m, d);
}

void cs_reset(const cs_model *m, cs_data *d)
{
    d->time = 0;
    memcpy(d->qpos, m->qpos0, (size_t)m->nq * sizeof *d->qpos);
    memset(d->qvel, 0, (size_t)m->nv * sizeof *d->qvel);
    memset(d->qacc, 0, (size_t)m->nv * sizeof *d->qacc);
    memset(d->qacc_warmstart, 0, (size_t)m->nv * sizeof *d->qacc_warmstart);
    memset(d->qfrc_applied, 0, (size_t)m->nv * sizeof *d->qfrc_applied);
    memset(d->xfrc_applied, 0, 6 * (size_t)m->nbody * sizeof *d->xfrc_applied);
    /* MuJoCo's mj_resetCtrl: 0, a quaternion target the identity */
    memset(d->ctrl, 0, (size_t)m->nu * sizeof *d->ctrl);
    for (int i = 0; i < m->nactuator; i++)
        if (m->actuator_trntype[i] == CS_TRN_SO3 && m->actuator_ctrlspec[i] == CS_CHART_QUAT)
            d->ctrl[m->actuator_ctrladr[i]] = 1;
    memset(d->act, 0, (size_t)m->na * sizeof *d->act);
    memset(d->act_dot, 0, (size_t)m->na * sizeof *d->act_dot);
    memcpy(d->eq_active, m->eq_active0, (size_t)m->neq * sizeof *d->eq_active);
    cs_history_reset(m, d); /* a key's time does not move them, as in MuJoCo */
    for (int b = 0; b < m->nbody; b++) {
        int k = m->body_mocapid[b];
        if (k < 0) continue;
        memcpy(d->mocap_pos + 3 * k, m->body_pos + 3 * b, 3 * sizeof *d->mocap_pos);
        memcpy(d->mocap_quat + 4 * k, m->body_quat + 4 * b, 4 * sizeof *d->mocap_quat);
    }
    d->ncon = 0;
    d->nefc = 0;
    cs_efc_clear(d->efc);
    memset(&d->solver, 0, sizeof d->solver);
    memset(d->warning, 0, sizeof d->warning);
    sleep_reset(m, d);
    cs_forward(m, d);
}

int cs_reset_key(const cs_model *m, cs_data *d, int key)
{
    if (key < 0 || key >= m->nkey) return -1;
    cs_reset(m, d);
    d->time = m->key_time[key];
    memcpy(d->qpos, m->key_qpos + (size_t)m->nq * key, (size_t)m->nq * sizeof *d->qpos);
    memcpy(d->qvel, m->key_qvel + (size_t)m->nv * key, (size_t)m->nv * sizeof *d->qvel);
    memcpy(d->ctrl, m->key_ctrl + (size_t)m->nu * key, (size_t)m->nu * sizeof *d->ctrl);
    memcpy(d->act, m->key_act + (size_t)m->na * key, (size_t)m->na * sizeof *d->act);
    memcpy(d->mocap_pos, m->key_mpos + 3 * (size_t)m->nmocap * key,
           3 * (size_t)m->nmocap * sizeof *d->mocap_pos);
    memcpy(d->mocap_quat, m->key_mquat + 4 * (size_t)m->nmocap * key,
           4 * (size_t)m->nmocap * sizeof *d->mocap_quat);
    cs_forward(m, d);
    return 0;
}
