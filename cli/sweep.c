/* conesim sweep: run a scene over a grid of parameters on N threads, one summary row per
 * run; search one parameter for a transition, N points a round; or write the runs as
 * `conesim run` jobs for another machine and merge their outputs. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "fmt.h"
#include "metrics.h"
#include "overrides.h"
#include "conesim.h"

#define MAXVARY 8
#define MAXPASS 64

typedef struct {
    const char *name;
    char buf[128];
    double start, stop;
    long count;
} vary_def;

#define MAXSLURMOPT 16

typedef struct {
    const char *scene;
    vary_def vary[MAXVARY];
    int nvary;
    int metric[CS_NMETRIC], nmetric;
    long threads;
    const char *out;
    cs_overrides set;
    const char *pass[MAXPASS][2]; /* run's options as given, for --emit-jobs */
    int npass;
    long steps;
    double duration;
    int key;
    double slide_speed;
    /* --find */
    int find;
    int until_metric, until_gt;
    double until_value;
    long bisect_steps;
    /* jobs */
    const char *emit, *jobs_dir, *collect, *program;
    const char *slurm;                       /* the sbatch script to write */
    const char *slurm_opt[MAXSLURMOPT];      /* extra #SBATCH lines, as given */
    int nslurm_opt;
} sweep_opts;

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "conesim sweep: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 0;
}

/* NAME=START:STOP:COUNT (vary) or NAME=LO:HI (find) */
static int parse_vary(vary_def *v, const char *arg, int find)
{
    const char *eq = strrchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof v->buf)
        return usage_error("%s: expected NAME=%s", arg, find ? "LO:HI" : "START:STOP:COUNT");
    memcpy(v->buf, arg, (size_t)(eq - arg));
    v->buf[eq - arg] = 0;
    v->name = v->buf;
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", eq + 1);
    char *c1 = strchr(tmp, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || (find && c2) || (!find && !c2))
        return usage_error("%s: expected NAME=%s", arg, find ? "LO:HI" : "START:STOP:COUNT");
    *c1 = 0;
    if (c2) *c2 = 0;
    if (!cs_arg_double(tmp, &v->start) || !cs_arg_double(c1 + 1, &v->stop))
        return usage_error("%s: %s", arg, "the range's ends must be finite numbers");
    v->count = 2;
    if (!find && (!cs_arg_long(c2 + 1, &v->count) || v->count < 1 || v->count > 1000000))
        return usage_error("%s: %s", arg, "COUNT must be a whole number from 1 to 1000000");
    if (find && !(v->start < v->stop)) return usage_error("%s: %s", arg, "needs LO < HI");
    return 1;
}

static int parse_metrics(sweep_opts *o, const char *arg)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", arg);
    o->nmetric = 0;
    for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int i = cs_metric_index(t);
        if (i < 0)
            return usage_error("--metric: unknown metric '%s' (displacement, max_slip, verdict, "
                               "max_penetration, mean_contacts, mean_iterations, wall%s)", t, "");
        for (int j = 0; j < o->nmetric; j++)
            if (o->metric[j] == i) return usage_error("--metric: '%s' twice%s", t, "");
        o->metric[o->nmetric++] = i;
    }
    if (!o->nmetric) return usage_error("--metric: no metric in '%s'%s", arg, "");
    return 1;
}

static int parse_until(sweep_opts *o, const char *arg)
{
    const char *op = strpbrk(arg, "<>");
    char name[64];
    if (!op || op == arg || (size_t)(op - arg) >= sizeof name)
        return usage_error("--until: expected METRIC>VALUE or METRIC<VALUE, got '%s'%s", arg, "");
    snprintf(name, sizeof name, "%.*s", (int)(op - arg), arg);
    o->until_metric = cs_metric_index(name);
    if (o->until_metric < 0 || o->until_metric == 6)
        return usage_error("--until: unknown metric '%s'%s", name, "");
    o->until_gt = *op == '>';
    if (!cs_arg_double(op + 1, &o->until_value))
        return usage_error("--until: '%s' is not a finite number%s", op + 1, "");
    return 1;
}

static int is_run_option(const char *a)
{
    static const char *const R[] = {"--duration", "--steps", "--solver", "--cone", "--iterations",
                                    "--tolerance", "--set", "--key", "--timestep", "--contact"};
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++)
        if (strcmp(a, R[i]) == 0) return 1;
    return 0;
}

static int parse_args(int argc, char **argv, sweep_opts *o)
{
    o->steps = -1;
    o->duration = -1;
    o->key = -2;
    o->threads = 1;
    o->bisect_steps = -1;
    o->until_metric = -1;
    int have_metric = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == 0) {
            if (o->scene) return usage_error("more than one scene given ('%s')%s", a, "");
            o->scene = a;
            continue;
        }
        if (i + 1 >= argc) return usage_error("option %s needs a value%s", a, "");
        const char *arg = argv[++i];
        long l;
        if (strcmp(a, "--vary") == 0) {
            if (o->nvary >= MAXVARY) return usage_error("more than %s --vary%s", "8", "");
            if (!parse_vary(&o->vary[o->nvary], arg, 0)) return 0;
            o->nvary++;
        } else if (strcmp(a, "--find") == 0) {
            if (o->find) return usage_error("--find given twice%s%s", "", "");
            if (!parse_vary(&o->vary[0], arg, 1)) return 0;
            o->find = 1;
        } else if (strcmp(a, "--until") == 0) {
            if (!parse_until(o, arg)) return 0;
        } else if (strcmp(a, "--bisect-steps") == 0) {
            if (!cs_arg_long(arg, &l) || l < 1 || l > 200)
                return usage_error("--bisect-steps: '%s' is not a whole number from 1 to 200%s", arg, "");
            o->bisect_steps = l;
        } else if (strcmp(a, "--metric") == 0) {
            if (!parse_metrics(o, arg)) return 0;
            have_metric = 1;
        } else if (strcmp(a, "--threads") == 0) {
            if (!cs_arg_long(arg, &l) || l < 1 || l > 256)
                return usage_error("--threads: '%s' is not a whole number from 1 to 256%s", arg, "");
            o->threads = l;
        } else if (strcmp(a, "--slide-speed") == 0) {
            if (!cs_arg_double(arg, &o->slide_speed) || !(o->slide_speed > 0))
                return usage_error("--slide-speed: '%s' is not a positive number%s", arg, "");
        } else if (strcmp(a, "--out") == 0) {
            o->out = arg;
        } else if (strcmp(a, "--emit-jobs") == 0) {
            o->emit = arg;
        } else if (strcmp(a, "--jobs-dir") == 0) {
            o->jobs_dir = arg;
        } else if (strcmp(a, "--slurm") == 0) {
            o->slurm = arg;
        } else if (strcmp(a, "--slurm-option") == 0) {
            if (o->nslurm_opt >= MAXSLURMOPT) return usage_error("more than %s --slurm-option%s", "16", "");
            if (strchr(arg, '\n')) return usage_error("--slurm-option: one line, not '%s'%s", arg, "");
            o->slurm_opt[o->nslurm_opt++] = arg;
        } else if (strcmp(a, "--conesim") == 0) {
            o->program = arg;
        } else if (strcmp(a, "--collect") == 0) {
            o->collect = arg;
        } else if (is_run_option(a)) {
            char why[160];
            if (strcmp(a, "--steps") == 0) {
                if (!cs_arg_long(arg, &l) || l < 0) return usage_error("bad value '%s' for %s", arg, a);
                o->steps = l;
            } else if (strcmp(a, "--duration") == 0) {
                if (!cs_arg_double(arg, &o->duration) || o->duration < 0)
                    return usage_error("bad value '%s' for %s", arg, a);
            } else if (strcmp(a, "--key") == 0) {
                if (strcmp(arg, "none") == 0) o->key = -1;
                else if (!cs_arg_long(arg, &l) || l < 0 || l > 1000000)
                    return usage_error("bad value '%s' for %s", arg, a);
                else o->key = (int)l;
            } else if (!cs_overrides_add(&o->set, a, arg, why, sizeof why)) {
                return usage_error("%s%s", why, "");
            }
            if (o->npass >= MAXPASS) return usage_error("too many run options%s%s", "", "");
            o->pass[o->npass][0] = a;
            o->pass[o->npass][1] = arg;
            o->npass++;
        } else {
            return usage_error("unknown option '%s' (see 'conesim help sweep')%s", a, "");
        }
    }
    if (!have_metric) {
        o->nmetric = 6; /* all but wall */
        for (int i = 0; i < 6; i++) o->metric[i] = i;
    }
    if (o->collect) {
        if (o->scene || o->nvary || o->find || o->emit || o->slurm)
            return usage_error("--collect DIR takes only --out (and --metric)%s%s", "", "");
        if (!o->out) return usage_error("--collect needs --out FILE.csv%s%s", "", "");
        return 1;
    }
    if (!o->scene) return usage_error("no scene given%s%s", "", "");
    if (o->steps >= 0 && o->duration >= 0)
        return usage_error("give --steps or --duration, not both%s%s", "", "");
    if (o->find) {
        if (o->nvary) return usage_error("--find and --vary do not mix%s%s", "", "");
        if (o->until_metric < 0) return usage_error("--find needs --until 'METRIC>VALUE'%s%s", "", "");
        if (o->emit || o->slurm)
            return usage_error("--find and --emit-jobs/--slurm do not mix%s%s", "", "");
        return 1;
    }
    if (o->until_metric >= 0 || o->bisect_steps >= 0)
        return usage_error("--until and --bisect-steps go with --find%s%s", "", "");
    if (!o->nvary) return usage_error("nothing to vary: give --vary NAME=START:STOP:COUNT%s%s", "", "");
    if ((o->emit || o->slurm) && o->out)
        return usage_error("--emit-jobs and --slurm write jobs, not --out (use --collect later)%s%s", "", "");
    if (o->jobs_dir && !o->emit && !o->slurm)
        return usage_error("--jobs-dir goes with --emit-jobs or --slurm%s%s", "", "");
    if (o->nslurm_opt && !o->slurm) return usage_error("--slurm-option goes with --slurm%s%s", "", "");
    return 1;
}

/* ---- one run ------------------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* SIGINT/SIGTERM/SIGHUP stop handing out runs, and the runs in flight stop after their
 * current step; the summary keeps the rows of the runs that completed. The worker threads
 * read the flag: an atomic (lock-free, so the handler may store it). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal flag must be lock-free");
static atomic_int interrupted;

static void on_signal(int sig) { atomic_store_explicit(&interrupted, sig, memory_order_relaxed); }

static int stop_signal(void) { return atomic_load_explicit(&interrupted, memory_order_relaxed); }

static void catch_signals(void)
{
    static const int sig[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sig / sizeof sig[0]; i++) {
        struct sigaction old, sa;
        /* one ignored from the start (nohup, a script's background job) stays ignored */
        if (sigaction(sig[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sig[i], &sa, NULL);
    }
}

#define RUN_STOPPED (-1) /* run_one: stopped by a signal, no outcome */
#define RUN_PENDING (-2) /* the pool: not run (yet) */

/* Loads the scene, applies the overrides and the varied values, runs it into *r. Returns an
 * exit code (0, or 1 diverged: *r holds the run up to there) with a message in err, or
 * RUN_STOPPED when a signal came first. */
static int run_one(const sweep_opts *o, const char *const *names, const double *values, int nv,
                   int single_thread, cs_metrics *r, char *err, size_t errlen)
{
    if (stop_signal()) return RUN_STOPPED;
    char vtext[MAXVARY][32];
    const char *vals[MAXVARY];
    for (int i = 0; i < nv && i < MAXVARY; i++) {
        snprintf(vtext[i], sizeof vtext[i], "%.17g", values[i]);
        vals[i] = vtext[i];
    }
    cs_model *m = cs_overrides_load(&o->set, o->scene, CS_LOAD_NO_TEXELS,
                                    nv, names, vals, NULL, err, errlen);
    if (!m)
        return stop_signal() ? RUN_STOPPED
               : errno == ENOMEM ? CS_EXIT_NOMEM
               : errno == ESRCH ? CS_EXIT_USAGE : CS_EXIT_SCENE;
    int rc = CS_EXIT_OK;
    cs_data *d = NULL;
    double *last = NULL;
    char msg[512];
    if (cs_overrides_apply(&o->set, m, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s", msg);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < nv; i++) {
        char val[32];
        snprintf(val, sizeof val, "%.17g", values[i]);
        if (cs_model_override(m, names[i], val, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "%s", msg);
            rc = CS_EXIT_USAGE;
            goto done;
        }
    }
    if (single_thread) m->opt.threads = 1;
    if (o->key >= m->nkey) {
        snprintf(err, errlen, "--key %d: the scene has %d keyframe(s)", o->key, m->nkey);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    long n = o->steps;
    if (n < 0 && !cs_arg_steps(o->duration >= 0 ? o->duration : 1.0, m->opt.timestep, &n)) {
        snprintf(err, errlen, "too many steps to count");
        rc = CS_EXIT_USAGE;
        goto done;
    }
    d = cs_make_data(m);
    last = malloc(sizeof *last * (size_t)(m->nq + 1));
    if (!d || !last) {
        snprintf(err, errlen, "out of memory");
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    int key = o->key == -2 ? (m->nkey ? 0 : -1) : o->key;
    if (key >= 0) cs_reset_key(m, d, key);
    /* controls after the reset (a keyframe's ctrl is replaced), varied ones last */
    cs_overrides_apply_ctrl(&o->set, m, d, msg, sizeof msg);
    for (int i = 0; i < nv; i++) {
        char val[32];
        snprintf(val, sizeof val, "%.17g", values[i]);
        cs_ctrl_override(m, d, names[i], val, msg, sizeof msg);
    }
    r->slide_speed = o->slide_speed;
    if (d->warning[CS_WARN_NOMEM] || cs_metrics_begin(r, m, d, n) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    double t0 = now();
    for (long k = 0; k < n; k++) {
        if (stop_signal()) {
            rc = RUN_STOPPED;
            break;
        }
        memcpy(last, d->qpos, (size_t)m->nq * sizeof *last);
        int nomem0 = d->warning[CS_WARN_NOMEM];
        cs_step(m, d);
        if (d->warning[CS_WARN_NOMEM] != nomem0) {
            snprintf(err, errlen, "out of memory in step %ld", k + 1);
            rc = CS_EXIT_NOMEM;
            break;
        }
        if (cs_check_finite(m, d) >= 0) {
            /* as run: the outcome is that of the last finite state */
            memcpy(d->qpos, last, (size_t)m->nq * sizeof *last);
            snprintf(err, errlen, "diverged at step %ld", k + 1);
            rc = CS_EXIT_DIVERGED;
            break;
        }
        cs_metrics_step(r, m, d);
    }
    r->wall = now() - t0;
    cs_metrics_end(r, m, d);
done:
    free(last);
    cs_free_data(d);
    cs_free_model(m);
    return rc;
}

/* ---- the grid ----------------------------------------------------------------------- */

static double grid_value(const vary_def *v, long i)
{
    if (v->count == 1) return v->start;
    if (i == v->count - 1) return v->stop;
    return v->start + (v->stop - v->start) * (double)i / (double)(v->count - 1);
}

/* combination c: the last --vary changes fastest */
static void combination(const sweep_opts *o, long c, double *values)
{
    for (int j = o->nvary - 1; j >= 0; j--) {
        values[j] = grid_value(&o->vary[j], c % o->vary[j].count);
        c /= o->vary[j].count;
    }
}

static void write_header(FILE *f, const sweep_opts *o, const char *const *names, int nv)
{
    for (int j = 0; j < nv; j++) fprintf(f, "%s%s", j ? "," : "", names[j]);
    for (int i = 0; i < o->nmetric; i++)
        fprintf(f, "%s%s", nv || i ? "," : "", cs_metric_names[o->metric[i]]);
    fputc('\n', f);
}

static void write_row(FILE *f, const sweep_opts *o, const double *values, int nv,
                      const cs_metrics *r)
{
    char buf[64];
    for (int j = 0; j < nv; j++)
        fprintf(f, "%s%s", j ? "," : "", cs_fmt_shortest(buf, sizeof buf, values[j]));
    for (int i = 0; i < o->nmetric; i++) {
        cs_metrics_format(r, o->metric[i], buf, sizeof buf);
        fprintf(f, "%s%s", nv || i ? "," : "", buf);
    }
    fputc('\n', f);
}

static int close_out(FILE *f, const char *path)
{
    int ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "conesim sweep: error writing '%s'\n", path);
        return CS_EXIT_OUTPUT;
    }
    return CS_EXIT_OK;
}

static long combinations(const sweep_opts *o)
{
    long n = 1;
    for (int j = 0; j < o->nvary; j++) {
        if (n > 10000000 / o->vary[j].count) return -1;
        n *= o->vary[j].count;
    }
    return n;
}

/* the first combination, loaded and set up in this thread: a bad scene or name fails
 * before any work, with one message */
static int check_first(const sweep_opts *o)
{
    char err[1024], vtext[MAXVARY][32];
    const char *names[MAXVARY], *vals[MAXVARY];
    int nv = o->find ? 1 : o->nvary;
    for (int j = 0; j < nv; j++) {
        snprintf(vtext[j], sizeof vtext[j], "%.17g", o->vary[j].start);
        names[j] = o->vary[j].name;
        vals[j] = vtext[j];
    }
    cs_model *m = cs_overrides_load(&o->set, o->scene, CS_LOAD_NO_TEXELS,
                                    nv, names, vals, stderr, err, sizeof err);
    if (!m) {
        if (errno == ESRCH) {
            fprintf(stderr, "conesim sweep: %s\n", err);
            return CS_EXIT_USAGE;
        }
        return cs_load_exit(err);
    }
    int rc = CS_EXIT_OK;
    if (cs_overrides_apply(&o->set, m, err, sizeof err) != 0) {
        fprintf(stderr, "conesim sweep: %s\n", err);
        rc = CS_EXIT_USAGE;
    }
    for (int j = 0; rc == CS_EXIT_OK && j < (o->find ? 1 : o->nvary); j++) {
        char val[32];
        snprintf(val, sizeof val, "%.17g", o->vary[j].start);
        if (cs_model_override(m, o->vary[j].name, val, err, sizeof err) != 0) {
            fprintf(stderr, "conesim sweep: %s: %s\n", o->find ? "--find" : "--vary", err);
            rc = CS_EXIT_USAGE;
        }
    }
    if (rc == CS_EXIT_OK && o->key >= m->nkey) {
        fprintf(stderr, "conesim sweep: --key %d: the scene has %d keyframe(s)\n", o->key, m->nkey);
        rc = CS_EXIT_USAGE;
    }
    cs_free_model(m);
    return rc;
}

/* ---- the summary file --------------------------------------------------------------- */

/* The summary is written to OUT.PID.tmp beside it and renamed over OUT at the end (also when
 * interrupted): OUT is never a half-written file, and the temporary one holds the rows of
 * the runs done so far, whole, while the sweep goes on. OUT that exists and is no regular
 * file (/dev/stdout, a FIFO), or a link to nothing, is written directly; a link, where it
 * points. */
typedef struct {
    FILE *f;
    const char *path;
    char tmp[PATH_MAX + 64];
    char target[PATH_MAX];
    int direct;
} sum_file;

static int sum_open(sum_file *s, const char *path)
{
    struct stat st;
    int have = stat(path, &st) == 0, fd = -1;
    s->f = NULL;
    s->path = path;
    s->direct = have ? !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)
                     : lstat(path, &st) == 0; /* a dangling link: create what it names */
    snprintf(s->target, sizeof s->target, "%s", path);
    if (s->direct) {
        if ((s->f = fopen(path, "w"))) return 1;
    } else if (have && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
    } else if ((have && !realpath(path, s->target)) || (have && access(path, W_OK) != 0)) {
        /* errno says why */
    } else {
        for (int k = 0; k < 100; k++) {
            int len = k ? snprintf(s->tmp, sizeof s->tmp, "%s.%ld-%d.tmp", s->target,
                                   (long)getpid(), k)
                        : snprintf(s->tmp, sizeof s->tmp, "%s.%ld.tmp", s->target,
                                   (long)getpid());
            if (len < 0 || (size_t)len >= sizeof s->tmp) {
                errno = ENAMETOOLONG;
                break;
            }
            fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd >= 0 || errno != EEXIST) break;
        }
    }
    if (fd >= 0) {
        /* writing over an existing file would have kept its mode */
        if (have && fchmod(fd, st.st_mode & 07777) != 0) { /* the umask's mode then */ }
        if ((s->f = fdopen(fd, "w"))) return 1;
        int e = errno;
        close(fd);
        unlink(s->tmp);
        errno = e;
    }
    fprintf(stderr, "conesim sweep: cannot write '%s': %s\n", path, strerror(errno));
    return 0;
}

static int sum_close(sum_file *s)
{
    if (s->f == stdout) {
        s->f = NULL;
        if (fflush(stdout) == 0 && !ferror(stdout)) return CS_EXIT_OK;
        fprintf(stderr, "conesim sweep: error writing the summary to standard output\n");
        return CS_EXIT_OUTPUT;
    }
    int ok = fflush(s->f) == 0 && !ferror(s->f);
    ok = fclose(s->f) == 0 && ok;
    s->f = NULL;
    if (ok && (s->direct || rename(s->tmp, s->target) == 0)) return CS_EXIT_OK;
    fprintf(stderr, "conesim sweep: error writing '%s': %s\n", s->path, strerror(errno));
    if (!s->direct) unlink(s->tmp);
    return CS_EXIT_OUTPUT;
}

/* ---- runs on threads ---------------------------------------------------------------- */

/* n runs on up to `threads` threads: the grid's combinations, or the values of one --find
 * round. Rows go to f in run order as soon as every earlier run is done. */
typedef struct {
    const sweep_opts *o;
    const double *points; /* --find: the round's values; NULL: the grid's combinations */
    long n, threads;
    int single;        /* each run's solver on one thread */
    int bar;           /* progress bar on stderr */
    int stop_on_error; /* no new run after one that failed */
    FILE *f;
    long next, ndone, nwritten;
    int failed;
    cs_metrics *res;
    int *rc; /* RUN_PENDING until the run returns */
    char (*err)[512];
    pthread_mutex_t lock;
} pool;

static int pool_values(const pool *p, long c, double *values)
{
    if (p->points) {
        values[0] = p->points[c];
        return 1;
    }
    combination(p->o, c, values);
    return p->o->nvary;
}

static void progress(long k, long n)
{
    int w = 40, filled = n ? (int)(w * k / n) : w;
    fprintf(stderr, "\r[%.*s%*s] %ld/%ld runs", filled, "========================================",
            w - filled, "", k, n);
}

/* with the lock held: the rows of the runs that returned, up to the first still pending
 * (a run that failed or was stopped has none) */
static void pool_write(pool *p)
{
    double values[MAXVARY];
    long w0 = p->nwritten;
    for (; p->nwritten < p->n && p->rc[p->nwritten] != RUN_PENDING; p->nwritten++) {
        long c = p->nwritten;
        if (p->rc[c] != CS_EXIT_OK && p->rc[c] != CS_EXIT_DIVERGED) continue;
        int nv = pool_values(p, c, values);
        write_row(p->f, p->o, values, nv, &p->res[c]);
    }
    if (p->nwritten != w0) fflush(p->f); /* whole rows: each ends before the flush */
}

static void *worker(void *arg)
{
    pool *p = arg;
    const char *names[MAXVARY];
    double values[MAXVARY];
    for (int j = 0; j < MAXVARY; j++) names[j] = p->o->vary[j].name;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        long c = p->next < p->n && !stop_signal() && !p->failed ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (c < 0) break;
        int nv = pool_values(p, c, values);
        int rc = run_one(p->o, names, values, nv, p->single, &p->res[c], p->err[c],
                         sizeof p->err[c]);
        pthread_mutex_lock(&p->lock);
        p->rc[c] = rc;
        if (rc != RUN_STOPPED) p->ndone++;
        if (p->stop_on_error && rc != RUN_STOPPED && rc != CS_EXIT_OK && rc != CS_EXIT_DIVERGED)
            p->failed = 1;
        if (p->f) pool_write(p);
        if (p->bar) progress(p->ndone, p->n);
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

/* Runs the pool; afterwards each rc is an exit code or RUN_STOPPED (stopped, or never
 * started), and f has the rows of every run that completed. 0, or CS_EXIT_NOMEM. */
static int pool_run(pool *p)
{
    size_t n = (size_t)p->n;
    p->res = calloc(n, sizeof *p->res);
    p->rc = malloc(n * sizeof *p->rc);
    p->err = calloc(n, sizeof *p->err);
    if (!p->res || !p->rc || !p->err) {
        fprintf(stderr, "conesim sweep: out of memory\n");
        return CS_EXIT_NOMEM;
    }
    for (long c = 0; c < p->n; c++) p->rc[c] = RUN_PENDING;
    pthread_mutex_init(&p->lock, NULL);
    long nt = p->threads < p->n ? p->threads : p->n, started = 0;
    pthread_t th[256];
    for (; started < nt; started++)
        if (pthread_create(&th[started], NULL, worker, p) != 0) break;
    if (started == 0) worker(p); /* no thread to be had: do it here */
    for (long t = 0; t < started; t++) pthread_join(th[t], NULL);
    pthread_mutex_destroy(&p->lock);
    for (long c = 0; c < p->n; c++)
        if (p->rc[c] == RUN_PENDING) p->rc[c] = RUN_STOPPED;
    if (p->f) pool_write(p); /* the completed runs after the first one stopped */
    return CS_EXIT_OK;
}

static void pool_free(pool *p)
{
    free(p->res);
    free(p->rc);
    free(p->err);
}

static int signal_exit(int sig) { return 128 + sig; } /* the shell's convention, as run */

/* ---- the grid ----------------------------------------------------------------------- */

static int sweep_grid(const sweep_opts *o)
{
    long ncomb = combinations(o);
    if (ncomb < 0) {
        fprintf(stderr, "conesim sweep: more than 10000000 combinations\n");
        return CS_EXIT_USAGE;
    }
    sum_file out = {.f = stdout, .path = "-", .direct = 1};
    if (o->out && !sum_open(&out, o->out)) return CS_EXIT_OUTPUT;
    const char *names[MAXVARY];
    for (int j = 0; j < o->nvary; j++) names[j] = o->vary[j].name;
    write_header(out.f, o, names, o->nvary);
    fflush(out.f);
    pool p = {.o = o, .n = ncomb, .threads = o->threads, .single = o->threads > 1,
              .bar = isatty(STDERR_FILENO), .f = out.f};
    int rc = pool_run(&p);
    if (p.bar) fputc('\n', stderr);
    for (long c = 0; rc != CS_EXIT_NOMEM && c < ncomb; c++) {
        if (p.rc[c] == RUN_STOPPED) continue;
        if (p.rc[c] != CS_EXIT_OK && p.rc[c] != CS_EXIT_DIVERGED) {
            fprintf(stderr, "conesim sweep: run %ld: %s\n", c, p.err[c]);
            if (rc == CS_EXIT_OK || rc == CS_EXIT_DIVERGED) rc = p.rc[c];
            continue;
        }
        if (p.rc[c] == CS_EXIT_DIVERGED) {
            fprintf(stderr, "conesim sweep: warning: run %ld %s; its row describes the last "
                            "finite state\n", c, p.err[c]);
            if (rc == CS_EXIT_OK) rc = CS_EXIT_DIVERGED;
        }
    }
    int wrc = sum_close(&out), sig = stop_signal();
    if (sig && rc != CS_EXIT_NOMEM) {
        fprintf(stderr, "conesim sweep: interrupted: %ld of %ld runs completed; the summary '%s' "
                        "is %s\n", p.ndone, ncomb, o->out ? o->out : "-",
                p.ndone < ncomb ? "partial (the rows of those runs)" : "complete");
        rc = signal_exit(sig);
    }
    pool_free(&p);
    return wrc != CS_EXIT_OK ? wrc : rc;
}

/* ---- --find: N-section -------------------------------------------------------------- */

static double metric_number(const cs_metrics *r, int i)
{
    char buf[64];
    cs_metrics_format(r, i, buf, sizeof buf);
    if (i == 2) return strcmp(buf, "slide") == 0; /* verdict: slide 1, stick 0 */
    return strtod(buf, NULL);
}

/* Runs the n values x (at once on up to --threads threads), their rows to f in order, and
 * whether the condition holds at each. 0; a failed run's exit code (after its message); or
 * RUN_STOPPED when a signal stopped one of them. *runs counts the runs completed. */
static int find_round(const sweep_opts *o, FILE *f, const double *x, long n, int *holds,
                      long *runs)
{
    pool p = {.o = o, .points = x, .n = n, .threads = o->threads, .single = o->threads > 1,
              .stop_on_error = 1, .f = f};
    int rc = pool_run(&p), stopped = 0;
    *runs += p.ndone;
    for (long c = 0; rc != CS_EXIT_NOMEM && c < n; c++) {
        if (p.rc[c] == RUN_STOPPED) {
            stopped = 1;
        } else if (p.rc[c] != CS_EXIT_OK && p.rc[c] != CS_EXIT_DIVERGED) {
            char v[40];
            fprintf(stderr, "conesim sweep: %s=%s: %s\n", o->vary[0].name,
                    cs_fmt_shortest(v, sizeof v, x[c]), p.err[c]);
            if (rc == CS_EXIT_OK) rc = p.rc[c];
        } else {
            double v = metric_number(&p.res[c], o->until_metric);
            holds[c] = o->until_gt ? v > o->until_value : v < o->until_value;
        }
    }
    pool_free(&p);
    return rc != CS_EXIT_OK ? rc : stopped ? RUN_STOPPED : CS_EXIT_OK;
}

/* Each round runs N = --threads points splitting the bracket into N + 1 equal parts and keeps
 * the first part, from LO's side, where the condition changes: N = 1 is bisection. */
static int sweep_find(const sweep_opts *o)
{
    sum_file out = {0};
    if (o->out && !sum_open(&out, o->out)) return CS_EXIT_OUTPUT;
    const char *name = o->vary[0].name;
    if (out.f) {
        write_header(out.f, o, &name, 1);
        fflush(out.f);
    }
    double lo = o->vary[0].start, hi = o->vary[0].stop, x[256];
    int hold[256], hlo = 0, hhi = 0, bracket = 0;
    long runs = 0, nt = o->threads;
    char cond[96];
    char uv[40];
    snprintf(cond, sizeof cond, "%s%c%s", cs_metric_names[o->until_metric],
             o->until_gt ? '>' : '<', cs_fmt_shortest(uv, sizeof uv, o->until_value));
    x[0] = lo;
    x[1] = hi;
    int rc = find_round(o, out.f, x, 2, hold, &runs);
    if (rc != CS_EXIT_OK) goto done;
    hlo = hold[0];
    hhi = hold[1];
    if (hlo == hhi) {
        char a[40], b[40];
        fprintf(stderr, "conesim sweep: %s %s at both ends of [%s, %s]: no transition to "
                        "find there\n", cond, hlo ? "holds" : "fails",
                cs_fmt_shortest(a, sizeof a, lo), cs_fmt_shortest(b, sizeof b, hi));
        rc = CS_EXIT_DIVERGED;
        goto done;
    }
    bracket = 1;
    for (long k = 0; o->bisect_steps >= 0 ? k < o->bisect_steps
                                          : hi - lo > 1e-3 * fmax(fabs(lo), fabs(hi));
         k++) {
        if (stop_signal()) break;
        /* (N+1-i) lo + i hi over N+1: for N = 1 exactly 0.5 (lo + hi) */
        long n = 0;
        for (long i = 1; i <= nt; i++) {
            double xi = ((double)(nt + 1 - i) * lo + (double)i * hi) / (double)(nt + 1);
            if (xi > (n ? x[n - 1] : lo) && xi < hi) x[n++] = xi;
        }
        if (!n) break; /* no number left between the ends */
        if ((rc = find_round(o, out.f, x, n, hold, &runs)) != CS_EXIT_OK) goto done;
        long j = 0;
        while (j < n && hold[j] == hlo) j++;
        if (j > 0) lo = x[j - 1];
        if (j < n) hi = x[j];
    }
done:
    if (bracket && (rc == CS_EXIT_OK || rc == RUN_STOPPED || stop_signal()))
    {
        char a[40], b[40];
        cs_fmt_shortest(a, sizeof a, lo);
        cs_fmt_shortest(b, sizeof b, hi);
        printf("%s in [%s, %s]: %s %s at %s, %s at %s\n", name, a, b, cond,
               hlo ? "holds" : "fails", a, hhi ? "holds" : "fails", b);
    }
    fflush(stdout);
    int wrc = out.f ? sum_close(&out) : CS_EXIT_OK, sig = stop_signal();
    if (sig && rc != CS_EXIT_NOMEM) {
        fprintf(stderr, "conesim sweep: interrupted after %ld runs: %s%s\n", runs,
                bracket ? "the bracket above is the one reached so far, not the final one"
                        : "no bracket yet",
                o->out ? "; --out is partial (the rows of those runs)" : "");
        rc = signal_exit(sig);
    } else if (rc == RUN_STOPPED) {
        rc = CS_EXIT_OK; /* not reached: a run stops only on a signal */
    }
    return wrc != CS_EXIT_OK ? wrc : rc;
}

/* ---- jobs for another machine ------------------------------------------------------- */

/* a word for sh -c, quoted only when it must be (xargs -I reads quotes too) */
static void put_word(FILE *f, const char *s)
{
    int plain = *s != 0;
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+.,/:=[]@%",
                    *p))
            plain = 0;
    if (plain) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\'') fputs("'\\''", f);
        else fputc(*p, f);
    }
    fputc('\'', f);
}

/* the next argument of a command line */
static void put_arg(FILE *f, const char *s)
{
    fputc(' ', f);
    put_word(f, s);
}

/* Slurm's default MaxArraySize is 1001: larger sweeps give each array task every
 * SLURM_MAX_TASKS-th job line. */
#define SLURM_MAX_TASKS 1000

/* An sbatch script running the job lines as a job array, one task per line up to
 * SLURM_MAX_TASKS tasks. A failed run (a diverged one exits 1 after writing its summary)
 * fails its task; the other lines of that task still run. */
static int write_sbatch(const sweep_opts *o, const char *absdir, const char *jobspath, long ncomb)
{
    char jobsabs[PATH_MAX];
    if (!realpath(jobspath, jobsabs)) {
        fprintf(stderr, "conesim sweep: cannot resolve '%s': %s\n", jobspath, strerror(errno));
        return CS_EXIT_OUTPUT;
    }
    FILE *f = fopen(o->slurm, "w");
    if (!f) {
        fprintf(stderr, "conesim sweep: cannot write '%s': %s\n", o->slurm, strerror(errno));
        return CS_EXIT_OUTPUT;
    }
    long tasks = ncomb < SLURM_MAX_TASKS ? ncomb : SLURM_MAX_TASKS;
    fprintf(f, "#!/bin/sh\n");
    fprintf(f, "# %ld conesim runs as a Slurm job array: sbatch this file, then\n", ncomb);
    fprintf(f, "#   conesim sweep --collect");
    put_arg(f, absdir);
    fprintf(f, " --out FILE.csv\n");
    fprintf(f, "#SBATCH --job-name=conesim-sweep\n");
    fprintf(f, "#SBATCH --array=0-%ld\n", tasks - 1);
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", absdir);
    for (int i = 0; i < o->nslurm_opt; i++) fprintf(f, "#SBATCH %s\n", o->slurm_opt[i]);
    fprintf(f, "\njobs=");
    put_word(f, jobsabs);
    fprintf(f, "\nn=%ld\ntasks=%ld\n", ncomb, tasks);
    fputs("i=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (a job array)}\n"
          "rc=0\n"
          "while [ \"$i\" -lt \"$n\" ]; do\n"
          "    line=$(sed -n \"$((i + 1))p\" \"$jobs\")\n"
          "    sh -c \"$line\" || rc=$?\n"
          "    i=$((i + tasks))\n"
          "done\n"
          "exit \"$rc\"\n", f);
    return close_out(f, o->slurm);
}

static int sweep_emit(const sweep_opts *o)
{
    long ncomb = combinations(o);
    if (ncomb < 0) {
        fprintf(stderr, "conesim sweep: more than 10000000 combinations\n");
        return CS_EXIT_USAGE;
    }
    const char *dir = o->jobs_dir ? o->jobs_dir : "sweep-jobs";
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "conesim sweep: cannot make '%s': %s\n", dir, strerror(errno));
        return CS_EXIT_OUTPUT;
    }
    char absdir[PATH_MAX], scene[PATH_MAX], prog[PATH_MAX], path[PATH_MAX + 32];
    if (!realpath(dir, absdir) || !realpath(o->scene, scene)) {
        fprintf(stderr, "conesim sweep: cannot resolve '%s': %s\n", dir, strerror(errno));
        return CS_EXIT_OUTPUT;
    }
    if (o->program) snprintf(prog, sizeof prog, "%s", o->program);
    else {
        ssize_t len = readlink("/proc/self/exe", prog, sizeof prog - 1);
        if (len <= 0) snprintf(prog, sizeof prog, "conesim");
        else prog[len] = 0;
    }
    char jobspath[PATH_MAX + 32];
    if (o->emit) snprintf(jobspath, sizeof jobspath, "%s", o->emit);
    else snprintf(jobspath, sizeof jobspath, "%s/jobs.txt", absdir);
    snprintf(path, sizeof path, "%s/params.csv", absdir);
    FILE *jobs = fopen(jobspath, "w"), *params = jobs ? fopen(path, "w") : NULL;
    if (!jobs || !params) {
        fprintf(stderr, "conesim sweep: cannot write '%s': %s\n", jobs ? path : jobspath,
                strerror(errno));
        if (jobs) fclose(jobs);
        return CS_EXIT_OUTPUT;
    }
    const char *names[MAXVARY];
    double values[MAXVARY];
    for (int j = 0; j < o->nvary; j++) names[j] = o->vary[j].name;
    write_header(params, o, names, o->nvary);
    for (long c = 0; c < ncomb; c++) {
        combination(o, c, values);
        char num[64];
        for (int j = 0; j < o->nvary; j++)
            fprintf(params, "%s%s", j ? "," : "", cs_fmt_shortest(num, sizeof num, values[j]));
        fputc('\n', params);
        fputs(prog + (*prog == ' '), jobs); /* the program path, as is */
        fputs(" run", jobs);
        put_arg(jobs, scene);
        for (int i = 0; i < o->npass; i++) {
            put_arg(jobs, o->pass[i][0]);
            put_arg(jobs, o->pass[i][1]);
        }
        for (int j = 0; j < o->nvary; j++) {
            char set[256];
            snprintf(set, sizeof set, "%s=%.17g", names[j], values[j]);
            put_arg(jobs, "--set");
            put_arg(jobs, set);
        }
        snprintf(path, sizeof path, "%s/run-%06ld.csv", absdir, c);
        put_arg(jobs, "--quiet");
        put_arg(jobs, "--summary");
        put_arg(jobs, path);
        fputc('\n', jobs);
    }
    int rc = close_out(params, "params.csv");
    int rc2 = close_out(jobs, jobspath);
    if (rc || rc2) return rc ? rc : rc2;
    return o->slurm ? write_sbatch(o, absdir, jobspath, ncomb) : CS_EXIT_OK;
}

/* one line without its newline; 0 at the end of the file */
static int read_line(FILE *f, char *buf, size_t len)
{
    if (!fgets(buf, (int)len, f)) return 0;
    buf[strcspn(buf, "\r\n")] = 0;
    return 1;
}

static int sweep_collect(const sweep_opts *o)
{
    char path[PATH_MAX + 32], line[4096], head[4096], row[4096];
    snprintf(path, sizeof path, "%s/params.csv", o->collect);
    FILE *params = fopen(path, "r");
    if (!params || !read_line(params, head, sizeof head)) {
        fprintf(stderr, "conesim sweep: cannot read '%s' (written by --emit-jobs): %s\n", path,
                params ? "empty" : strerror(errno));
        if (params) fclose(params);
        return CS_EXIT_USAGE;
    }
    /* the parameter names: the header's columns before the first metric */
    int nv = 0;
    char *save = NULL, headcopy[4096];
    snprintf(headcopy, sizeof headcopy, "%s", head);
    for (char *t = strtok_r(headcopy, ",", &save); t && cs_metric_index(t) < 0;
         t = strtok_r(NULL, ",", &save))
        nv++;
    FILE *f = fopen(o->out, "w");
    if (!f) {
        fprintf(stderr, "conesim sweep: cannot write '%s': %s\n", o->out, strerror(errno));
        fclose(params);
        return CS_EXIT_OUTPUT;
    }
    /* the header: the parameters, then the metrics asked for now */
    char *comma = head;
    for (int j = 0; j < nv; j++) comma = strchr(comma, ',') ? strchr(comma, ',') + 1 : comma + strlen(comma);
    fprintf(f, "%.*s", (int)(nv ? comma - head - (*comma || comma[-1] == ',' ? 1 : 0) : 0), head);
    for (int i = 0; i < o->nmetric; i++)
        fprintf(f, "%s%s", nv || i ? "," : "", cs_metric_names[o->metric[i]]);
    fputc('\n', f);
    int rc = CS_EXIT_OK;
    for (long c = 0; read_line(params, line, sizeof line); c++) {
        snprintf(path, sizeof path, "%s/run-%06ld.csv", o->collect, c);
        FILE *r = fopen(path, "r");
        if (!r || !read_line(r, head, sizeof head) || !read_line(r, row, sizeof row)) {
            fprintf(stderr, "conesim sweep: %s: missing or incomplete (did its job run?)\n", path);
            if (r) fclose(r);
            rc = CS_EXIT_USAGE;
            continue;
        }
        fclose(r);
        /* the run's columns by name */
        char *col[CS_NMETRIC] = {0};
        char *hs = NULL, *rs = NULL;
        char *h = strtok_r(head, ",", &hs), *v = strtok_r(row, ",", &rs);
        for (; h && v; h = strtok_r(NULL, ",", &hs), v = strtok_r(NULL, ",", &rs)) {
            int i = cs_metric_index(h);
            if (i >= 0) col[i] = v;
        }
        fputs(line, f);
        for (int i = 0; i < o->nmetric; i++) {
            const char *s = col[o->metric[i]];
            if (!s) {
                fprintf(stderr, "conesim sweep: %s: no column %s\n", path,
                        cs_metric_names[o->metric[i]]);
                rc = CS_EXIT_USAGE;
                s = "";
            }
            fprintf(f, "%s%s", nv || i ? "," : "", s);
        }
        fputc('\n', f);
    }
    fclose(params);
    int wrc = close_out(f, o->out);
    return rc != CS_EXIT_OK ? rc : wrc;
}

static int run_sweep(int argc, char **argv)
{
    sweep_opts o = {0};
    o.set.ctrl_ok = 1; /* ctrl.NAME=VALUE: set on each run's data after its reset */
    if (!parse_args(argc, argv, &o)) return CS_EXIT_USAGE;
    if (o.collect) return sweep_collect(&o);
    if (!o.emit && !o.slurm) catch_signals(); /* emitting jobs is quick: a signal ends it as usual */
    int rc = check_first(&o);
    if (rc != CS_EXIT_OK && stop_signal()) {
        fprintf(stderr, "conesim sweep: interrupted while reading '%s'\n", o.scene);
        return signal_exit(stop_signal());
    }
    if (rc != CS_EXIT_OK) return rc;
    if (o.find) return sweep_find(&o);
    if (o.emit || o.slurm) return sweep_emit(&o);
    return sweep_grid(&o);
}

const cs_command cs_cmd_sweep = {
    "sweep", "sweep SCENE --vary NAME=START:STOP:COUNT ...: runs over a parameter grid",
    "usage: conesim sweep SCENE --vary NAME=START:STOP:COUNT [--vary ...] --out FILE.csv\n"
    "       conesim sweep SCENE --find NAME=LO:HI --until 'METRIC>VALUE' [--out FILE.csv]\n"
    "       conesim sweep SCENE --vary ... --emit-jobs JOBS.txt [--jobs-dir DIR]\n"
    "       conesim sweep SCENE --vary ... --slurm SWEEP.sbatch [--jobs-dir DIR]\n"
    "       conesim sweep --collect DIR --out FILE.csv\n\n"
    "Runs the scene once per combination of the --vary values (the last --vary changes\n"
    "fastest), each from its own copy of the model, and writes one CSV row per run: the\n"
    "varied values, then the metrics. Numbers are the shortest text that reads back as the\n"
    "same double (0.3, not %.17g's 0.29999999999999999); a complete file does not depend\n"
    "on --threads. The summary is written to FILE.csv.PID.tmp beside it (the rows of the\n"
    "runs done so far, in order) and renamed to FILE.csv at the end.\n\n"
    "  --vary NAME=START:STOP:COUNT  COUNT values from START to STOP, evenly spaced. NAME is\n"
    "                     anything `run --set` takes: an option (option.impratio,\n"
    "                     option.gravity[0]: one element of a vector), a model parameter\n"
    "                     (geom.NAME.friction[K], body.NAME.mass, joint.NAME.damping, ...),\n"
    "                     any attribute of a named element, recompiled for each run\n"
    "                     (frame.NAME.euler[K], geom.NAME.size[K], body.NAME.pos[K]), or a\n"
    "                     control, ctrl.NAME (a control's name or index, held for the run)\n"
    "  --metric LIST      comma-separated columns (default: all but wall):\n"
    "                     displacement     largest distance a moving body travelled (m)\n"
    "                     max_slip         largest tangential contact speed (m/s)\n"
    "                     verdict          slide when each step's fastest tangential\n"
    "                                      contact speed, averaged over the last half of\n"
    "                                      the steps, exceeds the slide speed; else stick\n"
    "                                      (sticking soft contacts creep a few mm/s)\n"
    "                     max_penetration  deepest contact penetration (m)\n"
    "                     mean_contacts    contacts per step\n"
    "                     mean_iterations  solver iterations per step\n"
    "                     wall             seconds the run took (never the same twice)\n"
    "  --slide-speed V    the verdict's slip speed (default 0.005 m/s)\n"
    "  --threads N        runs at once (default 1; --find: points a round); with N > 1\n"
    "                     each run's solver uses one thread\n"
    "  --out FILE.csv     the summary (without it, the grid's table goes to standard output)\n"
    "  --duration, --steps, --key, --timestep, --solver, --cone, --contact, --iterations,\n"
    "  --tolerance,\n"
    "  --set NAME=VALUE   as `conesim run`, for every run (--vary's value wins)\n\n"
    "  --find NAME=LO:HI  search NAME between LO and HI for where the --until condition\n"
    "                     changes (it must hold at one end only); prints the final bracket.\n"
    "                     Each round runs N = --threads points at once, splitting the\n"
    "                     bracket into N + 1 equal parts, and keeps the first part from LO\n"
    "                     where the condition changes: N = 1 is bisection, and N shrinks\n"
    "                     the bracket N + 1 times a round. --out records every run made: LO,\n"
    "                     HI, then each round's points in increasing order\n"
    "  --until 'METRIC>VALUE' or 'METRIC<VALUE'  the condition (verdict: slide 1, stick 0)\n"
    "  --bisect-steps K   K rounds of N runs (default: until the bracket is 1e-3 of its\n"
    "                     ends)\n\n"
    "  --emit-jobs FILE   write one `conesim run ... --summary DIR/run-NNNNNN.csv` line per\n"
    "                     combination instead of running them (for GNU parallel, xargs -P or\n"
    "                     a Slurm array), and DIR/params.csv\n"
    "  --jobs-dir DIR     where the jobs write (default sweep-jobs)\n"
    "  --slurm FILE       write DIR/jobs.txt, DIR/params.csv and FILE, an sbatch script that\n"
    "                     runs the jobs as a Slurm job array (one task per job, at most 1000\n"
    "                     tasks: beyond that each task runs every 1000th job); `sbatch FILE`,\n"
    "                     then --collect DIR once the array has finished\n"
    "  --slurm-option TEXT  one more `#SBATCH TEXT` line (--partition=short, --time=10,\n"
    "                     --account=..., up to 16)\n"
    "  --conesim PATH     the program the jobs call (default: this one)\n"
    "  --collect DIR      merge the jobs' outputs into --out, as the sweep itself writes it\n\n"
    "SIGINT, SIGTERM or SIGHUP (one is enough) hands out no more runs and stops the runs in\n"
    "flight after their current step; the summary is then written with the header and the\n"
    "rows of the runs that completed, in combination order, and stderr says how many of how\n"
    "many completed. --find prints the bracket reached so far, if there is one. A signal\n"
    "ignored when the sweep starts (nohup, a script's background job) stays ignored.\n\n"
    "A progress bar goes to a terminal on stderr. Exit codes: 0 ok, 1 a run diverged (its row\n"
    "describes its last finite state) or --find found no transition, 2 bad command line\n"
    "(also a missing job output in --collect), 3 bad scene, 4 output not writable, 6 out of\n"
    "memory, 129/130/143 interrupted by SIGHUP/SIGINT/SIGTERM (the summary holds whole\n"
    "rows).\n",
    run_sweep,
};
