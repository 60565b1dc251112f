/* Inverse dynamics (MuJoCo's mj_inverse, continuous time): the generalised force that,
 * with the passive and constraint forces, gives the acceleration in d->qacc. Under the
 * soft model each constraint's force is a function of the acceleration (MuJoCo's
 * mj_constraintUpdate: f = -dl/dj at j = J qacc - a_ref, docs/contact-math.md), so the
 * inverse is explicit: no solve. At a forward's qacc it returns the forward's contact forces
 * and qfrc_inverse = qfrc_applied + J^T xfrc_applied + qfrc_actuator. */
#include <stdio.h>
#include <string.h>

#include "conesim.h"
#include "setter.h"
#include "solver/solver.h"
#include "stages.h"

/* the row forces of every block at acceleration qacc, decoded onto the blocks */
static int soft_forces(cs_efc *e, const double *qacc)
{
    for (int k = 0; k < e->nblock; k++) {
        int r0 = e->blk_row[k], n = e->blk_nrow[k];
        double j[CS_MAXROWS];
        if (n > CS_MAXROWS) return -1;
        for (int i = 0; i < n; i++) {
            int r = r0 + i, b = e->block[r], nd0 = e->blk_ndof[2 * b];
            int z0 = e->blk_nzdof[2 * b], z1 = nd0 + e->blk_nzdof[2 * b + 1];
            const double *J = e->J + e->J_rowadr[r];
            const int *ci = e->J_colind + e->J_rowadr[r];
            double s = 0;
            for (int q = 0; q < z0; q++) s += J[q] * qacc[ci[q]];
            for (int q = nd0; q < z1; q++) s += J[q] * qacc[ci[q]];
            j[i] = s - e->aref[r];
        }
        double cost;
        e->blk_zone[k] = (int)cs_efc_soft(e, k, j, e->force + r0, &cost, NULL);
        cs_efc_decode(e, k, e->force + r0, e->blk_force + CS_MAXDIM * k);
    }
    return 0;
}

int cs_inverse(const cs_model *m, cs_data *d, char *err, size_t errsz)
{
    if (!m || !d) return -1;
    if (m->opt.contact == CS_CONTACT_COULOMB) {
        if (err && errsz)
            snprintf(err, errsz, "inverse dynamics: the Coulomb model's forces are not a "
                                 "function of the acceleration (the soft model's are)");
        return -1;
    }
    if (d->nchange != m->nchange) cs_data_sync(m, d); /* cs_set since the last step */
    /* position and velocity stages as the forward's; d->qacc is the input */
    cs_kinematics(m, d);
    cs_tendon(m, d);
    cs_collide(m, d);
    cs_smooth(m, d);
    cs_constraint_rows(m, d);
    if (soft_forces(d->efc, d->qacc) != 0) {
        if (err && errsz) snprintf(err, errsz, "inverse dynamics: a constraint block too large");
        return -1;
    }
    cs_constraint_store(m, d);
    /* qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint */
    cs_mul_M(m, d, d->qfrc_inverse, d->qacc);
    for (int i = 0; i < m->nv; i++)
        d->qfrc_inverse[i] += d->qfrc_bias[i] - d->qfrc_passive[i] - d->qfrc_constraint[i];
    return 0;
}
