/* Option overrides shared by run, view and bench: `--set NAME=VALUE` and the shorthands
 * `--timestep DT`, `--solver S`, ... (= --set NAME=VALUE), applied in order after loading. */
#ifndef CS_CLI_OVERRIDES_H
#define CS_CLI_OVERRIDES_H

#include <stddef.h>

#include "conesim.h"

#define CS_MAXOVERRIDE 64

typedef struct {
    int n;
    const char *name[CS_MAXOVERRIDE];
    const char *value[CS_MAXOVERRIDE];
    char buf[CS_MAXOVERRIDE][128];
} cs_overrides;

/* Records one override. opt is "--set" (arg "NAME=VALUE") or "--NAME" (arg the value).
 * Returns 1, or 0 with a reason in why (too many, or --set without NAME=). The values are
 * checked when applied. */
int cs_overrides_add(cs_overrides *o, const char *opt, const char *arg, char *why, size_t whylen);

/* One override by name, between loading and cs_make_data: an option ("option.impratio",
 * "option.gravity[0]": one element of a vector option, the rest kept) or a model attribute
 * by element name: geom.NAME.friction|solref|solimp|solmix[K], pair.INDEX|NAME.friction|
 * solref|solreffriction|solimp[K], body.NAME.pos[K] (for a free body also its joint's
 * start, qpos0 and every keyframe, so the body starts there). Without [K] the value lists
 * every element. Returns 0, or -1 with a message in err. */
int cs_model_override(cs_model *m, const char *name, const char *value, char *err,
                      size_t errlen);

/* Applies them in order (cs_model_override). Returns 0, or -1 with a message in err. */
int cs_overrides_apply(const cs_overrides *o, cs_model *m, char *err, size_t errlen);

#endif
