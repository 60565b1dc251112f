/* `conesim view --video` (view_video.c). */
#ifndef CS_VIEW_VIDEO_H
#define CS_VIEW_VIDEO_H

#include "view_adapter.h"

typedef struct {
    const char *path;
    int width, height, fps;
    long nframe;            /* frames k = 0 .. nframe-1 at k / fps seconds from the start */
    int samples;            /* multisampling of the frames */
    unsigned overlay;
    cs_camera camera;       /* the free camera (when model_camera is -1 and not tracking) */
    int model_camera;       /* >= 0: the scene's camera of that id, posed each frame */
    int tracking;           /* 1: cs_view_track_camera each frame (the default) */
} cs_view_video_opts;

/* Frames in a video of `duration` seconds at fps: round(duration * fps), at least 1
 * (-1 when absurdly many). */
long cs_video_frame_count(double duration, int fps);
/* The step whose state frame k shows: the one nearest k / fps seconds, round(k / (fps h)). */
long cs_video_frame_step(long k, int fps, double timestep);

/* Renders and encodes the video from v's current state (the start). Returns an exit code
 * (CS_EXIT_*, 130/143 when interrupted), with messages on stderr. */
int cs_view_video(cs_view *v, const cs_view_video_opts *o);

#endif
