/* conesim's public API: what the CLI, the viewer and the tests use.
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
#include "geom.h"       /* cs_geom_type, cs_pose */
#include "cone_type.h"  /* cs_cone_type */

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library actually linked ("x.y.z"), against CS_VERSION compiled in. */
const char *cs_version(void);

/* ---- options (MJCF <option>, MuJoCo's numbering of enums) ------------------------- */
typedef enum { CS_SOLVER_PGS = 0, CS_SOLVER_CG = 1, CS_SOLVER_NEWTON = 2 } cs_solver_type;
typedef enum { CS_PGS_CONTACT = 0, CS_PGS_PAIR = 1 } cs_pgs_blocks;
/* integrators, MuJoCo's mjtIntegrator numbering (implicit is refused by the loader) */
typedef enum {
    CS_INT_EULER = 0, CS_INT_RK4 = 1, CS_INT_IMPLICIT = 2, CS_INT_IMPLICITFAST = 3
} cs_integrator;
/* contact model (conesim's own, docs/contact-math.md §11): MuJoCo's soft convex model, or
 * the Coulomb-exact one (hard Signorini normal, maximally dissipative friction in the cone
 * of the developed normal, true stick) */
typedef enum { CS_CONTACT_SOFT = 0, CS_CONTACT_COULOMB = 1 } cs_contact_model;
/* the Coulomb model's method (docs/contact-math.md §11): auto (default) solves an island of
 * more than two contacts by proximal Newton and the others by block Gauss-Seidel (NSGS) */
typedef enum {
    CS_COULOMB_SOLVER_AUTO = 0,
    CS_COULOMB_SOLVER_NSGS = 1,
    CS_COULOMB_SOLVER_NEWTON = 2
} cs_coulomb_solver;

/* <flag> bits: disable flags (set = the feature is off, MuJoCo's disableflags) */
enum {
    CS_DSBL_CONSTRAINT = 1 << 0,
    CS_DSBL_CONTACT = 1 << 1,
    CS_DSBL_GRAVITY = 1 << 2,
    CS_DSBL_WARMSTART = 1 << 3,
    CS_DSBL_FILTERPARENT = 1 << 4,
    CS_DSBL_REFSAFE = 1 << 5,
    CS_DSBL_FRICTIONLOSS = 1 << 6,
    CS_DSBL_LIMIT = 1 << 7,
    CS_DSBL_PASSIVE = 1 << 8,
    CS_DSBL_EULERDAMP = 1 << 9,
    CS_DSBL_SPRING = 1 << 10,
    CS_DSBL_DAMPER = 1 << 11,
    CS_DSBL_CLAMPCTRL = 1 << 12,
    CS_DSBL_ACTUATION = 1 << 13,
    CS_DSBL_ISLAND = 1 << 14,   /* one problem for all contacts instead of one per island */
    CS_DSBL_MULTICCD = 1 << 15, /* one point per support-function pair that rests flat */
    CS_DSBL_NATIVECCD = 1 << 16, /* overlapping support-function pairs by libccd's MPR (as
                                   MuJoCo's libccd path) instead of conesim's GJK/EPA */
    CS_DSBL_EQUALITY = 1 << 17, /* no equality-constraint rows */
    CS_DSBL_SENSOR = 1 << 18    /* sensordata is not computed (keeps its last values) */
};
/* enable flags (set = on, MuJoCo's enableflags) */
enum {
    CS_ENBL_OVERRIDE = 1 << 0,
    CS_ENBL_ENERGY = 1 << 1 /* d->energy computed at every step */
};

typedef struct {
    double timestep;      /* 0.002 */
    double gravity[3];    /* 0 0 -9.81 */
    int cone;             /* cs_cone_type: MuJoCo's default is pyramidal */
    int solver;           /* cs_solver_type: MuJoCo's default is Newton */
    int iterations;       /* 100 */
    double tolerance;     /* 1e-8 */
    int ls_iterations;    /* 50 */
    double ls_tolerance;  /* 0.01 */
    int noslip_iterations;   /* 0: none; else MuJoCo's noslip pass after the solver */
    double noslip_tolerance; /* 1e-6 */
    double impratio;      /* 1 */
    double o_margin;      /* override values, used when CS_ENBL_OVERRIDE is set */
    double o_solref[2];
    double o_solimp[5];
    double o_friction[5];
    int pgs_blocks;       /* conesim's own (no MJCF attribute; `--set pgs_blocks=...`):
                             CS_PGS_PAIR (default: all contacts of one body pair -- a box's
                             corners on the ground, a box-on-box manifold -- as one block,
                             minimised jointly and exactly) or CS_PGS_CONTACT (one contact
                             block at a time: the normal, then the fixed-normal QCQP on the
                             friction, to the block's exact minimiser) */
    int pgs_finish;       /* conesim's own (`--set pgs_finish=K`): PGS finishes with Newton
                             steps after K sweeps short of the tolerance, or when a sweep's
                             improvement meets it but the primal gradient does not
                             (default 5; 0: sweeps only, stopped by the improvement) */
    int eq_jdotv;         /* conesim's own (`--set eq_jdotv=0|1`): connect and weld rows take
                             the Jacobian's rate times qvel off a_ref (1, default: MuJoCo
                             3.12) or not (0: MuJoCo 3.3.8) */
    int newton_early;     /* conesim's own (`--set newton_early=0`): 1 (default), Newton takes no
                             step from a warm start that meets the tolerance (MuJoCo 3.12); 0,
                             at least one step (MuJoCo 3.3) */
    int threads;          /* conesim's own (`--threads`, `--set threads=N`): threads for the
                             contact islands, 0 = all cores; results do not depend on it */
    int contact;          /* conesim's own (`--contact`, `--set contact=`, in MJCF
                             <custom><text name="conesim:contact" data="coulomb"/>):
                             cs_contact_model, CS_CONTACT_SOFT by default (MuJoCo's meaning);
                             CS_CONTACT_COULOMB ignores solver, impratio and solimp (rows are
                             hard; solref sets the penetration recovery) */
    int coulomb_solver;   /* conesim's own (`--set coulomb_solver=`): the Coulomb model's
                             method, cs_coulomb_solver */
    int disableflags;     /* CS_DSBL_* */
    int enableflags;      /* CS_ENBL_* */
    int integrator;       /* cs_integrator: Euler (default), RK4 or implicitfast */
    double viscosity;     /* fluid viscosity: MuJoCo's inertia-box drag on every body,
                             -3 pi d mu (v - wind) and -pi d^3 mu w (0: none) */
    double wind[3];       /* the fluid's velocity (world) */
    double density;       /* fluid density: MuJoCo's inertia-box quadratic drag, -rho/2 A_k
                             |v_k| v_k along each box axis k and its torque (0: none) */
    double magnetic[3];   /* the global magnetic flux (world), 0 -0.5 0: what magnetometers
                             read */
    int disableactuator;  /* bit g set: actuators of group g (0..30) exert no force and their
                             activations hold (<option actuatorgroupdisable="g ...">) */
    int ccd_iterations;   /* 35: iteration cap of the convex colliders' MPR path */
    double ccd_tolerance; /* 1e-6: its tolerance */
    double meaninertia;   /* the solvers' scale of their stopping rules, MuJoCo's
                             stat.meaninertia (<statistic meaninertia>); 0: MuJoCo's, the
                             mean of diag(M) at qpos0 (dof_M0) */
} cs_option;

/* ---- model ---------------------------------------------------------------------------- */
/* joint types, MuJoCo's mjtJoint numbering */
typedef enum { CS_JNT_FREE = 0, CS_JNT_BALL = 1, CS_JNT_SLIDE = 2, CS_JNT_HINGE = 3 } cs_joint_type;
/* qpos and qvel sizes of a joint type */
int cs_jnt_nq(int type);
int cs_jnt_nv(int type);

typedef struct {
    char *modelname;
    char *path;           /* file the model came from (for messages) */
    int nbody, njnt, ngeom, nq, nv, npair, nexclude, nkey;
    int nconmax;          /* most contacts a step keeps, more are dropped with a warning:
                             <size nconmax>, else what fits in <size memory>, else in the
                             arena MuJoCo would guess (sim/mjcf_compile.c) */
    int ncon_reserve;     /* contacts the data holds room for from the start: nconmax when
                             <size nconmax> gives it (as MuJoCo reserves it), else a few; the
                             room grows as steps need, up to nconmax */
    cs_option opt;

    /* bodies (nbody) */
    int *body_parent;     /* parent body, -1 for the world */
    int *body_rootid;     /* the child of the world whose subtree holds the body */
    int *body_weldid;     /* nearest body with joints on the chain to the world (itself when
                             it has joints), 0 = static (welded to the world) */
    int *body_jntadr, *body_jntnum; /* the body's joints (adr -1 when none) */
    int *body_dofadr, *body_dofnum; /* the body's dofs (adr -1 when none) */
    int *body_simple;     /* MuJoCo's body_simple: 2 = slide joints only along body axes at
                             the body frame, no children, inertia at the body frame; 1 =
                             simple with rotations; 0 = general (used for invweight0) */
    int *body_geomadr, *body_geomnum;
    int *body_sameframe;  /* MuJoCo's mjtSameFrame: 1 = the inertial frame is within 1e-6 of
                             the body frame (and is taken as it), 3 = its orientation is, 0 =
                             neither (geom_ and site_sameframe: 2 and 4 = the inertial frame) */
    double *body_pos;     /* 3: frame relative to parent (qpos0 frame for free bodies) */
    double *body_quat;    /* 4 */
    double *body_ipos;    /* 3: inertial frame (COM) in the body frame */
    double *body_iquat;   /* 4: principal axes of inertia in the body frame */
    double *body_mass;
    double *body_inertia; /* 3: principal moments about the COM */
    double *body_gravcomp; /* share of the body's weight cancelled by a force at its COM
                              (MuJoCo's gravcomp; qfrc_gravcomp) */
    double *body_invweight0; /* 2: (translational, rotational) mean inverse inertia, docs/contact-math.md §8 */
    char **body_name;     /* NULL when unnamed */

    /* joints (njnt), MuJoCo's mjtJoint types and meanings */
    int *jnt_type;        /* cs_joint_type */
    int *jnt_qposadr, *jnt_dofadr, *jnt_bodyid;
    int *jnt_limited;     /* 1: range is enforced by a limit row */
    double *jnt_pos;      /* 3: anchor in the body frame */
    double *jnt_axis;     /* 3: unit axis in the body frame (hinge, slide) */
    double *jnt_range;    /* 2: slide (m), hinge (rad); ball: [0, max angle] */
    double *jnt_stiffness;/* spring towards qpos_spring: force -x (k + p0 x + p1 x^2), x the
                             stretch (a ball's rotation vector, a free joint's translation
                             and rotation, each with its own norm as x in the bracket) */
    double *jnt_stiffnesspoly; /* CS_NPOLY: p0, p1 above (MuJoCo 3.12's polynomial spring) */
    double *jnt_margin;   /* a limit row is made within this distance of the limit */
    double *jnt_solref;   /* 2: solreflimit */
    double *jnt_solimp;   /* 5: solimplimit */
    char **jnt_name;

    double *qpos0;        /* nq: the reference pose (free: body pos/quat; ball: identity;
                             hinge, slide: ref) */
    double *qpos_spring;  /* nq: where springs are at rest (springref; free, ball: qpos0) */

    /* degrees of freedom (nv) as a forest of kinematic trees: a dof's parent comes before
     * it and every tree's dofs are contiguous (MuJoCo's order). A free joint's 6 dofs are 3
     * translations along the world axes, then 3 rotations about the body's local axes; a
     * ball's 3 are rotations about the body's local axes; hinge and slide one each. The
     * mass matrix is stored over it (solver/mass.h). */
    int ntree, nM;
    int *dof_parent;      /* parent dof, -1 at a tree's root */
    int *dof_Madr;        /* start of the dof's row in qM */
    int *dof_treeid, *dof_bodyid, *dof_jntid;
    double *dof_armature; /* added to M's diagonal */
    double *dof_damping;  /* viscous: -damping qvel (implicit in Euler unless eulerdamp is off) */
    double *dof_dampingpoly; /* CS_NPOLY: force -v (damping + p0 |v| + p1 v^2) (MuJoCo 3.12) */
    double *dof_frictionloss; /* dry friction: a row bounded by +-frictionloss */
    double *dof_solref;   /* 2: solreffriction */
    double *dof_solimp;   /* 5: solimpfriction */
    double *dof_invweight0; /* inverse inertia at qpos0 (MuJoCo's), R for joint rows */
    int *tree_dofadr, *tree_dofnum; /* ntree */
    int *body_lastdof;    /* nbody: last dof of the chain that moves the body, -1 static */
    int *body_treeid;     /* nbody: -1 static */

    /* geoms (ngeom) */
    int *geom_type;       /* cs_geom_type (MuJoCo's mjtGeom codes) */
    int *geom_body;
    int *geom_contype, *geom_conaffinity, *geom_condim, *geom_priority, *geom_group;
    double *geom_size;    /* 3, MuJoCo's meaning per type (geom.h) */
    double *geom_pos;     /* 3, in the body frame */
    double *geom_quat;    /* 4 */
    int *geom_sameframe;  /* as body_sameframe */
    double *geom_friction;/* 3: slide, spin, roll */
    double *geom_solmix;
    double *geom_surfacevel; /* 6: the surface's velocity field in the geom frame, linear then
                                angular about the geom's origin (MuJoCo 3.12's conveyors and
                                turntables: contacts see the surface move, the geom does not) */
    double *geom_solref;  /* 2 */
    double *geom_solimp;  /* 5 */
    double *geom_margin, *geom_gap;
    double *geom_rgba;    /* 4 */
    double *geom_fluid;   /* 12: MuJoCo's ellipsoid fluid model (all 0 without fluidshape):
                             on, blunt/slender/angular drag, Kutta, Magnus coefficients,
                             virtual mass (3) and inertia (3) */
    double *geom_rbound;  /* bounding-sphere radius about the geom centre, 0 for planes */
    double *geom_mass;    /* mass the geom contributed (0 outside inertiagrouprange; before settotalmass) */
    char **geom_name;

    /* explicit contact pairs (npair), in document order */
    int *pair_geom1, *pair_geom2, *pair_condim;
    double *pair_friction;      /* 5 */
    double *pair_solref;        /* 2 */
    double *pair_solreffriction;/* 2 ("0 0" = use solref) */
    double *pair_solimp;        /* 5 */
    double *pair_margin, *pair_gap;
    char **pair_name;

    /* excluded body pairs (nexclude) */
    int *exclude_body1, *exclude_body2;

    /* keyframes (nkey) */
    double *key_time;
    double *key_qpos;     /* nq each (quaternions normalised) */
    double *key_qvel;     /* nv each */
    char **key_name;

    /* meshes (nmesh, from <mesh> assets): a mesh geom collides as its mesh's convex hull */
    int nmesh, nmeshvert, nmeshface, nmeshgraph, nmeshhull;
    int *geom_dataid;     /* ngeom: mesh of a mesh geom, -1 otherwise */
    int *mesh_vertadr, *mesh_vertnum; /* into mesh_vert (vertices) */
    int *mesh_faceadr, *mesh_facenum; /* into mesh_face (triangles) */
    int *mesh_graphadr;   /* into mesh_graph: the hull's ints (collision/hull.h layout) */
    int *mesh_hulladr;    /* into mesh_hull: the hull's doubles (collision/hull.h layout) */
    double *mesh_vert;    /* 3 per vertex, in the mesh frame (= the geom frame) */
    int *mesh_face;       /* 3 vertex indices (local to the mesh) per triangle */
    int *mesh_graph;
    double *mesh_hull;
    double *mesh_pos;     /* 3: the mesh frame (centre of mass) in the vertex data's frame */
    double *mesh_quat;    /* 4: its principal axes there */
    double *mesh_volume;  /* volume, or surface area for inertia="shell" */
    char **mesh_name;

    /* actuators (nu), MuJoCo's model and arrays, on joint (hinge, slide), tendon and
     * slider-crank transmissions: force = gain * (ctrl, or act when the actuator has
     * dynamics) + bias, with gain = gainprm[0] (+ gainprm[1] length + gainprm[2] velocity
     * when affine) and bias = biasprm[0] + biasprm[1] length + biasprm[2] velocity (affine,
     * else 0), length = gear[0] qpos of the joint (gear[0] ten_length; a slider-crank's
     * from its sites, sim/slidercrank.c), velocity = actuator_moment qvel; the dofs receive
     * actuator_moment^T force.
     * The shortcuts set these as MuJoCo's: motor gain 1; position gain kp, bias (0, -kp, -kv);
     * velocity gain kv, bias (0, 0, -kv) */
    int nu;               /* actuators (= controls) */
    int na;               /* activations: one per actuator with dynamics */
    int *actuator_trntype;   /* CS_TRN_JOINT, CS_TRN_TENDON, CS_TRN_SLIDERCRANK, CS_TRN_SITE
                                (mjtTrn); trnid: the joint, tendon, crank site or site, then
                                the slider site or reference site (-1: none) */
    int *actuator_dyntype;   /* 0 none, 1 integrator, 2 filter, 3 filterexact (mjtDyn) */
    int *actuator_gaintype;  /* 0 fixed, 1 affine (mjtGain) */
    int *actuator_biastype;  /* 0 none, 1 affine (mjtBias) */
    int *actuator_trnid;     /* 2: the joint or tendon, -1; a slider-crank's crank site and
                                slider site */
    int *actuator_actadr;    /* its activation in act, -1 when it has none */
    int *actuator_actnum;    /* 1 or 0 */
    int *actuator_ctrllimited, *actuator_forcelimited, *actuator_actlimited;
    int *actuator_actearly;  /* 1: the force uses the next step's activation */
    int *actuator_group;     /* its group; opt.disableactuator's bit for it (0..30) disables it */
    double *actuator_dynprm;  /* 10: filter time constant first */
    double *actuator_gainprm; /* 10 */
    double *actuator_biasprm; /* 10 (a position actuator's dampratio is already kv here) */
    double *actuator_ctrlrange, *actuator_forcerange, *actuator_actrange; /* 2 each */
    double *actuator_gear;    /* 6: gear[0] scales the transmission */
    double *actuator_cranklength; /* a slider-crank's rod length (others: 0) */
    char **actuator_name;
    double *dof_M0;       /* nv: M's diagonal at qpos0, armature included (dampratio's mass) */
    double *key_ctrl;     /* nu per key */
    double *key_act;      /* na per key */
    int *jnt_actfrclimited;   /* njnt: 1 = the actuators' total force on the joint (hinge,
                                 slide) is clamped to jnt_actfrcrange */
    double *jnt_actfrcrange;  /* 2 per joint (actuatorfrcrange) */
    int *jnt_actgravcomp;     /* njnt: 1 = the joint's share of qfrc_gravcomp is actuator
                                 force (clamped by actuatorfrcrange), not passive */
    int ngravcomp;            /* bodies with gravcomp != 0 */
    /* the free camera's framing, for viewers (no physics): <statistic extent center> (extent
     * 0 and center NaN when not given: computed from the bodies), <visual><global azimuth
     * elevation> (MuJoCo's 90, -45 degrees) */
    double stat_extent, stat_center[3];
    /* mocap bodies: children of the world without joints, posed by data (mocap_pos,
     * mocap_quat; static to the dynamics, as in MuJoCo) */
    int nmocap;
    int *body_mocapid;    /* nbody: index into mocap_pos / mocap_quat, -1 for other bodies */
    double *key_mpos, *key_mquat; /* 3 / 4 nmocap per key (default: the body's pose) */
    double vis_azimuth, vis_elevation;
    long nchange;         /* cs_set calls that changed the model (data made before one
                             rebuild their copies at their next forward) */

    /* sites (nsite): named frames on bodies */
    int nsite;
    int *site_bodyid;
    double *site_pos, *site_quat; /* 3, 4: in the body's frame */
    int *site_sameframe;      /* as body_sameframe */
    int *site_type;           /* cs_geom_type (sphere, capsule, ellipsoid, cylinder, box): the
                                 zone touch, contact and insidesite sensors test */
    double *site_size;        /* 3: MuJoCo's meaning per type (default 0.005 sphere) */
    char **site_name;

    /* sensors (nsensor), MuJoCo's mjtSensor and arrays (sim/sensor.c computes them into
     * sensordata[sensor_adr .. + sensor_dim]) */
    int nsensor, nsensordata;
    int nuser_sensor;         /* columns of sensor_user */
    int *sensor_type;         /* cs_sensor_type */
    int *sensor_datatype;     /* cs_sensor_datatype: what cutoff clamps */
    int *sensor_needstage;    /* cs_stage: the step's stage whose results it reads */
    int *sensor_objtype, *sensor_objid; /* cs_obj: what it is attached to (-1 / 0: none) */
    int *sensor_reftype, *sensor_refid; /* its reference frame or second object */
    int *sensor_intprm;       /* 3: contact: data bits, reduce, num; rangefinder: data bits */
    int *sensor_dim, *sensor_adr;
    double *sensor_cutoff;    /* > 0: values clamped to it (real: +-cutoff; positive: above) */
    double *sensor_noise;     /* the noise's standard deviation: kept, not added (as MuJoCo) */
    double *sensor_user;      /* nuser_sensor per sensor, 0 past what the MJCF gave */
    char **sensor_name;

    /* tendons (ntendon), MuJoCo's: a fixed one's length is the sum of coef * qpos over its
     * joints (hinge, slide), its Jacobian the coefficients on their dofs; a spatial one's
     * the length of its path through its sites, wrapped over the sphere and cylinder geoms
     * between two sites, a pulley dividing the length of the branch after it. An actuator with
     * actuator_trntype CS_TRN_TENDON pulls on one (moment gear[0] ten_J). */
    int ntendon, nwrap;
    int *tendon_adr, *tendon_num; /* its path: wrap_*[adr .. adr + num) */
    int *wrap_type;           /* nwrap: CS_WRAP_JOINT (a fixed tendon's), or a spatial
                                 tendon's CS_WRAP_SITE, CS_WRAP_SPHERE / CS_WRAP_CYLINDER (a
                                 geom wrapped between the sites around it), CS_WRAP_PULLEY */
    int *wrap_objid;          /* nwrap: the joint, site or geom (pulleys: -1) */
    double *wrap_prm;         /* nwrap: the joint's coefficient, a geom's sidesite (-1: none),
                                 a pulley's divisor (sites: 0) */
    int *tendon_limited;      /* 1: range is enforced by limit rows */
    double *tendon_range;     /* 2 */
    double *tendon_margin;
    double *tendon_solref_lim, *tendon_solimp_lim; /* 2, 5 */
    double *tendon_solref_fri, *tendon_solimp_fri; /* 2, 5 */
    double *tendon_frictionloss; /* dry friction: a row bounded by +-frictionloss */
    double *tendon_stiffness, *tendon_damping;
    double *tendon_stiffnesspoly, *tendon_dampingpoly; /* CS_NPOLY each, as the joints' */
    double *tendon_lengthspring; /* 2: no spring force between them (a dead band) */
    double *tendon_length0;   /* length at qpos0 */
    double *tendon_invweight0;/* J M^-1 J^T at qpos0: R of the tendon's rows */
    char **tendon_name;

    /* equality constraints (neq), MuJoCo's mjtEq and eq_data layout */
    int neq;
    int *eq_type;             /* cs_eq_type */
    int *eq_obj1id, *eq_obj2id; /* bodies or sites (connect, weld), joints, tendons; obj2 -1:
                                   none (joint, tendon), body 0 = the world */
    int *eq_objtype;          /* cs_obj_type of obj1 and obj2: CS_OBJ_BODY or CS_OBJ_SITE for
                                 connect and weld (sites: the sites' frames are the anchors) */
    int *eq_active0;          /* active at reset */
    double *eq_solref, *eq_solimp; /* 2, 5 */
    double *eq_data;          /* 11: connect: anchor in body1, anchor in body2 (at qpos0);
                                 weld: anchor in body2, relpose pos (in body1) and quat,
                                 torquescale; joint, tendon: polycoef (5) */
    char **eq_name;

    /* visual only (no physics; MuJoCo's names): materials, textures, lights, cameras and
     * each geom's material, for viewers. geom_matid -1: none. A texture's texels are
     * tex_data[tex_adr ...], one int each, 0xRRGGBB, rows top first (cube and skybox
     * textures: height = 6 x width, faces +x -x +y -y +z -z, or one face when height =
     * width). mat_texid: the material's rgb texture (-1 none). Lights and cameras:
     * *_mode fixed 0, track 1, trackcom 2, targetbody 3, targetbodycom 4 (mjtCamLight);
     * pos, dir/quat in the body's frame; *_pos0 and cam_mat0 the world pose at qpos0,
     * *_poscom0 the offset from the subtree's centre of mass there (tracking modes). */
    int nmat, ntex, ntexdata, nlight, ncam;
    int *geom_matid;
    int *mat_texid, *mat_texuniform;
    double *mat_texrepeat;    /* 2 */
    double *mat_rgba;         /* 4 */
    double *mat_emission, *mat_specular, *mat_shininess, *mat_reflectance;
    char **mat_name;
    int *tex_type;            /* 0 2d, 1 cube, 2 skybox (mjtTexture) */
    int *tex_width, *tex_height, *tex_adr;
    int *tex_data;            /* ntexdata texels, 0xRRGGBB */
    char **tex_name;
    int *light_mode, *light_bodyid, *light_targetbodyid, *light_directional;
    int *light_castshadow, *light_active;
    double *light_pos, *light_dir, *light_pos0, *light_dir0, *light_poscom0; /* 3 each */
    double *light_ambient, *light_diffuse, *light_specular, *light_attenuation; /* 3 each */
    double *light_cutoff, *light_exponent;
    char **light_name;
    int *cam_mode, *cam_bodyid, *cam_targetbodyid;
    double *cam_pos, *cam_quat, *cam_fovy;    /* 3, 4, 1 (degrees) */
    double *cam_pos0, *cam_poscom0, *cam_mat0; /* 3, 3, 9 */
    char **cam_name;

    void *buffer;         /* every array above in one block (sim/model_fields.h lists them) */
    size_t nbuffer;       /* its bytes */
} cs_model;

/* actuator_trntype (MuJoCo's mjtTrn) */
enum { CS_TRN_JOINT = 0, CS_TRN_SLIDERCRANK = 2, CS_TRN_TENDON = 3, CS_TRN_SITE = 4 };

/* sensors, MuJoCo's numbering (mjtSensor, mjtObj, mjtStage, mjtDataType, mjtConDataType,
 * mjtRayDataType); the kinds conesim does not have (camprojection, tactile, plugin) keep
 * their numbers and are refused by the loader */
typedef enum {
    CS_SENS_TOUCH = 0, CS_SENS_ACCELEROMETER, CS_SENS_VELOCIMETER, CS_SENS_GYRO,
    CS_SENS_FORCE, CS_SENS_TORQUE, CS_SENS_MAGNETOMETER, CS_SENS_RANGEFINDER,
    CS_SENS_CAMPROJECTION, CS_SENS_JOINTPOS, CS_SENS_JOINTVEL, CS_SENS_TENDONPOS,
    CS_SENS_TENDONVEL, CS_SENS_ACTUATORPOS, CS_SENS_ACTUATORVEL, CS_SENS_ACTUATORFRC,
    CS_SENS_JOINTACTFRC, CS_SENS_TENDONACTFRC, CS_SENS_BALLQUAT, CS_SENS_BALLANGVEL,
    CS_SENS_JOINTLIMITPOS, CS_SENS_JOINTLIMITVEL, CS_SENS_JOINTLIMITFRC,
    CS_SENS_TENDONLIMITPOS, CS_SENS_TENDONLIMITVEL, CS_SENS_TENDONLIMITFRC,
    CS_SENS_FRAMEPOS, CS_SENS_FRAMEQUAT, CS_SENS_FRAMEXAXIS, CS_SENS_FRAMEYAXIS,
    CS_SENS_FRAMEZAXIS, CS_SENS_FRAMELINVEL, CS_SENS_FRAMEANGVEL, CS_SENS_FRAMELINACC,
    CS_SENS_FRAMEANGACC, CS_SENS_SUBTREECOM, CS_SENS_SUBTREELINVEL, CS_SENS_SUBTREEANGMOM,
    CS_SENS_INSIDESITE, CS_SENS_GEOMDIST, CS_SENS_GEOMNORMAL, CS_SENS_GEOMFROMTO,
    CS_SENS_CONTACT, CS_SENS_E_POTENTIAL, CS_SENS_E_KINETIC, CS_SENS_CLOCK,
    CS_SENS_TACTILE, CS_SENS_PLUGIN, CS_SENS_USER
} cs_sensor_type;
typedef enum {
    CS_OBJ_UNKNOWN = 0, CS_OBJ_BODY = 1 /* its inertial frame */, CS_OBJ_XBODY = 2 /* its
    frame; for contact sensors: its subtree */, CS_OBJ_JOINT = 3, CS_OBJ_GEOM = 5,
    CS_OBJ_SITE = 6, CS_OBJ_CAMERA = 7, CS_OBJ_TENDON = 18, CS_OBJ_ACTUATOR = 19
} cs_obj;
typedef enum { CS_STAGE_NONE = 0, CS_STAGE_POS, CS_STAGE_VEL, CS_STAGE_ACC } cs_stage;
typedef enum {
    CS_DATATYPE_REAL = 0, CS_DATATYPE_POSITIVE, CS_DATATYPE_AXIS, CS_DATATYPE_QUATERNION
} cs_sensor_datatype;
/* a contact sensor's data bits (sensor_intprm[0]) and sizes: found 1, force 3, torque 3,
 * dist 1, pos 3, normal 3, tangent 3; its reduce (intprm[1]): 0 none, 1 mindist, 2
 * maxforce, 3 netforce; num (intprm[2]) slots */
enum { CS_CONDATA_FOUND = 0, CS_CONDATA_FORCE, CS_CONDATA_TORQUE, CS_CONDATA_DIST,
       CS_CONDATA_POS, CS_CONDATA_NORMAL, CS_CONDATA_TANGENT, CS_NCONDATA };
/* a rangefinder's data bits (intprm[0]): dist 1, dir 3, origin 3, point 3, normal 3,
 * depth 1 */
enum { CS_RAYDATA_DIST = 0, CS_RAYDATA_DIR, CS_RAYDATA_ORIGIN, CS_RAYDATA_POINT,
       CS_RAYDATA_NORMAL, CS_RAYDATA_DEPTH, CS_NRAYDATA };
/* wrap_type (MuJoCo's mjtWrap) */
enum { CS_WRAP_JOINT = 1, CS_WRAP_PULLEY = 2, CS_WRAP_SITE = 3, CS_WRAP_SPHERE = 4,
       CS_WRAP_CYLINDER = 5 };
typedef enum { CS_EQ_CONNECT = 0, CS_EQ_WELD = 1, CS_EQ_JOINT = 2, CS_EQ_TENDON = 3 } cs_eq_type;
#define CS_NEQDATA 11
#define CS_NPOLY 2 /* higher-order stiffness and damping coefficients (MuJoCo's mjNPOLY) */

/* ---- data ------------------------------------------------------------------------------- */
typedef enum {
    CS_CZONE_NONE = -1,    /* detected in the gap beyond the margin: not in the solver */
    CS_CZONE_TOP = 0, CS_CZONE_BOTTOM = 1, CS_CZONE_MIDDLE = 2,
    CS_CZONE_PYRAMID = 3, CS_CZONE_NORMAL = 4,
    CS_CZONE_SEPARATE = 5, CS_CZONE_STICK = 6, CS_CZONE_SLIDE = 7 /* the Coulomb model's */
} cs_contact_zone;

/* One contact, filled by collision (geometry, mixed parameters) and the solver (force, vel,
 * zone). frame rows: normal (geom1 -> geom2), t1, t2, as MuJoCo's contact frame. */
typedef struct {
    double pos[3];
    double frame[9];
    double dist;          /* signed, negative = penetration */
    int geom1, geom2;
    int dim;              /* condim 1, 3, 4, 6 */
    int exclude;          /* 1: in the gap beyond the margin, kept out of the solver */
    double friction[5];
    double solref[2];
    double solreffriction[2];
    double solimp[5];
    double margin, gap;
    int efc_address;      /* first constraint row, -1 if none */
    double force[6];      /* contact frame: normal, then friction in condim order */
    double vel[6];        /* relative velocity of geom2 wrt geom1, contact frame */
    int zone;             /* cs_contact_zone */
} cs_contact;

typedef struct {
    int iterations;
    int at_limit;         /* 1: stopped by the iteration limit, not by the tolerance */
    double cost;          /* primal cost at the solution */
    double dual_cost;     /* dual cost at the solution (their sum is 0 at the optimum) */
    double improvement;   /* last scaled cost improvement */
    double primal_feas, stationarity, complementarity; /* residuals */
    int nisland;
    int noslip;           /* most sweeps of the noslip pass in an island (not in iterations) */
} cs_solver_stat;

/* warning counts: contacts dropped because data->contact was full; steps whose mass matrix
 * was not positive definite; steps that ran without memory they needed (their contacts are
 * missing: the results are wrong from there on); steps whose controls were not all finite
 * (all controls were taken as 0, as MuJoCo does) */
enum { CS_WARN_CONTACTFULL = 0, CS_WARN_BADQACC = 1, CS_WARN_NOMEM = 2, CS_WARN_BADCTRL = 3,
       CS_NWARN = 4 };

typedef struct {
    double time;
    double energy[2];     /* potential, kinetic (MuJoCo's order), with the energy flag; else 0 */
    double *qpos;         /* nq */
    double *qvel;         /* nv */
    double *qacc;         /* nv: constrained acceleration of the last step */
    double *qacc_smooth;  /* nv: unconstrained a0 = M^-1 qfrc_smooth */
    double *qacc_warmstart; /* nv: previous step's qacc (warm start) */
    double *qfrc_applied; /* nv: user generalized forces */
    double *xfrc_applied; /* 6 per body: world force, world torque at the body's COM */
    double *qfrc_bias;    /* nv: Coriolis/gyroscopic minus gravity (MuJoCo's sign: M a = f - bias) */
    double *qfrc_gravity; /* nv: generalized gravity force (already inside qfrc_bias) */
    double *qfrc_passive; /* nv: joint springs and dampers, gravity compensation */
    double *qfrc_gravcomp; /* nv: gravity compensation (in qfrc_passive, or in qfrc_actuator
                              for joints with actuatorgravcomp) */
    double *qfrc_smooth;  /* nv: qfrc_applied + J^T xfrc_applied + qfrc_passive - qfrc_bias */
    double *qfrc_constraint; /* nv: J^T f from the solver */
    double *qfrc_inverse;  /* nv: cs_inverse's force: the applied, actuator and external
                              forces that give qacc (MuJoCo's) */

    /* kinematics (per body) */
    double *xpos;         /* 3 */
    double *xquat;        /* 4 */
    double *xmat;         /* 9 */
    double *xipos;        /* 3: COM in world */
    double *ximat;        /* 9: principal inertia axes in world */
    cs_pose *geom_xpose;  /* per geom world pose */

    /* joints */
    double *xanchor;      /* 3 per joint: world position of the joint's anchor */
    double *xaxis;        /* 3 per joint: world axis (hinge, slide) */

    /* dofs */
    double *dof_xaxis;    /* 3 per dof: world axis of the dof's motion */
    double *dof_xanchor;  /* 3 per dof: a world point on a rotation's axis */
    double *cdof;         /* 6 per dof: motion (angular, linear) of a unit dof velocity, at the
                             tree's reference point (the root body's origin) */
    double *cvel;         /* 6 per body: its motion at the same point */
    /* the mass matrix, factored in the smooth stage (solver/mass.h's layout) */
    double *qM, *qLD;     /* nM */
    double *qLDiagInv;    /* nv */
    struct cs_mass *mass; /* the operator over them and the model's tree arrays (internal) */
    /* M + h diag(damping) and its factor, for implicit damping in the Euler step (M - h D,
     * D = d qfrc_smooth / d qvel without the bias term, for implicitfast) */
    double *qH, *qHLD, *qHDiagInv;
    double *qacc_implicit; /* nv: the implicit step's acceleration (Euler with damping,
                              implicitfast) */
    double *qDeriv;       /* nv: implicitfast's d qfrc_smooth / d qvel (diagonal: dof damping
                             and joint actuators) */
    struct cs_mass *massH;
    /* smooth-stage scratch (per body: composite inertia 13, bias acceleration and force 6;
     * per dof: cdof's time derivative 6) */
    double *crb, *cacc, *cfrc, *cdofdot;

    /* contacts (collision fills) */
    int ncon;
    int ncon_cap;         /* room in contact[] and rawcon[]: grows as a step needs, up to
                             the model's nconmax */
    cs_contact *contact;  /* ncon_cap */

    /* constraint rows of the step: one block per contact that enters the solver, sized by
     * the step, storage reused (their layout is internal: solver/rows.h in the source) */
    int nefc;             /* rows in all blocks */
    struct cs_efc *efc;
    cs_solver_stat solver;

    int solver_stats;     /* set to 1 for the residual statistics of d->solver and
                             cs_solver_island (costs a little time per step) */
    int warning[CS_NWARN];/* counts, e.g. contacts dropped because data->contact was full */

    /* module contexts, created with the data (they hold the scratch a step needs) */
    struct cs_collision *collision;      /* broad/narrow phase (collision/collision.h) */
    struct cs_geom_contact *rawcon;      /* ncon_cap: contacts as collision/ reports them */
    struct cs_solver_ws *solver_ws;      /* PGS / Newton workspace (solver/solver.h) */
    double *jac;                         /* scratch: 2 sides x 6 x (largest tree) point
                                            Jacobians, then 1 x nv for a joint row */

    /* actuation (MuJoCo's names): the controls are the user's; the rest is the step's */
    double *ctrl;             /* nu: controls, clamped to ctrlrange when used (not here) */
    double *mocap_pos;        /* 3 per mocap body: its world position (set between steps) */
    double *mocap_quat;       /* 4 per mocap body: its world orientation (normalised when
                                 used) */
    double *act;              /* na: activations (actuators with dynamics) */
    double *act_dot;          /* na: their time derivatives */
    double *actuator_length;  /* nu: the transmission's length, gear[0] included */
    double *actuator_velocity;/* nu: actuator_moment qvel */
    double *actuator_force;   /* nu: the scalar force, clamped to forcerange */
    double *actuator_moment;  /* nu x nv, dense: d actuator_length / d q (gear included);
                                 qfrc_actuator is its transpose times actuator_force */
    double *qfrc_actuator;    /* nv: gear[0] force on each joint (inside qfrc_smooth) */
    double *rk4;              /* RK4's stages: 4 (nq + 2 nv + 2 na) + 2 nv + na */
    long nchange;             /* the model's nchange this data follows (sim/setter.c) */

    /* sites, tendons and equality constraints */
    double *site_xpos;        /* 3 per site: world position */
    double *site_xmat;        /* 9 per site: world orientation */
    double *ten_length;       /* ntendon */
    double *ten_velocity;     /* ntendon: ten_J qvel */
    double *ten_J;            /* ntendon x nv, dense */
    int *eq_active;           /* neq: 1 = the constraint enters the solver (from eq_active0
                                 at reset; the user may switch it) */
    double *eq_scratch;       /* 24 nv: an equality's or tendon's Jacobians while its rows
                                 are made */

    /* sensors (sim/sensor.c): their values, and what they are made from */
    double *sensordata;       /* nsensordata */
    double *subtree_com;      /* 3 per body: centre of mass of its subtree (MuJoCo's) */
    double *subtree_linvel;   /* 3 per body: linear velocity of that centre */
    double *subtree_angmom;   /* 3 per body: angular momentum of the subtree about it */
    double *sens_vel, *sens_acc; /* 6 per body: angular, linear velocity and acceleration of
                                    the body's motion at the world origin (gravity as -g at
                                    the world, as MuJoCo's cacc) */
    double *sens_frc, *sens_ext; /* 6 per body: torque, force at the world origin: what the
                                    subtree takes from its parent (MuJoCo's cfrc_int), and the
                                    external forces on the body (cfrc_ext) */

    void *buffer;             /* the arrays sized by the model, in one block (sim/data_fields.h
                                 lists them) */
    size_t nbuffer;           /* its bytes */
} cs_data;

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
void cs_free_model(cs_model *m);
/* Override one <option> attribute by its MJCF name ("timestep", "cone", "solver",
 * "impratio", "iterations", "gravity", "o_solref", ..., any member of cs_option; a keyword
 * option takes its word or its number; "flag.NAME" = enable|disable; an "option." prefix is
 * accepted). Use between loading and cs_make_data; later, cs_set_text
 * (data made earlier then follow). Returns 0, or -1 with a message in err. */
int cs_option_set(cs_option *o, const char *name, const char *value, char *err, size_t errsz);

/* ---- changing the model between steps (sim/setter.c), as MuJoCo's mjModel ------------
 * One parameter by name; data made earlier follow at their next step. Names:
 *   option.NAME[K] (also opt.NAME, or NAME alone): every member of cs_option (the list
 *     cs_option_field walks), e.g. timestep, gravity[3], wind[3], viscosity, impratio,
 *     tolerance, iterations, o_solref[2], threads, disableflags; the keyword options by
 *     MuJoCo's number: cone (0 pyramidal, 1 elliptic), solver (0 PGS, 1 CG, 2 Newton),
 *     integrator (0 Euler, 1 RK4, 3 implicitfast), contact (0 soft, 1 coulomb), pgs_blocks
 *     (0 contact, 1 pair); flag.NAME (1 = the feature on, 0 = off, as <flag NAME="enable|
 *     disable">)
 *   geom.G.friction[3], solref[2], solimp[5], solmix, margin, gap, size[3] (its bounding
 *     radius follows; not a mesh's; mass and inertia do not follow, as in MuJoCo), pos[3],
 *     rgba[4], condim, priority, contype, conaffinity
 *   body.B.mass, inertia[3] (principal moments; the inverse weights and dof_M0 follow),
 *     pos[3] (a free body's qpos0 and keyframe starts follow)
 *   joint.J.damping, armature, frictionloss (one per dof of the joint: [K] picks one,
 *     without it a ball's or free joint's need all), solreffriction[2], solimpfriction[5],
 *     stiffness, range[2] (radians for hinges), margin, solreflimit[2], solimplimit[5]
 *     (also jnt.J...)
 *   actuator.A.gainprm[10], biasprm[10], dynprm[10], gear[6], ctrlrange[2], forcerange[2],
 *     actrange[2]
 *   pair.P.friction[5], solref[2], solreffriction[2], solimp[5], margin, gap, condim
 * G, B, J, A, P: an element's name, or its id. [K] names one element of a vector; without
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

/* ---- writing the settable arrays in place (sim/model_watch.c) -----------------------
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
 * no such mesh. */
typedef struct {
    int nvert, nface;
    const double *vert;
    const int *faceadr, *facevert;
} cs_mesh_hull;
int cs_mesh_hull_get(const cs_model *m, int mesh, cs_mesh_hull *out);

/* ---- data (sim/data.c) ------------------------------------------------------------------ */
cs_data *cs_make_data(const cs_model *m);  /* reset to qpos0, zero velocity, then forward;
                                              NULL when out of memory */
void cs_free_data(cs_data *d);
void cs_reset(const cs_model *m, cs_data *d);
int cs_reset_key(const cs_model *m, cs_data *d, int key); /* 0 ok, -1 bad index */
int cs_name2id_body(const cs_model *m, const char *name);  /* -1 if absent */
int cs_name2id_geom(const cs_model *m, const char *name);

/* ---- copies and state (sim/copy.c, sim/state.c), as MuJoCo's mj_copyModel, mj_copyData
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
    CS_STATE_WARMSTART = 1 << 4,    /* nv: qacc_warmstart, the solver's warm start */
    CS_STATE_CTRL = 1 << 5,         /* nu */
    CS_STATE_QFRC_APPLIED = 1 << 6, /* nv */
    CS_STATE_XFRC_APPLIED = 1 << 7, /* 6 nbody */
    CS_STATE_EQ_ACTIVE = 1 << 8,    /* neq */
    CS_STATE_MOCAP_POS = 1 << 9,    /* 3 nmocap */
    CS_STATE_MOCAP_QUAT = 1 << 10,  /* 4 nmocap */
    CS_NSTATE = 11,
    CS_STATE_PHYSICS = CS_STATE_QPOS | CS_STATE_QVEL | CS_STATE_ACT,
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

/* ---- the step (sim/step.c) ---------------------------------------------------------- */
void cs_step(const cs_model *m, cs_data *d);     /* all stages + integrate */
void cs_forward(const cs_model *m, cs_data *d);  /* all stages, no integration */
/* Stages in order; each reads and writes data only. */
void cs_kinematics(const cs_model *m, cs_data *d);  /* xpos, xquat, xmat, xipos, geom poses */
void cs_collide(const cs_model *m, cs_data *d);     /* contacts (collision/, sim/collide.c) */
void cs_smooth(const cs_model *m, cs_data *d);      /* M, factor, bias, qacc_smooth */
void cs_constraint(const cs_model *m, cs_data *d);  /* rows + solve + store -> qacc
                                                       (sim/constraint.c) */
/* Contact i's force in its contact frame, in condim order (normal, t1, t2, spin, roll1,
 * roll2; unused entries 0), as MuJoCo's mj_contactForce. */
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
 * on site_bodyid): MuJoCo's mj_jacBody, mj_jacBodyCom, mj_jacSite (sim/jac_frames.c) */
void cs_jac_body(const cs_model *m, const cs_data *d, int body, double *jacp, double *jacr);
void cs_jac_body_com(const cs_model *m, const cs_data *d, int body, double *jacp,
                     double *jacr);
void cs_jac_site(const cs_model *m, const cs_data *d, int site, double *jacp, double *jacr);
/* Inverse dynamics (MuJoCo's mj_inverse, sim/inverse.c): from qpos, qvel and the given
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
 * computed, its warning counts as they were. 0, or -1 (eps not positive, out of memory). */
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

/* ---- recording (sim/record.c) ------------------------------------------------------- */
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
/* a tendon's / equality constraint's name, else "tendon<i>" / "equality<i>" */
const char *cs_tendon_label(const cs_model *m, int t, char *buf, size_t bufsz);
const char *cs_eq_label(const cs_model *m, int e, char *buf, size_t bufsz);

/* ---- fields by name (sim/fields.c), for bindings that must not copy the layouts ------ */
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

/* ---- batch rollouts (sim/rollout.c), as MuJoCo's rollout module ------------------------ */
/* The length of one state: [time, qpos (nq), qvel (nv), act (na)] = 1 + nq + nv + na
 * (cs_state_size of CS_STATE_FULLPHYSICS). */
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

/* ---- small math used across sim/ (sim/mathutil.c) ----------------------------------- */
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
