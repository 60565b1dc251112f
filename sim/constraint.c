/* The constraint stage: rows (one soft-contact block per contact that enters the solver,
 * dist < margin - gap, in generalised coordinates), the solve (solver/: PGS or Newton,
 * elliptic or pyramidal), and the store stage that puts forces, velocities and zones back
 * onto the contacts. */
#include <stddef.h>
#include <string.h>

#include "conesim.h"
#include "solver/solver.h"
#include "stages.h"

static int zone_of(const cs_efc *e, int k)
{
    switch (e->blk_kind[k]) {
    case CS_BLOCK_FRICTIONLESS: return CS_CZONE_NORMAL;
    case CS_BLOCK_PYRAMIDAL: return CS_CZONE_PYRAMID;
    default: break;
    }
    switch (e->blk_zone[k]) {
    case CS_ZONE_TOP: return CS_CZONE_TOP;
    case CS_ZONE_BOTTOM: return CS_CZONE_BOTTOM;
    case CS_ZONE_MIDDLE: return CS_CZONE_MIDDLE;
    }
    return CS_CZONE_NONE;
}

/* One side of a contact: the tree that moves geom's body, and the Jacobians of the world
 * point p moving with it over the tree's dofs (jac: 6 x ndof scratch, jacp then jacr). */
static void contact_side(const cs_model *m, const cs_data *d, int geom, const double p[3],
                         double *jac, cs_contact_side *s)
{
    int b = m->geom_body[geom], t = m->body_treeid[b];
    s->invweight[0] = m->body_invweight0[2 * b];
    s->invweight[1] = m->body_invweight0[2 * b + 1];
    s->tree = t;
    if (t < 0) {
        s->dofadr = s->ndof = 0;
        s->jacp = s->jacr = jac;
        return;
    }
    int adr = m->tree_dofadr[t], n = m->tree_dofnum[t];
    double *jp = jac, *jr = jac + 3 * n;
    memset(jac, 0, sizeof(double) * 6 * (size_t)n);
    for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) {
        const double *ax = d->dof_xaxis + 3 * i, *an = d->dof_xanchor + 3 * i;
        int c = i - adr;
        if (cs_dof_rotates(m, i)) {
            double r[3] = {p[0] - an[0], p[1] - an[1], p[2] - an[2]};
            jp[c] = ax[1] * r[2] - ax[2] * r[1];
            jp[n + c] = ax[2] * r[0] - ax[0] * r[2];
            jp[2 * n + c] = ax[0] * r[1] - ax[1] * r[0];
            for (int k = 0; k < 3; k++) jr[k * n + c] = ax[k];
        } else {
            for (int k = 0; k < 3; k++) jp[k * n + c] = ax[k];
        }
    }
    s->dofadr = adr;
    s->ndof = n;
    s->jacp = jp;
    s->jacr = jr;
}

/* rows of every contact that enters the solver */
static void make_rows(const cs_model *m, cs_data *d)
{
    cs_row_opts ro = {m->opt.timestep, m->opt.impratio, (cs_cone_type)m->opt.cone,
                      !(m->opt.disableflags & CS_DSBL_REFSAFE)};
    for (int i = 0; i < d->ncon; i++) {
        cs_contact *c = &d->contact[i];
        if (c->exclude) continue;
        int t1 = m->body_treeid[m->geom_body[c->geom1]], t2 = m->body_treeid[m->geom_body[c->geom2]];
        /* static-static contacts carry no dofs (the filters normally drop them); two geoms
         * of one free body cannot collide either */
        if (t1 < 0 && t2 < 0) continue;
        if (t1 == t2 && m->body_weldid[m->geom_body[c->geom1]] ==
                            m->body_weldid[m->geom_body[c->geom2]])
            continue;
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
        cs_contact_side sd[2];
        contact_side(m, d, c->geom1, c->pos, d->jac, &sd[0]);
        /* d->jac holds two sides of the largest tree: side 1 goes after side 0's 6 x ndof */
        contact_side(m, d, c->geom2, c->pos, d->jac + 6 * (size_t)sd[0].ndof, &sd[1]);
        c->efc_address = d->efc->nefc;
        if (cs_efc_add_contact(d->efc, &ci, i, sd, d->qvel, &ro) < 0) {
            c->efc_address = -1;
            d->warning[CS_WARN_NOMEM]++; /* the contact is left out */
        }
    }
    d->nefc = d->efc->nefc;
}

/* store: forces, contact-frame velocities and zones onto the contacts; qfrc_constraint =
 * J^T f */
static void store(const cs_model *m, cs_data *d)
{
    const cs_efc *e = d->efc;
    for (int k = 0; k < e->nblock; k++) {
        cs_contact *c = &d->contact[e->blk_id[k]];
        memcpy(c->force, e->blk_force + CS_MAXDIM * k, sizeof c->force);
        memcpy(c->vel, e->blk_cvel + CS_MAXDIM * k, sizeof c->vel);
        c->zone = zone_of(e, k);
    }
    memset(d->qfrc_constraint, 0, (size_t)m->nv * sizeof *d->qfrc_constraint);
    for (int r = 0; r < e->nefc; r++) {
        const double *J = e->J + e->J_rowadr[r];
        const int *ci = e->J_colind + e->J_rowadr[r];
        for (int q = 0; q < e->J_rownnz[r]; q++) d->qfrc_constraint[ci[q]] += J[q] * e->force[r];
    }
}

void cs_constraint(const cs_model *m, cs_data *d)
{
    int nv = m->nv;
    d->nefc = 0;
    cs_efc_clear(d->efc);
    memcpy(d->qacc, d->qacc_smooth, (size_t)nv * sizeof *d->qacc);
    memset(d->qfrc_constraint, 0, (size_t)nv * sizeof *d->qfrc_constraint);
    memset(&d->solver, 0, sizeof d->solver);
    if (d->ncon == 0) return;
    make_rows(m, d);
    if (d->efc->nblock == 0) return;

    cs_problem p = {d->mass, d->qacc_smooth, d->efc, 0};
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.type = m->opt.solver == CS_SOLVER_PGS ? CS_METHOD_PGS : CS_METHOD_NEWTON;
    so.max_iter = m->opt.iterations;
    so.tolerance = m->opt.tolerance;
    so.blocking = m->opt.pgs_blocks == CS_PGS_PAIR ? CS_PGS_BLOCK_PAIR : CS_PGS_BLOCK_CONTACT;
    so.stats = d->solver_stats;
    so.polish_after = m->opt.pgs_polish;
    const double *warm = (m->opt.disableflags & CS_DSBL_WARMSTART) ? NULL : d->qacc_warmstart;
    cs_solve_stats st;
    int rc = cs_solve(d->solver_ws, &p, &so, warm, d->qacc, &st);
    if (rc != 0) {
        d->warning[rc == CS_SOLVE_NOMEM ? CS_WARN_NOMEM : CS_WARN_BADQACC]++;
        memcpy(d->qacc, d->qacc_smooth, (size_t)nv * sizeof *d->qacc);
        return;
    }
    store(m, d);
    d->solver.iterations = st.iterations;
    d->solver.at_limit = st.iterations >= so.max_iter;
    d->solver.cost = st.primal_cost;
    d->solver.dual_cost = st.dual_cost;
    d->solver.primal_feas = st.feasibility;
    d->solver.stationarity = st.stationarity;
    d->solver.complementarity = st.complementarity;
    d->solver.nisland = st.nisland;
    d->solver.improvement = st.improvement;
}

void cs_contact_force(const cs_model *m, const cs_data *d, int i, double f[6])
{
    (void)m;
    memset(f, 0, 6 * sizeof *f);
    if (i < 0 || i >= d->ncon) return;
    memcpy(f, d->contact[i].force, 6 * sizeof *f);
}
