/* Trajectory CSV (interface.md): long format, %.17g so identical runs give identical bytes. */
#include <stdio.h>

#include "conesim.h"

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

void cs_traj_rows(FILE *f, const cs_model *m, const cs_data *d, long step)
{
    char buf[32];
    for (int j = 0; j < m->nfree; j++) {
        const double *q = d->qpos + 7 * j, *v = d->qvel + 6 * j;
        fprintf(f, "%ld,%.17g,%s", step, d->time,
                cs_body_label(m, m->free_body[j], buf, sizeof buf));
        for (int k = 0; k < 7; k++) fprintf(f, ",%.17g", q[k]);
        for (int k = 0; k < 6; k++) fprintf(f, ",%.17g", v[k]);
        fputc('\n', f);
    }
}
