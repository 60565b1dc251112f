/* conesim's public API: what the CLI, the viewer and the tests use (the functions here, the
 * model's and data's structs in cs_model.h and cs_data.h, as MuJoCo's mujoco.h, mjmodel.h
 * and mjdata.h).
 *
 * Two structs (docs/design.md): cs_model, compiled from MJCF and never changed by a step
 * (its documented parameters change between steps through cs_set only), and cs_data, everything a step reads and writes, allocated once from the model's sizes.
 * Arrays are struct-of-arrays with MuJoCo's names and layouts (body i's position is
 * xpos[3*i..3*i+2], matrices row-major), so facts carry over from MuJoCo's docs.
 *
 * Bodies use MuJoCo's indexing: world = 0, then depth-first document order. Geoms are
 * numbered body by body (body_geomadr), as MuJoCo's compiler numbers them.
 * Joints use MuJoCo's joint table (jnt_*, body_jntadr/jntnum, body_dofadr/dofnum, dof_*):
 * joints are numbered in body order, and within a body in document order; each owns
 * jnt_qposadr.. in qpos and jnt_dofadr.. in qvel, in MuJoCo's layout per type:
 *   free  qpos 7 = body-frame position (3) + unit quaternion (w first);
 *         qvel 6 = world linear velocity of the body-frame origin + angular velocity in the
 *         body's local frame;
 *   ball  qpos 4 = unit quaternion relative to the reference pose; qvel 3 = local angular
 *         velocity;
 *   slide qpos 1 = displacement along the axis; hinge qpos 1 = angle (radians) about it;
 *         qvel 1 each.
 * Several joints of one body compose in document order. Bodies without a joint are welded
 * to their parent (body_weldid names the nearest body with joints, or 0 for the world). */
#ifndef CONESIM_H
#define CONESIM_H

#include <stddef.h>
#include <stdio.h>

#include "cs_version.h" /* CS_VERSION_MAJOR, _MINOR, _PATCH, CS_VERSION "x.y.z" */
#include "cs_model.h"   /* cs_option, cs_model (MuJoCo's mjmodel.h) */
#include "cs_data.h"    /* cs_data, cs_contact (MuJoCo's mjdata.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library actually linked ("x.y.z"), against CS_VERSION compiled in. */
const char *cs_version(void);


/* ---- loading (sim/mjcf*.c) ---------------------------------------------------------- */
/* Load an MJCF file. On error returns NULL and writes "FILE:LINE: element <x> attribute
 * 'y': what is wrong" into err, and sets errno: ENOMEM when memory ran out ("FILE: out of
 * memory"), EINTR when a signal interrupted reading the file, another errno value when the
 * file cannot be read, EINVAL for a bad scene. Visual-only elements/attributes that are
 * ignored are listed once on `warn` (may be NULL). */
cs_model *cs_load_xml(const char *path, FILE *warn, char *err, size_t errsz);
/* The same from a string, or from len bytes (a NUL byte among them is an error); `name`
 * stands for the file in messages. */
cs_model *cs_load_xml_string(const char *xml, const char *name, FILE *warn, char *err,
                             size_t errsz);
cs_model *cs_load_xml_buffer(const char *xml, size_t len, const char *name, FILE *warn,
                             char *err, size_t errsz);
/* cs_load_xml with attribute edits applied to the file's elements before it is compiled:
 * names[i] is KIND.NAME.ATTR (attribute ATTR of <KIND name="NAME">, values[i] its whole
 * text) or KIND.NAME.ATTR[K] (its K-th number; the element must write the attribute), an
 * optional "mjcf." prefix allowed, e.g. "geom.slope.euler[1]" = "25", "body.box.pos" =
 * "0 0 1". What the compiler derives from them (orientations, frames, masses and inertia
 * from sizes, qpos0) follows exactly; the loader checks the values as if the file said
 * them. An unknown element or index: "FILE: NAME: what is wrong" and errno ESRCH. */
cs_model *cs_load_xml_edit(const char *path, int nedit, const char *const *names,
                           const char *const *values, FILE *warn, char *err, size_t errsz);
/* cs_load_xml_edit with CS_LOAD_* flags. CS_LOAD_NO_TEXELS: builtin textures (gradient,
 * checker, flat) keep their sizes but not their texels (tex_data there stays 0), for a
 * program that never draws: a builtin skybox's texels can cost more than the rest of the
 * load. The file is checked as without the flag. */
enum { CS_LOAD_NO_TEXELS = 1 };
cs_model *cs_load_xml_flags(const char *path, unsigned flags, int nedit,
                            const char *const *names, const char *const *values, FILE *warn,
                            char *err, size_t errsz);
void cs_free_model(cs_model *m);
/* Override one <option> attribute by its MJCF name ("timestep", "cone", "solver",
 * "impratio", "iterations", "gravity", "o_solref", ..., any member of cs_option; a keyword
 * option takes its word or its number; "flag.NAME" = enable|disable; an "option." prefix is
 * accepted). Use between loading and cs_make_data; later, cs_set_text
 * (data made earlier then follow). Returns 0, or -1 with a message in err. */
int cs_option_set(cs_option *o, const char *name, const char *value, char *err, size_t errsz);

/* ---- changing the model between steps (sim/api/setter.c), as MuJoCo's mjModel ------------
 * One parameter by name; data made earlier follow at their next step. Names:
 *   option.NAME[K] (also opt.NAME, or NAME alone): every member of cs_option (the list
 *     cs_option_field walks), e.g. timestep, gravity[3], wind[3], viscosity, impratio,
 *     tolerance, iterations, o_solref[2], threads, disableflags; the keyword options by
 *     MuJoCo's number: cone (0 pyramidal, 1 elliptic), solver (0 PGS, 1 CG, 2 Newton),
 *     integrator (0 Euler, 1 RK4, 2 implicit, 3 implicitfast), contact (0 soft, 1 coulomb), pgs_blocks
 *     (0 contact, 1 pair); flag.NAME (1 = the feature on, 0 = off, as <flag NAME="enable|
 *     disable">)
 *   geom.G.friction[3], solref[2], solimp[5], solmix, margin, gap, size[3] (its bounding
 *     radius follows; not a mesh's; mass and inertia do not follow, as in MuJoCo), pos[3],
 *     rgba[4], condim, priority, contype, conaffinity, surfacevel[6], adhesion (refused, as a
 *     nonzero adhesion, under the Coulomb contact model)
 *   body.B.mass, inertia[3] (principal moments; the inverse weights and dof_M0 follow),
 *     pos[3] (a free body's qpos0 and keyframe starts follow)
 *   joint.J.damping, armature, frictionloss (one per dof of the joint: [K] picks one,
 *     without it a ball's or free joint's need all), solreffriction[2], solimpfriction[5],
 *     stiffness, range[2] (radians for hinges), margin, solreflimit[2], solimplimit[5]
 *     (also jnt.J...)
 *   actuator.A.gainprm[10], biasprm[10], dynprm[10], gear[6], ctrlrange[2], forcerange[2],
 *     actrange[2], delay (read within the history buffer: a delay beyond nsample steps reads
 *     its oldest sample; without a buffer none)
 *   sensor.S.delay (as an actuator's)
 *   pair.P.friction[5], solref[2], solreffriction[2], solimp[5], margin, gap, adhesion, condim
 *   (contact=coulomb is refused on a model with adhesion)
 * G, B, J, A, P, S: an element's name, or its id. [K] names one element of a vector; without
 * it a vector takes all its values (cs_setv). Values are checked as the loader checks the
 * MJCF (finite; friction, masses, damping... not negative; sizes positive; condim 1, 3, 4,
 * 6); a change that would leave the mass matrix singular is refused and undone. The tree's
 * structure (bodies, joints, their types, geom types and meshes) cannot change: recompile
 * the scene (cs_load_xml_edit). Not thread-safe against a step of the same model. */
/* 0, or -1 (unknown name, wrong count, bad value): cs_setv gives the message. */
int cs_set(cs_model *m, const char *name, double value);
int cs_get(const cs_model *m, const char *name, double *value); /* a single value */
/* n values (the name's count: 1 with [K]); 0, or -1 with "NAME: what is wrong" in err */
int cs_setv(cs_model *m, const char *name, const double *values, int n, char *err,
            size_t errsz);
/* the values into v (room for maxn); their number, or -1 with a message */
int cs_getv(const cs_model *m, const char *name, double *v, int maxn, char *err, size_t errsz);
/* 1 when the name's form is one cs_set takes (an option, or a kind and attribute it
 * knows), whatever the model; 0 otherwise */
int cs_set_knows(const char *name);
/* how many values the name has, or -1 when cs_set does not know it */
int cs_set_count(const cs_model *m, const char *name);
/* from text: numbers separated by spaces, or an option's keyword (solver=pgs,
 * flag.warmstart=disable), as `--set NAME=VALUE` takes them */
int cs_set_text(cs_model *m, const char *name, const char *text, char *err, size_t errsz);

/* ---- writing the settable arrays in place (sim/api/model_watch.c) -----------------------
 * MuJoCo's bindings write m.geom_friction[i, 0] = 0.2 straight into the model. conesim
 * takes such writes to the arrays cs_set knows, and to m->opt, when the caller says:
 * cs_watch_model keeps their values; cs_watch_commit finds the rows (options) written since
 * and puts each through cs_setv's checks and what follows from it (inverse weights after a
 * mass change, the data's copies after an option's); a row it refuses goes back to its
 * value before. Call it between steps, before the next. */
typedef struct cs_model_watch cs_model_watch;
cs_model_watch *cs_watch_model(const cs_model *m); /* NULL out of memory */
/* the rows taken (0: nothing written), or -1 when some were refused: err has the first's
 * "geom_friction[2] (geom 'floor'): must not be negative"; the others are taken */
int cs_watch_commit(cs_model *m, cs_model_watch *w, char *err, size_t errsz);
void cs_watch_free(cs_model_watch *w);
/* The name of settable array i (0, 1, ... until NULL) as a cs_model member: geom_friction,
 * body_mass, dof_damping, ... (one row per element; per dof for a joint's per-dof ones). */
const char *cs_settable_field(int i);

/* The convex hull mesh `mesh` collides as (from mesh_graph and mesh_hull): its vertices
 * (3 doubles each, in the mesh frame) and faces as polygons, face f's vertex indices
 * facevert[faceadr[f] .. faceadr[f + 1]). Pointers into the model. 0, or -1 when there is
 * no such mesh. A mesh no geom collides with has no hull (as in MuJoCo): 0 vertices and
 * faces, NULL pointers. */
typedef struct {
    int nvert, nface;
    const double *vert;
    const int *faceadr, *facevert;
} cs_mesh_hull;
int cs_mesh_hull_get(const cs_model *m, int mesh, cs_mesh_hull *out);

/* ---- data (sim/api/data.c) ------------------------------------------------------------------ */
cs_data *cs_make_data(const cs_model *m);  /* reset to qpos0, zero velocity, then forward;
                                              NULL when out of memory */
void cs_free_data(cs_data *d);
void cs_reset(const cs_model *m, cs_data *d);
int cs_reset_key(const cs_model *m, cs_data *d, int key); /* 0 ok, -1 bad index */
int cs_name2id_body(const cs_model *m, const char *name);  /* -1 if absent */
int cs_name2id_geom(const cs_model *m, const char *name);

/* ---- copies and state (sim/api/copy.c, sim/api/state.c), as MuJoCo's mj_copyModel, mj_copyData
 * and mj_getState / mj_setState -------------------------------------------------------- */
/* A model of its own with the same values (arrays, names, options); NULL when out of
 * memory. Data made from either step alike. */
cs_model *cs_copy_model(const cs_model *m);
/* A data of its own holding d's state, its last forward's results and contacts: the copy
 * steps bit for bit as d does. The last step's constraint rows (cs_jrow_*) are not copied:
 * the copy has none until its next step. m is the model d was made from (or a copy of it);
 * NULL when out of memory or when d's sizes are not m's. */
cs_data *cs_copy_data(const cs_model *m, const cs_data *d);
/* What a state holds (MuJoCo's mjtState bits and order): a state is the chosen parts, in
 * this order, as doubles (eq_active as 0 or 1). */
enum {
    CS_STATE_TIME = 1 << 0,         /* 1 */
    CS_STATE_QPOS = 1 << 1,         /* nq */
    CS_STATE_QVEL = 1 << 2,         /* nv */
    CS_STATE_ACT = 1 << 3,          /* na */
    CS_STATE_HISTORY = 1 << 4,      /* nhistory: the actuators' and sensors' history buffers */
    CS_STATE_WARMSTART = 1 << 5,    /* nv: qacc_warmstart, the solver's warm start */
    CS_STATE_CTRL = 1 << 6,         /* nu */
    CS_STATE_QFRC_APPLIED = 1 << 7, /* nv */
    CS_STATE_XFRC_APPLIED = 1 << 8, /* 6 nbody */
    CS_STATE_EQ_ACTIVE = 1 << 9,    /* neq */
    CS_STATE_MOCAP_POS = 1 << 10,   /* 3 nmocap */
    CS_STATE_MOCAP_QUAT = 1 << 11,  /* 4 nmocap */
    CS_NSTATE = 12,
    CS_STATE_PHYSICS = CS_STATE_QPOS | CS_STATE_QVEL | CS_STATE_ACT | CS_STATE_HISTORY,
    CS_STATE_FULLPHYSICS = CS_STATE_TIME | CS_STATE_PHYSICS,
    CS_STATE_USER = CS_STATE_CTRL | CS_STATE_QFRC_APPLIED | CS_STATE_XFRC_APPLIED |
                    CS_STATE_EQ_ACTIVE | CS_STATE_MOCAP_POS | CS_STATE_MOCAP_QUAT,
    /* everything a step reads that the user or the last step set: a data given this state
     * (and its model) steps bit for bit as the one it came from */
    CS_STATE_INTEGRATION = CS_STATE_FULLPHYSICS | CS_STATE_USER | CS_STATE_WARMSTART
};
/* the doubles of a state with the parts in spec; -1 when spec has a bit not above */
int cs_state_size(const cs_model *m, int spec);
/* d's parts in spec into state (cs_state_size doubles), or state's into d (no forward is
 * run: cs_forward or cs_step reads them); 0, or -1 for a bad spec */
int cs_get_state(const cs_model *m, const cs_data *d, double *state, int spec);
int cs_set_state(const cs_model *m, cs_data *d, const double *state, int spec);

/* ---- history buffers (sim/engine/history.c), MuJoCo 3.12's delays -------------------------
 * An actuator or sensor with nsample > 0 keeps its last nsample values (ctrl as set, or the
 * sensor's value) with their times in d->history; each step appends the value at its start
 * time. interp: 0 zero-order hold (the latest sample at or before the time), 1 linear, 2
 * cubic (Catmull-Rom, slopes 0 at the ends), -1 the element's own; outside the buffer's
 * times the nearest end's value. */
/* Actuator id's control at time - actuator_delay[id] (MuJoCo's mj_readCtrl); d->ctrl[id]
 * when it has no buffer. */
double cs_read_ctrl(const cs_model *m, const cs_data *d, int id, double time, int interp);
/* Sensor id's value (sensor_dim doubles) at time - sensor_delay[id] into result (MuJoCo's
 * mj_readSensor, which returns a pointer instead: here result always holds it); without a
 * buffer its sensordata. 0, or -1 for a bad id. */
int cs_read_sensor(const cs_model *m, const cs_data *d, int id, double time, double *result,
                   int interp);
/* Actuator id's buffer set to values (nsample) at times (nsample, strictly increasing),
 * oldest first (MuJoCo's mj_initCtrlHistory). times NULL keeps the buffer's times as they
 * lie in it, which increase only until the first step turns the ring (MuJoCo refuses them
 * after). 0, or -1 (no buffer, times not increasing). */
int cs_init_ctrl_history(const cs_model *m, cs_data *d, int id, const double *times,
                         const double *values);
/* The same for sensor id (values: nsample x sensor_dim); phase is the last computation's
 * time an interval sensor counts its period from (MuJoCo's mj_initSensorHistory). */
int cs_init_sensor_history(const cs_model *m, cs_data *d, int id, const double *times,
                           const double *values, double phase);

/* ---- the step (sim/engine/step.c) ---------------------------------------------------------- */
void cs_step(const cs_model *m, cs_data *d);     /* all stages + integrate */
void cs_forward(const cs_model *m, cs_data *d);  /* all stages, no integration */
/* Stages in order; each reads and writes data only. The tendon stage (lengths, Jacobians,
 * sites' frames) runs between kinematics and collide, and is not called on its own. */
void cs_kinematics(const cs_model *m, cs_data *d);  /* xpos, xquat, xmat, xipos, geom poses */
void cs_collide(const cs_model *m, cs_data *d);     /* contacts (collision/, sim/engine/collide.c) */
void cs_smooth(const cs_model *m, cs_data *d);      /* M, factor, bias, qacc_smooth */
void cs_constraint(const cs_model *m, cs_data *d);  /* rows + solve + store -> qacc
                                                       (sim/engine/constraint.c) */
/* Contact i's force in its contact frame, in condim order (normal, t1, t2, spin, roll1,
 * roll2; unused entries 0), as MuJoCo's mj_contactForce: the net force, an adhesive
 * contact's normal being the solver's minus its adhesion. */
void cs_contact_force(const cs_model *m, const cs_data *d, int i, double f[6]);
/* The rows of the last constraint stage that are not contacts, in row order: MuJoCo's,
 * the equality rows (constraint by constraint), a friction row per dof with frictionloss,
 * one per tendon with frictionloss, then the limit rows joint by joint (a hinge's or
 * slide's lower side before its upper), then tendon by tendon. */
typedef enum {
    CS_JROW_FRICTION = 0, /* dry friction on one dof: |force| <= frictionloss */
    CS_JROW_LOWER = 1,    /* hinge or slide at its lower limit: pos = q - range[0] */
    CS_JROW_UPPER = 2,    /* hinge or slide at its upper limit: pos = range[1] - q */
    CS_JROW_ANGLE = 3,    /* ball joint at its rotation-angle limit: pos = max(range) - angle */
    CS_JROW_TENDON_FRICTION = 4, /* dry friction on a tendon (joint: -1, dof: -1) */
    CS_JROW_TENDON_LOWER = 5,    /* a tendon at its lower limit: pos = length - range[0] */
    CS_JROW_TENDON_UPPER = 6,    /* a tendon at its upper limit: pos = range[1] - length */
    CS_JROW_EQUALITY = 7  /* one row of an equality constraint: pos = its residual (dof: the
                             row within the constraint, 0..5) */
} cs_jrow_kind;
typedef struct {
    int kind;     /* cs_jrow_kind */
    int joint;    /* the joint (for friction: the dof's joint) */
    int dof;      /* friction: its dof; limit: the joint's first dof */
    double pos;   /* distance from the limit (< 0 past it, within margin it is active);
                     0 for friction, as MuJoCo's efc_pos */
    double force; /* the row's force (MuJoCo's efc_force): a limit's >= 0 pushes the joint
                     back into its range, a friction row's opposes the dof's motion */
    int tendon;   /* tendon rows: the tendon (else -1) */
    int eq;       /* equality rows: the constraint (else -1) */
} cs_jrow;
/* The number of those rows, and row i of them (0, or -1 when i is
 * out of range). */
int cs_jrow_count(const cs_model *m, const cs_data *d);
int cs_jrow_get(const cs_model *m, const cs_data *d, int i, cs_jrow *out);
/* the limit CSV's kind word: friction, limit_lower, limit_upper, limit_angle,
 * tendon_friction, tendon_lower, tendon_upper, equality */
const char *cs_jrow_kind_name(int kind);
void cs_integrate(const cs_model *m, cs_data *d);   /* semi-implicit Euler */

/* helpers on the dynamics */
void cs_solve_M(const cs_model *m, const cs_data *d, double *x, const double *y); /* x = M^-1 y */
void cs_mul_M(const cs_model *m, const cs_data *d, double *y, const double *x);   /* y = M x */
double cs_energy_kinetic(const cs_model *m, const cs_data *d);
double cs_energy_potential(const cs_model *m, const cs_data *d); /* gravity, from the COMs */
/* Linear momentum p and angular momentum L about the tree's centre of mass, of kinematic
 * tree t (world frame), from the last kinematics. */
void cs_momentum(const cs_model *m, const cs_data *d, int t, double L[3], double p[3]);
/* -1 when qpos and qvel are finite, else the body of the first joint with a value that is not */
int cs_check_finite(const cs_model *m, const cs_data *d);
/* Jacobians of a world point fixed to `body` (MuJoCo's mj_jac), from the last kinematics:
 * point velocity = jacp qvel, body angular velocity (world) = jacr qvel; jacp and jacr are
 * 3 x nv row-major (either may be NULL). Zero for a static body. */
void cs_jac(const cs_model *m, const cs_data *d, int body, const double point[3], double *jacp,
            double *jacr);
/* cs_jac at a body's frame origin (xpos), its centre of mass (xipos), a site (site_xpos,
 * on site_bodyid): MuJoCo's mj_jacBody, mj_jacBodyCom, mj_jacSite (sim/engine/jac_frames.c) */
void cs_jac_body(const cs_model *m, const cs_data *d, int body, double *jacp, double *jacr);
void cs_jac_body_com(const cs_model *m, const cs_data *d, int body, double *jacp,
                     double *jacr);
void cs_jac_site(const cs_model *m, const cs_data *d, int site, double *jacp, double *jacr);
/* Inverse dynamics (MuJoCo's mj_inverse, sim/engine/inverse.c): from qpos, qvel and the given
 * d->qacc, the kinematics, contacts and constraint rows as a forward makes them, each
 * constraint's soft force at qacc (contacts' force, qfrc_constraint), and qfrc_inverse =
 * M qacc + qfrc_bias - qfrc_passive - qfrc_constraint: after cs_forward it equals
 * qfrc_applied + J^T xfrc_applied + qfrc_actuator, and the contact forces the forward's.
 * 0, or -1 with a message (the Coulomb model has no inverse: its forces are not a function
 * of the acceleration). */
int cs_inverse(const cs_model *m, cs_data *d, char *err, size_t errsz);
/* Derivatives of one step by finite differences (MuJoCo's mjd_transitionFD, sim/
 * transition_fd.c): the state x = (dq, qvel, act), dq in qpos's tangent space (nv), ndx =
 * 2 nv + na; A = d x_next / d x (ndx x ndx), B = d x_next / d ctrl (ndx x nu), row-major,
 * either may be NULL. Every step starts from d's state (CS_STATE_INTEGRATION); eps is the
 * perturbation; centered 1: (f(x + eps) - f(x - eps)) / 2 eps (a limited control at its
 * range's end is differenced on the side inside it). d is left at its state, forward
 * computed, its warning counts as they were. 0, or -1 (eps not positive, out of memory, a
 * model with history buffers: MuJoCo's refuses them too). */
int cs_transition_fd(const cs_model *m, cs_data *d, double eps, int centered, double *A,
                     double *B);
/* The velocity that moves qpos1 to qpos2 in time h (MuJoCo's mj_differentiatePos): per
 * joint, a difference, or a quaternion's as a rotation vector in its local frame. */
void cs_differentiate_pos(const cs_model *m, double *qvel, double h, const double *qpos1,
                          const double *qpos2);
/* Pose and velocity of a body at the current qpos and qvel (not the last kinematics):
 * frame origin, orientation, world linear velocity of the origin, angular velocity in the
 * body's frame (the free joint's convention). */
void cs_body_state(const cs_model *m, const cs_data *d, int body, double pos[3], double quat[4],
                   double vel[3], double angvel_local[3]);

/* ---- recording (sim/output/record.c) ------------------------------------------------------- */
void cs_traj_header(FILE *f);
/* one row per moving body (every body with a dof on its chain to the world), in model order,
 * for the state after `step` steps; `time` is written as given (README, Output files:
 * k * timestep, from the initial state's time) */
void cs_traj_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* joint CSV (README, Output files): one row per joint, qpos and qvel components in MuJoCo's
 * layout, blank where the joint type has fewer */
void cs_joint_header(FILE *f);
void cs_joint_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* actuator CSV (README, Output files): one row per actuator, the control as set (before
 * clamping) and the force of the step taken from state `step` (as the contact rows) */
void cs_actuator_header(FILE *f);
void cs_actuator_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* sensor CSV (README, Output files): one row per value of each sensor, sensordata of the
 * state after `step` steps as the step's forward pass left it (as the contact rows); returns
 * the first sensor with a value that is not finite, or -1 */
void cs_sensor_header(FILE *f);
int cs_sensor_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* a sensor type's MJCF element (touch, ..., distance for CS_SENS_GEOMDIST, user) */
const char *cs_sensor_type_name(int type);
/* a sensor's name, else "sensor<i>" */
const char *cs_sensor_label(const cs_model *m, int s, char *buf, size_t bufsz);
/* the joint type's MJCF word */
const char *cs_jnt_type_name(int type);
/* contact CSV (README, Output files): the contacts of the state after `step` steps (found at that
 * state, with the forces that move it on), time = that state's time */
void cs_contact_header(FILE *f);
void cs_contact_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* joint-row CSV (README, Output files): the limit and dry-friction rows made at the state
 * after `step` steps, with the forces that move it on, in row order */
void cs_limit_header(FILE *f);
void cs_limit_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* solver CSV: one row per contact island of the step taken from state `step` (iterations,
 * whether the limit stopped it, warm start used, last scaled improvement, primal and dual
 * cost (their sum is 0 at the optimum), cone feasibility, stationarity, complementarity) */
void cs_solver_header(FILE *f);
void cs_solver_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* the contact CSV's zone word for a cs_contact_zone */
const char *cs_contact_zone_name(int zone);
/* body name, or "body<i>" (MuJoCo index) when unnamed; buf must hold 32 bytes */
const char *cs_body_label(const cs_model *m, int body, char *buf, size_t bufsz);
const char *cs_geom_label(const cs_model *m, int geom, char *buf, size_t bufsz);
const char *cs_joint_label(const cs_model *m, int jnt, char *buf, size_t bufsz);
int cs_name2id_joint(const cs_model *m, const char *name); /* -1 if absent */
int cs_name2id_actuator(const cs_model *m, const char *name); /* -1 if absent */
const char *cs_actuator_label(const cs_model *m, int act, char *buf, size_t bufsz);
/* Controls by name (MuJoCo's simulate labels): an actuator with one control is its
 * actuator's label; one with several adds "/" and the input's name (cs_actuator_input_name),
 * e.g. "arm/pos", "arm/vel". cs_name2id_ctrl also takes a control's index; -1 if absent. */
const char *cs_ctrl_label(const cs_model *m, int ctrl, char *buf, size_t bufsz);
int cs_name2id_ctrl(const cs_model *m, const char *name);
/* the actuator whose block holds control ctrl, -1 if out of range */
int cs_ctrl_actuator(const cs_model *m, int ctrl);
/* input k's name of actuator id (MuJoCo's mj_actuatorInputName): "pos", "vel", "ff",
 * "voltage" in a pid's or DC motor's signature, "rx" "ry" "rz" or "qw" "qx" "qy" "qz" for an
 * orientation's target; NULL when its inputs have no names */
const char *cs_actuator_input_name(const cs_model *m, int id, int k);
/* a tendon's / equality constraint's name, else "tendon<i>" / "equality<i>" */
const char *cs_tendon_label(const cs_model *m, int t, char *buf, size_t bufsz);
const char *cs_eq_label(const cs_model *m, int e, char *buf, size_t bufsz);

/* ---- fields by name (sim/api/fields.c), for bindings that must not copy the layouts ------ */
typedef enum { CS_FIELD_INT = 0, CS_FIELD_DOUBLE = 1 } cs_field_type;
typedef struct {
    const char *name;     /* the struct member's name (geom_xpos, geom_xmat: geom_xpose's) */
    int type;             /* cs_field_type */
    int ndim;             /* 0 scalar, 1 fixed vector (shape[0]), 2 rows x columns */
    int shape[2];
    int stride;           /* bytes from one row to the next, 0 when packed */
    void *ptr;            /* the first element, valid until the owner is freed; for a
                             contact, until the next step or reset (d->contact grows) */
} cs_field;
/* Field k (0, 1, ... until -1 is returned) of the model, the data, the options, contact i. */
int cs_model_field(const cs_model *m, int k, cs_field *out);
int cs_data_field(const cs_model *m, const cs_data *d, int k, cs_field *out);
int cs_option_field(const cs_option *o, int k, cs_field *out);
int cs_contact_field(const cs_data *d, int i, int k, cs_field *out); /* -1 also: i >= ncon */
cs_option *cs_model_option(cs_model *m); /* &m->opt, for bindings */
/* Contact field k of all of d->contact at once: ncon_cap rows (the first ncon are the last
 * step's contacts) of sizeof(cs_contact) bytes; valid while ncon_cap stays the same. */
int cs_contact_array_field(const cs_data *d, int k, cs_field *out);
/* The name of element `id` of a kind ("body", "joint", "geom", "site", "actuator", "pair",
 * "key", "mesh", "tendon", "equality", "sensor"), or NULL when it has none, the kind is unknown or id
 * is out of range (MuJoCo's mj_id2name); cs_name2id: the id of the element of that kind
 * with that name, or -1 (MuJoCo's mj_name2id; cs_name2id_body ... are its shortcuts). */
const char *cs_id2name(const cs_model *m, const char *kind, int id);
int cs_name2id(const cs_model *m, const char *kind, const char *name);

/* ---- batch rollouts (sim/output/rollout.c), as MuJoCo's rollout module ------------------------ */
/* The length of one state: [time, qpos (nq), qvel (nv), act (na), history (nhistory)] =
 * 1 + nq + nv + na + nhistory (cs_state_size of CS_STATE_FULLPHYSICS). */
int cs_rollout_nstate(const cs_model *m);
/* Steps nbatch initial states (state0: nbatch x nstate) nstep times each and writes the
 * state after every step to out (nbatch x nstep x nstate). ctrl (nbatch x nstep x nu) sets
 * the controls before each step; NULL leaves them 0. Each rollout starts from a reset data
 * (cs_reset, then its state), exactly as cs_reset + setting the state + cs_step by hand, so
 * the results are the same bit for bit for any nthread (threads run one cs_data each;
 * nthread < 1 means 1). Returns 0, or -1 on bad arguments or when memory ran out. */
int cs_rollout(const cs_model *m, int nbatch, const double *state0, const double *ctrl,
               int nstep, int nthread, double *out);
/* The same with states of the parts in spec (cs_state_size doubles each, CS_STATE_* bits):
 * cs_rollout is spec CS_STATE_FULLPHYSICS. Adding CS_STATE_MOCAP_POS | CS_STATE_MOCAP_QUAT
 * starts each rollout with its own mocap poses, CS_STATE_WARMSTART with its warm start;
 * parts left out start as cs_reset leaves them. ctrl, when given, overrides the state's
 * controls before each step. */
int cs_rollout_spec(const cs_model *m, int spec, int nbatch, const double *state0,
                    const double *ctrl, int nstep, int nthread, double *out);
/* The same, with each step's sensordata (nbatch x nstep x nsensordata) into sensordata when
 * it is not NULL: the values the step's forward pass read, of the state before the step
 * (MuJoCo's rollout gives the same). */
int cs_rollout_sensors(const cs_model *m, int spec, int nbatch, const double *state0,
                       const double *ctrl, int nstep, int nthread, double *out,
                       double *sensordata);

/* ---- small math used across sim/ (sim/engine/mathutil.c) ----------------------------------- */
void cs_quat2mat(double mat[9], const double q[4]);
void cs_mulquat(double r[4], const double a[4], const double b[4]);
void cs_normquat(double q[4]);
void cs_mat2quat(double q[4], const double mat[9]);
void cs_axisangle2quat(double q[4], const double axis[3], double angle);
void cs_quat_z2vec(double q[4], const double vec[3]);
void cs_quat2vel(double v[3], const double q[4]);                 /* axis * angle, |angle| <= pi */
void cs_subquat(double v[3], const double a[4], const double b[4]); /* rotation vector of b^-1 a */

#ifdef __cplusplus
}
#endif

#endif
