/* conesim's model: the options (cs_option, MJCF <option>) and cs_model, compiled from MJCF
 * and never changed by a step (its documented parameters change between steps through
 * cs_set only), as MuJoCo's mjmodel.h. Included by conesim.h, which describes the layouts. */
#ifndef CS_MODEL_H
#define CS_MODEL_H

#include <stddef.h>

#include "geom.h"      /* cs_geom_type, cs_pose */
#include "cone_type.h" /* cs_cone_type */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options (MJCF <option>, MuJoCo's numbering of enums) ------------------------- */
typedef enum { CS_SOLVER_PGS = 0, CS_SOLVER_CG = 1, CS_SOLVER_NEWTON = 2 } cs_solver_type;
typedef enum { CS_PGS_CONTACT = 0, CS_PGS_PAIR = 1 } cs_pgs_blocks;
/* integrators, MuJoCo's mjtIntegrator numbering */
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
    CS_ENBL_ENERGY = 1 << 1, /* d->energy computed at every step */
    CS_ENBL_SLEEP = 1 << 2   /* trees at rest sleep: MuJoCo 3.12's <flag sleep> (sim/engine/sleep.c) */
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
    int integrator;       /* cs_integrator: Euler (default), RK4, implicit or implicitfast */
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
    double sleep_tolerance; /* 1e-3: with CS_ENBL_SLEEP, a tree whose velocities, weighted by
                               dof_length, stay below this for CS_MINAWAKE steps may sleep */
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
                             arena MuJoCo would guess (sim/mjcf/mjcf_compile.c) */
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
    int *tree_bodyadr, *tree_bodynum; /* ntree: each tree's bodies (contiguous) */
    int *tree_sleep_policy; /* ntree: cs_sleep_policy (<body sleep> on the root, else the
                               loader's choice: an actuated tree never sleeps) */
    double *dof_length;   /* nv: 1 for a translation; for a rotation the body's length scale
                             (MuJoCo's), which turns angular velocity into a speed for
                             sleep_tolerance */
    int *tendon_treenum, *tendon_treeid; /* ntendon, 2 ntendon: the (up to two) trees a
                                            tendon spans (-1 none) */
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
    double *geom_adhesion; /* attraction of the geom's contacts (N), summed over the two geoms
                              (a higher priority's alone) */
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
    double *pair_adhesion; /* the pair's contacts' attraction (N), in place of the geoms' */
    char **pair_name;

    /* excluded body pairs (nexclude) */
    int *exclude_body1, *exclude_body2;

    /* keyframes (nkey) */
    double *key_time;
    double *key_qpos;     /* nq each (quaternions normalised) */
    double *key_qvel;     /* nv each */
    char **key_name;

    /* meshes (nmesh, from <mesh> assets): a mesh geom collides as its mesh's convex hull */
    int nmesh, nmeshvert, nmeshface, nmeshgraph, nmeshhull, nmeshtexcoord;
    int *geom_dataid;     /* ngeom: mesh of a mesh geom, height field of an hfield geom, -1
                           * otherwise */
    int *mesh_vertadr, *mesh_vertnum; /* into mesh_vert (vertices) */
    int *mesh_faceadr, *mesh_facenum; /* into mesh_face (triangles) */
    int *mesh_graphadr;   /* into mesh_graph: the hull's ints (collision/hull.h layout);
                             -1: no hull (no geom can collide with the mesh, as MuJoCo) */
    int *mesh_hulladr;    /* into mesh_hull: the hull's doubles (collision/hull.h layout);
                             -1 with mesh_graphadr */
    double *mesh_vert;    /* 3 per vertex, in the mesh frame (= the geom frame) */
    int *mesh_face;       /* 3 vertex indices (local to the mesh) per triangle */
    int *mesh_graph;
    double *mesh_hull;
    double *mesh_pos;     /* 3: the mesh frame (centre of mass) in the vertex data's frame */
    double *mesh_quat;    /* 4: its principal axes there */
    double *mesh_volume;  /* volume, or surface area for inertia="shell" */
    /* texture coordinates (OBJ vt, MSH, the texcoord attribute; MuJoCo's layout): a mesh's
     * first in mesh_texcoord (-1: it has none) and count; 2 per coordinate (u, v from the
     * image's top row); per triangle the 3 coordinate indices (local to the mesh) of its
     * corners, 0 for a mesh without coordinates */
    int *mesh_texcoordadr, *mesh_texcoordnum;
    double *mesh_texcoord;
    int *mesh_facetexcoord;
    char **mesh_name;

    /* height fields (nhfield, from <hfield> assets; MuJoCo's layout): an hfield geom is the
     * grid of nrow x ncol elevations over [-size0, size0] x [-size1, size1] of its frame,
     * row r at y = -size1 + 2 size1 r / (nrow - 1), column c at x likewise, the surface at
     * z = data size2 above a base at z = -size3 */
    int nhfield, nhfielddata;
    double *hfield_size;  /* 4: radius x, radius y, elevation z, base z */
    int *hfield_nrow, *hfield_ncol;
    int *hfield_adr;      /* into hfield_data */
    double *hfield_data;  /* nrow x ncol each, row-major, in [0, 1] (MuJoCo's floats, widened) */
    char **hfield_name;

    /* actuators (nactuator), MuJoCo's model and arrays, on joint (hinge, slide), tendon and
     * slider-crank transmissions: force = gain * (ctrl, or act when the actuator has
     * dynamics) + bias, with gain = gainprm[0] (+ gainprm[1] length + gainprm[2] velocity
     * when affine) and bias = biasprm[0] + biasprm[1] length + biasprm[2] velocity (affine,
     * else 0), length = gear[0] qpos of the joint (gear[0] ten_length; a slider-crank's
     * from its sites, sim/engine/slidercrank.c), velocity = actuator_moment qvel; the dofs receive
     * actuator_moment^T force.
     * The shortcuts set these as MuJoCo's: motor gain 1; position gain kp, bias (0, -kp, -kv);
     * velocity gain kv, bias (0, 0, -kv) */
    int nactuator;        /* actuators */
    int nu;               /* controls (MuJoCo 3.12's nu = dim ctrl): each actuator's block of
                             ctrlnum of them starts at its ctrladr (one for most; pid and
                             dcmotor input signatures: 0 to 4) */
    int nout;             /* force outputs (MuJoCo 3.12's): one per actuator, three for an
                             orientation servo; actuator i's are actuator_outnum[i] from
                             actuator_outadr[i] in the data's actuator_length, _velocity,
                             _force and _moment */
    int na;               /* activations: one per actuator with dynamics (a DC motor's or
                             pid's: one per state) */
    int *actuator_trntype;   /* CS_TRN_JOINT, CS_TRN_TENDON, CS_TRN_SLIDERCRANK, CS_TRN_SITE
                                (mjtTrn); trnid: the joint, tendon, crank site or site, then
                                the slider site or reference site (-1: none) */
    int *actuator_dyntype;   /* 0 none, 1 integrator, 2 filter, 3 filterexact, 4 muscle
                                (mjtDyn) */
    int *actuator_gaintype;  /* 0 fixed, 1 affine, 2 muscle (mjtGain) */
    int *actuator_biastype;  /* 0 none, 1 affine, 2 muscle (mjtBias) */
    int *actuator_trnid;     /* 2: the joint or tendon, -1; a slider-crank's crank site and
                                slider site */
    int *actuator_actadr;    /* its activation in act, -1 when it has none */
    int *actuator_actnum;    /* its activations */
    int *actuator_ctrladr;   /* its first control in ctrl */
    int *actuator_ctrlnum;   /* its controls */
    int *actuator_ctrlspec;  /* its input signature (CS_INPUT_* bits; 0: the plain one; an
                                orientation servo's CS_CHART_*) */
    int *actuator_outadr, *actuator_outnum; /* its force outputs */
    int *actuator_ctrllimited; /* nu: per control */
    int *actuator_forcelimited, *actuator_actlimited;
    int *actuator_actearly;  /* 1: the force uses the next step's activation */
    int *actuator_group;     /* its group; opt.disableactuator's bit for it (0..30) disables it */
    double *actuator_dynprm;  /* 10: filter time constant first */
    double *actuator_gainprm; /* 10 */
    double *actuator_biasprm; /* 10 (a position actuator's dampratio is already kv here) */
    double *actuator_ctrlrange; /* 2 per control (nu) */
    double *actuator_forcerange, *actuator_actrange; /* 2 each */
    double *actuator_gear;    /* 6: gear[0] scales the transmission */
    double *actuator_cranklength; /* a slider-crank's rod length (others: 0) */
    double *actuator_lengthrange; /* 2: the transmission's length range (muscles' scale) */
    double *actuator_acc0;        /* |M^-1 moment| at qpos0 (a muscle's force = scale / acc0
                                     when its force is not given) */
    /* MuJoCo 3.12: damping (force -v (damping + p0 |v| + p1 v^2), dampingpoly p0 p1) and
     * armature the actuator adds to its target joint's or tendon's, times gear[0]^2 */
    double *actuator_damping, *actuator_dampingpoly, *actuator_armature;
    char **actuator_name;
    /* history buffers (MuJoCo 3.12's delays, sim/engine/history.c): nhistory doubles of
     * cs_data.history, one buffer per actuator or sensor with nsample > 0, laid out as
     * [user, cursor, times (nsample), values (nsample x dim)] (an actuator's dim is 1, a
     * sensor's its sensor_dim); the step appends ctrl or the sensor's value at each step's
     * time and reads it back delay seconds later */
    int nhistory;
    int *actuator_history;    /* 2: nsample (0: no buffer), interp (0 zoh, 1 linear, 2 cubic) */
    int *actuator_historyadr; /* its buffer's start in history, -1 when none */
    double *actuator_delay;   /* > 0: the force reads the control of delay seconds before */
    double *dof_M0;       /* nv: M's diagonal at qpos0, armature included (dampratio's mass) */
    double *key_ctrl;     /* nu per key */
    double *key_act;      /* na per key */
    int *jnt_actfrclimited;   /* njnt: 1 = the actuators' total force on the joint (hinge,
                                 slide) is clamped to jnt_actfrcrange */
    double *jnt_actfrcrange;  /* 2 per joint (actuatorfrcrange) */
    int *jnt_actgravcomp;     /* njnt: 1 = the joint's share of qfrc_gravcomp is actuator
                                 force (clamped by actuatorfrcrange), not passive */
    int *jnt_actuatorid;      /* njnt: the actuator adding damping or armature to the joint,
                                 -1 none, -2 several (MuJoCo's; cs_actuator_damping) */
    int *tendon_actuatorid;   /* ntendon: the same for tendons */
    int ngravcomp;            /* bodies with gravcomp != 0 */
    int nactuatorid;          /* joints and tendons an actuator adds damping or armature to */
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
    double vis_fovy;      /* <visual><global fovy>: the free camera's (orthographic: a length) */
    int vis_orthographic; /* <visual><global orthographic> */
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

    /* sensors (nsensor), MuJoCo's mjtSensor and arrays (sim/engine/sensor.c computes them into
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
    int *sensor_history;      /* 2: nsample (0: no buffer), interp (as actuator_history) */
    int *sensor_historyadr;   /* its buffer's start in history, -1 when none */
    double *sensor_delay;     /* > 0: sensordata holds the value of delay seconds before */
    double *sensor_interval;  /* 2: period (> 0: computed every period only, held between)
                                 and phase (the last computation before the start, in
                                 (-period, 0]; 0 means -period) */
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
    double *tendon_armature; /* inertia of the tendon's length change: a J^T J in M */
    int *tendon_actfrclimited;  /* actuatorfrcrange bounds the sum of its actuators' forces */
    double *tendon_actfrcrange; /* 2: that range (it contains 0) */
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
    double *cam_pos, *cam_quat, *cam_fovy;    /* 3, 4, 1 (degrees; orthographic: the view's
                                                 height in length units) */
    int *cam_projection;                      /* CS_PROJ_PERSPECTIVE, CS_PROJ_ORTHOGRAPHIC */
    int *cam_resolution;                      /* 2: image width and height in pixels */
    double *cam_sensorsize, *cam_intrinsic;   /* 2, 4: sensor size; focal lengths and principal
                                                 point on it (MuJoCo's, float precision) */
    double *cam_pos0, *cam_poscom0, *cam_mat0; /* 3, 3, 9 */
    char **cam_name;

    void *buffer;         /* every array above in one block (sim/api/model_fields.h lists them) */
    size_t nbuffer;       /* its bytes */
} cs_model;

/* cam_projection (MuJoCo's mjtProjection) */
enum { CS_PROJ_PERSPECTIVE = 0, CS_PROJ_ORTHOGRAPHIC = 1 };

/* actuator_trntype (MuJoCo's mjtTrn) */
/* (jointinparent on a hinge or slide joint is CS_TRN_JOINT: the same there) */
enum { CS_TRN_JOINT = 0, CS_TRN_JOINTINPARENT = 1, CS_TRN_SLIDERCRANK = 2, CS_TRN_TENDON = 3,
       CS_TRN_SITE = 4, CS_TRN_BODY = 5 /* adhesion: the body's contacts' normals */,
       CS_TRN_SO3 = 6 /* an orientation servo's: a ball joint's or a site's rotation relative
                         to its reference site, three outputs */ };

/* actuator_dyntype, _gaintype, _biastype (MuJoCo's mjtDyn, mjtGain, mjtBias numbering) */
enum { CS_DYN_NONE = 0, CS_DYN_INTEGRATOR = 1, CS_DYN_FILTER = 2, CS_DYN_FILTEREXACT = 3,
       CS_DYN_MUSCLE = 4, CS_DYN_DCMOTOR = 5, CS_DYN_PID = 6 };
enum { CS_GAIN_FIXED = 0, CS_GAIN_AFFINE = 1, CS_GAIN_MUSCLE = 2, CS_GAIN_DCMOTOR = 3,
       CS_GAIN_SO3 = 4, CS_GAIN_PID = 5, CS_GAIN_USER = 6 };
enum { CS_BIAS_NONE = 0, CS_BIAS_AFFINE = 1, CS_BIAS_MUSCLE = 2, CS_BIAS_DCMOTOR = 3,
       CS_BIAS_SO3 = 4, CS_BIAS_USER = 5 };

/* actuator_ctrlspec bits (MuJoCo's mjtCtrlInput): the inputs of a pid's or DC motor's
 * control block, present ones packed in this order; NONE: a DC motor without inputs */
enum { CS_INPUT_POS = 1, CS_INPUT_VEL = 2, CS_INPUT_FF = 4, CS_INPUT_VOLTAGE = 8,
       CS_INPUT_NONE = 16 };
/* an orientation servo's actuator_ctrlspec (MuJoCo's mjtCtrlChart): its target as a rotation
 * vector (3 controls) or a quaternion (4, w first) */
enum { CS_CHART_EXPMAP = 1, CS_CHART_QUAT = 2 };

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
/* a tree's sleep policy, MuJoCo's mjtSleepPolicy: the loader turns auto into auto_never (an
 * actuated tree, or one a tendon with stiffness or damping joins to another) or auto_allowed */
typedef enum {
    CS_SLEEP_AUTO = 0, CS_SLEEP_AUTO_NEVER = 1, CS_SLEEP_AUTO_ALLOWED = 2, CS_SLEEP_NEVER = 3,
    CS_SLEEP_ALLOWED = 4, CS_SLEEP_INIT = 5
} cs_sleep_policy;
/* a body's state in d->body_awake, MuJoCo's mjtSleepState */
typedef enum { CS_S_STATIC = -1, CS_S_ASLEEP = 0, CS_S_AWAKE = 1 } cs_sleep_state;
/* steps a tree stays below sleep_tolerance before it may sleep (MuJoCo's mjMINAWAKE) */
#define CS_MINAWAKE 10
#define CS_NEQDATA 11
#define CS_NPOLY 2 /* higher-order stiffness and damping coefficients (MuJoCo's mjNPOLY) */

#ifdef __cplusplus
}
#endif

#endif
