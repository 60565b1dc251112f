/* Trajectory CSV (README, Output files, `--record`) for `view --replay`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static const char *HEADER = "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

void cs_replay_free(cs_replay *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nbody; i++)
        free(r->names[i]);
    free(r->names);
    free(r->step);
    free(r->time);
    free(r->state);
    memset(r, 0, sizeof *r);
}

typedef struct {
    const char *path;
    long line;
    char *err;
    size_t errlen;
} ctx;

static int fail(const ctx *c, const char *what, const char *detail)
{
    snprintf(c->err, c->errlen, "%s:%ld: %s%s%s", c->path, c->line, what,
             detail ? ": " : "", detail ? detail : "");
    return -1;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* Splits line in place at commas into at most max fields; returns the count. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n < max)
            f[n] = p;
        n++;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* A step number: a decimal integer that fits a long (the recorder writes %ld). */
static int step_number(const char *s, long *v)
{
    char *end;
    errno = 0;
    long l = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || l < 0)
        return -1;
    *v = l;
    return 0;
}

static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno != ERANGE && isfinite(*v) ? 0 : -1;
}

int cs_replay_load(const char *path, cs_replay *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    ctx c = {path, 0, err, errlen};
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    size_t cap_frames = 0, cap_state = 0, cap_names = 0, cap_time = 0;
    int rc = -1, row_in_step = 0, first_step_done = 0, oom = 0;
    while ((len = getline(&line, &linecap, fp)) >= 0) {
        c.line++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (c.line == 1) {
            if (strcmp(line, HEADER) != 0) {
                fail(&c, "not a trajectory CSV: the header must be", HEADER);
                goto done;
            }
            continue;
        }
        if (len == 0) {
            fail(&c, "empty line", NULL);
            goto done;
        }
        char *f[17];
        int nf = split(line, f, 17);
        if (nf != 16) {
            char d[32];
            snprintf(d, sizeof d, "%d fields, expected 16", nf);
            fail(&c, "wrong number of fields", d);
            goto done;
        }
        long step;
        double t, v[CS_REPLAY_NUMS];
        if (step_number(f[0], &step) != 0) {
            fail(&c, "bad step (expected an integer from 0 to 2^63-1)", f[0]);
            goto done;
        }
        if (number(f[1], &t) != 0) {
            fail(&c, "bad time", f[1]);
            goto done;
        }
        for (int i = 0; i < CS_REPLAY_NUMS; i++)
            if (number(f[3 + i], &v[i]) != 0) {
                char d[96];
                snprintf(d, sizeof d, "column %d '%s'", 4 + i, f[3 + i]);
                fail(&c, "bad number", d);
                goto done;
            }
        int new_step = r->nframe == 0 || step != r->step[r->nframe - 1];
        if (new_step) {
            if (r->nframe > 0) {
                if (step < r->step[r->nframe - 1]) {
                    fail(&c, "steps must increase", f[0]);
                    goto done;
                }
                if (row_in_step != r->nbody) {
                    fail(&c, "the previous step lists fewer bodies than the first", NULL);
                    goto done;
                }
                first_step_done = 1;
            }
            if (grow((void **)&r->step, &cap_frames, (size_t)r->nframe + 1, sizeof *r->step) ||
                grow((void **)&r->time, &cap_time, (size_t)r->nframe + 1, sizeof *r->time)) {
                fail(&c, "out of memory", NULL);
                oom = 1;
                goto done;
            }
            r->step[r->nframe] = step;
            r->time[r->nframe] = t;
            r->nframe++;
            row_in_step = 0;
        } else if (t != r->time[r->nframe - 1]) {
            fail(&c, "time differs from the step's other rows", f[1]);
            goto done;
        }
        const char *name = f[2];
        if (!first_step_done) {
            for (int i = 0; i < r->nbody; i++)
                if (strcmp(r->names[i], name) == 0) {
                    fail(&c, "body listed twice in one step", name);
                    goto done;
                }
            if (grow((void **)&r->names, &cap_names, (size_t)r->nbody + 1, sizeof *r->names) ||
                !(r->names[r->nbody] = strdup(name))) {
                fail(&c, "out of memory", NULL);
                oom = 1;
                goto done;
            }
            r->nbody++;
        } else if (row_in_step >= r->nbody || strcmp(r->names[row_in_step], name) != 0) {
            fail(&c, "bodies must come in the first step's order", name);
            goto done;
        }
        /* During the first step nbody is still growing, but the frame index is 0. */
        size_t at = (size_t)(r->nframe - 1) * (size_t)r->nbody + (size_t)row_in_step;
        if (grow((void **)&r->state, &cap_state, (at + 1) * CS_REPLAY_NUMS, sizeof *r->state)) {
            fail(&c, "out of memory", NULL);
            oom = 1;
            goto done;
        }
        memcpy(r->state + at * CS_REPLAY_NUMS, v, sizeof v);
        row_in_step++;
    }
    if (c.line == 0) {
        c.line = 1;
        fail(&c, "empty file", NULL);
        goto done;
    }
    if (r->nframe == 0) {
        fail(&c, "no rows", NULL);
        goto done;
    }
    if (row_in_step != r->nbody) {
        fail(&c, "the last step lists fewer bodies than the first", NULL);
        goto done;
    }
    rc = 0;
done:
    free(line);
    fclose(fp);
    if (rc != 0)
        cs_replay_free(r);
    if (oom)
        errno = ENOMEM;
    return rc;
}

int cs_replay_find_body(const cs_replay *r, const char *name)
{
    for (int i = 0; i < r->nbody; i++)
        if (strcmp(r->names[i], name) == 0)
            return i;
    return -1;
}

const double *cs_replay_body(const cs_replay *r, int f, int b)
{
    return r->state + ((size_t)f * (size_t)r->nbody + (size_t)b) * CS_REPLAY_NUMS;
}

int cs_replay_frame_at(const cs_replay *r, double t)
{
    /* Binary search: the last frame with time <= t. */
    int lo = 0, hi = r->nframe - 1;
    if (r->nframe == 0 || t < r->time[0])
        return 0;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (r->time[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void cs_quat_to_mat(const double q[4], double m[9])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double w = 1, x = 0, y = 0, z = 0;
    if (n > 0)
        w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    m[0] = 1 - 2 * (y * y + z * z);
    m[1] = 2 * (x * y - w * z);
    m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z);
    m[4] = 1 - 2 * (x * x + z * z);
    m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y);
    m[7] = 2 * (y * z + w * x);
    m[8] = 1 - 2 * (x * x + y * y);
}

void cs_pose_compose(const double bpos[3], const double bquat[4], const double lpos[3],
                     const double lmat[9], cs_pose *out)
{
    double R[9];
    cs_quat_to_mat(bquat, R);
    for (int i = 0; i < 3; i++) {
        out->pos[i] = bpos[i] + R[3 * i] * lpos[0] + R[3 * i + 1] * lpos[1] +
                      R[3 * i + 2] * lpos[2];
        for (int j = 0; j < 3; j++)
            out->mat[3 * i + j] = R[3 * i] * lmat[j] + R[3 * i + 1] * lmat[3 + j] +
                                  R[3 * i + 2] * lmat[6 + j];
    }
}
