/* Strict number parsing: a typo must be an error, never a silent 0. */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_span(const char *s, size_t len, double *out)
{
    char buf[128];
    /* leading/trailing blanks are tolerated ("1, 2"), nothing else */
    while (len > 0 && (*s == ' ' || *s == '\t')) s++, len--;
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
    if (len == 0) return CS_ARG_EMPTY;
    if (len >= sizeof buf) return CS_ARG_NAN;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    double v = strtod(buf, &end);
    if (end == buf || *end != 0 || isnan(v)) return CS_ARG_NAN;
    if (!isfinite(v)) return CS_ARG_INF; /* "inf", or overflow; underflow to 0 is fine */
    *out = v;
    return CS_ARG_OK;
}

int cs_arg_number(const char *text, double *out)
{
    return parse_span(text, strlen(text), out);
}

int cs_arg_list(const char *text, double *out, int max, int *count, int *bad)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (n >= max) {
            *bad = n + 1;
            return CS_ARG_MANY;
        }
        int rc = parse_span(p, len, &out[n]);
        if (rc != CS_ARG_OK) {
            *bad = n + 1;
            return rc;
        }
        n++;
        if (!q) break;
        p = q + 1;
    }
    *count = n;
    return CS_ARG_OK;
}

const char *cs_arg_error(int code)
{
    switch (code) {
    case CS_ARG_NAN: return "is not a number";
    case CS_ARG_INF: return "is not a finite number";
    case CS_ARG_EMPTY: return "is empty";
    case CS_ARG_MANY: return "is one too many";
    }
    return "is invalid";
}

int cs_arg_long(const char *text, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end) return 0;
    *out = v;
    return 1;
}

int cs_arg_double(const char *text, double *out) { return cs_arg_number(text, out) == CS_ARG_OK; }

int cs_arg_steps(double duration, double timestep, long *n)
{
    double s = duration / timestep;
    /* 2^62: far beyond any run, and k * timestep stays exact enough to be the time */
    if (!(s >= 0 && s < 0x1p62)) return 0;
    *n = (long)llround(s);
    return 1;
}
