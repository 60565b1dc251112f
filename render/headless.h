/* Off-screen rendering without a window, and video files: the parts of render/ that
 * `view --video` and libconesim_render use. Like render.h, nothing of sim/ here. */
#ifndef CS_RENDER_HEADLESS_H
#define CS_RENDER_HEADLESS_H

#include <stddef.h>

#include "render.h"

/* A context for cs_render_offscreen: EGL without any X server (Mesa's surfaceless
 * platform, else the device platform), else a hidden GLFW window (needs a display).
 * The environment variable CONESIM_GL=egl or =glfw allows only that one. samples: the
 * framebuffer's multisampling (as cs_renderer_set_samples). NULL with a message naming
 * why each way failed. */
cs_renderer *cs_renderer_create_headless(int samples, char *err, size_t errlen);
/* "egl" or "glfw": how r's context was made. */
const char *cs_renderer_backend(const cs_renderer *r);

/* ---------------------------------------------------------------- video */

/* An H.264 video being written (libavcodec's libx264, yuv420p, MP4 container unless the
 * file name says another one libavformat knows, e.g. .mkv). The frames go into a temporary
 * file next to path, renamed to path by cs_video_close: a failed or interrupted run leaves
 * no partial file. */
typedef struct cs_video cs_video;

/* 1 when built with video support, 0 when not (then cs_video_open always fails). */
int cs_video_available(void);
/* w x h frames (yuv420p needs even sizes: an odd last column or row is dropped), fps
 * frames a second (1 to 1000). NULL with a message naming the file. */
cs_video *cs_video_open(const char *path, int w, int h, int fps, char *err, size_t errlen);
/* One frame: rgb, 3 bytes a pixel, rows top to bottom (cs_render_offscreen's layout). */
int cs_video_write(cs_video *v, const unsigned char *rgb, char *err, size_t errlen);
/* Flushes the encoder, finishes the file, renames it to its path and frees v. Returns 0,
 * or -1 with a message (then nothing is left at path). */
int cs_video_close(cs_video *v, char *err, size_t errlen);
/* Frees v and removes the unfinished file. */
void cs_video_discard(cs_video *v);
/* The number of frames written so far. */
long cs_video_frames(const cs_video *v);

#endif
