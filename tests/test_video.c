/* `conesim view --video` through the command: the file decodes (libavformat) as H.264 with
 * duration x fps frames, the sliding box of incline_slide.xml moves between the first and the
 * last frame where the camera shows it, and the sky stays put; a replay video has one frame
 * per 1/fps of recorded time; bad options and unwritable files get their exit codes.
 *   test_video MODE   MODE egl: no DISPLAY (EGL only); glfw: CONESIM_GL=glfw (run under
 *                     render/with-display.sh). Exit 77 when that context cannot be had. */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conesim.h"
#include "render.h"
#include "view_adapter.h"

static int failures;
#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);        \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fprintf(stderr, "\n");                                                           \
            failures++;                                                                      \
        }                                                                                    \
    } while (0)

static const char *mode;
static char dir[] = "/tmp/conesim-video-XXXXXX";

/* Runs conesim with args (NULL-terminated) in the test's mode; returns the exit code. */
static int run(const char *const *args)
{
    const char *argv[40];
    int n = 0;
    argv[n++] = CS_CONESIM;
    argv[n++] = "view";
    for (int i = 0; args[i] && n < 39; i++) argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        if (strcmp(mode, "egl") == 0) {
            unsetenv("DISPLAY");
            unsetenv("WAYLAND_DISPLAY");
            setenv("CONESIM_GL", "egl", 1);
        } else {
            setenv("CONESIM_GL", "glfw", 1);
        }
        execv(CS_CONESIM, (char *const *)argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct {
    int nframe, w, h, codec_h264;
    double fps;
    unsigned char *first, *last; /* rgb, rows top to bottom */
} decoded;

/* Decodes every frame of path; keeps the first and the last as rgb. Returns 0 or -1. */
static int decode(const char *path, decoded *out)
{
    memset(out, 0, sizeof *out);
    AVFormatContext *fmt = NULL;
    if (avformat_open_input(&fmt, path, NULL, NULL) < 0) return -1;
    int rc = -1;
    AVCodecContext *dec = NULL;
    AVFrame *fr = av_frame_alloc();
    AVPacket *pkt = av_packet_alloc();
    struct SwsContext *sws = NULL;
    if (avformat_find_stream_info(fmt, NULL) < 0) goto done;
    int si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (si < 0) goto done;
    AVStream *st = fmt->streams[si];
    const AVCodec *codec = avcodec_find_decoder(st->codecpar->codec_id);
    out->codec_h264 = st->codecpar->codec_id == AV_CODEC_ID_H264;
    out->fps = av_q2d(st->avg_frame_rate);
    if (!codec || !(dec = avcodec_alloc_context3(codec))) goto done;
    if (avcodec_parameters_to_context(dec, st->codecpar) < 0) goto done;
    if (avcodec_open2(dec, codec, NULL) < 0) goto done;
    out->w = dec->width;
    out->h = dec->height;
    size_t size = (size_t)out->w * out->h * 3;
    out->first = malloc(size);
    out->last = malloc(size);
    if (!out->first || !out->last) goto done;
    int eof = 0;
    while (!eof) {
        int e = av_read_frame(fmt, pkt);
        if (e < 0) {
            eof = 1;
            avcodec_send_packet(dec, NULL);
        } else if (pkt->stream_index != si) {
            av_packet_unref(pkt);
            continue;
        } else {
            avcodec_send_packet(dec, pkt);
            av_packet_unref(pkt);
        }
        while (avcodec_receive_frame(dec, fr) == 0) {
            sws = sws_getCachedContext(sws, fr->width, fr->height, fr->format, out->w, out->h,
                                       AV_PIX_FMT_RGB24, SWS_POINT, NULL, NULL, NULL);
            if (!sws) goto done;
            uint8_t *dst[1] = {out->nframe == 0 ? out->first : out->last};
            int stride[1] = {3 * out->w};
            sws_scale(sws, (const uint8_t *const *)fr->data, fr->linesize, 0, fr->height, dst,
                      stride);
            if (out->nframe == 0) memcpy(out->last, out->first, size);
            out->nframe++;
        }
    }
    rc = 0;
done:
    sws_freeContext(sws);
    av_packet_free(&pkt);
    av_frame_free(&fr);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    return rc;
}

static void decoded_free(decoded *d)
{
    free(d->first);
    free(d->last);
}

/* Mean absolute difference of the first and last frame over a square of half-size r
 * around pixel (x, y), all three channels. */
static double region_diff(const decoded *v, double x, double y, int r)
{
    double sum = 0;
    int n = 0;
    for (int j = (int)y - r; j <= (int)y + r; j++)
        for (int i = (int)x - r; i <= (int)x + r; i++) {
            if (i < 0 || j < 0 || i >= v->w || j >= v->h) continue;
            for (int c = 0; c < 3; c++) {
                size_t k = ((size_t)j * v->w + i) * 3 + c;
                sum += fabs((double)v->first[k] - v->last[k]);
                n++;
            }
        }
    return n ? sum / n : 0;
}

/* The default camera `conesim view` uses for m, and the box's pixel at step n. */
static void box_pixel(const cs_model *m, long n, int w, int h, cs_camera *cam, double px[2])
{
    cs_data *d = cs_make_data(m);
    cs_view v;
    if (!d || cs_view_init(&v, m, d, -1) != 0) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    cs_camera_default(cam, v.extent, v.center);
    for (long k = 0; k < n; k++) cs_step(m, d);
    cs_forward(m, d);
    int box = cs_name2id_body(m, "box");
    cs_camera_project(cam, w, h, d->xpos + 3 * box, px);
    cs_view_free(&v);
    cs_free_data(d);
}

static void test_bad_options(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/x.mp4", dir);
    const char *fps0[] = {CS_SCENES "/incline_slide.xml", "--video", path, "--fps", "0", NULL};
    CHECK(run(fps0) == 2, "--fps 0 is a command-line error");
    const char *both[] = {CS_SCENES "/incline_slide.xml", "--video", path, "--screenshot",
                          "x.png", NULL};
    CHECK(run(both) == 2, "--video with --screenshot is a command-line error");
    const char *nofile[] = {CS_SCENES "/incline_slide.xml", "--fps", "30", NULL};
    CHECK(run(nofile) == 2, "--fps without --video is a command-line error");
    const char *isdir[] = {CS_SCENES "/incline_slide.xml", "--video", dir, NULL};
    CHECK(run(isdir) == 4, "a directory as the video file: exit 4");
    struct stat st;
    CHECK(stat(path, &st) != 0, "no file left behind by failed runs");
}

/* Returns 77 when the mode's GL context cannot be had. */
static int test_sim_video(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/slide.mp4", dir);
    /* MuJoCo's default free camera, held still (the default follows the box) */
    char err[512], camarg[256];
    cs_model *m = cs_load_xml(CS_SCENES "/incline_slide.xml", stderr, err, sizeof err);
    CHECK(m != NULL, "%s", err);
    if (!m) return 0;
    cs_camera cam;
    double p0[2], p1[2];
    box_pixel(m, 0, 160, 120, &cam, p0);
    snprintf(camarg, sizeof camarg, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", cam.azimuth,
             cam.elevation, cam.distance, cam.lookat[0], cam.lookat[1], cam.lookat[2]);
    const char *args[] = {CS_SCENES "/incline_slide.xml", "--video", path, "--duration", "0.5",
                          "--fps", "30", "--width", "160", "--height", "120", "--overlay",
                          "none", "--camera", camarg, NULL};
    int rc = run(args);
    if (rc != 0) cs_free_model(m);
    if (rc == 5) return 77;
    CHECK(rc == 0, "exit %d", rc);
    if (rc != 0) return 0;
    decoded v;
    CHECK(decode(path, &v) == 0, "%s decodes", path);
    CHECK(v.codec_h264, "the stream is H.264");
    CHECK(v.w == 160 && v.h == 120, "frame size %dx%d", v.w, v.h);
    CHECK(fabs(v.fps - 30) < 1e-6, "frame rate %g", v.fps);
    CHECK(abs(v.nframe - 15) <= 1, "0.5 s at 30 fps: %d frames", v.nframe);

    /* Where the box is in the first frame (t = 0) and in the last (t = 14/30 s: the step
     * nearest it), with the camera the command uses. */
    long last = lround((double)(v.nframe - 1) / 30 / m->opt.timestep);
    box_pixel(m, last, 160, 120, &cam, p1);
    double moved = hypot(p1[0] - p0[0], p1[1] - p0[1]);
    CHECK(moved > 3, "the box crosses %g pixels in %ld steps", moved, last);
    /* Along the way the box went: around the midpoint of its start and end pixels, the
     * picture changed (the box's edges moved past); the sky in the top corners did not. */
    double mx = 0.5 * (p0[0] + p1[0]), my = 0.5 * (p0[1] + p1[1]);
    double dmax = 0;
    for (double s = -1.5; s <= 1.5; s += 0.25) {
        double ex = mx + s * (p1[0] - p0[0]), ey = my + s * (p1[1] - p0[1]);
        dmax = fmax(dmax, region_diff(&v, ex, ey, 2));
    }
    CHECK(dmax > 20, "largest mean difference along the box's path %g (of 255)", dmax);
    double sky = fmax(region_diff(&v, 4, 4, 3), region_diff(&v, 155, 4, 3));
    CHECK(sky < 4, "the sky changes by %g", sky);
    fprintf(stderr, "%s: %d frames, box moved %.1f px, path difference %.1f, sky %.2f\n", mode,
            v.nframe, moved, dmax, sky);
    cs_free_model(m);
    decoded_free(&v);
    unlink(path);
    return 0;
}

static void test_replay_video(void)
{
    char csv[512], path[512];
    snprintf(csv, sizeof csv, "%s/traj.csv", dir);
    snprintf(path, sizeof path, "%s/replay.mkv", dir);
    /* conesim run with the environment as it is: no GL needed */
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --duration 0.4 --record '%s' --every 5 >/dev/null",
             CS_CONESIM, CS_SCENES "/incline_slide.xml", csv);
    CHECK(system(cmd) == 0, "%s", cmd);
    const char *args[] = {CS_SCENES "/incline_slide.xml", "--replay", csv, "--video", path,
                          "--fps", "20", "--width", "96", "--height", "64", NULL};
    int rc = run(args);
    CHECK(rc == 0, "exit %d", rc);
    decoded v;
    CHECK(rc == 0 && decode(path, &v) == 0, "%s decodes", path);
    if (rc != 0) return;
    /* 0.4 s of recording (0 .. 0.4) at 20 fps: frames at 0, 0.05, ..., 0.4 */
    CHECK(abs(v.nframe - 9) <= 1, "replay of 0.4 s at 20 fps: %d frames", v.nframe);
    CHECK(v.w == 96 && v.h == 64, "frame size %dx%d", v.w, v.h);
    decoded_free(&v);
    unlink(path);
    unlink(csv);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "egl") != 0 && strcmp(argv[1], "glfw") != 0)) {
        fprintf(stderr, "usage: test_video egl|glfw\n");
        return 2;
    }
    mode = argv[1];
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_bad_options();
    int skip = test_sim_video();
    if (skip != 77) test_replay_video();
    rmdir(dir);
    if (skip == 77 && failures == 0) {
        fprintf(stderr, "skip: no OpenGL context in mode %s\n", mode);
        return 77;
    }
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
