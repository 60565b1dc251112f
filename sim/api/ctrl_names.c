/* Controls by name: the inputs of an actuator's control block (MuJoCo's
 * mj_actuatorInputName) and the labels the CSV files, --set and the viewer use. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

const char *cs_actuator_input_name(const cs_model *m, int id, int k)
{
    if (!m || id < 0 || id >= m->nactuator || k < 0 || k >= m->actuator_ctrlnum[id])
        return NULL;
    static const char *const NAME[4] = {"pos", "vel", "ff", "voltage"};
    static const int BIT[4] = {CS_INPUT_POS, CS_INPUT_VEL, CS_INPUT_FF, CS_INPUT_VOLTAGE};
    static const char *const EXPMAP[3] = {"rx", "ry", "rz"}, *const QUAT[4] = {"qw", "qx", "qy",
                                                                             "qz"};
    int spec = m->actuator_ctrlspec[id];
    if (m->actuator_trntype[id] == CS_TRN_SO3) /* an orientation: its chart's components */
        return spec == CS_CHART_QUAT ? QUAT[k] : EXPMAP[k];
    if (spec & CS_INPUT_NONE) return NULL;
    for (int b = 0; b < 4; b++)
        if (spec & BIT[b] && k-- == 0) return NAME[b];
    return NULL;
}

int cs_ctrl_actuator(const cs_model *m, int ctrl)
{
    if (!m || ctrl < 0 || ctrl >= m->nu) return -1;
    /* ctrladr increases with the actuator: the last block starting at or before ctrl */
    int lo = 0, hi = m->nactuator - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (m->actuator_ctrladr[mid] <= ctrl) lo = mid;
        else hi = mid - 1;
    }
    while (lo > 0 && m->actuator_ctrlnum[lo] == 0) lo--; /* an empty block starts there too */
    return lo;
}

const char *cs_ctrl_label(const cs_model *m, int ctrl, char *buf, size_t bufsz)
{
    int a = cs_ctrl_actuator(m, ctrl);
    if (a < 0) return NULL;
    const char *name = m->actuator_name[a];
    if (m->actuator_ctrlnum[a] == 1 && name) return name;
    char tail[16] = "";
    if (m->actuator_ctrlnum[a] > 1) {
        int k = ctrl - m->actuator_ctrladr[a];
        const char *in = cs_actuator_input_name(m, a, k);
        if (in) snprintf(tail, sizeof tail, "/%s", in);
        else snprintf(tail, sizeof tail, "/%d", k);
    }
    /* cs_actuator_label's "actuator<i>" for an unnamed one */
    if (name) snprintf(buf, bufsz, "%s%s", name, tail);
    else snprintf(buf, bufsz, "actuator%d%s", a, tail);
    return buf;
}

int cs_name2id_ctrl(const cs_model *m, const char *name)
{
    if (!m || !name || !*name) return -1;
    char buf[256];
    for (int k = 0; k < m->nu; k++) {
        const char *l = cs_ctrl_label(m, k, buf, sizeof buf);
        if (l && strcmp(l, name) == 0) return k;
    }
    const char *p = name;
    while (isdigit((unsigned char)*p)) p++;
    if (*p) return -1;
    long k = strtol(name, NULL, 10);
    return k < m->nu ? (int)k : -1;
}
