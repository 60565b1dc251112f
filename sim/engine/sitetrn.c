/* The site transmission, MuJoCo 3.12's (mj_transmission, mjTRN_SITE). Without a reference
 * site the actuator is a wrench at the site: gear (force, then torque, in the site's frame)
 * turned into the world, its moment the site's Jacobians projected on it, length 0. With a
 * reference site its length is the site's position in the reference frame dotted with the
 * translational gear, plus the rotation from the reference site's orientation to the
 * site's (MuJoCo's quaternion difference) dotted with the rotational gear; the moment is
 * the Jacobian difference projected on the gear turned by the reference frame, the columns
 * of the two sites' common ancestral dofs cleared (motion that moves both alike). An
 * orientation servo's (MuJoCo's mjTRN_SO3 with a reference site) has three lengths, the
 * rotation vector between the two frames, and three moment rows, the relative angular
 * velocity about each of the site's axes. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "spatial.h"
#include "stages.h"

static void project(int nv, const double *J, const double w[3], double *out, int add)
{
    for (int q = 0; q < nv; q++) {
        double s = J[q] * w[0] + J[nv + q] * w[1] + J[2 * nv + q] * w[2];
        out[q] = add ? out[q] + s : s;
    }
}

/* the deepest dof both sites' bodies hang from (-1: none) */
static int common_dof(const cs_model *m, int s0, int s1)
{
    int b0 = m->body_weldid[m->site_bodyid[s0]], b1 = m->body_weldid[m->site_bodyid[s1]];
    int d0 = m->body_dofadr[b0] + m->body_dofnum[b0] - 1;
    int d1 = m->body_dofadr[b1] + m->body_dofnum[b1] - 1;
    if (d0 < 0 || d1 < 0 || m->body_dofnum[b0] == 0 || m->body_dofnum[b1] == 0) return -1;
    while (d0 != d1) {
        if (d0 < d1) d1 = m->dof_parent[d1];
        else d0 = m->dof_parent[d0];
        if (d0 < 0 || d1 < 0) return -1;
    }
    return d0;
}

static void clear_chain(const cs_model *m, double *J, int dof)
{
    int nv = m->nv;
    for (int q = dof; q >= 0; q = m->dof_parent[q]) J[q] = J[nv + q] = J[2 * nv + q] = 0;
}

double cs_site_transmission(const cs_model *m, const cs_data *d, int i, double *moment,
                            double *scratch)
{
    int nv = m->nv, id = m->actuator_trnid[2 * i], ref = m->actuator_trnid[2 * i + 1];
    const double *gear = m->actuator_gear + 6 * i, *R = d->site_xmat + 9 * id;
    double *jac = scratch, *jacS = scratch + 3 * (size_t)nv, *jref = scratch + 6 * (size_t)nv;
    cs_jac_site(m, d, id, jac, jacS);
    if (ref < 0) {
        double w[3];
        sp_mulmv3(R, gear, w);
        project(nv, jac, w, moment, 0);
        sp_mulmv3(R, gear + 3, w);
        project(nv, jacS, w, moment, 1);
        return 0;
    }
    const double *Rr = d->site_xmat + 9 * ref;
    int common = common_dof(m, id, ref);
    double len = 0;
    memset(moment, 0, (size_t)nv * sizeof *moment);
    if (gear[0] != 0 || gear[1] != 0 || gear[2] != 0) {
        double v[3], vr[3], w[3];
        for (int k = 0; k < 3; k++) v[k] = d->site_xpos[3 * id + k] - d->site_xpos[3 * ref + k];
        sp_mulmtv3(Rr, v, vr);
        len += sp_dot3(vr, gear);
        cs_jac_site(m, d, ref, jref, NULL);
        for (size_t q = 0; q < 3 * (size_t)nv; q++) jac[q] -= jref[q];
        if (common >= 0) clear_chain(m, jac, common);
        sp_mulmv3(Rr, gear, w);
        project(nv, jac, w, moment, 0);
    }
    if (gear[3] != 0 || gear[4] != 0 || gear[5] != 0) {
        /* MuJoCo forms each site's orientation as site_quat * xquat (its order) */
        double q[4], qr[4], v[3], w[3];
        cs_mulquat(q, m->site_quat + 4 * id, d->xquat + 4 * m->site_bodyid[id]);
        cs_mulquat(qr, m->site_quat + 4 * ref, d->xquat + 4 * m->site_bodyid[ref]);
        cs_subquat(v, q, qr);
        len += sp_dot3(v, gear + 3);
        cs_jac_site(m, d, ref, NULL, jref);
        for (size_t k = 0; k < 3 * (size_t)nv; k++) jacS[k] -= jref[k];
        if (common >= 0) clear_chain(m, jacS, common);
        sp_mulmv3(Rr, gear + 3, w);
        project(nv, jacS, w, moment, 1);
    }
    return len;
}

void cs_site_so3(const cs_model *m, const cs_data *d, int i, double len[3], double *moment,
                 double *scratch)
{
    int nv = m->nv, id = m->actuator_trnid[2 * i], ref = m->actuator_trnid[2 * i + 1];
    double *jacS = scratch, *jref = scratch + 3 * (size_t)nv;
    /* the rotation from the reference site's frame to the site's, MuJoCo's quaternions */
    double q[4], qr[4];
    cs_mulquat(q, m->site_quat + 4 * id, d->xquat + 4 * m->site_bodyid[id]);
    cs_mulquat(qr, m->site_quat + 4 * ref, d->xquat + 4 * m->site_bodyid[ref]);
    cs_subquat(len, q, qr);
    cs_jac_site(m, d, id, NULL, jacS);
    cs_jac_site(m, d, ref, NULL, jref);
    for (size_t k = 0; k < 3 * (size_t)nv; k++) jacS[k] -= jref[k];
    int common = common_dof(m, id, ref);
    if (common >= 0) clear_chain(m, jacS, common);
    /* row k: the relative angular velocity about the site's axis k */
    const double *R = d->site_xmat + 9 * id;
    for (int k = 0; k < 3; k++) {
        double w[3] = {R[k], R[k + 3], R[k + 6]};
        project(nv, jacS, w, moment + (size_t)k * nv, 0);
    }
}
