/* `conesim bench` end to end: the shape of the table and of the CSV (never a timing), the
 * counts a scene fixes (a sphere resting on a plane has one contact at every step), and the
 * exit codes of bad input. argv[1] is the conesim executable, argv[2] the source root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_capture.h"

static const char *exe, *root;

/* run `conesim bench ARGS` from the source root, stdout and stderr captured separately */
static void run(result *r, const char *args)
{
    char prefix[2048];
    snprintf(prefix, sizeof prefix, "cd '%s' && '%s' bench", root, exe);
    run_capture(r, prefix, args);
}

/* split a line in place; returns the field count. Runs of blanks are one separator (the
 * table); every comma separates, so empty CSV fields count. */
static int split(char *line, const char *sep, char **field, int max)
{
    int n = 0;
    if (strcmp(sep, ",") == 0) {
        for (char *p = line; n < max;) {
            field[n++] = p;
            p = strchr(p, ',');
            if (!p) break;
            *p++ = 0;
        }
        return n;
    }
    for (char *t = strtok(line, sep); t && n < max; t = strtok(NULL, sep)) field[n++] = t;
    return n;
}

/* the n-th line (0-based) of text into buf */
static int line_of(const char *text, int n, char *buf, size_t cap)
{
    const char *p = text;
    for (int i = 0; i < n; i++) {
        p = strchr(p, '\n');
        if (!p) return 0;
        p++;
    }
    if (!*p) return 0;
    size_t len = strcspn(p, "\n");
    if (len >= cap) len = cap - 1;
    memcpy(buf, p, len);
    buf[len] = 0;
    return 1;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++) n += *p == '\n';
    return n;
}

/* the table's columns: scene bodies geoms steps wall cpu steps/s realtime contacts rows iterations
 * kin collide smooth constr integ data rss contact */
enum { NCOL = 19 };

START_TEST(table_shape)
{
    result r;
    run(&r, "scenes/sphere_plane.xml bench/tower_10.xml --steps 5");
    ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
    ck_assert_int_eq(count_lines(r.out), 4); /* two header lines, one row per scene */
    char line[1024], *f[64];
    ck_assert(line_of(r.out, 0, line, sizeof line));
    int n = split(line, " ", f, 64);
    ck_assert_int_eq(n, NCOL);
    ck_assert_str_eq(f[0], "scene");
    ck_assert_str_eq(f[3], "steps");
    ck_assert_str_eq(f[8], "contacts");
    ck_assert_str_eq(f[10], "iterations");

    ck_assert(line_of(r.out, 2, line, sizeof line));
    n = split(line, " ", f, 64);
    ck_assert_int_eq(n, NCOL);
    ck_assert_str_eq(f[0], "sphere_plane");
    ck_assert_str_eq(f[1], "1");  /* bodies, the world not counted */
    ck_assert_str_eq(f[2], "2");  /* plane + sphere */
    ck_assert_str_eq(f[3], "5");
    ck_assert_str_eq(f[8], "1.0/1"); /* resting on the plane: one contact at every step */
    ck_assert(atof(f[6]) > 0);       /* steps/s */

    ck_assert(line_of(r.out, 3, line, sizeof line));
    n = split(line, " ", f, 64);
    ck_assert_int_eq(n, NCOL);
    ck_assert_str_eq(f[0], "tower_10");
    ck_assert_str_eq(f[1], "10");
    ck_assert_str_eq(f[3], "5");
}
END_TEST

START_TEST(no_stages_drops_columns)
{
    result r;
    run(&r, "scenes/sphere_plane.xml --steps 3 --no-stages --repeat 2 --warmup 2");
    ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
    char line[1024], *f[64];
    ck_assert(line_of(r.out, 2, line, sizeof line));
    ck_assert_int_eq(split(line, " ", f, 64), NCOL - 5);
    ck_assert_str_eq(f[3], "3");
}
END_TEST

START_TEST(csv_shape)
{
    char path[] = "/tmp/conesim-bench-csv-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    char args[512];
    snprintf(args, sizeof args, "scenes/sphere_plane.xml scenes/box_stack.xml --steps 4 --csv '%s'",
             path);
    result r;
    run(&r, args);
    ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
    char text[8192], line[2048], *f[64];
    slurp(path, text, sizeof text);
    remove(path);
    ck_assert_int_eq(count_lines(text), 3);
    ck_assert(line_of(text, 0, line, sizeof line));
    int ncol = split(line, ",", f, 64);
    ck_assert_int_eq(ncol, 27);
    ck_assert_str_eq(f[0], "scene");
    ck_assert_str_eq(f[7], "steps");
    ck_assert_str_eq(f[13], "contacts_max");
    ck_assert_str_eq(f[ncol - 1], "status");
    ck_assert(line_of(text, 2, line, sizeof line));
    ck_assert_int_eq(split(line, ",", f, 64), ncol);
    ck_assert_str_eq(f[0], "scenes/box_stack.xml");
    ck_assert_str_eq(f[1], "3");
    ck_assert_str_eq(f[3], "18"); /* dofs: 3 free joints */
    ck_assert_str_eq(f[4], "newton");   /* the scene names none: MuJoCo's default */
    ck_assert_str_eq(f[5], "elliptic"); /* as the scene says */
    ck_assert_str_eq(f[7], "4");
    ck_assert_str_eq(f[ncol - 1], "ok");
}
END_TEST

START_TEST(overrides_reach_the_model)
{
    char path[] = "/tmp/conesim-bench-csv-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    char args[512];
    snprintf(args, sizeof args,
             "scenes/sphere_plane.xml --steps 2 --solver newton --cone pyramidal "
             "--timestep 0.001 --contact coulomb --csv '%s'", path);
    result r;
    run(&r, args);
    ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
    char text[8192], line[2048], *f[64];
    slurp(path, text, sizeof text);
    remove(path);
    ck_assert(line_of(text, 1, line, sizeof line));
    ck_assert_int_eq(split(line, ",", f, 64), 27);
    ck_assert_str_eq(f[4], "newton");
    ck_assert_str_eq(f[5], "pyramidal");
    ck_assert_str_eq(f[6], "0.001");
    ck_assert_str_eq(f[25], "coulomb"); /* --contact reaches the model */
}
END_TEST

START_TEST(duration_counts_steps)
{
    result r;
    run(&r, "scenes/sphere_plane.xml --duration 0.01 --no-stages");
    ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
    char line[1024], *f[64];
    ck_assert(line_of(r.out, 2, line, sizeof line));
    split(line, " ", f, 64);
    ck_assert_str_eq(f[3], "5"); /* 0.01 s / 0.002 s */
}
END_TEST

START_TEST(default_set)
{
    result r;
    run(&r, "--steps 1 --no-stages"); /* no scene: bench/ then scenes/ */
    ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
    const char *tower = strstr(r.out, "\ntower_10 "), *sphere = strstr(r.out, "\nsphere_plane ");
    ck_assert(tower != NULL);
    ck_assert(sphere != NULL);
    ck_assert(tower < sphere);
    ck_assert_int_ge(count_lines(r.out), 2 + 10 + 1);
}
END_TEST

START_TEST(bad_command_line)
{
    static const char *const bad[] = {
        "scenes/sphere_plane.xml --frobnicate",
        "scenes/sphere_plane.xml --steps 0",
        "scenes/sphere_plane.xml --steps ten",
        "scenes/sphere_plane.xml --steps 3 --duration 1",
        "scenes/sphere_plane.xml --repeat 0",
        "scenes/sphere_plane.xml --warmup -1",
        "scenes/sphere_plane.xml --duration nan",
        "scenes/sphere_plane.xml --set impratio",
        "scenes/sphere_plane.xml --set nosuchoption=1",
        "scenes/sphere_plane.xml --solver simplex",
        "scenes/sphere_plane.xml --steps",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        result r;
        run(&r, bad[i]);
        ck_assert_msg(r.rc == 2, "'%s': rc %d", bad[i], r.rc);
        ck_assert_msg(strlen(r.err) > 0, "'%s': no message", bad[i]);
        ck_assert_msg(r.out[0] == 0, "'%s': printed a table", bad[i]);
    }
}
END_TEST

START_TEST(bad_scene)
{
    result r;
    /* the bad scene comes second: nothing is timed before the scenes are checked */
    run(&r, "scenes/sphere_plane.xml tests/data/bad/hinge_joint.xml --steps 2");
    ck_assert_int_eq(r.rc, 3);
    ck_assert_msg(strstr(r.err, "hinge_joint.xml:5:") != NULL, "message: %s", r.err);
    ck_assert_msg(r.out[0] == 0, "printed: %s", r.out);
    run(&r, "no/such/scene.xml");
    ck_assert_int_eq(r.rc, 3);
    ck_assert(strstr(r.err, "no/such/scene.xml") != NULL);
}
END_TEST

START_TEST(unwritable_csv)
{
    result r;
    run(&r, "scenes/sphere_plane.xml --steps 2 --csv /nonexistent/dir/out.csv");
    ck_assert_int_eq(r.rc, 4);
    ck_assert(strstr(r.err, "/nonexistent/dir/out.csv") != NULL);
}
END_TEST

START_TEST(divergence_is_exit_1)
{
    char path[] = "/tmp/conesim-bench-csv-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    char args[512];
    /* gravity near DBL_MAX overflows the velocity within a few steps */
    snprintf(args, sizeof args,
             "scenes/sphere_plane.xml --steps 20 --set 'gravity=0 0 -1.7e308' --csv '%s'", path);
    result r;
    run(&r, args);
    ck_assert_int_eq(r.rc, 1);
    ck_assert(strstr(r.err, "diverged") != NULL);
    ck_assert(strstr(r.out, "DIVERGED") != NULL);
    char text[8192], line[2048], *f[64];
    slurp(path, text, sizeof text);
    remove(path);
    ck_assert(line_of(text, 1, line, sizeof line));
    int n = split(line, ",", f, 64);
    ck_assert_int_eq(n, 27);
    ck_assert_str_eq(f[n - 1], "diverged");
}
END_TEST

START_TEST(help_documents_options)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' help bench", exe);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, p);
    text[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    static const char *const opts[] = {"--steps", "--duration", "--repeat", "--warmup",
                                       "--csv", "--no-stages", "--solver", "--cone", "--set"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        ck_assert_msg(strstr(text, opts[i]) != NULL, "help lacks %s", opts[i]);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_bench_cli CONESIM SOURCE_ROOT\n");
        return 2;
    }
    exe = argv[1];
    root = argv[2];
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, table_shape);
    tcase_add_test(tc, no_stages_drops_columns);
    tcase_add_test(tc, csv_shape);
    tcase_add_test(tc, overrides_reach_the_model);
    tcase_add_test(tc, duration_counts_steps);
    tcase_add_test(tc, default_set);
    tcase_add_test(tc, bad_command_line);
    tcase_add_test(tc, bad_scene);
    tcase_add_test(tc, unwritable_csv);
    tcase_add_test(tc, divergence_is_exit_1);
    tcase_add_test(tc, help_documents_options);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
