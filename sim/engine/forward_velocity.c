/* The forward pass from the smooth stage on (smooth, energy, constraint, sensors): what the
 * step runs after collision, and what runs again when trees have just been put to sleep with
 * their velocities zeroed (MuJoCo's mj_forwardSkip from its velocity stage in mj_advance). */
#include "conesim.h"
#include "sensor.h"
#include "sleep.h"
#include "stages.h"

/* A sleeping tree keeps its acceleration (MuJoCo's sleep filter computes only the awake
 * trees'). */
void cs_forward_velocity(const cs_model *m, cs_data *d, int sensors)
{
    cs_smooth(m, d);
    if (m->opt.enableflags & CS_ENBL_ENERGY) { /* MuJoCo's mj_energyPos and mj_energyVel */
        d->energy[0] = cs_energy_potential(m, d);
        d->energy[1] = cs_energy_kinetic(m, d);
    } else {
        d->energy[0] = d->energy[1] = 0;
    }
    int sf = cs_sleep_filter(m, d);
    if (sf) cs_sleep_qacc(m, d, 0);
    cs_constraint(m, d);
    if (sf) cs_sleep_qacc(m, d, 1);
    if (!sensors) return;
    /* all three after the constraint stage, where conesim makes the limit rows the
     * position sensors read (MuJoCo makes them with its position stage) */
    cs_sensor_pos(m, d);
    cs_sensor_vel(m, d);
    cs_sensor_acc(m, d);
}

void cs_forward_after_sleep(const cs_model *m, cs_data *d) { cs_forward_velocity(m, d, 1); }
