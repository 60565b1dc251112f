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
    int ctrl_ok;          /* the command applies ctrl.NAME=VALUE (cs_overrides_apply_ctrl) */
} cs_overrides;

/* Records one override. opt is "--set" (arg "NAME=VALUE") or "--NAME" (arg the value).
 * Returns 1, or 0 with a reason in why (too many, or --set without NAME=). The values are
 * checked when applied. */
int cs_overrides_add(cs_overrides *o, const char *opt, const char *arg, char *why, size_t whylen);

/* Which path a name takes. Element geometry -- KIND.NAME.pos, quat, euler, axisangle,
 * xyaxes, zaxis, fromto, size -- and every element attribute cs_set does not know (e.g.
 * joint.NAME.ref, geom.NAME.density) are edited into the MJCF before it is compiled
 * (cs_load_xml_edit), so what the compiler derives from them follows exactly; so is any
 * name with the prefix "mjcf.". Options, controls and the parameters cs_set knows
 * (friction, solref, masses, damping, gains, ...) are set on the compiled model. 1 for
 * the MJCF path. */
int cs_override_recompiles(const char *name);

/* The scene file a command names: `path` when it exists or holds a '/'; a bare name that
 * is not in the working directory is looked for in $CONESIM_SCENES, then in the installed
 * scenes (PREFIX/share/conesim/scenes). Returns path or buf. */
const char *cs_scene_path(const char *path, char *buf, size_t len);

/* When a bare scene name is found nowhere: appends to err where cs_scene_path looked. */
void cs_scene_missing(const char *path, char *err, size_t errlen);

/* Loads the scene (cs_scene_path) with the MJCF-path overrides of o, then those among names/values
 * (nextra; the sweep's varied ones, after o's so that they win) edited in, with CS_LOAD_*
 * flags (a command that never draws: CS_LOAD_NO_TEXELS). NULL as cs_load_xml_edit (errno
 * ESRCH: an edit named no element). */
cs_model *cs_overrides_load(const cs_overrides *o, const char *path, unsigned flags,
                            int nextra, const char *const *names, const char *const *values,
                            FILE *warn, char *err, size_t errlen);

/* One override by name, on a model loaded with cs_overrides_load: a control (ctrl.NAME:
 * checked only; cs_ctrl_override sets it on the data), a name of the MJCF path (nothing:
 * the load applied it), or a cs_set name (cs_set_text: "option.impratio",
 * "option.gravity[0]", "geom.NAME.friction[K]", "body.NAME.mass", "solver" = "pgs", ...;
 * without [K] the value lists every element). Returns 0, or -1 with a message in err. */
int cs_model_override(cs_model *m, const char *name, const char *value, char *err,
                      size_t errlen);

/* Applies them in order (cs_model_override). A control (ctrl.NAME) is only checked, and
 * refused when the command does not set controls (ctrl_ok 0). Returns 0, or -1 with a
 * message in err. */
int cs_overrides_apply(const cs_overrides *o, cs_model *m, char *err, size_t errlen);

/* ctrl.NAME=VALUE (NAME a control's name: its actuator's, with "/INPUT" for an actuator of
 * several controls, e.g. ctrl.arm/vel; or the control's index): sets that d->ctrl
 * (d NULL: only checks the name and the value). Returns 0, 1 when name is not a control
 * (nothing done), or -1 with a message in err. */
int cs_ctrl_override(const cs_model *m, cs_data *d, const char *name, const char *value,
                     char *err, size_t errlen);

/* Sets the controls among the overrides on d (after the reset: a keyframe's ctrl is
 * replaced). Returns 0, or -1 with a message in err. */
int cs_overrides_apply_ctrl(const cs_overrides *o, const cs_model *m, cs_data *d, char *err,
                            size_t errlen);

#endif
