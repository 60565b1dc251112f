/* MuJoCo's mjMINVAL: the floor below which a mass, a time constant, a denominator or a length
 * counts as zero. One value for every module, as in MuJoCo. */
#ifndef CS_MINVAL_H
#define CS_MINVAL_H

#define CS_MINVAL 1e-15

#endif
