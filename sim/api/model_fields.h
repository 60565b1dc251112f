/* sim-internal: every array of cs_model described once (MuJoCo's mjxmacro.h idea). The
 * model's allocation (one block), its free, its copy and the bindings' field table
 * (cs_model_field) are made from these lists; a new array is a member in conesim.h and a
 * line here (docs/style.md), and the build checks the line's type against the member.
 *
 * CS_MODEL_POINTERS: X(type, name, rows, cols, set, setflags): rows is a size of cs_model,
 * cols a number or an expression in the sizes CS_MODEL_COLS_PREAMBLE names; set is the MJCF
 * attribute by which cs_set changes the array between steps ("geom.NAME.friction"; the kind
 * from rows: ngeom geom, nbody body, njnt and nv joint, nactuator actuator, npair pair, nsensor
 * sensor), NULL when
 * the array is not settable, and setflags its check and what a change recomputes
 * (CS_SET_*).
 * CS_MODEL_NAMES: X(name, rows, kind): the element names (char *, NULL when unnamed) and
 * the kind's word in cs_name2id / cs_id2name. */
#ifndef CS_MODEL_FIELDS_H
#define CS_MODEL_FIELDS_H

#include "conesim.h"

/* what a settable array's values must be and what a change recomputes (sim/api/setter.c) */
enum {
    CS_SET_NONNEG = 1,      /* >= 0 */
    CS_SET_POSITIVE = 2,    /* > 0 */
    CS_SET_INVWEIGHT = 8,   /* the inverse weights and dof_M0 */
    CS_SET_RBOUND = 16,     /* the geom's bounding radius */
    CS_SET_FREEPOS = 32,    /* a free body's start (qpos0, keys) follows */
    CS_SET_CONDIM = 64,     /* 1, 3, 4 or 6 */
    CS_SET_PERDOF = 128,    /* one value per dof of the joint (an index picks the dof) */
    CS_SET_ALLDOFS = 256,   /* the same values for every dof of the joint */
    CS_SET_PERCTRL = 512,   /* rows per control (nu): an actuator's name picks its block */
};

/* the sizes of cs_model that count rows or columns of its arrays (MuJoCo's MJMODEL_SIZES) */
#define CS_MODEL_SIZES(X) \
    X(nbody) X(njnt) X(ngeom) X(nq) X(nv) X(npair) X(nexclude) X(nkey) X(ntree) X(nM) \
    X(nmesh) X(nmeshvert) X(nmeshface) X(nmeshgraph) X(nmeshhull) X(nmeshtexcoord) \
    X(nhfield) X(nhfielddata) \
    X(nactuator) X(nu) X(nout) X(na) X(nmocap) \
    X(nsite) X(ntendon) X(nwrap) X(neq) X(nsensor) X(nsensordata) X(nuser_sensor) X(nhistory) \
    X(nmat) X(ntex) X(ntexdata) X(nlight) X(ncam)

/* the sizes a column count may name */
#define CS_MODEL_COLS_PREAMBLE(m) \
    int nq = (m)->nq, nv = (m)->nv, nu = (m)->nu, na = (m)->na, nmocap = (m)->nmocap; \
    int nuser_sensor = (m)->nuser_sensor; \
    (void)nq, (void)nv, (void)nu, (void)na, (void)nmocap, (void)nuser_sensor

#define CS_MODEL_POINTERS(X) \
    /* bodies */ \
    X(int, body_parent, nbody, 1, NULL, 0) \
    X(int, body_rootid, nbody, 1, NULL, 0) \
    X(int, body_weldid, nbody, 1, NULL, 0) \
    X(int, body_jntadr, nbody, 1, NULL, 0) \
    X(int, body_jntnum, nbody, 1, NULL, 0) \
    X(int, body_dofadr, nbody, 1, NULL, 0) \
    X(int, body_dofnum, nbody, 1, NULL, 0) \
    X(int, body_simple, nbody, 1, NULL, 0) \
    X(int, body_geomadr, nbody, 1, NULL, 0) \
    X(int, body_geomnum, nbody, 1, NULL, 0) \
    X(int, body_sameframe, nbody, 1, NULL, 0) \
    X(double, body_pos, nbody, 3, "pos", CS_SET_FREEPOS | CS_SET_INVWEIGHT) \
    X(double, body_quat, nbody, 4, NULL, 0) \
    X(double, body_ipos, nbody, 3, NULL, 0) \
    X(double, body_iquat, nbody, 4, NULL, 0) \
    X(double, body_mass, nbody, 1, "mass", CS_SET_NONNEG | CS_SET_INVWEIGHT) \
    X(double, body_inertia, nbody, 3, "inertia", CS_SET_NONNEG | CS_SET_INVWEIGHT) \
    X(double, body_gravcomp, nbody, 1, NULL, 0) \
    X(double, body_invweight0, nbody, 2, NULL, 0) \
    X(int, body_lastdof, nbody, 1, NULL, 0) \
    X(int, body_treeid, nbody, 1, NULL, 0) \
    X(int, body_mocapid, nbody, 1, NULL, 0) \
    /* joints */ \
    X(int, jnt_type, njnt, 1, NULL, 0) \
    X(int, jnt_qposadr, njnt, 1, NULL, 0) \
    X(int, jnt_dofadr, njnt, 1, NULL, 0) \
    X(int, jnt_bodyid, njnt, 1, NULL, 0) \
    X(int, jnt_limited, njnt, 1, NULL, 0) \
    X(double, jnt_pos, njnt, 3, NULL, 0) \
    X(double, jnt_axis, njnt, 3, NULL, 0) \
    X(double, jnt_range, njnt, 2, "range", 0) \
    X(double, jnt_stiffness, njnt, 1, "stiffness", CS_SET_NONNEG) \
    X(double, jnt_stiffnesspoly, njnt, CS_NPOLY, NULL, 0) \
    X(double, jnt_margin, njnt, 1, "margin", CS_SET_NONNEG) \
    X(double, jnt_solref, njnt, 2, "solreflimit", 0) \
    X(double, jnt_solimp, njnt, 5, "solimplimit", 0) \
    X(int, jnt_actfrclimited, njnt, 1, NULL, 0) \
    X(double, jnt_actfrcrange, njnt, 2, NULL, 0) \
    X(int, jnt_actgravcomp, njnt, 1, NULL, 0) \
    X(int, jnt_actuatorid, njnt, 1, NULL, 0) \
    X(double, qpos0, nq, 1, NULL, 0) \
    X(double, qpos_spring, nq, 1, NULL, 0) \
    /* dofs and trees */ \
    X(int, dof_parent, nv, 1, NULL, 0) \
    X(int, dof_Madr, nv, 1, NULL, 0) \
    X(int, dof_treeid, nv, 1, NULL, 0) \
    X(int, dof_bodyid, nv, 1, NULL, 0) \
    X(int, dof_jntid, nv, 1, NULL, 0) \
    X(double, dof_armature, nv, 1, "armature", CS_SET_NONNEG | CS_SET_PERDOF | CS_SET_INVWEIGHT) \
    X(double, dof_damping, nv, 1, "damping", CS_SET_NONNEG | CS_SET_PERDOF) \
    X(double, dof_dampingpoly, nv, CS_NPOLY, NULL, 0) \
    X(double, dof_frictionloss, nv, 1, "frictionloss", CS_SET_NONNEG | CS_SET_PERDOF) \
    X(double, dof_solref, nv, 2, "solreffriction", CS_SET_ALLDOFS) \
    X(double, dof_solimp, nv, 5, "solimpfriction", CS_SET_ALLDOFS) \
    X(double, dof_invweight0, nv, 1, NULL, 0) \
    X(double, dof_M0, nv, 1, NULL, 0) \
    X(int, tree_dofadr, ntree, 1, NULL, 0) \
    X(int, tree_dofnum, ntree, 1, NULL, 0) \
    X(int, tree_bodyadr, ntree, 1, NULL, 0) \
    X(int, tree_bodynum, ntree, 1, NULL, 0) \
    X(int, tree_sleep_policy, ntree, 1, NULL, 0) \
    X(double, dof_length, nv, 1, NULL, 0) \
    /* geoms */ \
    X(int, geom_type, ngeom, 1, NULL, 0) \
    X(int, geom_body, ngeom, 1, NULL, 0) \
    X(int, geom_contype, ngeom, 1, "contype", CS_SET_NONNEG) \
    X(int, geom_conaffinity, ngeom, 1, "conaffinity", CS_SET_NONNEG) \
    X(int, geom_condim, ngeom, 1, "condim", CS_SET_CONDIM) \
    X(int, geom_priority, ngeom, 1, "priority", 0) \
    X(int, geom_group, ngeom, 1, NULL, 0) \
    X(double, geom_size, ngeom, 3, "size", CS_SET_POSITIVE | CS_SET_RBOUND) \
    X(double, geom_pos, ngeom, 3, "pos", 0) \
    X(double, geom_quat, ngeom, 4, NULL, 0) \
    X(int, geom_sameframe, ngeom, 1, NULL, 0) \
    X(double, geom_friction, ngeom, 3, "friction", CS_SET_NONNEG) \
    X(double, geom_solmix, ngeom, 1, "solmix", CS_SET_NONNEG) \
    X(double, geom_surfacevel, ngeom, 6, "surfacevel", 0) \
    X(double, geom_solref, ngeom, 2, "solref", 0) \
    X(double, geom_solimp, ngeom, 5, "solimp", 0) \
    X(double, geom_margin, ngeom, 1, "margin", CS_SET_NONNEG) \
    X(double, geom_gap, ngeom, 1, "gap", CS_SET_NONNEG) \
    X(double, geom_adhesion, ngeom, 1, "adhesion", 0) \
    X(double, geom_rgba, ngeom, 4, "rgba", CS_SET_NONNEG) \
    X(double, geom_fluid, ngeom, 12, NULL, 0) \
    X(double, geom_rbound, ngeom, 1, NULL, 0) \
    X(double, geom_mass, ngeom, 1, NULL, 0) \
    X(int, geom_dataid, ngeom, 1, NULL, 0) \
    /* contact pairs and exclusions */ \
    X(int, pair_geom1, npair, 1, NULL, 0) \
    X(int, pair_geom2, npair, 1, NULL, 0) \
    X(int, pair_condim, npair, 1, "condim", CS_SET_CONDIM) \
    X(double, pair_friction, npair, 5, "friction", CS_SET_NONNEG) \
    X(double, pair_solref, npair, 2, "solref", 0) \
    X(double, pair_solreffriction, npair, 2, "solreffriction", 0) \
    X(double, pair_solimp, npair, 5, "solimp", 0) \
    X(double, pair_margin, npair, 1, "margin", CS_SET_NONNEG) \
    X(double, pair_gap, npair, 1, "gap", CS_SET_NONNEG) \
    X(double, pair_adhesion, npair, 1, "adhesion", 0) \
    X(int, exclude_body1, nexclude, 1, NULL, 0) \
    X(int, exclude_body2, nexclude, 1, NULL, 0) \
    /* keyframes */ \
    X(double, key_time, nkey, 1, NULL, 0) \
    X(double, key_qpos, nkey, nq, NULL, 0) \
    X(double, key_qvel, nkey, nv, NULL, 0) \
    X(double, key_ctrl, nkey, nu, NULL, 0) \
    X(double, key_act, nkey, na, NULL, 0) \
    X(double, key_mpos, nkey, 3 * nmocap, NULL, 0) \
    X(double, key_mquat, nkey, 4 * nmocap, NULL, 0) \
    /* meshes */ \
    X(int, mesh_vertadr, nmesh, 1, NULL, 0) \
    X(int, mesh_vertnum, nmesh, 1, NULL, 0) \
    X(int, mesh_faceadr, nmesh, 1, NULL, 0) \
    X(int, mesh_facenum, nmesh, 1, NULL, 0) \
    X(int, mesh_graphadr, nmesh, 1, NULL, 0) \
    X(int, mesh_hulladr, nmesh, 1, NULL, 0) \
    X(double, mesh_pos, nmesh, 3, NULL, 0) \
    X(double, mesh_quat, nmesh, 4, NULL, 0) \
    X(double, mesh_volume, nmesh, 1, NULL, 0) \
    X(double, mesh_vert, nmeshvert, 3, NULL, 0) \
    X(int, mesh_face, nmeshface, 3, NULL, 0) \
    X(int, mesh_graph, nmeshgraph, 1, NULL, 0) \
    X(double, mesh_hull, nmeshhull, 1, NULL, 0) \
    X(int, mesh_texcoordadr, nmesh, 1, NULL, 0) \
    X(int, mesh_texcoordnum, nmesh, 1, NULL, 0) \
    X(double, mesh_texcoord, nmeshtexcoord, 2, NULL, 0) \
    X(int, mesh_facetexcoord, nmeshface, 3, NULL, 0) \
    /* height fields */ \
    X(double, hfield_size, nhfield, 4, NULL, 0) \
    X(int, hfield_nrow, nhfield, 1, NULL, 0) \
    X(int, hfield_ncol, nhfield, 1, NULL, 0) \
    X(int, hfield_adr, nhfield, 1, NULL, 0) \
    X(double, hfield_data, nhfielddata, 1, NULL, 0) \
    /* actuators */ \
    X(int, actuator_trntype, nactuator, 1, NULL, 0) \
    X(int, actuator_dyntype, nactuator, 1, NULL, 0) \
    X(int, actuator_gaintype, nactuator, 1, NULL, 0) \
    X(int, actuator_biastype, nactuator, 1, NULL, 0) \
    X(int, actuator_trnid, nactuator, 2, NULL, 0) \
    X(int, actuator_actadr, nactuator, 1, NULL, 0) \
    X(int, actuator_actnum, nactuator, 1, NULL, 0) \
    X(int, actuator_ctrladr, nactuator, 1, NULL, 0) \
    X(int, actuator_ctrlnum, nactuator, 1, NULL, 0) \
    X(int, actuator_ctrlspec, nactuator, 1, NULL, 0) \
    X(int, actuator_outadr, nactuator, 1, NULL, 0) \
    X(int, actuator_outnum, nactuator, 1, NULL, 0) \
    X(int, actuator_ctrllimited, nu, 1, NULL, 0) \
    X(int, actuator_forcelimited, nactuator, 1, NULL, 0) \
    X(int, actuator_actlimited, nactuator, 1, NULL, 0) \
    X(int, actuator_actearly, nactuator, 1, NULL, 0) \
    X(int, actuator_group, nactuator, 1, NULL, 0) \
    X(double, actuator_dynprm, nactuator, 10, "dynprm", 0) \
    X(double, actuator_gainprm, nactuator, 10, "gainprm", 0) \
    X(double, actuator_biasprm, nactuator, 10, "biasprm", 0) \
    X(double, actuator_ctrlrange, nu, 2, "ctrlrange", CS_SET_PERCTRL) \
    X(double, actuator_forcerange, nactuator, 2, "forcerange", 0) \
    X(double, actuator_actrange, nactuator, 2, "actrange", 0) \
    X(double, actuator_gear, nactuator, 6, "gear", 0) \
    X(double, actuator_cranklength, nactuator, 1, NULL, 0) \
    X(double, actuator_lengthrange, nactuator, 2, NULL, 0) \
    X(double, actuator_acc0, nactuator, 1, NULL, 0) \
    X(int, actuator_history, nactuator, 2, NULL, 0) \
    X(int, actuator_historyadr, nactuator, 1, NULL, 0) \
    X(double, actuator_delay, nactuator, 1, "delay", CS_SET_NONNEG) \
    X(double, actuator_damping, nactuator, 1, NULL, 0) \
    X(double, actuator_dampingpoly, nactuator, CS_NPOLY, NULL, 0) \
    X(double, actuator_armature, nactuator, 1, NULL, 0) \
    /* sites */ \
    X(int, site_bodyid, nsite, 1, NULL, 0) \
    X(double, site_pos, nsite, 3, NULL, 0) \
    X(double, site_quat, nsite, 4, NULL, 0) \
    X(int, site_sameframe, nsite, 1, NULL, 0) \
    X(int, site_type, nsite, 1, NULL, 0) \
    X(double, site_size, nsite, 3, NULL, 0) \
    /* sensors */ \
    X(int, sensor_type, nsensor, 1, NULL, 0) \
    X(int, sensor_datatype, nsensor, 1, NULL, 0) \
    X(int, sensor_needstage, nsensor, 1, NULL, 0) \
    X(int, sensor_objtype, nsensor, 1, NULL, 0) \
    X(int, sensor_objid, nsensor, 1, NULL, 0) \
    X(int, sensor_reftype, nsensor, 1, NULL, 0) \
    X(int, sensor_refid, nsensor, 1, NULL, 0) \
    X(int, sensor_intprm, nsensor, 3, NULL, 0) \
    X(int, sensor_dim, nsensor, 1, NULL, 0) \
    X(int, sensor_adr, nsensor, 1, NULL, 0) \
    X(double, sensor_cutoff, nsensor, 1, NULL, 0) \
    X(double, sensor_noise, nsensor, 1, NULL, 0) \
    X(double, sensor_user, nsensor, nuser_sensor, NULL, 0) \
    X(int, sensor_history, nsensor, 2, NULL, 0) \
    X(int, sensor_historyadr, nsensor, 1, NULL, 0) \
    X(double, sensor_delay, nsensor, 1, "delay", CS_SET_NONNEG) \
    X(double, sensor_interval, nsensor, 2, NULL, 0) \
    /* tendons and their paths */ \
    X(int, tendon_adr, ntendon, 1, NULL, 0) \
    X(int, tendon_num, ntendon, 1, NULL, 0) \
    X(int, tendon_limited, ntendon, 1, NULL, 0) \
    X(double, tendon_range, ntendon, 2, NULL, 0) \
    X(double, tendon_margin, ntendon, 1, NULL, 0) \
    X(double, tendon_solref_lim, ntendon, 2, NULL, 0) \
    X(double, tendon_solimp_lim, ntendon, 5, NULL, 0) \
    X(double, tendon_solref_fri, ntendon, 2, NULL, 0) \
    X(double, tendon_solimp_fri, ntendon, 5, NULL, 0) \
    X(double, tendon_frictionloss, ntendon, 1, NULL, 0) \
    X(double, tendon_stiffness, ntendon, 1, NULL, 0) \
    X(double, tendon_damping, ntendon, 1, NULL, 0) \
    X(double, tendon_armature, ntendon, 1, NULL, 0) \
    X(int, tendon_actfrclimited, ntendon, 1, NULL, 0) \
    X(double, tendon_actfrcrange, ntendon, 2, NULL, 0) \
    X(double, tendon_stiffnesspoly, ntendon, CS_NPOLY, NULL, 0) \
    X(double, tendon_dampingpoly, ntendon, CS_NPOLY, NULL, 0) \
    X(int, tendon_actuatorid, ntendon, 1, NULL, 0) \
    X(double, tendon_lengthspring, ntendon, 2, NULL, 0) \
    X(double, tendon_length0, ntendon, 1, NULL, 0) \
    X(double, tendon_invweight0, ntendon, 1, NULL, 0) \
    X(int, tendon_treenum, ntendon, 1, NULL, 0) \
    X(int, tendon_treeid, ntendon, 2, NULL, 0) \
    X(int, wrap_type, nwrap, 1, NULL, 0) \
    X(int, wrap_objid, nwrap, 1, NULL, 0) \
    X(double, wrap_prm, nwrap, 1, NULL, 0) \
    /* equality constraints */ \
    X(int, eq_type, neq, 1, NULL, 0) \
    X(int, eq_obj1id, neq, 1, NULL, 0) \
    X(int, eq_obj2id, neq, 1, NULL, 0) \
    X(int, eq_objtype, neq, 1, NULL, 0) \
    X(int, eq_active0, neq, 1, NULL, 0) \
    X(double, eq_solref, neq, 2, NULL, 0) \
    X(double, eq_solimp, neq, 5, NULL, 0) \
    X(double, eq_data, neq, CS_NEQDATA, NULL, 0) \
    /* visual: materials, textures, lights, cameras (no physics) */ \
    X(int, geom_matid, ngeom, 1, NULL, 0) \
    X(int, mat_texid, nmat, 1, NULL, 0) \
    X(int, mat_texuniform, nmat, 1, NULL, 0) \
    X(double, mat_texrepeat, nmat, 2, NULL, 0) \
    X(double, mat_rgba, nmat, 4, NULL, 0) \
    X(double, mat_emission, nmat, 1, NULL, 0) \
    X(double, mat_specular, nmat, 1, NULL, 0) \
    X(double, mat_shininess, nmat, 1, NULL, 0) \
    X(double, mat_reflectance, nmat, 1, NULL, 0) \
    X(int, tex_type, ntex, 1, NULL, 0) \
    X(int, tex_width, ntex, 1, NULL, 0) \
    X(int, tex_height, ntex, 1, NULL, 0) \
    X(int, tex_adr, ntex, 1, NULL, 0) \
    X(int, tex_data, ntexdata, 1, NULL, 0) \
    X(int, light_mode, nlight, 1, NULL, 0) \
    X(int, light_bodyid, nlight, 1, NULL, 0) \
    X(int, light_targetbodyid, nlight, 1, NULL, 0) \
    X(int, light_directional, nlight, 1, NULL, 0) \
    X(int, light_castshadow, nlight, 1, NULL, 0) \
    X(int, light_active, nlight, 1, NULL, 0) \
    X(double, light_pos, nlight, 3, NULL, 0) \
    X(double, light_dir, nlight, 3, NULL, 0) \
    X(double, light_pos0, nlight, 3, NULL, 0) \
    X(double, light_dir0, nlight, 3, NULL, 0) \
    X(double, light_poscom0, nlight, 3, NULL, 0) \
    X(double, light_ambient, nlight, 3, NULL, 0) \
    X(double, light_diffuse, nlight, 3, NULL, 0) \
    X(double, light_specular, nlight, 3, NULL, 0) \
    X(double, light_attenuation, nlight, 3, NULL, 0) \
    X(double, light_cutoff, nlight, 1, NULL, 0) \
    X(double, light_exponent, nlight, 1, NULL, 0) \
    X(int, cam_mode, ncam, 1, NULL, 0) \
    X(int, cam_bodyid, ncam, 1, NULL, 0) \
    X(int, cam_targetbodyid, ncam, 1, NULL, 0) \
    X(double, cam_pos, ncam, 3, NULL, 0) \
    X(double, cam_quat, ncam, 4, NULL, 0) \
    X(double, cam_fovy, ncam, 1, NULL, 0) \
    X(int, cam_projection, ncam, 1, NULL, 0) \
    X(int, cam_resolution, ncam, 2, NULL, 0) \
    X(double, cam_sensorsize, ncam, 2, NULL, 0) \
    X(double, cam_intrinsic, ncam, 4, NULL, 0) \
    X(double, cam_pos0, ncam, 3, NULL, 0) \
    X(double, cam_poscom0, ncam, 3, NULL, 0) \
    X(double, cam_mat0, ncam, 9, NULL, 0)

#define CS_MODEL_NAMES(X) \
    X(body_name, nbody, "body") X(jnt_name, njnt, "joint") X(geom_name, ngeom, "geom") \
    X(site_name, nsite, "site") X(pair_name, npair, "pair") X(key_name, nkey, "key") \
    X(mesh_name, nmesh, "mesh") X(hfield_name, nhfield, "hfield") X(actuator_name, nactuator, "actuator") \
    X(tendon_name, ntendon, "tendon") X(eq_name, neq, "equality") \
    X(sensor_name, nsensor, "sensor") \
    X(mat_name, nmat, "material") X(tex_name, ntex, "texture") X(light_name, nlight, "light") \
    X(cam_name, ncam, "camera")

/* The bytes one array takes in a block: rows x cols + 1 elements (empty models get valid
 * pointers), padded so each array starts a multiple of 64 bytes into the block (whose start
 * has malloc's alignment), as MuJoCo pads its buffers. */
static inline size_t cs_field_bytes(size_t rows, size_t cols, size_t elem)
{
    return ((rows * cols + 1) * elem + 63) / 64 * 64;
}

/* The arrays of m (its sizes set, its pointers not yet) as one zeroed block, each array
 * cs_field_bytes each; the name tables are in it, the names themselves are not (cs_free_model frees them). 0, or -1
 * out of memory (m's pointers then NULL). */
int cs_model_alloc(cs_model *m);
/* the block's size for m's sizes */
size_t cs_model_nbuffer(const cs_model *m);

#endif
