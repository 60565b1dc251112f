/* MuJoCo's "same frame" rule: a geom or site whose pose in its body is within 1e-6 (each
 * component, either sign of the quaternion) of the body frame or of the body's inertial
 * frame is placed at that frame, and an inertial frame that close to the body frame is the
 * body frame. MuJoCo 3.12 decides this when it compiles (and again after a model change) and
 * copies the frame at every step, so a geom given a pose that differs from the inertial
 * frame by rounding sits exactly on it; conesim follows, for the same contacts. */
#include <math.h>

#include "conesim.h"
#include "sameframe.h"
#include "spatial.h"

#define EPS 1e-6

static int same_vec(const double *a, const double *b)
{
    return fabs(a[0] - b[0]) < EPS && fabs(a[1] - b[1]) < EPS && fabs(a[2] - b[2]) < EPS;
}

static int same_quat(const double *a, const double *b)
{
    int plus = 1, minus = 1;
    for (int k = 0; k < 4; k++) {
        plus = plus && fabs(a[k] - b[k]) < EPS;
        minus = minus && fabs(a[k] + b[k]) < EPS;
    }
    return plus || minus;
}

static const double ZERO[3] = {0, 0, 0}, UNIT[4] = {1, 0, 0, 0};

static int frame_kind(const double *pos, const double *quat, const double *ipos,
                      const double *iquat)
{
    if (same_vec(pos, ZERO) && same_quat(quat, UNIT)) return CS_SAMEFRAME_BODY;
    if (same_quat(quat, UNIT)) return CS_SAMEFRAME_BODYROT;
    if (same_vec(pos, ipos) && same_quat(quat, iquat)) return CS_SAMEFRAME_INERTIA;
    if (same_quat(quat, iquat)) return CS_SAMEFRAME_INERTIAROT;
    return CS_SAMEFRAME_NONE;
}

void cs_sameframe_geom(cs_model *m, int g)
{
    int b = m->geom_body[g];
    m->geom_sameframe[g] = frame_kind(m->geom_pos + 3 * g, m->geom_quat + 4 * g,
                                      m->body_ipos + 3 * b, m->body_iquat + 4 * b);
}

void cs_sameframe_all(cs_model *m)
{
    m->body_sameframe[0] = CS_SAMEFRAME_BODY;
    for (int b = 1; b < m->nbody; b++) {
        const double *ip = m->body_ipos + 3 * b, *iq = m->body_iquat + 4 * b;
        m->body_sameframe[b] = same_vec(ip, ZERO) && same_quat(iq, UNIT) ? CS_SAMEFRAME_BODY
                               : same_quat(iq, UNIT)                     ? CS_SAMEFRAME_BODYROT
                                                                         : CS_SAMEFRAME_NONE;
    }
    for (int g = 0; g < m->ngeom; g++) cs_sameframe_geom(m, g);
    for (int s = 0; s < m->nsite; s++) {
        int b = m->site_bodyid[s];
        m->site_sameframe[s] = frame_kind(m->site_pos + 3 * s, m->site_quat + 4 * s,
                                          m->body_ipos + 3 * b, m->body_iquat + 4 * b);
    }
}

/* the world pose of a frame at (pos, quat) in body b, or the frame it was found to share */
void cs_local2global(const cs_data *d, int b, int sameframe, const double pos[3],
                     const double quat[4], double xpos[3], double xmat[9])
{
    const double *bp = d->xpos + 3 * b, *bm = d->xmat + 9 * b;
    switch ((cs_sameframe)sameframe) {
    case CS_SAMEFRAME_BODY:
        for (int k = 0; k < 3; k++) xpos[k] = bp[k];
        break;
    case CS_SAMEFRAME_INERTIA:
        for (int k = 0; k < 3; k++) xpos[k] = d->xipos[3 * b + k];
        break;
    case CS_SAMEFRAME_NONE:
    case CS_SAMEFRAME_BODYROT:
    case CS_SAMEFRAME_INERTIAROT:
        sp_mulmv3(bm, pos, xpos);
        for (int k = 0; k < 3; k++) xpos[k] += bp[k];
        break;
    }
    const double *R = NULL;
    double Rq[4];
    switch ((cs_sameframe)sameframe) {
    case CS_SAMEFRAME_BODY:
    case CS_SAMEFRAME_BODYROT: R = bm; break;
    case CS_SAMEFRAME_INERTIA:
    case CS_SAMEFRAME_INERTIAROT: R = d->ximat + 9 * b; break;
    case CS_SAMEFRAME_NONE: /* through the quaternions, as MuJoCo: the product of the
                               matrices rounds differently */
        cs_mulquat(Rq, d->xquat + 4 * b, quat);
        cs_quat2mat(xmat, Rq);
        return;
    }
    for (int k = 0; k < 9; k++) xmat[k] = R[k];
}
