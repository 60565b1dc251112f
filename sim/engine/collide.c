/* The collision stage: hands collision/ the geoms (shapes, poses, filter data, contact
 * parameters) and copies its contacts into data. collision/ never sees the model. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "conesim.h"
#include "data_scratch.h"
#include "sleep.h"
#include "stages.h"

/* MuJoCo's weld body for contact filtering: the nearest body from b towards the world that
 * has joints or is a mocap body (a mocap body moves on its own, so it roots a weld group
 * there, while body_weldid, for the dynamics, welds it to the world) */
static int contact_weld(const cs_model *m, int b)
{
    while (b > 0 && m->body_jntnum[b] == 0 && m->body_mocapid[b] < 0) b = m->body_parent[b];
    return b;
}

struct cs_collision *cs_collision_make(const cs_model *m, char *err, size_t errlen)
{
    int ng = m->ngeom, np = m->npair, ne = m->nexclude;
    cs_collision_geom *g = cs_calloc((size_t)ng + 1, sizeof *g);
    cs_collision_pair *p = cs_calloc((size_t)np + 1, sizeof *p);
    cs_collision_exclude *x = cs_calloc((size_t)ne + 1, sizeof *x);
    struct cs_collision *c = NULL;
    if (!g || !p || !x) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < ng; i++) {
        int b = m->geom_body[i], w = contact_weld(m, b);
        g[i].type = m->geom_type[i];
        memcpy(g[i].size, m->geom_size + 3 * i, sizeof g[i].size);
        g[i].body = b;
        g[i].weldbody = w;
        g[i].weldparent = w ? contact_weld(m, m->body_parent[w]) : 0;
        g[i].dofless = m->body_dofnum[w] == 0;
        g[i].contype = m->geom_contype[i];
        g[i].conaffinity = m->geom_conaffinity[i];
        g[i].condim = m->geom_condim[i];
        g[i].priority = m->geom_priority[i];
        g[i].solmix = m->geom_solmix[i];
        memcpy(g[i].friction, m->geom_friction + 3 * i, sizeof g[i].friction);
        memcpy(g[i].solref, m->geom_solref + 2 * i, sizeof g[i].solref);
        memcpy(g[i].solimp, m->geom_solimp + 5 * i, sizeof g[i].solimp);
        /* <flag override>: every contact's margin is o_margin (MuJoCo's mj_assignMargin); half
         * on each geom sums to it exactly, as MuJoCo's broad phase inflates each box by half */
        g[i].margin =
            (m->opt.enableflags & CS_ENBL_OVERRIDE) ? 0.5 * m->opt.o_margin : m->geom_margin[i];
        g[i].gap = m->geom_gap[i];
        g[i].adhesion = m->geom_adhesion[i];
        int id = m->geom_dataid ? m->geom_dataid[i] : -1;
        if (g[i].type == CS_GEOM_MESH && id >= 0 && m->mesh_graphadr[id] >= 0)
            cs_hull_view(&g[i].hull, m->mesh_graph + m->mesh_graphadr[id],
                         m->mesh_hull + m->mesh_hulladr[id]);
        if (g[i].type == CS_GEOM_HFIELD && id >= 0) {
            g[i].hfield.nrow = m->hfield_nrow[id];
            g[i].hfield.ncol = m->hfield_ncol[id];
            memcpy(g[i].hfield.size, m->hfield_size + 4 * id, sizeof g[i].hfield.size);
            g[i].hfield.data = m->hfield_data + m->hfield_adr[id];
        }
    }
    for (int i = 0; i < np; i++) {
        p[i].geom1 = m->pair_geom1[i];
        p[i].geom2 = m->pair_geom2[i];
        p[i].condim = m->pair_condim[i];
        memcpy(p[i].friction, m->pair_friction + 5 * i, sizeof p[i].friction);
        memcpy(p[i].solref, m->pair_solref + 2 * i, sizeof p[i].solref);
        memcpy(p[i].solreffriction, m->pair_solreffriction + 2 * i, sizeof p[i].solreffriction);
        memcpy(p[i].solimp, m->pair_solimp + 5 * i, sizeof p[i].solimp);
        p[i].margin = (m->opt.enableflags & CS_ENBL_OVERRIDE) ? m->opt.o_margin : m->pair_margin[i];
        p[i].gap = m->pair_gap[i];
        p[i].adhesion = m->pair_adhesion[i];
    }
    for (int i = 0; i < ne; i++) {
        x[i].body1 = m->exclude_body1[i];
        x[i].body2 = m->exclude_body2[i];
    }
    cs_collision_options opt;
    cs_collision_options_default(&opt);
    opt.filterparent = !(m->opt.disableflags & CS_DSBL_FILTERPARENT);
    opt.multiccd = !(m->opt.disableflags & CS_DSBL_MULTICCD);
    opt.ccd_mpr = (m->opt.disableflags & CS_DSBL_NATIVECCD) != 0;
    opt.ccd_iterations = m->opt.ccd_iterations;
    opt.ccd_tolerance = m->opt.ccd_tolerance;
    c = cs_collision_create(g, ng, p, np, x, ne, &opt, err, errlen);
done:
    cs_free(g);
    cs_free(p);
    cs_free(x);
    return c;
}

void cs_collide(const cs_model *m, cs_data *d)
{
    d->ncon = 0;
    if (m->opt.disableflags & (CS_DSBL_CONTACT | CS_DSBL_CONSTRAINT)) return;
    int dropped = 0, n;
    cs_collision_set_sleep(d->scratch->collision, cs_sleep_filter(m, d) ? d->scratch->geom_asleep : NULL);
    /* room for every contact up to nconmax: grow by half again and detect again. Growth
     * happens only on a step with more contacts than any before, and the room is kept, so
     * steps after the largest allocate nothing */
    for (;;) {
        dropped = 0;
        n = cs_collision_detect(d->scratch->collision, d->geom_xpose, d->scratch->rawcon, d->ncon_cap, &dropped);
        if (dropped <= 0 || d->ncon_cap >= m->nconmax) break;
        long need = (long)n + dropped;
        need += need / 2;
        int cap = need > m->nconmax ? m->nconmax : (int)need;
        cs_contact *c = cs_realloc(d->contact, ((size_t)cap + 1) * sizeof *c);
        if (c) d->contact = c;
        cs_geom_contact *r = cs_realloc(d->scratch->rawcon, ((size_t)cap + 1) * sizeof *r);
        if (r) d->scratch->rawcon = r;
        if (!c || !r) { /* out of memory: keep what fits, counted below */
            d->warning[CS_WARN_NOMEM]++;
            break;
        }
        d->ncon_cap = cap;
    }
    if (dropped > 0) d->warning[CS_WARN_CONTACTFULL] += dropped;
    if (dropped < 0) d->warning[CS_WARN_NOMEM]++; /* the broad phase could not grow */
    for (int i = 0; i < n; i++) {
        cs_geom_contact *r = &d->scratch->rawcon[i];
        /* explicit pairs are reported as written (README, Output files), even where MuJoCo's type
         * order put the other geom first */
        if (r->pair >= 0 && r->geom1 != m->pair_geom1[r->pair]) cs_contact_flip(r);
        cs_contact *c = &d->contact[i];
        /* every field is written here (a whole-struct clear costs more than the rest) */
        memcpy(c->pos, r->pos, sizeof c->pos);
        memcpy(c->frame, r->frame, sizeof c->frame);
        c->dist = r->dist;
        c->geom1 = r->geom1;
        c->geom2 = r->geom2;
        c->dim = r->dim;
        c->exclude = !cs_contact_active(r);
        memcpy(c->friction, r->friction, sizeof c->friction);
        memcpy(c->solref, r->solref, sizeof c->solref);
        memcpy(c->solreffriction, r->solreffriction, sizeof c->solreffriction);
        memcpy(c->solimp, r->solimp, sizeof c->solimp);
        c->margin = r->margin;
        c->gap = r->gap;
        c->adhesion = r->adhesion;
        /* an adhesive contact in the gap touches nothing: a normal row alone, so that fast
         * sliding cannot recruit normal force and brake at a distance (MuJoCo 3.12) */
        if (r->adhesion != 0 && r->dist >= r->margin) c->dim = 1;
        if (m->opt.enableflags & CS_ENBL_OVERRIDE) { /* MuJoCo's mj_assignRef/Imp/Friction */
            for (int k = 0; k < 5; k++) /* floored as every contact's (mjMINMU) */
                c->friction[k] = m->opt.o_friction[k] > CS_MINMU ? m->opt.o_friction[k] : CS_MINMU;
            memcpy(c->solref, m->opt.o_solref, sizeof c->solref);
            memcpy(c->solreffriction, m->opt.o_solref, sizeof c->solreffriction);
            memcpy(c->solimp, m->opt.o_solimp, sizeof c->solimp);
        }
        c->efc_address = -1;
        for (int k = 0; k < 6; k++) c->force[k] = c->vel[k] = 0;
        c->zone = CS_CZONE_NONE;
    }
    d->ncon = n;
}
