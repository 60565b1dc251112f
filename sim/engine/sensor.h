/* sim-internal: sensors (sensor.c). A sensor's layout from its type (the loader's), and
 * the three passes of the forward step that fill sensordata, each at the stage MuJoCo
 * computes it (position, velocity, acceleration). */
#ifndef CS_SENSOR_H
#define CS_SENSOR_H

#include "conesim.h"

int cs_sensor_datatype_of(int type);
int cs_sensor_stage_of(int type);
/* values per sensor (intprm: contact and rangefinder data bits, contact num); user sensors
 * give their own */
int cs_sensor_dim_of(int type, const int intprm[3]);

void cs_sensor_pos(const cs_model *m, cs_data *d);
void cs_sensor_vel(const cs_model *m, cs_data *d);
void cs_sensor_acc(const cs_model *m, cs_data *d);
/* sensor i's value now, cut off, from the step's results and what the passes prepared
 * (MuJoCo's mj_computeSensor); cs_sensor_prepare makes the latter when the passes did not
 * run (sensors disabled) */
void cs_sensor_compute(const cs_model *m, cs_data *d, int i, double *out);
void cs_sensor_prepare(const cs_model *m, cs_data *d);

#endif
