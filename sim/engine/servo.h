/* sim-internal: the servo side of actuation (actuator_servo.c), MuJoCo 3.12's: setpoints on
 * rotational transmissions, the pid actuator and the DC motor's on-board controller. u is
 * the step's used controls (clamped, cs_data_scratch.ctrl_used); a slew-limited setpoint
 * is written back into it, as MuJoCo writes its local copy, so the force reads it. */
#ifndef CS_SERVO_H
#define CS_SERVO_H

#include "conesim.h"

/* the period of a servo's rotational transmission, 0 when none: a position-like servo
 * (fixed gain, affine bias, kp = -biasprm[1], no dynamics or an integrator) or a pid on a
 * ball joint, or on a site with a reference site and a purely rotational gear */
double cs_wrap_period(const cs_model *m, int i);
/* setpoint u moved by whole periods to the representative nearest length */
double cs_wrap_setpoint(double u, double length, double period);
/* the rates of a pid's states [slew, integral] (dyntype pid) */
void cs_pid_rates(const cs_model *m, cs_data *d, int i, double *u);
/* a DC motor's states, in MuJoCo's order (its mj_dcmotorSlots; the thermal state is
 * refused by the loader): offsets from its actadr, -1 when absent */
typedef struct {
    int slew, integral, bristle, current, n;
} cs_dcmotor_slots;
cs_dcmotor_slots cs_dcmotor_slots_of(const double *dynprm, const double *gainprm);
/* LuGre friction's Stribeck curve g(v) = F_C + (F_S - F_C) exp(-(v / v_S)^2) */
double cs_lugre_stribeck(double v, double fc, double fs, double vs);
/* the rates of a DC motor's states [slew, integral, bristle, current] */
void cs_dcmotor_rates(const cs_model *m, cs_data *d, int i, double *u);
/* a pid's force before its bias: kp qref + kv vref + ff (+ ki times its integral) */
double cs_pid_input_force(const cs_model *m, const cs_data *d, int i, const double *u);
/* a DC motor with controller inputs: its drive voltage into u's first control of the
 * block (what the force's gain multiplies) */
void cs_dcmotor_drive(const cs_model *m, const cs_data *d, int i, double *u);
/* actuator_so3.c: an orientation servo's three lengths and moment rows (3 x nv; scratch
 * 6 nv), its three forces, their norm clamped to forcerange[1], and its integrated
 * setpoint (act) re-anchored to a rotation angle within pi after a step */
void cs_so3_transmission(const cs_model *m, const cs_data *d, int i, double len[3],
                         double *moment, double *scratch);
void cs_so3_force(const cs_model *m, cs_data *d, int i, const double *u);
void cs_so3_clamp(const cs_model *m, cs_data *d, int i);
void cs_so3_reanchor(const cs_model *m, cs_data *d, int i);
/* activation adr (of actuator i) after one step at rate act_dot (MuJoCo's
 * mj_nextActivation) */
double cs_next_activation(const cs_model *m, const cs_data *d, int i, int adr, double act_dot);

#endif
