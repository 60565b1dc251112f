/* conesim's public API: what the CLI, the viewer and the tests use.
 *
 * Two structs (docs/design.md): cs_model, compiled from MJCF and never changed after loading,
 * and cs_data, everything a step reads and writes, allocated once from the model's sizes.
 * Arrays are struct-of-arrays with MuJoCo's names and layouts (body i's position is
 * xpos[3*i..3*i+2], matrices row-major), so facts carry over from MuJoCo's docs.
 *
 * Bodies use MuJoCo's indexing: world = 0, then depth-first document order. Geoms are
 * numbered body by body (body_geomadr), as MuJoCo's compiler numbers them.
 * Degrees of freedom: only free joints. Free joint f (0-based, in body order) owns
 * qpos[7f..7f+6] = body-frame position (3) + unit quaternion (w first) and
 * qvel[6f..6f+5] = world linear velocity of the body-frame origin + angular velocity in
 * the body's local frame (MuJoCo's free-joint convention). Bodies without a joint are
 * welded to their parent (body_weldid names the free body, or 0 for the world, that
 * carries them). */
#ifndef CONESIM_H
#define CONESIM_H

#include <stddef.h>
#include <stdio.h>

#include "cs_version.h" /* CS_VERSION_MAJOR, _MINOR, _PATCH, CS_VERSION "x.y.z" */
#include "geom.h"       /* cs_geom_type, cs_pose */
#include "cone_type.h"  /* cs_cone_type */

#ifdef __cplusplus
extern "C" {
#ifdef __cplusplus
}
#endif

#endif

/* The version of the library actually linked ("x.y.z"), against CS_VERSION compiled in. */
const char *cs_version(void);

/* ---- options (MJCF <option>, MuJoCo's numbering of enums) ------------------------- */
typedef enum { CS_SOLVER_PGS = 0, CS_SOLVER_CG = 1, CS_SOLVER_NEWTON = 2 } cs_solver_type;
typedef enum { CS_PGS_CONTACT = 0, CS_PGS_PAIR = 1 } cs_pgs_blocks;

/* <flag> bits: disable flags (set = the feature is off, MuJoCo's disableflags) */
enum {
    CS_DSBL_CONSTRAINT = 1 << 0,
    CS_DSBL_CONTACT = 1 << 1,
    CS_DSBL_GRAVITY = 1 << 2,
    CS_DSBL_WARMSTART = 1 << 3,
    CS_DSBL_FILTERPARENT = 1 << 4,
    CS_DSBL_REFSAFE = 1 << 5
};
/* enable flags (set = on, MuJoCo's enableflags) */
enum {
    CS_ENBL_OVERRIDE = 1 << 0,
    CS_ENBL_ENERGY = 1 << 1,
    CS_ENBL_MULTICCD = 1 << 2,
    CS_ENBL_ISLAND = 1 << 3
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
    int pgs_polish;       /* conesim's own (`--set pgs_polish=K`): PGS finishes with Newton
                             steps after K sweeps short of the tolerance, or when a sweep's
                             improvement meets it but the primal gradient does not
                             (default 5; 0: sweeps only, stopped by the improvement) */
    int threads;          /* conesim's own (`--threads`, `--set threads=N`): threads for the
                             contact islands, 0 = all cores; results do not depend on it */
    int disableflags;     /* CS_DSBL_* */
    int enableflags;      /* CS_ENBL_* */
} cs_option;

/* ---- model ---------------------------------------------------------------------------- */
typedef struct {
    char *modelname;
    char *path;           /* file the model came from (for messages) */
    int nbody, ngeom, nfree, nq, nv, npair, nexclude, nkey;
    int nconmax;          /* most contacts a step keeps (<size nconmax>, else 100 + 8 per
                             geom and pair); more are dropped with a warning */
    int ncon_reserve;     /* contacts the data holds room for from the start: nconmax when
                             <size nconmax> gives it (as MuJoCo reserves it), else a few; the
                             room grows as steps need, up to nconmax */
    cs_option opt;

    /* bodies (nbody) */
    int *body_parent;     /* parent body, -1 for the world */
    int *body_weldid;     /* free body this body moves with, 0 = static (welded to world) */
    int *body_free;       /* free-joint index f of this body, -1 if it has none */
    int *body_geomadr, *body_geomnum;
    double *body_pos;     /* 3: frame relative to parent (qpos0 frame for free bodies) */
    double *body_quat;    /* 4 */
    double *body_ipos;    /* 3: inertial frame (COM) in the body frame */
    double *body_iquat;   /* 4: principal axes of inertia in the body frame */
    double *body_mass;
    double *body_inertia; /* 3: principal moments about the COM */
    double *body_invweight0; /* 2: (translational, rotational) mean inverse inertia, docs/contact-math.md §8 */
    char **body_name;     /* NULL when unnamed */

    /* free joints (nfree): the bodies that move, with the inertia of everything welded
     * to them (the body itself and its jointless descendants) */
    int *free_body;       /* body index */
    char **free_name;     /* joint name or NULL */
    double *free_mass;
    double *free_com;     /* 3: composite COM in the free body's frame */
    double *free_inertia; /* 9: composite inertia about free_com, in the body frame */

    double *qpos0;        /* nq: the reference pose (from body pos/quat) */

    /* degrees of freedom (nv) as a forest of kinematic trees: a dof's parent comes before
     * it and every tree's dofs are contiguous (MuJoCo's order). A free joint is one tree,
     * a chain of 6 dofs: 3 translations along the world axes, then 3 rotations about the
     * body's local axes. The mass matrix is stored over it (solver/mass.h). */
    int ntree, nM;
    int *dof_parent;      /* parent dof, -1 at a tree's root */
    int *dof_Madr;        /* start of the dof's row in qM */
    int *dof_treeid, *dof_bodyid;
    int *dof_rot;         /* 1: a rotation about dof_xaxis through dof_xanchor; 0: a
                             translation along dof_xaxis */
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
    double *geom_friction;/* 3: slide, spin, roll */
    double *geom_solmix;
    double *geom_solref;  /* 2 */
    double *geom_solimp;  /* 5 */
    double *geom_margin, *geom_gap;
    double *geom_rgba;    /* 4 */
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
} cs_model;

/* ---- data ------------------------------------------------------------------------------- */
typedef enum {
    CS_CZONE_NONE = -1,    /* detected within margin, kept out of the solver by the gap */
    CS_CZONE_TOP = 0, CS_CZONE_BOTTOM = 1, CS_CZONE_MIDDLE = 2,
    CS_CZONE_PYRAMID = 3, CS_CZONE_NORMAL = 4
} cs_contact_zone;

/* One contact, filled by collision (geometry, mixed parameters) and the solver (force, vel,
 * zone). frame rows: normal (geom1 -> geom2), t1, t2, as MuJoCo's contact frame. */
typedef struct {
    double pos[3];
    double frame[9];
    double dist;          /* signed, negative = penetration */
    int geom1, geom2;
    int dim;              /* condim 1, 3, 4, 6 */
    int exclude;          /* 1: within margin but kept out of the solver by the gap */
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
} cs_solver_stat;

/* warning counts: contacts dropped because data->contact was full; steps whose mass matrix
 * was not positive definite; steps that ran without memory they needed (their contacts are
 * missing: the results are wrong from there on) */
enum { CS_WARN_CONTACTFULL = 0, CS_WARN_BADQACC = 1, CS_WARN_NOMEM = 2, CS_NWARN = 3 };

typedef struct {
    double time;
    double *qpos;         /* nq */
    double *qvel;         /* nv */
    double *qacc;         /* nv: constrained acceleration of the last step */
    double *qacc_smooth;  /* nv: unconstrained a0 = M^-1 qfrc_smooth */
    double *qacc_warmstart; /* nv: previous step's qacc (warm start) */
    double *qfrc_applied; /* nv: user generalized forces */
    double *xfrc_applied; /* 6 per body: world force, world torque at the body's COM */
    double *qfrc_bias;    /* nv: Coriolis/gyroscopic minus gravity (MuJoCo's sign: M a = f - bias) */
    double *qfrc_gravity; /* nv: generalized gravity force (already inside qfrc_bias) */
    double *qfrc_smooth;  /* nv: qfrc_applied + J^T xfrc_applied - qfrc_bias */
    double *qfrc_constraint; /* nv: J^T f from the solver */

    /* kinematics (per body) */
    double *xpos;         /* 3 */
    double *xquat;        /* 4 */
    double *xmat;         /* 9 */
    double *xipos;        /* 3: COM in world */
    double *ximat;        /* 9: principal inertia axes in world */
    cs_pose *geom_xpose;  /* per geom world pose */

    /* dofs */
    double *dof_xaxis;    /* 3 per dof: world axis of the dof's motion */
    double *dof_xanchor;  /* 3 per dof: a world point on a rotation's axis */
    /* the mass matrix, factored in the smooth stage (solver/mass.h's layout) */
    double *qM, *qLD;     /* nM */
    double *qLDiagInv;    /* nv */
    struct cs_mass *mass; /* the operator over them and the model's tree arrays (internal) */

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
    double *jac;                         /* scratch: 2 sides x 6 x nv point Jacobians */
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
void cs_free_model(cs_model *m);
/* Override one <option> attribute by its MJCF name ("timestep", "cone", "solver",
 * "impratio", "iterations", "gravity", "o_solref", ...; "flag.NAME" = enable|disable; an
 * "option." prefix is accepted). Use between loading and cs_make_data only: the model is
 * otherwise immutable. Returns 0, or -1 with a message in err. */
int cs_option_set(cs_option *o, const char *name, const char *value, char *err, size_t errsz);

/* ---- data (sim/data.c) ------------------------------------------------------------------ */
cs_data *cs_make_data(const cs_model *m);  /* reset to qpos0, zero velocity, then forward;
                                              NULL when out of memory */
void cs_free_data(cs_data *d);
void cs_reset(const cs_model *m, cs_data *d);
int cs_reset_key(const cs_model *m, cs_data *d, int key); /* 0 ok, -1 bad index */
int cs_name2id_body(const cs_model *m, const char *name);  /* -1 if absent */
int cs_name2id_geom(const cs_model *m, const char *name);

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
void cs_integrate(const cs_model *m, cs_data *d);   /* semi-implicit Euler */

/* helpers on the free-body dynamics */
void cs_solve_M(const cs_model *m, const cs_data *d, double *x, const double *y); /* x = M^-1 y */
void cs_mul_M(const cs_model *m, const cs_data *d, double *y, const double *x);   /* y = M x */
double cs_energy_kinetic(const cs_model *m, const cs_data *d);
double cs_energy_potential(const cs_model *m, const cs_data *d); /* gravity, from the COMs */
/* world angular momentum about the COM and linear momentum of free joint f */
void cs_momentum(const cs_model *m, const cs_data *d, int f, double L[3], double p[3]);
int cs_check_finite(const cs_model *m, const cs_data *d); /* -1 ok, else first bad free index */
/* Jacobian of a world point fixed to `body`, over the 6 dofs of the free joint that moves it:
 * point velocity = jacp qvel[6f..6f+5], body angular velocity (world) = jacr qvel[6f..].
 * jacp, jacr are 3x6 row-major. Returns f, or -1 for a static body (jacobians zeroed).
 * Constraint rows J = frame * (jac of geom2's body - jac of geom1's body) come from it. */
int cs_jac_point(const cs_model *m, const cs_data *d, int body, const double point[3],
                 double jacp[18], double jacr[18]);

/* ---- recording (sim/record.c) ------------------------------------------------------- */
void cs_traj_header(FILE *f);
/* one row per free body, in model order, for the state after `step` steps; `time` is
 * written as given (README, Output files: k * timestep, from the initial state's time) */
void cs_traj_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
/* contact CSV (README, Output files): the contacts of the state after `step` steps (found at that
 * state, with the forces that move it on), time = that state's time */
void cs_contact_header(FILE *f);
void cs_contact_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time);
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

/* ---- small math used across sim/ (sim/mathutil.c) ----------------------------------- */
void cs_quat2mat(double mat[9], const double q[4]);
void cs_mulquat(double r[4], const double a[4], const double b[4]);
void cs_normquat(double q[4]);
void cs_mat2quat(double q[4], const double mat[9]);
void cs_axisangle2quat(double q[4], const double axis[3], double angle);
void cs_quat_z2vec(double q[4], const double vec[3]);

#endif
