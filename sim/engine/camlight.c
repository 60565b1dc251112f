/* Cameras and lights in the world (MuJoCo's mj_camlight): each on its body, or by its mode
 * tracking its body's position (track) or its subtree's centre of mass (trackcom) at the
 * offset of the reference pose and with the orientation it had there, or turned to look at
 * a target body's position (targetbody) or subtree centre (targetbodycom). Also the subtree
 * centres of mass (MuJoCo's mj_comPos part), which those modes and the sensors use. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "stages.h"

void cs_subtree_com(const cs_model *m, cs_data *d)
{
    double *mass = d->scratch->subtree_mass;
    for (int b = 0; b < m->nbody; b++) {
        mass[b] = m->body_mass[b];
        for (int k = 0; k < 3; k++) d->subtree_com[3 * b + k] = m->body_mass[b] * d->xipos[3 * b + k];
    }
    for (int b = m->nbody - 1; b > 0; b--) {
        int p = m->body_parent[b];
        mass[p] += mass[b];
        for (int k = 0; k < 3; k++) d->subtree_com[3 * p + k] += d->subtree_com[3 * b + k];
    }
    /* times the inverse mass, as MuJoCo rounds it */
    for (int b = 0; b < m->nbody; b++) {
        double inv = mass[b] < 1e-15 ? 0 : 1.0 / mass[b];
        for (int k = 0; k < 3; k++)
            d->subtree_com[3 * b + k] =
                mass[b] < 1e-15 ? d->xipos[3 * b + k] : d->subtree_com[3 * b + k] * inv;
    }
}

/* camera (cam 1) or light (cam 0) i: world position, and the camera's frame R (rows: world
 * axes; columns x, y, z) or the light's direction (R[0..2]) */
static void camlight(const cs_model *m, const cs_data *d, int cam, int i, double pos[3],
                     double R[9])
{
    int b = cam ? m->cam_bodyid[i] : m->light_bodyid[i];
    int mode = cam ? m->cam_mode[i] : m->light_mode[i];
    int tb = cam ? m->cam_targetbodyid[i] : m->light_targetbodyid[i];
    const double *lp = cam ? m->cam_pos + 3 * i : m->light_pos + 3 * i, *X = d->xmat + 9 * b;
    for (int k = 0; k < 3; k++)
        pos[k] = d->xpos[3 * b + k] + X[3 * k] * lp[0] + X[3 * k + 1] * lp[1] + X[3 * k + 2] * lp[2];
    if (cam) {
        double q[4]; /* through the quaternions, as MuJoCo rounds it */
        cs_mulquat(q, d->xquat + 4 * b, m->cam_quat + 4 * i);
        cs_quat2mat(R, q);
    } else {
        const double *ld = m->light_dir + 3 * i;
        for (int k = 0; k < 3; k++) R[k] = X[3 * k] * ld[0] + X[3 * k + 1] * ld[1] + X[3 * k + 2] * ld[2];
    }
    if (mode == 1 || mode == 2) {
        const double *off = mode == 1 ? (cam ? m->cam_pos0 : m->light_pos0) + 3 * i
                                      : (cam ? m->cam_poscom0 : m->light_poscom0) + 3 * i;
        const double *from = mode == 1 ? d->xpos + 3 * b : d->subtree_com + 3 * b;
        for (int k = 0; k < 3; k++) pos[k] = from[k] + off[k];
        if (cam) memcpy(R, m->cam_mat0 + 9 * i, 9 * sizeof *R);
        else memcpy(R, m->light_dir0 + 3 * i, 3 * sizeof *R);
    } else if ((mode == 3 || mode == 4) && tb >= 0) {
        const double *t = mode == 3 ? d->xpos + 3 * tb : d->subtree_com + 3 * tb;
        double z[3] = {pos[0] - t[0], pos[1] - t[1], pos[2] - t[2]};
        double n = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
        if (n < 1e-12) return;
        for (int k = 0; k < 3; k++) z[k] /= n;
        if (!cam) {
            for (int k = 0; k < 3; k++) R[k] = -z[k];
            return;
        }
        /* x orthogonal to z and world up, y completes it */
        double x[3] = {-z[1], z[0], 0}, y[3];
        double nx = sqrt(x[0] * x[0] + x[1] * x[1]);
        if (nx < 1e-12) x[0] = 1, x[1] = 0, nx = 1;
        for (int k = 0; k < 2; k++) x[k] /= nx;
        y[0] = z[1] * x[2] - z[2] * x[1];
        y[1] = z[2] * x[0] - z[0] * x[2];
        y[2] = z[0] * x[1] - z[1] * x[0];
        for (int k = 0; k < 3; k++) {
            R[3 * k] = x[k];
            R[3 * k + 1] = y[k];
            R[3 * k + 2] = z[k];
        }
    }
}

void cs_camlight(const cs_model *m, cs_data *d)
{
    if (!m->ncam && !m->nlight) return;
    /* the subtree centres only for what tracks or targets one (trackcom, targetbodycom) */
    int com = 0;
    for (int i = 0; i < m->ncam && !com; i++) com = m->cam_mode[i] == 2 || m->cam_mode[i] == 4;
    for (int i = 0; i < m->nlight && !com; i++)
        com = m->light_mode[i] == 2 || m->light_mode[i] == 4;
    if (com) cs_subtree_com(m, d);
    for (int i = 0; i < m->ncam; i++) camlight(m, d, 1, i, d->cam_xpos + 3 * i, d->cam_xmat + 9 * i);
    for (int i = 0; i < m->nlight; i++) {
        double dir[9];
        camlight(m, d, 0, i, d->light_xpos + 3 * i, dir);
        memcpy(d->light_xdir + 3 * i, dir, 3 * sizeof *dir);
    }
}
