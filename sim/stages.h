/* sim-internal: module contexts made with the data. */
#ifndef CS_STAGES_H
#define CS_STAGES_H

#include <stddef.h>

#include "conesim.h"

/* collision/'s context for this model (one per data: it holds scratch). NULL + err. */
struct cs_collision *cs_collision_make(const cs_model *m, char *err, size_t errlen);

#endif
