/* The arrays of the model, the data, the options and a contact by name and shape, for
 * bindings (the Python package) that must not copy the structs' layouts. */
#include <stddef.h>
#include <string.h>

#include "conesim.h"

#define NONE ((size_t)-1)

/* rows: a count in the model (rows_off), or 1; cols: fixed, or a count in the model */
typedef struct {
    const char *name;
    int type;
    size_t off;       /* of the pointer (arrays) or the value (scalars) in the struct */
    int ndim;         /* 0 scalar, 1 vector of cols, 2 rows x cols */
    size_t rows_off;  /* cs_model count of rows (ndim 2), NONE for fixed */
    int cols;
    size_t cols_off;  /* cs_model count of columns instead of cols, NONE for fixed */
    int stride;       /* bytes between rows, 0 = packed */
    int skip;         /* bytes from the pointer to the first element */
} desc;

#define MI(f) {#f, CS_FIELD_INT, offsetof(cs_model, f), 0, NONE, 0, NONE, 0, 0}
#define MA(f, t, n, c) {#f, t, offsetof(cs_model, f), 2, offsetof(cs_model, n), c, NONE, 0, 0}
#define I CS_FIELD_INT
#define D CS_FIELD_DOUBLE
static const desc model_fields[] = {
    MI(nbody), MI(njnt), MI(ngeom), MI(nq), MI(nv), MI(npair), MI(nexclude), MI(nkey),
    MI(nconmax), MI(ncon_reserve), MI(ntree), MI(nM), MI(nmesh), MI(nmeshvert), MI(nmeshface),
    MA(body_parent, I, nbody, 1), MA(body_rootid, I, nbody, 1), MA(body_weldid, I, nbody, 1),
    MA(body_jntadr, I, nbody, 1), MA(body_jntnum, I, nbody, 1), MA(body_dofadr, I, nbody, 1),
    MA(body_dofnum, I, nbody, 1), MA(body_simple, I, nbody, 1),
    MA(body_geomadr, I, nbody, 1), MA(body_geomnum, I, nbody, 1), MA(body_pos, D, nbody, 3),
    MA(body_quat, D, nbody, 4), MA(body_ipos, D, nbody, 3), MA(body_iquat, D, nbody, 4),
    MA(body_mass, D, nbody, 1), MA(body_inertia, D, nbody, 3), MA(body_gravcomp, D, nbody, 1),
    MA(body_invweight0, D, nbody, 2), MA(body_lastdof, I, nbody, 1),
    MA(body_treeid, I, nbody, 1),
    MA(jnt_type, I, njnt, 1), MA(jnt_qposadr, I, njnt, 1), MA(jnt_dofadr, I, njnt, 1),
    MA(jnt_bodyid, I, njnt, 1), MA(jnt_limited, I, njnt, 1), MA(jnt_pos, D, njnt, 3),
    MA(jnt_axis, D, njnt, 3), MA(jnt_range, D, njnt, 2), MA(jnt_stiffness, D, njnt, 1),
    MA(jnt_margin, D, njnt, 1), MA(jnt_solref, D, njnt, 2), MA(jnt_solimp, D, njnt, 5),
    MA(qpos0, D, nq, 1), MA(qpos_spring, D, nq, 1),
    MA(dof_parent, I, nv, 1), MA(dof_Madr, I, nv, 1), MA(dof_treeid, I, nv, 1),
    MA(dof_bodyid, I, nv, 1), MA(dof_jntid, I, nv, 1), MA(dof_armature, D, nv, 1),
    MA(dof_damping, D, nv, 1), MA(dof_frictionloss, D, nv, 1), MA(dof_solref, D, nv, 2),
    MA(dof_solimp, D, nv, 5), MA(dof_invweight0, D, nv, 1), MA(tree_dofadr, I, ntree, 1),
    MA(tree_dofnum, I, ntree, 1),
    MA(geom_type, I, ngeom, 1), MA(geom_body, I, ngeom, 1), MA(geom_contype, I, ngeom, 1),
    MA(geom_conaffinity, I, ngeom, 1), MA(geom_condim, I, ngeom, 1),
    MA(geom_priority, I, ngeom, 1), MA(geom_group, I, ngeom, 1), MA(geom_size, D, ngeom, 3),
    MA(geom_pos, D, ngeom, 3), MA(geom_quat, D, ngeom, 4), MA(geom_friction, D, ngeom, 3),
    MA(geom_solmix, D, ngeom, 1), MA(geom_solref, D, ngeom, 2), MA(geom_solimp, D, ngeom, 5),
    MA(geom_margin, D, ngeom, 1), MA(geom_gap, D, ngeom, 1), MA(geom_rgba, D, ngeom, 4),
    MA(geom_rbound, D, ngeom, 1), MA(geom_mass, D, ngeom, 1), MA(geom_dataid, I, ngeom, 1),
    MA(pair_geom1, I, npair, 1), MA(pair_geom2, I, npair, 1), MA(pair_condim, I, npair, 1),
    MA(pair_friction, D, npair, 5), MA(pair_solref, D, npair, 2),
    MA(pair_solreffriction, D, npair, 2), MA(pair_solimp, D, npair, 5),
    MA(pair_margin, D, npair, 1), MA(pair_gap, D, npair, 1),
    MA(exclude_body1, I, nexclude, 1), MA(exclude_body2, I, nexclude, 1),
    MA(key_time, D, nkey, 1),
    {"key_qpos", D, offsetof(cs_model, key_qpos), 2, offsetof(cs_model, nkey), 0, offsetof(cs_model, nq), 0, 0},
    {"key_qvel", D, offsetof(cs_model, key_qvel), 2, offsetof(cs_model, nkey), 0, offsetof(cs_model, nv), 0, 0},
    MA(mesh_vertadr, I, nmesh, 1), MA(mesh_vertnum, I, nmesh, 1), MA(mesh_faceadr, I, nmesh, 1),
    MA(mesh_facenum, I, nmesh, 1), MA(mesh_vert, D, nmeshvert, 3), MA(mesh_face, I, nmeshface, 3),
    MA(mesh_pos, D, nmesh, 3), MA(mesh_quat, D, nmesh, 4), MA(mesh_volume, D, nmesh, 1),
    MI(nu), MI(na), MI(nmocap), MA(body_mocapid, I, nbody, 1),
    MA(actuator_trntype, I, nu, 1), MA(actuator_dyntype, I, nu, 1),
    MA(actuator_gaintype, I, nu, 1), MA(actuator_biastype, I, nu, 1),
    MA(actuator_trnid, I, nu, 2), MA(actuator_actadr, I, nu, 1), MA(actuator_actnum, I, nu, 1),
    MA(actuator_ctrllimited, I, nu, 1), MA(actuator_forcelimited, I, nu, 1),
    MA(actuator_actlimited, I, nu, 1), MA(actuator_actearly, I, nu, 1),
    MA(actuator_group, I, nu, 1),
    MA(actuator_dynprm, D, nu, 10), MA(actuator_gainprm, D, nu, 10),
    MA(actuator_biasprm, D, nu, 10), MA(actuator_ctrlrange, D, nu, 2),
    MA(actuator_forcerange, D, nu, 2), MA(actuator_actrange, D, nu, 2),
    MA(actuator_gear, D, nu, 6), MA(dof_M0, D, nv, 1),
    MA(jnt_actfrclimited, I, njnt, 1), MA(jnt_actfrcrange, D, njnt, 2),
    MA(jnt_actgravcomp, I, njnt, 1),
    /* sites, tendons, equality constraints */
    MI(nsite), MI(ntendon), MI(nwrap), MI(neq),
    MA(site_bodyid, I, nsite, 1), MA(site_pos, D, nsite, 3), MA(site_quat, D, nsite, 4),
    MA(tendon_adr, I, ntendon, 1), MA(tendon_num, I, ntendon, 1), MA(wrap_type, I, nwrap, 1),
    MA(wrap_objid, I, nwrap, 1), MA(wrap_prm, D, nwrap, 1), MA(tendon_limited, I, ntendon, 1),
    MA(tendon_range, D, ntendon, 2), MA(tendon_margin, D, ntendon, 1),
    MA(tendon_solref_lim, D, ntendon, 2), MA(tendon_solimp_lim, D, ntendon, 5),
    MA(tendon_solref_fri, D, ntendon, 2), MA(tendon_solimp_fri, D, ntendon, 5),
    MA(tendon_frictionloss, D, ntendon, 1), MA(tendon_stiffness, D, ntendon, 1),
    MA(tendon_damping, D, ntendon, 1), MA(tendon_lengthspring, D, ntendon, 2),
    MA(tendon_length0, D, ntendon, 1), MA(tendon_invweight0, D, ntendon, 1),
    MA(eq_type, I, neq, 1), MA(eq_obj1id, I, neq, 1), MA(eq_obj2id, I, neq, 1),
    MA(eq_active0, I, neq, 1), MA(eq_solref, D, neq, 2), MA(eq_solimp, D, neq, 5),
    MA(eq_data, D, neq, CS_NEQDATA),
    {"key_ctrl", D, offsetof(cs_model, key_ctrl), 2, offsetof(cs_model, nkey), 0, offsetof(cs_model, nu), 0, 0},
    {"key_act", D, offsetof(cs_model, key_act), 2, offsetof(cs_model, nkey), 0, offsetof(cs_model, na), 0, 0},
};

#define DS(f, t) {#f, t, offsetof(cs_data, f), 0, NONE, 0, NONE, 0, 0}
#define DA(f, n, c) {#f, D, offsetof(cs_data, f), 2, offsetof(cs_model, n), c, NONE, 0, 0}
static const desc data_fields[] = {
    DS(time, D), {"energy", D, offsetof(cs_data, energy), 1, NONE, 2, NONE, 0, 0},
    DS(ncon, I), DS(nefc, I),
    DA(qpos, nq, 1), DA(qvel, nv, 1), DA(qacc, nv, 1), DA(qacc_smooth, nv, 1),
    DA(qacc_warmstart, nv, 1), DA(qfrc_applied, nv, 1), DA(xfrc_applied, nbody, 6),
    DA(qfrc_bias, nv, 1), DA(qfrc_gravity, nv, 1), DA(qfrc_passive, nv, 1), DA(qfrc_gravcomp, nv, 1),
    DA(qfrc_smooth, nv, 1),
    DA(qfrc_constraint, nv, 1), DA(ctrl, nu, 1), DA(mocap_pos, nmocap, 3), DA(mocap_quat, nmocap, 4), DA(act, na, 1), DA(act_dot, na, 1),
    DA(actuator_length, nu, 1), DA(actuator_velocity, nu, 1), DA(actuator_force, nu, 1),
    DA(qfrc_actuator, nv, 1), DA(xpos, nbody, 3), DA(xquat, nbody, 4), DA(xmat, nbody, 9),
    DA(xipos, nbody, 3), DA(ximat, nbody, 9), DA(dof_xaxis, nv, 3), DA(dof_xanchor, nv, 3),
    DA(xanchor, njnt, 3), DA(xaxis, njnt, 3), DA(cdof, nv, 6), DA(cvel, nbody, 6),
    DA(qM, nM, 1), DA(qLD, nM, 1), DA(qLDiagInv, nv, 1),
    DA(site_xpos, nsite, 3), DA(ten_length, ntendon, 1), DA(ten_velocity, ntendon, 1),
    {"ten_J", D, offsetof(cs_data, ten_J), 2, offsetof(cs_model, ntendon), 0,
     offsetof(cs_model, nv), 0, 0},
    {"eq_active", I, offsetof(cs_data, eq_active), 2, offsetof(cs_model, neq), 1, NONE, 0, 0},
    /* the geom poses, strided out of the cs_pose array */
    {"geom_xpos", D, offsetof(cs_data, geom_xpose), 2, offsetof(cs_model, ngeom), 3, NONE,
     (int)sizeof(cs_pose), (int)offsetof(cs_pose, pos)},
    {"geom_xmat", D, offsetof(cs_data, geom_xpose), 2, offsetof(cs_model, ngeom), 9, NONE,
     (int)sizeof(cs_pose), (int)offsetof(cs_pose, mat)},
    /* the last step's solver statistics and the warning counts, in the struct itself */
    {"solver_niter", I, offsetof(cs_data, solver.iterations), 0, NONE, 0, NONE, 0, 0},
    {"solver_at_limit", I, offsetof(cs_data, solver.at_limit), 0, NONE, 0, NONE, 0, 0},
    {"solver_nisland", I, offsetof(cs_data, solver.nisland), 0, NONE, 0, NONE, 0, 0},
    {"solver_noslip", I, offsetof(cs_data, solver.noslip), 0, NONE, 0, NONE, 0, 0},
    {"solver_cost", D, offsetof(cs_data, solver.cost), 0, NONE, 0, NONE, 0, 0},
    {"solver_dual_cost", D, offsetof(cs_data, solver.dual_cost), 0, NONE, 0, NONE, 0, 0},
    {"solver_improvement", D, offsetof(cs_data, solver.improvement), 0, NONE, 0, NONE, 0, 0},
    {"solver_primal_feas", D, offsetof(cs_data, solver.primal_feas), 0, NONE, 0, NONE, 0, 0},
    {"solver_stationarity", D, offsetof(cs_data, solver.stationarity), 0, NONE, 0, NONE, 0, 0},
    {"solver_complementarity", D, offsetof(cs_data, solver.complementarity), 0, NONE, 0, NONE,
     0, 0},
    DS(solver_stats, I), DS(ncon_cap, I),
    {"warning", I, offsetof(cs_data, warning), 1, NONE, CS_NWARN, NONE, 0, 0},
};

#define F(s, f, t, c) {#f, t, offsetof(s, f), (c) ? 1 : 0, NONE, (c), NONE, 0, 0}
static const desc option_fields[] = {
    F(cs_option, timestep, D, 0), F(cs_option, gravity, D, 3), F(cs_option, cone, I, 0),
    F(cs_option, solver, I, 0), F(cs_option, iterations, I, 0), F(cs_option, tolerance, D, 0),
    F(cs_option, ls_iterations, I, 0), F(cs_option, ls_tolerance, D, 0),
    F(cs_option, noslip_iterations, I, 0), F(cs_option, noslip_tolerance, D, 0),
    F(cs_option, impratio, D, 0), F(cs_option, o_margin, D, 0), F(cs_option, o_solref, D, 2),
    F(cs_option, o_solimp, D, 5), F(cs_option, o_friction, D, 5),
    F(cs_option, pgs_blocks, I, 0), F(cs_option, pgs_finish, I, 0), F(cs_option, threads, I, 0),
    F(cs_option, eq_jdotv, I, 0),
    F(cs_option, contact, I, 0), F(cs_option, newton_early, I, 0),
    F(cs_option, disableflags, I, 0), F(cs_option, enableflags, I, 0),
    F(cs_option, integrator, I, 0),
    F(cs_option, disableactuator, I, 0), F(cs_option, ccd_iterations, I, 0),
    F(cs_option, ccd_tolerance, D, 0), F(cs_option, meaninertia, D, 0),
};

static const desc contact_fields[] = {
    F(cs_contact, pos, D, 3), F(cs_contact, frame, D, 9), F(cs_contact, dist, D, 0),
    F(cs_contact, geom1, I, 0), F(cs_contact, geom2, I, 0), F(cs_contact, dim, I, 0),
    F(cs_contact, exclude, I, 0), F(cs_contact, friction, D, 5), F(cs_contact, solref, D, 2),
    F(cs_contact, solreffriction, D, 2), F(cs_contact, solimp, D, 5),
    F(cs_contact, margin, D, 0), F(cs_contact, gap, D, 0), F(cs_contact, efc_address, I, 0),
    F(cs_contact, force, D, 6), F(cs_contact, vel, D, 6), F(cs_contact, zone, I, 0),
};

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

static int count(const cs_model *m, size_t off)
{
    return *(const int *)((const char *)m + off);
}

/* `base` holds the field: arrays sized by the model (ndim 2) by pointer, scalars and fixed
 * arrays (ndim 1) in place */
static int describe(const desc *t, int n, int k, const cs_model *m, const void *base,
                    int inplace, cs_field *out)
{
    if (k < 0 || k >= n) return -1;
    const desc *e = &t[k];
    char *at = (char *)base + e->off;
    out->name = e->name;
    out->type = e->type;
    out->ndim = e->ndim;
    out->shape[0] = e->ndim == 2 ? count(m, e->rows_off) : e->ndim == 1 ? e->cols : 1;
    out->shape[1] = e->ndim == 2 ? (e->cols_off != NONE ? count(m, e->cols_off) : e->cols) : 1;
    out->stride = e->stride;
    out->ptr = (e->ndim < 2 || inplace) ? (void *)at : (void *)(*(char **)at + e->skip);
    return 0;
}

int cs_model_field(const cs_model *m, int k, cs_field *out)
{
    return describe(model_fields, COUNT(model_fields), k, m, m, 0, out);
}

int cs_data_field(const cs_model *m, const cs_data *d, int k, cs_field *out)
{
    return describe(data_fields, COUNT(data_fields), k, m, d, 0, out);
}

cs_option *cs_model_option(cs_model *m) { return &m->opt; }

int cs_option_field(const cs_option *o, int k, cs_field *out)
{
    return describe(option_fields, COUNT(option_fields), k, NULL, o, 1, out);
}

int cs_contact_array_field(const cs_data *d, int k, cs_field *out)
{
    if (k < 0 || k >= COUNT(contact_fields)) return -1;
    const desc *e = &contact_fields[k];
    out->name = e->name;
    out->type = e->type;
    out->ndim = 2;
    out->shape[0] = d->ncon_cap;
    out->shape[1] = e->ndim ? e->cols : 1;
    out->stride = (int)sizeof(cs_contact);
    out->ptr = d->contact ? (char *)d->contact + e->off : NULL;
    return 0;
}

int cs_contact_field(const cs_data *d, int i, int k, cs_field *out)
{
    if (i < 0 || i >= d->ncon) return -1;
    return describe(contact_fields, COUNT(contact_fields), k, NULL, &d->contact[i], 1, out);
}

const char *cs_id2name(const cs_model *m, const char *kind, int id)
{
    static const struct {
        const char *kind;
        size_t names, n;
    } kinds[] = {
        {"body", offsetof(cs_model, body_name), offsetof(cs_model, nbody)},
        {"joint", offsetof(cs_model, jnt_name), offsetof(cs_model, njnt)},
        {"geom", offsetof(cs_model, geom_name), offsetof(cs_model, ngeom)},
        {"actuator", offsetof(cs_model, actuator_name), offsetof(cs_model, nu)},
        {"pair", offsetof(cs_model, pair_name), offsetof(cs_model, npair)},
        {"key", offsetof(cs_model, key_name), offsetof(cs_model, nkey)},
        {"mesh", offsetof(cs_model, mesh_name), offsetof(cs_model, nmesh)},
    };
    if (!m || !kind) return NULL;
    for (int k = 0; k < COUNT(kinds); k++) {
        if (strcmp(kind, kinds[k].kind) != 0) continue;
        if (id < 0 || id >= count(m, kinds[k].n)) return NULL;
        char **names = *(char **const *)((const char *)m + kinds[k].names);
        return names ? names[id] : NULL;
    }
    return NULL;
}
