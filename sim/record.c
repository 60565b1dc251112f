/* Trajectory CSV (README, Output files): long format, %.17g so identical runs give identical bytes. */
#include <stdio.h>

#include "conesim.h"
#include "solver/solver.h"

const char *cs_body_label(const cs_model *m, int body, char *buf, size_t bufsz)
{
    if (m->body_name[body]) return m->body_name[body];
    snprintf(buf, bufsz, "body%d", body);
    return buf;
}

const char *cs_geom_label(const cs_model *m, int geom, char *buf, size_t bufsz)
{
    if (m->geom_name[geom]) return m->geom_name[geom];
    snprintf(buf, bufsz, "geom%d", geom);
    return buf;
}

void cs_traj_header(FILE *f)
{
    fputs("step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", f);
}

void cs_traj_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char buf[32];
    for (int j = 0; j < m->nfree; j++) {
        const double *q = d->qpos + 7 * j, *v = d->qvel + 6 * j;
        fprintf(f, "%ld,%.17g,%s", step, time,
                cs_body_label(m, m->free_body[j], buf, sizeof buf));
        for (int k = 0; k < 7; k++) fprintf(f, ",%.17g", q[k]);
        for (int k = 0; k < 6; k++) fprintf(f, ",%.17g", v[k]);
        fputc('\n', f);
    }
}

static const char *zone_word(int zone)
{
    switch (zone) {
    case CS_CZONE_TOP: return "top";
    case CS_CZONE_BOTTOM: return "bottom";
    case CS_CZONE_MIDDLE: return "middle";
    case CS_CZONE_PYRAMID: return "pyramid";
    case CS_CZONE_NORMAL: return "normal";
    default: return "none";
    }
}

const char *cs_contact_zone_name(int zone) { return zone_word(zone); }

void cs_contact_header(FILE *f)
{
    fputs("step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,f5,"
          "vn,v1,v2,v3,v4,v5,zone\n", f);
}

void cs_contact_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char b1[32], b2[32];
    for (int i = 0; i < d->ncon; i++) {
        const cs_contact *c = &d->contact[i];
        fprintf(f, "%ld,%.17g,%s,%s,%d", step, time, cs_geom_label(m, c->geom1, b1, sizeof b1),
                cs_geom_label(m, c->geom2, b2, sizeof b2), c->dim);
        for (int k = 0; k < 3; k++) fprintf(f, ",%.17g", c->pos[k]);
        for (int k = 0; k < 3; k++) fprintf(f, ",%.17g", c->frame[k]);
        fprintf(f, ",%.17g", c->dist);
        /* unused components are 0 by construction (collision zeroes them, the solver
         * writes dim entries) */
        for (int k = 0; k < 6; k++) fprintf(f, ",%.17g", k < c->dim ? c->force[k] : 0.0);
        for (int k = 0; k < 6; k++) fprintf(f, ",%.17g", k < c->dim ? c->vel[k] : 0.0);
        fprintf(f, ",%s\n", zone_word(c->zone));
    }
}

void cs_solver_header(FILE *f)
{
    fputs("step,time,island,bodies,contacts,iterations,at_limit,warm,improvement,primal_cost,"
          "dual_cost,feasibility,stationarity,complementarity,polish\n", f);
}

void cs_solver_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    for (int i = 0; i < d->solver.nisland; i++) {
        const cs_island_stats *s = cs_solver_island(d->solver_ws, i);
        fprintf(f, "%ld,%.17g,%d,%d,%d,%d,%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d\n", step,
                time, i, s->ntree, s->nblock, s->iterations, s->iterations >= m->opt.iterations,
                s->warm_used, s->improvement, s->primal_cost, s->dual_cost, s->feasibility,
                s->stationarity, s->complementarity, s->polish);
    }
}
