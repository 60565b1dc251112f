/* sim-internal: module contexts made with the data, and helpers shared by the stages. */
#ifndef CS_STAGES_H
#define CS_STAGES_H

#include <stddef.h>

#include "conesim.h"

/* collision/'s context for this model (one per data: it holds scratch). NULL + err. */
struct cs_collision *cs_collision_make(const cs_model *m, char *err, size_t errlen);

/* options.c: a <flag> name with an effect -> its bit; -1 when unknown */
int cs_flag_lookup(const char *name, int *bit, int *enable);

/* kinematics.c: 1 when dof i rotates (about dof_xaxis through dof_xanchor), 0 when it
 * translates (along dof_xaxis) */
int cs_dof_rotates(const cs_model *m, int i);

/* integrate.c: qpos moved by qvel over h, per joint type */
void cs_integrate_pos(const cs_model *m, double *qpos, const double *qvel, double h);

/* invweight.c: body_invweight0 and dof_invweight0 at qpos0 (MuJoCo's set0). Returns 0,
 * -1 out of memory, or 1 + the dof whose pivot was not positive. */
int cs_model_invweight0(cs_model *m);

/* smooth.c: the mass matrix qM by composite rigid bodies, from the kinematics */
void cs_make_mass(const cs_model *m, cs_data *d);

#endif
