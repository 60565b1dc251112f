/* render/ with a GL context (a display or Xvfb; exit 77 = skipped without one):
 * off-screen frames of a hand-built sphere-on-plane scene, PNG files, the window loop. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "render.h"

/* Mesa and X11 keep allocations for the process's life; they are not ours. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libGLX\nleak:libGLX_mesa\nleak:libX11\nleak:libxcb\nleak:libglfw\n"
           "leak:libEGL\nleak:libgallium\nleak:swrast_dri\nleak:libLLVM\nleak:libdrm\n"
           "leak:dri\nleak:libglapi\n";
}

#define W 320
#define H 240

static cs_renderer *R;
static cs_render_geom G[2];
static cs_render_contact C[1];
static const float SPHERE_RGB[3] = {0.9f, 0.5f, 0.1f};

static void build_scene(cs_render_scene *s, unsigned overlay)
{
    memset(G, 0, sizeof G);
    memset(C, 0, sizeof C);
    /* Plane 2 x 2 m, grid every 0.2 m. */
    G[0].type = CS_GEOM_PLANE;
    G[0].size[0] = 2, G[0].size[1] = 2, G[0].size[2] = 0.2;
    G[0].pose.mat[0] = G[0].pose.mat[4] = G[0].pose.mat[8] = 1;
    G[0].rgba[0] = 0.25f, G[0].rgba[1] = 0.3f, G[0].rgba[2] = 0.35f, G[0].rgba[3] = 1;
    G[0].body = 0;
    /* Sphere r = 0.1 resting at the origin. */
    G[1].type = CS_GEOM_SPHERE;
    G[1].size[0] = 0.1;
    G[1].pose.pos[2] = 0.1;
    G[1].pose.mat[0] = G[1].pose.mat[4] = G[1].pose.mat[8] = 1;
    memcpy(G[1].rgba, SPHERE_RGB, sizeof SPHERE_RGB);
    G[1].rgba[3] = 1;
    G[1].body = 1;
    /* A contact on its top, where the camera sees it (overlays are hidden behind bodies):
     * n = +z, t1 = +x, t2 = +y; 9.81 N and a sliding friction force of mu fn along +x (on
     * the cone boundary), acting on what rests there. */
    double fr[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
    memcpy(C[0].frame, fr, sizeof fr);
    C[0].pos[2] = 0.2;
    C[0].dim = 3;
    C[0].force[0] = 9.81;
    C[0].force[1] = 0.5 * 9.81;
    C[0].friction[0] = C[0].friction[1] = 0.5;
    snprintf(C[0].zone, sizeof C[0].zone, "middle");
    C[0].geom1 = 1;
    C[0].geom2 = -1;
    cs_render_scene_init(s);
    s->geoms = G;
    s->ngeom = 2;
    s->contacts = C;
    s->ncontact = 1;
    s->overlay = overlay;
    s->hud.time = 1.25;
    s->hud.ncon = 1;
}

static cs_camera camera(void)
{
    cs_camera c = {.azimuth = 90, .elevation = -25, .distance = 0.9, .lookat = {0, 0, 0.08}, .fovy = 45};
    return c;
}

static unsigned char *render(unsigned overlay, const cs_camera *c, int w, int h)
{
    cs_render_scene s;
    build_scene(&s, overlay);
    unsigned char *rgb = malloc((size_t)w * h * 3);
    char err[256];
    ck_assert_ptr_nonnull(rgb);
    int rc = cs_render_offscreen(R, &s, c, w, h, rgb, err, sizeof err);
    ck_assert_msg(rc == 0, "offscreen render failed: %s", err);
    return rgb;
}

static const unsigned char *px(const unsigned char *rgb, int w, int x, int y)
{
    return rgb + ((size_t)y * w + x) * 3;
}

static int near_color(const unsigned char *p, const float c[3], int tol)
{
    for (int i = 0; i < 3; i++)
        if (abs((int)p[i] - (int)lrintf(c[i] * 255)) > tol)
            return 0;
    return 1;
}

static void proj(const cs_camera *c, const double p[3], int *x, int *y)
{
    double q[2];
    ck_assert_int_eq(cs_camera_project(c, W, H, p, q), 0);
    *x = (int)floor(q[0]);
    *y = (int)floor(q[1]);
}

START_TEST(frame_has_size_and_many_colours)
{
    cs_camera c = camera();
    unsigned char *rgb = render(0, &c, W, H);
    /* Count distinct colours with a small hash set. */
    enum { SLOTS = 1 << 16 };
    unsigned *set = calloc(SLOTS, sizeof *set);
    int distinct = 0;
    for (int i = 0; i < W * H; i++) {
        unsigned v = 1u + (rgb[3 * i] | rgb[3 * i + 1] << 8 | (unsigned)rgb[3 * i + 2] << 16);
        unsigned h = (v * 2654435761u) >> 16;
        while (set[h] && set[h] != v)
            h = (h + 1) & (SLOTS - 1);
        if (!set[h]) {
            set[h] = v;
            distinct++;
        }
    }
    free(set);
    ck_assert_int_gt(distinct, 200);
    /* Sky gradient: the top row is darker blue than further down the sky. */
    const unsigned char *top = px(rgb, W, 5, 0), *lower = px(rgb, W, 5, 20);
    ck_assert_int_gt(top[2], top[0]);
    ck_assert_int_lt(top[0] + top[1] + top[2], lower[0] + lower[1] + lower[2]);
    free(rgb);
}
END_TEST

START_TEST(sphere_centre_has_sphere_colour)
{
    cs_camera c = camera();
    unsigned char *rgb = render(0, &c, W, H);
    int x, y;
    proj(&c, G[1].pose.pos, &x, &y);
    const unsigned char *p0 = px(rgb, W, x, y);
    unsigned char p[3] = {p0[0], p0[1], p0[2]};
    /* Lighting scales the colour; its direction (hue) stays the sphere's. */
    double n = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
    double m = sqrt(SPHERE_RGB[0] * SPHERE_RGB[0] + SPHERE_RGB[1] * SPHERE_RGB[1] +
                    SPHERE_RGB[2] * SPHERE_RGB[2]);
    double cosang = (p[0] * SPHERE_RGB[0] + p[1] * SPHERE_RGB[1] + p[2] * SPHERE_RGB[2]) / (n * m);
    ck_assert_msg(cosang > 0.995, "centre pixel %d %d %d is not the sphere's colour", p[0], p[1],
                  p[2]);
    ck_assert_int_gt(n, 100);
    /* Just off the sphere's silhouette (1.3 radii up in the image) it is not. */
    double above[3] = {0, 0, 0.1 + 0.13 / cos(25 * 3.14159265 / 180)};
    proj(&c, above, &x, &y);
    const unsigned char *q = px(rgb, W, x, y);
    ck_assert_msg(!(q[0] > 2 * q[2] && q[0] > 150), "background %d %d %d looks like the sphere",
                  q[0], q[1], q[2]);
    free(rgb);
    /* Without multisampling the same pixel is the same colour (up to edge blending). */
    cs_renderer_set_samples(R, 0);
    unsigned char *plain = render(0, &c, W, H);
    cs_renderer_set_samples(R, 4);
    proj(&c, G[1].pose.pos, &x, &y);
    const unsigned char *pp = px(plain, W, x, y);
    ck_assert_int_le(abs(pp[0] - p[0]) + abs(pp[1] - p[1]) + abs(pp[2] - p[2]), 6);
    free(plain);
    /* The selected body is highlighted: brighter, same hue. */
    cs_render_scene s;
    build_scene(&s, 0);
    s.selected_body = 1;
    unsigned char *sel = malloc(W * H * 3);
    char err[256];
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, sel, err, sizeof err), 0);
    const unsigned char *ps = px(sel, W, x, y);
    ck_assert_int_gt(ps[0] + ps[1] + ps[2], p[0] + p[1] + p[2] + 30);
    free(sel);
}
END_TEST

START_TEST(grid_is_visible)
{
    cs_camera c = camera();
    unsigned char *rgb = render(0, &c, W, H);
    /* A row well below the sphere crosses several grid lines: runs of pixels clearly
     * darker than the row's typical plane colour. */
    int y = H - 20, runs = 0, in = 0;
    int lum[W], sorted[W];
    for (int x = 0; x < W; x++) {
        const unsigned char *p = px(rgb, W, x, y);
        lum[x] = sorted[x] = p[0] + p[1] + p[2];
    }
    for (int i = 1; i < W; i++) /* insertion sort for the median */
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    int median = sorted[W / 2];
    for (int x = 0; x < W; x++) {
        int line = lum[x] < median - 25;
        if (line && !in)
            runs++;
        in = line;
    }
    ck_assert_msg(runs >= 3, "only %d grid lines in row %d (median %d)", runs, y, median);
    /* The plane itself is there: the row's median is the plane's grey-blue, not the sky. */
    const unsigned char *p = px(rgb, W, W / 2, y);
    ck_assert_int_lt(p[0] + p[1] + p[2], 3 * 200);
    free(rgb);
}
END_TEST

static int count_color_above(const unsigned char *rgb, int x0, int y0, const float col[3])
{
    int n = 0;
    for (int y = y0 - 4; y > y0 - 80 && y >= 0; y--)
        for (int x = x0 - 3; x <= x0 + 3; x++)
            if (x >= 0 && x < W && near_color(px(rgb, W, x, y), col, 12))
                n++;
    return n;
}

START_TEST(force_arrow_above_the_contact)
{
    /* Closer than camera(): the shafts are thin against the extent (0.5%). */
    cs_camera c = {.azimuth = 90, .elevation = -25, .distance = 0.45, .lookat = {0, 0, 0.2}, .fovy = 45};
    int x, y;
    proj(&c, C[0].pos, &x, &y);
    unsigned char *off = render(CS_OVERLAY_CONTACTS, &c, W, H);
    unsigned char *on = render(CS_OVERLAY_CONTACTS | CS_OVERLAY_FORCES, &c, W, H);
    int n_off = count_color_above(off, x, y, cs_color_normal_force);
    int n_on = count_color_above(on, x, y, cs_color_normal_force);
    ck_assert_int_eq(n_off, 0);
    ck_assert_int_gt(n_on, 20);
    /* The contact point itself is drawn. */
    int found = 0;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++)
            found += near_color(px(off, W, x + dx, y + dy), cs_color_contact_point, 12);
    ck_assert_int_gt(found, 0);
    /* Friction along +x: friction-coloured pixels to the right of the contact. */
    int fr = 0;
    for (int xx = x + 4; xx < x + 60 && xx < W; xx++)
        for (int dy = -3; dy <= 3; dy++)
            fr += near_color(px(on, W, xx, y + dy), cs_color_friction_force, 12);
    ck_assert_int_gt(fr, 10);
    free(off);
    free(on);
}
END_TEST

START_TEST(cone_marks_a_sliding_contact)
{
    cs_camera c = camera();
    cs_render_scene s;
    build_scene(&s, CS_OVERLAY_CONES);
    /* The friction dot sits at the tip of the total force: pos + scale (fn n + f1 t1). */
    double scale = 0;
    {
        /* The automatic scale: the largest force (9.81 N) rounded up to 10 N is drawn
         * 0.3 extents long. */
        double e = 2 * 0.1 * sqrt(3.0); /* one sphere: its box diagonal */
        scale = CS_FORCE_ARROW_FRACTION * e / 10;
    }
    double dot[3] = {scale * C[0].force[1], 0, 0.2 + scale * C[0].force[0]};
    int x, y;
    proj(&c, dot, &x, &y);
    unsigned char *rgb = render(CS_OVERLAY_CONES, &c, W, H);
    int b = 0, in = 0;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++) {
            b += near_color(px(rgb, W, x + dx, y + dy), cs_color_cone_boundary, 12);
            in += near_color(px(rgb, W, x + dx, y + dy), cs_color_cone_inside, 12);
        }
    ck_assert_int_gt(b, 5);
    ck_assert_int_eq(in, 0);
    free(rgb);
    /* Half the friction: inside the cone, drawn in the other colour. */
    C[0].force[1] *= 0.5;
    unsigned char *rgb2 = malloc(W * H * 3);
    char err[256];
    s.overlay = CS_OVERLAY_CONES;
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb2, err, sizeof err), 0);
    double dot2[3] = {scale * C[0].force[1], 0, 0.2 + scale * C[0].force[0]};
    proj(&c, dot2, &x, &y);
    b = in = 0;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            b += near_color(px(rgb2, W, x + dx, y + dy), cs_color_cone_boundary, 12);
            in += near_color(px(rgb2, W, x + dx, y + dy), cs_color_cone_inside, 12);
        }
    ck_assert_int_gt(in, 5);
    ck_assert_int_eq(b, 0);
    free(rgb2);
}
END_TEST

/* Overlays are depth tested: a contact point on the far side of the sphere is hidden (its
 * pixel shows the sphere), one on the near side is drawn. */
START_TEST(marker_behind_a_body_is_hidden)
{
    cs_camera c = camera(); /* azimuth 90: looking along +y, so +y is the far side */
    cs_render_scene s;
    build_scene(&s, CS_OVERLAY_CONTACTS);
    C[0].pos[0] = 0, C[0].pos[1] = 0.1, C[0].pos[2] = 0.1;
    C[0].geom1 = 1;
    int x, y;
    proj(&c, C[0].pos, &x, &y);
    unsigned char *rgb = malloc(W * H * 3);
    char err[256];
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    int hidden_marker = 0;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            hidden_marker += near_color(px(rgb, W, x + dx, y + dy), cs_color_contact_point, 40);
    ck_assert_int_eq(hidden_marker, 0);
    const unsigned char *p = px(rgb, W, x, y);
    double n = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
    double m = sqrt(SPHERE_RGB[0] * SPHERE_RGB[0] + SPHERE_RGB[1] * SPHERE_RGB[1] +
                    SPHERE_RGB[2] * SPHERE_RGB[2]);
    double cosang = (p[0] * SPHERE_RGB[0] + p[1] * SPHERE_RGB[1] + p[2] * SPHERE_RGB[2]) / (n * m);
    ck_assert_msg(cosang > 0.995, "pixel %d %d %d over the hidden contact is not the sphere's",
                  p[0], p[1], p[2]);
    /* The same contact on the near side is drawn. */
    C[0].pos[1] = -0.1;
    proj(&c, C[0].pos, &x, &y);
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    int shown = 0;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            shown += near_color(px(rgb, W, x + dx, y + dy), cs_color_contact_point, 40);
    ck_assert_int_gt(shown, 3);
    free(rgb);
}
END_TEST

/* Rows from y0 up where the column band x0 +- 2 shows the colour: the arrow's on-screen
 * length in pixels (from the contact to the last such row). */
static int arrow_rows(const unsigned char *rgb, int x0, int y0, const float col[3])
{
    int top = y0;
    for (int y = y0; y >= 0; y--)
        for (int x = x0 - 2; x <= x0 + 2; x++)
            if (x >= 0 && x < W && near_color(px(rgb, W, x, y), col, 30))
                top = y;
    return y0 - top;
}

/* Arrow length is proportional to the force: seen from the side (elevation 0, both at the
 * same depth), a 8 N arrow is twice as long on screen as a 4 N one, and the automatic scale
 * draws the largest (8 N, rounded up to 10 N) 0.3 extents long: 0.24 m here. */
START_TEST(arrow_length_follows_the_force)
{
    static cs_render_contact two[2];
    cs_render_scene s;
    build_scene(&s, CS_OVERLAY_FORCES);
    s.ngeom = 1; /* the plane alone: extent 1 */
    memset(two, 0, sizeof two);
    for (int k = 0; k < 2; k++) {
        double fr[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
        memcpy(two[k].frame, fr, sizeof fr);
        two[k].pos[0] = k ? 0.2 : -0.2;
        two[k].dim = 1;
        two[k].force[0] = k ? 8 : 4;
        two[k].geom1 = 0;
        two[k].geom2 = -1;
        snprintf(two[k].zone, sizeof two[k].zone, "normal");
    }
    s.contacts = two;
    s.ncontact = 2;
    ck_assert_double_eq_tol(cs_render_force_ref(&s), 10, 1e-12);
    cs_camera c = {.azimuth = 90, .elevation = 0, .distance = 1.0, .lookat = {0, 0, 0.12}, .fovy = 45};
    unsigned char *rgb = malloc(W * H * 3);
    char err[256];
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    int len[2];
    for (int k = 0; k < 2; k++) {
        int x, y;
        proj(&c, two[k].pos, &x, &y);
        len[k] = arrow_rows(rgb, x, y, cs_color_normal_force);
    }
    double tip[3] = {0.2, 0, 0.24};
    int x0, y0, x1, y1;
    proj(&c, two[1].pos, &x0, &y0);
    proj(&c, tip, &x1, &y1);
    ck_assert_msg(abs(len[1] - (y0 - y1)) <= 3, "8 N arrow %d px, expected %d", len[1], y0 - y1);
    ck_assert_msg(abs(2 * len[0] - len[1]) <= 4, "4 N arrow %d px, 8 N arrow %d px", len[0],
                  len[1]);
    free(rgb);
}
END_TEST

START_TEST(wireframe_and_hud_change_the_image)
{
    cs_camera c = camera();
    unsigned char *a = render(0, &c, W, H);
    unsigned char *b = render(CS_OVERLAY_WIREFRAME, &c, W, H);
    unsigned char *d = render(CS_OVERLAY_HUD, &c, W, H);
    int x, y;
    proj(&c, G[1].pose.pos, &x, &y);
    long diff_w = 0, diff_h = 0;
    for (int i = 0; i < W * H * 3; i++) {
        diff_w += a[i] != b[i];
        diff_h += a[i] != d[i];
    }
    ck_assert_int_gt(diff_w, 100);
    ck_assert_int_gt(diff_h, 500);
    /* HUD text is white on a dark panel in the top-left corner. */
    int white = 0;
    for (int yy = 0; yy < 30; yy++)
        for (int xx = 0; xx < 150; xx++) {
            const unsigned char *p = px(d, W, xx, yy);
            white += p[0] > 240 && p[1] > 240 && p[2] > 240;
        }
    ck_assert_int_gt(white, 30);
    free(a);
    free(b);
    free(d);
}
END_TEST

/* Every primitive shows its own colour at its projected centre (boxes rotated, a
 * translucent one blended over the plane). */
START_TEST(all_primitives_drawn)
{
    static const struct {
        int type;
        double size[3], pos[3];
        float rgb[3];
    } P[] = {
        {CS_GEOM_BOX, {0.08, 0.05, 0.04}, {-0.45, 0, 0.1}, {0.9f, 0.1f, 0.1f}},
        {CS_GEOM_CAPSULE, {0.04, 0.06, 0}, {-0.22, 0, 0.1}, {0.1f, 0.8f, 0.1f}},
        {CS_GEOM_CYLINDER, {0.06, 0.05, 0}, {0, 0, 0.1}, {0.1f, 0.2f, 0.9f}},
        {CS_GEOM_ELLIPSOID, {0.09, 0.05, 0.04}, {0.22, 0, 0.1}, {0.9f, 0.9f, 0.1f}},
        {CS_GEOM_SPHERE, {0.07, 0, 0}, {0.45, 0, 0.1}, {0.8f, 0.1f, 0.8f}},
    };
    enum { N = sizeof P / sizeof P[0] };
    cs_render_geom g[N + 1];
    memset(g, 0, sizeof g);
    g[0].type = CS_GEOM_PLANE; /* infinite, default grid */
    g[0].pose.mat[0] = g[0].pose.mat[4] = g[0].pose.mat[8] = 1;
    g[0].rgba[0] = 0.3f, g[0].rgba[1] = 0.3f, g[0].rgba[2] = 0.3f, g[0].rgba[3] = 1;
    /* 30 degrees about x: the axes tilt towards the camera, the faces all show. */
    double c30 = cos(3.14159265358979 / 6), s30 = sin(3.14159265358979 / 6);
    double rx[9] = {1, 0, 0, 0, c30, -s30, 0, s30, c30};
    for (int i = 0; i < N; i++) {
        cs_render_geom *q = &g[i + 1];
        q->type = P[i].type;
        memcpy(q->size, P[i].size, sizeof q->size);
        memcpy(q->pose.pos, P[i].pos, sizeof q->pose.pos);
        memcpy(q->pose.mat, rx, sizeof rx);
        memcpy(q->rgba, P[i].rgb, sizeof P[i].rgb);
        q->rgba[3] = 1;
        q->body = i + 1;
    }
    cs_render_scene s;
    cs_render_scene_init(&s);
    s.geoms = g;
    s.ngeom = N + 1;
    s.overlay = 0;
    cs_camera c = {.azimuth = 90, .elevation = -20, .distance = 1.4, .lookat = {0, 0, 0.1}, .fovy = 45};
    unsigned char *rgb = malloc(W * H * 3);
    char err[256];
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    for (int i = 0; i < N; i++) {
        int x, y;
        proj(&c, P[i].pos, &x, &y);
        const unsigned char *p = px(rgb, W, x, y);
        double n = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
        const float *k = P[i].rgb;
        double m = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
        double cosang = (p[0] * k[0] + p[1] * k[1] + p[2] * k[2]) / (n * m);
        ck_assert_msg(cosang > 0.98, "primitive %d: pixel %d %d %d", i, p[0], p[1], p[2]);
    }
    int opaque_green;
    {
        int x, y;
        proj(&c, P[N - 1].pos, &x, &y);
        opaque_green = px(rgb, W, x, y)[1];
    }
    const char *dir = getenv("CS_RENDER_TEST_OUT");
    if (dir) {
        char path[512];
        g[N].rgba[3] = 1;
        s.overlay = CS_OVERLAY_WIREFRAME;
        cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err);
        snprintf(path, sizeof path, "%s/primitives_wire.png", dir);
        cs_png_write(path, W, H, rgb, err, sizeof err);
        s.overlay = 0;
        cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err);
        snprintf(path, sizeof path, "%s/primitives.png", dir);
        cs_png_write(path, W, H, rgb, err, sizeof err);
    }
    /* Translucent: the sphere at half alpha mixes with what is behind it. */
    g[N].rgba[3] = 0.5f;
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    int x, y;
    proj(&c, P[N - 1].pos, &x, &y);
    const unsigned char *p = px(rgb, W, x, y);
    /* The grey behind shows through the magenta: more green than the opaque sphere had. */
    ck_assert_int_gt(p[1], opaque_green + 10);
    free(rgb);
}
END_TEST

/* Planar shadow: a sphere held above the plane darkens the plane along the key light
 * (direction (0.3, 0.5, 1)), and only there. */
START_TEST(shadow_falls_on_the_plane)
{
    cs_camera c = camera();
    cs_render_scene s;
    build_scene(&s, 0);
    G[1].pose.pos[2] = 0.3;
    double shadow[3] = {-0.3 * 0.3, -0.5 * 0.3, 0}, far[3] = {0.3, -0.3, 0};
    int x, y, fx, fy;
    proj(&c, shadow, &x, &y);
    proj(&c, far, &fx, &fy);
    unsigned char *with = malloc(W * H * 3), *without = malloc(W * H * 3);
    char err[256];
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, with, err, sizeof err), 0);
    s.no_shadows = 1;
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, without, err, sizeof err), 0);
    const unsigned char *a = px(with, W, x, y), *b = px(without, W, x, y);
    ck_assert_int_lt(a[0] + a[1] + a[2] + 30, b[0] + b[1] + b[2]);
    a = px(with, W, fx, fy);
    b = px(without, W, fx, fy);
    ck_assert_int_eq(a[0] + a[1] + a[2], b[0] + b[1] + b[2]);
    free(with);
    free(without);
}
END_TEST

/* A rod hanging from a hinge about y at z = 0.3, limited to [-1, 1] rad, angle 0 pointing
 * down; seen from the front, so the limit arc lies in the picture's plane. */
static cs_render_geom JG[2];
static cs_render_joint JJ[1];

static void build_hinge(cs_render_scene *s, unsigned overlay, double angle)
{
    memset(JG, 0, sizeof JG);
    memset(JJ, 0, sizeof JJ);
    JG[0].type = CS_GEOM_PLANE;
    JG[0].size[0] = JG[0].size[1] = 1, JG[0].size[2] = 0.1;
    JG[0].pose.mat[0] = JG[0].pose.mat[4] = JG[0].pose.mat[8] = 1;
    JG[0].rgba[0] = 0.25f, JG[0].rgba[1] = 0.3f, JG[0].rgba[2] = 0.35f, JG[0].rgba[3] = 1;
    /* The rod turned by the angle about +y: its axis -z goes to (-sin a, 0, -cos a). */
    double c = cos(angle), sn = sin(angle);
    double rot[9] = {c, 0, sn, 0, 1, 0, -sn, 0, c};
    JG[1].type = CS_GEOM_CAPSULE;
    JG[1].size[0] = 0.015, JG[1].size[1] = 0.1;
    memcpy(JG[1].pose.mat, rot, sizeof rot);
    JG[1].pose.pos[0] = -0.1 * sn, JG[1].pose.pos[2] = 0.3 - 0.1 * c;
    JG[1].rgba[0] = 0.9f, JG[1].rgba[1] = 0.6f, JG[1].rgba[2] = 0.2f, JG[1].rgba[3] = 1;
    JG[1].body = 1;
    JJ[0].type = CS_RENDER_JNT_HINGE;
    JJ[0].body = 1;
    snprintf(JJ[0].name, sizeof JJ[0].name, "knee");
    JJ[0].anchor[2] = 0.3;
    JJ[0].axis[1] = 1;
    JJ[0].ref[2] = -1;
    JJ[0].pos = angle;
    JJ[0].limited = 1;
    JJ[0].range[0] = -1, JJ[0].range[1] = 1;
    cs_render_scene_init(s);
    s->geoms = JG;
    s->ngeom = 2;
    s->joints = JJ;
    s->njoint = 1;
    s->overlay = overlay;
    s->extent = 1; /* overlay sizes in metres: arc radius 0.08, pointer 0.104 */
}

static int count_colour(const unsigned char *rgb, const float col[3])
{
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += near_color(rgb + 3 * i, col, 12);
    return n;
}

/* Colour counts in a 7 x 7 box about the projection of p. */
static int count_near(const unsigned char *rgb, const cs_camera *c, const double p[3],
                      const float col[3])
{
    int x, y, n = 0;
    proj(c, p, &x, &y);
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++)
            if (x + dx >= 0 && x + dx < W && y + dy >= 0 && y + dy < H)
                n += near_color(px(rgb, W, x + dx, y + dy), col, 12);
    return n;
}

START_TEST(joints_overlay_draws_a_limited_hinge)
{
    cs_camera c = {.azimuth = 90, .elevation = -5, .distance = 0.6, .lookat = {0, 0, 0.27}, .fovy = 45};
    cs_render_scene s;
    unsigned char *rgb = malloc(W * H * 3);
    char err[256];
    /* Inside the range (0.4 rad): the axis and arc in the joint colour, the pointer green,
     * nothing magenta. */
    build_hinge(&s, CS_OVERLAY_JOINTS, 0.4);
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    int arc = count_colour(rgb, cs_color_joint), in = count_colour(rgb, cs_color_joint_inside),
        lim = count_colour(rgb, cs_color_joint_limit);
    ck_assert_msg(arc > 150 && in > 40 && lim == 0, "arc %d inside %d limit %d", arc, in, lim);
    /* The arc where it should be: radius 0.08 about the anchor, at -0.5 rad (-sin, -cos); the
     * pointer's dot at 0.4 rad, 0.104 out. */
    double ap[3] = {0.08 * sin(0.5), 0, 0.3 - 0.08 * cos(0.5)};
    double tip[3] = {-0.104 * sin(0.4), 0, 0.3 - 0.104 * cos(0.4)};
    ck_assert_int_gt(count_near(rgb, &c, ap, cs_color_joint), 3);
    ck_assert_int_gt(count_near(rgb, &c, tip, cs_color_joint_inside), 10);
    const char *dir = getenv("CS_RENDER_TEST_OUT");
    if (dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/joints_inside.png", dir);
        cs_png_write(path, W, H, rgb, err, sizeof err);
    }
    /* Without the overlay: none of its colours. */
    s.overlay = 0;
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    ck_assert_int_eq(count_colour(rgb, cs_color_joint), 0);
    ck_assert_int_eq(count_colour(rgb, cs_color_joint_inside), 0);
    ck_assert_int_eq(count_colour(rgb, cs_color_joint_limit), 0);
    /* Past the upper limit (1.05 rad): the pointer and the limit's ray magenta, no green. */
    build_hinge(&s, CS_OVERLAY_JOINTS, 1.05);
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    in = count_colour(rgb, cs_color_joint_inside);
    lim = count_colour(rgb, cs_color_joint_limit);
    ck_assert_msg(lim > 40 && in == 0, "inside %d limit %d", in, lim);
    double tip2[3] = {-0.104 * sin(1.05), 0, 0.3 - 0.104 * cos(1.05)};
    ck_assert_int_gt(count_near(rgb, &c, tip2, cs_color_joint_limit), 10);
    if (dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/joints_limit.png", dir);
        cs_png_write(path, W, H, rgb, err, sizeof err);
    }
    /* At the lower limit too. */
    build_hinge(&s, CS_OVERLAY_JOINTS, -1);
    ck_assert_int_eq(cs_render_offscreen(R, &s, &c, W, H, rgb, err, sizeof err), 0);
    ck_assert_int_gt(count_colour(rgb, cs_color_joint_limit), 40);
    ck_assert_int_eq(count_colour(rgb, cs_color_joint_inside), 0);
    free(rgb);
}
END_TEST

START_TEST(png_round_trip)
{
    cs_camera c = camera();
    unsigned char *rgb = render(CS_OVERLAY_DEFAULT, &c, W, H);
    char path[] = "/tmp/cs_render_test_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[256];
    ck_assert_int_eq(cs_png_write(path, W, H, rgb, err, sizeof err), 0);
    int w = 0, h = 0;
    unsigned char *back = NULL;
    ck_assert_int_eq(cs_png_read(path, &w, &h, &back, err, sizeof err), 0);
    ck_assert_int_eq(w, W);
    ck_assert_int_eq(h, H);
    ck_assert_int_eq(memcmp(back, rgb, (size_t)W * H * 3), 0);
    free(back);
    unlink(path);
    /* An unwritable path fails with a message naming it. */
    ck_assert_int_ne(cs_png_write("/nonexistent-dir/x.png", W, H, rgb, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/x.png"));
    free(rgb);
}
END_TEST

START_TEST(screenshot_writes_png)
{
    cs_render_scene s;
    build_scene(&s, CS_OVERLAY_DEFAULT);
    cs_camera c = camera();
    char path[] = "/tmp/cs_render_shot_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[256];
    ck_assert_int_eq(cs_render_screenshot(&s, &c, 200, 150, path, err, sizeof err), 0);
    int w = 0, h = 0;
    unsigned char *back = NULL;
    ck_assert_int_eq(cs_png_read(path, &w, &h, &back, err, sizeof err), 0);
    ck_assert_int_eq(w, 200);
    ck_assert_int_eq(h, 150);
    free(back);
    unlink(path);
    ck_assert_int_ne(cs_render_screenshot(&s, &c, 0, 150, path, err, sizeof err), 0);
}
END_TEST

/* ------------------------------------------------------------ the loop */

typedef struct {
    int steps, fills, resets;
    cs_render_scene base;
} loop_user;

static int cb_step(void *u)
{
    ((loop_user *)u)->steps++;
    return 0;
}

static void cb_reset(void *u)
{
    ((loop_user *)u)->resets++;
}

static void cb_fill(void *u, cs_render_scene *s)
{
    loop_user *L = u;
    L->fills++;
    s->geoms = L->base.geoms;
    s->ngeom = L->base.ngeom;
    s->contacts = L->base.contacts;
    s->ncontact = L->base.ncontact;
    s->hud = L->base.hud;
}

START_TEST(loop_runs_frames)
{
    loop_user L;
    memset(&L, 0, sizeof L);
    build_scene(&L.base, CS_OVERLAY_DEFAULT);
    cs_viewer_options o;
    cs_viewer_options_init(&o);
    o.width = 320;
    o.height = 240;
    o.vsync = 0;
    o.max_frames = 5;
    o.camera = camera();
    cs_viewer_callbacks cb = {.user = &L, .step = cb_step, .reset = cb_reset, .fill = cb_fill};
    char err[256];
    ck_assert_int_eq(cs_viewer_run(&o, &cb, err, sizeof err), 0);
    ck_assert_int_eq(L.fills, 6); /* once before the first frame, once a frame */
    ck_assert_int_eq(L.resets, 0);
    /* Paused: no step without a request. */
    L.steps = L.fills = 0;
    o.start_paused = 1;
    ck_assert_int_eq(cs_viewer_run(&o, &cb, err, sizeof err), 0);
    ck_assert_int_eq(L.steps, 0);
    /* Without a step callback the loop refuses to start. */
    cb.step = NULL;
    ck_assert_int_ne(cs_viewer_run(&o, &cb, err, sizeof err), 0);
}
END_TEST

START_TEST(passive_window_syncs_and_closes)
{
    loop_user L;
    memset(&L, 0, sizeof L);
    build_scene(&L.base, 0);
    cs_viewer_options o;
    cs_viewer_options_init(&o);
    o.width = W;
    o.height = H;
    o.vsync = 0;
    o.overlay = 0;
    o.camera = camera();
    cs_viewer_callbacks cb = {.user = &L, .reset = cb_reset, .fill = cb_fill};
    char err[256];
    cs_window *win = cs_window_open(&o, &cb, err, sizeof err);
    ck_assert_msg(win != NULL, "%s", err);
    int w, h;
    cs_window_size(win, &w, &h);
    ck_assert(w == W && h == H);
    unsigned char *rgb = malloc((size_t)W * H * 3);
    ck_assert_ptr_nonnull(rgb);
    /* nothing to read before the first sync */
    ck_assert_int_ne(cs_window_read_rgb(win, rgb, W, H, err, sizeof err), 0);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(cs_window_sync(win), 1);
    ck_assert_int_eq(L.fills, 3); /* one fill a sync, no steps: the caller steps */
    ck_assert_int_eq(L.steps, 0);
    ck_assert_int_eq(cs_window_running(win), 1);
    ck_assert_int_eq(cs_window_next_key(win), -1);
    /* the synced frame: the sphere at its projected centre */
    cs_camera c = camera();
    int x, y;
    proj(&c, (double[3]){0, 0, 0.1}, &x, &y);
    ck_assert_int_eq(cs_window_read_rgb(win, rgb, W, H, err, sizeof err), 0);
    unsigned char *off = render(0, &c, W, H); /* the same frame off-screen */
    const unsigned char *p = px(rgb, W, x, y), *q = px(off, W, x, y);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(abs(p[k] - q[k]) <= 8, "(%d %d %d) vs (%d %d %d)", p[0], p[1], p[2], q[0],
                      q[1], q[2]);
    ck_assert(p[0] > p[1] && p[1] > p[2]); /* orange: the sphere, not the grey floor */
    free(off);
    ck_assert_int_ne(cs_window_read_rgb(win, rgb, W + 1, H, err, sizeof err), 0);
    free(rgb);
    cs_window_close(win);
    /* NULL: nothing happens */
    ck_assert_int_eq(cs_window_sync(NULL), 0);
    ck_assert_int_eq(cs_window_running(NULL), 0);
    ck_assert_int_eq(cs_window_next_key(NULL), -1);
    cs_window_close(NULL);
    cb.fill = NULL;
    ck_assert_ptr_null(cs_window_open(&o, &cb, err, sizeof err));
}
END_TEST

START_TEST(depth_and_segmentation)
{
    cs_render_scene s;
    build_scene(&s, CS_OVERLAY_DEFAULT);
    /* straight down from 1 m above the floor: the sphere's top (0.2 m up) at the centre, the
     * floor at the corners, both at their distance along the view axis */
    cs_camera c = {.azimuth = 90, .elevation = -90, .distance = 1, .fovy = 45};
    float *depth = malloc((size_t)W * H * sizeof *depth);
    int *seg = malloc((size_t)W * H * sizeof *seg);
    char err[256];
    ck_assert(depth && seg);
    ck_assert_int_eq(cs_render_offscreen_depth(R, &s, &c, W, H, depth, err, sizeof err), 0);
    ck_assert_double_eq_tol(depth[(H / 2) * W + W / 2], 0.8, 2e-3);
    ck_assert_double_eq_tol(depth[0], 1.0, 2e-3);
    ck_assert_double_eq_tol(depth[(size_t)W * H - 1], 1.0, 2e-3);
    ck_assert_int_eq(cs_render_offscreen_segment(R, &s, &c, W, H, seg, err, sizeof err), 0);
    ck_assert_int_eq(seg[(H / 2) * W + W / 2], 1);
    ck_assert_int_eq(seg[0], 0);
    /* hidden: not there */
    G[1].rgba[3] = 0;
    ck_assert_int_eq(cs_render_offscreen_segment(R, &s, &c, W, H, seg, err, sizeof err), 0);
    ck_assert_int_eq(seg[(H / 2) * W + W / 2], 0);
    /* looking up from above the floor: no geom, the far plane */
    c.elevation = 40;
    c.lookat[2] = 2;
    ck_assert_int_eq(cs_render_offscreen_segment(R, &s, &c, W, H, seg, err, sizeof err), 0);
    ck_assert_int_eq(cs_render_offscreen_depth(R, &s, &c, W, H, depth, err, sizeof err), 0);
    double zn, zf;
    s.extent = 1; /* the clipping planes' scale, known here */
    cs_camera_clip(&c, 1, &zn, &zf);
    ck_assert_int_eq(cs_render_offscreen_depth(R, &s, &c, W, H, depth, err, sizeof err), 0);
    for (int k = 0; k < W * H; k += 97) {
        ck_assert_int_eq(seg[k], -1);
        ck_assert_double_eq_tol(depth[k], zf, 1e-3 * zf);
    }
    /* bad sizes and outputs fail with a message */
    ck_assert_int_ne(cs_render_offscreen_depth(R, &s, &c, 0, H, depth, err, sizeof err), 0);
    ck_assert_int_ne(cs_render_offscreen_segment(R, &s, &c, W, H, NULL, err, sizeof err), 0);
    free(depth);
    free(seg);
}
END_TEST

START_TEST(timing_report)
{
    /* Not an assertion on speed (no timed tests): prints the cost for the report. */
    cs_camera c = camera();
    struct timespec t0, t1;
    const int sizes[2][2] = {{320, 240}, {1280, 720}};
    for (int k = 0; k < 2; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        free(render(CS_OVERLAY_DEFAULT | CS_OVERLAY_CONES, &c, w, h)); /* warm-up, FBO */
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 0; i < 3; i++)
            free(render(CS_OVERLAY_DEFAULT | CS_OVERLAY_CONES, &c, w, h));
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6) / 3;
        printf("off-screen frame %dx%d on %s: %.1f ms\n", w, h, cs_renderer_gl_name(R), ms);
    }
    const char *dir = getenv("CS_RENDER_TEST_OUT");
    if (dir) {
        /* For looking at: the test scene with all overlays. */
        char path[512], err[256];
        unsigned char *rgb = render(CS_OVERLAY_DEFAULT | CS_OVERLAY_CONES | CS_OVERLAY_FRAMES,
                                    &c, 1280, 720);
        snprintf(path, sizeof path, "%s/render_test.png", dir);
        ck_assert_int_eq(cs_png_write(path, 1280, 720, rgb, err, sizeof err), 0);
        free(rgb);
    }
    ck_assert_ptr_nonnull(R);
}
END_TEST

int main(void)
{
    char err[256];
    R = cs_renderer_create(W, H, "test", 1, err, sizeof err);
    if (!R) {
        fprintf(stderr, "skip: %s\n", err);
        return 77;
    }
    Suite *su = suite_create("render-gl");
    TCase *tc = tcase_create("offscreen");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, frame_has_size_and_many_colours);
    tcase_add_test(tc, sphere_centre_has_sphere_colour);
    tcase_add_test(tc, grid_is_visible);
    tcase_add_test(tc, force_arrow_above_the_contact);
    tcase_add_test(tc, cone_marks_a_sliding_contact);
    tcase_add_test(tc, marker_behind_a_body_is_hidden);
    tcase_add_test(tc, arrow_length_follows_the_force);
    tcase_add_test(tc, wireframe_and_hud_change_the_image);
    tcase_add_test(tc, all_primitives_drawn);
    tcase_add_test(tc, shadow_falls_on_the_plane);
    tcase_add_test(tc, joints_overlay_draws_a_limited_hinge);
    tcase_add_test(tc, png_round_trip);
    tcase_add_test(tc, screenshot_writes_png);
    tcase_add_test(tc, loop_runs_frames);
    tcase_add_test(tc, passive_window_syncs_and_closes);
    tcase_add_test(tc, depth_and_segmentation);
    tcase_add_test(tc, timing_report);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    /* One GL context for the whole run: no forking a process that holds it. */
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    cs_renderer_destroy(R);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
