#include "fmt.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_metric_names[CS_NMETRIC] = {
    "displacement", "max_slip", "verdict", "max_penetration", "mean_contacts",
    "mean_iterations", "wall",
};

int cs_metric_index(const char *name)
{
    for (int i = 0; i < CS_NMETRIC; i++)
        if (strcmp(name, cs_metric_names[i]) == 0) return i;
    return -1;
}

int cs_metrics_begin(cs_metrics *r, const cs_model *m, const cs_data *d, long nsteps)
{
    double speed = r->slide_speed > 0 ? r->slide_speed : CS_SLIDE_SPEED;
    memset(r, 0, sizeof *r);
    r->slide_speed = speed;
    r->nsteps = nsteps;
    r->start = malloc(sizeof *r->start * (size_t)(3 * m->nbody + 1));
    if (!r->start) return -1;
    for (int b = 1; b < m->nbody; b++) {
        double q[4], v[3], w[3];
        if (m->body_treeid[b] >= 0) cs_body_state(m, d, b, r->start + 3 * b, q, v, w);
    }
    return 0;
}

const char *cs_metric_name(int i)
{
    return i >= 0 && i < CS_NMETRIC ? cs_metric_names[i] : NULL;
}

cs_metrics *cs_metrics_new(const cs_model *m, const cs_data *d, long nsteps, double slide_speed)
{
    cs_metrics *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->slide_speed = slide_speed;
    if (cs_metrics_begin(r, m, d, nsteps) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

void cs_metrics_free(cs_metrics *r)
{
    if (!r) return;
    free(r->start);
    free(r);
}

void cs_metrics_step(cs_metrics *r, const cs_model *m, const cs_data *d)
{
    (void)m;
    r->steps++;
    r->sumcon += d->ncon;
    r->sumit += d->solver.iterations;
    /* the last half: steps after the middle one (all of a one-step run) */
    int late = 2 * r->steps > r->nsteps;
    double fastest = 0;
    for (int c = 0; c < d->ncon; c++) {
        const cs_contact *con = &d->contact[c];
        if (-con->dist > r->max_penetration) r->max_penetration = -con->dist;
        if (con->exclude || con->dim < 3) continue;
        double s = hypot(con->vel[1], con->vel[2]);
        if (s > r->max_slip) r->max_slip = s;
        if (s > fastest) fastest = s;
    }
    if (late) {
        r->late_slip += fastest;
        r->late_steps++;
    }
}

void cs_metrics_end(cs_metrics *r, const cs_model *m, const cs_data *d)
{
    r->displacement = 0;
    for (int k = 1; r->start && k < m->nbody; k++) {
        if (m->body_treeid[k] < 0) continue;
        double b[3], q[4], v[3], w[3];
        const double *a = r->start + 3 * k;
        cs_body_state(m, d, k, b, q, v, w);
        double dist = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                           (b[2] - a[2]) * (b[2] - a[2]));
        if (dist > r->displacement) r->displacement = dist;
    }
    free(r->start);
    r->start = NULL;
}

void cs_metrics_format(const cs_metrics *r, int i, char *buf, size_t len)
{
    double v = 0;
    switch (i) {
    case 0: v = r->displacement; break;
    case 1: v = r->max_slip; break;
    case 2: snprintf(buf, len, "%s", r->late_steps && r->late_slip / (double)r->late_steps > r->slide_speed ? "slide" : "stick"); return;
    case 3: v = r->max_penetration; break;
    case 4: v = r->steps ? r->sumcon / (double)r->steps : 0; break;
    case 5: v = r->steps ? r->sumit / (double)r->steps : 0; break;
    case 6: v = r->wall; break;
    }
    cs_fmt_shortest(buf, len, v);
}
