/* render/ without a window: input mapping, viewer state, camera math, picking, pacing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "render.h"

static cs_input_event key(int k, int action, int mods)
{
    cs_input_event e;
    memset(&e, 0, sizeof e);
    e.kind = CS_EV_KEY;
    e.key = k;
    e.action = action;
    e.mods = mods;
    return e;
}

static cs_input_event button(int b, int action, int mods, double x, double y, double t)
{
    cs_input_event e;
    memset(&e, 0, sizeof e);
    e.kind = CS_EV_BUTTON;
    e.button = b;
    e.action = action;
    e.mods = mods;
    e.x = x;
    e.y = y;
    e.time = t;
    e.height = 200;
    return e;
}

static cs_input_event move(double x, double y)
{
    cs_input_event e;
    memset(&e, 0, sizeof e);
    e.kind = CS_EV_MOVE;
    e.x = x;
    e.y = y;
    e.height = 200;
    return e;
}

static cs_action_kind map_key(int k, int action, int mods)
{
    cs_input in;
    cs_input_init(&in);
    cs_input_event e = key(k, action, mods);
    return cs_input_map(&in, &e).kind;
}

START_TEST(keys_map_to_actions)
{
    ck_assert_int_eq(map_key(GLFW_KEY_SPACE, GLFW_PRESS, 0), CS_ACT_PAUSE);
    ck_assert_int_eq(map_key(GLFW_KEY_SPACE, GLFW_RELEASE, 0), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_SPACE, GLFW_REPEAT, 0), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_RIGHT, GLFW_PRESS, 0), CS_ACT_STEP);
    ck_assert_int_eq(map_key(GLFW_KEY_RIGHT, GLFW_REPEAT, 0), CS_ACT_STEP);
    ck_assert_int_eq(map_key(GLFW_KEY_LEFT, GLFW_PRESS, 0), CS_ACT_STEP_BACK);
    ck_assert_int_eq(map_key(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0), CS_ACT_RESET);
    ck_assert_int_eq(map_key(GLFW_KEY_EQUAL, GLFW_PRESS, GLFW_MOD_SHIFT), CS_ACT_FASTER);
    ck_assert_int_eq(map_key(GLFW_KEY_KP_ADD, GLFW_PRESS, 0), CS_ACT_FASTER);
    ck_assert_int_eq(map_key(GLFW_KEY_MINUS, GLFW_PRESS, 0), CS_ACT_SLOWER);
    ck_assert_int_eq(map_key(GLFW_KEY_KP_SUBTRACT, GLFW_PRESS, 0), CS_ACT_SLOWER);
    ck_assert_int_eq(map_key(GLFW_KEY_C, GLFW_PRESS, 0), CS_ACT_TOGGLE_CONTACTS);
    ck_assert_int_eq(map_key(GLFW_KEY_F, GLFW_PRESS, 0), CS_ACT_TOGGLE_FORCES);
    ck_assert_int_eq(map_key(GLFW_KEY_K, GLFW_PRESS, 0), CS_ACT_TOGGLE_CONES);
    ck_assert_int_eq(map_key(GLFW_KEY_W, GLFW_PRESS, 0), CS_ACT_TOGGLE_WIREFRAME);
    ck_assert_int_eq(map_key(GLFW_KEY_R, GLFW_PRESS, 0), CS_ACT_TOGGLE_FRAMES);
    ck_assert_int_eq(map_key(GLFW_KEY_J, GLFW_PRESS, 0), CS_ACT_TOGGLE_JOINTS);
    ck_assert_int_eq(map_key(GLFW_KEY_J, GLFW_REPEAT, 0), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_M, GLFW_PRESS, 0), CS_ACT_TOGGLE_CONTACT_MODEL);
    ck_assert_int_eq(map_key(GLFW_KEY_M, GLFW_PRESS, GLFW_MOD_SHIFT), CS_ACT_TOGGLE_CONTACT_MODEL);
    ck_assert_int_eq(map_key(GLFW_KEY_M, GLFW_REPEAT, 0), CS_ACT_NONE); /* held: one switch */
    ck_assert_int_eq(map_key(GLFW_KEY_M, GLFW_RELEASE, 0), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_M, GLFW_PRESS, GLFW_MOD_CONTROL), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_ESCAPE, GLFW_PRESS, 0), CS_ACT_QUIT);
    ck_assert_int_eq(map_key(GLFW_KEY_RIGHT_BRACKET, GLFW_PRESS, 0), CS_ACT_NEXT_CONTACT);
    /* Ctrl+C is not the contact toggle, and unmapped keys do nothing. */
    ck_assert_int_eq(map_key(GLFW_KEY_C, GLFW_PRESS, GLFW_MOD_CONTROL), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_Q, GLFW_PRESS, 0), CS_ACT_NONE);
    ck_assert_int_eq(map_key(GLFW_KEY_C, GLFW_REPEAT, 0), CS_ACT_NONE);
}
END_TEST

START_TEST(drags_orbit_pan_zoom)
{
    cs_input in;
    cs_input_init(&in);
    cs_input_event e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 100, 100, 1.0);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE);
    e = move(110, 95);
    cs_action a = cs_input_map(&in, &e);
    ck_assert_int_eq(a.kind, CS_ACT_ORBIT);
    ck_assert_double_eq_tol(a.dx, 10.0 / 200, 1e-12);
    ck_assert_double_eq_tol(a.dy, -5.0 / 200, 1e-12);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 110, 95, 1.1);
    cs_input_map(&in, &e);
    e = move(120, 95);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE); /* no button held */

    e = button(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0, 120, 95, 2.0);
    cs_input_map(&in, &e);
    e = move(120, 115);
    a = cs_input_map(&in, &e);
    ck_assert_int_eq(a.kind, CS_ACT_PAN);
    ck_assert_double_eq_tol(a.dy, 0.1, 1e-12);
    e = button(GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0, 120, 115, 2.1);
    cs_input_map(&in, &e);

    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_SHIFT, 120, 115, 3.0);
    cs_input_map(&in, &e);
    e = move(130, 115);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_PAN);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 130, 115, 3.1);
    cs_input_map(&in, &e);

    memset(&e, 0, sizeof e);
    e.kind = CS_EV_SCROLL;
    e.scroll = -2;
    a = cs_input_map(&in, &e);
    ck_assert_int_eq(a.kind, CS_ACT_ZOOM);
    ck_assert_double_eq(a.dy, -2);
}
END_TEST

START_TEST(double_click_selects)
{
    cs_input in;
    cs_input_init(&in);
    cs_input_event e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 50, 60, 10.0);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 50, 60, 10.05);
    cs_input_map(&in, &e);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 51, 61, 10.2);
    cs_action a = cs_input_map(&in, &e);
    ck_assert_int_eq(a.kind, CS_ACT_SELECT);
    ck_assert_double_eq(a.x, 51);
    ck_assert_double_eq(a.y, 61);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 51, 61, 10.25);
    cs_input_map(&in, &e);
    /* A third quick click starts a new pair rather than selecting again. */
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 51, 61, 10.3);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 51, 61, 10.35);
    cs_input_map(&in, &e);
    /* Too slow, or too far apart: no double click. */
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 51, 61, 11.0);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 51, 61, 11.05);
    cs_input_map(&in, &e);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 91, 61, 11.1);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 91, 61, 11.15);
    cs_input_map(&in, &e);
    /* Right double click clears the selection. */
    e = button(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0, 5, 5, 12.0);
    cs_input_map(&in, &e);
    e = button(GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0, 5, 5, 12.05);
    cs_input_map(&in, &e);
    e = button(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0, 5, 5, 12.1);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_UNSELECT);
}
END_TEST

START_TEST(ctrl_drag_perturbs)
{
    cs_input in;
    cs_input_init(&in);
    cs_input_event e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_CONTROL, 10, 10, 1);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_PERTURB_BEGIN);
    e = move(20, 15);
    cs_action a = cs_input_map(&in, &e);
    ck_assert_int_eq(a.kind, CS_ACT_PERTURB_MOVE);
    ck_assert_double_eq(a.x, 20);
    ck_assert_double_eq(a.y, 15);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, 20, 15, 1.5);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_PERTURB_END);
    e = move(30, 15);
    ck_assert_int_eq(cs_input_map(&in, &e).kind, CS_ACT_NONE);
}
END_TEST

static cs_action action(cs_action_kind k)
{
    cs_action a;
    memset(&a, 0, sizeof a);
    a.kind = k;
    return a;
}

START_TEST(viewer_state_follows_actions)
{
    cs_viewer_state v;
    cs_viewer_state_init(&v, NULL, CS_OVERLAY_DEFAULT);
    cs_action a = action(CS_ACT_PAUSE);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_int_eq(v.paused, 1);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_int_eq(v.paused, 0);
    a = action(CS_ACT_STEP);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_int_eq(v.paused, 1);
    ck_assert_int_eq(v.step_requests, 2);
    a = action(CS_ACT_FASTER);
    ck_assert_int_eq(cs_viewer_apply(&v, &a, NULL, 100, 100), 0); /* already real time */
    ck_assert_double_eq(v.slowmo, 1);
    a = action(CS_ACT_SLOWER);
    for (int i = 0; i < 10; i++)
        cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_double_eq(v.slowmo, 1.0 / 64);
    a = action(CS_ACT_FASTER);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_double_eq(v.slowmo, 1.0 / 32);
    a = action(CS_ACT_TOGGLE_FORCES);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_uint_eq(v.overlay & CS_OVERLAY_FORCES, 0);
    a = action(CS_ACT_TOGGLE_CONES);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_uint_ne(v.overlay & CS_OVERLAY_CONES, 0);
    a = action(CS_ACT_TOGGLE_WIREFRAME);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_uint_ne(v.overlay & CS_OVERLAY_WIREFRAME, 0);
    a = action(CS_ACT_TOGGLE_CONTACTS);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_uint_eq(v.overlay & CS_OVERLAY_CONTACTS, 0);
    a = action(CS_ACT_TOGGLE_JOINTS); /* off by default; on, then off again */
    ck_assert_uint_eq(v.overlay & CS_OVERLAY_JOINTS, 0);
    ck_assert_int_eq(cs_viewer_apply(&v, &a, NULL, 100, 100), 1);
    ck_assert_uint_ne(v.overlay & CS_OVERLAY_JOINTS, 0);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_uint_eq(v.overlay & CS_OVERLAY_JOINTS, 0);
    a = action(CS_ACT_TOGGLE_CONTACT_MODEL); /* counted, for the loop to hand over */
    ck_assert_int_eq(v.contact_model_requests, 0);
    ck_assert_int_eq(cs_viewer_apply(&v, &a, NULL, 100, 100), 1);
    ck_assert_int_eq(v.contact_model_requests, 1);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_int_eq(v.contact_model_requests, 2);
    a = action(CS_ACT_RESET);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_int_eq(v.reset_request, 1);
    a = action(CS_ACT_QUIT);
    cs_viewer_apply(&v, &a, NULL, 100, 100);
    ck_assert_int_eq(v.quit, 1);
}
END_TEST

START_TEST(contact_cycling)
{
    cs_render_contact c[2];
    memset(c, 0, sizeof c);
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.contacts = c;
    s.ncontact = 2;
    cs_viewer_state v;
    cs_viewer_state_init(&v, NULL, 0);
    cs_action a = action(CS_ACT_NEXT_CONTACT);
    int seen[4];
    for (int i = 0; i < 4; i++) {
        cs_viewer_apply(&v, &a, &s, 100, 100);
        seen[i] = v.selected_contact;
    }
    ck_assert_int_eq(seen[0], 0);
    ck_assert_int_eq(seen[1], 1);
    ck_assert_int_eq(seen[2], -1);
    ck_assert_int_eq(seen[3], 0);
    a = action(CS_ACT_PREV_CONTACT);
    cs_viewer_apply(&v, &a, &s, 100, 100);
    ck_assert_int_eq(v.selected_contact, -1);
    cs_viewer_apply(&v, &a, &s, 100, 100);
    ck_assert_int_eq(v.selected_contact, 1);
}
END_TEST

/* Shift+] and Shift+[ ({ and }) cycle the scene's cameras, then the free camera; the
 * brackets alone stay the contacts'; a scene camera does not move with the mouse */
START_TEST(camera_cycling)
{
    ck_assert_int_eq(map_key(GLFW_KEY_RIGHT_BRACKET, GLFW_PRESS, GLFW_MOD_SHIFT),
                     CS_ACT_NEXT_CAMERA);
    ck_assert_int_eq(map_key(GLFW_KEY_LEFT_BRACKET, GLFW_PRESS, GLFW_MOD_SHIFT),
                     CS_ACT_PREV_CAMERA);
    cs_camera cams[2];
    memset(cams, 0, sizeof cams);
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.cameras = cams;
    s.ncamera = 2;
    cs_viewer_state v;
    cs_viewer_state_init(&v, NULL, 0);
    ck_assert_int_eq(v.model_camera, -1);
    cs_action a = action(CS_ACT_NEXT_CAMERA);
    int seen[3];
    for (int i = 0; i < 3; i++) {
        cs_viewer_apply(&v, &a, &s, 100, 100);
        seen[i] = v.model_camera;
    }
    ck_assert_int_eq(seen[0], 0);
    ck_assert_int_eq(seen[1], 1);
    ck_assert_int_eq(seen[2], -1);
    a = action(CS_ACT_PREV_CAMERA);
    cs_viewer_apply(&v, &a, &s, 100, 100);
    ck_assert_int_eq(v.model_camera, 1);
    /* without scene cameras nothing changes */
    s.ncamera = 0;
    ck_assert_int_eq(cs_viewer_apply(&v, &a, &s, 100, 100), 0);
    cs_camera c;
    cs_camera_default(&c, 1, NULL);
    c.fixed = 1;
    c.mat[0] = c.mat[4] = c.mat[8] = 1;
    cs_camera before = c;
    cs_camera_orbit(&c, 0.3, 0.2);
    cs_camera_pan(&c, 0.3, 0.2);
    cs_camera_zoom(&c, 1);
    ck_assert_mem_eq(&c, &before, sizeof c);
}
END_TEST

/* ------------------------------------------------------------ camera */

static cs_camera cam(double az, double el, double d, double x, double y, double z,
                     double fovy)
{
    cs_camera c = {.azimuth = az, .elevation = el, .distance = d, .lookat = {x, y, z}, .fovy = fovy};
    return c;
}

START_TEST(camera_frame_is_mujocos)
{
    /* azimuth 90, elevation 0: looking along +y from -y, z up, x to the right. */
    cs_camera c = cam(90, 0, 2, 0, 0, 0, 45);
    double eye[3], f[3], u[3], r[3];
    cs_camera_frame(&c, eye, f, u, r);
    ck_assert_double_eq_tol(eye[1], -2, 1e-12);
    ck_assert_double_eq_tol(f[1], 1, 1e-12);
    ck_assert_double_eq_tol(u[2], 1, 1e-12);
    ck_assert_double_eq_tol(r[0], 1, 1e-12);
    /* elevation -45 looks down: the eye is above the look-at point. */
    c = cam(0, -45, 1, 0, 0, 0, 45);
    cs_camera_frame(&c, eye, f, u, r);
    ck_assert_double_eq_tol(eye[2], sqrt(0.5), 1e-12);
    ck_assert_double_eq_tol(eye[0], -sqrt(0.5), 1e-12);
    ck_assert_double_lt(f[2], 0);
    cs_camera_default(&c, 2, NULL);
    ck_assert_double_eq(c.azimuth, 90);
    ck_assert_double_eq(c.elevation, -45);
    ck_assert_double_eq(c.distance, 3);
    ck_assert_double_eq(c.fovy, 45);
}
END_TEST

START_TEST(camera_projects_known_points)
{
    /* fovy 90: focal length 1. 200 x 100 (aspect 2). */
    cs_camera c = cam(90, 0, 2, 0, 0, 0, 90);
    double px[2];
    double p0[3] = {0, 0, 0}, p1[3] = {1, 0, 0}, p2[3] = {0, 0, 1}, behind[3] = {0, -3, 0};
    ck_assert_int_eq(cs_camera_project(&c, 200, 100, p0, px), 0);
    ck_assert_double_eq_tol(px[0], 100, 1e-9);
    ck_assert_double_eq_tol(px[1], 50, 1e-9);
    cs_camera_project(&c, 200, 100, p1, px);
    ck_assert_double_eq_tol(px[0], 125, 1e-9); /* ndc x = (1/2)(1/2) */
    ck_assert_double_eq_tol(px[1], 50, 1e-9);
    cs_camera_project(&c, 200, 100, p2, px);
    ck_assert_double_eq_tol(px[0], 100, 1e-9);
    ck_assert_double_eq_tol(px[1], 25, 1e-9); /* up is towards the top row */
    ck_assert_int_ne(cs_camera_project(&c, 200, 100, behind, px), 0);
}
END_TEST

START_TEST(camera_matrices_agree_with_projection)
{
    cs_camera c = cam(37, -23, 1.7, 0.1, -0.2, 0.3, 50);
    float v[16], p[16];
    cs_camera_view_matrix(&c, v);
    cs_camera_proj_matrix(&c, 320.0 / 240, 0.01, 100, p);
    double q[3] = {0.25, 0.1, 0.05}, px[2];
    cs_camera_project(&c, 320, 240, q, px);
    double e[4] = {0, 0, 0, 0}, clip[4] = {0, 0, 0, 0};
    for (int row = 0; row < 4; row++)
        e[row] = v[row] * q[0] + v[4 + row] * q[1] + v[8 + row] * q[2] + v[12 + row];
    for (int row = 0; row < 4; row++)
        for (int k = 0; k < 4; k++)
            clip[row] += p[k * 4 + row] * e[k];
    double x = 0.5 * (clip[0] / clip[3] + 1) * 320, y = 0.5 * (1 - clip[1] / clip[3]) * 240;
    ck_assert_double_eq_tol(x, px[0], 1e-3);
    ck_assert_double_eq_tol(y, px[1], 1e-3);
    /* The look-at point sits at depth -distance in eye space. */
    double l[4];
    for (int row = 0; row < 3; row++)
        l[row] = v[row] * c.lookat[0] + v[4 + row] * c.lookat[1] + v[8 + row] * c.lookat[2] +
                 v[12 + row];
    ck_assert_double_eq_tol(l[0], 0, 1e-6);
    ck_assert_double_eq_tol(l[1], 0, 1e-6);
    ck_assert_double_eq_tol(l[2], -1.7, 1e-6);
}
END_TEST

START_TEST(ray_goes_through_projection)
{
    cs_camera c = cam(-120, -30, 3, 1, 2, 0.5, 45);
    double p[3] = {1.3, 1.8, 0.2}, px[2], o[3], d[3];
    ck_assert_int_eq(cs_camera_project(&c, 640, 480, p, px), 0);
    cs_camera_ray(&c, 640, 480, px[0], px[1], o, d);
    double q[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]};
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(d[i], q[i] / n, 1e-9);
}
END_TEST

START_TEST(orbit_pan_zoom)
{
    cs_camera c = cam(90, -20, 2, 0, 0, 0, 45);
    cs_camera_orbit(&c, 0.5, 0.1);
    ck_assert_double_eq_tol(c.azimuth, 0, 1e-12);
    ck_assert_double_eq_tol(c.elevation, -38, 1e-12);
    cs_camera_orbit(&c, 0, 1);
    ck_assert_double_eq(c.elevation, -89); /* clamped short of straight down */
    cs_camera_orbit(&c, 0, -2);
    ck_assert_double_eq(c.elevation, 89);

    /* Pan: the point under the cursor in the look-at plane follows the cursor. */
    c = cam(30, -40, 2.5, 0.2, 0.1, 0.3, 45);
    int w = 400, h = 300;
    double before[3] = {c.lookat[0], c.lookat[1], c.lookat[2]}, px[2];
    cs_camera_pan(&c, 0.1, -0.05);
    cs_camera_project(&c, w, h, before, px);
    ck_assert_double_eq_tol(px[0], w / 2.0 + 0.1 * h, 1e-6);
    ck_assert_double_eq_tol(px[1], h / 2.0 - 0.05 * h, 1e-6);

    double d0 = c.distance;
    cs_camera_zoom(&c, 1);
    ck_assert_double_lt(c.distance, d0);
    cs_camera_zoom(&c, -1);
    ck_assert_double_eq_tol(c.distance, d0, 1e-12);
}
END_TEST

START_TEST(camera_option_parses)
{
    cs_camera c = cam(0, 0, 1, 9, 9, 9, 45);
    ck_assert_int_eq(cs_camera_parse("90,-20,3", &c), 0);
    ck_assert_double_eq(c.azimuth, 90);
    ck_assert_double_eq(c.elevation, -20);
    ck_assert_double_eq(c.distance, 3);
    ck_assert_double_eq(c.lookat[0], 9); /* unchanged without X,Y,Z */
    ck_assert_int_eq(cs_camera_parse("45,-10,2,1,2,0.5", &c), 0);
    ck_assert_double_eq(c.lookat[2], 0.5);
    ck_assert_int_ne(cs_camera_parse("90,-20", &c), 0);
    ck_assert_int_ne(cs_camera_parse("90,-20,0", &c), 0);
    ck_assert_int_ne(cs_camera_parse("90,-20,3,1", &c), 0);
    ck_assert_int_ne(cs_camera_parse("a,b,c", &c), 0);
    ck_assert_int_ne(cs_camera_parse("90,-20,3,", &c), 0);
    ck_assert_double_eq(c.distance, 2);
}
END_TEST

/* ------------------------------------------------------------ picking */

static cs_render_geom geom(int type, double s0, double s1, double s2, double x, double y,
                           double z, int body)
{
    cs_render_geom g;
    memset(&g, 0, sizeof g);
    g.type = type;
    g.size[0] = s0, g.size[1] = s1, g.size[2] = s2;
    g.pose.pos[0] = x, g.pose.pos[1] = y, g.pose.pos[2] = z;
    g.pose.mat[0] = g.pose.mat[4] = g.pose.mat[8] = 1;
    g.rgba[0] = g.rgba[1] = g.rgba[2] = g.rgba[3] = 1;
    g.body = body;
    return g;
}

START_TEST(rays_hit_primitives)
{
    double o[3] = {0, -5, 0}, d[3] = {0, 1, 0};
    cs_render_geom g = geom(CS_GEOM_SPHERE, 0.5, 0, 0, 0, 0, 0, 1);
    ck_assert_double_eq_tol(cs_ray_geom(&g, o, d), 4.5, 1e-12);
    g = geom(CS_GEOM_BOX, 0.1, 0.2, 0.3, 0, 0, 0, 1);
    ck_assert_double_eq_tol(cs_ray_geom(&g, o, d), 4.8, 1e-12);
    g = geom(CS_GEOM_ELLIPSOID, 0.1, 0.7, 0.3, 0, 0, 0, 1);
    ck_assert_double_eq_tol(cs_ray_geom(&g, o, d), 4.3, 1e-12);
    g = geom(CS_GEOM_CYLINDER, 0.25, 1, 0, 0, 0, 0, 1);
    ck_assert_double_eq_tol(cs_ray_geom(&g, o, d), 4.75, 1e-12);
    /* Capsule along z, the ray along its axis from below hits the end cap sphere. */
    g = geom(CS_GEOM_CAPSULE, 0.2, 0.5, 0, 0, 0, 0, 1);
    double o2[3] = {0, 0, -5}, d2[3] = {0, 0, 1};
    ck_assert_double_eq_tol(cs_ray_geom(&g, o2, d2), 5 - 0.7, 1e-12);
    g = geom(CS_GEOM_CYLINDER, 0.2, 0.5, 0, 0, 0, 0, 1);
    ck_assert_double_eq_tol(cs_ray_geom(&g, o2, d2), 4.5, 1e-12);
    /* Rotated box: 90 degrees about z swaps its x and y half-sizes. */
    g = geom(CS_GEOM_BOX, 0.1, 0.2, 0.3, 0, 0, 0, 1);
    double rz[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
    memcpy(g.pose.mat, rz, sizeof rz);
    ck_assert_double_eq_tol(cs_ray_geom(&g, o, d), 4.9, 1e-12);
    /* Plane z = 0, finite 1 x 1: hit from above inside, missed outside. */
    g = geom(CS_GEOM_PLANE, 1, 1, 0, 0, 0, 0, 0);
    double o3[3] = {0.5, 0.5, 2}, d3[3] = {0, 0, -1}, o4[3] = {1.5, 0, 2};
    ck_assert_double_eq_tol(cs_ray_geom(&g, o3, d3), 2, 1e-12);
    ck_assert_double_lt(cs_ray_geom(&g, o4, d3), 0);
    /* Misses. */
    g = geom(CS_GEOM_SPHERE, 0.5, 0, 0, 0, 0, 2, 1);
    ck_assert_double_lt(cs_ray_geom(&g, o, d), 0);
    double away[3] = {0, -1, 0};
    g = geom(CS_GEOM_SPHERE, 0.5, 0, 0, 0, 0, 0, 1);
    ck_assert_double_lt(cs_ray_geom(&g, o, away), 0);
}
END_TEST

START_TEST(pick_finds_the_nearest)
{
    cs_render_geom g[3] = {geom(CS_GEOM_PLANE, 0, 0, 1, 0, 0, 0, 0),
                           geom(CS_GEOM_SPHERE, 0.1, 0, 0, 0, 0, 0.1, 1),
                           geom(CS_GEOM_BOX, 0.1, 0.1, 0.1, 0.5, 0, 0.1, 2)};
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.geoms = g;
    s.ngeom = 3;
    double o[3] = {0, 0, 3}, d[3] = {0, 0, -1}, t, hit[3];
    ck_assert_int_eq(cs_render_pick(&s, o, d, &t, hit), 1);
    ck_assert_double_eq_tol(t, 2.8, 1e-12);
    ck_assert_double_eq_tol(hit[2], 0.2, 1e-12);
    double o2[3] = {0.5, 0, 3};
    ck_assert_int_eq(cs_render_pick(&s, o2, d, &t, NULL), 2);
    double o3[3] = {2, 0, 3};
    ck_assert_int_eq(cs_render_pick(&s, o3, d, &t, NULL), 0);
    double up[3] = {0, 0, 1};
    ck_assert_int_eq(cs_render_pick(&s, o3, up, &t, NULL), -1);
}
END_TEST

START_TEST(select_tracks_and_perturbs)
{
    cs_render_geom g[2] = {geom(CS_GEOM_PLANE, 0, 0, 1, 0, 0, 0, 0),
                           geom(CS_GEOM_SPHERE, 0.1, 0, 0, 0.3, 0.2, 0.1, 4)};
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.geoms = g;
    s.ngeom = 2;
    cs_camera c = cam(90, -30, 1.5, 0, 0, 0, 45);
    cs_viewer_state v;
    cs_viewer_state_init(&v, &c, 0);
    int w = 320, h = 240;
    double px[2];
    cs_camera_project(&c, w, h, g[1].pose.pos, px);
    cs_action a = action(CS_ACT_SELECT);
    a.x = px[0];
    a.y = px[1];
    cs_viewer_apply(&v, &a, &s, w, h);
    ck_assert_int_eq(v.selected_body, 4);
    ck_assert_int_eq(v.track_body, 4);
    cs_viewer_track(&v, &s);
    ck_assert_double_eq(v.camera.lookat[0], 0.3);
    ck_assert_double_eq(v.camera.lookat[1], 0.2);
    /* Double-clicking the floor (world body) clears it. */
    a.x = 5;
    a.y = h - 5;
    cs_viewer_apply(&v, &a, &s, w, h);
    ck_assert_int_eq(v.selected_body, -1);
    ck_assert_int_eq(v.track_body, -1);

    /* Ctrl+drag: anchor where the sphere was hit; target follows the cursor at that depth. */
    cs_camera_project(&v.camera, w, h, g[1].pose.pos, px);
    a = action(CS_ACT_PERTURB_BEGIN);
    a.x = px[0];
    a.y = px[1];
    ck_assert_int_eq(cs_viewer_apply(&v, &a, &s, w, h), 1);
    ck_assert_int_eq(v.perturb_active, 1);
    ck_assert_int_eq(v.perturb_body, 4);
    cs_perturb p;
    cs_viewer_perturb(&v, &s, &p);
    ck_assert_int_eq(p.active, 1);
    double eye[3], f[3];
    cs_camera_frame(&v.camera, eye, f, NULL, NULL);
    double r = 0;
    for (int i = 0; i < 3; i++)
        r += (p.anchor[i] - g[1].pose.pos[i]) * (p.anchor[i] - g[1].pose.pos[i]);
    ck_assert_double_eq_tol(sqrt(r), 0.1, 1e-9); /* on the sphere's surface */
    a = action(CS_ACT_PERTURB_MOVE);
    a.x = px[0] + 40;
    a.y = px[1];
    cs_viewer_apply(&v, &a, &s, w, h);
    cs_viewer_perturb(&v, &s, &p);
    double da = 0, dt = 0;
    for (int i = 0; i < 3; i++) {
        da += (p.anchor[i] - eye[i]) * f[i];
        dt += (p.target[i] - eye[i]) * f[i];
    }
    ck_assert_double_eq_tol(da, dt, 1e-9); /* same depth */
    double tp[2];
    cs_camera_project(&v.camera, w, h, p.target, tp);
    ck_assert_double_eq_tol(tp[0], px[0] + 40, 1e-6);
    double force[3], vz[3] = {0, 0, 0};
    cs_perturb_force(&p, 2.0, vz, force);
    for (int i = 0; i < 3; i++) /* a spring towards the target */
        ck_assert(force[i] * (p.target[i] - p.anchor[i]) >= 0);
    ck_assert_double_gt(fabs(force[0]) + fabs(force[1]) + fabs(force[2]), 0);
    /* The world cannot be grabbed. */
    a = action(CS_ACT_PERTURB_END);
    cs_viewer_apply(&v, &a, &s, w, h);
    cs_viewer_perturb(&v, &s, &p);
    ck_assert_int_eq(p.active, 0);
    a = action(CS_ACT_PERTURB_BEGIN);
    a.x = 5;
    a.y = h - 5;
    ck_assert_int_eq(cs_viewer_apply(&v, &a, &s, w, h), 0);
    ck_assert_int_eq(v.perturb_active, 0);
}
END_TEST

START_TEST(double_click_near_a_contact_selects_it)
{
    cs_render_contact con[2];
    memset(con, 0, sizeof con);
    con[0].pos[0] = 0.2;
    con[1].pos[0] = -0.2;
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.contacts = con;
    s.ncontact = 2;
    cs_camera c = cam(90, -30, 1.5, 0, 0, 0, 45);
    double px[2];
    cs_camera_project(&c, 320, 240, con[1].pos, px);
    ck_assert_int_eq(cs_render_pick_contact(&s, &c, 320, 240, px[0] + 3, px[1] - 2, 8), 1);
    ck_assert_int_eq(cs_render_pick_contact(&s, &c, 320, 240, px[0] + 30, px[1], 8), -1);
}
END_TEST

/* ------------------------------------------------------------ misc */

START_TEST(pacing_keeps_real_time)
{
    double debt = 0;
    ck_assert_int_eq(cs_pacing_steps(0.01, 1, 0.002, 1000, &debt), 5);
    ck_assert_double_eq_tol(debt, 0, 1e-12);
    /* Half speed: 2 steps now, the half step carried over. */
    ck_assert_int_eq(cs_pacing_steps(0.01, 0.5, 0.002, 1000, &debt), 2);
    ck_assert_double_eq_tol(debt, 0.001, 1e-12);
    ck_assert_int_eq(cs_pacing_steps(0.01, 0.5, 0.002, 1000, &debt), 3);
    /* Over budget: capped and the debt dropped (slower, not spiralling). */
    ck_assert_int_eq(cs_pacing_steps(0.1, 1, 0.002, 10, &debt), 10);
    ck_assert_double_eq(debt, 0);
    /* A frame faster than a step takes no step but keeps the time. */
    ck_assert_int_eq(cs_pacing_steps(0.0005, 1, 0.002, 10, &debt), 0);
    ck_assert_double_eq_tol(debt, 0.0005, 1e-15);
    /* Many fast frames add up to exactly the simulated time owed. */
    debt = 0;
    int total = 0;
    for (int i = 0; i < 1000; i++)
        total += cs_pacing_steps(1.0 / 600, 1, 0.002, 1000, &debt);
    ck_assert_int_ge(total, 832);
    ck_assert_int_le(total, 834);
}
END_TEST

START_TEST(overlay_list_parses)
{
    unsigned f = 0;
    char bad[32] = "";
    ck_assert_int_eq(cs_overlay_parse("contacts,forces", &f, bad, sizeof bad), 0);
    ck_assert_uint_eq(f, CS_OVERLAY_CONTACTS | CS_OVERLAY_FORCES);
    ck_assert_int_eq(cs_overlay_parse("cones,frames,wireframe", &f, bad, sizeof bad), 0);
    ck_assert_uint_eq(f, CS_OVERLAY_CONES | CS_OVERLAY_FRAMES | CS_OVERLAY_WIREFRAME);
    ck_assert_int_eq(cs_overlay_parse("joints", &f, bad, sizeof bad), 0);
    ck_assert_uint_eq(f, CS_OVERLAY_JOINTS);
    ck_assert_int_eq(cs_overlay_parse("contacts,joints,hud", &f, bad, sizeof bad), 0);
    ck_assert_uint_eq(f, CS_OVERLAY_CONTACTS | CS_OVERLAY_JOINTS | CS_OVERLAY_HUD);
    ck_assert_uint_eq(CS_OVERLAY_DEFAULT & CS_OVERLAY_JOINTS, 0); /* off unless asked (as MuJoCo) */
    ck_assert_int_ne(cs_overlay_parse("joint", &f, bad, sizeof bad), 0);
    ck_assert_str_eq(bad, "joint");
    ck_assert_int_eq(cs_overlay_parse("none", &f, bad, sizeof bad), 0);
    ck_assert_uint_eq(f, 0);
    f = 7;
    ck_assert_int_ne(cs_overlay_parse("cones,bogus", &f, bad, sizeof bad), 0);
    ck_assert_str_eq(bad, "bogus");
    ck_assert_uint_eq(f, 7);
    ck_assert_int_ne(cs_overlay_parse("cones,", &f, bad, sizeof bad), 0);
}
END_TEST

START_TEST(cone_ratio_marks_the_boundary)
{
    cs_render_contact c;
    memset(&c, 0, sizeof c);
    c.dim = 3;
    c.friction[0] = c.friction[1] = 0.5;
    c.force[0] = 2;
    c.force[1] = 0.6;
    c.force[2] = 0.8; /* |f_t| = 1 = mu fn: on the cone */
    ck_assert_double_eq_tol(cs_contact_cone_ratio(&c), 1, 1e-12);
    c.force[2] = 0;
    ck_assert_double_eq_tol(cs_contact_cone_ratio(&c), 0.6, 1e-12);
    /* condim 4: torsion uses the same cone, weighted by its own coefficient. */
    c.dim = 4;
    c.friction[2] = 0.01;
    c.force[3] = 0.016;
    ck_assert_double_eq_tol(cs_contact_cone_ratio(&c), 1, 1e-12);
    /* Pyramidal: |f1|/mu1 + |f2|/mu2 against fn; (0.6, 0.8) at mu 0.5 needs fn 2.8. */
    c.dim = 3;
    c.force[0] = 2.8;
    c.force[1] = 0.6;
    c.force[2] = -0.8;
    snprintf(c.zone, sizeof c.zone, "pyramid");
    ck_assert_double_eq_tol(cs_contact_cone_ratio(&c), 1, 1e-12);
    c.zone[0] = '\0';
    ck_assert_double_eq_tol(cs_contact_cone_ratio(&c), 1 / 1.4, 1e-12);
    c.force[0] = 0;
    ck_assert_double_eq(cs_contact_cone_ratio(&c), 0);
    /* The cone overlay picks the largest normal force when nothing is selected. */
    cs_render_contact cc[3];
    memset(cc, 0, sizeof cc);
    for (int i = 0; i < 3; i++)
        cc[i].dim = 3;
    cc[0].force[0] = 1;
    cc[1].force[0] = 5;
    cc[2].force[0] = 2;
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.contacts = cc;
    s.ncontact = 3;
    ck_assert_int_eq(cs_render_scene_cone_contact(&s), 1);
    s.selected_contact = 2;
    ck_assert_int_eq(cs_render_scene_cone_contact(&s), 2);
    s.ncontact = 0;
    ck_assert_int_eq(cs_render_scene_cone_contact(&s), -1);
}
END_TEST

/* The control panel's geometry and the slider's value mapping. */
START_TEST(control_panel_sliders_map_values)
{
    cs_render_actuator lift = {.name = "lift", .ctrl = 0.1, .limited = 1, .range = {0, 0.3}};
    cs_render_actuator free_ = {.name = "free", .ctrl = 0, .limited = 0, .range = {0, 0}};
    double p[4], c[4], t[4], t0[4];
    const int w = 640, h = 360, n = 3;
    ck_assert_int_eq(cs_ctrl_panel_rect(w, h, n, CS_PANEL_BACKGROUND, p), 0);
    ck_assert_int_eq(cs_ctrl_panel_rect(w, h, n, CS_PANEL_CLEAR, c), 0);
    ck_assert_int_eq(cs_ctrl_panel_rect(w, h, n, 2, t), 0);
    ck_assert_int_eq(cs_ctrl_panel_rect(w, h, n, 0, t0), 0);
    /* at the top right, inside the window; the tracks inside the panel, below the button,
     * one under the other */
    ck_assert(p[0] > w / 2 && p[0] + p[2] <= w && p[1] >= 0 && p[1] + p[3] <= h);
    ck_assert(t[0] >= p[0] && t[0] + t[2] <= p[0] + p[2] && t[1] + t[3] <= p[1] + p[3]);
    ck_assert(c[1] + c[3] <= t0[1] && t0[1] + t0[3] < t[1]);
    ck_assert_int_eq(cs_ctrl_panel_rect(w, h, n, 3, t0), -1);
    ck_assert_int_eq(cs_ctrl_panel_rect(w, h, 0, CS_PANEL_BACKGROUND, t0), -1);
    /* the ends of the track are the ends of ctrlrange; beyond them it clamps */
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&lift, t, t[0]), 0, 1e-12);
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&lift, t, t[0] + t[2]), 0.3, 1e-12);
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&lift, t, t[0] + 0.5 * t[2]), 0.15, 1e-12);
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&lift, t, t[0] - 50), 0, 1e-12);
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&lift, t, t[0] + t[2] + 50), 0.3, 1e-12);
    /* the knob's position is the inverse map */
    for (double v = 0; v <= 0.3; v += 0.05)
        ck_assert_double_eq_tol(cs_ctrl_slider_value(&lift, t, cs_ctrl_slider_x(&lift, t, v)), v,
                                1e-12);
    ck_assert_double_eq_tol(cs_ctrl_slider_x(&lift, t, 7), t[0] + t[2], 1e-12);
    /* no range: MuJoCo's simulate spans -1 .. 1; a range given spans it even when it does
     * not clamp (MuJoCo 3.12) */
    double lo, hi;
    cs_ctrl_slider_range(&free_, &lo, &hi);
    ck_assert(lo == -1 && hi == 1);
    cs_render_actuator wide = {.name = "wide", .limited = 0, .range = {-6.25, 6.25}};
    cs_ctrl_slider_range(&wide, &lo, &hi);
    ck_assert(lo == -6.25 && hi == 6.25);
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&wide, t, t[0] + 0.75 * t[2]), 3.125, 1e-12);
    ck_assert_double_eq_tol(cs_ctrl_slider_value(&free_, t, t[0] + 0.75 * t[2]), 0.5, 1e-12);
    /* hits: the track's centre is its slider, the button is clear, elsewhere outside */
    ck_assert_int_eq(cs_ctrl_panel_hit(w, h, n, t[0] + 0.5 * t[2], t[1] + 0.5 * t[3]), 2);
    ck_assert_int_eq(cs_ctrl_panel_hit(w, h, n, c[0] + 0.5 * c[2], c[1] + 0.5 * c[3]),
                     CS_PANEL_CLEAR);
    ck_assert_int_eq(cs_ctrl_panel_hit(w, h, n, 10, 10), CS_PANEL_OUTSIDE);
    ck_assert_int_eq(cs_ctrl_panel_hit(w, h, n, p[0] + 2, p[1] + 2), CS_PANEL_BACKGROUND);
    /* more sliders than fit: those below the window's edge are not shown */
    int shown = 0;
    while (cs_ctrl_panel_rect(w, h, 100, shown, t0) == 0) {
        ck_assert(t0[1] + t0[3] <= h);
        shown++;
    }
    ck_assert(shown > 3 && shown < 100);
    /* a larger window uses the larger text scale: a taller panel */
    double big[4];
    ck_assert_int_eq(cs_ctrl_panel_rect(1280, 720, n, CS_PANEL_BACKGROUND, big), 0);
    ck_assert_double_gt(big[3], 1.5 * p[3]);
}
END_TEST

/* Mouse events on the panel: press and drag set a control, the panel keeps them from the
 * camera, a driven slider is not set, the button clears, Tab hides the panel. */
START_TEST(control_panel_takes_the_mouse)
{
    cs_render_actuator act[2] = {
        {.name = "a", .ctrl = 0, .limited = 1, .range = {-2, 2}},
        {.name = "b", .ctrl = 0, .limited = 1, .range = {0, 1}, .driven = 1},
    };
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.actuators = act;
    s.nactuator = 2;
    cs_viewer_state v;
    cs_viewer_state_init(&v, NULL, CS_OVERLAY_CONTROLS);
    const int w = 640, h = 360;
    double t[4], c[4];
    cs_ctrl_panel_rect(w, h, 2, 0, t);
    cs_ctrl_panel_rect(w, h, 2, CS_PANEL_CLEAR, c);
    double y = t[1] + 0.5 * t[3];
    cs_input_event e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, t[0] + 0.25 * t[2], y, 0);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 1);
    ck_assert_int_eq(v.ctrl_drag, 0);
    ck_assert_int_eq(v.ctrl_pending, 0);
    ck_assert_double_eq_tol(v.ctrl_pending_value, -1, 1e-12);
    e = move(t[0] + 0.75 * t[2], y + 40); /* off the track: the drag follows x only */
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 1);
    ck_assert_double_eq_tol(v.ctrl_pending_value, 1, 1e-12);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0, t[0] + 0.75 * t[2], y + 40, 0.1);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 1);
    ck_assert_int_eq(v.ctrl_drag, -1);
    /* after the release, moves are the camera's again */
    e = move(100, 100);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 0);
    /* a driven slider: the press is the panel's, but asks for nothing */
    v.ctrl_pending = -1;
    cs_ctrl_panel_rect(w, h, 2, 1, t);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, t[0] + 0.5 * t[2], t[1] + 1, 0.2);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 1);
    ck_assert_int_eq(v.ctrl_pending, -1);
    ck_assert_int_eq(v.ctrl_drag, -1);
    /* the clear button */
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, c[0] + 1, c[1] + 1, 0.3);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 1);
    ck_assert_int_eq(v.ctrl_clear_request, 1);
    /* off the panel: not the panel's */
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, 20, 300, 0.4);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 0);
    /* Tab hides the panel (then it takes nothing), 0 asks to clear */
    ck_assert_int_eq(map_key(GLFW_KEY_TAB, GLFW_PRESS, 0), CS_ACT_TOGGLE_CONTROLS);
    ck_assert_int_eq(map_key(GLFW_KEY_0, GLFW_PRESS, 0), CS_ACT_CLEAR_CONTROLS);
    cs_action a = {.kind = CS_ACT_TOGGLE_CONTROLS};
    cs_viewer_apply(&v, &a, &s, w, h);
    ck_assert_int_eq(v.overlay & CS_OVERLAY_CONTROLS, 0);
    cs_ctrl_panel_rect(w, h, 2, 0, t);
    e = button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0, t[0] + 1, t[1] + 1, 0.5);
    ck_assert_int_eq(cs_viewer_panel_event(&v, &s, &e, w, h), 0);
    v.ctrl_clear_request = 0;
    a.kind = CS_ACT_CLEAR_CONTROLS;
    cs_viewer_apply(&v, &a, &s, w, h);
    ck_assert_int_eq(v.ctrl_clear_request, 1);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("render-input");
    TCase *tc = tcase_create("input");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, keys_map_to_actions);
    tcase_add_test(tc, drags_orbit_pan_zoom);
    tcase_add_test(tc, double_click_selects);
    tcase_add_test(tc, ctrl_drag_perturbs);
    tcase_add_test(tc, viewer_state_follows_actions);
    tcase_add_test(tc, contact_cycling);
    tcase_add_test(tc, camera_cycling);
    tcase_add_test(tc, control_panel_sliders_map_values);
    tcase_add_test(tc, control_panel_takes_the_mouse);
    suite_add_tcase(su, tc);
    tc = tcase_create("camera");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, camera_frame_is_mujocos);
    tcase_add_test(tc, camera_projects_known_points);
    tcase_add_test(tc, camera_matrices_agree_with_projection);
    tcase_add_test(tc, ray_goes_through_projection);
    tcase_add_test(tc, orbit_pan_zoom);
    tcase_add_test(tc, camera_option_parses);
    suite_add_tcase(su, tc);
    tc = tcase_create("pick");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, rays_hit_primitives);
    tcase_add_test(tc, pick_finds_the_nearest);
    tcase_add_test(tc, select_tracks_and_perturbs);
    tcase_add_test(tc, double_click_near_a_contact_selects_it);
    suite_add_tcase(su, tc);
    tc = tcase_create("misc");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, pacing_keeps_real_time);
    tcase_add_test(tc, overlay_list_parses);
    tcase_add_test(tc, cone_ratio_marks_the_boundary);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
