/* Adhesion (MuJoCo 3.12's geom/pair adhesion and <adhesion> actuators): forces along the
 * normals of contacts, outside the solver. A contact's adhesion is a constant attraction of
 * the two surfaces (qfrc_adhesion, part of qfrc_passive); the solver sees it through its
 * rows' a_ref (solver/rows.c). A body transmission pulls the body's contacts together with
 * the actuator's force shared equally among them. */
#include <string.h>

#include "conesim.h"
#include "stages.h"

/* q += s n^T (J2 - J1) at the contact point: the generalised force of s along the normal,
 * pushing geom2 away from geom1 (s < 0 pulls them together) */
static void add_normal_force(const cs_model *m, const cs_data *d, const cs_contact *c, double s,
                             double *q)
{
    double F2[3] = {s * c->frame[0], s * c->frame[1], s * c->frame[2]};
    double F1[3] = {-F2[0], -F2[1], -F2[2]};
    cs_add_point_force(m, d, m->geom_body[c->geom1], c->pos, F1, q);
    cs_add_point_force(m, d, m->geom_body[c->geom2], c->pos, F2, q);
}

void cs_adhesion_passive(const cs_model *m, cs_data *d)
{
    int nv = m->nv, any = 0;
    memset(d->qfrc_adhesion, 0, (size_t)nv * sizeof *d->qfrc_adhesion);
    for (int i = 0; i < d->ncon; i++) {
        const cs_contact *c = d->contact + i;
        if (c->adhesion == 0) continue;
        add_normal_force(m, d, c, -c->adhesion, d->qfrc_adhesion);
        any = 1;
    }
    if (any)
        for (int i = 0; i < nv; i++) d->qfrc_passive[i] += d->qfrc_adhesion[i];
}

double cs_body_transmission(const cs_model *m, const cs_data *d, int i, double *moment)
{
    int b = m->actuator_trnid[2 * i], n = 0;
    memset(moment, 0, (size_t)m->nv * sizeof *moment);
    /* every contact of the body, in the solver or in the gap beyond the margin, counts: an
     * active contact's normal row is n^T (J2 - J1), as an excluded one's is */
    for (int k = 0; k < d->ncon; k++) {
        const cs_contact *c = d->contact + k;
        if (m->geom_body[c->geom1] != b && m->geom_body[c->geom2] != b) continue;
        add_normal_force(m, d, c, 1, moment);
        n++;
    }
    /* the average, negative: a positive force pulls the surfaces together */
    if (n)
        for (int q = 0; q < m->nv; q++) moment[q] *= -1.0 / n;
    return 0; /* no meaningful length */
}
