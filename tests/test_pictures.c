/* Scenes styled for MuJoCo, drawn (a GL context: EGL, or a display or Xvfb; exit 77 =
 * skipped without one): a checker texture on a plane, a scene camera, a skybox, lights. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "headless.h"
#include "render.h"
#include "view_adapter.h"

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

/* A checker floor (red and blue 1 m squares: texrepeat 1 on an infinite plane), a red box
 * seen by a fixed camera (off to the side of the one looking down), a green-to-black
 * gradient skybox, cameras looking down and up. */
static const char *SCENE =
    "<mujoco>"
    "  <asset>"
    "    <texture name='sky' type='skybox' builtin='gradient' rgb1='0 1 0' rgb2='0 0 0'"
    "             width='16' height='96'/>"
    "    <texture name='check' type='2d' builtin='checker' rgb1='1 0 0' rgb2='0 0 1'"
    "             width='64' height='64'/>"
    "    <material name='floor' texture='check' texrepeat='1 1'/>"
    "    <material name='grey' rgba='0.5 0.5 0.5 1'/>"
    "  </asset>"
    "  <worldbody>"
    "    <geom name='floor' type='plane' size='0 0 1' material='floor'/>"
    "    <camera name='down' pos='0 0 2' fovy='90'/>"
    "    <camera name='up' pos='0 0 3' xyaxes='1 0 0 0 -1 0'/>"
    "    <camera name='front' pos='0 -20 1' xyaxes='1 0 0 0 0 1' fovy='20'/>"
    "    <body name='box' pos='0 -6 1'>"
    "      <geom type='box' size='0.5 0.5 0.5' material='grey' rgba='1 0 0 1'/>"
    "    </body>"
    "  </worldbody>"
    "</mujoco>";

typedef struct {
    cs_model *m;
    cs_data *d;
    cs_view v;
    cs_render_scene s;
    unsigned char rgb[W * H * 3];
} pic;

static void open_pic(pic *p, const char *xml)
{
    char err[1024];
    p->m = cs_load_xml_string(xml, "pictures.xml", NULL, err, sizeof err);
    ck_assert_msg(p->m != NULL, "%s", err);
    p->d = cs_make_data(p->m);
    ck_assert_int_eq(cs_view_init(&p->v, p->m, p->d, -1), 0);
    cs_render_scene_init(&p->s);
    cs_view_fill(&p->v, &p->s);
    p->s.overlay = 0;
    p->s.offscreen = 1;
}

static void close_pic(pic *p)
{
    cs_view_free(&p->v);
    cs_free_data(p->d);
    cs_free_model(p->m);
}

static const unsigned char *draw(pic *p, const cs_camera *c)
{
    char err[256];
    ck_assert_msg(cs_render_offscreen(R, &p->s, c, W, H, p->rgb, err, sizeof err) == 0, "%s", err);
    return p->rgb;
}

static const unsigned char *at(const unsigned char *rgb, double x, double y)
{
    return rgb + 3 * ((int)y * W + (int)x);
}

static const unsigned char *project(const unsigned char *rgb, const cs_camera *c, double x,
                                    double y, double z)
{
    double p[3] = {x, y, z}, px[2];
    ck_assert_int_eq(cs_camera_project(c, W, H, p, px), 0);
    ck_assert(px[0] > 0 && px[0] < W && px[1] > 0 && px[1] < H);
    return at(rgb, px[0], px[1]);
}

/* MuJoCo's plane coordinates: u = x/2 - 1/2, v = -y/2 - 1/2 per texrepeat; the checker's
 * top-left and bottom-right quarters are rgb1. So the 1 m square centred at (0.5, 0.5) is
 * rgb2 (blue), its neighbours along x and y rgb1 (red), the diagonal one blue again. */
START_TEST(checker_plane_alternates)
{
    pic *p = calloc(1, sizeof *p);
    open_pic(p, SCENE);
    cs_camera c;
    ck_assert_int_eq(cs_view_model_camera(&p->v, cs_name2id(p->m, "camera", "down"), &c), 0);
    const unsigned char *img = draw(p, &c);
    static const double sq[][3] = {{0.5, 0.5, 1}, {1.5, 0.5, 0}, {-0.5, 0.5, 0}, {0.5, -0.5, 0},
                                   {1.5, 1.5, 1}, {-1.5, -1.5, 1}, {1.5, -0.5, 1}};
    for (size_t k = 0; k < sizeof sq / sizeof *sq; k++) {
        const unsigned char *q = project(img, &c, sq[k][0], sq[k][1], 0);
        int blue = (int)sq[k][2];
        ck_assert_msg(blue ? q[2] > 3 * q[0] + 20 : q[0] > 3 * q[2] + 20,
                      "square at (%g, %g): rgb %d %d %d, expected %s", sq[k][0], sq[k][1], q[0],
                      q[1], q[2], blue ? "blue" : "red");
        ck_assert_int_lt(q[1], 30);
    }
    close_pic(p);
    free(p);
}
END_TEST

/* A named fixed camera 14 m in front of the box sees it red at the centre (the geom's rgba
 * overrides its material's grey), the sky above it */
START_TEST(named_camera_sees_the_box)
{
    pic *p = calloc(1, sizeof *p);
    open_pic(p, SCENE);
    cs_camera c;
    ck_assert_int_eq(cs_view_model_camera(&p->v, cs_name2id(p->m, "camera", "front"), &c), 0);
    const unsigned char *img = draw(p, &c);
    const unsigned char *mid = at(img, W / 2, H / 2);
    ck_assert_msg(mid[0] > 120 && mid[1] < 40 && mid[2] < 40, "centre %d %d %d", mid[0], mid[1],
                  mid[2]);
    /* above the horizon: the skybox's gradient, green-black, no red */
    const unsigned char *sky = at(img, 4, 4);
    ck_assert_msg(sky[1] > sky[0] + 10 && sky[2] < 40, "sky %d %d %d", sky[0], sky[1], sky[2]);
    close_pic(p);
    free(p);
}
END_TEST

/* Straight up, the skybox's top face: rgb1 (green) at its centre */
START_TEST(skybox_top_is_rgb1)
{
    pic *p = calloc(1, sizeof *p);
    open_pic(p, SCENE);
    cs_camera c;
    ck_assert_int_eq(cs_view_model_camera(&p->v, cs_name2id(p->m, "camera", "up"), &c), 0);
    const unsigned char *q = at(draw(p, &c), W / 2, H / 2);
    ck_assert_msg(q[1] > 200 && q[0] < 40 && q[2] < 40, "zenith %d %d %d", q[0], q[1], q[2]);
    close_pic(p);
    free(p);
}
END_TEST

/* The model's light decides the shading: a spot aimed at the box lights it; aimed away,
 * only the headlight and ambient remain */
START_TEST(lights_shade)
{
    static const char *fmt =
        "<mujoco><worldbody>"
        "  <light pos='0 -3 3' dir='%s' cutoff='20' diffuse='1 1 1' specular='0 0 0'/>"
        "  <camera name='c' pos='0 -4 1' xyaxes='1 0 0 0 0 1' fovy='30'/>"
        "  <body pos='0 0 1'><geom type='box' size='0.5 0.5 0.5' rgba='0.8 0.8 0.8 1'/></body>"
        "</worldbody></mujoco>";
    char xml[1024];
    int lit[2];
    for (int k = 0; k < 2; k++) {
        snprintf(xml, sizeof xml, fmt, k == 0 ? "0 3 -2" : "0 -3 2");
        pic *p = calloc(1, sizeof *p);
        open_pic(p, xml);
        cs_camera c;
        ck_assert_int_eq(cs_view_model_camera(&p->v, 0, &c), 0);
        lit[k] = at(draw(p, &c), W / 2, H / 2)[0];
        close_pic(p);
        free(p);
    }
    ck_assert_msg(lit[0] > lit[1] + 60, "towards %d, away %d", lit[0], lit[1]);
}
END_TEST

int main(void)
{
    char err[512];
    R = cs_renderer_create_headless(0, err, sizeof err);
    if (!R) {
        fprintf(stderr, "skip: %s\n", err);
        return 77;
    }
    Suite *s = suite_create("pictures");
    TCase *tc = tcase_create("pictures");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, checker_plane_alternates);
    tcase_add_test(tc, named_camera_sees_the_box);
    tcase_add_test(tc, skybox_top_is_rgb1);
    tcase_add_test(tc, lights_shade);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    cs_renderer_destroy(R);
    return failed ? 1 : 0;
}
