/* Every array of cs_model, for allocation bookkeeping and freeing (internal). */
#ifndef CS_MODEL_FIELDS_H
#define CS_MODEL_FIELDS_H

#define CS_MODEL_ARRAYS(X) \
    X(body_parent) X(body_rootid) X(body_weldid) X(body_jntadr) X(body_jntnum) \
    X(body_dofadr) X(body_dofnum) X(body_simple) X(body_geomadr) X(body_geomnum) \
    X(body_pos) X(body_quat) X(body_ipos) X(body_iquat) X(body_mass) X(body_inertia) X(body_gravcomp) \
    X(body_invweight0) X(jnt_type) X(jnt_qposadr) X(jnt_dofadr) X(jnt_bodyid) X(jnt_limited) \
    X(jnt_pos) X(jnt_axis) X(jnt_range) X(jnt_stiffness) X(jnt_margin) X(jnt_solref) \
    X(jnt_solimp) X(qpos0) X(qpos_spring) \
    X(geom_type) X(geom_body) X(geom_contype) X(geom_conaffinity) X(geom_condim) \
    X(geom_priority) X(geom_group) X(geom_size) X(geom_pos) X(geom_quat) X(geom_friction) \
    X(geom_solmix) X(geom_solref) X(geom_solimp) X(geom_margin) X(geom_gap) X(geom_rgba) \
    X(geom_rbound) X(geom_mass) X(pair_geom1) X(pair_geom2) X(pair_condim) \
    X(pair_friction) X(pair_solref) X(pair_solreffriction) X(pair_solimp) X(pair_margin) \
    X(pair_gap) X(exclude_body1) X(exclude_body2) X(key_time) X(key_qpos) X(key_qvel) \
    X(dof_parent) X(dof_Madr) X(dof_treeid) X(dof_bodyid) X(dof_jntid) X(dof_armature) \
    X(dof_damping) X(dof_frictionloss) X(dof_solref) X(dof_solimp) X(dof_invweight0) X(tree_dofadr) \
    X(tree_dofnum) X(body_lastdof) X(body_treeid) \
    X(geom_dataid) X(mesh_vertadr) X(mesh_vertnum) X(mesh_faceadr) X(mesh_facenum) \
    X(mesh_graphadr) X(mesh_hulladr) X(mesh_vert) X(mesh_face) X(mesh_graph) X(mesh_hull) \
    X(mesh_pos) X(mesh_quat) X(mesh_volume) \
    X(actuator_trntype) X(actuator_dyntype) X(actuator_gaintype) X(actuator_biastype) \
    X(actuator_trnid) X(actuator_actadr) X(actuator_actnum) X(actuator_ctrllimited) \
    X(actuator_forcelimited) X(actuator_actlimited) X(actuator_actearly) X(actuator_dynprm) \
    X(actuator_group) \
    X(actuator_gainprm) X(actuator_biasprm) X(actuator_ctrlrange) X(actuator_forcerange) \
    X(actuator_actrange) X(actuator_gear) X(dof_M0) X(key_ctrl) X(key_act) \
    X(jnt_actfrclimited) X(jnt_actfrcrange) X(jnt_actgravcomp) \
    X(site_bodyid) X(site_pos) X(site_quat) X(wrap_type) \
    X(tendon_adr) X(tendon_num) X(wrap_objid) X(wrap_prm) X(tendon_limited) X(tendon_range) \
    X(tendon_margin) X(tendon_solref_lim) X(tendon_solimp_lim) X(tendon_solref_fri) \
    X(tendon_solimp_fri) X(tendon_frictionloss) X(tendon_stiffness) X(tendon_damping) \
    X(tendon_lengthspring) X(tendon_length0) X(tendon_invweight0) \
    X(eq_type) X(eq_obj1id) X(eq_obj2id) X(eq_active0) X(eq_solref) X(eq_solimp) X(eq_data) \
    X(body_mocapid) X(key_mpos) X(key_mquat)

#define CS_MODEL_NAMES(X) \
    X(body_name, nbody) X(jnt_name, njnt) X(geom_name, ngeom) X(pair_name, npair) \
    X(key_name, nkey) X(mesh_name, nmesh) X(actuator_name, nu) \
    X(tendon_name, ntendon) X(eq_name, neq) X(site_name, nsite)

#endif
