/* The windowed viewer loop: GLFW events -> actions -> viewer state; real-time pacing
 * of the simulation callbacks, decoupled from the frame rate. The window, its events and
 * a frame's drawing are shared with the passive window (passive.c). */
#include <stdio.h>
#include <string.h>

#include "render_gl.h"

typedef cs_window_loop loop_ctx;

/* The control panel's requests, handed over as they come (events arrive between steps):
 * two drags within one frame both count. */
static void apply_controls(loop_ctx *L)
{
    const cs_viewer_callbacks *cb = L->cb;
    if (L->v.ctrl_clear_request) {
        L->v.ctrl_clear_request = 0;
        for (int i = 0; i < L->scene.nactuator && cb->set_ctrl; i++)
            cb->set_ctrl(cb->user, i, L->scene.actuators ? L->scene.actuators[i].neutral : 0);
    }
    if (L->v.ctrl_pending >= 0) {
        if (cb->set_ctrl && L->v.ctrl_pending < L->scene.nactuator)
            cb->set_ctrl(cb->user, L->v.ctrl_pending, L->v.ctrl_pending_value);
        L->v.ctrl_pending = -1;
    }
}

void cs_viewer_options_init(cs_viewer_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1280;
    o->height = 720;
    o->title = "conesim";
    o->timestep = 0.002;
    cs_camera_default(&o->camera, 1, NULL);
    o->overlay = CS_OVERLAY_DEFAULT;
    o->vsync = 1;
    o->max_step_time = 1.0 / 30;
    o->samples = -1;
    o->model_camera = -1;
}

static void dispatch(GLFWwindow *w, cs_input_event *ev)
{
    loop_ctx *L = glfwGetWindowUserPointer(w);
    int ww, wh;
    glfwGetWindowSize(w, &ww, &wh);
    /* Where the cursor was when the event happened: events are handled in batches, by
     * which time the pointer may be elsewhere (a press and the drag after it would both
     * land at the drag's end). */
    if (ev->kind == CS_EV_MOVE) {
        L->cursor[0] = ev->x;
        L->cursor[1] = ev->y;
    } else {
        ev->x = L->cursor[0];
        ev->y = L->cursor[1];
    }
    ev->time = glfwGetTime();
    ev->height = wh;
    /* The control panel is laid out in framebuffer pixels (where the HUD draws it). */
    int fw, fh;
    glfwGetFramebufferSize(w, &fw, &fh);
    cs_input_event pe = *ev;
    if (ww > 0 && wh > 0) {
        pe.x = ev->x * fw / ww;
        pe.y = ev->y * fh / wh;
    }
    if (cs_viewer_panel_event(&L->v, &L->scene, &pe, fw, fh)) {
        L->in.x = ev->x; /* no camera jump when the cursor leaves the panel */
        L->in.y = ev->y;
        apply_controls(L);
        return;
    }
    cs_action a = cs_input_map(&L->in, ev);
    cs_viewer_apply(&L->v, &a, &L->scene, ww, wh);
    apply_controls(L);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    loop_ctx *L = glfwGetWindowUserPointer(w);
    /* kept for a passive window's key callback; the oldest are dropped when it overflows */
    if (action == GLFW_PRESS) {
        int cap = (int)(sizeof L->keys / sizeof L->keys[0]);
        if (L->nkey == cap) {
            memmove(L->keys, L->keys + 1, (size_t)(cap - 1) * sizeof L->keys[0]);
            L->nkey--;
        }
        L->keys[L->nkey++] = key;
    }
    cs_input_event ev = {.kind = CS_EV_KEY, .key = key, .action = action, .mods = mods};
    dispatch(w, &ev);
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    cs_input_event ev = {.kind = CS_EV_BUTTON, .button = button, .action = action, .mods = mods};
    dispatch(w, &ev);
}

static void on_move(GLFWwindow *w, double x, double y)
{
    cs_input_event ev = {.kind = CS_EV_MOVE, .x = x, .y = y};
    dispatch(w, &ev);
}

static void on_scroll(GLFWwindow *w, double xoff, double yoff)
{
    (void)xoff;
    cs_input_event ev = {.kind = CS_EV_SCROLL, .scroll = yoff};
    dispatch(w, &ev);
}

void cs_window_loop_fill(loop_ctx *L, double rtf)
{
    const cs_viewer_callbacks *cb = L->cb;
    cs_render_scene *s = &L->scene;
    if (cb->fill)
        cb->fill(cb->user, s);
    s->overlay = L->v.overlay;
    s->selected_body = L->v.selected_body;
    s->selected_contact = L->v.selected_contact < s->ncontact ? L->v.selected_contact : -1;
    s->hud.paused = L->v.paused;
    s->hud.slowmo = L->v.slowmo;
    s->hud.rtf = rtf;
}

int cs_window_loop_open(loop_ctx *L, const cs_viewer_options *o, const cs_viewer_callbacks *cb,
                        char *err, size_t errlen)
{
    memset(L, 0, sizeof *L);
    /* not shown until kept: a window shown and then replaced would flash on screen (and
     * scripts driving the viewer could find the replaced one) */
    L->r = cs_gl_create(o->width, o->height, o->title, 2, o->samples < 0 ? 4 : o->samples, err,
                        errlen);
    const char *gl = L->r ? L->r->gl_name : "";
    if (L->r && o->samples < 0 && (strstr(gl, "llvmpipe") || strstr(gl, "softpipe"))) {
        /* Software GL: 4x multisampling costs ~3x the frame time; interactivity wins. */
        cs_renderer_destroy(L->r);
        L->r = cs_gl_create(o->width, o->height, o->title, 2, 0, err, errlen);
    }
    if (!L->r)
        return -1;
    GLFWwindow *win = L->r->window;
    glfwShowWindow(win);
    L->r->hidden = 0;
    cs_viewer_state_init(&L->v, &o->camera, o->overlay);
    L->v.model_camera = o->model_camera;
    L->v.paused = o->start_paused;
    cs_input_init(&L->in);
    cs_render_scene_init(&L->scene);
    L->cb = cb;
    glfwGetCursorPos(win, &L->cursor[0], &L->cursor[1]);
    glfwSetWindowUserPointer(win, L);
    glfwSetKeyCallback(win, on_key);
    glfwSetMouseButtonCallback(win, on_button);
    glfwSetCursorPosCallback(win, on_move);
    glfwSetScrollCallback(win, on_scroll);
    glfwSwapInterval(o->vsync ? 1 : 0);
    return 0;
}

int cs_window_loop_draw(loop_ctx *L, int swap)
{
    GLFWwindow *win = L->r->window;
    if (swap)
        cs_viewer_track(&L->v, &L->scene);
    int fw, fh;
    glfwGetFramebufferSize(win, &fw, &fh);
    if (fw <= 0 || fh <= 0)
        return -1; /* minimised */
    cs_gl_make_current(L->r);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    int mc = L->v.model_camera;
    int use = mc >= 0 && mc < L->scene.ncamera && L->scene.cameras;
    L->scene.hud.camera = use && L->scene.camera_names ? L->scene.camera_names[mc] : NULL;
    cs_render_frame(L->r, &L->scene, use ? &L->scene.cameras[mc] : &L->v.camera, fw, fh);
    if (swap)
        glfwSwapBuffers(win);
    return 0;
}

int cs_viewer_run(const cs_viewer_options *o, const cs_viewer_callbacks *cb, char *err,
                  size_t errlen)
{
    if (!(o->timestep > 0) || !cb || !cb->step) {
        snprintf(err, errlen, "viewer: a step callback and a positive timestep are needed");
        return -1;
    }
    loop_ctx L;
    if (cs_window_loop_open(&L, o, cb, err, errlen) != 0)
        return -1;
    GLFWwindow *win = L.r->window;

    double max_step_time = o->max_step_time > 0 ? o->max_step_time : 1.0 / 30;
    double step_cost = 1e-4; /* running mean wall seconds a step, for the per-frame cap */
    double debt = 0, rtf = 0, rtf_sim = 0, rtf_wall = 0;
    double last = glfwGetTime();
    int rc = 0;
    cs_window_loop_fill(&L, rtf);
    for (long frame = 0; !L.v.quit && !glfwWindowShouldClose(win); frame++) {
        glfwPollEvents();
        if (L.v.reset_request) {
            L.v.reset_request = 0;
            debt = 0;
            if (cb->reset)
                cb->reset(cb->user);
        }
        /* Between steps: the loop below takes this frame's steps with the new model. */
        for (; L.v.contact_model_requests > 0; L.v.contact_model_requests--)
            if (cb->toggle_contact)
                cb->toggle_contact(cb->user);
        for (; L.v.step_back_requests > 0; L.v.step_back_requests--)
            if (cb->step_back)
                cb->step_back(cb->user);
        double now = glfwGetTime(), dt = now - last;
        last = now;
        int n;
        if (L.v.paused) {
            debt = 0;
            n = L.v.step_requests;
        } else {
            int cap = (int)(max_step_time / step_cost);
            n = cs_pacing_steps(dt, L.v.slowmo, o->timestep, cap > 0 ? cap : 1, &debt);
            n += L.v.step_requests;
        }
        L.v.step_requests = 0;
        for (int i = 0; i < n && rc == 0; i++) {
            if (cb->perturb) {
                cs_perturb p;
                cs_viewer_perturb(&L.v, &L.scene, &p);
                cb->perturb(cb->user, &p);
            }
            double t0 = glfwGetTime();
            rc = cb->step(cb->user);
            step_cost = 0.9 * step_cost + 0.1 * (glfwGetTime() - t0);
            if (step_cost < 1e-7)
                step_cost = 1e-7;
        }
        if (rc != 0)
            break;
        /* The achieved real-time factor over about half a second. */
        rtf_sim += n * o->timestep;
        rtf_wall += dt;
        if (rtf_wall >= 0.5) {
            rtf = L.v.paused ? 0 : rtf_sim / rtf_wall;
            rtf_sim = rtf_wall = 0;
        }
        cs_window_loop_fill(&L, rtf);
        cs_window_loop_draw(&L, 1);
        if (o->max_frames > 0 && frame + 1 >= o->max_frames)
            break;
    }
    cs_renderer_destroy(L.r);
    return rc;
}
