/* sim-internal: MuJoCo's same-frame flags (which frame a geom, site or inertial frame is
 * taken to coincide with) and the pose they give */
#ifndef CS_SAMEFRAME_H
#define CS_SAMEFRAME_H

#include "conesim.h"

/* MuJoCo's mjtSameFrame codes */
typedef enum {
    CS_SAMEFRAME_NONE = 0,
    CS_SAMEFRAME_BODY = 1,
    CS_SAMEFRAME_INERTIA = 2,
    CS_SAMEFRAME_BODYROT = 3,
    CS_SAMEFRAME_INERTIAROT = 4,
} cs_sameframe;

/* every body's, geom's and site's flag from the model's poses; one geom's after its pose
 * changed */
void cs_sameframe_all(cs_model *m);
void cs_sameframe_geom(cs_model *m, int g);
void cs_local2global(const cs_data *d, int b, int sameframe, const double pos[3],
                     const double quat[4], double xpos[3], double xmat[9]);

#endif
