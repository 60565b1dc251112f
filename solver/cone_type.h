/* The friction cone of the contact rows, MuJoCo's mjtCone order. Part of the public API
 * (cs_option.cone), so it stands alone. */
#ifndef CS_CONE_TYPE_H
#define CS_CONE_TYPE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CS_CONE_PYRAMIDAL = 0, CS_CONE_ELLIPTIC = 1 } cs_cone_type;

#ifdef __cplusplus
}
#endif

#endif
