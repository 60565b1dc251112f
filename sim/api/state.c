/* State by parts (MuJoCo's mj_stateSize, mj_getState, mj_setState): the parts of cs_data a
 * caller saves and restores, in MuJoCo's order, each described once below. */
#include <stddef.h>
#include <string.h>

#include "conesim.h"
#include "data_fields.h"

/* X(bit, data member, rows, cols): rows a size of cs_model; time is the one scalar part */
#define CS_STATE_ARRAYS(X) \
    X(CS_STATE_QPOS, qpos, nq, 1) \
    X(CS_STATE_QVEL, qvel, nv, 1) \
    X(CS_STATE_ACT, act, na, 1) \
    X(CS_STATE_HISTORY, history, nhistory, 1) \
    X(CS_STATE_WARMSTART, qacc_warmstart, nv, 1) \
    X(CS_STATE_CTRL, ctrl, nu, 1) \
    X(CS_STATE_QFRC_APPLIED, qfrc_applied, nv, 1) \
    X(CS_STATE_XFRC_APPLIED, xfrc_applied, nbody, 6) \
    X(CS_STATE_EQ_ACTIVE, eq_active, neq, 1) \
    X(CS_STATE_MOCAP_POS, mocap_pos, nmocap, 3) \
    X(CS_STATE_MOCAP_QUAT, mocap_quat, nmocap, 4)

static int valid(int spec)
{
    return spec >= 0 && spec < (1 << CS_NSTATE);
}

int cs_state_size(const cs_model *m, int spec)
{
    if (!m || !valid(spec)) return -1;
    int n = spec & CS_STATE_TIME ? 1 : 0;
#define SIZE(bit, f, rows, cols) if (spec & (bit)) n += m->rows * (cols);
    CS_STATE_ARRAYS(SIZE)
#undef SIZE
    return n;
}

/* n values between an int or double array and the state */
#define COPY_OUT(src, dst, n) \
    for (size_t i_ = 0; i_ < (n); i_++) (dst)[i_] = (double)(src)[i_];
#define COPY_IN(src, dst, n, type) \
    for (size_t i_ = 0; i_ < (n); i_++) (dst)[i_] = (type)(src)[i_];

int cs_get_state(const cs_model *m, const cs_data *d, double *state, int spec)
{
    if (!m || !d || !state || !valid(spec)) return -1;
    double *s = state;
    if (spec & CS_STATE_TIME) *s++ = d->time;
#define GET(bit, f, rows, cols) \
    if (spec & (bit)) { \
        size_t n_ = (size_t)m->rows * (size_t)(cols); \
        COPY_OUT(d->f, s, n_) \
        s += n_; \
    }
    CS_STATE_ARRAYS(GET)
#undef GET
    return 0;
}

int cs_set_state(const cs_model *m, cs_data *d, const double *state, int spec)
{
    if (!m || !d || !state || !valid(spec)) return -1;
    const double *s = state;
    if (spec & CS_STATE_TIME) d->time = *s++;
#define SET(bit, f, rows, cols) \
    if (spec & (bit)) { \
        size_t n_ = (size_t)m->rows * (size_t)(cols); \
        COPY_IN(s, d->f, n_, __typeof__(*d->f)) \
        s += n_; \
    }
    CS_STATE_ARRAYS(SET)
#undef SET
    return 0;
}
