/* Control schedules from CSV: linear interpolation in time between rows. */
#include "ctrl.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cs_ctrl_free(cs_ctrl_schedule *s)
{
    free(s->ctrl);
    free(s->t);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* the next comma-separated field of *p, blanks trimmed (modifies the line) */
static char *field(char **p)
{
    if (!*p) return NULL;
    char *f = *p, *comma = strchr(f, ',');
    if (comma) {
        *comma = 0;
        *p = comma + 1;
    } else {
        *p = NULL;
    }
    while (isspace((unsigned char)*f)) f++;
    size_t n = strlen(f);
    while (n && isspace((unsigned char)f[n - 1])) f[--n] = 0;
    return f;
}

static int number(const char *f, double *out)
{
    char *end;
    if (!*f) return 0;
    *out = strtod(f, &end);
    return *end == 0 && isfinite(*out);
}

int cs_ctrl_load(const char *path, const cs_model *m, cs_ctrl_schedule *s, char *err,
                 size_t errlen)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, header = 0, caprow = 0, rc = -1;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') continue; /* blank lines and comments */
        p[strcspn(p, "\r\n")] = 0;
        if (!header) {
            char *fl = field(&p);
            if (strcmp(fl, "time") != 0) {
                snprintf(err, errlen, "%s:%d: the header must start with 'time' (then control "
                         "names)", path, lineno);
                goto done;
            }
            for (char *q = p; q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL) s->ncol++;
            s->ctrl = calloc((size_t)s->ncol + 1, sizeof *s->ctrl);
            if (!s->ctrl) goto nomem;
            for (int k = 0; k < s->ncol; k++) {
                char *name = field(&p);
                int id = cs_name2id_ctrl(m, name);
                if (id < 0) {
                    snprintf(err, errlen, "%s:%d: no control named '%s' in the scene", path,
                             lineno, name);
                    goto done;
                }
                for (int j = 0; j < k; j++)
                    if (s->ctrl[j] == id) {
                        snprintf(err, errlen, "%s:%d: control '%s' named twice", path, lineno,
                                 name);
                        goto done;
                    }
                s->ctrl[k] = id;
            }
            header = 1;
            continue;
        }
        if (s->nrow == caprow) {
            caprow = caprow ? 2 * caprow : 64;
            double *t = realloc(s->t, (size_t)caprow * sizeof *t);
            if (!t) goto nomem;
            s->t = t;
            double *v = realloc(s->v, (size_t)caprow * (size_t)(s->ncol + 1) * sizeof *v);
            if (!v) goto nomem;
            s->v = v;
        }
        double *row = s->v + (size_t)s->nrow * s->ncol;
        int nf = 0, more = 0;
        for (char *fl; (fl = field(&p));) {
            double x;
            if (nf == s->ncol + 1) {
                more = 1;
                break;
            }
            if (!number(fl, &x)) {
                snprintf(err, errlen, "%s:%d: '%s' is not a finite number", path, lineno, fl);
                goto done;
            }
            if (nf == 0) s->t[s->nrow] = x;
            else row[nf - 1] = x;
            nf++;
        }
        if (more || nf != s->ncol + 1) {
            snprintf(err, errlen, "%s:%d: expected %d fields (time and %d control%s), got %s%d",
                     path, lineno, s->ncol + 1, s->ncol, s->ncol == 1 ? "" : "s",
                     more ? "more than " : "", nf);
            goto done;
        }
        if (s->nrow > 0 && !(s->t[s->nrow] > s->t[s->nrow - 1])) {
            snprintf(err, errlen, "%s:%d: time %g does not come after the previous row's %g "
                     "(times must increase)", path, lineno, s->t[s->nrow], s->t[s->nrow - 1]);
            goto done;
        }
        s->nrow++;
    }
    if (ferror(f)) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
        goto done;
    }
    if (!header) snprintf(err, errlen, "%s:%d: no header (time,NAME,...)", path, lineno);
    else if (!s->nrow) snprintf(err, errlen, "%s:%d: no rows after the header", path, lineno);
    else rc = 0;
    goto done;
nomem:
    snprintf(err, errlen, "%s: out of memory", path);
done:
    free(line);
    fclose(f);
    if (rc) cs_ctrl_free(s);
    return rc;
}

void cs_ctrl_at(const cs_ctrl_schedule *s, double t, double *ctrl)
{
    int n = s->nrow, c = s->ncol;
    if (t <= s->t[0] || n == 1) {
        for (int k = 0; k < c; k++) ctrl[s->ctrl[k]] = s->v[k];
        return;
    }
    if (t >= s->t[n - 1]) {
        for (int k = 0; k < c; k++) ctrl[s->ctrl[k]] = s->v[(size_t)(n - 1) * c + k];
        return;
    }
    int lo = 0, hi = n - 1; /* t[lo] <= t < t[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (s->t[mid] <= t) lo = mid;
        else hi = mid;
    }
    double w = (t - s->t[lo]) / (s->t[hi] - s->t[lo]);
    for (int k = 0; k < c; k++) {
        double a = s->v[(size_t)lo * c + k], b = s->v[(size_t)hi * c + k];
        ctrl[s->ctrl[k]] = a + w * (b - a);
    }
}
