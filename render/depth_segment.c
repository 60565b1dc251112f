/* Depth and segmentation pictures off-screen: the geoms drawn once into a single-sampled
 * framebuffer (multisampling would blend ids and depths at edges), read back as metres or
 * geom indices, rows top to bottom as cs_render_offscreen's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"

static int plain_fbo(cs_renderer *r, int w, int h, char *err, size_t errlen)
{
    if (r->fbo_plain && r->plain_w == w && r->plain_h == h)
        return 0;
    cs_gl_free_plain(r);
    glGenFramebuffers(1, &r->fbo_plain);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_plain);
    glGenRenderbuffers(1, &r->rb_plain_color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->rb_plain_color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              r->rb_plain_color);
    glGenRenderbuffers(1, &r->rb_plain_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, r->rb_plain_depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                              r->rb_plain_depth);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    r->plain_w = w;
    r->plain_h = h;
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        cs_gl_free_plain(r);
        snprintf(err, errlen, "framebuffer of %dx%d incomplete (0x%x)", w, h, st);
        return -1;
    }
    return 0;
}

/* Draws the ids frame into the plain framebuffer, left bound for reading. */
static int draw_ids(cs_renderer *r, const cs_render_scene *s, const cs_camera *c, int w, int h,
                    double *zn, double *zf, char *err, size_t errlen)
{
    GLint maxrb = 0;
    if (!r || !s || !c) {
        snprintf(err, errlen, "no renderer, scene or camera");
        return -1;
    }
    cs_gl_make_current(r);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxrb);
    if (w <= 0 || h <= 0 || w > maxrb || h > maxrb) {
        snprintf(err, errlen, "image size %dx%d not supported (1 to %d)", w, h, maxrb);
        return -1;
    }
    if (plain_fbo(r, w, h, err, errlen) != 0)
        return -1;
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_plain);
    cs_gl_draw_ids(r, s, c, w, h, zn, zf);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    return 0;
}

static int finish(char *err, size_t errlen)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "OpenGL error 0x%x while rendering", e);
        return -1;
    }
    return 0;
}

int cs_render_offscreen_depth(cs_renderer *r, const cs_render_scene *s, const cs_camera *c,
                              int w, int h, float *depth, char *err, size_t errlen)
{
    double zn, zf;
    if (!depth) {
        snprintf(err, errlen, "no output array");
        return -1;
    }
    if (draw_ids(r, s, c, w, h, &zn, &zf, err, errlen) != 0)
        return -1;
    float *tmp = malloc((size_t)w * h * sizeof *tmp);
    if (!tmp) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        snprintf(err, errlen, "out of memory for a %dx%d image", w, h);
        return -1;
    }
    glReadPixels(0, 0, w, h, GL_DEPTH_COMPONENT, GL_FLOAT, tmp);
    /* The perspective projection's window depth b in [0, 1] back to the distance along
     * the view axis: z = n / (1 - b (1 - n / f)) (MuJoCo's Renderer's formula); the
     * background (b = 1) is the far plane. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double b = tmp[(size_t)(h - 1 - y) * w + x];
            depth[(size_t)y * w + x] = (float)(c->ortho ? zn + b * (zf - zn) /* linear */
                                                        : zn / (1 - b * (1 - zn / zf)));
        }
    free(tmp);
    return finish(err, errlen);
}

int cs_render_offscreen_segment(cs_renderer *r, const cs_render_scene *s, const cs_camera *c,
                                int w, int h, int *geom, char *err, size_t errlen)
{
    if (!geom) {
        snprintf(err, errlen, "no output array");
        return -1;
    }
    if (draw_ids(r, s, c, w, h, NULL, NULL, err, errlen) != 0)
        return -1;
    unsigned char *tmp = malloc((size_t)w * h * 4);
    if (!tmp) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        snprintf(err, errlen, "out of memory for a %dx%d image", w, h);
        return -1;
    }
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, tmp);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const unsigned char *p = tmp + 4 * ((size_t)(h - 1 - y) * w + x);
            long id = (long)p[0] | (long)p[1] << 8 | (long)p[2] << 16;
            geom[(size_t)y * w + x] = id > 0 && id <= s->ngeom ? (int)(id - 1) : -1;
        }
    free(tmp);
    return finish(err, errlen);
}
