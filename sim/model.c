/* cs_model lifetime and name lookup. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "conesim.h"
#include "model_fields.h"

void cs_free_model(cs_model *m)
{
    if (!m) return;
#define FREE_ARRAY(f) cs_free(m->f);
    CS_MODEL_ARRAYS(FREE_ARRAY)
#undef FREE_ARRAY
#define FREE_NAMES(f, n) \
    if (m->f) { \
        for (int i = 0; i < m->n; i++) cs_free(m->f[i]); \
        cs_free(m->f); \
    }
    CS_MODEL_NAMES(FREE_NAMES)
#undef FREE_NAMES
    cs_free(m->modelname);
    cs_free(m->path);
    cs_free(m);
}

static int lookup(char *const *names, int n, const char *name)
{
    if (!names || !name) return -1;
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) return i;
    return -1;
}

int cs_name2id_body(const cs_model *m, const char *name)
{
    return lookup(m->body_name, m->nbody, name);
}

int cs_name2id_geom(const cs_model *m, const char *name)
{
    return lookup(m->geom_name, m->ngeom, name);
}

int cs_name2id_joint(const cs_model *m, const char *name)
{
    return lookup(m->jnt_name, m->njnt, name);
}

int cs_name2id_actuator(const cs_model *m, const char *name)
{
    return lookup(m->actuator_name, m->nu, name);
}
