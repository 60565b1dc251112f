/* The constraint stage: one soft-contact block per contact that enters the solver
 * (dist < margin - gap), solved by solver/ (PGS or Newton, elliptic or pyramidal), then
 * forces, velocities and zones copied back onto the contacts. */
#include <stddef.h>
#include <string.h>

#include "conesim.h"
#include "solver/solver.h"

/* the free joint a geom moves with, -1 for static geometry */
static int geom_free(const cs_model *m, int geom)
{
    int w = m->body_weldid[m->geom_body[geom]];
    return w ? m->body_free[w] : -1;
}

static int zone_of(const cs_block *b)
{
    switch (b->kind) {
    case CS_BLOCK_FRICTIONLESS: return CS_CZONE_NORMAL;
    case CS_BLOCK_PYRAMIDAL: return CS_CZONE_PYRAMID;
    case CS_BLOCK_ELLIPTIC: break;
    }
    switch (b->zone) {
    case CS_ZONE_TOP: return CS_CZONE_TOP;
    case CS_ZONE_BOTTOM: return CS_CZONE_BOTTOM;
    case CS_ZONE_MIDDLE: return CS_CZONE_MIDDLE;
    }
    return CS_CZONE_NONE;
}

void cs_constraint(const cs_model *m, cs_data *d)
{
    int nv = m->nv;
    d->nefc = 0;
    d->nblock = 0;
    memcpy(d->qacc, d->qacc_smooth, (size_t)nv * sizeof *d->qacc);
    memset(d->qfrc_constraint, 0, (size_t)nv * sizeof *d->qfrc_constraint);
    memset(&d->solver, 0, sizeof d->solver);
    if (d->ncon == 0) return;

    /* per-free-joint kinematics in the layout solver/ indexes by body */
    for (int f = 0; f < m->nfree; f++) {
        int b = m->free_body[f];
        memcpy(d->fxpos + 3 * f, d->xpos + 3 * b, 3 * sizeof(double));
        memcpy(d->fxmat + 9 * f, d->xmat + 9 * b, 9 * sizeof(double));
    }
    cs_bodies_in bodies = {d->fxpos, d->fxmat, NULL, d->qvel}; /* weights come per contact */
    cs_row_opts ro = {m->opt.timestep, m->opt.impratio, (cs_cone_type)m->opt.cone,
                      !(m->opt.disableflags & CS_DSBL_REFSAFE)};

    int nb = 0, nefc = 0;
    for (int i = 0; i < d->ncon; i++) {
        cs_contact *c = &d->contact[i];
        if (c->exclude) continue;
        cs_contact_in ci;
        memcpy(ci.pos, c->pos, sizeof ci.pos);
        memcpy(ci.frame, c->frame, sizeof ci.frame);
        ci.dist = c->dist;
        ci.dim = c->dim;
        memcpy(ci.friction, c->friction, sizeof ci.friction);
        memcpy(ci.solref, c->solref, sizeof ci.solref);
        memcpy(ci.solreffriction, c->solreffriction, sizeof ci.solreffriction);
        memcpy(ci.solimp, c->solimp, sizeof ci.solimp);
        ci.margin = c->margin;
        ci.gap = c->gap;
        ci.body[0] = geom_free(m, c->geom1);
        ci.body[1] = geom_free(m, c->geom2);
        /* static-static and self contacts carry no dofs (the filters normally drop them) */
        if (ci.body[0] == ci.body[1]) continue;
        /* R's diagonal approximation uses the geoms' own bodies, as MuJoCo */
        int gb1 = m->geom_body[c->geom1], gb2 = m->geom_body[c->geom2];
        double iw[4] = {m->body_invweight0[2 * gb1], m->body_invweight0[2 * gb1 + 1],
                        m->body_invweight0[2 * gb2], m->body_invweight0[2 * gb2 + 1]};
        cs_rows_make_iw(&ci, i, &bodies, &ro, iw, &d->blocks[nb]);
        c->efc_address = nefc;
        nefc += d->blocks[nb].nrow;
        nb++;
    }
    d->nblock = nb;
    d->nefc = nefc;
    if (nb == 0) return;

    /* MuJoCo's stopping-rule scale: mean of diag(M) over all dofs. For free joints in these
     * coordinates the diagonal does not depend on the pose. */
    double tr = 0;
    for (int f = 0; f < m->nfree; f++)
        for (int k = 0; k < 6; k++) tr += d->M[36 * f + 7 * k];
    cs_problem p = {m->nfree, d->M, d->qacc_smooth, nb, d->blocks, nv ? tr / nv : 1};
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.type = m->opt.solver == CS_SOLVER_PGS ? CS_METHOD_PGS : CS_METHOD_NEWTON;
    so.max_iter = m->opt.iterations;
    so.tolerance = m->opt.tolerance;
    so.pgs_pair_group = m->opt.pgs_blocks == CS_PGS_PAIR;
    const double *warm = (m->opt.disableflags & CS_DSBL_WARMSTART) ? NULL : d->qacc_warmstart;
    cs_solve_stats st;
    if (cs_solve(d->solver_ws, &p, &so, warm, d->qacc, &st) != 0) {
        d->warning[CS_WARN_BADQACC]++;
        memcpy(d->qacc, d->qacc_smooth, (size_t)nv * sizeof *d->qacc);
        return;
    }
    double da[6];
    for (int f = 0; f < m->nfree; f++) {
        for (int k = 0; k < 6; k++) da[k] = d->qacc[6 * f + k] - d->qacc_smooth[6 * f + k];
        for (int r = 0; r < 6; r++) {
            double s = 0;
            for (int k = 0; k < 6; k++) s += d->M[36 * f + 6 * r + k] * da[k];
            d->qfrc_constraint[6 * f + r] = s;
        }
    }
    for (int k = 0; k < nb; k++) {
        const cs_block *b = &d->blocks[k];
        cs_contact *c = &d->contact[b->contact];
        memcpy(c->force, b->force, (size_t)b->dim * sizeof(double));
        memcpy(c->vel, b->cvel, (size_t)b->dim * sizeof(double));
        c->zone = zone_of(b);
    }
    d->solver.iterations = st.iterations;
    d->solver.at_limit = st.iterations >= so.max_iter;
    d->solver.cost = st.primal_cost;
    d->solver.dual_cost = st.dual_cost;
    d->solver.primal_feas = st.feasibility;
    d->solver.stationarity = st.stationarity;
    d->solver.complementarity = st.complementarity;
    d->solver.nisland = st.nisland;
    double imp = 0;
    for (int i = 0; i < st.nisland; i++) {
        const cs_island_stats *is = cs_solver_island(d->solver_ws, i);
        if (is->improvement > imp) imp = is->improvement;
    }
    d->solver.improvement = imp;
}
