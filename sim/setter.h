/* sim-internal: data made before a cs_set follow the model at their next forward. */
#ifndef CS_SETTER_H
#define CS_SETTER_H

#include "conesim.h"

/* Rebuilds what the data copied from the model when it was made (the collision context's
 * geom and pair parameters, RK4's stages, the solver's threads) and records m->nchange.
 * Out of memory: counts CS_WARN_NOMEM and keeps the old copies. */
void cs_data_sync(const cs_model *m, cs_data *d);

#endif
