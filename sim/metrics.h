/* The outcome of one run in a few numbers, shared by `run --summary`, `sweep` and the Python
 * package (conesim.Metrics). */
#ifndef CS_METRICS_H
#define CS_METRICS_H

#include <stdio.h>

#include "conesim.h"

/* The verdict's default (m/s): slide when the step's fastest tangential contact speed,
 * averaged over the last half of the run's steps, exceeds it. Soft contacts creep at a
 * few mm/s when they stick, and a block near its limit rocks, with brief faster slips:
 * the mean over half the run tells these from sliding, whose speed keeps growing. */
#define CS_SLIDE_SPEED 0.005

typedef struct {
    double *start;        /* 3 per free body: its position at the start */
    long nsteps, steps;   /* steps planned, steps taken */
    double displacement;  /* largest distance a free body travelled, start to end */
    double max_slip;      /* largest tangential contact speed */
    double late_slip;     /* the sum of each step's largest one over the last half */
    long late_steps;
    double max_penetration;
    double sumcon, sumit;
    double wall;
    double slide_speed;
} cs_metrics;

enum { CS_NMETRIC = 7 };
extern const char *const cs_metric_names[CS_NMETRIC]; /* displacement ... wall */

/* Before the first step; 0, or -1 when out of memory. */
int cs_metrics_begin(cs_metrics *r, const cs_model *m, const cs_data *d, long nsteps);
/* After each step. */
void cs_metrics_step(cs_metrics *r, const cs_model *m, const cs_data *d);
/* After the last step: the displacement. Frees the scratch. */
void cs_metrics_end(cs_metrics *r, const cs_model *m, const cs_data *d);
/* Metric i (cs_metric_names order) as CSV text, numbers the shortest that read back exactly
 * (cs_fmt_shortest). */
void cs_metrics_format(const cs_metrics *r, int i, char *buf, size_t len);
/* The index of a metric name, or -1. */
int cs_metric_index(const char *name);
/* Metric i's name, or NULL out of range. */
const char *cs_metric_name(int i);

/* For bindings that must not copy the struct's layout (the Python package): a cs_metrics
 * made and begun (slide_speed <= 0: CS_SLIDE_SPEED), NULL when out of memory; freed with
 * cs_metrics_free (after cs_metrics_end, or instead of it). */
cs_metrics *cs_metrics_new(const cs_model *m, const cs_data *d, long nsteps, double slide_speed);
void cs_metrics_free(cs_metrics *r);

#endif
