/* The step's samples in the history buffers (MuJoCo 3.12's mj_advance, before the state
 * moves): apart from history.c because a delayed sensor's current value is computed here,
 * and the sensors' passes read the buffers. Nothing here allocates. */
#include <string.h>

#include "conesim.h"
#include "history.h"
#include "sensor.h"

void cs_history_advance(const cs_model *m, cs_data *d)
{
    if (!m->nhistory) return;
    for (int i = 0; i < m->nactuator; i++) {
        int n = m->actuator_history[2 * i];
        if (n <= 0) continue;
        *cs_history_insert(d->history + m->actuator_historyadr[i], n, 1, d->time) =
            d->ctrl[m->actuator_ctrladr[i]];
    }
    int prepared = 0;
    for (int i = 0; i < m->nsensor; i++) {
        int n = m->sensor_history[2 * i], dim = m->sensor_dim[i];
        if (n <= 0) continue;
        double *buf = d->history + m->sensor_historyadr[i];
        double delay = m->sensor_delay[i], period = m->sensor_interval[2 * i];
        if (period > 0) {
            if (!(buf[0] + period <= d->time)) continue; /* not yet its time */
            buf[0] += period; /* on the continuous grid, not the step's */
        }
        double *s = cs_history_insert(buf, n, dim, d->time);
        if (delay > 0) { /* sensordata holds the delayed value: the current one is computed */
            if (!prepared && (m->opt.disableflags & CS_DSBL_SENSOR)) cs_sensor_prepare(m, d);
            prepared = 1;
            cs_sensor_compute(m, d, i, s);
        } else {
            memcpy(s, d->sensordata + m->sensor_adr[i], (size_t)dim * sizeof *s);
        }
    }
}
