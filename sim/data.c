/* cs_data: everything a step changes, allocated once from the model's sizes. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "conesim.h"
#include "data_fields.h"
#include "solver/mass.h"
#include "sleep.h"
#include "solver/rows.h"
#include "solver/solver.h"
#include "stages.h"

/* each line's type is its member's */
#define AGREES(type, name, rows, cols) \
    _Static_assert(_Generic(((cs_data *)0)->name, type *: 1, default: 0), \
                   "cs_data." #name " is not a " #type " array as data_fields.h says");
CS_DATA_POINTERS(AGREES)
CS_DATA_SCRATCH(AGREES)
#undef AGREES

/* the arrays allocated on their own (their size is not rows x cols of the model) */
#define CS_DATA_OWN(X) X(contact) X(rawcon) X(jac) X(rk4)

size_t cs_data_nbuffer(const cs_model *m)
{
    CS_MODEL_COLS_PREAMBLE(m);
    size_t n = 0;
#define SIZE(type, name, rows, cols) n += cs_field_bytes((size_t)m->rows, (size_t)(cols), sizeof(type));
    CS_DATA_POINTERS(SIZE)
    CS_DATA_SCRATCH(SIZE)
#undef SIZE
    return n;
}

void cs_data_place(const cs_model *m, cs_data *d, void *buffer)
{
    CS_MODEL_COLS_PREAMBLE(m);
    char *p = buffer;
#define PLACE(type, name, rows, cols) \
    d->name = p ? (type *)(void *)p : NULL; \
    if (p) p += cs_field_bytes((size_t)m->rows, (size_t)(cols), sizeof(type));
    CS_DATA_POINTERS(PLACE)
    CS_DATA_SCRATCH(PLACE)
#undef PLACE
}

void cs_free_data(cs_data *d)
{
    if (!d) return;
    cs_free(d->buffer);
#define FREE_ARRAY(f) cs_free(d->f);
    CS_DATA_OWN(FREE_ARRAY)
#undef FREE_ARRAY
    cs_collision_free(d->collision);
    cs_solver_free(d->solver_ws);
    if (d->efc) cs_efc_free(d->efc);
    cs_free(d->efc);
    cs_free(d->mass);
    cs_free(d->massH);
    cs_free(d);
}

/* room for the arrays allocated on their own: 2 sides x 6 x (largest tree) point Jacobians,
 * or one row of nv */
static size_t jac_size(const cs_model *m)
{
    int maxtree = 0;
    for (int t = 0; t < m->ntree; t++) maxtree = m->tree_dofnum[t] > maxtree ? m->tree_dofnum[t] : maxtree;
    return 12 * (size_t)maxtree > (size_t)m->nv ? 12 * (size_t)maxtree : (size_t)m->nv;
}

size_t cs_data_rk4_size(const cs_model *m)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, na = (size_t)m->na;
    return 4 * (nq + 2 * nv + 2 * na) + 2 * nv + na;
}

/* the module contexts and the operators over M and H; 0, or -1 out of memory */
static int make_contexts(const cs_model *m, cs_data *d)
{
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
    return !d->collision || !d->solver_ws || !d->efc || !d->mass || !d->massH ||
                   (d->solver_ws && cs_solver_set_threads(d->solver_ws, m->opt.threads) < 0)
               ? -1
               : 0;
}

cs_data *cs_data_alloc(const cs_model *m)
{
    cs_data *d = cs_calloc(1, sizeof *d);
    if (!d) return NULL;
    size_t n = cs_data_nbuffer(m);
    d->buffer = cs_calloc(1, n);
    d->nbuffer = d->buffer ? n : 0;
    cs_data_place(m, d, d->buffer);
    d->ncon_cap = m->ncon_reserve; /* grown by the collision stage as contacts come */
    /* +1 so empty models still get valid pointers */
    d->contact = cs_calloc((size_t)d->ncon_cap + 1, sizeof *d->contact);
    d->rawcon = cs_calloc((size_t)d->ncon_cap + 1, sizeof *d->rawcon);
    d->jac = cs_calloc(jac_size(m) + 1, sizeof *d->jac);
    d->rk4 = cs_calloc(m->opt.integrator == CS_INT_RK4 ? cs_data_rk4_size(m) + 1 : 1,
                       sizeof *d->rk4);
    int oom = !d->buffer;
#define CHECK(f) oom |= (d->f == NULL);
    CS_DATA_OWN(CHECK)
#undef CHECK
    if (oom || make_contexts(m, d) != 0) {
        cs_free_data(d);
        return NULL;
    }
    for (int t = 0; t < m->ntree; t++) d->tree_asleep[t] = -(1 + CS_MINAWAKE); /* all awake */
    cs_sleep_update(m, d);
    return d;
}

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
    cs_sleep_reset(m, d); /* all awake; the trees that start asleep put to sleep */
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
