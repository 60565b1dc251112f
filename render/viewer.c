/* Viewer state driven by actions: camera, overlays, pause, slow motion, selection,
 * perturbation; and the pacing rule. No GL here. */
#include <math.h>
#include <string.h>

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
