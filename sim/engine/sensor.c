/* Sensors: MuJoCo 3.12's engine_sensor.c on conesim's data. The position and velocity
 * passes read the kinematics and the rows of the constraint stage (conesim makes its limit
 * rows there, MuJoCo in its position stage: the values are the same), the acceleration pass
 * the solver's qacc and forces, through MuJoCo's rne-post-constraint quantities: each
 * body's acceleration and the force its subtree takes from its parent.
 *
 * Spatial vectors here are (angular, linear) at the world origin, not at MuJoCo's subtree
 * centres of mass: every value a sensor reports is a point's or a frame's, the same either
 * way. Nothing here allocates: contact sensors select and sum in place, rays walk the geoms. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <string.h>

#include "collision/collision.h"
#include "collision/ray.h"
#include "history.h"
#include "sensor.h"
#include "sleep.h"
#include "solver/rows.h"
#include "stages.h"
#include "data_scratch.h"
#include "minval.h"

/* ---- layouts ---------------------------------------------------------------------------- */
static const int CONDATA_SIZE[CS_NCONDATA] = {1, 3, 3, 1, 3, 3, 3};
static const int RAYDATA_SIZE[CS_NRAYDATA] = {1, 3, 3, 3, 3, 1};

int cs_sensor_datatype_of(int type)
{
    switch (type) {
    case CS_SENS_TOUCH:
    case CS_SENS_INSIDESITE: return CS_DATATYPE_POSITIVE;
    case CS_SENS_FRAMEXAXIS:
    case CS_SENS_FRAMEYAXIS:
    case CS_SENS_FRAMEZAXIS:
    case CS_SENS_GEOMNORMAL: return CS_DATATYPE_AXIS;
    case CS_SENS_BALLQUAT:
    case CS_SENS_FRAMEQUAT: return CS_DATATYPE_QUATERNION;
    default: return CS_DATATYPE_REAL;
    }
}

int cs_sensor_stage_of(int type)
{
    switch (type) {
    case CS_SENS_TOUCH:
    case CS_SENS_ACCELEROMETER:
    case CS_SENS_FORCE:
    case CS_SENS_TORQUE:
    case CS_SENS_ACTUATORFRC:
    case CS_SENS_JOINTACTFRC:
    case CS_SENS_TENDONACTFRC:
    case CS_SENS_JOINTLIMITFRC:
    case CS_SENS_TENDONLIMITFRC:
    case CS_SENS_FRAMELINACC:
    case CS_SENS_FRAMEANGACC:
    case CS_SENS_CONTACT:
    case CS_SENS_TACTILE: return CS_STAGE_ACC;
    case CS_SENS_VELOCIMETER:
    case CS_SENS_GYRO:
    case CS_SENS_JOINTVEL:
    case CS_SENS_TENDONVEL:
    case CS_SENS_ACTUATORVEL:
    case CS_SENS_BALLANGVEL:
    case CS_SENS_JOINTLIMITVEL:
    case CS_SENS_TENDONLIMITVEL:
    case CS_SENS_FRAMELINVEL:
    case CS_SENS_FRAMEANGVEL:
    case CS_SENS_SUBTREELINVEL:
    case CS_SENS_SUBTREEANGMOM: return CS_STAGE_VEL;
    default: return CS_STAGE_POS;
    }
}

int cs_sensor_dim_of(int type, const int intprm[3])
{
    int n = 0;
    switch (type) {
    case CS_SENS_ACCELEROMETER:
    case CS_SENS_VELOCIMETER:
    case CS_SENS_GYRO:
    case CS_SENS_FORCE:
    case CS_SENS_TORQUE:
    case CS_SENS_MAGNETOMETER:
    case CS_SENS_BALLANGVEL:
    case CS_SENS_FRAMEPOS:
    case CS_SENS_FRAMEXAXIS:
    case CS_SENS_FRAMEYAXIS:
    case CS_SENS_FRAMEZAXIS:
    case CS_SENS_FRAMELINVEL:
    case CS_SENS_FRAMEANGVEL:
    case CS_SENS_FRAMELINACC:
    case CS_SENS_FRAMEANGACC:
    case CS_SENS_SUBTREECOM:
    case CS_SENS_SUBTREELINVEL:
    case CS_SENS_SUBTREEANGMOM:
    case CS_SENS_GEOMNORMAL: return 3;
    case CS_SENS_BALLQUAT:
    case CS_SENS_FRAMEQUAT: return 4;
    case CS_SENS_GEOMFROMTO: return 6;
    case CS_SENS_CAMPROJECTION: return 2;
    case CS_SENS_RANGEFINDER:
        for (int k = 0; k < CS_NRAYDATA; k++)
            if (intprm[0] & (1 << k)) n += RAYDATA_SIZE[k];
        return n;
    case CS_SENS_CONTACT:
        for (int k = 0; k < CS_NCONDATA; k++)
            if (intprm[0] & (1 << k)) n += CONDATA_SIZE[k];
        return n * intprm[2];
    default: return 1;
    }
}

/* ---- small vector helpers ---------------------------------------------------------------- */
static void cross(double r[3], const double a[3], const double b[3])
{
    double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0]};
    memcpy(r, t, sizeof t);
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* r = R^T v (world to the frame of R's columns) */
static void mulT(double r[3], const double R[9], const double v[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
    memcpy(r, t, sizeof t);
}

static void mul(double r[3], const double R[9], const double v[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
    memcpy(r, t, sizeof t);
}

/* MuJoCo's camprojection: site s's pixel coordinates (x right, y down from the image's top
 * left) in camera c's image, from its focal lengths in pixels (the sensor's, or fovy's) */
/* a perspective camera's focal lengths in pixels, as MuJoCo computes them: from its sensor
 * and intrinsics in float (as MuJoCo keeps those), else from fovy */
static void cam_focal(const cs_model *m, int c, double *fx, double *fy)
{
    const int *res = m->cam_resolution + 2 * c;
    const double *ss = m->cam_sensorsize + 2 * c, *in = m->cam_intrinsic + 4 * c;
    if (ss[0] != 0 && ss[1] != 0) {
        *fx = (float)in[0] / (float)ss[0] * (float)res[0];
        *fy = (float)in[1] / (float)ss[1] * (float)res[1];
    } else {
        *fx = *fy = 0.5 / tan(m->cam_fovy[c] * M_PI / 360) * res[1];
    }
}

static void cam_project(const cs_model *m, const cs_data *d, int s, int c, double out[2])
{
    const int *res = m->cam_resolution + 2 * c;
    double fx, fy;
    cam_focal(m, c, &fx, &fy);
    const double *X = d->cam_xpos + 3 * c, *R = d->cam_xmat + 9 * c, *p = d->site_xpos + 3 * s;
    double r[3] = {p[0] - X[0], p[1] - X[1], p[2] - X[2]}, q[3];
    mulT(q, R, r);
    double z = q[2]; /* keep away from a division by almost nothing, with its sign */
    if (fabs(z) < CS_MINVAL) z = z < 0 ? -CS_MINVAL : CS_MINVAL;
    out[0] = -fx * (q[0] / z) + 0.5 * res[0];
    out[1] = fy * (q[1] / z) + 0.5 * res[1];
}

/* ---- frames of objects --------------------------------------------------------------------- */
static int obj_body(const cs_model *m, int type, int id)
{
    switch (type) {
    case CS_OBJ_BODY:
    case CS_OBJ_XBODY: return id;
    case CS_OBJ_GEOM: return m->geom_body[id];
    case CS_OBJ_SITE: return m->site_bodyid[id];
    case CS_OBJ_CAMERA: return m->cam_bodyid[id];
    default: return 0;
    }
}

static void obj_frame(const cs_model *m, const cs_data *d, int type, int id, const double **pos,
                      const double **mat)
{
    switch (type) {
    case CS_OBJ_XBODY: *pos = d->xpos + 3 * id, *mat = d->xmat + 9 * id; break;
    case CS_OBJ_BODY: *pos = d->xipos + 3 * id, *mat = d->ximat + 9 * id; break;
    case CS_OBJ_GEOM: *pos = d->geom_xpose[id].pos, *mat = d->geom_xpose[id].mat; break;
    case CS_OBJ_CAMERA: *pos = d->cam_xpos + 3 * id, *mat = d->cam_xmat + 9 * id; break;
    default: *pos = d->site_xpos + 3 * id, *mat = d->site_xmat + 9 * id; break;
    }
    (void)m;
}

static void obj_quat(const cs_model *m, const cs_data *d, int type, int id, double q[4])
{
    switch (type) {
    case CS_OBJ_XBODY: memcpy(q, d->xquat + 4 * id, 4 * sizeof *q); break;
    case CS_OBJ_BODY: cs_mulquat(q, d->xquat + 4 * id, m->body_iquat + 4 * id); break;
    case CS_OBJ_GEOM: cs_mulquat(q, d->xquat + 4 * m->geom_body[id], m->geom_quat + 4 * id); break;
    /* from its body, as MuJoCo's framequat (a tracking camera's mode is not in it) */
    case CS_OBJ_CAMERA: cs_mulquat(q, d->xquat + 4 * m->cam_bodyid[id], m->cam_quat + 4 * id); break;
    default: cs_mulquat(q, d->xquat + 4 * m->site_bodyid[id], m->site_quat + 4 * id); break;
    }
}

static cs_pose site_pose(const cs_data *d, int s)
{
    cs_pose p;
    memcpy(p.pos, d->site_xpos + 3 * s, sizeof p.pos);
    memcpy(p.mat, d->site_xmat + 9 * s, sizeof p.mat);
    return p;
}

/* a body welded to the world or a mocap body: MuJoCo reports its motion as zero */
static int dofless(const cs_model *m, int body)
{
    return m->body_dofnum[m->body_weldid[body]] == 0;
}

/* the motion (angular, linear at point p) of a body's spatial vector s (at the origin) */
static void at_point(double out[6], const double s[6], const double p[3])
{
    double t[3];
    cross(t, s, p);
    out[0] = s[0], out[1] = s[1], out[2] = s[2];
    for (int k = 0; k < 3; k++) out[3 + k] = s[3 + k] + t[k];
}

/* object velocity (angular, linear) at its frame, world orientation (MuJoCo's
 * mj_objectVelocity) */
static void obj_velocity(const cs_model *m, const cs_data *d, int type, int id, double v[6])
{
    int b = obj_body(m, type, id);
    if (dofless(m, b)) {
        memset(v, 0, 6 * sizeof *v);
        return;
    }
    const double *p, *R;
    obj_frame(m, d, type, id, &p, &R);
    at_point(v, d->scratch->sens_vel + 6 * b, p);
}

/* object acceleration (angular, linear of the point, gravity as -g) (mj_objectAcceleration) */
static void obj_accel(const cs_model *m, const cs_data *d, int type, int id, double a[6])
{
    int b = obj_body(m, type, id);
    if (dofless(m, b)) {
        memset(a, 0, 6 * sizeof *a);
        return;
    }
    const double *p, *R;
    double v[6], c[3];
    obj_frame(m, d, type, id, &p, &R);
    at_point(a, d->scratch->sens_acc + 6 * b, p);
    at_point(v, d->scratch->sens_vel + 6 * b, p);
    cross(c, v, v + 3); /* the point's own rotation: w x v */
    for (int k = 0; k < 3; k++) a[3 + k] += c[k];
}

/* ---- the bodies' motion, subtree quantities and forces ------------------------------------ */
/* motion cross product: r = v x s for motions (angular, linear) */
static void cross_motion(double r[6], const double v[6], const double s[6])
{
    double t[3];
    cross(r, v, s);
    cross(r + 3, v, s + 3);
    cross(t, v + 3, s);
    for (int k = 0; k < 3; k++) r[3 + k] += t[k];
}

/* dof i's unit motion at the world origin */
static void cdof(const cs_model *m, const cs_data *d, int i, double s[6])
{
    const double *ax = d->dof_xaxis + 3 * i, *an = d->dof_xanchor + 3 * i;
    if (cs_dof_rotates(m, i)) {
        memcpy(s, ax, 3 * sizeof *s);
        cross(s + 3, an, ax);
    } else {
        s[0] = s[1] = s[2] = 0;
        memcpy(s + 3, ax, 3 * sizeof *s);
    }
}

/* sens_vel (and with acc, sens_acc from qacc) body by body, parents first; a ball's three
 * dofs (and a free joint's rotations) take their rate terms from the velocity before them,
 * as MuJoCo's mj_comVel (their sum is the same) */
static void body_motion(const cs_model *m, cs_data *d, int acc)
{
    double *V = d->scratch->sens_vel, *A = d->scratch->sens_acc;
    memset(V, 0, 6 * sizeof *V);
    if (acc) {
        memset(A, 0, 6 * sizeof *A);
        if (!(m->opt.disableflags & CS_DSBL_GRAVITY))
            for (int k = 0; k < 3; k++) A[3 + k] = -m->opt.gravity[k];
    }
    for (int b = 1; b < m->nbody; b++) {
        int p = m->body_parent[b];
        double *v = V + 6 * b, *a = A + 6 * b;
        memcpy(v, V + 6 * p, 6 * sizeof *v);
        if (acc) memcpy(a, A + 6 * p, 6 * sizeof *a);
        for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
            int adr = m->jnt_dofadr[j], t = m->jnt_type[j];
            int nd = cs_jnt_nv(t), group = (t == CS_JNT_BALL || t == CS_JNT_FREE) ? 3 : 1;
            for (int i0 = adr; i0 < adr + nd; i0 += group) {
                double v0[6], dv[6] = {0, 0, 0, 0, 0, 0};
                memcpy(v0, v, sizeof v0);
                for (int i = i0; i < i0 + group; i++) {
                    double s[6], sd[6];
                    cdof(m, d, i, s);
                    for (int k = 0; k < 6; k++) dv[k] += s[k] * d->qvel[i];
                    if (!acc) continue;
                    /* a free joint's translations move along fixed world axes */
                    int fixed = t == CS_JNT_FREE && i < adr + 3;
                    if (!fixed) cross_motion(sd, v0, s);
                    for (int k = 0; k < 6; k++)
                        a[k] += s[k] * d->qacc[i] + (fixed ? 0 : sd[k] * d->qvel[i]);
                }
                for (int k = 0; k < 6; k++) v[k] += dv[k];
            }
        }
    }
}

/* subtree_linvel and subtree_angmom (MuJoCo's mj_subtreeVel); mass: the subtrees' masses */
static void subtree_vel(const cs_model *m, cs_data *d, const double *mass)
{
    int nb = m->nbody;
    double *lv = d->subtree_linvel, *am = d->subtree_angmom;
    /* each body's COM velocity in sens_frc's linear part, as scratch (forces come later) */
    double *bv = d->scratch->sens_frc;
    for (int b = 0; b < nb; b++) {
        obj_velocity(m, d, CS_OBJ_BODY, b, bv + 6 * b);
        for (int k = 0; k < 3; k++) lv[3 * b + k] = m->body_mass[b] * bv[6 * b + 3 + k];
        const double *R = d->ximat + 9 * b, *I = m->body_inertia + 3 * b;
        double w[3];
        mulT(w, R, bv + 6 * b);
        for (int k = 0; k < 3; k++) w[k] *= I[k];
        mul(am + 3 * b, R, w);
    }
    for (int b = nb - 1; b >= 0; b--) {
        if (b)
            for (int k = 0; k < 3; k++) lv[3 * m->body_parent[b] + k] += lv[3 * b + k];
        for (int k = 0; k < 3; k++) lv[3 * b + k] /= fmax(1e-15, mass[b]);
    }
    for (int b = nb - 1; b > 0; b--) {
        int p = m->body_parent[b];
        double dx[3], dv[3], dL[3];
        for (int k = 0; k < 3; k++) {
            dx[k] = d->xipos[3 * b + k] - d->subtree_com[3 * b + k];
            dv[k] = (bv[6 * b + 3 + k] - lv[3 * b + k]) * m->body_mass[b];
        }
        cross(dL, dx, dv);
        for (int k = 0; k < 3; k++) am[3 * b + k] += dL[k];
        for (int k = 0; k < 3; k++) am[3 * p + k] += am[3 * b + k];
        for (int k = 0; k < 3; k++) {
            dx[k] = d->subtree_com[3 * b + k] - d->subtree_com[3 * p + k];
            dv[k] = (lv[3 * b + k] - lv[3 * p + k]) * mass[b];
        }
        cross(dL, dx, dv);
        for (int k = 0; k < 3; k++) am[3 * p + k] += dL[k];
    }
}

/* add the wrench (torque t, force f at point p, world) to spatial force s at the origin */
static void add_wrench(double s[6], const double t[3], const double f[3], const double p[3],
                       double sign)
{
    double pf[3];
    cross(pf, p, f);
    for (int k = 0; k < 3; k++) {
        s[k] += sign * (t[k] + pf[k]);
        s[3 + k] += sign * f[k];
    }
}

/* sens_ext and sens_frc (MuJoCo's mj_rnePostConstraint: cfrc_ext from the applied forces,
 * the contacts and the connect and weld constraints; cfrc_int = each body's inertial force
 * minus cfrc_ext, summed up the tree) */
static void body_forces(const cs_model *m, cs_data *d)
{
    int nb = m->nbody;
    double *ext = d->scratch->sens_ext, *frc = d->scratch->sens_frc;
    memset(ext, 0, 6 * (size_t)nb * sizeof *ext);
    for (int b = 1; b < nb; b++)
        add_wrench(ext + 6 * b, d->xfrc_applied + 6 * b + 3, d->xfrc_applied + 6 * b,
                   d->xipos + 3 * b, 1);
    for (int i = 0; i < d->ncon; i++) {
        const cs_contact *c = d->contact + i;
        if (c->efc_address < 0) continue;
        double f[6], fw[3], tw[3];
        cs_contact_force(m, d, i, f);
        mulT(fw, c->frame, f);
        mulT(tw, c->frame, f + 3);
        int b1 = m->geom_body[c->geom1], b2 = m->geom_body[c->geom2];
        if (b1) add_wrench(ext + 6 * b1, tw, fw, c->pos, -1);
        if (b2) add_wrench(ext + 6 * b2, tw, fw, c->pos, 1);
    }
    int nrow = cs_jrow_count(m, d);
    for (int r = 0; r < nrow; r++) {
        cs_jrow J;
        cs_jrow_get(m, d, r, &J);
        if (J.kind != CS_JROW_EQUALITY || J.dof != 0) continue;
        int e = J.eq, weld = m->eq_type[e] == CS_EQ_WELD;
        if (!weld && m->eq_type[e] != CS_EQ_CONNECT) continue;
        double f[3], t[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++) f[k] = d->efc->force[r + k];
        if (weld)
            for (int k = 0; k < 3; k++) t[k] = d->efc->force[r + 3 + k];
        int o[2] = {m->eq_obj1id[e], m->eq_obj2id[e]};
        if (m->eq_objtype[e] == CS_OBJ_SITE) o[0] = m->site_bodyid[o[0]], o[1] = m->site_bodyid[o[1]];
        double p[2][3];
        cs_eq_anchors(m, d, e, p[0], p[1]);
        for (int s = 0; s < 2; s++)
            if (o[s]) add_wrench(ext + 6 * o[s], t, f, p[s], s ? -1 : 1);
    }
    memset(frc, 0, 6 * sizeof *frc);
    for (int b = 1; b < nb; b++) {
        /* the body's inertial force: m a_com and I dw + w x I w about its COM */
        const double *v = d->scratch->sens_vel + 6 * b, *a = d->scratch->sens_acc + 6 * b, *c = d->xipos + 3 * b;
        const double *R = d->ximat + 9 * b, *I = m->body_inertia + 3 * b;
        double vc[6], ac[6], t1[3], F[3], T[3], Iw[3], Idw[3], wIw[3];
        at_point(vc, v, c);
        at_point(ac, a, c);
        cross(t1, vc, vc + 3);
        for (int k = 0; k < 3; k++) F[k] = m->body_mass[b] * (ac[3 + k] + t1[k]);
        mulT(Iw, R, v);
        mulT(Idw, R, a);
        for (int k = 0; k < 3; k++) Iw[k] *= I[k], Idw[k] *= I[k];
        mul(Iw, R, Iw);
        mul(Idw, R, Idw);
        cross(wIw, v, Iw);
        for (int k = 0; k < 3; k++) T[k] = Idw[k] + wIw[k];
        double *s = frc + 6 * b;
        memset(s, 0, 6 * sizeof *s);
        add_wrench(s, T, F, c, 1);
        for (int k = 0; k < 6; k++) s[k] -= ext[6 * b + k];
    }
    for (int b = nb - 1; b > 0; b--)
        for (int k = 0; k < 6; k++) frc[6 * m->body_parent[b] + k] += frc[6 * b + k];
}

/* ---- constraint rows ---------------------------------------------------------------------- */
/* the first limit row of joint j (tendon: tendon >= 0), or -1 */
static int limit_row(const cs_model *m, const cs_data *d, int joint, int tendon)
{
    int n = cs_jrow_count(m, d);
    for (int r = 0; r < n; r++) {
        cs_jrow J;
        cs_jrow_get(m, d, r, &J);
        if (tendon >= 0 ? (J.tendon == tendon && (J.kind == CS_JROW_TENDON_LOWER ||
                                                  J.kind == CS_JROW_TENDON_UPPER))
                        : (J.joint == joint && (J.kind == CS_JROW_LOWER ||
                                                J.kind == CS_JROW_UPPER ||
                                                J.kind == CS_JROW_ANGLE)))
            return r;
    }
    return -1;
}

/* ---- rays ----------------------------------------------------------------------------------- */
/* the nearest geom along pnt + x vec (x >= 0) but those of body `exclude` and the
 * invisible ones (alpha 0), every group (MuJoCo's mj_ray as rangefinders call it) */
static double ray_scene(const cs_model *m, const cs_data *d, const double pnt[3],
                        const double vec[3], int exclude, double normal[3])
{
    double best = -1, nrm[3];
    if (normal) normal[0] = normal[1] = normal[2] = 0;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_body[g] == exclude || m->geom_rgba[4 * g + 3] == 0) continue;
        double x;
        if (m->geom_type[g] == CS_GEOM_MESH) {
            int me = m->geom_dataid[g];
            x = cs_ray_mesh(&d->geom_xpose[g], m->mesh_vert + 3 * (size_t)m->mesh_vertadr[me],
                            m->mesh_face + 3 * (size_t)m->mesh_faceadr[me], m->mesh_facenum[me],
                            m->geom_rbound[g], pnt, vec, normal ? nrm : NULL);
        } else if (m->geom_type[g] == CS_GEOM_HFIELD) {
            int h = m->geom_dataid[g];
            x = cs_ray_hfield(&d->geom_xpose[g], m->hfield_nrow[h], m->hfield_ncol[h],
                              m->hfield_size + 4 * h, m->hfield_data + m->hfield_adr[h], pnt,
                              vec, normal ? nrm : NULL);
        } else {
            x = cs_ray_primitive(&d->geom_xpose[g], m->geom_type[g], m->geom_size + 3 * g, pnt, vec,
                            normal ? nrm : NULL);
        }
        if (x >= 0 && (best < 0 || x < best)) {
            best = x;
            if (normal) memcpy(normal, nrm, sizeof nrm);
        }
    }
    return best;
}

/* one ray's values as the data attribute asks; depth along the camera's axis cz (NULL: a
 * site's ray, its distance) */
static double *ray_values(int spec, double x, const double o[3], const double vec[3],
                          const double nrm[3], const double cpos[3], const double cz[3],
                          double *out)
{
    int hit = x >= 0;
    if (spec & (1 << CS_RAYDATA_DIST)) *out++ = x;
    if (spec & (1 << CS_RAYDATA_DIR))
        for (int k = 0; k < 3; k++) *out++ = hit ? vec[k] : 0;
    if (spec & (1 << CS_RAYDATA_ORIGIN))
        for (int k = 0; k < 3; k++) *out++ = o[k];
    if (spec & (1 << CS_RAYDATA_POINT))
        for (int k = 0; k < 3; k++) *out++ = hit ? o[k] + x * vec[k] : 0;
    if (spec & (1 << CS_RAYDATA_NORMAL))
        for (int k = 0; k < 3; k++) *out++ = hit ? nrm[k] : 0;
    if (spec & (1 << CS_RAYDATA_DEPTH)) {
        double depth = x;
        if (hit && cz) {
            depth = 0;
            for (int k = 0; k < 3; k++) depth -= (o[k] + x * vec[k] - cpos[k]) * cz[k];
        }
        *out++ = hit ? depth : -1;
    }
    return out;
}

/* a camera's pixel geometry as MuJoCo's mju_camIntrinsics gives it: focal lengths and
 * principal point in pixels (orthographic: half the image, so that offsets span -1 .. 1) */
static void cam_pixels(const cs_model *m, int c, double *fx, double *fy, double *cx, double *cy)
{
    int w = m->cam_resolution[2 * c], h = m->cam_resolution[2 * c + 1];
    const double *ss = m->cam_sensorsize + 2 * c, *in = m->cam_intrinsic + 4 * c;
    if (m->cam_projection[c] == CS_PROJ_ORTHOGRAPHIC) {
        *fx = *cx = w / 2.0;
        *fy = *cy = h / 2.0;
        return;
    }
    cam_focal(m, c, fx, fy);
    if (ss[0] && ss[1]) {
        *cx = (float)in[2] / (float)ss[0] * (float)w;
        *cy = (float)in[3] / (float)ss[1] * (float)h;
    } else {
        *cx = w / 2.0;
        *cy = h / 2.0;
    }
}

static void rangefinder(const cs_model *m, const cs_data *d, int i, double *out)
{
    int s = m->sensor_objid[i], spec = m->sensor_intprm[3 * i];
    double nrm[3];
    if (m->sensor_objtype[i] == CS_OBJ_SITE) {
        const double *R = d->site_xmat + 9 * s, *o = d->site_xpos + 3 * s;
        double vec[3] = {R[2], R[5], R[8]};
        double x = ray_scene(m, d, o, vec, m->site_bodyid[s], nrm);
        ray_values(spec, x, o, vec, nrm, NULL, NULL, out);
        return;
    }
    /* a camera: one ray per pixel through its centre, rows from the top, the camera's own
     * body excluded (MuJoCo's depth image) */
    const double *cp = d->cam_xpos + 3 * s, *R = d->cam_xmat + 9 * s;
    double cz[3] = {R[2], R[5], R[8]}, fx, fy, cx, cy, half = m->cam_fovy[s] / 2;
    int w = m->cam_resolution[2 * s], h = m->cam_resolution[2 * s + 1];
    int ortho = m->cam_projection[s] == CS_PROJ_ORTHOGRAPHIC;
    cam_pixels(m, s, &fx, &fy, &cx, &cy);
    for (int row = 0; row < h; row++)
        for (int col = 0; col < w; col++) {
            double px = col + 0.5 - cx, py = row + 0.5 - cy, o[3], vec[3];
            if (ortho) { /* parallel rays along -z from points across the view */
                double a = px / fx * half, b = -py / fy * half;
                for (int k = 0; k < 3; k++) {
                    vec[k] = -R[3 * k + 2];
                    o[k] = cp[k] + R[3 * k] * a + R[3 * k + 1] * b;
                }
            } else {
                double dc[3] = {px / fx, -py / fy, -1}, l = 0;
                for (int k = 0; k < 3; k++) {
                    o[k] = cp[k];
                    vec[k] = R[3 * k] * dc[0] + R[3 * k + 1] * dc[1] + R[3 * k + 2] * dc[2];
                    l += vec[k] * vec[k];
                }
                l = sqrt(l);
                for (int k = 0; k < 3; k++) vec[k] /= l;
            }
            double x = ray_scene(m, d, o, vec, m->cam_bodyid[s], nrm);
            out = ray_values(spec, x, o, vec, nrm, cp, cz, out);
        }
}

/* ---- contact sensors ------------------------------------------------------------------------ */
static int check_match(const cs_model *m, int body, int geom, int type, int id)
{
    switch (type) {
    case CS_OBJ_UNKNOWN:
    case CS_OBJ_SITE: return 1; /* the site's zone was tested already */
    case CS_OBJ_GEOM: return id == geom;
    case CS_OBJ_BODY: return id == body;
    case CS_OBJ_XBODY:
        while (body > id) body = m->body_parent[body];
        return body == id;
    default: return 0;
    }
}

/* 0: contact c does not match; 1: it does, normal as is; -1: it does, normal flipped
 * (MuJoCo's matchContact) */
static int match_contact(const cs_model *m, const cs_data *d, int c, int t1, int id1, int t2,
                         int id2)
{
    if (t1 == CS_OBJ_UNKNOWN && t2 == CS_OBJ_UNKNOWN) return 1;
    const cs_contact *con = d->contact + c;
    if (t1 == CS_OBJ_SITE) {
        cs_pose p = site_pose(d, id1);
        if (!cs_inside_geom(&p, m->site_type[id1], m->site_size + 3 * id1, con->pos)) return 0;
    }
    int g1 = con->geom1, g2 = con->geom2, b1 = m->geom_body[g1], b2 = m->geom_body[g2];
    int m11 = check_match(m, b1, g1, t1, id1), m12 = check_match(m, b2, g2, t1, id1);
    int m21 = check_match(m, b1, g1, t2, id2), m22 = check_match(m, b2, g2, t2, id2);
    if (!m11 && !m12) return 0;
    if (!m21 && !m22) return 0;
    if (t1 != CS_OBJ_UNKNOWN && t2 != CS_OBJ_UNKNOWN) {
        int reg = m11 && m22, rev = m12 && m21;
        if (reg) return 1;
        return rev ? -1 : 0;
    }
    if (t1 != CS_OBJ_UNKNOWN) return m11 ? 1 : -1;
    return m22 ? 1 : -1;
}

static double criterion(const cs_model *m, const cs_data *d, int c, int reduce)
{
    if (reduce == 1) return d->contact[c].dist;
    double f[6];
    cs_contact_force(m, d, c, f);
    return -dot3(f, f);
}

static void contact_sensor(const cs_model *m, const cs_data *d, int i, double *out)
{
    int spec = m->sensor_intprm[3 * i], reduce = m->sensor_intprm[3 * i + 1];
    int dim = m->sensor_dim[i], size = 0;
    for (int k = 0; k < CS_NCONDATA; k++)
        if (spec & (1 << k)) size += CONDATA_SIZE[k];
    int num = dim / size;
    int t1 = m->sensor_objtype[i], id1 = m->sensor_objid[i];
    int t2 = m->sensor_reftype[i], id2 = m->sensor_refid[i];
    memset(out, 0, (size_t)dim * sizeof *out);
    int nmatch = 0;
    for (int c = 0; c < d->ncon; c++) nmatch += match_contact(m, d, c, t1, id1, t2, id2) != 0;

    if (reduce == 3) { /* netforce: one wrench about the force-weighted centre */
        double point[3] = {0, 0, 0}, total = 0, F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1)
                for (int k = 0; k < 3; k++) point[k] /= fmax(total, 1e-15);
            for (int c = 0; c < d->ncon; c++) {
                int mt = match_contact(m, d, c, t1, id1, t2, id2);
                if (!mt) continue;
                double w[6], f[3], t[3], r[3], rf[3];
                cs_contact_force(m, d, c, w);
                if (mt < 0)
                    for (int k = 0; k < 6; k++) w[k] = -w[k];
                const double *pos = d->contact[c].pos;
                if (pass == 0) {
                    double wt = sqrt(dot3(w, w));
                    for (int k = 0; k < 3; k++) point[k] += wt * pos[k];
                    total += wt;
                    continue;
                }
                mulT(f, d->contact[c].frame, w);
                mulT(t, d->contact[c].frame, w + 3);
                for (int k = 0; k < 3; k++) r[k] = pos[k] - point[k];
                cross(rf, r, f);
                for (int k = 0; k < 3; k++) F[k] += f[k], T[k] += t[k] + rf[k];
            }
        }
        double *o = out;
        if (spec & (1 << CS_CONDATA_FOUND)) *o++ = nmatch;
        if (spec & (1 << CS_CONDATA_FORCE)) memcpy(o, F, sizeof F), o += 3;
        if (spec & (1 << CS_CONDATA_TORQUE)) memcpy(o, T, sizeof T), o += 3;
        if (spec & (1 << CS_CONDATA_DIST)) *o++ = 0;
        if (spec & (1 << CS_CONDATA_POS)) memcpy(o, point, sizeof point), o += 3;
        if (spec & (1 << CS_CONDATA_NORMAL)) o[0] = 1, o += 3;
        if (spec & (1 << CS_CONDATA_TANGENT)) o[1] = 1, o += 3;
        return;
    }

    int nslot = num < nmatch ? num : nmatch;
    double lastc = -INFINITY;
    int lastid = -1, next = 0;
    for (int slot = 0; slot < nslot; slot++) {
        /* the slot's contact: the next match in order, or the next by (criterion, index) */
        int pick = -1, flip = 0;
        double best = INFINITY;
        for (int c = reduce ? 0 : next; c < d->ncon; c++) {
            int mt = match_contact(m, d, c, t1, id1, t2, id2);
            if (!mt) continue;
            if (!reduce) {
                pick = c, flip = mt < 0;
                break;
            }
            double cr = criterion(m, d, c, reduce);
            int after = cr > lastc || (cr == lastc && c > lastid);
            if (after && (pick < 0 || cr < best)) pick = c, best = cr, flip = mt < 0;
        }
        if (pick < 0) break;
        next = pick + 1;
        lastc = best, lastid = pick;
        const cs_contact *con = d->contact + pick;
        double *o = out + (size_t)slot * size, w[6];
        if (spec & (1 << CS_CONDATA_FOUND)) *o++ = nmatch;
        if (spec & ((1 << CS_CONDATA_FORCE) | (1 << CS_CONDATA_TORQUE)))
            cs_contact_force(m, d, pick, w);
        if (spec & (1 << CS_CONDATA_FORCE)) {
            memcpy(o, w, 3 * sizeof *o);
            if (flip) o[2] = -o[2];
            o += 3;
        }
        if (spec & (1 << CS_CONDATA_TORQUE)) {
            memcpy(o, w + 3, 3 * sizeof *o);
            if (flip) o[2] = -o[2];
            o += 3;
        }
        if (spec & (1 << CS_CONDATA_DIST)) *o++ = con->dist;
        if (spec & (1 << CS_CONDATA_POS)) memcpy(o, con->pos, 3 * sizeof *o), o += 3;
        if (spec & (1 << CS_CONDATA_NORMAL)) {
            for (int k = 0; k < 3; k++) o[k] = flip ? -con->frame[k] : con->frame[k];
            o += 3;
        }
        if (spec & (1 << CS_CONDATA_TANGENT)) {
            for (int k = 0; k < 3; k++) o[k] = flip ? -con->frame[3 + k] : con->frame[3 + k];
            o += 3;
        }
    }
}

/* ---- distances between geoms ------------------------------------------------------------------ */
/* the smallest signed distance between geoms g1 and g2 below distmax (else distmax), and the
 * segment from g1's surface to g2's (zero when none): the narrow phase with distmax as the
 * margin (MuJoCo's mj_geomDistance) */
static double geom_distance(const cs_model *m, const cs_data *d, int g1, int g2, double distmax,
                            double fromto[6])
{
    double dist = distmax;
    memset(fromto, 0, 6 * sizeof *fromto);
    int flip = m->geom_type[g1] > m->geom_type[g2], a = flip ? g2 : g1, b = flip ? g1 : g2;
    int ta = m->geom_type[a], tb = m->geom_type[b];
    if (ta == CS_GEOM_PLANE && tb == CS_GEOM_PLANE) return dist; /* no collider */
    /* the collision context's hull views (made once with it) */
    const cs_hull *hp[2] = {cs_collision_hull(d->scratch->collision, a),
                            cs_collision_hull(d->scratch->collision, b)};
    cs_geom_contact con[CS_MAXCONPAIR];
    int n;
    if (ta == CS_GEOM_HFIELD) { /* a body's field (MuJoCo: its collider, distmax the margin) */
        int h = m->geom_dataid[a];
        cs_hfield hf = {m->hfield_nrow[h], m->hfield_ncol[h], {0}, m->hfield_data + m->hfield_adr[h]};
        memcpy(hf.size, m->hfield_size + 4 * h, sizeof hf.size);
        n = cs_collide_pair_hfield(d->scratch->collision, &hf, &d->geom_xpose[a], tb, m->geom_size + 3 * b,
                                   hp[1], &d->geom_xpose[b], distmax, con);
    } else {
        n = cs_collide_pair_distance(d->scratch->collision, ta, m->geom_size + 3 * a, hp[0],
                                     &d->geom_xpose[a], tb, m->geom_size + 3 * b, hp[1],
                                     &d->geom_xpose[b], distmax, con);
    }
    int best = -1;
    for (int i = 0; i < n; i++)
        if (con[i].dist < dist) dist = con[i].dist, best = i;
    if (best >= 0) {
        double sign = flip ? -1 : 1;
        for (int k = 0; k < 3; k++) {
            fromto[k] = con[best].pos[k] - 0.5 * sign * dist * con[best].frame[k];
            fromto[3 + k] = con[best].pos[k] + 0.5 * sign * dist * con[best].frame[k];
        }
    }
    return dist;
}

static void geom_sensor(const cs_model *m, const cs_data *d, int i, double *out)
{
    int t = m->sensor_type[i], oi = m->sensor_objid[i], ri = m->sensor_refid[i];
    double cut = m->sensor_cutoff[i], dist = cut, fromto[6] = {0, 0, 0, 0, 0, 0};
    int n1 = 1, id1 = oi, n2 = 1, id2 = ri;
    if (m->sensor_objtype[i] == CS_OBJ_BODY) n1 = m->body_geomnum[oi], id1 = m->body_geomadr[oi];
    if (m->sensor_reftype[i] == CS_OBJ_BODY) n2 = m->body_geomnum[ri], id2 = m->body_geomadr[ri];
    for (int g1 = id1; g1 < id1 + n1; g1++)
        for (int g2 = id2; g2 < id2 + n2; g2++) {
            double ft[6], dn = geom_distance(m, d, g1, g2, cut, ft);
            if (dn < dist) {
                dist = dn;
                memcpy(fromto, ft, sizeof ft);
            }
        }
    if (t == CS_SENS_GEOMDIST) {
        out[0] = dist;
    } else if (t == CS_SENS_GEOMNORMAL) {
        double nrm[3] = {fromto[3] - fromto[0], fromto[4] - fromto[1], fromto[5] - fromto[2]};
        double len = sqrt(dot3(nrm, nrm));
        if (len >= 1e-15)
            for (int k = 0; k < 3; k++) nrm[k] /= len;
        else if (nrm[0] || nrm[1] || nrm[2]) /* MuJoCo's normalize of a tiny vector */
            nrm[0] = 1, nrm[1] = nrm[2] = 0;
        memcpy(out, nrm, sizeof nrm);
    } else {
        memcpy(out, fromto, sizeof fromto);
    }
}

/* ---- the passes ------------------------------------------------------------------------------- */
static void cutoff(const cs_model *m, int i, double *v)
{
    double c = m->sensor_cutoff[i];
    int t = m->sensor_type[i];
    if (c <= 0 || t == CS_SENS_CONTACT || t == CS_SENS_GEOMFROMTO) return;
    for (int k = 0; k < m->sensor_dim[i]; k++) {
        if (m->sensor_datatype[i] == CS_DATATYPE_REAL) v[k] = fmin(fmax(v[k], -c), c);
        else if (m->sensor_datatype[i] == CS_DATATYPE_POSITIVE) v[k] = fmin(c, v[k]);
    }
}

static void frame_vector(const cs_model *m, const cs_data *d, int i, double *out)
{
    int t = m->sensor_type[i], ot = m->sensor_objtype[i], oi = m->sensor_objid[i];
    int rt = m->sensor_reftype[i], ri = m->sensor_refid[i];
    const double *p, *R, *pr = NULL, *Rr = NULL;
    obj_frame(m, d, ot, oi, &p, &R);
    if (ri >= 0) obj_frame(m, d, rt, ri, &pr, &Rr);
    double v[3];
    if (t == CS_SENS_FRAMEPOS) {
        for (int k = 0; k < 3; k++) v[k] = p[k] - (pr ? pr[k] : 0);
    } else {
        int a = t - CS_SENS_FRAMEXAXIS;
        v[0] = R[a], v[1] = R[3 + a], v[2] = R[6 + a];
    }
    if (Rr) mulT(v, Rr, v);
    memcpy(out, v, sizeof v);
}

/* one position-stage sensor */
static void sensor_pos(const cs_model *m, cs_data *d, int i, double *out)
{
    int t = m->sensor_type[i], oi = m->sensor_objid[i], ri = m->sensor_refid[i];
    switch (t) {
    case CS_SENS_MAGNETOMETER: mulT(out, d->site_xmat + 9 * oi, m->opt.magnetic); break;
    case CS_SENS_RANGEFINDER: rangefinder(m, d, i, out); break;
    case CS_SENS_CAMPROJECTION: cam_project(m, d, oi, m->sensor_refid[i], out); break;
    case CS_SENS_JOINTPOS: out[0] = d->qpos[m->jnt_qposadr[oi]]; break;
    case CS_SENS_TENDONPOS: out[0] = d->ten_length[oi]; break;
    case CS_SENS_ACTUATORPOS: /* one value per force output */
        memcpy(out, d->actuator_length + m->actuator_outadr[oi],
               (size_t)m->sensor_dim[i] * sizeof *out);
        break;
    case CS_SENS_BALLQUAT:
        memcpy(out, d->qpos + m->jnt_qposadr[oi], 4 * sizeof *out);
        cs_normquat(out);
        break;
    case CS_SENS_JOINTLIMITPOS:
    case CS_SENS_TENDONLIMITPOS: {
        int r = limit_row(m, d, t == CS_SENS_JOINTLIMITPOS ? oi : -1,
                          t == CS_SENS_TENDONLIMITPOS ? oi : -1);
        out[0] = r < 0 ? 0 : d->efc->pos[r] - d->efc->margin[r];
        break;
    }
    case CS_SENS_FRAMEPOS:
    case CS_SENS_FRAMEXAXIS:
    case CS_SENS_FRAMEYAXIS:
    case CS_SENS_FRAMEZAXIS: frame_vector(m, d, i, out); break;
    case CS_SENS_FRAMEQUAT: {
        double q[4], qr[4];
        obj_quat(m, d, m->sensor_objtype[i], oi, q);
        if (ri < 0) {
            memcpy(out, q, sizeof q);
        } else {
            obj_quat(m, d, m->sensor_reftype[i], ri, qr);
            qr[1] = -qr[1], qr[2] = -qr[2], qr[3] = -qr[3];
            cs_mulquat(out, qr, q);
        }
        break;
    }
    case CS_SENS_SUBTREECOM: memcpy(out, d->subtree_com + 3 * oi, 3 * sizeof *out); break;
    case CS_SENS_INSIDESITE: {
        const double *p, *R;
        obj_frame(m, d, m->sensor_objtype[i], oi, &p, &R);
        /* a massless body with mass below it: its subtree's centre (MuJoCo's rule) */
        if (m->sensor_objtype[i] == CS_OBJ_BODY && oi > 0 && m->body_mass[oi] < 1e-15 &&
            d->scratch->subtree_mass[oi] >= 1e-15)
            p = d->subtree_com + 3 * oi;
        cs_pose sp = site_pose(d, ri);
        out[0] = cs_inside_geom(&sp, m->site_type[ri], m->site_size + 3 * ri, p);
        break;
    }
    case CS_SENS_E_POTENTIAL: out[0] = cs_energy_potential(m, d); break;
    case CS_SENS_E_KINETIC: out[0] = cs_energy_kinetic(m, d); break;
    case CS_SENS_CLOCK: out[0] = d->time; break;
    case CS_SENS_GEOMDIST:
    case CS_SENS_GEOMNORMAL:
    case CS_SENS_GEOMFROMTO: geom_sensor(m, d, i, out); break;
    default: memset(out, 0, (size_t)m->sensor_dim[i] * sizeof *out); break;
    }
}

static void sensor_vel(const cs_model *m, cs_data *d, int i, double *out)
{
    int t = m->sensor_type[i], oi = m->sensor_objid[i], ri = m->sensor_refid[i];
    double v[6];
    switch (t) {
    case CS_SENS_VELOCIMETER:
    case CS_SENS_GYRO:
        obj_velocity(m, d, CS_OBJ_SITE, oi, v);
        mulT(out, d->site_xmat + 9 * oi, t == CS_SENS_GYRO ? v : v + 3);
        break;
    case CS_SENS_JOINTVEL: out[0] = d->qvel[m->jnt_dofadr[oi]]; break;
    case CS_SENS_TENDONVEL: out[0] = d->ten_velocity[oi]; break;
    case CS_SENS_ACTUATORVEL:
        memcpy(out, d->actuator_velocity + m->actuator_outadr[oi],
               (size_t)m->sensor_dim[i] * sizeof *out);
        break;
    case CS_SENS_BALLANGVEL: memcpy(out, d->qvel + m->jnt_dofadr[oi], 3 * sizeof *out); break;
    case CS_SENS_JOINTLIMITVEL:
    case CS_SENS_TENDONLIMITVEL: {
        int r = limit_row(m, d, t == CS_SENS_JOINTLIMITVEL ? oi : -1,
                          t == CS_SENS_TENDONLIMITVEL ? oi : -1);
        out[0] = r < 0 ? 0 : d->efc->vel[r];
        break;
    }
    case CS_SENS_FRAMELINVEL:
    case CS_SENS_FRAMEANGVEL: {
        obj_velocity(m, d, m->sensor_objtype[i], oi, v);
        if (ri >= 0) {
            const double *p, *R, *pr, *Rr;
            double vr[6], r[3], c[3];
            obj_frame(m, d, m->sensor_objtype[i], oi, &p, &R);
            obj_frame(m, d, m->sensor_reftype[i], ri, &pr, &Rr);
            obj_velocity(m, d, m->sensor_reftype[i], ri, vr);
            for (int k = 0; k < 6; k++) v[k] -= vr[k];
            for (int k = 0; k < 3; k++) r[k] = p[k] - pr[k];
            cross(c, r, vr); /* the reference frame's rotation */
            for (int k = 0; k < 3; k++) v[3 + k] += c[k];
            mulT(v, Rr, v);
            mulT(v + 3, Rr, v + 3);
        }
        memcpy(out, t == CS_SENS_FRAMELINVEL ? v + 3 : v, 3 * sizeof *out);
        break;
    }
    case CS_SENS_SUBTREELINVEL: memcpy(out, d->subtree_linvel + 3 * oi, 3 * sizeof *out); break;
    case CS_SENS_SUBTREEANGMOM: memcpy(out, d->subtree_angmom + 3 * oi, 3 * sizeof *out); break;
    default: memset(out, 0, (size_t)m->sensor_dim[i] * sizeof *out); break;
    }
}

static void sensor_acc(const cs_model *m, cs_data *d, int i, double *out)
{
    int t = m->sensor_type[i], oi = m->sensor_objid[i];
    double a[6];
    switch (t) {
    case CS_SENS_TOUCH: {
        int body = m->site_bodyid[oi];
        cs_pose sp = site_pose(d, oi);
        out[0] = 0;
        for (int c = 0; c < d->ncon; c++) {
            const cs_contact *con = d->contact + c;
            int b1 = m->geom_body[con->geom1], b2 = m->geom_body[con->geom2];
            if (con->efc_address < 0 || (body != b1 && body != b2)) continue;
            double f[6], ray[3];
            cs_contact_force(m, d, c, f);
            if (f[0] <= 0) continue;
            /* the normal force's line, from the contact towards the sensor's body */
            for (int k = 0; k < 3; k++) ray[k] = con->frame[k] * (body == b2 ? -1 : 1);
            if (cs_ray_primitive(&sp, m->site_type[oi], m->site_size + 3 * oi, con->pos, ray, NULL) >= 0)
                out[0] += f[0];
        }
        break;
    }
    case CS_SENS_CONTACT: contact_sensor(m, d, i, out); break;
    case CS_SENS_ACCELEROMETER:
        obj_accel(m, d, CS_OBJ_SITE, oi, a);
        mulT(out, d->site_xmat + 9 * oi, a + 3);
        break;
    case CS_SENS_FORCE:
    case CS_SENS_TORQUE: {
        const double *s = d->scratch->sens_frc + 6 * m->site_bodyid[oi], *p = d->site_xpos + 3 * oi;
        double v[3];
        if (t == CS_SENS_FORCE) {
            memcpy(v, s + 3, sizeof v);
        } else { /* the torque about the site: moved from the origin */
            double pf[3];
            cross(pf, p, s + 3);
            for (int k = 0; k < 3; k++) v[k] = s[k] - pf[k];
        }
        mulT(out, d->site_xmat + 9 * oi, v);
        break;
    }
    case CS_SENS_ACTUATORFRC:
        memcpy(out, d->actuator_force + m->actuator_outadr[oi],
               (size_t)m->sensor_dim[i] * sizeof *out);
        break;
    case CS_SENS_JOINTACTFRC: out[0] = d->qfrc_actuator[m->jnt_dofadr[oi]]; break;
    case CS_SENS_TENDONACTFRC:
        out[0] = 0;
        for (int u = 0; u < m->nactuator; u++)
            if (m->actuator_trntype[u] == CS_TRN_TENDON && m->actuator_trnid[2 * u] == oi)
                out[0] += d->actuator_force[m->actuator_outadr[u]];
        break;
    case CS_SENS_JOINTLIMITFRC:
    case CS_SENS_TENDONLIMITFRC: {
        int r = limit_row(m, d, t == CS_SENS_JOINTLIMITFRC ? oi : -1,
                          t == CS_SENS_TENDONLIMITFRC ? oi : -1);
        out[0] = r < 0 ? 0 : d->efc->force[r];
        break;
    }
    case CS_SENS_FRAMELINACC:
    case CS_SENS_FRAMEANGACC:
        obj_accel(m, d, m->sensor_objtype[i], oi, a);
        memcpy(out, t == CS_SENS_FRAMELINACC ? a + 3 : a, 3 * sizeof *out);
        break;
    default: memset(out, 0, (size_t)m->sensor_dim[i] * sizeof *out); break;
    }
}

static int has_stage(const cs_model *m, int stage)
{
    if (m->opt.disableflags & CS_DSBL_SENSOR) return 0;
    for (int i = 0; i < m->nsensor; i++)
        if (m->sensor_needstage[i] == stage) return 1;
    return 0;
}

/* one sensor of any stage, cut off (MuJoCo's mj_computeSensor) */
void cs_sensor_compute(const cs_model *m, cs_data *d, int i, double *out)
{
    switch (m->sensor_needstage[i]) {
    case CS_STAGE_POS: sensor_pos(m, d, i, out); break;
    case CS_STAGE_VEL: sensor_vel(m, d, i, out); break;
    default: sensor_acc(m, d, i, out); break;
    }
    cutoff(m, i, out);
}

/* user sensors: MuJoCo clears them for a callback conesim does not have; a sensor read from
 * its history buffer takes the stored value, already cut off */
static void pass(const cs_model *m, cs_data *d, int stage,
                 void (*one)(const cs_model *, cs_data *, int, double *))
{
    int sf = cs_sleep_filter(m, d); /* a sleeping sensor keeps its values (MuJoCo's) */
    for (int i = 0; i < m->nsensor; i++) {
        if (m->sensor_needstage[i] != stage) continue;
        if (sf && cs_sensor_asleep(m, d, i)) continue;
        double *out = d->sensordata + m->sensor_adr[i];
        if (m->sensor_type[i] == CS_SENS_USER) {
            memset(out, 0, (size_t)m->sensor_dim[i] * sizeof *out);
        } else if (!cs_history_sensor(m, d, i, out)) {
            one(m, d, i, out);
            cutoff(m, i, out);
        }
    }
}

/* what the stages' sensors read besides the step's results */
static void prepare_pos(const cs_model *m, cs_data *d) { cs_subtree_com(m, d); }

/* subtree_linvel and subtree_angmom are made only for the sensors that read them, as
 * MuJoCo's mj_sensorVel calls mj_subtreeVel */
static int reads_subtree_vel(const cs_model *m)
{
    for (int i = 0; i < m->nsensor; i++)
        if (m->sensor_type[i] == CS_SENS_SUBTREELINVEL || m->sensor_type[i] == CS_SENS_SUBTREEANGMOM)
            return 1;
    return 0;
}

static void prepare_vel(const cs_model *m, cs_data *d, int all)
{
    body_motion(m, d, 0);
    if (all || reads_subtree_vel(m)) {
        cs_subtree_com(m, d);
        subtree_vel(m, d, d->scratch->subtree_mass);
    }
}

static void prepare_acc(const cs_model *m, cs_data *d)
{
    body_motion(m, d, 1);
    body_forces(m, d);
}

void cs_sensor_prepare(const cs_model *m, cs_data *d)
{
    prepare_vel(m, d, 1);
    prepare_acc(m, d);
}

void cs_sensor_pos(const cs_model *m, cs_data *d)
{
    if (!has_stage(m, CS_STAGE_POS)) return;
    prepare_pos(m, d);
    pass(m, d, CS_STAGE_POS, sensor_pos);
}

void cs_sensor_vel(const cs_model *m, cs_data *d)
{
    if (!has_stage(m, CS_STAGE_VEL)) return;
    prepare_vel(m, d, 0);
    pass(m, d, CS_STAGE_VEL, sensor_vel);
}

void cs_sensor_acc(const cs_model *m, cs_data *d)
{
    if (!has_stage(m, CS_STAGE_ACC)) return;
    prepare_acc(m, d);
    pass(m, d, CS_STAGE_ACC, sensor_acc);
}
