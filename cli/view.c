/* conesim view: the interactive viewer, and `--screenshot` (one off-screen frame to a PNG).
 * Option handling follows run.c; the sim -> render adapter is view_adapter.c. Built into
 * conesim-view, which conesim execs (view_exec.c); the texts of `help view` are view_help.c. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "ctrl.h"
#include "overrides.h"
#include "conesim.h"
#include "render.h"
#include "view_adapter.h"
#include "view_video.h"
#include "headless.h"

/* No display or no OpenGL 3.3 context: neither a bad command line nor a bad file. */

/* Mesa and X11 keep allocations for the life of the process (GLFW stays initialised on
 * purpose, see render/README.md); they are not ours. Only LeakSanitizer calls this. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libGLX\nleak:libGLX_mesa\nleak:libX11\nleak:libxcb\nleak:libglfw\n"
           "leak:libEGL\nleak:libgallium\nleak:swrast_dri\nleak:libLLVM\nleak:libdrm\n"
           "leak:dri\nleak:libglapi\n";
}


typedef struct {
    const char *scene;
    const char *overlay;    /* NULL: contacts,forces */
    const char *camera;     /* NULL: MuJoCo's default free camera for the scene */
    int width, height;
    int key;                /* -2: first keyframe if any, -1: reference pose */
    const char *screenshot;
    const char *video;      /* --video FILE.mp4 */
    int fps;                /* 0: none given (30) */
    long steps;             /* -1: none given */
    double duration;        /* -1: none given */
    const char *replay;
    int paused;
    long frames;            /* > 0: quit after that many frames */
    const char *ctrl;       /* --ctrl: control schedule CSV */
    const char *dump_ctrl;  /* --dump-ctrl: the controls at exit, as CSV */
    cs_overrides set;
} view_opts;

static const char *const OPTS_ARG[] = {
    "--overlay", "--camera", "--width", "--height", "--key", "--screenshot", "--steps",
    "--duration", "--replay", "--frames", "--set", "--timestep", "--solver", "--cone",
    "--iterations", "--tolerance", "--threads", "--contact", "--ctrl", "--dump-ctrl",
    "--video", "--fps",
};
static const char *const OPTS_FLAG[] = {"--paused"};

/* Checks one option's value; returns 0 with a message on stderr when it is bad. */
static int set_opt(view_opts *o, const char *name, const char *arg)
{
    long l;
    char bad[64];
    if (strcmp(name, "--overlay") == 0) {
        unsigned f;
        if (cs_overlay_parse(arg, &f, bad, sizeof bad) != 0) {
            fprintf(stderr, "conesim view: --overlay: unknown overlay '%s' (contacts, forces, "
                            "cones, frames, joints, wireframe, hud, or none)\n", bad);
            return 0;
        }
        o->overlay = arg;
    } else if (strcmp(name, "--camera") == 0) {
        /* numbers: the free camera; else a scene camera's name or id (checked once loaded) */
        cs_camera c;
        cs_camera_default(&c, 1, NULL);
        if (strchr(arg, ',') && (cs_camera_parse(arg, &c) != 0 || !(c.distance > 0))) {
            fprintf(stderr, "conesim view: --camera: expected a camera's name or id, or "
                            "AZIMUTH,ELEVATION,DISTANCE[,X,Y,Z] (degrees, metres, distance > 0), "
                            "got '%s'\n", arg);
            return 0;
        }
        if (!*arg) goto bad_value;
        o->camera = arg;
    } else if (strcmp(name, "--width") == 0 || strcmp(name, "--height") == 0) {
        if (!cs_arg_long(arg, &l) || l < 1 || l > 8192) goto bad_value;
        *(name[2] == 'w' ? &o->width : &o->height) = (int)l;
    } else if (strcmp(name, "--key") == 0) {
        if (strcmp(arg, "none") == 0) o->key = -1;
        else if (!cs_arg_long(arg, &l) || l < 0 || l > 1000000) goto bad_value;
        else o->key = (int)l;
    } else if (strcmp(name, "--screenshot") == 0) {
        if (!*arg) goto bad_value;
        o->screenshot = arg;
    } else if (strcmp(name, "--video") == 0) {
        if (!*arg) goto bad_value;
        o->video = arg;
    } else if (strcmp(name, "--fps") == 0) {
        if (!cs_arg_long(arg, &l) || l < 1 || l > 1000) goto bad_value;
        o->fps = (int)l;
    } else if (strcmp(name, "--steps") == 0) {
        if (!cs_arg_long(arg, &l) || l < 0) goto bad_value;
        o->steps = l;
    } else if (strcmp(name, "--duration") == 0) {
        if (cs_arg_number(arg, &o->duration) != CS_ARG_OK || o->duration < 0) goto bad_value;
    } else if (strcmp(name, "--replay") == 0) {
        o->replay = arg;
    } else if (strcmp(name, "--frames") == 0) {
        if (!cs_arg_long(arg, &l) || l < 1) goto bad_value;
        o->frames = l;
    } else if (strcmp(name, "--ctrl") == 0) {
        o->ctrl = arg;
    } else if (strcmp(name, "--dump-ctrl") == 0) {
        if (!*arg) goto bad_value;
        o->dump_ctrl = arg;
    } else if (strcmp(name, "--paused") == 0) {
        o->paused = 1;
    } else {
        /* option overrides: --timestep etc. are --set option.NAME=VALUE, checked by sim */
        char why[160];
        if (!cs_overrides_add(&o->set, name, arg, why, sizeof why)) {
            fprintf(stderr, "conesim view: %s\n", why);
            return 0;
        }
    }
    return 1;
bad_value:
    fprintf(stderr, "conesim view: bad value '%s' for %s\n", arg, name);
    return 0;
}

static int is_in(const char *a, const char *const *list, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(a, list[k]) == 0) return 1;
    return 0;
}

static int parse_args(int argc, char **argv, view_opts *o)
{
    o->width = 1280;
    o->height = 720;
    o->key = -2;
    o->steps = -1;
    o->duration = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == 0) {
            if (o->scene) {
                fprintf(stderr, "conesim view: more than one scene given ('%s')\n", a);
                return 0;
            }
            o->scene = a;
            continue;
        }
        const char *arg = NULL;
        if (is_in(a, OPTS_ARG, sizeof OPTS_ARG / sizeof *OPTS_ARG)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "conesim view: option %s needs a value\n", a);
                return 0;
            }
            arg = argv[++i];
        } else if (!is_in(a, OPTS_FLAG, sizeof OPTS_FLAG / sizeof *OPTS_FLAG)) {
            fprintf(stderr, "conesim view: unknown option '%s' (see 'conesim help view')\n", a);
            return 0;
        }
        if (!set_opt(o, a, arg)) return 0;
    }
    if (!o->scene) {
        fprintf(stderr, "conesim view: no scene given\n");
        return 0;
    }
    if (o->steps >= 0 && o->duration >= 0) {
        fprintf(stderr, "conesim view: give --steps or --duration, not both\n");
        return 0;
    }
    if (o->ctrl && o->replay) {
        fprintf(stderr, "conesim view: --ctrl drives a simulation, --replay plays a recording: "
                        "give one\n");
        return 0;
    }
    if (o->screenshot && (o->frames > 0 || o->paused)) {
        fprintf(stderr, "conesim view: --frames and --paused are for the window, not "
                        "--screenshot\n");
        return 0;
    }
    if (o->video && (o->screenshot || o->frames > 0 || o->paused)) {
        fprintf(stderr, "conesim view: --video is not for --screenshot, --frames or --paused\n");
        return 0;
    }
    if (o->fps && !o->video) {
        fprintf(stderr, "conesim view: --fps is for --video\n");
        return 0;
    }
    return 1;
}

/* ---- the PNG: written to a temporary file next to it, renamed when complete ---- */

typedef struct {
    const char *path;
    char *tmp; /* NULL once renamed or removed */
} png_out;

/* Fails fast (before any stepping) when the file cannot be written. */
static int png_out_open(png_out *p, const char *path)
{
    p->path = path;
    p->tmp = NULL;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "conesim view: cannot write '%s': it is a directory\n", path);
        return -1;
    }
    size_t n = strlen(path);
    p->tmp = malloc(n + 8);
    if (!p->tmp) return -1;
    memcpy(p->tmp, path, n);
    memcpy(p->tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(p->tmp);
    if (fd < 0) {
        fprintf(stderr, "conesim view: cannot write '%s': %s\n", path, strerror(errno));
        free(p->tmp);
        p->tmp = NULL;
        return -1;
    }
    /* mkstemp makes it 0600; a PNG is an ordinary file (0666 less the umask). */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    close(fd);
    return 0;
}

static void png_out_discard(png_out *p)
{
    if (p->tmp) {
        unlink(p->tmp);
        free(p->tmp);
        p->tmp = NULL;
    }
}

static int png_out_write(png_out *p, int w, int h, const unsigned char *rgb)
{
    char err[1200];
    if (cs_png_write(p->tmp, w, h, rgb, err, sizeof err) != 0) {
        fprintf(stderr, "conesim view: cannot write '%s': %s\n", p->path, err);
        png_out_discard(p);
        return -1;
    }
    if (rename(p->tmp, p->path) != 0) {
        fprintf(stderr, "conesim view: cannot write '%s': %s\n", p->path, strerror(errno));
        png_out_discard(p);
        return -1;
    }
    free(p->tmp);
    p->tmp = NULL;
    return 0;
}

/* SIGINT/SIGTERM while stepping for a screenshot: stop, remove the temporary file. */
static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) { interrupted = sig; }

static int screenshot(cs_view *v, const view_opts *o, const cs_camera *cam, int model_cam,
                      long nsteps, png_out *out)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    for (long k = 0; k < nsteps; k++) {
        if (interrupted) {
            fprintf(stderr, "conesim view: interrupted after step %ld\n", k);
            return interrupted == SIGINT ? 130 : 143;
        }
        if (cs_view_step(v) != 0) {
            fprintf(stderr, "conesim view: %s%s\n", v->nomem ? "" : "warning: ", v->message);
            return v->nomem ? CS_EXIT_NOMEM : CS_EXIT_DIVERGED;
        }
    }
    cs_render_scene s;
    cs_render_scene_init(&s);
    cs_view_fill(v, &s);
    cs_camera shown = *cam;
    if (model_cam >= 0) shown = v->cameras[model_cam];
    cam = &shown;
    unsigned flags = CS_OVERLAY_CONTACTS | CS_OVERLAY_FORCES;
    if (o->overlay) cs_overlay_parse(o->overlay, &flags, NULL, 0); /* checked already */
    s.overlay = flags;
    s.offscreen = 1;
    char err[1024];
    /* as --video: EGL without a display first, else a hidden window */
    cs_renderer *r = cs_renderer_create_headless(4, err, sizeof err);
    if (!r) {
        fprintf(stderr, "conesim view: %s\n", err);
        return CS_EXIT_NODISPLAY;
    }
    unsigned char *rgb = malloc((size_t)o->width * o->height * 3);
    int rc = CS_EXIT_OK;
    if (!rgb) {
        fprintf(stderr, "conesim view: out of memory for a %dx%d image\n", o->width, o->height);
        rc = CS_EXIT_NOMEM;
    } else if (cs_render_offscreen(r, &s, cam, o->width, o->height, rgb, err, sizeof err) != 0) {
        fprintf(stderr, "conesim view: rendering failed: %s\n", err);
        rc = CS_EXIT_NODISPLAY;
    } else if (png_out_write(out, o->width, o->height, rgb) != 0) {
        rc = CS_EXIT_OUTPUT;
    }
    free(rgb);
    cs_renderer_destroy(r);
    return rc;
}

static int window(cs_view *v, const view_opts *o, const cs_camera *cam, int model_cam)
{
    cs_viewer_options vo;
    cs_viewer_options_init(&vo);
    vo.width = o->width;
    vo.height = o->height;
    char title[512];
    snprintf(title, sizeof title, "conesim view: %s", o->scene);
    vo.title = title;
    vo.timestep = v->replay ? cs_view_replay_dt(v) : v->m->opt.timestep;
    vo.camera = *cam;
    vo.model_camera = model_cam;
    /* The window shows the HUD unless H hides it; --overlay picks the rest. */
    unsigned flags = CS_OVERLAY_CONTACTS | CS_OVERLAY_FORCES;
    if (o->overlay) cs_overlay_parse(o->overlay, &flags, NULL, 0);
    vo.overlay = flags | CS_OVERLAY_HUD | CS_OVERLAY_CONTROLS; /* Tab hides the panel */
    vo.start_paused = o->paused;
    vo.max_frames = o->frames > 0 ? (int)(o->frames < 1000000000 ? o->frames : 1000000000) : 0;
    /* Scripted runs (--frames) never wait for vsync. */
    vo.vsync = o->frames > 0 ? 0 : 1;
    cs_viewer_callbacks cb;
    cs_view_callbacks(v, &cb);
    char err[1024];
    int rc = cs_viewer_run(&vo, &cb, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "conesim view: %s\n", err);
        return CS_EXIT_NODISPLAY;
    }
    if (rc != 0) {
        fprintf(stderr, "conesim view: %s%s\n", v->nomem ? "" : "warning: ", v->message);
        return v->nomem ? CS_EXIT_NOMEM : CS_EXIT_DIVERGED;
    }
    return CS_EXIT_OK;
}

/* --dump-ctrl: the controls as they are at exit, one actuator a row (scripted checks of the
 * control panel). Returns 0 or CS_EXIT_OUTPUT. */
static int dump_ctrl(const char *path, const cs_model *m, const cs_data *d)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "conesim view: cannot write '%s': %s\n", path, strerror(errno));
        return CS_EXIT_OUTPUT;
    }
    fprintf(f, "actuator,ctrl\n");
    for (int i = 0; i < m->nu; i++) {
        char buf[256];
        fprintf(f, "%s,%.17g\n", cs_ctrl_label(m, i, buf, sizeof buf), d->ctrl[i]);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "conesim view: cannot write '%s': %s\n", path, strerror(errno));
        return CS_EXIT_OUTPUT;
    }
    return 0;
}

static void sched_hook(void *u, double t, double *ctrl) { cs_ctrl_at(u, t, ctrl); }

/* --video: --steps or --duration give the video's length (default 5 s, or the whole
 * recording in replay mode). */
static int video(cs_view *v, const view_opts *o, const cs_camera *cam, int model_cam,
                 double h)
{
    cs_view_video_opts vo;
    memset(&vo, 0, sizeof vo);
    vo.path = o->video;
    vo.width = o->width;
    vo.height = o->height;
    vo.fps = o->fps ? o->fps : 30;
    vo.samples = 4;
    vo.camera = *cam;
    vo.model_camera = model_cam;
    vo.tracking = !o->camera; /* the default follows what moves */
    vo.overlay = CS_OVERLAY_CONTACTS | CS_OVERLAY_FORCES;
    if (o->overlay) cs_overlay_parse(o->overlay, &vo.overlay, NULL, 0); /* checked already */
    double duration = o->steps >= 0 ? o->steps * h : o->duration >= 0 ? o->duration : 5;
    if (v->replay && o->steps < 0 && o->duration < 0) {
        const cs_replay *r = v->replay;
        duration = r->time[r->nframe - 1] - r->time[0];
        vo.nframe = (long)floor(duration * vo.fps + 1e-9) + 1; /* the last recorded frame too */
    } else {
        vo.nframe = cs_video_frame_count(duration, vo.fps);
    }
    if (vo.nframe < 0) {
        fprintf(stderr, "conesim view: a video of %g s at %d frames a second is too long\n",
                duration, vo.fps);
        return CS_EXIT_USAGE;
    }
    return cs_view_video(v, &vo);
}

int cs_view_main(int argc, char **argv)
{
    view_opts o;
    memset(&o, 0, sizeof o);
    if (!parse_args(argc, argv, &o)) return CS_EXIT_USAGE;
    char err[1024];
    cs_model *m = cs_overrides_load(&o.set, o.scene, 0, 0, NULL, NULL, stderr, err, sizeof err);
    if (!m) return cs_load_exit(err);
    int rc = CS_EXIT_OK, have_view = 0;
    cs_data *d = NULL;
    cs_view v;
    cs_replay rep;
    memset(&rep, 0, sizeof rep);
    png_out out = {0};
    cs_ctrl_schedule sched = {0};
    unsigned char *columns = NULL;
    char ctrl_words[600];
    if (cs_overrides_apply(&o.set, m, err, sizeof err) != 0) {
        fprintf(stderr, "conesim view: %s\n", err);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    if (o.key >= m->nkey) {
        fprintf(stderr, "conesim view: --key %d: the scene has %d keyframe(s)\n", o.key, m->nkey);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    if (o.replay && cs_replay_load(o.replay, &rep, err, sizeof err) != 0) {
        rc = errno == ENOMEM ? CS_EXIT_NOMEM : CS_EXIT_SCENE;
        fprintf(stderr, "%s\n", err);
        goto done;
    }
    if (o.ctrl && cs_ctrl_load(o.ctrl, m, &sched, err, sizeof err) != 0) {
        fprintf(stderr, "conesim view: --ctrl %s\n", err);
        rc = CS_EXIT_USAGE; /* as run's --ctrl */
        goto done;
    }
    /* An unwritable PNG fails before any stepping. */
    if (o.screenshot && png_out_open(&out, o.screenshot) != 0) {
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    d = cs_make_data(m);
    int key = o.key == -2 ? (m->nkey ? 0 : -1) : o.key;
    if (d && key >= 0) cs_reset_key(m, d, key);
    if (!d || cs_view_init(&v, m, d, key) != 0) {
        fprintf(stderr, "conesim view: out of memory\n");
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    have_view = 1;
    cs_view_own_model(&v, m); /* loaded here: M may switch its contact model */
    if (sched.nrow) {
        columns = calloc(m->nu > 0 ? (size_t)m->nu : 1, 1);
        if (!columns) {
            fprintf(stderr, "conesim view: out of memory\n");
            rc = CS_EXIT_NOMEM;
            goto done;
        }
        for (int k = 0; k < sched.ncol; k++) columns[sched.ctrl[k]] = 1;
        const char *base = strrchr(o.ctrl, '/');
        snprintf(ctrl_words, sizeof ctrl_words, "--ctrl %s", base ? base + 1 : o.ctrl);
        v.ctrl_hook = sched_hook;
        v.ctrl_user = &sched;
        v.ctrl_columns = columns;
        v.ctrl_source = ctrl_words;
        cs_ctrl_at(&sched, d->time, d->ctrl); /* the panel shows the schedule from the start */
    }
    if (o.replay && cs_view_replay_bind(&v, &rep, o.replay, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        rc = CS_EXIT_SCENE;
        goto done;
    }
    for (int j = 0; o.replay && j < m->njnt; j++) {
        int found = 0;
        for (int i = 0; i < rep.nbody; i++) found |= v.replay_free[i] == j;
        if (!found) {
            char buf[32];
            fprintf(stderr, "conesim view: warning: %s has no rows for body %s: it stays put\n",
                    o.replay, cs_body_label(m, m->jnt_bodyid[j], buf, sizeof buf));
        }
    }
    cs_camera cam;
    cs_view_camera(&v, &cam);
    int model_cam = -1;
    if (o.camera && strchr(o.camera, ',')) {
        cs_camera_parse(o.camera, &cam); /* checked while parsing */
    } else if (o.camera) {
        long id;
        model_cam = cs_name2id(m, "camera", o.camera);
        if (model_cam < 0 && cs_arg_long(o.camera, &id) && id >= -1 && id < m->ncam)
            model_cam = (int)id;
        else if (model_cam < 0) {
            fprintf(stderr, "conesim view: --camera '%s': the scene has no camera of that name "
                            "or id (%d camera(s)%s", o.camera, m->ncam, m->ncam ? ":" : ")\n");
            for (int i = 0; i < m->ncam; i++)
                fprintf(stderr, " %s%s", m->cam_name[i] ? m->cam_name[i] : "(unnamed)",
                        i + 1 < m->ncam ? "," : ")\n");
            rc = CS_EXIT_USAGE;
            goto done;
        }
    }
    /* --steps/--duration: how far to go before the screenshot (or before the window
     * opens); in replay mode they count recorded frames and seconds of the recording. */
    double h = o.replay ? cs_view_replay_dt(&v) : m->opt.timestep;
    long n = o.steps >= 0 ? o.steps : 0;
    if (o.steps < 0 && o.duration >= 0 && !cs_arg_steps(o.duration, h, &n)) {
        fprintf(stderr, "conesim view: %g s at timestep %g s is too many steps to count\n",
                o.duration, h);
        rc = CS_EXIT_USAGE;
        goto done;
    }
    if (o.video) {
        rc = video(&v, &o, &cam, model_cam, h);
    } else if (o.screenshot) {
        rc = screenshot(&v, &o, &cam, model_cam, n, &out);
    } else {
        for (long k = 0; k < n && rc == CS_EXIT_OK; k++)
            if (cs_view_step(&v) != 0) {
                fprintf(stderr, "conesim view: warning: %s\n", v.message);
                rc = CS_EXIT_DIVERGED;
            }
        if (rc == CS_EXIT_OK) rc = window(&v, &o, &cam, model_cam);
    }
    if (o.dump_ctrl && have_view && (rc == CS_EXIT_OK || rc == CS_EXIT_DIVERGED)) {
        int rd = dump_ctrl(o.dump_ctrl, m, d);
        if (rc == CS_EXIT_OK) rc = rd;
    }
done:
    cs_ctrl_free(&sched);
    free(columns);
    png_out_discard(&out);
    if (have_view) cs_view_free(&v);
    cs_replay_free(&rep);
    cs_free_data(d);
    cs_free_model(m);
    return rc;
}
