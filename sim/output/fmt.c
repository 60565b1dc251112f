/* The shortest round-trip decimal of a double (fmt.h). */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

char *cs_fmt_shortest(char *buf, size_t len, double v)
{
    if (!buf || len == 0) return buf;
    if (!isfinite(v)) {
        snprintf(buf, len, "%.17g", v);
        return buf;
    }
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, v);
        if (p == 17 || strtod(buf, NULL) == v) break;
    }
    return buf;
}
