/* cs_data: everything a step changes, allocated once from the model's sizes. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "conesim.h"
#include "solver/mass.h"
#include "solver/rows.h"
#include "solver/solver.h"
#include "stages.h"

#define CS_DATA_ARRAYS(X) \
    X(qpos) X(qvel) X(qacc) X(qacc_smooth) X(qacc_warmstart) X(qfrc_applied) \
    X(xfrc_applied) X(qfrc_bias) X(qfrc_gravity) X(qfrc_passive) X(qfrc_gravcomp) X(qfrc_smooth) \
    X(qfrc_constraint) X(xpos) X(xquat) X(xmat) X(xipos) X(ximat) X(geom_xpose) X(xanchor) \
    X(xaxis) X(dof_xaxis) X(dof_xanchor) X(cdof) X(cvel) X(qM) X(qLD) X(qLDiagInv) X(qH) \
    X(qHLD) X(qHDiagInv) X(qacc_implicit) X(qDeriv) X(crb) X(cacc) X(cfrc) X(cdofdot) \
    X(contact) X(rawcon) X(jac) \
    X(ctrl) X(mocap_pos) X(mocap_quat) X(act) X(act_dot) X(actuator_length) X(actuator_velocity) \
    X(actuator_force) X(qfrc_actuator) X(rk4) X(site_xpos) X(ten_length) X(ten_velocity) X(ten_J) \
    X(eq_active) X(eq_scratch)

void cs_free_data(cs_data *d)
{
    if (!d) return;
#define FREE_ARRAY(f) cs_free(d->f);
    CS_DATA_ARRAYS(FREE_ARRAY)
#undef FREE_ARRAY
    cs_collision_free(d->collision);
    cs_solver_free(d->solver_ws);
    if (d->efc) cs_efc_free(d->efc);
    cs_free(d->efc);
    cs_free(d->mass);
    cs_free(d->massH);
    cs_free(d);
}

cs_data *cs_make_data(const cs_model *m)
{
    cs_data *d = cs_calloc(1, sizeof *d);
    if (!d) return NULL;
    size_t nb = (size_t)m->nbody, ng = (size_t)m->ngeom, nM = (size_t)m->nM, nj = (size_t)m->njnt;
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    /* +1 so empty models still get valid pointers */
#define A(f, n) (d->f = cs_calloc((size_t)(n) + 1, sizeof *d->f))
    A(qpos, nq); A(qvel, nv); A(qacc, nv); A(qacc_smooth, nv); A(qacc_warmstart, nv);
    A(qfrc_applied, nv); A(xfrc_applied, 6 * nb); A(qfrc_bias, nv); A(qfrc_gravity, nv);
    A(qfrc_passive, nv); A(qfrc_gravcomp, nv); A(qfrc_smooth, nv); A(qfrc_constraint, nv);
    A(xpos, 3 * nb); A(xquat, 4 * nb); A(xmat, 9 * nb); A(xipos, 3 * nb); A(ximat, 9 * nb);
    A(geom_xpose, ng); A(xanchor, 3 * nj); A(xaxis, 3 * nj); A(dof_xaxis, 3 * nv);
    A(dof_xanchor, 3 * nv); A(cdof, 6 * nv); A(cvel, 6 * nb);
    A(qM, nM); A(qLD, nM); A(qLDiagInv, nv);
    A(qH, nM); A(qHLD, nM); A(qHDiagInv, nv); A(qacc_implicit, nv); A(qDeriv, nv);
    A(crb, 13 * nb); A(cacc, 6 * nb); A(cfrc, 18 * nb); A(cdofdot, 6 * nv);
    d->ncon_cap = m->ncon_reserve; /* grown by the collision stage as contacts come */
    A(contact, d->ncon_cap); A(rawcon, d->ncon_cap);
    int maxtree = 0;
    for (int t = 0; t < m->ntree; t++) maxtree = m->tree_dofnum[t] > maxtree ? m->tree_dofnum[t] : maxtree;
    A(jac, 12 * (size_t)maxtree > nv ? 12 * (size_t)maxtree : nv);
    size_t nu = (size_t)m->nu, na = (size_t)m->na;
    A(ctrl, nu); A(mocap_pos, 3 * (size_t)m->nmocap); A(mocap_quat, 4 * (size_t)m->nmocap);
    A(act, na); A(act_dot, na); A(actuator_length, nu); A(actuator_velocity, nu);
    A(actuator_force, nu); A(qfrc_actuator, nv);
    A(site_xpos, 3 * (size_t)m->nsite); A(ten_length, m->ntendon); A(ten_velocity, m->ntendon); A(ten_J, (size_t)m->ntendon * nv);
    A(eq_active, m->neq);
    /* whatever the options: cs_set may turn viscosity on after the data is made */
    A(eq_scratch, 24 * (size_t)nv);
    A(rk4, m->opt.integrator == CS_INT_RK4 ? 4 * (nq + 2 * nv + 2 * na) + 2 * nv + na : 0);
#undef A
    int oom = 0;
#define CHECK(f) oom |= (d->f == NULL);
    CS_DATA_ARRAYS(CHECK)
#undef CHECK
    char err[256];
    d->collision = cs_collision_make(m, err, sizeof err);
    d->nchange = m->nchange;
    d->efc = cs_malloc(sizeof *d->efc);
    d->mass = cs_malloc(sizeof *d->mass);
    d->massH = cs_malloc(sizeof *d->massH);
    if (d->efc) cs_efc_init(d->efc);
    if (d->mass)
        *d->mass = (cs_mass){m->nv, m->nM, m->ntree, m->dof_parent, m->dof_Madr, m->dof_treeid,
                        m->tree_dofadr, m->tree_dofnum, d->qM, d->qLD, d->qLDiagInv};
    if (d->massH)
        *d->massH = (cs_mass){m->nv, m->nM, m->ntree, m->dof_parent, m->dof_Madr, m->dof_treeid,
                         m->tree_dofadr, m->tree_dofnum, d->qH, d->qHLD, d->qHDiagInv};
    d->solver_ws = cs_solver_create(m->nv, m->ntree);
    oom |= !d->collision || !d->solver_ws || !d->efc || !d->mass || !d->massH ||
           (d->solver_ws && cs_solver_set_threads(d->solver_ws, m->opt.threads) < 0);
    if (oom) {
        cs_free_data(d);
        return NULL;
    }
    cs_reset(m, d);
    if (d->warning[CS_WARN_NOMEM]) { /* the first collision could not grow its arrays */
        cs_free_data(d);
        return NULL;
    }
    return d;
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
    memset(d->ctrl, 0, (size_t)m->nu * sizeof *d->ctrl);
    memset(d->act, 0, (size_t)m->na * sizeof *d->act);
    memset(d->act_dot, 0, (size_t)m->na * sizeof *d->act_dot);
    memcpy(d->eq_active, m->eq_active0, (size_t)m->neq * sizeof *d->eq_active);
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
