/* conesim bench: step scenes and print a timing table (steps/s, contacts, solver
 * iterations, time per stage, memory), optionally as CSV. Bench never asserts speed: it
 * reports it. */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "overrides.h"
#include "conesim.h"

#define MAXSCENE 256

enum { ST_KIN, ST_COLL, ST_SMOOTH, ST_CONSTR, ST_INTEG, NSTAGE };
static const char *const STAGE_NAME[NSTAGE] = {"kinematics", "collision", "smooth",
                                                "constraint", "integrate"};
static const char *const STAGE_SHORT[NSTAGE] = {"kin", "collide", "smooth", "constr", "integ"};

typedef struct {
    int nscene;
    const char *scene[MAXSCENE];
    long steps;        /* -1: from duration */
    double duration;   /* -1: default 1 s */
    long repeat;
    long warmup;       /* untimed steps before each timed run */
    int stages;        /* time each stage (default on) */
    const char *csv;
    cs_overrides set;
    glob_t found;      /* the default scene set, when no scene is given */
    int have_found;
    int contact;       /* --contact: -1 as the scene says, CS_CONTACT_SOFT or _COULOMB, 2 both
                          (each scene twice, soft then coulomb) */
} bench_opts;

typedef struct {
    const char *name;
    int has_arg;
} opt_def;

static const opt_def OPTS[] = {
    {"--steps", 1},  {"--duration", 1},   {"--repeat", 1},     {"--warmup", 1},
    {"--csv", 1},    {"--no-stages", 0},  {"--timestep", 1},   {"--solver", 1},
    {"--cone", 1},   {"--iterations", 1}, {"--tolerance", 1},  {"--set", 1},
    {"--threads", 1}, {"--contact", 1},
};
#define NOPTS (sizeof OPTS / sizeof OPTS[0])

static int parse_count(const char *s, long min, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min) return 0;
    *out = v;
    return 1;
}

static int set_opt(bench_opts *o, const char *name, const char *arg)
{
    if (strcmp(name, "--steps") == 0) return parse_count(arg, 1, &o->steps);
    if (strcmp(name, "--repeat") == 0) return parse_count(arg, 1, &o->repeat);
    if (strcmp(name, "--warmup") == 0) return parse_count(arg, 0, &o->warmup);
    if (strcmp(name, "--duration") == 0)
        return cs_arg_number(arg, &o->duration) == CS_ARG_OK && o->duration > 0;
    if (strcmp(name, "--csv") == 0) {
        o->csv = arg;
        return 1;
    }
    if (strcmp(name, "--contact") == 0) { /* the contact model: soft, coulomb or both */
        if (strcmp(arg, "soft") == 0) o->contact = CS_CONTACT_SOFT;
        else if (strcmp(arg, "coulomb") == 0) o->contact = CS_CONTACT_COULOMB;
        else if (strcmp(arg, "both") == 0) o->contact = 2;
        else return 0;
        return 1;
    }
    if (strcmp(name, "--no-stages") == 0) {
        o->stages = 0;
        return 1;
    }
    /* the rest are option overrides: --timestep etc. mean --set option.NAME=VALUE */
    char why[160];
    return cs_overrides_add(&o->set, name, arg, why, sizeof why);
}

/* The default set: bench/ then scenes/ (every .xml file), from the current directory, else
 * from the source tree next to the executable (build/conesim -> ../bench). */
static int default_scenes(bench_opts *o)
{
    char exe[PATH_MAX], roots[2][PATH_MAX];
    int nroot = 1;
    roots[0][0] = 0; /* the current directory: names stay "bench/x.xml" */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            if ((size_t)snprintf(roots[nroot], sizeof roots[0], "%s/../", exe) < sizeof roots[0])
                nroot++;
        }
    }
    memset(&o->found, 0, sizeof o->found);
    o->have_found = 1; /* globfree is safe on an empty or failed result */
    for (int r = 0; r < nroot && o->found.gl_pathc == 0; r++) {
        static const char *const dirs[2] = {"bench", "scenes"};
        for (int k = 0; k < 2; k++) {
            char pat[PATH_MAX + 32];
            if ((size_t)snprintf(pat, sizeof pat, "%s%s/*.xml", roots[r], dirs[k]) < sizeof pat)
                glob(pat, o->found.gl_pathc ? GLOB_APPEND : 0, NULL, &o->found);
        }
    }
    if (o->found.gl_pathc == 0) {
        fprintf(stderr, "conesim bench: no scene given, and no bench/*.xml or scenes/*.xml "
                        "found here or next to the executable\n");
        return 0;
    }
    if (o->found.gl_pathc > MAXSCENE) {
        fprintf(stderr, "conesim bench: more than %d default scenes\n", MAXSCENE);
        return 0;
    }
    for (size_t i = 0; i < o->found.gl_pathc; i++) o->scene[o->nscene++] = o->found.gl_pathv[i];
    return 1;
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    o->steps = -1;
    o->duration = -1;
    o->repeat = 1;
    o->stages = 1;
    o->contact = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == 0) {
            if (o->nscene >= MAXSCENE) {
                fprintf(stderr, "conesim bench: more than %d scenes\n", MAXSCENE);
                return 0;
            }
            o->scene[o->nscene++] = a;
            continue;
        }
        size_t k;
        for (k = 0; k < NOPTS; k++)
            if (strcmp(a, OPTS[k].name) == 0) break;
        if (k == NOPTS) {
            fprintf(stderr, "conesim bench: unknown option '%s' (see 'conesim help bench')\n", a);
            return 0;
        }
        const char *arg = NULL;
        if (OPTS[k].has_arg) {
            if (i + 1 >= argc) {
                fprintf(stderr, "conesim bench: option %s needs a value\n", a);
                return 0;
            }
            arg = argv[++i];
        }
        if (!set_opt(o, a, arg)) {
            fprintf(stderr, "conesim bench: bad value '%s' for %s\n", arg, a);
            return 0;
        }
    }
    if (o->steps >= 0 && o->duration >= 0) {
        fprintf(stderr, "conesim bench: give --steps or --duration, not both\n");
        return 0;
    }
    if (o->nscene == 0) return default_scenes(o);
    return 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Heap bytes in use (glibc). Under AddressSanitizer the allocator is not glibc's, so the
 * figure means nothing there: report it as unknown. */
#if defined(__SANITIZE_ADDRESS__)
#define CS_HAVE_HEAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_HAVE_HEAP 0
#endif
#endif
#ifndef CS_HAVE_HEAP
#define CS_HAVE_HEAP 1
#endif

static long long heap_in_use(void)
{
#if CS_HAVE_HEAP
    struct mallinfo2 mi = mallinfo2();
    return (long long)mi.uordblks + (long long)mi.hblkhd;
#else
    return -1;
#endif
}

static long max_rss_kib(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return ru.ru_maxrss; /* KiB on Linux */
}

typedef struct {
    const char *scene;
    int bodies, geoms, dofs;
    double timestep;
    long steps;
    double wall;                /* best over repeats */
    double cpu;                 /* process CPU time of that repeat: wall >> cpu = a busy machine */
    double stage[NSTAGE];       /* seconds in the best repeat */
    double con_mean, iter_mean, efc_mean;
    int con_max, iter_max;
    long long model_bytes, data_bytes; /* -1 unknown */
    long rss_kib;
    int diverged;               /* 1: a state was not finite after the timed steps */
    int solver, cone, contact;
} bench_row;

/* One timed run of `steps` steps from the state in d. Per-stage times when `stages`:
 * the stages are those cs_step runs (cs_forward, then cs_integrate), called in order. */
static double timed_run(const cs_model *m, cs_data *d, long steps, int stages,
                        double stage[NSTAGE], double *sumcon, int *maxcon, double *sumit,
                        int *maxit, double *sumefc)
{
    double t0 = now();
    for (long k = 0; k < steps; k++) {
        if (stages) {
            double t[NSTAGE + 1];
            t[0] = now();
            cs_kinematics(m, d);
            t[1] = now();
            cs_collide(m, d);
            t[2] = now();
            cs_smooth(m, d);
            t[3] = now();
            cs_constraint(m, d);
            t[4] = now();
            /* the step's statistics belong to its forward pass, before integration */
            *sumcon += d->ncon;
            *sumit += d->solver.iterations;
            *sumefc += d->nefc;
            if (d->ncon > *maxcon) *maxcon = d->ncon;
            if (d->solver.iterations > *maxit) *maxit = d->solver.iterations;
            double ti = now(); /* the bookkeeping above is in no stage */
            cs_integrate(m, d);
            t[5] = now();
            for (int s = 0; s < ST_INTEG; s++) stage[s] += t[s + 1] - t[s];
            stage[ST_INTEG] += t[5] - ti;
        } else {
            cs_step(m, d);
            *sumcon += d->ncon;
            *sumit += d->solver.iterations;
            *sumefc += d->nefc;
            if (d->ncon > *maxcon) *maxcon = d->ncon;
            if (d->solver.iterations > *maxit) *maxit = d->solver.iterations;
        }
    }
    return now() - t0;
}

static void start_state(const cs_model *m, cs_data *d)
{
    /* as `run`: the first keyframe if the scene has one */
    if (m->nkey > 0) cs_reset_key(m, d, 0);
    else cs_reset(m, d);
}

/* Returns CS_EXIT_OK, CS_EXIT_DIVERGED (row filled, marked) or another exit code (no
 * row). */
static int bench_scene(const bench_opts *o, const char *path, int contact, bench_row *row)
{
    char err[1024];
    memset(row, 0, sizeof *row);
    row->scene = path;
    long long h0 = heap_in_use();
    /* the loader's notes were printed by the check before the table */
    cs_model *m = cs_overrides_load(&o->set, path, CS_LOAD_NO_TEXELS,
                                    0, NULL, NULL, NULL, err, sizeof err);
    if (!m) return cs_load_exit(err);
    long long h1 = heap_in_use();
    if (cs_overrides_apply(&o->set, m, err, sizeof err) != 0) {
        fprintf(stderr, "conesim bench: %s\n", err);
        cs_free_model(m);
        return CS_EXIT_USAGE;
    }
    if (contact >= 0 &&
        cs_set_text(m, "contact", contact == CS_CONTACT_COULOMB ? "coulomb" : "soft", err,
                    sizeof err) != 0) { /* the Coulomb model refuses adhesion */
        fprintf(stderr, "conesim bench: %s: %s\n", path, err);
        cs_free_model(m);
        return CS_EXIT_USAGE;
    }
    cs_data *d = cs_make_data(m);
    if (!d) {
        fprintf(stderr, "conesim bench: %s: out of memory\n", path);
        cs_free_model(m);
        return CS_EXIT_NOMEM;
    }
    row->bodies = m->nbody - 1; /* the world is not counted */
    row->geoms = m->ngeom;
    row->dofs = m->nv;
    row->timestep = m->opt.timestep;
    row->solver = m->opt.solver;
    row->cone = m->opt.cone;
    row->contact = m->opt.contact;
    double dur = o->duration >= 0 ? o->duration : 1.0;
    row->steps = o->steps;
    if (o->steps < 0 && !cs_arg_steps(dur, m->opt.timestep, &row->steps)) {
        fprintf(stderr, "conesim bench: %s: %g s at timestep %g s is too many steps to count\n",
                path, dur, m->opt.timestep);
        cs_free_data(d);
        cs_free_model(m);
        return CS_EXIT_USAGE;
    }
    if (row->steps < 1) row->steps = 1;
    row->wall = INFINITY;
    for (long r = 0; r < o->repeat; r++) {
        start_state(m, d);
        for (long k = 0; k < o->warmup; k++) cs_step(m, d);
        double stage[NSTAGE] = {0}, sumcon = 0, sumit = 0, sumefc = 0;
        int maxcon = 0, maxit = 0;
        double c0 = cpu_now();
        double wall = timed_run(m, d, row->steps, o->stages, stage, &sumcon, &maxcon, &sumit,
                                &maxit, &sumefc);
        double cpu = cpu_now() - c0;
        if (r == 0) { /* the statistics are the same in every repeat: the step is deterministic */
            row->con_mean = sumcon / row->steps;
            row->con_max = maxcon;
            row->iter_mean = sumit / row->steps;
            row->iter_max = maxit;
            row->efc_mean = sumefc / row->steps;
        }
        if (wall < row->wall) {
            row->wall = wall;
            row->cpu = cpu;
            memcpy(row->stage, stage, sizeof stage);
        }
        if (cs_check_finite(m, d) >= 0) {
            row->diverged = 1;
            break;
        }
    }
    long long h2 = heap_in_use();
    row->model_bytes = h0 >= 0 ? h1 - h0 : -1;
    row->data_bytes = h0 >= 0 ? h2 - h1 : -1; /* the data plus the scratch its first steps made */
    row->rss_kib = max_rss_kib();
    int nomem = d->warning[CS_WARN_NOMEM] > 0;
    cs_free_data(d);
    cs_free_model(m);
    if (nomem) {
        fprintf(stderr, "conesim bench: %s: out of memory during the steps\n", path);
        return CS_EXIT_NOMEM;
    }
    if (row->diverged) {
        fprintf(stderr, "conesim bench: warning: %s diverged (a state is not finite after the "
                        "timed steps)\n", path);
        return CS_EXIT_DIVERGED;
    }
    return CS_EXIT_OK;
}

static const char *solver_name(int s)
{
    return s == CS_SOLVER_PGS ? "pgs" : s == CS_SOLVER_CG ? "cg" : "newton";
}
static const char *contact_name(int c) { return c == CS_CONTACT_COULOMB ? "coulomb" : "soft"; }
static const char *cone_name(int c) { return c == CS_CONE_ELLIPTIC ? "elliptic" : "pyramidal"; }

/* the scene's file name without directory and .xml, for the table */
static void short_name(const char *path, char *buf, size_t n)
{
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    size_t len = strlen(s);
    if (len > 4 && strcmp(s + len - 4, ".xml") == 0) len -= 4;
    if (len >= n) len = n - 1;
    memcpy(buf, s, len);
    buf[len] = 0;
}

static void print_header(int stages)
{
    printf("%-22s %6s %6s %7s %8s %8s %9s %8s %12s %8s %10s", "scene", "bodies", "geoms",
           "steps", "wall[s]", "cpu[s]", "steps/s", "realtime", "contacts", "rows", "iterations");
    if (stages)
        for (int s = 0; s < NSTAGE; s++) printf(" %7s", STAGE_SHORT[s]);
    printf(" %9s %8s %8s\n", "data", "rss", "contact");
    printf("%-22s %6s %6s %7s %8s %8s %9s %8s %12s %8s %10s", "", "", "", "", "", "", "", "",
           "mean/max", "mean", "mean/max");
    if (stages)
        for (int s = 0; s < NSTAGE; s++) printf(" %7s", "us/step");
    printf(" %9s %8s %8s\n", "KiB", "MiB", "model");
}

static void print_row(const bench_row *r, int stages)
{
    char name[64], cm[32], it[32], data[32];
    short_name(r->scene, name, sizeof name);
    snprintf(cm, sizeof cm, "%.1f/%d", r->con_mean, r->con_max);
    snprintf(it, sizeof it, "%.1f/%d", r->iter_mean, r->iter_max);
    if (r->data_bytes >= 0) snprintf(data, sizeof data, "%.0f", r->data_bytes / 1024.0);
    else snprintf(data, sizeof data, "-");
    double sps = r->wall > 0 ? r->steps / r->wall : 0;
    double rtf = r->wall > 0 ? r->steps * r->timestep / r->wall : 0;
    printf("%-22s %6d %6d %7ld %8.4f %8.4f %9.0f %8.4g %12s %8.1f %10s", name, r->bodies,
           r->geoms, r->steps, r->wall, r->cpu, sps, rtf, cm, r->efc_mean, it);
    if (stages)
        for (int s = 0; s < NSTAGE; s++) printf(" %7.1f", 1e6 * r->stage[s] / r->steps);
    printf(" %9s %8.1f %8s%s\n", data, r->rss_kib / 1024.0, contact_name(r->contact),
           r->diverged ? "  DIVERGED" : "");
    fflush(stdout);
}

static void csv_header(FILE *f)
{
    fprintf(f, "scene,bodies,geoms,dofs,solver,cone,timestep,steps,wall_s,cpu_s,steps_per_s,"
               "realtime,"
               "contacts_mean,contacts_max,rows_mean,iter_mean,iter_max");
    for (int s = 0; s < NSTAGE; s++) fprintf(f, ",%s_us", STAGE_NAME[s]);
    fprintf(f, ",model_bytes,data_bytes,maxrss_kib,contact,status\n");
}

/* a path is quoted when it holds a comma, quote or newline (RFC 4180) */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_row(FILE *f, const bench_row *r, int stages)
{
    double sps = r->wall > 0 ? r->steps / r->wall : 0;
    double rtf = r->wall > 0 ? r->steps * r->timestep / r->wall : 0;
    csv_field(f, r->scene);
    fprintf(f, ",%d,%d,%d,%s,%s,%.17g,%ld,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%.9g,%.9g,%d", r->bodies,
            r->geoms, r->dofs, solver_name(r->solver), cone_name(r->cone), r->timestep,
            r->steps, r->wall, r->cpu, sps, rtf, r->con_mean, r->con_max, r->efc_mean, r->iter_mean,
            r->iter_max);
    for (int s = 0; s < NSTAGE; s++) {
        if (stages) fprintf(f, ",%.6g", 1e6 * r->stage[s] / r->steps);
        else fprintf(f, ",");
    }
    /* unknown memory figures are empty fields */
    if (r->model_bytes >= 0) fprintf(f, ",%lld,%lld", r->model_bytes, r->data_bytes);
    else fprintf(f, ",,");
    fprintf(f, ",%ld,%s,%s\n", r->rss_kib, contact_name(r->contact),
            r->diverged ? "diverged" : "ok");
    fflush(f);
}

static int run_bench(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    int rc = CS_EXIT_OK;
    FILE *csv = NULL;
    if (!parse_args(argc, argv, &o)) {
        rc = CS_EXIT_USAGE;
        goto done;
    }
    /* Check every scene and override before the first timing: a typo in the last scene
     * must not cost a long run, and the loader's notes come before the table. */
    for (int i = 0; i < o.nscene; i++) {
        char err[1024];
        cs_model *m = cs_overrides_load(&o.set, o.scene[i], CS_LOAD_NO_TEXELS,
                                        0, NULL, NULL, stderr, err, sizeof err);
        if (!m) {
            rc = cs_load_exit(err);
            goto done;
        }
        if (cs_overrides_apply(&o.set, m, err, sizeof err) != 0) {
            fprintf(stderr, "conesim bench: %s\n", err);
            rc = CS_EXIT_USAGE;
        }
        cs_free_model(m);
        if (rc != CS_EXIT_OK) goto done;
    }
    if (o.csv) {
        csv = fopen(o.csv, "w");
        if (!csv) {
            fprintf(stderr, "conesim bench: cannot write '%s': %s\n", o.csv, strerror(errno));
            rc = CS_EXIT_OUTPUT;
            goto done;
        }
        csv_header(csv);
    }
    print_header(o.stages);
    for (int i = 0; i < o.nscene; i++)
        for (int pass = 0; pass < (o.contact == 2 ? 2 : 1); pass++) {
            bench_row row;
            int contact = o.contact == 2 ? pass : o.contact;
            int r = bench_scene(&o, o.scene[i], contact, &row);
            if (r != CS_EXIT_OK && r != CS_EXIT_DIVERGED) {
                rc = r;
                goto done;
            }
            if (r == CS_EXIT_DIVERGED) rc = r;
            print_row(&row, o.stages);
            if (csv) csv_row(csv, &row, o.stages);
        }
done:
    if (csv && fclose(csv) != 0 && rc == CS_EXIT_OK) {
        fprintf(stderr, "conesim bench: error writing '%s'\n", o.csv);
        rc = CS_EXIT_OUTPUT;
    }
    if (o.have_found) globfree(&o.found);
    return rc;
}

const cs_command cs_cmd_bench = {
    "bench", "bench [SCENE...] [options]: timing table (steps/s, contacts, solver iterations)",
    "usage: conesim bench [SCENE...] [options]\n\n"
    "Steps each scene and prints one row per scene: bodies (the world not counted), geoms,\n"
    "steps, wall time, CPU time (much less than wall: the machine was busy), steps/s and\n"
    "real-time factor (simulated time / wall time), contacts (mean/max per step),\n"
    "constraint rows (mean), solver iterations (mean/max per step; the max over islands),\n"
    "time per step in each stage (kinematics, collision, smooth, constraint = rows + solve,\n"
    "integrate), the heap the data and its first steps took, and the process's peak RSS.\n"
    "Without SCENE: every bench/*.xml, then every scenes/*.xml (looked up in the current\n"
    "directory, else in the source tree next to the executable).\n\n"
    "  --steps N          timed steps per run\n"
    "  --duration SECONDS simulated time per run, round(T / timestep) steps (default 1 s)\n"
    "  --repeat R         R timed runs from the initial state; the fastest is reported\n"
    "                     (default 1); contact and iteration counts are the same in every run\n"
    "  --warmup N         untimed steps before each timed run (default 0): the timed run\n"
    "                     starts from the state after N steps\n"
    "  --no-stages        call cs_step instead of timing each stage (removes the timer\n"
    "                     overhead, about 0.1 us per step; stage columns are left out)\n"
    "  --csv FILE         also write the rows as CSV (header first; stage times in us/step,\n"
    "                     memory in bytes / KiB, status ok|diverged)\n"
    "  --timestep DT      overrides <option timestep>\n"
    "  --solver pgs|cg|newton, --cone elliptic|pyramidal, --iterations N, --tolerance X\n"
    "                     override the <option> attributes of the same name, in every scene\n"
    "  --set NAME=VALUE   override any option attribute, e.g. option.impratio=10\n"
    "  --contact soft|coulomb|both\n"
    "                     the contact model (default: the scene's); both: every scene twice,\n"
    "                     soft then coulomb (column contact)\n"
    "  --threads N        threads for the contact islands (default 0 = all cores); cpu[s]\n"
    "                     adds up every thread's time, wall[s] shows the speed-up\n\n"
    "Notes: the first keyframe is the initial state when a scene has one (as `run`).\n"
    "rss is the process's peak so far, so it only grows down the table: bench one scene per\n"
    "process for a per-scene peak. data[KiB] is glibc's heap growth from cs_make_data to the\n"
    "end of the runs ('-' when unknown, e.g. under AddressSanitizer).\n\n"
    "Exit codes: 0 ok, 1 a scene diverged (its row is marked), 2 bad command line or override,\n"
    "3 bad scene (FILE:LINE message; nothing is timed), 4 the CSV file is not writable,\n"
    "6 out of memory.\n",
    run_bench,
};
