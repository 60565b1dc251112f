/* cs_model lifetime (one block for its arrays, from model_fields.h) and name lookup. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/hull.h"
#include "conesim.h"
#include "model_fields.h"

/* each line's type is its member's */
#define AGREES(type, name, rows, cols, set, setflags) \
    _Static_assert(_Generic(((cs_model *)0)->name, type *: 1, default: 0), \
                   "cs_model." #name " is not a " #type " array as CS_MODEL_POINTERS says");
CS_MODEL_POINTERS(AGREES)
#undef AGREES

size_t cs_model_nbuffer(const cs_model *m)
{
    CS_MODEL_COLS_PREAMBLE(m);
    size_t n = 0;
#define SIZE(type, name, rows, cols, set, setflags) \
    n += cs_field_bytes((size_t)m->rows, (size_t)(cols), sizeof(type));
    CS_MODEL_POINTERS(SIZE)
#undef SIZE
#define SIZE_NAMES(name, rows, kind) n += cs_field_bytes((size_t)m->rows, 1, sizeof(char *));
    CS_MODEL_NAMES(SIZE_NAMES)
#undef SIZE_NAMES
    return n;
}

int cs_model_alloc(cs_model *m)
{
    size_t n = cs_model_nbuffer(m);
    char *p = cs_calloc(1, n);
    m->buffer = p;
    m->nbuffer = p ? n : 0;
    CS_MODEL_COLS_PREAMBLE(m);
#define PLACE(type, name, rows, cols, set, setflags) \
    m->name = p ? (type *)(void *)p : NULL; \
    if (p) p += cs_field_bytes((size_t)m->rows, (size_t)(cols), sizeof(type));
    CS_MODEL_POINTERS(PLACE)
#undef PLACE
#define PLACE_NAMES(name, rows, kind) \
    m->name = p ? (char **)(void *)p : NULL; \
    if (p) p += cs_field_bytes((size_t)m->rows, 1, sizeof(char *));
    CS_MODEL_NAMES(PLACE_NAMES)
#undef PLACE_NAMES
    return m->buffer ? 0 : -1;
}

void cs_free_model(cs_model *m)
{
    if (!m) return;
#define FREE_NAMES(f, n, kind) \
    if (m->f) \
        for (int i = 0; i < m->n; i++) cs_free(m->f[i]);
    CS_MODEL_NAMES(FREE_NAMES)
#undef FREE_NAMES
    cs_free(m->buffer);
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

int cs_name2id(const cs_model *m, const char *kind, const char *name)
{
    if (!m || !kind) return -1;
#define FIND(f, rows, word) \
    if (strcmp(kind, word) == 0) return lookup(m->f, m->rows, name);
    CS_MODEL_NAMES(FIND)
#undef FIND
    return -1;
}

const char *cs_id2name(const cs_model *m, const char *kind, int id)
{
    if (!m || !kind) return NULL;
#define NAME(f, rows, word) \
    if (strcmp(kind, word) == 0) return id >= 0 && id < m->rows ? m->f[id] : NULL;
    CS_MODEL_NAMES(NAME)
#undef NAME
    return NULL;
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
    return lookup(m->actuator_name, m->nactuator, name);
}

int cs_mesh_hull_get(const cs_model *m, int mesh, cs_mesh_hull *out)
{
    if (!m || !out || mesh < 0 || mesh >= m->nmesh) return -1;
    if (m->mesh_graphadr[mesh] < 0) { /* only visual geoms use it: no hull was built */
        *out = (cs_mesh_hull){0, 0, NULL, NULL, NULL};
        return 0;
    }
    cs_hull h;
    cs_hull_view(&h, m->mesh_graph + m->mesh_graphadr[mesh], m->mesh_hull + m->mesh_hulladr[mesh]);
    *out = (cs_mesh_hull){h.nvert, h.nface, h.vert, h.faceadr, h.facevert};
    return 0;
}
