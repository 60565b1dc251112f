/* conesim's data: cs_data, everything a step reads and writes, allocated once from the
 * model's sizes, and the contacts and solver statistics it holds, as MuJoCo's mjdata.h.
 * Included by conesim.h. */
#ifndef CS_DATA_H
#define CS_DATA_H

#include <stddef.h>

#include "cs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    int exclude;          /* 1: in the gap beyond the margin, kept out of the solver (an
                             adhesive contact never is) */
    double friction[5];
    double solref[2];
    double solreffriction[2];
    double solimp[5];
    double margin, gap;
    double adhesion;      /* constant attraction along the normal (N), 0 for none */
    int efc_address;      /* first constraint row, -1 if none */
    double force[6];      /* contact frame: normal, then friction in condim order; the net
                             force: the normal is the solver's minus the adhesion, so an
                             adhesive contact that holds on pulls (< 0), MuJoCo's
                             mj_contactForce */
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
    double *qfrc_adhesion; /* nv: the adhesive contacts' constant attraction, -adhesion along
                              each normal (in qfrc_passive) */
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

    /* contacts (collision fills) */
    int ncon;
    int ncon_cap;         /* room in contact[]: grows as a step needs, up to
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

    /* the stages' own workspace: the module contexts, the operators over M, scratch arrays
     * (internal: sim/api/data_scratch.h in the source) */
    struct cs_data_scratch *scratch;

    /* actuation (MuJoCo's names): the controls are the user's; the rest is the step's */
    double *ctrl;             /* nu: controls, each actuator's ctrlnum of them from its
                                 ctrladr; clamped to ctrlrange when used (not here) */
    double *mocap_pos;        /* 3 per mocap body: its world position (set between steps) */
    double *mocap_quat;       /* 4 per mocap body: its world orientation (normalised when
                                 used) */
    double *act;              /* na: activations (actuators with dynamics) */
    double *act_dot;          /* na: their time derivatives */
    /* per force output (nout: one per actuator, an orientation servo's three, from its
     * actuator_outadr) */
    double *actuator_length;  /* nout: the transmission's length, gear[0] included */
    double *actuator_velocity;/* nout: actuator_moment qvel */
    double *actuator_force;   /* nout: the force, clamped to forcerange */
    double *actuator_moment;  /* nout x nv, dense: d actuator_length / d q (gear included);
                                 qfrc_actuator is its transpose times actuator_force */
    double *qfrc_actuator;    /* nv: gear[0] force on each joint (inside qfrc_smooth) */
    double *history;          /* nhistory: the actuators' and sensors' history buffers
                                 (cs_model.nhistory), part of the state (CS_STATE_HISTORY) */
    long nchange;             /* the model's nchange this data follows (sim/api/setter.c) */

    /* sites, tendons and equality constraints */
    double *site_xpos;        /* 3 per site: world position */
    double *site_xmat;        /* 9 per site: world orientation */
    double *ten_length;       /* ntendon */
    double *ten_velocity;     /* ntendon: ten_J qvel */
    double *ten_J;            /* ntendon x nv, dense */
    int *eq_active;           /* neq: 1 = the constraint enters the solver (from eq_active0
                                 at reset; the user may switch it) */
    /* sleeping (MuJoCo 3.12's, sim/engine/sleep.c): tree_asleep is the truth, the rest follow it */
    int *tree_asleep;         /* ntree: < 0 awake (-1 - CS_MINAWAKE just moved, counting up
                                 to -1 while at rest); >= 0 asleep, the next tree of its
                                 island's cycle */
    int *tree_awake;          /* ntree: 1 awake, 0 asleep */
    int *body_awake;          /* nbody: cs_sleep_state (static: no dofs, and not on a mocap
                                 body) */
    int ntree_awake, nbody_awake, nv_awake; /* awake trees, awake or static bodies, awake
                                               dofs */

    /* sensors (sim/engine/sensor.c): their values, and what they are made from */
    double *sensordata;       /* nsensordata */
    double *subtree_com;      /* 3 per body: centre of mass of its subtree (MuJoCo's) */
    double *cam_xpos, *cam_xmat;    /* 3, 9 per camera: world position and frame (columns x, y,
                                       z; the camera looks along -z) */
    double *light_xpos, *light_xdir; /* 3, 3 per light: world position and direction */
    double *subtree_linvel;   /* 3 per body: linear velocity of that centre; made, with */
    double *subtree_angmom;   /* 3 per body: angular momentum of the subtree about it, when a
                                 sensor reads them (MuJoCo's) */

    void *buffer;             /* the arrays sized by the model, in one block (sim/api/data_fields.h
                                 lists them) */
    size_t nbuffer;           /* its bytes */
} cs_data;

#ifdef __cplusplus
}
#endif

#endif
