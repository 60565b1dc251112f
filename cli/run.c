/* conesim run: step a scene, print a summary, optionally record the trajectory CSV. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "ctrl.h"
#include "metrics.h"
#include "overrides.h"
#include "conesim.h"

/* the summary lists at most this many bodies (the recording has every one) */
#define SUMMARY_BODIES 20

typedef struct {
    const char *scene;
    long steps;        /* -1: from duration */
    double duration;   /* -1: default 1 s */
    const char *record;
    const char *joints;
    const char *contacts;
    const char *limits;
    const char *solverlog;
    const char *summary;
    const char *ctrl;       /* --ctrl: control schedule CSV */
    const char *actuators;  /* --actuators: actuator CSV */
    const char *sensors;    /* --sensors: sensor CSV */
    int quiet;
    long every;        /* record every K-th step */
    int key;           /* -2: default (first keyframe if any), -1: reference pose */
    cs_overrides set;  /* option overrides, applied in order after loading */
} run_opts;

/* Option table: add an entry (and a case in set_opt) for each new option. */
typedef struct {
    const char *name;
    int has_arg;
    const char *help;
} opt_def;

static const opt_def OPTS[] = {
    {"--steps", 1, "--steps N          number of steps"},
    {"--duration", 1, "--duration SECONDS simulated time, round(T / timestep) steps (default 1 s)"},
    {"--record", 1, "--record FILE.csv  trajectory CSV (step,time,body,x..wz)"},
    {"--joints", 1, "--joints FILE.csv  joint CSV (step,time,joint,type,q0..q6,v0..v5)"},
    {"--contacts", 1, "--contacts FILE.csv per-contact CSV (geoms, point, normal, dist, forces, velocities, zone)"},
    {"--limits", 1, "--limits FILE.csv  equality, limit and dry-friction rows (step,time,joint,kind,dof,pos,force)"},
    {"--solver-log", 1, "--solver-log FILE.csv per-step, per-island solver record"},
    {"--actuators", 1, "--actuators FILE.csv actuator CSV (step,time,actuator,ctrl,force)"},
    {"--sensors", 1, "--sensors FILE.csv sensor CSV (step,time,sensor,k,value)"},
    {"--ctrl", 1, "--ctrl FILE.csv    controls over time (header time,NAME,...; linear between rows)"},
    {"--summary", 1, "--summary FILE.csv the outcome in one row (as conesim sweep's)"},
    {"--every", 1, "--every K          record every K-th step (default 1); the final state always"},
    {"--key", 1, "--key K|none       initial keyframe (default: the first one, if any)"},
    {"--quiet", 0, "--quiet            no progress bar, summary only"},
    {"--timestep", 1, "--timestep DT      overrides <option timestep>"},
    {"--solver", 1, "--solver pgs|cg|newton overrides <option solver>"},
    {"--cone", 1, "--cone elliptic|pyramidal overrides <option cone>"},
    {"--contact", 1, "--contact soft|coulomb the contact model (default: the scene's, soft)"},
    {"--iterations", 1, "--iterations N     solver iteration limit"},
    {"--tolerance", 1, "--tolerance X      solver tolerance"},
    {"--threads", 1, "--threads N        threads for the contact islands (default 0: all cores)"},
    {"--set", 1, "--set NAME=VALUE   override an option attribute, e.g. option.impratio=10"},
};
#define NOPTS (sizeof OPTS / sizeof OPTS[0])

static int set_opt(run_opts *o, const char *name, const char *arg)
{
    long l;
    if (strcmp(name, "--steps") == 0) {
        if (!cs_arg_long(arg, &l) || l < 0) return 0;
        o->steps = l;
    } else if (strcmp(name, "--duration") == 0) {
        if (!cs_arg_double(arg, &o->duration) || o->duration < 0) return 0;
    } else if (strcmp(name, "--every") == 0) {
        if (!cs_arg_long(arg, &l) || l < 1) return 0;
        o->every = l;
    } else if (strcmp(name, "--record") == 0) {
        o->record = arg;
    } else if (strcmp(name, "--joints") == 0) {
        o->joints = arg;
    } else if (strcmp(name, "--contacts") == 0) {
        o->contacts = arg;
    } else if (strcmp(name, "--limits") == 0) {
        o->limits = arg;
    } else if (strcmp(name, "--summary") == 0) {
        o->summary = arg;
    } else if (strcmp(name, "--solver-log") == 0) {
        o->solverlog = arg;
    } else if (strcmp(name, "--actuators") == 0) {
        o->actuators = arg;
    } else if (strcmp(name, "--sensors") == 0) {
        o->sensors = arg;
    } else if (strcmp(name, "--ctrl") == 0) {
        o->ctrl = arg;
    } else if (strcmp(name, "--key") == 0) {
        if (strcmp(arg, "none") == 0) o->key = -1;
        else if (!cs_arg_long(arg, &l) || l < 0 || l > 1000000) return 0;
        else o->key = (int)l;
    } else if (strcmp(name, "--quiet") == 0) {
        o->quiet = 1;
    } else {
        /* option overrides: --timestep etc. are --set option.NAME=VALUE */
        char why[160];
        if (!cs_overrides_add(&o->set, name, arg, why, sizeof why)) return 0;
    }
    return 1;
}

static int same_file(const char *a, const char *b);

static int parse_args(int argc, char **argv, run_opts *o)
{
    o->steps = -1;
    o->duration = -1;
    o->every = 1;
    o->key = -2;
    o->set.ctrl_ok = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == 0) {
            if (o->scene) {
                fprintf(stderr, "conesim run: more than one scene given ('%s')\n", a);
                return 0;
            }
            o->scene = a;
            continue;
        }
        size_t k;
        for (k = 0; k < NOPTS; k++)
            if (strcmp(a, OPTS[k].name) == 0) break;
        if (k == NOPTS) {
            fprintf(stderr, "conesim run: unknown option '%s' (see 'conesim help run')\n", a);
            return 0;
        }
        const char *arg = NULL;
        if (OPTS[k].has_arg) {
            if (i + 1 >= argc) {
                fprintf(stderr, "conesim run: option %s needs a value\n", a);
                return 0;
            }
            arg = argv[++i];
        }
        if (!set_opt(o, a, arg)) {
            fprintf(stderr, "conesim run: bad value '%s' for %s\n", arg, a);
            return 0;
        }
    }
    if (!o->scene) {
        fprintf(stderr, "conesim run: no scene given\n");
        return 0;
    }
    if (o->steps >= 0 && o->duration >= 0) {
        fprintf(stderr, "conesim run: give --steps or --duration, not both\n");
        return 0;
    }
    /* two outputs in one file would interleave their rows */
    const char *out[8] = {o->record, o->joints, o->contacts, o->limits, o->solverlog,
                          o->summary, o->actuators, o->sensors};
    static const char *const flag[8] = {"--record", "--joints", "--contacts", "--limits",
                                        "--solver-log", "--summary", "--actuators",
                                        "--sensors"};
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            if (out[i] && out[j] && same_file(out[i], out[j])) {
                fprintf(stderr, "conesim run: %s and %s name the same file ('%s')\n", flag[i],
                        flag[j], out[j]);
                return 0;
            }
    return 1;
}

/* SIGINT/SIGTERM/SIGHUP end the run after the current step (or interrupt reading the
 * scene); the recording keeps whole rows and ends with the state the run stopped at. */
static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) { interrupted = sig; }

static int signal_exit(int sig) { return 128 + sig; } /* the shell's convention */

/* An identity for an output path, before it is opened: the file's device and inode when it
 * exists, else its directory's and its own name (so "x" and "./x" are the same file). */
typedef struct {
    dev_t dev;
    ino_t ino;
    const char *base; /* NULL when the file exists */
} file_id;

static int path_id(const char *path, file_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (stat(path, &st) == 0) {
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        return 1;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0) return 0; /* cannot be opened anyway: out_open says why */
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    id->base = slash ? slash + 1 : path;
    return 1;
}

static int same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return 1;
    file_id x, y;
    if (!path_id(a, &x) || !path_id(b, &y)) return 0;
    if (x.dev != y.dev || x.ino != y.ino || !x.base != !y.base) return 0;
    return !x.base || strcmp(x.base, y.base) == 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* A recording on disk must always be whole rows (interface.md), so stdio may never write
 * out a full buffer in the middle of a row: before each step's rows we bound their size and
 * flush first when they might not fit in the buffer. */
typedef struct {
    FILE *f;
    const char *path;
    char *buf;
    size_t size, pending; /* buffer size; upper bound of the bytes written since the flush */
} out_file;

static int out_open(out_file *o, const char *path, size_t maxrows)
{
    o->path = path;
    o->f = fopen(path, "w");
    if (!o->f) return 0;
    o->size = maxrows * 4 > (1u << 16) ? maxrows * 4 : (1u << 16);
    o->buf = malloc(o->size);
    if (o->buf) setvbuf(o->f, o->buf, _IOFBF, o->size);
    o->pending = 0;
    return 1;
}

static int out_flush(out_file *o)
{
    o->pending = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) {
        fprintf(stderr, "conesim run: error writing '%s': %s\n", o->path, strerror(errno));
        return 0;
    }
    return 1;
}

/* make room for rows of at most `bytes` bytes */
static int out_reserve(out_file *o, size_t bytes)
{
    if (o->pending + bytes > o->size && !out_flush(o)) return 0;
    o->pending += bytes;
    return 1;
}

static int out_close(out_file *o)
{
    int ok = 1;
    if (o->f) {
        ok = fflush(o->f) == 0 && !ferror(o->f);
        ok = fclose(o->f) == 0 && ok;
    }
    free(o->buf);
    o->f = NULL;
    o->buf = NULL;
    return ok;
}

/* Upper bounds of a trajectory row (16 fields) and a contact row (25 fields): %.17g needs
 * at most 24 characters, a long 20, plus the names. */
static size_t label_len(char *const *names, int n, const char *stem)
{
    size_t len = strlen(stem) + 11;
    for (int i = 0; i < n; i++)
        if (names[i] && strlen(names[i]) > len) len = strlen(names[i]);
    return len;
}

static void progress(long k, long n)
{
    int w = 40, filled = n ? (int)(w * k / n) : w;
    printf("\r[%.*s%*s] %3d%%", filled, "========================================", w - filled, "",
           n ? (int)(100 * k / n) : 100);
    fflush(stdout);
}

/* end the progress line (it shows where the run stopped) before a message */
static void end_bar(int *bar, long k, long n)
{
    if (!*bar) return;
    progress(k, n);
    putchar('\n');
    fflush(stdout);
    *bar = 0;
}

/* state k: positions, velocities, the warm start and the time (2 nq + 2 nv + 1 numbers; nq
 * is at least nv, room for both) */
static void save_state(const cs_model *m, const cs_data *d, double *s)
{
    memcpy(s, d->qpos, (size_t)m->nq * sizeof *s);
    memcpy(s + m->nq, d->qvel, (size_t)m->nv * sizeof *s);
    memcpy(s + m->nq + m->nv, d->qacc_warmstart, (size_t)m->nv * sizeof *s);
    s[m->nq + 2 * m->nv] = d->time;
}

static void restore_state(const cs_model *m, cs_data *d, const double *s)
{
    memcpy(d->qpos, s, (size_t)m->nq * sizeof *s);
    memcpy(d->qvel, s + m->nq, (size_t)m->nv * sizeof *s);
    memcpy(d->qacc_warmstart, s + m->nq + m->nv, (size_t)m->nv * sizeof *s);
    d->time = s[m->nq + 2 * m->nv];
}

static int run_run(int argc, char **argv)
{
    run_opts o = {0};
    if (!parse_args(argc, argv, &o)) return CS_EXIT_USAGE;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* a signal ignored at start stays ignored (nohup, a script's background job), as the
     * shell's contract with its jobs asks */
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(sigs[i], &sa, NULL);
    }
    char err[1024];
    cs_model *m = cs_overrides_load(&o.set, o.scene, CS_LOAD_NO_TEXELS,
                                    0, NULL, NULL, stderr, err, sizeof err);
    if (!m) {
        if (errno == EINTR && interrupted) {
            fprintf(stderr, "conesim run: interrupted while reading '%s'\n", o.scene);
            return signal_exit(interrupted);
        }
        return cs_load_exit(err);
    }
    int rc = CS_EXIT_OK;
    out_file rec = {0}, jnt = {0}, con = {0}, lim = {0}, sol = {0}, act = {0}, sen = {0};
    cs_ctrl_schedule sched = {0};
    FILE *sum = NULL;
    cs_metrics met = {0};
    cs_data *d = NULL;
    double *last = NULL;
    if (cs_overrides_apply(&o.set, m, err, sizeof err) != 0) {
        fprintf(stderr, "conesim run: %s\n", err);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    if (o.key >= m->nkey) {
        fprintf(stderr, "conesim run: --key %d: the scene has %d keyframe(s)\n", o.key, m->nkey);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    if (o.ctrl && cs_ctrl_load(o.ctrl, m, &sched, err, sizeof err) != 0) {
        fprintf(stderr, "conesim run: --ctrl %s\n", err);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    /* open outputs before running: an unwritable path fails fast */
    size_t traj_row = 16 * 25 + label_len(m->body_name, m->nbody, "body") + 1;
    size_t con_row = 25 * 25 + 2 * label_len(m->geom_name, m->ngeom, "geom") + 8;
    int nmoving = 0;
    for (int b = 1; b < m->nbody; b++) nmoving += m->body_treeid[b] >= 0;
    /* the contact buffer holds the rows of the contacts the data starts with room for (a
     * step with more flushes sooner), not of the bound they may grow to */
    size_t traj_step = (size_t)nmoving * traj_row, con_step = (size_t)m->ncon_reserve * con_row;
    if (o.record && !out_open(&rec, o.record, traj_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.record, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    size_t jnt_step = (size_t)m->njnt * (16 * 25 + label_len(m->jnt_name, m->njnt, "joint") + 8);
    if (o.joints && !out_open(&jnt, o.joints, jnt_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.joints, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    if (o.contacts && !out_open(&con, o.contacts, con_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.contacts, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    /* a joint row: 4 numbers, the joint's label and the kind word; at most a friction row
     * per dof and two limit rows per joint */
    size_t lim_row = 4 * 25 + label_len(m->jnt_name, m->njnt, "joint") + 16;
    size_t lim_step = (size_t)(m->nv + 2 * m->njnt) * lim_row;
    if (o.limits && !out_open(&lim, o.limits, lim_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.limits, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    size_t sol_row = 14 * 25, sol_step = (size_t)(m->ntree + 1) * sol_row;
    if (o.solverlog && !out_open(&sol, o.solverlog, sol_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.solverlog, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    size_t act_row = 4 * 25 + label_len(m->actuator_name, m->nactuator, "actuator") + 16;
    size_t act_step = (size_t)m->nu * act_row;
    if (o.actuators && !out_open(&act, o.actuators, act_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.actuators, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    /* a sensor row: 3 numbers, the sensor's label and its component */
    size_t sen_row = 3 * 25 + label_len(m->sensor_name, m->nsensor, "sensor") + 16;
    size_t sen_step = (size_t)m->nsensordata * sen_row;
    if (o.sensors && !out_open(&sen, o.sensors, sen_step)) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.sensors, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    if (o.summary && !(sum = fopen(o.summary, "w"))) {
        fprintf(stderr, "conesim run: cannot write '%s': %s\n", o.summary, strerror(errno));
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    double h = m->opt.timestep, dur = o.duration >= 0 ? o.duration : 1.0;
    long n = o.steps;
    if (n < 0 && !cs_arg_steps(dur, h, &n)) {
        fprintf(stderr, "conesim run: %g s at timestep %g s is too many steps to count\n", dur, h);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    d = cs_make_data(m);
    /* the last accepted state, restored when a step goes wrong: recordings and the summary
     * end at a finite state */
    last = malloc(sizeof *last * (size_t)(2 * m->nq + 2 * m->nv + 1));
    if (!d || !last) {
        fprintf(stderr, "conesim run: out of memory\n");
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    d->solver_stats = o.solverlog != NULL; /* residuals cost time: only when recorded */
    int key = o.key == -2 ? (m->nkey ? 0 : -1) : o.key;
    if (key >= 0) cs_reset_key(m, d, key);
    cs_overrides_apply_ctrl(&o.set, m, d, err, sizeof err); /* checked when loading */
    if (d->warning[CS_WARN_NOMEM]) {
        fprintf(stderr, "conesim run: out of memory\n");
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    if (sum && cs_metrics_begin(&met, m, d, n) != 0) {
        fprintf(stderr, "conesim run: out of memory\n");
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    int bar = !o.quiet && isatty(STDOUT_FILENO);
    /* row times are t_start + k h exactly (interface.md), not the accumulated d->time */
    const double t_start = d->time;
    if (rec.f) {
        cs_traj_header(rec.f);
        cs_traj_rows(rec.f, m, d, 0, t_start);
        rec.pending = traj_step + 256;
    }
    if (jnt.f) {
        cs_joint_header(jnt.f);
        cs_joint_rows(jnt.f, m, d, 0, t_start);
        jnt.pending = jnt_step + 256;
    }
    if (con.f) {
        cs_contact_header(con.f);
        con.pending = 512;
    }
    if (lim.f) {
        cs_limit_header(lim.f);
        lim.pending = 512;
    }
    if (sol.f) {
        cs_solver_header(sol.f);
        sol.pending = 512;
    }
    if (act.f) {
        cs_actuator_header(act.f);
        act.pending = 512;
    }
    if (sen.f) {
        cs_sensor_header(sen.f);
        sen.pending = 512;
    }
    int sen_warned = 0;
    double t0 = now(), sumcon = 0, sumit = 0, maxpen = 0;
    long atlimit = 0, dropsteps = 0, dropped = 0, worst_step = -1;
    double worst_res = -1; /* the Coulomb model's residual (m/s), the worst step's */
    int maxcon = 0;
    long k = 0; /* steps taken; d holds state k */
    while (k < n && !interrupted) {
        double tk = t_start + k * h;
        save_state(m, d, last);
        if (sched.nrow) cs_ctrl_at(&sched, tk, d->ctrl);
        int full0 = d->warning[CS_WARN_CONTACTFULL], nomem0 = d->warning[CS_WARN_NOMEM];
        cs_step(m, d);
        if (d->warning[CS_WARN_NOMEM] != nomem0) {
            end_bar(&bar, k, n);
            fprintf(stderr, "conesim run: out of memory in step %ld\n", k + 1);
            restore_state(m, d, last);
            rc = CS_EXIT_NOMEM;
            break;
        }
        int bad = cs_check_finite(m, d);
        if (bad >= 0) {
            char buf[32];
            end_bar(&bar, k, n);
            fprintf(stderr, "conesim run: warning: simulation diverged at step %ld (body %s); "
                            "the recordings end at step %ld\n",
                    k + 1, cs_body_label(m, bad, buf, sizeof buf), k);
            restore_state(m, d, last);
            rc = CS_EXIT_DIVERGED;
            break;
        }
        if (d->warning[CS_WARN_CONTACTFULL] != full0) {
            if (!dropsteps) {
                end_bar(&bar, k, n);
                fprintf(stderr, "conesim run: warning: step %ld found more contacts than the "
                                "capacity (%d): %d dropped (raise <size nconmax>, or <size "
                                "memory> when nconmax is not given; the summary counts all "
                                "drops)\n",
                        k + 1, m->nconmax, d->warning[CS_WARN_CONTACTFULL] - full0);
            }
            dropsteps++;
            dropped += d->warning[CS_WARN_CONTACTFULL] - full0;
        }
        /* the step's contacts were found at state k, and its forces move it to k + 1 */
        if (con.f && k % o.every == 0) {
            if (!out_reserve(&con, (size_t)d->ncon * con_row)) {
                rc = CS_EXIT_OUTPUT;
                k++;
                break;
            }
            cs_contact_rows(con.f, m, d, k, tk);
        }
        if (lim.f && k % o.every == 0) {
            if (!out_reserve(&lim, (size_t)cs_jrow_count(m, d) * lim_row)) {
                rc = CS_EXIT_OUTPUT;
                k++;
                break;
            }
            cs_limit_rows(lim.f, m, d, k, tk);
        }
        if (sol.f && k % o.every == 0) {
            if (!out_reserve(&sol, (size_t)d->solver.nisland * sol_row)) {
                rc = CS_EXIT_OUTPUT;
                k++;
                break;
            }
            cs_solver_rows(sol.f, m, d, k, tk);
        }
        if (act.f && k % o.every == 0) {
            if (!out_reserve(&act, act_step)) {
                rc = CS_EXIT_OUTPUT;
                k++;
                break;
            }
            cs_actuator_rows(act.f, m, d, k, tk);
        }
        /* the sensors of state k, read by the step's forward pass (as --contacts) */
        if (sen.f && k % o.every == 0) {
            if (!out_reserve(&sen, sen_step)) {
                rc = CS_EXIT_OUTPUT;
                k++;
                break;
            }
            int bad_sensor = cs_sensor_rows(sen.f, m, d, k, tk);
            if (bad_sensor >= 0 && !sen_warned) {
                char buf[32];
                end_bar(&bar, k, n);
                fprintf(stderr, "conesim run: warning: sensor %s is not finite at step %ld "
                                "(written as is; later ones are not reported)\n",
                        cs_sensor_label(m, bad_sensor, buf, sizeof buf), k);
                sen_warned = 1;
            }
        }
        if (sum) cs_metrics_step(&met, m, d);
        sumcon += d->ncon;
        if (d->ncon > maxcon) maxcon = d->ncon;
        sumit += d->solver.iterations;
        atlimit += d->solver.at_limit;
        if (m->opt.contact == CS_CONTACT_COULOMB && d->solver.nisland > 0 &&
            !(d->solver.improvement <= worst_res)) {
            worst_res = d->solver.improvement;
            worst_step = k;
        }
        for (int c = 0; c < d->ncon; c++)
            if (-d->contact[c].dist > maxpen) maxpen = -d->contact[c].dist;
        k++;
        if (rec.f && k < n && k % o.every == 0) {
            if (!out_reserve(&rec, traj_step)) {
                rc = CS_EXIT_OUTPUT;
                break;
            }
            cs_traj_rows(rec.f, m, d, k, t_start + k * h);
        }
        if (jnt.f && k < n && k % o.every == 0) {
            if (!out_reserve(&jnt, jnt_step)) {
                rc = CS_EXIT_OUTPUT;
                break;
            }
            cs_joint_rows(jnt.f, m, d, k, t_start + k * h);
        }
        if (k % 4096 == 0) { /* whole rows on disk regularly */
            if ((rec.f && !out_flush(&rec)) || (jnt.f && !out_flush(&jnt)) ||
                (con.f && !out_flush(&con)) || (lim.f && !out_flush(&lim)) ||
                (act.f && !out_flush(&act)) || (sen.f && !out_flush(&sen)) ||
                (sol.f && !out_flush(&sol))) {
                rc = CS_EXIT_OUTPUT;
                break;
            }
        }
        if (bar && ((k - 1) % 256 == 0)) progress(k, n);
    }
    end_bar(&bar, k, n);
    if (interrupted && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: interrupted after step %ld\n", k);
        rc = signal_exit(interrupted);
    }
    /* the recording ends with the state the run stopped at (step 0 is already written) */
    if (rec.f && rc != CS_EXIT_OUTPUT && k > 0 && !(k < n && k % o.every == 0)) {
        if (out_reserve(&rec, traj_step)) cs_traj_rows(rec.f, m, d, k, t_start + k * h);
        else rc = CS_EXIT_OUTPUT;
    }
    if (jnt.f && rc != CS_EXIT_OUTPUT && k > 0 && !(k < n && k % o.every == 0)) {
        if (out_reserve(&jnt, jnt_step)) cs_joint_rows(jnt.f, m, d, k, t_start + k * h);
        else rc = CS_EXIT_OUTPUT;
    }
    double wall = now() - t0;
    if (sum) {
        cs_metrics_end(&met, m, d);
        met.wall = wall;
        char buf[64];
        for (int i = 0; i < CS_NMETRIC; i++)
            fprintf(sum, "%s%s", i ? "," : "", cs_metric_names[i]);
        fputc('\n', sum);
        for (int i = 0; i < CS_NMETRIC; i++) {
            cs_metrics_format(&met, i, buf, sizeof buf);
            fprintf(sum, "%s%s", i ? "," : "", buf);
        }
        fputc('\n', sum);
    }
    /* the summary describes the final state: its contacts and the forces found there */
    if (k > 0 || rc == CS_EXIT_DIVERGED || rc == CS_EXIT_NOMEM || sen.f) cs_forward(m, d);
    /* the sensors end with the state the run stopped at too, read by that forward pass */
    if (sen.f && rc != CS_EXIT_OUTPUT) {
        if (out_reserve(&sen, sen_step)) {
            int bad_sensor = cs_sensor_rows(sen.f, m, d, k, t_start + k * h);
            if (bad_sensor >= 0 && !sen_warned) {
                char buf[32];
                fprintf(stderr, "conesim run: warning: sensor %s is not finite at step %ld\n",
                        cs_sensor_label(m, bad_sensor, buf, sizeof buf), k);
            }
        } else {
            rc = CS_EXIT_OUTPUT;
        }
    }
    double fn = 0;
    for (int c = 0; c < d->ncon; c++) fn += d->contact[c].force[0];
    char fnbuf[48];
    if (isfinite(fn)) snprintf(fnbuf, sizeof fnbuf, "%.6g N", fn);
    else snprintf(fnbuf, sizeof fnbuf, "not finite");
    /* where the run started: Python's Data(m) starts from the reference pose, this from the
     * first keyframe, so the summary says which */
    char start[96];
    if (key < 0) snprintf(start, sizeof start, "reference pose (qpos0)");
    else if (m->key_name && m->key_name[key])
        snprintf(start, sizeof start, "key %d \"%.60s\"", key, m->key_name[key]);
    else snprintf(start, sizeof start, "key %d", key);
    printf("steps %ld  simulated %.6g s  wall %.3f s  %.0f steps/s  from %s\n", k, k * h, wall,
           wall > 0 ? k / wall : 0.0, start);
    printf("contacts mean %.3g max %d  solver iterations mean %.3g  max penetration %.6g m  "
           "sum of contact normal forces at the final state %s\n",
           k ? sumcon / k : 0.0, maxcon, k ? sumit / k : 0.0, maxpen, fnbuf);
    if (dropsteps)
        printf("contacts dropped at the capacity (%d, <size nconmax> or <size memory>): %ld "
               "on %ld of %ld steps\n",
               m->nconmax, dropped, dropsteps, k);
    /* honest about the solver: steps it left unconverged */
    if (atlimit)
        printf("solver stopped at its iteration limit (%d) on %ld of %ld steps: raise "
               "--iterations for converged forces%s\n", m->opt.iterations, atlimit, k,
               m->opt.solver == CS_SOLVER_PGS && m->opt.pgs_finish == 0
                   ? " (or --set pgs_finish=5)" : "");
    if (worst_step >= 0)
        printf("Coulomb residual at the worst step: %.3g m/s (step %ld; tolerance %.3g m/s)\n",
               worst_res, worst_step, m->opt.tolerance);
    /* the first SUMMARY_BODIES moving bodies; how many more there are */
    int shown = 0, more = 0;
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_treeid[b] < 0) continue;
        if (shown == SUMMARY_BODIES) {
            more++;
            continue;
        }
        shown++;
        char buf[32];
        double q[7], v[6];
        cs_body_state(m, d, b, q, q + 3, v, v + 3);
        printf("  %-16s pos (%.6g, %.6g, %.6g) quat (%.6g, %.6g, %.6g, %.6g) vel (%.6g, %.6g, "
               "%.6g) angvel (%.6g, %.6g, %.6g)\n",
               cs_body_label(m, b, buf, sizeof buf), q[0], q[1], q[2], q[3], q[4],
               q[5], q[6], v[0], v[1], v[2], v[3], v[4], v[5]);
    }
    if (more)
        printf("  ... and %d more bod%s (--record FILE.csv holds every body)\n", more,
               more == 1 ? "y" : "ies");
done:
    if (rec.f && !out_close(&rec) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.record);
        rc = CS_EXIT_OUTPUT;
    }
    if (jnt.f && !out_close(&jnt) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.joints);
        rc = CS_EXIT_OUTPUT;
    }
    if (sol.f && !out_close(&sol) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.solverlog);
        rc = CS_EXIT_OUTPUT;
    }
    if (con.f && !out_close(&con) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.contacts);
        rc = CS_EXIT_OUTPUT;
    }
    if (lim.f && !out_close(&lim) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.limits);
        rc = CS_EXIT_OUTPUT;
    }
    if (act.f && !out_close(&act) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.actuators);
        rc = CS_EXIT_OUTPUT;
    }
    if (sen.f && !out_close(&sen) && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim run: error writing '%s'\n", o.sensors);
        rc = CS_EXIT_OUTPUT;
    }
    cs_ctrl_free(&sched);
    if (sum) {
        int ok = fflush(sum) == 0 && !ferror(sum);
        ok = fclose(sum) == 0 && ok;
        if (!ok && rc == CS_EXIT_OK) {
            fprintf(stderr, "conesim run: error writing '%s'\n", o.summary);
            rc = CS_EXIT_OUTPUT;
        }
    }
    free(met.start);
    free(last);
    cs_free_data(d);
    cs_free_model(m);
    return rc;
}

const cs_command cs_cmd_run = {
    "run", "run SCENE [options]: simulate, print a summary, optionally record",
    "usage: conesim run SCENE [options]\n\n"
    "  --steps N          number of steps\n"
    "  --duration SECONDS simulated time, round(T / timestep) steps (default 1 s)\n"
    "  --record FILE.csv  trajectory CSV: step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
    "                     (one row per moving body: every body with a joint on its chain\n"
    "                     to the world; velocity of the body origin in world, angular\n"
    "                     velocity in the body frame)\n"
    "  --joints FILE.csv  joint CSV: step,time,joint,type,q0..q6,v0..v5 (one row per joint,\n"
    "                     qpos and qvel components in MuJoCo's layout, blank where the\n"
    "                     type has fewer: free 7/6, ball 4/3, slide and hinge 1/1)\n"
    "  --contacts FILE.csv per-contact CSV: step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,\n"
    "                     fn,f1..f5,vn,v1..v5,zone (contacts found at state `step`, the forces\n"
    "                     that move it on, net of adhesion, so fn < 0 where a contact pulls;\n"
    "                     zone top/bottom/middle/pyramid/normal, none = in the gap beyond the\n"
    "                     margin, kept out of the solver)\n"
    "  --actuators FILE.csv per control: step,time,actuator,ctrl,force (the control's name,\n"
    "                     e.g. arm or arm/vel; the control as set, before ctrlrange clamps\n"
    "                     it, and its actuator's force of the step taken from state `step`,\n"
    "                     after forcerange; rows as --contacts)\n"
    "  --sensors FILE.csv sensor CSV: step,time,sensor,k,value, one row per value of each\n"
    "                     <sensor> (sensor: its name, else sensor<i>; k: the component from\n"
    "                     0), MuJoCo's sensordata of state `step` after its forward pass\n"
    "                     (rows for the states --record writes, the final one included)\n"
    "  --ctrl FILE.csv    controls over time: a header time,NAME1,NAME2,... naming controls\n"
    "                     (an actuator's name; NAME/INPUT, e.g. arm/vel, for one of several),\n"
    "                     then rows of a time (s, increasing) and one value per name; linear\n"
    "                     between rows, the first row's before it and the last row's after\n"
    "                     it; blank lines and lines starting with # are skipped\n"
    "  --limits FILE.csv  joint-row CSV: step,time,joint,kind,dof,pos,force, one row per\n"
    "                     solver row that is not a contact's, in MuJoCo's row order\n"
    "                     (equality rows, friction per dof and per tendon, limits per\n"
    "                     joint, then per tendon); kind equality (joint: the constraint,\n"
    "                     dof: the row in it, pos: the residual), friction, tendon_friction,\n"
    "                     limit_lower, limit_upper (hinge, slide), limit_angle (ball),\n"
    "                     tendon_lower, tendon_upper (joint: the tendon); pos the distance\n"
    "                     from the limit (0 for friction), force the row's force (rows of\n"
    "                     state `step`, as --contacts)\n"
    "  --solver-log FILE.csv per step and contact island: step,time,island,bodies,contacts,\n"
    "                     iterations,at_limit,warm,improvement,primal_cost,dual_cost,\n"
    "                     feasibility,stationarity,complementarity,finish,outer (rows as\n"
    "                     --contacts)\n"
    "  --summary FILE.csv the outcome in one row, as `conesim sweep` writes it:\n"
    "                     displacement,max_slip,verdict,max_penetration,mean_contacts,\n"
    "                     mean_iterations,wall (see `conesim help sweep`)\n"
    "  --every K          record every K-th step (default 1); the final state always\n"
    "  --key K|none       initial keyframe (default: the first keyframe, if any; none:\n"
    "                     the reference pose qpos0, where Python's Data(m) starts); the\n"
    "                     summary's first line names the start\n"
    "  --quiet            no progress bar, summary only\n"
    "  --timestep DT      overrides <option timestep>\n"
    "  --contact soft|coulomb\n"
    "                     the contact model (default: the scene's <custom> text\n"
    "                     conesim:contact, else soft, MuJoCo's): coulomb is hard Signorini\n"
    "                     normals and exact Coulomb friction (docs/contact-math.md §11); its\n"
    "                     solver log reports powers and residuals, and the summary the\n"
    "                     worst step's residual (m/s; --tolerance is read as m/s)\n"
    "  --solver pgs|cg|newton, --cone elliptic|pyramidal, --iterations N, --tolerance X\n"
    "                     override the <option> attributes of the same name\n"
    "  --set NAME=VALUE   override any option attribute, e.g. option.impratio=10,\n"
    "                     option.gravity[0]=2 (one element); a model parameter as cs_set\n"
    "                     takes it: geom.NAME.friction[K], body.NAME.mass,\n"
    "                     joint.NAME.damping, actuator.NAME.gainprm[K], pair.INDEX.solref\n"
    "                     (README, Changing the model); any attribute of a named element,\n"
    "                     applied to the MJCF before it compiles: frame.NAME.euler[K],\n"
    "                     geom.NAME.size[K], body.NAME.pos[K] (geometry always is); a control:\n"
    "                     ctrl.NAME=VALUE (a control's name, as for --ctrl, or index; it\n"
    "                     replaces the keyframe's, and --ctrl's columns replace it);\n"
    "                     option.gravity=\"0 0 -1\", option.flag.gravity=disable;\n"
    "                     conesim's own (no MJCF attribute): pgs_blocks=pair|contact, PGS\n"
    "                     blocks of all contacts of one body pair minimised jointly\n"
    "                     (default) or of one contact; pgs_finish=K, PGS finishes with\n"
    "                     Newton steps after K sweeps short of the tolerance (default 5;\n"
    "                     0: sweeps only); newton_early=0, Newton steps at least once,\n"
    "                     even from a warm start that meets the tolerance (MuJoCo 3.3's\n"
    "                     rule; default 1: no step then, as MuJoCo 3.12);\n"
    "                     coulomb_solver=auto|nsgs|newton, the Coulomb model's method\n"
    "                     (auto: proximal Newton on islands of more than two contacts,\n"
    "                     block Gauss-Seidel on the others); threads=N (as --threads)\n"
    "  --threads N        threads for the contact islands (default 0 = all cores); the\n"
    "                     results are the same for every N\n\n"
    "A run stops at the last finite state when it diverges; the recordings end there, and\n"
    "with --every K they always end with the state the run stopped at.\n\n"
    "Exit codes: 0 ok, 1 diverged, 2 bad command line, 3 bad scene, 4 output not writable,\n"
    "6 out of memory, 129/130/143 interrupted by SIGHUP/SIGINT/SIGTERM (the recordings hold\n"
    "whole rows).\n",
    run_run,
};
