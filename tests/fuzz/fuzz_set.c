/* Fuzz target: `--set NAME=VALUE` on a small scene, then the step count and the first
 * steps, as `conesim run` does. An override is accepted or refused with a message; an
 * accepted one leaves options a step can use; a run length is counted or refused. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "conesim.h"
#include "overrides.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *SCENE =
    "<mujoco><option solver=\"PGS\" cone=\"elliptic\"/><worldbody>"
    "<geom type=\"plane\" size=\"1 1 0.1\"/>"
    "<body pos=\"0 0 0.1\"><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\"/></body>"
    "<body pos=\"0 0 0.3\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>"
    "</worldbody></mujoco>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* up to 4 overrides, one a line */
    static char text[4][200];
    int n = 0;
    size_t at = 0;
    while (at < size && n < 4) {
        size_t len = 0;
        while (at + len < size && data[at + len] != '\n' && len < sizeof text[0] - 1) len++;
        memcpy(text[n], data + at, len);
        text[n][len] = 0;
        if (memchr(text[n], 0, len)) return 0; /* a command line holds no NUL */
        n++;
        at += len + 1;
    }
    cs_overrides o;
    memset(&o, 0, sizeof o);
    char why[160], err[512];
    for (int i = 0; i < n; i++)
        if (!cs_overrides_add(&o, "--set", text[i], why, sizeof why)) return 0;
    cs_model *m = cs_load_xml_string(SCENE, "scene.xml", NULL, err, sizeof err);
    if (!m) abort();
    if (cs_overrides_apply(&o, m, err, sizeof err) == 0) {
        const cs_option *op = &m->opt;
        if (!(op->timestep > 0) || !isfinite(op->timestep) || op->iterations < 0 ||
            !isfinite(op->impratio) || !(op->impratio > 0) || op->tolerance < 0)
            abort();
        long steps;
        /* an iteration limit of a billion is a valid request, but not one to fuzz: a
         * problem that never converges (non-finite forces) runs to the limit */
        if (op->iterations <= 1000 && op->ls_iterations <= 1000 &&
            cs_arg_steps(1.0, op->timestep, &steps)) {
            if (steps < 0) abort();
            cs_data *d = cs_make_data(m);
            if (!d) abort();
            for (long k = 0; k < steps && k < 10 && cs_check_finite(m, d) < 0; k++) cs_step(m, d);
            cs_free_data(d);
        }
    } else if (!err[0]) {
        abort();
    }
    cs_free_model(m);
    return 0;
}
