/* cs_passive: `conesim view`'s window driven by its caller (MuJoCo's launch_passive), over
 * the same sim -> render adapter (vis/view_adapter.c) and window (render/passive.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim_render.h"
#include "view_adapter.h"

struct cs_passive {
    const cs_model *m;
    cs_view view;       /* view.d is the data of the sync under way, NULL between syncs */
    cs_window *w;
    double *xfrc;       /* d's applied forces before a perturbation's (6 per body) */
    int perturbed;      /* the body whose applied force the last sync set (0: none) */
};

static void fill(void *user, cs_render_scene *s)
{
    cs_passive *p = user;
    cs_view_fill(&p->view, s);
}

static void reset(void *user)
{
    cs_passive *p = user;
    cs_view_reset(&p->view);
    p->view.stale = 1; /* the reset state's kinematics and contacts before it is drawn */
}

static void set_ctrl(void *user, int i, double value)
{
    cs_passive *p = user;
    cs_view_set_ctrl(&p->view, i, value);
}

/* Ctrl+drag: the spring force on the grabbed body in d->xfrc_applied while the drag lasts
 * (cs_view_perturb), the other bodies' applied forces left as the caller set them; the
 * grabbed body's row goes back to zero when the drag ends. */
static void perturb(void *user, const cs_perturb *pt)
{
    cs_passive *p = user;
    cs_data *d = p->view.d;
    size_t row = 6 * sizeof *d->xfrc_applied;
    if (p->perturbed > 0) {
        memset(d->xfrc_applied + 6 * p->perturbed, 0, row);
        p->perturbed = 0;
    }
    if (!pt->active || pt->body <= 0 || pt->body >= p->m->nbody)
        return;
    memcpy(p->xfrc, d->xfrc_applied, (size_t)p->m->nbody * row);
    cs_view_perturb(&p->view, pt); /* clears every body's, sets the grabbed one's */
    for (int b = 0; b < p->m->nbody; b++)
        if (b != pt->body)
            memcpy(d->xfrc_applied + 6 * b, p->xfrc + 6 * b, row);
    p->perturbed = pt->body;
}

cs_passive *cs_passive_open(const cs_model *m, int width, int height, const char *title,
                            char *err, size_t errlen)
{
    if (!m || width < 1 || height < 1) {
        snprintf(err, errlen, "window size %dx%d: width and height must be at least 1", width,
                 height);
        return NULL;
    }
    cs_passive *p = calloc(1, sizeof *p);
    /* extent and centre (the default camera) from qpos0, as cs_offscreen_new */
    cs_data *d0 = p ? cs_make_data(m) : NULL;
    if (p)
        p->xfrc = calloc(6 * (size_t)m->nbody, sizeof *p->xfrc);
    if (!d0 || !p->xfrc || cs_view_init(&p->view, m, d0, -1) != 0) {
        snprintf(err, errlen, "out of memory");
        cs_free_data(d0);
        if (p)
            free(p->xfrc);
        free(p);
        return NULL;
    }
    p->view.d = NULL;
    cs_free_data(d0);
    p->m = m;
    cs_viewer_options o;
    cs_viewer_options_init(&o);
    o.width = width;
    o.height = height;
    o.title = title ? title : "conesim";
    o.vsync = 0; /* the caller paces its loop: a sync never waits for the screen */
    cs_view_camera(&p->view, &o.camera);
    cs_viewer_callbacks cb = {.user = p, .fill = fill, .reset = reset, .set_ctrl = set_ctrl,
                              .perturb = perturb};
    p->w = cs_window_open(&o, &cb, err, errlen);
    if (!p->w) {
        cs_view_free(&p->view);
        free(p->xfrc);
        free(p);
        return NULL;
    }
    return p;
}

int cs_passive_sync(cs_passive *p, cs_data *d)
{
    if (!p || !d)
        return -1;
    p->view.d = d;
    p->view.stale = 1;
    int rc = cs_window_sync(p->w);
    p->view.d = NULL;
    return rc;
}

int cs_passive_running(const cs_passive *p)
{
    return p && cs_window_running(p->w);
}

int cs_passive_next_key(cs_passive *p)
{
    return p ? cs_window_next_key(p->w) : -1;
}

void cs_passive_size(const cs_passive *p, int *width, int *height)
{
    cs_window_size(p ? p->w : NULL, width, height);
}

int cs_passive_read_pixels(cs_passive *p, unsigned char *rgb, int width, int height, char *err,
                           size_t errlen)
{
    if (!p) {
        snprintf(err, errlen, "no viewer (NULL: closed, or never opened)");
        return -1;
    }
    return cs_window_read_rgb(p->w, rgb, width, height, err, errlen);
}

void cs_passive_close(cs_passive *p)
{
    if (!p)
        return;
    cs_window_close(p->w);
    cs_view_free(&p->view);
    free(p->xfrc);
    free(p);
}
