/* History buffers: MuJoCo 3.12's delays (its mju_history* and the history parts of
 * mj_resetData, mj_fwdActuation and the sensor passes, mj_readCtrl, mj_readSensor,
 * mj_initCtrlHistory, mj_initSensorHistory), with its layout (history.h), so a saved state
 * carries over. The step's appending is history_advance.c (it computes sensors). Nothing
 * here allocates. */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "history.h"
#include "minval.h"

/* the physical slot of logical sample k (0 the oldest) */
static int slot(int cursor, int n, int k) { return (cursor + 1 + k) % n; }

/* the smallest logical k with times[k] >= t: 0 when t is at or before the oldest, n when
 * after the newest */
static int find(const double *times, int n, int cursor, double t)
{
    if (t <= times[slot(cursor, n, 0)]) return 0;
    if (t > times[slot(cursor, n, n - 1)]) return n;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (times[slot(cursor, n, mid)] < t) lo = mid;
        else hi = mid;
    }
    return hi;
}

int cs_history_set(double *buf, int n, int dim, const double *times, const double *values,
                   double user)
{
    /* the buffer's own times are taken as they lie, slot 0 first (MuJoCo's): after the
     * ring has turned they do not increase, and are refused */
    const double *t = times ? times : buf + 2;
    for (int k = 0; k + 1 < n; k++)
        if (t[k + 1] - t[k] < CS_MINVAL) return -1;
    buf[0] = user;
    buf[1] = n - 1;
    if (times) memcpy(buf + 2, times, (size_t)n * sizeof *buf);
    if (values) memcpy(buf + 2 + n, values, (size_t)n * (size_t)dim * sizeof *buf);
    return 0;
}

double *cs_history_insert(double *buf, int n, int dim, double t)
{
    int cursor = (int)buf[1];
    double *times = buf + 2, *values = buf + 2 + n;
    int k = find(times, n, cursor, t);
    if (k < n) { /* a sample at t already: its slot */
        int p = slot(cursor, n, k);
        if (fabs(t - times[p]) < CS_MINVAL) return values + (size_t)p * dim;
    }
    if (k == 0) { /* older than the oldest: takes the oldest's slot */
        int p = slot(cursor, n, 0);
        times[p] = t;
        return values + (size_t)p * dim;
    }
    if (k == n) { /* the newest: the oldest's slot becomes the newest */
        cursor = (cursor + 1) % n;
        buf[1] = cursor;
        times[cursor] = t;
        return values + (size_t)cursor * dim;
    }
    /* between two samples: the older ones move down a slot, dropping the oldest */
    for (int j = 0; j < k - 1; j++) {
        int src = slot(cursor, n, j + 1), dst = slot(cursor, n, j);
        times[dst] = times[src];
        memcpy(values + (size_t)dst * dim, values + (size_t)src * dim,
               (size_t)dim * sizeof *values);
    }
    int p = slot(cursor, n, k - 1);
    times[p] = t;
    return values + (size_t)p * dim;
}

const double *cs_history_read(const double *buf, int n, int dim, double *res, double t,
                              int interp)
{
    int cursor = (int)buf[1];
    const double *times = buf + 2, *values = buf + 2 + n;
    int oldest = slot(cursor, n, 0), newest = slot(cursor, n, n - 1);
    if (t <= times[oldest] + CS_MINVAL) return values + (size_t)oldest * dim;
    if (t >= times[newest] - CS_MINVAL) return values + (size_t)newest * dim;
    int k = find(times, n, cursor, t), hi = slot(cursor, n, k);
    if (fabs(t - times[hi]) < CS_MINVAL) return values + (size_t)hi * dim;
    int lo = slot(cursor, n, k - 1); /* k > 0: t is past the oldest */
    if (interp == 0) return values + (size_t)lo * dim;
    double h = times[hi] - times[lo], a = (t - times[lo]) / h;
    const double *vl = values + (size_t)lo * dim, *vh = values + (size_t)hi * dim;
    if (interp == 1) {
        for (int j = 0; j < dim; j++) res[j] = vl[j] + a * (vh[j] - vl[j]);
        return NULL;
    }
    /* cubic Hermite with Catmull-Rom slopes from the neighbours, 0 at the buffer's ends */
    double a2 = a * a, a3 = a2 * a;
    double h00 = 2 * a3 - 3 * a2 + 1, h10 = a3 - 2 * a2 + a, h01 = -2 * a3 + 3 * a2,
           h11 = a3 - a2;
    int pp = k > 1 ? slot(cursor, n, k - 2) : -1, pn = k < n - 1 ? slot(cursor, n, k + 1) : -1;
    for (int j = 0; j < dim; j++) {
        double mlo = 0, mhi = 0;
        if (pp >= 0) mlo = (vh[j] - values[(size_t)pp * dim + j]) / (times[hi] - times[pp]);
        if (pn >= 0) mhi = (values[(size_t)pn * dim + j] - vl[j]) / (times[pn] - times[lo]);
        res[j] = h00 * vl[j] + h10 * h * mlo + h01 * vh[j] + h11 * h * mhi;
    }
    return NULL;
}

/* ---- the model's buffers ----------------------------------------------------------------- */
void cs_history_reset(const cs_model *m, cs_data *d)
{
    double dt = m->opt.timestep;
    for (int i = 0; i < m->nactuator; i++) {
        int n = m->actuator_history[2 * i];
        if (n <= 0) continue;
        double *buf = d->history + m->actuator_historyadr[i];
        buf[0] = 0;
        buf[1] = n - 1;
        for (int j = 0; j < n; j++) buf[2 + j] = -(n - j) * dt;
        memset(buf + 2 + n, 0, (size_t)n * sizeof *buf);
    }
    for (int i = 0; i < m->nsensor; i++) {
        int n = m->sensor_history[2 * i], dim = m->sensor_dim[i];
        if (n <= 0) continue;
        double *buf = d->history + m->sensor_historyadr[i];
        double period = m->sensor_interval[2 * i], phase = m->sensor_interval[2 * i + 1];
        /* a phase of 0 means -period: the first computation at time 0 */
        double t0 = phase == 0 ? -period : phase;
        buf[0] = period > 0 ? t0 : -dt;
        buf[1] = n - 1;
        for (int j = 0; j < n; j++) /* on the step grid: when it could have been computed */
            buf[2 + j] = period > 0 ? ceil((t0 - (n - 1 - j) * period) / dt) * dt : -(n - j) * dt;
        memset(buf + 2 + n, 0, (size_t)n * (size_t)dim * sizeof *buf);
    }
}

int cs_history_sensor(const cs_model *m, const cs_data *d, int i, double *out)
{
    int n = m->sensor_history[2 * i];
    if (n <= 0) return 0;
    const double *buf = d->history + m->sensor_historyadr[i];
    double period = m->sensor_interval[2 * i];
    if (!(m->sensor_delay[i] > 0) && !(period > 0 && !(buf[0] + period <= d->time))) return 0;
    cs_read_sensor(m, d, i, d->time, out, m->sensor_history[2 * i + 1]);
    return 1;
}

/* ---- the public calls -------------------------------------------------------------------- */
double cs_read_ctrl(const cs_model *m, const cs_data *d, int id, double time, int interp)
{
    if (id < 0 || id >= m->nactuator || !m->actuator_ctrlnum[id]) return 0;
    int n = m->actuator_history[2 * id];
    if (n <= 0) return d->ctrl[m->actuator_ctrladr[id]];
    if (interp < 0) interp = m->actuator_history[2 * id + 1];
    double r;
    const double *p = cs_history_read(d->history + m->actuator_historyadr[id], n, 1, &r,
                                      time - m->actuator_delay[id], interp);
    return p ? *p : r;
}

int cs_read_sensor(const cs_model *m, const cs_data *d, int id, double time, double *result,
                   int interp)
{
    if (id < 0 || id >= m->nsensor) return -1;
    int n = m->sensor_history[2 * id], dim = m->sensor_dim[id];
    const double *p;
    if (n <= 0) {
        p = d->sensordata + m->sensor_adr[id];
    } else {
        if (interp < 0) interp = m->sensor_history[2 * id + 1];
        p = cs_history_read(d->history + m->sensor_historyadr[id], n, dim, result,
                            time - m->sensor_delay[id], interp);
    }
    if (p && p != result) memmove(result, p, (size_t)dim * sizeof *result);
    return 0;
}

int cs_init_ctrl_history(const cs_model *m, cs_data *d, int id, const double *times,
                         const double *values)
{
    if (id < 0 || id >= m->nactuator || m->actuator_history[2 * id] <= 0) return -1;
    double *buf = d->history + m->actuator_historyadr[id];
    return cs_history_set(buf, m->actuator_history[2 * id], 1, times, values, buf[0]);
}

int cs_init_sensor_history(const cs_model *m, cs_data *d, int id, const double *times,
                           const double *values, double phase)
{
    if (id < 0 || id >= m->nsensor || m->sensor_history[2 * id] <= 0) return -1;
    return cs_history_set(d->history + m->sensor_historyadr[id], m->sensor_history[2 * id],
                          m->sensor_dim[id], times, values, phase);
}
