/* sim-internal: data made before a cs_set follow the model at their next forward. */
#ifndef CS_SETTER_H
#define CS_SETTER_H

#include "conesim.h"

/* Rebuilds what the data copied from the model when it was made (the collision context's
 * geom and pair parameters, RK4's stages, the solver's threads) and records m->nchange.
 * Out of memory: counts CS_WARN_NOMEM and keeps the old copies. */
void cs_data_sync(const cs_model *m, cs_data *d);

/* The arrays cs_set writes, one by one (i = 0, 1, ... until -1): where each is in cs_model,
 * its rows for m (elements; dofs for a joint's per-dof attributes), values per row, the
 * bytes of one value, and the setter's words for it (kind "geom", attr "friction"). */
typedef struct {
    size_t off;
    int rows, cols;
    size_t elem;
    int perdof;     /* 1: a row per dof (dof_*), 0: per element */
    int perctrl;    /* 1: a row per control (an actuator's block of rows) */
    const char *kind, *attr;
} cs_set_array;
int cs_set_array_get(const cs_model *m, int i, cs_set_array *out);
/* Row `row` of settable array i set to v (cols values) through cs_setv's checks and what
 * follows from it (inverse weights, bounding radius, a free body's start); the array holds
 * the old values when called, and again when refused. 0, or -1 with "LABEL: what is wrong". */
int cs_set_row(cs_model *m, int i, int row, const double *v, const char *label, char *err,
               size_t errsz);

/* The Coulomb model has no adhesion (docs/contact-math.md §12): the refusal's words when
 * the model would have both the contact model `contact` and a geom or pair with adhesion
 * (adhesion: the value about to be written into one of them, or 0 to check the model as it
 * is), else NULL. */
const char *cs_coulomb_adhesion_refusal(const cs_model *m, int contact, double adhesion);

#endif
