#include "numlist.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

int cs_numlist(const char *s, double *out, int max)
{
    int k = 0;
    const char *p = s;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) return k;
        char *end;
        double v = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end))) return CS_NUMLIST_BAD;
        if (!isfinite(v)) return CS_NUMLIST_INF;
        if (k >= max) return CS_NUMLIST_MORE;
        out[k++] = v;
        p = end;
    }
}
