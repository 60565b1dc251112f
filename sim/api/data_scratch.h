/* The stages' own workspace in a cs_data: what a step uses and nobody reads between steps.
 * The arrays sized by the model are in the data's block (CS_DATA_SCRATCH in data_fields.h);
 * the rest is allocated with the data (data.c). */
#ifndef CS_DATA_SCRATCH_H
#define CS_DATA_SCRATCH_H

struct cs_data_scratch {
    /* the operator over M (qM, qLD, qLDiagInv) and the model's tree arrays */
    struct cs_mass *mass;
    /* M + h diag(damping) and its factor, for implicit damping in the Euler step (M - h D,
     * D = d qfrc_smooth / d qvel without the bias term, for implicitfast) */
    double *qH, *qHLD, *qHDiagInv;
    double *qacc_implicit; /* nv: the implicit step's acceleration (Euler with damping,
                              implicitfast) */
    double *qDeriv;       /* nv: implicitfast's d qfrc_smooth / d qvel (diagonal: dof damping
                             and joint actuators) */
    double *qLU;          /* 2 nM: the implicit step's M - h D and its factors on M's pattern,
                             the lower triangle and diagonal, then the upper (implicit.c) */
    double *rne_tan;      /* 31 per body: the bias force's derivative along one dof
                             (derivative.c) */
    struct cs_mass *massH;
    /* the trees as the rows and the solver see them (rowtrees.h); mass and massH use them */
    struct cs_rowtrees *rowtrees;
    /* smooth stage (per body: composite inertia 13, bias acceleration and force 6; per dof:
     * cdof's time derivative 6) */
    double *crb, *cacc, *cfrc, *cdofdot;
    double *eq_scratch;   /* 24 nv: an equality's or tendon's Jacobians while its rows are
                             made */
    double *tendon_actfrc; /* per tendon: its actuators' summed force (actuatorfrcrange) */
    double *ctrl_used;     /* nu: the controls as the forces use them (clamped, delayed) */
    double *subtree_mass;  /* per body: its subtree's mass (cs_subtree_com) */
    /* sensors: 6 per body: angular, linear velocity and acceleration of the body's motion at
     * the world origin (gravity as -g at the world, as MuJoCo's cacc); torque, force at the
     * world origin: what the subtree takes from its parent (MuJoCo's cfrc_int), and the
     * external forces on the body (cfrc_ext) */
    double *sens_vel, *sens_acc, *sens_frc, *sens_ext;
    /* sleeping: xpos, xquat per body when its tree fell asleep (a change wakes it); a
     * sleeping tree's qacc kept through a pass; the collision stage's filter per geom (0
     * awake, 1 on a sleeping body, 2 static); the trees' islands (union-find), then their
     * order */
    double *xpose_asleep, *qacc_asleep;
    int *geom_asleep, *sleep_uf;

    /* module contexts */
    struct cs_collision *collision;      /* broad/narrow phase (collision/collision.h) */
    struct cs_geom_contact *rawcon;      /* ncon_cap: contacts as collision/ reports them */
    struct cs_solver_ws *solver_ws;      /* PGS / Newton workspace (solver/solver.h) */
    double *jac;                         /* 2 sides x 6 x (largest tree) point Jacobians,
                                            then 1 x nv for a joint row */
    double *rk4;                         /* RK4's stages: 4 (nq + 2 nv + 2 na) + 2 nv + na */
};

#endif
