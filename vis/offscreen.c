/* cs_offscreen: the viewer's drawing without a window, over the same sim -> render adapter as
 * `conesim view` (vis/view_adapter.c), so every program gets the same pictures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim_render.h"
#include "headless.h"
#include "view_adapter.h"

struct cs_offscreen {
    const cs_model *m;
    int width, height;
    cs_renderer *r;
    cs_view view;
    cs_render_scene scene;
    cs_camera camera, camera0;
    unsigned overlay;
    int filled;             /* a state was taken (cs_offscreen_update) */
    int model_camera;       /* -1: the free camera; else the model's camera of that id */
    int tracking;           /* the free camera follows the moving bodies (videos' default) */
    cs_camera shown;        /* the camera of the last update */
};

cs_offscreen *cs_offscreen_new(const cs_model *m, int width, int height, char *err,
                               size_t errlen)
{
    if (!m || width < 1 || height < 1) {
        snprintf(err, errlen, "image size %dx%d: width and height must be at least 1", width,
                 height);
        return NULL;
    }
    cs_offscreen *o = calloc(1, sizeof *o);
    /* The extent and centre (default camera, arrow scale) come from qpos0, as MuJoCo's
     * model statistics: a data of its own for that moment only. */
    cs_data *d0 = o ? cs_make_data(m) : NULL;
    if (!d0 || cs_view_init(&o->view, m, d0, -1) != 0) {
        snprintf(err, errlen, "out of memory");
        cs_free_data(d0);
        free(o);
        return NULL;
    }
    o->view.d = NULL;
    cs_free_data(d0);
    o->m = m;
    o->width = width;
    o->height = height;
    cs_view_camera(&o->view, &o->camera0);
    o->camera = o->camera0;
    o->overlay = 0;
    o->model_camera = -1;
    o->shown = o->camera;
    cs_render_scene_init(&o->scene);
    o->r = cs_renderer_create_headless(4, err, errlen);
    if (!o->r) {
        cs_view_free(&o->view);
        free(o);
        return NULL;
    }
    return o;
}

void cs_offscreen_free(cs_offscreen *o)
{
    if (!o)
        return;
    cs_renderer_destroy(o->r);
    cs_view_free(&o->view);
    free(o);
}

const char *cs_offscreen_backend(const cs_offscreen *o) { return cs_renderer_backend(o->r); }

const char *cs_offscreen_gl_name(const cs_offscreen *o) { return cs_renderer_gl_name(o->r); }

static void camera_out(const cs_camera *c, double cam[6])
{
    cam[0] = c->azimuth;
    cam[1] = c->elevation;
    cam[2] = c->distance;
    memcpy(cam + 3, c->lookat, 3 * sizeof *cam);
}

void cs_offscreen_camera_default(const cs_offscreen *o, double cam[6])
{
    camera_out(&o->camera0, cam);
}

void cs_offscreen_camera_get(const cs_offscreen *o, double cam[6])
{
    camera_out(&o->camera, cam);
}

int cs_offscreen_set_camera(cs_offscreen *o, const double cam[6])
{
    for (int k = 0; k < 6; k++)
        if (!isfinite(cam[k]))
            return -1;
    if (!(cam[2] > 0))
        return -1;
    o->camera.azimuth = cam[0];
    o->camera.elevation = cam[1];
    o->camera.distance = cam[2];
    memcpy(o->camera.lookat, cam + 3, sizeof o->camera.lookat);
    return 0;
}

int cs_offscreen_set_overlay(cs_offscreen *o, const char *list, char *err, size_t errlen)
{
    unsigned f;
    char bad[64];
    if (cs_overlay_parse(list, &f, bad, sizeof bad) != 0) {
        snprintf(err, errlen, "unknown overlay '%s' (contacts, forces, cones, frames, joints, "
                              "wireframe, hud, or none)", bad);
        return -1;
    }
    o->overlay = f;
    return 0;
}

void cs_offscreen_set_samples(cs_offscreen *o, int samples)
{
    cs_renderer_set_samples(o->r, samples);
}

int cs_offscreen_set_model_camera(cs_offscreen *o, int id)
{
    if (id < -1 || id >= o->m->ncam)
        return -1;
    o->model_camera = id;
    return 0;
}

void cs_offscreen_set_tracking(cs_offscreen *o, int on)
{
    o->tracking = on != 0;
    o->view.track_started = 0; /* starts again from where the next update finds the bodies */
}

void cs_offscreen_update(cs_offscreen *o, cs_data *d)
{
    if (!o || !d)
        return;
    o->view.d = d;
    o->view.stale = 1;
    o->scene.selected_body = -1;
    cs_view_fill(&o->view, &o->scene);
    o->shown = o->camera;
    if (o->model_camera >= 0) {
        o->shown = o->view.cameras[o->model_camera];
    } else if (o->tracking) {
        cs_view_track_camera(&o->view, &o->shown);
        o->camera = o->shown;
    }
    o->view.d = NULL;
    o->filled = 1;
}

/* 0 when o has a state to draw and out is given, else -1 with a message. */
static int ready(const cs_offscreen *o, const void *out, char *err, size_t errlen)
{
    if (!o || !out) {
        snprintf(err, errlen, "no renderer (NULL: freed, or never made) or no output");
        return -1;
    }
    if (!o->filled) {
        snprintf(err, errlen, "no state to draw yet (update the scene from a data first)");
        return -1;
    }
    return 0;
}

int cs_offscreen_render(cs_offscreen *o, unsigned char *rgb, char *err, size_t errlen)
{
    if (ready(o, rgb, err, errlen) != 0)
        return -1;
    o->scene.overlay = o->overlay;
    o->scene.selected_contact = -1;
    o->scene.offscreen = 1;
    return cs_render_offscreen(o->r, &o->scene, &o->shown, o->width, o->height, rgb, err,
                               errlen);
}

int cs_offscreen_render_depth(cs_offscreen *o, float *depth, char *err, size_t errlen)
{
    if (ready(o, depth, err, errlen) != 0)
        return -1;
    return cs_render_offscreen_depth(o->r, &o->scene, &o->shown, o->width, o->height, depth,
                                     err, errlen);
}

int cs_offscreen_render_segmentation(cs_offscreen *o, int *seg, char *err, size_t errlen)
{
    if (ready(o, seg, err, errlen) != 0)
        return -1;
    /* the scene's geoms are the model's, in model order (view_adapter.c) */
    size_t n = (size_t)o->width * o->height;
    if (cs_render_offscreen_segment(o->r, &o->scene, &o->shown, o->width, o->height, seg, err,
                                    errlen) != 0)
        return -1;
    /* spread in place from the end: pixel k's pair lands at 2k, 2k + 1 >= k */
    for (size_t k = n; k-- > 0;) {
        int g = seg[k];
        seg[2 * k] = g;
        seg[2 * k + 1] = g < 0 ? -1 : CS_OBJ_GEOM;
    }
    return 0;
}
