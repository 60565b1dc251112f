/* Viewer state driven by actions: camera, overlays, pause, slow motion, selection,
 * perturbation, the control panel's layout and sliders; and the pacing rule. No GL here. */
#include <math.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h> /* event codes only */

#include "render.h"
#include "vec.h"

#define SLOWMO_MIN (1.0 / 64)

void cs_viewer_state_init(cs_viewer_state *v, const cs_camera *cam, unsigned overlay)
{
    memset(v, 0, sizeof *v);
    if (cam)
        v->camera = *cam;
    else
        cs_camera_default(&v->camera, 1, NULL);
    v->overlay = overlay;
    v->slowmo = 1;
    v->track_body = -1;
    v->selected_body = -1;
    v->selected_contact = -1;
    v->perturb_body = -1;
    v->perturb_geom = -1;
    v->ctrl_drag = -1;
    v->ctrl_pending = -1;
    v->model_camera = -1;
}

static int pick_geom(const cs_viewer_state *v, const cs_render_scene *s, int w, int h,
                     double x, double y, double hit[3])
{
    double o[3], d[3];
    if (!s || w <= 0 || h <= 0)
        return -1;
    cs_camera_ray(&v->camera, w, h, x, y, o, d);
    return cs_render_pick(s, o, d, NULL, hit);
}

int cs_viewer_apply(cs_viewer_state *v, const cs_action *a, const cs_render_scene *scene,
                    int w, int h)
{
    switch (a->kind) {
    case CS_ACT_NONE:
        return 0;
    case CS_ACT_PAUSE:
        v->paused = !v->paused;
        return 1;
    case CS_ACT_STEP:
        v->paused = 1;
        v->step_requests++;
        return 1;
    case CS_ACT_STEP_BACK:
        v->paused = 1;
        v->step_back_requests++;
        return 1;
    case CS_ACT_RESET:
        v->reset_request = 1;
        return 1;
    case CS_ACT_FASTER:
        if (v->slowmo >= 1)
            return 0;
        v->slowmo *= 2;
        return 1;
    case CS_ACT_SLOWER:
        if (v->slowmo <= SLOWMO_MIN)
            return 0;
        v->slowmo /= 2;
        return 1;
    case CS_ACT_TOGGLE_CONTACTS:
        v->overlay ^= CS_OVERLAY_CONTACTS;
        return 1;
    case CS_ACT_TOGGLE_FORCES:
        v->overlay ^= CS_OVERLAY_FORCES;
        return 1;
    case CS_ACT_TOGGLE_CONES:
        v->overlay ^= CS_OVERLAY_CONES;
        return 1;
    case CS_ACT_TOGGLE_FRAMES:
        v->overlay ^= CS_OVERLAY_FRAMES;
        return 1;
    case CS_ACT_TOGGLE_WIREFRAME:
        v->overlay ^= CS_OVERLAY_WIREFRAME;
        return 1;
    case CS_ACT_TOGGLE_HUD:
        v->overlay ^= CS_OVERLAY_HUD;
        return 1;
    case CS_ACT_TOGGLE_JOINTS:
        v->overlay ^= CS_OVERLAY_JOINTS;
        return 1;
    case CS_ACT_TOGGLE_CONTROLS:
        v->overlay ^= CS_OVERLAY_CONTROLS;
        v->ctrl_drag = -1;
        return 1;
    case CS_ACT_CLEAR_CONTROLS:
        v->ctrl_clear_request = 1;
        return 1;
    case CS_ACT_TOGGLE_CONTACT_MODEL:
        v->contact_model_requests++;
        return 1;
    case CS_ACT_NEXT_CONTACT:
    case CS_ACT_PREV_CONTACT: {
        int n = scene ? scene->ncontact : 0;
        if (n <= 0)
            return 0;
        /* Cycle over -1 (automatic), 0 .. n-1. */
        int i = v->selected_contact + 1;
        i += a->kind == CS_ACT_NEXT_CONTACT ? 1 : -1;
        i = ((i % (n + 1)) + (n + 1)) % (n + 1);
        v->selected_contact = i - 1;
        return 1;
    }
    case CS_ACT_NEXT_CAMERA:
    case CS_ACT_PREV_CAMERA: {
        int n = scene ? scene->ncamera : 0;
        if (n <= 0)
            return 0;
        /* Cycle over the free camera (-1), then the model's 0 .. n-1. */
        int i = v->model_camera + 1 + (a->kind == CS_ACT_NEXT_CAMERA ? 1 : -1);
        i = ((i % (n + 1)) + (n + 1)) % (n + 1);
        v->model_camera = i - 1;
        return 1;
    }
    case CS_ACT_QUIT:
        v->quit = 1;
        return 1;
    case CS_ACT_ORBIT:
        cs_camera_orbit(&v->camera, a->dx, a->dy);
        return 1;
    case CS_ACT_PAN:
        /* Panning moves the look-at point away from a tracked body: stop tracking. */
        v->track_body = -1;
        cs_camera_pan(&v->camera, a->dx, a->dy);
        return 1;
    case CS_ACT_ZOOM:
        cs_camera_zoom(&v->camera, a->dy);
        return 1;
    case CS_ACT_SELECT: {
        if (!scene)
            return 0;
        int c = cs_render_pick_contact(scene, &v->camera, w, h, a->x, a->y, 8);
        if (c >= 0) {
            v->selected_contact = c;
            return 1;
        }
        double hit[3];
        int g = pick_geom(v, scene, w, h, a->x, a->y, hit);
        if (g >= 0 && scene->geoms[g].body > 0) {
            v->selected_body = scene->geoms[g].body;
            v->track_body = v->selected_body;
        } else {
            v->selected_body = -1;
            v->track_body = -1;
        }
        return 1;
    }
    case CS_ACT_UNSELECT:
        v->selected_body = -1;
        v->track_body = -1;
        v->selected_contact = -1;
        return 1;
    case CS_ACT_PERTURB_BEGIN: {
        double hit[3], eye[3], f[3];
        int g = pick_geom(v, scene, w, h, a->x, a->y, hit);
        if (g < 0 || scene->geoms[g].body <= 0)
            return 0;
        cs_camera_frame(&v->camera, eye, f, NULL, NULL);
        v->perturb_active = 1;
        v->perturb_geom = g;
        v->perturb_body = scene->geoms[g].body;
        v->selected_body = v->perturb_body;
        cs_pose_to_local(&scene->geoms[g].pose, hit, v->perturb_local);
        memcpy(v->perturb_target, hit, sizeof hit);
        double q[3] = {hit[0] - eye[0], hit[1] - eye[1], hit[2] - eye[2]};
        v->perturb_depth = cs_v3dot(q, f);
        return 1;
    }
    case CS_ACT_PERTURB_MOVE: {
        if (!v->perturb_active)
            return 0;
        double o[3], d[3], f[3];
        cs_camera_ray(&v->camera, w, h, a->x, a->y, o, d);
        cs_camera_frame(&v->camera, NULL, f, NULL, NULL);
        double t = v->perturb_depth / cs_v3dot(d, f);
        for (int i = 0; i < 3; i++)
            v->perturb_target[i] = o[i] + t * d[i];
        return 1;
    }
    case CS_ACT_PERTURB_END:
        if (!v->perturb_active)
            return 0;
        v->perturb_active = 0;
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ control panel */

/* The HUD's text scale and line height (hud.c draws 8 x 12 pixel glyphs at this scale). */
static double panel_scale(int h) { return h >= 600 ? 2 : 1; }

#define PANEL_W 210.0   /* unscaled pixels */
#define PANEL_LINE 12.0
#define PANEL_PAD 4.0
#define PANEL_CLEAR_W 48.0

/* Top of slider row i (label row, then track row). */
static double row_top(int h, int i)
{
    double s = panel_scale(h);
    return s * PANEL_PAD + s * PANEL_PAD + 2 * s * PANEL_LINE + i * 2 * s * PANEL_LINE;
}

/* Rows that fit above the window's bottom edge. */
static int rows_shown(int h, int nact)
{
    double s = panel_scale(h);
    int n = 0;
    while (n < nact && row_top(h, n) + 2 * s * PANEL_LINE + s * PANEL_PAD <= h)
        n++;
    return n;
}

int cs_ctrl_panel_rect(int w, int h, int nact, int part, double rect[4])
{
    if (nact <= 0 || w <= 0 || h <= 0)
        return -1;
    double s = panel_scale(h), pad = s * PANEL_PAD, lh = s * PANEL_LINE, pw = s * PANEL_W;
    double x = w - pw - pad, y = pad;
    int n = rows_shown(h, nact);
    if (part == CS_PANEL_BACKGROUND) {
        rect[0] = x, rect[1] = y, rect[2] = pw;
        rect[3] = row_top(h, n) - y + pad;
        return 0;
    }
    if (part == CS_PANEL_CLEAR) {
        rect[0] = x + pw - pad - s * PANEL_CLEAR_W, rect[1] = y + pad;
        rect[2] = s * PANEL_CLEAR_W, rect[3] = lh;
        return 0;
    }
    if (part < 0 || part >= n)
        return -1;
    rect[0] = x + pad;
    rect[1] = row_top(h, part) + lh + 0.2 * lh;
    rect[2] = pw - 2 * pad;
    rect[3] = 0.6 * lh;
    return 0;
}

int cs_ctrl_panel_hit(int w, int h, int nact, double x, double y)
{
    double p[4], c[4];
    if (cs_ctrl_panel_rect(w, h, nact, CS_PANEL_BACKGROUND, p) != 0 || x < p[0] ||
        x >= p[0] + p[2] || y < p[1] || y >= p[1] + p[3])
        return CS_PANEL_OUTSIDE;
    cs_ctrl_panel_rect(w, h, nact, CS_PANEL_CLEAR, c);
    if (x >= c[0] && x < c[0] + c[2] && y >= c[1] && y < c[1] + c[3])
        return CS_PANEL_CLEAR;
    double lh = panel_scale(h) * PANEL_LINE;
    int n = rows_shown(h, nact);
    for (int i = 0; i < n; i++) {
        double t = row_top(h, i);
        if (y >= t && y < t + 2 * lh)
            return i;
    }
    return CS_PANEL_BACKGROUND;
}

void cs_ctrl_slider_range(const cs_render_actuator *a, double *lo, double *hi)
{
    if (a->range[1] > a->range[0]) { /* a range given spans it, clamped or not (3.12) */
        *lo = a->range[0];
        *hi = a->range[1];
    } else {
        *lo = -1;
        *hi = 1;
    }
}

double cs_ctrl_slider_value(const cs_render_actuator *a, const double track[4], double x)
{
    double lo, hi;
    cs_ctrl_slider_range(a, &lo, &hi);
    double f = track[2] > 0 ? (x - track[0]) / track[2] : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return lo + f * (hi - lo);
}

double cs_ctrl_slider_x(const cs_render_actuator *a, const double track[4], double value)
{
    double lo, hi;
    cs_ctrl_slider_range(a, &lo, &hi);
    double f = (value - lo) / (hi - lo);
    f = !(f > 0) ? 0 : f > 1 ? 1 : f;
    return track[0] + f * track[2];
}

static void panel_ask(cs_viewer_state *v, const cs_render_scene *s, int i, double x, int w,
                      int h)
{
    double track[4];
    if (cs_ctrl_panel_rect(w, h, s->nactuator, i, track) != 0)
        return;
    v->ctrl_pending = i;
    v->ctrl_pending_value = cs_ctrl_slider_value(&s->actuators[i], track, x);
}

int cs_viewer_panel_event(cs_viewer_state *v, const cs_render_scene *s,
                          const cs_input_event *ev, int w, int h)
{
    int shown = s && (v->overlay & CS_OVERLAY_CONTROLS) && s->nactuator > 0 && s->actuators;
    if (!shown) {
        v->ctrl_drag = -1;
        return 0;
    }
    if (ev->kind == CS_EV_MOVE && v->ctrl_drag >= 0) {
        if (v->ctrl_drag < s->nactuator)
            panel_ask(v, s, v->ctrl_drag, ev->x, w, h);
        return 1;
    }
    if (ev->kind != CS_EV_BUTTON)
        return 0;
    if (ev->action == GLFW_RELEASE && v->ctrl_drag >= 0) {
        v->ctrl_drag = -1;
        return 1;
    }
    if (ev->action != GLFW_PRESS)
        return 0;
    int hit = cs_ctrl_panel_hit(w, h, s->nactuator, ev->x, ev->y);
    if (hit == CS_PANEL_OUTSIDE)
        return 0;
    if (ev->button != GLFW_MOUSE_BUTTON_LEFT)
        return 1; /* on the panel: not the camera's */
    if (hit == CS_PANEL_CLEAR) {
        v->ctrl_clear_request = 1;
    } else if (hit >= 0 && !s->actuators[hit].driven) {
        v->ctrl_drag = hit;
        panel_ask(v, s, hit, ev->x, w, h);
    }
    return 1;
}

void cs_viewer_track(cs_viewer_state *v, const cs_render_scene *s)
{
    if (v->track_body < 0 || !s)
        return;
    double c[3] = {0, 0, 0};
    int n = 0;
    for (int i = 0; i < s->ngeom; i++)
        if (s->geoms[i].body == v->track_body) {
            for (int k = 0; k < 3; k++)
                c[k] += s->geoms[i].pose.pos[k];
            n++;
        }
    if (n == 0) {
        v->track_body = -1;
        return;
    }
    for (int k = 0; k < 3; k++)
        v->camera.lookat[k] = c[k] / n;
}

void cs_viewer_perturb(const cs_viewer_state *v, const cs_render_scene *s, cs_perturb *p)
{
    memset(p, 0, sizeof *p);
    p->body = -1;
    if (!v->perturb_active || !s || v->perturb_geom < 0 || v->perturb_geom >= s->ngeom)
        return;
    const cs_render_geom *g = &s->geoms[v->perturb_geom];
    if (g->body != v->perturb_body)
        return;
    p->active = 1;
    p->body = v->perturb_body;
    cs_pose_to_world(&g->pose, v->perturb_local, p->anchor);
    memcpy(p->target, v->perturb_target, sizeof p->target);
}

/* A 2 Hz critically damped spring per unit mass: stiff enough to drag a body around
 * against gravity (w^2 * 0.25 m ~ 40 m/s^2), soft enough to stay stable at the
 * default timestep (w h << 1). */
#define PERTURB_OMEGA (2 * CS_PI * 2.0)

void cs_perturb_force(const cs_perturb *p, double mass, const double v_anchor[3],
                      double force[3])
{
    double w = PERTURB_OMEGA;
    for (int i = 0; i < 3; i++)
        force[i] = p->active ? mass * (w * w * (p->target[i] - p->anchor[i]) -
                                       2 * w * (v_anchor ? v_anchor[i] : 0))
                             : 0;
}

int cs_pacing_steps(double wall_dt, double slowmo, double timestep, int max_steps,
                    double *debt)
{
    if (!(timestep > 0) || !(wall_dt >= 0) || max_steps <= 0) {
        *debt = 0;
        return 0;
    }
    /* A long stall (window dragged, debugger) is not worth catching up on. */
    if (wall_dt > 0.25)
        wall_dt = 0.25;
    double owed = *debt + wall_dt * slowmo;
    int n = (int)floor(owed / timestep + 1e-9);
    if (n > max_steps) {
        *debt = 0;
        return max_steps;
    }
    if (n < 0)
        n = 0;
    *debt = owed - n * timestep;
    if (*debt < 0)
        *debt = 0;
    return n;
}
