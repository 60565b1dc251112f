/* `conesim run --ctrl FILE.csv`: controls over time from a CSV (README, Controls). */
#ifndef CS_CLI_CTRL_H
#define CS_CLI_CTRL_H

#include <stddef.h>

#include "conesim.h"

/* The schedule: a header "time,NAME1,NAME2,..." naming controls (cs_ctrl_label: an
 * actuator's name, with "/INPUT" for one of several controls), then rows of a time and one
 * value per named control, times increasing. */
typedef struct {
    int ncol;        /* named controls */
    int *ctrl;       /* ncol: their indices in ctrl */
    int nrow;
    double *t;       /* nrow */
    double *v;       /* nrow x ncol */
} cs_ctrl_schedule;

/* Reads FILE for model m. Returns 0, or -1 with "FILE:LINE: what is wrong" in err (an
 * unknown or repeated control, a malformed number, a row of the wrong length, a time not
 * after the previous row's, no rows) and errno set when the file cannot be read. */
int cs_ctrl_load(const char *path, const cs_model *m, cs_ctrl_schedule *s, char *err,
                 size_t errlen);

/* The named controls at time t: linear between rows, the first row's before
 * it, the last row's after it. Other controls are left as they are. */
void cs_ctrl_at(const cs_ctrl_schedule *s, double t, double *ctrl);

void cs_ctrl_free(cs_ctrl_schedule *s);

#endif
