/* cs_passive: `conesim view`'s window driven by its caller (MuJoCo's launch_passive), over
 * the same sim -> render adapter (vis/view_adapter.c) and window (render/passive.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim_render.h"
#include "view_adapter.h"

/* the overlay bits conesim_render.h promises */
_Static_assert(CS_OVERLAY_CONTACTS == 1 && CS_OVERLAY_FORCES == 2 && CS_OVERLAY_CONES == 4 &&
                   CS_OVERLAY_FRAMES == 8 && CS_OVERLAY_WIREFRAME == 16 &&
                   CS_OVERLAY_HUD == 32 && CS_OVERLAY_JOINTS == 64 &&
                   CS_OVERLAY_CONTROLS == 128,
               "cs_passive_option's overlay bits");

struct cs_passive {
    const cs_model *m;
    cs_view view;       /* view.d is the data of the sync under way, NULL between syncs */
    cs_window *w;
    double *xfrc;       /* d's applied forces before a perturbation's (6 per body) */
    int perturbed;      /* the body whose applied force the last sync set (0: none) */
    int fixedcamid, trackbodyid; /* the camera's ids while its type uses the other one */
    cs_passive_perturb pert;     /* as the last sync saw it */
    cs_render_geom *user;        /* the caller's shapes (nuser), then the scene's geoms and
                                  * them together (cap_all) */
    int nuser;
    cs_render_geom *all;
    int cap_all;
};

static void fill(void *user, cs_render_scene *s)
{
    cs_passive *p = user;
    cs_view_fill(&p->view, s);
    if (p->nuser == 0)
        return;
    int n = s->ngeom + p->nuser;
    if (n > p->cap_all) {
        cs_render_geom *a = realloc(p->all, (size_t)n * sizeof *a);
        if (!a)
            return; /* drawn without them this time */
        p->all = a;
        p->cap_all = n;
    }
    memcpy(p->all, s->geoms, (size_t)s->ngeom * sizeof *p->all);
    memcpy(p->all + s->ngeom, p->user, (size_t)p->nuser * sizeof *p->all);
    s->geoms = p->all;
    s->ngeom = n;
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
    p->fixedcamid = p->trackbodyid = -1;
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

/* the selection and pull in MuJoCo's terms, from d's poses at this sync */
static void note_perturb(cs_passive *p, const cs_data *d)
{
    const cs_viewer_state *v = cs_window_state(p->w);
    cs_passive_perturb *q = &p->pert;
    memset(q, 0, sizeof *q);
    if (!v)
        return;
    q->select = v->selected_body > 0 && v->selected_body < p->m->nbody ? v->selected_body : 0;
    int b = v->perturb_body, g = v->perturb_geom;
    if (!v->perturb_active || b <= 0 || b >= p->m->nbody || g < 0 || g >= p->m->ngeom)
        return;
    q->active = 1;
    const cs_pose *gp = &d->geom_xpose[g];
    const double *xp = d->xpos + 3 * b, *xm = d->xmat + 9 * b, *u = v->perturb_local;
    double w[3], r[3];
    for (int i = 0; i < 3; i++)
        w[i] = gp->pos[i] + gp->mat[3 * i] * u[0] + gp->mat[3 * i + 1] * u[1] +
               gp->mat[3 * i + 2] * u[2];
    for (int i = 0; i < 3; i++)
        r[i] = w[i] - xp[i];
    for (int i = 0; i < 3; i++) {
        q->localpos[i] = xm[i] * r[0] + xm[3 + i] * r[1] + xm[6 + i] * r[2];
        q->refselpos[i] = v->perturb_target[i];
    }
    for (int i = 0; i < 3; i++)
        q->refpos[i] = q->refselpos[i] - (xm[3 * i] * q->localpos[0] +
                                          xm[3 * i + 1] * q->localpos[1] +
                                          xm[3 * i + 2] * q->localpos[2]);
}

int cs_passive_sync(cs_passive *p, cs_data *d)
{
    if (!p || !d)
        return -1;
    p->view.d = d;
    p->view.stale = 1;
    int rc = cs_window_sync(p->w);
    note_perturb(p, d);
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
    free(p->user);
    free(p->all);
    free(p);
}

static int finite_all(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

void cs_passive_get_camera(const cs_passive *p, cs_passive_camera *c)
{
    memset(c, 0, sizeof *c);
    c->fixedcamid = c->trackbodyid = -1;
    const cs_viewer_state *v = p ? cs_window_state(p->w) : NULL;
    if (!v)
        return;
    c->type = v->model_camera >= 0 ? 2 : v->track_body >= 0 ? 1 : 0;
    c->fixedcamid = v->model_camera >= 0 ? v->model_camera : p->fixedcamid;
    c->trackbodyid = v->track_body >= 0 ? v->track_body : p->trackbodyid;
    memcpy(c->lookat, v->camera.lookat, sizeof c->lookat);
    c->distance = v->camera.distance;
    c->azimuth = v->camera.azimuth;
    c->elevation = v->camera.elevation;
}

int cs_passive_set_camera(cs_passive *p, const cs_passive_camera *c, char *err, size_t errlen)
{
    cs_viewer_state *v = p ? cs_window_state(p->w) : NULL;
    if (!v || !c) {
        snprintf(err, errlen, "no viewer (NULL: closed, or never opened)");
        return -1;
    }
    if (c->type == 3) {
        snprintf(err, errlen, "camera type 3 (MuJoCo's user camera): conesim's viewer poses "
                 "its camera itself; use 0 free, 1 tracking or 2 fixed");
        return -1;
    }
    if (c->type < 0 || c->type > 2) {
        snprintf(err, errlen, "camera type %d: expected 0 free, 1 tracking or 2 fixed",
                 c->type);
        return -1;
    }
    if (c->type == 2 && (c->fixedcamid < 0 || c->fixedcamid >= p->m->ncam)) {
        snprintf(err, errlen, "fixedcamid %d: the model has %d camera%s (ids 0 to %d)",
                 c->fixedcamid, p->m->ncam, p->m->ncam == 1 ? "" : "s", p->m->ncam - 1);
        return -1;
    }
    if (c->type == 1 && (c->trackbodyid < 0 || c->trackbodyid >= p->m->nbody)) {
        snprintf(err, errlen, "trackbodyid %d: the model has %d bodies (ids 0 to %d)",
                 c->trackbodyid, p->m->nbody, p->m->nbody - 1);
        return -1;
    }
    if (c->type == 1 && p->m->body_geomnum[c->trackbodyid] == 0) {
        /* the tracking camera follows the body's geoms */
        snprintf(err, errlen, "trackbodyid %d: the body has no geoms to follow",
                 c->trackbodyid);
        return -1;
    }
    double nums[6] = {c->lookat[0], c->lookat[1], c->lookat[2], c->distance, c->azimuth,
                      c->elevation};
    if (!finite_all(nums, 6) || !(c->distance > 0)) {
        snprintf(err, errlen, "camera: lookat, azimuth and elevation must be finite and "
                 "distance finite and > 0");
        return -1;
    }
    memcpy(v->camera.lookat, c->lookat, sizeof c->lookat);
    v->camera.distance = c->distance;
    v->camera.azimuth = c->azimuth;
    v->camera.elevation = c->elevation;
    v->model_camera = c->type == 2 ? c->fixedcamid : -1;
    v->track_body = c->type == 1 ? c->trackbodyid : -1;
    p->fixedcamid = c->fixedcamid;
    p->trackbodyid = c->trackbodyid;
    return 0;
}

void cs_passive_get_option(const cs_passive *p, cs_passive_option *o)
{
    memset(o, 0, sizeof *o);
    const cs_viewer_state *v = p ? cs_window_state(p->w) : NULL;
    if (!v)
        return;
    o->overlay = v->overlay;
    memcpy(o->geomgroup, p->view.geomgroup, sizeof o->geomgroup);
    o->textures = p->view.show_textures;
    o->transparent = p->view.transparent;
}

int cs_passive_set_option(cs_passive *p, const cs_passive_option *o, char *err, size_t errlen)
{
    cs_viewer_state *v = p ? cs_window_state(p->w) : NULL;
    if (!v || !o) {
        snprintf(err, errlen, "no viewer (NULL: closed, or never opened)");
        return -1;
    }
    if (o->overlay > 255) {
        snprintf(err, errlen, "overlay bits 0x%x: only 1 to 128 have a meaning", o->overlay);
        return -1;
    }
    for (int g = 0; g < 6; g++)
        if (o->geomgroup[g] > 1) {
            snprintf(err, errlen, "geomgroup[%d] = %d: expected 0 or 1", g, o->geomgroup[g]);
            return -1;
        }
    if ((o->textures != 0 && o->textures != 1) || (o->transparent != 0 && o->transparent != 1)) {
        snprintf(err, errlen, "textures and transparent must be 0 or 1");
        return -1;
    }
    v->overlay = o->overlay;
    memcpy(p->view.geomgroup, o->geomgroup, sizeof o->geomgroup);
    p->view.show_textures = o->textures;
    p->view.transparent = o->transparent;
    return 0;
}

void cs_passive_get_perturb(const cs_passive *p, cs_passive_perturb *out)
{
    if (p)
        *out = p->pert;
    else
        memset(out, 0, sizeof *out);
}

int cs_passive_select(cs_passive *p, int body, char *err, size_t errlen)
{
    cs_viewer_state *v = p ? cs_window_state(p->w) : NULL;
    if (!v) {
        snprintf(err, errlen, "no viewer (NULL: closed, or never opened)");
        return -1;
    }
    if (body >= p->m->nbody) {
        snprintf(err, errlen, "body %d: the model has %d bodies (ids 0 to %d)", body,
                 p->m->nbody, p->m->nbody - 1);
        return -1;
    }
    v->selected_body = body > 0 ? body : -1;
    p->pert.select = body > 0 ? body : 0;
    return 0;
}

int cs_passive_set_user_geoms(cs_passive *p, const cs_passive_geom *g, int n, char *err,
                              size_t errlen)
{
    if (!p || n < 0 || (n > 0 && !g)) {
        snprintf(err, errlen, "no viewer, or no geoms for a count of %d", n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const cs_passive_geom *q = &g[i];
        int t = q->type;
        if (t != CS_GEOM_PLANE && t != CS_GEOM_SPHERE && t != CS_GEOM_CAPSULE &&
            t != CS_GEOM_ELLIPSOID && t != CS_GEOM_CYLINDER && t != CS_GEOM_BOX) {
            snprintf(err, errlen, "geom %d: type %d is not drawn here (plane 0, sphere 2, "
                     "capsule 3, ellipsoid 4, cylinder 5, box 6)", i, t);
            return -1;
        }
        if (!finite_all(q->size, 3) || !finite_all(q->pos, 3) || !finite_all(q->mat, 9)) {
            snprintf(err, errlen, "geom %d: size, pos and mat must be finite", i);
            return -1;
        }
        for (int k = 0; k < 3; k++)
            if (q->size[k] < 0) {
                snprintf(err, errlen, "geom %d: size[%d] = %g is negative", i, k, q->size[k]);
                return -1;
            }
        for (int k = 0; k < 4; k++)
            if (!(q->rgba[k] >= 0 && q->rgba[k] <= 1)) {
                snprintf(err, errlen, "geom %d: rgba[%d] = %g is outside [0, 1]", i, k,
                         (double)q->rgba[k]);
                return -1;
            }
    }
    cs_render_geom *u = NULL;
    if (n > 0) {
        u = calloc((size_t)n, sizeof *u);
        if (!u) {
            snprintf(err, errlen, "out of memory for %d geoms", n);
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        u[i].type = g[i].type;
        memcpy(u[i].size, g[i].size, sizeof u[i].size);
        memcpy(u[i].pose.pos, g[i].pos, sizeof u[i].pose.pos);
        memcpy(u[i].pose.mat, g[i].mat, sizeof u[i].pose.mat);
        memcpy(u[i].rgba, g[i].rgba, sizeof u[i].rgba);
        u[i].body = -1;
    }
    free(p->user);
    p->user = u;
    p->nuser = n;
    return 0;
}
