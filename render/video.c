/* H.264 video files through FFmpeg's libraries (libavcodec with libx264, libavformat,
 * libswscale): frames go to the encoder in memory, no ffmpeg program in between. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include "headless.h"

struct cs_video {
    char *path, *tmp;
    int w, h;               /* the rgb frames */
    AVFormatContext *fmt;
    AVCodecContext *enc;
    AVStream *st;
    AVFrame *frame;
    AVPacket *pkt;
    struct SwsContext *sws;
    long n;
    int header;             /* the container header is written */
};

int cs_video_available(void) { return 1; }

static void av_message(int e, char *buf, size_t len)
{
    char tmp[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(e, tmp, sizeof tmp);
    snprintf(buf, len, "%s", tmp);
}

static void video_free(cs_video *v)
{
    if (!v)
        return;
    sws_freeContext(v->sws);
    av_frame_free(&v->frame);
    av_packet_free(&v->pkt);
    avcodec_free_context(&v->enc);
    if (v->fmt) {
        if (v->fmt->pb)
            avio_closep(&v->fmt->pb);
        avformat_free_context(v->fmt);
    }
    free(v->path);
    free(v->tmp);
    free(v);
}

void cs_video_discard(cs_video *v)
{
    if (!v)
        return;
    if (v->tmp)
        unlink(v->tmp);
    video_free(v);
}

long cs_video_frames(const cs_video *v) { return v->n; }

cs_video *cs_video_open(const char *path, int w, int h, int fps, char *err, size_t errlen)
{
    if (w < 2 || h < 2 || fps < 1 || fps > 1000) {
        snprintf(err, errlen, "%s: a video needs at least 2x2 pixels and 1 to 1000 frames a "
                              "second (got %dx%d at %d)", path, w, h, fps);
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot write '%s': it is a directory", path);
        return NULL;
    }
    cs_video *v = calloc(1, sizeof *v);
    size_t n = strlen(path);
    if (!v || !(v->path = strdup(path)) || !(v->tmp = malloc(n + 8))) {
        snprintf(err, errlen, "out of memory");
        video_free(v);
        return NULL;
    }
    v->w = w;
    v->h = h;
    memcpy(v->tmp, path, n);
    memcpy(v->tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(v->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        free(v->tmp);
        v->tmp = NULL;
        video_free(v);
        return NULL;
    }
    /* mkstemp makes it 0600; a video is an ordinary file (0666 less the umask). */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    close(fd);
    /* libx264 prints its settings at the default level, and muxers print their complaints:
     * every failure comes back as this function's message instead */
    if (av_log_get_level() == AV_LOG_INFO)
        av_log_set_level(AV_LOG_QUIET);

    const AVOutputFormat *of = av_guess_format(NULL, path, NULL);
    if (!of || of->video_codec == AV_CODEC_ID_NONE)
        of = av_guess_format("mp4", NULL, NULL);
    if (of && avformat_query_codec(of, AV_CODEC_ID_H264, FF_COMPLIANCE_NORMAL) != 1) {
        snprintf(err, errlen, "%s: the %s container cannot hold H.264 video (name the file "
                              ".mp4 or .mkv)", path, of->name);
        unlink(v->tmp);
        free(v->tmp);
        v->tmp = NULL;
        video_free(v);
        return NULL;
    }
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    if (!codec)
        codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    char why[128] = "";
    int e = 0;
    if (!of || !codec) {
        snprintf(err, errlen, "%s: libavcodec has no H.264 encoder (Debian's libavcodec "
                              "includes libx264)", path);
        goto fail;
    }
    if ((e = avformat_alloc_output_context2(&v->fmt, of, NULL, v->tmp)) < 0 || !v->fmt)
        goto fail_av;
    v->enc = avcodec_alloc_context3(codec);
    v->frame = av_frame_alloc();
    v->pkt = av_packet_alloc();
    if (!v->enc || !v->frame || !v->pkt) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    v->enc->width = w & ~1;
    v->enc->height = h & ~1;
    v->enc->pix_fmt = AV_PIX_FMT_YUV420P;
    v->enc->time_base = (AVRational){1, fps};
    v->enc->framerate = (AVRational){fps, 1};
    v->enc->gop_size = fps > 1 ? 2 * fps : 12;
    if (v->fmt->oformat->flags & AVFMT_GLOBALHEADER)
        v->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    /* Sharp edges of flat-shaded geoms and thin arrows: a low CRF keeps them clean. */
    av_opt_set(v->enc->priv_data, "preset", "veryfast", 0);
    av_opt_set(v->enc->priv_data, "crf", "18", 0);
    if ((e = avcodec_open2(v->enc, codec, NULL)) < 0)
        goto fail_av;
    v->st = avformat_new_stream(v->fmt, NULL);
    if (!v->st) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    v->st->time_base = v->enc->time_base;
    v->st->avg_frame_rate = v->enc->framerate;
    if ((e = avcodec_parameters_from_context(v->st->codecpar, v->enc)) < 0)
        goto fail_av;
    v->frame->format = v->enc->pix_fmt;
    v->frame->width = v->enc->width;
    v->frame->height = v->enc->height;
    if ((e = av_frame_get_buffer(v->frame, 0)) < 0)
        goto fail_av;
    v->sws = sws_getContext(v->enc->width, v->enc->height, AV_PIX_FMT_RGB24, v->enc->width,
                            v->enc->height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, NULL, NULL, NULL);
    if (!v->sws) {
        snprintf(err, errlen, "%s: no RGB to YUV conversion", path);
        goto fail;
    }
    if ((e = avio_open(&v->fmt->pb, v->tmp, AVIO_FLAG_WRITE)) < 0)
        goto fail_av;
    AVDictionary *opt = NULL;
    /* The index first: players start before the whole file has arrived. */
    if (strcmp(v->fmt->oformat->name, "mp4") == 0 || strcmp(v->fmt->oformat->name, "mov") == 0)
        av_dict_set(&opt, "movflags", "+faststart", 0);
    e = avformat_write_header(v->fmt, &opt);
    av_dict_free(&opt);
    if (e < 0)
        goto fail_av;
    v->header = 1;
    return v;
fail_av:
    av_message(e, why, sizeof why);
    snprintf(err, errlen, "cannot write '%s': %s", path, why);
fail:
    cs_video_discard(v);
    return NULL;
}

/* Sends frame (NULL: end of stream) and writes every packet the encoder has ready. */
static int encode(cs_video *v, AVFrame *frame, char *err, size_t errlen)
{
    int e = avcodec_send_frame(v->enc, frame);
    while (e >= 0) {
        e = avcodec_receive_packet(v->enc, v->pkt);
        if (e == AVERROR(EAGAIN) || e == AVERROR_EOF)
            return 0;
        if (e < 0)
            break;
        av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
        v->pkt->stream_index = v->st->index;
        e = av_interleaved_write_frame(v->fmt, v->pkt);
    }
    char why[128];
    av_message(e, why, sizeof why);
    snprintf(err, errlen, "cannot write '%s': %s", v->path, why);
    return -1;
}

int cs_video_write(cs_video *v, const unsigned char *rgb, char *err, size_t errlen)
{
    int e = av_frame_make_writable(v->frame);
    if (e < 0) {
        char why[128];
        av_message(e, why, sizeof why);
        snprintf(err, errlen, "%s: %s", v->path, why);
        return -1;
    }
    const uint8_t *src[1] = {rgb};
    const int stride[1] = {3 * v->w};
    sws_scale(v->sws, src, stride, 0, v->enc->height, v->frame->data, v->frame->linesize);
    v->frame->pts = v->n;
    if (encode(v, v->frame, err, errlen) != 0)
        return -1;
    v->n++;
    return 0;
}

int cs_video_close(cs_video *v, char *err, size_t errlen)
{
    int rc = encode(v, NULL, err, errlen);
    if (rc == 0) {
        int e = av_write_trailer(v->fmt);
        if (e >= 0)
            e = avio_closep(&v->fmt->pb);
        if (e < 0) {
            char why[128];
            av_message(e, why, sizeof why);
            snprintf(err, errlen, "cannot write '%s': %s", v->path, why);
            rc = -1;
        }
    }
    if (rc == 0 && rename(v->tmp, v->path) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", v->path, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        free(v->tmp);
        v->tmp = NULL;
    }
    cs_video_discard(v);
    return rc;
}
