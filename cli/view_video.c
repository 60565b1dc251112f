/* `conesim view --video`: frames sampled every 1/fps of simulated (or recorded) time, drawn
 * off-screen (EGL, else a hidden GLFW window) and encoded to H.264 (render/video.c). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "headless.h"
#include "view_video.h"

static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) { interrupted = sig; }

long cs_video_frame_count(double duration, int fps)
{
    double n = floor(duration * fps + 0.5);
    if (!(n >= 1)) return 1;
    return n > 1e9 ? -1 : (long)n;
}

long cs_video_frame_step(long k, int fps, double timestep)
{
    return (long)floor((double)k / (fps * timestep) + 0.5);
}

/* Takes the state of frame k: steps the simulation up to it, or shows the recorded frame. */
static int advance(cs_view *v, long k, int fps, double t0)
{
    if (v->replay) {
        /* a hair past the frame's time: recorded times are sums of timesteps */
        double t = t0 + (double)k / fps;
        cs_view_replay_show(v, cs_replay_frame_at(v->replay, t + 1e-9 * fmax(1, fabs(t))));
        return 0;
    }
    long target = cs_video_frame_step(k, fps, v->m->opt.timestep);
    while (v->nstep < target) {
        if (interrupted) return -1;
        if (cs_view_step(v) != 0) return 1;
    }
    return 0;
}

static void progress(long k, long n, const struct timespec *w0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double wall = (double)(now.tv_sec - w0->tv_sec) + 1e-9 * (double)(now.tv_nsec - w0->tv_nsec);
    double rate = wall > 0 ? k / wall : 0;
    int w = 30, filled = n ? (int)(w * k / n) : w;
    fprintf(stderr, "\r[%.*s%*s] %3d%%  frame %ld/%ld  %.1f frames/s  %.0f s left ", filled,
            "==============================", w - filled, "", n ? (int)(100 * k / n) : 100, k, n,
            rate, rate > 0 ? (n - k) / rate : 0.0);
    fflush(stderr);
}

int cs_view_video(cs_view *v, const cs_view_video_opts *o)
{
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    char err[1024];
    int rc = CS_EXIT_OK;
    unsigned char *rgb = malloc((size_t)o->width * o->height * 3);
    cs_renderer *r = NULL;
    cs_video *vid = NULL;
    if (!rgb) {
        fprintf(stderr, "conesim view: out of memory for a %dx%d image\n", o->width, o->height);
        rc = CS_EXIT_NOMEM;
        goto done;
    }
    /* The file first: an unwritable path fails before any GL or stepping. */
    vid = cs_video_open(o->path, o->width, o->height, o->fps, err, sizeof err);
    if (!vid) {
        fprintf(stderr, "conesim view: %s\n", err);
        rc = CS_EXIT_OUTPUT;
        goto done;
    }
    r = cs_renderer_create_headless(o->samples, err, sizeof err);
    if (!r) {
        fprintf(stderr, "conesim view: %s\n", err);
        rc = CS_EXIT_NODISPLAY;
        goto done;
    }
    double t0 = v->replay ? v->replay->time[0] : 0;
    cs_render_scene s;
    cs_render_scene_init(&s);
    /* a progress line on a terminal, as run's: frames, rate and time left (wall clock) */
    int bar = isatty(STDERR_FILENO);
    struct timespec w0;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    v->track_started = 0;
    for (long k = 0; k < o->nframe; k++) {
        int a = advance(v, k, o->fps, t0);
        if (a < 0 || interrupted) {
            fprintf(stderr, "conesim view: interrupted at frame %ld\n", k);
            rc = interrupted == SIGINT ? 130 : 143;
            goto done;
        }
        if (a > 0) {
            /* the frames so far stay: they show what led there */
            fprintf(stderr, "conesim view: %s%s (the video stops at %.6g s)\n",
                    v->nomem ? "" : "warning: ", v->message, (double)k / o->fps);
            rc = v->nomem ? CS_EXIT_NOMEM : CS_EXIT_DIVERGED;
            break;
        }
        s.selected_body = -1;
        cs_view_fill(v, &s);
        s.overlay = o->overlay;
        s.selected_contact = -1;
        s.offscreen = 1;
        cs_camera cam = o->camera;
        if (o->model_camera >= 0) cam = v->cameras[o->model_camera];
        else if (o->tracking) cs_view_track_camera(v, &cam);
        if (bar && (k % 5 == 0 || k + 1 == o->nframe)) progress(k + 1, o->nframe, &w0);
        if (cs_render_offscreen(r, &s, &cam, o->width, o->height, rgb, err,
                               sizeof err) != 0) {
            fprintf(stderr, "conesim view: rendering failed: %s\n", err);
            rc = CS_EXIT_NODISPLAY;
            goto done;
        }
        if (cs_video_write(vid, rgb, err, sizeof err) != 0) {
            fprintf(stderr, "conesim view: %s\n", err);
            rc = CS_EXIT_OUTPUT;
            goto done;
        }
    }
    if (bar) fputc('\n', stderr);
    bar = 0;
    if (cs_video_frames(vid) == 0) goto done; /* diverged in the first step: no file */
    cs_video *done_vid = vid;
    vid = NULL;
    if (cs_video_close(done_vid, err, sizeof err) != 0) {
        fprintf(stderr, "conesim view: %s\n", err);
        rc = CS_EXIT_OUTPUT;
    }
done:
    cs_video_discard(vid);
    cs_renderer_destroy(r);
    free(rgb);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}
