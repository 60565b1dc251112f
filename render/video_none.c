/* Stands in for video.c when FFmpeg's libraries (libavcodec, libavformat, libswscale) were
 * not found at configure time: every video fails with a message saying so. */
#include <stdio.h>

#include "headless.h"

int cs_video_available(void) { return 0; }

cs_video *cs_video_open(const char *path, int w, int h, int fps, char *err, size_t errlen)
{
    (void)w, (void)h, (void)fps;
    snprintf(err, errlen, "cannot write '%s': built without video support (libavcodec-dev, "
                          "libavformat-dev, libswscale-dev)", path);
    return NULL;
}

int cs_video_write(cs_video *v, const unsigned char *rgb, char *err, size_t errlen)
{
    (void)v, (void)rgb;
    snprintf(err, errlen, "built without video support");
    return -1;
}

int cs_video_close(cs_video *v, char *err, size_t errlen)
{
    (void)v;
    snprintf(err, errlen, "built without video support");
    return -1;
}

void cs_video_discard(cs_video *v) { (void)v; }

long cs_video_frames(const cs_video *v) { (void)v; return 0; }
