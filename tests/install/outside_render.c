/* A program outside the tree on libconesim_render, built with `pkg-config conesim-render`:
 * ten frames of the sliding box of incline_slide.xml (0.04 s apart) into a video; its pixels
 * move between the first and the last frame; its depth and segmentation pictures; the passive
 * window failing without a display. Exit 77 when no GL context can be had (neither
 * EGL nor a display). */
#include <conesim/conesim_render.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: outside_render SCENE OUT.mp4\n");
        return 2;
    }
    char err[1024];
    cs_model *m = cs_load_xml(argv[1], NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    cs_data *d = cs_make_data(m);
    cs_offscreen *o = cs_offscreen_new(m, 64, 48, err, sizeof err);
    if (!o) {
        fprintf(stderr, "skip: %s\n", err);
        cs_free_data(d);
        cs_free_model(m);
        return 77;
    }
    unsigned char *rgb = malloc(64 * 48 * 3), *first = malloc(64 * 48 * 3);
    cs_video *v = cs_video_open(argv[2], 64, 48, 10, err, sizeof err);
    int rc = !v || !rgb || !first;
    if (!v) fprintf(stderr, "%s\n", err);
    for (int k = 0; k < 10 && !rc; k++) {
        cs_offscreen_update(o, d);
        rc = cs_offscreen_render(o, rgb, err, sizeof err) || cs_video_write(v, rgb, err, sizeof err);
        if (rc) fprintf(stderr, "%s\n", err);
        if (k == 0) memcpy(first, rgb, 64 * 48 * 3);
        for (int i = 0; i < 20; i++) cs_step(m, d);
    }
    if (!rc && cs_video_frames(v) != 10) {
        fprintf(stderr, "%ld frames written, expected 10\n", cs_video_frames(v));
        rc = 1;
    }
    if (!rc && memcmp(first, rgb, 64 * 48 * 3) == 0) {
        fprintf(stderr, "the first and the last frame are the same\n");
        rc = 1;
    }
    if (v && cs_video_close(v, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        rc = 1;
    }
    /* depth and segmentation of the last state: every pixel at a positive finite depth,
     * some on a geom (id in range, type CS_OBJ_GEOM), the rest -1 -1 */
    float *depth = malloc(64 * 48 * sizeof *depth);
    int *seg = malloc(64 * 48 * 2 * sizeof *seg);
    if (!rc && (!depth || !seg || cs_offscreen_render_depth(o, depth, err, sizeof err) != 0 ||
                cs_offscreen_render_segmentation(o, seg, err, sizeof err) != 0)) {
        fprintf(stderr, "depth or segmentation: %s\n", err);
        rc = 1;
    }
    int ongeom = 0;
    for (int k = 0; k < 64 * 48 && !rc; k++) {
        int id = seg[2 * k], type = seg[2 * k + 1];
        ongeom += id >= 0;
        if (!(depth[k] > 0 && depth[k] < 1e30f) || (id < 0 ? type != -1 : type != CS_OBJ_GEOM) ||
            id >= m->ngeom) {
            fprintf(stderr, "pixel %d: depth %g, segmentation %d %d\n", k, depth[k], id, type);
            rc = 1;
        }
    }
    if (!rc && ongeom == 0) {
        fprintf(stderr, "no geom in the segmentation\n");
        rc = 1;
    }
    free(depth);
    free(seg);
    /* no display here: the passive window cannot open, and says so */
    cs_passive *pv = cs_passive_open(m, 64, 48, "outside", err, sizeof err);
    if (!rc && (pv || !err[0])) {
        fprintf(stderr, "a passive window opened with no display\n");
        rc = 1;
    }
    cs_passive_close(pv);
    if (!rc && (cs_passive_sync(NULL, d) != -1 || cs_passive_running(NULL))) {
        fprintf(stderr, "cs_passive_sync(NULL) or cs_passive_running(NULL) did something\n");
        rc = 1;
    }
    if (!rc) printf("outside_render: 10 frames through %s\n", cs_offscreen_backend(o));
    cs_offscreen_free(o);
    free(rgb);
    free(first);
    cs_free_data(d);
    cs_free_model(m);
    return rc;
}
