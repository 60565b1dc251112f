/* Fuzz target: an MJCF file through the loader, then the data and its first steps, as
 * `conesim run` does. A bad file must give "fuzz.xml:LINE: ..." (or "fuzz.xml: out of
 * memory"); a model must make data and step without a crash or a sanitizer report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char err[1024] = "";
    cs_model *m = cs_load_xml_buffer((const char *)data, size, "fuzz.xml", NULL, err, sizeof err);
    if (!m) {
        if (strncmp(err, "fuzz.xml:", 9) != 0 && strcmp(err, "fuzz.xml: out of memory") != 0) {
            fprintf(stderr, "loader error without FILE:LINE: '%s'\n", err);
            abort();
        }
        return 0;
    }
    /* capacities a scene may ask for but a fuzzer's memory limit refuses (the contact
     * room the data starts with: it grows only as far as 20 steps need) */
    if (m->ncon_reserve <= 20000 && m->ngeom <= 2000) {
        cs_data *d = cs_make_data(m);
        if (d) {
            if (m->nkey) cs_reset_key(m, d, 0);
            for (int k = 0; k < 20 && cs_check_finite(m, d) < 0; k++) cs_step(m, d);
            cs_free_data(d);
        }
    }
    cs_free_model(m);
    return 0;
}
