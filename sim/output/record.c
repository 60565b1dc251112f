/* Trajectory CSV (README, Output files): long format, %.17g so identical runs give identical bytes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
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

const char *cs_joint_label(const cs_model *m, int jnt, char *buf, size_t bufsz)
{
    if (m->jnt_name[jnt]) return m->jnt_name[jnt];
    snprintf(buf, bufsz, "joint%d", jnt);
    return buf;
}

const char *cs_tendon_label(const cs_model *m, int t, char *buf, size_t bufsz)
{
    if (m->tendon_name[t]) return m->tendon_name[t];
    snprintf(buf, bufsz, "tendon%d", t);
    return buf;
}

const char *cs_eq_label(const cs_model *m, int e, char *buf, size_t bufsz)
{
    if (m->eq_name[e]) return m->eq_name[e];
    snprintf(buf, bufsz, "equality%d", e);
    return buf;
}

const char *cs_actuator_label(const cs_model *m, int act, char *buf, size_t bufsz)
{
    if (m->actuator_name[act]) return m->actuator_name[act];
    snprintf(buf, bufsz, "actuator%d", act);
    return buf;
}

const char *cs_sensor_label(const cs_model *m, int s, char *buf, size_t bufsz)
{
    if (m->sensor_name[s]) return m->sensor_name[s];
    snprintf(buf, bufsz, "sensor%d", s);
    return buf;
}

const char *cs_sensor_type_name(int type)
{
    static const char *const NAME[] = {
        "touch", "accelerometer", "velocimeter", "gyro", "force", "torque", "magnetometer",
        "rangefinder", "camprojection", "jointpos", "jointvel", "tendonpos", "tendonvel",
        "actuatorpos", "actuatorvel", "actuatorfrc", "jointactuatorfrc", "tendonactuatorfrc",
        "ballquat", "ballangvel", "jointlimitpos", "jointlimitvel", "jointlimitfrc",
        "tendonlimitpos", "tendonlimitvel", "tendonlimitfrc", "framepos", "framequat",
        "framexaxis", "frameyaxis", "framezaxis", "framelinvel", "frameangvel", "framelinacc",
        "frameangacc", "subtreecom", "subtreelinvel", "subtreeangmom", "insidesite", "distance",
        "normal", "fromto", "contact", "e_potential", "e_kinetic", "clock", "tactile", "plugin",
        "user"};
    return type >= 0 && type < (int)(sizeof NAME / sizeof NAME[0]) ? NAME[type] : "unknown";
}

void cs_sensor_header(FILE *f) { fputs("step,time,sensor,k,value\n", f); }

int cs_sensor_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char buf[32];
    int bad = -1;
    for (int i = 0; i < m->nsensor; i++) {
        const char *label = cs_sensor_label(m, i, buf, sizeof buf);
        for (int k = 0; k < m->sensor_dim[i]; k++) {
            double v = d->sensordata[m->sensor_adr[i] + k];
            if (!isfinite(v) && bad < 0) bad = i;
            fprintf(f, "%ld,%.17g,%s,%d,%.17g\n", step, time, label, k, v);
        }
    }
    return bad;
}

void cs_actuator_header(FILE *f) { fputs("step,time,actuator,ctrl,force\n", f); }

/* the force a control's row shows: its actuator's only output, or with several (an
 * orientation's torque) the one of its index, the quaternion chart's qw the torque's norm */
static double row_force(const cs_model *m, const cs_data *d, int ctrl)
{
    int a = cs_ctrl_actuator(m, ctrl), n = m->actuator_outnum[a];
    const double *f = d->actuator_force + m->actuator_outadr[a];
    if (n == 1) return f[0];
    int k = ctrl - m->actuator_ctrladr[a] - (m->actuator_ctrlnum[a] - n);
    return k >= 0 ? f[k] : sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
}

void cs_actuator_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char buf[256];
    for (int i = 0; i < m->nu; i++)
        fprintf(f, "%ld,%.17g,%s,%.17g,%.17g\n", step, time, cs_ctrl_label(m, i, buf, sizeof buf),
                d->ctrl[i], row_force(m, d, i));
}

const char *cs_jnt_type_name(int type)
{
    switch ((cs_joint_type)type) {
    case CS_JNT_FREE: return "free";
    case CS_JNT_BALL: return "ball";
    case CS_JNT_SLIDE: return "slide";
    case CS_JNT_HINGE: return "hinge";
    }
    return "?";
}

void cs_traj_header(FILE *f)
{
    fputs("step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", f);
}

void cs_traj_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char buf[32];
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_treeid[b] < 0) continue;
        double s[13];
        int j = m->body_jntadr[b];
        if (m->body_jntnum[b] == 1 && m->jnt_type[j] == CS_JNT_FREE) {
            /* a free body's row is its joint's state, as stored */
            memcpy(s, d->qpos + m->jnt_qposadr[j], 7 * sizeof *s);
            memcpy(s + 7, d->qvel + m->jnt_dofadr[j], 6 * sizeof *s);
        } else {
            cs_body_state(m, d, b, s, s + 3, s + 7, s + 10);
        }
        fprintf(f, "%ld,%.17g,%s", step, time, cs_body_label(m, b, buf, sizeof buf));
        for (int k = 0; k < 13; k++) fprintf(f, ",%.17g", s[k]);
        fputc('\n', f);
    }
}

void cs_joint_header(FILE *f)
{
    fputs("step,time,joint,type,q0,q1,q2,q3,q4,q5,q6,v0,v1,v2,v3,v4,v5\n", f);
}

void cs_joint_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char buf[32];
    for (int j = 0; j < m->njnt; j++) {
        int t = m->jnt_type[j], nq = cs_jnt_nq(t), nv = cs_jnt_nv(t);
        fprintf(f, "%ld,%.17g,%s,%s", step, time, cs_joint_label(m, j, buf, sizeof buf),
                cs_jnt_type_name(t));
        for (int k = 0; k < 7; k++) {
            if (k < nq) fprintf(f, ",%.17g", d->qpos[m->jnt_qposadr[j] + k]);
            else fputc(',', f);
        }
        for (int k = 0; k < 6; k++) {
            if (k < nv) fprintf(f, ",%.17g", d->qvel[m->jnt_dofadr[j] + k]);
            else fputc(',', f);
        }
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
    case CS_CZONE_SEPARATE: return "separate";
    case CS_CZONE_STICK: return "stick";
    case CS_CZONE_SLIDE: return "slide";
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

const char *cs_jrow_kind_name(int kind)
{
    switch ((cs_jrow_kind)kind) {
    case CS_JROW_FRICTION: return "friction";
    case CS_JROW_LOWER: return "limit_lower";
    case CS_JROW_UPPER: return "limit_upper";
    case CS_JROW_ANGLE: return "limit_angle";
    case CS_JROW_TENDON_FRICTION: return "tendon_friction";
    case CS_JROW_TENDON_LOWER: return "tendon_lower";
    case CS_JROW_TENDON_UPPER: return "tendon_upper";
    case CS_JROW_EQUALITY: return "equality";
    }
    return "?";
}

void cs_limit_header(FILE *f)
{
    fputs("step,time,joint,kind,dof,pos,force\n", f);
}

void cs_limit_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    char buf[32];
    int n = cs_jrow_count(m, d);
    for (int i = 0; i < n; i++) {
        cs_jrow r;
        cs_jrow_get(m, d, i, &r);
        /* the joint column names the row's joint, tendon or equality constraint */
        const char *who = r.eq >= 0       ? cs_eq_label(m, r.eq, buf, sizeof buf)
                          : r.tendon >= 0 ? cs_tendon_label(m, r.tendon, buf, sizeof buf)
                                          : cs_joint_label(m, r.joint, buf, sizeof buf);
        fprintf(f, "%ld,%.17g,%s,%s,%d,%.17g,%.17g\n", step, time, who,
                cs_jrow_kind_name(r.kind), r.dof, r.pos, r.force);
    }
}

void cs_solver_header(FILE *f)
{
    fputs("step,time,island,bodies,contacts,iterations,at_limit,warm,improvement,primal_cost,"
          "dual_cost,feasibility,stationarity,complementarity,finish,outer\n", f);
}

void cs_solver_rows(FILE *f, const cs_model *m, const cs_data *d, long step, double time)
{
    for (int i = 0; i < d->solver.nisland; i++) {
        const cs_island_stats *s = cs_solver_island(d->scratch->solver_ws, i);
        fprintf(f, "%ld,%.17g,%d,%d,%d,%d,%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d\n", step,
                time, i, s->ntree, s->nblock, s->iterations, s->iterations >= m->opt.iterations,
                s->warm_used, s->improvement, s->primal_cost, s->dual_cost, s->feasibility,
                s->stationarity, s->complementarity, s->finish, s->outer);
    }
}
