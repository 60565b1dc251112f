/* sim-internal: module contexts made with the data, and helpers shared by the stages. */
#ifndef CS_STAGES_H
#define CS_STAGES_H

#include <stddef.h>

#include "conesim.h"

/* collision/'s context for this model (one per data: it holds scratch). NULL + err. */
struct cs_collision *cs_collision_make(const cs_model *m, char *err, size_t errlen);

/* options.c: a <flag> name with an effect -> its bit; -1 when unknown */
int cs_flag_lookup(const char *name, int *bit, int *enable);

/* 1 when dof i rotates (about dof_xaxis through dof_xanchor: a hinge, a ball's dofs, a free
 * joint's last three), 0 when it translates (along dof_xaxis) */
static inline int cs_dof_rotates(const cs_model *m, int i)
{
    int j = m->dof_jntid[i];
    switch ((cs_joint_type)m->jnt_type[j]) {
    case CS_JNT_HINGE:
    case CS_JNT_BALL: return 1;
    case CS_JNT_FREE: return i - m->jnt_dofadr[j] >= 3;
    case CS_JNT_SLIDE: return 0;
    }
    return 0;
}

/* step.c: cs_forward without the sensors (RK4's inner stages) */
void cs_forward_nosensor(const cs_model *m, cs_data *d);
/* forward_velocity.c: the stages after collision again (trees just put to sleep) */
/* forward_velocity.c: the pass from the smooth stage on (smooth, energy, constraint, and the
 * sensors when asked) */
void cs_forward_velocity(const cs_model *m, cs_data *d, int sensors);
void cs_forward_after_sleep(const cs_model *m, cs_data *d);

/* integrate.c: the Euler (damping implicit) and implicitfast steps from the forward pass's
 * qacc; MuJoCo's mj_advance (activations, qvel by qacc, qpos by qvel or d->qvel when NULL,
 * time) */
void cs_integrate_euler(const cs_model *m, cs_data *d);
void cs_integrate_implicitfast(const cs_model *m, cs_data *d);
/* implicit.c: MuJoCo's implicit step, (M - h D) qacc = qfrc_smooth + qfrc_constraint with D
 * the whole velocity derivative of the smooth forces (cs_smooth_vel), LU-factored on M's
 * pattern */
void cs_integrate_implicit(const cs_model *m, cs_data *d);

/* the length of row i of qM: dof i and its ancestors along dof_parent */
static inline int cs_dof_rowlen(const cs_model *m, int i)
{
    return (i + 1 < m->nv ? m->dof_Madr[i + 1] : m->nM) - m->dof_Madr[i];
}

/* derivative.c: D = d (qfrc_actuator + qfrc_passive - qfrc_bias) / d qvel at the state of the
 * forward pass (MuJoCo's mjd_smooth_vel with the bias term), on M's pattern, both triangles:
 * lo[dof_Madr[i] + k] is D(i, a) and up[dof_Madr[i] + k] is D(a, i), a the k-th ancestor of
 * dof i (k = 0 the diagonal, in lo only); nM each. Dofs on two branches are not coupled
 * (MuJoCo drops a tendon's coupling of them too). */
void cs_smooth_vel(const cs_model *m, cs_data *d, double *lo, double *up);
void cs_advance(const cs_model *m, cs_data *d, const double *act_dot, const double *qacc,
                const double *qvel);
/* integrate.c: qpos moved by qvel over h, per joint type */
void cs_integrate_pos(const cs_model *m, double *qpos, const double *qvel, double h);
/* integrate.c: the same for joint j alone */
void cs_integrate_jnt(const cs_model *m, int j, double *qpos, const double *qvel, double h);

/* invweight.c: body_invweight0, dof_invweight0 and dof_M0 at qpos0 (MuJoCo's set0). Returns 0,
 * -1 out of memory, or 1 + the dof whose pivot was not positive. */
int cs_model_invweight0(cs_model *m);
/* invweight.c: actuator i's moment row at qpos0 (nv, gear included: MuJoCo's set0 reads it
 * for a damping ratio); 0, or -1 when out of memory */
int cs_actuator_moment0(const cs_model *m, int i, double *moment);

/* actuator_passive.c: jnt_actuatorid and tendon_actuatorid from the actuators (compile time) */
void cs_actuator_targets(cs_model *m);
/* actuator_passive.c: the damping (returned; its polynomial added into poly) and the armature
 * the actuators add to joint or tendon id (tendon: 1), gear[0]^2 times theirs */
double cs_actuator_damping(const cs_model *m, int tendon, int id, double poly[CS_NPOLY]);
double cs_actuator_armature(const cs_model *m, int tendon, int id);
/* dof i's (tendon t's) damping with its actuators' (returned) and its polynomial (*poly: the
 * model's, or buf with theirs added) */
static inline double cs_dof_damping(const cs_model *m, int i, double buf[CS_NPOLY],
                                    const double **poly)
{
    int j = m->dof_jntid[i];
    *poly = m->dof_dampingpoly + CS_NPOLY * i;
    if (m->jnt_actuatorid[j] == -1) return m->dof_damping[i];
    for (int k = 0; k < CS_NPOLY; k++) buf[k] = (*poly)[k];
    *poly = buf;
    return m->dof_damping[i] + cs_actuator_damping(m, 0, j, buf);
}
static inline double cs_tendon_damping(const cs_model *m, int t, double buf[CS_NPOLY],
                                       const double **poly)
{
    *poly = m->tendon_dampingpoly + CS_NPOLY * t;
    if (m->tendon_actuatorid[t] == -1) return m->tendon_damping[t];
    for (int k = 0; k < CS_NPOLY; k++) buf[k] = (*poly)[k];
    *poly = buf;
    return m->tendon_damping[t] + cs_actuator_damping(m, 1, t, buf);
}

/* actuator.c: lengths, velocities, controls, activation rates and forces of the actuators,
 * and qfrc_actuator (MuJoCo's mj_transmission, actuator velocities and mj_fwdActuation) */
void cs_actuation(const cs_model *m, cs_data *d);
/* actuator.c: activations advanced over one step from act_dot (MuJoCo's mj_nextActivation
 * for each, clamped to actrange) */
void cs_advance_act(const cs_model *m, cs_data *d, const double *act_dot);
/* actuator.c: diagonal of d qfrc_actuator / d qvel (joint transmissions: per dof), added
 * into out (nv) */
void cs_actuator_vel(const cs_model *m, const cs_data *d, double *out);

/* slidercrank.c: slider-crank actuator i's length (gear included) and its moment (nv,
 * gear included: d length / d q) from the sites' poses in d (scratch: 9 nv) */
double cs_slider_crank(const cs_model *m, const cs_data *d, int i, double *moment,
                       double *scratch);

/* sitetrn.c: a site transmission's length (0 without a reference site) and its moment (nv,
 * gear included) from the sites' poses in d (scratch: 9 nv) */
double cs_site_transmission(const cs_model *m, const cs_data *d, int i, double *moment,
                            double *scratch);
/* sitetrn.c: an orientation servo's site transmission: its three lengths and moment rows
 * (3 x nv) (scratch: 6 nv) */
void cs_site_so3(const cs_model *m, const cs_data *d, int i, double len[3], double *moment,
                 double *scratch);

/* constraint.c: the world anchors of connect or weld e: body1's and body2's points (connect:
 * body1's anchor data[0..2], body2's data[3..5]; weld the other way), or the two sites */
void cs_eq_anchors(const cs_model *m, const cs_data *d, int e, double p1[3], double p2[3]);

/* actuator.c: 1 when actuator i's moment is a dense row (slider-crank, site, a ball or free
 * joint), and that row with the length */
int cs_actuator_dense(const cs_model *m, int i);
double cs_transmission_dense(const cs_model *m, const cs_data *d, int i, double *moment,
                             double *scratch);

/* actuator.c: d actuator_force / d actuator_velocity of actuator i (0 when the force is
 * held at its forcerange) */
double cs_actuator_dvel(const cs_model *m, const cs_data *d, int i);

/* camlight.c: cameras' and lights' world poses (cam_xpos, cam_xmat, light_xpos, light_xdir:
 * MuJoCo's mj_camlight) with the subtree centres of mass they track; cs_subtree_com alone
 * (subtree_com, MuJoCo's mj_comPos part) */
void cs_camlight(const cs_model *m, cs_data *d);
void cs_subtree_com(const cs_model *m, cs_data *d);

/* q += J^T F: the generalised force of the world force F at the world point p on body b
 * (support.c) */
void cs_add_point_force(const cs_model *m, const cs_data *d, int b, const double p[3],
                        const double F[3], double *q);
/* the acceleration of world point p on body b at qacc = 0 (the Jacobian's rate times qvel)
 * and b's angular one, from the smooth stage's bias accelerations (support.c) */
void cs_point_bias_acc(const cs_model *m, const cs_data *d, int b, const double p[3], double ap[3],
                       double ang[3]);

/* tendon.c: site_xpos, ten_length, ten_velocity, ten_J (MuJoCo's mj_tendon); the tendons' springs and
 * dampers added into qfrc_passive; implicitfast's tendon terms (dampers, actuators on
 * tendons, and slider-cranks through their moment rows) subtracted from qH as
 * h J^T (d f / d v) J over M's entries (up, given: the same into the upper triangle, laid out
 * as cs_smooth_vel's) */
void cs_tendon(const cs_model *m, cs_data *d);
/* tendon t's length and dense Jacobian J (nv) from the kinematics in d (scratch: 6 nv) */
double cs_tendon_eval(const cs_model *m, const cs_data *d, int t, double *J, double *scratch);
/* the unit direction u from a to b (x when they coincide, as MuJoCo's normalize); the length */
double cs_tendon_dir(const double a[3], const double b[3], double u[3]);
void cs_tendon_passive(const cs_model *m, cs_data *d);
void cs_tendon_implicit(const cs_model *m, const cs_data *d, double h, double *qH, double *up);
/* the same couplings' share in a standalone free body's 6 x 6 block (dofs o .. o + 5), which
 * implicitfast solves apart: A -= h J^T s J over those dofs */
void cs_tendon_implicit_free(const cs_model *m, const cs_data *d, double h, int o, double A[36]);
/* tendon_armature.c: a tendon's armature a adds a J^T J to M over M's entries (the tree's
 * pattern: coupling between different branches or trees is left out, as MuJoCo does) on the
 * rows of awake trees (aw: tree_awake, NULL for all), and the bias force a J (Jdot qvel) to
 * qfrc_bias */
void cs_tendon_armature(const cs_model *m, cs_data *d, const int *aw);
void cs_tendon_bias(const cs_model *m, cs_data *d, const int *aw);

/* fluid.c: fluid forces (MuJoCo's inertia-box model, or its ellipsoid model for bodies with
 * ellipsoid geoms) added to qfrc_passive; their velocity derivative, -h D, taken into
 * implicitfast's lower-triangular qH (symmetrised), into both triangles when up is given
 * (implicit: as it is, laid out as cs_smooth_vel's), or into a standalone free body's 6 x 6
 * block A6 (dofs o .. o + 5) */
void cs_fluid_passive(const cs_model *m, cs_data *d);
void cs_fluid_implicit(const cs_model *m, cs_data *d, double h, double *qH, double *up);
void cs_fluid_implicit_free(const cs_model *m, cs_data *d, int b, int o, double h, double A6[36]);
/* the Jacobian rows jp, jr (3 x nv each) of body b's chain turned into the frame R: R^T J */
void cs_fluid_local_rows(const cs_model *m, int b, const double R[9], double *jp, double *jr);
/* fluid_ellipsoid.c: the ellipsoid model. geom_fluid's 12 numbers for a geom (all 0 unless
 * ellipsoid: on, the five fluidcoef, virtual mass and inertia); whether body b uses it; its
 * forces; its derivative (B symmetrised when symmetric), into qH (and up) or A6 as above */
void cs_fluid_coefs(int type, const double *size, int ellipsoid, const double coef[5],
                    double out[12]);
int cs_fluid_ellipsoid_body(const cs_model *m, int b);
void cs_fluid_ellipsoid_passive(const cs_model *m, cs_data *d, int b);
void cs_fluid_ellipsoid_deriv(const cs_model *m, cs_data *d, int b, int symmetric, double h,
                              double *qH, double *up, double *A6, int o);

/* adhesion.c: qfrc_adhesion, the adhesive contacts' attraction (-adhesion along each
 * normal), added into qfrc_passive; a body transmission's moment row (nv: minus the average
 * of the normal Jacobians of the body's contacts; 0 without contacts) and its length (0) */
void cs_adhesion_passive(const cs_model *m, cs_data *d);
double cs_body_transmission(const cs_model *m, const cs_data *d, int i, double *moment);

/* constraint.c: whether contact c enters the solver (not in the gap, not static, not two
 * geoms of one rigid body) */
int cs_contact_has_rows(const cs_model *m, const cs_contact *c);

/* constraint.c: the step's constraint rows (d->efc) from the contacts and the joints, not
 * solved (qfrc_constraint zeroed); the blocks' forces (contacts' force, vel and zone) and
 * qfrc_constraint = J^T f from the row forces in d->efc */
void cs_constraint_rows(const cs_model *m, cs_data *d);
void cs_constraint_store(const cs_model *m, cs_data *d);

/* smooth.c: the mass matrix qM by composite rigid bodies, from the kinematics */
void cs_make_mass(const cs_model *m, cs_data *d);
/* smooth.c: body b's own spatial inertia about its tree's reference point (spatial.h's 13
 * numbers) */
void cs_body_cinert(const cs_model *m, const cs_data *d, int b, double I[13]);

#endif
