/* Copies of a model and of a data (MuJoCo's mj_copyModel, mj_copyData), made from the field
 * lists: a block copied whole and its pointers moved to the copy's block. */
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "conesim.h"
#include "data_scratch.h"
#include "data_fields.h"
#include "model_fields.h"

/* p, a pointer into the block `from`, moved to the same place in `to` */
static void *moved(const void *p, const void *from, void *to)
{
    return (char *)to + ((const char *)p - (const char *)from);
}

static char *dup(const char *s, int *oom)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = cs_malloc(n);
    if (d) memcpy(d, s, n);
    else *oom = 1;
    return d;
}

cs_model *cs_copy_model(const cs_model *m)
{
    if (!m || !m->buffer) return NULL;
    cs_model *c = cs_malloc(sizeof *c);
    if (!c) return NULL;
    *c = *m;
    c->modelname = c->path = NULL;
    c->buffer = cs_malloc(m->nbuffer);
    if (!c->buffer) {
        cs_free(c);
        return NULL;
    }
    memcpy(c->buffer, m->buffer, m->nbuffer);
#define MOVE(type, f, rows, cols, set, setflags) c->f = moved(m->f, m->buffer, c->buffer);
    CS_MODEL_POINTERS(MOVE)
#undef MOVE
    /* the name tables point at m's names until each has its own: none first, so that a
     * copy given up half way frees only its own */
#define MOVE_NAMES(f, rows, kind) \
    c->f = moved(m->f, m->buffer, c->buffer); \
    memset(c->f, 0, (size_t)m->rows * sizeof *c->f);
    CS_MODEL_NAMES(MOVE_NAMES)
#undef MOVE_NAMES
    int oom = 0;
#define DUP_NAMES(f, rows, kind) \
    for (int i = 0; i < m->rows && !oom; i++) c->f[i] = dup(m->f[i], &oom);
    CS_MODEL_NAMES(DUP_NAMES)
#undef DUP_NAMES
    c->modelname = dup(m->modelname, &oom);
    c->path = dup(m->path, &oom);
    if (oom) {
        cs_free_model(c);
        return NULL;
    }
    return c;
}

cs_data *cs_copy_data(const cs_model *m, const cs_data *d)
{
    if (!m || !d || d->nbuffer != cs_data_nbuffer(m)) return NULL;
    cs_data *c = cs_data_alloc(m);
    if (!c) return NULL;
    memcpy(c->buffer, d->buffer, d->nbuffer);
    if (d->ncon_cap > c->ncon_cap) { /* room for as many contacts as d has grown to */
        cs_contact *con = cs_realloc(c->contact, ((size_t)d->ncon_cap + 1) * sizeof *con);
        if (con) c->contact = con;
        cs_geom_contact *raw =
            con ? cs_realloc(c->scratch->rawcon, ((size_t)d->ncon_cap + 1) * sizeof *raw) : NULL;
        if (!raw) {
            cs_free_data(c);
            return NULL;
        }
        c->scratch->rawcon = raw;
        c->ncon_cap = d->ncon_cap;
    }
    memcpy(c->contact, d->contact, (size_t)d->ncon_cap * sizeof *c->contact);
    memcpy(c->scratch->rawcon, d->scratch->rawcon, (size_t)d->ncon_cap * sizeof *c->scratch->rawcon);
    c->time = d->time;
    memcpy(c->energy, d->energy, sizeof c->energy);
    c->ncon = d->ncon;
    c->ntree_awake = d->ntree_awake;
    c->nbody_awake = d->nbody_awake;
    c->nv_awake = d->nv_awake;
    c->nefc = 0; /* the rows themselves are not copied */
    c->solver = d->solver;
    c->solver_stats = d->solver_stats;
    memcpy(c->warning, d->warning, sizeof c->warning);
    c->nchange = d->nchange; /* a cs_set not yet seen by d is seen by the copy too */
    return c;
}
