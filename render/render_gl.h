/* Internals shared by the GL sources of render/ (not installed, not for the adapter). */
#ifndef CS_RENDER_GL_H
#define CS_RENDER_GL_H

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "render.h"

typedef struct {
    GLuint vao, vbo, ibo;
    GLsizei count;
} cs_mesh;

enum { MESH_SPHERE, MESH_TUBE, MESH_DISK, MESH_BOX, MESH_QUAD, MESH_COUNT };

/* Low-resolution unit shapes for overlays, as plain triangle lists (x y z per vertex):
 * transformed on the CPU into one batch, so hundreds of arrows cost one draw call
 * (llvmpipe pays ~0.1 ms a draw). */
enum { TPL_SPHERE, TPL_TUBE, TPL_CONE, TPL_COUNT };

typedef struct {
    float *v;
    int n; /* vertices */
} cs_tpl;

/* Shading modes of the mesh program. */
enum { SHADE_LIT = 0, SHADE_FLAT = 1, SHADE_GRID = 2 };

struct cs_renderer {
    GLFWwindow *window;
    struct cs_egl *egl;         /* non-NULL: a headless EGL context (egl.c), no window */
    int hidden;
    char gl_name[128];
    GLuint prog_mesh, prog_sky, prog_2d;
    /* mesh program uniforms */
    GLint u_model, u_viewproj, u_normal, u_color, u_eye, u_mode, u_grid, u_emit;
    /* materials, textures and the model's lights (mesh program); the sky's texture */
    GLint u_texmode, u_tex, u_uvscale, u_uvoff, u_size, u_nface, u_mat, u_nlight;
    GLint u_lpos, u_ldir, u_lamb, u_ldif, u_lspec, u_lcut, u_lnorm;
    GLint us_cf, us_cr, us_cu, us_tex, us_mode, us_nface;
    GLint u2_viewport;
    cs_mesh mesh[MESH_COUNT];
    GLuint vao_empty;           /* the sky's attribute-less triangle */
    GLuint vao_2d, vbo_2d;      /* HUD triangles: x, y, r, g, b, a */
    float *buf_2d;
    size_t cap_2d;
    /* off-screen framebuffers, kept while the size stays the same */
    GLuint fbo_ms, rb_ms_color, rb_ms_depth, fbo, rb_color;
    int fbo_w, fbo_h, samples, want_samples;
    /* per-frame */
    float viewproj[16];
    double eye[3], unit;        /* overlay size unit (the scene extent) */
    cs_tpl tpl[TPL_COUNT];
    GLuint prog_batch, vao_batch, vbo_batch;
    GLint ub_viewproj;
    float *batch;               /* x y z r g b per vertex, world coordinates */
    size_t nbatch, cap_batch;
    GLuint vao_uv, vbo_uv;      /* a textured mesh: x y z nx ny nz u v per corner */
    float *uvbuf;
    size_t cap_uv;
    int shadow;                 /* drawing a shadow: shadow_mat pre-multiplies, flat colour */
    const float *flat;          /* non-NULL: every geom unlit in this colour (segmentation) */
    /* single-sampled framebuffer for depth and segmentation (exact values, no resolve) */
    GLuint fbo_plain, rb_plain_color, rb_plain_depth;
    int plain_w, plain_h;
    /* GL copies of the scene's textures, by texel pointer (the model's arrays) */
    struct { const int *texel; int w, h; GLuint id; } texcache[32];
    int ntexcache;
    int lit_by_model;           /* this frame has the model's lights */
    float shadow_mat[16];
};

/* window.c: a shown window driven by its events (keys, mouse: camera, overlays, selection,
 * the control panel) through the viewer state; the windowed loop's and the passive
 * window's. */
typedef struct cs_window_loop {
    cs_renderer *r;
    cs_viewer_state v;
    cs_input in;
    cs_render_scene scene;
    const cs_viewer_callbacks *cb;
    double cursor[2];   /* the last cursor position reported */
    int keys[64];       /* key presses (GLFW codes) not yet taken, oldest first */
    int nkey;
} cs_window_loop;
/* Opens and shows the window, L at the address it keeps (GLFW's user pointer). Returns 0,
 * or -1 with a message. cs_renderer_destroy(L->r) closes it. */
int cs_window_loop_open(cs_window_loop *L, const cs_viewer_options *o,
                        const cs_viewer_callbacks *cb, char *err, size_t errlen);
/* cb->fill, then the viewer state's overlays, selection, pause and the real-time factor. */
void cs_window_loop_fill(cs_window_loop *L, double rtf);
/* Draws the scene through the current camera into the window's back buffer; swap 1: first
 * moves the camera with the tracked body, then shows the frame. -1 when minimised. */
int cs_window_loop_draw(cs_window_loop *L, int swap);

/* context.c: hidden 0 = a shown window, 1 = a hidden 1x1 one (off-screen work), 2 = a
 * window of the full size not shown yet (the caller shows it once it keeps it) */
cs_renderer *cs_gl_create(int w, int h, const char *title, int hidden, int samples, char *err,
                          size_t errlen);
/* The programs, meshes and buffers, once r's context is current (r->window or r->egl set);
 * frees r and returns NULL on failure. */
cs_renderer *cs_gl_setup(cs_renderer *r, char *err, size_t errlen);
/* Makes r's context current (EGL or GLFW), releasing the other kind's first. */
void cs_gl_make_current(cs_renderer *r);
/* egl.c: a surfaceless (or device) EGL display with a GL 3.3 core context, current. */
struct cs_egl *cs_egl_create(char *err, size_t errlen);
void cs_egl_make_current(struct cs_egl *e);
/* Releases the thread's current EGL context, if any: Mesa refuses to make a GLX context
 * current over it (BadAccess), as a Renderer and a viewer window in one program need. */
void cs_egl_release(void);
void cs_egl_destroy(struct cs_egl *e);
/* mesh.c */
void cs_gl_build_meshes(cs_renderer *r);
/* draw.c */
void cs_gl_draw_mesh(cs_renderer *r, int mesh, const double rot[9], const double pos[3],
                     const double scale[3], const float rgba[4], int mode, float emit);
/* Unlit overlay primitives (world coordinates), batched until cs_gl_batch_flush. */
void cs_gl_ball(cs_renderer *r, const double p[3], double radius, const float rgb[3]);
void cs_gl_segment(cs_renderer *r, const double a[3], const double b[3], double radius,
                   const float rgb[3]);
void cs_gl_arrow(cs_renderer *r, const double from[3], const double vec[3], double radius,
                 const float rgb[3]);
void cs_gl_batch_flush(cs_renderer *r);
/* One triangle in one colour into the same batch. */
void cs_gl_triangle(cs_renderer *r, const double a[3], const double b[3], const double c[3],
                    const float rgb[3]);

/* draw.c: the segmentation frame (cs_render_offscreen_segment); the clipping planes it
 * drew with out */
void cs_gl_draw_ids(cs_renderer *r, const cs_render_scene *s, const cs_camera *cam, int w,
                    int h, double *znear, double *zfar);
/* depth_segment.c: frees the single-sampled framebuffer (context current) */
void cs_gl_free_plain(cs_renderer *r);

/* draw.c: the GL texture of t (uploaded on first use), 0 when the cache is full */
GLuint cs_gl_texture(cs_renderer *r, const cs_render_texture *t);

/* overlay.c */
double cs_scene_extent(const cs_render_scene *s);
double cs_scene_force_scale(const cs_render_scene *s);
void cs_gl_overlays(cs_renderer *r, const cs_render_scene *s);

/* hud.c: text and panels in window pixels (origin top-left). */
void cs_hud_begin(cs_renderer *r);
void cs_hud_rect(cs_renderer *r, float x, float y, float w, float h, const float rgba[4]);
/* Returns the text's width in pixels. */
float cs_hud_text(cs_renderer *r, float x, float y, float scale, const char *text,
                  const float rgba[4]);
float cs_hud_text_width(const char *text, float scale);
void cs_hud_end(cs_renderer *r, int w, int h);
void cs_gl_hud(cs_renderer *r, const cs_render_scene *s, int w, int h);

#endif
