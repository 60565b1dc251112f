/* sim-internal: history buffers (history.c), MuJoCo 3.12's ring buffers of timed samples
 * behind actuator and sensor delays. A buffer of n samples of dim values is
 *   [user, cursor, times (n), values (n x dim)]
 * user: free for its owner (an interval sensor's last computation time), cursor: the
 * physical slot of the newest sample (a whole number stored as a double); logical sample 0
 * is the oldest, n - 1 the newest, at physical slot (cursor + 1 + logical) % n. */
#ifndef CS_HISTORY_H
#define CS_HISTORY_H

#include "conesim.h"

/* the buffer's doubles */
static inline int cs_history_size(int n, int dim) { return 2 + n + n * dim; }

/* times (strictly increasing, NULL: the buffer's own) and values (NULL: kept), newest last;
 * 0, or -1 when the times do not increase */
int cs_history_set(double *buf, int n, int dim, const double *times, const double *values,
                   double user);
/* the slot (dim values) for a sample at time t, the caller writes it: the slot of a sample
 * at t already there, else the oldest is dropped for it (times stay sorted) */
double *cs_history_insert(double *buf, int n, int dim, double t);
/* the value at time t: a stored sample (zero-order hold, an exact time, outside the
 * buffer's times: the nearest end), or NULL with the interpolated value in res */
const double *cs_history_read(const double *buf, int n, int dim, double *res, double t,
                              int interp);

/* every buffer as MuJoCo's reset leaves it: values 0, times the steps before 0 (an interval
 * sensor's its periods before its phase, on the step grid) */
void cs_history_reset(const cs_model *m, cs_data *d);
/* history_advance.c: the step's samples appended at d->time (MuJoCo's mj_advance, before
 * the state moves):
 * ctrl as set; a sensor's sensordata, or computed now when sensordata holds a delayed
 * value; an interval sensor only when its period has passed */
void cs_history_advance(const cs_model *m, cs_data *d);
/* sensor i's value into out from its buffer, when the forward pass reads it there instead
 * of computing it (a delay, or an interval not yet passed); 0 when it is to be computed */
int cs_history_sensor(const cs_model *m, const cs_data *d, int i, double *out);

#endif
