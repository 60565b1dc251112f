/* The compiler's actuator constants that need a running model: actuator_acc0 (the
 * acceleration a unit force makes at qpos0) and actuator_lengthrange, which muscles scale
 * their force-length curve by (MuJoCo's set0 and mj_setLengthRange). */
#ifndef CS_LENGTHRANGE_H
#define CS_LENGTHRANGE_H

#include <stddef.h>

#include "conesim.h"

/* <compiler><lengthrange>, MuJoCo's mjLROpt with its defaults (cs_lropt_default) */
enum { CS_LRMODE_NONE = 0, CS_LRMODE_MUSCLE = 1, CS_LRMODE_MUSCLEUSER = 2, CS_LRMODE_ALL = 3 };
typedef struct {
    int mode;         /* which actuators get a computed range */
    int useexisting;  /* keep a range already given (lo < hi) */
    int uselimit;     /* take a limited joint's or tendon's range instead of simulating */
    double accel;     /* the acceleration the pushing force aims at */
    double maxforce;  /* bound on that force's norm (0: none) */
    double timeconst; /* velocity decay time constant */
    double timestep;  /* the simulation's step (0: the model's) */
    double inttotal;  /* simulated time per side */
    double interval;  /* the last part of it where the length is watched */
    double tolrange;  /* convergence: the watched spread, relative to the range */
} cs_lropt;

void cs_lropt_default(cs_lropt *o);

/* actuator_acc0 of every actuator: |M^-1 moment| at qpos0. 0, or -1 out of memory. */
int cs_model_acc0(cs_model *m);

/* actuator_lengthrange of every actuator the options select, by the limits or by pushing
 * the transmission each way with a force and watching its length; the model's options are
 * as before on return. 0; -1 out of memory; 1 + actuator with err filled when the
 * simulation fails. */
int cs_model_lengthrange(cs_model *m, const cs_lropt *o, char *err, size_t errsz);

#endif
