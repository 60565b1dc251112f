/* `conesim view` through the real command (a child process), three groups chosen by argv[1]:
 *   cli     command-line, scene, replay and output errors and their exit codes (no display)
 *   shot    screenshots of every seed scene, pixels of the sphere and the grid, the joints
 *           overlay on an articulated scene, the window loop and replay (needs a display:
 *           run under render/with-display.sh)
 *   forces  the resting sphere of sphere_plane.xml shows its contact-force arrow (needs
 *           the collision and solver modules wired into sim/, and a display) */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conesim.h"
#include "render.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define MAXOUT 8192
static char OUT[MAXOUT]; /* stdout + stderr of the last run */

/* Runs conesim with the given arguments (NULL-terminated); no_display removes DISPLAY
 * from its environment. Returns the exit code (-1 if killed by a signal). */
static int run_once(int no_display, const char *const *args)
{
    char log[] = "/tmp/test_view_cli_out_XXXXXX";
    int fd = mkstemp(log);
    ck_assert_int_ge(fd, 0);
    const char *argv[64];
    int n = 0;
    argv[n++] = CS_CONESIM;
    for (int i = 0; args[i] && n < 63; i++) argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        if (no_display) {
            unsetenv("DISPLAY");
            unsetenv("WAYLAND_DISPLAY");
        }
        execv(CS_CONESIM, (char *const *)argv);
        _exit(127);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    FILE *f = fdopen(fd, "r");
    rewind(f);
    size_t len = fread(OUT, 1, MAXOUT - 1, f);
    OUT[len] = 0;
    fclose(f);
    unlink(log);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (rc != 0) { /* the program's own words, for when the exit status was not expected */
        fprintf(stderr, "conesim");
        for (int i = 0; args[i]; i++) fprintf(stderr, " %s", args[i]);
        fprintf(stderr, "\n  exited %d: %s\n", rc, OUT);
    }
    return rc;
}

/* Runs conesim; in the sanitizer build LeakSanitizer's exit-time scan can itself crash (its
 * tracer stops every thread, Mesa's included, and on a loaded machine it sometimes takes a
 * signal): that is the checker failing, not a finding, so such a run is repeated (twice at
 * most). A leak the checker does report ("detected memory leaks") fails as before. */
static int run_argv(int no_display, const char *const *args)
{
    int rc = run_once(no_display, args);
    for (int k = 0; k < 2 && rc != 0 && strstr(OUT, "LeakSanitizer has encountered a fatal error"); k++)
        rc = run_once(no_display, args);
    return rc;
}

#define RUN(nd, ...) run_argv(nd, (const char *const[]){__VA_ARGS__, NULL})

static const char *scene(const char *name)
{
    static char buf[4][1024];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", CS_SCENES, name);
    return buf[i];
}

/* A fresh empty directory for outputs. */
static char *tmpdir(void)
{
    static char d[64];
    snprintf(d, sizeof d, "/tmp/test_view_cli_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(d));
    return d;
}

static int count_entries(const char *dir)
{
    DIR *dd = opendir(dir);
    ck_assert_ptr_nonnull(dd);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dd)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(dd);
    return n;
}

static void rm_dir(const char *dir)
{
    DIR *dd = opendir(dir);
    if (!dd) return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(dd)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    closedir(dd);
    rmdir(dir);
}

static void expect_out(const char *what)
{
    ck_assert_msg(strstr(OUT, what) != NULL, "output lacks '%s':\n%s", what, OUT);
}

/* ================================================================ cli (no display) */

START_TEST(bad_command_lines_exit_2)
{
    const char *sp = scene("sphere_plane.xml");
    struct {
        const char *args[8];
        const char *msg;
    } cases[] = {
        {{"view"}, "no scene given"},
        {{"view", sp, "--frobnicate"}, "unknown option '--frobnicate'"},
        {{"view", sp, sp}, "more than one scene"},
        {{"view", sp, "--overlay"}, "needs a value"},
        {{"view", sp, "--overlay", "contacts,bogus"}, "unknown overlay 'bogus'"},
        {{"view", sp, "--camera", "90,-45"}, "--camera"},
        {{"view", sp, "--camera", "90,-45,0"}, "--camera"},
        {{"view", sp, "--camera", "a,b,c"}, "--camera"},
        {{"view", sp, "--width", "0"}, "bad value '0' for --width"},
        {{"view", sp, "--height", "12x"}, "bad value '12x' for --height"},
        {{"view", sp, "--steps", "-3"}, "bad value '-3' for --steps"},
        {{"view", sp, "--steps", "5", "--duration", "1"}, "not both"},
        {{"view", sp, "--duration", "inf"}, "bad value 'inf' for --duration"},
        {{"view", sp, "--key", "0"}, "has 0 keyframe(s)"},
        {{"view", sp, "--key", "x"}, "bad value 'x' for --key"},
        {{"view", sp, "--timestep", "-1"}, "must be positive"},
        {{"view", sp, "--cone", "round"}, "cone"},
        {{"view", sp, "--set", "impratio"}, "NAME=VALUE"},
        {{"view", sp, "--set", "option.nosuch=1"}, "nosuch"},
        {{"view", sp, "--screenshot", "x.png", "--frames", "3"}, "--frames"},
        {{"view", sp, "--ctrl", "c.csv", "--replay", "r.csv"}, "give one"},
        {{"view", sp, "--ctrl", "/nonexistent/c.csv"}, "--ctrl"},
        {{"view", sp, "--dump-ctrl", ""}, "bad value '' for --dump-ctrl"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run_argv(1, cases[i].args);
        ck_assert_msg(rc == 2, "case %zu (%s): exit %d, want 2:\n%s", i, cases[i].msg, rc, OUT);
        expect_out(cases[i].msg);
    }
}
END_TEST

START_TEST(bad_scene_exit_3)
{
    int rc = RUN(1, "view", CS_TEST_DATA "/bad/hinge_joint.xml", "--screenshot", "/tmp/x.png");
    ck_assert_int_eq(rc, 3);
    /* The loader's FILE:LINE: message */
    char *p = strstr(OUT, "hinge_joint.xml:");
    ck_assert_msg(p && p[16] >= '1' && p[16] <= '9', "no FILE:LINE in:\n%s", OUT);
    ck_assert_int_eq(RUN(1, "view", "/nonexistent/scene.xml"), 3);
    expect_out("/nonexistent/scene.xml");
}
END_TEST

START_TEST(bad_replay_exit_3)
{
    char *dir = tmpdir();
    char csv[256];
    snprintf(csv, sizeof csv, "%s/bad.csv", dir);
    FILE *f = fopen(csv, "w");
    fputs("step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n0,0,ball,1,2\n", f);
    fclose(f);
    ck_assert_int_eq(RUN(1, "view", scene("ball_roll.xml"), "--replay", csv), 3);
    expect_out("bad.csv:2:");
    ck_assert_int_eq(RUN(1, "view", scene("ball_roll.xml"), "--replay", "/nonexistent.csv"), 3);
    expect_out("/nonexistent.csv");
    /* A recording of ball_roll does not fit box_stack. */
    snprintf(csv, sizeof csv, "%s/ball.csv", dir);
    ck_assert_int_eq(RUN(1, "run", scene("ball_roll.xml"), "--steps", "4", "--quiet", "--record",
                         csv), 0);
    ck_assert_int_eq(RUN(1, "view", scene("box_stack.xml"), "--replay", csv), 3);
    expect_out("'ball' is not a free body");
    rm_dir(dir);
}
END_TEST

START_TEST(unwritable_png_exit_4)
{
    char *dir = tmpdir();
    char png[256];
    snprintf(png, sizeof png, "%s/no/such/dir/shot.png", dir);
    ck_assert_int_eq(RUN(1, "view", scene("sphere_plane.xml"), "--screenshot", png), 4);
    expect_out("cannot write");
    expect_out("shot.png");
    /* A directory is not a PNG. */
    ck_assert_int_eq(RUN(1, "view", scene("sphere_plane.xml"), "--screenshot", dir), 4);
    expect_out("directory");
    ck_assert_int_eq(count_entries(dir), 0);
    rm_dir(dir);
}
END_TEST

START_TEST(no_display_is_a_clear_error)
{
    char *dir = tmpdir();
    char png[256];
    snprintf(png, sizeof png, "%s/shot.png", dir);
    /* An existing file is left as it was, and no temporary file stays behind. */
    FILE *f = fopen(png, "w");
    fputs("old", f);
    fclose(f);
    /* a screenshot takes EGL first, as videos do: only the hidden window needs a display */
    setenv("CONESIM_GL", "glfw", 1);
    int rc = RUN(1, "view", scene("sphere_plane.xml"), "--screenshot", png, "--steps", "3");
    unsetenv("CONESIM_GL");
    ck_assert_int_eq(rc, 5);
    expect_out("xvfb-run");
    ck_assert_int_eq(count_entries(dir), 1);
    struct stat st;
    ck_assert_int_eq(stat(png, &st), 0);
    ck_assert_int_eq(st.st_size, 3);
    /* The window too. */
    ck_assert_int_eq(RUN(1, "view", scene("sphere_plane.xml"), "--frames", "1"), 5);
    expect_out("display");
    rm_dir(dir);
}
END_TEST

/* --screenshot needs no display (EGL, as --video), and looks through a scene camera by
 * name or id; a name the scene has not is a command-line error naming the ones it has */
START_TEST(headless_screenshot_through_a_scene_camera)
{
    char *dir = tmpdir();
    char png[256];
    snprintf(png, sizeof png, "%s/side.png", dir);
    const char *xml = CS_TEST_DATA "/good/visual.xml";
    int rc = RUN(1, "view", xml, "--screenshot", png, "--camera", "side", "--width", "64",
                 "--height", "48");
    if (rc == 5) { /* no EGL here: nothing more to check without a display */
        rm_dir(dir);
        return;
    }
    ck_assert_int_eq(rc, 0);
    int w, h;
    unsigned char *rgb;
    char err[256];
    ck_assert_int_eq(cs_png_read(png, &w, &h, &rgb, err, sizeof err), 0);
    /* the red box in the middle of the side camera's view */
    const unsigned char *c = rgb + 3 * (h / 2 * w + w / 2);
    ck_assert_msg(c[0] > 60 && c[0] > 3 * c[1] && c[0] > 3 * c[2], "centre %d %d %d", c[0], c[1], c[2]);
    free(rgb);
    ck_assert_int_eq(RUN(1, "view", xml, "--screenshot", png, "--camera", "1"), 0);
    ck_assert_int_eq(RUN(1, "view", xml, "--screenshot", png, "--camera", "nope"), 2);
    expect_out("top, side, follow, com, look");
    ck_assert_int_eq(RUN(1, "view", xml, "--screenshot", png, "--camera", "7"), 2);
    rm_dir(dir);
}
END_TEST

START_TEST(divergence_exit_1)
{
    char *dir = tmpdir();
    char png[256];
    snprintf(png, sizeof png, "%s/shot.png", dir);
    int rc = RUN(1, "view", scene("sphere_plane.xml"), "--set", "option.gravity=0 0 -1e300",
                 "--timestep", "1e10", "--steps", "5", "--screenshot", png);
    ck_assert_int_eq(rc, 1);
    expect_out("diverged at step");
    expect_out("ball");
    ck_assert_int_eq(count_entries(dir), 0);
    rm_dir(dir);
}
END_TEST

START_TEST(help_text)
{
    ck_assert_int_eq(RUN(1, "help", "view"), 0);
    expect_out("--screenshot FILE.png");
    expect_out("--overlay LIST");
    expect_out("--camera NAME|ID|AZ,EL,DIST");
    expect_out("} / { (Shift+] / [) next or\nprevious scene camera");
    expect_out("Backspace reset");
    expect_out("Ctrl+left drag");
    expect_out("J joints");
    expect_out("frames, joints, wireframe");
    expect_out("Tab control panel");
    expect_out("--dump-ctrl FILE.csv");
    ck_assert_int_eq(RUN(1, "help"), 0);
    expect_out("view");
}
END_TEST

/* ================================================================ shot (display) */

#define W 320
#define H 240

static const unsigned char *px(const unsigned char *rgb, int x, int y)
{
    return rgb + 3 * ((size_t)y * W + x);
}

static unsigned char *read_png(const char *path)
{
    int w, h;
    unsigned char *rgb;
    char err[1024];
    ck_assert_msg(cs_png_read(path, &w, &h, &rgb, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w, W);
    ck_assert_int_eq(h, H);
    return rgb;
}

static int distinct_colours(const unsigned char *rgb)
{
    enum { SLOTS = 1 << 17 };
    unsigned *set = calloc(SLOTS, sizeof *set);
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        unsigned v = 1u + (rgb[3 * i] | rgb[3 * i + 1] << 8 | (unsigned)rgb[3 * i + 2] << 16);
        unsigned h = (v * 2654435761u) >> 15;
        while (set[h] && set[h] != v) h = (h + 1) & (SLOTS - 1);
        if (!set[h]) {
            set[h] = v;
            n++;
        }
    }
    free(set);
    return n;
}

/* Takes a screenshot of W x H of a scene file with extra arguments; returns the image. */
static unsigned char *shoot_file(const char *dir, const char *path, const char *name,
                                 const char *const *extra)
{
    char png[512];
    snprintf(png, sizeof png, "%s/%s.png", dir, name);
    const char *args[32] = {"view", NULL, "--screenshot", png, "--width", "320", "--height", "240"};
    args[1] = path;
    int n = 8;
    for (int i = 0; extra && extra[i]; i++) args[n++] = extra[i];
    args[n] = NULL;
    int rc = run_argv(0, args);
    ck_assert_msg(rc == 0, "view %s: exit %d:\n%s", name, rc, OUT);
    return read_png(png);
}

/* The same for a scene of scenes/ by name. */
static unsigned char *shoot(const char *dir, const char *name, const char *const *extra)
{
    return shoot_file(dir, scene(name), name, extra);
}

static void camera_of(const char *s, cs_camera *c)
{
    cs_camera_default(c, 1, NULL);
    ck_assert_int_eq(cs_camera_parse(s, c), 0);
}

static void project(const cs_camera *c, const double p[3], int *x, int *y)
{
    double q[2];
    ck_assert_int_eq(cs_camera_project(c, W, H, p, q), 0);
    *x = (int)floor(q[0]);
    *y = (int)floor(q[1]);
    ck_assert(*x >= 0 && *x < W && *y >= 0 && *y < H);
}

/* Lighting scales a colour; its direction (hue) stays. */
static double hue_cos(const unsigned char *p, const double rgb[3])
{
    double n = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
    double m = sqrt(rgb[0] * rgb[0] + rgb[1] * rgb[1] + rgb[2] * rgb[2]);
    return n > 0 ? (p[0] * rgb[0] + p[1] * rgb[1] + p[2] * rgb[2]) / (n * m) : 0;
}

/* A 5 x 5 block of pixels all at or above 250 in every channel (glare: the legend's
 * white text is one or two pixels thin, never a block). */
static int white_block(const unsigned char *rgb, int *bx, int *by)
{
    for (int y = 0; y + 5 <= H; y++)
        for (int x = 0; x + 5 <= W; x++) {
            int all = 1;
            for (int j = 0; j < 5 && all; j++)
                for (int i = 0; i < 5 && all; i++) {
                    const unsigned char *p = px(rgb, x + i, y + j);
                    all = p[0] >= 250 && p[1] >= 250 && p[2] >= 250;
                }
            if (all) {
                *bx = x;
                *by = y;
                return 1;
            }
        }
    return 0;
}

/* The default camera (MuJoCo's free camera on the model's extent) frames the bodies: on
 * box_stack the three boxes (rgba 0.9 0.3 0.3, 0.3 0.9 0.3, 0.3 0.3 0.9) cover over a tenth of
 * the image and lie wholly inside it. */
START_TEST(default_camera_frames_the_bodies)
{
    char *dir = tmpdir();
    unsigned char *rgb = shoot(dir, "box_stack.xml", (const char *const[]){"--overlay", "none", NULL});
    static const double box[3][3] = {{0.9, 0.3, 0.3}, {0.3, 0.9, 0.3}, {0.3, 0.3, 0.9}};
    int n = 0, x0 = W, x1 = -1, y0 = H, y1 = -1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const unsigned char *p = px(rgb, x, y);
            int mine = 0;
            for (int k = 0; k < 3; k++) mine |= hue_cos(p, box[k]) > 0.99;
            if (!mine) continue;
            n++;
            x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
        }
    double frac = (double)n / (W * H);
    ck_assert_msg(frac > 0.10, "the boxes cover only %.1f%% of the image", 100 * frac);
    ck_assert_msg(x0 > 0 && x1 < W - 1 && y0 > 0 && y1 < H - 1,
                  "the boxes are cut off: pixels %d..%d x %d..%d", x0, x1, y0, y1);
    /* The stack stands in the middle: its pixels' box is centred within a tenth. */
    ck_assert_int_lt(abs((x0 + x1) / 2 - W / 2), W / 10);
    ck_assert_int_lt(abs((y0 + y1) / 2 - H / 2), H / 10);
    fprintf(stderr, "box_stack: the boxes cover %.1f%% of the default view\n", 100 * frac);
    free(rgb);
    rm_dir(dir);
}
END_TEST

START_TEST(every_seed_scene)
{
    char *dir = tmpdir();
    DIR *dd = opendir(CS_SCENES);
    ck_assert_ptr_nonnull(dd);
    struct dirent *e;
    int nscene = 0;
    while ((e = readdir(dd))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".xml")) continue;
        char name[256];
        snprintf(name, sizeof name, "%s", e->d_name);
        unsigned char *rgb = shoot(dir, name, NULL);
        int n = distinct_colours(rgb);
        ck_assert_msg(n > 200, "%s: only %d colours", name, n);
        int sx, sy;
        ck_assert_msg(!white_block(rgb, &sx, &sy), "%s: glare, a saturated white block at %d %d",
                      name, sx, sy);
        free(rgb);
        nscene++;
    }
    closedir(dd);
    ck_assert_int_ge(nscene, 8);
    /* Nothing but the PNGs: no temporary files left. */
    ck_assert_int_eq(count_entries(dir), nscene);
    rm_dir(dir);
}
END_TEST

/* The control panel in a screenshot (320 x 240: text scale 1; layout in render/viewer.c):
 * one slider per actuator; with --ctrl the line under the title names the schedule in
 * yellow (1, 0.85, 0.2), without it that line is grey help text. */
START_TEST(control_panel_names_its_schedule)
{
    char *dir = tmpdir();
    char ctrl[512];
    snprintf(ctrl, sizeof ctrl, "%s/gripper_lift_ctrl.csv", CS_SCENES);
    unsigned char *with = shoot(dir, "gripper_lift.xml",
                                (const char *const[]){"--overlay", "controls", "--ctrl", ctrl, NULL});
    unsigned char *without = shoot(dir, "gripper_lift.xml",
                                   (const char *const[]){"--overlay", "controls", NULL});
    double line[4], track[4];
    ck_assert_int_eq(cs_ctrl_panel_rect(W, H, 3, CS_PANEL_BACKGROUND, line), 0);
    int yellow[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int y = (int)line[1] + 4 + 12; y < (int)line[1] + 4 + 24; y++)
            for (int x = (int)line[0]; x < (int)(line[0] + line[2]) && x < W; x++) {
                const unsigned char *p = px(k ? without : with, x, y);
                yellow[k] += p[0] > 200 && p[1] > 170 && p[1] < 240 && p[2] < 90;
            }
    ck_assert_msg(yellow[0] > 20, "no yellow 'driven by' text with --ctrl (%d pixels)", yellow[0]);
    ck_assert_int_eq(yellow[1], 0);
    /* each of the three sliders is drawn, filled (blue, 0.3 0.55 0.9) from its lower end up
     * to the keyframe's control (0.05, 0.05, 0.1: all above the lower ends, 0) */
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(cs_ctrl_panel_rect(W, H, 3, i, track), 0);
        const unsigned char *p = px(without, (int)track[0] + 1, (int)(track[1] + 0.5 * track[3]));
        ck_assert_msg(p[2] > p[0] + 60 && p[1] > p[0] + 30, "slider %d: %d %d %d is not the fill",
                      i, p[0], p[1], p[2]);
    }
    free(with);
    free(without);
    rm_dir(dir);
}
END_TEST

START_TEST(sphere_and_grid)
{
    char *dir = tmpdir();
    const char *cam = "90,-25,0.9,0,0,0.08";
    unsigned char *rgb =
        shoot(dir, "sphere_plane.xml", (const char *const[]){"--overlay", "none", "--camera", cam, NULL});
    /* The sphere (r = 0.1 at z = 0.1, rgba 0.85 0.25 0.2) at its projected centre. */
    cs_camera c;
    camera_of(cam, &c);
    int x, y;
    double centre[3] = {0, 0, 0.1}, red[3] = {0.85, 0.25, 0.2};
    project(&c, centre, &x, &y);
    const unsigned char *p = px(rgb, x, y);
    ck_assert_msg(hue_cos(p, red) > 0.995, "centre pixel %d %d %d is not the sphere's", p[0], p[1],
                  p[2]);
    /* 1.5 radii above it in the image: not the sphere. */
    double above[3] = {0, 0, 0.1 + 0.15 / cos(25 * M_PI / 180)};
    project(&c, above, &x, &y);
    p = px(rgb, x, y);
    ck_assert_msg(hue_cos(p, red) < 0.95, "%d %d %d above the sphere looks like it", p[0], p[1],
                  p[2]);
    /* The grid: a row well below the sphere crosses several lines darker than the
     * row's median (plane size 1 m, lines every 0.1 m). */
    int row = H - 20, runs = 0, in = 0, lum[W], sorted[W];
    for (int i = 0; i < W; i++) {
        const unsigned char *q = px(rgb, i, row);
        lum[i] = sorted[i] = q[0] + q[1] + q[2];
    }
    for (int i = 1; i < W; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    int median = sorted[W / 2];
    for (int i = 0; i < W; i++) {
        int line = lum[i] < median - 30;
        if (line && !in) runs++;
        in = line;
    }
    ck_assert_msg(runs >= 3, "only %d grid lines in row %d (median %d)", runs, row, median);
    free(rgb);
    rm_dir(dir);
}
END_TEST

START_TEST(the_picture_shows_the_stepped_state)
{
    /* ball_roll without gravity: it moves along +x at 1 m/s, 0.2 m in 100 steps, contacts
     * or not. The screenshot shows it there (the state after the steps). */
    char *dir = tmpdir();
    const char *cam = "90,-20,1.0,0.1,0,0.1";
    unsigned char *rgb = shoot(dir, "ball_roll.xml",
                               (const char *const[]){"--overlay", "none", "--camera", cam, "--set",
                                                     "option.flag.gravity=disable", "--steps",
                                                     "100", NULL});
    char err[1024];
    cs_model *m = cs_load_xml(scene("ball_roll.xml"), NULL, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(cs_option_set(&m->opt, "flag.gravity", "disable", err, sizeof err), 0);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    for (int k = 0; k < 100; k++) cs_step(m, d);
    ck_assert_double_eq_tol(d->qpos[0], 0.2, 1e-9);
    cs_camera c;
    camera_of(cam, &c);
    int x, y;
    double gold[3] = {0.9, 0.7, 0.1}, start[3] = {0, 0, 0.1};
    project(&c, d->qpos, &x, &y);
    const unsigned char *p = px(rgb, x, y);
    ck_assert_msg(hue_cos(p, gold) > 0.995, "ball centre %d %d %d", p[0], p[1], p[2]);
    project(&c, start, &x, &y);
    p = px(rgb, x, y);
    ck_assert_msg(hue_cos(p, gold) < 0.98, "the ball is still at the start: %d %d %d", p[0], p[1],
                  p[2]);
    cs_free_data(d);
    cs_free_model(m);
    free(rgb);
    rm_dir(dir);
}
END_TEST

static int count_colour(const unsigned char *rgb, const float col[3])
{
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        int near = 1;
        for (int k = 0; k < 3; k++) near &= abs(rgb[3 * i + k] - (int)lrintf(255 * col[k])) <= 12;
        n += near;
    }
    return n;
}

START_TEST(articulated_scene_shows_its_joints)
{
    /* joints_arm.xml after 3 s: the upper arm on its limit and the block on its slide's
     * lower limit (magenta), the forearm's and the ball joint's positions inside (green),
     * the axes and ranges in the joint colour; none of them without the overlay. */
    char *dir = tmpdir();
    const char *arm = CS_TEST_DATA "/good/joints_arm.xml", *cam = "90,-15,1.5,0,0,0.45";
    unsigned char *on = shoot_file(dir, arm, "joints_on",
                                   (const char *const[]){"--overlay", "joints", "--camera", cam,
                                                         "--steps", "1500", NULL});
    unsigned char *off = shoot_file(dir, arm, "joints_off",
                                    (const char *const[]){"--overlay", "none", "--camera", cam,
                                                          "--steps", "1500", NULL});
    int axis = count_colour(on, cs_color_joint), in = count_colour(on, cs_color_joint_inside),
        lim = count_colour(on, cs_color_joint_limit);
    ck_assert_msg(axis > 200 && in > 30 && lim > 30, "joint %d inside %d limit %d", axis, in, lim);
    ck_assert_int_eq(count_colour(off, cs_color_joint), 0);
    ck_assert_int_eq(count_colour(off, cs_color_joint_inside), 0);
    ck_assert_int_eq(count_colour(off, cs_color_joint_limit), 0);
    /* The shoulder's pivot (beside the post, 0.65 m up) is marked in the joint colour. */
    cs_camera c;
    camera_of(cam, &c);
    int x, y, n = 0;
    double pivot[3] = {-0.45, -0.065, 0.65};
    project(&c, pivot, &x, &y);
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++) {
            const unsigned char *p = px(on, x + dx, y + dy);
            int near = 1;
            for (int k = 0; k < 3; k++)
                near &= abs(p[k] - (int)lrintf(255 * cs_color_joint[k])) <= 12;
            n += near;
        }
    ck_assert_msg(n > 5, "only %d joint-coloured pixels at the shoulder", n);
    free(on);
    free(off);
    rm_dir(dir);
}
END_TEST

START_TEST(window_and_replay)
{
    char *dir = tmpdir();
    ck_assert_int_eq(RUN(0, "view", scene("sphere_plane.xml"), "--frames", "5"), 0);
    ck_assert_int_eq(RUN(0, "view", scene("box_stack.xml"), "--frames", "3", "--paused",
                         "--width", "320", "--height", "240", "--overlay", "cones,frames"), 0);
    char csv[256], png[256];
    snprintf(csv, sizeof csv, "%s/ball.csv", dir);
    snprintf(png, sizeof png, "%s/replay.png", dir);
    ck_assert_int_eq(RUN(0, "run", scene("ball_roll.xml"), "--steps", "40", "--every", "10",
                         "--quiet", "--record", csv), 0);
    ck_assert_int_eq(RUN(0, "view", scene("ball_roll.xml"), "--replay", csv, "--frames", "5"), 0);
    ck_assert_int_eq(RUN(0, "view", scene("ball_roll.xml"), "--replay", csv, "--steps", "2",
                         "--screenshot", png, "--width", "320", "--height", "240"), 0);
    free(read_png(png));
    rm_dir(dir);
}
END_TEST

/* ================================================================ forces */

/* Pixels above (x0, y0) that the forces overlay moved from `off` towards the arrow colour
 * in `on`: the arrow inside the sphere, drawn faintly (a 30% blend) where the sphere hides
 * it (render/README.md). */
static int count_faint_above(const unsigned char *on, const unsigned char *off, int x0, int y0,
                             const float col[3])
{
    int n = 0;
    for (int y = y0 - 4; y > y0 - 80 && y >= 0; y--)
        for (int x = x0 - 3; x <= x0 + 3; x++) {
            if (x < 0 || x >= W) continue;
            const unsigned char *p = px(on, x, y), *q = px(off, x, y);
            double d[3], t[3], dd = 0, tt = 0, dt = 0;
            for (int k = 0; k < 3; k++) {
                d[k] = p[k] - q[k];
                t[k] = 255 * col[k] - q[k];
                dd += d[k] * d[k];
                tt += t[k] * t[k];
                dt += d[k] * t[k];
            }
            n += dd > 15 * 15 && dt > 0.9 * sqrt(dd * tt);
        }
    return n;
}

START_TEST(resting_sphere_shows_its_force)
{
    /* Half a second: the sphere has settled on the plane (needs collision + solver). */
    char err[1024];
    cs_model *m = cs_load_xml(scene("sphere_plane.xml"), NULL, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    cs_data *d = cs_make_data(m);
    for (int k = 0; k < 250; k++) cs_step(m, d);
    cs_forward(m, d);
    ck_assert_msg(d->ncon > 0, "no contact after 250 steps: the sphere is at z = %g (collision "
                               "and solver not wired into sim/ yet?)", d->qpos[2]);
    ck_assert_double_gt(d->contact[0].force[0], 0);
    double cp[3];
    memcpy(cp, d->contact[0].pos, sizeof cp);
    cs_free_data(d);
    cs_free_model(m);

    char *dir = tmpdir();
    /* close enough that the shaft (0.5% of the 0.2 m extent thick) is pixels wide */
    const char *cam = "90,-25,0.35,0,0,0.08";
    unsigned char *on = shoot(dir, "sphere_plane.xml",
                              (const char *const[]){"--overlay", "contacts,forces", "--camera", cam,
                                                    "--steps", "250", NULL});
    unsigned char *off = shoot(dir, "sphere_plane.xml",
                               (const char *const[]){"--overlay", "contacts", "--camera", cam,
                                                     "--steps", "250", NULL});
    cs_camera c;
    camera_of(cam, &c);
    int x, y;
    project(&c, cp, &x, &y);
    /* The contact is under the sphere and the arrow points up into it: hidden, so drawn
     * faintly over the sphere. */
    int n_on = count_faint_above(on, off, x, y, cs_color_normal_force);
    ck_assert_msg(n_on > 20, "only %d arrow pixels above the contact", n_on);
    free(on);
    free(off);
    rm_dir(dir);
}
END_TEST

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "cli";
    Suite *s = suite_create("view");
    TCase *tc = tcase_create(group);
    tcase_set_timeout(tc, 120);
    if (strcmp(group, "cli") == 0) {
        tcase_add_test(tc, bad_command_lines_exit_2);
        tcase_add_test(tc, bad_scene_exit_3);
        tcase_add_test(tc, bad_replay_exit_3);
        tcase_add_test(tc, unwritable_png_exit_4);
        tcase_add_test(tc, no_display_is_a_clear_error);
        tcase_add_test(tc, headless_screenshot_through_a_scene_camera);
        tcase_add_test(tc, divergence_exit_1);
        tcase_add_test(tc, help_text);
    } else if (strcmp(group, "shot") == 0) {
        tcase_add_test(tc, every_seed_scene);
        tcase_add_test(tc, default_camera_frames_the_bodies);
        tcase_add_test(tc, control_panel_names_its_schedule);
        tcase_add_test(tc, sphere_and_grid);
        tcase_add_test(tc, the_picture_shows_the_stepped_state);
        tcase_add_test(tc, articulated_scene_shows_its_joints);
        tcase_add_test(tc, window_and_replay);
    } else if (strcmp(group, "forces") == 0) {
        tcase_add_test(tc, resting_sphere_shows_its_force);
    } else {
        fprintf(stderr, "usage: test_view_cli cli|shot|forces\n");
        return 2;
    }
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
