/* sim-internal: the arrays of cs_data sized by the model, described once. The data's
 * allocation (one block), its copy, its state (state.c) and the bindings' field table
 * (cs_data_field) are made from these lists; a new array is a member in conesim.h and a
 * line here (docs/style.md).
 *
 * X(type, name, rows, cols): rows a size of cs_model, cols a number or an expression in the
 * sizes CS_MODEL_COLS_PREAMBLE names. CS_DATA_POINTERS are the public arrays (in the
 * bindings' table); CS_DATA_SCRATCH the stages' own, in the same block. The arrays whose
 * size is not rows x cols (contact and rawcon grow with the contacts, jac, RK4's stages)
 * are allocated on their own (data.c). */
#ifndef CS_DATA_FIELDS_H
#define CS_DATA_FIELDS_H

#include "model_fields.h"

#define CS_DATA_POINTERS(X) \
    X(double, qpos, nq, 1) \
    X(double, qvel, nv, 1) \
    X(double, qacc, nv, 1) \
    X(double, qacc_smooth, nv, 1) \
    X(double, qacc_warmstart, nv, 1) \
    X(double, qfrc_applied, nv, 1) \
    X(double, xfrc_applied, nbody, 6) \
    X(double, qfrc_bias, nv, 1) \
    X(double, qfrc_gravity, nv, 1) \
    X(double, qfrc_passive, nv, 1) \
    X(double, qfrc_gravcomp, nv, 1) \
    X(double, qfrc_adhesion, nv, 1) \
    X(double, qfrc_smooth, nv, 1) \
    X(double, qfrc_constraint, nv, 1) \
    X(double, qfrc_inverse, nv, 1) \
    X(double, ctrl, nu, 1) \
    X(double, mocap_pos, nmocap, 3) \
    X(double, mocap_quat, nmocap, 4) \
    X(double, act, na, 1) \
    X(double, act_dot, na, 1) \
    X(double, actuator_length, nout, 1) \
    X(double, actuator_velocity, nout, 1) \
    X(double, actuator_force, nout, 1) \
    X(double, actuator_moment, nout, nv) \
    X(double, qfrc_actuator, nv, 1) \
    X(double, history, nhistory, 1) \
    X(double, xpos, nbody, 3) \
    X(double, xquat, nbody, 4) \
    X(double, xmat, nbody, 9) \
    X(double, xipos, nbody, 3) \
    X(double, ximat, nbody, 9) \
    X(cs_pose, geom_xpose, ngeom, 1) \
    X(double, dof_xaxis, nv, 3) \
    X(double, dof_xanchor, nv, 3) \
    X(double, xanchor, njnt, 3) \
    X(double, xaxis, njnt, 3) \
    X(double, cdof, nv, 6) \
    X(double, cvel, nbody, 6) \
    X(double, qM, nM, 1) \
    X(double, qLD, nM, 1) \
    X(double, qLDiagInv, nv, 1) \
    X(double, site_xpos, nsite, 3) \
    X(double, site_xmat, nsite, 9) \
    X(double, ten_length, ntendon, 1) \
    X(double, ten_velocity, ntendon, 1) \
    X(double, ten_J, ntendon, nv) \
    X(int, eq_active, neq, 1) \
    X(int, tree_asleep, ntree, 1) \
    X(int, tree_awake, ntree, 1) \
    X(int, body_awake, nbody, 1) \
    X(double, sensordata, nsensordata, 1) \
    X(double, subtree_com, nbody, 3) \
    X(double, cam_xpos, ncam, 3) \
    X(double, cam_xmat, ncam, 9) \
    X(double, light_xpos, nlight, 3) \
    X(double, light_xdir, nlight, 3) \
    X(double, subtree_linvel, nbody, 3) \
    X(double, subtree_angmom, nbody, 3)

#define CS_DATA_SCRATCH(X) \
    X(double, qH, nM, 1) \
    X(double, qHLD, nM, 1) \
    X(double, qHDiagInv, nv, 1) \
    X(double, qacc_implicit, nv, 1) \
    X(double, qDeriv, nv, 1) \
    X(double, qLU, nM, 2) \
    X(double, rne_tan, nbody, 31) \
    X(double, crb, nbody, 13) \
    X(double, cacc, nbody, 6) \
    X(double, cfrc, nbody, 12) \
    X(double, cdofdot, nv, 6) \
    X(double, eq_scratch, nv, 24) \
    X(double, tendon_actfrc, ntendon, 1) \
    X(double, ctrl_used, nu, 1) \
    X(double, subtree_mass, nbody, 1) \
    X(double, sens_vel, nbody, 6) \
    X(double, sens_acc, nbody, 6) \
    X(double, sens_frc, nbody, 6) \
    X(double, sens_ext, nbody, 6) \
    X(double, xpose_asleep, nbody, 7) \
    X(double, qacc_asleep, nv, 1) \
    X(int, geom_asleep, ngeom, 1) \
    X(int, sleep_uf, ntree, 2)

/* the block's size for the model's sizes, and its arrays pointed at in d (all NULL when
 * buffer is) */
size_t cs_data_nbuffer(const cs_model *m);
void cs_data_place(const cs_model *m, cs_data *d, void *buffer);
/* a data with its memory and contexts, its arrays zero (not reset: cs_make_data resets);
 * NULL out of memory */
cs_data *cs_data_alloc(const cs_model *m);
/* the doubles RK4's stages take */
size_t cs_data_rk4_size(const cs_model *m);

#endif
