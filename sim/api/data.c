/* cs_data: everything a step changes, allocated once from the model's sizes. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "conesim.h"
#include "data_fields.h"
#include "data_scratch.h"
#include "solver/mass.h"
#include "rowtrees.h"
#include "sleep.h"
#include "solver/rows.h"
#include "solver/solver.h"
#include "stages.h"

/* each line's type is its member's */
#define AGREES(type, name, rows, cols) \
    _Static_assert(_Generic(((cs_data *)0)->name, type *: 1, default: 0), \
                   "cs_data." #name " is not a " #type " array as data_fields.h says");
CS_DATA_POINTERS(AGREES)
#undef AGREES
#define AGREES(type, name, rows, cols) \
    _Static_assert(_Generic(((struct cs_data_scratch *)0)->name, type *: 1, default: 0), \
                   "cs_data_scratch." #name " is not a " #type " array as data_fields.h says");
CS_DATA_SCRATCH(AGREES)
#undef AGREES

/* the arrays allocated on their own (their size is not rows x cols of the model) */
#define CS_DATA_OWN(X) X(contact) X(scratch->rawcon) X(scratch->jac) X(scratch->rk4)

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
#undef PLACE
#define PLACE(type, name, rows, cols) \
    d->scratch->name = p ? (type *)(void *)p : NULL; \
    if (p) p += cs_field_bytes((size_t)m->rows, (size_t)(cols), sizeof(type));
    if (d->scratch) { CS_DATA_SCRATCH(PLACE) } /* a data for one stage may have none */
#undef PLACE
}

void cs_free_data(cs_data *d)
{
    if (!d) return;
    cs_free(d->buffer);
    cs_free(d->contact);
    if (d->efc) cs_efc_free(d->efc);
    cs_free(d->efc);
    struct cs_data_scratch *s = d->scratch;
    if (s) {
        cs_free(s->rawcon);
        cs_free(s->jac);
        cs_free(s->rk4);
        cs_collision_free(s->collision);
        cs_solver_free(s->solver_ws);
        cs_free(s->mass);
        cs_free(s->massH);
        if (s->rowtrees) cs_rowtrees_free(s->rowtrees);
        cs_free(s->rowtrees);
        cs_free(s);
    }
    cs_free(d);
}

/* room for the arrays allocated on their own: 2 sides x 6 x (largest tree) point Jacobians,
 * or one row of nv */
static size_t jac_size(const cs_model *m, const cs_rowtrees *rt)
{
    int maxtree = 0;
    for (int t = 0; t < rt->n; t++) maxtree = rt->dofnum[t] > maxtree ? rt->dofnum[t] : maxtree;
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
    d->scratch->collision = cs_collision_make(m, err, sizeof err);
    d->nchange = m->nchange;
    d->efc = cs_malloc(sizeof *d->efc);
    d->scratch->mass = cs_malloc(sizeof *d->scratch->mass);
    d->scratch->massH = cs_malloc(sizeof *d->scratch->massH);
    if (d->efc) cs_efc_init(d->efc);
    /* the operators over the solver's trees (rowtrees.h): the factor and solves work on
     * whole dof ranges, a forest inside one as well as a tree */
    const cs_rowtrees *rt = d->scratch->rowtrees;
    if (d->scratch->mass)
        *d->scratch->mass = (cs_mass){m->nv, m->nM, rt->n, m->dof_parent, m->dof_Madr, rt->of_dof,
                        rt->dofadr, rt->dofnum, d->qM, d->qLD, d->qLDiagInv};
    if (d->scratch->massH)
        *d->scratch->massH = (cs_mass){m->nv, m->nM, rt->n, m->dof_parent, m->dof_Madr, rt->of_dof,
                         rt->dofadr, rt->dofnum, d->scratch->qH, d->scratch->qHLD, d->scratch->qHDiagInv};
    d->scratch->solver_ws = cs_solver_create(m->nv, rt->n);
    return !d->scratch->collision || !d->scratch->solver_ws || !d->efc || !d->scratch->mass || !d->scratch->massH ||
                   (d->scratch->solver_ws && cs_solver_set_threads(d->scratch->solver_ws, m->opt.threads) < 0)
               ? -1
               : 0;
}

cs_data *cs_data_alloc(const cs_model *m)
{
    cs_data *d = cs_calloc(1, sizeof *d);
    if (!d) return NULL;
    d->scratch = cs_calloc(1, sizeof *d->scratch);
    if (!d->scratch) {
        cs_free(d);
        return NULL;
    }
    size_t n = cs_data_nbuffer(m);
    d->buffer = cs_calloc(1, n);
    d->nbuffer = d->buffer ? n : 0;
    cs_data_place(m, d, d->buffer);
    d->ncon_cap = m->ncon_reserve; /* grown by the collision stage as contacts come */
    /* +1 so empty models still get valid pointers */
    d->contact = cs_calloc((size_t)d->ncon_cap + 1, sizeof *d->contact);
    d->scratch->rawcon = cs_calloc((size_t)d->ncon_cap + 1, sizeof *d->scratch->rawcon);
    d->scratch->rowtrees = cs_calloc(1, sizeof *d->scratch->rowtrees);
    if (d->scratch->rowtrees && cs_rowtrees_make(m, d->scratch->rowtrees) < 0) {
        cs_free(d->scratch->rowtrees);
        d->scratch->rowtrees = NULL;
    }
    if (!d->scratch->rowtrees) {
        cs_free_data(d);
        return NULL;
    }
    d->scratch->jac = cs_calloc(jac_size(m, d->scratch->rowtrees) + 1, sizeof *d->scratch->jac);
    d->scratch->rk4 = cs_calloc(m->opt.integrator == CS_INT_RK4 ? cs_data_rk4_size(m) + 1 : 1,
                       sizeof *d->scratch->rk4);
    int oom = !d->buffer;
#define CHECK(f) oom |= (d->f == NULL);
    CS_DATA_OWN(CHECK)
#undef CHECK
    if (oom || make_contexts(m, d) != 0) {
        cs_free_data(d);
        return NULL;
    }
    cs_sleep_wake_all(m, d);
    return d;
}
