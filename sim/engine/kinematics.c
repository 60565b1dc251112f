/* The kinematics stage: body frames from qpos down each tree, one switch on joint type (as
 * MuJoCo's mj_kinematics), then the dofs' world axes and motions, the inertial frames and the
 * geom poses. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "sameframe.h"
#include "spatial.h"
#include "stages.h"

/* 0 for a number that is no joint type (the loader makes none) */
int cs_jnt_nq(int type)
{
    switch ((cs_joint_type)type) {
    case CS_JNT_FREE: return 7;
    case CS_JNT_BALL: return 4;
    case CS_JNT_SLIDE:
    case CS_JNT_HINGE: return 1;
    }
    return 0;
}

int cs_jnt_nv(int type)
{
    switch ((cs_joint_type)type) {
    case CS_JNT_FREE: return 6;
    case CS_JNT_BALL: return 3;
    case CS_JNT_SLIDE:
    case CS_JNT_HINGE: return 1;
    }
    return 0;
}

/* v rotated by the unit quaternion q, in MuJoCo's operations (its rounding): the identity
 * copies, otherwise v + 2 q_xyz x (q_w v + q_xyz x v) */
static void rot_vec_quat(double r[3], const double v[3], const double q[4])
{
    if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0) {
        r[0] = v[0], r[1] = v[1], r[2] = v[2];
        return;
    }
    double t[3] = {q[0] * v[0] + q[2] * v[2] - q[3] * v[1],
                   q[0] * v[1] + q[3] * v[0] - q[1] * v[2],
                   q[0] * v[2] + q[1] * v[1] - q[2] * v[0]};
    r[0] = v[0] + 2 * (q[2] * t[2] - q[3] * t[1]);
    r[1] = v[1] + 2 * (q[3] * t[0] - q[1] * t[2]);
    r[2] = v[2] + 2 * (q[1] * t[1] - q[2] * t[0]);
}

/* a hinge's local rotation: the compiler made its axis a unit vector */
static void hinge_quat(double q[4], const double axis[3], double angle)
{
    if (angle == 0) {
        q[0] = 1, q[1] = q[2] = q[3] = 0;
        return;
    }
    double s = sin(angle * 0.5);
    q[0] = cos(angle * 0.5);
    q[1] = axis[0] * s, q[2] = axis[1] * s, q[3] = axis[2] * s;
}

/* Apply joint j to the frame (xp, xq) it acts on; its world anchor and axis (before its own
 * motion, which leaves them in place) go to anchor and axis. */
static void apply_joint(const cs_model *m, const double *qpos, int j, double xp[3], double xq[4],
                        double anchor[3], double axis[3])
{
    const double *q = qpos + m->jnt_qposadr[j];
    if (m->jnt_type[j] == CS_JNT_FREE) {
        memcpy(xp, q, 3 * sizeof *xp);
        memcpy(xq, q + 3, 4 * sizeof *xq);
        cs_normquat(xq);
        memcpy(anchor, xp, 3 * sizeof *anchor);
        memcpy(axis, m->jnt_axis + 3 * j, 3 * sizeof *axis);
        return;
    }
    rot_vec_quat(axis, m->jnt_axis + 3 * j, xq);
    rot_vec_quat(anchor, m->jnt_pos + 3 * j, xq);
    for (int k = 0; k < 3; k++) anchor[k] += xp[k];
    switch ((cs_joint_type)m->jnt_type[j]) {
    case CS_JNT_FREE: break; /* done above */
    case CS_JNT_SLIDE: {
        double s = q[0] - m->qpos0[m->jnt_qposadr[j]];
        for (int k = 0; k < 3; k++) xp[k] += axis[k] * s;
        break;
    }
    case CS_JNT_BALL:
    case CS_JNT_HINGE: {
        double ql[4], v[3];
        if (m->jnt_type[j] == CS_JNT_BALL) {
            memcpy(ql, q, sizeof ql);
            cs_normquat(ql);
        } else {
            hinge_quat(ql, m->jnt_axis + 3 * j, q[0] - m->qpos0[m->jnt_qposadr[j]]);
        }
        cs_mulquat(xq, xq, ql);
        /* a rotation about the anchor, not the body origin */
        rot_vec_quat(v, m->jnt_pos + 3 * j, xq);
        for (int k = 0; k < 3; k++) xp[k] = anchor[k] - v[k];
        break;
    }
    }
}

/* Compose body b's joints, in order, onto its frame (xp, xq: the frame at qpos0 on entry).
 * Writes the joints' anchors and axes when xanchor is given. */
static void apply_joints(const cs_model *m, const double *qpos, int b, double xp[3], double xq[4],
                         double *xanchor, double *xaxis)
{
    for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
        double anchor[3], axis[3];
        apply_joint(m, qpos, j, xp, xq, anchor, axis);
        if (xanchor) {
            memcpy(xanchor + 3 * j, anchor, sizeof anchor);
            memcpy(xaxis + 3 * j, axis, sizeof axis);
        }
    }
    cs_normquat(xq);
}

/* body b's frame before its joints, from its parent's (pp, pq; pR: pq's matrix) */
static void body_origin(const cs_model *m, int b, const double pp[3], const double pq[4],
                        const double pR[9], double xp[3], double xq[4])
{
    if (m->body_parent[b] == 0) { /* on the world: the model's numbers as they are */
        memcpy(xp, m->body_pos + 3 * b, 3 * sizeof *xp);
        memcpy(xq, m->body_quat + 4 * b, 4 * sizeof *xq);
        return;
    }
    sp_mulmv3(pR, m->body_pos + 3 * b, xp);
    for (int k = 0; k < 3; k++) xp[k] += pp[k];
    cs_mulquat(xq, pq, m->body_quat + 4 * b);
}

/* body b's frame at qpos from its parent's */
static void body_frame(const cs_model *m, const double *qpos, int b, const double pp[3],
                       const double pq[4], const double pR[9], double xp[3], double xq[4],
                       double *xanchor, double *xaxis)
{
    body_origin(m, b, pp, pq, pR, xp, xq);
    apply_joints(m, qpos, b, xp, xq, xanchor, xaxis);
}

void cs_kinematics(const cs_model *m, cs_data *d)
{
    d->xquat[0] = 1;
    d->xmat[0] = d->xmat[4] = d->xmat[8] = 1;
    d->ximat[0] = d->ximat[4] = d->ximat[8] = 1;
    for (int b = 1; b < m->nbody; b++) {
        double *xp = d->xpos + 3 * b, *xq = d->xquat + 4 * b, *xm = d->xmat + 9 * b;
        int p = m->body_parent[b];
        body_frame(m, d->qpos, b, d->xpos + 3 * p, d->xquat + 4 * p, d->xmat + 9 * p, xp, xq,
                   d->xanchor, d->xaxis);
        int mc = m->body_mocapid[b];
        if (mc >= 0 && d->mocap_pos) { /* a child of the world: its pose is the data's (a
                                          scratch data at qpos0 has none: the model's) */
            memcpy(xp, d->mocap_pos + 3 * mc, 3 * sizeof *xp);
            memcpy(xq, d->mocap_quat + 4 * mc, 4 * sizeof *xq);
            cs_normquat(xq);
        }
        cs_quat2mat(xm, xq);
        cs_local2global(d, b, m->body_sameframe[b], m->body_ipos + 3 * b, m->body_iquat + 4 * b,
                        d->xipos + 3 * b, d->ximat + 9 * b);
    }
    /* dofs: hinge and slide along the joint axis; ball and a free joint's rotations about the
     * body's own axes (after all of its joints, as MuJoCo's), a free joint's translations along
     * the world axes. cdof: the motion at the tree's reference point o, the root's origin. */
    for (int i = 0; i < m->nv; i++) {
        int j = m->dof_jntid[i], b = m->dof_bodyid[i], k = i - m->jnt_dofadr[j];
        double *ax = d->dof_xaxis + 3 * i, *an = d->dof_xanchor + 3 * i, *s = d->cdof + 6 * i;
        const double *o = d->xpos + 3 * m->body_rootid[b];
        memcpy(an, d->xanchor + 3 * j, 3 * sizeof *an);
        switch ((cs_joint_type)m->jnt_type[j]) {
        case CS_JNT_FREE:
        case CS_JNT_BALL:
            for (int r = 0; r < 3; r++)
                ax[r] = m->jnt_type[j] == CS_JNT_FREE && k < 3 ? (r == k) : d->xmat[9 * b + 3 * r + k % 3];
            break;
        case CS_JNT_SLIDE:
        case CS_JNT_HINGE: memcpy(ax, d->xaxis + 3 * j, 3 * sizeof *ax); break;
        }
        if (cs_dof_rotates(m, i)) {
            /* linear motion at o of a unit rotation about ax through an: ax x (o - an) */
            double r[3] = {o[0] - an[0], o[1] - an[1], o[2] - an[2]};
            memcpy(s, ax, 3 * sizeof *s);
            sp_cross(ax, r, s + 3);
        } else {
            s[0] = s[1] = s[2] = 0;
            memcpy(s + 3, ax, 3 * sizeof *s);
        }
    }
    for (int g = 0; g < m->ngeom; g++) {
        cs_pose *p = &d->geom_xpose[g];
        cs_local2global(d, m->geom_body[g], m->geom_sameframe[g], m->geom_pos + 3 * g,
                        m->geom_quat + 4 * g, p->pos, p->mat);
    }
}

/* Pose of b at qpos and its spatial velocity (w, v0: the linear motion at the world origin)
 * at qvel, computed down its chain (recursion depth = the body's depth). Hinge and slide
 * axes are taken before their joint's motion, ball and free rotations about the body's
 * final axes, as the dofs are defined. */
static void state_at(const cs_model *m, const double *qpos, const double *qvel, int b,
                     double xp[3], double xq[4], double w[3], double v0[3])
{
    if (b == 0) {
        xp[0] = xp[1] = xp[2] = 0;
        xq[0] = 1; xq[1] = xq[2] = xq[3] = 0;
        w[0] = w[1] = w[2] = v0[0] = v0[1] = v0[2] = 0;
        return;
    }
    double pp[3], pq[4], R[9];
    state_at(m, qpos, qvel, m->body_parent[b], pp, pq, w, v0);
    double fp[3], fq[4];
    cs_quat2mat(R, pq);
    body_frame(m, qpos, b, pp, pq, R, fp, fq, NULL, NULL);
    double Rf[9];
    cs_quat2mat(Rf, fq);
    body_origin(m, b, pp, pq, R, xp, xq);
    for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
        double anchor[3], axis[3], wl[3] = {0, 0, 0}, a[3];
        apply_joint(m, qpos, j, xp, xq, anchor, axis);
        const double *qd = qvel + m->jnt_dofadr[j];
        switch ((cs_joint_type)m->jnt_type[j]) {
        case CS_JNT_SLIDE:
            for (int k = 0; k < 3; k++) v0[k] += qd[0] * axis[k];
            continue;
        case CS_JNT_FREE:
            for (int k = 0; k < 3; k++) v0[k] += qd[k];
            sp_mulmv3(Rf, qd + 3, wl);
            break;
        case CS_JNT_BALL: sp_mulmv3(Rf, qd, wl); break;
        case CS_JNT_HINGE:
            for (int k = 0; k < 3; k++) wl[k] = qd[0] * axis[k];
            break;
        }
        /* a rotation about the anchor moves the world origin's point by anchor x w */
        for (int k = 0; k < 3; k++) w[k] += wl[k];
        sp_cross(anchor, wl, a);
        for (int k = 0; k < 3; k++) v0[k] += a[k];
    }
    memcpy(xp, fp, sizeof fp);
    memcpy(xq, fq, sizeof fq);
}

void cs_body_state(const cs_model *m, const cs_data *d, int body, double pos[3], double quat[4],
                   double vel[3], double angvel_local[3])
{
    double w[3], v0[3], R[9], t[3];
    state_at(m, d->qpos, d->qvel, body, pos, quat, w, v0);
    /* the origin's velocity: v0 + w x (x - 0) */
    sp_cross(w, pos, t);
    for (int k = 0; k < 3; k++) vel[k] = v0[k] + t[k];
    cs_quat2mat(R, quat);
    sp_mulmtv3(R, w, angvel_local);
}
