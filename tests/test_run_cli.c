/* `conesim run` end to end (interface.md): CSV headers, %.17g numbers, row counts with
 * --every, --duration rounding, determinism, SIGINT/SIGTERM, exit codes. The executable is
 * run directly (fork + execv, no shell); argv[1] is its path. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CS_SCENES
#error "CS_SCENES (the scenes directory) must be defined by the build"
#endif
#ifndef CS_TEST_DATA
#error "CS_TEST_DATA must be defined by the build"
#endif

static const char *conesim;
static char tmpdir[256];
static rlim_t child_as_limit; /* address-space limit of the next children, 0 = none */
static int child_ignore_hup; /* the next children start with SIGHUP ignored */

static const char *TRAJ_HEADER = "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
static const char *CON_HEADER = "step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,"
                                "f5,vn,v1,v2,v3,v4,v5,zone";

static void tmp_path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    ck_assert(s != NULL);
    size_t r;
    while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n < 2) {
            cap *= 2;
            s = realloc(s, cap);
            ck_assert(s != NULL);
        }
    }
    fclose(f);
    s[n] = 0;
    if (len) *len = n;
    return s;
}

/* Start `conesim ARGS...` with stdout and stderr to files in tmpdir; returns the pid. */
static pid_t start(const char *const *args)
{
    char out[512], err[512];
    tmp_path(out, sizeof out, "stdout.txt");
    tmp_path(err, sizeof err, "stderr.txt");
    const char *argv[64];
    int n = 0;
    argv[n++] = conesim;
    for (; *args; args++) argv[n++] = *args;
    argv[n] = NULL;
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fi = open("/dev/null", O_RDONLY);
        if (fo < 0 || fe < 0 || fi < 0) _exit(126);
        dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
        /* the signals the tests send start with their default action, whatever this process
         * inherited (a background job of a script ignores SIGINT; nohup ignores SIGHUP) */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, child_ignore_hup ? SIG_IGN : SIG_DFL);
        if (child_as_limit) {
            struct rlimit rl = {child_as_limit, child_as_limit};
            setrlimit(RLIMIT_AS, &rl);
        }
        execv(conesim, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static int finish(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ck_assert(errno == EINTR);
    ck_assert_msg(WIFEXITED(st), "conesim died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return WEXITSTATUS(st);
}

/* Run to completion; *out / *err (if given) receive stdout / stderr (free them). */
static int run(const char *const *args, char **out, char **err)
{
    int rc = finish(start(args));
    char p[512];
    if (out) {
        tmp_path(p, sizeof p, "stdout.txt");
        *out = slurp(p, NULL);
    }
    if (err) {
        tmp_path(p, sizeof p, "stderr.txt");
        *err = slurp(p, NULL);
    }
    return rc;
}

static void scene(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", CS_SCENES, name);
}

/* Split a CSV text into lines (modifies it); returns the count. Asserts that the text
 * ends with a newline: whole rows only. */
static int lines(char *s, char **line, int max)
{
    size_t len = strlen(s);
    ck_assert_msg(len > 0 && s[len - 1] == '\n', "file does not end with a whole row");
    int n = 0;
    for (char *p = s; *p;) {
        char *e = strchr(p, '\n');
        *e = 0;
        ck_assert(n < max);
        line[n++] = p;
        p = e + 1;
    }
    return n;
}

/* Split one row at commas (modifies it); returns the field count. */
static int fields(char *row, char **f, int max)
{
    int n = 0;
    for (char *p = row;;) {
        ck_assert(n < max);
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = 0;
        p = c + 1;
    }
    return n;
}

/* A number written with %.17g: parses completely and prints back to the same text. */
static void check_g17(const char *text)
{
    char *end, back[64];
    double v = strtod(text, &end);
    ck_assert_msg(end != text && *end == 0, "'%s' is not a number", text);
    snprintf(back, sizeof back, "%.17g", v);
    ck_assert_msg(strcmp(back, text) == 0, "'%s' is not %%.17g (would be '%s')", text, back);
}

static long parse_step(const char *text)
{
    char *end;
    long k = strtol(text, &end, 10);
    ck_assert_msg(end != text && *end == 0, "bad step '%s'", text);
    return k;
}

/* ---- formats, --every, final state ---------------------------------------------------- */
START_TEST(test_csv_formats_every)
{
    char sc[512], rec[512], con[512];
    scene(sc, sizeof sc, "box_stack.xml"); /* 3 free bodies, 12 contacts at rest */
    tmp_path(rec, sizeof rec, "traj.csv");
    tmp_path(con, sizeof con, "contacts.csv");
    const char *args[] = {"run", sc, "--steps", "10", "--every", "3", "--record", rec,
                          "--contacts", con, NULL};
    char *out;
    ck_assert_int_eq(run(args, &out, NULL), 0);
    /* not a terminal: no progress bar (no carriage returns), just the summary */
    ck_assert_msg(strchr(out, '\r') == NULL, "progress bar written to a pipe");
    ck_assert(strstr(out, "steps 10") != NULL);
    ck_assert(strstr(out, "box1") && strstr(out, "box2") && strstr(out, "box3"));
    free(out);

    /* trajectory: rows for k = 0, 3, 6, 9 and the final state 10, three bodies each */
    char *t = slurp(rec, NULL), *line[256], *f[32];
    ck_assert(t != NULL);
    int n = lines(t, line, 256);
    ck_assert_str_eq(line[0], TRAJ_HEADER);
    static const long want[] = {0, 3, 6, 9, 10};
    static const char *body[] = {"box1", "box2", "box3"};
    ck_assert_int_eq(n, 1 + 5 * 3);
    for (int i = 1; i < n; i++) {
        ck_assert_int_eq(fields(line[i], f, 32), 16);
        long k = parse_step(f[0]);
        ck_assert_int_eq(k, want[(i - 1) / 3]);
        ck_assert_str_eq(f[2], body[(i - 1) % 3]);
        /* time = k * timestep exactly, written %.17g */
        char tt[64];
        snprintf(tt, sizeof tt, "%.17g", k * 0.002);
        ck_assert_str_eq(f[1], tt);
        for (int j = 3; j < 16; j++) check_g17(f[j]);
    }
    free(t);

    /* contacts: the same k below N (no step follows state 10), every contact a row */
    char *c = slurp(con, NULL), *cl[256];
    ck_assert(c != NULL);
    n = lines(c, cl, 256);
    ck_assert_str_eq(cl[0], CON_HEADER);
    int per[4] = {0};
    for (int i = 1; i < n; i++) {
        ck_assert_int_eq(fields(cl[i], f, 32), 25);
        long k = parse_step(f[0]);
        ck_assert_msg(k == 0 || k == 3 || k == 6 || k == 9, "contact row for step %ld", k);
        per[k / 3]++;
        ck_assert(parse_step(f[4]) == 3); /* condim */
        for (int j = 5; j < 24; j++) check_g17(f[j]);
        ck_assert_msg(strcmp(f[24], "top") == 0 || strcmp(f[24], "bottom") == 0 ||
                          strcmp(f[24], "middle") == 0 || strcmp(f[24], "none") == 0,
                      "zone '%s'", f[24]);
    }
    for (int i = 1; i < 4; i++) ck_assert_int_eq(per[i], 12); /* 4 per face contact */
    free(c);
}
END_TEST

/* --limits on slide_pusher (a slide joint with range 0..0.2 m pushed by a spring k = 10 N/m
 * towards q = 1): no row until the pusher reaches its upper end, then one limit_upper row per
 * step, with --every K on the contacts' steps; once it rests there the row carries the
 * spring, k (1 - q), with q = 0.2 - pos. */
static const char *LIM_HEADER = "step,time,joint,kind,dof,pos,force";

START_TEST(test_limits_csv)
{
    char sc[512], lim[512], *f[16];
    scene(sc, sizeof sc, "slide_pusher.xml");
    tmp_path(lim, sizeof lim, "limits.csv");
    for (int every = 1; every <= 7; every += 6) {
        char ev[8];
        snprintf(ev, sizeof ev, "%d", every);
        const char *args[] = {"run", sc, "--duration", "1.2", "--every", ev, "--limits", lim,
                              "--quiet", NULL};
        ck_assert_int_eq(run(args, NULL, NULL), 0);
        char *t = slurp(lim, NULL), **line = malloc(2000 * sizeof *line);
        ck_assert(t && line);
        int n = lines(t, line, 2000);
        ck_assert_str_eq(line[0], LIM_HEADER);
        long first = -1, prev = -1;
        double pos = 0, force = 0;
        for (int i = 1; i < n; i++) {
            ck_assert_int_eq(fields(line[i], f, 16), 7);
            long k = parse_step(f[0]);
            ck_assert_msg(k % every == 0 && k < 1200 && k > prev, "row for step %ld", k);
            char tt[64];
            snprintf(tt, sizeof tt, "%.17g", k * 0.001);
            ck_assert_str_eq(f[1], tt);
            ck_assert_str_eq(f[2], "slide");
            ck_assert_str_eq(f[3], "limit_upper");
            ck_assert_str_eq(f[4], "0");
            check_g17(f[5]);
            check_g17(f[6]);
            pos = strtod(f[5], NULL);
            force = strtod(f[6], NULL);
            ck_assert_msg(pos < 0 && force >= 0, "step %ld: pos %g force %g", k, pos, force);
            if (first < 0) first = k;
            prev = k;
        }
        /* 0.2 m at about 5 m/s^2 takes 0.28 s; then a row on every recorded step */
        ck_assert_msg(first > 250 && first < 320, "first limit row at step %ld", first);
        ck_assert_int_eq(n - 1, (1199 / every) - (first / every) + 1);
        double q = 0.2 - pos, spring = 10 * (1 - q);
        ck_assert_msg(fabs(force - spring) < 1e-3 * spring, "limit force %.9g, spring %.9g",
                      force, spring);
        free(line);
        free(t);
    }
    unlink(lim);
}
END_TEST

/* --steps 0: the initial state once; --duration T: round(T / timestep) steps */
START_TEST(test_steps_duration)
{
    char sc[512], rec[512], *line[64], *f[32];
    scene(sc, sizeof sc, "sphere_plane.xml");
    tmp_path(rec, sizeof rec, "traj0.csv");
    const char *a0[] = {"run", sc, "--steps", "0", "--record", rec, "--quiet", NULL};
    ck_assert_int_eq(run(a0, NULL, NULL), 0);
    char *t = slurp(rec, NULL);
    ck_assert_int_eq(lines(t, line, 64), 2);
    free(t);
    /* 0.0101 / 0.002 = 5.05 -> 5 steps; 0.0109 -> 5.45 -> 5; 0.0111 -> 5.55 -> 6 */
    static const char *dur[] = {"0.0101", "0.0109", "0.0111"};
    static const long nst[] = {5, 5, 6};
    for (int i = 0; i < 3; i++) {
        const char *a[] = {"run", sc, "--duration", dur[i], "--record", rec, "--quiet", NULL};
        ck_assert_int_eq(run(a, NULL, NULL), 0);
        t = slurp(rec, NULL);
        int n = lines(t, line, 64);
        ck_assert_int_eq(n, 1 + nst[i] + 1);
        fields(line[n - 1], f, 32);
        ck_assert_int_eq(parse_step(f[0]), nst[i]);
        free(t);
    }
    /* --timestep changes the count: 0.01 s at 0.001 s is 10 steps */
    const char *a[] = {"run", sc, "--duration", "0.01", "--timestep", "0.001", "--record", rec,
                       "--quiet", NULL};
    ck_assert_int_eq(run(a, NULL, NULL), 0);
    t = slurp(rec, NULL);
    int n = lines(t, line, 64);
    ck_assert_int_eq(n, 12);
    fields(line[n - 1], f, 32);
    ck_assert_str_eq(f[1], "0.01");
    free(t);
}
END_TEST

/* The README's quick-start line: the sphere rests at 19.62 N. */
START_TEST(test_quickstart_summary)
{
    char sc[512], *out;
    scene(sc, sizeof sc, "sphere_plane.xml");
    const char *a[] = {"run", sc, NULL};
    ck_assert_int_eq(run(a, &out, NULL), 0);
    const char *want[] = {"steps 500", "simulated 1 s", "wall", "steps/s", "contacts mean",
                          "solver iterations mean", "max penetration",
                          "sum of contact normal forces at the final state 19.62 N", "ball",
                          "pos", "quat", "vel", "angvel", "from reference pose (qpos0)"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]) != NULL, "summary lacks '%s':\n%s", want[i], out);
    free(out);
}
END_TEST

/* The summary names the state the run started from: the first keyframe by default (which
 * Python's Data(m) does not apply), or the reference pose. */
START_TEST(test_summary_names_the_start)
{
    char sc[512], *out;
    scene(sc, sizeof sc, "ball_roll.xml");
    const char *a[] = {"run", sc, "--steps", "10", NULL};
    ck_assert_int_eq(run(a, &out, NULL), 0);
    ck_assert_msg(strstr(out, "from key 0 \"roll\"\n") != NULL, "%s", out);
    free(out);
    const char *b[] = {"run", sc, "--steps", "10", "--key", "none", NULL};
    ck_assert_int_eq(run(b, &out, NULL), 0);
    ck_assert_msg(strstr(out, "from reference pose (qpos0)\n") != NULL, "%s", out);
    free(out);
    const char *c[] = {"run", sc, "--steps", "10", "--key", "0", NULL};
    ck_assert_int_eq(run(c, &out, NULL), 0);
    ck_assert_msg(strstr(out, "from key 0 \"roll\"\n") != NULL, "%s", out);
    free(out);
}
END_TEST

/* A scene of many bodies: the summary lists 20 and says how many more. */
START_TEST(test_summary_lists_at_most_20_bodies)
{
    char sc[512], *out;
    tmp_path(sc, sizeof sc, "many.xml");
    FILE *f = fopen(sc, "w");
    ck_assert(f != NULL);
    fputs("<mujoco><worldbody><geom type=\"plane\" size=\"5 5 0.1\"/>\n", f);
    for (int i = 0; i < 23; i++)
        fprintf(f, "<body name=\"s%d\" pos=\"%d 0 0.1\"><freejoint/>"
                   "<geom type=\"sphere\" size=\"0.1\"/></body>\n", i, i);
    fputs("</worldbody></mujoco>\n", f);
    fclose(f);
    const char *a[] = {"run", sc, "--steps", "5", NULL};
    ck_assert_int_eq(run(a, &out, NULL), 0);
    int listed = 0;
    for (const char *p = out; (p = strstr(p, " pos (")) != NULL; p++) listed++;
    ck_assert_int_eq(listed, 20);
    ck_assert_msg(strstr(out, "  s19 ") != NULL && strstr(out, "  s20 ") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "... and 3 more bodies") != NULL, "%s", out);
    free(out);
    /* 20 or fewer: no such line */
    scene(sc, sizeof sc, "sphere_plane.xml");
    const char *b[] = {"run", sc, "--steps", "5", NULL};
    ck_assert_int_eq(run(b, &out, NULL), 0);
    ck_assert(strstr(out, "more bod") == NULL);
    free(out);
}
END_TEST

/* Same inputs, same bytes. */
START_TEST(test_deterministic)
{
    char sc[512], r1[512], c1[512], r2[512], c2[512];
    scene(sc, sizeof sc, "aniso_box_condim6.xml");
    tmp_path(r1, sizeof r1, "r1.csv");
    tmp_path(c1, sizeof c1, "c1.csv");
    tmp_path(r2, sizeof r2, "r2.csv");
    tmp_path(c2, sizeof c2, "c2.csv");
    const char *a1[] = {"run", sc, "--steps", "300", "--record", r1, "--contacts", c1, "--quiet", NULL};
    const char *a2[] = {"run", sc, "--steps", "300", "--record", r2, "--contacts", c2, "--quiet", NULL};
    ck_assert_int_eq(run(a1, NULL, NULL), 0);
    ck_assert_int_eq(run(a2, NULL, NULL), 0);
    size_t n1, n2, m1, m2;
    char *x1 = slurp(r1, &n1), *x2 = slurp(r2, &n2), *y1 = slurp(c1, &m1), *y2 = slurp(c2, &m2);
    ck_assert(n1 > 1000 && m1 > 1000);
    ck_assert(n1 == n2 && memcmp(x1, x2, n1) == 0);
    ck_assert(m1 == m2 && memcmp(y1, y2, m1) == 0);
    free(x1), free(x2), free(y1), free(y2);
}
END_TEST

/* --set overrides an option without editing the file: incline_stick.xml says impratio="10",
 * so --set option.impratio=10 changes nothing and impratio=1 (faster creep) changes the
 * trajectory. */
START_TEST(test_set_override)
{
    char sc[512], r0[512], r1[512], r2[512];
    scene(sc, sizeof sc, "incline_stick.xml");
    tmp_path(r0, sizeof r0, "r0.csv");
    tmp_path(r1, sizeof r1, "r1.csv");
    tmp_path(r2, sizeof r2, "r2.csv");
    const char *a0[] = {"run", sc, "--steps", "200", "--record", r0, "--quiet", NULL};
    const char *a1[] = {"run", sc, "--steps", "200", "--record", r1, "--quiet", "--set",
                        "option.impratio=10", NULL};
    const char *a2[] = {"run", sc, "--steps", "200", "--record", r2, "--quiet", "--set",
                        "impratio=1", NULL};
    /* every <option> attribute the loader reads can be set: a fluid with wind moves the box */
    const char *a3[] = {"run", sc, "--steps", "200", "--record", r2, "--quiet", "--set",
                        "option.viscosity=0.5", "--set", "option.wind[0]=30", NULL};
    ck_assert_int_eq(run(a0, NULL, NULL), 0);
    ck_assert_int_eq(run(a1, NULL, NULL), 0);
    ck_assert_int_eq(run(a2, NULL, NULL), 0);
    size_t n0, n1, n2;
    char *x0 = slurp(r0, &n0), *x1 = slurp(r1, &n1), *x2 = slurp(r2, &n2);
    ck_assert(n0 == n1 && memcmp(x0, x1, n0) == 0);
    ck_assert(n0 != n2 || memcmp(x0, x2, n0) != 0);
    free(x2);
    ck_assert_int_eq(run(a3, NULL, NULL), 0);
    x2 = slurp(r2, &n2);
    ck_assert(n0 != n2 || memcmp(x0, x2, n0) != 0);
    free(x0), free(x1), free(x2);
}
END_TEST

/* Whole rows of whole steps: every line complete with 16 fields, and each step holds all
 * three bodies. */
static long check_whole_traj(const char *path)
{
    char *t = slurp(path, NULL);
    ck_assert(t != NULL);
    size_t len = strlen(t);
    ck_assert_msg(len > 0 && t[len - 1] == '\n', "recording ends inside a row");
    ck_assert(strncmp(t, TRAJ_HEADER, strlen(TRAJ_HEADER)) == 0);
    long rows = 0, last = -1;
    char *p = strchr(t, '\n') + 1, *f[32];
    while (*p) {
        char *e = strchr(p, '\n');
        *e = 0;
        ck_assert_int_eq(fields(p, f, 32), 16);
        last = parse_step(f[0]);
        ck_assert_int_eq(last, rows / 3);
        for (int j = 3; j < 16; j++) check_g17(f[j]);
        rows++;
        p = e + 1;
    }
    free(t);
    ck_assert_int_eq(rows % 3, 0);
    return rows;
}

static void wait_for_rows(const char *path)
{
    struct stat sb;
    struct timespec ts = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 3000; i++) { /* up to 30 s (ASan builds are slow) */
        if (stat(path, &sb) == 0 && sb.st_size > 4096) return;
        nanosleep(&ts, NULL);
    }
    ck_abort_msg("no rows written to %s", path);
}

/* SIGINT: the run stops after the current step, closes whole rows, exits 130; while it
 * runs, what is on disk is already whole rows. SIGTERM exits 143. */
START_TEST(test_signals)
{
    char sc[512], rec[512], con[512];
    scene(sc, sizeof sc, "box_stack.xml");
    tmp_path(rec, sizeof rec, "sig.csv");
    tmp_path(con, sizeof con, "sigc.csv");
    const char *a[] = {"run", sc, "--steps", "100000000", "--record", rec, "--contacts", con,
                       "--quiet", NULL};
    static const int sig[] = {SIGINT, SIGTERM}, code[] = {130, 143};
    for (int i = 0; i < 2; i++) {
        unlink(rec);
        pid_t pid = start(a);
        wait_for_rows(rec);
        /* mid-run: stopped between system calls, the file holds whole rows */
        ck_assert_int_eq(kill(pid, SIGSTOP), 0);
        int st;
        ck_assert_int_eq(waitpid(pid, &st, WUNTRACED), pid);
        ck_assert(WIFSTOPPED(st));
        long mid = check_whole_traj(rec);
        ck_assert_int_eq(kill(pid, SIGCONT), 0);
        ck_assert_int_eq(kill(pid, sig[i]), 0);
        ck_assert_int_eq(finish(pid), code[i]);
        long end = check_whole_traj(rec);
        ck_assert(end >= mid && end > 0);
        /* the contact file too: whole rows of 25 fields, whole steps of 12 contacts */
        char *c = slurp(con, NULL), *f[32];
        size_t len = strlen(c);
        ck_assert(len > 0 && c[len - 1] == '\n');
        long rows = 0;
        for (char *p = strchr(c, '\n') + 1; *p;) {
            char *e = strchr(p, '\n');
            *e = 0;
            ck_assert_int_eq(fields(p, f, 32), 25);
            ck_assert_int_eq(parse_step(f[0]), rows / 12);
            rows++;
            p = e + 1;
        }
        ck_assert(rows > 0 && rows % 12 == 0);
        free(c);
        char p[512];
        tmp_path(p, sizeof p, "stderr.txt");
        char *err = slurp(p, NULL);
        ck_assert_msg(strstr(err, "interrupted") != NULL, "stderr: %s", err);
        free(err);
    }
}
END_TEST

/* The progress bar: on a terminal only, and not with --quiet. */
static char *run_on_pty(const char *const *args)
{
    const char *argv[16];
    int n = 0, fd;
    argv[n++] = conesim;
    for (; *args; args++) argv[n++] = *args;
    argv[n] = NULL;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    ck_assert(pid >= 0);
    if (pid == 0) {
        execv(conesim, (char *const *)argv);
        _exit(127);
    }
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    ck_assert(s != NULL);
    for (;;) { /* until the child closes the terminal (EIO on Linux) */
        ssize_t r = read(fd, s + len, cap - len - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        len += (size_t)r;
        ck_assert(len < cap - 1);
    }
    s[len] = 0;
    close(fd);
    ck_assert_int_eq(finish(pid), 0);
    return s;
}

START_TEST(test_progress_tty)
{
    char sc[512];
    scene(sc, sizeof sc, "sphere_plane.xml");
    const char *a[] = {"run", sc, "--steps", "2000", NULL};
    const char *q[] = {"run", sc, "--steps", "2000", "--quiet", NULL};
    char *o = run_on_pty(a);
    ck_assert_msg(strstr(o, "\r[") != NULL && strstr(o, "100%") != NULL, "no bar: %s", o);
    ck_assert(strstr(o, "normal forces at the final state") != NULL);
    free(o);
    o = run_on_pty(q);
    ck_assert_msg(strstr(o, "\r[") == NULL, "bar with --quiet: %s", o); /* (the pty turns \n into \r\n) */
    ck_assert(strstr(o, "normal forces at the final state") != NULL);
    free(o);
}
END_TEST

/* ---- exit codes ------------------------------------------------------------------------- */
START_TEST(test_unwritable_output)
{
    char sc[512], ok[512];
    scene(sc, sizeof sc, "sphere_plane.xml");
    tmp_path(ok, sizeof ok, "ok.csv");
    const char *bad = "/nonexistent-dir-conesim/x.csv";
    const char *a1[] = {"run", sc, "--steps", "1000000000", "--record", bad, NULL};
    const char *a2[] = {"run", sc, "--steps", "1000000000", "--record", ok, "--contacts", bad, NULL};
    const char *const *as[] = {a1, a2};
    for (int i = 0; i < 2; i++) {
        char *out, *err;
        /* fails before running: a billion steps would not finish within the test's timeout */
        ck_assert_int_eq(run(as[i], &out, &err), 4);
        ck_assert_msg(strstr(err, bad) != NULL, "message does not name the file: %s", err);
        ck_assert_msg(strstr(out, "steps") == NULL, "it ran: %s", out);
        free(out), free(err);
    }
    /* a write error during the run (a full disk) is exit 4 too */
    const char *a3[] = {"run", sc, "--steps", "100000", "--record", "/dev/full", "--quiet", NULL};
    if (access("/dev/full", W_OK) == 0) {
        char *err;
        ck_assert_int_eq(run(a3, NULL, &err), 4);
        ck_assert(strstr(err, "/dev/full") != NULL);
        free(err);
    }
}
END_TEST

START_TEST(test_bad_command_line)
{
    char sc[512];
    scene(sc, sizeof sc, "sphere_plane.xml");
    const char *cases[][8] = {
        {"run", NULL},                                    /* no scene */
        {"run", sc, "--frobnicate", NULL},                /* unknown option */
        {"run", sc, "--steps", NULL},                     /* missing value */
        {"run", sc, "--steps", "1.5", NULL},              /* not an integer */
        {"run", sc, "--steps", "-1", NULL},
        {"run", sc, "--steps", "5", "--duration", "1", NULL},
        {"run", sc, "--duration", "nan", NULL},
        {"run", sc, "--every", "0", NULL},
        {"run", sc, "--timestep", "0", NULL},
        {"run", sc, "--solver", "simplex", NULL},
        {"run", sc, "--cone", "round", NULL},
        {"run", sc, "--iterations", "-3", NULL},
        {"run", sc, "--set", "impratio", NULL},           /* no '=' */
        {"run", sc, "--set", "option.nosuch=1", NULL},
        {"run", sc, "--set", "option.viscosity=-1", NULL},
        {"run", sc, "--set", "option.wind[3]=1", NULL},
        {"run", sc, "--key", "0", NULL},                  /* the scene has no keyframe */
        {"run", sc, sc, NULL},                            /* two scenes */
        /* more steps than a long counts: refused, not run as 0 steps */
        {"run", sc, "--duration", "1e18", NULL},
        {"run", sc, "--timestep", "1e-300", NULL},
        {"run", sc, "--set", "timestep=4.9e-324", NULL},
        /* one file for two outputs would interleave their rows */
        {"run", sc, "--record", "/tmp/cs-same.csv", "--contacts", "/tmp/cs-same.csv", NULL},
        {"run", sc, "--record", "/tmp/cs-same.csv", "--solver-log", "/tmp/./cs-same.csv", NULL},
        {"run", sc, "--contacts", "/tmp/cs-same.csv", "--solver-log", "/tmp//cs-same.csv", NULL},
        {"run", sc, "--limits", "/tmp/cs-same.csv", "--joints", "/tmp/cs-same.csv", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int rc = run(cases[i], &out, &err);
        ck_assert_msg(rc == 2, "case %zu (%s): exit %d", i, cases[i][2] ? cases[i][2] : "-", rc);
        ck_assert_msg(strlen(err) > 0, "case %zu: no message", i);
        ck_assert_msg(strstr(out, "steps") == NULL, "case %zu ran", i);
        free(out), free(err);
    }
    /* the refused outputs were not created */
    ck_assert_int_ne(access("/tmp/cs-same.csv", F_OK), 0);
}
END_TEST

START_TEST(test_bad_scene)
{
    char bad[512], *err;
    snprintf(bad, sizeof bad, "%s/bad/hinge_joint.xml", CS_TEST_DATA);
    const char *a[] = {"run", bad, NULL};
    ck_assert_int_eq(run(a, NULL, &err), 3);
    /* FILE:LINE: what is wrong */
    char want[600];
    snprintf(want, sizeof want, "%s:", bad);
    char *p = strstr(err, want);
    ck_assert_msg(p != NULL, "stderr: %s", err);
    p += strlen(want);
    ck_assert_msg(*p >= '1' && *p <= '9', "no line number: %s", err);
    free(err);
    const char *b[] = {"run", "/nonexistent-scene.xml", NULL};
    ck_assert_int_eq(run(b, NULL, &err), 3);
    ck_assert(strstr(err, "/nonexistent-scene.xml") != NULL);
    free(err);
    /* a bare name found nowhere: the message says where it was looked for */
    setenv("CONESIM_SCENES", "/nonexistent-scene-dir", 1);
    const char *c[] = {"run", "nonexistent-scene.xml", NULL};
    ck_assert_int_eq(run(c, NULL, &err), 3);
    ck_assert_msg(strstr(err, "nonexistent-scene.xml:0: cannot read the file") != NULL &&
                      strstr(err, "looked in the working directory, in $CONESIM_SCENES "
                                  "/nonexistent-scene-dir") != NULL,
                  "stderr: %s", err);
    free(err);
    unsetenv("CONESIM_SCENES");
}
END_TEST

/* Divergence: an absurd gravity overflows the state to Inf/NaN; exit 1 after a warning
 * naming the step and the body. */
START_TEST(test_diverged)
{
    char sc[512], *err;
    scene(sc, sizeof sc, "sphere_plane.xml");
    const char *a[] = {"run", sc, "--timestep", "1e200", "--steps", "100", "--quiet", NULL};
    ck_assert_int_eq(run(a, NULL, &err), 1);
    ck_assert_msg(strstr(err, "diverged at step 1 ") != NULL, "stderr: %s", err);
    ck_assert_msg(strstr(err, "ball") != NULL, "stderr: %s", err);
    free(err);
}
END_TEST

/* At divergence the recordings end at the last finite state: no contact row with an
 * infinite force or NaN friction, a trajectory ending with the state the warning names,
 * and a summary without inf or nan. Gravity 1e307 overflows the ball's velocity in the
 * second step; the forces of that step are already infinite. */
START_TEST(test_diverged_recordings_finite)
{
    char sc[512], rec[512], con[512], *out, *err;
    scene(sc, sizeof sc, "sphere_plane.xml");
    tmp_path(rec, sizeof rec, "div.csv");
    tmp_path(con, sizeof con, "divc.csv");
    for (int every = 1; every <= 5; every += 4) {
        char ev[8];
        snprintf(ev, sizeof ev, "%d", every);
        const char *a[] = {"run", sc, "--set", "option.gravity=0 0 -1e307", "--steps", "50",
                           "--record", rec, "--contacts", con, "--every", ev, "--quiet", NULL};
        ck_assert_int_eq(run(a, &out, &err), 1);
        long last = -1;
        const char *at = strstr(err, "recordings end at step ");
        ck_assert_msg(at != NULL, "stderr: %s", err);
        last = strtol(at + strlen("recordings end at step "), NULL, 10);
        ck_assert_msg(strstr(out, "inf") == NULL && strstr(out, "nan") == NULL, "summary: %s", out);
        char *t = slurp(rec, NULL), *line[64], *f[32];
        int n = lines(t, line, 64);
        ck_assert_int_ge(n, 2);
        for (int i = 1; i < n; i++) {
            ck_assert_int_eq(fields(line[i], f, 32), 16);
            for (int j = 1; j < 16; j++) ck_assert_msg(isfinite(strtod(f[j], NULL)), "%s", f[j]);
        }
        ck_assert_int_eq(parse_step(f[0]), last); /* the last row is the state it stopped at */
        free(t);
        char *c = slurp(con, NULL), *cl[64];
        n = lines(c, cl, 64);
        for (int i = 1; i < n; i++) {
            ck_assert_int_eq(fields(cl[i], f, 32), 25);
            ck_assert(parse_step(f[0]) < last);
            for (int j = 5; j < 24; j++) ck_assert_msg(isfinite(strtod(f[j], NULL)), "%s", f[j]);
        }
        free(c), free(out), free(err);
    }
}
END_TEST

/* Contacts dropped because the contact array is full: one warning with the count, and the
 * summary says on how many steps. 20 coincident boxes on a plane make far more than the
 * 40 contacts this scene has room for. */
START_TEST(test_contact_capacity)
{
    char sc[512], *out, *err;
    tmp_path(sc, sizeof sc, "pile.xml");
    FILE *f = fopen(sc, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "<mujoco><size nconmax=\"40\"/><worldbody>"
               "<geom type=\"plane\" size=\"5 5 0.1\"/>");
    for (int i = 0; i < 20; i++)
        fprintf(f, "<body pos=\"0 0 0.1\"><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\"/>"
                   "</body>");
    fprintf(f, "</worldbody></mujoco>\n");
    fclose(f);
    const char *a[] = {"run", sc, "--steps", "3", "--quiet", NULL};
    ck_assert_int_eq(run(a, &out, &err), 0);
    const char *w = strstr(err, "more contacts than the capacity (40)");
    ck_assert_msg(w != NULL, "stderr: %s", err);
    ck_assert_msg(strstr(w + strlen("more contacts than the capacity"), "capacity") == NULL, "warned more than once: %s", err);
    ck_assert_msg(strstr(w, " dropped") != NULL, "no count: %s", err);
    ck_assert_msg(strstr(out, "contacts dropped at the capacity (40") != NULL, "summary: %s", out);
    ck_assert_msg(strstr(out, "on 3 of 3 steps") != NULL, "summary: %s", out);
    free(out), free(err);
}
END_TEST

/* <size memory> as MuJoCo reads it: bytes with an optional K..E suffix; anything else is a
 * bad scene (exit 3, FILE:LINE: what is wrong). */
START_TEST(test_size_memory_bad)
{
    const char *bad[] = {"16X", "-5", "1.5M", "1M 2", "", "99999999999E"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char sc[512], *out, *err;
        tmp_path(sc, sizeof sc, "memory.xml");
        FILE *f = fopen(sc, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "<mujoco>\n<size memory=\"%s\"/>\n<worldbody><geom type=\"plane\" "
                   "size=\"1 1 0.1\"/></worldbody></mujoco>\n", bad[i]);
        fclose(f);
        const char *a[] = {"run", sc, "--steps", "1", "--quiet", NULL};
        int rc = run(a, &out, &err);
        ck_assert_msg(rc == 3, "memory=\"%s\": exit %d, stderr: %s", bad[i], rc, err);
        char want[600];
        snprintf(want, sizeof want, "%s:2: element <size> attribute 'memory': ", sc);
        ck_assert_msg(strstr(err, want) != NULL, "memory=\"%s\": stderr: %s", bad[i], err);
        free(out), free(err);
    }
    /* and the good forms load: "-1" (MuJoCo's own guess), plain bytes, a lower-case suffix */
    const char *good[] = {"-1", "1000000", "16m", "2G"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char sc[512], *out, *err;
        tmp_path(sc, sizeof sc, "memory.xml");
        FILE *f = fopen(sc, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "<mujoco><size memory=\"%s\"/><worldbody><geom type=\"plane\" "
                   "size=\"1 1 0.1\"/></worldbody></mujoco>\n", good[i]);
        fclose(f);
        const char *a[] = {"run", sc, "--steps", "1", "--quiet", NULL};
        int rc = run(a, &out, &err);
        ck_assert_msg(rc == 0, "memory=\"%s\": exit %d, stderr: %s", good[i], rc, err);
        free(out), free(err);
    }
}
END_TEST

/* Out of memory has its own exit code (6) and message in every command that simulates:
 * a contact capacity of a billion cannot be allocated (the address space is limited too,
 * where the sanitizer allows it, so that overcommitting kernels refuse it as well). */
START_TEST(test_out_of_memory)
{
    char sc[512];
    tmp_path(sc, sizeof sc, "huge.xml");
    FILE *f = fopen(sc, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "<mujoco><size nconmax=\"1000000000\"/><worldbody>"
               "<geom type=\"plane\" size=\"1 1 0.1\"/><body pos=\"0 0 0.1\"><freejoint/>"
               "<geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>\n");
    fclose(f);
    const char *old = getenv("ASAN_OPTIONS");
    char asan[1024];
    snprintf(asan, sizeof asan, "%s%sallocator_may_return_null=1", old ? old : "", old ? ":" : "");
    char *saved = old ? strdup(old) : NULL;
    setenv("ASAN_OPTIONS", asan, 1);
#if !defined(__SANITIZE_ADDRESS__)
    child_as_limit = (rlim_t)4 << 30;
#endif
    const char *cmds[][8] = {
        {"run", sc, "--steps", "2", "--quiet", NULL},
        {"view", sc, "--screenshot", "/tmp/cs-oom.png", NULL},
        {"bench", sc, "--steps", "2", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *out, *err;
        int rc = run(cmds[i], &out, &err);
        ck_assert_msg(rc == 6, "%s: exit %d, stderr: %s", cmds[i][0], rc, err);
        ck_assert_msg(strstr(err, "out of memory") != NULL, "%s: stderr: %s", cmds[i][0], err);
        free(out), free(err);
    }
    child_as_limit = 0;
    if (saved) setenv("ASAN_OPTIONS", saved, 1);
    else unsetenv("ASAN_OPTIONS");
    free(saved);
}
END_TEST

/* A scene that is a FIFO nobody writes to: reading it blocks, and SIGINT must still end the
 * run (exit 130). The signal is sent once conesim (not the forked test before its exec,
 * which has the test runner's handlers) has installed its handler (SigCgt), and again
 * until the process ends, so no timing matters. */
static int catches_sigint(pid_t pid)
{
    char p[64], line[256];
    snprintf(p, sizeof p, "/proc/%d/comm", (int)pid);
    FILE *cf = fopen(p, "r");
    if (!cf) return 0;
    int is_conesim = fgets(line, sizeof line, cf) && strncmp(line, "conesim", 7) == 0;
    fclose(cf);
    if (!is_conesim) return 0;
    snprintf(p, sizeof p, "/proc/%d/status", (int)pid);
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    int yes = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "SigCgt:", 7) == 0) yes = (strtoull(line + 7, NULL, 16) >> (SIGINT - 1)) & 1;
    fclose(f);
    return yes;
}

START_TEST(test_fifo_scene_interruptible)
{
    char fifo[512];
    tmp_path(fifo, sizeof fifo, "scene.fifo");
    unlink(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *a[] = {"run", fifo, "--quiet", NULL};
    pid_t pid = start(a);
    struct timespec ts = {0, 20 * 1000 * 1000};
    int i;
    for (i = 0; i < 3000 && !catches_sigint(pid); i++) nanosleep(&ts, NULL);
    ck_assert_msg(i < 3000, "conesim never installed its SIGINT handler");
    int st = 0;
    pid_t w = 0;
    for (i = 0; i < 1500 && (w = waitpid(pid, &st, WNOHANG)) == 0; i++) {
        kill(pid, SIGINT);
        nanosleep(&ts, NULL);
    }
    if (w == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        ck_abort_msg("SIGINT did not end a run blocked on reading a FIFO");
    }
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 130);
    char p[512];
    tmp_path(p, sizeof p, "stderr.txt");
    char *err = slurp(p, NULL);
    ck_assert_msg(strstr(err, "interrupted") != NULL, "stderr: %s", err);
    free(err);
    unlink(fifo);
}
END_TEST

/* SIGHUP is handled as SIGTERM (exit 129), and with --every K an interrupted recording
 * still ends with the state the run stopped at. */
START_TEST(test_interrupt_every)
{
    char sc[512], rec[512];
    scene(sc, sizeof sc, "box_stack.xml");
    tmp_path(rec, sizeof rec, "every.csv");
    unlink(rec);
    const char *a[] = {"run", sc, "--steps", "100000000", "--every", "97", "--record", rec,
                       "--quiet", NULL};
    pid_t pid = start(a);
    wait_for_rows(rec);
    ck_assert_int_eq(kill(pid, SIGHUP), 0);
    ck_assert_int_eq(finish(pid), 129);
    char p[512];
    tmp_path(p, sizeof p, "stderr.txt");
    char *err = slurp(p, NULL);
    const char *at = strstr(err, "interrupted after step ");
    ck_assert_msg(at != NULL, "stderr: %s", err);
    long stopped = strtol(at + strlen("interrupted after step "), NULL, 10);
    free(err);
    char *t = slurp(rec, NULL), *line[1 << 16], *f[32];
    int n = lines(t, line, 1 << 16);
    ck_assert_int_ge(n, 7);
    long prev = -1;
    for (int i = 1; i < n; i++) {
        ck_assert_int_eq(fields(line[i], f, 32), 16);
        long k = parse_step(f[0]);
        /* rows of steps 0, 97, 194, ... then the final state, three bodies each */
        ck_assert(k % 97 == 0 || (i >= n - 3 && k == stopped));
        if ((i - 1) % 3 == 0) {
            ck_assert(k > prev);
            prev = k;
        }
    }
    ck_assert_int_eq(prev, stopped);
    free(t);
}
END_TEST

/* A signal ignored when the run starts (nohup, a script's background job) stays ignored:
 * after SIGHUP the recording keeps growing; SIGTERM then stops the run (143). */
START_TEST(test_ignored_hup)
{
    char sc[512], rec[512];
    scene(sc, sizeof sc, "box_stack.xml");
    tmp_path(rec, sizeof rec, "hup.csv");
    unlink(rec);
    const char *a[] = {"run", sc, "--steps", "100000000", "--record", rec, "--quiet", NULL};
    child_ignore_hup = 1;
    pid_t pid = start(a); /* starts with SIGHUP ignored, as under nohup */
    child_ignore_hup = 0;
    wait_for_rows(rec);
    ck_assert_int_eq(kill(pid, SIGHUP), 0);
    struct stat sb;
    ck_assert_int_eq(stat(rec, &sb), 0);
    off_t size = sb.st_size;
    struct timespec ts = {0, 10 * 1000 * 1000};
    int grew = 0, st;
    for (int i = 0; i < 3000 && !grew; i++) { /* up to 30 s */
        ck_assert_msg(waitpid(pid, &st, WNOHANG) == 0, "the run ended on an ignored SIGHUP");
        grew = stat(rec, &sb) == 0 && sb.st_size > size + 8192;
        if (!grew) nanosleep(&ts, NULL);
    }
    ck_assert_msg(grew, "the recording stopped growing after an ignored SIGHUP");
    ck_assert_int_eq(kill(pid, SIGTERM), 0);
    ck_assert_int_eq(finish(pid), 143);
    unlink(rec);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("run-cli");
    TCase *t = tcase_create("run");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_csv_formats_every);
    tcase_add_test(t, test_limits_csv);
    tcase_add_test(t, test_steps_duration);
    tcase_add_test(t, test_quickstart_summary);
    tcase_add_test(t, test_summary_names_the_start);
    tcase_add_test(t, test_summary_lists_at_most_20_bodies);
    tcase_add_test(t, test_deterministic);
    tcase_add_test(t, test_set_override);
    tcase_add_test(t, test_signals);
    tcase_add_test(t, test_progress_tty);
    tcase_add_test(t, test_unwritable_output);
    tcase_add_test(t, test_bad_command_line);
    tcase_add_test(t, test_bad_scene);
    tcase_add_test(t, test_diverged);
    tcase_add_test(t, test_diverged_recordings_finite);
    tcase_add_test(t, test_contact_capacity);
    tcase_add_test(t, test_size_memory_bad);
    tcase_add_test(t, test_out_of_memory);
    tcase_add_test(t, test_fifo_scene_interruptible);
    tcase_add_test(t, test_interrupt_every);
    tcase_add_test(t, test_ignored_hup);
    suite_add_tcase(s, t);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_run_cli PATH/TO/conesim\n");
        return 2;
    }
    conesim = argv[1];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/conesim-run-cli-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    /* leave nothing behind */
    static const char *files[] = {"stdout.txt", "stderr.txt", "traj.csv", "contacts.csv",
                                  "traj0.csv", "r1.csv", "c1.csv", "r2.csv", "c2.csv",
                                  "sig.csv", "sigc.csv", "hup.csv", "ok.csv", "r0.csv"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[512];
        tmp_path(p, sizeof p, files[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
